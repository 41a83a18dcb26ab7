"""Records <-> a Parquet dataset folder: streaming, atomic, idempotent, one writer at a time.

``ingest_sources`` writes records; ``open_dataset`` reads tables as pandas DataFrames;
``iter_hands`` streams the hands back as records; ``write_derived`` stores audit output.
Names are imported on first use, so a command that only takes the writer lock (or only
scores a hand) does not pay for pyarrow at start-up.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mjstats.store.reader import Dataset, iter_hands, open_dataset
    from mjstats.store.schema import SCHEMAS
    from mjstats.store.sources import SourceInput
    from mjstats.store.writer import IngestSummary, ingest_sources, write_derived

_HOMES = {
    "SCHEMAS": "mjstats.store.schema",
    "Dataset": "mjstats.store.reader",
    "iter_hands": "mjstats.store.reader",
    "open_dataset": "mjstats.store.reader",
    "IngestSummary": "mjstats.store.writer",
    "SourceInput": "mjstats.store.sources",
    "ingest_sources": "mjstats.store.writer",
    "write_derived": "mjstats.store.writer",
}

__all__ = [
    "SCHEMAS",
    "Dataset",
    "IngestSummary",
    "SourceInput",
    "ingest_sources",
    "iter_hands",
    "open_dataset",
    "write_derived",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'mjstats.store' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
