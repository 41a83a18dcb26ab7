"""Ingest into a dataset at an fsspec URL: the local run, published as a new remote version.

The records are parsed and written exactly as for a local dataset (``writer.ingest_into``), into
a private temporary folder; the files are then uploaded into the next version folder at the URL,
which ``new_remote_version`` started as a server-side copy of the live one, and ``CURRENT`` is
switched last. So a URL dataset holds the same part files, row for row, as a local one fed the
same inputs, and a reader never sees half of a run. The run holds the remote lease lock.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Mapping
from contextlib import suppress
from pathlib import Path
from typing import Any

from mjstats.formats.limits import InputLimits, input_limits
from mjstats.store.fs import remote_errors, url_filesystem
from mjstats.store.lock import LockHolder
from mjstats.store.remote import (
    check_remote_output,
    live_name,
    new_remote_version,
    read_remote_manifest,
    remote_writer_lock,
)
from mjstats.store.sources import SourceInput
from mjstats.store.writer import IngestSummary, Progress, ingest_into, stored_hand_keys

__all__ = ["ingest_remote"]


def ingest_remote(
    inputs: list[SourceInput],
    digests: Mapping[Path, str],
    url: str,
    *,
    jobs: int,
    chunk_hands: int,
    batch_records: int,
    progress: Progress | None,
    reject_samples: int,
    wait: float | None,
    on_wait: Callable[[LockHolder | None], None] | None,
    limits: InputLimits | None,
) -> IngestSummary:
    """``ingest_sources`` for a URL (the same arguments, the sources' digests computed)."""
    fs, root = url_filesystem(url)
    check_remote_output(fs, root, url)  # before the lock object is made: a user's objects stay
    with remote_errors(url, "read the dataset"):
        created = not fs.exists(root)
    summary = IngestSummary()
    try:
        with remote_writer_lock(url, wait=wait, on_wait=on_wait, create=True):
            check_remote_output(fs, root, url)
            name = live_name(fs, root, url)
            if name is not None:
                live = {s["sha256"] for s in read_remote_manifest(fs, f"{root}/{name}", url)["sources"]}
                if all(d in live for d in digests.values()):  # nothing new: leave it as it is
                    summary.skipped_sources.extend(str(item.path) for item in inputs)
                    return summary
            with (
                new_remote_version(url, create=True) as (fs, target, manifest_data),
                tempfile.TemporaryDirectory(prefix="mjstats-ingest-") as tmp,
                input_limits(limits),
            ):
                staging = Path(tmp)
                ingest_into(
                    staging, manifest_data, _existing_keys(fs, target, url), inputs, digests, summary,
                    jobs=jobs, chunk_hands=chunk_hands, batch_records=batch_records,
                    progress=progress, reject_samples=reject_samples,
                )
                _upload(fs, staging, target, url)
    except BaseException:
        if created:
            _remove_if_empty(fs, root)
        raise
    return summary


def _existing_keys(fs: Any, version: str, url: str) -> set[int]:
    """The keys (store.hand_keys) of the hands already in the version folder."""
    with remote_errors(url, "read the dataset's hands"):
        return stored_hand_keys(sorted(fs.glob(f"{version}/hands/ruleset=*/period=*/*.parquet")), fs)


def _upload(fs: Any, staging: Path, target: str, url: str) -> None:
    """Every file of the local staging folder into the remote version folder (same paths)."""
    files = sorted(p for p in staging.rglob("*") if p.is_file())
    if not files:
        return
    with remote_errors(url, "upload the new version"):
        fs.put([str(p) for p in files], [f"{target}/{p.relative_to(staging).as_posix()}" for p in files])


def _remove_if_empty(fs: Any, root: str) -> None:
    """Remove the folder a failed first ingest made at the URL, when nothing is left in it."""
    with suppress(Exception):
        if fs.exists(root) and not fs.ls(root, detail=False):
            fs.rmdir(root)
