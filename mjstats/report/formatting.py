"""Numbers as the report prints them, one convention everywhere: rates and shares in percent
(27.6%), differences of rates in percentage points (+1.2 pp, their intervals too), means and
counts as plain numbers, intervals as ranges, missing values as an en dash."""

from __future__ import annotations

import math

__all__ = [
    "change",
    "count",
    "difference_interval",
    "interval",
    "is_missing",
    "number",
    "rate_difference",
    "share",
]

DASH = "–"


def is_missing(value: object) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def share(value: float | None, digits: int = 1) -> str:
    """0.2761 -> "27.6%"."""
    return DASH if is_missing(value) else f"{100 * float(value):.{digits}f}%"


def number(value: float | None, digits: int = 1) -> str:
    """A mean or a lift: 45.638 -> "45.6"; thousands separated."""
    return DASH if is_missing(value) else f"{float(value):,.{digits}f}"


def count(value: float | None) -> str:
    return DASH if is_missing(value) else f"{int(value):,}"


def interval(low: float | None, high: float | None, *, percent: bool, digits: int = 1) -> str:
    """A 95% interval: "24.6–30.8%" for shares, "41.6–49.7" for means."""
    if is_missing(low) or is_missing(high):
        return DASH
    scale, unit = (100.0, "%") if percent else (1.0, "")
    lo, hi = scale * float(low), scale * float(high)
    if lo < 0:  # "−9.8 to 27.2%": a dash between signed numbers would read as a minus
        return f"{lo:,.{digits}f} to {hi:,.{digits}f}{unit}".replace("-", "−")
    return f"{lo:,.{digits}f}–{hi:,.{digits}f}{unit}"


def _signed(text: str) -> str:
    return text.replace("-", "−")  # a true minus sign lines up with the plus


def rate_difference(delta: float | None, digits: int = 1) -> str:
    """A difference of two rates in percentage points: 0.012 -> "+1.2 pp"."""
    return DASH if is_missing(delta) else _signed(f"{100 * float(delta):+.{digits}f} pp")


def difference_interval(low: float | None, high: float | None, digits: int = 1) -> str:
    """The 95% interval of a difference of rates, in percentage points: "−0.3 to +2.1 pp"."""
    if is_missing(low) or is_missing(high):
        return DASH
    return _signed(f"{100 * float(low):+.{digits}f} to {100 * float(high):+.{digits}f} pp")


def change(now: float | None, before: float | None, *, unit: str) -> str:
    """Signed change from ``before`` to ``now``: "+1.2 pp" (unit "share"), "-0.4" (a mean),
    "+12" (a count)."""
    if is_missing(now) or is_missing(before):
        return DASH
    delta = float(now) - float(before)
    if unit == "share":
        return rate_difference(delta)
    if unit == "count":
        return _signed(f"{round(delta):+,}")
    return _signed(f"{delta:+,.1f}")
