"""Hands, melds and tables as SVG and HTML for notebooks (``_repr_svg_`` / ``_repr_html_``).

Pure string building: tiles come from :mod:`mjstats.viewer.tiles_svg`, every text that comes
from a record (player names, match ids, messages) is escaped.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

from mjstats.records import EventKind, Hand
from mjstats.tiles import ALL_KINDS
from mjstats.viewer.table import MeldView, SeatView, TableView, voids_of
from mjstats.viewer.tiles_svg import TILE_H, TILE_W, Highlight, tile_group

__all__ = ["hand_html", "meld_svg", "table_html", "table_svg", "tiles_svg"]

_GAP = 2  # between tiles
_MELD_GAP = 10  # between groups
_WINDS = "ESWN"
_WINDS_CN = "东南西北"
_SVG = 'xmlns="http://www.w3.org/2000/svg"'
_TEXT = 'font-family="system-ui, sans-serif" font-size="12"'


def _e(text: object) -> str:
    return escape(str(text), quote=True)


class _Row:
    """Tiles laid left to right at one height: collects ``<g>`` elements and the width used."""

    def __init__(self, x: float = 0, y: float = 0, scale: float = 1.0) -> None:
        self.x0 = x
        self.x = x
        self.y = y
        self.scale = scale
        self.parts: list[str] = []

    def tile(
        self,
        code: int,
        *,
        gold: int | None = None,
        void: int | None = None,
        highlight: Highlight | None = None,
        rotated: bool = False,
        dim: bool = False,
    ) -> None:
        w, h = (TILE_H, TILE_W) if rotated else (TILE_W, TILE_H)
        dy = (TILE_H - h) if rotated else 0  # a sideways tile sits on the row's baseline
        g = tile_group(
            code,
            gold=gold is not None and code == gold,
            void=void is not None and 0 <= code < 27 and code // 9 == void,
            highlight=highlight,
            rotated=rotated,
        )
        opacity = ' opacity="0.45"' if dim else ""
        self.parts.append(
            f'<g transform="translate({self.x:g} {self.y + dy * self.scale:g}) '
            f'scale({self.scale:g})"{opacity}>{g}</g>'
        )
        self.x += (w + _GAP) * self.scale

    def gap(self, width: float = _MELD_GAP) -> None:
        self.x += width * self.scale

    def meld(self, meld: MeldView, *, gold: int | None = None, highlight: Highlight | None = None) -> None:
        for i, code in enumerate(meld.tiles):
            self.tile(code, gold=gold, highlight=highlight, rotated=meld.rotated == i)

    @property
    def width(self) -> float:
        return self.x - self.x0


def _svg(width: float, height: float, body: str, label: str) -> str:
    return (
        f'<svg {_SVG} viewBox="-3 -3 {width + 6:g} {height + 6:g}" width="{width + 6:g}" '
        f'height="{height + 6:g}" role="img" aria-label="{_e(label)}">{body}</svg>'
    )


def tiles_svg(
    tiles: Iterable[int],
    *,
    gold: int | None = None,
    void: int | None = None,
    highlight: Sequence[int] = (),
    scale: float = 1.0,
) -> str:
    """A row of tiles as one ``<svg>``; ``highlight``: positions to outline."""
    codes = [int(t) for t in tiles]
    row = _Row(scale=scale)
    for i, code in enumerate(codes):
        row.tile(code, gold=gold, void=void, highlight="current" if i in highlight else None)
    label = " ".join(ALL_KINDS[c].botzone if c >= 0 else "back" for c in codes) or "no tiles"
    return _svg(max(row.width - _GAP * scale, 0), TILE_H * scale, "".join(row.parts), label)


def meld_svg(meld: MeldView, *, gold: int | None = None) -> str:
    """One meld as an ``<svg>`` (the claimed tile sideways)."""
    row = _Row()
    row.meld(meld, gold=gold)
    label = " ".join(ALL_KINDS[c].botzone if c >= 0 else "back" for c in meld.tiles)
    return _svg(row.width - _GAP, TILE_H, "".join(row.parts), label)


_RIVER_SCALE = 0.72
_RIVER_PER_ROW = 18


def _seat_block(view: TableView, seat: SeatView, y: float) -> tuple[list[str], float, float]:
    """One seat's label, hand, melds, flowers and river from ``y``; (elements, height, width)."""
    focus = view.focus if view.focus is not None and view.focus[0] == seat.seat else None
    hl: Highlight = "finding" if view.findings else "current"
    dealer = " · dealer" if seat.seat == view.dealer else ""
    name = f" · {seat.name}" if seat.name else ""
    turn = " ◀" if view.actor == seat.seat else ""
    wind = f" · {_WINDS_CN[seat.wind]} {_WINDS[seat.wind]}" if 0 <= seat.wind < 4 else ""
    parts = [
        f'<text x="0" y="{y + 12:g}" {_TEXT} fill="#1f2933" font-weight="600">seat {seat.seat}{wind}'
        f"{_e(dealer)}{_e(name)}{turn}</text>"
    ]
    row = _Row(0, y + 18)
    for code in seat.concealed:
        row.tile(code, gold=view.gold, void=seat.void)
    if seat.drawn is not None:
        row.gap(8)
        on = hl if focus and focus[1] == "drawn" else None
        row.tile(seat.drawn, gold=view.gold, void=seat.void, highlight=on)
    for i, meld in enumerate(seat.melds):
        row.gap()
        row.meld(meld, gold=view.gold, highlight=hl if focus == (seat.seat, "meld", i) else None)
    if seat.flowers:
        row.gap()
        for i, code in enumerate(seat.flowers):
            row.tile(code, highlight=hl if focus == (seat.seat, "flower", i) else None)
    parts.extend(row.parts)
    width = row.width
    height = 18 + TILE_H + 6
    for start in range(0, len(seat.river), _RIVER_PER_ROW):
        river = _Row(0, y + height, _RIVER_SCALE)
        for i, (code, taken) in enumerate(seat.river[start : start + _RIVER_PER_ROW], start):
            highlight = hl if focus == (seat.seat, "river", i) else None
            river.tile(code, gold=view.gold, highlight=highlight, dim=taken)
        parts.extend(river.parts)
        width = max(width, river.width)
        height += TILE_H * _RIVER_SCALE + 4
    return parts, height + 8, width


def table_svg(view: TableView) -> str:
    """The table after one event as one ``<svg>``: the event, the wall, each seat's tiles and
    river, and the findings at the event."""
    parts = [
        f'<text x="0" y="12" {_TEXT} fill="#1f2933" font-weight="700">#{view.seq} {_e(view.event)}</text>',
        f'<text x="0" y="28" {_TEXT} fill="#616e7c">{_e(view.wall)}'
        + (f" · gold {_e(ALL_KINDS[view.gold].chinese)}" if view.gold is not None else "")
        + (f" · {_e(view.note)}" if view.note else "")
        + "</text>",
    ]
    y = 38.0
    width = 360.0
    for seat in view.seats:
        block, height, w = _seat_block(view, seat, y)
        parts.extend(block)
        y += height
        width = max(width, w)
    for line in [str(f) for f in view.findings] + ([f"flags: {', '.join(view.flags)}"] if view.flags else []):
        parts.append(f'<text x="0" y="{y + 12:g}" {_TEXT} fill="#d1495b">{_e(line)}</text>')
        y += 16
    return _svg(width, y, "".join(parts), f"match {view.match_id} hand {view.hand_no} after event {view.seq}")


def table_html(view: TableView) -> str:
    """:func:`table_svg` in a ``<div>`` (what a notebook shows for a table view)."""
    return f'<div class="mjstats-table">{table_svg(view)}</div>'


def _result_lines(hand: Hand) -> list[str]:
    result = hand.result
    lines = [f"result: {result.outcome.value}"]
    for win in result.wins:
        how = "self-drawn" if win.self_drawn else (f"from seat {win.loser}" if win.loser is not None else "")
        tile = "?" if win.win_tile is None else f"{win.win_tile.chinese} {win.win_tile.botzone}"
        fan = f", {win.fan_total} fan" if win.fan_total is not None else ""
        pattern = f", {win.pattern}" if win.pattern else ""
        lines.append(f"seat {win.winner} wins on {tile} {how}{fan}{pattern}".replace("  ", " "))
        if win.fans:
            names = (f"{f.name}×{f.count}" if f.count != 1 else f.name for f in win.fans)
            lines.append("fans: " + ", ".join(names))
    if result.scores is not None:
        lines.append("scores: " + " ".join(f"{s:+d}" for s in result.scores))
    return lines


def hand_html(hand: Hand) -> str:
    """A whole hand for a notebook: its setting, each seat's starting tiles and the result."""
    voids = voids_of(hand)
    dealt: list[list[int]] = [[], [], [], []]
    for event in hand.events:
        if event.kind is EventKind.DEAL and event.seat is not None and 0 <= event.seat < 4:
            dealt[event.seat].extend(int(t) for t in event.tiles)
    gold = None if hand.gold is None else int(hand.gold)
    setting = (
        f"match {hand.match_id} · hand {hand.hand_no} · {hand.ruleset}/{hand.profile} · dealer seat "
        f"{hand.dealer} · prevalent wind {_WINDS_CN[hand.prevalent_wind % 4]}"
        + (f" · gold {ALL_KINDS[gold].chinese}" if gold is not None else "")
        + (f" · {hand.started_at}" if hand.started_at else "")
        + f" · {len(hand.events)} events"
    )
    rows = []
    names = tuple(hand.players) + ("",) * 4
    for seat in range(4):
        label = f"seat {seat} {_WINDS_CN[hand.seat_wind(seat)]}" + (f" {names[seat]}" if names[seat] else "")
        tiles = tiles_svg(sorted(dealt[seat]), gold=gold, void=voids[seat], scale=0.8)
        rows.append(
            f'<tr><td style="padding:2px 8px;white-space:nowrap">{_e(label)}</td>'
            f'<td style="padding:2px">{tiles}</td></tr>'
        )
    result = "<br>".join(_e(line) for line in _result_lines(hand))
    return (
        f'<div class="mjstats-hand"><div style="font-weight:600">{_e(setting)}</div>'
        f'<table style="border-collapse:collapse">{"".join(rows)}</table>'
        f"<div>{result}</div></div>"
    )
