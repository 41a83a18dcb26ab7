"""Datasets at fsspec URLs (``s3://``, ``gs://``, ``memory://``, ``file://``): read them, and
store derived tables in them as a new version.

The layout is the local one (``layout``): ``CURRENT`` names the live version folder. Object
stores have no atomic folder rename, so a change writes the next version folder in place and
then replaces ``CURRENT`` with one small write (a single PUT, atomic on S3/GCS): a reader that
follows ``CURRENT`` sees the old version or the new one, never half of one. A run killed
part-way leaves a version folder ``CURRENT`` does not name; the next change removes it.
``file://`` URLs are read through fsspec but written with the local (hard-link, rename) layout.

One writer at a time: a change holds a lease lock, the object ``LOCK`` (its holder, a token and an
expiry that a heartbeat renews); a lease that expired, or whose holder on this host has ended, is
taken over. Object stores have no atomic create-if-absent here, so the lock is written, then read
back to confirm: two writers starting within the same instant on different hosts are not ruled
out (docs/reliability.md). A superseded version stays for the grace period, then a later change
collects it.

Only what the audit needs lives here; ingest still writes local folders (docs/scaling.md).
"""

from __future__ import annotations

import itertools
import json
import os
import socket
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.dataset as pads
import pyarrow.parquet as pq

from mjstats.errors import DatasetError, MjstatsError
from mjstats.store.layout import DATASET_FORMAT, DATASET_VERSION, VERSION_RE, version_grace
from mjstats.store.lock import DatasetBusy, current_command, default_wait
from mjstats.store.schema import HAND_TABLES

__all__ = [
    "RemoteDataset",
    "dataset_lock",
    "is_url",
    "local_path",
    "new_remote_version",
    "open_remote",
    "read_version_part",
    "remote_writer_lock",
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


LEASE = 300.0  # seconds a remote lock lasts without its heartbeat
_held_remote: dict[str, int] = {}  # lock object -> re-entry depth (this process)
_held_guard = threading.Lock()


@contextmanager
def remote_writer_lock(url: str, *, wait: float | None = None) -> Iterator[None]:
    """Hold the writer lock of the dataset at ``url`` (a lease renewed while held)."""
    fs, root = _filesystem(url)
    lock = f"{root}/LOCK"
    key = f"{fs.protocol}:{lock}"
    with _held_guard:
        depth = _held_remote.get(key, 0)
        if depth:
            _held_remote[key] = depth + 1
    if depth:
        try:
            yield
        finally:
            with _held_guard:
                _held_remote[key] -= 1
        return
    token = uuid.uuid4().hex
    _acquire_remote(fs, lock, token, default_wait() if wait is None else wait, url)
    with _held_guard:
        _held_remote[key] = 1
    stop = threading.Event()
    beat = threading.Thread(target=_heartbeat, args=(fs, lock, token, stop), daemon=True)
    beat.start()
    try:
        yield
    finally:
        stop.set()
        beat.join()
        with _held_guard:
            del _held_remote[key]
        with suppress(Exception):
            if _lock_record(fs, lock).get("token") == token:
                fs.rm(lock)


def _lock_record(fs: Any, lock: str) -> dict[str, Any]:
    try:
        data = json.loads(fs.cat_file(lock))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError):
        return {"expires": 0}
    return data if isinstance(data, dict) else {"expires": 0}


def _stale(record: dict[str, Any]) -> bool:
    if not record:
        return True
    if float(record.get("expires", 0)) < time.time():
        return True
    pid = record.get("pid")
    if record.get("host") == socket.gethostname() and isinstance(pid, int):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        except PermissionError:
            return False
    return False


def _write_lock(fs: Any, lock: str, token: str) -> None:
    record = {
        "token": token,
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "command": current_command(),
        "since": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "expires": time.time() + LEASE,
    }
    fs.pipe_file(lock, json.dumps(record, sort_keys=True).encode("utf-8"))


def _acquire_remote(fs: Any, lock: str, token: str, wait: float, url: str) -> None:
    deadline = time.monotonic() + wait
    while True:
        record = _lock_record(fs, lock)
        if _stale(record):
            _write_lock(fs, lock, token)
            time.sleep(0.05)
            if _lock_record(fs, lock).get("token") == token:
                return
        if time.monotonic() >= deadline:
            who = f"pid {record.get('pid')} on {record.get('host')} ({record.get('command', '')})"
            raise DatasetBusy(
                f"{url}: another writer is changing this dataset ({who}); "
                f"waited {wait:g} s (use --wait SECONDS to wait longer)"
            )
        time.sleep(0.2)


def _heartbeat(fs: Any, lock: str, token: str, stop: threading.Event) -> None:
    while not stop.wait(LEASE / 5):
        with suppress(Exception):
            if _lock_record(fs, lock).get("token") == token:
                _write_lock(fs, lock, token)


@contextmanager
def new_remote_version(url: str, *, drop: tuple[str, ...] = ()) -> Iterator[tuple[Any, str, dict[str, Any]]]:
    """Stage the next version of the dataset at ``url``: yields (filesystem, version folder,
    manifest to update). The folder starts as a copy of the live version without the tables in
    ``drop`` (server-side copies on object stores). On normal exit the manifest is written and
    ``CURRENT`` switched; on an exception the new folder is removed and the live one is untouched.
    Runs under the dataset's writer lock (taken here unless the caller holds it).
    """
    with remote_writer_lock(url):
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
        _collect_remote(fs, root, target.rsplit("/", 1)[-1])


def _versions(fs: Any, root: str) -> list[tuple[int, str]]:
    out = []
    for entry in fs.ls(root, detail=False):
        name = entry.rstrip("/").rsplit("/", 1)[-1]
        if VERSION_RE.fullmatch(name) and fs.isdir(entry) and fs.exists(f"{entry}/manifest.json"):
            out.append((int(name[1:]), entry))
    return sorted(out)


def _remove_stale(fs: Any, root: str, live_name: str) -> None:
    """Remove version folders of interrupted runs (numbered past the live one: never live)."""
    live_no = int(live_name[1:])
    for number, entry in _versions(fs, root):
        if number > live_no:
            fs.rm(entry, recursive=True)


def _collect_remote(fs: Any, root: str, live_name: str) -> None:
    """Remove superseded versions whose successor has been live for the grace period."""
    grace, now = version_grace(), time.time()
    versions = _versions(fs, root)
    live_no = int(live_name[1:])
    for (number, entry), (_, successor) in itertools.pairwise(versions):
        if number >= live_no:
            break
        try:
            switched = fs.modified(f"{successor}/manifest.json").timestamp()
        except (NotImplementedError, OSError, AttributeError):
            continue  # no modification time: keep the version (it costs space, never a reader)
        if now - switched >= grace:
            fs.rm(entry, recursive=True)


@contextmanager
def dataset_lock(
    dataset: str | Path, *, wait: float | None = None, on_wait: Any = None
) -> Iterator[None]:
    """Hold the writer lock of a dataset, local folder or URL, for a whole writing run (an audit
    reads a version, replays it, and stores its tables: no other writer may come in between)."""
    local = local_path(dataset) if isinstance(dataset, str) and is_url(dataset) else None
    if isinstance(dataset, Path) or not is_url(dataset) or local is not None:
        from mjstats.store.lock import writer_lock

        with writer_lock(local or Path(dataset), wait=wait, on_wait=on_wait):
            yield
        return
    with remote_writer_lock(str(dataset), wait=wait):
        yield
