"""The dataset's tables: Arrow schemas, and records <-> column conversion.

Tables written by ingest (one row per ...): ``matches`` (match), ``hands`` (hand), ``events``
(action, ordered by ``seq``), ``wins`` (won hand: the recorded result), ``fans`` (recorded fan
of a win), ``payments`` (seat of a hand with recorded scores), ``rejects`` (unreadable record).
Every table but ``rejects`` carries ``match_id`` and ``hand_no``; ``ruleset`` and ``period`` are
Hive partition keys (folders), not columns in the files.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

import pyarrow as pa

from mjstats.records import (
    EVENT_FIELDS,
    Event,
    EventKind,
    FanEntry,
    Hand,
    Outcome,
    Provenance,
    Reject,
    Result,
    WinKind,
)
from mjstats.tiles import ALL_KINDS

__all__ = [
    "HAND_TABLES",
    "INGEST_TABLES",
    "SCHEMAS",
    "UNDATED",
    "HandColumns",
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

        if result.outcome is Outcome.WIN:
            w = self.cols["wins"]
            w["match_id"].append(mid)
            w["hand_no"].append(no)
            w["winner"].append(result.winner)
            w["loser"].append(result.loser)
            w["win_tile"].append(result.win_tile)
            w["self_drawn"].append(result.self_drawn)
            w["win_kind"].append(_win_kind(hand))
            w["fan_total"].append(result.fan_total)
            w["pattern"].append(result.pattern)
        f = self.cols["fans"]
        for fan in result.fans:
            f["match_id"].append(mid)
            f["hand_no"].append(no)
            f["winner"].append(result.winner)
            f["name"].append(fan.name)
            f["count"].append(fan.count)
            f["points"].append(fan.points)
        if result.scores is not None:
            p = self.cols["payments"]
            for seat, score in enumerate(result.scores):
                p["match_id"].append(mid)
                p["hand_no"].append(no)
                p["seat"].append(seat)
                p["score"].append(score)

    def take(self) -> dict[str, pa.Table]:
        """The buffered rows as Arrow tables (one per ingest table); the buffers are emptied."""
        tables = {
            name: pa.Table.from_pydict(cols, schema=SCHEMAS[name]) for name, cols in self.cols.items()
        }
        for cols in self.cols.values():
            for values in cols.values():
                values.clear()
        self.n_hands = 0
        return tables


def _win_kind(hand: Hand) -> str | None:
    for ev in reversed(hand.events):
        if ev.kind is EventKind.HU:
            return ev.win.value if ev.win is not None else None
    return None


def rejects_table(rejects: list[Reject]) -> pa.Table:
    return pa.Table.from_pydict(
        {
            "source": [r.source for r in rejects],
            "line": [r.line for r in rejects],
            "match_id": [r.match_id for r in rejects],
            "error": [r.error for r in rejects],
            "raw": [r.raw for r in rejects],
        },
        schema=SCHEMAS["rejects"],
    )


_KINDS = {k.value: k for k in EventKind}
_WINS = {k.value: k for k in WinKind}
_OUTCOMES = {k.value: k for k in Outcome}


def _tile_or_none(code: int | None) -> Any:
    return None if code is None else ALL_KINDS[code]


def _events_of(e: dict[str, list[Any]]) -> list[Event]:
    """Every row of an events slice as an Event, built column-wise (the audit's hot path)."""
    tiles = ALL_KINDS

    def tile_or_none(values: list[int | None]) -> list[Any]:
        return [None if t is None else tiles[t] for t in values]

    dealt = [tuple(tiles[t] for t in ts) if ts else () for ts in e["tiles"]]
    kinds = [_KINDS[k] for k in e["kind"]]
    wins = [None if w is None else _WINS[w] for w in e["win"]]
    columns = zip(
        e["seq"], kinds, e["seat"], tile_or_none(e["tile"]), dealt, e["from_seat"],
        tile_or_none(e["claimed"]), e["tail"], e["claim"], wins, e["line"],
        strict=True,
    )  # fmt: skip
    # tuple.__new__ straight from C: Event._make is a Python function called once per row
    return list(map(functools.partial(tuple.__new__, Event), columns))


def hands_from_tables(
    ruleset: str,
    hands: pa.Table,
    events: pa.Table,
    wins: pa.Table,
    fans: pa.Table,
    payments: pa.Table,
) -> Iterator[Hand]:
    """Rebuild Hand records from aligned slices of the tables (same hands, same order)."""
    tiles = ALL_KINDS
    h = hands.to_pydict()
    w = wins.to_pydict()
    f = fans.to_pydict()
    scores_col = payments.column("score").to_pylist()
    all_events = _events_of(events.to_pydict())
    # fans are grouped per hand in order; index them by (match_id, hand_no)
    fan_rows: dict[tuple[str, int], list[FanEntry]] = {}
    for mid, no, name, count, points in zip(
        f["match_id"], f["hand_no"], f["name"], f["count"], f["points"], strict=True
    ):
        fan_rows.setdefault((mid, no), []).append(FanEntry(name, count, points))
    win_rows = {
        (mid, no): i for i, (mid, no) in enumerate(zip(w["match_id"], w["hand_no"], strict=True))
    }
    n_hands = len(h["match_id"])
    # datasets written before the origin columns existed have none
    origins = h.get("origin") or [None] * n_hands
    origin_lines = h.get("origin_line") or [None] * n_hands
    ei = 0
    pi = 0
    for i in range(n_hands):
        mid, no = h["match_id"][i], h["hand_no"][i]
        n = h["n_events"][i]
        evs = tuple(all_events[ei : ei + n])
        ei += n
        scores = None
        if h["has_scores"][i]:
            scores = tuple(scores_col[pi : pi + 4])
            pi += 4
        outcome = _OUTCOMES[h["outcome"][i]]
        fan_entries = tuple(fan_rows.get((mid, no), ()))
        wi = win_rows.get((mid, no))
        if wi is not None:
            result = Result(
                outcome,
                w["winner"][wi],
                w["loser"][wi],
                _tile_or_none(w["win_tile"][wi]),
                w["self_drawn"][wi],
                w["fan_total"][wi],
                fan_entries,
                scores,
                w["pattern"][wi],
            )
        else:
            result = Result(outcome, fans=fan_entries, scores=scores)
        wall = h["wall"][i]
        dice = h["dice"][i]
        line = h["line"][i]
        source = h["source"][i]
        yield Hand(
            match_id=mid,
            hand_no=no,
            ruleset=ruleset,
            profile=h["profile"][i],
            dealer=h["dealer"][i],
            prevalent_wind=h["prevalent_wind"][i],
            events=evs,
            result=result,
            players=tuple(h["players"][i]),
            styles=tuple(h["styles"][i]),
            streak=h["streak"][i],
            gold=_tile_or_none(h["gold"][i]),
            wall=None if wall is None else tuple(tiles[t] for t in wall),
            dice=None if dice is None else tuple(dice),
            started_at=h["started_at"][i],
            meta=tuple((k, v) for k, v in h["meta"][i]),
            provenance=Provenance(source, line) if source is not None else None,
            origin=Provenance(origins[i], origin_lines[i]) if origins[i] is not None else None,
        )
