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

A new version folder holds the marker ``.mjstats-staging`` until its manifest is written, so an
interrupted run's folder is known as ours. Readers pin the version they copy (``remote_pins``,
``snapshot``); the collector keeps pinned versions. Ingest (``remote_ingest``), the audit,
``write_derived`` and every reader go through here (docs/scaling.md).
"""

from __future__ import annotations

import itertools
import json
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from mjstats.errors import DatasetError
from mjstats.store.fs import is_url, local_path, remote_errors, url_filesystem
from mjstats.store.layout import (
    DATASET_FORMAT,
    DATASET_VERSION,
    STAGING_MARKER,
    VERSION_RE,
    manifest,
    version_grace,
)
from mjstats.store.lock import DatasetBusy, LockHolder, current_command, default_wait
from mjstats.store.pins import PINS_DIR
from mjstats.store.remote_pins import live_remote_pins, remove_dead_remote_pins
from mjstats.store.schema import HAND_TABLES

__all__ = [
    "RemoteDataset",
    "check_remote_output",
    "dataset_lock",
    "live_name",
    "new_remote_version",
    "open_remote",
    "read_remote_manifest",
    "read_version_part",
    "remote_writer_lock",
    "require_live",
]

_CURRENT = "CURRENT"


def _filesystem(url: str) -> tuple[Any, str]:
    return url_filesystem(url)


def live_name(fs: Any, root: str, url: str) -> str | None:
    """The live version's folder name, or None when the URL holds no dataset (yet)."""
    with remote_errors(url, "read the dataset"):
        try:
            raw = fs.cat_file(f"{root}/{_CURRENT}")
        except FileNotFoundError:
            return None
        except IsADirectoryError:
            raise DatasetError(f"{url}: not an mjstats dataset ({_CURRENT} is a folder)") from None
        name = raw.decode("utf-8", "replace").strip()
        if not VERSION_RE.fullmatch(name) or not fs.exists(f"{root}/{name}/manifest.json"):
            raise DatasetError(
                f"{url}: {_CURRENT} names {name[:40]!r}, which is not a version of this dataset"
            )
    return name


def read_remote_manifest(fs: Any, version: str, url: str = "") -> dict[str, Any]:
    """The manifest of a version folder on ``fs`` (DatasetError naming ``url`` when unusable)."""
    where = url or version
    with remote_errors(where, "read the manifest"):
        try:
            data = json.loads(fs.cat_file(f"{version}/manifest.json"))
        except FileNotFoundError:
            raise DatasetError(f"{where}: this version of the dataset is gone (no manifest.json)") from None
        except ValueError as exc:
            raise DatasetError(f"{where}: unreadable manifest.json: {exc}") from None
    expected = (DATASET_FORMAT, DATASET_VERSION)
    if not isinstance(data, dict) or (data.get("format"), data.get("version")) != expected:
        raise DatasetError(f"{where}: not an mjstats dataset manifest of layout {DATASET_VERSION}")
    return data


def require_live(fs: Any, root: str, url: str) -> str:
    """The live version's name; DatasetError naming the URL when there is no dataset there."""
    name = live_name(fs, root, url)
    if name is None:
        with remote_errors(url, "read the dataset"):
            _require_bucket(fs, root, url)
            found = fs.exists(root) and any(
                e.rstrip("/").rsplit("/", 1)[-1] not in ("LOCK", PINS_DIR) for e in fs.ls(root, detail=False)
            )
        if not found:
            raise DatasetError(f"{url}: no such dataset")
        raise DatasetError(f"{url}: not an mjstats dataset (no {_CURRENT} file)")
    return name


def _require_bucket(fs: Any, root: str, url: str) -> None:
    """On an object store (no root folder), the bucket must exist: say so when it does not."""
    bucket = root.split("/", 1)[0]
    if not fs.root_marker and "/" in root and not fs.exists(bucket):
        raise DatasetError(f"{url}: bucket {bucket!r} does not exist or cannot be reached")


def check_remote_output(fs: Any, root: str, url: str) -> None:
    """Refuse to make a dataset at a URL that holds anything but a dataset (a user's objects);
    a bucket that does not exist or cannot be reached fails here, before anything is written."""
    if live_name(fs, root, url) is not None:
        return
    with remote_errors(url, "write the dataset"):
        _require_bucket(fs, root, url)
        if fs.isfile(root):
            raise DatasetError(f"{url}: exists and is not a folder")
        try:
            entries = fs.ls(root, detail=False)
        except FileNotFoundError:
            return
    others = sorted(
        name for name in (e.rstrip("/").rsplit("/", 1)[-1] for e in entries)
        if name not in ("LOCK", PINS_DIR) and not VERSION_RE.fullmatch(name)
    )
    if others:
        shown = ", ".join(others[:3]) + (", ..." if len(others) > 3 else "")
        raise DatasetError(
            f"{url}: folder is not empty and is not an mjstats dataset (holds {shown}); "
            "choose a new or empty folder"
        )


class RemoteDataset:
    """A read-only view of the live version of a dataset at an fsspec URL."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.fs, self.root = _filesystem(url)
        name = require_live(self.fs, self.root, url)
        self.path = f"{self.root}/{name}"  # the version folder, without the URL scheme
        self.manifest = read_remote_manifest(self.fs, self.path, url)

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
        import pyarrow.dataset as pads  # here: it imports pandas, which most commands never use

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
def remote_writer_lock(
    url: str,
    *,
    wait: float | None = None,
    on_wait: Callable[[LockHolder | None], None] | None = None,
    create: bool = False,
) -> Iterator[None]:
    """Hold the writer lock of the dataset at ``url`` (a lease renewed while held); ``on_wait`` is
    called once, with the holder, when another writer makes this one wait. Without ``create``
    the URL must hold a dataset: no lock object is written where there is none."""
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
    if not create:
        require_live(fs, root, url)
    token = uuid.uuid4().hex
    with remote_errors(url, "lock the dataset"):
        _acquire_remote(fs, lock, token, default_wait() if wait is None else wait, url, on_wait)
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


def _acquire_remote(
    fs: Any, lock: str, token: str, wait: float, url: str,
    on_wait: Callable[[LockHolder | None], None] | None = None,
) -> None:
    deadline = time.monotonic() + wait
    told = False
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
        if not told and on_wait is not None:
            pid = record.get("pid")
            on_wait(LockHolder(pid if isinstance(pid, int) else None, str(record.get("host", "")),
                               str(record.get("command", "")), str(record.get("since", ""))))
        told = True
        time.sleep(0.2)


def _heartbeat(fs: Any, lock: str, token: str, stop: threading.Event) -> None:
    while not stop.wait(LEASE / 5):
        with suppress(Exception):
            if _lock_record(fs, lock).get("token") == token:
                _write_lock(fs, lock, token)


@contextmanager
def new_remote_version(
    url: str, *, drop: tuple[str, ...] = (), create: bool = False
) -> Iterator[tuple[Any, str, dict[str, Any]]]:
    """Stage the next version of the dataset at ``url``: yields (filesystem, version folder,
    manifest to update). The folder starts as a copy of the live version without the tables in
    ``drop`` (server-side copies on object stores). On normal exit the manifest is written and
    ``CURRENT`` switched; on an exception the new folder is removed and the live one is untouched.
    ``create`` allows a URL without a dataset yet (a first ingest): the version is ``v000001``.
    Runs under the dataset's writer lock (taken here unless the caller holds it).
    """
    with remote_writer_lock(url, create=create):
        fs, root = _filesystem(url)
        name = live_name(fs, root, url) if create else require_live(fs, root, url)
        live = f"{root}/{name}" if name else None
        with remote_errors(url, "clean up interrupted runs"):
            _remove_stale(fs, root, name)
        target = f"{root}/v{int(name[1:]) + 1 if name else 1:06d}"
        try:
            with remote_errors(url, "copy the live version"):
                fs.pipe_file(f"{target}/{STAGING_MARKER}", b"")  # ours, until it goes live
                sources = [] if live is None else [
                    p for p in fs.find(live)
                    if p != f"{live}/manifest.json" and p[len(live) + 1 :].split("/", 1)[0] not in drop
                ]  # fmt: skip
                if sources:
                    fs.copy(sources, [f"{target}{p[len(live or ''):]}" for p in sources])
            data = read_remote_manifest(fs, live, url) if live else manifest(None)
            yield fs, target, data
            with remote_errors(url, "publish the new version"):
                fs.pipe_file(
                    f"{target}/manifest.json",
                    (json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n").encode("utf-8"),
                )
                fs.rm_file(f"{target}/{STAGING_MARKER}")
                # reference: layout docstring - one small write switches readers to the new version
                fs.pipe_file(f"{root}/{_CURRENT}", (target.rsplit("/", 1)[-1] + "\n").encode("utf-8"))
        except BaseException:
            with suppress(Exception):
                if fs.exists(target):
                    fs.rm(target, recursive=True)
            raise
        with remote_errors(url, "collect superseded versions"):
            _collect_remote(fs, root, target.rsplit("/", 1)[-1])


def _versions(fs: Any, root: str, *, staged: bool = False) -> list[tuple[int, str]]:
    """Version folders mjstats made: with a manifest (or, ``staged``, with the staging marker)."""
    out = []
    try:
        entries = fs.ls(root, detail=False)
    except FileNotFoundError:
        return []
    for entry in entries:
        name = entry.rstrip("/").rsplit("/", 1)[-1]
        if not VERSION_RE.fullmatch(name) or not fs.isdir(entry):
            continue
        if fs.exists(f"{entry}/manifest.json") or (staged and fs.exists(f"{entry}/{STAGING_MARKER}")):
            out.append((int(name[1:]), entry))
    return sorted(out)


def _remove_stale(fs: Any, root: str, live_name: str | None) -> None:
    """Remove version folders of interrupted runs (numbered past the live one: never live) and
    the pins of readers that have ended."""
    live_no = int(live_name[1:]) if live_name else 0
    for number, entry in _versions(fs, root, staged=True):
        if number > live_no:
            fs.rm(entry, recursive=True)
    remove_dead_remote_pins(fs, root)


def _collect_remote(fs: Any, root: str, live_name: str) -> None:
    """Remove superseded versions whose successor has been live for the grace period."""
    grace, now = version_grace(), time.time()
    versions = _versions(fs, root)
    pinned = live_remote_pins(fs, root)
    live_no = int(live_name[1:])
    for (number, entry), (_, successor) in itertools.pairwise(versions):
        if number >= live_no:
            break
        try:
            switched = fs.modified(f"{successor}/manifest.json").timestamp()
        except (NotImplementedError, OSError, AttributeError):
            continue  # no modification time: keep the version (it costs space, never a reader)
        if now - switched >= grace and entry.rstrip("/").rsplit("/", 1)[-1] not in pinned:
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
    with remote_writer_lock(str(dataset), wait=wait, on_wait=on_wait):
        yield
