"""The next hand's dealer of a Sichuan hand (reference sichuan.md §1.5), read from its events;
the audit compares it with the next hand of the match (``sichuan.dealer``)."""

from __future__ import annotations

from mjstats.records import EventKind, Hand
from mjstats.rulesets.sichuan.profiles import Profile

__all__ = ["next_dealer_of"]


def next_dealer_of(hand: Hand, rules: Profile) -> int:
    """The dealer of the hand after ``hand`` from its events (reference §1.5): the first win
    decides (one winner deals; several on one tile: the discarder); no win: per profile."""
    events = hand.events
    for i, ev in enumerate(events):
        if ev.kind is EventKind.HU and ev.seat is not None:
            if ev.from_seat is None:
                return ev.seat
            group = [ev]
            for nxt in events[i + 1 :]:
                if nxt.kind is not EventKind.HU or nxt.from_seat != ev.from_seat:
                    break
                group.append(nxt)
            if len(group) == 1:
                return ev.seat
            if rules.dealer.next_after_multi_win == "discarder":
                return ev.from_seat
            discarder = ev.from_seat
            return min((g.seat for g in group if g.seat is not None), key=lambda s: (s - discarder) % 4)
    return hand.dealer if rules.dealer.next_after_no_win == "stay" else (hand.dealer + 1) % 4
