"""The ingest's Arrow builders give the arrays ``pa.array`` gives for the same values."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjstats.store.arrow_columns import (
    booleans,
    numbers,
    repeated_string,
    repeated_strings,
    string_lists,
    strings,
    strings_at,
)

_text = st.text(max_size=12)  # any Unicode (non-ASCII widens the UTF-8 offsets)
_INT_TYPES = {pa.int8(): 7, pa.int16(): 15, pa.int32(): 31, pa.int64(): 63}


def _same(got: pa.Array, expected: pa.Array) -> None:
    got.validate(full=True)
    assert got.type == expected.type
    assert got.null_count == expected.null_count
    assert got.equals(expected), (got.to_pylist(), expected.to_pylist())


@settings(deadline=None)  # the first pa.array call imports pandas
@given(st.lists(st.one_of(st.none(), _text), max_size=40))
def test_strings_equal_pa_array(values: list[str | None]) -> None:
    _same(strings(values), pa.array(values, pa.string()))


@settings(deadline=None)  # the first pa.array call imports pandas
@given(st.lists(st.one_of(st.none(), _text), max_size=40))
def test_strings_at_equal_pa_array(values: list[str | None]) -> None:
    at = np.array([i for i, v in enumerate(values) if v is not None], np.intp)
    got = strings_at(len(values), at, [v.encode() for v in values if v is not None])
    _same(got, pa.array(values, pa.string()))


@settings(deadline=None)  # the first pa.array call imports pandas
@given(st.lists(st.one_of(st.none(), _text), min_size=1, max_size=12), st.data())
def test_take_equals_array_take(values: list[str | None], data: st.DataObject) -> None:
    """The lane's gather (Arrow's kernel without pyarrow.compute) equals ``Array.take``."""
    from mjstats.store.arrow_columns import take

    picks = data.draw(st.lists(st.integers(0, len(values) - 1), max_size=40))
    source, indices = pa.array(values, pa.string()), pa.array(picks, pa.int64())
    _same(take(source, indices), source.take(indices))


@settings(deadline=None)  # the first pa.array call imports pandas
@given(st.lists(st.tuples(st.one_of(st.none(), _text), st.booleans()), max_size=30))
def test_keep_rows_equals_table_filter(rows: list[tuple[str | None, bool]]) -> None:
    """The ingest's drop of duplicate rows (Arrow's kernel without pyarrow.compute) equals
    ``Table.filter``."""
    from mjstats.store.arrow_columns import keep_rows

    table = pa.table({"s": pa.array([r[0] for r in rows], pa.string())})
    keep = np.array([r[1] for r in rows], np.bool_)
    assert keep_rows(table, keep).equals(table.filter(pa.array(keep.tolist(), pa.bool_())))


@settings(deadline=None)  # the first pa.array call imports pandas
@given(st.sampled_from(sorted(_INT_TYPES, key=str)), st.data())
def test_numbers_with_nulls_equal_pa_array(type_: pa.DataType, data: st.DataObject) -> None:
    bits = _INT_TYPES[type_]
    values = data.draw(st.lists(st.one_of(st.none(), st.integers(-(2**bits), 2**bits - 1)), max_size=40))
    valid = np.array([v is not None for v in values], np.bool_)
    got = numbers([0 if v is None else v for v in values], type_, valid)
    _same(got, pa.array(values, type_))
    _same(numbers([0 if v is None else v for v in values], type_), pa.array([v or 0 for v in values], type_))


@settings(deadline=None)  # the first pa.array call imports pandas
@given(st.lists(st.booleans(), max_size=70))
def test_booleans_equal_pa_array(values: list[bool]) -> None:
    _same(booleans(np.array(values, np.bool_)), pa.array(values, pa.bool_()))


@settings(deadline=None)  # the first pa.array call imports pandas
@given(_text, st.integers(0, 30))
def test_repeated_string_equals_pa_array(value: str, n: int) -> None:
    _same(repeated_string(value, n), pa.array([value] * n, pa.string()))


@settings(deadline=None)  # the first pa.array call imports pandas
@given(st.lists(st.tuples(_text, st.integers(0, 6)), max_size=20))
def test_repeated_strings_equal_pa_array(pairs: list[tuple[str, int]]) -> None:
    values = [v for v, _ in pairs]
    counts = np.array([c for _, c in pairs], np.int64)
    expected = [v for v, c in pairs for _ in range(c)]
    _same(repeated_strings(values, counts), pa.array(expected, pa.string()))


@settings(deadline=None)  # the first pa.array call imports pandas
@given(st.lists(st.lists(_text, max_size=5), max_size=20))
def test_string_lists_equal_pa_array(rows: list[list[str]]) -> None:
    _same(string_lists(rows), pa.array(rows, pa.list_(pa.string())))


def test_ingest_builders_do_not_import_pandas() -> None:
    """What the builders call imports neither pandas nor pyarrow.compute (a fresh interpreter)."""
    import subprocess
    import sys

    code = (
        "import sys, numpy as np\n"
        "from mjstats.store.arrow_columns import numbers, strings, string_lists, booleans\n"
        "numbers(np.arange(3), __import__('pyarrow').int8(), np.array([1, 0, 1], bool))\n"
        "strings(['a', None]); string_lists([['x'], []]); booleans(np.ones(2, bool))\n"
        "print('pandas' in sys.modules, 'pyarrow.compute' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


@pytest.mark.parametrize("extra", [[], ["--audit", "-q"]])
def test_ingest_command_imports_no_pandas(tmp_path, extra) -> None:  # type: ignore[no-untyped-def]
    """``mjstats ingest`` of Botzone text never imports pandas (~0.4 CPU s of start-up): the lane
    and the writer build their columns from buffers, the reader imports pyarrow.dataset late; the
    lane's one gather (``take``) skips pyarrow.compute's import (~0.1 s). With ``--audit`` too
    (its parts kept in memory are dictionary-encoded as the file read gives them, by the kernel)."""
    import subprocess
    import sys
    from pathlib import Path

    sample = Path(__file__).resolve().parent.parent / "data" / "botzone" / "sample.txt"
    argv = ["mjstats", "ingest", "--format", "botzone", str(sample), "--out", str(tmp_path / "ds"), *extra]
    code = (
        "import runpy, sys\n"
        f"sys.argv = {argv!r}\n"
        "try:\n"
        "    runpy.run_module('mjstats', run_name='__main__')\n"
        "except SystemExit as stop:\n"
        "    assert not stop.code, stop.code\n"
        "print('pandas' in sys.modules, 'pyarrow.dataset' in sys.modules, 'pyarrow.compute' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split()[-3:] == ["False", "False", "False"], out.stdout


def _values_of(type_: pa.DataType) -> st.SearchStrategy:
    if isinstance(type_, pa.ListType):  # a list may be null, and so may its items
        return st.lists(st.one_of(st.none(), _values_of(type_.value_type)), max_size=4)
    if type_ == pa.string():
        return _text
    if type_ == pa.bool_():
        return st.booleans()
    bits = _INT_TYPES[type_]
    return st.integers(-(2**bits), 2**bits - 1)


@settings(deadline=None, max_examples=80)
@given(st.data())
def test_table_from_columns_equals_from_pydict(data: st.DataObject) -> None:
    """Every derived table the audit writes and every ingest table (lists of integers and of
    string lists included), with nulls anywhere, as ``from_pydict`` builds it."""
    from mjstats.store.arrow_columns import table_from_columns
    from mjstats.store.derived_schema import DERIVED_SCHEMAS
    from mjstats.store.schema import SCHEMAS

    schemas = {**DERIVED_SCHEMAS, **{f"ingest {k}": v for k, v in SCHEMAS.items()}}
    name = data.draw(st.sampled_from(sorted(schemas)))
    schema = schemas[name]
    rows = data.draw(st.integers(0, 12))
    columns = {
        f.name: data.draw(st.lists(st.one_of(st.none(), _values_of(f.type)), min_size=rows, max_size=rows))
        for f in schema
    }
    got = table_from_columns(columns, schema)
    got.validate(full=True)
    assert got.equals(pa.Table.from_pydict(columns, schema=schema), check_metadata=True)


def test_a_value_out_of_its_columns_range_is_refused() -> None:
    from mjstats.store.arrow_columns import table_from_columns

    schema = pa.schema([("seat", pa.int8())])
    try:
        table_from_columns({"seat": [1, 300]}, schema)
    except (OverflowError, ValueError):
        return
    raise AssertionError("300 was taken into an int8 column")


# --- the readers: integer columns and list offsets from buffers, as pyarrow gives them ----------
@st.composite
def _chunked_ints(draw: st.DrawFn) -> pa.ChunkedArray:
    """An integer column of a few chunks, each possibly a slice of a larger array, with nulls."""
    type_ = draw(st.sampled_from(sorted(_INT_TYPES, key=str)))
    bits = _INT_TYPES[type_]
    chunks = []
    for _ in range(draw(st.integers(0, 3))):
        values = draw(st.lists(st.one_of(st.none(), st.integers(-(2**bits), 2**bits - 1)), max_size=30))
        start = draw(st.integers(0, len(values)))
        stop = draw(st.integers(start, len(values)))
        chunks.append(pa.array(values, type_).slice(start, stop - start))
    return pa.chunked_array(chunks, type_)


@settings(deadline=None)
@given(_chunked_ints(), st.integers(-3, 3))
def test_int_readers_equal_to_pylist(column: pa.ChunkedArray, fill: int) -> None:
    from mjstats.store.arrow_columns import int_values, ints_or_none, valid_mask

    expected = column.to_pylist()
    assert ints_or_none(column) == expected
    assert int_values(column, fill).tolist() == [fill if v is None else v for v in expected]
    mask = valid_mask(column)
    assert (mask is None) == (None not in expected)
    if mask is not None:
        assert mask.tolist() == [v is not None for v in expected]
    for chunk in column.chunks:  # a plain array reads the same
        assert ints_or_none(chunk) == chunk.to_pylist()


@settings(deadline=None)
@given(st.lists(st.one_of(st.none(), st.lists(st.integers(-128, 127), max_size=4)), max_size=25), st.data())
def test_list_offsets_equal_lengths_and_flatten(rows: list[list[int] | None], data: st.DataObject) -> None:
    """``list_offsets`` of a sliced, chunked list column: the offsets of its rows' lengths (a
    null list has none) and their items, what ``list_value_length`` and ``list_flatten`` give."""
    from mjstats.store.arrow_columns import list_offsets

    array = pa.array(rows, pa.list_(pa.int8()))
    start = data.draw(st.integers(0, len(rows)))
    stop = data.draw(st.integers(start, len(rows)))
    column = pa.chunked_array([array.slice(start, stop - start), array], array.type)
    offsets, items = list_offsets(column)
    kept = rows[start:stop] + rows
    lengths = [len(r) if r is not None else 0 for r in kept]
    assert offsets == [sum(lengths[:i]) for i in range(len(kept) + 1)]
    assert items.to_pylist() == [v for r in kept if r is not None for v in r]


@settings(deadline=None, max_examples=40)
@given(st.data())
def test_string_lists_with_nulls_equal_pa_array(data: st.DataObject) -> None:
    rows = data.draw(st.lists(st.one_of(st.none(), st.lists(_text, max_size=4)), max_size=20))
    _same(string_lists(rows), pa.array(rows, pa.list_(pa.string())))


def test_empty_table_equals_the_schemas() -> None:
    """Every stored table's empty form, as ``Schema.empty_table`` gives it (metadata included)."""
    from mjstats.store.arrow_columns import empty_table
    from mjstats.store.derived_schema import DERIVED_SCHEMAS
    from mjstats.store.schema import SCHEMAS

    for schema in [*SCHEMAS.values(), *DERIVED_SCHEMAS.values(), SCHEMAS["hands"].with_metadata({"k": "v"})]:
        got = empty_table(schema)
        got.validate(full=True)
        assert got.equals(schema.empty_table(), check_metadata=True)
        assert got.schema.equals(schema, check_metadata=True)


def test_string_scalar_selects_as_a_python_value_does() -> None:
    import pyarrow.compute as pc

    from mjstats.store.arrow_columns import string_scalar

    column = pa.chunked_array([pa.array(["a", None, "b", "a"])])
    for value in ("a", "b", "c", None):
        assert pc.equal(column, string_scalar(value)).equals(pc.equal(column, pa.scalar(value, pa.string())))


def _runs_without_pandas(code: str) -> list[str]:
    """The last line ``code`` prints in a fresh interpreter, split (it ends by printing checks)."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return out.stdout.strip().splitlines()[-1].split()


def test_audit_and_ingest_import_no_pandas(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """``ingest_sources`` then ``audit_dataset`` on a tiny Botzone dataset, in one fresh process,
    leave pandas (and pyarrow.dataset) unimported: the read-back views the columns' buffers, the
    empty tables and compute calls take no Python scalar (~0.4 CPU s of each command's start-up)."""
    from pathlib import Path

    sample = Path(__file__).resolve().parent.parent / "data" / "botzone" / "sample.txt"
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from mjstats.store import SourceInput, ingest_sources\n"
        f"ingest_sources([SourceInput(Path({str(sample)!r}), 'botzone')], Path({str(tmp_path / 'ds')!r}))\n"
        "after_ingest = 'pandas' in sys.modules\n"
        "import mjstats.audit\n"
        f"summary = mjstats.audit.audit_dataset({str(tmp_path / 'ds')!r}, jobs=1)\n"
        "assert summary.hands > 0, summary\n"
        "print(after_ingest, 'pandas' in sys.modules, 'pyarrow.dataset' in sys.modules)\n"
    )
    assert _runs_without_pandas(code) == ["False", "False", "False"]


def test_audit_command_imports_no_pandas(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """``mjstats audit --jobs 1`` (the command, as a user runs it, in a fresh process) imports
    neither pandas nor pyarrow.compute on a dataset of one ruleset (each ~0.05-0.4 s of start-up)."""
    from pathlib import Path

    from mjstats.store import SourceInput, ingest_sources

    sample = Path(__file__).resolve().parent.parent / "data" / "botzone" / "sample.txt"
    ds = str(tmp_path / "ds")
    ingest_sources([SourceInput(sample, "botzone")], Path(ds))
    code = (
        "import runpy, sys\n"
        f"sys.argv = ['mjstats', 'audit', '-q', '--jobs', '1', {ds!r}]\n"
        "try:\n"
        "    runpy.run_module('mjstats', run_name='__main__')\n"
        "except SystemExit as stop:\n"
        "    assert not stop.code, stop.code\n"
        "print('pandas' in sys.modules, 'pyarrow.compute' in sys.modules)\n"
    )
    assert _runs_without_pandas(code) == ["False", "False"]


def test_list_offsets_leave_out_the_items_of_a_null_list() -> None:
    """Arrow lets a null list span items; they are not the column's (as ``list_flatten``)."""
    from mjstats.store.arrow_columns import list_offsets

    items = numbers(np.arange(6), pa.int8())
    offsets = pa.py_buffer(np.array([0, 2, 4, 6], np.int32))
    valid = pa.py_buffer(np.packbits(np.array([1, 0, 1], np.bool_), bitorder="little"))
    column = pa.Array.from_buffers(pa.list_(pa.int8()), 3, [valid, offsets], null_count=1, children=[items])
    got_offsets, got_items = list_offsets(column)
    assert got_offsets == [0, 2, 2, 4]
    assert got_items.to_pylist() == [0, 1, 4, 5]
