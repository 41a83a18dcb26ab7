"""What the integrity tests read from a hand's replay, computed once per hand.

The draw test (every draw's chance of improving) and ``collusion.danger`` (discards that
complete exactly one opponent's wait) replay each hand; the rest is counting. A report runs the
tests on every period page a hand belongs to (its month, quarter, year, all time): a
``ReplayCache`` shared by those runs replays each hand once and the pages only sum.
"""

from __future__ import annotations

from dataclasses import dataclass

from mjstats.integrity.danger import unique_targets
from mjstats.integrity.draws import draw_chances
from mjstats.integrity.tracker import InconsistentHand
from mjstats.records import Hand

__all__ = ["HandReplay", "ReplayCache", "replay_hand"]

CACHE_LIMIT = 200_000  # hands kept (about 1 kB each); past it, hands are replayed each time


@dataclass(frozen=True, slots=True)
class HandReplay:
    """A hand's draws (seat, chance of improving, improved), None when its events contradict
    themselves, and its danger discards (discarder, the one opponent completed, event index)."""

    draws: tuple[tuple[int, float, bool], ...] | None
    targets: tuple[tuple[int, int, int], ...]


def replay_hand(hand: Hand) -> HandReplay:
    """Replay ``hand`` once for the draw and danger tests."""
    try:
        draws: tuple[tuple[int, float, bool], ...] | None = tuple(draw_chances(hand))
    except InconsistentHand:
        draws = None
    return HandReplay(draws, tuple(unique_targets(hand)))


class ReplayCache:
    """Hand replays by (ruleset, match, hand number), shared by several runs over the same hands."""

    def __init__(self, limit: int = CACHE_LIMIT) -> None:
        self.limit = limit
        self.replays: dict[tuple[str, str, int], HandReplay] = {}

    def get(self, hand: Hand) -> HandReplay:
        key = (hand.ruleset, hand.match_id, hand.hand_no)
        found = self.replays.get(key)
        if found is None:
            found = replay_hand(hand)
            if len(self.replays) < self.limit:
                self.replays[key] = found
        return found
