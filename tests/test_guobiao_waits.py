"""Guobiao shanten and waits per winning form, input checking (oracle comparisons live in
test_guobiao_waits_oracle.py)."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from mjstats.errors import InvalidHand
from mjstats.rulesets.guobiao.waits import (
    KNITTED_STRAIGHTS,
    TERMINALS_AND_HONOURS,
    hand_counts,
    shanten,
    shanten_by_form,
    waits,
)
from mjstats.tiles import ALL_KINDS, parse_tiles


def kinds(text: str) -> frozenset:
    return frozenset(parse_tiles(text))


def test_regular_wait() -> None:
    assert shanten("123456789m1112p") == 0
    assert waits("123456789m1112p") == kinds("23p")


def test_nine_gates_waits_on_all_nine() -> None:
    assert waits("1112345678999m") == kinds("123456789m")


def test_seven_pairs_wait_and_four_of_a_kind_as_two_pairs() -> None:
    hand = "1111m2255p3366s7z"
    form = shanten_by_form(hand)
    assert form.seven_pairs == 0
    assert ALL_KINDS[33] in waits(hand)  # 7z completes 七对 (1111m as two pairs)


def test_thirteen_orphans_thirteen_sided_and_single() -> None:
    assert waits("19m19p19s1234567z") == frozenset(ALL_KINDS[t] for t in TERMINALS_AND_HONOURS)
    assert waits("19m19p19s1234566z") == kinds("7z")
    assert shanten_by_form("19m19p19s1234566z").thirteen_orphans == 0


def test_honours_and_knitted_waits_on_the_three_missing() -> None:
    hand = "147m258s36p12345z"  # 13 of the 16 tiles of 147m 258s 369p + the honours
    assert shanten_by_form(hand).honours_knitted == 0
    assert waits(hand) == kinds("9p67z")
    assert shanten_by_form("147m25s36p12345z9s").honours_knitted == 1  # 9s is no candidate


def test_knitted_straight_concealed_and_with_one_meld() -> None:
    hand = "147m258s369p11z23m"  # straight + 23m + pair
    assert shanten_by_form(hand).knitted_straight == 0
    assert waits(hand) == kinds("14m")
    melds = [("PENG", "F1", 1)]  # one exposed meld: the straight + a pair
    assert waits("147m258s369p7z", melds) == kinds("7z")
    assert shanten("147m258s36p77z", melds) == 0
    assert waits("147m258s36p77z", melds) == kinds("9p")
    assert shanten_by_form("147m258s36p77z", melds).seven_pairs is None


def test_no_special_forms_with_two_melds() -> None:
    melds = [("PENG", "F1", 1), ("CHI", "T5", 2)]
    form = shanten_by_form("147m258s3p", melds)
    assert form.knitted_straight is None
    assert form.seven_pairs is None
    assert form.best == form.regular


def test_fifth_copy_waits_are_listed_by_shape() -> None:
    assert waits("123456789m1111p") == kinds("1p")
    assert waits("2222z333z555z", [("PENG", "F1", 1)]) == kinds("2z")


def test_not_waiting_is_empty() -> None:
    assert shanten("1357m2468p13579s") > 0
    assert waits("1357m2468p13579s") == frozenset()


def test_inputs_in_any_notation() -> None:
    tiles = parse_tiles("123456789m1112p")
    assert waits([str(t) for t in tiles]) == waits(list(tiles)) == waits([int(t) for t in tiles])
    assert hand_counts("123456789m1112p")[1] == 0


@pytest.mark.parametrize(
    ("hand", "melds"),
    [
        ("123456789m111p", []),  # 12 tiles
        ("123456789m1112p", [("PENG", "F1", 1)]),  # 13 tiles beside a meld
        ("11111m23456789p", []),  # a fifth copy
        ("123456789m1p", [("KONG", "F1", 1)]),  # unknown meld kind
        (["W1", "W2", "X9"], []),
        ("123456789m111p1f", []),  # a flower
        ("1234567m111p", [("CHI", "F2", 1)]),  # honours never chow
        ("1234567m111p", [("CHI", "W1", 1)]),  # CHI names the middle tile
        ("1234567m111p", [("PENG", "F2")]),  # a meld is a triple
    ],
)
def test_invalid_hands_raise(hand: object, melds: list) -> None:
    with pytest.raises(InvalidHand):
        waits(hand, melds)  # type: ignore[arg-type]
    with pytest.raises(InvalidHand):
        shanten(hand, melds)  # type: ignore[arg-type]


def test_fifth_copy_counted_across_melds() -> None:
    with pytest.raises(InvalidHand, match="copies"):
        shanten("1111m234567p", [("PENG", "W1", 1)])


def test_knitted_straights_are_the_six_permutations() -> None:
    assert len(set(KNITTED_STRAIGHTS)) == 6
    for straight in KNITTED_STRAIGHTS:
        assert sorted({t // 9 for t in straight}) == [0, 1, 2]
        assert sorted({t % 3 for t in straight}) == [0, 1, 2]


@settings(max_examples=200)
@given(st.lists(st.integers(0, 33), min_size=13, max_size=13))
def test_waits_complete_the_hand_and_shanten_is_the_best_form(tiles: list[int]) -> None:
    counts = [tiles.count(k) for k in range(34)]
    assume(max(counts) <= 4)
    form = shanten_by_form(tiles)
    assert shanten(tiles) == form.best
    assert bool(waits(tiles)) == (form.best == 0)


def test_special_may_wait_equals_the_counts_of_each_form() -> None:
    """``special_may_wait`` (kinds held as one mask, counted by bits) against the counts each
    special form needs, written out: random hands, biased to terminals and knitted straights."""
    import random

    from mjstats.rulesets.guobiao.divide import KNITTED_STRAIGHTS, TERMINALS_AND_HONOURS
    from mjstats.rulesets.guobiao.waits import special_may_wait

    def expected(counts: tuple[int, ...], melds: int) -> bool:
        if melds > 1:
            return False
        held = [k for k in range(34) if counts[k]]
        if melds == 0 and len(held) >= 13:
            return True
        if melds == 0 and len(held) >= 12 and sum(1 for t in TERMINALS_AND_HONOURS if counts[t]) >= 12:
            return True
        return any(sum(1 for t in s if counts[t]) >= 8 for s in KNITTED_STRAIGHTS)

    rng = random.Random(11)
    pools = (
        list(range(34)),
        [*TERMINALS_AND_HONOURS, *TERMINALS_AND_HONOURS, *range(34)],
        [*KNITTED_STRAIGHTS[0], *KNITTED_STRAIGHTS[3], *range(27, 34)],
    )
    hits = 0
    for i in range(30_000):
        melds = rng.choice((0, 0, 1, 2))
        counts = [0] * 34
        for _ in range(13 - 3 * melds):
            counts[rng.choice(pools[i % 3])] += 1
        hand = tuple(counts)
        hits += expected(hand, melds)
        assert special_may_wait(hand, melds) == expected(hand, melds), (hand, melds)
    assert hits > 300  # the special forms were reached
