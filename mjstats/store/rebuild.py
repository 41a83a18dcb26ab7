"""Hand records rebuilt from the dataset's columns, taken as plain Python lists.

The per-row loops of the read-back (``schema.hands_from_tables`` turns Arrow columns into lists
and calls these): one pass over the events, one over the hands with their wins, fans and
payments. No Arrow here, so the compiled build compiles this module (docs/compiled.md): the
audit reads back every hand it replays, about a hundred events each.
"""

from __future__ import annotations

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
from mjstats.tiles import ALL_KINDS

__all__ = [
    "EVENT_KINDS",
    "OUTCOMES",
    "REASONS",
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


def _tiles_or_none(codes: list[Any]) -> list[Any]:
    """Tile codes (or None) as the tiles of ``ALL_KINDS`` (None stays None)."""
    tiles = ALL_KINDS
    out: list[Any] = []
    for code in codes:
        out.append(None if code is None else tiles[code])
    return out


def events_from_columns(
    seq: list[Any],
    kind: list[Any],
    seat: list[Any],
    tile: list[Any],
    dealt: list[Any],
    dealt_offsets: list[int],
    from_seat: list[Any],
    claimed: list[Any],
    tail: list[Any],
    claim: list[Any],
    win: list[Any],
    line: list[Any],
) -> list[Event]:
    """Every row as an :class:`Event`, the columns given as lists of one length: ``kind`` and
    ``win`` already the enumerations' members; tiles as codes (None where absent); the
    ``tiles`` list column flattened into ``dealt`` codes, row ``i`` being
    ``dealt[dealt_offsets[i]:dealt_offsets[i + 1]]``."""
    tiles = ALL_KINDS
    tile_objects = _tiles_or_none(tile)
    claimed_objects = _tiles_or_none(claimed)
    new = tuple.__new__
    empty: tuple[Any, ...] = ()
    out: list[Event] = []
    for i in range(len(seq)):
        start, stop = dealt_offsets[i], dealt_offsets[i + 1]
        if start == stop:
            row_tiles = empty
        else:
            held: list[Any] = []
            for j in range(start, stop):
                held.append(tiles[dealt[j]])
            row_tiles = tuple(held)
        out.append(
            new(
                Event,
                (
                    seq[i], kind[i], seat[i], tile_objects[i], row_tiles, from_seat[i],
                    claimed_objects[i], tail[i], claim[i], win[i], line[i],
                ),
            )
        )  # fmt: skip
    return out


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
    grouped per hand, in hand order, keyed by match_id and hand_no)."""
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
    for i, (mid, no, win_no) in enumerate(zip(w["match_id"], w["hand_no"], w["win_no"], strict=True)):
        win_tile = win_tiles[i]
        win_rows.setdefault((mid, no), []).append(
            Win(
                winners[i],
                losers[i],
                None if win_tile is None else tiles[win_tile],
                self_drawn[i],
                fan_totals[i],
                tuple(fan_rows.get((mid, no, win_no), ())),
                patterns[i],
            )
        )
    pay_rows: dict[tuple[str, int], list[int]] = {}
    for i, key in enumerate(zip(p["match_id"], p["hand_no"], strict=True)):
        pay_rows.setdefault(key, []).append(i)
    seats, scores_of, reasons, pay_win_nos = p["seat"], p["score"], p["reason"], p["win_no"]
    match_ids, hand_nos, n_events, has_scores = h["match_id"], h["hand_no"], h["n_events"], h["has_scores"]
    outcomes, profiles, dealers, winds = h["outcome"], h["profile"], h["dealer"], h["prevalent_wind"]
    players, styles, streaks, golds = h["players"], h["styles"], h["streak"], h["gold"]
    walls, dice_rows, started, metas = h["wall"], h["dice"], h["started_at"], h["meta"]
    sources, lines, origins, origin_lines = h["source"], h["line"], h["origin"], h["origin_line"]
    out: list[Hand] = []
    ei = 0
    for i in range(len(match_ids)):
        mid, no = match_ids[i], hand_nos[i]
        n: int = n_events[i]
        evs = tuple(events[ei : ei + n])
        ei += n
        scores: tuple[int, ...] | None = None
        ledger: list[Payment] = []
        rows = pay_rows.get((mid, no), [])
        if has_scores[i] and all(reasons[j] is None for j in rows):
            net = [0, 0, 0, 0]
            for j in rows:
                net[seats[j]] = scores_of[j]
            scores = tuple(net)
        else:
            ledger = [Payment(seats[j], scores_of[j], REASONS[reasons[j]], pay_win_nos[j]) for j in rows]
        result = Result(
            OUTCOMES[outcomes[i]],
            scores=scores,
            wins=tuple(win_rows.get((mid, no), [])),
            payments=tuple(ledger),
        )
        wall = walls[i]
        dice = dice_rows[i]
        source = sources[i]
        gold = golds[i]
        out.append(
            Hand(
                match_id=mid,
                hand_no=no,
                ruleset=ruleset,
                profile=profiles[i],
                dealer=dealers[i],
                prevalent_wind=winds[i],
                events=evs,
                result=result,
                players=tuple(players[i]),
                styles=tuple(styles[i]),
                streak=streaks[i],
                gold=None if gold is None else tiles[gold],
                wall=None if wall is None else tuple([tiles[t] for t in wall]),
                dice=None if dice is None else tuple(dice),
                started_at=started[i],
                meta=tuple([(k, v) for k, v in metas[i]]),
                provenance=Provenance(source, lines[i]) if source is not None else None,
                origin=Provenance(origins[i], origin_lines[i]) if origins[i] is not None else None,
            )
        )
    return out


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
