"""Audit a dataset: replay every hand in a process pool and store findings and recomputed wins.

The work is cut into batches (slices of the dataset's part files); workers replay batches and
send back column rows; the parent keeps them in batch order, so the tables written are the same
whatever the number of jobs. Output, streamed into the next dataset version (which goes live
atomically; a rerun replaces it):

- ``findings``: match_id, hand_no, seq, check, severity, expected, recorded, message
- ``computed_wins``: match_id, hand_no, win_no, winner, discarder, win_tile, self_drawn,
  fan_total, recorded_fan_total, meets_minimum and the situational flags the replayer derived
- ``computed_fans``: match_id, hand_no, win_no, winner, name, count, points
- ``computed_payments``: match_id, hand_no, win_no, seat, score, recorded_score

``win_no`` is the recorded win a row rescored (0-based, the ``wins`` table's key).
- ``audited_hands``: match_id, hand_no, ruleset, profile, status, findings

Each table also carries ``ruleset`` (its Hive partition).
"""

from __future__ import annotations

import itertools
import os
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from mjstats.audit_rows import UNSUPPORTED, AuditRows, audit_rows
from mjstats.event_columns import EventColumns
from mjstats.gc_pause import paused_collection
from mjstats.records import DUPLICATE_HAND, Hand
from mjstats.replay import ReplayProfile
from mjstats.store import open_dataset
from mjstats.store.arrow_columns import (
    dictionary_encoded,
    empty_table,
    int_values,
    string_scalar,
    table_from_columns,
    valid_mask,
)
from mjstats.store.derived_schema import DERIVED_SCHEMAS
from mjstats.store.fs import is_url, local_path
from mjstats.store.layout import new_version
from mjstats.store.part_cache import WrittenPart, derived, keep_derived, recall
from mjstats.store.rebuild import group_starts
from mjstats.store.remote import dataset_lock, new_remote_version, read_version_part
from mjstats.store.schema import HAND_TABLES, hands_and_columns_from_tables, hands_from_tables

__all__ = ["AUDIT_SCHEMAS", "AuditSummary", "audit_dataset", "audit_hands", "find_hands"]

MIN_BATCH = 500  # hands per task at least (smaller batches cost more than they balance)
# A spawned worker costs about half a second of start-up (interpreter, pyarrow, the rules
# tables) before its first hand, over a thousand hands of replay (~2,600 hands per CPU s): below
# this many hands a job, the default runs fewer workers (one: in this process), as a pool would
# finish later (docs/audit.md).
HANDS_PER_DEFAULT_JOB = 5_000

AUDIT_SCHEMAS = DERIVED_SCHEMAS  # the derived tables this module writes (mjstats.store.derived_schema)


@dataclass(frozen=True)
class AuditSummary:
    """What an audit did: hands replayed, clean, by status, findings per check, rejects skipped."""

    dataset: str
    hands: int
    clean: int
    statuses: dict[str, int]
    findings_by_check: dict[str, int]
    rejects: int  # records that could not be read (not replayable); duplicates not included
    reject_errors: tuple[str, ...] = ()  # the first few rejects, as "source:line: error"
    seconds: float = 0.0
    jobs: int = 1
    duplicates: int = 0  # hands rejected at ingest as already in the dataset
    duplicate_errors: tuple[str, ...] = ()  # the first few, as "source:line: error"
    findings_total: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "findings_total", sum(self.findings_by_check.values()))

    @property
    def with_findings(self) -> int:
        return sum(n for status, n in self.statuses.items() if status not in ("clean", UNSUPPORTED))

    def lines(self) -> list[str]:
        """The summary as text lines for the terminal."""
        rate = self.hands / self.seconds if self.seconds else 0.0
        flagged = ", ".join(
            f"{status} {n:,}" for status, n in self.statuses.items() if status not in ("clean", UNSUPPORTED)
        )
        out = [
            f"audited {self.hands:,} hands in {self.seconds:.1f} s ({rate:,.0f} hands/s, "
            f"{self.jobs} job{'s' if self.jobs != 1 else ''})",
            f"clean: {self.clean:,}; with findings: {self.with_findings:,}"
            + (f" ({flagged})" if flagged else ""),
        ]
        if self.findings_by_check:
            out.append(f"findings: {self.findings_total:,}")
            width = max(len(c) for c in self.findings_by_check)
            for check, count in sorted(self.findings_by_check.items(), key=lambda kv: (-kv[1], kv[0])):
                out.append(f"  {check:<{width}}  {count:,}")
        if self.statuses.get(UNSUPPORTED):
            out.append(
                f"not replayed (no replay profile for their ruleset yet): {self.statuses[UNSUPPORTED]:,}"
            )
        out.append(f"rejected records (not replayable, see the rejects table): {self.rejects:,}")
        out.extend(f"  {text}" for text in self.reject_errors)
        if self.duplicates:
            out.append(f"duplicates (hands already in the dataset, not ingested twice): {self.duplicates:,}")
            out.extend(f"  {text}" for text in self.duplicate_errors)
        return out


# --- the rows one batch produces ------------------------------------------------------------------
def _tables(rows: AuditRows) -> dict[str, pa.Table]:
    """A batch's rows as Arrow tables (built from buffers: ``arrow_columns``), each table's rows
    transposed into columns once."""
    out = {}
    for name, table_rows in rows.tables().items():
        schema = AUDIT_SCHEMAS[name]
        columns = zip(*table_rows, strict=True) if table_rows else ((),) * len(schema)
        out[name] = table_from_columns(dict(zip(schema.names, columns, strict=True)), schema)
    return out


def audit_hands(
    hands: Iterable[Hand],
    profile: ReplayProfile | None = None,
    overrides: Mapping[str, ReplayProfile] | None = None,
    *,
    columns: EventColumns | None = None,
) -> tuple[dict[str, pa.Table], Counter[str], Counter[str]]:
    """Replay ``hands`` (in dataset order): their audit tables, the count per status and the
    count per check. ``overrides`` maps a ruleset to the profile its hands replay with; checks
    across consecutive hands of a match (a profile's ``sequence_check``) see ``hands`` in order.
    ``columns``: the hands were made without their events, which these hold
    (:meth:`PartSlicer.replay_inputs`). The loop and its rows are ``audit_rows`` (compiled in the
    compiled build)."""
    rows, statuses, checks = audit_rows(hands, profile, overrides, columns)
    # Arrow tables travel between processes as buffers: far cheaper than lists of Python objects
    return _tables(rows), statuses, checks


# --- batches of the dataset ---------------------------------------------------------------
_PART_TABLES = HAND_TABLES
_DICTIONARY_READ = ("kind", "claim", "win")  # events columns read dictionary-encoded
_EVENT_KEYS = ("match_id", "hand_no")  # events columns not read back (cut by n_events instead)
Task = tuple[str, str, str, str, int, int]  # (dataset version path, ruleset, period, part, start, stop)
TaskResult = tuple[dict[str, pa.Table], Counter[str], Counter[str], int]  # tables, statuses, checks, hands
FLUSH_HANDS = 50_000  # audited hands buffered before the derived tables get a part file


class PartSlicer:
    """A part file's aligned tables and the row offsets that cut them by hand (one per worker)."""

    def __init__(
        self, version: Path, ruleset: str, period: str, part: str, tables: dict[str, pa.Table] | None = None
    ) -> None:
        sub = Path(f"ruleset={ruleset}") / f"period={period}" / part
        self.ruleset = ruleset
        self.where = str(sub)  # named in a damaged file's error
        # ``tables``: the part already read elsewhere (mjstats.distributed reads URLs via fsspec)
        # (ParquetFile, not pq.read_table, which imports pyarrow.dataset and so pandas: ~0.4 s)
        self.tables = tables or {name: _read_part_table(version / name / sub, name) for name in _PART_TABLES}
        hands = self.tables["hands"]
        # each match id's place, in order of first appearance (no pyarrow.compute in the audit:
        # its import is ~0.05-0.08 s of every audit process's start-up)
        ids = {mid: i for i, mid in enumerate(dict.fromkeys(hands.column("match_id").to_pylist()))}
        keys = _hand_keys(hands, ids)
        self.events = _offsets(hands.column("n_events").to_pylist())
        # wins, fans and payments rows are grouped per hand, in hand order (any number a hand)
        self.wins = group_starts(keys, _hand_keys(self.tables["wins"], ids))
        self.fans = group_starts(keys, _hand_keys(self.tables["fans"], ids))
        self.payments = group_starts(keys, _hand_keys(self.tables["payments"], ids))

    def hands(self, start: int, stop: int) -> list[Hand]:
        """The hands of rows ``start:stop`` of the part."""
        return list(self.iter_hands(start, stop))

    def iter_hands(self, start: int, stop: int) -> Iterator[Hand]:
        """The hands of rows ``start:stop``, each made as the iterator is read (the columns are
        read at the call): the audit replays each hand as it comes, so one hand's memory is
        reused for the next (``EventColumns.stream``)."""
        return self._hands(start, stop, False)[0]

    def replay_inputs(self, start: int, stop: int) -> tuple[Iterator[Hand], EventColumns]:
        """The hands of rows ``start:stop`` made without their events, and the events' columns
        (``mjstats.event_columns``; each hand's rows set as it is yielded), which the replay of
        a profile that reads them takes its events from: the audit's tasks."""
        hands, columns = self._hands(start, stop, True)
        assert columns is not None
        return hands, columns

    def _hands(self, start: int, stop: int, as_columns: bool) -> tuple[Iterator[Hand], EventColumns | None]:
        t = self.tables

        def cut(name: str, offsets: list[int]) -> pa.Table:
            return t[name].slice(offsets[start], offsets[stop] - offsets[start])

        def starts(offsets: list[int]) -> list[int]:  # the hands' rows, from the slice's first
            first = offsets[start]
            return [at - first for at in offsets[start : stop + 1]]

        tables = (
            t["hands"].slice(start, stop - start),
            cut("events", self.events),
            cut("wins", self.wins),
            cut("fans", self.fans),
            cut("payments", self.payments),
        )
        at = (starts(self.wins), starts(self.fans), starts(self.payments))
        # a damaged file: say which part holds it (``where``)
        if as_columns:
            return hands_and_columns_from_tables(self.ruleset, *tables, starts=at, where=self.where)
        return hands_from_tables(self.ruleset, *tables, starts=at, where=self.where), None


def _read_part_table(path: Path, name: str) -> pa.Table:
    """One table of a part file as the read-back needs it. The events are cut by each hand's
    ``n_events``, so their keys (a match id per event) are not read, and ``kind``, ``claim`` and
    ``win`` stay dictionary-encoded as stored (decoded once per distinct value, not once per
    event). A table this process wrote to that very file (``ingest --audit``,
    ``store.part_cache``) is taken from memory, in the same form."""
    kept = recall(path)
    if kept is not None:
        return _as_read(kept, name)
    if name != "events":
        return pq.ParquetFile(path).read()
    events = pq.ParquetFile(path, read_dictionary=list(_DICTIONARY_READ))
    return events.read(columns=[c for c in events.schema_arrow.names if c not in _EVENT_KEYS])


def _as_read(table: pa.Table, name: str) -> pa.Table:
    """A part table as written, in the form :func:`_read_part_table` reads it from its file."""
    if name != "events":
        return table
    table = table.select([c for c in table.schema.names if c not in _EVENT_KEYS])
    for column in _DICTIONARY_READ:
        at = table.schema.get_field_index(column)
        table = table.set_column(at, column, dictionary_encoded(table.column(at)))
    return table


def _hand_keys(table: pa.Table, ids: dict[str, int]) -> list[int]:
    """Each row's (match_id, hand_no) as one integer, equal exactly when both are: the match id's
    place in ``ids`` (-1 when absent) and the hand number (a null one never equals a number).
    Integers compare and convert far faster than pairs of strings and numbers. (numpy on the
    columns' buffers: a compute call with a Python number, or ``to_numpy``, imports pandas.)"""
    place = ids.get
    code = np.array([place(mid, -1) for mid in table.column("match_id").to_pylist()], np.int64)
    hand_no = table.column("hand_no")
    number = int_values(hand_no).astype(np.int64) + (1 << 31)
    valid = valid_mask(hand_no)
    if valid is not None:
        number[~valid] = 1 << 32
    return (code * (1 << 33) + number).tolist()


def _offsets(counts: Any) -> list[int]:
    out, total = [0], 0
    for n in counts:
        total += n
        out.append(total)
    return out


_worker_profile: ReplayProfile | None = None
_worker_overrides: Mapping[str, ReplayProfile] | None = None
_local = threading.local()  # one cached part per worker thread (a part's tasks run in a row)


def _init_worker(profile: ReplayProfile | None, overrides: Mapping[str, ReplayProfile] | None = None) -> None:
    global _worker_profile, _worker_overrides
    _worker_profile, _worker_overrides = profile, overrides


def _slicer(version: str, ruleset: str, period: str, part: str) -> PartSlicer:
    key = (version, ruleset, period, part)
    cached = getattr(_local, "slicer", None)
    if cached is not None and cached[0] == key:
        return cached[1]
    if is_url(version):
        tables = read_version_part(version, ruleset, period, part)
        slicer = PartSlicer(Path(), ruleset, period, part, tables=tables)
    else:
        slicer = PartSlicer(Path(version), ruleset, period, part)
    _local.slicer = (key, slicer)
    return slicer


def replay_task(
    task: Task, profile: ReplayProfile | None = None, overrides: Mapping[str, ReplayProfile] | None = None
) -> TaskResult:
    """Replay one task (a slice of a part file; its version is a local folder or a URL): the
    audit tables of its hands, the count per status and per check, and the number of hands.
    Both runners use it: the process pool (through ``_run_task``) and Dask workers."""
    version, ruleset, period, part, start, stop = task
    if profile is None and not overrides:
        done = _done_ahead(task)
        if done is not None:
            return done
    # no cycles among the rebuilt hands: the collector's rescans of them would cost more than the
    # replay (mjstats.gc_pause)
    with paused_collection():
        # each hand rebuilt as the replay takes it: its memory is reused by the next; its events
        # read from their columns (no Event made for a draw or a discard: mjstats.event_columns)
        hands, columns = _slicer(version, ruleset, period, part).replay_inputs(start, stop)
        tables, statuses, checks = audit_hands(hands, profile, overrides, columns=columns)
    return tables, statuses, checks, sum(statuses.values())  # a status a hand


def _done_ahead(task: Task) -> TaskResult | None:
    """The task's result if :func:`audit_ahead` computed it from the very table its part file
    was written from (a local file this process wrote and still keeps: store.part_cache)."""
    done = _ahead_entry(task)
    return None if done is None else done[1]


def _ahead_entry(task: Task) -> tuple[pa.Table, TaskResult, float] | None:
    """What :func:`audit_ahead` kept for ``task`` (the table, the result, the seconds it took),
    if it is for the very table the task's part file was written from."""
    version, ruleset, period, part, start, stop = task
    if is_url(version):
        return None
    hands = recall(Path(version) / "hands" / f"ruleset={ruleset}" / f"period={period}" / part)
    if hands is None:
        return None
    done = derived(("audit", ruleset, period, part, start, stop))
    if done is None or done[0] is not hands:
        return None
    return done


def audit_ahead(jobs: int | None) -> Callable[[list[WrittenPart], bool], None]:
    """For ``ingest --audit``: the ``ahead`` callback of ``store.part_cache.keeping_parts``.
    While the ingest's last part files are encoded on its writer thread, it replays the tasks the
    audit that follows will run in this process (``jobs`` as the audit is given them), so the
    replay overlaps the encoding instead of waiting for it. A task's result depends on its part's
    tables and bounds alone (``replay_task``); the audit takes it only for the same bounds of the
    table its file was written from, and replays anything else itself. Only when the parts are
    the whole dataset (the audit's cut is then theirs) and the audit will not use a pool."""

    def ahead(parts: list[WrittenPart], whole: bool) -> None:
        if not whole:
            return
        keys = [(p.ruleset, p.period, p.name) for p in parts]
        by_key = {key: p.tables for key, p in zip(keys, parts, strict=True)}

        def match_ids(ruleset: str, period: str, part: str) -> list[str]:
            return by_key[ruleset, period, part]["hands"].column("match_id").to_pylist()

        cores = _cores(jobs)
        sizes = [p.tables["hands"].num_rows for p in parts]
        tasks = cut_tasks("", keys, sizes, match_ids, cores, None)
        if not _in_process(_workers(jobs, cores, sum(sizes), HANDS_PER_DEFAULT_JOB), tasks):
            return  # the audit's pool will replay them
        slicers: dict[tuple[str, str, str], PartSlicer] = {}
        with paused_collection():
            for _, ruleset, period, part, start, stop in tasks:
                began = time.perf_counter()
                tables = by_key[ruleset, period, part]
                slicer = slicers.get((ruleset, period, part))
                if slicer is None:
                    read = {name: _as_read(tables[name], name) for name in _PART_TABLES}
                    slicer = slicers[ruleset, period, part] = PartSlicer(Path(), ruleset, period, part, read)
                hands, columns = slicer.replay_inputs(start, stop)  # as replay_task reads them
                audited, statuses, checks = audit_hands(hands, columns=columns)
                result = (audited, statuses, checks, sum(statuses.values()))
                took = time.perf_counter() - began  # counted in the audit's time (its summary)
                keep_derived(("audit", ruleset, period, part, start, stop), (tables["hands"], result, took))

    return ahead


def _run_task(task: Task) -> TaskResult:
    """A pool worker's task, with the profiles its initializer received."""
    return replay_task(task, _worker_profile, _worker_overrides)


def default_jobs(hands: int, cores: int, per_job: int = HANDS_PER_DEFAULT_JOB) -> int:
    """Worker processes when the caller names none: one per core, but no more than one per
    ``per_job`` hands, so a small dataset is not slowed by workers' start-up."""
    return max(1, min(cores, hands // per_job))


def plan_run(
    version: Path, parts: list[tuple[str, str, str]], jobs: int | None, batch: int | None, per_job: int
) -> tuple[list[Task], int]:
    """A stage's tasks and its worker count: ``jobs`` as asked, or by default one per core and
    at most one per ``per_job`` hands (:func:`default_jobs`). Shared by the audit and the
    decisions stage; the tasks are cut for the cores either way."""
    cores = _cores(jobs)
    tasks = plan_tasks(version, parts, cores, batch)
    return tasks, _workers(jobs, cores, sum(stop - start for *_, start, stop in tasks), per_job)


def _cores(jobs: int | None) -> int:
    """The cores a stage's tasks are cut for: ``jobs`` as asked, else the machine's."""
    return max(1, jobs if jobs is not None else (os.cpu_count() or 1))


def _workers(jobs: int | None, cores: int, hands: int, per_job: int) -> int:
    """A stage's worker count (:func:`plan_run`, and :func:`audit_ahead` guessing the audit's)."""
    return cores if jobs is not None else default_jobs(hands, cores, per_job)


def _in_process(workers: int, tasks: list[Task]) -> bool:
    """Whether the tasks run in this process rather than a pool (:func:`_pool_results`)."""
    return workers <= 1 or len(tasks) <= 1


def plan_tasks(version: Path, parts: list[tuple[str, str, str]], jobs: int, batch: int | None) -> list[Task]:
    """Batches of hands, each within one part file and never splitting a match. Without a fixed
    ``batch``, about four per job (at least 500 hands): whole part files when there are many, so
    each is read by one worker."""
    def hands_file(ruleset: str, period: str, part: str) -> Path:
        return version / "hands" / f"ruleset={ruleset}" / f"period={period}" / part

    # a part this process has just written (ingest --audit, store.part_cache) is planned from
    # the table kept in memory: opening its file for the footer and the match ids again was ~4%
    # of a 2,000-hand ingest --audit's wall time
    def match_ids(ruleset: str, period: str, part: str) -> list[str]:
        path = hands_file(ruleset, period, part)
        kept = recall(path)
        if kept is not None:
            return kept.column("match_id").to_pylist()
        # (ParquetFile: pq.read_table imports pyarrow.dataset, and so pandas)
        return pq.ParquetFile(path).read(columns=["match_id"]).column("match_id").to_pylist()

    def size(path: Path) -> int:
        kept = recall(path)
        return kept.num_rows if kept is not None else pq.ParquetFile(path).metadata.num_rows

    sizes = [size(hands_file(*p)) for p in parts]
    return cut_tasks(str(version), parts, sizes, match_ids, jobs, batch)


def cut_tasks(
    version: str,
    parts: list[tuple[str, str, str]],
    sizes: list[int],
    match_ids: Callable[[str, str, str], list[str]],
    jobs: int,
    batch: int | None,
) -> list[Task]:
    """:func:`plan_tasks` on the parts' hand counts and a reader of a part's match ids (asked
    only for a part cut in several tasks): the same cut wherever the parts are read from."""
    if batch is None:
        batch = max(MIN_BATCH, -(-sum(sizes) // (4 * jobs)))
    tasks: list[Task] = []
    for (ruleset, period, part), n in zip(parts, sizes, strict=True):
        if not n:
            continue
        count = -(-n // batch)  # equal slices of the part, none above ``batch``
        edges = [n * i // count for i in range(count + 1)]
        if count > 1:
            edges = _match_edges(match_ids(ruleset, period, part), edges)
        tasks.extend((version, ruleset, period, part, a, b) for a, b in itertools.pairwise(edges))
    return tasks


def _match_edges(ids: list[str], edges: list[int]) -> list[int]:
    """Slice edges moved forward to the next match boundary: a match's hands stay in one task,
    so the checks across consecutive hands (dealer rotation, streaks) see them all."""
    moved = []
    for edge in edges:
        while 0 < edge < len(ids) and ids[edge] == ids[edge - 1]:
            edge += 1
        if not moved or edge > moved[-1]:
            moved.append(edge)
    return moved


def _pool_results(
    tasks: list[Task],
    jobs: int,
    profile: ReplayProfile | None,
    overrides: Mapping[str, ReplayProfile] | None = None,
) -> Iterator[Any]:
    if _in_process(jobs, tasks):
        _init_worker(profile, overrides)
        yield from map(_run_task, tasks)
        return
    # spawned workers (mjstats.workers): clean interpreters that die with this process and never
    # re-run the caller's script, so a library call needs no ``__main__`` guard
    from mjstats.workers import ordered_map  # here: multiprocessing's import (~0.03 s) only for jobs

    yield from ordered_map(
        _run_task, ((task,) for task in tasks), jobs, init=_init_worker, init_args=(profile, overrides)
    )


class PartWriter:
    """Buffers task results and writes them as numbered part files per table and ruleset, so the
    tables read back in task order (part files are read in name order). Shared by every stage
    that stores derived tables (the audit, the decisions): ``schemas`` names the tables."""

    def __init__(
        self, put: Callable[[str, pa.Table], None], flush_hands: int, schemas: Mapping[str, pa.Schema]
    ) -> None:
        self.put = put
        self.flush_hands = flush_hands
        self.schemas = schemas
        self.pending: dict[str, list[pa.Table]] = {name: [] for name in schemas}
        self.hands = 0
        self.files = 0

    def add(self, tables: Mapping[str, pa.Table], hands: int) -> None:
        """Buffer one task's tables (``hands``: the hands they cover); write past flush_hands."""
        for name, table in tables.items():
            self.pending[name].append(table)
        self.hands += hands
        if self.hands >= self.flush_hands:
            self.flush()

    def flush(self) -> None:
        if not self.hands:
            return
        name_of_file = f"part-{self.files:05d}.parquet"
        self.files += 1
        for name, parts in self.pending.items():
            table = pa.concat_tables(parts) if parts else empty_table(self.schemas[name])
            parts.clear()
            column = table.column("ruleset")
            rest = table.drop_columns(["ruleset"])
            values = sorted(set(column.to_pylist()), key=str)
            if len(values) == 1 and values[0] is not None:  # one ruleset (the usual): every row
                self.put(f"{name}/ruleset={values[0]}/{name_of_file}", rest)
                continue
            if not values:  # no rows: no file
                continue
            import pyarrow.compute as pc  # several rulesets: a filter each (not imported otherwise)

            for value in values:
                chosen = pc.equal(column, string_scalar(value))
                self.put(f"{name}/ruleset={value}/{name_of_file}", rest.filter(chosen))
        self.hands = 0


@contextmanager
def derived_output_version(
    dataset: str | Path, names: tuple[str, ...]
) -> Iterator[tuple[Callable[[str, pa.Table], None], dict]]:
    """The next version of ``dataset`` without the derived tables ``names`` (a rerun replaces
    them): yields (write a file, manifest). Local folders and ``file://`` use the atomic local
    layout; other URLs ``new_remote_version``."""
    local = local_path(dataset) if isinstance(dataset, str) else dataset
    if local is not None:
        with new_version(local, drop=names) as (staging, manifest):
            for name in names:
                (staging / name).mkdir()

            def put_local(rel: str, table: pa.Table) -> None:
                path = staging / rel
                path.parent.mkdir(parents=True, exist_ok=True)
                pq.write_table(table, path, compression="zstd")

            yield put_local, manifest
        return
    with new_remote_version(str(dataset), drop=names) as (fs, target, manifest):
        for name in names:
            fs.makedirs(f"{target}/{name}", exist_ok=True)

        def put_remote(rel: str, table: pa.Table) -> None:
            with fs.open(f"{target}/{rel}", "wb") as fh:
                pq.write_table(table, fh, compression="zstd")

        yield put_remote, manifest


def audit_dataset(
    path: str | Path,
    *,
    jobs: int | None = None,
    progress: Callable[[int], None] | None = None,
    profile: ReplayProfile | None = None,
    batch_hands: int | None = None,
    overrides: Mapping[str, ReplayProfile] | None = None,
    flush_hands: int = FLUSH_HANDS,
    wait: float | None = None,
    on_wait: Callable[[Any], None] | None = None,
) -> AuditSummary:
    """Replay every hand of the dataset at ``path`` and store the audit tables in it.

    ``jobs``: worker processes (default: one per CPU core, at most one per 5,000 hands; 1 = in
    this process). ``progress`` is called
    with the number of hands done so far. ``profile`` forces one replay profile for every hand
    (default: each hand's own); ``overrides`` one per ruleset name (its ``user_profile`` part
    applied to, say, ``"club.toml"``); ``batch_hands`` the hands per task (default: about four tasks per job;
    tasks never split a match, so checks across its hands see all of them). Rejected records are
    counted, never replayed. The run holds the dataset's writer lock throughout (another writer
    makes it wait up to ``wait`` seconds, then DatasetBusy).
    """
    started = time.perf_counter()
    # a URL (s3://, memory://) is replayed from the local snapshot its reader takes (store.snapshot)
    root = path if is_url(path) else Path(path)
    # one writer from the read to the store: no change may come in between
    with dataset_lock(root, wait=wait, on_wait=on_wait), open_dataset(root) as dataset:
        rejects = dataset.arrow("rejects", columns=["source", "line", "error"])
        tasks, jobs = plan_run(dataset.path, dataset.parts(), jobs, batch_hands, HANDS_PER_DEFAULT_JOB)
        if profile is None and not overrides:  # replays made ahead count in the audit's time
            started -= sum(done[2] for done in map(_ahead_entry, tasks) if done is not None)
        results = _pool_results(tasks, jobs, profile, overrides)
        return store_results(root, results, rejects, flush_hands=flush_hands, progress=progress,
                             started=started, jobs=jobs)



def store_results(
    dataset: str | Path,
    results: Iterable[TaskResult],
    rejects: pa.Table,
    *,
    flush_hands: int,
    progress: Callable[[int], None] | None,
    started: float,
    jobs: int,
) -> AuditSummary:
    """Write task results into the next dataset version as they come (every ``flush_hands``
    hands, never gathered whole) and sum them up; shared by the process pool and Dask runners."""
    statuses: Counter[str] = Counter()
    checks: Counter[str] = Counter()
    done = 0
    with derived_output_version(dataset, tuple(AUDIT_SCHEMAS)) as (put, manifest):
        writer = PartWriter(put, flush_hands, AUDIT_SCHEMAS)
        for tables, task_statuses, task_checks, n in results:
            writer.add(tables, tables["audited_hands"].num_rows)
            statuses.update(task_statuses)
            checks.update(task_checks)
            done += n
            if progress is not None:
                progress(done)
        writer.flush()
        manifest["tables"] = sorted({*manifest.get("tables", []), *AUDIT_SCHEMAS})
    # a duplicate hand is its own category: it was read fine, the dataset already holds it
    errors = rejects.column("error").to_pylist()
    duplicate = [e is not None and e.startswith(DUPLICATE_HAND) for e in errors]
    unreadable = [i for i, dup in enumerate(duplicate) if not dup]
    duplicates = [i for i, dup in enumerate(duplicate) if dup]

    def first(rows: list[int]) -> tuple[str, ...]:  # the summary shows the first few
        shown = [rejects.slice(i, 1).to_pylist()[0] for i in rows[:5]]
        return tuple(f"{r['source']}:{r['line']}: {r['error']}" for r in shown)

    return AuditSummary(
        dataset=str(dataset),
        hands=done,
        clean=statuses.get("clean", 0),
        statuses=dict(sorted(statuses.items())),
        findings_by_check=dict(sorted(checks.items())),
        rejects=len(unreadable),
        reject_errors=first(unreadable),
        seconds=time.perf_counter() - started,
        jobs=jobs,
        duplicates=len(duplicates),
        duplicate_errors=first(duplicates),
    )


def find_hands(path: str | Path, match_id: str, hand_no: int | None = None) -> list[Hand]:
    """The hands of one match (or one hand of it) from the dataset, for --explain."""
    dataset = open_dataset(path)
    found: list[Hand] = []
    for ruleset, period, part in dataset.parts():
        sub = Path(f"ruleset={ruleset}") / f"period={period}" / part
        ids = pq.read_table(dataset.path / "hands" / sub, columns=["match_id"]).column("match_id")
        if match_id not in set(ids.to_pylist()):
            continue
        found.extend(
            h
            for h in dataset.read_part(ruleset, period, part)
            if h.match_id == match_id and (hand_no is None or h.hand_no == hand_no)
        )
    return found
