"""Confidence intervals and the streak trend test: Wilson score intervals for rates, normal
intervals for means, and the Cochran-Armitage test for a linear trend in proportions.

Pure numpy/math: no scipy. Everything is deterministic (no resampling), so results never
depend on a seed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["Z95", "TrendTest", "cochran_armitage", "mean_interval", "wilson", "wilson_arrays"]

Z95 = 1.959963984540054  # two-sided 95% standard normal quantile


def wilson(successes: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion; (nan, nan) when there are no trials."""
    low, high = wilson_arrays(np.array([successes], float), np.array([trials], float), z)
    return float(low[0]), float(high[0])


def wilson_arrays(
    successes: np.ndarray, trials: np.ndarray, z: float = Z95
) -> tuple[np.ndarray, np.ndarray]:
    """Vectorised Wilson interval; nan where ``trials`` is 0. Bounds are clipped to [0, 1]
    (they are inside it mathematically; clipping only removes rounding noise)."""
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        z2 = z * z
        denom = 1.0 + z2 / n
        centre = (p + z2 / (2 * n)) / denom
        half = z * np.sqrt(np.maximum(p * (1 - p) / n + z2 / (4 * n * n), 0.0)) / denom
        low = np.clip(centre - half, 0.0, 1.0)
        high = np.clip(centre + half, 0.0, 1.0)
        # the point estimate is always inside; make rounding agree at the edges
        low = np.minimum(low, p)
        high = np.maximum(high, p)
    empty = n <= 0
    low = np.where(empty, np.nan, low)
    high = np.where(empty, np.nan, high)
    return low, high


def mean_interval(
    total: np.ndarray, total_sq: np.ndarray, count: np.ndarray, z: float = Z95
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean and normal-approximation interval from additive sums (sum, sum of squares, n).

    Sample standard deviation with n - 1; the interval is nan below two observations.
    """
    s = np.asarray(total, dtype=float)
    s2 = np.asarray(total_sq, dtype=float)
    n = np.asarray(count, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = s / n
        var = np.maximum(s2 - n * mean * mean, 0.0) / (n - 1)
        half = z * np.sqrt(var / n)
    half = np.where(n >= 2, half, np.nan)
    mean = np.where(n > 0, mean, np.nan)
    return mean, mean - half, mean + half


@dataclass(frozen=True, slots=True)
class TrendTest:
    """Cochran-Armitage test for a linear trend of a proportion across ordered levels.

    ``slope`` is the least-squares change in the proportion per unit of the level score,
    weighted by the number of trials; ``ci_low``/``ci_high`` its 95% interval under the null
    variance; ``z`` the test statistic and ``p_value`` its two-sided normal p-value.
    """

    levels: int
    trials: int
    successes: int
    slope: float
    ci_low: float
    ci_high: float
    z: float
    p_value: float


def cochran_armitage(
    scores: Sequence[float], successes: Sequence[float], trials: Sequence[float], z: float = Z95
) -> TrendTest:
    """The Cochran-Armitage trend test; nan statistics when fewer than two levels have trials
    or every trial has the same outcome."""
    x = np.asarray(scores, dtype=float)
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    keep = n > 0
    x, k, n = x[keep], k[keep], n[keep]
    total_n, total_k = float(n.sum()), float(k.sum())
    nan = math.nan
    if len(x) < 2 or total_n == 0:
        return TrendTest(len(x), int(total_n), int(total_k), nan, nan, nan, nan, nan)
    p_bar = total_k / total_n
    x_bar = float((n * x).sum() / total_n)
    sxx = float((n * (x - x_bar) ** 2).sum())
    if sxx == 0:
        return TrendTest(len(x), int(total_n), int(total_k), nan, nan, nan, nan, nan)
    t = float(((k - n * p_bar) * (x - x_bar)).sum())  # sum x_i (k_i - n_i p_bar)
    slope = t / sxx
    var_slope = p_bar * (1 - p_bar) / sxx
    if var_slope <= 0:
        return TrendTest(len(x), int(total_n), int(total_k), slope, nan, nan, nan, nan)
    se = math.sqrt(var_slope)
    stat = slope / se
    p_value = math.erfc(abs(stat) / math.sqrt(2))
    return TrendTest(
        len(x), int(total_n), int(total_k), slope, slope - z * se, slope + z * se, stat, p_value
    )
