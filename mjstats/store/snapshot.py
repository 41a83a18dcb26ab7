"""Reading a dataset at a URL: a local snapshot of its live version.

A version never changes once it is live, so a reader copies the one ``CURRENT`` names into a
private temporary folder (``$TMPDIR/mjstats-snapshot-*``, fsspec's batch download: concurrent on
object stores) and reads that with the local reader, every table and statistic unchanged. While
it copies, a pin (``remote_pins``) keeps writers from collecting the version; once copied, no
writer can break the reader at all. The folder is removed when the reader is closed or
garbage-collected (docs/scaling.md).
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

from mjstats.errors import DatasetError
from mjstats.store.fs import remote_errors, url_filesystem
from mjstats.store.layout import STAGING_MARKER
from mjstats.store.remote import live_name, read_remote_manifest, require_live
from mjstats.store.remote_pins import pin_remote, unpin_remote

__all__ = ["DatasetURL", "download_live_version"]

_ATTEMPTS = 5  # CURRENT read again when its version is collected before it was pinned


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
            tmp = Path(tempfile.mkdtemp(prefix="mjstats-snapshot-"))
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
