"""Part files written by one background thread while the ingest goes on reading.

Writing a part file is mostly Parquet encoding and zstd compression, which release the GIL: done
on a thread, it overlaps the parsing of the next records instead of stalling it (with ``--jobs``
the parent process is the ingest's bottleneck, and a third of its time was these writes). At most
``depth`` writes wait behind the one in progress, so memory stays bounded; the files and their
bytes are the same as when written in line. The first failed write is raised in the caller, at
its next :meth:`WriteBehind.submit` or at :meth:`WriteBehind.close`.

While a writer thread runs, the interpreter's switch interval is lowered to
:data:`SWITCH_SECONDS`. Between its GIL-free encoding steps the writer runs pyarrow's Python
layer, which needs the GIL; at the default 5 ms a busy caller (the parse, the audit's replay
ahead) kept it up to that long each time, and a 2,000-hand part file took two to three times
as long to write as on an idle thread, the caller then waiting for it.
"""

from __future__ import annotations

import queue
import sys
import threading
from collections.abc import Callable
from types import TracebackType

__all__ = ["WriteBehind"]

Job = Callable[[], None]

SWITCH_SECONDS = 0.0005  # the switch interval while a writer thread runs (the default is 0.005)

_switch_lock = threading.Lock()
_switch_users = 0  # writers running; the interval is put back when the last one ends
_switch_saved = 0.0


def _lower_switch_interval() -> None:
    global _switch_users, _switch_saved
    with _switch_lock:
        if _switch_users == 0:
            _switch_saved = sys.getswitchinterval()
            sys.setswitchinterval(min(_switch_saved, SWITCH_SECONDS))
        _switch_users += 1


def _restore_switch_interval() -> None:
    global _switch_users
    with _switch_lock:
        _switch_users -= 1
        if _switch_users == 0:
            sys.setswitchinterval(_switch_saved)


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
        _lower_switch_interval()
        self._ended = False
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
        self._end()
        self._raise()

    def _end(self) -> None:
        if not self._ended:
            self._ended = True
            _restore_switch_interval()

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
        self._end()

    def __enter__(self) -> WriteBehind:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if kind is None:
            self.close()
        else:
            self.abandon()
