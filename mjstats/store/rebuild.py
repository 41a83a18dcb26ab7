"""Hand records rebuilt from the dataset's columns, taken as plain Python lists.

The per-row loops of the read-back (``schema.hands_from_tables`` turns Arrow columns into lists
and calls these): one pass over the events, one over the hands with their wins, fans and
payments. No Arrow here, so the compiled build compiles this module (docs/compiled.md): the
audit reads back every hand it replays, about a hundred events each.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import islice
from typing import Any, Final

from mjstats.event_columns import EventColumns
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
    "event_columns",
    "group_starts",
    "iter_hands_from_columns",
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

# hands whose events the read-back makes at once (iter_hands_from_columns): ~3,000 events
_BLOCK_HANDS: Final = 32

# a tile column's codes index this: every tile kind by its code, then None for a null tile
NO_TILE = len(ALL_KINDS)
TILE_CODES: tuple[Any, ...] = (*ALL_KINDS, None)


def event_columns(
    seq: list[Any],
    kinds: list[Any],
    seat: list[Any],
    tiles: list[Any],
    dealt_rows: list[int],
    dealt_offsets: list[int],
    dealt: list[Any],
    from_seat: list[Any],
    claimed: list[Any],
    tail: list[Any],
    claims: list[Any],
    wins: list[Any],
    line: Sequence[Any],
) -> EventColumns:
    """The rows as :class:`EventColumns`. The columns are given as lists of one length, each
    holding the field's own objects (``kind`` and ``win`` their enumerations' members, ``tile``
    and ``claimed`` tiles; None where null); the ``tiles`` list column as its non-empty rows only,
    ``dealt_rows[k]`` holding the tiles ``dealt[dealt_offsets[k]:dealt_offsets[k + 1]]`` (every
    other row holds none: one shared empty tuple). ``line`` may be any sequence of the line
    numbers (``EventColumns``)."""
    n = len(seq)
    empty: tuple[Any, ...] = ()
    row_tiles: list[Any] = [empty] * n
    for k in range(len(dealt_rows)):
        row_tiles[dealt_rows[k]] = tuple(dealt[dealt_offsets[k] : dealt_offsets[k + 1]])
    return EventColumns(seq, kinds, seat, tiles, row_tiles, from_seat, claimed, tail, claims, wins, line)


def iter_hands_from_columns(
    ruleset: str,
    h: dict[str, list[Any]],
    events: Iterator[Event],
    w: dict[str, list[Any]],
    f: dict[str, list[Any]],
    p: dict[str, list[Any]],
    wins_at: list[int],
    fans_at: list[int],
    pays_at: list[int],
    columns: EventColumns | None = None,
) -> Iterator[Hand]:
    """The hands of aligned slices of the tables, each made as the iterator is read, each table
    as ``{column: list}``: the hands' rows with their ``n_events`` next ``events`` (an iterator:
    :meth:`EventColumns.stream` makes them as they are taken), their wins, fans and payments (rows
    grouped per hand, in hand order: hand ``i``'s are rows ``wins_at[i]:wins_at[i + 1]`` and so
    on, :func:`group_starts`; a win's fans are its hand's fan rows of its ``win_no``). The
    records are built by their slots' setters (``mjstats.slot_setters``), not their
    constructors: the same records. With ``columns`` (the events of the slice, for a replay that
    reads them, ``mjstats.event_columns``) ``events`` is not read: each hand is made without its
    events, and ``columns.first:columns.stop`` are set to its rows before it is yielded."""
    tiles = ALL_KINDS
    # one FanEntry per (name, count, points), shared by every win that records it (immutable)
    entries: dict[tuple[str, int, int | None], FanEntry] = {}
    fan_entries: list[FanEntry] = []  # each fan row's
    for name, count, points in zip(f["name"], f["count"], f["points"], strict=True):
        entry = entries.get((name, count, points))
        if entry is None:
            entry = entries[(name, count, points)] = FanEntry(name, count, points)
        fan_entries.append(entry)
    fan_nos: list[Any] = f["win_no"]
    win_nos: list[Any] = w["win_no"]
    winners, losers, win_tiles, self_drawn = w["winner"], w["loser"], w["win_tile"], w["self_drawn"]
    fan_totals, patterns = w["fan_total"], w["pattern"]
    seats, scores_of, reasons, pay_nos = p["seat"], p["score"], p["reason"], p["win_no"]
    match_ids, hand_nos, n_events, has_scores = h["match_id"], h["hand_no"], h["n_events"], h["has_scores"]
    outcomes, profiles, dealers, winds = h["outcome"], h["profile"], h["dealer"], h["prevalent_wind"]
    players, styles, streaks, golds = h["players"], h["styles"], h["streak"], h["gold"]
    walls, dice_rows, started, metas = h["wall"], h["dice"], h["started_at"], h["meta"]
    sources, lines, origins, origin_lines = h["source"], h["line"], h["origin"], h["origin_line"]
    no_payments: tuple[Payment, ...] = ()
    n_hands = len(match_ids)
    # the events of the next few dozen hands made at once, each hand's sliced from them: a
    # hand's own ``tuple(islice(...))`` cost ~14,000 instructions (an iterator without a length
    # grows its tuple), a block's are still few enough that their memory is reused block to block
    block: list[Event] = []
    at = 0
    for i in range(n_hands):
        mid, no = match_ids[i], hand_nos[i]
        n: int = n_events[i]
        if columns is not None:  # the replay reads the hand's rows from the columns
            columns.first = at
            at += n
            columns.stop = at
            evs: tuple[Event, ...] = ()
        else:
            if at + n > len(block):
                more = 0
                for k in range(i, min(i + _BLOCK_HANDS, n_hands)):
                    more += n_events[k]
                block = block[at:] + list(islice(events, more))
                at = 0
            evs = tuple(block[at : at + n])
            at += n
        rows = range(pays_at[i], pays_at[i + 1])
        hand_wins: list[Win] = []
        first_fan, end_fan = fans_at[i], fans_at[i + 1]
        for k in range(wins_at[i], wins_at[i + 1]):
            win_no = win_nos[k]
            win_tile = win_tiles[k]
            fans = tuple([fan_entries[j] for j in range(first_fan, end_fan) if fan_nos[j] == win_no])
            win_values = (
                winners[k], losers[k], None if win_tile is None else tiles[win_tile], self_drawn[k],
                fan_totals[k], fans, patterns[k],
            )  # fmt: skip
            hand_wins.append(frozen_record(Win, _WIN, win_values))
        wins = tuple(hand_wins)
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
        yield frozen_record(Hand, _HAND, values)


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
