"""The inputs' digests hashed on a thread (store.source_digests): the same digests as reading
them in line, the same early errors, nothing left open, and the skip rules unchanged."""

from __future__ import annotations

import hashlib
import os
import random
import shutil
from pathlib import Path

import pytest

from mjstats.errors import MjstatsError
from mjstats.store import SourceInput, ingest_sources
from mjstats.store.source_digests import SourceDigests

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "botzone" / "sample.txt"


def _open_fds() -> set[str]:
    return {os.readlink(f"/proc/self/fd/{fd}") for fd in os.listdir("/proc/self/fd")
            if os.path.exists(f"/proc/self/fd/{fd}")}


def test_each_digest_is_its_files_sha256(tmp_path: Path) -> None:
    paths, expected = [], {}
    for i, size in enumerate([0, 5, (1 << 20) + 3, 3 * (1 << 20)]):
        data = random.Random(i).randbytes(size)
        path = tmp_path / f"s{i}.txt"
        path.write_bytes(data)
        paths.append(path)
        expected[path] = hashlib.sha256(data).hexdigest()
    with SourceDigests([*paths, paths[1]]) as digests:  # a path given twice: one digest
        assert list(digests) == paths and len(digests) == 4
        assert dict(digests) == expected
        assert digests[paths[2]] == expected[paths[2]]


def test_a_missing_or_folder_input_fails_before_any_thread(tmp_path: Path) -> None:
    ok = tmp_path / "ok.txt"
    ok.write_text("x")
    before = _open_fds()
    with pytest.raises(MjstatsError, match=r"nope\.txt: no such file"):
        SourceDigests([ok, tmp_path / "nope.txt"])
    with pytest.raises(MjstatsError, match="is a folder, not a file"):
        SourceDigests([ok, tmp_path])
    assert _open_fds() == before  # the file opened before the failing one was closed


def test_leaving_early_stops_the_thread_and_closes_every_file(tmp_path: Path) -> None:
    paths = []
    for i in range(3):
        path = tmp_path / f"big{i}.bin"
        path.write_bytes(bytes(8 << 20))
        paths.append(path)
    before = _open_fds()
    with pytest.raises(KeyboardInterrupt), SourceDigests(paths):
        raise KeyboardInterrupt  # Ctrl-C while the files are being hashed
    assert _open_fds() == before
    digests = SourceDigests(paths)
    digests.close()
    assert not digests._thread.is_alive()


def test_a_repeated_source_is_still_skipped(tmp_path: Path) -> None:
    """The first source of a new dataset is read before its digest is waited for; a copy of
    it given next in the same run, and the same file in a later run, are skipped as before."""
    copy = tmp_path / "copy.txt"
    shutil.copyfile(SAMPLE, copy)
    out = tmp_path / "ds"
    summary = ingest_sources([SourceInput(SAMPLE, "botzone"), SourceInput(copy, "botzone")], out)
    assert summary.hands == 16 and summary.skipped_sources == [str(copy)]
    again = ingest_sources([SourceInput(copy, "botzone")], out)
    assert again.hands == 0 and again.skipped_sources == [str(copy)]
