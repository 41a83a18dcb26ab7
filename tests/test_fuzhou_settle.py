"""Fuzhou settlement: seed 003's two worked examples, every pattern and its precedence, flower
and kong fan, the streak, both payment formulas, the payer switch, 抢炮和, and zero-sum payments."""

from __future__ import annotations

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from mjstats.errors import InvalidHand, NotWinningHand, RuleError
from mjstats.rulesets.fuzhou.profiles import parse_profile
from mjstats.rulesets.fuzhou.settle import flower_fan, flower_groups, kong_fan, settle_win
from mjstats.rulesets.fuzhou.turns import DealerState, next_dealer
from mjstats.tiles import ALL_KINDS, parse_tiles

T = parse_tiles


def seat_pays(settlement, seat):
    return -settlement.payments[seat]


# --- seed 003 worked examples (reference fuzhou.md: must reproduce exactly) ---


def example_one(streak=2):
    """Dealer (seat 0) self-draws the third gold B2: 三金倒; pung T9, chow W6-W8 exposed."""
    melds = [("PENG", "T9", 2), ("CHI", "W7", 3)]
    hand = T("B2 B2 W1 W4 T1 T4 B5 B8 W9 T6")  # two golds and nothing that completes
    return settle_win(hand, melds, "B2", "B2", True, ["F1", "F3", "H2", "H7"], 0, 0, streak=streak)


def test_example_one_three_golds_dealer_self_draw():
    s = example_one()
    assert s.pattern == "三金倒"
    assert s.pattern_points == 40
    assert (s.fan.flowers, s.fan.kongs, s.fan.golds, s.fan.streak) == (4, 0, 3, 2)
    assert s.per_payer == (4 + 3 + 2 + 5) * 2 + 40 == 68
    assert s.payments == (204, -68, -68, -68)


def example_two(**kwargs):
    """Seat 1 (non-dealer) wins seat 3's B7 with 金雀 (gold T4): chow W2-W4, added kong T7."""
    melds = [("CHI", "W3", 3), ("GANG", "T7", 2)]
    hand = T("T4 T4 W5 W6 W7 B1 B2 B3 B5 B6")
    return settle_win(
        hand,
        melds,
        "T4",
        "B7",
        False,
        ["F2", "H1", "H3", "H6"],
        1,
        0,
        discarder=3,
        streak=1,
        **kwargs,
    )


def test_example_two_golden_pair_discard_win():
    s = example_two()
    assert s.pattern == "金雀"
    assert (s.fan.flowers, s.fan.kongs, s.fan.golds, s.fan.streak) == (4, 1, 2, 1)
    assert s.per_payer == (4 + 1 + 2 + 1 + 5) * 2 + 60 == 86
    assert s.payments == (0, 86, 0, -86)


# --- patterns and precedence ---

GOLD = "T9"
# W123 W456 W789 T123 B123 + pair B55: a plain complete hand of three suits (gold T9 unused)
PLAIN = T("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 B1 B2 B3 B5")


def win(hand=PLAIN, tile="B5", flowers=(), melds=(), gold=GOLD, self_drawn=True, seat=1, **kw):
    return settle_win(hand, melds, gold, tile, self_drawn, flowers, seat, 0, **kw)


def test_plain_win_no_flowers_no_kongs():
    s = win()
    assert (s.pattern, s.pattern_points) == ("平和", 30)


def test_plain_win_one_flower_is_half():
    s = win(flowers=["H3"])
    assert (s.pattern, s.pattern_points) == ("平和", 15)


def test_no_pattern_with_two_flowers_or_a_kong():
    assert win(flowers=["H3", "F1"]).pattern is None
    s = win(hand=T("W4 W5 W6 W7 W8 W9 T1 T2 T3 B1 B2 B3 B5"), melds=[("GANG", "W1", 0)])
    assert s.pattern is None and s.pattern_points == 0
    assert s.fan.kongs == 2


def test_heavenly_win():
    s = win(hand=PLAIN, seat=0, flowers=["H1", "H2"], heavenly=True)
    assert (s.pattern, s.pattern_points) == ("天和", 30)
    assert s.self_drawn
    with pytest.raises(RuleError):
        win(heavenly=True, seat=2)  # only the dealer


def test_heavenly_ties_plain_and_names_the_earlier_pattern():
    s = win(hand=PLAIN, seat=0, heavenly=True)
    assert ("平和", 30) in s.eligible and s.pattern == "天和"


def test_three_golds_any_shape_only_on_self_draw():
    hand = T("T9 T9 W1 W4 W7 T1 T5 T8 B1 B4 B7 B9 T2 T2 B5 B5")
    s = win(hand=hand, tile="T9", flowers=["H1", "H2"])
    assert (s.pattern, s.pattern_points) == ("三金倒", 40)
    with pytest.raises(NotWinningHand):  # two golds only
        win(hand=hand, tile="B6", flowers=["H1", "H2"])


def test_three_golds_lose_to_a_higher_shape_pattern():
    # W123 W456 W789 T123 B55 + three golds: 金龙 (120) beats 金雀 (60) and 三金倒 (40)
    hand = T("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 B5 B5 T9 T9")
    s = win(hand=hand, tile="T9", flowers=["H1", "H2"])
    names = dict(s.eligible)
    assert names["三金倒"] == 40 and names["金雀"] == 60 and names["金龙"] == 120
    assert (s.pattern, s.pattern_points) == ("金龙", 120)


def test_rob_gold():
    hand = T("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 B1 B2 B3 B5")  # waits on B5 or a gold
    s = win(hand=hand, tile=GOLD, self_drawn=False, flowers=["H1", "H2"], robbed_gold=True)
    assert (s.pattern, s.pattern_points) == ("抢金", 30)
    assert s.self_drawn and s.fan.golds == 1
    assert s.payments == (-s.per_payer, 3 * s.per_payer, -s.per_payer, -s.per_payer)
    with pytest.raises(RuleError):
        win(hand=hand, tile="B5", robbed_gold=True)  # the robbed tile is the gold


def test_rob_gold_cannot_make_three_golds():
    # seed 003 example 1: with two golds one may not rob the gold to make 三金倒
    hand = T("T9 T9 W1 W4 W7 T1 T5 T8 B1 B4 B7 B9 T2 T2 B5 B5")
    with pytest.raises(NotWinningHand):
        win(hand=hand, tile=GOLD, robbed_gold=True)


def test_rob_gold_impossible_when_the_turned_up_gold_is_out_of_play():
    with pytest.raises(RuleError):
        win(tile=GOLD, robbed_gold=True, profile="platform")


def test_golden_pair():
    hand = T("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 B1 B2 T9 T9")
    s = win(hand=hand, tile="B3", flowers=["H1", "H2"])
    assert (s.pattern, s.pattern_points) == ("金雀", 60)


def test_half_flush_gold_of_another_suit():
    hand = T("W1 W2 W3 W4 W5 W6 W7 W8 W9 W1 W2 W3 W5 W6 T9 W9")  # one gold T9 stands for W7
    s = win(hand=hand, tile="W9", flowers=["H1", "H2"])
    assert (s.pattern, s.pattern_points) == ("混一色", 60)


def test_full_flush_counts_golds_at_face_value():
    hand = T("W1 W2 W3 W4 W5 W6 W7 W8 W9 W1 W2 W3 W5 W6 W7 W9")
    s = win(hand=hand, tile="W9", flowers=["H1", "H2"], gold="W7")
    assert (s.pattern, s.pattern_points) == ("清一色", 120)
    s = win(hand=hand, tile="W9", flowers=["H1", "H2"], gold="T9")
    assert s.pattern == "清一色"  # no gold held: every tile of one suit


def test_full_flush_beats_golden_pair():
    hand = T("W1 W2 W3 W4 W5 W6 W7 W8 W9 W1 W2 W3 W5 W6 W7 W5")
    s = win(hand=hand, tile="W5", flowers=["H1", "H2"], gold="W5")
    # golds W5 x3 at face value are wan: 清一色 120; the golds as a pair make 金雀 60
    assert dict(s.eligible)["金雀"] == 60
    assert (s.pattern, s.pattern_points) == ("清一色", 120)


def test_half_flush_with_a_playable_dragon_on_the_platform():
    hand = T("W1 W2 W3 W4 W5 W6 W7 W8 W9 W1 W2 W3 J2 J2 J2 W5")
    s = settle_win(hand, (), "T9", "W5", True, ["H1", "H2"], 1, 0, profile="platform")
    assert (s.pattern, s.pattern_points) == ("混一色", 100)


def test_not_winning_raises():
    with pytest.raises(NotWinningHand):
        win(tile="B6")
    with pytest.raises(InvalidHand):
        win(flowers=["W1"])  # not a flower tile
    with pytest.raises(InvalidHand):
        win(flowers=["H1", "H1"])  # one copy of each flower


def test_no_win_on_a_discarded_gold():
    hand = T("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 B1 B2 B3 B5")
    with pytest.raises(RuleError):
        win(hand=hand, tile=GOLD, self_drawn=False, discarder=2)
    with pytest.raises(RuleError):
        win(self_drawn=False)  # a discard win needs the discarder


# --- flower and kong fan, streak ---


def test_flower_groups_of_four_count_six():
    assert flower_fan(["H1", "H2", "H3"]) == 3
    assert flower_fan(["H1", "H2", "H3", "H4"]) == 6
    assert flower_fan(["H1", "H2", "H3", "H4", "H5"]) == 7
    assert flower_fan(["H1", "H2", "H3", "H4", "H5", "H6", "H7", "H8"]) == 12
    assert flower_fan(["F1", "F1", "F1", "F1", "J3"]) == 7  # four of one honour
    assert flower_fan(["F1", "F2", "F3", "F4"]) == 4  # four winds are not a group
    assert flower_groups(["H5", "H6", "H7", "H8", "J1", "J1", "J1", "J1"]) == 2
    assert flower_fan(["H1", "H2", "H3", "H4"], "platform") == 4  # no group bonus
    with pytest.raises(InvalidHand):
        flower_fan(["J2"], "platform")  # 发 is a playable tile there


def test_kong_fan():
    assert kong_fan([("GANG", "W1", 0)]) == 2  # concealed
    assert kong_fan([("GANG", "W1", 1), ("GANG", "T1", 3)]) == 2  # exposed / added
    assert kong_fan([("PENG", "W1", 1), ("CHI", "W5", 1)]) == 0


def test_streak_counting_zhan_ding_adds_nothing():
    state = DealerState(0)
    assert state.streak == 0
    state = next_dealer(state, winner=0)  # 站顶: the dealer's first win
    assert state.streak == 0
    state = next_dealer(state, winner=0)
    assert state.streak == 1
    state = next_dealer(state, winner=0)
    assert state.streak == 2  # example one's "streak 2": the dealer's fourth hand in a row
    assert example_one(streak=state.streak).per_payer == 68
    state = next_dealer(state, winner=None)  # exhaustive draw keeps the streak (seed)
    assert state.streak == 2
    assert next_dealer(state, winner=None, profile="platform").streak == 3
    state = next_dealer(state, winner=2)
    assert state == DealerState(1, 0)


def test_streak_counts_for_a_non_dealer_win():
    assert example_two().fan.streak == 1
    s0 = settle_win(
        T("T4 T4 W5 W6 W7 B1 B2 B3 B5 B6"),
        [("CHI", "W3", 3), ("GANG", "T7", 2)],
        "T4",
        "B7",
        False,
        ["F2", "H1", "H3", "H6"],
        1,
        0,
        discarder=3,
        streak=0,
    )
    assert example_two().per_payer - s0.per_payer == 2


# --- payment formulas and payer ---


def test_platform_formula_self_draw_and_discard():
    hand = T("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 B1 B2 T9 T9")  # 金雀 after B3
    melds: tuple = ()
    flowers = ["H1", "F1"]
    s = settle_win(hand, melds, GOLD, "B3", True, flowers, 1, 0, streak=1, profile="platform")
    # 自摸 = (F + G + L + J) x 2 + S: flowers 2, kongs 0, streak 1, golds 2; 金雀 60
    assert s.per_payer == (2 + 0 + 1 + 2) * 2 + 60
    assert s.payments == (-70, 210, -70, -70)
    # 放胡 = F + G + L + J + S, and on the platform all three pay
    s = settle_win(
        hand, melds, GOLD, "B3", False, flowers, 1, 0, discarder=2, streak=1, profile="platform"
    )
    assert s.per_payer == 2 + 0 + 1 + 2 + 60
    assert s.payments == (-65, 195, -65, -65)


def test_discard_win_payer_switch():
    everyone = parse_profile('discard_win_payer = "all"\nname = "all-pay"')
    s = example_two(profile=everyone)
    assert s.profile == "all-pay"
    assert s.per_payer == 86
    assert s.payments == (-86, 258, -86, -86)


def test_jumped_claim_doubles():
    s = example_two(jumped_claim=True)
    assert s.jumped and s.per_payer == 172
    assert s.payments == (0, 172, 0, -172)
    with pytest.raises(RuleError):
        win(self_drawn=False, discarder=3, jumped_claim=True)  # a plain hand cannot jump


def test_idle_gold_switch():
    hand = T("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 B1 B2 B3 T9")  # 闲金: the gold waits alone
    assert win(hand=hand, tile="B5", self_drawn=False, discarder=3).pattern == "平和"  # seed: free
    with pytest.raises(RuleError):
        win(hand=hand, tile="B5", self_drawn=False, discarder=3, profile="platform")
    assert win(hand=hand, tile="B5", profile="platform").self_drawn


# --- properties ---

MELDED = [("PENG", "W1", 1), ("PENG", "T5", 2), ("GANG", "B9", 0)]


@given(
    extra=st.lists(st.sampled_from(ALL_KINDS[18:27]), min_size=3, max_size=3),
    golds=st.integers(0, 3),
    flowers=st.lists(st.sampled_from(ALL_KINDS[34:]), unique=True, max_size=8),
    seat=st.integers(0, 3),
    dealer=st.integers(0, 3),
    discarder_offset=st.integers(1, 3),
    self_drawn=st.booleans(),
    streak=st.integers(0, 6),
    profile=st.sampled_from(["seed", "platform"]),
)
@settings(max_examples=300, deadline=None)
def test_payments_are_zero_sum(
    extra, golds, flowers, seat, dealer, discarder_offset, self_drawn, streak, profile
):
    gold = ALL_KINDS[22]  # B5
    concealed = [*T("W4 W5 W6 B2 B3"), *extra][: 8 - golds] + [gold] * golds
    hand, tile = concealed[:-1], concealed[-1]
    if tile == gold and not self_drawn:
        self_drawn = True
    try:
        s = settle_win(
            hand,
            MELDED,
            gold,
            tile,
            self_drawn,
            flowers,
            seat,
            dealer,
            discarder=(seat + discarder_offset) % 4,
            streak=streak,
            profile=profile,
        )
    except (NotWinningHand, InvalidHand, RuleError):
        event("no win")
        return
    event("win")
    assert sum(s.payments) == 0
    assert s.payments[seat] > 0
    assert s.fan.kongs == 2
    assert s.pattern_points == max((p for _, p in s.eligible), default=0)


def test_wrong_tile_count_is_invalid_even_with_three_golds():
    with pytest.raises(InvalidHand):
        win(hand=T("T9 T9 W1 W4"), tile="T9")
