"""Fuzhou turn rules: reserve, final draws, claimability, claim priority (金雀 first, 截和),
robbing the gold, gold discards, and dealer rotation."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mjstats.errors import RuleError
from mjstats.rulesets.fuzhou.turns import (
    ClaimDecision,
    DealerState,
    GoldReveal,
    claim_winner,
    flower_round_order,
    gold_robber,
    is_exhausted,
    is_final_draw,
    may_chow,
    may_claim_discard,
    may_discard_gold,
    may_kong_now,
    may_win_on_discard,
    next_dealer,
    reserve_size,
    reveal_gold,
    seat_distance,
)
from mjstats.tiles import Tile


def test_reserve_size():
    assert reserve_size() == 18  # seed 003: 九墩
    assert reserve_size(exposed_kongs=1) == 19
    assert reserve_size(concealed_kongs=1) == 20
    assert reserve_size(flower_groups=1) == 20
    assert reserve_size(2, 1, 2) == 18 + 2 + 2 + 4
    with pytest.raises(RuleError):
        reserve_size(-1)


def test_final_draws_and_exhaustion():
    reserve = reserve_size()
    assert not is_final_draw(reserve + 5, reserve)
    assert is_final_draw(reserve + 4, reserve)
    assert is_final_draw(reserve + 1, reserve)
    assert not is_final_draw(reserve, reserve)
    assert is_exhausted(reserve, reserve) and not is_exhausted(reserve + 1, reserve)


def test_no_claim_on_a_gold():
    assert not may_claim_discard("T4", "T4")
    assert may_claim_discard("T5", "T4")


def test_chow_only_from_the_player_before():
    assert may_chow(1, 0) and may_chow(0, 3)
    assert not may_chow(2, 0) and not may_chow(3, 0)
    assert may_kong_now(False) and not may_kong_now(True)


def test_gold_discard_switch():
    assert may_discard_gold("seed") and may_discard_gold("platform")
    from mjstats.rulesets.fuzhou.profiles import parse_profile

    forbidden = parse_profile('gold_discard = "forbidden"')
    assert not may_discard_gold(forbidden)
    assert not may_win_on_discard(True, "seed")
    assert may_win_on_discard(False, "seed")
    assert may_win_on_discard(True, "platform")  # free


def test_win_beats_pung_beats_chow():
    assert claim_winner(0, {1: "chi", 3: "peng"}) == ClaimDecision(3, "peng")
    assert claim_winner(0, {1: "chi", 2: "peng", 3: "hu"}) == ClaimDecision(3, "hu")
    assert claim_winner(0, {1: "chi"}) == ClaimDecision(1, "chi")
    assert claim_winner(0, {}) is None


def test_nearest_winner_takes_the_discard():
    # 截和: one winner only, the nearest counter-clockwise from the discarder
    assert claim_winner(2, {0: "hu", 1: "hu", 3: "hu"}) == ClaimDecision(3, "hu")
    assert claim_winner(2, {0: "hu", 1: "hu"}) == ClaimDecision(0, "hu")


def test_golden_hand_wins_first_and_jumps():
    assert claim_winner(2, {3: "hu", 1: "hu"}, golden=[1]) == ClaimDecision(1, "hu", jumped=True)
    # a golden hand that is nearest anyway does not jump anyone
    assert claim_winner(2, {3: "hu", 1: "hu"}, golden=[3]) == ClaimDecision(3, "hu", jumped=False)
    # two golden hands: the nearer of them
    assert claim_winner(2, {3: "hu", 0: "hu", 1: "hu"}, golden=[0, 1]) == ClaimDecision(
        0, "hu", True
    )
    # a golden hand that only pungs has no priority over a win
    assert claim_winner(2, {3: "hu", 1: "peng"}, golden=[1]) == ClaimDecision(3, "hu")


def test_impossible_claims_raise():
    with pytest.raises(RuleError):
        claim_winner(0, {2: "chi"})
    with pytest.raises(RuleError):
        claim_winner(0, {0: "hu"})
    with pytest.raises(RuleError):
        claim_winner(0, {1: "ron"})


@given(
    st.integers(0, 3),
    st.dictionaries(st.integers(0, 3), st.sampled_from(["hu", "peng", "gang"]), min_size=1),
)
def test_claim_winner_is_a_claimant_with_the_top_claim(discarder, claims):
    claims.pop(discarder, None)
    decision = claim_winner(discarder, claims)
    if not claims:
        assert decision is None
        return
    assert decision is not None and decision.seat in claims
    rank = {"hu": 2, "peng": 1, "gang": 1}
    top = max(rank[k] for k in claims.values())
    assert rank[decision.kind] == top
    nearer = [
        s
        for s, k in claims.items()
        if rank[k] == top and seat_distance(discarder, s) < seat_distance(discarder, decision.seat)
    ]
    assert not nearer


def test_gold_robber():
    assert gold_robber(0, [0]) == 0  # the dealer alone
    assert gold_robber(0, [0, 2]) == 2  # a non-dealer beats the dealer
    assert gold_robber(0, [3, 2]) == 2  # nearest counter-clockwise from the dealer
    assert gold_robber(2, [1, 0]) == 0
    assert gold_robber(0, [1], dealer_heavenly=True) is None  # 天和 cancels robbing
    assert gold_robber(0, []) is None
    assert gold_robber(0, [1], profile="platform") is None  # the turned-up gold is out of play


def test_dealer_rotation():
    s = DealerState(3, 0)
    assert next_dealer(s, winner=3) == DealerState(3, 1)
    assert next_dealer(s, winner=1) == DealerState(0, 0)  # the next player deals
    assert next_dealer(DealerState(3, 2), winner=None) == DealerState(3, 2)
    assert next_dealer(DealerState(3, 2), winner=None, profile="platform") == DealerState(3, 3)
    assert DealerState(3, 2).streak == 1


def test_flower_round_order_starts_at_the_dealer():
    assert flower_round_order(2, [0, 3, 2]) == (2, 3, 0)
    assert flower_round_order(0, [1, 3]) == (1, 3)
    assert flower_round_order(1, []) == ()


def test_reveal_gold():
    r = reveal_gold(["T4", "W1"])
    assert r == GoldReveal(Tile(12), (), 1)
    # a flower turned up goes to the dealer (no extra draw: the dealer keeps 17 tiles);
    # the next tail tile is turned up and is the gold
    r = reveal_gold(["H1", "W5", "B3"])
    assert (r.gold, r.dealer_flowers, r.consumed) == (Tile(4), (Tile(34),), 2)
    # several flowers in a row all go to the dealer
    r = reveal_gold(["F1", "J2", "W5", "B3"])
    assert r.dealer_flowers == (Tile(27), Tile(32)) and r.gold == Tile(4) and r.consumed == 3
    # on the platform 发 is a playable tile and can be the gold
    assert reveal_gold(["J2"], "platform").gold == Tile(32)
    with pytest.raises(RuleError):
        reveal_gold(["H1"])
