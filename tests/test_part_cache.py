"""The part tables an ingest keeps for its audit (store.part_cache, ``ingest --audit``): recalled
only for the very file written, in the form the file read gives, and the audit's tables the same
as an audit reading every part from disk."""

from __future__ import annotations

import os
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import mjstats.audit as audit_module
from mjstats.cli import main
from mjstats.store import SourceInput, ingest_sources
from mjstats.store.part_cache import keeping_parts, recall, remember
from mjstats.store.schema import HAND_TABLES

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "data" / "botzone" / "sample.txt"
SIMULATED = [ROOT / "data" / "sim" / "guobiao.jsonl.gz", ROOT / "data" / "sim" / "fuzhou.jsonl.gz"]


def _table(n: int) -> pa.Table:
    return pa.table({"x": pa.array(range(n), pa.int64())})


def test_recalled_only_inside_the_block_and_for_the_same_file(tmp_path: Path) -> None:
    path = tmp_path / "t.parquet"
    table = _table(10)
    pq.write_table(table, path)
    remember(path, table)  # not keeping: nothing is kept
    assert recall(path) is None
    with keeping_parts():
        remember(path, table)
        assert recall(path) is table
        assert recall(tmp_path / "other.parquet") is None
        pq.write_table(_table(11), path)  # rewritten: another file, read from disk
        assert recall(path) is None
        os.replace(path, tmp_path / "moved.parquet")  # renamed: the same file
        remember(tmp_path / "moved.parquet", table)
        assert recall(tmp_path / "moved.parquet") is not None
    assert recall(tmp_path / "moved.parquet") is None  # dropped on leaving


def test_only_tables_up_to_the_limit_are_kept(tmp_path: Path) -> None:
    small, large = _table(10), _table(1000)
    with keeping_parts(limit_bytes=small.nbytes * 3):
        for i, table in enumerate([small, large, small, small, small]):
            path = tmp_path / f"{i}.parquet"
            pq.write_table(table, path)
            remember(path, table)
        kept = [recall(tmp_path / f"{i}.parquet") is not None for i in range(5)]
    assert kept == [True, False, True, True, False]


def _part_files(dataset: Path) -> list[tuple[str, Path]]:
    version = dataset / (dataset / "CURRENT").read_text().strip()
    return [(name, p) for name in HAND_TABLES for p in sorted((version / name).rglob("*.parquet"))]


def test_a_recalled_table_is_what_the_file_reads(tmp_path: Path) -> None:
    """Every part an ingest wrote (the Botzone lane's and the canonical records' tables), in the
    form the audit's reader takes it from memory, equals its file read from disk: types and
    every value."""
    dataset = tmp_path / "ds"
    sources = [SourceInput(SAMPLE, "botzone")] + [SourceInput(p, "canonical") for p in SIMULATED]
    with keeping_parts():
        ingest_sources(sources, dataset)
        parts = _part_files(dataset)
        assert {name for name, _ in parts} == set(HAND_TABLES)
        from_memory = {p: audit_module._read_part_table(p, name) for name, p in parts}
        assert all(recall(p) is not None for _, p in parts)
    for name, path in parts:
        from_file = audit_module._read_part_table(path, name)  # outside the block: the file
        kept = from_memory[path]
        assert [f.type for f in kept.schema] == [f.type for f in from_file.schema], (name, path)
        assert kept.schema.names == from_file.schema.names
        assert kept.equals(from_file), (name, path)


def _audit_tables(dataset: Path) -> dict[str, list[dict]]:
    version = dataset / (dataset / "CURRENT").read_text().strip()
    out = {}
    for folder in sorted(p for p in version.iterdir() if p.is_dir() and p.name not in HAND_TABLES):
        files = sorted(folder.rglob("*.parquet"))
        out[folder.name] = [row for f in files for row in pq.ParquetFile(f).read().to_pylist()]
    return out


@pytest.mark.parametrize("source, fmt", [(SAMPLE, "botzone"), (SIMULATED[0], "canonical")])
def test_ingest_audit_from_memory_equals_the_audit_from_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: Path, fmt: str
) -> None:
    hits = []
    recall_from_cache = audit_module.recall

    def counted(path: Path) -> pa.Table | None:
        table = recall_from_cache(path)
        hits.append(table is not None)
        return table

    monkeypatch.setattr(audit_module, "recall", counted)
    one = tmp_path / "one"
    assert main(["ingest", "-q", "--format", fmt, str(source), "--out", str(one), "--audit"]) == 0
    assert hits and all(hits)  # every part table came from memory
    hits.clear()
    two = tmp_path / "two"
    assert main(["ingest", "-q", "--format", fmt, str(source), "--out", str(two)]) == 0
    assert main(["audit", "-q", str(two)]) == 0
    assert hits and not any(hits)  # a separate audit reads the files
    first, second = _audit_tables(one), _audit_tables(two)
    assert first and first == second
