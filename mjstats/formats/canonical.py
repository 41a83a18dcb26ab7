"""mjstats' canonical format: JSON Lines, one versioned hand per line (spec: docs/format.md).

Writing is deterministic (fixed key order, compact separators, UTF-8 text, defaults omitted), so
canonical -> records -> canonical is byte-identical. Reading validates every line by hand (no
schema library at run time) and turns each bad line into a :class:`~mjstats.records.Reject`,
then carries on with the next line: nothing is dropped silently.
"""

from __future__ import annotations

import io
import json
import os
import secrets
from collections.abc import Iterable, Iterator
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from mjstats.errors import RecordError
from mjstats.formats import open_binary, open_text_writer
from mjstats.formats.limits import HEAD_BYTES, Cut, current_limits, split_lines, too_long
from mjstats.records import (
    CLAIM_KINDS,
    Event,
    EventKind,
    FanEntry,
    Hand,
    Outcome,
    Payment,
    PaymentReason,
    Provenance,
    Reject,
    Result,
    Win,
    WinKind,
)
from mjstats.tiles import ALL_KINDS, Tile

__all__ = [
    "FORMAT_VERSION",
    "RULESETS",
    "hand_from_json",
    "hand_to_json",
    "needs_version",
    "parse_record",
    "read_canonical",
    "split_records",
    "write_canonical",
]

FORMAT_VERSION = 2  # the newest version this module reads and writes
SINGLE_WIN_VERSION = 1  # what a hand needs when its result fits version 1 (docs/format.md §8)
RULESETS = frozenset({"guobiao", "fuzhou", "sichuan"})

# Key order of each object: the writer emits keys in exactly this order (docs/format.md).
HAND_KEYS = (
    "v", "match_id", "hand_no", "ruleset", "profile", "dealer", "prevalent_wind", "streak",
    "gold", "players", "styles", "started_at", "dice", "wall", "meta", "source", "events",
    "result",
)  # fmt: skip
EVENT_KEYS = ("k", "s", "t", "ts", "f", "c", "tail", "claim", "win", "l", "q")
RESULT_KEYS = (
    "outcome", "winner", "loser", "win_tile", "self_drawn", "fan_total", "fans", "pattern",
    "wins", "scores", "payments",
)  # fmt: skip
WIN_KEYS = ("winner", "loser", "win_tile", "self_drawn", "fan_total", "fans", "pattern")
PAYMENT_KEYS = ("seat", "score", "reason", "win_no")
V2_RESULT_KEYS = frozenset(("wins", "payments"))  # result keys version 1 does not have
FAN_KEYS = ("name", "count", "points")
SOURCE_KEYS = ("file", "line")

_HAND_KEYSET = frozenset(HAND_KEYS)
_EVENT_KEYSET = frozenset(EVENT_KEYS)
_COMMON_EVENT_KEYSET = frozenset(("k", "s", "t", "tail", "l"))
_RESULT_KEYSET = frozenset(RESULT_KEYS)
_V1_RESULT_KEYSET = _RESULT_KEYSET - V2_RESULT_KEYS
_WIN_KEYSET = frozenset(WIN_KEYS)
_PAYMENT_KEYSET = frozenset(PAYMENT_KEYS)
_REASON_OF: dict[str, PaymentReason] = {r.value: r for r in PaymentReason}
_FAN_KEYSET = frozenset(FAN_KEYS)
_SOURCE_KEYSET = frozenset(SOURCE_KEYS)
_HAND_REQUIRED = ("match_id", "hand_no", "ruleset", "profile", "dealer", "prevalent_wind",
                  "events", "result")  # fmt: skip

_CODE_OF: dict[int, str] = {int(t): t.botzone for t in ALL_KINDS}
_TILE_OF: dict[str, Tile] = {t.botzone: t for t in ALL_KINDS}
_KIND_OF: dict[str, EventKind] = {k.value: k for k in EventKind}
_WIN_OF: dict[str, WinKind] = {w.value: w for w in WinKind}
_OUTCOME_OF: dict[str, Outcome] = {o.value: o for o in Outcome}
_SEATS = (0, 1, 2, 3)
_SEAT_TEXT = ("0", "1", "2", "3")
_KIND_TEXT: dict[EventKind, str] = {k: k.value for k in EventKind}
_WIN_TEXT: dict[WinKind, str] = {w: w.value for w in WinKind}
_DEFAULT_PLAYERS = ("", "", "", "")
_DUMP = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode
_LOAD = json.JSONDecoder().decode
_LINE_BREAK_ESCAPES = {0x85: "\\u0085", 0x2028: "\\u2028", 0x2029: "\\u2029"}


# --- writing ------------------------------------------------------------------------------------


class _Unwritable(Exception):
    """A model value the format cannot carry (raised inside the writer, reported as RecordError)."""


def _code(tile: int) -> str:
    try:
        return _CODE_OF[tile]
    except (KeyError, TypeError):
        raise _Unwritable(f"not a tile: {tile!r}") from None


def _seat(seat: int) -> int:
    if seat not in _SEATS or type(seat) is bool:
        raise _Unwritable(f"seat out of range 0..3: {seat!r}")
    return int(seat)


def _event_text(event: Event, index: int) -> str:
    """One event as compact JSON, built directly: every value is an integer or a fixed ASCII
    code needing no escapes, so this is exactly what ``json.dumps`` would write (tested)."""
    seq, kind, seat, tile, tiles, from_seat, claimed, tail, claim, win, line = event
    parts = ['{"k":"', _KIND_TEXT[kind], '"']
    if seat is not None:
        parts += (',"s":', _seat_text(seat))
    if tile is not None:
        parts += (',"t":"', _code(tile), '"')
    if tiles:
        parts += (',"ts":["', '","'.join([_code(t) for t in tiles]), '"]')
    if from_seat is not None:
        parts += (',"f":', _seat_text(from_seat))
    if claimed is not None:
        parts += (',"c":"', _code(claimed), '"')
    if tail:
        parts.append(',"tail":true')
    if claim is not None:
        if claim not in CLAIM_KINDS:
            raise _Unwritable(f"unknown claim kind {claim!r}")
        parts += (',"claim":"', claim, '"')
    if win is not None:
        parts += (',"win":"', _WIN_TEXT[win], '"')
    if line is not None:
        if type(line) is not int or line < 1:
            raise _Unwritable(f"event line must be an integer >= 1: {line!r}")
        parts += (',"l":', str(line))
    if seq != index:  # seq is implied by position; written only when it differs
        if type(seq) is not int or seq < 0:
            raise _Unwritable(f"event seq must be an integer >= 0: {seq!r}")
        parts += (',"q":', str(seq))
    parts.append("}")
    return "".join(parts)


def _seat_text(seat: int) -> str:
    if type(seat) is int and 0 <= seat <= 3:
        return _SEAT_TEXT[seat]
    raise _Unwritable(f"seat out of range 0..3: {seat!r}")


def _win_obj(win: Win, obj: dict[str, Any]) -> dict[str, Any]:
    """The fields of one win into ``obj`` (the result object itself in the single-win form)."""
    if win.winner is not None:
        obj["winner"] = _seat(win.winner)
    if win.loser is not None:
        obj["loser"] = _seat(win.loser)
    if win.win_tile is not None:
        obj["win_tile"] = _code(win.win_tile)
    if win.self_drawn:
        obj["self_drawn"] = True
    if win.fan_total is not None:
        obj["fan_total"] = int(win.fan_total)
    if win.fans:
        fans = []
        for fan in win.fans:
            entry: dict[str, Any] = {"name": fan.name}
            if fan.count != 1:
                entry["count"] = int(fan.count)
            if fan.points is not None:
                entry["points"] = int(fan.points)
            fans.append(entry)
        obj["fans"] = fans
    if win.pattern is not None:
        obj["pattern"] = win.pattern
    return obj


def _single_win_form(result: Result) -> bool:
    """Whether the result reads back unchanged from the version-1 fields (at most one win)."""
    if len(result.wins) == 1:
        return result.is_win or result.wins[0] != Win()
    return not result.wins and not result.is_win


def needs_version(result: Result) -> int:
    """The format version a result needs: 2 for several wins or a payment ledger, else 1."""
    return SINGLE_WIN_VERSION if _single_win_form(result) and not result.payments else FORMAT_VERSION


def _payment_obj(payment: Payment, n_wins: int) -> dict[str, Any]:
    if type(payment.score) is not int or not isinstance(payment.reason, PaymentReason):
        raise _Unwritable(f"a payment needs an integer score and a reason: {payment!r}")
    obj: dict[str, Any] = {"seat": _seat(payment.seat), "score": payment.score,
                           "reason": payment.reason.value}
    if payment.win_no is not None:
        if type(payment.win_no) is not int or not 0 <= payment.win_no < n_wins:
            raise _Unwritable(f"payment win_no {payment.win_no!r} names no win")
        obj["win_no"] = payment.win_no
    return obj


def _result_obj(result: Result) -> dict[str, Any]:
    obj: dict[str, Any] = {"outcome": result.outcome.value}
    if _single_win_form(result):
        if result.wins:
            _win_obj(result.wins[0], obj)
    else:
        obj["wins"] = [_win_obj(win, {}) for win in result.wins]
    if result.scores is not None:
        obj["scores"] = [int(s) for s in result.scores]
    if result.payments:
        obj["payments"] = [_payment_obj(p, len(result.wins)) for p in result.payments]
    return obj


def _check_writable(hand: Hand) -> None:
    """Refuse what a reader would reject, rather than write a line nobody can read back."""
    for name in ("match_id", "profile"):
        if type(getattr(hand, name)) is not str or not getattr(hand, name):
            raise _Unwritable(f"{name} must be a non-empty string, got {getattr(hand, name)!r}")
    if hand.ruleset not in RULESETS:
        raise _Unwritable(f"unknown ruleset {hand.ruleset!r}")
    if len(hand.players) != 4 or (hand.styles and len(hand.styles) != 4):
        raise _Unwritable("players and styles need one entry per seat (4)")
    texts = [*hand.players, *hand.styles, *(x for pair in hand.meta for x in pair)]
    if not all(type(x) is str for x in texts):
        raise _Unwritable("players, styles and meta keys and values must be strings")
    if hand.hand_no < 0 or hand.streak < 0:
        raise _Unwritable("hand_no and streak must be >= 0")
    if hand.dice is not None and not (hand.dice and all(1 <= d <= 6 for d in hand.dice)):
        raise _Unwritable(f"dice must be 1..6: {hand.dice!r}")
    if hand.started_at is not None:
        try:
            datetime.fromisoformat(hand.started_at)
        except (TypeError, ValueError):
            raise _Unwritable(f"started_at is not ISO 8601: {hand.started_at!r}") from None
    where = hand.origin or hand.provenance
    if where is not None and (type(where.source) is not str or not where.source
                              or where.line < 1):
        raise _Unwritable(f"provenance needs a file name and a line >= 1: {where!r}")
    result = hand.result
    if result.scores is not None and len(result.scores) != 4:
        raise _Unwritable("result.scores needs one score per seat (4)")
    for win in result.wins:
        if any(type(f.name) is not str or not f.name or f.count < 0 for f in win.fans):
            raise _Unwritable("fans need a non-empty name and a count >= 0")
        if win.pattern == "" or (win.fan_total is not None and win.fan_total < 0):
            raise _Unwritable("result.pattern must not be empty, fan_total must be >= 0")


def _hand_obj(hand: Hand) -> dict[str, Any]:
    _check_writable(hand)
    obj: dict[str, Any] = {
        "v": needs_version(hand.result),
        "match_id": hand.match_id,
        "hand_no": int(hand.hand_no),
        "ruleset": hand.ruleset,
        "profile": hand.profile,
        "dealer": _seat(hand.dealer),
        "prevalent_wind": _seat(hand.prevalent_wind),
    }
    if hand.streak:
        obj["streak"] = int(hand.streak)
    if hand.gold is not None:
        obj["gold"] = _code(hand.gold)
    if tuple(hand.players) != _DEFAULT_PLAYERS:
        obj["players"] = list(hand.players)
    if hand.styles:
        obj["styles"] = list(hand.styles)
    if hand.started_at is not None:
        obj["started_at"] = hand.started_at
    if hand.dice is not None:
        obj["dice"] = [int(d) for d in hand.dice]
    if hand.wall is not None:
        obj["wall"] = [_code(t) for t in hand.wall]
    if hand.meta:
        obj["meta"] = dict(hand.meta)
        if len(obj["meta"]) != len(hand.meta):
            raise _Unwritable("meta has a repeated key")
    first = hand.origin or hand.provenance  # where the hand first came from; raw never written
    if first is not None:
        obj["source"] = {"file": first.source, "line": int(first.line)}
    return obj


def hand_to_json(hand: Hand) -> str:
    """One hand as its canonical JSON text (no trailing newline); deterministic to the byte.

    Raises RecordError if the hand holds a value the format cannot carry (not a tile, seat 5...).
    """
    try:
        head = _DUMP(_hand_obj(hand))
        events = ",".join([_event_text(e, i) for i, e in enumerate(hand.events)])
        result = _DUMP(_result_obj(hand.result))
    except (_Unwritable, TypeError, ValueError, AttributeError, KeyError) as exc:
        where = hand.provenance
        raise RecordError(
            f"cannot write hand {hand.hand_no} as canonical JSON: {exc}",
            source=where.source if where else None,
            line=where.line if where else None,
            match_id=hand.match_id,
        ) from None
    # "events" and "result" are the last keys: splice them in after the others
    text = f'{head[:-1]},"events":[{events}],"result":{result}}}'
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:  # a lone surrogate: no UTF-8 file can hold it
        raise RecordError(f"cannot write hand {hand.hand_no}: text is not valid Unicode at "
                          f"character {exc.start}", match_id=hand.match_id) from None
    # Line separators other than "\n" are escaped, so any line splitter keeps one hand per line.
    if "\u2028" in text or "\u2029" in text or "\x85" in text:
        text = text.translate(_LINE_BREAK_ESCAPES)
    return text


def write_canonical(hands: Iterable[Hand], dest: str | os.PathLike[str] | IO[Any]) -> int:
    """Write hands as canonical JSON Lines to a path (atomically) or an open stream.

    A path is written to a temporary file beside it and renamed into place only when every hand
    has been written. Returns the number of hands written.
    """
    if isinstance(dest, str | os.PathLike):
        path = Path(dest)
        # a unique name beside the target ("x": never clobber), created with the usual umask
        tmp = path.with_name(f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp")
        try:
            with open(tmp, "xb") as raw, open_text_writer(raw, path) as out:
                count = _write_lines(hands, out)
            os.replace(tmp, path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        return count
    if isinstance(dest, io.RawIOBase | io.BufferedIOBase):
        count = 0
        for hand in hands:
            dest.write((hand_to_json(hand) + "\n").encode("utf-8"))
            count += 1
        return count
    return _write_lines(hands, dest)


def _write_lines(hands: Iterable[Hand], out: IO[str]) -> int:
    count = 0
    for hand in hands:
        out.write(hand_to_json(hand) + "\n")
        count += 1
    return count


# --- reading ------------------------------------------------------------------------------------


class _Invalid(Exception):
    """A line that breaks the format; the message names the field (reported as RecordError)."""


def _tile(value: Any, where: str) -> Tile:
    try:
        return _TILE_OF[value]
    except (KeyError, TypeError):
        raise _Invalid(f"{where}: not a tile code (W1..W9 T1..T9 B1..B9 F1..F4 J1..J3 H1..H8): "
                       f"{value!r}") from None


def _tiles(value: Any, where: str) -> tuple[Tile, ...]:
    if type(value) is not list:
        raise _Invalid(f"{where}: expected a list of tile codes, got {_kind(value)}")
    try:
        return tuple([_TILE_OF[v] for v in value])
    except (KeyError, TypeError):
        for i, v in enumerate(value):
            _tile(v, f"{where}[{i}]")
        raise  # pragma: no cover - the loop above always raises


def _int(
    value: Any,
    where: str,
    low: int | None = None,
    high: int | None = None,
    *,
    column: tuple[int, int] | None = None,
) -> int:
    """An integer within the format's ``low``..``high`` and the dataset ``column``'s range."""
    if type(value) is not int:
        raise _Invalid(f"{where}: expected an integer, got {_kind(value)}")
    shown = value if value.bit_length() <= 64 else f"an integer of {value.bit_length()} bits"
    if (low is not None and value < low) or (high is not None and value > high):
        if high is None:
            raise _Invalid(f"{where}: must be >= {low}, got {shown}")
        raise _Invalid(f"{where}: {shown} out of range {low}..{high}")
    if column is not None and not column[0] <= value <= column[1]:
        raise _Invalid(f"{where}: {shown} does not fit the dataset's column "
                       f"(range {column[0]}..{column[1]})")
    return value


# The dataset's integer columns (mjstats.store.schema): a number outside its column's range is
# a reject naming the field here, at parse time, not an Arrow error when the table is built.
_INT16 = (-(1 << 15), (1 << 15) - 1)
_INT32 = (-(1 << 31), (1 << 31) - 1)
_INT64 = (-(1 << 63), (1 << 63) - 1)
_INT32_MAX, _INT64_MAX = _INT32[1], _INT64[1]


def _seat_of(value: Any, where: str) -> int:
    if type(value) is int and 0 <= value <= 3:
        return value
    return _int(value, where, 0, 3)


def _str(value: Any, where: str, *, empty: bool = True) -> str:
    if type(value) is not str:
        raise _Invalid(f"{where}: expected a string, got {_kind(value)}")
    if not empty and not value:
        raise _Invalid(f"{where}: must not be empty")
    return value


def _strs(value: Any, where: str, length: int) -> tuple[str, ...]:
    if type(value) is not list or len(value) != length:
        raise _Invalid(f"{where}: expected a list of {length} strings, got {_kind(value)}")
    return tuple(_str(v, f"{where}[{i}]") for i, v in enumerate(value))


def _obj(value: Any, where: str, keys: frozenset[str]) -> dict[str, Any]:
    if type(value) is not dict:
        raise _Invalid(f"{where}: expected an object, got {_kind(value)}")
    if not value.keys() <= keys:
        extra = sorted(value.keys() - keys)
        prefix = f"{where}: " if where else ""
        raise _Invalid(f"{prefix}unknown field {extra[0]!r}" if len(extra) == 1
                       else f"{prefix}unknown fields {', '.join(map(repr, extra))}")
    return value


def _no_nulls(value: dict[str, Any], where: str) -> None:
    """JSON null is never a value in this format: a field is present with its type or absent."""
    for key, item in value.items():
        if item is None:
            name = f"{where}.{key}" if where else key
            raise _Invalid(f"{name}: null is not allowed (leave the field out instead)")


def _kind(value: Any) -> str:
    """A JSON type name for error messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    return "an object"


def _events(raw_events: list[Any]) -> tuple[Event, ...]:
    """Every event of a hand. A tight loop reads well-formed events (the hot path of reading);
    when it stumbles, the detailed checks of :func:`_event` run and name the first fault."""
    try:
        return _events_fast(raw_events)
    except (_Invalid, KeyError, TypeError, AttributeError):
        return tuple([_event(raw, index) for index, raw in enumerate(raw_events)])


def _events_fast(raw_events: list[Any]) -> tuple[Event, ...]:
    """Read events with the fewest possible steps; raises on anything doubtful, message-less.

    (Measured: a column-wise version built on C-level ``map`` was no faster than this loop.)"""
    out: list[Event] = []
    append = out.append
    make = tuple.__new__
    kinds, tiles, wins, common = _KIND_OF, _TILE_OF, _WIN_OF, _COMMON_EVENT_KEYSET
    for index, raw in enumerate(raw_events):
        get = raw.get
        kind = kinds[raw["k"]]
        if None in raw.values():  # null is never a value: a field is present or absent
            raise _Invalid
        seat = get("s")
        if seat is not None and (seat.__class__ is not int or not 0 <= seat <= 3):
            raise _Invalid
        tile = get("t")
        if tile is not None:
            tile = tiles[tile]
        line = get("l")
        if line is not None and (line.__class__ is not int or not 1 <= line <= _INT64_MAX):
            raise _Invalid
        tail = get("tail", False)
        if tail.__class__ is not bool:
            raise _Invalid
        if raw.keys() <= common:  # only k, s, t, tail, l: draws, discards, flowers, kongs
            append(make(Event, (index, kind, seat, tile, (), None, None, tail, None, None, line)))
            continue
        if not raw.keys() <= _EVENT_KEYSET:
            raise _Invalid
        group = get("ts", ())
        if group.__class__ is list:
            group = tuple([tiles[t] for t in group])
        elif group != ():
            raise _Invalid
        from_seat = get("f")
        if from_seat is not None and (from_seat.__class__ is not int or not 0 <= from_seat <= 3):
            raise _Invalid
        claimed = get("c")
        if claimed is not None:
            claimed = tiles[claimed]
        claim = get("claim")
        if claim is not None and claim not in CLAIM_KINDS:
            raise _Invalid
        win = get("win")
        if win is not None:
            win = wins[win]
        seq = get("q", index)
        if seq.__class__ is not int or not 0 <= seq <= _INT32_MAX:
            raise _Invalid
        append(make(Event, (seq, kind, seat, tile, group, from_seat, claimed, tail, claim, win,
                            line)))
    return tuple(out)


def _event(raw: Any, index: int) -> Event:
    where = f"events[{index}]"
    if type(raw) is not dict or not raw.keys() <= _EVENT_KEYSET:
        _obj(raw, where, _EVENT_KEYSET)
    _no_nulls(raw, where)
    get = raw.get
    try:
        kind = _KIND_OF[raw["k"]]
    except KeyError:
        if "k" not in raw:
            raise _Invalid(f"{where}: missing required field 'k' (event kind)") from None
        raise _Invalid(f"{where}.k: unknown event kind {raw['k']!r}") from None
    except TypeError:
        raise _Invalid(f"{where}.k: expected a string, got {_kind(raw['k'])}") from None
    seat = get("s")
    if seat is not None:
        seat = _seat_of(seat, f"{where}.s")
    tile = get("t")
    if tile is not None:
        tile = _tile(tile, f"{where}.t")
    tiles = get("ts")
    tiles = () if tiles is None else _tiles(tiles, f"{where}.ts")
    from_seat = get("f")
    if from_seat is not None:
        from_seat = _seat_of(from_seat, f"{where}.f")
    claimed = get("c")
    if claimed is not None:
        claimed = _tile(claimed, f"{where}.c")
    tail = get("tail", False)
    if type(tail) is not bool:
        raise _Invalid(f"{where}.tail: expected a boolean, got {_kind(tail)}")
    claim = get("claim")
    if claim is not None and (type(claim) is not str or claim not in CLAIM_KINDS):
        raise _Invalid(f"{where}.claim: expected one of {', '.join(sorted(CLAIM_KINDS))}, "
                       f"got {claim!r}")
    win = get("win")
    if win is not None:
        try:
            win = _WIN_OF[win]
        except (KeyError, TypeError):
            raise _Invalid(f"{where}.win: unknown win kind {win!r} "
                           f"(expected one of {', '.join(_WIN_OF)})") from None
    line = get("l")
    if line is not None:
        line = _int(line, f"{where}.l", 1, column=_INT64)
    seq = get("q", index)
    if seq is not index:
        seq = _int(seq, f"{where}.q", 0, column=_INT32)
    return Event(seq, kind, seat, tile, tiles, from_seat, claimed, tail, claim, win, line)


def _fan(raw: Any, where: str) -> FanEntry:
    _obj(raw, where, _FAN_KEYSET)
    _no_nulls(raw, where)
    if "name" not in raw:
        raise _Invalid(f"{where}: missing required field 'name'")
    name = _str(raw["name"], f"{where}.name", empty=False)
    count = _int(raw.get("count", 1), f"{where}.count", 0, column=_INT16)
    points = raw.get("points")
    if points is not None:
        points = _int(points, f"{where}.points", column=_INT32)
    return FanEntry(name, count, points)


def _win(raw: dict[str, Any], where: str) -> Win:
    """The win fields of ``raw`` (the result object itself in the single-win form)."""
    get = raw.get
    winner = get("winner")
    if winner is not None:
        winner = _seat_of(winner, f"{where}.winner")
    loser = get("loser")
    if loser is not None:
        loser = _seat_of(loser, f"{where}.loser")
    win_tile = get("win_tile")
    if win_tile is not None:
        win_tile = _tile(win_tile, f"{where}.win_tile")
    self_drawn = get("self_drawn", False)
    if type(self_drawn) is not bool:
        raise _Invalid(f"{where}.self_drawn: expected a boolean, got {_kind(self_drawn)}")
    fan_total = get("fan_total")
    if fan_total is not None:
        fan_total = _int(fan_total, f"{where}.fan_total", 0, column=_INT32)
    fans_raw = get("fans", [])
    if type(fans_raw) is not list:
        raise _Invalid(f"{where}.fans: expected a list, got {_kind(fans_raw)}")
    fans = tuple(_fan(f, f"{where}.fans[{i}]") for i, f in enumerate(fans_raw))
    pattern = get("pattern")
    if pattern is not None:
        pattern = _str(pattern, f"{where}.pattern", empty=False)
    return Win(winner, loser, win_tile, self_drawn, fan_total, fans, pattern)


def _payment(raw: Any, where: str, n_wins: int) -> Payment:
    _obj(raw, where, _PAYMENT_KEYSET)
    _no_nulls(raw, where)
    for key in ("seat", "score", "reason"):
        if key not in raw:
            raise _Invalid(f"{where}: missing required field {key!r}")
    seat = _seat_of(raw["seat"], f"{where}.seat")
    score = _int(raw["score"], f"{where}.score", column=_INT64)
    reason = _REASON_OF.get(raw["reason"]) if type(raw["reason"]) is str else None
    if reason is None:
        raise _Invalid(f"{where}.reason: expected one of {', '.join(_REASON_OF)}, "
                       f"got {raw['reason']!r}")
    win_no = raw.get("win_no")
    if win_no is not None:
        win_no = _int(win_no, f"{where}.win_no", 0, column=_INT16)
        if win_no >= n_wins:
            raise _Invalid(f"{where}.win_no: {win_no} names no win (the result has {n_wins})")
    return Payment(seat, score, reason, win_no)


def _result(raw: Any, version: int = FORMAT_VERSION) -> Result:
    _obj(raw, "result", _RESULT_KEYSET if version >= 2 else _V1_RESULT_KEYSET)
    _no_nulls(raw, "result")
    if "outcome" not in raw:
        raise _Invalid("result: missing required field 'outcome'")
    try:
        outcome = _OUTCOME_OF[raw["outcome"]]
    except (KeyError, TypeError):
        outcome = raw["outcome"]
        raise _Invalid(f"result.outcome: expected 'win' or 'draw', got {outcome!r}") from None
    wins_raw = raw.get("wins")
    if wins_raw is None:  # the single-win form (all of version 1)
        win = _win(raw, "result")
        wins: tuple[Win, ...] = (win,) if outcome is Outcome.WIN or win != Win() else ()
    else:
        single = sorted(raw.keys() & _WIN_KEYSET)
        if single:
            raise _Invalid(f"result: {single[0]!r} belongs in result.wins when 'wins' is given")
        if type(wins_raw) is not list:
            raise _Invalid(f"result.wins: expected a list, got {_kind(wins_raw)}")
        items = []
        for i, item in enumerate(wins_raw):
            _obj(item, f"result.wins[{i}]", _WIN_KEYSET)
            _no_nulls(item, f"result.wins[{i}]")
            items.append(_win(item, f"result.wins[{i}]"))
        wins = tuple(items)
    scores = raw.get("scores")
    if scores is not None:
        if type(scores) is not list or len(scores) != 4:
            raise _Invalid(f"result.scores: expected a list of 4 integers, got {_kind(scores)}")
        scores = tuple(_int(s, f"result.scores[{i}]", column=_INT64) for i, s in enumerate(scores))
    payments_raw = raw.get("payments", [])
    if type(payments_raw) is not list:
        raise _Invalid(f"result.payments: expected a list, got {_kind(payments_raw)}")
    payments = tuple(_payment(p, f"result.payments[{i}]", len(wins))
                     for i, p in enumerate(payments_raw))
    try:
        return Result(outcome, scores=scores, wins=wins, payments=payments)
    except ValueError as exc:  # the ledger does not add up to the scores
        raise _Invalid(f"result.payments: {exc}") from None


def _version(obj: dict[str, Any]) -> int:
    if "v" not in obj:
        raise _Invalid("missing required field 'v' (canonical format version); "
                       "is this an mjstats canonical file?")
    version = obj["v"]
    if type(version) is int and 1 <= version <= FORMAT_VERSION:
        return version
    if type(version) is int and version > FORMAT_VERSION:
        raise _Invalid(f"unsupported canonical format version {version}: this mjstats reads "
                       f"versions 1 to {FORMAT_VERSION}; upgrade mjstats to read this line")
    if type(version) is not int:
        raise _Invalid(f"v: expected an integer format version, got {_kind(version)}")
    raise _Invalid(f"unsupported canonical format version {version}: this mjstats reads "
                   f"versions 1 to {FORMAT_VERSION}")


def _timestamp(value: Any) -> str:
    text = _str(value, "started_at")
    try:
        datetime.fromisoformat(text)
    except ValueError:
        raise _Invalid(f"started_at: not an ISO 8601 timestamp: {text!r}") from None
    return text


def _hand(obj: Any, source: str, line: int) -> Hand:
    if type(obj) is not dict:
        raise _Invalid(f"a line must hold one JSON object (a hand), got {_kind(obj)}")
    version = _version(obj)
    _obj(obj, "", _HAND_KEYSET)
    _no_nulls(obj, "")
    for key in _HAND_REQUIRED:
        if key not in obj:
            raise _Invalid(f"missing required field {key!r}")
    get = obj.get
    match_id = _str(obj["match_id"], "match_id", empty=False)
    hand_no = _int(obj["hand_no"], "hand_no", 0, column=_INT32)
    ruleset = _str(obj["ruleset"], "ruleset")
    if ruleset not in RULESETS:
        raise _Invalid(f"ruleset: expected one of {', '.join(sorted(RULESETS))}, got {ruleset!r}")
    profile = _str(obj["profile"], "profile", empty=False)
    dealer = _seat_of(obj["dealer"], "dealer")
    prevalent_wind = _seat_of(obj["prevalent_wind"], "prevalent_wind")
    streak = _int(get("streak", 0), "streak", 0, column=_INT16)
    gold = get("gold")
    if gold is not None:
        gold = _tile(gold, "gold")
    players = get("players")
    players = _DEFAULT_PLAYERS if players is None else _strs(players, "players", 4)
    styles = get("styles")
    styles = () if styles is None else _strs(styles, "styles", 4)
    started_at = get("started_at")
    if started_at is not None:
        started_at = _timestamp(started_at)
    dice = get("dice")
    if dice is not None:
        if type(dice) is not list or not dice:
            raise _Invalid(f"dice: expected a non-empty list of integers, got {_kind(dice)}")
        dice = tuple(_int(d, f"dice[{i}]", 1, 6) for i, d in enumerate(dice))
    wall = get("wall")
    if wall is not None:
        wall = _tiles(wall, "wall")
    meta_raw = get("meta")
    meta: tuple[tuple[str, str], ...] = ()
    if meta_raw is not None:
        if type(meta_raw) is not dict:
            raise _Invalid(f"meta: expected an object of strings, got {_kind(meta_raw)}")
        meta = tuple((k, _str(v, f"meta.{k}")) for k, v in meta_raw.items())
    # provenance is the file and line read; a recorded ``source`` (a copy of a hand first read
    # elsewhere) is kept as the hand's origin
    provenance = Provenance(source, line)
    origin = None
    src = get("source")
    if src is not None:
        _obj(src, "source", _SOURCE_KEYSET)
        _no_nulls(src, "source")
        if "file" not in src or "line" not in src:
            raise _Invalid("source: needs both 'file' and 'line'")
        origin = Provenance(_str(src["file"], "source.file", empty=False),
                            _int(src["line"], "source.line", 1, column=_INT64))
    events_raw = obj["events"]
    if type(events_raw) is not list:
        raise _Invalid(f"events: expected a list, got {_kind(events_raw)}")
    events = _events(events_raw)
    result = _result(obj["result"], version)
    return Hand(match_id, hand_no, ruleset, profile, dealer, prevalent_wind, events, result,
                players, styles, streak, gold, wall, dice, started_at, meta, provenance, origin)


def _match_id_of(obj: Any) -> str | None:
    if type(obj) is dict:
        match_id = obj.get("match_id")
        if type(match_id) is str and match_id:
            return match_id
    return None


def _match_id_in(text: str) -> str | None:
    """The match id of a line that is not valid UTF-8, if the rest of it still parses."""
    try:
        return _match_id_of(_LOAD(text))
    except (ValueError, RecursionError):
        return None


def _parse(text: str) -> Any:
    try:
        return _LOAD(text)
    except json.JSONDecodeError as exc:
        raise _Invalid(f"invalid JSON: {exc.msg} (column {exc.colno})") from None
    except (ValueError, RecursionError) as exc:  # huge integers, absurd nesting
        raise _Invalid(f"invalid JSON: {exc}") from None


def hand_from_json(text: str, *, source: str, line: int) -> Hand:
    """Read one canonical line; ``source``/``line`` say where the text is (for errors, and as
    provenance when the line has no ``source``). Raises RecordError naming the field at fault."""
    obj = None
    try:
        obj = _parse(text)
        return _hand(obj, source, line)
    except _Invalid as exc:
        raise RecordError(str(exc), source=source, line=line, match_id=_match_id_of(obj)) from None


Source = str | os.PathLike[str] | Iterable[str] | Iterable[bytes] | IO[str] | IO[bytes]


def read_canonical(
    source: Source, *, name: str | None = None, max_record_bytes: int | None = None
) -> Iterator[Hand | Reject]:
    """Read canonical JSON Lines from a path, an iterable of text lines or a (binary) stream.

    Yields a Hand per good line and a Reject (source, line, error, match id, raw line) per bad
    one, then goes on. Blank lines are skipped. Bytes are decoded as UTF-8 line by line, so a
    line of bad bytes is one Reject and the rest of the file is still read. A file or binary
    stream is read a block at a time: a line longer than ``max_record_bytes`` (default: the
    limits in force, 16 MiB) is a Reject holding its first bytes, never read whole.
    """
    if isinstance(source, bytes | bytearray):
        raise TypeError("read_canonical takes a path, lines or a stream, not one bytes object; "
                        "wrap it in io.BytesIO")
    if isinstance(source, str | os.PathLike):
        label = name if name is not None else str(os.fspath(source))
        with open_binary(source) as stream:
            for number, record in split_records(stream, max_record_bytes):
                yield parse_record(record, number, label)
        return
    label = name if name is not None else str(getattr(source, "name", "<lines>"))
    if hasattr(source, "read") and not isinstance(source, io.TextIOBase):
        for number, record in split_records(source, max_record_bytes):  # type: ignore[arg-type]
            yield parse_record(record, number, label)
        return
    limit = max_record_bytes if max_record_bytes is not None else current_limits().max_record_bytes
    yield from _read_lines(source, label, limit=limit)  # lines already in memory


def _read_lines(
    lines: Iterable[str | bytes], label: str, start: int = 1, limit: int | None = None
) -> Iterator[Hand | Reject]:
    for number, item in enumerate(lines, start):
        if limit is not None and isinstance(item, str | bytes) and len(item) > limit:
            head = item[:HEAD_BYTES]
            raw = head.decode("utf-8", "replace") if isinstance(head, bytes) else head
            yield Reject(label, number, too_long(limit), None, raw)
            continue
        if isinstance(item, bytes):
            try:
                text = item.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError as exc:
                raw = item.rstrip(b"\r\n").decode("utf-8", "backslashreplace")
                yield Reject(label, number, f"invalid UTF-8 at byte {exc.start + 1}: "
                             f"{exc.reason}", _match_id_in(item.decode("utf-8", "replace")), raw)
                continue
        elif isinstance(item, str):
            text = item.removeprefix("\ufeff") if number == 1 else item
        else:
            raise TypeError(f"read_canonical: line {number} is {type(item).__name__}, "
                            "not str or bytes")
        if not text or text.isspace():
            continue
        text = text.rstrip("\r\n")
        obj = None
        try:
            obj = _parse(text)
            yield _hand(obj, label, number)
        except _Invalid as exc:
            yield Reject(label, number, str(exc), _match_id_of(obj), text)


def split_records(
    lines: Iterable[bytes] | IO[bytes], max_record_bytes: int | None = None
) -> Iterator[tuple[int, bytes | Cut]]:
    """Cut a byte stream into records for batch parsing: one per non-blank line, with its number.

    A stream is read a block at a time (:func:`~mjstats.formats.limits.split_lines`): a line
    longer than ``max_record_bytes`` comes out as a Cut (its first bytes), as does the point
    where a stream stops (a truncated ``.gz``); a leading byte-order mark is dropped.
    """
    limit = max_record_bytes if max_record_bytes is not None else current_limits().max_record_bytes
    numbered: Iterable[tuple[int, bytes | Cut]] = (
        split_lines(lines, limit) if hasattr(lines, "read") else enumerate(lines, 1)  # type: ignore[arg-type]
    )
    for number, raw in numbered:
        if isinstance(raw, Cut):
            yield number, raw
        elif len(raw) > limit:
            yield number, Cut(raw[:HEAD_BYTES], too_long(limit))
        elif raw.strip():
            yield number, raw


def parse_record(record: bytes | Cut, line: int, source: str) -> Hand | Reject:
    """One canonical line (as cut by :func:`split_records`) as a Hand, or a Reject saying why."""
    if isinstance(record, Cut):
        return Reject(source, line, record.reason, None, record.head.decode("utf-8", "replace"))
    for parsed in _read_lines((record,), source, line):
        return parsed
    raise AssertionError("split_records yields only non-blank lines")  # pragma: no cover
