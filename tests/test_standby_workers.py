"""Workers started ahead of their stage (mjstats.workers.StandbyWorkers, ``mjstats ingest --audit``):
the tasks they share with this process come back in order, a failure in either is raised, a
dead worker is an error (never a hang), and the audit they share writes the same tables."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from mjstats.errors import MjstatsError
from mjstats.workers import StandbyWorkers

ROOT = Path(__file__).resolve().parent.parent
SIM = ROOT / "data" / "sim" / "guobiao.jsonl.gz"


@pytest.fixture(scope="module")
def standby():
    with StandbyWorkers(1) as workers:
        yield workers


def test_shared_tasks_come_back_in_order(standby):
    items = [(i, 1) for i in range(40)]
    assert list(standby.share(pow, items)) == list(range(40))
    assert list(standby.share(pow, [])) == []


def test_both_this_process_and_the_worker_run_tasks(standby):
    pids = set(standby.share(os.getpid, [()] * 6))
    assert os.getpid() in pids and len(pids) == 2  # the worker took the last item at the start


def test_a_failing_task_raises_in_its_turn(standby):
    # the last item is the worker's first: its error is raised when its turn comes
    with pytest.raises(ValueError):
        list(standby.share(int, [("1",), ("2",), ("x",)]))
    with pytest.raises(ValueError):  # this process's own item fails first
        list(standby.share(int, [("x",), ("2",), ("3",)]))
    assert list(standby.share(int, [("4",), ("5",)])) == [4, 5]  # the workers are still there


def test_a_consumer_that_stops_early_leaves_nothing_running():
    with StandbyWorkers(1) as workers:
        shared = workers.share(time.sleep, [(0.01,)] * 50)
        next(shared)
        shared.close()
        started = time.monotonic()
    assert time.monotonic() - started < 5  # closing did not run the 48 items left


def test_a_killed_worker_is_an_error_not_a_hang():
    with StandbyWorkers(1) as workers:
        (worker,) = set(workers.share(os.getpid, [()] * 2)) - {os.getpid()}
        os.kill(worker, signal.SIGKILL)
        time.sleep(0.5)
        with pytest.raises(MjstatsError, match="worker process died"):
            list(workers.share(pow, [(i, 1) for i in range(20)]))


def test_the_audit_shared_with_a_standby_worker_writes_the_same_tables(tmp_path, sample_path):
    """The audit of 2,016 hands (several tasks) by this process alone, then by it and a standby
    worker: every audit table equal, row for row, and the summary counts both processes."""
    from mjstats.audit import AUDIT_SCHEMAS, audit_dataset
    from mjstats.store import SourceInput, ingest_sources, open_dataset
    from mjstats.workers import call_by_name

    ds = tmp_path / "ds"
    ingest_sources([SourceInput(sample_path, "botzone"), SourceInput(SIM, "canonical")], ds)
    alone = audit_dataset(ds, batch_hands=500)
    before = open_dataset(ds)
    with StandbyWorkers(1, call_by_name, ("mjstats.audit:warm_standby",)) as workers:
        shared = audit_dataset(ds, batch_hands=500, standby=workers)
    after = open_dataset(ds)
    assert before.path != after.path
    assert (alone.jobs, shared.jobs) == (1, 2)
    assert alone.hands == shared.hands == 2016 and alone.statuses == shared.statuses
    for name in AUDIT_SCHEMAS:
        assert before.arrow(name).equals(after.arrow(name)), name


def test_a_named_job_count_leaves_the_standby_workers_unused(tmp_path, sample_path):
    from mjstats.audit import audit_dataset
    from mjstats.store import SourceInput, ingest_sources

    ingest_sources([SourceInput(SIM, "canonical")], tmp_path / "ds")
    with StandbyWorkers(1) as workers:
        assert audit_dataset(tmp_path / "ds", jobs=1, batch_hands=500, standby=workers).jobs == 1


def test_ingest_audit_starts_a_standby_worker_on_several_cores(tmp_path, monkeypatch, capsys):
    """``mjstats ingest --audit`` with the default jobs on two cores: the audit of 2,000 hands
    runs as two jobs (this process and the worker started before the ingest); ``-j 1`` and a
    small new dataset start none."""
    from mjstats.cli import main

    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert main(["ingest", "--audit", "-f", "canonical", str(SIM), "-o", str(tmp_path / "a")]) == 0
    out = capsys.readouterr().out
    assert "audited 2,000 hands" in out and ", 2 jobs)" in out
    small = tmp_path / "small.txt"
    small.write_bytes((ROOT / "data" / "botzone" / "sample.txt").read_bytes())
    assert main(["ingest", "--audit", "-f", "botzone", str(small), "-o", str(tmp_path / "b")]) == 0
    assert ", 1 job)" in capsys.readouterr().out
    assert main(["ingest", "--audit", "-j", "1", "-f", "canonical", str(SIM), "-o", str(tmp_path / "c")]) == 0
    assert ", 1 job)" in capsys.readouterr().out
