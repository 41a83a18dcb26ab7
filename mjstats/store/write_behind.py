"""Part files written by one background thread while the ingest goes on reading.

Writing a part file is mostly Parquet encoding and zstd compression, which release the GIL: done
on a thread, it overlaps the parsing of the next records instead of stalling it (with ``--jobs``
the parent process is the ingest's bottleneck, and a third of its time was these writes). At most
``depth`` writes wait behind the one in progress, so memory stays bounded; the files and their
bytes are the same as when written in line. The first failed write is raised in the caller, at
its next :meth:`WriteBehind.submit` or at :meth:`WriteBehind.close`.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from types import TracebackType

__all__ = ["WriteBehind"]

Job = Callable[[], None]


class _Abandoned(Exception):
    """Set as the error once the caller gave up: the writes still queued are skipped."""


class WriteBehind:
    """A background writer: :meth:`submit` queues a write, :meth:`close` waits for them all.

    Used as a context manager: a normal exit closes it (raising a failed write's error); an
    exception (Ctrl-C included) drops the queued writes and waits for the one in progress, so
    that the caller's clean-up never races a write into the folder it removes.
    """

    def __init__(self, depth: int = 1) -> None:
        self._queue: queue.Queue[Job | None] = queue.Queue(maxsize=depth)
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="mjstats-part-writer", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while True:
            job = self._queue.get()
            if job is None:
                return
            if self._error is not None:  # a write failed or the caller gave up: skip the rest
                continue
            try:
                job()
            except BaseException as exc:  # handed to the caller's thread, raised there
                self._error = exc

    def _raise(self) -> None:
        error = self._error
        if error is not None and not isinstance(error, _Abandoned):
            raise error

    def submit(self, job: Job) -> None:
        """Queue ``job`` (waits while ``depth`` writes are already waiting)."""
        self._raise()
        self._queue.put(job)

    def close(self) -> None:
        """Wait until every queued write is done; raise the first one's error, if any failed."""
        self._queue.put(None)
        self._thread.join()
        self._raise()

    def abandon(self) -> None:
        """Drop the queued writes and wait for the one in progress (it cannot be cut short)."""
        if self._error is None:
            self._error = _Abandoned()
        while True:
            try:
                self._queue.get_nowait()
            except queue.Empty:
                break
        self._queue.put(None)
        self._thread.join()

    def __enter__(self) -> WriteBehind:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if kind is None:
            self.close()
        else:
            self.abandon()
