"""Recorded defects for simulated Sichuan hands (``mjstats simulate --rules sichuan --faults P``),
so tests know which hands the audit must flag and why (docs/simulation.md):

- ``payment``: one payment (both rows) recorded at twice its amount;
- ``void_discard``: a discard of a tile outside the void suit while the player holds its void suit
  (reference §2.3, strict);
- ``chow``: a chow-like claim on a discard (Sichuan has no chow, seed rule 2);
- ``cha_jiao``: a 查大叫 payment recorded at twice its amount (hands ending in an exhaustive draw
  with one);
- ``fan``: a win's recorded fan total one too high.

Each maker changes the record only from the chosen point on, so the audit sees the defect with the
table exactly as it was.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

from mjstats.records import Event, EventKind, Hand, PaymentReason, Result
from mjstats.tiles import SUITED

__all__ = ["MAKERS", "SICHUAN_FAULT_KINDS", "sichuan_fault"]

SICHUAN_FAULT_KINDS = ("payment", "void_discard", "chow", "cha_jiao", "fan")


def _with_payments(hand: Hand, payments: list) -> Hand:
    r = hand.result
    return replace(hand, result=Result(r.outcome, wins=r.wins, payments=tuple(payments)))


def _doubled(hand: Hand, rng: random.Random, reason: PaymentReason | None) -> tuple[Hand, str] | None:
    pays = list(hand.result.payments)
    pairs = [i for i in range(0, len(pays) - 1, 2) if reason is None or pays[i].reason is reason]
    if not pairs:
        return None
    i = rng.choice(pairs)
    for j in (i, i + 1):
        pays[j] = replace(pays[j], score=2 * pays[j].score)
    old = pays[i].score // 2
    row = pays[i]
    what = f"payment {i // 2} ({row.reason.value}): seat {row.seat} {old:+d} recorded as {row.score:+d}"
    return _with_payments(hand, pays), what


def _payment(hand: Hand, rng: random.Random) -> tuple[Hand, str] | None:
    return _doubled(hand, rng, None)


def _cha_jiao(hand: Hand, rng: random.Random) -> tuple[Hand, str] | None:
    return _doubled(hand, rng, PaymentReason.SETTLEMENT)


def _fan(hand: Hand, rng: random.Random) -> tuple[Hand, str] | None:
    wins = list(hand.result.wins)
    scored = [i for i, w in enumerate(wins) if w.fan_total is not None]
    if not scored:
        return None
    i = rng.choice(scored)
    old = wins[i].fan_total
    assert old is not None
    wins[i] = replace(wins[i], fan_total=old + 1)
    r = hand.result
    result = Result(r.outcome, wins=tuple(wins), payments=r.payments)
    return replace(hand, result=result), f"win {i}: fan_total {old} -> {old + 1}"


def _held(hand: Hand) -> list[tuple[int, list[int], int | None]]:
    """For each discard event index: (index, the discarder's 27 counts before it, its void)."""
    counts = [[0] * 27 for _ in range(4)]
    voids: list[int | None] = [None] * 4
    given: dict[int, tuple[int, ...]] = {}
    source: dict[int, int | None] = {}
    out: list[tuple[int, list[int], int | None]] = []
    for i, ev in enumerate(hand.events):
        s, t = ev.seat, ev.tile
        k = ev.kind
        if k is EventKind.DEAL and s is not None:
            for x in ev.tiles:
                counts[s][x] += 1
        elif k is EventKind.EXCHANGE and s is not None:
            given[s] = tuple(int(x) for x in ev.tiles)
            source[s] = ev.from_seat
            for x in ev.tiles:
                counts[s][x] -= 1
            if len(given) == 4:
                for r, src in source.items():
                    for x in given.get(src, ()) if src is not None else ():
                        counts[r][x] += 1
        elif k is EventKind.VOID and s is not None and t is not None:
            voids[s] = t // 9
        elif s is None or t is None:
            continue
        elif k is EventKind.DRAW:
            counts[s][t] += 1
        elif k is EventKind.DISCARD:
            out.append((i, list(counts[s]), voids[s]))
            counts[s][t] -= 1
        elif k is EventKind.PENG:
            counts[s][t] -= 2
        elif k is EventKind.GANG:
            counts[s][t] -= 3
        elif k is EventKind.ANGANG:
            counts[s][t] -= 4
        elif k is EventKind.BUGANG:
            counts[s][t] -= 1
    return out


def _void_discard(hand: Hand, rng: random.Random) -> tuple[Hand, str] | None:
    options = []
    for i, counts, void in _held(hand):
        t = hand.events[i].tile
        if void is None or t is None or t // 9 != void:
            continue
        others = [x for x in range(27) if counts[x] and x // 9 != void]
        if others:
            options.append((i, others))
    if not options:
        return None
    i, others = rng.choice(options)
    old = hand.events[i]
    new = SUITED[rng.choice(others)]
    events = list(hand.events)
    events[i] = old._replace(tile=new)
    what = (
        f"seq {old.seq}: seat {old.seat} discards {new.botzone} while holding its void suit (was {old.tile})"
    )
    return replace(hand, events=tuple(events)), what


def _chow(hand: Hand, rng: random.Random) -> tuple[Hand, str] | None:
    discards = [i for i, e in enumerate(hand.events) if e.kind is EventKind.DISCARD and e.tile is not None]
    if not discards:
        return None
    i = rng.choice(discards)
    d = hand.events[i]
    assert d.tile is not None and d.seat is not None
    rank = d.tile % 9
    middle = d.tile if 1 <= rank <= 7 else (d.tile + 1 if rank == 0 else d.tile - 1)
    seat = (d.seat + 1) % 4
    chi = Event(0, EventKind.CHI, seat, SUITED[middle], from_seat=d.seat, claimed=d.tile)
    events = [*hand.events[: i + 1], chi, *hand.events[i + 1 :]]
    what = f"after seq {d.seq}: seat {seat} chows seat {d.seat}'s {d.tile.botzone}"
    return replace(hand, events=tuple(e._replace(seq=n) for n, e in enumerate(events))), what


_MAKERS: dict[str, Callable[[Hand, random.Random], tuple[Hand, str] | None]] = {
    "payment": _payment,
    "void_discard": _void_discard,
    "chow": _chow,
    "cha_jiao": _cha_jiao,
    "fan": _fan,
}


# the spec's ``faults`` part: every kind a Sichuan record can carry (the shared makers do not
# apply, spec ``faults_own_only``); ``simulate --faults`` draws among SICHUAN_FAULT_KINDS in order
MAKERS = _MAKERS


def sichuan_fault(hand: Hand, rng: random.Random) -> tuple[Hand, str, str]:
    """One defect of a kind chosen with ``rng`` among those the hand allows: (hand, kind, detail).
    A chow is always possible (every hand has a discard)."""
    kinds = list(SICHUAN_FAULT_KINDS)
    rng.shuffle(kinds)
    for kind in kinds:
        made = _MAKERS[kind](hand, rng)
        if made is not None:
            return made[0], kind, made[1]
    raise AssertionError("no Sichuan fault could be made")  # pragma: no cover - a chow always can
