"""Fuzhou's own recorded fault for audit tests (``simulate --faults``): the recorded pattern
is not the one the win scores (check fuzhou.pattern)."""

from __future__ import annotations

import random
from dataclasses import replace

from mjstats.records import FanEntry, Hand, Outcome
from mjstats.rulesets.fuzhou.settle import PATTERN_NAMES

__all__ = ["MAKERS", "pattern_fault"]


def pattern_fault(hand: Hand, rng: random.Random) -> tuple[Hand, str] | None:
    result = hand.result
    if result.outcome is not Outcome.WIN:
        return None
    choices = sorted(set(PATTERN_NAMES.values()) - {result.pattern})
    new = rng.choice(choices)
    fans = tuple(FanEntry(new, f.count, f.points) if f.name == result.pattern else f for f in result.fans)
    if result.pattern is None:
        fans = (*fans, FanEntry(new, 1, 0))
    return (
        replace(hand, result=replace(result, pattern=new, fans=fans)),
        f"pattern {result.pattern or '-'} -> {new}",
    )


MAKERS = {"pattern": pattern_fault}
