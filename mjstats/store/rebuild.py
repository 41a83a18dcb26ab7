"""Hand records rebuilt from the dataset's columns, taken as plain Python lists.

The per-row loops of the read-back (``schema.hands_from_tables`` turns Arrow columns into lists
and calls these): one pass over the events, one over the hands with their wins, fans and
payments. No Arrow here, so the compiled build compiles this module (docs/compiled.md): the
audit reads back every hand it replays, about a hundred events each.
"""

from __future__ import annotations

from itertools import repeat, starmap
from typing import Any

from mjstats.records import (
    Event,
    EventKind,
    FanEntry,
    Hand,
    Outcome,
    Payment,
    PaymentReason,
    Provenance,
    Result,
    Win,
    WinKind,
)
from mjstats.slot_setters import frozen_record, record_setters
from mjstats.tiles import ALL_KINDS

__all__ = [
    "EVENT_KINDS",
    "NO_TILE",
    "OUTCOMES",
    "REASONS",
    "TILE_CODES",
    "WIN_KINDS",
    "events_from_columns",
    "group_starts",
    "hands_from_columns",
]

# the stored text of each enumeration's members -> the member
EVENT_KINDS: dict[str, EventKind] = {k.value: k for k in EventKind}
WIN_KINDS: dict[str, WinKind] = {k.value: k for k in WinKind}
OUTCOMES: dict[str, Outcome] = {k.value: k for k in Outcome}
REASONS: dict[str, PaymentReason] = {k.value: k for k in PaymentReason}

# each record's slot setters, in field order (refused at import if building by them would not
# make the constructor's record: a field added or reordered, a __post_init__, ...)
_HAND = record_setters(Hand)
_RESULT = record_setters(Result)
_WIN = record_setters(Win)
_PAYMENT = record_setters(Payment)
_PROVENANCE = record_setters(Provenance)

# a tile column's codes index this: every tile kind by its code, then None for a null tile
NO_TILE = len(ALL_KINDS)
TILE_CODES: tuple[Any, ...] = (*ALL_KINDS, None)

# events' rows held at once before they are made events (a part's slice holds millions of events:
# its rows are not all kept beside them)
_EVENT_CHUNK = 4096


def events_from_columns(
    seq: list[Any],
    kinds: list[Any],
    kind_codes: list[int],
    seat: list[Any],
    tile_codes: list[int],
    dealt_rows: list[int],
    dealt_offsets: list[int],
    dealt: list[int],
    from_seat: list[Any],
    claimed_codes: list[int],
    tail: list[Any],
    claims: list[Any],
    claim_codes: list[int],
    wins: list[Any],
    win_codes: list[int],
    line: list[Any],
) -> list[Event]:
    """Every row as an :class:`Event`, the columns given as lists of one length. ``kind``,
    ``claim`` and ``win`` as codes into ``kinds``, ``claims`` and ``wins`` (the enumerations'
    members or the strings, None for a null row); ``tile`` and ``claimed`` as codes into
    :data:`TILE_CODES` (:data:`NO_TILE` where null); the ``tiles`` list column as its non-empty
    rows only, ``dealt_rows[k]`` holding the tile codes ``dealt[dealt_offsets[k]:dealt_offsets[k
    + 1]]`` (every other row holds none: one shared empty tuple). Integer codes, not objects:
    the loop reads them as native ints and indexes the tables, one object fetched a field."""
    tiles = TILE_CODES
    n = len(seq)
    empty: tuple[Any, ...] = ()
    row_tiles: list[Any] = [empty] * n
    for k in range(len(dealt_rows)):
        held: list[Any] = []
        for j in range(dealt_offsets[k], dealt_offsets[k + 1]):
            held.append(ALL_KINDS[dealt[j]])  # codes checked by the read-back (schema._tile_codes)
        row_tiles[dealt_rows[k]] = tuple(held)
    out: list[Event] = []
    rows: list[tuple[Any, ...]] = []
    for start in range(0, n, _EVENT_CHUNK):
        rows.clear()
        for i in range(start, min(n, start + _EVENT_CHUNK)):
            rows.append(
                (
                    seq[i], kinds[kind_codes[i]], seat[i], tiles[tile_codes[i]], row_tiles[i],
                    from_seat[i], tiles[claimed_codes[i]], tail[i], claims[claim_codes[i]],
                    wins[win_codes[i]], line[i],
                )
            )  # fmt: skip
        out.extend(_as_events(rows))
    return out


def _as_events(rows: list[tuple[Any, ...]]) -> list[Event]:
    """Each row made an :class:`Event` by ``tuple.__new__`` (what the named tuple's own
    ``__new__`` ends in, without its Python frame). Called through ``starmap`` over ``zip``: the
    (Event, row) pair is zip's result tuple, reused from row to row, and starmap passes it as the
    call's argument tuple, where a direct call builds one each time (callgrind: ~200 of ~1,000
    instructions an event less)."""
    new: Any = tuple.__new__
    return list(starmap(new, zip(repeat(Event), rows)))  # noqa: RUF058 (map makes a tuple a call)


def hands_from_columns(
    ruleset: str,
    h: dict[str, list[Any]],
    events: list[Event],
    w: dict[str, list[Any]],
    f: dict[str, list[Any]],
    p: dict[str, list[Any]],
) -> list[Hand]:
    """The hands of aligned slices of the tables, each table as ``{column: list}``: the hands'
    rows with their ``n_events`` consecutive ``events``, their wins, fans and payments (rows
    grouped per hand, in hand order, keyed by match_id and hand_no). The records are built by
    their slots' setters (``mjstats.slot_setters``), not their constructors: the same records."""
    tiles = ALL_KINDS
    # fans, wins and payments are grouped per hand in order; index them by (match_id, hand_no)
    fan_rows: dict[tuple[str, int, int | None], list[FanEntry]] = {}
    # one FanEntry per (name, count, points), shared by every win that records it (immutable)
    entries: dict[tuple[str, int, int | None], FanEntry] = {}
    for mid, no, win_no, name, count, points in zip(
        f["match_id"], f["hand_no"], f["win_no"], f["name"], f["count"], f["points"], strict=True
    ):
        entry = entries.get((name, count, points))
        if entry is None:
            entry = entries[(name, count, points)] = FanEntry(name, count, points)
        fan_rows.setdefault((mid, no, win_no), []).append(entry)
    win_rows: dict[tuple[str, int], list[Win]] = {}
    winners, losers, win_tiles, self_drawn = w["winner"], w["loser"], w["win_tile"], w["self_drawn"]
    fan_totals, patterns = w["fan_total"], w["pattern"]
    no_fans: tuple[FanEntry, ...] = ()
    for i, (mid, no, win_no) in enumerate(zip(w["match_id"], w["hand_no"], w["win_no"], strict=True)):
        win_tile = win_tiles[i]
        fans = fan_rows.get((mid, no, win_no))
        win_values = (
            winners[i], losers[i], None if win_tile is None else tiles[win_tile], self_drawn[i],
            fan_totals[i], no_fans if fans is None else tuple(fans), patterns[i],
        )  # fmt: skip
        win_rows.setdefault((mid, no), []).append(frozen_record(Win, _WIN, win_values))
    pay_rows: dict[tuple[str, int], list[int]] = {}
    for i, key in enumerate(zip(p["match_id"], p["hand_no"], strict=True)):
        pay_rows.setdefault(key, []).append(i)
    seats, scores_of, reasons, pay_nos = p["seat"], p["score"], p["reason"], p["win_no"]
    match_ids, hand_nos, n_events, has_scores = h["match_id"], h["hand_no"], h["n_events"], h["has_scores"]
    outcomes, profiles, dealers, winds = h["outcome"], h["profile"], h["dealer"], h["prevalent_wind"]
    players, styles, streaks, golds = h["players"], h["styles"], h["streak"], h["gold"]
    walls, dice_rows, started, metas = h["wall"], h["dice"], h["started_at"], h["meta"]
    sources, lines, origins, origin_lines = h["source"], h["line"], h["origin"], h["origin_line"]
    no_rows: list[int] = []
    no_wins: list[Win] = []
    no_payments: tuple[Payment, ...] = ()
    out: list[Hand] = []
    ei = 0
    for i in range(len(match_ids)):
        mid, no = match_ids[i], hand_nos[i]
        n: int = n_events[i]
        evs = tuple(events[ei : ei + n])
        ei += n
        rows = pay_rows.get((mid, no), no_rows)
        wins = tuple(win_rows.get((mid, no), no_wins))
        outcome = OUTCOMES[outcomes[i]]
        if has_scores[i] and all(reasons[j] is None for j in rows):
            net = [0, 0, 0, 0]
            for j in rows:
                net[seats[j]] = scores_of[j]
            # what Result(outcome, scores=..., wins=...) holds: no payments, nothing to check
            result = frozen_record(Result, _RESULT, (outcome, wins, tuple(net), no_payments))
        elif rows:
            # an itemised ledger: Result sums it into the scores
            ledger = [
                frozen_record(Payment, _PAYMENT, (seats[j], scores_of[j], REASONS[reasons[j]], pay_nos[j]))
                for j in rows
            ]
            result = Result(outcome, wins=wins, payments=tuple(ledger))
        else:
            result = frozen_record(Result, _RESULT, (outcome, wins, None, no_payments))
        wall = walls[i]
        dice = dice_rows[i]
        source = sources[i]
        origin = origins[i]
        gold = golds[i]
        values = (
            mid, no, ruleset, profiles[i], dealers[i], winds[i], evs, result,
            tuple(players[i]), tuple(styles[i]), streaks[i],
            None if gold is None else tiles[gold],
            None if wall is None else tuple([tiles[t] for t in wall]),
            None if dice is None else tuple(dice),
            started[i], tuple([(k, v) for k, v in metas[i]]),
            None if source is None else _provenance(source, lines[i]),
            None if origin is None else _provenance(origin, origin_lines[i]),
        )  # fmt: skip
        out.append(frozen_record(Hand, _HAND, values))
    return out


def _provenance(source: str, line: Any) -> Provenance:
    """``Provenance(source, line)``, as the dataset stores it (no raw text; ``line`` as stored,
    None where null)."""
    return frozen_record(Provenance, _PROVENANCE, (source, line, None))


def group_starts(hand_keys: list[int], row_keys: list[int]) -> list[int]:
    """Where each hand's rows start in a table whose rows are grouped per hand in hand order, and
    the end: hand ``i`` (key ``hand_keys[i]``) owns the run of rows carrying its key from where
    the hand before it stopped (none when the next row is another hand's)."""
    starts: list[int] = []
    j = 0
    n = len(row_keys)
    for key in hand_keys:
        starts.append(j)
        while j < n and row_keys[j] == key:
            j += 1
    starts.append(j)
    return starts
