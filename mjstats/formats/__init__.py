"""One reader (and writer) per source format, each yielding records (Hand or Reject)."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from pathlib import Path

from mjstats.errors import MjstatsError
from mjstats.records import Hand, Reject

__all__ = ["FORMATS", "reader_for"]

# format name -> (module, reader function); readers take a path and yield Hand | Reject
FORMATS: dict[str, tuple[str, str]] = {
    "botzone": ("mjstats.formats.botzone", "read_botzone"),
    "canonical": ("mjstats.formats.canonical", "read_canonical"),
}


def reader_for(name: str) -> Callable[[Path], Iterator[Hand | Reject]]:
    """The reader function of a format name (``botzone``, ``canonical``)."""
    try:
        module, func = FORMATS[name]
    except KeyError:
        raise MjstatsError(f"unknown format {name!r} (known: {', '.join(sorted(FORMATS))})") from None
    return getattr(importlib.import_module(module), func)
