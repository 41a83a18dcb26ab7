"""Reading a dataset at a URL: a local snapshot of its live version.

A version never changes once it is live, so a reader copies the one ``CURRENT`` names into a
private temporary folder (``$TMPDIR/mjstats-snapshot-<host>@<pid>@*``, fsspec's batch download:
concurrent on object stores) and reads that with the local reader, every table and statistic
unchanged. While it copies, a pin (``remote_pins``) keeps writers from collecting the version;
once copied, no writer can break the reader at all. The folder is removed when the reader is
closed or garbage-collected; a reader killed outright (``kill -9``) cannot, so the next opening
on the same host removes the snapshots whose process is gone (docs/scaling.md).
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

from mjstats.errors import DatasetError
from mjstats.store.fs import remote_errors, url_filesystem
from mjstats.store.layout import STAGING_MARKER
from mjstats.store.pins import host_name, pid_alive
from mjstats.store.remote import live_name, read_remote_manifest, require_live
from mjstats.store.remote_pins import pin_remote, unpin_remote

__all__ = ["DatasetURL", "download_live_version", "remove_orphan_snapshots"]

_ATTEMPTS = 5  # CURRENT read again when its version is collected before it was pinned
_PREFIX = "mjstats-snapshot-"
# the owner is in the folder's name (made atomically by mkdtemp): host, process id, random part
_SNAPSHOT_RE = re.compile(re.escape(_PREFIX) + r"([A-Za-z0-9._-]{0,64})@(\d{1,10})@[A-Za-z0-9_]+")


def remove_orphan_snapshots(folder: str | Path | None = None) -> list[Path]:
    """Remove the snapshots in ``folder`` (the temporary folder by default) left by processes of
    this host that are gone (killed before they could clean up); the folders removed. Folders of
    other hosts, of running processes, or not named as mjstats names its snapshots are kept."""
    base = Path(folder if folder is not None else tempfile.gettempdir())
    removed = []
    try:
        entries = list(os.scandir(base))
    except OSError:
        return removed
    host = host_name()
    for entry in entries:
        m = _SNAPSHOT_RE.fullmatch(entry.name)
        if m is None or m.group(1) != host or int(m.group(2)) == os.getpid():
            continue
        if not pid_alive(int(m.group(2))) and entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path, ignore_errors=True)
            removed.append(Path(entry.path))
    return removed


class DatasetURL(str):
    """A dataset's URL as ``Dataset.root``: a string, with a Path's ``name`` (its last folder)."""

    __slots__ = ()

    @property
    def name(self) -> str:
        return self.rstrip("/").rsplit("/", 1)[-1].split("://", 1)[-1]


def download_live_version(url: str) -> tuple[Path, Path, dict[str, Any]]:
    """Copy the live version of the dataset at ``url``: (temporary folder to remove later, local
    version folder, manifest). DatasetError when the URL holds no dataset or cannot be read."""
    fs, root = url_filesystem(url)
    remove_orphan_snapshots()  # once an opening, not once an attempt
    for _ in range(_ATTEMPTS):
        name = require_live(fs, root, url)
        version = f"{root}/{name}"
        pin = pin_remote(fs, root, name)
        try:
            try:
                data = read_remote_manifest(fs, version, url)
            except DatasetError:
                if live_name(fs, root, url) == name:
                    raise
                continue  # collected between reading CURRENT and pinning it: read CURRENT again
            tmp = Path(tempfile.mkdtemp(prefix=f"{_PREFIX}{host_name()}@{os.getpid()}@"))
            try:
                local = tmp / name
                _copy_version(fs, version, local, url)
            except BaseException:
                shutil.rmtree(tmp, ignore_errors=True)
                raise
            return tmp, local, data
        finally:
            unpin_remote(fs, pin)
    raise DatasetError(f"{url}: the dataset kept changing while being opened; try again")


def _copy_version(fs: Any, version: str, local: Path, url: str) -> None:
    """Every file of the version folder, downloaded under ``local`` (same relative paths)."""
    with remote_errors(url, "read the dataset"):
        files = sorted(p for p in fs.find(version) if p.startswith(f"{version}/"))
        relative = [p[len(version) + 1 :] for p in files]
        if not relative or "manifest.json" not in relative or STAGING_MARKER in relative:
            raise DatasetError(f"{url}: version {local.name} is incomplete (no manifest.json)")
        targets = [local / rel for rel in relative]
        for rel, target in zip(relative, targets, strict=True):
            if ".." in Path(rel).parts:  # a hostile object name must not lead out of the snapshot
                raise DatasetError(f"{url}: object {rel[:80]!r} is not a dataset file")
            target.parent.mkdir(parents=True, exist_ok=True)
        fs.get(files, [str(t) for t in targets])
