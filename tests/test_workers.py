"""Worker processes are safe: they die with their parent (kill -9 included), import mjstats as
the parent does whatever the current folder holds, and never re-run the caller's script."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil
import pytest

from mjstats.store import SourceInput, ingest_sources

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from botzone_corpus import write_renumbered  # noqa: E402

SIM = ROOT / "data" / "sim" / "guobiao.jsonl.gz"


def _env() -> dict[str, str]:
    """The child's environment: the mjstats under test found first, as in this process."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    return env


def _gone(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


@pytest.fixture(scope="module")
def big_input(tmp_path_factory) -> Path:
    return write_renumbered(tmp_path_factory.mktemp("big") / "big.txt", 12_000)  # ~24 MB


def test_workers_die_with_a_killed_parent(tmp_path, big_input):
    proc = subprocess.Popen(
        [sys.executable, "-m", "mjstats", "ingest", "-q", "-j", "2", "-f", "botzone",
         str(big_input), "--out", str(tmp_path / "ds")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=_env(),
    )
    try:
        parent = psutil.Process(proc.pid)
        deadline = time.monotonic() + 120
        workers: list[psutil.Process] = []
        while time.monotonic() < deadline and len(workers) < 2:
            time.sleep(0.1)
            assert proc.poll() is None, "ingest ended before its workers started"
            workers = [c for c in parent.children(recursive=True)  # not the resource tracker
                       if not any("resource_tracker" in part for part in c.cmdline())]
        assert len(workers) >= 2, "no worker processes seen"
        time.sleep(1.0)  # every worker has started and is parsing
        family = parent.children(recursive=True)  # workers, resource tracker, anything else
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not all(_gone(p.pid) for p in family):
            time.sleep(0.1)
        alive = [(p.pid, p.cmdline()) for p in family if not _gone(p.pid)]
        assert not alive, f"still running after kill -9 of their parent: {alive}"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_workers_ignore_an_mjstats_folder_in_the_current_folder(tmp_path, big_input):
    decoy = tmp_path / "home" / "mjstats"  # e.g. a user folder with an unrelated mjstats/
    decoy.mkdir(parents=True)
    (decoy / "__init__.py").write_text("UNRELATED = True\n", encoding="utf-8")
    runner = tmp_path / "bin" / "run.py"  # like an installed console script
    runner.parent.mkdir()
    runner.write_text("import sys\nfrom mjstats.cli import main\nsys.exit(main())\n", encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, str(runner), "ingest", "-q", "-j", "2", "-f", "botzone", str(big_input),
         "--out", str(tmp_path / "ds")],
        cwd=decoy.parent, capture_output=True, text=True, env=_env(), timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr and "BrokenProcessPool" not in proc.stderr


def test_a_script_without_a_main_guard_can_audit_with_two_jobs(tmp_path):
    ingest_sources([SourceInput(SIM, "canonical")], tmp_path / "ds")
    script = tmp_path / "audit_it.py"
    script.write_text(textwrap.dedent("""\
        import sys
        from mjstats.audit import audit_dataset

        summary = audit_dataset(sys.argv[1], jobs=int(sys.argv[2]))
        print(summary.hands, summary.clean, summary.statuses, summary.findings_by_check)
    """), encoding="utf-8")
    runs = {}
    for jobs in ("2", "1"):
        try:
            proc = subprocess.run([sys.executable, str(script), str(tmp_path / "ds"), jobs],
                                  capture_output=True, text=True, env=_env(), timeout=180)
        except subprocess.TimeoutExpired:
            pytest.fail("audit_dataset(jobs=2) from a script without a __main__ guard never ended")
        assert proc.returncode == 0, proc.stderr[-2000:]
        runs[jobs] = proc.stdout
    assert runs["2"] == runs["1"] and runs["1"].startswith("2000 ")


class _SlowTeardown:
    """Kept in a worker's module global: the interpreter's teardown would sleep in its ``__del__``."""

    def __del__(self) -> None:
        time.sleep(5)


_kept: list[_SlowTeardown] = []


def _leave_slow_teardown(k: int) -> int:
    _kept.append(_SlowTeardown())
    return k


def test_a_stopped_worker_skips_its_interpreter_teardown() -> None:
    """A pool's workers exit at once when stopped (their results are all sent): the pool's
    shutdown does not wait for a teardown (here one that would take 5 s; pyarrow's and the
    rules' take ~0.08 s a worker)."""
    from mjstats.workers import ordered_map

    started = time.monotonic()
    assert list(ordered_map(_leave_slow_teardown, [(1,), (2,)], 1)) == [1, 2]
    assert time.monotonic() - started < 4.5
