"""Sichuan tiles, suits and melds: the 27 suited kinds only, pongs and kongs only, the void suit.

Tiles are anything mjstats.tiles.parse_tile reads; an honour or a flower is refused (Sichuan
plays 108 suited tiles, reference §1.1). Melds are ``(kind, tile, offer)`` as in the other
engines: ``("PENG", tile, offer)`` and ``("GANG", tile, offer)`` with offer 0 for a concealed
kong (暗杠) and 1-3 for an exposed one (直杠 or 补杠); there is no chow (seed rule 2).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import compress
from typing import Any

from mjstats.errors import InvalidHand, TileError
from mjstats.tiles import SUITED, Tile, parse_tile, parse_tiles

__all__ = [
    "SUIT_NAMES",
    "Meld",
    "check_copies",
    "count_tiles",
    "meld_counts",
    "normalize_melds",
    "parse_suit",
    "suited_tile",
    "suited_tiles",
    "tiles_of",
]

SUIT_NAMES = ("W", "T", "B")  # suit index 0 万, 1 条, 2 筒 (the order of the tile codes)
_SUIT_ALIASES: dict[str, int] = {}
_SUIT_SPELLINGS = (("w", "m", "万", "萬"), ("t", "s", "条", "條", "索"), ("b", "p", "筒", "饼", "餅"))
for _i, _names in enumerate(_SUIT_SPELLINGS):
    for _n in _names:
        _SUIT_ALIASES[_n] = _i

Meld = tuple[str, Tile, int]  # ("PENG" | "GANG", tile, offer); GANG offer 0 = concealed kong
_MELD_KINDS = ("PENG", "GANG")


def suited_tile(value: object, what: str = "tile") -> Tile:
    """One tile of the 27 suited kinds; InvalidHand for an honour, a flower or bad notation."""
    if type(value) is Tile:
        tile = value
    else:
        try:
            tile = parse_tile(value)  # type: ignore[arg-type]
        except TileError as exc:
            raise InvalidHand(f"{what}: {exc}") from None
    if tile >= 27:
        raise InvalidHand(f"{what} {tile}: Sichuan plays only the 27 suited kinds (no honours or flowers)")
    return tile


def suited_tiles(values: Iterable[object], what: str = "hand") -> tuple[Tile, ...]:
    """Several suited tiles (see :func:`suited_tile`); a string is read with parse_tiles."""
    if isinstance(values, str):
        try:
            values = parse_tiles(values)
        except TileError as exc:
            raise InvalidHand(f"{what}: {exc}") from None
    items: tuple[Any, ...] = tuple(values)  # (Any: Tiles, checked below, or notations)
    for v in items:  # the common case: suited Tiles already (a plain loop: fast in both builds)
        if type(v) is not Tile or v >= 27:
            return tuple([suited_tile(v, what) for v in items])
    return items


def parse_suit(value: object) -> int:
    """A suit as 0 (W 万), 1 (T 条) or 2 (B 筒) from an int or a name (W/T/B, m/s/p, 万/条/筒)."""
    if type(value) is int and 0 <= value <= 2:  # the common case (a bool is no suit)
        return value
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 2:
        return value
    if isinstance(value, str):
        suit = _SUIT_ALIASES.get(value.strip().lower())
        if suit is not None:
            return suit
    raise InvalidHand(f"unknown suit {value!r}: one of W (万), T (条), B (筒)")


def normalize_melds(melds: Iterable[Sequence[object]]) -> tuple[Meld, ...]:
    """Melds as ``(kind, Tile, offer)``, kinds upper-case; InvalidHand on a bad meld or a chow."""
    out: list[Meld] = []
    for meld in melds:
        if len(meld) != 3:
            raise InvalidHand(f"a meld is (kind, tile, offer), got {meld!r}")
        kind, tile, offer = meld
        kind = str(kind).upper()
        if kind == "CHI":
            raise InvalidHand("Sichuan has no chow (seed rule 2: 可碰、可杠、不能吃)")
        if kind not in _MELD_KINDS:
            raise InvalidHand(f"unknown meld kind {kind!r}: one of {', '.join(_MELD_KINDS)}")
        if not isinstance(offer, int) or isinstance(offer, bool):
            raise InvalidHand(f"meld offer must be an int, got {offer!r}")
        # As in the other engines: PENG 1..3 (who offered), GANG 0..3 (0 = concealed).
        if not (0 if kind == "GANG" else 1) <= offer <= 3:
            raise InvalidHand(f"{kind} offer out of range: {offer}")
        out.append((kind, suited_tile(tile, "meld"), offer))
    if len(out) > 4:
        raise InvalidHand(f"{len(out)} melds: a hand has at most 4")
    return tuple(out)


def meld_counts(melds: Sequence[Meld]) -> list[int]:
    """Tiles per kind (27 entries) in the melds, a kong counting its four tiles."""
    counts = [0] * 27
    for kind, tile, _ in melds:
        counts[tile] += 4 if kind == "GANG" else 3
    return counts


def count_tiles(tiles: Iterable[int]) -> list[int]:  # (int: a compiled build indexes natively)
    """Tiles per kind (27 entries)."""
    counts = [0] * 27
    for t in tiles:
        counts[t] += 1
    return counts


def check_copies(counts: Sequence[int]) -> None:
    """InvalidHand when any kind appears more than four times (a 5th copy)."""
    if max(counts) <= 4:
        return
    for k, n in enumerate(counts):
        if n > 4:
            raise InvalidHand(f"{n} copies of {SUITED[k]}: there are only 4")


_KINDS = range(27)


def tiles_of(counts: Sequence[int]) -> tuple[Tile, ...]:
    """The tiles of a 27-kind count vector in kind order (a count below 1 gives none): the
    kinds held are picked in C, then each adds its copies at once."""
    out: list[Tile] = []
    for k in compress(_KINDS, counts):
        out += (SUITED[k],) * counts[k]
    return tuple(out)
