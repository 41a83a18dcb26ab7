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
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pyarrow as pa

__all__ = ["DEFAULT_LIMIT_BYTES", "keeping_parts", "recall", "remember"]

DEFAULT_LIMIT_BYTES = 128 << 20  # ~14,000 Botzone hands' tables: the audit's in-process range

FileIdentity = tuple[int, int, int, int]


class _Kept:
    """The remembered tables (written from the ingest's writer thread, read by the audit)."""

    def __init__(self, limit_bytes: int) -> None:
        self.limit = limit_bytes
        self.nbytes = 0
        self.tables: dict[FileIdentity, pa.Table] = {}
        self.lock = threading.Lock()


_kept: _Kept | None = None


def _identity(path: Path) -> FileIdentity | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


@contextmanager
def keeping_parts(limit_bytes: int = DEFAULT_LIMIT_BYTES) -> Iterator[None]:
    """Within the block, part tables written are remembered (up to ``limit_bytes`` in all) and
    recalled by the reader; on leaving, they are dropped."""
    global _kept
    previous, _kept = _kept, _Kept(limit_bytes)
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
