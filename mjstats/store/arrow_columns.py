"""Arrow arrays built from numpy buffers and encoded strings, for the ingest's hot paths.

``pa.array`` checks every input for pandas objects, and its first call imports pandas (~0.4 CPU s
a command that never uses it). These builders hand Arrow the buffers themselves
(``pa.Array.from_buffers``): the arrays equal those ``pa.array`` gives for the same values,
type and nulls, and building them skips the per-value conversion.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyarrow as pa

__all__ = [
    "booleans",
    "column",
    "numbers",
    "repeated_string",
    "repeated_strings",
    "string_lists",
    "strings",
    "table_from_columns",
]

_NUMPY_TYPES = {
    pa.int8(): np.int8,
    pa.int16(): np.int16,
    pa.int32(): np.int32,
    pa.int64(): np.int64,
}
_MAX_OFFSET = 2**31 - 1  # string offsets are int32


def _validity(valid: np.ndarray | None) -> tuple[pa.Buffer | None, int]:
    """The validity bitmap of a mask (True: a value) and the null count; no bitmap without nulls."""
    if valid is None:
        return None, 0
    nulls = len(valid) - int(np.count_nonzero(valid))
    if nulls == 0:
        return None, 0
    return pa.py_buffer(np.packbits(valid, bitorder="little")), nulls


def numbers(
    values: np.ndarray | Sequence[int], type: pa.DataType, valid: np.ndarray | None = None
) -> pa.Array:
    """An integer column of ``type`` (int8 ... int64); ``valid`` False marks a null."""
    data = np.ascontiguousarray(values, dtype=_NUMPY_TYPES[type])
    bitmap, nulls = _validity(valid)
    return pa.Array.from_buffers(type, len(data), [bitmap, pa.py_buffer(data)], null_count=nulls)


def booleans(values: np.ndarray | Sequence[bool]) -> pa.Array:
    """A bool column without nulls."""
    bits = np.packbits(np.asarray(values, dtype=np.bool_), bitorder="little")
    return pa.Array.from_buffers(pa.bool_(), len(values), [None, pa.py_buffer(bits)], null_count=0)


def strings(values: Sequence[str | None]) -> pa.Array:
    """A string column; None is a null."""
    n = len(values)
    valid = None
    if None in values:
        valid = np.fromiter((v is not None for v in values), np.bool_, n)
        values = [v or "" for v in values]
    joined = "".join(values)  # type: ignore[arg-type]  # None replaced above
    if joined.isascii():  # a character a byte: the lengths are the strings' own
        data, pieces = joined.encode("ascii"), values
    else:
        pieces = [v.encode("utf-8") for v in values]  # type: ignore[union-attr]
        data = b"".join(pieces)  # type: ignore[arg-type]
    offsets = np.zeros(n + 1, np.int64)
    np.cumsum(np.fromiter(map(len, pieces), np.int64, n), out=offsets[1:])
    if offsets[-1] > _MAX_OFFSET:
        raise ValueError(f"{offsets[-1]:,} bytes of strings are more than one Arrow string column holds")
    bitmap, nulls = _validity(valid)
    buffers = [bitmap, pa.py_buffer(offsets.astype(np.int32)), pa.py_buffer(data)]
    return pa.Array.from_buffers(pa.string(), n, buffers, null_count=nulls)


def repeated_string(value: str, n: int) -> pa.Array:
    """A string column holding ``value`` ``n`` times."""
    data = value.encode("utf-8")
    if len(data) * n > _MAX_OFFSET:
        raise ValueError(f"{len(data) * n:,} bytes of strings are more than one Arrow string column holds")
    offsets = (np.arange(n + 1, dtype=np.int64) * len(data)).astype(np.int32)
    buffers = [None, pa.py_buffer(offsets), pa.py_buffer(data * n)]
    return pa.Array.from_buffers(pa.string(), n, buffers, null_count=0)


def string_lists(rows: Sequence[Sequence[str]]) -> pa.Array:
    """A ``list<string>`` column without nulls (lists or strings)."""
    offsets = np.zeros(len(rows) + 1, np.int32)
    np.cumsum(np.fromiter(map(len, rows), np.int64, len(rows)), out=offsets[1:])
    items = strings([item for row in rows for item in row])
    return pa.ListArray.from_arrays(numbers(offsets, pa.int32()), items)


def repeated_strings(values: Sequence[str], counts: np.ndarray) -> pa.Array:
    """A string column holding each of ``values`` its count of times, in order (an event's
    match id, repeated for each event of the hand)."""
    encoded = [v.encode("utf-8") for v in values]
    lengths = np.fromiter(map(len, encoded), np.int64, len(encoded))
    offsets = np.zeros(int(counts.sum()) + 1, np.int64)
    np.cumsum(np.repeat(lengths, counts), out=offsets[1:])
    if offsets[-1] > _MAX_OFFSET:
        raise ValueError(f"{offsets[-1]:,} bytes of strings are more than one Arrow string column holds")
    data = b"".join(map(bytes.__mul__, encoded, counts.tolist()))
    buffers = [None, pa.py_buffer(offsets.astype(np.int32)), pa.py_buffer(data)]
    return pa.Array.from_buffers(pa.string(), len(offsets) - 1, buffers, null_count=0)


def column(values: Sequence[object], type: pa.DataType) -> pa.Array:
    """A column of ``type`` from Python values, None a null: what ``pa.array(values, type)`` gives,
    built from buffers for strings, integers and bools (any other type is left to ``pa.array``)."""
    if type == pa.string():
        return strings(values)  # type: ignore[arg-type]
    if type in _NUMPY_TYPES or type == pa.bool_():
        valid = None
        if None in values:
            valid = np.fromiter((v is not None for v in values), np.bool_, len(values))
            values = [0 if v is None else v for v in values]
        if type == pa.bool_():
            bits = np.packbits(np.asarray(values, dtype=np.bool_), bitorder="little")
            bitmap, nulls = _validity(valid)
            return pa.Array.from_buffers(type, len(values), [bitmap, pa.py_buffer(bits)], null_count=nulls)
        return numbers(values, type, valid)  # type: ignore[arg-type]
    return pa.array(values, type)


def table_from_columns(columns: dict[str, Sequence[object]], schema: pa.Schema) -> pa.Table:
    """``pa.Table.from_pydict(columns, schema=schema)`` built with :func:`column`: the derived
    tables the audit and decisions workers make, without the pandas import ``pa.array`` costs."""
    return pa.Table.from_arrays([column(columns[f.name], f.type) for f in schema], schema=schema)
