"""Tiles as SVG, drawn here with shapes and plain text (no images, no web fonts): every kind of
``mjstats.tiles``, a face-down tile, and the marks a table view needs (gold 金, void suit 缺,
highlighted, rotated for a claimed tile).

Pure functions returning SVG text; the same arguments always give the same bytes. A tile is
drawn in a 30 x 40 box (``TILE_W`` x ``TILE_H``); a rotated tile in a 40 x 30 one.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Literal

from mjstats.tiles import ALL_KINDS, NUM_TILES

__all__ = [
    "BACK",
    "HIGHLIGHTS",
    "TILE_H",
    "TILE_W",
    "Highlight",
    "tile_face",
    "tile_group",
    "tile_label",
    "tile_svg",
    "tile_symbols",
]

TILE_W = 30
TILE_H = 40
BACK = -1  # the code this module uses for a face-down tile

Highlight = Literal["current", "finding"]
HIGHLIGHTS: dict[str, str] = {"current": "#1971c2", "finding": "#d1495b"}

_FONT = "serif"  # a generic family: the viewer's own fonts draw the characters
_INK = "#1b2a4a"
_RED = "#c0392b"
_GREEN = "#1e7a4a"
_BLUE = "#1f4e96"
_GOLD = "#c99700"
_NUMERALS = "一二三四五六七八九"
_WINDS = "東南西北"
_WIND_LETTERS = "ESWN"
_FLOWERS = "春夏秋冬梅蘭竹菊"


def _text(x: float, y: float, text: str, size: float, fill: str, weight: str = "bold") -> str:
    return (
        f'<text x="{x:g}" y="{y:g}" font-family="{_FONT}" font-size="{size:g}" font-weight="{weight}" '
        f'fill="{fill}" text-anchor="middle">{text}</text>'
    )


# --- dots 筒: circle centres per rank, in a 30 x 40 face -----------------------------------------
_DOTS: dict[int, tuple[tuple[float, float], ...]] = {
    2: ((15, 11), (15, 29)),
    3: ((8, 9), (15, 20), (22, 31)),
    4: ((9, 11), (21, 11), (9, 29), (21, 29)),
    5: ((8.5, 9.5), (21.5, 9.5), (15, 20), (8.5, 30.5), (21.5, 30.5)),
    6: ((9, 9), (21, 9), (9, 20), (21, 20), (9, 31), (21, 31)),
    7: ((7, 7.5), (15, 11.5), (23, 15.5), (9.5, 25), (20.5, 25), (9.5, 33), (20.5, 33)),
    8: ((9.5, 7), (20.5, 7), (9.5, 15.7), (20.5, 15.7), (9.5, 24.3), (20.5, 24.3), (9.5, 33), (20.5, 33)),
    9: tuple((x, y) for y in (9, 20, 31) for x in (7.5, 15, 22.5)),
}


def _dot_colour(rank: int, i: int) -> str:
    if rank in (2, 4, 8):
        return (_GREEN, _BLUE)[i % 2] if rank != 4 else (_BLUE, _GREEN, _GREEN, _BLUE)[i]
    if rank in (5, 9):
        return _RED if i == len(_DOTS[rank]) // 2 else (_BLUE if rank == 5 else (_GREEN, _RED, _BLUE)[i // 3])
    if rank == 6:
        return _GREEN if i < 2 else _RED
    if rank == 7:
        return _GREEN if i < 3 else _RED
    return (_GREEN, _RED, _BLUE)[i % 3]


def _dots(rank: int) -> str:
    if rank == 1:  # one big dot, ringed
        return (
            f'<circle cx="15" cy="20" r="10.5" fill="none" stroke="{_GREEN}" stroke-width="2"/>'
            f'<circle cx="15" cy="20" r="7" fill="{_RED}"/>'
            f'<circle cx="15" cy="20" r="3" fill="#fbf8ef"/>'
        )
    r = 4.6 if rank <= 6 else 3.7
    parts = []
    for i, (x, y) in enumerate(_DOTS[rank]):
        colour = _dot_colour(rank, i)
        parts.append(f'<circle cx="{x:g}" cy="{y:g}" r="{r:g}" fill="{colour}"/>')
        parts.append(f'<circle cx="{x:g}" cy="{y:g}" r="{r / 2.4:.2f}" fill="#fbf8ef"/>')
    return "".join(parts)


# --- bamboo 条: sticks per row, top to bottom; a row's odd stick out (red) by index -------------
_BAMBOO_ROWS: dict[int, tuple[int, ...]] = {
    2: (1, 1),
    3: (1, 2),
    4: (2, 2),
    5: (2, 1, 2),
    6: (3, 3),
    7: (1, 3, 3),
    8: (4, 4),
    9: (3, 3, 3),
}


def _stick(x: float, y: float, w: float, h: float, fill: str) -> str:
    mid = y + h / 2
    return (
        f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="{w / 2:g}" fill="{fill}"/>'
        f'<line x1="{x:g}" y1="{mid:g}" x2="{x + w:g}" y2="{mid:g}" stroke="#fbf8ef" stroke-width="0.8"/>'
    )


def _bamboo(rank: int) -> str:
    if rank == 1:  # the bird of 一条: a body, a head, an eye, a tail of sticks
        return (
            f'<ellipse cx="15" cy="23" rx="7" ry="9" fill="{_GREEN}"/>'
            f'<circle cx="15" cy="11" r="4.5" fill="{_RED}"/>'
            f'<circle cx="16.2" cy="10.2" r="1.1" fill="#fbf8ef"/>'
            f'<path d="M13 16 L17 16 L15 19 Z" fill="{_GOLD}"/>'
            f'<path d="M9 31 L15 36 L21 31" fill="none" stroke="{_RED}" stroke-width="1.6"/>'
        )
    rows = _BAMBOO_ROWS[rank]
    gap = 2.0
    h = (32 - gap * (len(rows) - 1)) / len(rows)
    parts = []
    y = 4.0
    for r, n in enumerate(rows):
        w = 3.6 if n <= 3 else 3.0
        span = 22.0 if n > 1 else 0.0
        for i in range(n):
            x = 15 - w / 2 + (span * (i / (n - 1) - 0.5) if n > 1 else 0.0)
            red = (rank in (5, 9) and (n == 1 or (rank == 9 and i == 1))) or (rank == 7 and r == 0)
            parts.append(_stick(round(x, 2), round(y, 2), w, round(h, 2), _RED if red else _GREEN))
        y += h + gap
    return "".join(parts)


def _characters(rank: int) -> str:
    return (
        _text(5, 9, str(rank), 7, _INK, "normal")
        + _text(15, 18, _NUMERALS[rank - 1], 14, _INK)
        + _text(15, 36, "萬", 15, _RED)
    )


def _honour(code: int) -> str:
    if code < 31:  # winds
        i = code - 27
        return _text(5, 9, _WIND_LETTERS[i], 7, _INK, "normal") + _text(15, 29, _WINDS[i], 21, _INK)
    if code == 31:  # 中
        return _text(15, 29, "中", 22, _RED)
    if code == 32:  # 發
        return _text(15, 29, "發", 21, _GREEN)
    # 白: a blue frame, drawn
    return (
        f'<rect x="6" y="7" width="18" height="26" rx="1.5" fill="none" stroke="{_BLUE}" stroke-width="2"/>'
        f'<rect x="9" y="10" width="12" height="20" fill="none" stroke="{_BLUE}" stroke-width="0.8"/>'
    )


def _flower(code: int) -> str:
    i = code - 34
    colour = _GREEN if i < 4 else "#8e3b8e"  # seasons 春夏秋冬, flowers 梅兰竹菊
    petals = "".join(
        f'<circle cx="{cx:g}" cy="{cy:g}" r="2" fill="{_RED if i >= 4 else _GOLD}"/>'
        for cx, cy in ((22, 7), (25, 10), (22, 13), (19, 10))
    )
    return (
        petals
        + f'<circle cx="22" cy="10" r="1.2" fill="{_GOLD}"/>'
        + _text(6, 10, str(i % 4 + 1), 8, colour)
        + _text(15, 32, _FLOWERS[i], 17, colour)
    )


def _back() -> str:
    return (
        '<rect x="0.5" y="0.5" width="29" height="39" rx="3.5" fill="#1d6b4f" stroke="#0f3d2c"/>'
        '<rect x="3.5" y="3.5" width="23" height="33" rx="2" fill="#2f8a67" stroke="#8fd1b5" '
        'stroke-width="0.6"/>'
    )


_BODY = (
    '<rect x="0.5" y="0.5" width="29" height="39" rx="3.5" fill="#e2d8bd" stroke="#7d7360"/>'
    '<rect x="1.3" y="1.3" width="27.4" height="35.4" rx="3" fill="#fbf8ef"/>'
)


def tile_face(code: int) -> str:
    """The SVG elements of one tile in a 30 x 40 box: body and face (``BACK``: face-down)."""
    if code == BACK:
        return _back()
    if not 0 <= code < NUM_TILES:
        raise ValueError(f"no tile with code {code!r}")
    if code < 27:
        suit, rank = divmod(code, 9)
        face = (_characters, _bamboo, _dots)[suit](rank + 1)
    elif code < 34:
        face = _honour(code)
    else:
        face = _flower(code)
    return _BODY + face


def tile_label(code: int) -> str:
    """What a tile is called in titles and alt text: ``三万 W3``, or ``face-down tile``."""
    if code == BACK:
        return "face-down tile"
    tile = ALL_KINDS[code]
    return f"{tile.chinese} {tile.botzone}"


def _marks(gold: bool, void: bool, highlight: Highlight | None) -> str:
    """Marks over a tile: void greys it and says 缺, gold rings it and says 金, a highlight outlines it."""
    parts = []
    if void:
        parts.append(
            '<rect x="0.5" y="0.5" width="29" height="39" rx="3.5" fill="#6b7280" fill-opacity="0.45"/>'
        )
        parts.append(
            '<rect x="16" y="27" width="13" height="12" rx="2" fill="#4b5563"/>'
            + _text(22.5, 36.6, "缺", 10, "#ffffff")
        )
    if gold:
        parts.append(
            f'<rect x="1.2" y="1.2" width="27.6" height="37.6" rx="3.2" fill="none" stroke="{_GOLD}" '
            'stroke-width="2.4"/>'
        )
        parts.append(f'<circle cx="24" cy="6" r="6" fill="{_GOLD}"/>' + _text(24, 9.6, "金", 9, "#ffffff"))
    if highlight is not None:
        colour = HIGHLIGHTS[highlight]
        parts.append(
            f'<rect x="-1.5" y="-1.5" width="33" height="43" rx="5" fill="none" stroke="{colour}" '
            'stroke-width="3"/>'
        )
    return "".join(parts)


def tile_group(
    code: int,
    x: float = 0,
    y: float = 0,
    *,
    gold: bool = False,
    void: bool = False,
    highlight: Highlight | None = None,
    rotated: bool = False,
    symbol: str | None = None,
) -> str:
    """One tile as a ``<g>`` placed at (x, y) (its top-left corner; a rotated tile takes 40 x 30).

    ``symbol``: the id prefix of :func:`tile_symbols` on the page, to ``<use>`` the shared
    drawing instead of repeating it."""
    if symbol is not None:
        body = f'<use href="#{symbol}-{_symbol_name(code)}" width="{TILE_W}" height="{TILE_H}"/>'
    else:
        body = tile_face(code)
    place = f"translate({x + TILE_H:g} {y:g}) rotate(90)" if rotated else f"translate({x:g} {y:g})"
    title = f"<title>{tile_label(code)}</title>"
    return f'<g transform="{place}">{title}{body}{_marks(gold, void, highlight)}</g>'


def tile_svg(
    code: int,
    *,
    gold: bool = False,
    void: bool = False,
    highlight: Highlight | None = None,
    rotated: bool = False,
    height: float = 40,
) -> str:
    """One tile as a whole ``<svg>`` element, ``height`` pixels tall (upright)."""
    w, h = (TILE_H, TILE_W) if rotated else (TILE_W, TILE_H)
    pad = 2 if highlight is not None else 0
    scale = height / TILE_H
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{-pad} {-pad} {w + 2 * pad} {h + 2 * pad}" '
        f'width="{(w + 2 * pad) * scale:g}" height="{(h + 2 * pad) * scale:g}" role="img" '
        f'aria-label="{tile_label(code)}">'
        + tile_group(code, gold=gold, void=void, highlight=highlight, rotated=rotated)
        + "</svg>"
    )


def _symbol_name(code: int) -> str:
    return "back" if code == BACK else ALL_KINDS[code].botzone


def tile_symbols(prefix: str = "mjt", codes: Sequence[int] | None = None) -> str:
    """A hidden ``<svg>`` holding each tile's drawing once as a ``<symbol>`` (ids
    ``{prefix}-W1`` ... ``{prefix}-H8``, ``{prefix}-back``) and the marks (``{prefix}-mark-gold``,
    ``-void``, ``-current``, ``-finding``), for pages that draw many tiles."""
    return _symbols(prefix, None if codes is None else tuple(codes))


@lru_cache(maxsize=16)
def _symbols(prefix: str, codes: tuple[int, ...] | None) -> str:
    chosen = [*range(NUM_TILES), BACK] if codes is None else list(codes)
    symbols = "".join(
        f'<symbol id="{prefix}-{_symbol_name(c)}" viewBox="0 0 {TILE_W} {TILE_H}">{tile_face(c)}</symbol>'
        for c in chosen
    )
    # the marks, each in the tile's box grown by 2 on every side (a highlight reaches past the tile)
    marks = {
        "gold": _marks(True, False, None),
        "void": _marks(False, True, None),
        **{name: _marks(False, False, name) for name in HIGHLIGHTS},  # type: ignore[arg-type]
    }
    symbols += "".join(
        f'<symbol id="{prefix}-mark-{name}" viewBox="-2 -2 {TILE_W + 4} {TILE_H + 4}">{body}</symbol>'
        for name, body in marks.items()
    )
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0" style="position:absolute" '
        f'aria-hidden="true"><defs>{symbols}</defs></svg>'
    )
