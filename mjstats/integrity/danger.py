"""Discards that are a winning tile for exactly one opponent: the raw events of the
``collusion.danger`` indicator.

A player who knows a partner's hand can throw the partner's winning tile while it is safe
against the other two opponents. From the replay every seat's concealed tiles are known, so at
each discard mjstats knows who is ready (shanten 0) and on which kinds. A discard that completes
the waiting hand of exactly one opponent is an event "source -> that opponent", whether or not
the opponent then claims it (a partner may pass to wait for a bigger hand). The event model and
its null are the collusion tests' (mjstats.integrity.collusion).
"""

from __future__ import annotations

from mjstats.integrity.tracker import pass_exchanged
from mjstats.integrity.useful import waits
from mjstats.records import EventKind, Hand
from mjstats.rulesets import get
from mjstats.tiles import NUM_KINDS

__all__ = ["unique_targets"]


def unique_targets(hand: Hand) -> list[tuple[int, int, int]]:
    """(discarder, the one opponent the discard completes, event index) for every discard that is
    a winning tile of exactly one opponent. Under a ruleset with a gold, discards count once the
    gold is known (the waits depend on it); hands of a ruleset with no shape part give none.
    Where seats declare a void suit the waits honour it, and a seat that has won and left the
    hand (血战到底) waits on nothing: a discard cannot complete it. A
    record whose events take a tile a seat does not hold stops the walk (the draw test notes it)."""
    spec = get(hand.ruleset)
    if spec.shape is None:
        return []
    size = spec.hand_size  # concealed tiles of a playing hand without melds
    needs_gold = spec.has_gold
    concealed = [[0] * NUM_KINDS for _ in range(4)]
    melds = [0] * 4
    gold: int | None = None
    ready: list[frozenset[int] | None] = [None] * 4  # cached waits, None = to compute
    voids: list[int | None] = [None] * 4  # 定缺: each seat's declared void suit
    won = [False] * 4  # 血战到底: a winner is out of the hand
    exchanges: dict[int, tuple[tuple[int, ...], int | None]] = {}

    def waits_of(seat: int) -> frozenset[int]:
        cached = ready[seat]
        if cached is None:
            held = concealed[seat]
            if won[seat] or sum(held) + 3 * melds[seat] != size or min(held) < 0:
                cached = frozenset()
            else:
                cached = waits(tuple(held), melds[seat], gold, hand.ruleset, voids[seat])
            ready[seat] = cached
        return cached

    out = []
    for index, ev in enumerate(hand.events):
        kind, seat = ev.kind, ev.seat
        if seat is None or not 0 <= seat < 4:
            if kind is EventKind.GOLD and ev.tile is not None and int(ev.tile) < NUM_KINDS:
                gold = int(ev.tile)
                ready = [None] * 4
            continue
        ready[seat] = None
        held = concealed[seat]
        if kind is EventKind.DEAL:
            for t in ev.tiles:
                if int(t) < NUM_KINDS:
                    held[int(t)] += 1
        elif kind is EventKind.DRAW:
            if int(ev.tile) < NUM_KINDS:
                held[int(ev.tile)] += 1
        elif kind is EventKind.DISCARD:
            t = int(ev.tile)
            if t >= NUM_KINDS:
                continue
            held[t] -= 1
            if min(held) < 0:
                return out  # a tile the seat does not hold: the audit names the fault
            if needs_gold and gold is None:
                continue
            hit = [b for b in range(4) if b != seat and t in waits_of(b)]
            if len(hit) == 1:
                out.append((seat, hit[0], index))
        elif kind is EventKind.FLOWER:
            if int(ev.tile) < NUM_KINDS:  # an honour the profile makes a flower
                held[int(ev.tile)] -= 1
        elif kind is EventKind.CHI:
            mid, took = int(ev.tile), int(ev.claimed)
            for x in (mid - 1, mid, mid + 1):
                if x != took:
                    held[x] -= 1
            melds[seat] += 1
        elif kind is EventKind.PENG:
            held[int(ev.tile)] -= 2
            melds[seat] += 1
        elif kind is EventKind.GANG:
            held[int(ev.tile)] -= 3
            melds[seat] += 1
        elif kind is EventKind.ANGANG:
            held[int(ev.tile)] -= 4
            melds[seat] += 1
        elif kind is EventKind.BUGANG:
            held[int(ev.tile)] -= 1
        elif kind is EventKind.VOID:
            voids[seat] = int(ev.tile) // 9  # the event names the suit's 1 (records.py)
        elif kind is EventKind.EXCHANGE:
            exchanges[seat] = (tuple(int(t) for t in ev.tiles), ev.from_seat)
            if len(exchanges) == 4:
                pass_exchanged(exchanges, concealed)
                ready = [None] * 4
        elif kind is EventKind.HU:
            won[seat] = True
    return out
