"""mjstats.rules.hand without wilds: divisions, completeness, shanten and waits."""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from mjstats.errors import InvalidHand
from mjstats.rules.hand import (
    divisions,
    is_complete,
    partial_shanten,
    regular_shanten,
    regular_waits,
)
from mjstats.tiles import parse_tiles, tile_counts

CHOWS = [s * 9 + r for s in range(3) for r in range(7)]
GROUPS = [("pung", t) for t in range(34)] + [("chow", t) for t in CHOWS]


def counts_of(text: str) -> list[int]:
    return tile_counts(parse_tiles(text))


def group_tiles(group: tuple[str, int]) -> list[int]:
    kind, t = group
    if kind == "chow":
        return [t, t + 1, t + 2]
    return [t] * (3 if kind == "pung" else 2)


@st.composite
def complete_hands(draw: st.DrawFn, max_melds: int = 4) -> tuple[list[int], int]:
    """A complete hand (counts, melds) built from random groups, at most four copies a kind."""
    melds = draw(st.integers(0, max_melds))
    groups = draw(st.lists(st.sampled_from(GROUPS), min_size=melds, max_size=melds))
    pair = draw(st.integers(0, 33))
    counts = [0] * 34
    for g in [*groups, ("pair", pair)]:
        for t in group_tiles(g):
            counts[t] += 1
    assume(max(counts) <= 4)
    return counts, melds


# --- divisions -----------------------------------------------------------------------------------


def test_divisions_single_split() -> None:
    # 111 234 567 999m + 55p; pairing 11m or 99m leaves a lone 1m or 9m beside 55p
    counts = counts_of("111234567999m55p")
    assert divisions(counts, 4) == ((("chow", 1), ("chow", 4), ("pair", 22), ("pung", 0), ("pung", 8)),)


def test_divisions_finds_pungs_and_chows_of_the_same_tiles() -> None:
    counts = counts_of("111222333m11z")  # three pungs or three identical chows
    got = divisions(counts, 3)
    assert (("chow", 0), ("chow", 0), ("chow", 0), ("pair", 27)) in got
    assert (("pair", 27), ("pung", 0), ("pung", 1), ("pung", 2)) in got
    assert len(got) == 2


def test_divisions_pair_choices() -> None:
    counts = counts_of("11123m")  # 11 + 123 only: 111 leaves 23
    assert divisions(counts, 1) == ((("chow", 0), ("pair", 0)),)
    counts = counts_of("11123455m")  # only 55 + 111 + 234
    assert divisions(counts, 2) == ((("chow", 1), ("pair", 4), ("pung", 0)),)


def test_divisions_never_chow_honours_or_across_suits() -> None:
    assert divisions(counts_of("123z11m"), 1) == ()
    assert divisions(counts_of("89m1s11p"), 1) == ()


def test_divisions_wrong_size_is_empty_and_bad_vector_raises() -> None:
    assert divisions(counts_of("123m"), 1) == ()
    with pytest.raises(InvalidHand):
        divisions([0] * 33, 1)


@given(complete_hands())
def test_every_division_rebuilds_the_counts(hand: tuple[list[int], int]) -> None:
    counts, melds = hand
    found = divisions(counts, melds)
    assert found, "a hand built from groups must divide"
    for division in found:
        rebuilt = [0] * 34
        for g in division:
            for t in group_tiles(g):
                rebuilt[t] += 1
        assert rebuilt == counts
        assert sum(1 for g in division if g[0] == "pair") == 1
        assert len(division) == melds + 1


# --- completeness and shanten --------------------------------------------------------------------


@given(complete_hands())
def test_complete_hands_are_complete_with_shanten_minus_one(hand: tuple[list[int], int]) -> None:
    counts, melds = hand
    assert is_complete(counts, melds)
    assert regular_shanten(counts, melds) == -1


@settings(max_examples=300)
@given(st.lists(st.integers(0, 33), min_size=14, max_size=14))
def test_is_complete_agrees_with_divisions(tiles: list[int]) -> None:
    counts = tile_counts(tiles)
    assume(max(counts) <= 4)
    assert is_complete(counts, 4) == bool(divisions(counts, 4))
    assert (regular_shanten(counts, 4) == -1) == is_complete(counts, 4)


def test_is_complete_without_pair() -> None:
    assert is_complete(counts_of("123456m777z"), 3, pair=False)
    assert not is_complete(counts_of("123456m77z"), 2, pair=False)
    assert is_complete([0] * 34, 0, pair=False)
    assert is_complete(counts_of("55z"), 0)


def test_is_complete_wrong_size_is_false() -> None:
    assert not is_complete(counts_of("123m"), 1)
    assert not is_complete(counts_of("123456m11z"), 1)


def test_known_shanten_values() -> None:
    assert regular_shanten(counts_of("123456789m1112p"), 4) == 0
    assert regular_shanten(counts_of("147m258p369s1234z"), 4) == 8  # nothing connects
    assert regular_shanten(counts_of("19m19p19s1234567z"), 4) == 8
    assert regular_shanten(counts_of("1133557799m1357p"), 4) == 3
    assert regular_shanten(counts_of("1p"), 0) == 0
    assert regular_shanten(counts_of("12p"), 0) == 0
    assert regular_shanten(counts_of("11p"), 0) == -1


def test_partial_shanten_takes_any_size_and_caps_the_melds() -> None:
    # a part holding more melds than asked for is complete, never below -1
    assert partial_shanten(counts_of("123456m11p"), 1) == -1
    assert partial_shanten(counts_of("123456m"), 1) == 0
    assert partial_shanten(counts_of("1m5p9s"), 1) == 2
    assert partial_shanten(counts_of("1357m"), 4) == 6
    with pytest.raises(InvalidHand):
        partial_shanten([0] * 27, 1)


def test_shanten_checks_the_size() -> None:
    with pytest.raises(InvalidHand):
        regular_shanten(counts_of("123m"), 4)
    with pytest.raises(InvalidHand):
        regular_shanten([0] * 30, 0)
    with pytest.raises(InvalidHand):
        regular_waits(counts_of("123456789m11122p"), 4)  # 14 tiles is not a waiting hand


@cache
def _complete_vectors(melds: int) -> np.ndarray:
    """Every complete hand of ``melds`` melds + pair as count rows (copy limits ignored)."""
    rows = set()
    for groups in itertools.combinations_with_replacement(GROUPS, melds):
        for pair in range(34):
            counts = [0] * 34
            for g in [*groups, ("pair", pair)]:
                for t in group_tiles(g):
                    counts[t] += 1
            rows.add(tuple(counts))
    return np.array(sorted(rows), dtype=np.int16)


def _swap_shanten(counts: list[int], melds: int) -> int:
    """Shanten by definition: fewest tiles to take in (trading others away) to complete, minus 1."""
    gap = _complete_vectors(melds) - np.array(counts, dtype=np.int16)
    return int(np.clip(gap, 0, None).sum(axis=1).min()) - 1


@settings(max_examples=150, deadline=None)
@given(
    st.integers(1, 2),
    st.booleans(),
    st.lists(st.integers(0, 33), min_size=8, max_size=8),
)
def test_shanten_equals_the_swap_distance_on_small_hands(melds: int, drawn: bool, pool: list[int]) -> None:
    tiles = pool[: 3 * melds + (2 if drawn else 1)]
    counts = tile_counts(tiles)
    assume(max(counts) <= 4)
    assert regular_shanten(counts, melds) == _swap_shanten(counts, melds)


# --- waits ---------------------------------------------------------------------------------------


def test_known_waits() -> None:
    nine_gates = counts_of("1112345678999m")
    assert regular_waits(nine_gates, 4) == frozenset(range(9))
    assert regular_waits(counts_of("123456789m1112p"), 4) == {19, 20}
    assert regular_waits(counts_of("123456789m1p555z"), 4) == {18}
    assert regular_waits(counts_of("123456789m19p55z"), 4) == frozenset()


def test_a_kind_held_four_times_is_still_listed() -> None:
    # 123 456 789m 1111p waits on a fifth 1p only: listed by form, as the reference calculator does
    assert regular_waits(counts_of("123456789m1111p"), 4) == {18}
    assert regular_waits(counts_of("2222z333z555z"), 3) == {28}  # 22222z = pung + pair


@given(complete_hands(), st.data())
def test_waits_of_ready_hands_are_exactly_the_completing_kinds(
    hand: tuple[list[int], int], data: st.DataObject
) -> None:
    counts, melds = hand
    held = [t for t in range(34) for _ in range(counts[t])]
    removed = data.draw(st.sampled_from(held))
    counts[removed] -= 1
    found = regular_waits(counts, melds)
    assert removed in found
    assert regular_shanten(counts, melds) == 0
    for k in range(34):
        counts[k] += 1
        assert is_complete(counts, melds) == (k in found)
        counts[k] -= 1


@settings(max_examples=200)
@given(st.lists(st.integers(0, 33), min_size=13, max_size=13))
def test_waits_nonempty_exactly_when_shanten_is_zero(tiles: list[int]) -> None:
    counts = tile_counts(tiles)
    assume(max(counts) <= 4)
    assert bool(regular_waits(counts, 4)) == (regular_shanten(counts, 4) == 0)
