"""Parsing records in batches, in this process or in worker processes, into Arrow tables.

A batch is a list of raw records cut from one source (``(first_line, bytes)``); parsing one
yields a :class:`ParsedBatch`: Arrow tables per (ruleset, period) partition, a small summary row
per hand (for duplicate checks, the matches table and the counts) and the rejects. Workers send
back only these, so the parent process does no per-event work.
"""

from __future__ import annotations

import importlib
import itertools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import NamedTuple

import pyarrow as pa

from mjstats.formats import format_module
from mjstats.formats.limits import Cut
from mjstats.records import Hand, Outcome, Reject
from mjstats.store.schema import UNDATED, HandColumns

__all__ = ["BATCH_RECORDS", "HandInfo", "ParsedBatch", "batch_from_records", "hand_info", "parse_batches"]

BATCH_RECORDS = 1_000  # records per batch handed to a worker

RawRecord = tuple[int, bytes | Cut]  # (first line number, the record's bytes or why it was cut)


class HandInfo(NamedTuple):
    """What the parent needs of each parsed hand, in input order."""

    match_id: str
    hand_no: int
    ruleset: str
    period: str
    profile: str
    players: tuple[str, ...]
    started_at: str | None
    source: str | None
    line: int | None
    n_events: int
    n_wins: int  # wins in the hand (several where the rules allow)
    is_draw: bool  # an exhaustive draw (a hand stopped for a wrong action is neither)
    raw: str | None


@dataclass
class ParsedBatch:
    """One batch parsed: tables per partition, a row per hand, the rejects."""

    tables: dict[tuple[str, str], dict[str, pa.Table]] = field(default_factory=dict)
    hands: list[HandInfo] = field(default_factory=list)
    rejects: list[Reject] = field(default_factory=list)
    records: int = 0


def batch_from_records(records: Iterable[Hand | Reject], *, keep_raw: bool = True) -> ParsedBatch:
    """Turn parsed records into a batch (columns per partition, summaries, rejects).

    ``keep_raw=False`` leaves the hands' raw text out of the summaries (it stays in the source
    file), which keeps what a worker sends back small.
    """
    batch = ParsedBatch()
    columns: dict[tuple[str, str], HandColumns] = {}
    for record in records:
        batch.records += 1
        if isinstance(record, Reject):
            batch.rejects.append(record)
            continue
        info = hand_info(record, keep_raw=keep_raw)
        key = (info.ruleset, info.period)
        cols = columns.get(key)
        if cols is None:
            cols = columns[key] = HandColumns()
        cols.add_hand(record)
        batch.hands.append(info)
    batch.tables = {key: cols.take() for key, cols in columns.items()}
    return batch


def hand_info(hand: Hand, *, keep_raw: bool = True) -> HandInfo:
    """What the parent needs of one parsed hand (its partition, counts, provenance)."""
    prov = hand.provenance
    return HandInfo(
        hand.match_id,
        hand.hand_no,
        hand.ruleset,
        hand.period or UNDATED,
        hand.profile,
        hand.players,
        hand.started_at,
        prov.source if prov else None,
        prov.line if prov else None,
        len(hand.events),
        len(hand.result.wins),
        hand.result.outcome is Outcome.DRAW,
        prov.raw if prov and keep_raw else None,
    )


Splitter = Callable[[Iterable[bytes]], Iterator[RawRecord]]
Parser = Callable[[bytes | Cut, int, str], Hand | Reject]


# format -> module whose parse_batch(source, items) reads that format's batches faster
_FAST_LANES = {"botzone": "mjstats.store.botzone_lane"}


def _record_parser(format_name: str) -> tuple[Splitter, Parser]:
    module = importlib.import_module(format_module(format_name))
    return module.split_records, module.parse_record


def parse_batch(format_name: str, source: str, items: list[RawRecord]) -> ParsedBatch:
    """Parse one batch of raw records of a format (runs in a worker process). A format with a
    fast lane (``_FAST_LANES``: straight to columns, the reference parser for what it does not
    read) gives the same batch as its reference parser."""
    lane = _FAST_LANES.get(format_name)
    if lane is not None:
        return importlib.import_module(lane).parse_batch(source, items)  # type: ignore[no-any-return]
    _, parse = _record_parser(format_name)
    return batch_from_records((parse(record, start, source) for start, record in items), keep_raw=False)


def parse_batches(
    format_name: str,
    stream: Iterable[bytes],
    source: str,
    *,
    jobs: int = 1,
    batch_records: int = BATCH_RECORDS,
) -> Iterator[ParsedBatch]:
    """Parse a source's records in batches, in input order; with ``jobs > 1`` in worker processes
    (:func:`mjstats.workers.ordered_map`: they die with this process and never re-run its script).

    At most ``2 * jobs`` batches are in flight, so memory stays bounded whatever the input size.
    The records are cut here, within the input limits in force (``mjstats.formats.limits``).
    """
    split, _ = _record_parser(format_name)
    batches = _chunks(split(stream), batch_records)
    if jobs <= 1:
        for items in batches:
            yield parse_batch(format_name, source, items)
        return
    from mjstats.workers import ordered_map  # here: multiprocessing's import (~0.03 s) only for jobs

    yield from ordered_map(parse_batch, ((format_name, source, items) for items in batches), jobs)


def _chunks(items: Iterator[RawRecord], size: int) -> Iterator[list[RawRecord]]:
    """The records in lists of ``size`` (the last one shorter; at least one record a list, as a
    size below 1 always gave), each filled by a C-level slice."""
    while chunk := list(itertools.islice(items, max(size, 1))):
        yield chunk
