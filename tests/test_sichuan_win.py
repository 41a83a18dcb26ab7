"""Sichuan win shapes, waits and shanten with the void suit, with hypothesis properties checked
against brute force (every tile tried) and against the fan engine."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from mjstats.errors import InvalidHand
from mjstats.rulesets.sichuan import (
    WinContext,
    is_winning_hand,
    parse_profile,
    score_win,
    shanten,
    waits,
)
from mjstats.tiles import SUITED, parse_tiles


def names(tiles) -> list[str]:
    return sorted(str(t) for t in tiles)


def test_waits_of_the_worked_examples():
    # E6: P3 with a concealed kong B3 waits on T6, B6, B9; E5: P1 waits on B2, B3, B5
    assert names(waits(parse_tiles("B4 B5 B6 B7 B8 B9 B9 B9 T6 T6"), [("GANG", "B3", 0)], void="W")) == [
        "B6",
        "B9",
        "T6",
    ]
    assert names(waits(parse_tiles("B1 B1 B1 B2 B2 B3 B4 B6 B6 B6 B7 B8 B9"), void="W")) == ["B2", "B3", "B5"]


def test_waits_honour_the_void_suit_and_the_copy_limit():
    hand = parse_tiles("W1 W1 W1 W1 W2 W3 W4 W5 W6 T2 T2 T7 T8")
    assert names(waits(hand)) == ["T6", "T9"]
    assert waits(hand, void="T") == frozenset()  # holds void tiles: no wait until they are gone
    # a hand waiting on a kind it holds four times is not credited with it (reference §7 #37)
    pairs = parse_tiles("W1 W1 W1 W1 W3 W3 W5 W5 W7 W7 B2 B2 B4")
    assert names(waits(pairs)) == ["B4"]
    single = parse_tiles("W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9 W9")  # 九莲: waits on every W
    assert names(waits(single, void="B")) == [f"W{i}" for i in range(1, 10)]


def test_seven_pairs_wait():
    hand = parse_tiles("W1 W1 W3 W3 W4 W4 W6 W6 W7 W7 B5 B5 B8")
    assert names(waits(hand, void="T")) == ["B8"]
    assert is_winning_hand([*hand, SUITED[25]], void="T")


def test_shanten_examples():
    assert shanten(parse_tiles("B4 B5 B6 B7 B8 B9 B9 B9 T6 T6"), [("GANG", "B3", 0)], void="W") == 0
    assert shanten(parse_tiles("T1 T1 T1 T2 T3 T4 T4 T6 T7 T7 T7 T9 T9 T5")) == -1
    # 4 sets + a single, plus one tile of the void suit: discard it, then wait (1 exchange)
    assert shanten(parse_tiles("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T1 B5"), void="B") == 1
    # without a declaration the best suit to give up is B (one tile), not T (three)
    assert shanten(parse_tiles("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T1 B5")) == 1
    assert shanten(parse_tiles("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T1 B5"), void="T") == 3
    # seven pairs: six pairs and a single is waiting
    assert shanten(parse_tiles("W1 W1 W3 W3 W4 W4 W6 W6 W7 W7 B5 B5 B8"), void="T") == 0
    with pytest.raises(InvalidHand):
        shanten(parse_tiles("W1 W2 W3"))
    with pytest.raises(InvalidHand, match="void suit"):
        shanten(parse_tiles("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1"), [("PENG", "B1", 1)], void="B")


def test_wrong_sizes_and_bad_tiles():
    assert not is_winning_hand(parse_tiles("W1 W1"))
    with pytest.raises(InvalidHand):
        waits(parse_tiles("W1 W2 W3 W4"))
    with pytest.raises(InvalidHand, match="suited"):
        is_winning_hand(parse_tiles("W1 W1 J1"))


# --- properties ---------------------------------------------------------------------------------


@st.composite
def winning_hands(draw):
    """(concealed tiles incl. the winning tile, melds, void suit): 4 sets + pair, or 七对, in the
    suits the void leaves, sets drawn as sequences, concealed pongs, pong melds and kongs."""
    void = draw(st.integers(0, 2))
    suits = [s for s in range(3) if s != void]
    if draw(st.booleans()):
        suits = [draw(st.sampled_from(suits))]  # a one-suit hand
    kinds = [9 * s + r for s in suits for r in range(9)]
    counts = [0] * 27
    concealed: list[int] = []
    melds: list[tuple[str, int, int]] = []
    if draw(st.integers(0, 5)) == 0:  # seven pairs
        for _ in range(7):
            k = draw(st.sampled_from(kinds))
            counts[k] += 2
            concealed += [k, k]
    else:
        for _ in range(4):
            form = draw(st.sampled_from(["chow", "pung", "peng", "gang", "angang"]))
            if form == "chow":
                s = draw(st.sampled_from(suits))
                low = 9 * s + draw(st.integers(0, 6))
                group = [low, low + 1, low + 2]
                concealed += group
            else:
                k = draw(st.sampled_from(kinds))
                group = [k] * (3 if form in ("pung", "peng") else 4)
                if form == "pung":
                    concealed += group
                else:
                    melds.append(("PENG" if form == "peng" else "GANG", k, 0 if form == "angang" else 1))
            for t in group:
                counts[t] += 1
        k = draw(st.sampled_from(kinds))
        counts[k] += 2
        concealed += [k, k]
    assume(max(counts) <= 4)
    return [SUITED[t] for t in concealed], [(kind, SUITED[t], offer) for kind, t, offer in melds], void


SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])


@SETTINGS
@given(winning_hands(), st.data())
def test_every_generated_winning_hand_is_recognised_and_scored(case, data):
    tiles, melds, void = case
    assert is_winning_hand(tiles, melds, void=void)
    assert is_winning_hand(tiles, melds)  # at most two suits: wins without a declaration too
    win = data.draw(st.sampled_from(tiles))
    hand = list(tiles)
    hand.remove(win)
    for profile in ("seed", "platform"):
        s = score_win(hand, melds, win, WinContext(), void=void, profile=profile)
        cap = 5 if profile == "seed" else 6
        assert s.multiplier == 2 ** min(s.fan, cap)
        assert s.fan == s.pattern_fan + s.gen + sum(f for _, f in s.extras)
    assert win in waits(hand, melds, void=void) or sum(
        1 for t in tiles if t == win
    ) + sum(4 if k == "GANG" else 3 for k, t, _ in melds if t == win) > 4
    assert shanten(tiles, melds, void=void) == -1
    assert shanten(hand, melds, void=void) == 0


@SETTINGS
@given(winning_hands(), st.data())
def test_a_void_suit_tile_never_wins(case, data):
    tiles, melds, void = case
    hand = list(tiles)
    hand.remove(data.draw(st.sampled_from(tiles)))
    for rank in range(9):
        extra = SUITED[9 * void + rank]
        assert not is_winning_hand([*hand, extra], melds, void=void)
        assert extra not in waits(hand, melds, void=void)


@SETTINGS
@given(winning_hands(), st.data())
def test_multiplier_is_monotone_in_gen(case, data):
    tiles, melds, void = case
    win = data.draw(st.sampled_from(tiles))
    hand = list(tiles)
    hand.remove(win)
    previous = None
    for gen_fan in range(4):
        prof = parse_profile(f"[fan]\ngen_fan = {gen_fan}\ncap_fan = 12\n")
        s = score_win(hand, melds, win, WinContext(), void=void, profile=prof)
        if previous is not None:
            assert s.fan >= previous.fan and s.multiplier >= previous.multiplier
        previous = s


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 17), min_size=13, max_size=13))
def test_waits_agree_with_trying_every_tile(codes):
    # two suits (W and T), void B: every suited kind is tried as the fourteenth tile
    counts = [0] * 27
    for c in codes:
        counts[c] += 1
    assume(max(counts) <= 4)
    hand = [SUITED[c] for c in codes]
    expected = {
        SUITED[k]
        for k in range(27)
        if counts[k] < 4 and is_winning_hand([*hand, SUITED[k]], void="B")
    }
    assert waits(hand, void="B") == expected
    # shanten 0 with no legal wait: the hand waits only on a kind it holds four times (a fifth
    # copy, which is_winning_hand refuses as input), reference §4.6
    assert (shanten(hand, void="B") == 0) == bool(expected) or 4 in counts


def check_shanten_steps(hand: list, melds: list, void: int | None) -> None:
    """Exact shanten: 0 exactly when the hand waits, no exchange (discard one, draw one) lowers
    it by more than one, and some exchange lowers it by one until the hand waits."""
    held = [0] * 27
    for t in hand:
        held[t] += 1
    for kind, t, _ in melds:
        held[t] += 4 if kind == "GANG" else 3
    value = shanten(hand, melds, void=void)
    assert (value == 0) == bool(waits(hand, melds, void=void)) or (value == 0 and 4 in held)
    best = 99
    for i in {hand.index(t) for t in hand}:
        rest = hand[:i] + hand[i + 1 :]
        for k in range(27):
            if k == hand[i] or held[k] >= 4:
                continue
            after = shanten([*rest, SUITED[k]], melds, void=void)
            assert after >= value - 1
            best = min(best, after)
    if value > 0:
        assert best == value - 1


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 26), min_size=13, max_size=13), st.sampled_from([None, 0, 1, 2]))
def test_shanten_of_random_hands_moves_one_exchange_at_a_time(codes, void):
    counts = [0] * 27
    for c in codes:
        counts[c] += 1
    assume(max(counts) <= 4)
    check_shanten_steps([SUITED[c] for c in codes], [], void)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(winning_hands(), st.data())
def test_shanten_of_near_complete_hands_moves_one_exchange_at_a_time(case, data):
    tiles, melds, void = case
    hand = list(tiles)
    hand.remove(data.draw(st.sampled_from(hand)))
    for _ in range(data.draw(st.integers(0, 2))):  # spoil up to two tiles, maybe with void ones
        hand[data.draw(st.integers(0, len(hand) - 1))] = SUITED[data.draw(st.integers(0, 26))]
    held = [0] * 27
    for t in hand:
        held[t] += 1
    for kind, t, _ in melds:
        held[t] += 4 if kind == "GANG" else 3
    assume(max(held) <= 4)
    check_shanten_steps(hand, melds, data.draw(st.sampled_from([None, void])))
