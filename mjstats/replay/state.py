"""The table state the replayer rebuilds event by event: hands, melds, rivers, walls, whose turn.

Mutable on purpose (one object per hand, updated in place for speed); :meth:`TableState.snapshot`
freezes it into a :class:`TurnState` for --explain.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from mjstats.replay.profile import Meld, Wall
from mjstats.tiles import NUM_TILES

__all__ = ["Phase", "SeatState", "TableState", "TurnState"]


class Phase(Enum):
    """What the table waits for; ``TableState.actor`` says whose move it is (or whose tile)."""

    DEAL = "deal"  # seats still to be dealt
    DRAW = "draw"  # actor must draw
    DISCARD = "discard"  # actor holds 14 and must discard, kong or win
    CLAIM = "claim"  # actor just discarded: others may claim, else the next seat draws
    KONG = "kong"  # actor just konged: a replacement draw is owed
    ROBBABLE = "robbable"  # actor just added a kong: others may rob it, else actor draws
    ENDED = "ended"  # Hu or Huang happened


class SeatState:
    """One seat: concealed tile counts (by code), melds, river, draws taken."""

    __slots__ = ("concealed", "draws", "held", "melds", "river", "size_reported")

    def __init__(self) -> None:
        self.concealed = [0] * NUM_TILES
        self.held = 0  # sum(concealed), kept up to date by the replayer
        self.melds: list[Meld] = []
        self.river: list[tuple[int, bool]] = []  # (tile, claimed by someone)
        self.draws = 0
        self.size_reported = False  # hand.size is reported once per seat

    def tile_count(self) -> int:
        """Tiles held, a kong counting as 3 (the size rules speak of 13/14)."""
        return self.held + 3 * len(self.melds)

    def concealed_tiles(self) -> tuple[int, ...]:
        return tuple(t for t, n in enumerate(self.concealed) for _ in range(n))


@dataclass(frozen=True, slots=True)
class TurnState:
    """The table after one event, for --explain: tiles in Botzone codes per seat."""

    seq: int
    event: str
    phase: str
    actor: int | None
    concealed: tuple[tuple[int, ...], ...]
    melds: tuple[tuple[Meld, ...], ...]
    rivers: tuple[tuple[tuple[int, bool], ...], ...]
    wall: str

    def _repr_svg_(self) -> str:
        """The table as tiles in a notebook (mjstats.viewer)."""
        from mjstats.viewer.render import table_svg
        from mjstats.viewer.table import turn_view

        return table_svg(turn_view(self))


class TableState:
    """Everything the checks need to know about the table at one moment of a hand."""

    __slots__ = (
        "actor",
        "after_kong",
        "dealt",
        "drawn",
        "last_tile",
        "phase",
        "seats",
        "seen",
        "visible",
        "wall",
    )

    def __init__(self, wall: Wall) -> None:
        self.seats = [SeatState() for _ in range(4)]
        self.wall = wall
        self.seen = [0] * NUM_TILES  # copies of each kind dealt or drawn so far
        self.visible = [0] * NUM_TILES  # unclaimed discards + exposed meld tiles (和绝张)
        self.dealt = [False] * 4
        self.phase = Phase.DEAL
        self.actor: int | None = None
        self.last_tile: int | None = None  # the pending discard or added-kong tile
        self.drawn: int | None = None  # the tile the actor just drew (None after a claim)
        self.after_kong = False  # that draw was a kong replacement

    def snapshot(self, seq: int, event: str) -> TurnState:
        return TurnState(
            seq=seq,
            event=event,
            phase=self.phase.value,
            actor=self.actor,
            concealed=tuple(s.concealed_tiles() for s in self.seats),
            melds=tuple(tuple(s.melds) for s in self.seats),
            rivers=tuple(tuple(s.river) for s in self.seats),
            wall=self.wall.describe(),
        )
