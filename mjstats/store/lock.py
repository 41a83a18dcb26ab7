"""One writer at a time: the dataset's writer lock.

Every change to a dataset (ingest, audit, derived tables) runs under an exclusive lock on the
file ``DATASET/.mjstats.lock``. The lock is an ``flock`` on an open file, so the kernel releases
it whenever its holder exits, ``kill -9`` included: a lock left by a dead process is never stale.
The holder writes who it is (pid, host, command, start time) into the file, so a second writer
can name it. A second writer waits up to ``wait`` seconds, then fails with :class:`DatasetBusy`.

The lock is re-entrant within one thread (a writing function may call another) and exclusive
between threads and processes. See docs/reliability.md.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from mjstats.errors import DatasetError

__all__ = ["DEFAULT_WAIT", "LOCK_NAME", "DatasetBusy", "LockHolder", "holds_lock", "writer_lock"]

LOCK_NAME = ".mjstats.lock"
DEFAULT_WAIT = 10.0  # seconds a writer waits for another one before giving up
_POLL = 0.05


class DatasetBusy(DatasetError):
    """Another writer holds the dataset's lock (and did not release it in time)."""


@dataclass(frozen=True)
class LockHolder:
    """Who holds (or last held) a dataset's lock, as the holder wrote it."""

    pid: int | None
    host: str
    command: str
    since: str

    def describe(self) -> str:
        who = f"pid {self.pid}" if self.pid is not None else "an unknown process"
        if self.host and self.host != socket.gethostname():
            who += f" on {self.host}"
        what = f" ({self.command})" if self.command else ""
        since = f", since {self.since}" if self.since else ""
        return f"{who}{what}{since}"


# (lock file, thread id) -> [fd, depth]: re-entry within a thread
_held: dict[tuple[str, int], list[int]] = {}
_held_guard = threading.Lock()


def default_wait() -> float:
    """The wait a writer accepts by default (``MJSTATS_LOCK_WAIT`` seconds, else 10)."""
    raw = os.environ.get("MJSTATS_LOCK_WAIT")
    if raw:
        with suppress(ValueError):
            return max(0.0, float(raw))
    return DEFAULT_WAIT


def current_command() -> str:
    """A short description of this process, written into the lock for other writers to read."""
    args = [os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "python", *sys.argv[1:4]]
    return " ".join(a for a in args if a)[:120]


def holds_lock(root: str | os.PathLike[str]) -> bool:
    """True when this thread holds the writer lock of the dataset at ``root``."""
    key = (str(Path(root).absolute() / LOCK_NAME), threading.get_ident())
    with _held_guard:
        return key in _held


def read_holder(root: str | os.PathLike[str]) -> LockHolder | None:
    """What the lock file says of its (last) holder, or None when it says nothing readable."""
    try:
        data = json.loads((Path(root) / LOCK_NAME).read_text(encoding="utf-8") or "null")
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    pid = data.get("pid")
    return LockHolder(
        pid=pid if isinstance(pid, int) else None,
        host=str(data.get("host", "")),
        command=str(data.get("command", "")),
        since=str(data.get("since", "")),
    )


@contextmanager
def writer_lock(
    root: str | os.PathLike[str],
    *,
    wait: float | None = None,
    create: bool = False,
    on_wait: Callable[[LockHolder | None], None] | None = None,
) -> Iterator[Path]:
    """Hold the writer lock of the dataset folder ``root`` for the ``with`` block.

    ``create`` makes the folder when it does not exist (an ingest into a new dataset); otherwise a
    missing folder is a DatasetError. ``wait`` (default :func:`default_wait`) is how long to wait
    for another writer; ``on_wait`` is called once, with that writer, when waiting starts.
    Yields the dataset folder.
    """
    root = Path(root)
    lock_path = root.absolute() / LOCK_NAME
    key = (str(lock_path), threading.get_ident())
    with _held_guard:
        entry = _held.get(key)
        if entry is not None:
            entry[1] += 1
    if entry is not None:
        try:
            yield root
        finally:
            with _held_guard:
                entry[1] -= 1
        return
    fd = _acquire(root, lock_path, default_wait() if wait is None else wait, create, on_wait)
    with _held_guard:
        _held[key] = [fd, 1]
    try:
        yield root
    finally:
        with _held_guard:
            del _held[key]
        os.close(fd)  # closing the file releases the flock


def release_and_remove(root: str | os.PathLike[str]) -> None:
    """Remove the lock file of a dataset folder this thread is about to delete (it holds the lock)."""
    with suppress(FileNotFoundError):
        (Path(root) / LOCK_NAME).unlink()


def _acquire(
    root: Path,
    lock_path: Path,
    wait: float,
    create: bool,
    on_wait: Callable[[LockHolder | None], None] | None,
) -> int:
    deadline = time.monotonic() + wait
    told = False
    while True:
        fd = _open_lock_file(root, lock_path, create)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                raise DatasetError(f"{root}: cannot lock the dataset: {exc.strerror}") from exc
            holder = read_holder(root)
            if time.monotonic() >= deadline:
                who = holder.describe() if holder else "another process"
                raise DatasetBusy(
                    f"{root}: another writer is changing this dataset ({who}); "
                    f"waited {wait:g} s (use --wait SECONDS to wait longer)"
                ) from None
            if not told and on_wait is not None:
                on_wait(holder)
            told = True
            time.sleep(_POLL)
            continue
        # the file may have been removed (a failed first ingest deletes its new folder) between
        # our open and our lock: then the lock is on a dead file, so start again
        try:
            same = os.fstat(fd).st_ino == os.stat(lock_path).st_ino
        except FileNotFoundError:
            same = False
        if not same:
            os.close(fd)
            continue
        _write_holder(fd)
        return fd


def _open_lock_file(root: Path, lock_path: Path, create: bool) -> int:
    if root.exists() and not root.is_dir():
        raise DatasetError(f"{root}: exists and is not a folder")
    if not root.exists():
        if not create:
            raise DatasetError(f"{root}: no such dataset")
        try:
            root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DatasetError(f"{root}: cannot create the dataset folder: {exc.strerror}") from exc
    try:
        return os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    except FileNotFoundError:
        if create:  # the folder vanished between the check and the open: try once more
            root.mkdir(parents=True, exist_ok=True)
            return os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        raise DatasetError(f"{root}: no such dataset") from None
    except OSError as exc:
        raise DatasetError(f"{root}: cannot write to the dataset: {exc.strerror}") from exc


def _write_holder(fd: int) -> None:
    info = {
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "command": current_command(),
        "since": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    data = (json.dumps(info, sort_keys=True) + "\n").encode("utf-8")
    os.ftruncate(fd, 0)
    os.pwrite(fd, data, 0)
