"""Writing records into a dataset: streaming, atomic, idempotent (see ``layout``)."""

from __future__ import annotations

import gc
import itertools
import operator
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from mjstats.errors import DatasetError
from mjstats.formats import format_module, open_binary
from mjstats.formats.limits import InputLimits, input_limits
from mjstats.gc_pause import paused_collection
from mjstats.records import Reject
from mjstats.store.arrow_columns import empty_table, keep_rows, table_from_columns
from mjstats.store.batches import BATCH_RECORDS, HandInfo, ParsedBatch, batch_from_records, parse_batches
from mjstats.store.fs import is_remote, local_path
from mjstats.store.hand_keys import hand_key, hand_keys
from mjstats.store.layout import check_output_folder, current_version, manifest, new_version
from mjstats.store.lock import LOCK_NAME, LockHolder, release_and_remove, writer_lock
from mjstats.store.part_cache import WrittenPart, remember, while_writing, written
from mjstats.store.pins import PINS_DIR
from mjstats.store.schema import HAND_TABLES, INGEST_TABLES, SCHEMAS, rejects_table
from mjstats.store.source_digests import SourceDigests, sha256_file
from mjstats.store.sources import SourceInput
from mjstats.store.write_behind import WriteBehind

__all__ = ["IngestSummary", "SourceInput", "ingest_sources", "sha256_file", "write_derived"]

DEFAULT_CHUNK_HANDS = 5_000  # hands buffered per partition before a part file is written
PARALLEL_MIN_BYTES = 4 << 20  # smaller inputs are parsed in this process

Progress = Callable[[int], None]  # called with the number of records read so far


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


REJECT_ROWS = 10_000  # rejects per row group of the run's rejects file


class _RejectWriter:
    """The run's rejects, written as they come (a row group per :data:`REJECT_ROWS`), so a
    very dirty input never holds every reject's raw text in memory; keeps the first few."""

    def __init__(self, staging: Path, run: int, samples: int) -> None:
        self.path = staging / "rejects" / f"part-{run:06d}.parquet"
        self.samples: list[Reject] = []
        self.keep = samples
        self.pending: list[Reject] = []
        self.count = 0
        self.writer: pq.ParquetWriter | None = None

    def add(self, reject: Reject) -> None:
        self.count += 1
        if len(self.samples) < self.keep:
            self.samples.append(reject)
        self.pending.append(reject)
        if len(self.pending) >= REJECT_ROWS:
            self.flush()

    def flush(self) -> None:
        if not self.pending:
            return
        if self.writer is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.writer = pq.ParquetWriter(self.path, SCHEMAS["rejects"])
        self.writer.write_table(rejects_table(self.pending))
        self.pending = []

    def close(self) -> None:
        self.flush()
        if self.writer is not None:
            self.writer.close()


# Parquet encodings of the events table (the values read back are the same): the line and seq
# columns as deltas, dictionaries for the strings only. A third less time to write than
# dictionary-encoding every column (which int64 lines defeat) and a quarter of the file size.
# No column statistics (min/max per page and row group): nothing reads them (no reader filters
# on them), and over ~100 rows a hand they were a sixth of the table's write. ``match_id`` plain,
# not as a dictionary (zstd packs its repeats): 4% less to write, faster to read back, files 1%
# larger (docs/scaling.md)
_ENCODINGS: dict[str, dict[str, Any]] = {
    "events": {
        "use_dictionary": ["kind", "claim", "win"],
        "column_encoding": {"seq": "DELTA_BINARY_PACKED", "line": "DELTA_BINARY_PACKED"},
        "write_statistics": False,
    }
}


class _PartitionWriter:
    """Buffers one (ruleset, period) partition and writes a part file per table when full (on
    the ingest's background writer, ``writes``)."""

    def __init__(self, staging: Path, ruleset: str, period: str, run: int, writes: WriteBehind) -> None:
        self.writes = writes
        self.ruleset = ruleset
        self.period = period
        self.dirs = {
            name: staging / name / f"ruleset={ruleset}" / f"period={period}" for name in INGEST_TABLES
        }
        self.run = run
        self.parts = 0
        self.pending: dict[str, list[pa.Table]] = {name: [] for name in HAND_TABLES}
        self.n_hands = 0
        self.matches: list[tuple[HandInfo, int]] = []  # (first hand, hand count), a row each

    def add(self, tables: dict[str, pa.Table]) -> None:
        for name, table in tables.items():
            self.pending[name].append(table)
        self.n_hands += tables["hands"].num_rows

    def add_match(self, info: HandInfo, n_hands: int) -> None:
        """A row of the matches table (its columns are built per part file, ``_matches_table``:
        one append a match, where a match of one hand is the usual Botzone case)."""
        self.matches.append((info, n_hands))

    def add_matches(self, matches: list[tuple[HandInfo, int]]) -> None:
        """Rows of the matches table, as :meth:`add_match` each."""
        self.matches += matches

    def flush(self) -> None:
        if self.n_hands == 0 and not self.matches:
            return
        tables = {
            name: pa.concat_tables(parts) if parts else empty_table(SCHEMAS[name])
            for name, parts in self.pending.items()
        }
        tables["matches"] = _matches_table(self.matches)
        name = f"part-{self.run:06d}-{self.parts:05d}.parquet"
        self.parts += 1
        dirs = self.dirs

        def write() -> None:
            for table_name, table in tables.items():
                folder = dirs[table_name]
                folder.mkdir(parents=True, exist_ok=True)
                pq.write_table(table, folder / name, compression="zstd", **_ENCODINGS.get(table_name, {}))
                if table_name in HAND_TABLES:  # what an audit in this process reads back
                    remember(folder / name, table)  # (ingest --audit, store.part_cache)

        self.writes.submit(write)
        # (ingest --audit works ahead on the parts while the last are written: store.part_cache)
        written(WrittenPart(self.ruleset, self.period, name, {n: tables[n] for n in HAND_TABLES}))
        for parts in self.pending.values():
            parts.clear()
        self.matches = []
        self.n_hands = 0
        # the collector is paused while buffering; sweep once per part file. Everything made since
        # the last sweep is young: the young generations hold it, and leaving out the oldest (the
        # modules, some 60,000 objects) saves ~25 ms a part file
        gc.collect(1)


def _matches_table(matches: list[tuple[HandInfo, int]]) -> pa.Table:
    """The matches buffered for a part file as a table (built from buffers: ``arrow_columns``)."""
    infos = [info for info, _ in matches]
    columns: dict[str, list[Any]] = {
        "match_id": [info.match_id for info in infos],
        "profile": [info.profile for info in infos],
        "players": [list(info.players) for info in infos],
        "n_hands": [n_hands for _, n_hands in matches],
        "started_at": [info.started_at for info in infos],
        "source": [info.source for info in infos],
        "line": [info.line for info in infos],
    }
    return table_from_columns(columns, SCHEMAS["matches"])


def _batches(item: SourceInput, jobs: int, batch_records: int) -> Iterator[ParsedBatch]:
    """The source's records, parsed in batches (by the format's own splitter where possible)."""
    if item.read is not None:
        records = item.read(item.path)
        while True:
            chunk = list(itertools.islice(records, batch_records))
            if not chunk:
                return
            yield batch_from_records(chunk)
    # a process pool pays off only on inputs of more than a few batches
    use_jobs = jobs if os.path.getsize(item.path) > PARALLEL_MIN_BYTES else 1
    with open_binary(item.path) as stream:
        yield from parse_batches(
            item.format, stream, str(item.path), jobs=use_jobs, batch_records=batch_records
        )


def ingest_sources(
    inputs: Iterable[SourceInput],
    out: str | Path,
    *,
    jobs: int = 1,
    chunk_hands: int = DEFAULT_CHUNK_HANDS,
    batch_records: int = BATCH_RECORDS,
    progress: Progress | None = None,
    reject_samples: int = 20,
    wait: float | None = None,
    on_wait: Callable[[LockHolder | None], None] | None = None,
    limits: InputLimits | None = None,
) -> IngestSummary:
    """Read every input into the dataset at ``out`` in one atomic change.

    A source whose SHA-256 is already in the manifest is skipped (idempotent). A hand whose
    (match_id, hand_no) is already in the dataset, or earlier in this run, becomes a reject.
    ``jobs`` processes parse large inputs in parallel; the result is the same for any ``jobs``.
    The change holds the dataset's writer lock: another writer makes this one wait up to
    ``wait`` seconds (then DatasetBusy). ``out`` must be new, empty or a dataset; a run that
    fails leaves no folder behind that it created. ``out`` may be an fsspec URL
    (``s3://bucket/ds``): the run is the same, the version is published there (``remote_ingest``).
    ``limits`` bounds hostile input (record length, decompression; docs/input-limits.md); None
    keeps the limits in force.
    """
    inputs = list(inputs)
    for item in inputs:
        if item.read is None:
            format_module(item.format)  # an unknown format fails before any file is read
    # hashed on a thread while the records are parsed; each file is opened first, so a missing
    # one fails here, before the dataset is touched (store.source_digests)
    with SourceDigests([item.path for item in inputs]) as digests:
        if is_remote(out):  # a URL (s3://, memory://): the same run, published through fsspec
            from mjstats.store.remote_ingest import ingest_remote

            return ingest_remote(
                inputs, digests, str(out), jobs=jobs, chunk_hands=chunk_hands, batch_records=batch_records,
                progress=progress, reject_samples=reject_samples, wait=wait, on_wait=on_wait, limits=limits,
            )
        out = Path(local_path(out) or out) if isinstance(out, str) else Path(out)
        check_output_folder(out)  # before the lock file is made: a user's folder stays untouched
        created = not out.exists()
        try:
            with writer_lock(out, wait=wait, create=True, on_wait=on_wait):
                try:
                    check_output_folder(out)
                    with input_limits(limits):
                        return _ingest_locked(
                            inputs, digests, out, jobs=jobs, chunk_hands=chunk_hands,
                            batch_records=batch_records, progress=progress, reject_samples=reject_samples,
                        )
                except BaseException:
                    if created or _only_lock_left(out):
                        _remove_new_folder(out)
                    raise
        except PermissionError as exc:
            raise DatasetError(f"{out}: cannot write to the dataset: {exc.strerror}") from exc


def _only_lock_left(out: Path) -> bool:
    """True when ``out`` holds nothing but what this failed run made (no dataset yet)."""
    try:
        return current_version(out) is None and {e.name for e in out.iterdir()} <= {LOCK_NAME, PINS_DIR}
    except (OSError, DatasetError):
        return False


def _remove_new_folder(out: Path) -> None:
    """Remove the folder a failed first ingest made, if it holds only the lock (and no pins)."""
    if not _only_lock_left(out):
        return
    with suppress(OSError):
        (out / PINS_DIR).rmdir()
    release_and_remove(out)
    with suppress(OSError):
        out.rmdir()


def _ingest_locked(
    inputs: list[SourceInput],
    digests: Mapping[Path, str],
    out: Path,
    *,
    jobs: int,
    chunk_hands: int,
    batch_records: int,
    progress: Progress | None,
    reject_samples: int,
) -> IngestSummary:
    summary = IngestSummary()
    live_name = current_version(out)
    if live_name is not None:
        live = {s["sha256"] for s in manifest(out / live_name)["sources"]}
        if all(d in live for d in digests.values()):  # nothing new: leave the dataset as it is
            summary.skipped_sources.extend(str(item.path) for item in inputs)
            return summary
    with new_version(out) as (staging, manifest_data):
        ingest_into(
            staging, manifest_data, _existing_keys(staging), inputs, digests, summary, jobs=jobs,
            chunk_hands=chunk_hands, batch_records=batch_records, progress=progress,
            reject_samples=reject_samples,
        )
    return summary


def ingest_into(
    staging: Path,
    manifest_data: dict[str, Any],
    seen: set[int],
    inputs: list[SourceInput],
    digests: Mapping[Path, str],
    summary: IngestSummary,
    *,
    jobs: int,
    chunk_hands: int,
    batch_records: int,
    progress: Progress | None,
    reject_samples: int,
) -> None:
    """Write the inputs' records into the folder of the next version, updating its manifest and
    ``summary``. ``seen`` holds the keys (store.hand_keys) of the hands already in the
    dataset: such a hand becomes a duplicate reject. Local and URL datasets both come here."""
    # records hold no reference cycles; with hundreds of thousands of them buffered, every
    # automatic collection would rescan them all: pausing it makes the ingest several times faster.
    # Part files are written behind the parse (store.write_behind); every write is done, or on an
    # error or Ctrl-C dropped and waited for, before this returns
    with paused_collection(), WriteBehind() as writes:
        known = {s["sha256"] for s in manifest_data["sources"]}
        whole = not manifest_data["sources"]  # no part file before this run's
        run = int(manifest_data.get("runs", 0)) + 1
        writers: dict[tuple[str, str], _PartitionWriter] = {}
        rejects = _RejectWriter(staging, run, reject_samples)
        read_so_far = 0
        # [first HandInfo, hand count] of the match being read; a match goes on across files
        # (one file per hand, as the human-play logs are written)
        match: list[Any] = []
        for item in inputs:
            # a source repeating one the dataset holds or one read earlier in this run is skipped;
            # with none before it (a new dataset's first source), its digest, hashed meanwhile on
            # a thread (store.source_digests), is waited for only once it has been read
            digest: str | None = None
            if known:
                digest = digests[item.path]
                if digest in known:
                    summary.skipped_sources.append(str(item.path))
                    continue
                known.add(digest)
            counts = {"hands": 0, "rejects": 0}

            def writer_for(part_key: tuple[str, str]) -> _PartitionWriter:
                writer = writers.get(part_key)
                if writer is None:
                    writer = writers[part_key] = _PartitionWriter(staging, *part_key, run, writes)
                return writer

            def close_match(match: list[Any] = match) -> None:
                if match:
                    info, n_hands = match
                    writer_for((info.ruleset, info.period)).add_match(info, n_hands)
                    summary.matches += 1
                    match.clear()

            for batch in _batches(item, jobs, batch_records):
                read_so_far += batch.records
                for reject in batch.rejects:
                    rejects.add(reject)
                counts["rejects"] += len(batch.rejects)
                kept, dropped = _new_hands(batch.hands, seen)
                duplicates = {(info.match_id, info.hand_no) for info in dropped}
                for info in dropped:
                    rejects.add(_duplicate(info, item.path))
                counts["rejects"] += len(dropped)
                counts["hands"] += len(kept)
                summary.hands += len(kept)
                summary.events += sum(map(_N_EVENTS, kept))
                summary.wins += sum(map(_N_WINS, kept))  # each win, as the statistics count them
                summary.draws += sum(map(_IS_DRAW, kept))
                closed = _closed_matches(kept, match)
                if closed:
                    summary.matches += len(closed)
                    parts = set(map(_PARTITION, map(_FIRST, closed)))
                    if len(parts) == 1:  # the usual case: one partition
                        writer_for(parts.pop()).add_matches(closed)
                    else:
                        for info, n_hands in closed:
                            writer_for((info.ruleset, info.period)).add_match(info, n_hands)
                for part_key, tables in batch.tables.items():
                    if duplicates:
                        tables = _without(tables, duplicates)
                    writer = writer_for(part_key)
                    writer.add(tables)
                    if writer.n_hands >= chunk_hands:
                        writer.flush()
                if progress is not None:
                    progress(read_so_far)
            if digest is None:
                digest = digests[item.path]
                known.add(digest)
            manifest_data["sources"].append(
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
        if match:
            close_match()  # the last file's (only defined once a file was read)
        for writer in writers.values():
            writer.flush()
        rejects.close()
        # the last parts are being encoded on the writer thread (without the GIL): an audit to
        # follow in this process may work ahead meanwhile (ingest --audit, store.part_cache)
        while_writing(whole)
        summary.rejects = rejects.count
        summary.reject_samples = rejects.samples
        manifest_data["runs"] = run
        manifest_data["tables"] = sorted({*INGEST_TABLES, "rejects", *manifest_data.get("tables", [])})


# a HandInfo's fields by position (C-level getters, mapped over a batch's hands)
_N_EVENTS = operator.itemgetter(HandInfo._fields.index("n_events"))
_N_WINS = operator.itemgetter(HandInfo._fields.index("n_wins"))
_IS_DRAW = operator.itemgetter(HandInfo._fields.index("is_draw"))
_MATCH_ID = operator.itemgetter(HandInfo._fields.index("match_id"))
_HAND_NO = operator.itemgetter(HandInfo._fields.index("hand_no"))
_PARTITION = operator.itemgetter(HandInfo._fields.index("ruleset"), HandInfo._fields.index("period"))
_FIRST = operator.itemgetter(0)


def _new_hands(hands: list[HandInfo], seen: set[int]) -> tuple[list[HandInfo], list[HandInfo]]:
    """The hands whose key (store.hand_keys) is neither in ``seen`` nor earlier among ``hands``,
    their keys added to ``seen``; and the others (duplicates); both in input order. A batch
    without duplicates, the usual case, costs a few set operations, not a loop."""
    keys = list(map(hand_key, map(_MATCH_ID, hands), map(_HAND_NO, hands)))
    fresh = set(keys)
    if len(fresh) == len(keys) and seen.isdisjoint(fresh):
        seen |= fresh
        return hands, []
    kept: list[HandInfo] = []
    dropped: list[HandInfo] = []
    for info, key in zip(hands, keys, strict=True):
        if key in seen:
            dropped.append(info)
        else:
            seen.add(key)
            kept.append(info)
    return kept, dropped


def _closed_matches(hands: list[HandInfo], match: list[Any]) -> list[tuple[HandInfo, int]]:
    """Consecutive hands of one match id make a match: the matches that ``hands`` close, as
    (first hand, hand count) in order. ``match`` is the one still open ([first hand, count], or
    empty), carried on in place: a match may go on in the next batch or file."""
    closed = []
    for info in hands:
        if match and match[0].match_id == info.match_id:
            match[1] += 1
        else:
            if match:
                closed.append((match[0], match[1]))
            match[:] = (info, 1)
    return closed


def _duplicate(info: HandInfo, path: Path) -> Reject:
    return Reject(
        source=info.source or str(path),
        line=info.line or 0,
        error=f"duplicate hand: match {info.match_id} hand {info.hand_no} is already in the dataset",
        match_id=info.match_id,
        raw=info.raw,
    )


def _without(tables: dict[str, pa.Table], keys: set[tuple[str, int]]) -> dict[str, pa.Table]:
    """The tables without the rows of the given hands (rare: only duplicates are dropped)."""
    out = {}
    for name, table in tables.items():
        pairs = zip(
            table.column("match_id").to_pylist(), table.column("hand_no").to_pylist(), strict=True
        )
        keep = np.fromiter((pair not in keys for pair in pairs), np.bool_, table.num_rows)
        out[name] = keep_rows(table, keep)
    return out


def _existing_keys(staging: Path) -> set[int]:
    """The keys of the hands already in the dataset (its version's hands part files)."""
    folder = staging / "hands"
    return stored_hand_keys(sorted(folder.rglob("*.parquet")) if folder.exists() else [])


def stored_hand_keys(paths: Iterable[str | Path], filesystem: Any = None) -> set[int]:
    """The keys (store.hand_keys) of the hands in these hands part files, local or on
    ``filesystem`` (fsspec): two small columns each, read by ParquetFile (``pq.read_table``
    imports pyarrow.dataset, and with it pandas: ~0.4 s)."""
    keys: set[int] = set()
    for path in paths:
        table = pq.ParquetFile(path, filesystem=filesystem).read(columns=["match_id", "hand_no"])
        keys |= hand_keys(table.column("match_id").to_pylist(), table.column("hand_no").to_pylist())
    return keys


def write_derived(root: str | Path, tables: dict[str, pa.Table], *, partition_by: str = "ruleset") -> None:
    """Atomically replace derived tables (audit output) in the dataset at ``root`` (a folder or
    an fsspec URL).

    Each table is written under ``<name>/``; when it has a ``partition_by`` column, one file per
    value goes under ``<name>/<partition_by>=<value>/`` (the column itself is dropped from the
    file, as Hive partitioning does).
    """
    for name in tables:
        if name in SCHEMAS:
            raise ValueError(f"{name!r} is an ingest table; derived tables need their own name")
    if is_remote(root):
        from mjstats.store.remote import new_remote_version

        with new_remote_version(str(root), drop=tuple(tables)) as (fs, target, manifest_data):

            def put_remote(rel: str, table: pa.Table) -> None:
                with fs.open(f"{target}/{rel}", "wb") as fh:
                    pq.write_table(table, fh, compression="zstd")

            _write_tables(tables, partition_by, put_remote)
            manifest_data["tables"] = sorted({*manifest_data.get("tables", []), *tables})
        return
    folder = Path(local_path(root) or root) if isinstance(root, str) else Path(root)
    with new_version(folder, drop=tuple(tables)) as (staging, manifest_data):
        for name in tables:
            (staging / name).mkdir(parents=True, exist_ok=True)  # an empty table is still there

        def put_local(rel: str, table: pa.Table) -> None:
            path = staging / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            pq.write_table(table, path, compression="zstd")

        _write_tables(tables, partition_by, put_local)
        manifest_data["tables"] = sorted({*manifest_data.get("tables", []), *tables})


def _write_tables(
    tables: dict[str, pa.Table], partition_by: str, put: Callable[[str, pa.Table], None]
) -> None:
    """Each table as ``<name>/[<partition_by>=<value>/]part-0.parquet`` through ``put``."""
    import pyarrow.compute as pc  # here: an ingest never needs it (~0.13 s to import)

    for name, table in tables.items():
        if partition_by in table.column_names:
            column = table.column(partition_by)
            rest = table.drop_columns([partition_by])
            for value in sorted(pc.unique(column).to_pylist(), key=str):
                put(f"{name}/{partition_by}={value}/part-0.parquet", rest.filter(pc.equal(column, value)))
        else:
            put(f"{name}/part-0.parquet", table)
