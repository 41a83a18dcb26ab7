"""Worker processes for the parallel stages (ingest parsing, the audit): safe to start from a library.

Three promises, each for a failure seen in the field:

* **Workers die with their parent, ``kill -9`` included.** Each worker asks Linux to kill it
  when its parent goes (``prctl(PR_SET_PDEATHSIG)``: immediate, but Linux-only and tied to the
  thread that started the worker), and runs a watchdog thread that exits as soon as its parent
  pid changes (portable, covers the thread caveat, costs one wake-up per half second). A pipe
  held by the parent would also work, but passing its end to a spawned worker needs the same
  machinery as the pool's own queues and tells nothing the parent pid does not.
* **Workers import mjstats from where the parent did.** A worker's ``sys.path`` starts with
  the folder holding the parent's ``mjstats`` package, so an unrelated ``mjstats/`` folder in
  the current folder cannot shadow it.
* **Workers never re-run the caller's script.** ``spawn`` (and ``forkserver``) normally run the
  parent's ``__main__`` again in every worker, so a script calling ``audit_dataset(..., jobs=2)``
  without an ``if __name__ == "__main__":`` guard started pools from inside its workers,
  which died and were replaced forever. Our tasks are all mjstats functions, so workers are
  started with the main module left out (:func:`_library_launch`).

Workers start with ``spawn``: a clean interpreter (no copy of a parent whose pyarrow threads may
hold locks), no fork server left behind. A dead worker is an error, never a hang.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import multiprocessing.context
import os
import signal
import sys
import threading
import time
import types
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, TypeVar

from mjstats.errors import MjstatsError

__all__ = ["WATCH_SECONDS", "ordered_map", "package_root", "pool_context"]

WATCH_SECONDS = 0.5  # how often a worker checks that its parent is still there
_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>

T = TypeVar("T")
R = TypeVar("R")


def package_root() -> str:
    """The folder the running ``mjstats`` package was imported from (its parent folder)."""
    return str(Path(__file__).resolve().parent.parent)


# --- starting workers -----------------------------------------------------------------------------

_LAUNCH = threading.Lock()  # one launch at a time: the swap below is process-wide


@contextlib.contextmanager
def _library_launch() -> Iterator[None]:
    """While a worker is being started: ``sys.path`` led by the package's folder, and no main
    module to re-run. multiprocessing reads both when it starts a worker (the worker gets this
    ``sys.path`` and would otherwise run ``__main__`` again); both are put back at once."""
    saved_path, saved_main = sys.path, sys.modules.get("__main__")
    root = package_root()
    sys.path = [root, *(p for p in saved_path if p != root)]
    sys.modules["__main__"] = types.ModuleType("__main__")  # no __file__, no __spec__
    try:
        yield
    finally:
        sys.path = saved_path
        if saved_main is not None:
            sys.modules["__main__"] = saved_main


class _WorkerProcess(multiprocessing.context.SpawnProcess):
    """A spawned process started as a library worker (see :func:`_library_launch`)."""

    @staticmethod
    def _Popen(process_obj: Any) -> Any:
        with _LAUNCH, _library_launch():
            return multiprocessing.context.SpawnProcess._Popen(process_obj)


class _WorkerContext(multiprocessing.context.SpawnContext):
    Process = _WorkerProcess  # type: ignore[assignment]


def pool_context() -> multiprocessing.context.BaseContext:
    """The multiprocessing context every mjstats pool starts its workers with."""
    return _WorkerContext()


# --- inside a worker ------------------------------------------------------------------------------


def _die_with(owner: int) -> None:
    """Make this worker exit when the process ``owner`` (its parent) goes, however it goes."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != owner:  # the parent died before the request above was made
        os._exit(1)
    threading.Thread(target=_watch, args=(owner,), name="mjstats-parent-watch", daemon=True).start()


def _watch(owner: int) -> None:
    while os.getppid() == owner:
        time.sleep(WATCH_SECONDS)
    os._exit(1)  # orphaned: no one will read what this worker computes


def _start_worker(owner: int, init: Callable[..., None] | None, args: tuple[Any, ...]) -> None:
    _die_with(owner)
    atexit.register(_exit_at_once)
    if init is not None:
        init(*args)


def _exit_at_once() -> None:
    """A stopped worker's exit, without the interpreter's teardown (a collection over every
    object, pyarrow's and the rules' tables unloaded: ~0.08 s, which the pool's shutdown waits
    for). By the time ``atexit`` runs, multiprocessing has sent every result (its queue's feeder
    thread is joined when the worker's task loop ends), and a worker writes no file of its own."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(0)


# --- running tasks --------------------------------------------------------------------------------


def ordered_map(
    fn: Callable[..., R],
    items: Iterable[tuple[Any, ...]],
    jobs: int,
    *,
    init: Callable[..., None] | None = None,
    init_args: tuple[Any, ...] = (),
    window: int | None = None,
) -> Iterator[R]:
    """``fn(*item)`` for each item on ``jobs`` worker processes, yielded in input order.

    At most ``window`` (default ``2 * jobs``) items are in flight, so memory stays bounded
    whatever the input size. ``init(*init_args)`` runs once in each worker. A worker that dies
    (killed, out of memory) is an MjstatsError, never a hang.
    """
    window = window or 2 * jobs
    pool = ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=pool_context(),
        initializer=_start_worker,
        initargs=(os.getpid(), init, init_args),
    )
    try:
        pending: list[Future[R]] = []
        for item in items:
            pending.append(pool.submit(fn, *item))
            if len(pending) >= window:
                yield pending.pop(0).result()
        for future in pending:
            yield future.result()
    except BrokenProcessPool:
        raise MjstatsError("a worker process died (killed, or out of memory?); the run was stopped "
                           "and the dataset is unchanged") from None
    finally:  # also when the consumer stops early: queued tasks are dropped, not run
        pool.shutdown(wait=True, cancel_futures=True)
