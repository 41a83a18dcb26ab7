"""Records <-> a Parquet dataset folder: streaming, atomic, idempotent.

``ingest_sources`` writes records; ``open_dataset`` reads tables as pandas DataFrames;
``iter_hands`` streams the hands back as records; ``write_derived`` stores audit output.
"""

from mjstats.store.reader import Dataset, iter_hands, open_dataset
from mjstats.store.schema import SCHEMAS
from mjstats.store.writer import IngestSummary, SourceInput, ingest_sources, write_derived

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
