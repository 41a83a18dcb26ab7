"""The read-back (part files -> Hand records) rebuilds exactly the hands that were ingested.

Reference: the hands the format readers parse from the bundled data (the Botzone sample and the
simulated Guobiao, Fuzhou and Sichuan hands). Each hand read back, by the dataset's reader and
by the audit's part slicer in batches, must equal it field by field, with the same type at every
level (a tile stays a ``Tile``, a kind an ``EventKind``, a row a tuple), the provenance and origin
included: the audit replays what was recorded, whatever the read-back's columns do on the way.
"""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import replace
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from mjstats.audit import PartSlicer
from mjstats.formats.botzone import read_botzone
from mjstats.formats.canonical import read_canonical, write_canonical
from mjstats.records import Event, Hand, Provenance
from mjstats.store import SourceInput, ingest_sources, open_dataset
from mjstats.store.schema import _events_of

DATA = Path(__file__).resolve().parent.parent / "data"
SIMULATED = sorted((DATA / "sim").glob("*.jsonl.gz"))


def typed(value: Any) -> Any:
    """``value`` with the type of every part of it, records and tuples walked field by field (a
    provenance as its source and line: its raw text is not stored)."""
    if isinstance(value, Event):  # the bulk of a hand: its fields' types, then the values
        return (Event, tuple(map(type, value)), tuple(map(type, value.tiles)), value)
    if isinstance(value, Provenance):
        return (Provenance, value.source, typed(value.line))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value), tuple(typed(getattr(value, f.name)) for f in dataclasses.fields(value)))
    if isinstance(value, tuple | list):
        return (type(value), tuple(typed(item) for item in value))
    return (type(value), value)


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[tuple[str, int], Hand]]:
    """The bundled Botzone sample, its copy in the canonical format (renamed: each hand's origin
    is the sample's line) and the simulated hands ingested, and the hands parsed from them by key."""
    folder = tmp_path_factory.mktemp("readback")
    out = folder / "ds"
    sample = DATA / "botzone" / "sample.txt"
    copy = folder / "copy.jsonl"
    write_canonical((replace(h, match_id=f"copy-{h.match_id}") for h in read_botzone(sample)), copy)
    sources = [sample, copy, *SIMULATED]
    inputs = [SourceInput(sample, "botzone"), *(SourceInput(path, "canonical") for path in sources[1:])]
    ingest_sources(inputs, out)
    parsed = list(read_botzone(sample))
    for path in sources[1:]:
        parsed.extend(read_canonical(path))
    assert all(isinstance(hand, Hand) for hand in parsed)
    return out, {hand.key: hand for hand in parsed}  # type: ignore[union-attr]


def test_bundled_data_covers_every_ruleset_and_field(ingested) -> None:
    _, parsed = ingested
    hands = list(parsed.values())
    assert len(hands) == 32 + 2000 * len(SIMULATED) and len(SIMULATED) == 3
    assert {h.ruleset for h in hands} == {"guobiao", "fuzhou", "sichuan"}
    # the columns the read-back decodes, each seen set and unset
    events = [e for h in hands for e in h.events]
    for name in ("seat", "tile", "from_seat", "claimed", "claim", "win", "line"):
        assert {getattr(e, name) is None for e in events} == {True, False}, name
    assert {bool(e.tiles) for e in events} == {True, False} and {e.tail for e in events} == {True, False}
    assert any(h.gold is not None for h in hands) and any(h.result.payments for h in hands)
    assert any(h.result.scores is not None and not h.result.payments for h in hands)
    assert any(len(h.result.wins) > 1 for h in hands) and any(h.origin is not None for h in hands)


def test_the_reader_rebuilds_the_parsed_hands(ingested) -> None:
    path, parsed = ingested
    back = list(open_dataset(path).hands())
    assert len(back) == len(parsed)
    for hand in back:
        expected = parsed[hand.key]
        assert typed((hand, hand.provenance, hand.origin)) == typed(
            (expected, expected.provenance, expected.origin)
        ), hand.key


def test_the_audit_slicer_rebuilds_the_parsed_hands_in_any_batch(ingested) -> None:
    path, parsed = ingested
    ds = open_dataset(path)
    seen = 0
    for ruleset, period, part in ds.parts():
        slicer = PartSlicer(ds.path, ruleset, period, part)
        n = slicer.tables["hands"].num_rows
        cuts = sorted({0, n, *range(0, n, 377)})  # batches that start and end mid-part
        for start, stop in itertools.pairwise(cuts):
            for hand in slicer.hands(start, stop):
                expected = parsed[hand.key]
                assert typed((hand, hand.provenance, hand.origin)) == typed(
                    (expected, expected.provenance, expected.origin)
                ), hand.key
                seen += 1
    assert seen == len(parsed)


def test_events_of_chunked_and_dictionary_columns_equal_the_plain_ones(ingested) -> None:
    """An events table in several chunks, its strings dictionary-encoded or not, rebuilds the
    same events as the whole table."""
    path, _ = ingested
    ds = open_dataset(path)
    ruleset, period, part = ds.parts()[0]
    table = PartSlicer(ds.path, ruleset, period, part).tables["events"]
    whole = _events_of(table)
    n = table.num_rows
    pieces = [table.slice(0, n // 3), table.slice(n // 3, 1), table.slice(n // 3 + 1)]
    chunked = pa.concat_tables(pieces)
    assert chunked.column("kind").num_chunks == 3
    kind = chunked.schema.get_field_index("kind")
    plain = chunked.cast(chunked.schema.set(kind, pa.field("kind", pa.string())))
    assert typed(_events_of(chunked)) == typed(whole) == typed(_events_of(plain))


def test_a_stored_tile_code_that_names_no_tile_is_refused() -> None:
    """A tile code outside the kinds' range (no file ingest writes holds one) is a damaged part
    file: DatasetError naming the column, never a tile read by wrapping round the kinds."""
    from mjstats.errors import DatasetError
    from mjstats.store.schema import _tiles
    from mjstats.tiles import ALL_KINDS

    column = pa.chunked_array([pa.array([0, 33, None, 41], pa.int8())])
    tiles = _tiles(column, "tile")
    assert tiles == [ALL_KINDS[0], ALL_KINDS[33], None, ALL_KINDS[41]]
    assert all(t is k for t, k in zip(tiles, [ALL_KINDS[0], ALL_KINDS[33], None, ALL_KINDS[41]], strict=True))
    for bad in (42, -1, -43, 127):
        with pytest.raises(DatasetError, match=f"'claimed' holds tile code {bad},"):
            _tiles(pa.chunked_array([pa.array([None, 3, bad], pa.int8())]), "claimed")


@pytest.mark.parametrize(
    ("ruleset", "table", "column", "value"),
    [("guobiao", "events", "tile", -1), ("guobiao", "events", "claimed", 42),
     ("guobiao", "events", "tiles", -2), ("guobiao", "events", "tiles", None),
     ("guobiao", "wins", "win_tile", -1),
     # the per-hand tiles only Fuzhou's hands hold: the gold, and the wall (its tiles in order)
     ("fuzhou", "hands", "gold", 42), ("fuzhou", "hands", "gold", -5),
     ("fuzhou", "hands", "wall", 77), ("fuzhou", "hands", "wall", None)],
)  # fmt: skip
def test_a_damaged_tile_in_a_part_file_stops_the_read_back(
    ingested: tuple[Path, list[Hand]], ruleset: str, table: str, column: str, value: int | None
) -> None:
    """A part file whose tile column was damaged by hand: the rebuild refuses it by column,
    whichever of the per-event and per-hand tiles holds the bad code."""
    from mjstats.errors import DatasetError

    path, _ = ingested
    ds = open_dataset(path)
    ruleset, period, part = next(p for p in ds.parts() if p[0] == ruleset)
    slicer = PartSlicer(ds.path, ruleset, period, part)
    t = slicer.tables[table]
    values = t.column(column).to_pylist()
    row = next(i for i, v in enumerate(values) if v)  # a row holding a tile (or tiles)
    if isinstance(values[row], list):
        values[row] = [value, *values[row][1:]]
    else:
        values[row] = value
    field = t.schema.field(column)
    slicer.tables[table] = t.set_column(t.schema.get_field_index(column), field, pa.array(values, field.type))
    with pytest.raises(DatasetError, match=f"^ruleset=.*{part}: .*{column!r}"):
        slicer.hands(0, slicer.tables["hands"].num_rows)


def test_the_reader_names_the_damaged_part(ingested: tuple[Path, list[Hand]], tmp_path: Path) -> None:
    """``Dataset.read_part`` on a part file whose stored tile code was damaged on disk: the
    error names the part and the column."""
    import shutil

    import pyarrow.parquet as pq

    from mjstats.errors import DatasetError

    path, _ = ingested
    copy = tmp_path / "copy"
    shutil.copytree(path, copy)
    ds = open_dataset(copy)
    ruleset, period, part = ds.parts()[0]
    file = ds.path / "events" / f"ruleset={ruleset}" / f"period={period}" / part
    table = pq.read_table(file)
    tiles = table.column("tile").to_pylist()
    tiles[tiles.index(next(t for t in tiles if t is not None))] = 99
    index = table.schema.get_field_index("tile")
    pq.write_table(table.set_column(index, table.schema.field(index), pa.array(tiles, pa.int8())), file)
    with pytest.raises(DatasetError, match=f"{part}: column 'tile' holds tile code 99,"):
        ds.read_part(ruleset, period, part)
