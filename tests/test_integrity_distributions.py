"""The integrity tests' distributions against known values (no scipy to compare with)."""

from __future__ import annotations

import itertools
import math
import random

import pytest

from mjstats.integrity import bh_q_values
from mjstats.integrity.deal import pair_cov, pair_mean_var
from mjstats.integrity.distributions import (
    chi2_sf,
    hypergeom_mean_var,
    hypergeom_pmf,
    ks_uniform,
    normal_sf,
    poisson_binomial_mid_p,
    poisson_binomial_pmf,
    z_p_value,
)


@pytest.mark.parametrize(
    ("x", "df", "p"),
    [
        (3.841458820694124, 1, 0.05),  # textbook critical values
        (6.634896601021214, 1, 0.01),
        (18.307038053275146, 10, 0.05),
        (124.34211340400407, 100, 0.05),
        (0.5, 3, 0.9188914116546758),  # closed form for 3 df
        (2.0, 2, math.exp(-1.0)),  # 2 df: exp(-x/2)
    ],
)
def test_chi2_sf_known_values(x: float, df: int, p: float) -> None:
    assert chi2_sf(x, df) == pytest.approx(p, rel=1e-6)


def test_normal_tails() -> None:
    assert normal_sf(1.959963984540054) == pytest.approx(0.025, rel=1e-9)
    assert z_p_value(-1.959963984540054) == pytest.approx(0.05, rel=1e-9)
    assert z_p_value(2.0, "greater") == pytest.approx(normal_sf(2.0))
    assert z_p_value(2.0, "less") == pytest.approx(1 - normal_sf(2.0))


def test_hypergeometric_two_aces_in_five_cards() -> None:
    # C(4,2) C(48,3) / C(52,5)
    assert hypergeom_pmf(2, 52, 4, 5) == pytest.approx(6 * 17296 / 2598960, rel=1e-12)
    total = sum(hypergeom_pmf(k, 136, 28, 13) for k in range(14))
    assert total == pytest.approx(1.0, rel=1e-12)
    mean, var = hypergeom_mean_var(136, 28, 13)
    exact_mean = sum(k * hypergeom_pmf(k, 136, 28, 13) for k in range(14))
    exact_var = sum((k - exact_mean) ** 2 * hypergeom_pmf(k, 136, 28, 13) for k in range(14))
    assert (mean, var) == pytest.approx((exact_mean, exact_var), rel=1e-12)


def test_pair_mean_and_variance_by_enumeration() -> None:
    # a small set: 3 kinds x 4 copies + 2 singles (14 tiles), 5 dealt; enumerate every deal
    tiles = [k for k in range(3) for _ in range(4)] + [90, 91]
    counts = []
    for deal in itertools.combinations(range(len(tiles)), 5):
        held = [tiles[i] for i in deal]
        counts.append(sum(1 for k in range(3) if held.count(k) >= 2))
    mean = sum(counts) / len(counts)
    var = sum((c - mean) ** 2 for c in counts) / len(counts)
    assert pair_mean_var(14, 5, 3) == pytest.approx((mean, var), rel=1e-12)


def test_pair_covariance_of_two_hands_by_enumeration() -> None:
    # the same small set; a hand of 3 and a hand of 4 from it: every (first, second) deal
    tiles = [k for k in range(3) for _ in range(4)] + [90, 91]
    firsts, seconds = [], []
    for first in itertools.combinations(range(len(tiles)), 3):
        rest = [i for i in range(len(tiles)) if i not in first]
        for second in itertools.combinations(rest, 4):
            for deal, out in ((first, firsts), (second, seconds)):
                held = [tiles[i] for i in deal]
                out.append(sum(1 for k in range(3) if held.count(k) >= 2))
    n = len(firsts)
    mean_a, mean_b = sum(firsts) / n, sum(seconds) / n
    cov = sum((a - mean_a) * (b - mean_b) for a, b in zip(firsts, seconds, strict=True)) / n
    assert cov != 0
    assert pair_cov(14, 3, 4, 3) == pytest.approx(cov, rel=1e-12, abs=1e-15)
    assert pair_cov(14, 4, 3, 3) == pytest.approx(cov, rel=1e-12, abs=1e-15)


def test_poisson_binomial_against_the_binomial() -> None:
    pmf = poisson_binomial_pmf([0.3] * 12)
    assert pmf[4] == pytest.approx(math.comb(12, 4) * 0.3**4 * 0.7**8, rel=1e-12)
    # mid-p: P(X > 8) + P(X = 8) / 2 for Bin(10, 1/2)
    assert poisson_binomial_mid_p([0.5] * 10, 8, "greater") == pytest.approx((11 + 45 / 2) / 1024)
    assert poisson_binomial_mid_p([0.5] * 10, 5) == pytest.approx(1.0)


def test_ks_accepts_uniform_and_rejects_skewed_values() -> None:
    rng = random.Random(1)
    _, p_uniform = ks_uniform([rng.random() for _ in range(1000)])
    _, p_skewed = ks_uniform([rng.random() ** 1.3 for _ in range(1000)])
    assert p_uniform > 0.05
    assert p_skewed < 1e-6
    # one value: D = max(x, 1 - x)
    assert ks_uniform([0.25])[0] == pytest.approx(0.75)


def test_benjamini_hochberg_by_hand() -> None:
    # sorted p: 0.01 0.03 0.04 0.5 (m = 4): 0.04, 0.06, 0.0533 -> monotone 0.04, 0.0533, 0.0533, 0.5
    q = bh_q_values([0.04, 0.01, 0.5, None, 0.03])
    assert q[3] is None
    assert q == pytest.approx([0.05333333, 0.04, 0.5, None, 0.05333333])


def test_student_t_tail_matches_known_values() -> None:
    from mjstats.integrity.distributions import normal_sf, t_sf

    assert abs(t_sf(2.093024, 19) - 0.025) < 1e-6  # the two-sided 5% point of t with 19 df
    assert abs(t_sf(1.729133, 19) - 0.05) < 1e-6
    assert abs(t_sf(1.0, 1) - 0.25) < 1e-12  # Cauchy
    for t in (0.3, 1.5, 4.0):  # closed form with 2 df
        assert abs(t_sf(t, 2) - (0.5 - t / (2 * math.sqrt(t * t + 2)))) < 1e-12
        assert abs(t_sf(-t, 2) + t_sf(t, 2) - 1.0) < 1e-12
    assert abs(t_sf(3.0, 1e7) - normal_sf(3.0)) < 1e-7  # t tends to the normal
