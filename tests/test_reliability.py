"""Never lose data: one writer at a time, readers safe during commits, a user's files untouched.

Writers here are separate processes (the CLI), as operators run them: a nightly ingest, an
analyst's audit and a report job on the same dataset.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from mjstats.errors import DatasetError
from mjstats.store import SourceInput, ingest_sources, open_dataset
from mjstats.store.layout import collect_versions, current_version
from mjstats.store.lock import DatasetBusy, writer_lock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from botzone_corpus import write_renumbered

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "data" / "botzone" / "sample.txt"


def cli(*args: str | Path, env: dict[str, str] | None = None, **kw) -> subprocess.Popen:
    environment = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.Popen(
        [sys.executable, "-m", "mjstats", *map(str, args)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment, cwd=ROOT, **kw,
    )


def run_cli(*args: str | Path, env: dict[str, str] | None = None, timeout: float = 120):
    proc = cli(*args, env=env)
    out, err = proc.communicate(timeout=timeout)
    return proc.returncode, out, err


def hand_keys(ds_path: Path) -> list[tuple[str, int]]:
    with open_dataset(ds_path) as ds:
        table = ds.arrow("hands", columns=["match_id", "hand_no"])
    return sorted(zip(table.column("match_id").to_pylist(), table.column("hand_no").to_pylist(), strict=True))


@pytest.fixture
def base(tmp_path: Path) -> Path:
    """A dataset holding the 16 sample hands, audited."""
    ds = tmp_path / "ds"
    assert run_cli("ingest", "-q", "-f", "botzone", SAMPLE, "--out", ds)[0] == 0
    assert run_cli("audit", "-q", "-j", "1", ds)[0] == 0
    return ds


def test_two_ingests_at_once_keep_every_hand(base: Path, tmp_path: Path) -> None:
    a = write_renumbered(tmp_path / "a.txt", 400, first=10_000)
    b = write_renumbered(tmp_path / "b.txt", 400, first=20_000)
    procs = [cli("ingest", "-q", "-f", "botzone", f, "--out", base, "--wait", "60") for f in (a, b)]
    results = [p.communicate(timeout=180) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], results
    keys = hand_keys(base)
    assert len(keys) == 16 + 800 and len(set(keys)) == len(keys)
    with open_dataset(base) as ds:
        assert ds.has_table("findings") and len(ds.manifest["sources"]) == 3
        assert "computed_wins" in ds.tables  # the audit tables of the first version survive


def test_a_second_writer_waits_then_fails_naming_the_first(base: Path, tmp_path: Path) -> None:
    extra = write_renumbered(tmp_path / "x.txt", 20, first=50_000)
    with writer_lock(base):
        code, _, err = run_cli("ingest", "-q", "-f", "botzone", extra, "--out", base, "--wait", "0.5")
        assert code == 2
        lines = err.strip().splitlines()
        assert len(lines) == 2 and "waiting for another writer" in lines[0]
        assert "another writer is changing this dataset" in lines[1] and f"pid {os.getpid()}" in lines[1]
        assert "Traceback" not in err
        code, _, err = run_cli("audit", "-q", base, "--wait", "0")
        assert code == 2 and "another writer" in err and "Traceback" not in err
    assert len(hand_keys(base)) == 16  # nothing changed


def test_a_waiting_writer_goes_on_when_the_first_finishes(base: Path, tmp_path: Path) -> None:
    extra = write_renumbered(tmp_path / "x.txt", 20, first=60_000)
    with writer_lock(base):
        proc = cli("ingest", "-q", "-f", "botzone", extra, "--out", base, "--wait", "60")
        time.sleep(2.0)
        assert proc.poll() is None  # still waiting
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert len(hand_keys(base)) == 36


def test_audit_during_an_ingest(base: Path, tmp_path: Path) -> None:
    big = write_renumbered(tmp_path / "big.txt", 3_000, first=70_000)
    ingest = cli("ingest", "-q", "-j", "1", "-f", "botzone", big, "--out", base, "--wait", "120")
    time.sleep(0.5)
    audit = cli("audit", "-q", "-j", "1", base, "--wait", "120")
    (_, ingest_err), (_, audit_err) = ingest.communicate(timeout=300), audit.communicate(timeout=300)
    assert ingest.returncode == 0 and audit.returncode == 0, (ingest_err, audit_err)
    assert len(hand_keys(base)) == 16 + 3_000
    with open_dataset(base) as ds:
        audited = ds.arrow("audited_hands", columns=["match_id"]).num_rows
    assert audited in (16, 3_016)  # the audit saw one whole version, before or after the ingest


def test_a_lock_left_by_a_killed_writer_is_taken_over(base: Path) -> None:
    code = (
        "import sys, time; from mjstats.store.lock import writer_lock\n"
        f"with writer_lock({str(base)!r}):\n    print('held', flush=True); time.sleep(600)\n"
    )
    holder = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    with pytest.raises(DatasetBusy, match=f"pid {holder.pid}"), writer_lock(base, wait=0):
        pass
    holder.send_signal(signal.SIGKILL)
    holder.wait()
    with writer_lock(base, wait=0):  # the kernel released the dead writer's lock
        pass


def test_readers_during_many_commits_never_fail(base: Path, tmp_path: Path, monkeypatch) -> None:
    """A reader thread keeps opening and reading the dataset while 6 commits happen."""
    errors: list[BaseException] = []
    reads = 0
    stop = threading.Event()

    def reader() -> None:
        nonlocal reads
        while not stop.is_set():
            try:
                with open_dataset(base) as ds:
                    n = ds.arrow("hands", columns=["match_id"]).num_rows
                    for rs, period, part in ds.parts():
                        ds.read_part(rs, period, part)
                    assert n >= 16
                    reads += 1
            except BaseException as exc:  # every failure is the finding
                errors.append(exc)
                return

    monkeypatch.setenv("MJSTATS_VERSION_GRACE", "0")  # only pins protect the readers here
    from mjstats.audit import audit_dataset

    threads = [threading.Thread(target=reader) for _ in range(2)]
    for t in threads:
        t.start()
    for i in range(3):
        extra = write_renumbered(tmp_path / f"c{i}.txt", 50, first=80_000 + 1_000 * i)
        ingest_sources([SourceInput(extra, "botzone")], base)
        audit_dataset(base, jobs=1)
    stop.set()
    for t in threads:
        t.join()
    assert not errors, errors[0]
    assert reads > 0 and len(hand_keys(base)) == 16 + 150


def test_an_open_dataset_keeps_its_version_until_closed(base: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("MJSTATS_VERSION_GRACE", "0")
    ds = open_dataset(base)
    before = ds.path
    extra = write_renumbered(tmp_path / "x.txt", 10, first=90_000)
    ingest_sources([SourceInput(extra, "botzone")], base)
    assert not ds.is_current and before.exists()  # pinned: not collected
    assert ds.arrow("hands").num_rows == 16  # still reads its own version, whole
    fresh = ds.refresh()
    assert fresh.is_current and fresh.arrow("hands").num_rows == 26
    ds.close()
    ingest_sources([SourceInput(write_renumbered(tmp_path / "y.txt", 5, first=91_000), "botzone")], base)
    assert not before.exists()  # once unpinned, the next change collects it
    fresh.close()


def test_superseded_versions_wait_for_the_grace_period(base: Path, tmp_path: Path) -> None:
    extra = write_renumbered(tmp_path / "x.txt", 10, first=92_000)
    old = current_version(base)
    ingest_sources([SourceInput(extra, "botzone")], base)
    assert (base / old).is_dir()  # default grace: a reader that read CURRENT a moment ago is safe
    with writer_lock(base):
        assert collect_versions(base, grace=600) == []
        removed = collect_versions(base, grace=600, now=time.time() + 601)
    assert old in removed and current_version(base) not in removed and not (base / old).exists()


def test_ingest_refuses_a_folder_of_the_users(tmp_path: Path) -> None:
    out = tmp_path / "mine"
    for name in ("videos", "venv", ".tmp-notes", "v2"):
        (out / name).mkdir(parents=True)
        (out / name / "keep.txt").write_text("mine")
    code, _, err = run_cli("ingest", "-q", "-f", "botzone", SAMPLE, "--out", out)
    assert code == 2 and "not empty and is not an mjstats dataset" in err and len(err.splitlines()) == 1
    assert sorted(p.name for p in out.iterdir()) == [".tmp-notes", "v2", "venv", "videos"]
    assert all((out / n / "keep.txt").read_text() == "mine" for n in ("videos", "venv", ".tmp-notes", "v2"))


def test_out_paths_that_are_not_folders_are_one_line(tmp_path: Path) -> None:
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    for out in (a_file, a_file / "sub"):
        code, _, err = run_cli("ingest", "-q", "-f", "botzone", SAMPLE, "--out", out)
        assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert a_file.read_text() == "x"


def test_a_failed_first_ingest_leaves_no_folder(tmp_path: Path, monkeypatch) -> None:
    from mjstats.store import writer

    def broken(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(writer, "_ingest_locked", broken)
    out = tmp_path / "new" / "ds"
    with pytest.raises(KeyboardInterrupt):
        ingest_sources([SourceInput(SAMPLE, "botzone")], out)
    assert not out.exists()


def test_export_never_overwrites_unasked(base: Path, tmp_path: Path) -> None:
    target = tmp_path / "hands.jsonl"
    target.write_text("my notes\n")
    code, _, err = run_cli("export", base, "--out", target)
    assert code == 2 and "use --force" in err and target.read_text() == "my notes\n"
    code, _, err = run_cli("export", base, "--out", target, "--force")
    assert code == 0 and target.read_text().count("\n") == 16
    for inside in (base / "CURRENT", base / "notes.jsonl", tmp_path):
        code, _, err = run_cli("export", base, "--out", inside)
        assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert current_version(base) is not None  # CURRENT untouched
    assert not (base / "notes.jsonl").exists()


def test_report_never_overwrites_a_users_file(base: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    out.mkdir()
    (out / "index.html").write_text("<h1>my page</h1>")
    code, _, err = run_cli("report", base, "--out", out, "-q")
    assert code == 2 and "was not written by mjstats" in err
    assert (out / "index.html").read_text() == "<h1>my page</h1>" and len(list(out.iterdir())) == 1
    assert run_cli("report", base, "--out", out, "-q", "--force")[0] == 0
    assert run_cli("report", base, "--out", out, "-q")[0] == 0  # its own pages are replaced
    code, _, err = run_cli("report", base, "--out", base / "html", "-q")
    assert code == 2 and "inside the dataset" in err and not (base / "html").exists()


def test_a_read_only_dataset_is_one_line(base: Path, monkeypatch) -> None:
    import mjstats.store.lock as lock

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(lock.os, "open", refuse)
    with pytest.raises(DatasetError, match="cannot write to the dataset: Permission denied"):
        ingest_sources([SourceInput(SAMPLE, "botzone")], base)
    monkeypatch.undo()
    with open_dataset(base) as ds:
        assert ds.arrow("hands").num_rows == 16


@pytest.mark.slow
def test_stress_four_writers_four_readers_for_a_minute(tmp_path: Path) -> None:
    """Four writer processes (ingests of fresh files, audits) and four reader processes for a
    minute: every hand a successful ingest reported is there exactly once; every read succeeded."""
    ds = tmp_path / "ds"
    assert run_cli("ingest", "-q", "-f", "botzone", SAMPLE, "--out", ds)[0] == 0
    deadline = time.monotonic() + 60
    env = {"MJSTATS_VERSION_GRACE": "1"}
    reader_code = (
        "import sys, time\nfrom mjstats.store import open_dataset\n"
        "n = 0\nwhile time.monotonic() < float(sys.argv[2]):\n"
        "    with open_dataset(sys.argv[1]) as ds:\n"
        "        ds.arrow('hands'); ds.arrow('events')\n"
        "        for p in ds.parts(): ds.read_part(*p)\n"
        "    n += 1\nprint(n)\n"
    )
    end = str(time.monotonic() + 60)
    readers = [
        subprocess.Popen([sys.executable, "-c", reader_code, str(ds), end], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT), **env})
        for _ in range(4)
    ]
    expected: set[str] = {m for m, _ in hand_keys(ds)}
    lock = threading.Lock()
    failures: list[str] = []

    def writer(w: int) -> None:
        k = 0
        while time.monotonic() < deadline:
            k += 1
            if k % 3 == 0:
                code, _, err = run_cli("audit", "-q", "-j", "1", ds, "--wait", "120", env=env)
            else:
                f = write_renumbered(tmp_path / f"w{w}-{k}.txt", 30, first=1_000_000 * (w + 1) + 100 * k)
                code, _, err = run_cli("ingest", "-q", "-j", "1", "-f", "botzone", f, "--out", ds,
                                       "--wait", "120", env=env)
                if code == 0:
                    with lock:
                        expected.update(f"{1_000_000 * (w + 1) + 100 * k + i:024x}" for i in range(30))
            if code != 0:
                failures.append(err)

    writers = [threading.Thread(target=writer, args=(w,)) for w in range(4)]
    for t in writers:
        t.start()
    for t in writers:
        t.join()
    outs = [r.communicate(timeout=180) for r in readers]
    assert not failures, failures[0]
    assert all(r.returncode == 0 for r in readers), [e for _, e in outs]
    assert all(int(o.strip()) > 0 for o, _ in outs)
    keys = hand_keys(ds)
    assert len(keys) == len(set(keys))  # every hand once
    assert {m for m, _ in keys} == expected  # every reported hand there, nothing else
    live = ds / str(current_version(ds))
    assert all(pq.ParquetFile(p).metadata.num_rows >= 0 for p in live.rglob("*.parquet"))
