"""The audit on a Dask cluster (or in this process) over local folders or fsspec URLs, streamed.

The work is the process-pool audit's (``mjstats.audit``): the same tasks (slices of part files
that never split a match), the same per-hand replay (``audit_hands``). Tasks run on Dask workers;
their tables come back in task order and are written as they arrive, a few part files per
table, into the dataset's next version, so the parent holds at most ``window`` task results and
one flush buffer whatever the dataset size. The tables read back are the process-pool audit's,
row for row (docs/scaling.md).

    >>> audit_distributed("ds", scheduler="local:2")          # a 2-worker LocalCluster
    >>> audit_distributed("s3://bucket/ds", scheduler="tcp://10.0.0.5:8786")

Dask is optional (``pip install mjstats[dask]``): this module imports it only when a scheduler
is asked for.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pyarrow as pa

from mjstats.audit import (
    FLUSH_HANDS,
    AuditSummary,
    Task,
    TaskResult,
    plan_tasks,
    replay_task,
    store_results,
)
from mjstats.errors import MjstatsError
from mjstats.replay import ReplayProfile
from mjstats.store import open_dataset
from mjstats.store.fs import is_url
from mjstats.store.remote import RemoteDataset, dataset_lock

__all__ = ["FLUSH_HANDS", "audit_distributed", "connect", "replay_task"]

INSTALL_HINT = "pip install mjstats[dask]"


# --- the scheduler --------------------------------------------------------------------------------
def _dask() -> Any:
    try:
        import distributed
    except ImportError as exc:
        raise MjstatsError(f"running on a Dask scheduler needs Dask: {INSTALL_HINT}") from exc
    return distributed


@contextmanager
def connect(scheduler: str | Any) -> Iterator[Any]:
    """A Dask client for ``scheduler``: ``tcp://HOST:PORT`` (a running scheduler), ``local:N``
    (a LocalCluster of N single-threaded worker processes, closed afterwards) or a Client."""
    if not isinstance(scheduler, str):
        yield scheduler
        return
    distributed = _dask()
    if scheduler.startswith("local:"):
        try:
            n = int(scheduler.removeprefix("local:"))
        except ValueError:
            n = 0
        if n < 1:
            raise MjstatsError(f"--scheduler {scheduler}: local:N needs a worker count N >= 1")
        cluster = distributed.LocalCluster(
            n_workers=n, threads_per_worker=1, processes=True, dashboard_address=":0"
        )
        try:
            with distributed.Client(cluster) as client:
                yield client
        finally:
            cluster.close()
        return
    if "://" not in scheduler:
        raise MjstatsError(f"--scheduler {scheduler}: expected tcp://HOST:PORT or local:N")
    try:
        client = distributed.Client(scheduler, timeout="30s")
    except OSError as exc:
        raise MjstatsError(f"--scheduler {scheduler}: cannot connect ({exc})") from exc
    with client:
        yield client


def _worker_threads(client: Any) -> int:
    workers = client.scheduler_info().get("workers", {})
    return max(1, sum(int(w.get("nthreads", 1)) for w in workers.values()))


def _on_client(
    client: Any,
    tasks: list[Task],
    profile: ReplayProfile | None,
    overrides: Mapping[str, ReplayProfile] | None,
    window: int,
) -> Iterator[TaskResult]:
    """Task results in task order; at most ``window`` tasks submitted and not yet collected
    (the rest wait here, so neither the workers nor this process hold every result)."""
    # each worker gets the profiles once, not once per task
    shared = client.scatter([profile, overrides], broadcast=True) if profile or overrides else [None, None]
    pending: deque[Any] = deque()
    todo = iter(tasks)
    while True:
        while len(pending) < window:
            task = next(todo, None)
            if task is None:
                break
            pending.append(client.submit(replay_task, task, *shared, pure=False))
        if not pending:
            return
        future = pending.popleft()
        result = future.result()
        future.release()
        yield result


# --- the audit ------------------------------------------------------------------------------------
def _plan(dataset: str | Path, workers: int, batch_hands: int | None) -> tuple[list[Task], pa.Table]:
    """The tasks and the rejects (source, line, error) of a dataset. Local folders get the
    process-pool audit's own tasks; a URL dataset one task per part file (a few thousand hands
    each). Either way a task boundary is a part-file or match boundary, so the checks across a
    match's hands see what they see in the process-pool audit."""
    if is_url(dataset):
        remote = RemoteDataset(str(dataset))
        version = remote.version_url()
        tasks = [
            (version, rs, period, part, 0, n)
            for rs, period, part in remote.parts()
            if (n := remote.part_rows(rs, period, part))
        ]
        return tasks, remote.arrow("rejects", ["source", "line", "error"])
    local = open_dataset(dataset)
    rejects = local.arrow("rejects", columns=["source", "line", "error"])
    return plan_tasks(local.path, local.parts(), workers, batch_hands), rejects


def audit_distributed(
    dataset: str | Path,
    *,
    scheduler: str | Any | None = None,
    progress: Callable[[int], None] | None = None,
    profile: ReplayProfile | None = None,
    overrides: Mapping[str, ReplayProfile] | None = None,
    batch_hands: int | None = None,
    flush_hands: int = FLUSH_HANDS,
    window: int | None = None,
    wait: float | None = None,
) -> AuditSummary:
    """Audit ``dataset`` (a local folder, or a URL such as ``s3://bucket/ds`` or ``memory://ds``)
    and store the audit tables in its next version, streaming.

    ``scheduler``: ``"tcp://HOST:PORT"``, ``"local:N"``, a ``distributed.Client``, or None to
    replay in this process (no Dask needed). Workers must see the dataset at the same path or
    URL (shared storage). ``window``: tasks in flight (default four per worker thread).
    ``profile``/``overrides``/``batch_hands``/``wait`` as in :func:`mjstats.audit.audit_dataset`.
    """
    started = time.perf_counter()
    if isinstance(dataset, str) and not is_url(dataset):
        dataset = Path(dataset)
    with dataset_lock(dataset, wait=wait), _scheduler(scheduler) as client:
        workers = _worker_threads(client) if client is not None else 1
        tasks, rejects = _plan(dataset, workers, batch_hands)
        if client is None:
            results: Iterator[TaskResult] = (replay_task(t, profile, overrides) for t in tasks)
        else:
            results = _on_client(client, tasks, profile, overrides, window or 4 * workers)
        return store_results(dataset, results, rejects, flush_hands=flush_hands, progress=progress,
                             started=started, jobs=workers)


@contextmanager
def _scheduler(scheduler: str | Any | None) -> Iterator[Any]:
    if scheduler is None:
        yield None
        return
    with connect(scheduler) as client:
        yield client
