"""Recorded faults for audit tests: perturb a seeded share of simulated hands, one defect each,
and say exactly what was changed (written beside the output as FILE.faults.jsonl).

Each kind is a defect the audit checks for (docs/audit.md):

- ``fan``: the recorded fan total or one fan's count is wrong (win.fan_total / win.fans);
- a ruleset's own kinds (its ``faults`` part), e.g. a recorded pattern that is not the one
  the win scores;
- ``payment``: points moved between two seats, still zero-sum (result.scores);
- ``claim``: a claim recorded as taken over a higher-priority claim, which is recorded as
  ignored (claim.priority);
- ``tile``: a discard of a tile kind the seat never held (tile.not_held).

A ruleset whose spec sets ``faults_own_only`` (its payments and fans differ in shape, e.g.
several wins a hand) draws among its own ``fault_kinds`` only, with its own makers.

Only the record changes: the simulation goes on from the true hand, so later hands are clean.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, replace

from mjstats.records import Event, EventKind, FanEntry, Hand, Outcome
from mjstats.rulesets import get, rulesets
from mjstats.tiles import ALL_KINDS

__all__ = ["FAULT_KINDS", "InjectedFault", "inject_fault"]

Maker = Callable[[Hand, random.Random], "tuple[Hand, str] | None"]

# The order fixes the seeded choice of a kind, hence every simulated sample with faults: the
# rulesets' own kinds come right after "fan".
# A ruleset whose own makers replace the shared ones (``faults_own_only``) draws among its own
# ``fault_kinds`` instead and is not listed here.
FAULT_KINDS = (
    "fan",
    *(k for r in rulesets() if not r.faults_own_only for k in r.fault_kinds),
    "payment",
    "claim",
    "tile",
)


@dataclass(frozen=True, slots=True)
class InjectedFault:
    """One injected defect: which hand, which kind, and what exactly was changed."""

    match_id: str
    hand_no: int
    kind: str
    detail: str

    def to_json(self) -> str:
        return json.dumps(
            {"match_id": self.match_id, "hand_no": self.hand_no, "kind": self.kind, "detail": self.detail},
            ensure_ascii=False,
            separators=(",", ":"),
        )


def _renumbered(events: list[Event]) -> tuple[Event, ...]:
    return tuple(e._replace(seq=i) for i, e in enumerate(events))


def _fan(hand: Hand, rng: random.Random) -> tuple[Hand, str] | None:
    result = hand.result
    if result.outcome is not Outcome.WIN or result.fan_total is None:
        return None
    if result.fans and rng.random() < 0.5:
        i = rng.randrange(len(result.fans))
        fan = result.fans[i]
        fans = list(result.fans)
        fans[i] = FanEntry(fan.name, fan.count + 1, fan.points)
        return (
            replace(hand, result=replace(result, fans=tuple(fans))),
            f"fan {fan.name} count {fan.count} -> {fan.count + 1}",
        )
    delta = rng.randint(1, 3)
    return (
        replace(hand, result=replace(result, fan_total=result.fan_total + delta)),
        f"fan_total {result.fan_total} -> {result.fan_total + delta}",
    )


def _payment(hand: Hand, rng: random.Random) -> tuple[Hand, str] | None:
    scores = hand.result.scores
    if scores is None:
        return None
    a, b = rng.sample(range(4), 2)
    moved = rng.randint(1, 8)
    new = list(scores)
    new[a] += moved
    new[b] -= moved
    return (replace(hand, result=replace(hand.result, scores=tuple(new))), f"scores {list(scores)} -> {new}")


def _claim(hand: Hand, rng: random.Random) -> tuple[Hand, str] | None:
    """Record a higher-priority claim as ignored after a claim that was taken."""
    options: list[tuple[int, int, str]] = []  # (index of the claim event, seat, ignored kind)
    for i, ev in enumerate(hand.events):
        src = ev.from_seat
        if src is None or ev.seat is None:
            continue
        if ev.kind is EventKind.CHI:
            options.extend((i, s, "peng") for s in range(4) if s not in (ev.seat, src))
        elif ev.kind in (EventKind.PENG, EventKind.GANG):
            options.extend((i, s, "hu") for s in range(4) if s not in (ev.seat, src))
        elif ev.kind is EventKind.HU and ev.win is None and not get(hand.ruleset).win_may_jump:
            # (where a win may rightly jump a nearer winner, e.g. 抢炮和, no claim is a fault)
            won = (ev.seat - src) % 4
            options.extend((i, s, "hu") for s in range(4) if s != src and 0 < (s - src) % 4 < won)
    if not options:
        return None
    i, seat, kind = rng.choice(options)
    claim = hand.events[i]
    events = list(hand.events)
    events.insert(i + 1, Event(0, EventKind.IGNORED, seat, claim.tile, claim=kind))
    return (
        replace(hand, events=_renumbered(events)),
        f"seq {claim.seq}: seat {claim.seat}'s {claim.kind.value} taken over seat {seat}'s "
        f"{kind} (inserted as ignored)",
    )


def _playable(hand: Hand) -> list[int]:
    """Kinds a seat could hold: every kind; under a ruleset with a gold, suited kinds but the
    gold (its profiles may make honours flower tiles)."""
    if get(hand.ruleset).has_gold:
        return [k for k in range(27) if k != hand.gold]
    return list(range(34))


def _tile(hand: Hand, rng: random.Random) -> tuple[Hand, str] | None:
    """A discard, not claimed by anyone, changed to a kind the seat never held."""
    held: dict[int, set[int]] = {s: set() for s in range(4)}
    for ev in hand.events:
        if ev.seat is None:
            continue
        if ev.kind is EventKind.DEAL:
            held[ev.seat].update(ev.tiles)
        elif ev.kind is EventKind.DRAW and ev.tile is not None:
            held[ev.seat].add(ev.tile)
        elif ev.kind is EventKind.CHI and ev.claimed is not None:
            held[ev.seat].add(ev.claimed)
        elif ev.kind in (EventKind.PENG, EventKind.GANG) and ev.tile is not None:
            held[ev.seat].add(ev.tile)
    options = []
    events = hand.events
    for i, ev in enumerate(events[:-1]):
        if ev.kind is EventKind.DISCARD and events[i + 1].kind in (EventKind.DRAW, EventKind.HUANG):
            never = [k for k in _playable(hand) if k not in held[ev.seat]]  # type: ignore[index]
            if never:
                options.append((i, never))
    if not options:
        return None
    i, never = rng.choice(options)
    new_tile = ALL_KINDS[rng.choice(never)]
    old = events[i]
    changed = list(events)
    changed[i] = old._replace(tile=new_tile)
    return (
        replace(hand, events=tuple(changed)),
        f"seq {old.seq}: seat {old.seat} discards {new_tile} instead of {old.tile} (never held)",
    )


_MAKERS: dict[str, Maker] = {
    "fan": _fan,
    "payment": _payment,
    "claim": _claim,
    "tile": _tile,
}


def inject_fault(hand: Hand, rng: random.Random) -> tuple[Hand, InjectedFault]:
    """One defect of a kind chosen with ``rng`` among those the hand allows (a payment or tile
    fault is always possible in a simulated hand)."""
    ruleset = get(hand.ruleset)
    own = ruleset.load(ruleset.faults) if ruleset.faults is not None else {}
    shared = {} if ruleset.faults_own_only else _MAKERS
    if ruleset.faults_own_only:  # its own makers for every kind, in its own order
        kinds = list(ruleset.fault_kinds)
    else:
        kinds = [k for k in FAULT_KINDS if k in _MAKERS or k in own]
    rng.shuffle(kinds)
    for kind in kinds:
        made = (shared.get(kind) or own[kind])(hand, rng)
        if made is not None:
            faulty, detail = made
            return faulty, InjectedFault(hand.match_id, hand.hand_no, kind, detail)
    raise AssertionError("no fault could be made")  # pragma: no cover - payment always can
