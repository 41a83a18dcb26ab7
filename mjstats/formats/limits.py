"""Bounds on untrusted input: how long a record may be, how far a compressed file may expand.

Operators ingest platform logs they do not control. A reader never holds more than one record
(at most ``max_record_bytes``) plus one read block in memory: a longer record comes out of the
splitter as a :class:`Cut` (its first bytes and the reason), which the format's parser turns
into a reject, and the rest of it is skipped. A ``.gz`` source is decompressed as it is read;
passing the size or ratio limit, a truncated file or a corrupt header stops it with a
:class:`Cut` at that point, and every record read before it is kept.
"""

from __future__ import annotations

import gzip
import os
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import IO, Any, NamedTuple

from mjstats.errors import MjstatsError

__all__ = [
    "BOM",
    "DEFAULT_MAX_RATIO",
    "DEFAULT_MAX_RECORD_BYTES",
    "HEAD_BYTES",
    "RATIO_GRACE_BYTES",
    "Cut",
    "InputLimits",
    "InputStopped",
    "LimitedGzip",
    "current_limits",
    "input_limits",
    "read_block",
    "split_lines",
    "too_long",
]

DEFAULT_MAX_RECORD_BYTES = 16 << 20  # 16 MiB: a real record is a few kilobytes
DEFAULT_MAX_RATIO = 200.0  # text records compress about 10:1; a bomb expands a thousandfold
RATIO_GRACE_BYTES = 8 << 20  # the ratio is judged only after this much output (headers skew it)
HEAD_BYTES = 200  # bytes of a cut record kept in its reject
READ_BLOCK = 1 << 20  # bytes asked of a stream at a time
BOM = b"\xef\xbb\xbf"  # a UTF-8 byte-order mark, written first by some Windows editors


@dataclass(frozen=True)
class InputLimits:
    """The bounds applied while reading sources; ``None`` switches a bound off."""

    max_record_bytes: int = DEFAULT_MAX_RECORD_BYTES
    max_decompressed_bytes: int | None = None
    max_ratio: float | None = DEFAULT_MAX_RATIO
    ratio_grace_bytes: int = RATIO_GRACE_BYTES

    def __post_init__(self) -> None:
        if self.max_record_bytes < 1:
            raise MjstatsError(f"max_record_bytes must be at least 1, not {self.max_record_bytes}")
        if self.max_decompressed_bytes is not None and self.max_decompressed_bytes < 1:
            raise MjstatsError(
                f"max_decompressed_bytes must be at least 1, not {self.max_decompressed_bytes}"
            )
        if self.max_ratio is not None and not self.max_ratio > 1:
            raise MjstatsError(f"max_ratio must be above 1, not {self.max_ratio}")


_DEFAULTS = InputLimits()
_LIMITS: ContextVar[InputLimits | None] = ContextVar("mjstats_input_limits", default=None)


def current_limits() -> InputLimits:
    """The limits in force (the defaults unless :func:`input_limits` changed them)."""
    return _LIMITS.get() or _DEFAULTS


@contextmanager
def input_limits(limits: InputLimits | None = None, **changes: Any) -> Iterator[InputLimits]:
    """Read with other limits inside the block: ``with input_limits(max_record_bytes=1 << 20):``.

    ``changes`` (``None`` values ignored) are applied on top of ``limits`` or the current ones.
    Library code reaching the readers through several layers (``ingest_sources``) sees them.
    """
    base = limits if limits is not None else current_limits()
    chosen = replace(base, **{k: v for k, v in changes.items() if v is not None})
    token = _LIMITS.set(chosen)
    try:
        yield chosen
    finally:
        _LIMITS.reset(token)


class Cut(NamedTuple):
    """A record the splitter could not hand over whole: its first bytes and why (a reject)."""

    head: bytes
    reason: str


class InputStopped(MjstatsError):
    """A compressed source that cannot or must not be read further: why, and where it stopped."""

    def __init__(self, reason: str, position: int) -> None:
        self.reason = reason
        self.position = position  # bytes of decompressed output delivered before the stop
        super().__init__(f"{reason} (stopped after {position:,} decompressed bytes)")


class LimitedGzip:
    """A ``.gz`` file read as a stream of decompressed bytes, within :class:`InputLimits`.

    ``read`` returns what one decompression step gives (``read1``), so an error loses nothing
    that was delivered; every stop (limit, truncation, corrupt data) raises InputStopped.
    """

    def __init__(self, path: str | os.PathLike[str], limits: InputLimits) -> None:
        self.name = os.fspath(path)
        self._raw = open(path, "rb")  # noqa: SIM115 - closed by close()
        self._gzip = gzip.GzipFile(fileobj=self._raw, mode="rb")
        self._limits = limits
        self._out = 0  # decompressed bytes delivered

    def read(self, size: int = -1) -> bytes:
        if size is None or size < 0:
            return b"".join(iter(lambda: self.read(READ_BLOCK), b""))
        cap = self._limits.max_decompressed_bytes
        if cap is not None:  # deliver up to the limit exactly; one byte more stops the stream
            size = min(size, max(cap - self._out, 1))
        try:
            data = self._gzip.read1(size)
        except EOFError:
            raise InputStopped("gzip data ends early: the file is truncated", self._out) from None
        except gzip.BadGzipFile as exc:
            raise InputStopped(f"not a gzip file or a corrupt gzip member: {exc}", self._out) from None
        except zlib.error as exc:
            raise InputStopped(f"corrupt gzip data: {exc}", self._out) from None
        self._out += len(data)
        self._check()
        return data

    def _check(self) -> None:
        limits, out = self._limits, self._out
        if limits.max_decompressed_bytes is not None and out > limits.max_decompressed_bytes:
            raise InputStopped(
                f"decompressed data passes the size limit of {limits.max_decompressed_bytes:,} "
                "bytes (max_decompressed_bytes)", out
            )
        if limits.max_ratio is not None and out > limits.ratio_grace_bytes:
            read = max(1, self._raw.tell())
            if out > limits.max_ratio * read:
                raise InputStopped(
                    f"gzip data expands more than {limits.max_ratio:g}:1 ({out:,} bytes from "
                    f"{read:,}): a decompression bomb? (max_ratio)", out
                )

    def close(self) -> None:
        try:
            self._gzip.close()
        finally:
            self._raw.close()

    def __enter__(self) -> LimitedGzip:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def too_long(limit: int) -> str:
    """The reason given for a record longer than ``limit`` bytes."""
    return (f"record longer than the limit of {limit:,} bytes (max_record_bytes); "
            f"only its first {HEAD_BYTES} bytes are kept")


def read_block(stream: IO[bytes], size: int = READ_BLOCK) -> bytes | InputStopped:
    """One block of a stream, or the InputStopped that ended it (for the splitters to report)."""
    try:
        return stream.read(size)
    except InputStopped as stop:
        return stop


def split_lines(stream: IO[bytes], max_record_bytes: int | None = None) -> Iterator[tuple[int, bytes | Cut]]:
    """The lines of a binary stream with their 1-based numbers, read a block at a time.

    Each line ends in a newline (the last one perhaps not). A line longer than
    ``max_record_bytes`` comes out as a :class:`Cut` and is skipped to its end, never held
    whole. A leading byte-order mark is dropped. A stream that stops (InputStopped) ends with a
    Cut at the line it stopped in, the lines before it having been yielded.
    """
    limit = max_record_bytes if max_record_bytes is not None else current_limits().max_record_bytes
    number = 1
    pending = bytearray()  # the start of the line ``number``
    skipping = False  # inside a line already reported as too long
    first = True
    while True:
        block = read_block(stream)
        if isinstance(block, InputStopped):
            yield number, Cut(bytes(pending[:HEAD_BYTES]), str(block))
            return
        if not block:
            if pending and not skipping:
                yield number, bytes(pending)
            return
        if first:
            first = False
            block = block.removeprefix(BOM)
        if skipping:
            end = block.find(b"\n")
            if end < 0:
                continue
            block = block[end + 1 :]
            number += 1
            skipping = False
        last = block.rfind(b"\n")
        if last < 0:
            pending += block
        else:
            text = bytes(pending) + block[: last + 1]
            pending = bytearray(block[last + 1 :])
            for line in text.split(b"\n")[:-1]:
                if len(line) >= limit:  # with its newline, longer than the limit
                    yield number, Cut(line[:HEAD_BYTES], too_long(limit))
                else:
                    yield number, line + b"\n"
                number += 1
        if len(pending) > limit:
            yield number, Cut(bytes(pending[:HEAD_BYTES]), too_long(limit))
            pending = bytearray()
            skipping = True
