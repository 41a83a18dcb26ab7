"""Reader for PMN (Portable Majiang Notation): MCR boards as mahjongsoft.com publishes them.

A PMN file holds one or more boards; a board is a block of PGN-style tag pairs ``[Name "value"]``
(the moves are the ``Play`` tag's value). Each board becomes one MCR
:class:`~mjstats.records.Hand` or a :class:`~mjstats.records.Reject` naming the source, line and
match; a bad board never stops the reader. What becomes what: docs/formats.md, section PMN.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable, Iterator
from datetime import date
from typing import BinaryIO

from mjstats.formats import open_binary
from mjstats.formats.limits import HEAD_BYTES, Cut, current_limits, split_lines, too_long
from mjstats.records import (
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
from mjstats.rulesets import RECORDS_RULESET, get
from mjstats.tiles import Tile, parse_tile

__all__ = ["PMN_PROFILES", "parse_record", "read_pmn", "split_records"]

_RULESET = get(RECORDS_RULESET)  # the ruleset of the platform records this reader reads
_FAN_NAMES = _RULESET.load(_RULESET.fan_names or "")  # its platforms' fan names -> ours

# Scoring tag -> the hand's rule profile (the replay profile of the same name scores it)
PMN_PROFILES = {"mcr": "mcr", "duplicate": "duplicate", "duplicate mcr": "duplicate"}
UNKNOWN_SCORING = "pmn"  # a board without a Scoring tag: play is checked, scores are not

_SUITS = {"c": "W", "d": "B", "b": "T", "w": "F", "r": "J", "f": "H"}  # PMN suit -> Botzone letter
_SUIT_RANGE = {"c": 9, "d": 9, "b": 9, "w": 4, "r": 3, "f": 8}
_WINDS = {"E": 0, "S": 1, "W": 2, "N": 3, "EAST": 0, "SOUTH": 1, "WEST": 2, "NORTH": 3}
_SEAT_TAGS = ("East", "South", "West", "North")
_TAG = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_MOVE = re.compile(r"([TDCPABZRHMN])([0-3]?)((?:[cdbwrfz][0-9])?)")
_FAN_ITEM = re.compile(r"(\d+)/(\d+)(?:/(\d+))?")
_DATE = re.compile(r"(\d{4})[.\-/](\d{2})[.\-/](\d{2})")
_MAHJONGSOFT = re.compile(r"mahjongsoft\.com/.*[?&]session=(\d+).*[?&]game=(\d+).*[?&]table=(\d+)")


class _Bad(Exception):
    """A defect of the board being read: the message and the line it is on."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


# --- cutting a file into boards -----------------------------------------------------------------


def split_records(
    lines: Iterable[bytes | str], max_record_bytes: int | None = None
) -> Iterator[tuple[int, bytes | Cut]]:
    """Cut a PMN file into boards: ``(first line number, the board's bytes)``.

    A board ends at a blank line outside a ``{...}`` comment, or where a tag it already has
    appears again (boards written without a blank line between them). Text that is no board
    still comes out as a record, so it becomes a reject: nothing is dropped silently. A board
    longer than ``max_record_bytes`` (default: the limits in force) comes out as a
    :class:`~mjstats.formats.limits.Cut` with its first bytes, as does the point where a
    compressed source stopped; the rest of that board is skipped, never held.
    """
    limit = max_record_bytes if max_record_bytes is not None else current_limits().max_record_bytes
    numbered: Iterable[tuple[int, bytes | str | Cut]] = (
        split_lines(lines, limit) if hasattr(lines, "read") else enumerate(lines, 1)  # type: ignore[arg-type]
    )
    board: list[bytes] = []
    size = 0
    start = 0
    names: set[bytes] = set()
    depth = 0  # inside a {...} comment spanning lines
    cut: Cut | None = None  # the board being skipped: too long
    for number, item in numbered:
        if isinstance(item, Cut):  # a line too long, or the stream stopped
            if board or cut is not None:
                yield start, cut or b"".join(board)
            yield number, item
            board, names, size, cut = [], set(), 0, None
            continue
        raw = item.encode("utf-8", "surrogateescape") if isinstance(item, str) else item
        if number == 1:
            raw = raw.removeprefix(b"\xef\xbb\xbf")
        if not raw.endswith(b"\n"):
            raw += b"\n"
        text = raw.strip()
        if depth == 0 and not text:
            if board or cut is not None:
                yield start, cut or b"".join(board)
                board, names, size, cut = [], set(), 0, None
            continue
        tag = _tag_name(text) if depth == 0 else None
        if tag is not None and tag in names and (board or cut is not None):
            yield start, cut or b"".join(board)
            board, names, size, cut = [], set(), 0, None
        if tag is not None:
            names.add(tag)
        if not board and cut is None:
            start = number
        depth = _comment_depth(raw, depth)
        if cut is not None:
            continue
        size += len(raw)
        if limit is not None and size > limit:
            cut = Cut((b"".join(board) + raw)[:HEAD_BYTES], too_long(limit))
            board = []
            continue
        board.append(raw)
    if board or cut is not None:
        yield start, cut or b"".join(board)


def _tag_name(text: bytes) -> bytes | None:
    """The tag name of a line that starts with a tag pair (``[Name "..."``), else None."""
    match = re.match(rb"\[\s*([A-Za-z][A-Za-z0-9_]*)\s", text)
    return match.group(1) if match else None


def _comment_depth(raw: bytes, depth: int) -> int:
    """Whether a ``{`` comment is still open after this line (quotes and ``;`` respected)."""
    quoted = False
    for byte in raw:
        char = chr(byte)
        if depth:
            if char == "}":
                depth = 0
        elif quoted:
            if char == '"':
                quoted = False
        elif char == '"':
            quoted = True
        elif char == ";":
            break
        elif char == "{":
            depth = 1
    return depth


# --- reading ------------------------------------------------------------------------------------


def read_pmn(
    source: str | os.PathLike[str] | BinaryIO | Iterable[bytes | str], *, name: str | None = None
) -> Iterator[Hand | Reject]:
    """Read PMN boards from a path, a binary stream or an iterable of lines.

    ``name`` labels provenance and rejects (default: the path).
    """
    if isinstance(source, str | os.PathLike):
        label = name or str(source)
        with open_binary(source) as stream:
            for start, record in split_records(stream):
                yield parse_record(record, start, label)
        return
    label = name or str(getattr(source, "name", "<input>"))
    for start, record in split_records(source):
        yield parse_record(record, start, label)


def parse_record(record: bytes | Cut, start: int, source: str) -> Hand | Reject:
    """One board (as cut by :func:`split_records`) as a Hand, or a Reject saying why not."""
    if isinstance(record, Cut):
        return Reject(source, start, record.reason, None, record.head.decode("utf-8", "replace"))
    raw = record.decode("utf-8", "backslashreplace").rstrip("\r\n")
    tags: dict[str, tuple[str, int]] = {}
    try:
        try:
            text = record.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = start + record[: exc.start].count(b"\n")
            raise _Bad(f"invalid UTF-8 at byte {exc.start + 1}: {exc.reason}", line) from None
        tags = _tags(text, start)
        return _board(tags, source, start, raw)
    except _Bad as bad:
        if not tags:  # the tags could not all be read: name the match from those that can
            tags = {m.group(1): (m.group(2), 0) for m in _TAG.finditer(raw)}
        return Reject(source=source, line=bad.line, error=str(bad), match_id=_safe_match_id(tags), raw=raw)


def _tags(text: str, start: int) -> dict[str, tuple[str, int]]:
    """Tag name -> (value, line): comments ``{...}`` and ``; ...`` and ``%`` escape lines
    skipped; any other text outside a tag pair is an error."""
    tags: dict[str, tuple[str, int]] = {}
    line = start
    pos = 0
    n = len(text)
    while pos < n:
        char = text[pos]
        if char == "\n":
            line += 1
            pos += 1
        elif char.isspace():
            pos += 1
        elif char == "{":
            end = text.find("}", pos)
            if end < 0:
                raise _Bad("a '{' comment is never closed", line)
            line += text.count("\n", pos, end)
            pos = end + 1
        elif char == ";" or (char == "%" and (pos == 0 or text[pos - 1] == "\n")):
            end = text.find("\n", pos)
            pos = n if end < 0 else end
        elif char == "[":
            match = _TAG.match(text, pos)
            if match is None:
                raise _Bad(f"not a tag pair [Name \"value\"]: {_excerpt(text, pos)}", line)
            name, value = match.group(1), match.group(2).replace('\\"', '"').replace("\\\\", "\\")
            if name in tags:
                raise _Bad(f"tag {name} given twice in one board", line)
            tags[name] = (value, line)
            line += match.group(0).count("\n")
            pos = match.end()
        else:
            raise _Bad(f"text outside a tag pair: {_excerpt(text, pos)}", line)
    return tags


def _excerpt(text: str, pos: int) -> str:
    return repr(text[pos : pos + 30].split("\n")[0])


def _safe_match_id(tags: dict[str, tuple[str, int]]) -> str | None:
    try:
        return _match_id(tags)
    except _Bad:
        return None


def _match_id(tags: dict[str, tuple[str, int]]) -> str | None:
    """mahjongsoft's session, game and table where the Site URL has them; else a digest of the
    board's identifying tags (the same board in another file gets the same id)."""
    if not tags:
        return None
    site = tags.get("Site", ("", 0))[0]
    found = _MAHJONGSOFT.search(site)
    if found:
        return "mahjongsoft-{}-{}-{}".format(*found.groups())
    keys = ("Event", "Site", "Date", *_SEAT_TAGS)
    if not any(k in tags for k in keys):
        keys = ("Deal", "Play")  # nothing names the match: the board's own content does
    text = "\x1f".join(tags.get(k, ("", 0))[0] for k in keys)
    return "pmn-" + hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:20]


def _need(tags: dict[str, tuple[str, int]], name: str, start: int) -> tuple[str, int]:
    if name not in tags:
        raise _Bad(f"missing tag {name}", start)
    return tags[name]


def _tile(suit: str, digit: str, line: int, where: str) -> Tile:
    number = int(digit)
    if not 1 <= number <= _SUIT_RANGE[suit]:
        raise _Bad(f"{where}: no tile {suit}{digit} (a {suit} tile is 1..{_SUIT_RANGE[suit]})", line)
    return parse_tile(f"{_SUITS[suit]}{number}")


def _deal(value: str, line: int) -> list[tuple[Tile, ...]]:
    """Four hands ``c<digits>d<digits>b<digits>w<digits>r<digits>f<digits>`` (any suit order)."""
    hands = value.split()
    if len(hands) != 4:
        raise _Bad(f"Deal: expected 4 hands, got {len(hands)}", line)
    out = []
    for seat, text in enumerate(hands):
        if not re.fullmatch(r"(?:[cdbwrf]\d*)+", text):
            raise _Bad(f"Deal: hand {seat} is not c..d..b..w..r..f.. digits: {text!r}", line)
        tiles = [_tile(group[0], digit, line, "Deal") for group in re.findall(r"[cdbwrf]\d*", text)
                 for digit in group[1:]]
        out.append(tuple(tiles))
    return out


def _scores(tags: dict[str, tuple[str, int]], name: str) -> tuple[int, ...] | None:
    if name not in tags:
        return None
    value, line = tags[name]
    parts = value.split()
    if len(parts) != 4 or not all(re.fullmatch(r"[+-]?\d+", p) for p in parts):
        raise _Bad(f"{name}: expected 4 integer scores, got {value!r}", line)
    return tuple(int(p) for p in parts)


def _fans(value: str, line: int) -> list[tuple[tuple[FanEntry, ...], int | None] | None]:
    """Per seat: None (``None``), or (fans, fan total) from ``id/points/count`` items joined by
    ``.`` (``id/count`` in python-majiang's own example: total unknown)."""
    fields = value.split()
    if len(fields) != 4:
        raise _Bad(f"Fan: expected 4 fields (None for a seat that did not win), got {len(fields)}", line)
    out: list[tuple[tuple[FanEntry, ...], int | None] | None] = []
    for seat, field in enumerate(fields):
        if field.lower() == "none":
            out.append(None)
            continue
        entries = []
        total: int | None = 0
        for item in field.split("."):
            match = _FAN_ITEM.fullmatch(item)
            if match is None:
                raise _Bad(f"Fan: seat {seat}: not id/points/count: {item!r}", line)
            number = int(match.group(1))
            name = _FAN_NAMES.fan_name_of_id(number)
            if name is None:
                raise _Bad(f"Fan: seat {seat}: fan number {number} is not one of 1..81", line)
            if match.group(3) is None:  # id/count
                count, points = int(match.group(2)), None
                total = None
            else:
                points, count = int(match.group(2)), int(match.group(3))
                if total is not None:
                    total += points * count
            entries.append(FanEntry(name, count, points))
        out.append((tuple(entries), total))
    return out


class _Play:
    """The Play string turned into events, with what the result needs (wins, the end)."""

    def __init__(self, deal: list[tuple[Tile, ...]], deal_line: int, line: int) -> None:
        self.line = line
        self.events: list[Event] = [
            Event(seat, EventKind.DEAL, seat, tiles=tiles, line=deal_line) for seat, tiles in enumerate(deal)
        ]
        self.drawn: dict[int, Tile] = {}  # seat -> the tile it just drew (z1)
        self.replacing: set[int] = set()  # seats owed a replacement draw (after R or a kong)
        self.wins: list[tuple[int, int | None, Tile | None, bool, WinKind | None]] = []
        self.huang = False

    def add(self, kind: EventKind, seat: int | None, **fields: object) -> None:
        self.events.append(Event(len(self.events), kind, seat, line=self.line, **fields))  # type: ignore[arg-type]

    def last_play(self) -> Event | None:
        """The last event that is not a Hu (several seats may win on one discard)."""
        for ev in reversed(self.events):
            if ev.kind is not EventKind.HU:
                return ev
        return None

    def move(self, action: str, seat: int | None, tile: Tile | None, text: str) -> None:
        line = self.line
        if action in "TDCPABZR" and (seat is None or (tile is None and action != "D")):
            raise _Bad(f"Play: {text!r} needs a seat and a tile", line)
        last = self.last_play()
        if action == "T":
            assert seat is not None
            self.add(EventKind.DRAW, seat, tile=tile, tail=seat in self.replacing)
            self.replacing.discard(seat)
            self.drawn[seat] = tile  # type: ignore[assignment]
        elif action == "D":
            self.add(EventKind.DISCARD, seat, tile=tile)
        elif action in "CPZ":
            if last is None or last.kind is not EventKind.DISCARD:
                raise _Bad(f"Play: {text!r} claims, but the move before it is no discard", line)
            if action == "C":
                self.add(EventKind.CHI, seat, tile=tile, from_seat=last.seat, claimed=last.tile)
            else:
                kind = EventKind.PENG if action == "P" else EventKind.GANG
                self.add(kind, seat, tile=tile, from_seat=last.seat)
                if action == "Z":
                    self.replacing.add(seat)  # type: ignore[arg-type]
        elif action in "AB":
            self.add(EventKind.ANGANG if action == "A" else EventKind.BUGANG, seat, tile=tile)
            self.replacing.add(seat)  # type: ignore[arg-type]
        elif action == "R":
            assert tile is not None
            if not tile.is_flower:
                raise _Bad(f"Play: {text!r} replaces a tile that is no flower", line)
            self.add(EventKind.FLOWER, seat, tile=tile)
            self.replacing.add(seat)  # type: ignore[arg-type]
        elif action in "HM":  # M: the hu of python-majiang's own published example
            self.hu(seat, last, text)
        elif action == "N":
            self.add(EventKind.HUANG, None)
            self.huang = True

    def hu(self, seat: int | None, last: Event | None, text: str) -> None:
        """A win: on the tile just drawn, the last discard, or an added kong (robbed)."""
        if seat is None:
            raise _Bad(f"Play: {text!r} names no seat", self.line)
        if last is None:
            raise _Bad(f"Play: {text!r} before any move", self.line)
        if last.kind is EventKind.DRAW and last.seat == seat:
            win = (seat, None, last.tile, True, None)
            self.add(EventKind.HU, seat, tile=last.tile)
        elif last.kind is EventKind.DISCARD and last.seat != seat:
            win = (seat, last.seat, last.tile, False, None)
            self.add(EventKind.HU, seat, tile=last.tile, from_seat=last.seat)
        elif last.kind is EventKind.BUGANG and last.seat != seat:
            win = (seat, last.seat, last.tile, False, WinKind.ROB_KONG)
            self.add(EventKind.HU, seat, tile=last.tile, from_seat=last.seat, win=WinKind.ROB_KONG)
        else:
            # no winning tile to name: keep the Hu as recorded and let the audit judge it
            win = (seat, None, None, False, None)
            self.add(EventKind.HU, seat)
        self.wins.append(win)


def _play(value: str, line: int, deal: list[tuple[Tile, ...]], deal_line: int) -> _Play:
    play = _Play(deal, deal_line, line)
    text = re.sub(r"\s+", "", value)
    pos = 0
    while pos < len(text):
        match = _MOVE.match(text, pos)
        if match is None or match.end() == pos:
            raise _Bad(f"Play: cannot read the move at character {pos + 1}: {text[pos : pos + 8]!r}", line)
        action, seat_text, tile_text = match.groups()
        seat = int(seat_text) if seat_text else None
        tile: Tile | None = None
        if tile_text == "z1":  # the tile just drawn by the seat
            if seat is None or seat not in play.drawn:
                raise _Bad(f"Play: {match.group(0)!r}: seat has drawn no tile", line)
            tile = play.drawn[seat]
        elif tile_text:
            if tile_text[0] == "z":
                raise _Bad(f"Play: {match.group(0)!r}: z only as z1 (the tile just drawn)", line)
            tile = _tile(tile_text[0], tile_text[1], line, "Play")
        elif action in "TDCPABZR":
            raise _Bad(f"Play: {match.group(0)!r} names no tile", line)
        play.move(action, seat, tile, match.group(0))
        pos = match.end()
    return play


def _started_at(tags: dict[str, tuple[str, int]]) -> str | None:
    if "Date" not in tags:
        return None
    value, line = tags["Date"]
    found = _DATE.fullmatch(value.strip())
    if found is None:
        if "?" in value:  # PGN's unknown parts ("2022.??.??"): the date is not known
            return None
        raise _Bad(f"Date: expected YYYY.MM.DD, got {value!r}", line)
    year, month, day = found.groups()
    try:
        return date(int(year), int(month), int(day)).isoformat()
    except ValueError:
        raise _Bad(f"Date: no such day {value!r}", line) from None


def _board(tags: dict[str, tuple[str, int]], source: str, start: int, raw: str) -> Hand:
    if not tags:
        raise _Bad("no tag pairs: not a PMN board", start)
    match_id = _match_id(tags)
    assert match_id is not None
    deal_text, deal_line = _need(tags, "Deal", start)
    deal = _deal(deal_text, deal_line)
    play_text, play_line = _need(tags, "Play", start)
    play = _play(play_text, play_line, deal, deal_line)
    hand_no = 0
    if "Board" in tags:
        board, line = tags["Board"]
        if not board.strip().isdigit():
            raise _Bad(f"Board: expected a board number, got {board!r}", line)
        hand_no = int(board)
    wind = 0
    if "PWind" in tags:
        value, line = tags["PWind"]
        if value.strip().upper() not in _WINDS:
            raise _Bad(f"PWind: expected E, S, W or N, got {value!r}", line)
        wind = _WINDS[value.strip().upper()]
    profile = UNKNOWN_SCORING
    if "Scoring" in tags:
        value, line = tags["Scoring"]
        profile = PMN_PROFILES.get(" ".join(value.lower().split()), "")
        if not profile:
            raise _Bad(f"Scoring: expected MCR or Duplicate, got {value!r}", line)
    result = _result(tags, play, start)
    players = tuple(tags.get(seat, ("", 0))[0] for seat in _SEAT_TAGS)
    meta = tuple(sorted((k.lower(), v) for k, (v, _) in tags.items()
                        if k in ("Event", "Site", "Date", "Board", "Starting", "Penalty", "Scoring")))
    return Hand(
        match_id=match_id,
        hand_no=hand_no,
        ruleset=RECORDS_RULESET,
        profile=profile,
        dealer=0,  # East deals every board: seats 0-3 are East..North
        prevalent_wind=wind,
        events=tuple(play.events),
        result=result,
        players=players,
        started_at=_started_at(tags),
        meta=meta,
        provenance=Provenance(source, start, raw),
    )


def _result(tags: dict[str, tuple[str, int]], play: _Play, start: int) -> Result:
    """Wins in the order of the Hu moves, fans from the Fan tag, scores from Result (+ Penalty)."""
    fans = _fans(*tags["Fan"]) if "Fan" in tags else [None] * 4
    winners = [w[0] for w in play.wins]
    fan_line = tags.get("Fan", ("", start))[1]
    for seat, entry in enumerate(fans):
        if entry is not None and seat not in winners:
            raise _Bad(f"Fan: seat {seat} has fans but never declares Hu", fan_line)
    wins = []
    for seat, loser, tile, self_drawn, _kind in play.wins:
        entry = fans[seat]
        recorded, total = entry if entry is not None else ((), None)
        wins.append(Win(seat, loser, tile, self_drawn, total, recorded))
    scores = _scores(tags, "Result")
    penalty = _scores(tags, "Penalty")
    payments: list[Payment] = []
    if scores is not None and penalty is not None and any(penalty):
        # Result is the board's play score; Penalty what the referee took or gave on top
        reason = PaymentReason.WIN if wins else PaymentReason.SETTLEMENT
        win_no = 0 if len(wins) == 1 else None
        payments = [Payment(seat, score, reason, win_no) for seat, score in enumerate(scores)]
        payments += [Payment(seat, score, PaymentReason.PENALTY) for seat, score in enumerate(penalty)
                     if score]
        scores = None  # the net: Result + Penalty, summed from the ledger
    outcome = Outcome.WIN if wins else Outcome.DRAW
    return Result(outcome, scores=scores, wins=tuple(wins), payments=tuple(payments))
