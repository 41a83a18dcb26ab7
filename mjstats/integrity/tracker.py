"""Walk a hand's events and yield every wall draw with what the drawer held and what the wall
still held at that moment.

Under a fair shuffle, given everything taken from the wall so far (every seat's deal, every
draw, every tile turned up), the untaken positions hold a uniformly random arrangement of the
tiles not yet taken; so the next drawn tile, wherever it is taken from (Botzone's per-seat walls,
one wall's front or tail), is uniform over that remainder. The remainder is computed from the
record's events (all four deals are recorded), not from ``Hand.wall``, so the draw test works on
records without walls too.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from mjstats.records import EventKind, Hand
from mjstats.rulesets import get
from mjstats.tiles import NUM_KINDS, NUM_TILES

__all__ = ["DrawView", "InconsistentHand", "draws_of", "pass_exchanged", "set_kinds", "tile_set"]

FLOWER_START = NUM_KINDS  # codes 34-41 are the eight flowers


def set_kinds(ruleset: str) -> int:
    """How many of the 34 kinds the ruleset's set holds (4 copies each, the lowest codes: 27
    for a suited-only set of 108 tiles, 34 with the honours)."""
    spec = get(ruleset)
    return (spec.tile_count - spec.flower_tiles) // 4


def tile_set(ruleset: str) -> list[int]:
    """Copies of each tile code in the full set: 4 of each kind it holds, and the ruleset's
    flower tiles (codes 34 on) once each."""
    kinds = set_kinds(ruleset)
    counts = [4] * kinds + [0] * (NUM_TILES - kinds)
    for f in range(FLOWER_START, FLOWER_START + get(ruleset).flower_tiles):
        counts[f] = 1
    return counts


@dataclass(frozen=True, slots=True)
class DrawView:
    """One draw: the drawer's concealed counts (34 kinds, before the draw), its meld count, the
    tiles still in the wall (42 codes), the drawn tile, the hand's gold (if any) once known, and
    the drawer's declared void suit (0-2; None where the ruleset has none)."""

    seat: int
    concealed: tuple[int, ...]
    melds: int
    pool: tuple[int, ...]
    drawn: int
    gold: int | None
    tail: bool
    void: int | None = None


class InconsistentHand(Exception):
    """The events take a tile nobody holds or a fifth copy: the audit flags such a record."""


def pass_exchanged(
    exchanges: dict[int, tuple[tuple[int, ...], int | None]], concealed: list[list[int]]
) -> None:
    """换三张 (the three-tile exchange): every seat gives its three tiles and receives the
    three of its ``from_seat``, all at once; the wall is not touched."""
    for seat, (given, _) in exchanges.items():
        for t in given:
            concealed[seat][t] -= 1
    for seat, (_, source) in exchanges.items():
        if source is not None and source in exchanges:
            for t in exchanges[source][0]:
                concealed[seat][t] += 1


def draws_of(hand: Hand) -> Iterator[DrawView]:
    """Every draw of ``hand`` after the deal is complete and (rulesets with one) the gold is known.

    Opening flower replacements (before the gold) are left out: the drawer's hand is not yet a
    playing hand then. A draw is also left out when the drawer's tile count is not a playing
    size. Raises InconsistentHand, after the draws before it, when the events remove a tile a
    seat does not hold or take more copies than the set has (a record the audit flags)."""
    spec = get(hand.ruleset)
    size = spec.hand_size
    pool = tile_set(hand.ruleset)
    concealed = [[0] * NUM_TILES for _ in range(4)]
    melds = [0] * 4
    gold: int | None = None
    started = not spec.has_gold  # play starts once the gold is turned up
    indicator: int | None = None  # the face-up gold lies at a known place in the wall
    voids: list[int | None] = [None] * 4  # 定缺: each seat's declared void suit, once declared
    exchanges: dict[int, tuple[tuple[int, ...], int | None]] = {}  # 换三张, passed once all four chose
    for ev in hand.events:
        kind = ev.kind
        if kind is EventKind.DEAL:
            for t in ev.tiles:
                pool[t] -= 1
                concealed[ev.seat][t] += 1
        elif kind is EventKind.DRAW:
            s, t = ev.seat, int(ev.tile)
            held = concealed[s]
            playing = sum(held[:NUM_KINDS]) + 3 * melds[s] == size and not any(held[NUM_KINDS:])
            face_up = t == indicator and pool[t] <= 0
            if face_up:
                playing = False  # the last drawable tile: the face-up gold itself, known
                indicator = None  # taken: it left the pool when it was turned up
            if min(pool) < 0 or min(map(min, concealed)) < 0:
                raise InconsistentHand(f"{hand.match_id} hand {hand.hand_no}: a tile nobody holds")
            if started and playing:
                view = (s, tuple(held[:NUM_KINDS]), melds[s], tuple(pool), t, gold, ev.tail, voids[s])
                yield DrawView(*view)
            if not face_up:
                pool[t] -= 1
            held[t] += 1
        elif kind is EventKind.DISCARD or kind is EventKind.FLOWER:
            concealed[ev.seat][ev.tile] -= 1
        elif kind is EventKind.GOLD:
            t = int(ev.tile)
            if ev.seat is None:
                gold = t
                indicator = t
                started = True
            else:
                pool[t] -= 1  # a flower turned up: the dealer's, out of the wall
                continue
            pool[t] -= 1
        elif kind is EventKind.CHI:
            mid, took = int(ev.tile), int(ev.claimed)
            for x in (mid - 1, mid, mid + 1):
                if x != took:
                    concealed[ev.seat][x] -= 1
            melds[ev.seat] += 1
        elif kind is EventKind.PENG:
            concealed[ev.seat][ev.tile] -= 2
            melds[ev.seat] += 1
        elif kind is EventKind.GANG:
            concealed[ev.seat][ev.tile] -= 3
            melds[ev.seat] += 1
        elif kind is EventKind.ANGANG:
            concealed[ev.seat][ev.tile] -= 4
            melds[ev.seat] += 1
        elif kind is EventKind.BUGANG:
            concealed[ev.seat][ev.tile] -= 1
        elif kind is EventKind.VOID:
            voids[ev.seat] = int(ev.tile) // 9  # the event names the suit's 1 (records.py)
        elif kind is EventKind.EXCHANGE:
            exchanges[ev.seat] = (tuple(int(t) for t in ev.tiles), ev.from_seat)
            if len(exchanges) == 4:
                pass_exchanged(exchanges, concealed)
