"""The ingest's background part writer: writes in order, errors raised in the caller, nothing
written after a failure or an interruption, and an interrupted ingest leaves no staging folder."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from mjstats.store import SourceInput, ingest_sources, open_dataset, writer
from mjstats.store.write_behind import WriteBehind
from tests.test_replay_oracle import SAMPLE

FUZHOU = Path(__file__).resolve().parent.parent / "data" / "sim" / "fuzhou.jsonl.gz"


def test_writes_run_in_order_off_the_callers_thread_and_close_waits_for_them() -> None:
    done: list[tuple[int, str]] = []
    caller = threading.current_thread().name
    with WriteBehind() as writes:
        for i in range(5):
            writes.submit(lambda i=i: (time.sleep(0.01), done.append((i, threading.current_thread().name))))
    assert [i for i, _ in done] == [0, 1, 2, 3, 4]
    assert {name for _, name in done} == {"mjstats-part-writer"} != {caller}


def test_a_failed_write_is_raised_in_the_caller_and_the_later_writes_are_skipped() -> None:
    done: list[int] = []

    def broken() -> None:
        raise OSError("disk full")

    writes = WriteBehind(depth=4)
    writes.submit(lambda: done.append(1))
    writes.submit(broken)
    writes.submit(lambda: done.append(3))
    with pytest.raises(OSError, match="disk full"):
        writes.close()
    assert done == [1]


def test_the_next_submit_raises_a_failure_already_seen() -> None:
    writes = WriteBehind()
    failed = threading.Event()

    def broken() -> None:
        failed.set()
        raise OSError("no space left")

    writes.submit(broken)
    assert failed.wait(5)
    time.sleep(0.05)  # the thread records the error right after raising it
    with pytest.raises(OSError, match="no space left"):
        writes.submit(lambda: None)
    writes.abandon()


def test_an_exception_drops_the_queued_writes_and_waits_for_the_running_one() -> None:
    started, release = threading.Event(), threading.Event()
    done: list[str] = []

    def slow() -> None:
        started.set()
        release.wait(5)
        done.append("slow")

    with pytest.raises(KeyboardInterrupt), WriteBehind(depth=2) as writes:
        writes.submit(slow)
        assert started.wait(5)
        writes.submit(lambda: done.append("queued"))
        threading.Timer(0.1, release.set).start()
        raise KeyboardInterrupt
    # the running write finished before the exception left the block; the queued one never ran
    assert done == ["slow"]


def test_an_interrupted_ingest_leaves_no_staging_folder_and_no_late_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mjstats.store import writer

    real = writer.pq.write_table
    writing = threading.Event()
    ended: list[float] = []  # when each write call returned (or failed)

    def slow_write(*args: object, **kwargs: object) -> None:
        writing.set()
        try:
            time.sleep(0.3)  # longer than the clean-up after an interruption takes
            real(*args, **kwargs)
        finally:
            ended.append(time.monotonic())

    def interrupt(read: int) -> None:
        if writing.wait(5):  # a part file is being written behind the parse: stop now
            raise KeyboardInterrupt

    out = tmp_path / "ds"
    ingest_sources([SourceInput(SAMPLE, "botzone")], out)
    monkeypatch.setattr(writer.pq, "write_table", slow_write)
    before = open_dataset(out).path.name
    hands = [line for line in SAMPLE.read_text(encoding="utf-8").split("\n\n") if line.strip()]
    more = tmp_path / "more.txt"
    more.write_text("\n\n".join(h.replace("Match ", "Match 9", 1) for h in hands) + "\n", encoding="utf-8")
    with pytest.raises(KeyboardInterrupt):
        ingest_sources(
            [SourceInput(more, "botzone")], out, chunk_hands=2, batch_records=2, progress=interrupt
        )
    returned = time.monotonic()
    time.sleep(0.5)  # a write still running after the return would end now
    assert ended and max(ended) <= returned  # the write in progress ended before the ingest returned
    assert not list(out.glob(".tmp-*"))
    assert open_dataset(out).path.name == before and len(open_dataset(out).table("hands")) == 16


class _InLine:
    """The writer the ingest had before the thread: each write done at its submit."""

    def __init__(self, depth: int = 1) -> None:
        self.jobs = 0

    def submit(self, job: Callable[[], None]) -> None:
        self.jobs += 1
        job()

    def __enter__(self) -> _InLine:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


def _files(root: Path) -> dict[str, bytes]:
    """Every Parquet file under a dataset, by path relative to its version folder."""
    version = open_dataset(root).path
    return {str(p.relative_to(version)): p.read_bytes() for p in sorted(version.rglob("*.parquet"))}


def test_the_files_written_behind_equal_those_written_in_line_byte_for_byte(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The sample and the simulated Fuzhou hands in parts of 7 hands (many writes queued behind
    each other, several partitions): the same files, byte for byte, as written in the caller."""
    inputs = [SourceInput(SAMPLE, "botzone"), SourceInput(FUZHOU, "canonical")]
    ingest_sources(inputs, tmp_path / "behind", chunk_hands=7)
    used: list[_InLine] = []

    def in_line(depth: int = 1) -> _InLine:
        used.append(_InLine(depth))
        return used[-1]

    monkeypatch.setattr(writer, "WriteBehind", in_line)
    ingest_sources(inputs, tmp_path / "in_line", chunk_hands=7)
    assert used and used[0].jobs >= 10  # the in-line writer did write the parts
    behind, in_caller = _files(tmp_path / "behind"), _files(tmp_path / "in_line")
    assert len(behind) >= 10
    assert behind == in_caller


def test_the_switch_interval_is_lowered_while_a_writer_runs_and_put_back_after() -> None:
    """The caller's thread yields the GIL every SWITCH_SECONDS while a writer runs (nested
    writers included); the interval it had is back once the last one ends, however it ends."""
    from mjstats.store.write_behind import SWITCH_SECONDS

    before = sys.getswitchinterval()
    assert before > SWITCH_SECONDS
    with WriteBehind() as outer:
        assert sys.getswitchinterval() == SWITCH_SECONDS
        with pytest.raises(KeyboardInterrupt), WriteBehind():
            raise KeyboardInterrupt
        assert sys.getswitchinterval() == SWITCH_SECONDS  # the outer writer still runs
        outer.submit(lambda: None)
    assert sys.getswitchinterval() == before
