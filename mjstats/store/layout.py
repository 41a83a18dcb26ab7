"""Dataset folder layout, atomic versioning, and what mjstats may delete.

A dataset is a folder holding numbered versions and a ``CURRENT`` file naming the live one::

    DATASET/CURRENT                      "v000002"
    DATASET/v000002/manifest.json        sources ingested (with SHA-256), tables, counts
    DATASET/v000002/<table>/ruleset=<r>/period=<p>/part-<run>-<k>.parquet
    DATASET/v000002/rejects/part-<run>.parquet
    DATASET/.mjstats.lock                the writer lock (``lock``)
    DATASET/.pins/                       versions that open readers use (``pins``)

A change runs under the writer lock. It builds the next version in a temporary folder
(``.tmp-v000003-<8 hex>``, unchanged files hard-linked from the live version, so this is cheap),
renames it to ``v000003`` and then replaces ``CURRENT`` with ``os.replace``: a reader sees the old
version or the new one, never half of one. The version it replaces stays on disk: old versions are
collected by a later change once they have been superseded for a grace period *and* no open
reader pins them, so a reader is never broken by a writer (docs/reliability.md).

mjstats deletes only what it made: folders named exactly as it names them (``v`` and six or more
digits with an mjstats manifest inside; ``.tmp-v<digits>-<8 hex>`` with its marker inside), its own
``.CURRENT.<8 hex>`` temporary files and pin files of processes that have ended. Anything else in
the folder is left alone.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from mjstats.errors import DatasetError
from mjstats.store.lock import LOCK_NAME, writer_lock
from mjstats.store.pins import PINS_DIR, live_pins, remove_dead_pins

__all__ = [
    "DATASET_FORMAT",
    "check_output_folder",
    "collect_versions",
    "current_version",
    "dataset_containing",
    "is_dataset",
    "manifest",
    "new_version",
    "version_grace",
    "version_path",
]

DATASET_FORMAT = "mjstats-dataset"
DATASET_VERSION = 1
_CURRENT = "CURRENT"
STAGING_MARKER = ".mjstats-staging"
DEFAULT_GRACE = 600.0  # seconds a superseded version stays for readers that have not pinned it

VERSION_RE = re.compile(r"v(\d{6,})")
STAGING_RE = re.compile(r"\.tmp-v(\d{6,})-[0-9a-f]{8}")
POINTER_TMP_RE = re.compile(r"\.CURRENT\.[0-9a-f]{8}")


def version_grace() -> float:
    """Seconds a superseded version is kept at least (``MJSTATS_VERSION_GRACE``, else 600)."""
    raw = os.environ.get("MJSTATS_VERSION_GRACE")
    if raw:
        with suppress(ValueError):
            return max(0.0, float(raw))
    return DEFAULT_GRACE


def current_version(root: Path) -> str | None:
    """The live version's folder name, or None for a new (or empty) dataset folder."""
    pointer = root / _CURRENT
    try:
        name = pointer.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        if root.is_dir() and any(p.name.endswith(".parquet") for p in root.rglob("*.parquet")):
            raise DatasetError(f"{root}: not an mjstats dataset (no {_CURRENT} file)") from None
        return None
    except IsADirectoryError:
        raise DatasetError(f"{root}: not an mjstats dataset ({_CURRENT} is a folder)") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DatasetError(f"{root}: cannot read {_CURRENT}: {exc}") from exc
    if not VERSION_RE.fullmatch(name) or not (root / name / "manifest.json").is_file():
        raise DatasetError(f"{root}: {_CURRENT} names {name[:40]!r}, which is not a version of this dataset")
    return name


def version_path(root: Path) -> Path:
    """The live version's folder; DatasetError if the path is not a dataset."""
    if not root.exists():
        raise DatasetError(f"{root}: no such dataset")
    if not root.is_dir():
        raise DatasetError(f"{root}: not a dataset folder (it is a file)")
    name = current_version(root)
    if name is None:
        raise DatasetError(f"{root}: not an mjstats dataset (no {_CURRENT} file)")
    return root / name


def is_dataset(path: Path) -> bool:
    """True when ``path`` is a dataset folder (its CURRENT names a version with a manifest)."""
    try:
        return path.is_dir() and current_version(path) is not None
    except DatasetError:
        return False


def dataset_containing(path: Path) -> Path | None:
    """The dataset folder that ``path`` is (or lies inside), if any: outputs must not go there."""
    path = Path(os.path.abspath(path))
    for folder in (path, *path.parents):
        if (folder / _CURRENT).is_file() and is_dataset(folder):
            return folder
    return None


def check_output_folder(root: Path) -> None:
    """Refuse to make a dataset in a folder that holds anything but a dataset (a user's files).

    An absent or empty folder, or an existing dataset, is fine; so is a folder holding only what
    an interrupted first ingest of mjstats left (its lock file, staging folders).
    """
    if not root.exists():
        return
    if not root.is_dir():
        raise DatasetError(f"{root}: exists and is not a folder")
    if is_dataset(root):
        return
    others = sorted(
        e.name
        for e in root.iterdir()
        if e.name not in (LOCK_NAME, PINS_DIR) and not STAGING_RE.fullmatch(e.name)
        and not POINTER_TMP_RE.fullmatch(e.name)
    )
    if others:
        shown = ", ".join(others[:3]) + (", ..." if len(others) > 3 else "")
        raise DatasetError(
            f"{root}: folder is not empty and is not an mjstats dataset (holds {shown}); "
            "choose a new or empty folder"
        )


def manifest(version_dir: Path | None) -> dict[str, Any]:
    """The manifest of a version (an empty one for a new dataset)."""
    if version_dir is None:
        return {"format": DATASET_FORMAT, "version": DATASET_VERSION, "sources": [], "runs": 0}
    try:
        with (version_dir / "manifest.json").open(encoding="utf-8") as fh:
            data = json.load(fh)
    except FileNotFoundError:
        raise DatasetError(f"{version_dir}: this version of the dataset is gone (no manifest.json)") from None
    except (OSError, ValueError) as exc:
        raise DatasetError(f"{version_dir}: unreadable manifest.json: {exc}") from exc
    if not isinstance(data, dict) or data.get("format") != DATASET_FORMAT:
        raise DatasetError(f"{version_dir}: manifest is not an mjstats dataset manifest")
    if data.get("version") != DATASET_VERSION:
        raise DatasetError(
            f"{version_dir}: dataset layout version {data.get('version')!r} is not supported "
            f"(this mjstats reads version {DATASET_VERSION})"
        )
    return data


@contextmanager
def new_version(root: Path, *, drop: tuple[str, ...] = ()) -> Iterator[tuple[Path, dict[str, Any]]]:
    """Stage the next version of ``root``: yields (staging folder, manifest to update).

    Runs under the writer lock (taken here unless the caller holds it). The staging folder starts
    as a hard-linked copy of the live version without the tables named in ``drop``. On normal exit
    the manifest is written and the version goes live atomically; on an exception the staging
    folder is removed and the live version is untouched. Superseded versions that no reader can
    still need are collected afterwards.
    """
    with writer_lock(root, create=True):
        remove_leftovers(root)
        live_name = current_version(root)
        live = root / live_name if live_name else None
        number = int(live_name[1:]) + 1 if live_name else 1
        staging = root / f".tmp-v{number:06d}-{uuid.uuid4().hex[:8]}"
        staging.mkdir()
        (staging / STAGING_MARKER).touch()
        try:
            if live is not None:
                _link_tree(live, staging, skip={"manifest.json", STAGING_MARKER, *drop})
            data = manifest(live)
            yield staging, data
            _write_json(staging / "manifest.json", data)
            (staging / STAGING_MARKER).unlink()
            final = root / f"v{number:06d}"
            staging.rename(final)
            _write_atomic(root / _CURRENT, final.name + "\n")
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        collect_versions(root)


def remove_leftovers(root: Path) -> None:
    """Remove what interrupted mjstats runs left (call under the writer lock): staging folders,
    versions that never went live, temporary pointer files, pins of ended processes."""
    live = current_version(root)
    live_no = int(live[1:]) if live else 0
    for entry in root.iterdir():
        name = entry.name
        if STAGING_RE.fullmatch(name) and entry.is_dir() and not entry.is_symlink():
            if (entry / STAGING_MARKER).exists() or not any(entry.iterdir()):
                shutil.rmtree(entry, ignore_errors=True)
        elif POINTER_TMP_RE.fullmatch(name) and entry.is_file():
            entry.unlink(missing_ok=True)
        elif _is_version_folder(entry) and int(name[1:]) > live_no:
            shutil.rmtree(entry, ignore_errors=True)  # renamed into place, but CURRENT never named it
    remove_dead_pins(root)


def collect_versions(root: Path, *, grace: float | None = None, now: float | None = None) -> list[str]:
    """Delete superseded versions no reader can need (call under the writer lock); returns them.

    A version older than the live one goes once the version after it has been live for ``grace``
    seconds (a reader that read ``CURRENT`` before the switch has had that long to pin it) and no
    pin of a running process names it.
    """
    live = current_version(root)
    if live is None:
        return []
    grace = version_grace() if grace is None else grace
    now = time.time() if now is None else now
    live_no = int(live[1:])
    versions = sorted(
        (int(e.name[1:]), e) for e in root.iterdir() if _is_version_folder(e) and int(e.name[1:]) < live_no
    )
    if not versions:
        return []
    pinned = live_pins(root)
    numbers = [n for n, _ in versions] + [live_no]
    removed = []
    for i, (_, folder) in enumerate(versions):
        successor = root / f"v{numbers[i + 1]:06d}" / "manifest.json"
        try:
            superseded_at = successor.stat().st_mtime
        except FileNotFoundError:
            continue
        if folder.name in pinned or now - superseded_at < grace:
            continue
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder.name)
    return removed


def _is_version_folder(entry: Path) -> bool:
    """A folder named as mjstats names versions, holding an mjstats manifest (so: ours)."""
    if not VERSION_RE.fullmatch(entry.name) or not entry.is_dir() or entry.is_symlink():
        return False
    try:
        with (entry / "manifest.json").open(encoding="utf-8") as fh:
            return json.load(fh).get("format") == DATASET_FORMAT
    except (OSError, ValueError, AttributeError):
        return False


def _link_tree(src: Path, dst: Path, *, skip: set[str]) -> None:
    for entry in src.iterdir():
        if entry.name in skip:
            continue
        target = dst / entry.name
        if entry.is_dir():
            target.mkdir()
            _link_tree(entry, target, skip=set())
        else:
            try:
                os.link(entry, target)
            except OSError:
                shutil.copy2(entry, target)


def _write_json(path: Path, data: Any) -> None:
    _write_atomic(path, json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n")


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}")
    try:
        with tmp.open("w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
