"""Datasets at fsspec URLs (``s3://``, ``gs://``, ``memory://``, ``file://``): read them, and
store derived tables in them as a new version.

The layout is the local one (``layout``): ``CURRENT`` names the live version folder. Object
stores have no atomic folder rename, so a change writes the next version folder in place and
then replaces ``CURRENT`` with one small write (a single PUT, atomic on S3/GCS): a reader that
follows ``CURRENT`` sees the old version or the new one, never half of one. A run killed
part-way leaves a version folder ``CURRENT`` does not name; the next change removes it.
``file://`` URLs are read through fsspec but written with the local (hard-link, rename) layout.

Only what the audit needs lives here; ingest still writes local folders (docs/scaling.md).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.dataset as pads
import pyarrow.parquet as pq

from mjstats.errors import DatasetError, MjstatsError
from mjstats.store.layout import DATASET_FORMAT, DATASET_VERSION
from mjstats.store.schema import HAND_TABLES

__all__ = [
    "RemoteDataset",
    "is_url",
    "local_path",
    "new_remote_version",
    "open_remote",
    "read_version_part",
]

_CURRENT = "CURRENT"


def is_url(path: str | Path) -> bool:
    """True for ``scheme://...`` strings (a pathlib.Path is always local)."""
    return isinstance(path, str) and "://" in path and not path.startswith("/")


def local_path(url: str) -> Path | None:
    """The local folder of a ``file://`` URL (None for any other scheme)."""
    if url.startswith("file://"):
        return Path(url.removeprefix("file://"))
    return None


def _filesystem(url: str) -> tuple[Any, str]:
    try:
        from fsspec.core import url_to_fs
    except ImportError as exc:  # fsspec comes with the dask extra
        raise MjstatsError(f"{url}: reading dataset URLs needs fsspec: pip install mjstats[dask]") from exc
    try:
        fs, path = url_to_fs(url)
    except (ImportError, ValueError) as exc:
        raise DatasetError(f"{url}: {exc}") from exc
    return fs, path.rstrip("/")


def _live_name(fs: Any, root: str) -> str | None:
    pointer = f"{root}/{_CURRENT}"
    if not fs.exists(pointer):
        return None
    name = fs.cat_file(pointer).decode("utf-8").strip()
    if not fs.exists(f"{root}/{name}/manifest.json"):
        raise DatasetError(f"{root}: {_CURRENT} names {name!r}, which has no manifest.json")
    return name


def _read_manifest(fs: Any, version: str) -> dict[str, Any]:
    data = json.loads(fs.cat_file(f"{version}/manifest.json"))
    if data.get("format") != DATASET_FORMAT or data.get("version") != DATASET_VERSION:
        raise DatasetError(f"{version}: not an mjstats dataset manifest of layout {DATASET_VERSION}")
    return data


class RemoteDataset:
    """A read-only view of the live version of a dataset at an fsspec URL."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.fs, self.root = _filesystem(url)
        name = _live_name(self.fs, self.root)
        if name is None:
            raise DatasetError(f"{url}: not an mjstats dataset (no {_CURRENT} file)")
        self.path = f"{self.root}/{name}"  # the version folder, without the URL scheme
        self.manifest = _read_manifest(self.fs, self.path)

    def __repr__(self) -> str:
        return f"RemoteDataset({self.url!r}, version={self.path.rsplit('/', 1)[-1]})"

    def parts(self) -> list[tuple[str, str, str]]:
        """Every (ruleset, period, part file name) of the aligned ingest tables, sorted."""
        out = []
        for path in self.fs.glob(f"{self.path}/hands/ruleset=*/period=*/part-*.parquet"):
            ruleset_dir, period_dir, name = path.rsplit("/", 3)[-3:]
            out.append((ruleset_dir.split("=", 1)[1], period_dir.split("=", 1)[1], name))
        return sorted(out)

    def version_url(self) -> str:
        """The live version folder as a URL (what workers are sent)."""
        return str(self.fs.unstrip_protocol(self.path))

    def part_rows(self, ruleset: str, period: str, part: str) -> int:
        """Hands in one part file (from the Parquet footer only)."""
        path = f"{self.path}/hands/ruleset={ruleset}/period={period}/{part}"
        return pq.read_metadata(path, filesystem=self.fs).num_rows

    def read_part_tables(self, ruleset: str, period: str, part: str) -> dict[str, pa.Table]:
        """The aligned tables (hands, events, wins, fans, payments) of one part file."""
        return _read_part(self.fs, self.path, ruleset, period, part)

    def has_table(self, name: str) -> bool:
        return bool(self.fs.isdir(f"{self.path}/{name}"))

    def arrow(self, name: str, columns: Sequence[str] | None = None) -> pa.Table:
        """One table as Arrow, Hive partition keys as columns (empty when the table is absent)."""
        folder = f"{self.path}/{name}"
        if not self.fs.isdir(folder) or not self.fs.find(folder):
            return pa.table({c: pa.array([], pa.string()) for c in columns or ()})
        dataset = pads.dataset(folder, filesystem=self.fs, format="parquet", partitioning="hive")
        return dataset.to_table(columns=list(columns) if columns else None)


def read_version_part(version_url: str, ruleset: str, period: str, part: str) -> dict[str, pa.Table]:
    """The aligned tables of one part file of the version folder at ``version_url`` (what an
    audit worker reads: it needs no manifest or CURRENT lookup)."""
    fs, version = _filesystem(version_url)
    return _read_part(fs, version, ruleset, period, part)


def _read_part(fs: Any, version: str, ruleset: str, period: str, part: str) -> dict[str, pa.Table]:
    sub = f"ruleset={ruleset}/period={period}/{part}"
    return {name: pq.read_table(f"{version}/{name}/{sub}", filesystem=fs) for name in HAND_TABLES}


def open_remote(url: str) -> RemoteDataset:
    """Open the dataset at an fsspec URL (``s3://bucket/ds`` with s3fs installed, ``memory://ds``)."""
    return RemoteDataset(url)


@contextmanager
def new_remote_version(url: str, *, drop: tuple[str, ...] = ()) -> Iterator[tuple[Any, str, dict[str, Any]]]:
    """Stage the next version of the dataset at ``url``: yields (filesystem, version folder,
    manifest to update). The folder starts as a copy of the live version without the tables in
    ``drop`` (server-side copies on object stores). On normal exit the manifest is written and
    ``CURRENT`` switched; on an exception the new folder is removed and the live one is untouched.
    """
    fs, root = _filesystem(url)
    live_name = _live_name(fs, root)
    if live_name is None:
        raise DatasetError(f"{url}: not an mjstats dataset (no {_CURRENT} file)")
    live = f"{root}/{live_name}"
    _remove_stale(fs, root, live_name)
    target = f"{root}/v{int(live_name[1:]) + 1:06d}"
    try:
        skip = {f"{live}/manifest.json"}
        sources = [
            p for p in fs.find(live)
            if p not in skip and p[len(live) + 1 :].split("/", 1)[0] not in drop
        ]  # fmt: skip
        if sources:
            fs.copy(sources, [f"{target}{p[len(live):]}" for p in sources])
        data = _read_manifest(fs, live)
        yield fs, target, data
        fs.pipe_file(
            f"{target}/manifest.json",
            (json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n").encode("utf-8"),
        )
        fs.pipe_file(f"{root}/{_CURRENT}", (target.rsplit("/", 1)[-1] + "\n").encode("utf-8"))
    except BaseException:
        if fs.exists(target):
            fs.rm(target, recursive=True)
        raise
    fs.rm(live, recursive=True)


def _remove_stale(fs: Any, root: str, live_name: str) -> None:
    """Remove version folders of interrupted runs (any ``v*`` folder CURRENT does not name)."""
    for entry in fs.ls(root, detail=False):
        name = entry.rstrip("/").rsplit("/", 1)[-1]
        if name.startswith("v") and name != live_name and fs.isdir(entry):
            fs.rm(entry, recursive=True)
