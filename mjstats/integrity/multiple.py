"""Benjamini-Hochberg: every p-value of a run corrected together (false discovery rate)."""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["FDR", "bh_q_values"]

FDR = 0.05  # findings with q <= FDR survive


def bh_q_values(p_values: Sequence[float | None]) -> list[float | None]:
    """Benjamini-Hochberg adjusted p-values (q-values), in the input order.

    q_(i) = min over j >= i of p_(j) * m / j for the sorted p-values; rejecting every q <= alpha
    keeps the expected share of false findings at most alpha (independent or positively
    dependent tests). ``None`` (a test that could not be computed) stays ``None`` and does not
    count in m."""
    present = [(p, i) for i, p in enumerate(p_values) if p is not None and not math.isnan(p)]
    out: list[float | None] = [None] * len(p_values)
    m = len(present)
    running = 1.0
    for rank, (p, i) in zip(range(m, 0, -1), sorted(present, reverse=True), strict=True):
        running = min(running, p * m / rank)
        out[i] = running
    return out
