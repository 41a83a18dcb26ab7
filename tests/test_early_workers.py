"""Workers started ahead of their work (mjstats.workers.EarlyWorkers): the caller and the workers
share a stage's tasks, results come in input order, a failure is raised, never a hang; and
``mjstats ingest --audit`` audits with them to the same tables as in one process."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from mjstats.cli import main
from mjstats.errors import MjstatsError
from mjstats.workers import EarlyWorkers

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from botzone_corpus import write_renumbered  # noqa: E402

AUDIT_TABLES = ("findings", "computed_wins", "computed_fans", "computed_payments", "audited_hands")


def _slow_value(seconds: float, value: int) -> tuple[int, int]:
    """``value`` after ``seconds``, with the pid of the process that computed it."""
    time.sleep(seconds)
    return value, os.getpid()


def _fails_at(k: int, bad: int) -> int:
    if k == bad:
        raise ValueError(f"task {k} is bad")
    time.sleep(0.05)
    return k


def _worker_dies(k: int, caller: int) -> int:
    """In a worker: killed (as by the OOM killer). In the caller: slow, so a worker takes tasks."""
    if os.getpid() != caller:
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(0.2)
    return k


class _SlowTeardown:
    """Kept in a worker's module global: the interpreter's teardown would sleep in its ``__del__``."""

    def __del__(self) -> None:
        time.sleep(5)


_kept: list[_SlowTeardown] = []


def _leave_slow_teardown(k: int) -> int:
    _kept.append(_SlowTeardown())
    return k


def _up(early: EarlyWorkers) -> None:
    for ready in early._ready:
        ready.result(timeout=120)


def test_the_caller_and_a_worker_share_the_tasks_in_order() -> None:
    with EarlyWorkers(1) as early:
        _up(early)
        out = list(early.map(_slow_value, [(0.2, k) for k in range(8)]))
    assert [value for value, _ in out] == list(range(8))
    pids = {pid for _, pid in out}
    assert os.getpid() in pids and len(pids) == 2, "both the caller and the worker computed tasks"


def test_a_worker_that_never_starts_leaves_every_task_to_the_caller() -> None:
    with EarlyWorkers(1, preload=("mjstats_no_such_module",)) as early:
        with pytest.raises(ModuleNotFoundError):
            early._ready[0].result(timeout=120)
        out = list(early.map(_slow_value, [(0.0, k) for k in range(5)]))
    assert out == [(k, os.getpid()) for k in range(5)]


def test_a_failing_task_raises_its_own_error() -> None:
    with EarlyWorkers(1) as early:
        _up(early)
        with pytest.raises(ValueError, match="task 5 is bad"):
            list(early.map(_fails_at, [(k, 5) for k in range(10)]))


def test_a_killed_worker_is_an_error_not_a_hang() -> None:
    started = time.monotonic()
    with EarlyWorkers(1) as early:
        _up(early)
        with pytest.raises(MjstatsError, match="worker process died"):
            list(early.map(_worker_dies, [(k, os.getpid()) for k in range(6)]))
    assert time.monotonic() - started < 60


def test_stopping_the_workers_skips_their_interpreter_teardown() -> None:
    """A stopped worker exits at once (its results are all sent): the caller's ``close`` does not
    wait for a teardown (here one that would take 5 s; pyarrow's and the rules' take ~0.08 s)."""
    early = EarlyWorkers(1)
    _up(early)
    early._pool.submit(_leave_slow_teardown, 1).result(timeout=60)
    started = time.monotonic()
    early.close()
    assert time.monotonic() - started < 3


def _files(version: Path) -> dict[str, bytes]:
    return {str(p.relative_to(version)): p.read_bytes()
            for name in AUDIT_TABLES for p in sorted((version / name).rglob("*.parquet"))}


def _live(dataset: Path) -> Path:
    return dataset / (dataset / "CURRENT").read_text(encoding="utf-8").strip()


@pytest.fixture(scope="module")
def three_tasks(tmp_path_factory) -> Path:
    """1,200 hands (~2.4 MB): over the early workers' 1 MiB, three audit tasks with two jobs."""
    return write_renumbered(tmp_path_factory.mktemp("early") / "b1200.txt", 1_200)


def test_ingest_audit_with_early_workers_writes_the_one_process_tables(tmp_path, three_tasks, capsys):
    runs = {}
    for jobs in ("2", "1"):
        out = tmp_path / f"ds{jobs}"
        assert main(["ingest", "--audit", "--jobs", jobs, "--format", "botzone", str(three_tasks),
                     "--out", str(out)]) == 0
        runs[jobs] = _files(_live(out))
        printed = capsys.readouterr().out
        assert "audited 1,200 hands" in printed and (f"{jobs} jobs" in printed or jobs == "1")
    assert runs["2"] and runs["2"] == runs["1"]


@pytest.fixture(scope="module")
def big_source(tmp_path_factory) -> Path:
    return write_renumbered(tmp_path_factory.mktemp("early-big") / "b20000.txt", 20_000)


@pytest.mark.parametrize("phase", ["ingest", "audit"])
def test_ctrl_c_stops_ingest_audit_and_its_early_workers(tmp_path, big_source, phase) -> None:
    """SIGINT while the ingest runs (the workers idle or starting) and while they audit: exit
    130 with one line, the workers gone, no staging folder left."""
    source = big_source
    out = tmp_path / "ds"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen(
        [sys.executable, "-m", "mjstats", "ingest", "--audit", "-q", "--format", "botzone", str(source),
         "--out", str(out)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env,
    )
    try:
        parent = psutil.Process(proc.pid)
        deadline = time.monotonic() + 120
        workers: list[psutil.Process] = []
        while time.monotonic() < deadline and not workers:
            time.sleep(0.05)
            workers = [c for c in parent.children(recursive=True)
                       if not any("resource_tracker" in part for part in c.cmdline())]
        assert workers, "no early worker started"
        if phase == "audit":  # the ingest's version is live: the audit has begun
            while time.monotonic() < deadline and not (out / "CURRENT").exists():
                time.sleep(0.02)
            time.sleep(0.3)
        else:
            time.sleep(0.5)
        assert proc.poll() is None, "ingest --audit ended before it could be interrupted"
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130
    assert err.strip().splitlines() == ["mjstats ingest: interrupted"]
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(w.is_running() and w.status() != psutil.STATUS_ZOMBIE
                                              for w in workers):
        time.sleep(0.1)
    assert not any(w.is_running() and w.status() != psutil.STATUS_ZOMBIE for w in workers)
    assert not list(out.glob(".tmp-*"))
