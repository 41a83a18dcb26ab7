"""The dataset's tables: Arrow schemas, and records <-> column conversion.

Tables written by ingest (one row per ...): ``matches`` (match), ``hands`` (hand), ``events``
(action, ordered by ``seq``), ``wins`` (recorded win; a hand may have several, numbered by
``win_no`` from 0), ``fans`` (recorded fan of a win), ``payments`` (recorded payment: a seat's
net score of the hand, or an item of the hand's ledger with its reason and win), ``rejects``
(unreadable record).
Every table but ``rejects`` carries ``match_id`` and ``hand_no``; ``ruleset`` and ``period`` are
Hive partition keys (folders), not columns in the files.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from mjstats.errors import DatasetError
from mjstats.event_columns import EventColumns
from mjstats.records import (
    EVENT_FIELDS,
    Event,
    EventKind,
    Hand,
    Reject,
)
from mjstats.store.arrow_columns import (
    int_values,
    ints_or_none,
    list_lengths,
    table_from_columns,
    valid_mask,
)
from mjstats.store.rebuild import (
    EVENT_KINDS,
    NO_TILE,
    TILE_CODES,
    WIN_KINDS,
    event_columns,
    group_starts,
    iter_hands_from_columns,
)

__all__ = [
    "HAND_TABLES",
    "INGEST_TABLES",
    "SCHEMAS",
    "UNDATED",
    "HandColumns",
    "hands_and_columns_from_tables",
    "hands_from_tables",
    "rejects_table",
]

UNDATED = "undated"  # period partition of hands without a timestamp

_tile = pa.int8()
_seat = pa.int8()

SCHEMAS: dict[str, pa.Schema] = {
    "matches": pa.schema(
        [
            ("match_id", pa.string()),
            ("profile", pa.string()),
            ("players", pa.list_(pa.string())),
            ("n_hands", pa.int32()),
            ("started_at", pa.string()),
            ("source", pa.string()),
            ("line", pa.int64()),
        ]
    ),
    "hands": pa.schema(
        [
            ("match_id", pa.string()),
            ("hand_no", pa.int32()),
            ("profile", pa.string()),
            ("dealer", _seat),
            ("prevalent_wind", pa.int8()),
            ("streak", pa.int16()),
            ("gold", _tile),
            ("outcome", pa.string()),
            ("players", pa.list_(pa.string())),
            ("styles", pa.list_(pa.string())),
            ("started_at", pa.string()),
            ("wall", pa.list_(_tile)),
            ("dice", pa.list_(pa.int8())),
            ("meta", pa.list_(pa.list_(pa.string()))),
            ("has_scores", pa.bool_()),
            ("n_events", pa.int32()),
            ("source", pa.string()),
            ("line", pa.int64()),
            ("origin", pa.string()),  # where a copied hand was first recorded (canonical source)
            ("origin_line", pa.int64()),
        ]
    ),
    "events": pa.schema(
        [
            ("match_id", pa.string()),
            ("hand_no", pa.int32()),
            ("seq", pa.int32()),
            ("kind", pa.string()),
            ("seat", _seat),
            ("tile", _tile),
            ("tiles", pa.list_(_tile)),
            ("from_seat", _seat),
            ("claimed", _tile),
            ("tail", pa.bool_()),
            ("claim", pa.string()),
            ("win", pa.string()),
            ("line", pa.int64()),
        ]
    ),
    "wins": pa.schema(
        [
            ("match_id", pa.string()),
            ("hand_no", pa.int32()),
            ("win_no", pa.int16()),
            ("winner", _seat),
            ("loser", _seat),
            ("win_tile", _tile),
            ("self_drawn", pa.bool_()),
            ("win_kind", pa.string()),
            ("fan_total", pa.int32()),
            ("pattern", pa.string()),
        ]
    ),
    "fans": pa.schema(
        [
            ("match_id", pa.string()),
            ("hand_no", pa.int32()),
            ("win_no", pa.int16()),
            ("winner", _seat),
            ("name", pa.string()),
            ("count", pa.int16()),
            ("points", pa.int32()),
        ]
    ),
    "payments": pa.schema(
        [
            ("match_id", pa.string()),
            ("hand_no", pa.int32()),
            ("seat", _seat),
            ("score", pa.int64()),
            ("reason", pa.string()),  # null: the record's net score of the hand, not itemised
            ("win_no", pa.int16()),
        ]
    ),
    "rejects": pa.schema(
        [
            ("source", pa.string()),
            ("line", pa.int64()),
            ("match_id", pa.string()),
            ("error", pa.string()),
            ("raw", pa.string()),
        ]
    ),
}

INGEST_TABLES = ("matches", "hands", "events", "wins", "fans", "payments")
HAND_TABLES = ("hands", "events", "wins", "fans", "payments")  # aligned: same hands, same order


class HandColumns:
    """Column buffers for one partition: append hands, then take Arrow tables and reset."""

    def __init__(self) -> None:
        self.cols: dict[str, dict[str, list[Any]]] = {
            name: {f: [] for f in SCHEMAS[name].names} for name in HAND_TABLES
        }
        self.n_hands = 0

    def add_hand(self, hand: Hand) -> None:
        self.n_hands += 1
        mid, no = hand.match_id, hand.hand_no
        result = hand.result
        prov = hand.provenance
        h = self.cols["hands"]
        h["match_id"].append(mid)
        h["hand_no"].append(no)
        h["profile"].append(hand.profile)
        h["dealer"].append(hand.dealer)
        h["prevalent_wind"].append(hand.prevalent_wind)
        h["streak"].append(hand.streak)
        h["gold"].append(hand.gold)
        h["outcome"].append(str(result.outcome))
        h["players"].append(list(hand.players))
        h["styles"].append(list(hand.styles))
        h["started_at"].append(hand.started_at)
        h["wall"].append(list(hand.wall) if hand.wall is not None else None)
        h["dice"].append(list(hand.dice) if hand.dice is not None else None)
        h["meta"].append([[k, v] for k, v in hand.meta])
        h["has_scores"].append(result.scores is not None)
        h["n_events"].append(len(hand.events))
        h["source"].append(prov.source if prov else None)
        h["line"].append(prov.line if prov else None)
        origin = hand.origin
        h["origin"].append(origin.source if origin else None)
        h["origin_line"].append(origin.line if origin else None)

        e = self.cols["events"]
        n = len(hand.events)
        e["match_id"].extend([mid] * n)
        e["hand_no"].extend([no] * n)
        if n:
            # events are named tuples: transpose them into columns in one pass
            for name, values in zip(EVENT_FIELDS, zip(*hand.events, strict=True), strict=True):
                e[name].extend(values)

        w = self.cols["wins"]
        f = self.cols["fans"]
        kinds = _win_kinds(hand)
        for win_no, win in enumerate(result.wins):
            w["match_id"].append(mid)
            w["hand_no"].append(no)
            w["win_no"].append(win_no)
            w["winner"].append(win.winner)
            w["loser"].append(win.loser)
            w["win_tile"].append(win.win_tile)
            w["self_drawn"].append(win.self_drawn)
            w["win_kind"].append(kinds[win_no])
            w["fan_total"].append(win.fan_total)
            w["pattern"].append(win.pattern)
            for fan in win.fans:
                f["match_id"].append(mid)
                f["hand_no"].append(no)
                f["win_no"].append(win_no)
                f["winner"].append(win.winner)
                f["name"].append(fan.name)
                f["count"].append(fan.count)
                f["points"].append(fan.points)
        p = self.cols["payments"]
        if result.payments:  # the itemised ledger
            for pay in result.payments:
                p["match_id"].append(mid)
                p["hand_no"].append(no)
                p["seat"].append(pay.seat)
                p["score"].append(pay.score)
                p["reason"].append(pay.reason.value)
                p["win_no"].append(pay.win_no)
        elif result.scores is not None:  # net scores only: one row per seat, no reason
            only_win = 0 if len(result.wins) == 1 else None
            for seat, score in enumerate(result.scores):
                p["match_id"].append(mid)
                p["hand_no"].append(no)
                p["seat"].append(seat)
                p["score"].append(score)
                p["reason"].append(None)
                p["win_no"].append(only_win)

    def take(self) -> dict[str, pa.Table]:
        """The buffered rows as Arrow tables (one per ingest table); the buffers are emptied."""
        # ``from_pydict``: on lists of Python objects its C loop is ~3x faster than the buffer
        # builders of ``arrow_columns`` (the Botzone lane, which starts from numpy, uses those)
        tables = {
            name: pa.Table.from_pydict(cols, schema=SCHEMAS[name]) for name, cols in self.cols.items()
        }
        for cols in self.cols.values():
            for values in cols.values():
                values.clear()
        self.n_hands = 0
        return tables


def _win_kinds(hand: Hand) -> list[str | None]:
    """Each recorded win's special kind (抢杠和, ...) from its HU event. One win: the last HU
    of the hand, whoever declared it. Several: a seat's i-th win is its i-th HU event."""
    wins = hand.result.wins
    if len(wins) <= 1:
        for ev in reversed(hand.events):
            if ev.kind is EventKind.HU:
                return [ev.win.value if ev.win is not None else None] * len(wins)
        return [None] * len(wins)
    by_seat: dict[int | None, list[Event]] = {}
    for ev in hand.events:
        if ev.kind is EventKind.HU:
            by_seat.setdefault(ev.seat, []).append(ev)
    kinds: list[str | None] = []
    for win in wins:
        mine = by_seat.get(win.winner)
        ev = mine.pop(0) if mine else None
        kinds.append(ev.win.value if ev is not None and ev.win is not None else None)
    return kinds


def rejects_table(rejects: list[Reject]) -> pa.Table:
    return table_from_columns(
        {
            "source": [r.source for r in rejects],
            "line": [r.line for r in rejects],
            "match_id": [r.match_id for r in rejects],
            "error": [r.error for r in rejects],
            "raw": [r.raw for r in rejects],
        },
        SCHEMAS["rejects"],
    )


def _decoded(column: pa.ChunkedArray, lookup: dict[str, Any] | None) -> list[Any]:
    """A string column mapped through ``lookup`` (None: the strings themselves), one object a
    row (None where null), one lookup per distinct value: each chunk dictionary-encoded (as
    stored in the part files: the audit reads ``kind``, ``claim`` and ``win`` that way, see
    ``audit.PartSlicer``), its dictionary mapped and its indices, shifted past the chunks
    before, taken from the mapped values by numpy (one C loop, no int object a row)."""
    if column.null_count == len(column):  # all null (an event's ``win``, mostly): nothing to map
        return [None] * len(column)
    table: list[Any] = [None]  # code 0: a null row
    codes: list[np.ndarray] = []
    for chunk in column.chunks:
        encoded = chunk if pa.types.is_dictionary(chunk.type) else chunk.dictionary_encode()
        first = len(table)
        values = encoded.dictionary.to_pylist()
        table += values if lookup is None else [None if v is None else lookup[v] for v in values]
        # a null index (or a null in the dictionary) reads the table's None
        codes.append(int_values(encoded.indices, fill=-first).astype(np.int64) + first)
    if not codes:
        return []
    every = np.concatenate(codes)
    if 2 * column.null_count > len(column):  # mostly null (an event's ``claim``)
        rows = np.flatnonzero(every != 0)  # code 0: a null row
        return _spread(_objects(table)[every[rows]].tolist(), rows, len(every))
    return _objects(table)[every].tolist()


def _spread(values: list[Any], rows: np.ndarray, n: int) -> list[Any]:
    """A column of ``n`` rows, None but at ``rows``, which hold ``values``: a mostly-null
    column's objects taken for its few values only (a numpy object take costs ~100 instructions
    a row, a column of 209,000 events ~20 M)."""
    out: list[Any] = [None] * n
    for i, value in zip(rows.tolist(), values, strict=True):
        out[i] = value
    return out


def _objects(values: list[Any] | tuple[Any, ...]) -> np.ndarray:
    """``values`` as a one-dimensional numpy array of the same objects (for ``take``: a column
    of codes into them becomes a column of objects in C)."""
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


# every tile kind by its code, then None for a null tile (``rebuild.TILE_CODES``)
_TILES = _objects(TILE_CODES)


def _tiles(values: pa.ChunkedArray | pa.Array, column: str) -> list[Any]:
    """A tile column as its tiles, None where null (codes checked by :func:`_checked_tiles`)."""
    codes, valid = _checked_tiles(values, column)
    if valid is not None:
        if 2 * values.null_count > len(codes):  # mostly null (a chow's claimed tile)
            rows = np.flatnonzero(valid)
            return _spread(_TILES[codes[rows]].tolist(), rows, len(codes))
        codes[~valid] = NO_TILE
    return _TILES[codes].tolist()


def _checked_tiles(values: pa.ChunkedArray | pa.Array, column: str) -> tuple[np.ndarray, np.ndarray | None]:
    """A tile column's stored codes (an int64 copy, 0 where null) and where it holds a value
    (None: everywhere). A code that names no tile is a damaged part file (ingest writes tiles
    only): ``DatasetError``, never a tile read by wrapping round the kinds' table."""
    codes = int_values(values).astype(np.int64)
    valid = valid_mask(values)
    stored = codes if valid is None else codes[valid]
    if len(stored) and (stored.min() < 0 or stored.max() >= NO_TILE):
        bad = int(stored[(stored < 0) | (stored >= NO_TILE)][0])
        raise DatasetError(
            f"column {column!r} holds tile code {bad}, which names no tile "
            f"(0-{NO_TILE - 1}): the part file is damaged"
        )
    return codes, valid


def _tile_lists(values: pa.ChunkedArray, column: str) -> tuple[np.ndarray, pa.Array]:
    """A tile-list column's row lengths and its tiles flattened (``list_lengths``); a null tile
    inside a list is a damaged part file."""
    sizes, items = list_lengths(values)
    if items.null_count:
        raise DatasetError(f"column {column!r} holds a null tile: the part file is damaged")
    return sizes, items


def _booleans(values: pa.ChunkedArray) -> list[Any]:
    """A bool column as Python bools (None where null): ``to_pylist()``, without a scalar a row
    when it holds no null (its bits unpacked by numpy)."""
    if values.null_count:
        return values.to_pylist()
    parts = []
    for chunk in values.chunks:
        if len(chunk):
            bits = np.frombuffer(chunk.buffers()[1], np.uint8)
            unpacked = np.unpackbits(bits, count=chunk.offset + len(chunk), bitorder="little")
            parts.append(unpacked[chunk.offset :].view(np.bool_))
    return np.concatenate(parts).tolist() if parts else []


def _events_of(t: pa.Table) -> list[Event]:
    """Every row of an events slice as an Event (:func:`_event_stream`, all made at once)."""
    return list(_event_stream(t))


def _event_stream(t: pa.Table) -> Iterator[Event]:
    """Every row of an events slice as an Event, made as the iterator is read (a damaged column
    is refused at once: the columns are read here; :func:`_event_columns`)."""
    stream: Iterator[Event] = _event_columns(t).stream()
    return stream


def _event_columns(t: pa.Table) -> EventColumns:
    """The rows of an events slice as columns of their fields' objects (a damaged column is
    refused here): the columns decoded whole from their buffers (``arrow_columns``: no pandas,
    no compute calls) and dictionary encoding into the fields' own objects (kinds and tiles
    taken from tables of them by code), gathered by ``store.rebuild`` (compiled in the compiled
    build; the audit's hot path)."""
    sizes, dealt = _tile_lists(t.column("tiles"), "tiles")
    # only the rows holding tiles (a deal, an exchange) are cut out of the flattened items
    dealt_rows = np.flatnonzero(sizes != 0)  # a bool mask: numpy's vector loop (on ints, a call a row)
    dealt_offsets = np.zeros(len(dealt_rows) + 1, np.int64)
    np.cumsum(sizes[dealt_rows], out=dealt_offsets[1:])
    return event_columns(
        ints_or_none(t.column("seq")), _decoded(t.column("kind"), EVENT_KINDS),
        ints_or_none(t.column("seat")), _tiles(t.column("tile"), "tile"),
        dealt_rows.tolist(), dealt_offsets.tolist(), _tiles(dealt, "tiles"),
        ints_or_none(t.column("from_seat")), _tiles(t.column("claimed"), "claimed"),
        _booleans(t.column("tail")), _decoded(t.column("claim"), None),
        _decoded(t.column("win"), WIN_KINDS), _line_numbers(t.column("line")),
    )  # fmt: skip


def _line_numbers(values: pa.ChunkedArray) -> Sequence[int | None]:
    """The events' line column, for :class:`EventColumns`: without a null, a memoryview of its
    integers (a Python int made only for a row read: the replay makes an Event of a few rows of
    a hand; a list of an int a row cost ~25 M of ``ingest --audit``'s 3,190 M); else the
    ints and None (:func:`ints_or_none`)."""
    if values.null_count:
        return ints_or_none(values)
    return memoryview(int_values(values))


def hands_from_tables(
    ruleset: str,
    hands: pa.Table,
    events: pa.Table,
    wins: pa.Table,
    fans: pa.Table,
    payments: pa.Table,
    *,
    starts: tuple[list[int], list[int], list[int]] | None = None,
    where: str | None = None,
) -> Iterator[Hand]:
    """Rebuild Hand records from aligned slices of the tables (same hands, same order; each
    hand's wins, fans and payments rows together, in hand order), each made as the iterator is
    read (the columns are read, and a damaged one refused, at the call). ``starts``: where each hand's
    rows start in ``wins``, ``fans`` and ``payments`` and their ends (:func:`rebuild.group_starts`,
    which the audit's slicer already holds), else found here from the keys. ``where`` (a part
    file) prefixes a damaged file's :class:`DatasetError`."""
    try:
        return _rebuilt(ruleset, hands, events, wins, fans, payments, starts, False)[0]
    except DatasetError as exc:
        if where is None:
            raise
        raise DatasetError(f"{where}: {exc}") from None


def hands_and_columns_from_tables(
    ruleset: str,
    hands: pa.Table,
    events: pa.Table,
    wins: pa.Table,
    fans: pa.Table,
    payments: pa.Table,
    *,
    starts: tuple[list[int], list[int], list[int]] | None = None,
    where: str | None = None,
) -> tuple[Iterator[Hand], EventColumns]:
    """:func:`hands_from_tables` for a replay that reads the events from their columns
    (``mjstats.event_columns``): the hands made without their events, and the events' columns,
    whose ``first:stop`` are each hand's rows once it is yielded (the audit: no ``Event`` made
    for a row the replay steps over)."""
    try:
        made, columns = _rebuilt(ruleset, hands, events, wins, fans, payments, starts, True)
        assert columns is not None
        return made, columns
    except DatasetError as exc:
        if where is None:
            raise
        raise DatasetError(f"{where}: {exc}") from None


def _rebuilt(
    ruleset: str, hands: pa.Table, events: pa.Table, wins: pa.Table, fans: pa.Table, payments: pa.Table,
    starts: tuple[list[int], list[int], list[int]] | None,
    as_columns: bool,
) -> tuple[Iterator[Hand], EventColumns | None]:
    """:func:`hands_from_tables` without the part file's name on its errors, and None; with
    ``as_columns``, the hands made without their events and the events' columns."""
    # the tiles the rebuild indexes per hand (not per event): a damaged code refused here too
    for table, column in ((wins, "win_tile"), (hands, "gold"), (hands, "wall")):
        if column in table.column_names:
            values = table.column(column)
            tiles = _tile_lists(values, column)[1] if pa.types.is_list(values.type) else values
            _checked_tiles(tiles, column)
    h = hands.to_pydict()
    w = wins.to_pydict()
    f = fans.to_pydict()
    p = payments.to_pydict()
    # datasets written before several wins per hand have no win_no and no reason: one win a
    # hand, net scores only
    if "win_no" not in w:
        w["win_no"] = [0] * len(w["match_id"])
    f.setdefault("win_no", [0] * len(f["match_id"]))
    p.setdefault("reason", [None] * len(p["match_id"]))
    p.setdefault("win_no", [None] * len(p["match_id"]))
    # datasets written before the origin columns existed have none
    n_hands = len(h["match_id"])
    h["origin"] = h.get("origin") or [None] * n_hands
    h["origin_line"] = h.get("origin_line") or [None] * n_hands
    if starts is None:
        starts = _row_starts(h, w), _row_starts(h, f), _row_starts(h, p)
    # made as they are read: the audit replays each hand as it comes (EventColumns.stream)
    if as_columns:
        columns = _event_columns(events)
        return iter_hands_from_columns(ruleset, h, iter(()), w, f, p, *starts, columns), columns
    return iter_hands_from_columns(ruleset, h, _event_stream(events), w, f, p, *starts), None


def _row_starts(h: dict[str, list[Any]], table: dict[str, list[Any]]) -> list[int]:
    """Where each hand of ``h`` starts in ``table`` (rows grouped per hand, in hand order) and
    the end, by (match_id, hand_no): :func:`rebuild.group_starts` on each key's place."""
    place: dict[tuple[Any, Any], int] = {}
    for i, key in enumerate(zip(h["match_id"], h["hand_no"], strict=True)):
        place.setdefault(key, i)
    hand_keys = [place[key] for key in zip(h["match_id"], h["hand_no"], strict=True)]
    row_keys = [place.get(key, -1) for key in zip(table["match_id"], table["hand_no"], strict=True)]
    return group_starts(hand_keys, row_keys)
