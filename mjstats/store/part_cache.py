"""Part tables an ingest wrote, kept in memory for the audit that follows it in the same process.

``mjstats ingest --audit`` audits the hands it has just written: reading them back decodes
every part file it encoded a moment before (~30-60 ms a 2,000-hand part, a twentieth of the whole
command). Inside :func:`keeping_parts`, each part table the ingest writes is remembered by the
file's identity (device, inode, size, modification time in ns), and the audit's reader takes the
table from memory when the file it opens is still that file. Versions share unchanged files as
hard links, so a part stays the same file in every later version; a file replaced or rewritten
is another identity, and is read from disk. Only tables up to ``limit_bytes`` in all are kept
(the rest are read as usual): the audit runs in this process only for small datasets anyway
(``audit.default_jobs``), and pool workers read their parts from disk.

Work ahead: the last part files are encoded on the ingest's writer thread, which releases the GIL,
while the ingest's own thread would only wait for them. ``keeping_parts(ahead=...)`` gives that
wait something to do: once the ingest has handed over its last part (:func:`while_writing`), the
callback receives every part written in the block and may keep results derived from their tables
(:func:`keep_derived`), which a later step looks up (:func:`derived`) by the kept table it reads:
the same object only when the file it opens is the one written from it.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

import pyarrow as pa

__all__ = [
    "DEFAULT_LIMIT_BYTES",
    "WrittenPart",
    "derived",
    "keep_derived",
    "keeping_parts",
    "recall",
    "remember",
    "while_writing",
    "written",
]

DEFAULT_LIMIT_BYTES = 128 << 20  # ~14,000 Botzone hands' tables: the audit's in-process range

FileIdentity = tuple[int, int, int, int]


class WrittenPart(NamedTuple):
    """A part file handed to the ingest's writer: its partition, file name and hand tables."""

    ruleset: str
    period: str
    name: str
    tables: dict[str, pa.Table]


# called with the block's written parts and whether they are the whole dataset (no part before)
Ahead = Callable[[list[WrittenPart], bool], None]


class _Kept:
    """The remembered tables (written from the ingest's writer thread, read by the audit), the
    parts handed over for writing, and what was derived from them ahead."""

    def __init__(self, limit_bytes: int, ahead: Ahead | None) -> None:
        self.limit = limit_bytes
        self.nbytes = 0
        self.tables: dict[FileIdentity, pa.Table] = {}
        self.lock = threading.Lock()
        self.ahead = ahead
        self.written: list[WrittenPart] = []
        self.derived: dict[Hashable, Any] = {}


_kept: _Kept | None = None


def _identity(path: Path) -> FileIdentity | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


@contextmanager
def keeping_parts(limit_bytes: int = DEFAULT_LIMIT_BYTES, ahead: Ahead | None = None) -> Iterator[None]:
    """Within the block, part tables written are remembered (up to ``limit_bytes`` in all) and
    recalled by the reader; ``ahead`` is run on the parts while the last ones are written
    (:func:`while_writing`). On leaving, all of it is dropped."""
    global _kept
    previous, _kept = _kept, _Kept(limit_bytes, ahead)
    try:
        yield
    finally:
        _kept = previous


def remember(path: Path, table: pa.Table) -> None:
    """``table`` was just written, complete, to ``path``: keep it while there is room."""
    kept = _kept
    if kept is None:
        return
    identity = _identity(path)
    size = table.nbytes
    if identity is None:
        return
    with kept.lock:
        if kept.nbytes + size <= kept.limit and identity not in kept.tables:
            kept.tables[identity] = table
            kept.nbytes += size


def recall(path: Path) -> pa.Table | None:
    """The table last remembered for the file now at ``path``, if it is still that file."""
    kept = _kept
    if kept is None or not kept.tables:
        return None
    identity = _identity(path)
    if identity is None:
        return None
    with kept.lock:
        return kept.tables.get(identity)


def written(part: WrittenPart) -> None:
    """The ingest handed ``part`` to its writer (kept for the ``ahead`` callback, if any)."""
    kept = _kept
    if kept is not None and kept.ahead is not None:
        kept.written.append(part)


def while_writing(whole: bool) -> None:
    """The ingest has handed over its last part and is about to wait for the writes: run the
    block's ``ahead`` callback on the parts (``whole``: they are all the dataset holds). An
    error in it drops what it derived: the step it works ahead for then does that work itself,
    and meets the same error where it reports it (Ctrl-C still stops the ingest)."""
    kept = _kept
    if kept is None or kept.ahead is None or not kept.written:
        return
    parts, kept.written = kept.written, []
    try:
        kept.ahead(parts, whole)
    except Exception:
        kept.derived.clear()


def keep_derived(key: Hashable, value: Any) -> None:
    """Keep ``value``, derived from kept tables, until the block ends (see :func:`derived`)."""
    kept = _kept
    if kept is not None:
        kept.derived[key] = value


def derived(key: Hashable) -> Any | None:
    """What :func:`keep_derived` kept under ``key`` (None outside the block or if none)."""
    kept = _kept
    return None if kept is None else kept.derived.get(key)
