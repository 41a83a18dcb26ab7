"""Fuzhou win shapes with golds: boundary cases, waits, shanten, 金雀/金龙/闲金, and a slow
brute-force oracle (every gold replaced by every suited kind) as a property test."""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations_with_replacement

import pytest
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

from mjstats.errors import InvalidHand
from mjstats.rulesets.fuzhou.win import (
    has_golden_dragon,
    has_golden_pair,
    is_idle_gold,
    is_winning_hand,
    shanten,
    waits,
)
from mjstats.tiles import ALL_KINDS, parse_tiles

T = parse_tiles


# --- an independent slow oracle: plain melds + pair, no wilds ---


@cache
def _splits(counts: tuple[int, ...], groups: int, pair: bool) -> bool:
    """Whether counts split into ``groups`` melds plus a pair (if ``pair``), by plain recursion."""
    i = next((k for k, n in enumerate(counts) if n), None)
    if i is None:
        return groups == 0 and not pair
    c = list(counts)
    if pair and c[i] >= 2:
        c[i] -= 2
        if _splits(tuple(c), groups, False):
            return True
        c[i] += 2
    if groups and c[i] >= 3:
        c[i] -= 3
        if _splits(tuple(c), groups - 1, pair):
            return True
        c[i] += 3
    if groups and i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        if _splits(tuple(c), groups - 1, pair):
            return True
    return False


def brute_force_win(tiles, gold, meld_count=0) -> bool:
    """Substitute each gold by every suited kind and look for a plain decomposition."""
    if len(tiles) != 17 - 3 * meld_count:
        return False
    plain = [t for t in tiles if t != gold]
    golds = len(tiles) - len(plain)
    base = [0] * 34
    for t in plain:
        base[t] += 1
    for subs in combinations_with_replacement(range(27), golds):
        c = list(base)
        for s in subs:
            c[s] += 1
        if _splits(tuple(c), 5 - meld_count, True):
            return True
    return False


# --- the gold boundary cases (acceptance) ---

READY16 = T("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 B1 B2 B3 B5")  # waits on B5


def test_zero_golds_ready_16_is_not_a_win():
    gold = T("T9")[0]
    assert not is_winning_hand(READY16, gold)  # 16 tiles: wrong count, not a win
    assert shanten(READY16, gold) == 0
    assert not is_winning_hand([*READY16, T("B6")[0]], gold)
    assert is_winning_hand([*READY16, T("B5")[0]], gold)


def test_one_gold_completes_a_ready_hand():
    gold = T("T9")[0]
    assert is_winning_hand([*READY16, gold], gold)
    # the same tile is not wild when another kind is the gold
    assert not is_winning_hand([*READY16, gold], T("W1")[0])


def test_two_golds_win_from_one_step_further():
    gold = T("T9")[0]
    fifteen = T("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 B1 B5 B5")
    assert shanten([*fifteen, T("W1")[0]], gold) == 1  # one step before waiting
    assert is_winning_hand([*fifteen, gold, gold], gold)
    assert not is_winning_hand([*fifteen, gold, T("B4")[0]], gold)


def test_three_golds_win_the_shape_from_two_steps_further():
    gold = T("T9")[0]
    fourteen = T("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 B1 B5")
    assert shanten([*fourteen, *T("B8 W1")], gold) == 2
    assert is_winning_hand([*fourteen, gold, gold, gold], gold)
    # three golds but the rest two steps too far: not a shape win (三金倒 is settlement's rule)
    scattered = T("W1 W2 W3 W4 W5 W6 W7 W9 T1 T2 T3 B1 B5 B8")
    assert not is_winning_hand([*scattered, gold, gold, gold], gold)


def test_golds_as_themselves():
    gold = T("T4")[0]
    hand = T("W1 W2 W3 W4 W5 W6 W7 W8 W9 T3 T4 T5 B1 B2 B3 B5 B5")
    assert is_winning_hand(hand, gold)
    assert is_winning_hand(T("W1 W2 W3 W4 W5 W6 W7 W8 W9 T4 T4 T4 B1 B2 B3 B5 B5"), gold)


def test_golds_as_the_pair_is_golden_pair():
    gold = T("T4")[0]
    hand = T("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 B1 B2 B3 T4 T4")
    assert is_winning_hand(hand, gold)
    assert has_golden_pair(hand, gold)
    assert not has_golden_dragon(hand, gold)
    # a natural pair with two golds used elsewhere is not 金雀
    other = T("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T4 T3 B1 T4 B3 B5 B5")
    assert is_winning_hand(other, gold)
    assert not has_golden_pair(other, gold)


def test_golden_dragon_three_golds_as_a_pung():
    gold = T("B9")[0]
    hand = T("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 B9 B9 B9 B5 B5")
    assert has_golden_dragon(hand, gold)
    # two golds as the pair and the third with B5 B5 as a pung: 金雀 holds too (it always
    # does beside 金龙; settlement keeps only the higher pattern)
    assert has_golden_pair(hand, gold)
    assert not has_golden_dragon(T("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 B9 B9 B8 B5 B5"), gold)


def test_melds_reduce_the_concealed_count():
    gold = T("T9")[0]
    melds = [("CHI", "W2", 1), ("PENG", "B7", 2), ("GANG", "T5", 0)]
    assert is_winning_hand(T("W4 W5 W6 B1 B1 B1 B3 B3"), gold, melds)
    assert is_winning_hand(T("W4 W5 W6 B1 B1 T9 B3 B3"), gold, melds)
    assert not is_winning_hand(T("W4 W5 W6 B1 B1 B1 B3 B3 B4 B4 B4"), gold, melds)  # 11 tiles
    assert not is_winning_hand(T("W4 W5 W6 B1 B2 B1 B3 B3"), gold, melds)
    for bad in [("CHI", "W1", 1), ("PENG", "B7", 0), ("GANG", "B7", 4), ("PUNG", "B7", 1),
                ("PENG", "F1", 1), ("PENG", "B7")]:  # fmt: skip
        with pytest.raises(InvalidHand):
            is_winning_hand(T("W4 W5 W6 B1 B1 B1 B3 B3"), gold, [*melds[:2], bad])


def test_wrong_count_is_not_a_win_and_flowers_raise():
    gold = T("T9")[0]
    assert not is_winning_hand(T("W1 W1"), gold)
    assert not is_winning_hand([], gold)
    with pytest.raises(InvalidHand):
        is_winning_hand(T("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 B1 B2 B3 F1 F1"), gold)
    with pytest.raises(InvalidHand):
        is_winning_hand(T("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 B1 B2 B3 H1 J1"), gold)
    with pytest.raises(InvalidHand):  # even with a wrong count
        is_winning_hand(T("J2"), gold)
    with pytest.raises(InvalidHand):  # a fifth copy
        is_winning_hand(T("W1 W1 W1 W1 W1 W6 W7 W8 W9 T1 T2 T3 B1 B2 B3 B5 B5"), gold)
    with pytest.raises(InvalidHand):  # a flower turned up is never the gold
        is_winning_hand(READY16, "H1")


def test_platform_plays_green_and_white_dragons():
    gold = T("T9")[0]
    hand = T("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 J2 J2 J2 J3 J3")
    assert is_winning_hand(hand, gold, profile="platform")
    with pytest.raises(InvalidHand):
        is_winning_hand(hand, gold)  # seed: every honour is a flower
    with pytest.raises(InvalidHand):  # 中 is a flower on the platform too
        is_winning_hand(T("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 J1 J1 J1 J3 J3"), gold, profile="platform")
    # a gold never stands for an honour: a lone 白 cannot pair with it
    assert not is_winning_hand(
        T("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 J2 J2 J2 J3 T9"), gold, profile="platform"
    )


def test_live_golds_cap():
    gold = T("T9")[0]
    four = T("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 B1 T9 T9 T9 T9")
    assert is_winning_hand(four, gold)
    with pytest.raises(InvalidHand):
        is_winning_hand(four, gold, profile="platform")  # 3 live golds


# --- waits, shanten, 闲金 ---


def test_waits_without_golds():
    gold = T("T9")[0]
    assert waits(READY16, gold) == frozenset(T("B5 T9"))  # a drawn gold completes too
    assert waits(T("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 B1 B2 B5 B8"), gold) == frozenset()
    assert waits(T("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 B1 B2 B5 B5"), gold) == frozenset(T("B3 T9"))


def test_waits_include_the_gold_itself():
    gold = T("B9")[0]
    # B1 B2 waits on B3 and on a drawn gold (wild)
    assert waits(T("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 B1 B2 B5 B5"), gold) == frozenset(T("B3 B9"))


def test_waits_leave_out_a_fifth_copy():
    gold = T("T9")[0]
    hand = T("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 B5 B5 B5 B5")  # only a fifth B5 would pair
    assert waits(hand, gold) == frozenset(T("T9"))  # ... but a drawn gold does


def test_idle_gold_waits_on_everything():
    gold = T("T9")[0]
    hand = T("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 B1 B2 B3 T9")
    assert is_idle_gold(hand, gold)
    assert waits(hand, gold) == frozenset(ALL_KINDS[:27])
    assert not is_idle_gold(READY16, gold)
    assert not is_idle_gold([*READY16[:-1], gold], T("W1")[0])
    # two golds waiting together are a 金雀 wait, not 闲金
    assert not is_idle_gold(T("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 B1 B2 T9 T9"), gold)


def test_shanten_sizes_and_golds():
    gold = T("T9")[0]
    assert shanten([*READY16, T("B5")[0]], gold) == -1
    assert shanten([*READY16[:-1], gold], gold) == 0
    with pytest.raises(InvalidHand):
        shanten(T("W1 W2"), gold)
    # a gold in place of a loose tile lowers the shanten by one
    fourteen = T("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 B1 B5")
    assert shanten([*fourteen, *T("B8 W1")], gold) == 2
    assert shanten([*fourteen, *T("B8"), gold], gold) == 1
    assert shanten([*fourteen, gold, gold], gold) == 0


# --- properties ---


@st.composite
def small_hands(draw):
    """A 17-tile-equivalent hand: 3 or 4 exposed pungs, concealed part of 8 or 5 tiles, 0-3
    golds; tiles drawn from a narrow band of kinds so that wins are common."""
    meld_count = draw(st.sampled_from([3, 4]))
    size = 17 - 3 * meld_count
    gold = draw(st.sampled_from(ALL_KINDS[:27]))
    golds = draw(st.integers(0, 3))
    low = draw(st.integers(0, 24))
    band = [k for k in range(low, low + 5) if k < 27]
    plain = draw(st.lists(st.sampled_from(band), min_size=size - golds, max_size=size - golds))
    tiles = [ALL_KINDS[t] for t in plain] + [gold] * golds
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    pung_kinds = [k for k in range(27) if counts[k] == 0 and k != gold][:meld_count]
    melds = [("PENG", ALL_KINDS[k], 1) for k in pung_kinds]
    if max(counts) > 4:
        tiles = [t for t in tiles if t != gold]
        tiles += [gold] * (size - len(tiles))
    return tiles, gold, melds


@given(small_hands())
@settings(max_examples=300, deadline=None)
def test_agrees_with_brute_force(case):
    tiles, gold, melds = case
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    if max(counts) > 4:
        with pytest.raises(InvalidHand):
            is_winning_hand(tiles, gold, melds)
        return
    result = is_winning_hand(tiles, gold, melds)
    event(f"win={result}")
    assert result == brute_force_win(tiles, gold, len(melds))


def test_agrees_with_brute_force_on_full_hands():
    """Seeded full 17-tile hands with 0-2 golds, biased towards near-complete shapes."""
    rng = random.Random(20261130)
    wins = 0
    for _ in range(150):
        gold = ALL_KINDS[rng.randrange(27)]
        golds = rng.randrange(3)
        suit = rng.randrange(3) * 9
        pool = [ALL_KINDS[suit + r] for r in range(9) for _ in range(4) if suit + r != gold]
        plain = rng.sample(pool, 17 - golds)
        tiles = plain + [gold] * golds
        result = is_winning_hand(tiles, gold)
        wins += result
        assert result == brute_force_win(tiles, gold), tiles
    assert wins > 0  # the sample reaches both answers


def test_agrees_with_brute_force_on_full_hands_with_three_golds():
    """Seeded 17-tile hands of two suits with exactly three golds (~3,600 oracle trials each)."""
    rng = random.Random(3)
    wins = 0
    for _ in range(60):
        gold = ALL_KINDS[rng.randrange(27)]
        suits = rng.sample(range(3), 2)
        pool = [ALL_KINDS[s * 9 + r] for s in suits for r in range(9) for _ in range(4)]
        plain = rng.sample([t for t in pool if t != gold], 14)
        tiles = [*plain, gold, gold, gold]
        result = is_winning_hand(tiles, gold)
        wins += result
        assert result == brute_force_win(tiles, gold), tiles
    assert wins > 0


@given(small_hands(), st.data())
@settings(max_examples=200, deadline=None)
def test_adding_a_gold_never_breaks_a_win(case, data):
    tiles, gold, melds = case
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    if max(counts) > 4 or counts[gold] >= 4 or not is_winning_hand(tiles, gold, melds):
        event("not a win")
        return
    event("win")
    i = data.draw(st.integers(0, len(tiles) - 1))
    swapped = [*tiles[:i], gold, *tiles[i + 1 :]]
    assert is_winning_hand(swapped, gold, melds)


@st.composite
def ready_hands(draw):
    """A waiting 16-tile hand and the kind it was made from: five suited melds + a pair (some
    tiles then turned into golds, which are wild), less one tile. Returns (hand, gold, removed)."""
    gold = draw(st.sampled_from(ALL_KINDS[:27]))
    pair = draw(st.integers(0, 26))
    tiles = [pair, pair]
    for _ in range(5):
        if draw(st.booleans()):
            tiles += [draw(st.integers(0, 26))] * 3
        else:
            start = draw(st.sampled_from([k for k in range(27) if k % 9 <= 6]))  # a run's first
            tiles += [start, start + 1, start + 2]
    for i in draw(st.lists(st.integers(0, 16), max_size=3, unique=True)):
        tiles[i] = int(gold)
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    assume(max(counts) <= 4)
    tiles = [ALL_KINDS[t] for t in tiles]
    assert is_winning_hand(tiles, gold), tiles
    i = draw(st.integers(0, 16))
    return [*tiles[:i], *tiles[i + 1 :]], gold, tiles[i]


@given(ready_hands())
@settings(max_examples=100, deadline=None)
def test_waits_are_exactly_the_completing_tiles(case):
    hand, gold, removed = case
    counts = [0] * 34
    for t in hand:
        counts[t] += 1
    expected = {k for k in ALL_KINDS[:27] if counts[k] < 4 and is_winning_hand([*hand, k], gold)}
    got = waits(hand, gold)
    assert removed in got  # putting back the removed tile completes the hand again
    assert got == expected
    assert shanten(hand, gold) == 0
