"""The ``decisions`` stage: judge every hand of a dataset in a process pool and store the
``decisions`` table (one row per decision) in the dataset's next version.

Streamed like the audit (``mjstats.audit``): the same tasks (slices of part files), results kept
in task order so the table is the same for any job count, a part file written every
``flush_hands`` hands, the dataset's writer lock held throughout, and the new version going live
only at the end (an interrupted run leaves the dataset as it was).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from mjstats.audit import PartSlicer, PartWriter, Task, derived_output_version, plan_run
from mjstats.decision.judge import FLAGS, KINDS, DecisionColumns, hand_decision_columns
from mjstats.gc_pause import paused_collection
from mjstats.records import Hand
from mjstats.replay.profile import ReplayProfile
from mjstats.store import open_dataset
from mjstats.store.arrow_columns import empty_table
from mjstats.store.fs import is_url
from mjstats.store.remote import dataset_lock
from mjstats.workers import ordered_map

__all__ = ["DECISIONS", "DECISIONS_SCHEMA", "DecisionSummary", "decisions", "decisions_table"]

DECISIONS = "decisions"  # the table's name in the dataset
FLUSH_HANDS = 50_000
# a worker costs about 1.5 CPU s to start and warm its tables (~150 hands of judging), so
# below 500 hands a worker the pool gains little: the default starts fewer workers then
# (mjstats.audit.plan_run)
HANDS_PER_DEFAULT_JOB = 500

_i16, _i32 = pa.int16(), pa.int32()
DECISIONS_SCHEMA = pa.schema(
    [
        ("match_id", pa.string()),
        ("hand_no", _i32),
        ("seq", _i32),
        ("seat", pa.int8()),
        ("kind", pa.string()),
        ("shanten_before", _i16),
        ("shanten_after", _i16),
        ("useful_kept", _i32),
        ("useful_best", _i32),
        ("best_discards", pa.string()),
        ("danger", pa.int8()),
        ("flags", pa.string()),
        ("ruleset", pa.string()),  # the Hive partition (moved into the folder name)
    ]
)
COLUMNS = tuple(DECISIONS_SCHEMA.names)


@dataclass(frozen=True)
class DecisionSummary:
    """What a run judged: hands, decisions by kind and flag, hands not judged and why."""

    dataset: str
    hands: int
    decisions: int
    by_kind: dict[str, int]
    by_flag: dict[str, int]
    not_judged: dict[str, int]  # reason -> hands (a ruleset with no judge, a replay that failed)
    errors: tuple[str, ...] = ()  # the first few hands that failed, as "match hand N: error"
    seconds: float = 0.0
    jobs: int = 1

    def lines(self) -> list[str]:
        rate = self.hands / self.seconds if self.seconds else 0.0
        out = [
            f"judged {self.hands:,} hands in {self.seconds:.1f} s ({rate:,.0f} hands/s, "
            f"{self.jobs} job{'s' if self.jobs != 1 else ''}): {self.decisions:,} decisions",
            "  " + ", ".join(f"{k} {self.by_kind.get(k, 0):,}" for k in KINDS),
            "flags: " + (", ".join(f"{f} {self.by_flag.get(f, 0):,}" for f in FLAGS)),
        ]
        for reason, n in sorted(self.not_judged.items()):
            out.append(f"not judged ({reason}): {n:,} hands")
        out.extend(f"  {text}" for text in self.errors)
        return out


def decisions_table(
    hands: list[Hand], overrides: Mapping[str, ReplayProfile] | None = None
) -> tuple[pa.Table, Counter[str], list[str]]:
    """The decision rows of ``hands`` (``ruleset`` column included), hands not judged by
    reason, and the errors met (one line per hand that failed). ``overrides`` maps a ruleset
    to the replay profile its hands are judged under (a club's rule TOML, as for the audit)."""
    out = DecisionColumns()
    rulesets: list[str] = []
    skipped: Counter[str] = Counter()
    errors: list[str] = []
    for hand in hands:
        try:
            rows = hand_decision_columns(hand, out, (overrides or {}).get(hand.ruleset))
        except Exception as exc:  # one broken record must not stop a run over a million hands
            skipped["replay failed"] += 1
            errors.append(f"{hand.match_id} hand {hand.hand_no}: {type(exc).__name__}: {exc}")
            continue
        if not rows and _unjudged(hand):
            skipped[f"no decision judge for {hand.ruleset}/{hand.profile}"] += 1
            continue
        rulesets.extend([hand.ruleset] * rows)
    cols: dict[str, list[Any]] = {**out.columns(), "ruleset": rulesets}
    return pa.Table.from_pydict(cols, schema=DECISIONS_SCHEMA), skipped, errors


def _unjudged(hand: Hand) -> bool:
    from mjstats.decision.view import view_for
    from mjstats.errors import ProfileError
    from mjstats.replay import profile_for

    if view_for(hand.ruleset) is None:
        return True
    try:
        profile_for(hand)
    except ProfileError:
        return True
    return False


TaskResult = tuple[pa.Table, Counter[str], list[str], int]
_parts: dict[tuple[str, str, str, str], PartSlicer] = {}
_overrides: Mapping[str, ReplayProfile] | None = None  # this worker's profiles by ruleset


def _init_worker(overrides: Mapping[str, ReplayProfile] | None) -> None:
    global _overrides
    _overrides = overrides


def run_task(task: Task) -> TaskResult:
    """Judge one task (a slice of a part file): its rows, skipped hands, errors, hands."""
    version, ruleset, period, part, start, stop = task
    key = (version, ruleset, period, part)
    slicer = _parts.get(key)
    if slicer is None:
        _parts.clear()  # one part at a time per worker (a part's tasks run in a row)
        slicer = _parts[key] = PartSlicer(Path(version), ruleset, period, part)
    # no cycles among the hands and the judge's objects: the collector's rescans of the
    # memoised tables would cost more than they free (mjstats.gc_pause)
    with paused_collection():
        hands = slicer.hands(start, stop)
        table, skipped, errors = decisions_table(hands, _overrides)
        count = len(hands)
        del hands
    return table, skipped, errors, count


def _results(
    tasks: list[Task], jobs: int, overrides: Mapping[str, ReplayProfile] | None
) -> Iterator[TaskResult]:
    if jobs <= 1 or len(tasks) <= 1:
        _init_worker(overrides)
        try:
            yield from map(run_task, tasks)
        finally:
            _parts.clear()  # the last part's tables are not kept past the run
            _init_worker(None)
        return
    work = ((task,) for task in tasks)
    yield from ordered_map(run_task, work, jobs, init=_init_worker, init_args=(overrides,))


def decisions(
    path: str | Path,
    *,
    jobs: int | None = None,
    progress: Callable[[int], None] | None = None,
    batch_hands: int | None = None,
    flush_hands: int = FLUSH_HANDS,
    wait: float | None = None,
    on_wait: Callable[[Any], None] | None = None,
    overrides: Mapping[str, ReplayProfile] | None = None,
) -> DecisionSummary:
    """Judge every decision of the dataset at ``path`` and store the ``decisions`` table in it
    (a rerun replaces it). ``jobs``: worker processes (default: CPU count, at most one per 500
    hands; 1 = this process);
    ``progress`` is called with the hands done so far; ``overrides`` maps a ruleset to the replay
    profile its hands are judged under (``{name: user_profile("club.toml")}``, as the audit; default:
    each hand's own). Holds the dataset's writer lock (another writer makes it wait up to
    ``wait`` seconds, then DatasetBusy)."""
    started = time.perf_counter()
    root = path if is_url(path) else Path(path)
    kinds: Counter[str] = Counter()
    flags: Counter[str] = Counter()
    skipped: Counter[str] = Counter()
    errors: list[str] = []
    done = rows = 0
    with dataset_lock(root, wait=wait, on_wait=on_wait), open_dataset(root) as dataset:
        tasks, jobs = plan_run(dataset.path, dataset.parts(), jobs, batch_hands, HANDS_PER_DEFAULT_JOB)
        with derived_output_version(root, (DECISIONS,)) as (put, manifest):
            writer = PartWriter(put, flush_hands, {DECISIONS: DECISIONS_SCHEMA})
            for table, task_skipped, task_errors, n in _results(tasks, jobs, overrides):
                writer.add({DECISIONS: table}, n)
                rows += table.num_rows
                kinds.update(_counts(table, "kind"))
                flags.update(_flag_counts(table))
                skipped.update(task_skipped)
                errors.extend(task_errors[: max(0, 5 - len(errors))])
                done += n
                if progress is not None:
                    progress(done)
            writer.flush()
            if not rows:  # no decision at all: an empty file keeps the table's columns
                empty = empty_table(DECISIONS_SCHEMA).drop_columns(["ruleset"])
                put(f"{DECISIONS}/part-empty.parquet", empty)
            manifest["tables"] = sorted({*manifest.get("tables", []), DECISIONS})
    return DecisionSummary(
        dataset=str(path),
        hands=done - sum(skipped.values()),
        decisions=rows,
        by_kind=dict(sorted(kinds.items())),
        by_flag=dict(sorted(flags.items())),
        not_judged=dict(sorted(skipped.items())),
        errors=tuple(errors),
        seconds=time.perf_counter() - started,
        jobs=jobs,
    )


def _counts(table: pa.Table, column: str) -> Counter[str]:
    counts = pc.value_counts(table.column(column)).to_pylist()
    return Counter({c["values"]: c["counts"] for c in counts})


def _flag_counts(table: pa.Table) -> Counter[str]:
    out: Counter[str] = Counter()
    for text, n in _counts(table, "flags").items():
        for flag in text.split(","):
            if flag:
                out[flag] += n
    return out
