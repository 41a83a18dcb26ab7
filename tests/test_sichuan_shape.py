"""Sichuan's integrity shape: shanten with the void suit, checked by brute force on small hands."""

from __future__ import annotations

from itertools import combinations_with_replacement

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjstats.rulesets import get
from mjstats.rulesets.sichuan.shape import SichuanShape, seven_pairs_shanten, void_shanten
from mjstats.rulesets.sichuan.win import is_winning_hand
from mjstats.tiles import parse_tiles


def counts_of(text: str) -> list[int]:
    counts = [0] * 34
    for t in parse_tiles(text):
        counts[t] += 1
    return counts


def _winning_hands(sets: int, void: int) -> np.ndarray:
    """Every sets + pair hand of the two non-void suits (the four-copy limit aside, as the
    shanten formula takes it)."""
    kinds = [k for k in range(27) if k // 9 != void]
    groups: list[tuple[int, ...]] = [(k, k, k) for k in kinds]
    groups += [(k, k + 1, k + 2) for k in kinds if k % 9 <= 6]
    out = []
    for pair in kinds:
        for chosen in combinations_with_replacement(range(len(groups)), sets):
            w = [0] * 34
            w[pair] += 2
            for g in chosen:
                for k in groups[g]:
                    w[k] += 1
            out.append(w[:27])
    return np.array(out)


_WINNING = {(sets, void): _winning_hands(sets, void) for sets in (1, 2) for void in range(3)}


def brute_shanten(counts: list[int], sets: int, void: int) -> int:
    """The least number of tiles to take in (each replacing one of the hand's own) to reach a
    winning hand with no void tile, less one."""
    missing = np.maximum(_WINNING[(sets, void)] - np.array(counts[:27]), 0).sum(axis=1)
    return int(missing.min()) - 1


@st.composite
def small_hands(draw: st.DrawFn) -> tuple[list[int], int, int]:
    sets = draw(st.sampled_from((1, 2)))
    size = 3 * sets + draw(st.sampled_from((1, 2)))
    void = draw(st.integers(0, 2))
    # tiles of few kinds and often the void suit, so pairs, sets and void tiles all occur
    kinds = draw(st.lists(st.integers(0, 26), min_size=2, max_size=6, unique=True))
    counts = [0] * 34
    for _ in range(size):
        free = [k for k in kinds if counts[k] < 4] or [k for k in range(27) if counts[k] < 4]
        counts[draw(st.sampled_from(free))] += 1
    return counts, sets, void


@settings(max_examples=300, deadline=None)
@given(small_hands())
def test_void_shanten_is_the_least_number_of_exchanges(case: tuple[list[int], int, int]) -> None:
    counts, sets, void = case
    melds = 4 - sets
    assert void_shanten(counts, melds, void) == brute_shanten(counts, sets, void)


def brute_seven_pairs(counts: list[int], void: int) -> int:
    """Seven pairs by a knapsack over kinds: each non-void kind holds 0, 2 or 4 of the 14."""
    best = {0: 0}  # tiles placed -> most of the hand's own tiles kept
    for k in range(27):
        if k // 9 == void:
            continue
        nxt = dict(best)
        for placed, kept in best.items():
            for w in (2, 4):
                if placed + w <= 14:
                    nxt[placed + w] = max(nxt.get(placed + w, -1), kept + min(w, counts[k]))
        best = nxt
    return 14 - best[14] - 1


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 26), min_size=13, max_size=14).filter(
        lambda ts: all(ts.count(t) <= 4 for t in ts)
    ),
    st.integers(0, 2),
)
def test_seven_pairs_shanten_matches_a_knapsack(tiles: list[int], void: int) -> None:
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    kept = list(counts)
    kept[9 * void : 9 * void + 9] = [0] * 9
    assert seven_pairs_shanten(kept) == brute_seven_pairs(counts, void)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 26), min_size=14, max_size=14).filter(
        lambda ts: all(ts.count(t) <= 4 for t in ts)
    ),
    st.integers(0, 2),
)
def test_complete_agrees_with_the_rules_engine(tiles: list[int], void: int) -> None:
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    shape = SichuanShape(void)
    assert shape.complete(counts, 0) == is_winning_hand(tiles, void="WTB"[void])


@pytest.mark.parametrize(
    ("hand", "melds", "void", "expected"),
    [
        ("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T2 T3", 0, 2, 0),  # ready, no void tile
        ("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T2 B3", 0, 2, 1),  # the B3 must go first
        ("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 B3 B4", 0, 2, 2),  # two void tiles: the pair to make
        ("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 B3 B4", 0, 2, 1),  # sets made, the pair from two
        ("B1 B2 B3 B4 B5 B6 B7 B8 B9 B1 B1 B2 B3", 0, 2, 13),  # all void: 14 to take in, less one
        ("W1 W1 W2 W2 W3 W3 W4 W4 W5 W5 W6 W6 B7", 0, 2, 1),  # the B7 to go: never ready with it
        ("W1 W1 W2 W2 W3 W3 W4 W4 W5 W5 W6 W6 B7 B7", 0, 2, 1),  # a void pair never counts
        ("W1 W1 W1 W1", 3, 2, 0),  # four of a kind left: pair + one of the set, waits on W2/W3...
    ],
)
def test_known_shanten(hand: str, melds: int, void: int, expected: int) -> None:
    assert SichuanShape(void).shanten(counts_of(hand), melds) == expected


def test_before_the_declaration_the_cheapest_suit_goes() -> None:
    counts = counts_of("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T2 B3")
    assert SichuanShape().shanten(counts, 0) == SichuanShape(2).shanten(counts, 0) == 1
    assert SichuanShape(0).shanten(counts, 0) > 1


def test_registered_and_voided() -> None:
    spec = get("sichuan")
    shape = spec.load(spec.shape)(None)
    assert isinstance(shape, SichuanShape) and shape.void is None
    assert shape.voided(1).void == 1
    with pytest.raises(ValueError):
        SichuanShape(3)
    guobiao = get("guobiao")
    with pytest.raises(ValueError):
        guobiao.load(guobiao.shape)(None).voided(0)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 26), min_size=14, max_size=14).filter(
        lambda ts: all(ts.count(t) <= 4 for t in ts)
    ),
    st.integers(0, 2),
)
def test_a_void_discard_never_raises_the_shanten(tiles: list[int], void: int) -> None:
    # the 定缺 discard order forces void tiles out first: it must never cost the hand anything
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    shape = SichuanShape(void)
    before = shape.shanten(counts, 0)
    for k in {t for t in tiles if t // 9 == void}:
        counts[k] -= 1
        assert shape.shanten(counts, 0) == before
        assert all(shape.shanten([*counts[:j], counts[j] + 1, *counts[j + 1 :]], 0) >= before - 1
                   for j in range(27))
        counts[k] += 1


@st.composite
def near_winning_hands(draw: st.DrawFn) -> tuple[list[int], int]:
    """13 tiles: a winning hand of the two non-void suits less one tile, sometimes with one
    tile swapped for a void-suit tile."""
    void = draw(st.integers(0, 2))
    kinds = [k for k in range(27) if k // 9 != void]
    counts = [0] * 34
    pair = draw(st.sampled_from(kinds))
    counts[pair] += 2
    for _ in range(4):
        low = draw(st.sampled_from(kinds))
        group = [low] * 3 if draw(st.booleans()) or low % 9 > 6 else [low, low + 1, low + 2]
        for k in group:
            counts[k] += 1
    if max(counts) > 4:
        counts = [min(c, 4) for c in counts]
        while sum(counts) < 14:
            counts[draw(st.sampled_from([k for k in kinds if counts[k] < 4]))] += 1
    held = [k for k in range(27) if counts[k]]
    counts[draw(st.sampled_from(held))] -= 1
    if draw(st.booleans()):
        counts[draw(st.sampled_from([k for k in range(27) if counts[k]]))] -= 1
        counts[draw(st.sampled_from(range(9 * void, 9 * void + 9)))] += 1
    return counts, void


@settings(max_examples=300, deadline=None)
@given(near_winning_hands())
def test_waits_agree_with_the_rules_engine(case: tuple[list[int], int]) -> None:
    # the rules engine leaves out a wait on a kind the hand holds four times (reference §4.6):
    # the shape does not count copies, so that is the only difference allowed
    from mjstats.integrity.useful import waits as shape_waits
    from mjstats.rulesets.sichuan.win import waits as rule_waits

    counts, void = case
    tiles = [k for k in range(27) for _ in range(counts[k])]
    ours = shape_waits(tuple(counts), 0, None, "sichuan", void)
    theirs = {int(t) for t in rule_waits(tiles, void="WTB"[void])}
    assert theirs <= ours
    assert all(counts[k] == 4 for k in ours - theirs)
    assert bool(ours) == (SichuanShape(void).shanten(counts, 0) == 0)
