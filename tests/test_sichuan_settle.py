"""The nine worked settlement examples of reference sichuan.md §6, through settle_hand: every
payment event's amount per seat, the totals, and the platform / variant figures the examples give."""

from __future__ import annotations

import pytest

from mjstats.errors import RuleError
from mjstats.rulesets.sichuan import (
    HandEnd,
    Kong,
    PlayerHand,
    Turn,
    Win,
    Winner,
    parse_profile,
    settle_hand,
)
from mjstats.tiles import parse_tiles


def hand(text: str) -> tuple:
    return parse_tiles(text)


def per_seat(result, event: int, detail: str | None = None) -> list[int]:
    """Each seat's change from one event (optionally one payment detail)."""
    out = [0, 0, 0, 0]
    for p in result.payments:
        if p.event == event and (detail is None or p.detail == detail):
            out[p.payer] -= p.amount
            out[p.payee] += p.amount
    return out


def details(result, event: int) -> list[tuple[int, int, int, str]]:
    return [(p.payer, p.payee, p.amount, p.detail) for p in result.payments if p.event == event]


def zero_sum(result) -> None:
    assert sum(result.totals) == 0
    for event in {p.event for p in result.payments}:
        assert sum(per_seat(result, event)) == 0


# A plain winning hand for players whose earlier win the examples only mention.
P3_EARLIER = Winner(3, hand("W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B1 B5 B6"), void="T")
P2_EARLIER = Winner(2, hand("T1 T2 T3 T4 T5 T6 T7 T8 T9 B1 B1 B5 B6"), void="W")


# --- E1: 清一色 self-draw, P3 already out -------------------------------------------------------

E1_WIN = Win("T5", (Winner(1, hand("T1 T1 T1 T2 T3 T4 T4 T6 T7 T7 T7 T9 T9"), void="W"),))


def e1_events():
    return [Win("B7", (P3_EARLIER,)), E1_WIN]


def test_e1_self_draw_paid_by_active_players_only():
    r = settle_hand(e1_events())
    assert per_seat(r, 1) == [-4, 8, -4, 0]
    assert details(r, 1) == [(2, 1, 4, "WIN"), (0, 1, 4, "WIN")]
    score = r.wins[1][1]
    assert (score.pattern, score.fan, score.gen, score.multiplier) == ("清一色", 2, 0, 4)
    zero_sum(r)


def test_e1_platform_and_base_bonus():
    r = settle_hand(e1_events(), profile="platform")
    assert per_seat(r, 1) == [-8, 16, -8, 0]
    base = parse_profile('[fan]\nself_draw_bonus = "base"\n')
    r = settle_hand(e1_events(), profile=base)
    assert per_seat(r, 1) == [-5, 10, -5, 0]
    assert per_seat(r, 1, "SELF_DRAW_BASE") == [-1, 2, -1, 0]


# --- E2: 龙七对 with an extra 根 -----------------------------------------------------------------

E2 = [Win("B7", (Winner(2, hand("W2 W2 W2 W2 W5 W5 W8 W8 B3 B3 B3 B3 B7"), void="T"),), discarder=0)]


def test_e2_long_qidui_with_extra_gen():
    r = settle_hand(E2)
    assert per_seat(r, 0) == [-32, 0, 32, 0]
    score = r.wins[0][1]
    assert (score.pattern, score.fan, score.gen, score.multiplier) == ("龙七对", 5, 1, 32)
    assert settle_hand(E2, profile="platform").totals == (-32, 0, 32, 0)
    table2 = parse_profile("[fan]\nlong_qidui_fan = 3\n")
    assert settle_hand(E2, profile=table2).totals == (-16, 0, 16, 0)


# --- E3: 一炮多响 --------------------------------------------------------------------------------

E3 = [
    Win(
        "B6",
        (
            Winner(1, hand("W1 W2 W3 W4 W5 W6 B2 B3 B4 B5 B7 B8 B8"), void="T"),
            Winner(3, hand("T2 T2 T2 T5 T5 T5 T8 T8 T8 B6 B6 B9 B9"), void="W"),
        ),
        discarder=2,
    )
]


@pytest.mark.parametrize("profile", ["seed", "platform"])
def test_e3_one_discard_two_winners(profile):
    r = settle_hand(E3, profile=profile)
    # nearest to the discarder first: P3 (dist 1), then P1 (dist 3)
    assert details(r, 0) == [(2, 3, 2, "WIN"), (2, 1, 1, "WIN")]
    assert r.totals == (0, 1, -3, 2)
    assert [(s, w.pattern) for s, w in r.wins] == [(3, "对对胡"), (1, "平胡")]
    assert r.next_dealer == 2  # the first win of the hand was a multi-win: the discarder deals
    zero_sum(r)


# --- E4: 杠上炮 with 呼叫转移, two winners ---------------------------------------------------------

E4_P1 = Winner(1, hand("W1 W1 W1 W4 W5 W6 T2 T3 T5 T6 T7 T9 T9"), void="B")
E4_P2 = Winner(2, hand("T4 T8 T8 B2 B2 B3 B3 B5 B5 B6 B6 B9 B9"), void="W")


def e4_events(*winners):
    return [Turn(0), Kong(0, "concealed", "W7"), Win("T4", winners, discarder=0, kong_discard=True)]


@pytest.mark.parametrize("profile", ["seed", "platform"])
def test_e4_call_transfer_to_each_winner(profile):
    r = settle_hand(e4_events(E4_P1, E4_P2), profile=profile)
    assert per_seat(r, 1, "KONG_CONCEALED") == [6, -2, -2, -2]
    assert details(r, 2) == [
        (0, 1, 2, "WIN"),
        (0, 2, 8, "WIN"),
        (0, 1, 6, "CALL_TRANSFER"),
        (0, 2, 6, "CALL_TRANSFER_EXTRA"),
    ]
    assert r.totals == (-16, 6, 12, -2)
    assert [w.fan for _, w in r.wins] == [1, 3]
    assert r.next_dealer == 0
    zero_sum(r)


def test_e4_single_winner_and_refund_variant():
    assert settle_hand(e4_events(E4_P1)).totals == (-2, 6, -2, -2)
    refund = parse_profile('[transfer]\ncall_transfer = "refund"\n')
    r = settle_hand(e4_events(E4_P1, E4_P2), profile=refund)
    assert r.totals == (-10, 2, 8, 0)
    assert per_seat(r, 2, "CALL_TRANSFER_REFUND") == [-6, 2, 2, 2]


def test_e4_transferred_kong_money_is_not_refunded_later():
    # P0 spent its W7 money on the transfer: nothing is left to return at a later 退税.
    p0 = PlayerHand(0, hand("W2 W3 W4 W5 W6 W8 W8 T1 T5 B9"), (("GANG", "W7", 0),), void="B")
    p3 = PlayerHand(3, hand("W1 W1 W2 W2 W3 W3 T1 T1 T2 T2 T3 T3 T5"), void="B")
    r = settle_hand([*e4_events(E4_P1), HandEnd((p0, p2_ready_hand(), p3))])
    assert per_seat(r, 3, "TAX_REFUND") == [0, 0, 0, 0]


def p2_ready_hand() -> PlayerHand:
    return PlayerHand(2, hand("B1 B1 B1 B2 B3 B4 B5 B6 B7 B8 B9 B9 B9"), void="W")


# --- E5: 抢杠胡 ------------------------------------------------------------------------------------

E5_ROBBER = Winner(1, hand("B1 B1 B1 B2 B2 B3 B4 B6 B6 B6 B7 B8 B9"), void="W")
E5 = [Win("B5", (E5_ROBBER,), discarder=3, robbed_kong=True)]


def test_e5_robbing_a_kong():
    r = settle_hand(E5)
    assert details(r, 0) == [(3, 1, 4, "WIN")]
    assert r.wins[0][1].fan == 2
    assert not any(p.reason == "kong" for p in r.payments)
    assert settle_hand(E5, profile="platform").totals == (0, 8, 0, -8)


# --- E6: exhaustive draw with 查花猪, 查大叫 and 退税 -----------------------------------------------

E6_END = HandEnd(
    (
        PlayerHand(0, hand("W1 W2 W4 W6 B1 B1 B2 B7 T2 T5"), (("GANG", "W8", 1),), void="T"),
        PlayerHand(1, hand("W1 W3 W5 W7 W9 T1 T2 T4 T6 T7"), (("GANG", "T9", 2),), void="B"),
        PlayerHand(3, hand("B4 B5 B6 B7 B8 B9 B9 B9 T6 T6"), (("GANG", "B3", 0),), void="W"),
    )
)
E6 = [
    Kong(3, "concealed", "B3"),
    Kong(1, "direct", "T9", discarder=0),
    Win("B4", (P2_EARLIER,)),
    Kong(0, "added", "W8"),
    E6_END,
]


def test_e6_exhaustive_draw_items():
    r = settle_hand(E6)
    assert details(r, 4) == [
        (0, 1, 32, "FLOWER_PIG"),
        (0, 3, 32, "FLOWER_PIG"),
        (1, 3, 4, "CHA_JIAO"),
        (0, 1, 1, "TAX_REFUND"),
        (0, 3, 1, "TAX_REFUND"),
        (1, 0, 2, "TAX_REFUND"),
    ]
    assert per_seat(r, 4) == [-64, 27, 0, 37]
    kong_money = [sum(per_seat(r, e)[s] for e in (0, 1, 3)) for s in range(4)]
    assert kong_money == [-2, -1, -2, 5]
    without_win = [r.totals[s] - per_seat(r, 2)[s] for s in range(4)]
    assert without_win == [-66, 26, -2, 42]
    status = {s.seat: s for s in r.end_status}
    assert status[0].flower_pig and not status[1].waits
    assert [str(t) for t in status[3].waits] == ["T6", "B6", "B9"] and status[3].value == 4
    assert r.ended == "exhausted" and r.next_dealer == 2
    zero_sum(r)


def test_e6_platform_flower_pig_is_x64():
    r = settle_hand(E6, profile="platform")
    assert per_seat(r, 4) == [-128, 59, 0, 69]


# --- E7: a capped hand (杠上花 清对) --------------------------------------------------------------

E7_WINNER = Winner(
    2, hand("B9 B9 B1 B1"), (("GANG", "B2", 0), ("PENG", "B5", 1), ("GANG", "B7", 0)), void="W"
)
E7 = [
    Win("T7", (Winner(0, hand("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T5 T6"), void="B"),), discarder=1),
    Turn(2),
    Kong(2, "concealed", "B7"),
    Win("B1", (E7_WINNER,), kong_win=True),
]


def test_e7_capped_kong_flower():
    r = settle_hand(E7)
    assert per_seat(r, 2) == [0, -2, 4, -2]
    assert per_seat(r, 3) == [0, -32, 64, -32]
    score = r.wins[1][1]
    assert (score.pattern, score.fan, score.gen, score.multiplier, score.capped) == ("清对", 6, 2, 32, True)
    p = settle_hand(E7, profile="platform")
    assert per_seat(p, 3) == [0, -64, 128, -64]
    assert p.wins[1][1].fan == 7
    assert [per_seat(p, 2)[s] + per_seat(p, 3)[s] for s in range(4)] == [0, -66, 132, -66]


# --- E8: 金钩钓 ------------------------------------------------------------------------------------

E8_MELDS = (("PENG", "W2", 1), ("PENG", "W6", 2), ("GANG", "T3", 1), ("PENG", "T8", 3))
E8 = [Win("W9", (Winner(1, hand("W9"), E8_MELDS, void="B"),), discarder=0)]


def test_e8_golden_single_wait():
    r = settle_hand(E8)
    assert r.totals == (-4, 4, 0, 0)
    assert r.wins[0][1].fan == 2
    p = settle_hand(E8, profile="platform")
    assert p.totals == (-8, 8, 0, 0)
    assert dict(p.wins[0][1].extras) == {"金钩钓": 1}


# --- E9: 点杠花 ------------------------------------------------------------------------------------

E9 = [
    Kong(3, "direct", "W4", discarder=0),
    Win(
        "W9",
        (Winner(3, hand("W7 W8 B1 B2 B3 B5 B6 B7 B8 B8"), (("GANG", "W4", 1),), void="T"),),
        kong_win=True,
    ),
]


def test_e9_kong_flower_on_a_discard_is_a_self_draw():
    r = settle_hand(E9)
    assert per_seat(r, 0) == [-2, 0, 0, 2]
    assert per_seat(r, 1) == [-4, -4, -4, 12]
    assert r.totals == (-6, -4, -4, 14)


def test_e9_variants():
    discard = parse_profile('[transfer]\nkong_after_discard_flower = "discard"\n')
    assert settle_hand(E9, profile=discard).totals == (-6, 0, 0, 6)
    assert settle_hand(E9, profile="platform").totals == (-10, -8, -8, 26)


# --- sequences the rules forbid -------------------------------------------------------------------


def test_impossible_sequences_raise():
    with pytest.raises(RuleError, match="杠上炮"):
        settle_hand([Turn(0), Win("T4", (E4_P1,), discarder=0, kong_discard=True)])
    with pytest.raises(RuleError, match="already won"):
        settle_hand([*E2, *E2])
    with pytest.raises(RuleError, match="has won"):
        settle_hand([*E2, Kong(2, "concealed", "W5")])
    with pytest.raises(RuleError, match="active players"):
        settle_hand([*E3, E6_END])
    three = [
        Win("B7", (P3_EARLIER,)),
        Win("B4", (P2_EARLIER,)),
        Win("T5", (Winner(1, hand("T1 T1 T1 T2 T3 T4 T4 T6 T7 T7 T7 T9 T9"), void="W"),)),
    ]
    assert settle_hand(three).ended == "third_win"
    with pytest.raises(RuleError, match="already ended"):
        settle_hand([*three, HandEnd((PlayerHand(0, hand("W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B1 B5 B6")),))])
