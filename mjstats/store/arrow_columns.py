"""Arrow arrays built from numpy buffers and encoded strings, and read back the same way.

``pa.array``, ``pa.scalar``, ``Array.to_numpy`` and ``Schema.empty_table`` import pandas on their
first call (~0.4 CPU s a command that never uses it). These builders hand Arrow the buffers
themselves (``pa.Array.from_buffers``): the arrays equal those ``pa.array`` gives for the same
values, type and nulls, and building them skips the per-value conversion. The readers
(:func:`int_values`, :func:`ints_or_none`, :func:`list_offsets`) view an integer column's buffers
as numpy arrays, which is what ``to_numpy`` does, without its import.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pyarrow as pa

__all__ = [
    "booleans",
    "column",
    "dictionary_encoded",
    "empty_table",
    "int_values",
    "ints_or_none",
    "keep_rows",
    "list_lengths",
    "list_offsets",
    "numbers",
    "repeated_string",
    "repeated_strings",
    "scattered",
    "string_lists",
    "string_scalar",
    "strings",
    "strings_at",
    "table_from_columns",
    "take",
    "valid_mask",
]

_NUMPY_TYPES = {
    pa.int8(): np.int8,
    pa.int16(): np.int16,
    pa.int32(): np.int32,
    pa.int64(): np.int64,
}
_MAX_OFFSET = 2**31 - 1  # string offsets are int32
_STRING_LIST = pa.list_(pa.string())


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


def strings_at(n: int, at: np.ndarray, values: Sequence[bytes]) -> pa.Array:
    """A string column of ``n`` rows, null but at the rows ``at`` (increasing), which hold
    ``values`` (UTF-8): a mostly-null column built in the time of its few values, not its rows."""
    lengths = np.zeros(n, np.int64)
    lengths[at] = np.fromiter(map(len, values), np.int64, len(values))
    offsets = np.zeros(n + 1, np.int64)
    np.cumsum(lengths, out=offsets[1:])
    if offsets[-1] > _MAX_OFFSET:
        raise ValueError(f"{offsets[-1]:,} bytes of strings are more than one Arrow string column holds")
    valid = np.zeros(n, np.bool_)
    valid[at] = True
    bitmap, nulls = _validity(valid)
    buffers = [bitmap, pa.py_buffer(offsets.astype(np.int32)), pa.py_buffer(b"".join(values))]
    return pa.Array.from_buffers(pa.string(), n, buffers, null_count=nulls)


def repeated_string(value: str, n: int) -> pa.Array:
    """A string column holding ``value`` ``n`` times."""
    data = value.encode("utf-8")
    if len(data) * n > _MAX_OFFSET:
        raise ValueError(f"{len(data) * n:,} bytes of strings are more than one Arrow string column holds")
    offsets = (np.arange(n + 1, dtype=np.int64) * len(data)).astype(np.int32)
    buffers = [None, pa.py_buffer(offsets), pa.py_buffer(data * n)]
    return pa.Array.from_buffers(pa.string(), n, buffers, null_count=0)


def _list_layout(
    rows: Sequence[Sequence[Any] | None], offset_type: type[np.signedinteger]
) -> tuple[Sequence[Sequence[Any]], np.ndarray | None, np.ndarray]:
    """A list column's rows with null lists as empty ones, its validity (None: no null list)
    and its offsets (``n + 1`` of ``offset_type``)."""
    n = len(rows)
    valid = None
    if None in rows:
        valid = np.fromiter((r is not None for r in rows), np.bool_, n)
        rows = [r or () for r in rows]
    offsets = np.zeros(n + 1, offset_type)
    np.cumsum(np.fromiter(map(len, rows), np.int64, n), out=offsets[1:])  # type: ignore[arg-type]
    return rows, valid, offsets  # type: ignore[return-value]


def string_lists(rows: Sequence[Sequence[str] | None]) -> pa.Array:
    """A ``list<string>`` column (lists or tuples of strings); None is a null list."""
    n = len(rows)
    rows, valid, offsets = _list_layout(rows, np.int32)
    items = strings([item for row in rows for item in row])  # type: ignore[union-attr]
    bitmap, nulls = _validity(valid)
    return pa.Array.from_buffers(
        _STRING_LIST, n, [bitmap, pa.py_buffer(offsets)], null_count=nulls, children=[items]
    )


def _lists(rows: Sequence[Sequence[object] | None], type: pa.ListType) -> pa.Array:
    """A list column of integers or of string lists (a hand's wall, dice, meta pairs); None is a
    null list, and a None item a null item."""
    n = len(rows)
    rows, valid, offsets = _list_layout(rows, np.int64)
    if offsets[-1] > _MAX_OFFSET:
        raise ValueError(f"{offsets[-1]:,} list items are more than one Arrow list column holds")
    items = column([item for row in rows for item in row], type.value_type)  # type: ignore[union-attr]
    bitmap, nulls = _validity(valid)
    buffers = [bitmap, pa.py_buffer(offsets.astype(np.int32))]
    return pa.Array.from_buffers(type, n, buffers, null_count=nulls, children=[items])


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
    if type == _STRING_LIST:
        return string_lists(values)  # type: ignore[arg-type]
    if isinstance(type, pa.ListType) and (type.value_type in _NUMPY_TYPES or type.value_type == _STRING_LIST):
        return _lists(values, type)  # type: ignore[arg-type]
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


def empty_table(schema: pa.Schema) -> pa.Table:
    """``schema.empty_table()`` (no rows, the schema and its metadata) without its pandas import."""
    return pa.Table.from_arrays([pa.nulls(0, f.type) for f in schema], schema=schema)


def _kernel(name: str, *args: Any) -> Any:
    """Arrow's C++ compute kernel ``name`` through pyarrow's compiled compute module.
    ``Array.take``, ``Table.filter`` and the like go through ``pyarrow.compute``, whose import
    builds a Python wrapper and docstring for each of its ~290 functions (~0.1 s a command);
    ``_compute.call_function`` is the call those wrappers make. A pyarrow without it: the public
    module's."""
    try:
        from pyarrow._compute import call_function
    except ImportError:  # pragma: no cover - a pyarrow whose compiled module is laid out otherwise
        import pyarrow.compute as pc

        call_function = pc.call_function
    return call_function(name, list(args))


def take(values: pa.Array, indices: pa.Array) -> pa.Array:
    """``values[indices]`` (Arrow's ``take``) without pyarrow.compute's import (:func:`_kernel`):
    a Botzone ingest's one gather paid that import at every start."""
    return _kernel("take", values, indices)


def keep_rows(table: pa.Table, keep: np.ndarray) -> pa.Table:
    """The rows of ``table`` where the numpy bool mask ``keep`` is true (``Table.filter``) with
    neither pyarrow.compute's import nor ``pa.array``'s pandas import."""
    return _kernel("filter", table, booleans(keep))


def dictionary_encoded(values: pa.ChunkedArray) -> pa.ChunkedArray:
    """``values.dictionary_encode()`` (int32 indices, as a Parquet read with ``read_dictionary``
    gives them) without pyarrow.compute's import (:func:`_kernel`)."""
    return _kernel("dictionary_encode", values)


def string_scalar(value: str | None) -> pa.Scalar:
    """A string scalar (None: a null one) for a compute call, built without ``pa.scalar``'s
    pandas import (a plain Python value given to a compute function goes through it)."""
    return strings([value])[0]


def _chunks(values: pa.ChunkedArray | pa.Array) -> list[pa.Array]:
    return values.chunks if isinstance(values, pa.ChunkedArray) else [values]


def _chunk_valid(chunk: pa.Array) -> np.ndarray | None:
    """A chunk's validity as a bool mask (True: a value); None when it has no nulls."""
    if chunk.null_count == 0:
        return None
    if chunk.null_count == len(chunk) and chunk.buffers()[0] is None:  # a null-typed or all-null chunk
        return np.zeros(len(chunk), np.bool_)
    bits = np.frombuffer(chunk.buffers()[0], np.uint8)
    unpacked = np.unpackbits(bits, count=chunk.offset + len(chunk), bitorder="little")
    return unpacked[chunk.offset :].view(np.bool_)


def valid_mask(values: pa.ChunkedArray | pa.Array) -> np.ndarray | None:
    """Where a column holds a value (a bool mask); None when it holds no null."""
    if values.null_count == 0:
        return None
    masks = [
        np.ones(len(c), np.bool_) if (m := _chunk_valid(c)) is None else m for c in _chunks(values)
    ]
    return np.concatenate(masks) if masks else np.zeros(0, np.bool_)


def _chunk_ints(chunk: pa.Array) -> np.ndarray:
    """An integer chunk's values as a numpy view of its data buffer (nulls: whatever it holds)."""
    dtype = _NUMPY_TYPES[chunk.type]
    data = chunk.buffers()[1]
    if data is None:  # no rows
        return np.zeros(len(chunk), dtype)
    return np.frombuffer(data, dtype, count=chunk.offset + len(chunk))[chunk.offset :]


def int_values(values: pa.ChunkedArray | pa.Array, fill: int = 0) -> np.ndarray:
    """An integer column (int8 ... int64) as a numpy array of its type, ``fill`` where null:
    ``fill_null(values, fill).to_numpy()`` without pandas or a compute call."""
    parts = [_chunk_ints(c) for c in _chunks(values)]
    if values.null_count == 0 and len(parts) == 1:
        return parts[0]  # a read-only view of Arrow's buffer
    out = np.concatenate(parts) if parts else np.zeros(0, _NUMPY_TYPES[values.type])  # a copy
    if values.null_count:
        valid = valid_mask(values)
        assert valid is not None
        out[~valid] = fill
    return out


def ints_or_none(values: pa.ChunkedArray | pa.Array) -> list[int | None]:
    """An integer column as Python ints and None: ``to_pylist()``, several times faster (no
    scalar per value)."""
    n, nulls = len(values), values.null_count
    if nulls == 0:
        return int_values(values).tolist()
    if nulls == n:
        return [None] * n
    valid = valid_mask(values)
    assert valid is not None
    numbers_ = int_values(values)
    if 2 * nulls < n:
        out: list[int | None] = numbers_.tolist()
        for i in np.flatnonzero(~valid).tolist():
            out[i] = None
        return out
    return scattered(numbers_, valid, None)


def scattered(values: np.ndarray, valid: np.ndarray, fill: Any) -> list[Any]:
    """``values`` as Python ints where ``valid``, ``fill`` elsewhere: for a mostly-null column,
    only its few valid rows are converted."""
    out: list[Any] = [fill] * len(values)
    where = np.flatnonzero(valid)
    for i, v in zip(where.tolist(), values[where].tolist(), strict=True):
        out[i] = v
    return out


def list_lengths(values: pa.ChunkedArray | pa.Array) -> tuple[np.ndarray, pa.Array]:
    """A list column's row lengths (int64; a null list: none) and its rows' items flattened:
    ``list_value_length`` and ``list_flatten`` without pyarrow.compute."""
    lengths = []
    items = []
    for chunk in _chunks(values):
        bounds = _chunk_ints(chunk.offsets).astype(np.int64)  # the chunk's slice of them
        size = np.diff(bounds)
        valid = _chunk_valid(chunk)
        if valid is not None and size[~valid].any():
            # a null list over items (Arrow allows it): they are not the column's
            items.append(chunk.flatten())  # (imports pyarrow.compute)
            size[~valid] = 0
        elif len(chunk):
            # its items are one run of the child array (``flatten`` without its compute import)
            items.append(chunk.values.slice(int(bounds[0]), int(bounds[-1] - bounds[0])))
        lengths.append(size)
    sizes = np.concatenate(lengths) if lengths else np.zeros(0, np.int64)
    if len(items) == 1:
        return sizes, items[0]
    flat = pa.concat_arrays(items) if items else pa.nulls(0, values.type.value_type)
    return sizes, flat


def list_offsets(values: pa.ChunkedArray | pa.Array) -> tuple[list[int], pa.Array]:
    """A list column's row offsets into its flattened items (a null list: no items) and those
    items (:func:`list_lengths`, the lengths summed)."""
    sizes, flat = list_lengths(values)
    offsets = np.zeros(len(sizes) + 1, np.int64)
    np.cumsum(sizes, out=offsets[1:])
    return offsets.tolist(), flat
