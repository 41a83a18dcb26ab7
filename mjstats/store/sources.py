"""What to ingest: a source file, its format and optionally a custom reader (no pyarrow here,
so the command line can build its inputs before it loads the store)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from mjstats.records import Hand, Reject

__all__ = ["SourceInput"]


@dataclass(frozen=True)
class SourceInput:
    """One input to ingest: its path, its format name, and optionally a custom reader.

    Without ``read`` the format's record splitter and parser are used, which lets large inputs
    be parsed by several processes (``jobs``); a custom ``read`` (any function from a path to
    records) is run in this process.
    """

    path: Path
    format: str
    read: Callable[[Path], Iterator[Hand | Reject]] | None = None
