"""Fault generator for the audit tests: faulted copies of real hands and the check each must trip.

Every fault takes a clean :class:`Hand` and returns a copy with one defect (``dataclasses.replace``
on the hand, ``_replace`` on its named-tuple events) or None where the defect cannot be made in
that hand (a fan fault on an exhaustive draw). Events after an inserted or removed one are
renumbered so that ``seq`` stays 0, 1, 2, ...
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from mjstats.records import Event, EventKind, FanEntry, Hand, Outcome, Result
from mjstats.tiles import ALL_KINDS, Tile

__all__ = ["FAULTS", "Fault"]


@dataclass(frozen=True)
class Fault:
    """One kind of defect: its name, the check that must flag it, and how to make it."""

    name: str
    check: str
    make: Callable[[Hand], Hand | None]


def _renumber(events: list[Event]) -> tuple[Event, ...]:
    return tuple(e._replace(seq=i) for i, e in enumerate(events))


def _with_events(hand: Hand, events: list[Event]) -> Hand:
    return replace(hand, events=_renumber(events))


def wrong_fan_total(hand: Hand) -> Hand | None:
    result = hand.result
    if result.outcome is not Outcome.WIN or result.fan_total is None:
        return None
    return replace(hand, result=replace(result, fan_total=result.fan_total + 2))


def fan_name_swapped(hand: Hand) -> Hand | None:
    """Rename the first recorded fan to a fan the hand does not have (same count)."""
    result = hand.result
    if result.outcome is not Outcome.WIN or not result.fans:
        return None
    names = {f.name for f in result.fans}
    other = next(n for n in ("一般高", "喜相逢", "连六", "老少副", "幺九刻") if n not in names)
    fans = (FanEntry(other, result.fans[0].count, result.fans[0].points), *result.fans[1:])
    return replace(hand, result=replace(result, fans=fans))


def scores_swapped(hand: Hand) -> Hand | None:
    """Swap the scores of the first two seats whose scores differ."""
    scores = hand.result.scores
    if scores is None:
        return None
    for a in range(4):
        for b in range(a + 1, 4):
            if scores[a] != scores[b]:
                swapped = list(scores)
                swapped[a], swapped[b] = swapped[b], swapped[a]
                return replace(hand, result=replace(hand.result, scores=tuple(swapped)))
    return None


def chi_wrong_seat(hand: Hand) -> Hand | None:
    """Give a chi to the seat opposite the discarder; in a hand without chi, insert one."""
    events = list(hand.events)
    for i, ev in enumerate(events):
        if ev.kind is EventKind.CHI and ev.from_seat is not None:
            events[i] = ev._replace(seat=(ev.from_seat + 2) % 4)
            return _with_events(hand, events)
    for i, ev in enumerate(events):
        if ev.kind is EventKind.DISCARD and ev.tile is not None and ev.tile < 27:
            rank = ev.tile % 9
            middle = ev.tile + (1 if rank == 0 else -1 if rank == 8 else 0)
            chi = Event(
                0,
                EventKind.CHI,
                (ev.seat + 2) % 4,
                ALL_KINDS[middle],
                from_seat=ev.seat,
                claimed=ev.tile,
            )
            return _with_events(hand, [*events[: i + 1], chi, *events[i + 1 :]])
    return None


def discard_not_held(hand: Hand) -> Hand | None:
    """Make the first discard a tile kind the discarder does not hold (its deal and first draw)."""
    events = list(hand.events)
    for i, ev in enumerate(events):
        if ev.kind is EventKind.DISCARD:
            held = {t for e in events[:i] if e.seat == ev.seat for t in (*e.tiles, e.tile) if t is not None}
            absent = next(t for t in ALL_KINDS[:34] if t not in held)
            events[i] = ev._replace(tile=absent)
            return _with_events(hand, events)
    return None


def draw_as_false_win(hand: Hand) -> Hand | None:
    """Rewrite an exhaustive draw as a win by the next seat on the last discard."""
    if hand.result.outcome is not Outcome.DRAW:
        return None
    events = list(hand.events)
    last = next(e for e in reversed(events) if e.kind is EventKind.DISCARD)
    winner = (last.seat + 1) % 4
    hu = Event(0, EventKind.HU, winner, last.tile, from_seat=last.seat)
    scores = tuple(32 if s == winner else -16 if s == last.seat else -8 for s in range(4))
    result = Result(
        Outcome.WIN,
        winner=winner,
        loser=last.seat,
        win_tile=last.tile,
        fan_total=8,
        fans=(FanEntry("无番和", 1, 8),),
        scores=scores,
    )
    return replace(hand, events=_renumber([*events[:-1], hu]), result=result)


def fifth_copy_in_deal(hand: Hand) -> Hand | None:
    """Put into a deal a fifth copy of a kind whose four copies all enter play."""
    events = list(hand.events)
    seen: dict[Tile, int] = {}
    for ev in events:
        for t in (*ev.tiles, ev.tile) if ev.kind in (EventKind.DEAL, EventKind.DRAW) else ():
            if t is not None:
                seen[t] = seen.get(t, 0) + 1
    full = sorted(t for t, n in seen.items() if n == 4)
    if not full:
        return None
    for i, ev in enumerate(events):
        if ev.kind is EventKind.DEAL:
            position = next(j for j, t in enumerate(ev.tiles) if t != full[0])
            tiles = list(ev.tiles)
            tiles[position] = full[0]
            events[i] = ev._replace(tiles=tuple(tiles))
            return _with_events(hand, events)
    return None


def missing_draw(hand: Hand) -> Hand | None:
    """Drop an ordinary draw (one followed by the same seat's discard) from mid-hand."""
    events = list(hand.events)
    candidates = [
        i
        for i in range(1, len(events) - 1)
        if events[i].kind is EventKind.DRAW
        and events[i - 1].kind is EventKind.DISCARD
        and events[i + 1].kind is EventKind.DISCARD
        and events[i + 1].seat == events[i].seat
    ]
    if not candidates:
        return None
    i = candidates[len(candidates) // 2]
    return _with_events(hand, events[:i] + events[i + 1 :])


FAULTS: tuple[Fault, ...] = (
    Fault("wrong fan total", "win.fan_total", wrong_fan_total),
    Fault("fan name swapped", "win.fans", fan_name_swapped),
    Fault("two scores swapped", "result.scores", scores_swapped),
    Fault("chi by the wrong seat", "claim.chi_seat", chi_wrong_seat),
    Fault("discard of a tile not held", "tile.not_held", discard_not_held),
    Fault("exhaustive draw rewritten as a false win", "win.not_winning", draw_as_false_win),
    Fault("fifth copy of a tile in a deal", "tile.fifth_copy", fifth_copy_in_deal),
    Fault("missing draw", "turn.sequence", missing_draw),
)
