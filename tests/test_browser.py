"""The report in a real browser: headless Chromium loads the index and a period page from disk,
follows a link, and must log no console error while every figure renders with a non-zero size.

Chromium is driven through the DevTools protocol over a pipe (``--remote-debugging-pipe``:
JSON messages separated by NUL bytes on file descriptors 3 and 4), so no driver package is
needed. Skipped when Chromium is not installed (CI installs the Debian ``chromium`` package).
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from tests.test_report_data import (  # noqa: F401  (fixtures)
    bundled_dataset,
    bundled_report,
    first_month,
)

CHROMIUM = next(
    (shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None
)
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium)"
)

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--remote-debugging-pipe",
    "--window-size=1280,1000",
)
TIMEOUT = 30.0


class Browser:
    """A minimal DevTools client: one page, commands answered in order, events collected."""

    def __init__(self, profile: Path) -> None:
        to_child, self._send_fd = os.pipe()
        self._recv_fd, from_child = os.pipe()

        def wire() -> None:  # in the child: the protocol pipes on fds 3 (commands) and 4 (replies)
            r, w = os.dup(to_child), os.dup(from_child)
            os.dup2(r, 3)
            os.dup2(w, 4)

        self.proc = subprocess.Popen(
            [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=wire,
            pass_fds=(3, 4),
            close_fds=True,
        )
        os.close(to_child)
        os.close(from_child)
        self._buffer = b""
        self._next = 0
        self.events: list[dict[str, Any]] = []
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.call(f"{domain}.enable", session=True)

    def _read(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._recv_fd], [], [], left)[0]:
                raise TimeoutError("no answer from Chromium")
            chunk = os.read(self._recv_fd, 1 << 16)
            if not chunk:
                raise RuntimeError("Chromium closed the DevTools pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method: str, session: bool = False, **params: Any) -> dict[str, Any]:
        self._next += 1
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        os.write(self._send_fd, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + TIMEOUT
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self._next:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method: str, after: int) -> None:
        """Wait until an event ``method`` arrives beyond the first ``after`` events."""
        deadline = time.monotonic() + TIMEOUT
        while not any(e.get("method") == method for e in self.events[after:]):
            self.events.append(self._read(deadline))

    def evaluate(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", session=True, expression=expression, returnByValue=True)
        return result["result"].get("value")

    def load(self, url: str) -> None:
        mark = len(self.events)
        self.call("Page.navigate", session=True, url=url)
        self.wait_for("Page.loadEventFired", mark)

    def errors(self) -> list[str]:
        out = []
        for e in self.events:
            p = e.get("params", {})
            if e.get("method") == "Runtime.exceptionThrown":
                out.append(json.dumps(p.get("exceptionDetails", {}))[:300])
            elif e.get("method") == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                out.append(json.dumps(p.get("args", []))[:300])
            elif e.get("method") == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                out.append(p["entry"].get("text", "")[:300])
        return out

    def close(self) -> None:
        with contextlib.suppress(RuntimeError, TimeoutError, OSError):
            self.call("Browser.close")
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._send_fd)
        os.close(self._recv_fd)


FIGURE_SIZES = "[...document.querySelectorAll('svg.figure')].map(s => {const r = s.getBoundingClientRect(); return [r.width, r.height];})"  # noqa: E501


@pytest.fixture
def browser(tmp_path: Path):
    b = Browser(tmp_path / "profile")
    yield b
    b.close()


def test_pages_render_in_chromium(browser: Browser, bundled_report: Path, bundled_dataset: Path) -> None:  # noqa: F811
    index = (bundled_report / "index.html").resolve()
    browser.load(index.as_uri())
    assert browser.evaluate("document.title").startswith("Reports")
    month = first_month(bundled_dataset)
    link = browser.evaluate(f"document.querySelector('a[href=\"{month}.html\"]') !== null")
    assert link, "the index does not link the month's page"

    mark = len(browser.events)  # follow the link as a reader would: click it
    browser.evaluate(f"document.querySelector('a[href=\"{month}.html\"]').click()")
    browser.wait_for("Page.loadEventFired", mark)
    assert browser.evaluate("location.pathname").endswith(f"/{month}.html")
    sizes = browser.evaluate(FIGURE_SIZES)
    assert sizes, "no figure on the month's page"
    assert all(w > 100 and h > 30 for w, h in sizes), sizes
    sections = browser.evaluate("[...document.querySelectorAll('main section')].map(s => s.id)")
    assert "overview" in sections and "provenance" in sections

    browser.load((bundled_report / "all-time.html").resolve().as_uri())
    sizes = browser.evaluate(FIGURE_SIZES)
    assert len(sizes) >= 10 and all(w > 100 and h > 30 for w, h in sizes), sizes
    # the player named <script>alert(1)</script> is text, not an element
    assert browser.evaluate("document.querySelectorAll('script').length") == 0
    assert "<script>alert(1)</script>" in browser.evaluate("document.body.innerText")
    assert browser.errors() == []


TABLE_FIT = """[...document.querySelectorAll('main table')].map(t => {
  const w = t.parentElement;
  return [w.className, getComputedStyle(w).overflowX, t.getBoundingClientRect().width, w.clientWidth];
})"""


def test_wide_tables_scroll_inside_their_wrapper(browser: Browser, bundled_report: Path) -> None:  # noqa: F811
    page = (bundled_report / "all-time.html").resolve().as_uri()
    for width in (1280, 420):
        browser.call("Emulation.setDeviceMetricsOverride", session=True, width=width, height=900,
                     deviceScaleFactor=1, mobile=False)  # fmt: skip
        browser.load(page)
        tables = browser.evaluate(TABLE_FIT)
        assert tables and all(cls == "table-scroll" and overflow == "auto" for cls, overflow, _, _ in tables)
        # the page itself never scrolls sideways: a table wider than the column scrolls in place
        assert browser.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        if width == 1280:  # on a desktop window every table fits (intervals wrap under their value)
            assert all(w <= inner + 1 for _, _, w, inner in tables), tables
    browser.load((bundled_report / "findings.html").resolve().as_uri())
    assert browser.evaluate("document.querySelectorAll('a[href^=\\'hands/\\']').length") > 0
    assert browser.errors() == []


VIEWER_STATE = """(() => {
  const v = document.querySelector('.mj-viewer');
  const seats = [...v.querySelectorAll('.mj-seat')].map(s => ({
    hand: [...s.querySelectorAll('.mj-hand > svg.mj-tile')].map(t => t.dataset.tile),
    drawn: [...s.querySelectorAll('.mj-drawn svg.mj-tile')].map(t => t.dataset.tile),
    river: [...s.querySelectorAll('.mj-river svg.mj-tile')].map(t => t.dataset.tile),
  }));
  return {seq: +v.dataset.seq, event: v.querySelector('.mj-event').textContent, seats: seats,
          finding: v.querySelectorAll('svg.mj-hl-finding').length,
          notes: [...v.querySelectorAll('.mj-notes .mj-finding')].map(n => n.textContent),
          width: v.querySelector('svg.mj-tile').getBoundingClientRect().width};
})()"""


def _hand_page_with_finding(report: Path) -> tuple[Path, dict[str, Any], int]:
    """A hand page whose viewer has a finding at an event (not only on the result)."""
    for page in sorted((report / "hands").glob("*.html")):
        html = page.read_text(encoding="utf-8")
        start = html.index('class="mj-data">') + len('class="mj-data">')
        data = json.loads(html[start : html.index("</script>", start)])
        marked = [i for i, s in enumerate(data["states"]) if s["x"] and s["f"] is not None]
        if marked and marked[0] > 3:
            return page, data, marked[0]
    raise AssertionError("no hand page with a finding at an event")


def test_hand_page_viewer_steps_through_the_replay(
    browser: Browser, bundled_report: Path, bundled_dataset: Path  # noqa: F811
) -> None:
    from mjstats import open_dataset
    from mjstats.replay import replay_hand
    from mjstats.tiles import ALL_KINDS

    page, data, at = _hand_page_with_finding(bundled_report)
    hand = open_dataset(bundled_dataset).hand(data["match"], data["hand"])
    turns = replay_hand(hand, explain=True).turns
    browser.load(page.resolve().as_uri())
    steps = min(at - 1, 12)
    for _ in range(steps):
        browser.evaluate("document.querySelector('.mj-viewer .mj-next').click()")
    shown = browser.evaluate(VIEWER_STATE)
    turn = turns[steps]
    assert shown["seq"] == turn.seq and shown["event"] == f"#{turn.seq} {turn.event}"
    for seat in range(4):
        river = [ALL_KINDS[t].botzone for t, _ in turn.rivers[seat]]
        assert shown["seats"][seat]["river"] == river
        held = sorted(shown["seats"][seat]["hand"] + shown["seats"][seat]["drawn"])
        assert held == sorted(ALL_KINDS[t].botzone for t in turn.concealed[seat])
    assert shown["width"] > 20  # tiles are drawn at their size
    # the arrow keys walk on to the finding, which is outlined and listed
    browser.evaluate("document.querySelector('.mj-viewer').dispatchEvent(new Event('mousedown'))")
    for _ in range(at - steps):
        for kind in ("keyDown", "keyUp"):
            browser.call("Input.dispatchKeyEvent", session=True, type=kind, key="ArrowRight",
                         code="ArrowRight", windowsVirtualKeyCode=39)  # fmt: skip
    shown = browser.evaluate(VIEWER_STATE)
    assert shown["seq"] == data["states"][at]["s"]
    assert shown["finding"] >= 1 and shown["notes"] == data["states"][at]["x"]
    # the slider goes back to the start
    browser.evaluate(
        "(() => {const s = document.querySelector('.mj-slider'); s.value = 0;"
        " s.dispatchEvent(new Event('input'));})()"
    )
    assert browser.evaluate(VIEWER_STATE)["seq"] == data["states"][0]["s"]
    # a link with #eSEQ (the findings page's) opens the viewer at that event
    seq = data["states"][at]["s"]
    browser.load("about:blank")  # a new load, not a jump within the page
    browser.load(page.resolve().as_uri() + f"#e{seq}")
    assert browser.evaluate(VIEWER_STATE)["seq"] == seq
    assert browser.errors() == []  # the CSP lets the viewer's script run, and nothing else
