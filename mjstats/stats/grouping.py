"""Group keys and the one place where summed counters become rates and means.

Every metric reduces to additive columns per row (a numerator and a denominator, or a sum, a
sum of squares and a count). Rows are grouped, the columns summed, and only then divided:
rates get a Wilson interval, means a normal interval. Each output row also counts the hands
(or seat-hands) behind it and flags ``small_sample`` below :data:`SMALL_SAMPLE` of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd

from mjstats.errors import MjstatsError
from mjstats.stats.intervals import mean_interval, wilson_arrays

__all__ = [
    "GROUP_KEYS",
    "HAND_KEYS",
    "OUTPUT_COLUMNS",
    "SEAT_KEYS",
    "SMALL_SAMPLE",
    "StatsError",
    "mean_rows",
    "mean_rows_from_sums",
    "normalize_by",
    "rate_rows",
]

SMALL_SAMPLE = 100  # design.md: a sample-size warning below 100 hands

# Keys describing a seat in a hand (who played it, from where) and keys describing the hand.
SEAT_KEYS = ("player", "seat", "dealer", "style", "wind")
HAND_KEYS = ("ruleset", "period", "profile", "streak")
GROUP_KEYS = SEAT_KEYS + HAND_KEYS
_ALIASES = {"bot_style": "style", "styles": "style", "players": "player", "month": "period"}

OUTPUT_COLUMNS = ("metric", "numerator", "denominator", "value", "ci_low", "ci_high", "hands",
                  "small_sample")  # fmt: skip


class StatsError(MjstatsError):
    """A statistics request that cannot be answered (unknown metric or group key)."""


def normalize_by(by: str | Iterable[str] | None, allowed: Sequence[str] = GROUP_KEYS) -> tuple[str, ...]:
    """Group keys as a tuple: None -> (), "seat" or "ruleset,seat" or a list; checked."""
    if by is None:
        return ()
    items = by.split(",") if isinstance(by, str) else list(by)
    out: list[str] = []
    for item in items:
        key = _ALIASES.get(item.strip(), item.strip())
        if not key:
            continue
        if key not in allowed:
            raise StatsError(f"cannot group by {item!r}: one of {', '.join(allowed)}")
        if key not in out:
            out.append(key)
    return tuple(out)


def _grouped_sums(frame: pd.DataFrame, by: Sequence[str], columns: dict[str, object]) -> pd.DataFrame:
    """Sum the given columns (names or arrays aligned with ``frame``) per group of ``by``."""
    data = {key: frame[key] for key in by}
    for name, values in columns.items():
        data[name] = frame[values] if isinstance(values, str) else values
    work = pd.DataFrame(data, index=frame.index)
    if by:
        out = work.groupby(list(by), observed=True, sort=True).sum(numeric_only=True).reset_index()
    else:
        out = work.sum(numeric_only=True).to_frame().T
    for key in by:  # plain values in the output (categoricals would carry unused categories)
        if isinstance(out[key].dtype, pd.CategoricalDtype):
            out[key] = out[key].astype(object)
    return out


def _finish(out: pd.DataFrame, metric: str, by: Sequence[str], low: np.ndarray, high: np.ndarray,
            value: np.ndarray) -> pd.DataFrame:
    out["value"] = value
    out["ci_low"] = low
    out["ci_high"] = high
    out["small_sample"] = out["hands"] < SMALL_SAMPLE
    out.insert(0, "metric", metric)
    cols = ["metric", *by, *(c for c in OUTPUT_COLUMNS[1:])]
    extra = [c for c in out.columns if c not in cols]
    result = out[cols + extra].reset_index(drop=True)
    result.attrs["group_keys"] = list(by)
    return result


def rate_rows(frame: pd.DataFrame, metric: str, by: Sequence[str], numerator: object,
              denominator: object, hands: object = "hands", **extra: object) -> pd.DataFrame:
    """Rows of ``numerator / denominator`` per group with Wilson intervals.

    ``numerator``/``denominator``/``hands`` are column names of ``frame`` or aligned arrays of
    per-row counts; ``extra`` are further additive columns to sum and keep.
    """
    cols = {"numerator": numerator, "denominator": denominator, "hands": hands, **extra}
    out = _grouped_sums(frame, by, cols)
    k = out["numerator"].to_numpy(float)
    n = out["denominator"].to_numpy(float)
    low, high = wilson_arrays(k, n)
    with np.errstate(invalid="ignore", divide="ignore"):
        value = np.where(n > 0, k / np.where(n > 0, n, 1), np.nan)
    for name in ("numerator", "denominator", "hands"):
        out[name] = out[name].astype(np.int64)
    return _finish(out, metric, by, low, high, value)


def mean_rows(frame: pd.DataFrame, metric: str, by: Sequence[str], values: object, mask: object,
              hands: object = "hands") -> pd.DataFrame:
    """Rows of the mean of ``values`` over rows where ``mask`` holds, per group, with a normal
    interval from the summed values, squares and count. ``numerator`` is the sum of values,
    ``denominator`` the count."""
    v = np.asarray(frame[values] if isinstance(values, str) else values, dtype=float)
    m = np.asarray(frame[mask] if isinstance(mask, str) else mask, dtype=bool) & ~np.isnan(v)
    x = np.where(m, v, 0.0)
    return mean_rows_from_sums(frame, metric, by, x, x * x, m.astype(np.int64), hands)


def mean_rows_from_sums(frame: pd.DataFrame, metric: str, by: Sequence[str], total: object,
                        total_sq: object, count: object, hands: object = "hands") -> pd.DataFrame:
    """:func:`mean_rows` from rows that already hold partial sums (a sum of values, of their
    squares and a count per row, e.g. per group of a part file): the same output."""
    cols = {"numerator": total, "denominator": count, "hands": hands, "sum_sq": total_sq}
    out = _grouped_sums(frame, by, cols)
    mean, low, high = mean_interval(out["numerator"], out["sum_sq"], out["denominator"])
    out = out.drop(columns=["sum_sq"])
    out["denominator"] = out["denominator"].astype(np.int64)
    out["hands"] = out["hands"].astype(np.int64)
    return _finish(out, metric, by, low, high, mean)
