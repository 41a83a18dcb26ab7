"""Which format a file is in, from its first bytes (gzip-aware), and the files a folder holds.

``detect_format`` names a format of :data:`mjstats.formats.FORMATS` or returns None (not a
record file this toolkit reads, e.g. a Botzone ``*_metadata.json``); ``list_inputs`` expands
folders recursively in sorted order, skipping hidden files and folders.
"""

from __future__ import annotations

import gzip
import os
import re
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from mjstats.errors import MjstatsError

__all__ = ["SNIFF_BYTES", "InputFile", "detect_format", "is_companion", "list_inputs", "sniff"]

SNIFF_BYTES = 1 << 16  # enough for a Botzone wrapper's keys before its log, or a PMN header
_GZIP_MAGIC = b"\x1f\x8b"
_BOM = b"\xef\xbb\xbf"
_PMN_TAG = re.compile(rb'^\[[A-Za-z]+ +"')
_XML_LINE = re.compile(rb"\d+\.xml\s*$")
_COMPANION = re.compile(r"_metadata\.json(?:\.gz)?$")


@dataclass(frozen=True)
class InputFile:
    """A file to ingest; ``named`` when it was named itself rather than found in a folder."""

    path: Path
    named: bool


def is_companion(path: str | os.PathLike[str]) -> bool:
    """A file that accompanies records without being one: Botzone's ``<id>_metadata.json``
    (the ``<id>_lite.json`` reader takes the match id and names from it)."""
    return bool(_COMPANION.search(Path(path).name))


def _head(path: Path) -> bytes:
    with open(path, "rb") as fh:
        head = fh.read(SNIFF_BYTES)
    if head.startswith(_GZIP_MAGIC):
        try:
            with gzip.open(path, "rb") as fh:
                head = fh.read(SNIFF_BYTES)
        except (OSError, EOFError, zlib.error):
            return b""
    return head


def sniff(head: bytes) -> str | None:
    """The format of a file that starts with ``head`` (None: none this toolkit reads)."""
    if head.startswith(_BOM):
        head = head[len(_BOM) :]
    text = head.lstrip()
    if text.startswith(b"Match "):
        return "botzone"
    if _PMN_TAG.match(text) or _PMN_TAG.match(_without_pgn_comments(text)):
        return "pmn"
    if text.startswith(b"["):
        # a JSON array of judge turns or of display objects; PMN's tag pairs were tried above
        if b'"output"' in text or b'"action"' in text or b'"response"' in text:
            return "botzone-json"
        return None
    if text.startswith(b"{"):
        if b'"logs"' in text:
            return "botzone-json"
        if b'"events"' in text and b'"match_id"' in text:
            return "canonical"
        return None
    first, _, rest = text.partition(b"\n")
    if _XML_LINE.search(first.rstrip(b"\r")) and b"\t" in rest.split(b"\n", 1)[0]:
        return "human-tsv"
    return None


def _without_pgn_comments(text: bytes) -> bytes:
    """``text`` past the comments PMN (like PGN) allows before its first tag pair:
    ``; to the end of the line`` and ``{ ... }`` blocks."""
    for _ in range(100):
        if text.startswith(b";"):
            text = text.partition(b"\n")[2].lstrip()
        elif text.startswith(b"{") and b"}" in text:
            text = text.partition(b"}")[2].lstrip()
        else:
            break
    return text


def detect_format(path: str | os.PathLike[str]) -> str | None:
    """The format of the file at ``path``, from its first bytes (``.gz`` decompressed); None
    for a file that is no record file (a companion ``_metadata.json``, an unknown layout)."""
    path = Path(path)
    if is_companion(path):
        return None
    return sniff(_head(path))


def _hidden(path: Path, root: Path) -> bool:
    return any(part.startswith(".") for part in path.relative_to(root).parts)


def list_inputs(paths: Iterable[str | os.PathLike[str]]) -> list[InputFile]:
    """Every file to read: files as named, folders recursively (sorted, hidden ones skipped).

    A path that does not exist is an MjstatsError naming it."""
    out: list[InputFile] = []
    for raw in paths:
        path = Path(raw)
        if path.is_file():
            out.append(InputFile(path, True))
        elif path.is_dir():
            found = (p for p in path.rglob("*") if p.is_file() and not _hidden(p, path))
            out.extend(InputFile(p, False) for p in sorted(found))
        elif path.exists():  # a pipe or device: ingest hashes a source, then reads it again
            raise MjstatsError(f"{path}: not a regular file (a pipe or device); save it to a file first")
        else:
            raise MjstatsError(f"{path}: no such file")
    return out
