"""Reader pins: a version an open reader uses is never collected under it.

A reader (a :class:`~mjstats.store.reader.Dataset`) writes an empty file
``DATASET/.pins/<version>@<host>@<pid>@<8 hex>`` when it opens a version and removes it when it is
closed or garbage-collected. A writer collecting superseded versions keeps every version named by
a pin whose process is still running (on this host; a pin from another host is trusted for a day).
A dataset the reader cannot write to is read without a pin: the grace period still covers it.
"""

from __future__ import annotations

import os
import re
import socket
import time
import uuid
from contextlib import suppress
from pathlib import Path

__all__ = [
    "FOREIGN_PIN_TTL",
    "PINS_DIR",
    "PIN_RE",
    "host_name",
    "live_pins",
    "pid_alive",
    "pin_version",
    "remove_dead_pins",
    "unpin",
]

PINS_DIR = ".pins"
FOREIGN_PIN_TTL = 86_400.0  # seconds a pin from another host is honoured
PIN_RE = re.compile(r"(v\d{6,})@([A-Za-z0-9._-]{0,64})@(\d{1,10})@[0-9a-f]{8}")


def host_name() -> str:
    """This machine's name as it appears in pin and snapshot names (safe in a file name)."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", socket.gethostname())[:64]


def pin_version(root: Path, version: str) -> Path | None:
    """Pin ``version`` of the dataset at ``root`` for this process; None if it cannot be written."""
    folder = root / PINS_DIR
    path = folder / f"{version}@{host_name()}@{os.getpid()}@{uuid.uuid4().hex[:8]}"
    try:
        folder.mkdir(exist_ok=True)
        path.touch(exist_ok=False)
    except OSError:
        return None
    return path


def unpin(path: Path | None) -> None:
    """Remove a pin (idempotent; safe at interpreter exit)."""
    if path is not None:
        with suppress(OSError):
            os.unlink(path)


def pid_alive(pid: int) -> bool:
    """Whether process ``pid`` runs on this machine (one owned by another user counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _pin_live(entry: Path, host: str, pid: int, now: float) -> bool:
    if host == host_name():
        return pid_alive(pid)
    try:
        return now - entry.stat().st_mtime < FOREIGN_PIN_TTL
    except OSError:
        return False


def live_pins(root: Path) -> set[str]:
    """The versions pinned by readers that are still running."""
    folder = root / PINS_DIR
    if not folder.is_dir():
        return set()
    now = time.time()
    out = set()
    for entry in folder.iterdir():
        m = PIN_RE.fullmatch(entry.name)
        if m and _pin_live(entry, m.group(2), int(m.group(3)), now):
            out.add(m.group(1))
    return out


def remove_dead_pins(root: Path) -> None:
    """Remove pins whose process has ended (only files named as mjstats names pins)."""
    folder = root / PINS_DIR
    if not folder.is_dir():
        return
    now = time.time()
    for entry in folder.iterdir():
        m = PIN_RE.fullmatch(entry.name)
        if m and not _pin_live(entry, m.group(2), int(m.group(3)), now):
            with suppress(OSError):
                entry.unlink()
