"""The table contrasts and Student's t over them, against hand-worked values, a closed form and
their invariants."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from mjstats.integrity.contrasts import t_over_matches, table_contrasts

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
