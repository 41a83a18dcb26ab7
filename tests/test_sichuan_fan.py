"""Sichuan fan: each pattern of reference §3.3 with its fan, 根 counting, the cap, the extras,
天胡/地胡, and where the seed and platform profiles differ."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mjstats.errors import InvalidHand, NotWinningHand, RuleError
from mjstats.rules.hand import divisions
from mjstats.rulesets.sichuan import WinContext, parse_profile, score_win
from mjstats.tiles import parse_tiles
from tests.test_sichuan_win import SETTINGS, winning_hands

PLAIN = WinContext()


def score(hand: str, win: str, melds=(), context=PLAIN, profile="seed", void=None):
    return score_win(parse_tiles(hand), melds, win, context, profile=profile, void=void)


# (hand without the winning tile, winning tile, pattern, F); most are the seed's own examples.
PATTERN_CASES = [
    ("W1 W2 W3 W4 W5 W6 B2 B3 B4 B5 B7 B8 B8", "B6", "平胡", 0),
    ("T2 T2 T2 T5 T5 T5 T8 T8 T8 B6 B6 B9 B9", "B6", "对对胡", 1),  # not 将对: B6, B9
    ("T1 T1 T1 T2 T3 T4 T4 T6 T7 T7 T7 T9 T9", "T5", "清一色", 2),
    ("W1 W1 W1 W2 W2 W2 W3 W3 W3 B7 B8 B9 B9", "B9", "带幺九", 2),  # seed: 111222333万78999筒
    ("W1 W1 W3 W3 W4 W4 W6 W6 W7 W7 B5 B5 B8", "B8", "七对", 2),  # seed: 1133446677万5588筒
    ("T1 T1 T1 T3 T3 T3 T5 T5 T5 T7 T7 T9 T9", "T9", "清对", 3),
    ("T2 T2 T2 T5 T5 T5 T8 T8 T8 W8 W8 W8 W5", "W5", "将对", 3),  # seed: 222555888条88855万
    ("B1 B1 B2 B2 B2 B2 B4 B4 W5 W5 W7 W7 W9", "W9", "龙七对", 4),  # seed: 11222244筒557799万
    ("T1 T1 T3 T3 T4 T4 T6 T6 T7 T7 T8 T8 T9", "T9", "清七对", 4),  # seed: 11334466778899条
    ("T1 T1 T1 T2 T3 T7 T7 T7 T8 T8 T8 T9 T9", "T9", "清幺九", 4),  # seed: 11123777888999
    ("W1 W1 W2 W2 W4 W4 W4 W4 W5 W5 W7 W7 W9", "W9", "清龙七对", 5),  # seed: 11224444557799万
]


@pytest.mark.parametrize(("hand", "win", "pattern", "fan"), PATTERN_CASES)
def test_each_pattern_with_its_fan(hand, win, pattern, fan):
    s = score(hand, win)
    assert (s.pattern, s.fan, s.multiplier) == (pattern, fan, 2**fan)
    assert s.pattern_fan + s.gen + sum(f for _, f in s.extras) == s.fan


def test_seed_labels_are_one_based():
    # the seed's 一番 (x1) .. 六番 (x32): label = fan + 1, multiplier 2 ** fan
    p = parse_profile("")
    assert p.fan.label_base == 1 and p.multiplier(0) == 1 and p.multiplier(5) == 32


def test_heavenly_and_earthly_are_the_cap_in_the_seed():
    hand = "W1 W1 W1 W1 W2 W2 W2 W2 W3 W3 W3 W3 W5"
    s = score(hand, "W5", context=WinContext(self_drawn=True, heavenly=True))
    assert (s.pattern, s.fan, s.gen, s.multiplier, s.extras) == ("天胡", 5, 0, 32, ())
    s = score(hand, "W5", context=WinContext(self_drawn=True, earthly=True))
    assert (s.pattern, s.fan, s.multiplier) == ("地胡", 5, 32)
    # platform: a fan-5 pattern, no 根, the self-draw bonus still applies, cap x64
    p = score(hand, "W5", context=WinContext(self_drawn=True, heavenly=True), profile="platform")
    assert (p.pattern, p.fan, p.gen, p.multiplier) == ("天胡", 6, 0, 64)
    # 按满格: nothing is added to the cap, not even a per-payer self-draw base
    base = parse_profile('[fan]\nself_draw_bonus = "base"\n')
    b = score(hand, "W5", context=WinContext(self_drawn=True, heavenly=True), profile=base)
    assert (b.fan, b.multiplier, b.value) == (5, 32, 32)
    off = parse_profile('[fan]\ntian_di_hu = "off"\n')
    o = score(hand, "W5", context=WinContext(self_drawn=True, heavenly=True), profile=off)
    assert (o.pattern, o.fan) == ("清龙七对", 5 + 2) and "天胡" in o.notes[0]


def test_earthly_on_a_discard_counts_only_in_the_platform():
    hand = "W1 W1 W1 W2 T2 T3 T4 T5 T6 T7 T7 T8 T9"
    seed = score(hand, "W3", context=WinContext(earthly=True))
    assert (seed.pattern, seed.fan) == ("平胡", 0) and "地胡" in seed.notes[0]
    plat = score(hand, "W3", context=WinContext(earthly=True), profile="platform")
    assert (plat.pattern, plat.fan, plat.multiplier) == ("地胡", 5, 32)


# --- 根 -------------------------------------------------------------------------------------------


def test_gen_counts_a_concealed_quadruple():
    s = score("W1 W1 W1 W1 W2 W3 W4 W5 W6 T2 T2 T7 T8", "T9")
    assert (s.pattern, s.gen, s.fan) == ("平胡", 1, 1)


def test_gen_counts_a_pong_with_its_fourth_tile_in_hand():
    s = score("W5 W6 W7 T1 T2 T3 T4 T4 T8 T8", "T8", melds=[("PENG", "W5", 1)])
    assert (s.gen_count, s.gen, s.fan) == (1, 1, 1)


def test_gen_counts_melded_kongs_unless_the_profile_says_unmelded_only():
    melds = [("GANG", "W4", 1), ("GANG", "B2", 0)]
    hand = "W7 W8 B5 B6 B7 B8 B8"
    s = score(hand, "W9", melds)
    assert (s.gen_count, s.gen, s.fan) == (2, 2, 2)
    only = parse_profile('[fan]\ngen_counting = "unmelded_only"\n')
    assert score(hand, "W9", melds, profile=only).gen == 0


def test_long_qidui_consumes_one_gen():
    s = score("W2 W2 W2 W2 W5 W5 W8 W8 B3 B3 B3 B3 B7", "B7")  # E2: G = 2
    assert (s.pattern, s.gen_count, s.gen, s.fan) == ("龙七对", 2, 1, 5)
    table2 = parse_profile("[fan]\nlong_qidui_fan = 3\n")
    t = score("W2 W2 W2 W2 W5 W5 W8 W8 B3 B3 B3 B3 B7", "B7", profile=table2)
    assert (t.pattern, t.fan) == ("龙七对", 4)  # ties 七对 + 2 根: named 龙七对


def test_qing_long_qidui_is_named_over_qing_qidui_plus_gen():
    s = score("T1 T1 T1 T1 T2 T2 T3 T3 T7 T7 T8 T8 T9", "T9")
    assert (s.pattern, s.fan, s.gen) == ("清龙七对", 5, 0)  # 清七对 4 + 根 1 is the same total


def test_the_best_reading_is_scored():
    # W111 W222 W333 B999 B11 is 对对胡 (1); W123 x 3 B999 B11 is 带幺九 (2): the higher counts
    s = score("W1 W1 W1 W2 W2 W2 W3 W3 W3 B9 B9 B9 B1", "B1")
    assert (s.pattern, s.fan) == ("带幺九", 2)
    # 七对 beats the regular reading of the same tiles
    t = score("T1 T1 T2 T2 T3 T3 W4 W4 W5 W5 W6 W6 W9", "W9")
    assert (t.pattern, t.fan, t.shape) == ("七对", 2, "seven_pairs")


def test_yaojiu_jiangdui_switch():
    off = parse_profile("[fan]\nyaojiu_jiangdui = false\n")
    assert score("T2 T2 T2 T5 T5 T5 T8 T8 T8 W8 W8 W8 W5", "W5", profile=off).pattern == "对对胡"
    assert score("W1 W1 W1 W2 W2 W2 W3 W3 W3 B7 B8 B9 B9", "B9", profile=off).pattern == "平胡"


# --- the cap and the extras -------------------------------------------------------------------------


E7_MELDS = [("GANG", "B2", 0), ("PENG", "B5", 1), ("GANG", "B7", 0)]
KONG_FLOWER = WinContext(self_drawn=True, kong_win=True)


def test_cap_applies_to_the_multiplier_only():
    s = score("B9 B9 B1 B1", "B1", E7_MELDS, KONG_FLOWER)
    assert (s.fan, s.multiplier, s.capped) == (6, 32, True)
    uncapped = parse_profile('[fan]\ncap_fan = -1\ntian_di_hu = "pattern"\n[end]\nflower_pig_amount = 16\n')
    assert score("B9 B9 B1 B1", "B1", E7_MELDS, KONG_FLOWER, profile=uncapped).multiplier == 64
    three = parse_profile("[fan]\ncap_fan = 3\n")
    assert score("B9 B9 B1 B1", "B1", E7_MELDS, KONG_FLOWER, profile=three).multiplier == 8


@pytest.mark.parametrize(
    ("context", "name", "seed_fan", "platform_fan"),
    [
        (WinContext(kong_discard=True), "杠上炮", 1, 1),
        (WinContext(robbed_kong=True), "抢杠胡", 0, 1),
        (WinContext(last_tile=True), "海底炮", 0, 0),
        (WinContext(self_drawn=True, last_tile=True), "海底捞月", 0, 0),
        (WinContext(self_drawn=True), "自摸", None, 1),
    ],
)
def test_extras_per_profile(context, name, seed_fan, platform_fan):
    hand, win = "W1 W1 W1 W4 W5 W6 T2 T3 T5 T6 T7 T9 T9", "T4"
    seed = dict(score(hand, win, context=context).extras)
    assert seed.get(name) == seed_fan
    plat = dict(score(hand, win, context=context, profile="platform").extras)
    assert plat.get(name) == platform_fan


def test_self_draw_bonus_base_is_added_after_the_cap():
    base = parse_profile('[fan]\nself_draw_bonus = "base"\n')
    s = score("B9 B9 B1 B1", "B1", E7_MELDS, KONG_FLOWER, profile=base)
    assert (s.fan, s.multiplier, s.value) == (6, 32, 33)


def test_room_extras_menqing_and_duanyao():
    rooms = parse_profile("[fan]\nmenqing_fan = 1\nduanyao_fan = 1\n")
    s = score("W2 W3 W4 W5 W6 W7 B2 B3 B4 B5 B6 B8 B8", "B7", profile=rooms)
    assert dict(s.extras) == {"门清": 1, "断幺九": 1} and s.fan == 2
    t = score("W5 W6 W7 T1 T2 T3 T4 T4 T8 T8", "T8", melds=[("PENG", "W5", 1)], profile=rooms)
    assert dict(t.extras) == {}


# --- what does not win, and impossible input -----------------------------------------------------


def test_void_three_suits_and_shapes_do_not_win():
    with pytest.raises(NotWinningHand, match="void suit"):
        score("W1 W2 W3 T1 T2 T3 T4 T5 T6 T7 T7 T8 T9", "W1", void="W")
    with pytest.raises(NotWinningHand, match="three suits"):
        score("W1 W2 W3 T1 T2 T3 B1 B2 B3 B4 B4 B5 B6", "B7")
    with pytest.raises(NotWinningHand, match="not a winning hand"):
        score("W1 W2 W3 W4 W5 W6 B2 B3 B4 B5 B7 B8 B8", "B1")
    with pytest.raises(NotWinningHand, match="three suits"):  # seven pairs lack a suit too
        score("W1 W1 W3 W3 W4 W4 T6 T6 T7 T7 B5 B5 B8", "B8")


def test_impossible_input_is_refused():
    with pytest.raises(InvalidHand, match="suited"):
        score("W1 W2 W3 T1 T2 T3 T4 T5 T6 T7 T7 T8 F1", "W1")
    with pytest.raises(InvalidHand, match="only 4"):
        score("W1 W1 W1 W1 T2 T3 T4 T5 T6 T7 T7 T8 T9", "W1")
    with pytest.raises(InvalidHand, match="chow"):
        score("W1 W2 W3 T1 T2 T3 T4 T5 T6 T7", "T7", melds=[("CHI", "W5", 1)])
    with pytest.raises(RuleError, match="杠上花"):
        score("W1 W2 W3 W4 W5 W6 B2 B3 B4 B5 B7 B8 B8", "B6", context=WinContext(kong_win=True))
    with pytest.raises(RuleError, match="before any pong"):
        score("W5 W6 W7 T1 T2 T3 T4 T4 T8 T8", "T8", [("PENG", "W5", 1)], WinContext(True, heavenly=True))


# --- the engine against a plain reading of §3.3-3.6 on generated hands ---------------------------


def plain_best(tiles, melds) -> tuple[int, str]:
    """Reference §3.6 written out directly: every division of the concealed tiles (with the
    melds) and the seven-pairs reading; pattern fan + 根; the highest total (seed values)."""
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    every = list(counts[:27])
    for kind, t, _ in melds:
        every[t] += 4 if kind == "GANG" else 3
    g = every.count(4)
    flush = len({k // 9 for k in range(27) if every[k]}) == 1
    options = []
    for d in divisions(counts, 4 - len(melds)):
        groups = [(k, t) for k, t in d] + [("pung", t) for _, t, _ in melds]
        pungs = all(k != "chow" for k, _ in groups)
        yaojiu = all(t % 9 in (0, 6) if k == "chow" else t % 9 in (0, 8) for k, t in groups)
        jiang = pungs and all(t % 9 in (1, 4, 7) for _, t in groups)
        fan = max(
            f
            for ok, f in [
                (True, 0),
                (pungs, 1),
                (flush, 2),
                (yaojiu, 2),
                (flush and pungs, 3),
                (jiang, 3),
                (flush and yaojiu, 4),
            ]
            if ok
        )
        options.append((fan + g, "regular"))
    if not melds and all(c % 2 == 0 for c in counts):
        quad = 4 in counts
        fan, consumed = {
            (False, False): (2, 0),
            (True, False): (4, 1),
            (False, True): (4, 0),
            (True, True): (5, 1),
        }[(quad, flush)]
        options.append((fan + g - consumed, "seven_pairs"))
    return max(options)


@SETTINGS
@given(winning_hands(), st.data())
def test_best_reading_matches_a_plain_reading_of_the_reference(case, data):
    tiles, melds, void = case
    win = data.draw(st.sampled_from(tiles))
    hand = list(tiles)
    hand.remove(win)
    s = score_win(hand, melds, win, void=void)
    expected_fan, _ = plain_best(tiles, [(k, int(t), o) for k, t, o in melds])
    assert s.pattern_fan + s.gen + sum(f for _, f in s.extras) == s.fan == expected_fan
