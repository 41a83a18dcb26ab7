"""Decision-quality metrics from the ``decisions`` table (``mjstats decisions``): how well a
seat plays, not only how often it wins. Each decision counts for its seat's row, so the metrics
group by player, seat, style, period... like every other metric: from counters summed part by
part (decision_counts), or, when the table's rows are out of the dataset's order, by joining
each decision row to its seat row of the base tables (``decision_rows``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa

from mjstats.stats.decision_counts import HITS, decision_counts
from mjstats.stats.grouping import StatsError, mean_rows, mean_rows_from_sums, normalize_by, rate_rows
from mjstats.stats.tables import DatasetLike, as_dataset, base_tables, cached_per_version, key_strings
from mjstats.store import Dataset

__all__ = ["COMPUTE", "DECISION_METRICS", "DecisionRows", "decision_rows"]

TABLE = "decisions"
_COLUMNS = ["match_id", "hand_no", "seat", "kind", "shanten_before", "useful_kept", "useful_best", "flags"]


@dataclass(frozen=True)
class DecisionRows:
    """The decision rows of the dataset's hands: each row's seat row in ``base.seats`` and
    what the metrics count (flags as booleans)."""

    seat_row: np.ndarray  # int64 row of base.seats per decision
    kind: np.ndarray  # object: discard | claim | pass_claim | pass_win
    judged: np.ndarray  # bool: the shanten could be computed (a playable hand)
    useful_lost: np.ndarray  # float: useful_best - useful_kept (NaN when not a judged discard)
    flags: dict[str, np.ndarray]


def _missing(dataset: Dataset) -> StatsError:
    return StatsError(
        f"{dataset.root}: no decisions table: run `mjstats decisions {dataset.root}` first"
    )


def decision_rows(ds: DatasetLike) -> DecisionRows:
    """The decisions table joined to the seat rows (cached per dataset version); StatsError
    naming the command to run when the table was never computed."""
    dataset = as_dataset(ds)
    if not dataset.has_table(TABLE):
        raise _missing(dataset)
    return cached_per_version("decisions", dataset, lambda: _build(dataset))


def _build(dataset: Dataset) -> DecisionRows:
    base = base_tables(dataset)
    table = dataset.arrow(TABLE, columns=_COLUMNS)
    keys = pd.Index(key_strings(base.keys).to_numpy(zero_copy_only=False))
    probe = key_strings(table).to_numpy(zero_copy_only=False) if table.num_rows else np.zeros(0, object)
    hand = keys.get_indexer(probe).astype(np.int64)
    seat = _ints(table, "seat", -1)
    seats = base.seats
    row_of_slot = np.full(4 * len(base.hands) + 1, -1, dtype=np.int64)
    seat_slots = seats["hand_id"].to_numpy() * 4 + seats["seat"].to_numpy().astype(np.int64)
    row_of_slot[seat_slots] = np.arange(len(seats))
    ok = (hand >= 0) & (seat >= 0) & (seat < 4)
    slot = np.where(ok, hand * 4 + seat, 4 * len(base.hands))
    seat_row = row_of_slot[slot]
    keep = seat_row >= 0  # rows of hands no longer in the dataset are left out
    kind = np.asarray(table.column("kind").to_pylist(), dtype=object)[keep]
    before = _ints(table, "shanten_before", -99)[keep]
    kept = _floats(table, "useful_kept")[keep]
    best = _floats(table, "useful_best")[keep]
    texts = np.asarray([t or "" for t in table.column("flags").to_pylist()], dtype=object)[keep]
    seat_row = seat_row[keep]
    flags = {}
    for name in ("inefficient", "shanten_loss", "missed_win", "deal_in", "unsafe", "call_worse"):
        flags[name] = np.fromiter((name in t.split(",") for t in texts), dtype=bool, count=len(texts))
    return DecisionRows(seat_row, kind, before != -99, best - kept, flags)


def _ints(table: pa.Table, name: str, fill: int) -> np.ndarray:
    col = table.column(name).to_pandas()
    return col.fillna(fill).to_numpy().astype(np.int64)


def _floats(table: pa.Table, name: str) -> np.ndarray:
    return table.column(name).to_pandas().to_numpy(dtype=float, na_value=np.nan)


def _frame(ds: DatasetLike, rows: DecisionRows, mask: np.ndarray) -> pd.DataFrame:
    """The seat rows (group keys) of the selected decisions, one row per decision."""
    seats = base_tables(ds).seats
    frame = seats.iloc[rows.seat_row[mask]].reset_index(drop=True)
    # each seat-hand counted once among the selected rows
    sel = rows.seat_row[mask]
    first = np.zeros(len(sel), dtype=np.int64)
    if len(sel):
        _, where = np.unique(sel, return_index=True)
        first[where] = 1
    frame["hands"] = first
    return frame


def _counts(ds: DatasetLike, per_hand: bool) -> pd.DataFrame | None:
    """The decisions counters (decision_counts), or None to compute per hand: when asked, or
    when the table's rows are out of the dataset's order. StatsError without the table."""
    dataset = as_dataset(ds)
    if not dataset.has_table(TABLE):
        raise _missing(dataset)
    return None if per_hand else decision_counts(dataset)


def _rate(metric: str, select: str, hit: str | None, negate: bool = False) -> Callable[..., pd.DataFrame]:
    """A rate metric over the selected decision rows: rows flagged ``hit`` (or not, ``negate``).

    From the decisions counters summed part by part; ``per_hand`` joins each decision to its
    seat row instead (what is done when the table's rows are out of the dataset's order)."""

    def compute(ds: DatasetLike, by: Iterable[str] | str | None = None,
                per_hand: bool = False) -> pd.DataFrame:
        keys = normalize_by(by)
        counts = _counts(ds, per_hand)
        if counts is not None:
            # only the groups with a selected decision: the per-hand rows have no others
            frame = counts[counts[f"{select}_rows"].to_numpy() > 0]
            return rate_rows(frame, metric, keys, metric, f"{select}_rows", f"{select}_hands")
        rows = decision_rows(ds)
        if select == "discard":
            mask = (rows.kind == "discard") & rows.judged
        elif select == "discard_all":
            mask = rows.kind == "discard"
        elif select == "claim":
            mask = (rows.kind == "claim") & rows.judged
        else:
            mask = rows.judged
        frame = _frame(ds, rows, mask)
        flag = rows.flags[hit][mask] if hit is not None else np.zeros(int(mask.sum()), bool)
        numerator = (~flag if negate else flag).astype(np.int64)
        return rate_rows(frame, metric, keys, numerator, np.ones(len(frame), np.int64))

    return compute


def useful_lost(ds: DatasetLike, by: Iterable[str] | str | None = None,
                per_hand: bool = False) -> pd.DataFrame:
    """Mean useful tiles lost per judged discard: the best discard's useful tiles minus the
    tiles the discard made kept. From the decisions counters; ``per_hand`` as the rates'."""
    keys = normalize_by(by)
    counts = _counts(ds, per_hand)
    if counts is not None:
        frame = counts[counts["discard_rows"].to_numpy() > 0]
        return mean_rows_from_sums(frame, "useful_lost", keys, "lost_sum", "lost_sq", "lost_n",
                                   "discard_hands")
    rows = decision_rows(ds)
    mask = (rows.kind == "discard") & rows.judged
    frame = _frame(ds, rows, mask)
    lost = rows.useful_lost[mask]
    return mean_rows(frame, "useful_lost", keys, lost, ~np.isnan(lost))


COMPUTE = {
    "efficiency_rate": _rate("efficiency_rate", *HITS["efficiency_rate"]),
    "useful_lost": useful_lost,
    **{metric: _rate(metric, *HITS[metric]) for metric in ("missed_win_rate", "danger_rate", "unsafe_rate",
                                                            "call_gain_rate")},
}
DECISION_METRICS = tuple(COMPUTE)
