"""Hands as pictures: SVG tiles drawn by mjstats, tables at any event of a hand, and the replay
viewer the report's hand pages and ``mjstats audit --explain ID --html FILE`` show.

``mjstats.display(hand)`` shows a whole hand; ``mjstats.display(hand, at=seq)`` the table after
event ``seq``; ``Tiles("W1 W2 W3")`` a row of tiles. In Jupyter each of these (and a ``Hand``, a
``Meld``) displays as tiles by itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from mjstats.errors import MjstatsError
from mjstats.records import Hand
from mjstats.tiles import Tile, parse_tiles
from mjstats.viewer.render import hand_html, meld_svg, table_html, table_svg, tiles_svg
from mjstats.viewer.table import FindingMark, MeldView, SeatView, TableView, meld_view, table_views, voids_of
from mjstats.viewer.tiles_svg import BACK, TILE_H, TILE_W, tile_svg, tile_symbols

__all__ = [
    "BACK",
    "TILE_H",
    "TILE_W",
    "DisplayError",
    "FindingMark",
    "MeldView",
    "SeatView",
    "TableView",
    "Tiles",
    "display",
    "hand_html",
    "meld_svg",
    "meld_view",
    "table_html",
    "table_svg",
    "table_views",
    "tile_svg",
    "tile_symbols",
    "tiles_svg",
    "voids_of",
]


class DisplayError(MjstatsError):
    """Something asked to be shown that cannot be (an event the hand does not have)."""


class Tiles(tuple):
    """A row of tiles that a notebook shows as pictures: ``Tiles("W1 W2 W3")``, ``Tiles("123m")``."""

    __slots__ = ()

    def __new__(cls, tiles: str | Iterable[int | str] = ()) -> Tiles:
        return super().__new__(cls, parse_tiles(tiles))

    def __repr__(self) -> str:
        return f"Tiles({' '.join(Tile(t).botzone for t in self)!r})"

    def _repr_svg_(self) -> str:
        return tiles_svg(self)


def display(hand: Hand | Iterable[int | str] | str, at: int | None = None) -> Any:
    """Something that shows as tiles: a whole hand (``at`` None) or the table after the event
    numbered ``at`` (its ``seq``); tiles or a tile string give :class:`Tiles`."""
    if not isinstance(hand, Hand):
        if at is not None:
            raise DisplayError("at= needs a Hand")
        return Tiles(hand)
    if at is None:
        return hand
    views = table_views(hand)
    for view in views:
        if view.seq == at:
            return view
    seqs = [v.seq for v in views]
    span = f"{seqs[0]}..{seqs[-1]}" if seqs else "none"
    raise DisplayError(f"match {hand.match_id} hand {hand.hand_no}: no event {at} (events {span})")
