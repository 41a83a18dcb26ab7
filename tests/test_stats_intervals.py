"""Wilson intervals, mean intervals and the Cochran-Armitage trend test."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from mjstats.stats.intervals import cochran_armitage, mean_interval, wilson, wilson_arrays


def test_wilson_known_values():
    # textbook values (Newcombe 1998, method 3): 0/10 -> [0, 0.2775]; 81/263 -> [0.2553, 0.3662]
    low, high = wilson(0, 10)
    assert low == 0 and math.isclose(high, 0.2775, abs_tol=5e-5)
    low, high = wilson(81, 263)
    assert math.isclose(low, 0.2553, abs_tol=5e-5) and math.isclose(high, 0.3662, abs_tol=5e-5)
    assert all(math.isnan(x) for x in wilson(0, 0))


@given(st.integers(0, 10**7), st.integers(0, 10**7))
def test_wilson_contains_the_estimate_and_stays_in_unit_interval(a, b):
    k, n = min(a, b), max(a, b)
    if n == 0:
        return
    low, high = wilson(k, n)
    assert 0.0 <= low <= k / n <= high <= 1.0


@given(st.lists(st.tuples(st.integers(0, 500), st.integers(1, 500)), min_size=1, max_size=20))
def test_wilson_vectorised_equals_scalar(pairs):
    k = np.array([min(a, b) for a, b in pairs], float)
    n = np.array([b for _, b in pairs], float)
    low, high = wilson_arrays(k, n)
    for i in range(len(k)):
        assert (low[i], high[i]) == wilson(k[i], n[i])


def test_mean_interval_matches_direct_computation():
    rng = np.random.default_rng(7)
    x = rng.normal(3.0, 2.0, size=500)
    mean, _low, high = mean_interval(np.array([x.sum()]), np.array([(x * x).sum()]), np.array([500]))
    half = 1.959963984540054 * x.std(ddof=1) / math.sqrt(500)
    assert math.isclose(mean[0], x.mean()) and math.isclose(high[0] - mean[0], half, rel_tol=1e-9)


def _armitage_chi2(x, k, n):
    """The textbook statistic: T = sum t_i (N1_i R2 - N2_i R1), Var(T) from the margins."""
    x, k, n = (np.asarray(v, float) for v in (x, k, n))
    r1, total = k.sum(), n.sum()
    r2 = total - r1
    t = (x * (k * r2 - (n - k) * r1)).sum()
    cross = sum(x[i] * x[j] * n[i] * n[j] for i in range(len(x)) for j in range(i + 1, len(x)))
    var = r1 * r2 / total * ((x * x * n * (total - n)).sum() - 2 * cross)
    return t * t / var


def test_cochran_armitage_matches_the_textbook_statistic():
    x, k, n = [0, 1, 2, 3], [10, 15, 22, 30], [100, 90, 80, 70]
    test = cochran_armitage(x, k, n)
    assert math.isclose(test.z ** 2, _armitage_chi2(x, k, n), rel_tol=1e-9)
    assert test.slope > 0 and test.ci_low > 0 and test.p_value < 1e-4
    assert (test.levels, test.trials, test.successes) == (4, 340, 77)


def test_cochran_armitage_flat_and_degenerate():
    flat = cochran_armitage([0, 1, 2], [10, 10, 10], [100, 100, 100])
    assert math.isclose(flat.slope, 0.0, abs_tol=1e-12) and math.isclose(flat.p_value, 1.0)
    assert math.isnan(cochran_armitage([0], [3], [10]).z)
    assert math.isnan(cochran_armitage([0, 1], [0, 0], [10, 10]).z)
