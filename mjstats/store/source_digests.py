"""The inputs' SHA-256 digests, read on a thread while the ingest parses them.

The manifest names each source by its digest, and an ingest skips a source the dataset already
holds. Hashing a 4 MB Botzone file is ~113 M instructions (callgrind), 2-3% of a 2,000-hand
``ingest --audit``; ``hashlib`` releases the GIL on large updates, so on a second core it costs
the command nothing. Each file is opened here, in the caller's thread, before the thread starts:
a missing, unreadable or folder input still fails at once, before the dataset is touched, with
the error it always gave. A digest is waited for only where it is used: the skip checks (a
dataset's live sources, or an earlier input of the same run) and the manifest.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import TracebackType
from typing import BinaryIO

from mjstats.errors import MjstatsError

__all__ = ["SourceDigests", "sha256_file"]

_BLOCK = 1 << 20  # read a megabyte at a time, into one reused buffer


def _open_source(path: Path) -> BinaryIO:
    """``path`` opened for reading, or the one-line error naming it."""
    try:
        return path.open("rb", buffering=0)
    except IsADirectoryError:
        raise MjstatsError(f"{path}: is a folder, not a file") from None
    except FileNotFoundError:
        raise MjstatsError(f"{path}: no such file") from None
    except OSError as exc:
        raise MjstatsError(f"{path}: cannot read: {exc.strerror}") from exc


def _sha256_of(fh: BinaryIO, stop: threading.Event | None = None) -> str | None:
    """The SHA-256 (hex) of what is left to read of ``fh``; None once ``stop`` is set. A new bytes
    object a block was fresh memory each time (~1,000 page faults a 4 MB file): one buffer."""
    digest = hashlib.sha256()
    buffer = bytearray(_BLOCK)
    view = memoryview(buffer)
    while n := fh.readinto(buffer):
        if stop is not None and stop.is_set():
            return None
        digest.update(view[:n])
    return digest.hexdigest()


def sha256_file(path: Path) -> str:
    """The file's SHA-256 (hex), read in this thread."""
    with _open_source(path) as fh:
        digest = _sha256_of(fh)
    assert digest is not None
    return digest


class SourceDigests(Mapping[Path, str]):
    """Each input's SHA-256 by path, hashed in input order on one daemon thread; reading one
    waits until it is done (and raises the error its reading met). Used as a context manager:
    leaving it stops the thread at its next block and closes every file, so nothing it opened
    outlives the ingest, however that ends."""

    def __init__(self, paths: list[Path]) -> None:
        self._paths = list(dict.fromkeys(paths))  # one digest a file, however often it is given
        self._files: dict[Path, BinaryIO] = {}
        try:
            for path in self._paths:
                self._files[path] = _open_source(path)
        except BaseException:
            self._close_files()
            raise
        self._done = {path: threading.Event() for path in self._paths}
        self._digests: dict[Path, str] = {}
        self._errors: dict[Path, MjstatsError] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="mjstats-source-digests", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        for path in self._paths:
            try:
                digest = _sha256_of(self._files[path], self._stop)
            except OSError as exc:
                self._errors[path] = MjstatsError(f"{path}: cannot read: {exc.strerror}")
            else:
                if digest is None:  # stopped: the ones left are never waited for
                    return
                self._digests[path] = digest
            finally:
                self._files[path].close()
            self._done[path].set()

    def __getitem__(self, path: Path) -> str:
        done = self._done[path]  # KeyError for a path not given, as a dict's
        done.wait()
        error = self._errors.get(path)
        if error is not None:
            raise error
        return self._digests[path]

    def __iter__(self) -> Iterator[Path]:
        return iter(self._paths)

    def __len__(self) -> int:
        return len(self._paths)

    def _close_files(self) -> None:
        for fh in self._files.values():
            fh.close()

    def close(self) -> None:
        """Stop hashing (at the next block) and wait for the thread; every file is then closed."""
        self._stop.set()
        self._thread.join()
        self._close_files()
        for done in self._done.values():  # a digest asked after this fails (KeyError), never hangs
            done.set()

    def __enter__(self) -> SourceDigests:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
