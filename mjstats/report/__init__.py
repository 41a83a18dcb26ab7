"""Periodic HTML reports: one self-contained page per month, ISO week, the undated hands and
all time, with the audit summary, win rates, fans, gold, dealer streaks, the metric glossary and
the data's provenance (docs/reports.md).

``build_report(dataset, out_dir)`` writes the pages; ``mjstats report DATASET`` is the command.
``use_cjk_font()`` sets matplotlib up for Chinese text in raster figures (notebooks).
"""

from mjstats.report.build import available_periods, build_report
from mjstats.report.fonts import use_cjk_font
from mjstats.report.periods import Period, ReportError, parse_period

__all__ = ["Period", "ReportError", "available_periods", "build_report", "parse_period", "use_cjk_font"]
