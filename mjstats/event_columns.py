"""A slice of a part's events as columns, read by the replay without an ``Event`` a row.

The audit replays each hand of a part just after rebuilding it from the part's columns
(``store.rebuild``). Nearly every event of a hand is a draw or a discard, which the replay reads
three fields of (sequence number, seat, tile): making an :class:`~mjstats.records.Event` tuple of
eleven fields for each, then freeing it, was about a fifth of the audit's instructions (callgrind,
``ingest --audit`` of 2,000 Botzone hands). :class:`EventColumns` holds the decoded columns; a
replay that opts in (``ReplayProfile.reads_columns``) steps over a hand's rows by index and makes
an ``Event`` only for a row its handlers take whole (a deal, a claim, a win). Compiled in the
compiled build (docs/compiled.md). No Arrow and no replay here: ``store.rebuild`` and the
replayer both import it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from itertools import repeat, starmap
from typing import Any, Final

from mjstats.records import Event, Hand
from mjstats.slot_setters import slot_setters

__all__ = ["EventColumns", "with_events"]

# the setter of a Hand's events slot (with_events; slot_setters checks the record is built so)
_HAND_FIELDS: Final = [f.name for f in dataclasses.fields(Hand)]
_SET_EVENTS: Final = slot_setters(Hand, _HAND_FIELDS)[_HAND_FIELDS.index("events")]
# an Event made from its row tuple as the named tuple's own __new__ ends (without its Python
# frame), looked up once
_NEW: Final[Any] = tuple.__new__


class EventColumns:
    """The events of a part slice, one list a field (each holding the field's own objects, as an
    :class:`Event` would: ``kinds`` the kinds' members, ``tiles`` and ``claimed`` tiles,
    ``row_tiles`` each row's dealt tiles as a tuple, None where null; ``line`` any sequence of
    them: the read-back gives a column without a null as a memoryview of its integers, read only
    for the few rows made Events), and the rows of the hand being replayed: ``first:stop`` (set
    by the read-back as it yields each hand)."""

    def __init__(
        self,
        seq: list[Any],
        kinds: list[Any],
        seat: list[Any],
        tiles: list[Any],
        row_tiles: list[Any],
        from_seat: list[Any],
        claimed: list[Any],
        tail: list[Any],
        claims: list[Any],
        wins: list[Any],
        line: Sequence[Any],
    ) -> None:
        n = len(seq)
        for column in (kinds, seat, tiles, row_tiles, from_seat, claimed, tail, claims, wins, line):
            if len(column) != n:
                raise ValueError(f"event columns of {n} and {len(column)} rows")
        self.seq = seq
        self.kinds = kinds
        self.seat = seat
        self.tiles = tiles
        self.row_tiles = row_tiles
        self.from_seat = from_seat
        self.claimed = claimed
        self.tail = tail
        self.claims = claims
        self.wins = wins
        self.line = line
        self.first = 0  # the rows of the hand being replayed
        self.stop = 0

    def __len__(self) -> int:
        return len(self.seq)

    def event(self, i: int) -> Event:
        """Row ``i`` as an :class:`Event` (the same fields as the read-back's)."""
        row = (
            self.seq[i], self.kinds[i], self.seat[i], self.tiles[i], self.row_tiles[i], self.from_seat[i],
            self.claimed[i], self.tail[i], self.claims[i], self.wins[i], self.line[i],
        )  # fmt: skip
        event: Event = _NEW(Event, row)
        return event

    def stream(self, start: int = 0, stop: int | None = None) -> Any:
        """Rows ``start:stop`` as Events, made as the iterator is read: the rows zipped and made
        events in C (``tuple.__new__`` through ``starmap``: no Python-level step an event)."""
        end = len(self.seq) if stop is None else stop
        columns = [
            self.seq, self.kinds, self.seat, self.tiles, self.row_tiles, self.from_seat, self.claimed,
            self.tail, self.claims, self.wins, self.line,
        ]  # fmt: skip
        if start or end != len(self.seq):  # a hand's rows: sliced (islice would step over the rest)
            columns = [column[start:end] for column in columns]
        rows = zip(*columns, strict=True)
        return starmap(_NEW, zip(repeat(Event), rows))  # noqa: RUF058 (map makes a tuple a call)

    def events(self) -> tuple[Event, ...]:
        """The hand's events (rows ``first:stop``) as the tuple a ``Hand`` holds."""
        return tuple(self.stream(self.first, self.stop))


def with_events(hand: Hand, events: tuple[Event, ...]) -> Hand:
    """``hand``, made by the read-back without its events (``store.rebuild.iter_hands_from_columns``
    with ``columns``), given ``events``: its events slot set in place, as the read-back builds
    every record (by the slots' setters). Only for such a hand, not yet handed to anything else
    (the audit's loop, for a replay that reads ``Hand.events``): a Hand is otherwise immutable;
    rebuilding it whole cost a second record a hand (~4% of the audit of Fuzhou and Sichuan
    hands)."""
    if hand.events:
        raise ValueError(f"hand {hand.match_id}/{hand.hand_no} already holds its events")
    _SET_EVENTS(hand, events)
    return hand
