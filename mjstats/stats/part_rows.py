"""A derived table's rows (the audit's, the decisions) handed out dataset part by dataset part.

Derived tables are not written in the dataset's part files: each stage that writes one (the
audit, ``mjstats decisions``) writes files of its own, about 50,000 hands each, per ruleset,
keyed by ``(match_id, hand_no)``, in the order it read the dataset's parts. Read in file name
order (rulesets sorted, then file numbers), their rows come in the dataset's part order, so a
flat statistic can take each part's rows beside the part's seat rows: :class:`RowsByPart` keeps
the rows not handed out yet (about one derived file) and gives each part, in turn, the run of
rows at the head whose hands are the part's.

A row that does not line up so (its hand's rows out of the dataset's order, or a hand the
dataset does not hold) stops the stream at that row: every row after it is left over too, so
:meth:`RowsByPart.in_order` is false whenever any row was not handed to its own part, and the
caller computes per hand instead. A row handed out is always its own hand's (hand keys are
unique in a dataset).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as pads
import pyarrow.parquet as pq

from mjstats.stats.tables import key_strings
from mjstats.store import Dataset

__all__ = ["RowsByPart", "derived_files", "reported_parts"]

_FIRST_LOOK = 1024  # rows first compared with a part's hands (doubled while they all match)
BATCH_ROWS = 65_536  # rows decoded from a file at a time (a file holds ~50,000 hands' rows)
KEY = "hand_key"  # the column of match_id and hand_no joined (tables.key_strings)


Scanned = TypeVar("Scanned", bound=tuple[Any, ...])


def reported_parts(scans: Iterable[Scanned], progress: Callable[[int], None] | None) -> Iterator[Scanned]:
    """The parts' scans as they come, telling ``progress`` the hands scanned so far (a scan's
    first item is its part's number of hands): the audit's and decisions' counters report so."""
    done = 0
    for scanned in scans:
        yield scanned
        if progress is not None:
            done += scanned[0]
            progress(done)


def derived_files(ds: Dataset, table: str) -> list[pads.Fragment]:
    """The files of a derived table in name order (the order they were written in)."""
    if not ds.has_table(table):
        return []
    dataset = pads.dataset(ds.path / table, format="parquet", partitioning="hive")
    return sorted(dataset.get_fragments(), key=lambda f: f.path)


class RowsByPart:
    """The rows of one derived table's ``files`` (:func:`derived_files`), handed out part by part
    in the dataset's order.

    ``read(batch, names)`` turns one batch of a file (``names``: the file's columns) into a
    table with the columns the caller needs (the same schema for every file); the key column is
    added here. Files are decoded :data:`BATCH_ROWS` rows at a time, as the parts need them.
    """

    def __init__(self, files: list[pads.Fragment],
                 read: Callable[[pa.RecordBatch, list[str]], pa.Table]) -> None:
        self.files = deque(files)
        self.read = read
        self.batches: Iterator[pa.Table] = iter(())
        self.pending: pa.Table | None = None  # rows read and not handed out yet

    def _file_batches(self, fragment: pads.Fragment) -> Iterator[pa.Table]:
        parquet = pq.ParquetFile(fragment.path)
        names = parquet.schema_arrow.names
        for batch in parquet.iter_batches(batch_size=BATCH_ROWS, use_threads=False):
            yield self.read(batch, names)

    def _load(self) -> bool:
        """Read the next batch of rows behind the pending ones; False when none is left."""
        rows = next(self.batches, None)
        while rows is None and self.files:
            self.batches = self._file_batches(self.files.popleft())
            rows = next(self.batches, None)
        if rows is None:
            return False
        rows = rows.append_column(KEY, key_strings(rows))
        self.pending = rows if self.pending is None else pa.concat_tables([self.pending, rows])
        return True

    def _pending_rows(self) -> int:
        return 0 if self.pending is None else self.pending.num_rows

    def take(self, hand_keys: pa.Array) -> pa.Table | None:
        """The rows at the head whose hand is one of ``hand_keys`` (the next part's hands, as
        ``tables.key_strings``), in their order; None when the head holds none of them."""
        run, look = 0, _FIRST_LOOK
        while True:
            while self._pending_rows() < run + look and self._load():
                pass
            if self.pending is None or self._pending_rows() <= run:
                break
            window = self.pending.column(KEY).slice(run, look)
            member = pc.is_in(window, value_set=hand_keys).to_numpy(zero_copy_only=False)
            leading = int(np.argmin(member)) if not member.all() else len(member)
            run += leading
            if leading < len(member):
                break
            look *= 2
        if run == 0 or self.pending is None:
            return None
        taken = self.pending.slice(0, run)
        self.pending = self.pending.slice(run)
        return taken

    def in_order(self) -> bool:
        """Whether every row was handed out (call once every part has taken its rows)."""
        return self._pending_rows() == 0 and not self._load()
