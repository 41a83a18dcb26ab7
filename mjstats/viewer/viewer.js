// mjstats replay viewer: steps through the table states embedded as JSON next to each
// .mj-viewer element (computed by mjstats.viewer.page from the replay). Vanilla JS, no network;
// record text is only ever set as textContent.
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var WINDS = ["\u4e1c E", "\u5357 S", "\u897f W", "\u5317 N"];
  var active = null;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function use(g, href, x, y, w, h) {
    var u = document.createElementNS(NS, "use");
    u.setAttribute("href", href);
    u.setAttribute("x", x); u.setAttribute("y", y);
    u.setAttribute("width", w); u.setAttribute("height", h);
    g.appendChild(u);
  }

  function Viewer(root) {
    this.root = root;
    this.data = JSON.parse(root.querySelector("script.mj-data").textContent);
    this.prefix = this.data.prefix;
    this.states = this.data.states;
    this.i = 0;
    this.build();
    var start = 0;
    var m = /^#e(\d+)$/.exec(location.hash);
    if (m) {
      for (var k = 0; k < this.states.length; k++) if (this.states[k].s === +m[1]) start = k;
    }
    this.show(start);
  }

  Viewer.prototype.tile = function (code, opts) {
    var d = this.data;
    var rot = !!opts.rot, scale = opts.scale || 1;
    var w = rot ? 44 : 34, h = rot ? 34 : 44;
    var svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", "-2 -2 " + w + " " + h);
    svg.setAttribute("width", w * scale);
    svg.setAttribute("height", h * scale);
    var cls = "mj-tile";
    if (opts.hl) cls += " mj-hl-" + opts.hl;
    if (opts.taken) cls += " mj-taken";
    svg.setAttribute("class", cls);
    var name = code < 0 ? "back" : d.names[code];
    svg.setAttribute("data-tile", name);
    var title = document.createElementNS(NS, "title");
    title.textContent = code < 0 ? "face-down tile" : d.labels[code];
    svg.appendChild(title);
    var g = document.createElementNS(NS, "g");
    if (rot) g.setAttribute("transform", "translate(40 0) rotate(90)");
    use(g, "#" + this.prefix + "-" + name, 0, 0, 30, 40);
    var gold = code >= 0 && code === d.gold;
    var vd = opts.void !== null && opts.void !== undefined && code >= 0 && code < 27 && Math.floor(code / 9) === opts.void;
    if (vd) use(g, "#" + this.prefix + "-mark-void", -2, -2, 34, 44);
    if (gold) use(g, "#" + this.prefix + "-mark-gold", -2, -2, 34, 44);
    if (opts.hl) use(g, "#" + this.prefix + "-mark-" + opts.hl, -2, -2, 34, 44);
    svg.appendChild(g);
    return svg;
  };

  Viewer.prototype.build = function () {
    var self = this, r = this.root;
    this.slider = r.querySelector("input.mj-slider");
    this.slider.max = this.states.length - 1;
    r.querySelector("button.mj-first").addEventListener("click", function () { self.show(0); });
    r.querySelector("button.mj-prev").addEventListener("click", function () { self.show(self.i - 1); });
    r.querySelector("button.mj-next").addEventListener("click", function () { self.show(self.i + 1); });
    r.querySelector("button.mj-last").addEventListener("click", function () { self.show(self.states.length - 1); });
    this.slider.addEventListener("input", function () { self.show(+self.slider.value); });
    r.addEventListener("mousedown", function () { active = self; });
    r.addEventListener("focusin", function () { active = self; });
    // findings: a mark under the slider at each event with one, and a list jumping to them
    var ticks = r.querySelector(".mj-ticks"), list = r.querySelector(".mj-finding-list");
    var n = Math.max(this.states.length - 1, 1);
    this.states.forEach(function (st, k) {
      if (!st.x.length) return;
      var t = el("span", "mj-tick");
      t.style.left = (100 * k / n) + "%";
      t.title = "#" + st.s;
      ticks.appendChild(t);
      st.x.forEach(function (text) {
        var li = el("li"), b = el("button", "mj-jump", "#" + st.s);
        b.type = "button";
        b.addEventListener("click", function () { self.show(k); });
        li.appendChild(b);
        li.appendChild(document.createTextNode(" " + text));
        list.appendChild(li);
      });
    });
    this.table = r.querySelector(".mj-table");
  };

  Viewer.prototype.show = function (k) {
    var d = this.data;
    k = Math.max(0, Math.min(this.states.length - 1, k));
    this.i = k;
    this.slider.value = k;
    var st = this.states[k];
    var r = this.root;
    r.querySelector(".mj-pos").textContent = "event " + (k + 1) + " of " + this.states.length;
    r.querySelector(".mj-event").textContent = "#" + st.s + " " + st.e;
    r.querySelector(".mj-wall").textContent = st.w + (st.n ? " \u00b7 " + st.n : "");
    r.setAttribute("data-seq", st.s);
    var notes = r.querySelector(".mj-notes");
    notes.textContent = "";
    st.x.forEach(function (text) { notes.appendChild(el("li", "mj-finding", text)); });
    st.g.forEach(function (text) { notes.appendChild(el("li", "mj-flag", text)); });
    var hl = st.x.length ? "finding" : "current";
    var f = st.f;
    var table = this.table;
    table.textContent = "";
    for (var s = 0; s < 4; s++) {
      var seat = el("div", "mj-seat" + (st.a === s ? " mj-actor" : ""));
      seat.setAttribute("data-seat", s);
      var head = "seat " + s + " \u00b7 " + WINDS[d.winds[s]] + (s === d.dealer ? " \u00b7 dealer" : "");
      if (d.players[s]) head += " \u00b7 " + d.players[s];
      if (d.voids[s] !== null) head += " \u00b7 void " + "\u4e07\u6761\u7b52".charAt(d.voids[s]);
      seat.appendChild(el("div", "mj-seat-head", head));
      var hand = el("div", "mj-hand"), v = d.voids[s];
      var mine = f && f[0] === s;
      var self = this;
      st.h[s].forEach(function (c) { hand.appendChild(self.tile(c, { void: v })); });
      if (st.d[s] !== null) {
        var drawn = el("span", "mj-drawn");
        drawn.appendChild(this.tile(st.d[s], { void: v, hl: mine && f[1] === "drawn" ? hl : null }));
        hand.appendChild(drawn);
      }
      st.m[s].forEach(function (meld, i) {
        var box = el("span", "mj-meld");
        var on = mine && f[1] === "meld" && f[2] === i ? hl : null;
        meld[0].forEach(function (c, j) { box.appendChild(self.tile(c, { rot: meld[1] === j, hl: on })); });
        hand.appendChild(box);
      });
      if (st.fl[s].length) {
        var fl = el("span", "mj-flowers");
        st.fl[s].forEach(function (c, i) {
          fl.appendChild(self.tile(c, { scale: 0.8, hl: mine && f[1] === "flower" && f[2] === i ? hl : null }));
        });
        hand.appendChild(fl);
      }
      seat.appendChild(hand);
      var river = el("div", "mj-river");
      st.r[s].forEach(function (c, i) {
        var taken = c >= 64;
        river.appendChild(self.tile(taken ? c - 64 : c, {
          scale: 0.72, taken: taken, hl: mine && f[1] === "river" && f[2] === i ? hl : null }));
      });
      seat.appendChild(river);
      table.appendChild(seat);
    }
  };

  document.addEventListener("keydown", function (e) {
    if (!active || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target && e.target.tagName === "INPUT") return;  // the slider steps itself
    var k = { ArrowRight: active.i + 1, ArrowLeft: active.i - 1, Home: 0, End: active.states.length - 1 }[e.key];
    if (k === undefined) return;
    e.preventDefault();
    active.show(k);
  });

  var roots = document.querySelectorAll(".mj-viewer");
  for (var i = 0; i < roots.length; i++) {
    var v = new Viewer(roots[i]);
    if (!active) active = v;
  }
})();
