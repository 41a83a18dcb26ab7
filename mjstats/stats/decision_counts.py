"""The decisions metrics' additive counters per group, summed part file by part file.

Each part is scanned (the base scan: the seats' group keys) and given the ``decisions`` rows of
its hands (:class:`part_rows.RowsByPart`: ``mjstats decisions`` writes them in the dataset's
order). The part's decisions are reduced at once to counters per group of the deciding seat's
row and dropped, so what is kept grows with the groups, never with the hands or decisions; the
metrics grouped from them are the ones the per-hand join (``decisions.decision_rows``) gives,
digit for digit (the useful tiles lost are whole numbers). When the rows do not line up with
the parts, :func:`decision_counts` says so and the metrics are computed per hand.

One frame, keyed by the group keys. Per selection of decisions (``discard``: judged discards;
``discard_all``: every discard; ``claim``: judged claims; ``judged``: every judged decision):
``<selection>_rows`` (decisions) and ``<selection>_hands`` (seat-hands with one or more). Per
metric, the rows it counts (:data:`HITS`); for useful_lost, ``lost_n``, ``lost_sum``, ``lost_sq``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from mjstats.stats.grouping import GROUP_KEYS
from mjstats.stats.part_rows import KEY, RowsByPart, derived_files, reported_parts
from mjstats.stats.part_sums import Columns, Layout, summed_parts, table_sums
from mjstats.stats.parts import DatasetLike, as_dataset, int_column
from mjstats.stats.tables import cached_per_version, key_strings, scan_one_part, scan_parts_in_order
from mjstats.store import Dataset

__all__ = ["FLAGS", "HITS", "SELECTIONS", "decision_counts"]

TABLE = "decisions"
FLAGS = ("inefficient", "shanten_loss", "missed_win", "deal_in", "unsafe", "call_worse")
SELECTIONS = ("discard", "discard_all", "claim", "judged")
# metric -> (selection, flag, counted when the flag is not set)
HITS = {
    "efficiency_rate": ("discard", "inefficient", True),
    "missed_win_rate": ("judged", "missed_win", False),
    "danger_rate": ("discard_all", "deal_in", False),
    "unsafe_rate": ("discard_all", "unsafe", False),
    "call_gain_rate": ("claim", "call_worse", True),
}
_I = np.int64
_F = np.float64
_COUNTERS = {**{f"{s}_{c}": _I for s in SELECTIONS for c in ("rows", "hands")}, **dict.fromkeys(HITS, _I),
             "lost_n": _I, "lost_sum": _F, "lost_sq": _F}  # fmt: skip
LAYOUT: Layout = {"decisions": ((), _COUNTERS)}


def decision_counts(ds: DatasetLike, progress: Callable[[int], None] | None = None) -> pd.DataFrame | None:
    """The decisions counters of a dataset's live version (built once per version, then cached;
    the dataset has a decisions table); None when its rows do not line up with the dataset's
    parts (the metrics are then computed per hand). ``progress(hands)`` reports the scan."""
    dataset = as_dataset(ds)
    return cached_per_version("decision_counts", dataset, lambda: _build(dataset, progress))


def _read(batch: pa.RecordBatch, _names: list[str]) -> pa.Table:
    return pa.table({
        "match_id": batch["match_id"], "hand_no": batch["hand_no"],
        "seat": pc.cast(batch["seat"], pa.int64()), "kind": pc.cast(batch["kind"], pa.string()),
        "shanten_before": pc.cast(batch["shanten_before"], pa.int64()),
        "useful_kept": pc.cast(batch["useful_kept"], pa.float64()),
        "useful_best": pc.cast(batch["useful_best"], pa.float64()),
        "flags": pc.cast(batch["flags"], pa.string()),
    })  # fmt: skip


def _build(ds: Dataset, progress: Callable[[int], None] | None) -> pd.DataFrame | None:
    rows = RowsByPart(derived_files(ds, TABLE), _read)
    scans = reported_parts(scan_parts_in_order(ds, _scan), progress)
    partials = (_part_counts(scanned, rows.take(scanned[2])) for scanned in scans)
    counts = summed_parts(partials, LAYOUT)
    return counts["decisions"] if rows.in_order() else None


def _scan(ds: Dataset, ruleset: str, period: str, part: str) -> tuple[int, Columns, pa.Array]:
    """One part's seats' group keys and hand keys (a scan thread's task)."""
    n, _hands, seat_frames, _fans, keys, _drawn = scan_one_part(ds, ruleset, period, part)
    if n == 0:
        return 0, {}, pa.array([], pa.string())
    return n, {k: seat_frames.cols[k][0] for k in GROUP_KEYS}, key_strings(keys[0])


def _flag(flags: pa.ChunkedArray, name: str) -> np.ndarray:
    """Per row, whether ``name`` is one of its comma-separated flags."""
    hit = pc.match_substring_regex(flags, f"(^|,){name}(,|$)")
    return pc.fill_null(hit, False).to_numpy(zero_copy_only=False).astype(bool)


def _part_counts(scanned: tuple[int, Columns, pa.Array],
                 rows: pa.Table | None) -> tuple[int, dict[str, pd.DataFrame] | None]:
    """One part's decisions reduced to counters by the group keys of the deciding seat's row:
    first summed per seat-hand (a seat-hand counts for a selection when it has a row in it),
    then per group."""
    n, keys, hand_keys = scanned
    if n == 0 or rows is None:
        return n, None
    hand = pc.index_in(rows.column(KEY), value_set=hand_keys).to_numpy(zero_copy_only=False).astype(np.int64)
    seat = int_column(rows, "seat", -1)
    ok = (seat >= 0) & (seat < 4)  # a row without its seat has no seat row (left out per hand too)
    slot = (hand * 4 + seat)[ok]

    def per_seat(values: np.ndarray) -> np.ndarray:
        """A per-row value summed per seat-hand (whole numbers: the float sums are exact)."""
        return np.bincount(slot, weights=values[ok], minlength=4 * n)

    def is_kind(kind: str) -> np.ndarray:
        return pc.fill_null(pc.equal(rows.column("kind"), kind), False).to_numpy(zero_copy_only=False)

    discard, claim = is_kind("discard"), is_kind("claim")
    judged = int_column(rows, "shanten_before", -99) != -99
    selected = {"discard": discard & judged, "discard_all": discard, "claim": claim & judged,
                "judged": judged}
    counters: Columns = {}
    for name, mask in selected.items():
        counted = per_seat(mask).astype(np.int64)
        counters[f"{name}_rows"] = counted
        counters[f"{name}_hands"] = (counted > 0).astype(np.int64)
    for metric, (selection, flag, negate) in HITS.items():
        hit = _flag(rows.column("flags"), flag)
        counters[metric] = per_seat(selected[selection] & (~hit if negate else hit)).astype(np.int64)
    best = rows.column("useful_best").to_numpy(zero_copy_only=False).astype(float)
    kept = rows.column("useful_kept").to_numpy(zero_copy_only=False).astype(float)
    lost = best - kept
    counted = selected["discard"] & ~np.isnan(lost)
    x = np.where(counted, lost, 0.0)
    counters.update(lost_n=per_seat(counted).astype(np.int64), lost_sum=per_seat(x), lost_sq=per_seat(x * x))
    return n, {"decisions": table_sums({**keys, **counters})}
