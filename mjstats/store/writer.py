"""Writing records into a dataset: streaming, atomic, idempotent (see ``layout``)."""

from __future__ import annotations

import gc
import hashlib
import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from mjstats.records import Hand, Reject
from mjstats.store.layout import new_version
from mjstats.store.schema import INGEST_TABLES, SCHEMAS, UNDATED, HandColumns, rejects_table

__all__ = ["IngestSummary", "SourceInput", "ingest_sources", "sha256_file", "write_derived"]

DEFAULT_CHUNK_HANDS = 5_000  # hands buffered per partition before a part file is written

Progress = Callable[[int], None]  # called with the number of records read so far


@dataclass(frozen=True)
class SourceInput:
    """One input to ingest: its path and a function reading it into records."""

    path: Path
    format: str
    read: Callable[[Path], Iterator[Hand | Reject]]


@dataclass
class IngestSummary:
    """What an ingest run did: counted per source and in total."""

    matches: int = 0
    hands: int = 0
    events: int = 0
    wins: int = 0
    draws: int = 0
    rejects: int = 0
    skipped_sources: list[str] = field(default_factory=list)  # already ingested (same SHA-256)
    sources: list[str] = field(default_factory=list)
    reject_samples: list[Reject] = field(default_factory=list)  # first few, for the CLI

    def as_dict(self) -> dict[str, object]:
        return {
            "matches": self.matches,
            "hands": self.hands,
            "events": self.events,
            "wins": self.wins,
            "draws": self.draws,
            "rejects": self.rejects,
            "sources": list(self.sources),
            "skipped_sources": list(self.skipped_sources),
        }


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class _PartitionWriter:
    """Buffers one (ruleset, period) partition and writes a part file per table when full."""

    def __init__(self, staging: Path, ruleset: str, period: str, run: int) -> None:
        self.dirs = {
            name: staging / name / f"ruleset={ruleset}" / f"period={period}" for name in INGEST_TABLES
        }
        self.run = run
        self.parts = 0
        self.columns = HandColumns()

    def flush(self) -> None:
        if self.columns.n_hands == 0 and not self.columns.cols["matches"]["match_id"]:
            return
        tables = self.columns.take()
        name = f"part-{self.run:06d}-{self.parts:05d}.parquet"
        self.parts += 1
        for table_name, table in tables.items():
            folder = self.dirs[table_name]
            folder.mkdir(parents=True, exist_ok=True)
            pq.write_table(table, folder / name, compression="zstd")
        del tables
        gc.collect()  # the collector is paused while buffering; sweep once per part file


def ingest_sources(
    inputs: Iterable[SourceInput],
    out: Path,
    *,
    chunk_hands: int = DEFAULT_CHUNK_HANDS,
    progress: Progress | None = None,
    reject_samples: int = 20,
) -> IngestSummary:
    """Read every input into the dataset at ``out`` in one atomic change.

    A source whose SHA-256 is already in the manifest is skipped (idempotent). A hand whose
    (match_id, hand_no) is already in the dataset, or earlier in this run, becomes a reject.
    """
    out = Path(out)
    summary = IngestSummary()
    with new_version(out) as (staging, manifest), _no_cycle_collection():
        known = {s["sha256"] for s in manifest["sources"]}
        seen = _existing_keys(staging)
        run = int(manifest.get("runs", 0)) + 1
        writers: dict[tuple[str, str], _PartitionWriter] = {}
        rejects: list[Reject] = []
        read_so_far = 0
        for item in inputs:
            digest = sha256_file(item.path)
            if digest in known:
                summary.skipped_sources.append(str(item.path))
                continue
            known.add(digest)
            counts = {"hands": 0, "rejects": 0}
            match_state: list[Hand] = []  # hands of the match being read (for the matches table)

            def close_match(state: list[Hand] = match_state) -> None:
                if state:
                    first = state[0]
                    key = (first.ruleset, first.period or UNDATED)
                    writers[key].columns.add_match(first, len(state))
                    summary.matches += 1
                    state.clear()

            for record in item.read(item.path):
                read_so_far += 1
                if progress is not None and read_so_far % 1000 == 0:
                    progress(read_so_far)
                if isinstance(record, Reject):
                    rejects.append(record)
                    counts["rejects"] += 1
                    continue
                key_hash = hash((record.match_id, record.hand_no))
                if key_hash in seen:
                    prov = record.provenance
                    rejects.append(
                        Reject(
                            source=prov.source if prov else str(item.path),
                            line=prov.line if prov else 0,
                            error=f"duplicate hand: match {record.match_id} hand "
                            f"{record.hand_no} is already in the dataset",
                            match_id=record.match_id,
                            raw=prov.raw if prov else None,
                        )
                    )
                    counts["rejects"] += 1
                    continue
                seen.add(key_hash)
                if match_state and match_state[0].match_id != record.match_id:
                    close_match()
                match_state.append(record)
                part_key = (record.ruleset, record.period or UNDATED)
                writer = writers.get(part_key)
                if writer is None:
                    writer = writers[part_key] = _PartitionWriter(staging, *part_key, run)
                writer.columns.add_hand(record)
                counts["hands"] += 1
                summary.hands += 1
                summary.events += len(record.events)
                if record.result.is_win:
                    summary.wins += 1
                else:
                    summary.draws += 1
                if writer.columns.n_hands >= chunk_hands:
                    writer.flush()
            close_match()
            manifest["sources"].append(
                {
                    "path": str(item.path),
                    "name": item.path.name,
                    "sha256": digest,
                    "size": os.path.getsize(item.path),
                    "format": item.format,
                    "hands": counts["hands"],
                    "rejects": counts["rejects"],
                    "run": run,
                }
            )
            summary.sources.append(str(item.path))
        for writer in writers.values():
            writer.flush()
        if rejects:
            folder = staging / "rejects"
            folder.mkdir(parents=True, exist_ok=True)
            pq.write_table(rejects_table(rejects), folder / f"part-{run:06d}.parquet")
        summary.rejects = len(rejects)
        summary.reject_samples = rejects[:reject_samples]
        if progress is not None:
            progress(read_so_far)
        manifest["runs"] = run
        manifest["tables"] = sorted({*INGEST_TABLES, "rejects", *manifest.get("tables", [])})
    return summary


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Pause the cyclic garbage collector while buffering records.

    Records hold no reference cycles, and with hundreds of thousands of live buffered objects
    each automatic collection rescans them all: pausing it makes ingest several times faster.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _existing_keys(staging: Path) -> set[int]:
    """Hashes of the (match_id, hand_no) keys already in the dataset (two small columns)."""
    folder = staging / "hands"
    keys: set[int] = set()
    if not folder.exists():
        return keys
    for path in sorted(folder.rglob("*.parquet")):
        table = pq.read_table(path, columns=["match_id", "hand_no"])
        keys.update(
            hash(k)
            for k in zip(
                table.column("match_id").to_pylist(), table.column("hand_no").to_pylist(), strict=True
            )
        )
    return keys


def write_derived(root: Path, tables: dict[str, pa.Table], *, partition_by: str = "ruleset") -> None:
    """Atomically replace derived tables (audit output) in the dataset at ``root``.

    Each table is written under ``<name>/``; when it has a ``partition_by`` column, one file per
    value goes under ``<name>/<partition_by>=<value>/`` (the column itself is dropped from the
    file, as Hive partitioning does).
    """
    root = Path(root)
    with new_version(root, drop=tuple(tables)) as (staging, manifest):
        for name, table in tables.items():
            if name in SCHEMAS and name not in ("findings",):
                raise ValueError(f"{name!r} is an ingest table; derived tables need their own name")
            folder = staging / name
            folder.mkdir(parents=True, exist_ok=True)
            if partition_by in table.column_names:
                column = table.column(partition_by).to_pylist()
                rest = table.drop_columns([partition_by])
                for value in sorted(set(column), key=str):
                    mask = pa.array([v == value for v in column])
                    part = folder / f"{partition_by}={value}"
                    part.mkdir(parents=True, exist_ok=True)
                    pq.write_table(rest.filter(mask), part / "part-0.parquet", compression="zstd")
            else:
                pq.write_table(table, folder / "part-0.parquet", compression="zstd")
        manifest["tables"] = sorted({*manifest.get("tables", []), *tables})
