"""Statistics over a dataset: a registry of metrics, each a tidy pandas frame with summed
counters, rates with 95% Wilson intervals and a ``small_sample`` flag (docs/metrics.md).

Every function takes a :class:`~mjstats.store.Dataset` or a dataset folder path, and most take
``by``: a group key or several (player, seat, dealer, style, wind, ruleset, period, profile,
streak).
"""

from mjstats.stats.api import COMPUTE, compute, compute_all, plain_frame, result_rows, sichuan_metrics
from mjstats.stats.fans import fan_disagreement, fan_frequencies, fan_lift, fan_total_distribution
from mjstats.stats.gold import gold_usage
from mjstats.stats.grouping import GROUP_KEYS, SMALL_SAMPLE, StatsError
from mjstats.stats.intervals import TrendTest, cochran_armitage, wilson
from mjstats.stats.outcomes import outcome_rates, tenpai_at_draw, win_rates
from mjstats.stats.registry import METRICS, Metric, get_metric, render_metrics_markdown
from mjstats.stats.streaks import dealer_streaks, streak_trend
from mjstats.stats.tables import Base, base_tables, clear_cache

__all__ = [
    "COMPUTE",
    "GROUP_KEYS",
    "METRICS",
    "SMALL_SAMPLE",
    "Base",
    "Metric",
    "StatsError",
    "TrendTest",
    "base_tables",
    "clear_cache",
    "cochran_armitage",
    "compute",
    "compute_all",
    "dealer_streaks",
    "fan_disagreement",
    "fan_frequencies",
    "fan_lift",
    "fan_total_distribution",
    "get_metric",
    "gold_usage",
    "outcome_rates",
    "plain_frame",
    "render_metrics_markdown",
    "result_rows",
    "sichuan_metrics",
    "streak_trend",
    "tenpai_at_draw",
    "wilson",
    "win_rates",
]
