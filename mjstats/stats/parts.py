"""Reading one part file of the dataset's aligned tables, a few columns at a time.

Ingest writes every table in part files holding the same hands in the same order (hands,
events, wins, fans, payments); the statistics stream the dataset part by part through here.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from mjstats.store import Dataset, open_dataset
from mjstats.store.schema import SCHEMAS

__all__ = ["DatasetLike", "as_dataset", "int_column", "kind_codes", "read_part", "sorted_by"]

DatasetLike = Dataset | str | Path


def as_dataset(ds: DatasetLike) -> Dataset:
    """A Dataset from a Dataset or a dataset folder path."""
    return ds if isinstance(ds, Dataset) else open_dataset(ds)


# String columns read dictionary-encoded: a few distinct values each, six times faster to read.
_DICTIONARY = ("kind", "win_kind", "pattern", "name", "profile")


def read_part(ds: Dataset, table: str, ruleset: str, period: str, part: str,
              columns: tuple[str, ...]) -> pa.Table:
    """Some columns of one part file of an aligned ingest table (empty when the file is absent).
    Low-cardinality string columns come back dictionary-encoded."""
    path = ds.path / table / f"ruleset={ruleset}" / f"period={period}" / part
    if not path.exists():
        empty = SCHEMAS[table].empty_table().select(list(columns))
        return pa.table({c: pc.dictionary_encode(empty.column(c)) if c in _DICTIONARY else empty.column(c)
                         for c in columns})
    dictionary = [c for c in columns if c in _DICTIONARY]
    return pq.read_table(path, columns=list(columns), read_dictionary=dictionary)


def kind_codes(column: pa.ChunkedArray | pa.Array, kinds: tuple[str, ...]) -> np.ndarray:
    """Per row, the index of its value in ``kinds`` (-1 for other values and nulls)."""
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks() if column.num_chunks else pa.array([], column.type)
    if not pa.types.is_dictionary(column.type):
        column = pc.dictionary_encode(column)
    lut = np.array([kinds.index(v) if v in kinds else -1 for v in column.dictionary.to_pylist()] + [-1],
                   dtype=np.int64)
    idx = pc.fill_null(column.indices, len(lut) - 1).to_numpy(zero_copy_only=False).astype(np.int64)
    return lut[idx]


def int_column(table: pa.Table, name: str, fill: int = -1) -> np.ndarray:
    """An integer column as int64 numpy, nulls as ``fill``."""
    return pc.fill_null(table.column(name), fill).to_numpy(zero_copy_only=False).astype(np.int64)


def sorted_by(key: np.ndarray, *columns: np.ndarray) -> tuple[np.ndarray, ...]:
    """Rows sorted by ``key`` (stable; skipped when already sorted, as hand ids mostly are),
    with their other columns."""
    if len(key) > 1 and (key[1:] < key[:-1]).any():
        order = np.argsort(key, kind="stable")
        return key[order], *(c[order] for c in columns)
    return key, *columns
