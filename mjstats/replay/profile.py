"""What a rule profile tells the replayer: the walls, the deal, claim priority and how a win scores.

The replayer (``replayer.py``) is ruleset-neutral; everything that differs between platforms sits
behind :class:`ReplayProfile`, which each ruleset package implements for its platforms (per-seat
walls; one wall with a tail, flowers and a gold; ...).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from mjstats.records import Hand
from mjstats.replay.findings import Finding
from mjstats.replay.walls import SharedWall, Wall
from mjstats.rules.claims import CLAIM_RANK

__all__ = [
    "ComputedFan",
    "ComputedWin",
    "Meld",
    "ReplayProfile",
    "SequenceCheck",
    "SharedWall",
    "Wall",
    "WinContext",
]


@dataclass(frozen=True, slots=True)
class Meld:
    """An exposed or concealed set in the calculator's form ``(kind, tile, offer)``.

    CHI: tile = middle, offer 1..3 = which of the three was claimed. PENG/GANG: offer 1..3 =
    where it came from relative to the owner (1 previous seat, 2 opposite, 3 next); GANG offer 0
    = concealed kong.
    """

    kind: str  # "CHI" | "PENG" | "GANG"
    tile: int
    offer: int

    def as_tuple(self) -> tuple[str, int, int]:
        return (self.kind, self.tile, self.offer)

    @property
    def size(self) -> int:
        return 4 if self.kind == "GANG" else 3

    @property
    def tiles(self) -> tuple[int, ...]:
        if self.kind == "CHI":
            return (self.tile - 1, self.tile, self.tile + 1)
        return (self.tile,) * self.size

    def _repr_svg_(self) -> str:
        """The meld as tiles in a notebook, the claimed tile sideways (mjstats.viewer)."""
        from mjstats.viewer.render import meld_svg
        from mjstats.viewer.table import meld_view

        return meld_svg(meld_view(self))


@dataclass(frozen=True, slots=True)
class WinContext:
    """Everything the fan calculator needs about one win, derived by the replayer from the events.

    ``concealed`` excludes the winning tile. The flags follow the calculator's contract:
    ``kong_win`` is 杠上开花 on a self-draw and 抢杠和 on a robbed kong; ``last_tile`` is
    妙手回春 on a self-draw and 海底捞月 on a discard; ``fourth_tile`` is 和绝张.
    """

    winner: int
    discarder: int | None  # None on self-draw; the konger when robbing a kong
    concealed: tuple[int, ...]
    melds: tuple[Meld, ...]
    win_tile: int
    self_drawn: bool
    fourth_tile: bool
    kong_win: bool
    last_tile: bool
    seat_wind: int
    round_wind: int
    flowers: int = 0


@dataclass(frozen=True, slots=True)
class ComputedFan:
    """One recomputed fan: Chinese name, occurrences and points per occurrence."""

    name: str
    count: int
    points: int


@dataclass(frozen=True, slots=True)
class ComputedWin:
    """The recomputed value of a win: fans, total (flowers included), minimum met, payments."""

    fans: tuple[ComputedFan, ...]
    total: int
    meets_minimum: bool
    payments: tuple[int, ...]


class ReplayProfile(ABC):
    """The platform rules the replayer needs. Subclass per platform; instances are immutable."""

    name: str = ""
    ruleset: str = ""
    num_kinds: int = 34  # tile codes a hand may contain (42 with flowers)
    # botzone-format.md: Hu > Peng = Gang > Chi (the same order for every ruleset so far)
    claim_rank: ClassVar[Mapping[str, int]] = CLAIM_RANK
    hand_size: ClassVar[int] = 14  # tiles (kongs as 3) of the seat that discards or wins
    # several seats may win on one discard or robbed kong (duplicate MCR); else one winner
    several_winners: ClassVar[bool] = False
    # the replay class (a subclass of replayer.HandReplay) when the neutral one is not enough
    replay_class: ClassVar[Any] = None
    # the audit may give this profile's replays a hand without its events and the events as
    # columns (mjstats.event_columns): True only where nothing but the neutral replayer's event
    # loop reads ``Hand.events`` (not the profile's methods, not the replay class, which must
    # keep the neutral on_draw and on_discard), and there is no sequence_check
    reads_columns: ClassVar[bool] = False

    @abstractmethod
    def deal_size(self, hand: Hand, seat: int) -> int:
        """How many tiles ``seat`` is dealt."""

    @abstractmethod
    def first_to_draw(self, hand: Hand) -> bool:
        """True when the dealer draws before the first discard (Botzone), False when dealt 14+."""

    @abstractmethod
    def new_wall(self, hand: Hand) -> Wall:
        """The wall state at the start of ``hand``."""

    @abstractmethod
    def evaluate_win(self, ctx: WinContext) -> ComputedWin:
        """Score a win. Raises NotWinningHand / InvalidHand (mjstats.errors) when it is no win."""

    def fan_key(self, name: str) -> str:
        """The name a recorded fan is compared under (aliases of other calculator versions)."""
        return name

    def sequence_check(self) -> SequenceCheck | None:
        """A checker of rules that span consecutive hands of a match (dealer rotation,
        streaks), fed the hands in order by the audit; None when the rules have none."""
        return None


class SequenceCheck(ABC):
    """Rules across consecutive hands: fed every hand of a dataset in order, it returns the
    findings about each hand that only the hands before it can show."""

    @abstractmethod
    def check(self, hand: Hand) -> list[Finding]:
        """Findings about ``hand`` given the hands fed before it."""
