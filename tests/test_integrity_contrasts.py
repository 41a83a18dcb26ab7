"""The table contrasts and Student's t over them, against hand-worked values, a closed form and
their invariants."""

from __future__ import annotations

import math
import random
from collections import defaultdict
from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from mjstats.integrity.contrasts import t_over_matches, table_contrasts
from mjstats.integrity.distributions import t_quantile
from mjstats.integrity.outcomes import Outcomes
from tests.integrity_data import result_hand

_values = st.lists(st.floats(-50, 50, allow_nan=False).map(lambda v: round(v, 3)), min_size=2, max_size=40)


def test_t_over_matches_against_the_closed_form_at_two_degrees_of_freedom() -> None:
    judged = t_over_matches([1.0, 2.0, 6.0], 2)
    assert judged is not None
    # mean 3, spread (4 + 1 + 9) / 2 = 7, t = 9 / sqrt(3 * 7)
    assert judged.total == 9.0 and judged.spread == 7.0 and judged.df == 2
    assert math.isclose(judged.t, 9 / math.sqrt(21), rel_tol=1e-15)
    # with 2 df, P(|T| > t) = 1 - t / sqrt(2 + t^2)
    assert math.isclose(judged.p_value, 1 - judged.t / math.sqrt(2 + judged.t**2), rel_tol=1e-12)
    assert math.isclose(judged.mean_se, math.sqrt(7 / 3), rel_tol=1e-15)
    assert math.isclose(judged.total_sd, math.sqrt(21), rel_tol=1e-15)


def test_too_few_matches_or_no_spread_is_not_judged() -> None:
    assert t_over_matches([1.0, 2.0, 6.0], 4) is None
    assert t_over_matches([0.5] * 10, 2) is None
    assert t_over_matches([3.0], 1) is None  # one match has no spread, whatever the minimum


@given(_values)
def test_t_is_the_mean_over_its_standard_error_and_turns_with_the_sign(values: list[float]) -> None:
    judged = t_over_matches(values, 2)
    mean = sum(values) / len(values)
    if judged is None:
        assert all(math.isclose(v, mean, abs_tol=1e-9) for v in values)
        return
    assert math.isclose(judged.t, judged.mean / judged.mean_se, rel_tol=1e-9, abs_tol=1e-12)
    assert 0.0 <= judged.p_value <= 1.0
    flipped = t_over_matches([-v for v in values], 2)
    assert flipped is not None and flipped.t == -judged.t and flipped.p_value == judged.p_value


def test_a_table_contrast_is_the_excess_less_the_others_mean() -> None:
    got = table_contrasts({"ann": (3.0, 0.0), "bo": (-1.0, 1.0), "cai": (0.0, -2.0), "dee": (1.0, 4.0)})
    assert list(got) == ["ann", "bo", "cai", "dee"]  # the table's order
    assert got["ann"].values == (3.0, 0.0 - (1.0 - 2.0 + 4.0) / 3)
    assert got["bo"].values == (-1.0 - (3.0 + 0.0 + 1.0) / 3, 1.0 - (0.0 - 2.0 + 4.0) / 3)
    assert {c.others for c in got.values()} == {3} and got["ann"].own_share == 3 / 4


def test_nobody_to_compare_with_gives_no_contrast() -> None:
    assert table_contrasts({"ann": (2.0,)}) == {}
    assert table_contrasts({}) == {}
    two = table_contrasts({"ann": (2.0,), "bo": (0.0,)})
    assert two["ann"].values == (2.0,) and two["ann"].others == 1 and two["ann"].own_share == 1 / 2


@given(st.lists(st.integers(-20, 20), min_size=2, max_size=4))
def test_a_table_s_contrasts_sum_to_zero_and_its_own_share_recovers_a_zero_sum_excess(
    excesses: list[int],
) -> None:
    table = {seat: (float(e),) for seat, e in enumerate(excesses)}
    got = table_contrasts(table)
    assert math.isclose(sum(c.values[0] for c in got.values()), 0.0, abs_tol=1e-9)
    centred = {s: (e[0] - sum(excesses) / len(excesses),) for s, e in table.items()}
    for seat, c in table_contrasts(centred).items():
        assert c.others == len(excesses) - 1
        # where the table's excesses sum to zero, the subject's own is its share of the contrast
        assert math.isclose(c.own_share * c.values[0], centred[seat][0], abs_tol=1e-9)


def test_the_outcome_interval_takes_the_own_share_from_the_others_at_the_table() -> None:
    """By player, one name at two seats leaves two others at the table: the subject's own excess
    is 2/3 of its contrast, not the 3/4 of four players. The win row's interval is worked out
    here again from the hands: role rates, each match's excesses, the contrast, Student t."""
    rng = random.Random(8)
    hands = []
    for i in range(16 * 12):
        winner = rng.randrange(4)
        hand = result_hand(i, winner, (winner + 1 + rng.randrange(3)) % 4)
        hands.append(replace(hand, players=("ann", "ann", "bo", "cai")))
    outcomes = Outcomes("player")
    for hand in hands:
        outcomes.add(hand)
    row = next(r for r in outcomes.rows() if r["test"] == "outcome.win" and r["subject"] == {"player": "bo"})
    assert row["statistic_name"] == "t" and row["df"] == 11

    seat_hands, wins = defaultdict(int), defaultdict(int)  # by role
    for hand in hands:
        for seat in range(4):
            role = seat == hand.dealer
            seat_hands[role] += 1
            wins[role] += hand.result.winner == seat
    excess: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for hand in hands:
        for seat, name in enumerate(hand.players):
            role = seat == hand.dealer
            excess[hand.match_id][name] += (hand.result.winner == seat) - wins[role] / seat_hands[role]
    contrasts = [e["bo"] - (e["ann"] + e["cai"]) / 2 for e in excess.values()]
    judged = t_over_matches(contrasts, 2)
    assert judged is not None and math.isclose(row["statistic"], judged.t, rel_tol=1e-9)
    half = row["effect_high"] * row["expected"] - row["observed"]
    assert math.isclose(half, 2 / 3 * t_quantile(0.975, 11) * judged.total_sd, rel_tol=1e-9)
