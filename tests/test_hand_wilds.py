"""mjstats.rules.hand with wild tiles (the Fuzhou gold): Fuzhou-sized cases and properties.

A Fuzhou hand is 5 melds + pair (17 tiles, reference fuzhou.md); golds are left out of the count
vector and passed as ``wilds``. ``melds`` is what the concealed tiles must still form.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from mjstats.errors import InvalidHand
from mjstats.rules.hand import divisions, is_complete, regular_shanten, regular_waits
from mjstats.tiles import parse_tiles, tile_counts


def counts_of(text: str) -> list[int]:
    return tile_counts(parse_tiles(text))


# A 16-tile Fuzhou hand waiting on 3p or 6p: 123m 456m 789m 111s 45p + 99s pair.
READY16 = "123456789m111s45p99s"


def test_ready_hand_without_wilds_needs_a_wait() -> None:
    counts = counts_of(READY16)
    assert regular_shanten(counts, 5) == 0
    assert regular_waits(counts, 5) == {20, 23}  # 3p, 6p
    for wrong in ("7p", "1m", "5s"):
        assert not is_complete(counts_of(READY16 + wrong), 5)
    assert is_complete(counts_of(READY16 + "6p"), 5)


def test_one_wild_completes_a_ready_hand() -> None:
    # the ready 16 tiles plus a drawn gold: the gold stands for 3p or 6p
    assert is_complete(counts_of(READY16), 5, wilds=1)


def test_one_wild_in_a_sixteen_tile_hand_waits() -> None:
    # 15 real tiles + 1 gold: the gold pairs the 9s (wait 3p/6p) or finishes 45p (wait 9s)
    counts = counts_of("123456789m111s45p9s")
    assert regular_shanten(counts, 5, wilds=1) == 0
    assert regular_waits(counts, 5, wilds=1) == {20, 23, 17}
    assert is_complete(counts_of("123456789m111s45p99s"), 5, wilds=1)
    assert not is_complete(counts_of("123456789m111s45p9s1m"), 5, wilds=1)


def test_two_wilds_complete_from_one_step_further() -> None:
    one_away = counts_of("123456789m111s4p99s")  # 15 tiles: 1-shanten as a 16-tile hand with 1p
    assert regular_shanten(counts_of("123456789m111s4p99s1z"), 5) == 1
    assert is_complete(one_away, 5, wilds=2)
    # one gold and a wrong tile in place of the second gold: not complete
    assert not is_complete(counts_of("123456789m111s4p99s1m"), 5, wilds=1)


def test_three_wilds_complete_from_two_steps_further() -> None:
    two_away = counts_of("123456789m111s4p9s")  # 14 tiles
    assert regular_shanten(counts_of("123456789m111s4p9s15z"), 5) == 2
    assert is_complete(two_away, 5, wilds=3)
    # but not every 14 tiles: three lone far-apart tiles need more than three wilds
    assert not is_complete(counts_of("123456789m1s5s9s4p7p"), 5, wilds=3)


def test_wilds_as_themselves() -> None:
    # gold 5m: 4m gold 6m is a run whose gold stands for its own kind
    assert is_complete(counts_of("46m123456789p11122s"), 5, wilds=1)
    # three golds as a pung of the gold kind (金龙 asks this with melds + 1 and wilds - 3)
    assert is_complete(counts_of("123456789p11122s"), 5, wilds=3)


def test_wilds_as_the_pair() -> None:
    melds_only = counts_of("123456789m111s456p")  # 15 tiles = 5 melds
    assert is_complete(melds_only, 5, wilds=2)  # two golds as the pair
    assert is_complete(melds_only, 5, pair=False)  # 金雀 check: golds set aside as the pair
    # three golds: two as the pair, the third finishes 45p
    assert is_complete(counts_of("123456789m111s45p"), 5, pair=False, wilds=1)
    assert not is_complete(counts_of("123456789m111s47p"), 5, pair=False, wilds=1)


def test_wilds_never_stand_for_honours() -> None:
    assert not is_complete(counts_of("123456789m111s1z"), 4, wilds=1)
    assert is_complete(counts_of("123456789m111s11z"), 4)
    assert 27 not in regular_waits(counts_of("123456789m111s"), 4, wilds=1)


def test_no_four_copy_cap_on_wilds() -> None:
    # four real 5m and a gold standing for a fifth 5m: accepted (fuzhou.md: "itself included")
    assert is_complete(counts_of("5555m123456789p111s"), 5, wilds=1)


def test_exposed_melds_lower_the_meld_count() -> None:
    # two exposed melds: 11 concealed tiles + gold = 3 melds + pair
    assert is_complete(counts_of("123m456p7899s"), 3, wilds=1)
    assert not is_complete(counts_of("123m456p7899s"), 5, wilds=1)


def test_sizes_are_checked() -> None:
    with pytest.raises(InvalidHand):
        regular_shanten(counts_of("123m"), 5, wilds=2)
    with pytest.raises(InvalidHand):
        regular_waits(counts_of(READY16), 5, wilds=1)  # 17 tiles: not waiting


def test_all_wilds() -> None:
    assert is_complete([0] * 34, 5, wilds=17)
    assert regular_shanten([0] * 34, 5, wilds=16) == 0
    assert regular_waits([0] * 34, 1, wilds=4) == frozenset(range(27))


# --- properties ----------------------------------------------------------------------------------


def _brute_complete(counts: list[int], melds: int, pair: bool, wilds: int) -> bool:
    """Completeness by trying every multiset of suited kinds for the wilds."""
    for kinds in itertools.combinations_with_replacement(range(27), wilds):
        trial = list(counts)
        for k in kinds:
            trial[k] += 1
        if pair and divisions(trial, melds):
            return True
        if not pair and any(d for d in divisions([*trial[:33], trial[33] + 2], melds)):
            return True  # no pair: add a pair of an unused honour and divide
    return False


hands_small = st.tuples(
    st.integers(0, 3),  # melds
    st.booleans(),  # pair
    st.integers(0, 2),  # wilds
    st.lists(st.integers(0, 33), max_size=11),
)


@settings(max_examples=200, deadline=None)
@given(hands_small)
def test_wild_completeness_equals_substitution(case: tuple[int, bool, int, list[int]]) -> None:
    melds, pair, wilds, pool = case
    size = 3 * melds + (2 if pair else 0) - wilds
    assume(0 <= size <= len(pool))
    counts = tile_counts(pool[:size])
    assume(max(counts) <= 4 and counts[33] == 0)
    assert is_complete(counts, melds, pair=pair, wilds=wilds) == _brute_complete(counts, melds, pair, wilds)


def _brute_shanten(counts: list[int], melds: int, wilds: int) -> int:
    best = 99
    for kinds in itertools.combinations_with_replacement(range(27), wilds):
        trial = list(counts)
        for k in kinds:
            trial[k] += 1
        best = min(best, regular_shanten(trial, melds))
    return best


@settings(max_examples=150, deadline=None)
@given(
    st.integers(1, 5),
    st.booleans(),
    st.integers(1, 2),
    st.lists(st.integers(0, 26), min_size=17, max_size=17),
)
def test_wild_shanten_equals_substitution(melds: int, drawn: bool, wilds: int, pool: list[int]) -> None:
    size = 3 * melds + (2 if drawn else 1) - wilds
    counts = tile_counts(pool[:size])
    assume(max(counts) <= 4)
    assert regular_shanten(counts, melds, wilds=wilds) == _brute_shanten(counts, melds, wilds)


@settings(max_examples=300)
@given(st.integers(0, 3), st.lists(st.integers(0, 26), min_size=17, max_size=17), st.data())
def test_a_wild_for_a_tile_never_raises_shanten(wilds: int, tiles: list[int], data: st.DataObject) -> None:
    counts = tile_counts(tiles[: 17 - wilds])
    assume(max(counts) <= 4)
    before = regular_shanten(counts, 5, wilds=wilds)
    swapped = data.draw(st.sampled_from([t for t in range(27) if counts[t]]))
    counts[swapped] -= 1
    assert regular_shanten(counts, 5, wilds=wilds + 1) <= before


@settings(max_examples=200)
@given(st.integers(0, 3), st.lists(st.integers(0, 26), min_size=16, max_size=16))
def test_wild_waits_are_exactly_the_completing_kinds(wilds: int, tiles: list[int]) -> None:
    counts = tile_counts(tiles[: 16 - wilds])
    assume(max(counts) <= 4)
    found = regular_waits(counts, 5, wilds=wilds)
    assert bool(found) == (regular_shanten(counts, 5, wilds=wilds) == 0)
    for k in range(34):
        counts[k] += 1
        assert is_complete(counts, 5, wilds=wilds) == (k in found)
        counts[k] -= 1


def test_wild_shanten_with_honours() -> None:
    # honours cannot be completed by a wild: 1z 2z stay dead, so the wilds only make a partial
    # meld (the suited-only rule "each wild lowers shanten by one" would say 0)
    counts = counts_of("123m456p12z")
    assert regular_shanten(counts, 3, wilds=2) == _brute_shanten(counts, 3, 2)
    assert regular_shanten(counts, 3, wilds=2) == 1
    # a gold pairs a suited lone tile but never an honour (Fuzhou platform profile: 发 白 playable)
    assert regular_shanten(counts_of("123456789m111s59s4p8p"), 5, wilds=1) == 1
    assert regular_shanten(counts_of("123456789m111s1267z"), 5, wilds=1) == 2


@settings(max_examples=150, deadline=None)
@given(
    st.integers(1, 5),
    st.booleans(),
    st.integers(1, 2),
    st.lists(st.sampled_from([*range(27), 31, 32, 32, 31]), min_size=17, max_size=17),
)
def test_wild_shanten_with_honours_equals_substitution(
    melds: int, drawn: bool, wilds: int, pool: list[int]
) -> None:
    counts = tile_counts(pool[: 3 * melds + (2 if drawn else 1) - wilds])
    assume(max(counts) <= 4 and any(counts[27:]))
    assert regular_shanten(counts, melds, wilds=wilds) == _brute_shanten(counts, melds, wilds)


SUITED_GROUPS = [("pung", t) for t in range(27)] + [("chow", s * 9 + r) for s in range(3) for r in range(7)]


@settings(max_examples=300)
@given(
    st.lists(st.sampled_from(SUITED_GROUPS), min_size=5, max_size=5),
    st.integers(0, 26),
    st.integers(0, 3),
    st.randoms(use_true_random=False),
)
def test_ready_hands_with_wilds_wait_on_the_removed_tile(
    groups: list[tuple[str, int]], pair: int, wilds: int, rnd: object
) -> None:
    tiles = [pair, pair]
    for kind, t in groups:
        tiles += [t, t + 1, t + 2] if kind == "chow" else [t] * 3
    rnd.shuffle(tiles)  # type: ignore[attr-defined]
    removed = tiles.pop()
    counts = tile_counts(tiles[wilds:])  # the first ``wilds`` tiles become golds
    assume(max(counts) <= 4)
    found = regular_waits(counts, 5, wilds=wilds)
    assert removed in found
    assert regular_shanten(counts, 5, wilds=wilds) == 0
    for k in range(34):
        counts[k] += 1
        assert is_complete(counts, 5, wilds=wilds) == (k in found)
        counts[k] -= 1
