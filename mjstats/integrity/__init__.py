"""Integrity analytics: is the platform fair? Deal and draw fairness against exact nulls,
collusion indicators, outcome advantage, every p-value corrected together (Benjamini-Hochberg).
See docs/integrity.md.

>>> from mjstats.integrity import run_integrity
>>> report = run_integrity("DS", by="seat")       # IntegrityReport
>>> report.verdict(); report.frame()             # one sentence; the rows as a DataFrame
"""

from mjstats.integrity.api import COLUMNS, FAMILIES, IntegrityReport, flat_row, run_integrity
from mjstats.integrity.multiple import FDR, bh_q_values

__all__ = [
    "COLUMNS",
    "FAMILIES",
    "FDR",
    "IntegrityReport",
    "bh_q_values",
    "flat_row",
    "run_integrity",
]
