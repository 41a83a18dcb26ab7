"""Unit and property tests of the Guobiao fan calculator: table, principles, quirks, errors,
profiles and payments."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjstats.errors import InvalidHand, NotWinningHand, ProfileError, RuleError
from mjstats.rulesets.guobiao import (
    FAN_BY_NAME,
    FANS,
    calculate_fans,
    guobiao_payments,
    meets_minimum,
)
from mjstats.tiles import ALL_KINDS, format_mpsz
from tests.test_guobiao_handgen import HandGenerator

REFERENCE = Path("/work/shared/reference/guobiao.md")


def fans_of(result) -> dict[str, int]:
    return {f.name: f.count for f in result.fans}


def score(hand: str, win: str, melds=(), **kw):
    return calculate_fans(hand.split(), list(melds), win, **kw)


# ----------------------------------------------------------------------------- the table


@pytest.mark.skipif(not REFERENCE.exists(), reason="shared reference not mounted")
def test_table_order_names_and_values_follow_the_reference():
    text = REFERENCE.read_text(encoding="utf-8")
    rows = re.findall(r"\|\s*(\d+)\s*\|\s*([^|\s]+)\s*\|\s*(\d+)", text)
    expected = sorted((int(n), name, int(v)) for n, name, v in rows)
    assert len(expected) == 82
    assert [(f.order, f.name, f.points) for f in FANS] == expected


def test_every_exclusion_names_a_fan_of_the_table():
    for fan in FANS:
        for name in (*fan.excludes, *(n for n, _ in fan.consumes)):
            assert name in FAN_BY_NAME, (fan.name, name)
            assert FAN_BY_NAME[name].order != fan.order


# ----------------------------------------------------------------------------- principles


def test_account_once_two_terminal_chows_in_two_suits_score_three_not_four():
    # reference guobiao.md: [123m][789m][123s][789s] scores 3 fan, not 4 (套算一次).
    r = score("W1 W2 W3 W7 W8 W9 T1 T2 T3 T7 T8 T9 F1", "F1", [], self_drawn=False)
    one_fan = {k: v for k, v in fans_of(r).items() if k in ("喜相逢", "老少副")}
    assert sum(one_fan.values()) == 3
    assert one_fan == {"喜相逢": 2, "老少副": 1}


def test_account_once_keeps_one_of_each_fan_over_repeats():
    # 234s 223344p 567p: 一般高 + 喜相逢 + 连六, not 喜相逢 x2 + 连六 (不得相同, 套算一次).
    r = score("T2 T3 T4 B2 B2 B3 B3 B4 B4 B5 B6 B7 F1", "F1")
    got = fans_of(r)
    assert (got.get("一般高"), got.get("喜相逢"), got.get("连六")) == (1, 1, 1)


def test_non_separation_four_shifted_chows_do_not_also_make_short_straight():
    r = score("W1 W2 W3 W2 W3 W4 W3 W4 W5 W4 W5 W6 F1", "F1")
    assert "一色四步高" in fans_of(r)
    assert not {"连六", "一色三步高", "老少副"} & set(fans_of(r))


def test_non_repeat_big_four_winds_drops_what_it_implies():
    r = score("F1 F1 F1 F2 F2 F2 F3 F3 F3 F4 F4 F4 W1", "W1", seat_wind=1, round_wind=2)
    assert not {"三风刻", "碰碰和", "幺九刻", "圈风刻", "门风刻"} & set(fans_of(r))


def test_take_the_higher_reading_of_a_seven_pairs_hand():
    # 1122337788995 5: 七对 + 清一色 (48) or 一色双龙会 (64): the regular reading wins.
    r = score("W1 W1 W2 W2 W3 W3 W7 W7 W8 W8 W9 W9 W5", "W5")
    assert r.form == "regular" and "一色双龙会" in fans_of(r)
    assert "七对" not in fans_of(r)


def test_wind_pung_counts_its_terminal_pung_once_even_as_seat_and_round():
    r = score("W1 W2 W3 T4 T5 T6 B7 B8 B9 F2 F2 F2 J1", "J1", seat_wind=1, round_wind=1)
    got = fans_of(r)
    assert got.get("圈风刻") == 1 and got.get("门风刻") == 1 and "幺九刻" not in got


def test_edge_wait_needs_a_single_waiting_tile():
    # seed 001: 12345 winning on 3 is not 边张; 12 winning on 3 is.
    assert "边张" not in fans_of(score("W1 W2 W3 W4 W5 T4 T5 T6 B7 B8 B9 F1 F1", "W3"))
    assert "边张" in fans_of(score("W1 W2 T4 T5 T6 B7 B8 B9 W9 W9 W9 F1 F1", "W3"))


def test_fans_come_in_table_order_with_flowers_before_concealed_and_melded_kong():
    r = score("W2 W3 W4 T5 T5 T6 T7", "T8", [("GANG", "W1", 0), ("GANG", "W9", 2)], flowers=2)
    orders = [f.order for f in r.fans]
    assert orders == sorted(orders)
    assert [f.name for f in r.fans][-2:] == ["花牌", "明暗杠"]
    assert r.total == sum(f.points * f.count for f in r.fans)


def test_tiles_explain_each_occurrence():
    r = score("W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9 W9", "W5")
    by_name = {f.name: f for f in r.fans}
    assert by_name["九莲宝灯"].tiles == (tuple(sorted(ALL_KINDS[t] for t in
                                                  [0, 0, 0, 1, 2, 3, 4, 4, 5, 6, 7, 8, 8, 8])),)
    assert [str(t) for t in by_name["双暗刻"].tiles[0]] == ["W1", "W1", "W1", "W9", "W9", "W9"]
    assert len(by_name["幺九刻"].tiles) == by_name["幺九刻"].count == 1


# ----------------------------------------------------------------------------- oracle quirks


def test_fourth_tile_dropped_when_the_hand_holds_another_copy():
    r = score("W1 W2 W3 T4 T5 T6 B1 B1 B1 W5 W6 F1 F1", "W7", fourth_tile=True)
    assert "和绝张" in fans_of(r)
    r = score("W1 W2 W3 T4 T5 T6 B1 B1 B1 W5 W6 W7 W7", "W7", fourth_tile=True)
    assert "和绝张" not in fans_of(r)


def test_fourth_tile_forced_when_melds_show_three_copies():
    hand = "W2 W3 W4 T5 T6 T7 B7 B8 F1 F1"
    assert "和绝张" in fans_of(score(hand, "B9", [("PENG", "B9", 1)]))
    assert "和绝张" not in fans_of(score(hand, "B9", [("PENG", "B1", 1)]))


def test_kong_flags_corrected():
    base = "W1 W2 W3 T4 T5 T6 B7 B8 B9 W5 W6 F1 F1"
    assert "杠上开花" not in fans_of(score(base, "W7", self_drawn=True, kong_win=True))
    assert "抢杠和" in fans_of(score(base, "W7", kong_win=True))
    # the robbed tile cannot be in the winner's own hand
    assert "抢杠和" not in fans_of(score("W1 W2 W3 T4 T5 T6 B7 B8 B9 W5 W6 W7 W7", "W7",
                                      kong_win=True))
    with_kong = score("W1 W2 W3 T4 T5 T6 W5 W6 F1 F1", "W7", [("GANG", "B7", 0)],
                      self_drawn=True, kong_win=True)
    assert "杠上开花" in fans_of(with_kong) and "自摸" not in fans_of(with_kong)


# ----------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("hand", "melds", "win", "message"),
    [
        ("W1 W2 W3", [], "W4", "3 concealed tiles with 0 melds: expected 13"),
        ("W1 W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 F1", [], "W1", "more than four copies of W1"),
        ("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 X9", [], "T4", "unknown tile 'X9'"),
        ("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 H1", [], "T4", "flower"),
        ("W2 W3 W4 W5 W6 W7 W8 W9 T1 T2", [("CHI", "W1", 1)], "T3", "middle tile"),
        ("W2 W3 W4 W5 W6 W7 W8 W9 T1 T2", [("PENG", "F1", 0)], "T3", "PENG offer must be 1..3"),
        ("W2 W3 W4 W5 W6 W7 W8 W9 T1 T2", [("PON", "F1", 1)], "T3", "CHI, PENG or GANG"),
        ("W2 W3 W4 W5 W6 W7 W8 W9 T1 T2", [("GANG", "F1", 4)], "T3", "GANG offer"),
    ],
)
def test_impossible_input_raises_invalid_hand_saying_what(hand, melds, win, message):
    with pytest.raises(InvalidHand, match=re.escape(message)):
        score(hand, win, melds)


def test_not_a_win_is_a_value_error():
    with pytest.raises(NotWinningHand) as info:
        score("W1 W2 W4 W5 W7 W8 T1 T2 T4 T5 B1 B2 F1", "J1")
    assert isinstance(info.value, ValueError)


def test_winds_must_be_0_to_3():
    with pytest.raises(InvalidHand, match="seat_wind"):
        score("W1 W2 W3 T4 T5 T6 B7 B8 B9 W9 W9 W9 F1", "F1", seat_wind=4)


# ----------------------------------------------------------------------------- minimum, profiles


def test_meets_minimum_ignores_flowers():
    r = score("W1 W2 W3 T4 T5 T6 B1 B1 B1 W5 W6 F1 F1", "W7", flowers=7)
    assert r.total == r.fan_total + 7
    assert r.fan_total < 8 and r.total >= 8
    assert not meets_minimum(r)
    assert meets_minimum(r, minimum=r.fan_total)


def test_standard_profile_ignores_platform_flags():
    plain = score("W1 W2 W3 T4 T5 T6 B7 B8 B9 W9 W9 W9 F1", "F1", self_drawn=True)
    flagged = score("W1 W2 W3 T4 T5 T6 B7 B8 B9 W9 W9 W9 F1", "F1", self_drawn=True,
                    heavenly=True)
    assert plain == flagged


@pytest.mark.parametrize(("profile", "points"), [("platform_extras", 99),
                                                 ("platform_extras_lianzhong", 168)])
def test_heavenly_hand_in_platform_profiles(profile, points):
    plain = score("W1 W2 W3 T4 T5 T6 B7 B8 B9 W9 W9 W9 F1", "F1", self_drawn=True)
    r = score("W1 W2 W3 T4 T5 T6 B7 B8 B9 W9 W9 W9 F1", "F1", self_drawn=True,
              heavenly=True, profile=profile)
    assert r.fans[0].name == "天和" and r.fans[0].points == points
    assert "单钓将" in fans_of(plain) and "单钓将" not in fans_of(r)
    assert r.total == plain.total + points - 1
    assert r.profile == profile


def test_earthly_and_human_hands():
    r = score("W1 W2 W3 T4 T5 T6 B7 B8 B9 W9 W9 W9 F1", "F1", earthly=True,
              profile="platform_extras")
    assert fans_of(r)["地和"] == 1 and r.fans[0].points == 88
    r = score("W1 W2 W3 T4 T5 T6 B7 B8 B9 W9 W9 W9 F1", "F1", human=True,
              profile="platform_extras_lianzhong")
    assert r.fans[0].name == "人和" and r.fans[0].points == 108


def test_unknown_profile():
    with pytest.raises(ProfileError, match="unknown Guobiao profile"):
        score("W1 W2 W3 T4 T5 T6 B7 B8 B9 W9 W9 W9 F1", "F1", profile="nope")


# ----------------------------------------------------------------------------- payments


def test_payments_follow_seed_001_formula():
    # seed 001: self-drawn (8+F)x3, discard 8x3+F; discarder -(8+F), others -8.
    assert guobiao_payments(10, winner=2) == (-18, -18, 54, -18)
    assert guobiao_payments(10, winner=0, discarder=3) == (34, -8, -8, -18)


@given(st.integers(0, 400), st.integers(0, 3), st.one_of(st.none(), st.integers(0, 3)))
def test_payments_sum_to_zero(fan, winner, discarder):
    if discarder == winner:
        with pytest.raises(RuleError):
            guobiao_payments(fan, winner, discarder)
        return
    pay = guobiao_payments(fan, winner, discarder)
    assert sum(pay) == 0 and pay[winner] > 0
    assert max(pay) == pay[winner]


# ----------------------------------------------------------------------------- properties


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_reading_does_not_depend_on_tile_order_or_notation(seed):
    gen = HandGenerator(seed)
    case = gen.regular() or gen.concealed_form()
    if case is None:
        return
    hand, melds, win = case.our_args()
    try:
        r = calculate_fans(hand, melds, win, **case.flags)
    except RuleError as exc:
        shuffled = list(hand)
        random.Random(seed).shuffle(shuffled)
        with pytest.raises(type(exc)):
            calculate_fans(shuffled, melds, win, **case.flags)
        return
    shuffled = list(hand)
    random.Random(seed).shuffle(shuffled)
    r2 = calculate_fans(format_mpsz(case.hand), melds, ALL_KINDS[case.win].mpsz, **case.flags)
    r3 = calculate_fans(list(case.hand), melds, case.win, **case.flags)  # int codes
    assert r == calculate_fans(shuffled, melds, win, **case.flags) == r2 == r3
    assert r.total == sum(f.points * f.count for f in r.fans)
    assert [f.order for f in r.fans] == sorted(f.order for f in r.fans)
    # every tile an explanation names is one of the hand's tiles
    everything = Counter(t for group in (s[1] for s in r.sets) for t in group)
    for f in r.fans:
        assert f.count == len(f.tiles)
        for group in f.tiles:
            if r.sets:
                assert not Counter(group) - everything


def test_without_tiles_the_same_fans_and_totals() -> None:
    """``with_tiles=False`` (the replay's rescoring) gives every fan, count, points and total of
    the full result, only without the tiles each fan and set is shown with; errors are the same."""
    from mjstats.rulesets.guobiao import calculate_fans

    cases = HandGenerator(23).cases(1500)
    scored = shown = 0
    for case in cases:
        hand, melds, win = case.our_args()
        outcomes = []
        for with_tiles in (True, False):
            try:
                outcomes.append(calculate_fans(hand, melds, win, **case.kwargs(), with_tiles=with_tiles))
            except RuleError as exc:
                outcomes.append((type(exc).__name__, str(exc)))
        full, bare = outcomes
        if isinstance(full, tuple):
            assert bare == full, case
            continue
        scored += 1
        assert (bare.total, bare.form, bare.profile, bare.fan_total) == (
            full.total, full.form, full.profile, full.fan_total), case
        assert [f._replace(tiles=()) for f in full.fans] == list(bare.fans), case
        assert bare.sets == () and all(f.tiles == () for f in bare.fans)
        shown += bool(full.sets) and all(f.tiles for f in full.fans)
    assert scored > 500 and shown > 500
