"""The tidy row every integrity test returns, and the helpers that fill it from a statistic.

A row says what was measured (``test``, ``ruleset``, ``by``, ``subject``), how much data it saw
(``n``), its statistic and null (``statistic_name``, ``null``), the p-value, and an effect size
with a 95% interval. A test with too little data to judge has ``p_value`` None and a ``note``
saying why; such rows take no part in the multiple-testing correction.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from mjstats.integrity.distributions import chi2_sf, poisson_binomial_mid_p, z_p_value

__all__ = ["MIN_VARIANCE", "Row", "blank_row", "chi2_row", "subject_key", "subject_of", "z_row"]

Row = dict[str, Any]

# A z-score on a count is trusted when the count's null variance is at least this (about 10
# expected events either way); below it the row says the data is too small to judge.
MIN_VARIANCE = 10.0
# Below this null variance a count given with its trials' chances gets the exact
# Poisson-binomial mid-p rather than the normal one (the normal is off in a skewed small count).
EXACT_BELOW = 60.0
Z95 = 1.959963984540054


def subject_of(by: str, value: object) -> dict[str, object]:
    """The subject of a row: ``{"seat": 2}``, ``{"player": "ann"}`` ..."""
    return {by: value}


def subject_key(subject: dict[str, object]) -> str:
    """A subject as stable text for sorting and CSV: ``seat=2``, ``loser=ann,winner=bo``."""
    return ",".join(f"{k}={v}" for k, v in sorted(subject.items()))


def blank_row(test: str, ruleset: str, by: str, subject: dict[str, object], null: str, n: int) -> Row:
    """A row that names its test and subject and judges nothing yet (every result None)."""
    return {
        "test": test,
        "ruleset": ruleset,
        "by": by,
        "subject": subject,
        "n": n,
        "null": null,
        "observed": None,
        "expected": None,
        "statistic_name": None,
        "statistic": None,
        "df": None,
        "p_value": None,
        "effect_name": None,
        "effect": None,
        "effect_low": None,
        "effect_high": None,
        "note": "",
        "hands": [],
    }


def z_row(
    test: str,
    ruleset: str,
    by: str,
    subject: dict[str, object],
    *,
    observed: float,
    expected: float,
    variance: float,
    n: int,
    null: str,
    alternative: str = "two-sided",
    min_variance: float = MIN_VARIANCE,
    chances: Sequence[float] | None = None,
) -> Row:
    """A count against its null mean and variance: z = (O - E) / sqrt(V), effect O / E with a
    95% interval (O +- 1.96 sqrt(V)) / E. Too small to judge when V < ``min_variance``. With the
    trials' ``chances`` and a small variance the p-value is the exact Poisson-binomial mid-p."""
    row = blank_row(test, ruleset, by, subject, null, n)
    row.update(observed=observed, expected=expected, statistic_name="z", effect_name="observed/expected")
    if variance < min_variance or expected <= 0:
        row["note"] = (
            f"too small to judge: null variance {variance:.1f} < {min_variance:g} "
            f"(about {expected:.1f} expected over {n} cases)"
        )
        return row
    z = (observed - expected) / math.sqrt(variance)
    half = Z95 * math.sqrt(variance)
    if chances is not None and variance < EXACT_BELOW:
        p_value = poisson_binomial_mid_p(chances, round(observed), alternative)
        row["null"] = f"{null} (exact mid-p)"
    else:
        p_value = z_p_value(z, alternative)
    row.update(
        statistic=z,
        p_value=p_value,
        effect=observed / expected,
        effect_low=(observed - half) / expected,
        effect_high=(observed + half) / expected,
    )
    return row


def chi2_row(
    test: str,
    ruleset: str,
    by: str,
    subject: dict[str, object],
    *,
    observed: Sequence[float],
    expected: Sequence[float],
    n: int,
    null: str,
    scale: float = 1.0,
    df: int | None = None,
    min_expected: float = 5.0,
) -> Row:
    """Pearson's chi-square of counts against expected counts (df = cells - 1 unless given),
    times ``scale`` (a finite-population correction). Effect: Cohen's w = sqrt(X2 / n), given
    without an interval (the statistic and p-value carry the uncertainty). Too small to judge
    when a cell expects fewer than ``min_expected``."""
    row = blank_row(test, ruleset, by, subject, null, n)
    row.update(
        observed=float(sum(observed)),
        expected=float(sum(expected)),
        statistic_name="chi2",
        effect_name="cohen_w",
    )
    low = min(expected) if expected else 0.0
    if not expected or low < min_expected:
        row["note"] = f"too small to judge: a cell expects {low:.1f} < {min_expected:g} ({n} cases)"
        return row
    stat = scale * sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))
    k = df if df is not None else len(expected) - 1
    w = math.sqrt(stat / n) if n else 0.0
    row.update(statistic=stat, df=k, p_value=chi2_sf(stat, k), effect=w)
    return row
