"""The Sichuan replay's own seat state read as the shared table (what the decision judge reads).

:class:`SichuanReplay` keeps its seats in 27-kind counts and (kind, tile, offer) melds, its turn
as a mode, and no rivers; :class:`SichuanTable` answers the judge's questions
(``mjstats.decision.view.Table``) from that state at the moment they are asked, so the replay
itself keeps no second copy and loses no speed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mjstats.replay.profile import Meld
from mjstats.replay.state import Phase

if TYPE_CHECKING:
    from mjstats.rulesets.sichuan.replay import SichuanReplay, _Seat

__all__ = ["SichuanTable"]

_PAD = [0] * 7  # kinds 27-33 (honours): none in Sichuan (reference sichuan.md §1.1)
_PHASES = {
    "turn": Phase.DISCARD,
    "claim": Phase.CLAIM,
    "draw": Phase.DRAW,
    "kong": Phase.KONG,
    "rob": Phase.ROBBABLE,
}


class _SeatReading:
    """One seat: its concealed counts over the 34 kinds, its melds as ``Meld``."""

    __slots__ = ("seat",)

    def __init__(self, seat: _Seat) -> None:
        self.seat = seat

    @property
    def concealed(self) -> list[int]:
        return [*self.seat.counts, *_PAD]

    @property
    def melds(self) -> list[Meld]:
        return [Meld(kind, tile, offer) for kind, tile, offer in self.seat.melds]


class SichuanTable:
    """A live reading of one Sichuan replay's table (nothing copied, nothing kept)."""

    __slots__ = ("replay", "seats")

    def __init__(self, replay: SichuanReplay) -> None:
        self.replay = replay
        self.seats = tuple(_SeatReading(p) for p in replay.p)

    @property
    def wall(self) -> SichuanTable:
        return self  # reference sichuan.md §1.2: one wall, the same tiles left for every seat

    def remaining(self, seat: int) -> int:
        return max(self.replay.left, 0)

    @property
    def phase(self) -> Phase:
        replay = self.replay
        if replay.stage == "ended":
            return Phase.ENDED
        if replay.stage != "play":
            return Phase.DEAL  # deal, 换三张, 定缺
        return _PHASES[replay.mode]

    @property
    def actor(self) -> int | None:
        return self.replay.actor

    @property
    def drawn(self) -> int | None:
        """The tile the seat to discard just drew (None after a pong: it drew nothing)."""
        replay = self.replay
        return replay.tile if replay.stage == "play" and replay.mode == "turn" else None

    @property
    def last_tile(self) -> int | None:
        """The discard or added-kong tile others may win on."""
        replay = self.replay
        return replay.tile if replay.mode in ("claim", "rob") else None

    @property
    def visible(self) -> list[int]:
        """Copies of each kind face up: every tile that entered a hand (``seen``: dealt or
        drawn) and is not concealed in a hand still hidden. That is the rivers, the exposed
        melds, the concealed kongs (reference sichuan.md §2.7: laid face up, the kind public),
        the won discards and, under ``play.winner_hand_public`` (§2.10), the winners' hands."""
        replay = self.replay
        shown = replay.rules.play.winner_hand_public
        out = list(replay.seen)
        for p in replay.p:
            if not (p.won and shown):
                out = [n - c for n, c in zip(out, p.counts, strict=True)]
        return [max(n, 0) for n in out] + _PAD
