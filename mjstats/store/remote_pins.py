"""Reader pins of a dataset at a URL: the remote counterpart of ``pins``.

A reader opening a version at a URL copies it to a local snapshot; while it copies, the object
``DATASET/.pins/<version>@<host>@<pid>@<8 hex>`` (holding the time it was made) tells writers not
to collect that version. A pin of a process that has ended on this host is dead at once; a pin
from another host lives for a day (``pins.FOREIGN_PIN_TTL``). Only objects named as mjstats
names pins are ever read or removed.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from contextlib import suppress
from typing import Any

from mjstats.store.pins import FOREIGN_PIN_TTL, PIN_RE, PINS_DIR, host_name, pid_alive

__all__ = ["live_remote_pins", "pin_remote", "remove_dead_remote_pins", "unpin_remote"]


def pin_remote(fs: Any, root: str, version: str) -> str | None:
    """Pin ``version`` for this process; None when the dataset cannot be written (read-only)."""
    path = f"{root}/{PINS_DIR}/{version}@{host_name()}@{os.getpid()}@{uuid.uuid4().hex[:8]}"
    try:
        fs.pipe_file(path, json.dumps({"since": time.time()}).encode("ascii"))
    except Exception:  # a read-only bucket: the grace period alone covers this reader
        return None
    return path


def unpin_remote(fs: Any, path: str | None) -> None:
    """Remove a pin (idempotent)."""
    if path is not None:
        with suppress(Exception):
            fs.rm_file(path)


def _pins(fs: Any, root: str) -> list[tuple[str, str, bool]]:
    """(object, version, alive) of every pin object of the dataset."""
    folder = f"{root}/{PINS_DIR}"
    try:
        entries = fs.ls(folder, detail=False)
    except FileNotFoundError:
        return []
    now, out = time.time(), []
    for entry in entries:
        m = PIN_RE.fullmatch(entry.rstrip("/").rsplit("/", 1)[-1])
        if not m:
            continue
        if m.group(2) == host_name():
            alive = pid_alive(int(m.group(3)))
        else:
            try:
                since = float(json.loads(fs.cat_file(entry)).get("since", 0))
            except (OSError, ValueError, AttributeError, TypeError):
                since = 0.0
            alive = now - since < FOREIGN_PIN_TTL
        out.append((entry, m.group(1), alive))
    return out


def live_remote_pins(fs: Any, root: str) -> set[str]:
    """The versions pinned by readers that are still running."""
    return {version for _, version, alive in _pins(fs, root) if alive}


def remove_dead_remote_pins(fs: Any, root: str) -> None:
    """Remove the pins of readers that have ended (call under the writer lock)."""
    for entry, _, alive in _pins(fs, root):
        if not alive:
            with suppress(Exception):
                fs.rm_file(entry)
