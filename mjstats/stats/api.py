"""Computing registered metrics by id, and turning result frames into plain rows (JSON/CSV)."""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Iterable
from functools import cache
from types import ModuleType
from typing import Any

import pandas as pd

from mjstats.rulesets import recorded
from mjstats.stats import decisions, fans, outcomes, streaks
from mjstats.stats.audit_counts import AUDIT_METRICS, audit_counts
from mjstats.stats.decision_counts import decision_counts
from mjstats.stats.group_counts import group_counts
from mjstats.stats.grouping import StatsError, normalize_by
from mjstats.stats.registry import METRICS, Metric, get_metric
from mjstats.stats.tables import DatasetLike, as_dataset, base_tables

__all__ = [  # and COMPUTE, built on first use (module __getattr__)
    "PROGRESS_PHASES",
    "STATISTICS",
    "compute",
    "compute_all",
    "compute_table",
    "counted_families",
    "plain_frame",
    "result_rows",
    "ruleset_stats",
]



@cache
def ruleset_stats() -> dict[str, ModuleType]:
    """The rulesets' stats parts (registry order): their metrics' functions and the scans they
    need. Loaded on first use: a part imports mjstats.stats, which must be complete by then."""
    return {r.name: r.load(r.stats) for r in recorded() if r.stats is not None}


@cache
def compute_table() -> dict[str, Callable[..., pd.DataFrame]]:
    """Metric id -> the function computing it: the shared families' and each ruleset's."""
    own = {k: f for part in ruleset_stats().values() for k, f in part.COMPUTE.items()}
    return {**outcomes.COMPUTE, **fans.COMPUTE, **own, **streaks.COMPUTE, **decisions.COMPUTE}


def __getattr__(name: str) -> Any:
    if name == "COMPUTE":  # the table, as a module constant (built on first use)
        return compute_table()
    raise AttributeError(f"module 'mjstats.stats.api' has no attribute {name!r}")

# the core's scans that report progress: phase -> (a progress line's label, its unit)
PROGRESS_PHASES = {
    "hands": ("stats: scanning", "hands"),
    "audit": ("stats: reading the audit", "hands"),
    "decisions": ("stats: reading the decisions", "hands"),
}

# the families computed from the summed counters (group_counts), not from per-hand tables
COUNTED = ("outcomes", "fans", "streaks")
# computed from counters of their own scan, beside the derived table's rows (decision_counts)
COUNTED_APART = ("decisions",)


@cache
def counted_families() -> frozenset[str]:
    """Every family computed from per-part counters, never from the per-hand base tables: the
    shared ones and those each ruleset's stats part declares (its ``COUNTED``)."""
    own = {f for part in ruleset_stats().values() for f in getattr(part, "COUNTED", ())}
    return frozenset({*COUNTED, *COUNTED_APART, *own})


def _reads_base(metric: Metric) -> bool:
    """Whether a metric reads the per-hand base tables (not only the summed counters)."""
    return metric.family not in counted_families()


# group keys whose values a family always adds to its rows (besides the requested ones)
_ROW_KEYS = ("fan", "other", "fan_total", "golds_held", "discarded_gold", "start_golds", "pattern",
             "void_choice", "win_order", "multiplier", "streak", "k")  # fmt: skip


def compute(ds: DatasetLike, metric_id: str, by: Iterable[str] | str | None = None) -> pd.DataFrame:
    """One registered metric as a tidy frame (see ``docs/metrics.md`` for the ids)."""
    get_metric(metric_id)
    return compute_table()[metric_id](as_dataset(ds), by)


def compute_all(ds: DatasetLike, by: Iterable[str] | str | None = None,
                metrics: Iterable[str] | None = None,
                progress: Callable[[str, int], None] | None = None, jobs: int = 1) -> pd.DataFrame:
    """Several metrics (default: all that apply to the dataset's rulesets) in one frame.

    Metrics that cannot be grouped by ``by`` (hand-level ones by a seat key, say) are skipped
    with a warning; a ruleset's own metrics are skipped on a dataset without its hands.
    ``progress(phase, count)`` reports the long scans as they go: ``"hands"`` (hands scanned
    into the counters or the base tables), ``"audit"`` and ``"decisions"`` (hands whose audit
    or decisions rows are counted; PROGRESS_PHASES) and each ruleset scan's phase (its stats
    part's PROGRESS).
    ``jobs``: worker processes for the rulesets' scans (the results do not depend on it).
    """
    normalize_by(by)  # an unknown key is an error, not a note per metric
    dataset = as_dataset(ds)
    rulesets = {r for r, _ in dataset.partitions()}
    metrics = list(metrics) if metrics is not None else None
    for metric_id in metrics or ():
        get_metric(metric_id)  # an unknown id fails before any scan
    todo = [get_metric(m) for m in (metrics or METRICS)]
    if any(m.family in COUNTED for m in todo if rulesets & set(m.rulesets)):
        # the summed counters in one pass now (with tenpai's when it is wanted), so that the
        # scan can report; the metrics below read them from the cache
        tenpai = any(m.id == "tenpai_at_draw" and rulesets & set(m.rulesets) for m in todo)
        group_counts(dataset, None if progress is None else (lambda n: progress("hands", n)), tenpai)
    if progress is not None and any(_reads_base(m) for m in todo if rulesets & set(m.rulesets)):
        base_tables(dataset, lambda n: progress("hands", n))  # built now, so that the scan reports
    if progress is not None:  # the audit's and the decisions' counters now, so that they report
        wanted = {m.id for m in todo if rulesets & set(m.rulesets)}
        if wanted & set(AUDIT_METRICS):
            audit_counts(dataset, lambda n: progress("audit", n))
        judged = any(m.family == "decisions" and rulesets & set(m.rulesets) for m in todo)
        if judged and dataset.has_table(decisions.TABLE):
            decision_counts(dataset, lambda n: progress("decisions", n))
    if progress is not None or jobs > 1:
        for name, part in ruleset_stats().items():
            if name in rulesets and set(metrics or METRICS) & set(part.READS):
                phase = part.PROGRESS[0]
                report = None if progress is None else (lambda n, phase=phase: progress(phase, n))
                part.prepare(dataset, report, jobs)
    frames = []
    keys: list[str] = []
    for metric_id in metrics or METRICS:
        metric = get_metric(metric_id)
        if metrics is None and not rulesets & set(metric.rulesets):
            continue
        if metrics is None and metric.family == "decisions" and not dataset.has_table(decisions.TABLE):
            continue  # not computed (mjstats decisions): asking for one by id says so
        try:
            frame = compute(dataset, metric_id, by)
        except StatsError as exc:
            if metrics is not None:
                raise
            warnings.warn(f"{metric_id}: {exc}", stacklevel=2)
            continue
        keys += [k for k in frame.attrs.get("group_keys", []) if k not in keys]
        frames.append(frame)
    filled = [f for f in frames if len(f)]  # every frame empty: an empty result, not a concat error
    out = pd.concat(filled, ignore_index=True) if filled else pd.DataFrame()
    out.attrs["group_keys"] = keys
    return out


# columns that hold a statistic (a real number even when it happens to be whole); every other
# numeric column holds counts, group values or sums, written as integers when they are whole
STATISTICS = frozenset({"value", "ci_low", "ci_high", "mean_count", "z", "p_value"})


def _plain(value: Any, whole: bool = True) -> Any:
    """A plain Python value; with ``whole``, a float that is a whole number becomes an int (a
    count stored in a float column because other rows of the column are empty)."""
    if value is None:
        return None
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float):
        if math.isnan(value):
            return None
        if whole and value.is_integer() and abs(value) < 2**53:
            return int(value)
    return value


def plain_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame with whole numbers as integers outside the statistic columns (for CSV: a
    count column that is empty in some rows is float in pandas, and would print ``16.0``)."""
    out = frame.copy()
    for name in out.columns:
        if name not in STATISTICS and pd.api.types.is_float_dtype(out[name].dtype):
            out[name] = pd.Series([_plain(v) for v in out[name]], index=out.index, dtype=object)
    return out


def result_rows(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """Rows as dicts: ``metric``, ``by`` (the row's group keys, non-null), ``numerator``,
    ``denominator``, ``value``, ``ci_low``, ``ci_high``, ``hands``, ``small_sample``, then any
    extra columns. Fan rows have ``by: {"fan": name, ...}``."""
    keys = list(frame.attrs.get("group_keys", []))
    keys += [k for k in _ROW_KEYS if k in frame.columns and k not in keys]
    fixed = ("metric", "numerator", "denominator", "value", "ci_low", "ci_high", "hands", "small_sample")
    rows = []
    for rec in frame.to_dict(orient="records"):
        by = {k: _plain(rec[k]) for k in keys if k in rec and _plain(rec[k]) is not None}
        row: dict[str, Any] = {"metric": rec["metric"], "by": by}
        for name in fixed[1:]:
            if name in rec:
                row[name] = _plain(rec[name], name not in STATISTICS)
        for name, value in rec.items():
            if name not in row and name not in keys and name not in fixed:
                plain = _plain(value, name not in STATISTICS)
                if plain is not None:
                    row[name] = plain
        rows.append(row)
    return rows
