"""``mjstats export``: the written file is the canonical writer's, gzipped for a ``.gz`` name."""

from __future__ import annotations

import pytest

from mjstats.cli import main
from mjstats.formats.canonical import read_canonical, write_canonical
from mjstats.records import Hand
from mjstats.store import SourceInput, ingest_sources, open_dataset


@pytest.fixture
def dataset(tmp_path, sample_path):
    out = tmp_path / "ds"
    ingest_sources([SourceInput(sample_path, "botzone")], out)
    return out


def test_export_gz_is_gzipped_and_reads_back(dataset, tmp_path, capsys):
    out = tmp_path / "x.jsonl.gz"
    assert main(["export", str(dataset), "--out", str(out)]) == 0
    assert f"exported 16 hands to {out}" in capsys.readouterr().err
    assert out.read_bytes()[:2] == b"\x1f\x8b"
    records = list(read_canonical(out))
    assert len(records) == 16 and all(isinstance(r, Hand) for r in records)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temp file left


def test_export_plain_is_write_canonical(dataset, tmp_path):
    out = tmp_path / "x.jsonl"
    assert main(["export", str(dataset), "-o", str(out)]) == 0
    expected = tmp_path / "expected.jsonl"
    assert write_canonical(open_dataset(dataset).hands(), expected) == 16
    assert out.read_bytes() == expected.read_bytes()
    assert out.read_bytes()[:1] == b"{"


def test_reingested_export_names_the_file_read_and_keeps_the_origin(dataset, tmp_path, sample_path):
    """Provenance is the file and line a hand was read from; an exported hand's recorded
    source is kept as its origin, through a dataset and a second export."""
    out = tmp_path / "x.jsonl"
    assert main(["export", str(dataset), "-o", str(out)]) == 0
    second = tmp_path / "second"
    ingest_sources([SourceInput(out, "canonical")], second)
    hands = open_dataset(second).table("hands").sort_values("line")
    assert set(hands["source"]) == {str(out)} and list(hands["line"]) == list(range(1, 17))
    assert set(hands["origin"]) == {str(sample_path)}
    first = open_dataset(dataset).table("hands")
    assert sorted(hands["origin_line"]) == sorted(first["line"])
    # the report's provenance table counts the hands under the file they were read from
    from mjstats.report.sections import provenance_section

    ds = open_dataset(second)
    (sources,) = provenance_section(ds, ds, "all").blocks[0].tables
    assert [row.cells[:4] for row in sources.rows] == [("x.jsonl", "canonical", "16", "16")]
    again = tmp_path / "again.jsonl"
    assert main(["export", str(second), "-o", str(again)]) == 0
    assert again.read_bytes() == out.read_bytes()  # the origin, not x.jsonl, is written


def test_reingested_duplicates_name_the_new_file_and_are_duplicates(dataset, tmp_path, capsys):
    from mjstats.audit import audit_dataset
    from mjstats.records import DUPLICATE_HAND

    out = tmp_path / "x.jsonl"
    assert main(["export", str(dataset), "-o", str(out)]) == 0
    ingest_sources([SourceInput(out, "canonical")], dataset)  # every hand is already there
    rejects = open_dataset(dataset).table("rejects")
    assert len(rejects) == 16 and set(rejects["source"]) == {str(out)}
    assert sorted(rejects["line"]) == list(range(1, 17))
    assert all(e.startswith(DUPLICATE_HAND) for e in rejects["error"])
    summary = audit_dataset(dataset, jobs=1)
    assert (summary.rejects, summary.duplicates) == (0, 16)
    lines = summary.lines()
    assert "rejected records (not replayable, see the rejects table): 0" in lines
    assert "duplicates (hands already in the dataset, not ingested twice): 16" in lines
    assert lines[-5].startswith(f"  {out}:1: {DUPLICATE_HAND}: match ")


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--ruleset", "mahjong", "unknown ruleset 'mahjong' in {ds} (known: guobiao)"),
        ("--ruleset", "guobiao,fuzhou", "unknown ruleset 'fuzhou' in {ds} (known: guobiao)"),
        ("--period", "2026-01", "unknown period '2026-01' in {ds} (known: undated)"),
    ],
)
def test_unknown_filter_values_are_one_line_errors(dataset, tmp_path, capsys, option, value, message):
    out = tmp_path / "x.jsonl"
    assert main(["export", str(dataset), option, value, "-o", str(out)]) == 2
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [f"mjstats export: error: {message.format(ds=dataset)}"]
    assert captured.out == "" and not out.exists()


def test_ruleset_and_period_filters_select_partitions(dataset, tmp_path, capsys):
    out = tmp_path / "x.jsonl"
    assert main(["export", str(dataset), "--ruleset", "guobiao", "--period", "undated", "-o", str(out)]) == 0
    assert "exported 16 hands" in capsys.readouterr().err
