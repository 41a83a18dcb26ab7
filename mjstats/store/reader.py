"""Reading a dataset back: pandas tables for analysis, Hand records for replay and export."""

from __future__ import annotations

import hashlib
import shutil
import weakref
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.parquet as pq

from mjstats.errors import DatasetError
from mjstats.records import Hand
from mjstats.store.arrow_columns import empty_table
from mjstats.store.derived_schema import DERIVED_SCHEMAS, read_schema
from mjstats.store.fs import is_remote, local_path
from mjstats.store.layout import current_version, manifest, version_path
from mjstats.store.pins import pin_version, unpin
from mjstats.store.schema import HAND_TABLES, SCHEMAS, hands_from_tables

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow.dataset as pads

__all__ = ["Dataset", "iter_hands", "live_version", "open_dataset"]


class Dataset:
    """A read-only view of one version of a dataset folder: the live one when opened.

    The view is a snapshot: a write to the dataset after it was opened (an ingest, an audit)
    makes a new version and does not change what this object reads; the version it reads is
    pinned, so no writer deletes it while the object is open. ``refresh()`` gives a view of the
    version live now; ``close()`` (or the end of a ``with`` block) drops the pin early.
    """

    def __init__(self, root: str | Path) -> None:
        if is_remote(root):  # a URL: a local snapshot of its live version (store.snapshot)
            self._open_url(str(root))
            return
        self.root = Path(local_path(root) or root) if isinstance(root, str) else Path(root)
        self._pin: Path | None = None
        self._url: str | None = None
        for _ in range(5):
            self.path = version_path(self.root)
            pin = pin_version(self.root, self.path.name)
            try:
                self.manifest: dict[str, Any] = manifest(self.path)
            except DatasetError:
                unpin(pin)  # collected between reading CURRENT and pinning it: read CURRENT again
                if current_version(self.root) == self.path.name:
                    raise
                continue
            self._pin = pin
            self._finalizer = weakref.finalize(self, unpin, pin)
            return
        raise DatasetError(f"{self.root}: the dataset kept changing while being opened; try again")

    def _open_url(self, url: str) -> None:
        from mjstats.store.snapshot import DatasetURL, download_live_version

        tmp, self.path, self.manifest = download_live_version(url)
        self.root = DatasetURL(url)  # type: ignore[assignment]
        self._url = url
        self._pin = tmp
        self._finalizer = weakref.finalize(self, shutil.rmtree, tmp, True)

    def close(self) -> None:
        """Release this view's pin on its version, or remove the local snapshot of a dataset at a
        URL (reading on afterwards is not safe)."""
        if self._pin is not None:
            self._finalizer()

    def __enter__(self) -> Dataset:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def is_current(self) -> bool:
        """True while this view's version is still the dataset's live version."""
        try:
            if self._url is not None:
                from mjstats.store.remote import live_name, url_filesystem

                return live_name(*url_filesystem(self._url), self._url) == self.path.name
            return current_version(self.root) == self.path.name
        except DatasetError:
            return False

    def refresh(self) -> Dataset:
        """A view of the version live now (this one when nothing has changed)."""
        return self if self.is_current else Dataset(self.root)

    def __repr__(self) -> str:
        return f"Dataset({str(self.root)!r}, version={self.path.name})"

    @property
    def fingerprint(self) -> str:
        """A short digest of the data ingested (the sources' SHA-256s, in order).

        Unlike the version folder's name, which every change (an audit rerun included) bumps,
        the same data always has the same fingerprint: reports show it so reruns stay identical.
        """
        digest = hashlib.sha256()
        for source in self.manifest["sources"]:
            digest.update(source["sha256"].encode("ascii"))
        return digest.hexdigest()[:12]

    @property
    def tables(self) -> list[str]:
        """Names of the tables present in this version."""
        return sorted(p.name for p in self.path.iterdir() if p.is_dir())

    def has_table(self, name: str) -> bool:
        return (self.path / name).is_dir()

    def arrow(
        self,
        name: str,
        columns: Sequence[str] | None = None,
        filter: pads.Expression | None = None,
    ) -> pa.Table:
        """One table as Arrow, with its Hive partition keys (ruleset, period) as columns."""
        folder = self.path / name
        # absent, or present without a part file (a clean audit writes no findings): a known
        # table reads as empty with its schema's columns, so joins and filters on it still work
        empty = not folder.is_dir() or next(folder.rglob("*.parquet"), None) is None
        if empty and (name in SCHEMAS or name in DERIVED_SCHEMAS):
            if name in DERIVED_SCHEMAS:
                schema = read_schema(name)
            else:
                schema = SCHEMAS[name]
                if name != "rejects":
                    schema = schema.append(pa.field("ruleset", pa.string()))
                    schema = schema.append(pa.field("period", pa.string()))
            table = empty_table(schema)  # (not schema.empty_table(), which imports pandas)
            return table.select(list(columns)) if columns else table
        if not folder.is_dir():
            raise DatasetError(f"{self.root}: no table {name!r} (have: {', '.join(self.tables)})")
        files = sorted(folder.iterdir())
        if filter is None and all(f.suffix == ".parquet" and f.is_file() for f in files):
            # a table without partitions (rejects): its files read as they are, in name order,
            # without pyarrow.dataset (below), so a command reading only it never loads pandas
            chunks = [pq.ParquetFile(f).read(columns=list(columns) if columns else None) for f in files]
            return pa.concat_tables(chunks).replace_schema_metadata(None)
        # imported here: pyarrow.dataset imports pandas (~0.4 s), which a command that only asks
        # for the live version's name (mjstats ingest) never needs
        import pyarrow.dataset as pads

        dataset = pads.dataset(folder, format="parquet", partitioning="hive")
        table = dataset.to_table(columns=list(columns) if columns else None, filter=filter)
        return table

    def table(
        self,
        name: str,
        columns: Sequence[str] | None = None,
        filter: pads.Expression | None = None,
    ) -> pd.DataFrame:
        """One table as a pandas DataFrame (partition keys as plain string columns)."""
        import pandas as pd  # here, not at import: replay workers never need pandas

        df = self.arrow(name, columns, filter).to_pandas()
        for key in ("ruleset", "period"):
            if key in df.columns and isinstance(df[key].dtype, pd.CategoricalDtype):
                df[key] = df[key].astype(str)
        return df

    def hands(self, *, ruleset: str | None = None) -> Iterator[Hand]:
        """Every hand as a record, partition by partition, part file by part file."""
        return iter_hands(self, ruleset=ruleset)

    def hand(self, match_id: str, hand_no: int | None = None) -> Hand:
        """One hand as a record (a notebook shows it as tiles): hand ``hand_no`` of the match,
        or its only hand. Only the part files holding the match are read."""
        found: list[Hand] = []
        for ruleset, period, part in self.parts():
            sub = Path(f"ruleset={ruleset}") / f"period={period}" / part
            ids = pq.read_table(self.path / "hands" / sub, columns=["match_id"]).column("match_id")
            if match_id in set(ids.to_pylist()):
                found.extend(h for h in self.read_part(ruleset, period, part) if h.match_id == match_id)
        if not found:
            raise DatasetError(f"{self.root}: no match {match_id!r}")
        if hand_no is None:
            if len(found) == 1:
                return found[0]
            numbers = ", ".join(str(h.hand_no) for h in sorted(found, key=lambda h: h.hand_no))
            raise DatasetError(f"match {match_id} has hands {numbers}: say which with hand_no=")
        for h in found:
            if h.hand_no == hand_no:
                return h
        numbers = ", ".join(str(h.hand_no) for h in sorted(found, key=lambda h: h.hand_no))
        raise DatasetError(f"match {match_id} has no hand {hand_no} (hands {numbers})")

    def partitions(self, table: str = "hands") -> list[tuple[str, str]]:
        """The (ruleset, period) partitions of a table, sorted."""
        folder = self.path / table
        if not folder.is_dir():
            return []
        out = []
        for r in sorted(folder.glob("ruleset=*")):
            for p in sorted(r.glob("period=*")):
                out.append((r.name.split("=", 1)[1], p.name.split("=", 1)[1]))
        return out

    def parts(self, *, ruleset: str | None = None) -> list[tuple[str, str, str]]:
        """Every (ruleset, period, part file name) of the aligned ingest tables, in order."""
        out = []
        for rs, period in self.partitions():
            if ruleset is not None and rs != ruleset:
                continue
            folder = self.path / "hands" / f"ruleset={rs}" / f"period={period}"
            out.extend((rs, period, p.name) for p in sorted(folder.glob("part-*.parquet")))
        return out

    def read_part(self, ruleset: str, period: str, part: str) -> list[Hand]:
        """The hands of one part file (bounded in size by the ingest chunk)."""
        sub = Path(f"ruleset={ruleset}") / f"period={period}" / part
        tables = [pq.read_table(self.path / name / sub) for name in HAND_TABLES]
        # a damaged file: the error says which part holds it
        return list(hands_from_tables(ruleset, *tables, where=str(sub)))


def live_version(path: str | Path) -> str:
    """The name of the live version of the dataset at a folder or URL (no snapshot is taken)."""
    if is_remote(path):
        from mjstats.store.remote import require_live, url_filesystem

        return require_live(*url_filesystem(str(path)), str(path))
    return version_path(Path(local_path(path) or path) if isinstance(path, str) else Path(path)).name


def open_dataset(path: str | Path) -> Dataset:
    """Open the dataset folder written by ``mjstats ingest``."""
    return Dataset(path)


def iter_hands(dataset: str | Path | Dataset, *, ruleset: str | None = None) -> Iterator[Hand]:
    """Stream the dataset's hands as records, in a stable order (partition, part file, row)."""
    ds = dataset if isinstance(dataset, Dataset) else Dataset(dataset)
    for rs, period, part in ds.parts(ruleset=ruleset):
        yield from ds.read_part(rs, period, part)
