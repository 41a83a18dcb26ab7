"""Numbers as the report prints them: shares as percentages, intervals as ranges, changes
signed (percentage points for shares), missing values as an en dash."""

from __future__ import annotations

import math

__all__ = ["change", "count", "interval", "is_missing", "number", "share"]

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


def change(now: float | None, before: float | None, *, unit: str) -> str:
    """Signed change from ``before`` to ``now``: "+1.2 pp" (unit "share"), "-0.4" (a mean),
    "+12" (a count)."""
    if is_missing(now) or is_missing(before):
        return DASH
    delta = float(now) - float(before)
    if unit == "share":
        text = f"{100 * delta:+.1f} pp"
    elif unit == "count":
        text = f"{round(delta):+,}"
    else:
        text = f"{delta:+,.1f}"
    return text.replace("-", "−")  # a true minus sign lines up with the plus
