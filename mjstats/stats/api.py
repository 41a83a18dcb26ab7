"""Computing registered metrics by id, and turning result frames into plain rows (JSON/CSV)."""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Iterable
from typing import Any

import pandas as pd

from mjstats.stats import fans, gold, outcomes, streaks
from mjstats.stats.grouping import StatsError, normalize_by
from mjstats.stats.registry import METRICS, Metric, get_metric
from mjstats.stats.tables import DatasetLike, as_dataset, base_tables

__all__ = ["COMPUTE", "STATISTICS", "compute", "compute_all", "plain_frame", "register", "result_rows",
           "sichuan_metrics"]

COMPUTE = {**outcomes.COMPUTE, **fans.COMPUTE, **gold.COMPUTE, **streaks.COMPUTE}

# group keys whose values a family always adds to its rows (besides the requested ones)
_ROW_KEYS = ["fan", "other", "fan_total", "golds_held", "discarded_gold", "start_golds", "pattern",
             "streak", "k"]  # fmt: skip


def compute(ds: DatasetLike, metric_id: str, by: Iterable[str] | str | None = None) -> pd.DataFrame:
    """One registered metric as a tidy frame (see ``docs/metrics.md`` for the ids)."""
    get_metric(metric_id)
    return COMPUTE[metric_id](as_dataset(ds), by)


def compute_all(ds: DatasetLike, by: Iterable[str] | str | None = None,
                metrics: Iterable[str] | None = None,
                progress: Callable[[str, int], None] | None = None) -> pd.DataFrame:
    """Several metrics (default: all that apply to the dataset's rulesets) in one frame.

    Metrics that cannot be grouped by ``by`` (hand-level ones by a seat key, say) are skipped
    with a warning; Fuzhou-only metrics are skipped on a dataset without Fuzhou hands.
    ``progress(phase, count)`` reports the two long scans as they go: ``"hands"`` (hands
    scanned into the base tables) and ``"gold"`` (Fuzhou hands whose gold use is read).
    """
    normalize_by(by)  # an unknown key is an error, not a note per metric
    dataset = as_dataset(ds)
    rulesets = {r for r, _ in dataset.partitions()}
    metrics = list(metrics) if metrics is not None else None
    for metric_id in metrics or ():
        get_metric(metric_id)  # an unknown id fails before any scan
    if progress is not None:  # build the cached tables now, so that the scans can report
        base_tables(dataset, lambda n: progress("hands", n))
        if "fuzhou" in rulesets and set(metrics or METRICS) & set(gold.READS_GOLD_ROWS):
            gold.prepare_gold_rows(dataset, lambda n: progress("gold", n))
    frames = []
    keys: list[str] = []
    for metric_id in metrics or METRICS:
        metric = get_metric(metric_id)
        if metrics is None and not rulesets & set(metric.rulesets):
            continue
        try:
            frame = compute(dataset, metric_id, by)
        except StatsError as exc:
            if metrics is not None:
                raise
            warnings.warn(f"{metric_id}: {exc}", stacklevel=2)
            continue
        keys += [k for k in frame.attrs.get("group_keys", []) if k not in keys]
        frames.append(frame)
    filled = [f for f in frames if len(f)]
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


def register(metrics: Iterable[Metric], computes: dict[str, Callable[..., pd.DataFrame]],
             row_keys: Iterable[str] = ()) -> None:
    """Add a ruleset package's metrics to the registry and to :func:`compute`'s dispatch;
    ``row_keys`` are the group keys its rows always carry (JSON ``by``)."""
    for metric in metrics:
        METRICS[metric.id] = metric
        COMPUTE[metric.id] = computes[metric.id]
    _ROW_KEYS.extend(k for k in row_keys if k not in _ROW_KEYS)


def sichuan_metrics(ds: DatasetLike, by: Iterable[str] | str | None = None) -> pd.DataFrame:
    """Every Sichuan 血战到底 metric (registry family ``sichuan``) in one frame."""
    return compute_all(ds, by, metrics=[m.id for m in METRICS.values() if m.family == "sichuan"])


# Ruleset packages register their metrics on import (last: they use the modules above).
import mjstats.rulesets.sichuan.metrics  # noqa: E402,F401
