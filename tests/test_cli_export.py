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
