"""A period's hands as a dataset of their own, so every statistic runs on it unchanged.

``write_slice`` writes a read-only copy of the dataset's live version holding only the hands of
one period (and optionally one ruleset): part files wholly inside the period are hard-linked,
others are filtered row by row on (match_id, hand_no). Derived tables (the audit's) are
filtered the same way; ``rejects`` (undated by nature) and the manifest are kept whole.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from mjstats.report.periods import UNDATED, Period, week_of
from mjstats.store import Dataset, open_dataset
from mjstats.store.schema import HAND_TABLES

__all__ = ["hand_keys", "write_slice"]


def hand_keys(table: pa.Table) -> pa.Array:
    """One string per row naming its hand: match_id and hand_no joined by a unit separator."""
    joined = pc.binary_join_element_wise(
        table.column("match_id"), pc.cast(table.column("hand_no"), pa.string()), "\x1f"
    )
    return joined.combine_chunks() if isinstance(joined, pa.ChunkedArray) else joined


def _link(src: Path, dst: Path) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(src, dst)
    except OSError:  # another file system, or links not allowed: copy instead
        shutil.copy2(src, dst)


def _partition_value(relative: Path, key: str) -> str | None:
    for part in relative.parts:
        if part.startswith(f"{key}="):
            return part.split("=", 1)[1]
    return None


def _month_may_hold(period: Period, month: str) -> bool:
    """Whether a month partition can hold hands of ``period`` (cheap pruning before reading)."""
    if period.kind == "all":
        return True
    if period.kind == "undated":
        return month == UNDATED
    if period.kind == "month":
        return month == period.key
    if month == UNDATED:
        return False
    first, last = period.days  # a week touches at most two months
    return month in (f"{first:%Y-%m}", f"{last:%Y-%m}")


def _selected(hands: pa.Table, period: Period) -> pa.Array:
    """Per row of a hands part: whether the hand is in the period (months are whole partitions)."""
    if period.kind != "week":
        return pa.array([True] * hands.num_rows)
    return pa.array([week_of(s) == period.key for s in hands.column("started_at").to_pylist()])


def write_slice(ds: Dataset, period: Period, ruleset: str | None, dest: Path) -> Dataset:
    """Write the hands of ``period`` (of ``ruleset`` only, if given) under the empty folder
    ``dest`` as a dataset, and open it."""
    version = dest / ds.path.name
    version.mkdir(parents=True)
    kept: list[pa.Array] = []
    for rs, month in ds.partitions("hands"):
        if (ruleset is not None and rs != ruleset) or not _month_may_hold(period, month):
            continue
        sub = Path(f"ruleset={rs}") / f"period={month}"
        for file in sorted((ds.path / "hands" / sub).glob("part-*.parquet")):
            hands = pq.read_table(file, columns=["match_id", "hand_no", "started_at"])
            mask = _selected(hands, period)
            n = pc.sum(mask).as_py() or 0
            if n == 0:
                continue
            keys = hand_keys(hands)
            kept.append(keys.filter(mask))
            for name in HAND_TABLES:
                src = ds.path / name / sub / file.name
                if not src.exists():
                    continue
                if n == hands.num_rows:
                    _link(src, version / name / sub / file.name)
                else:
                    table = pq.read_table(src)
                    rows = pc.is_in(hand_keys(table), value_set=keys.filter(mask))
                    (version / name / sub).mkdir(parents=True, exist_ok=True)
                    pq.write_table(table.filter(rows), version / name / sub / file.name)
    keys = pa.concat_arrays(kept) if kept else pa.array([], pa.string())
    matches = pa.array(sorted({k.split("\x1f", 1)[0] for k in keys.to_pylist()}), pa.string())
    for name in ds.tables:
        if name in HAND_TABLES:
            continue
        folder = ds.path / name
        (version / name).mkdir(parents=True, exist_ok=True)
        sources = sorted(folder.rglob("*.parquet"))
        wrote = False
        for src in sources:
            relative = src.relative_to(folder)
            rs = _partition_value(relative, "ruleset")
            month = _partition_value(relative, "period")
            if (ruleset is not None and rs is not None and rs != ruleset) or (
                month is not None and not _month_may_hold(period, month)
            ):
                continue
            wrote = True
            if name == "rejects" or (period.kind == "all" and ruleset is None):
                _link(src, version / name / relative)
                continue
            table = pq.read_table(src)
            if "hand_no" in table.column_names:
                rows = pc.is_in(hand_keys(table), value_set=keys)
            elif "match_id" in table.column_names:
                rows = pc.is_in(table.column("match_id"), value_set=matches)
            else:
                _link(src, version / name / relative)
                continue
            (version / name / relative).parent.mkdir(parents=True, exist_ok=True)
            pq.write_table(table.filter(rows), version / name / relative)
        if sources and not wrote:  # keep the table's columns readable: one empty file
            relative = sources[0].relative_to(folder)
            (version / name / relative).parent.mkdir(parents=True, exist_ok=True)
            pq.write_table(pq.read_schema(sources[0]).empty_table(), version / name / relative)
    shutil.copy2(ds.path / "manifest.json", version / "manifest.json")
    (dest / "CURRENT").write_text(version.name, encoding="utf-8")
    return open_dataset(dest)
