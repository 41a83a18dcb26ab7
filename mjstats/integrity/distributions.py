"""The null distributions the integrity tests need, as small pure functions (no scipy).

Normal tails, the hypergeometric distribution (exact, by log-factorials), the chi-square tail
(through the regularized incomplete gamma function) and the Kolmogorov-Smirnov test of
uniformity. Each is checked against known values in tests/test_integrity_distributions.py.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = [
    "chi2_sf",
    "hypergeom_mean_var",
    "hypergeom_pmf",
    "ks_uniform",
    "normal_cdf",
    "normal_sf",
    "poisson_binomial_mid_p",
    "poisson_binomial_pmf",
    "t_quantile",
    "t_sf",
    "z_p_value",
]


def normal_cdf(z: float) -> float:
    """P(Z <= z) for a standard normal Z."""
    return 0.5 * math.erfc(-z / math.sqrt(2.0))


def normal_sf(z: float) -> float:
    """P(Z > z) for a standard normal Z (accurate far into the upper tail)."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def z_p_value(z: float, alternative: str = "two-sided") -> float:
    """The p-value of a z-score: ``two-sided``, ``greater`` (observed above expected) or ``less``."""
    if alternative == "greater":
        return normal_sf(z)
    if alternative == "less":
        return normal_cdf(z)
    return min(1.0, 2.0 * normal_sf(abs(z)))


def _log_comb(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def hypergeom_pmf(k: int, population: int, successes: int, draws: int) -> float:
    """P(K = k): ``k`` successes among ``draws`` tiles taken without replacement from
    ``population`` tiles of which ``successes`` are successes."""
    if k < max(0, draws - (population - successes)) or k > min(draws, successes):
        return 0.0
    return math.exp(
        _log_comb(successes, k) + _log_comb(population - successes, draws - k) - _log_comb(population, draws)
    )


def hypergeom_mean_var(population: int, successes: int, draws: int) -> tuple[float, float]:
    """Mean and variance of the hypergeometric count (finite-population correction included)."""
    p = successes / population
    mean = draws * p
    var = draws * p * (1 - p) * (population - draws) / (population - 1)
    return mean, var


def _gamma_p_series(a: float, x: float) -> float:
    term = 1.0 / a
    total = term
    n = a
    for _ in range(10_000):
        n += 1.0
        term *= x / n
        total += term
        if abs(term) < abs(total) * 1e-15:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _gamma_q_fraction(a: float, x: float) -> float:
    # Lentz's continued fraction for the upper regularized gamma function
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h * math.exp(-x + a * math.log(x) - math.lgamma(a))


def chi2_sf(x: float, df: int) -> float:
    """P(X > x) for X chi-square with ``df`` degrees of freedom (regularized upper gamma Q(df/2, x/2))."""
    if df < 1:
        raise ValueError(f"a chi-square needs at least one degree of freedom, got {df}")
    if x <= 0:
        return 1.0
    a, h = df / 2.0, x / 2.0
    if h < a + 1.0:
        return max(0.0, 1.0 - _gamma_p_series(a, h))
    return min(1.0, _gamma_q_fraction(a, h))


def _beta_fraction(a: float, b: float, x: float) -> float:
    # Lentz's continued fraction for the regularized incomplete beta function (x < (a+1)/(a+b+2))
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (tiny if abs(d) < tiny else d)
    h = d
    for m in range(1, 10_000):
        for num in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + num * d
            d = 1.0 / (tiny if abs(d) < tiny else d)
            c = 1.0 + num / c
            c = tiny if abs(c) < tiny else c
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    return front * h / a


def beta_inc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    if x < (a + 1.0) / (a + b + 2.0):
        return _beta_fraction(a, b, x)
    return 1.0 - _beta_fraction(b, a, 1.0 - x)


def t_sf(t: float, df: float) -> float:
    """P(T > t) for Student's T with ``df`` degrees of freedom (0.5 I_{df/(df+t^2)}(df/2, 1/2))."""
    if df <= 0:
        raise ValueError(f"Student's t needs positive degrees of freedom, got {df}")
    tail = 0.5 * beta_inc(df / 2.0, 0.5, df / (df + t * t))
    return tail if t >= 0 else 1.0 - tail


def t_quantile(q: float, df: float) -> float:
    """The ``q`` quantile of Student's T with ``df`` degrees of freedom (bisection on ``t_sf``)."""
    if not 0.0 < q < 1.0:
        raise ValueError(f"a quantile needs 0 < q < 1, got {q}")
    if q < 0.5:
        return -t_quantile(1.0 - q, df)
    low, high = 0.0, 1.0
    while t_sf(high, df) > 1.0 - q:
        high *= 2.0
    for _ in range(100):
        mid = (low + high) / 2.0
        if t_sf(mid, df) > 1.0 - q:
            low = mid
        else:
            high = mid
        if high - low < 1e-12:
            break
    return (low + high) / 2.0


def _kolmogorov_sf(t: float) -> float:
    """P(sqrt(n) D > t) in the limit (the Kolmogorov distribution)."""
    if t < 0.2:
        return 1.0
    total = 0.0
    for k in range(1, 101):
        term = 2.0 * (-1) ** (k - 1) * math.exp(-2.0 * k * k * t * t)
        total += term
        if abs(term) < 1e-16:
            break
    return min(1.0, max(0.0, total))


def ks_uniform(values: Sequence[float]) -> tuple[float, float]:
    """Kolmogorov-Smirnov test that ``values`` are uniform on [0, 1]: (D, p-value).

    The p-value uses the Kolmogorov limit with Stephens' small-sample correction
    (t = D (sqrt n + 0.12 + 0.11 / sqrt n)), accurate to about 1% for n >= 5."""
    xs = sorted(values)
    n = len(xs)
    if n == 0:
        raise ValueError("the KS test needs at least one value")
    d = 0.0
    for i, x in enumerate(xs):
        d = max(d, (i + 1) / n - x, x - i / n)
    root = math.sqrt(n)
    return d, _kolmogorov_sf(d * (root + 0.12 + 0.11 / root))


def poisson_binomial_pmf(chances: Sequence[float]) -> list[float]:
    """The exact distribution of a sum of independent Bernoulli trials (dynamic programming)."""
    pmf = [1.0]
    for p in chances:
        q = 1.0 - p
        nxt = [0.0] * (len(pmf) + 1)
        for k, mass in enumerate(pmf):
            if mass:
                nxt[k] += mass * q
                nxt[k + 1] += mass * p
        # drop the far upper tail that can no longer matter (keeps the work small)
        while len(nxt) > 1 and nxt[-1] < 1e-300:
            nxt.pop()
        pmf = nxt
    return pmf


def poisson_binomial_mid_p(chances: Sequence[float], observed: int, alternative: str = "two-sided") -> float:
    """Mid-p-value of ``observed`` successes: P(more extreme) + P(equal) / 2 under the exact
    Poisson-binomial law. The mid-p of a discrete count is close to uniform under the null (the
    plain tail is conservative), which the null-uniformity checks require."""
    pmf = poisson_binomial_pmf(chances)
    at = pmf[observed] if 0 <= observed < len(pmf) else 0.0
    below = sum(pmf[: max(0, min(observed, len(pmf)))])
    above = max(0.0, 1.0 - below - at)
    upper = above + at / 2
    lower = below + at / 2
    if alternative == "greater":
        return upper
    if alternative == "less":
        return lower
    return min(1.0, 2.0 * min(upper, lower))
