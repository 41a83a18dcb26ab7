"""Dataset folder layout and atomic versioning.

A dataset is a folder holding numbered versions and a ``CURRENT`` file naming the live one::

    DATASET/CURRENT                      "v000002"
    DATASET/v000002/manifest.json        sources ingested (with SHA-256), tables, counts
    DATASET/v000002/<table>/ruleset=<r>/period=<p>/part-<run>-<k>.parquet
    DATASET/v000002/rejects/part-<run>.parquet

A change builds the next version in a temporary folder (unchanged files are hard-linked from the
live version, so this is cheap), then replaces ``CURRENT`` with ``os.replace``: a reader sees the
old version or the new one, never half of one. A run killed part-way leaves only a temporary
folder, removed by the next change.
"""

from __future__ import annotations

import json
import os
import shutil
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from mjstats.errors import DatasetError

__all__ = ["DATASET_FORMAT", "current_version", "manifest", "new_version", "version_path"]

DATASET_FORMAT = "mjstats-dataset"
DATASET_VERSION = 1
_CURRENT = "CURRENT"


def current_version(root: Path) -> str | None:
    """The live version's folder name, or None for a new (or empty) dataset folder."""
    pointer = root / _CURRENT
    if not pointer.exists():
        if root.exists() and any(p.name.endswith(".parquet") for p in root.rglob("*.parquet")):
            raise DatasetError(f"{root}: not an mjstats dataset (no {_CURRENT} file)")
        return None
    name = pointer.read_text(encoding="utf-8").strip()
    if not (root / name / "manifest.json").is_file():
        raise DatasetError(f"{root}: {_CURRENT} names {name!r}, which has no manifest.json")
    return name


def version_path(root: Path) -> Path:
    """The live version's folder; DatasetError if the path is not a dataset."""
    if not root.exists():
        raise DatasetError(f"{root}: no such dataset")
    name = current_version(root)
    if name is None:
        raise DatasetError(f"{root}: not an mjstats dataset (no {_CURRENT} file)")
    return root / name


def manifest(version_dir: Path | None) -> dict[str, Any]:
    """The manifest of a version (an empty one for a new dataset)."""
    if version_dir is None:
        return {"format": DATASET_FORMAT, "version": DATASET_VERSION, "sources": [], "runs": 0}
    with (version_dir / "manifest.json").open(encoding="utf-8") as fh:
        data = json.load(fh)
    if data.get("format") != DATASET_FORMAT:
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

    The staging folder starts as a hard-linked copy of the live version without the tables named
    in ``drop``. On normal exit the manifest is written and the version goes live atomically; on
    an exception the staging folder is removed and the live version is untouched.
    """
    root.mkdir(parents=True, exist_ok=True)
    _remove_stale(root)
    live_name = current_version(root)
    live = root / live_name if live_name else None
    number = int(live_name[1:]) + 1 if live_name else 1
    staging = root / f".tmp-v{number:06d}-{uuid.uuid4().hex[:8]}"
    staging.mkdir()
    try:
        if live is not None:
            _link_tree(live, staging, skip={"manifest.json", *drop})
        data = manifest(live)
        yield staging, data
        _write_json(staging / "manifest.json", data)
        final = root / f"v{number:06d}"
        staging.rename(final)
        _write_atomic(root / _CURRENT, final.name + "\n")
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    if live is not None:
        shutil.rmtree(live, ignore_errors=True)


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


def _remove_stale(root: Path) -> None:
    """Remove staging folders of interrupted runs and versions that are no longer live."""
    live = current_version(root)
    for entry in root.iterdir():
        if entry.is_dir() and (
            entry.name.startswith(".tmp-") or (entry.name.startswith("v") and entry.name != live)
        ):
            shutil.rmtree(entry, ignore_errors=True)


def _write_json(path: Path, data: Any) -> None:
    _write_atomic(path, json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n")


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}")
    with tmp.open("w", encoding="utf-8") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
