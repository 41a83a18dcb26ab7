"""The replay viewer as HTML: the table states of a hand as JSON, the tile set once as
``<symbol>``s, buttons, a slider and arrow keys (``viewer.js``), for the report's hand pages and
``mjstats audit --explain ID --html FILE``.

Self-contained: no network, no external file. The only script is ``viewer.js``, allowed by its
SHA-256 in the page's Content-Security-Policy; the states sit in a ``type="application/json"``
block with ``<``, ``>`` and ``&`` escaped, so record text can never close it or become markup.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Mapping, Sequence
from functools import cache
from html import escape
from importlib import resources

from mjstats.records import Hand
from mjstats.tiles import ALL_KINDS
from mjstats.viewer.table import TableView, voids_of
from mjstats.viewer.tiles_svg import tile_label, tile_symbols

__all__ = [
    "VIEWER_CSS",
    "decision_notes",
    "page_csp",
    "replay_page",
    "script_csp",
    "viewer_html",
    "viewer_payload",
    "viewer_script",
]

_TAKEN = 64  # a river tile taken by a claim is sent as its code + 64

VIEWER_CSS = """
.mj-viewer { border: 1px solid #e4e7eb; border-radius: 6px; padding: .6rem .8rem; margin: .6rem 0 1.2rem; }
.mj-controls { display: flex; flex-wrap: wrap; align-items: center; gap: .4rem; }
.mj-controls button { font: inherit; padding: .15rem .6rem; border: 1px solid #9aa5b1; border-radius: 4px;
  background: #f5f7fa; cursor: pointer; }
.mj-track { position: relative; flex: 1 1 18rem; min-width: 12rem; }
.mj-slider { width: 100%; }
.mj-ticks { position: relative; height: 6px; margin: 0 8px; }
.mj-tick { position: absolute; top: 0; width: 3px; height: 6px; margin-left: -1px; background: #d1495b; }
.mj-pos { color: #616e7c; font-size: .85rem; font-variant-numeric: tabular-nums; }
.mj-event { font-weight: 650; margin-top: .4rem; }
.mj-wall { color: #616e7c; font-size: .85rem; }
.mj-notes { margin: .2rem 0; padding-left: 1.2rem; font-size: .85rem; }
.mj-finding { color: #d1495b; font-weight: 600; }
.mj-flag { color: #a86b00; }
.mj-seat { padding: .3rem 0 .4rem; border-top: 1px solid #e4e7eb; }
.mj-seat.mj-actor .mj-seat-head { color: #1971c2; }
.mj-seat-head { font-size: .85rem; font-weight: 600; }
.mj-hand, .mj-river { display: flex; flex-wrap: wrap; align-items: flex-end; gap: 1px; }
.mj-drawn, .mj-meld, .mj-flowers { display: inline-flex; align-items: flex-end; gap: 1px;
  margin-left: .6rem; }
.mj-river { margin-top: .2rem; }
svg.mj-tile.mj-taken { opacity: .4; }
.mj-finding-list { font-size: .85rem; padding-left: 1.2rem; }
.mj-jump { font: inherit; font-size: .8rem; padding: 0 .3rem; cursor: pointer; }
"""


@cache
def viewer_script() -> str:
    """The viewer's JavaScript (``mjstats/viewer/viewer.js``)."""
    return resources.files("mjstats.viewer").joinpath("viewer.js").read_text(encoding="utf-8")


def script_csp() -> str:
    """The CSP source allowing exactly the viewer's script: ``'sha256-...'``."""
    digest = hashlib.sha256(viewer_script().encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def page_csp() -> str:
    """The Content-Security-Policy of a page with the viewer: nothing loads, only its script runs."""
    return f"default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src {script_csp()}"


def _json(value: object) -> str:
    """JSON safe inside an HTML ``<script>`` block: ``<``, ``>`` and ``&`` as \\u escapes."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def decision_notes(rows: Sequence[Mapping[str, object]]) -> dict[int, list[str]]:
    """Lines to show at each discard from rows of a ``decisions`` table (columns ``seq``,
    ``shanten_before``, ``shanten_after``, ``useful_kept``, ``useful_best``, ``best_discards``,
    ``danger``, ``flags``: a comma-separated string), by ``seq``."""
    out: dict[int, list[str]] = {}
    for row in rows:
        seq = row.get("seq")
        if seq is None or seq != seq:  # missing or NaN
            continue
        lines = []
        flags = str(row.get("flags") or "").strip()
        if flags:
            lines.append("flags: " + ", ".join(f.strip() for f in flags.split(",") if f.strip()))
        parts = []
        before, after = row.get("shanten_before"), row.get("shanten_after")
        if _known(before) and _known(after):
            parts.append(f"shanten {int(before)}→{int(after)}")  # type: ignore[arg-type]
        kept, best = row.get("useful_kept"), row.get("useful_best")
        if _known(kept) and _known(best):
            parts.append(f"useful tiles kept {int(kept)} of best {int(best)}")  # type: ignore[arg-type]
        if row.get("best_discards"):
            parts.append(f"best discards {row['best_discards']}")
        if _known(row.get("danger")):
            parts.append(f"danger {row['danger']}")
        if parts:
            lines.append("; ".join(parts))
        if lines:
            seat = row.get("seat")
            who = f"seat {int(seat)} " if _known(seat) else ""  # type: ignore[arg-type]
            out.setdefault(int(seq), []).extend(f"{who}decision: {line}" for line in lines)  # type: ignore[arg-type]
    return out


def _known(value: object) -> bool:
    return value is not None and value == value and value != ""  # NaN != NaN


def viewer_payload(hand: Hand, views: Sequence[TableView], prefix: str = "mjt") -> dict[str, object]:
    """The JSON the viewer steps through: the hand's setting and one compact state per event."""
    names = tuple(hand.players) + ("",) * (4 - len(hand.players))
    states = []
    for v in views:
        states.append(
            {
                "s": v.seq,
                "e": v.event,
                "a": v.actor,
                "w": v.wall,
                "n": v.note,
                "f": list(v.focus) if v.focus is not None else None,
                "x": [str(f) for f in v.findings],
                "g": list(v.flags),
                "h": [list(s.concealed) for s in v.seats],
                "d": [s.drawn for s in v.seats],
                "m": [[[list(m.tiles), m.rotated] for m in s.melds] for s in v.seats],
                "r": [[c + _TAKEN if taken else c for c, taken in s.river] for s in v.seats],
                "fl": [list(s.flowers) for s in v.seats],
            }
        )
    return {
        "prefix": prefix,
        "match": hand.match_id,
        "hand": hand.hand_no,
        "dealer": hand.dealer,
        "gold": None if hand.gold is None else int(hand.gold),
        "winds": [hand.seat_wind(s) for s in range(4)],
        "players": list(names[:4]),
        "voids": list(voids_of(hand)),
        "names": [t.botzone for t in ALL_KINDS],
        "labels": [tile_label(int(t)) for t in ALL_KINDS],
        "states": states,
    }


def viewer_html(
    hand: Hand,
    views: Sequence[TableView],
    *,
    prefix: str = "mjt",
    symbols: bool = True,
    result_findings: Sequence[str] = (),
) -> str:
    """One hand's viewer: controls, the table, the findings list, its JSON; with ``symbols``
    the tile set too (once per page: pass False for a page's second viewer). The script goes
    once per page after every viewer (:func:`viewer_script`)."""
    result_notes = "".join(f'<li class="mj-finding">result: {escape(text)}</li>' for text in result_findings)
    return (
        (tile_symbols(prefix) if symbols else "")
        + f'<div class="mj-viewer" data-match="{escape(hand.match_id)}" data-hand="{hand.hand_no}">'
        '<div class="mj-controls">'
        '<button type="button" class="mj-first" title="first event (Home)">« first</button>'
        '<button type="button" class="mj-prev" title="previous event (←)">‹ back</button>'
        '<button type="button" class="mj-next" title="next event (→)">next ›</button>'
        '<button type="button" class="mj-last" title="last event (End)">last »</button>'
        '<div class="mj-track"><input type="range" class="mj-slider" min="0" max="0" value="0" '
        'aria-label="event"><div class="mj-ticks"></div></div>'
        '<span class="mj-pos"></span></div>'
        '<div class="mj-event"></div><div class="mj-wall"></div>'
        '<ul class="mj-notes"></ul>'
        '<div class="mj-table"></div>'
        '<ul class="mj-finding-list">' + result_notes + "</ul>"
        '<script type="application/json" class="mj-data">'
        + _json(viewer_payload(hand, views, prefix))
        + "</script>"
        "</div>"
    )


def replay_page(hands: Sequence[tuple[Hand, Sequence[TableView], str]], title: str, version: str) -> str:
    """A whole HTML page of viewers (``mjstats audit --explain ID --html FILE``): per hand its
    viewer, then its ``--explain`` text."""
    body = []
    for i, (hand, views, text) in enumerate(hands):
        body.append(f"<h2>Match {escape(hand.match_id)}, hand {hand.hand_no}</h2>")
        body.append(viewer_html(hand, views, symbols=i == 0))
        body.append(f"<details><summary>Turn by turn as text</summary><pre>{escape(text)}</pre></details>")
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{page_csp()}">\n'
        f'<meta name="generator" content="mjstats {escape(version)}">\n'
        f"<title>{escape(title)} · mjstats</title>\n"
        "<style>body { font: 15px/1.5 system-ui, sans-serif; color: #1f2933; margin: 1rem 1.5rem; "
        "max-width: 1120px; } pre { background: #f5f7fa; padding: .8rem; overflow-x: auto; }"
        f"{VIEWER_CSS}</style>\n</head>\n<body>\n<h1>{escape(title)}</h1>\n"
        "<p>Step through the hand with the buttons, the slider or the arrow keys; events with an "
        "audit finding are marked on the slider and their tile is outlined in red.</p>\n"
        + "\n".join(body)
        + f"\n<script>{viewer_script()}</script>\n</body>\n</html>\n"
    )
