"""Reader for Botzone Chinese-Standard-Mahjong records, one match = one hand.

Grammar and quirks: ``shared/reference/botzone-format.md``. Every record becomes a
:class:`~mjstats.records.Hand` or a :class:`~mjstats.records.Reject`; a bad record never stops
the reader, which resynchronises at the next ``Match`` line.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from typing import Any, BinaryIO

from mjstats.formats import open_binary
from mjstats.formats.limits import BOM, HEAD_BYTES, Cut, InputStopped, current_limits, read_block, too_long
from mjstats.records import (
    CLAIM_KINDS,
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
from mjstats.rulesets import RECORDS_RULESET
from mjstats.tiles import ALL_KINDS, Tile

__all__ = [
    "BOTZONE_PROFILE",
    "INT16_RANGE",
    "INT32_RANGE",
    "INT64_RANGE",
    "BadLine",
    "parse_fans",
    "parse_number",
    "parse_record",
    "read_botzone",
    "split_records",
]

BOTZONE_PROFILE = "botzone"

# Botzone codes of the 34 kinds the data uses (flowers H1-H8 exist in the code set, never dealt).
_TILE: dict[str, Tile] = {t.botzone: t for t in ALL_KINDS}

_DEAL, _DRAW, _DISCARD = EventKind.DEAL, EventKind.DRAW, EventKind.DISCARD
_CHI, _PENG, _GANG = EventKind.CHI, EventKind.PENG, EventKind.GANG
_ANGANG, _BUGANG, _IGNORED, _HU = EventKind.ANGANG, EventKind.BUGANG, EventKind.IGNORED, EventKind.HU
_HUANG = EventKind.HUANG
# Events are built with tuple.__new__ and every field given in order: the named tuple's own
# __new__ is a Python function, and a record has a hundred events (a fifth of the parse time).
_event = tuple.__new__


class BadLine(Exception):
    """A defect in the record being parsed: the message and the line it is on (public: the
    store's Botzone fast lane runs the same number and fan checks)."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


RawLine = tuple[int, str | None]  # (1-based line number, text; None where the bytes were not UTF-8)


def split_records(
    lines: Iterable[bytes | str] | BinaryIO, max_record_bytes: int | None = None
) -> Iterator[tuple[int, bytes | Cut]]:
    """Cut physical lines into records: from a ``Match`` line to the next blank or ``Match`` line.

    Yields ``(first_line_number, record_bytes)`` with every line of the record ending in a
    newline. Lines outside any record come out as records of their own, so that they become
    rejects (nothing is dropped silently). Decoding is left to :func:`parse_record`.
    A binary stream (an open file) is cut in large blocks (:func:`_split_blocks`), which gives
    the same records several times faster than going line by line.

    A record longer than ``max_record_bytes`` (default: the limits in force, 16 MiB) comes out
    as a :class:`~mjstats.formats.limits.Cut` holding its first bytes, as does the point where
    a stream stops (a truncated ``.gz``); a leading UTF-8 byte-order mark is dropped.
    """
    limit = max_record_bytes if max_record_bytes is not None else current_limits().max_record_bytes
    if hasattr(lines, "read"):
        yield from _split_blocks(lines, limit)  # type: ignore[arg-type]
        return
    yield from _split_lines(_as_bytes(lines), 1, limit)


def _split_lines(
    lines: Iterable[bytes], first: int, limit: int | None = None, *, bom: bool = True
) -> Iterator[tuple[int, bytes | Cut]]:
    """The reference splitter: line by line, lines numbered from ``first``; ``bom``: a byte-order
    mark opening line 1 is dropped (False: the caller dropped it already)."""
    if limit is None:
        limit = current_limits().max_record_bytes
    group: list[bytes] = []
    size = 0
    start = 0
    for number, raw in enumerate(lines, first):
        if number == 1 and bom:
            raw = raw.removeprefix(BOM)
        if raw.isspace() or not raw:  # a blank line ends a record
            if group:
                yield start, _joined(group, size, limit)
                group, size = [], 0
            continue
        if group and raw.startswith(b"Match "):  # a record that lost its blank line
            yield start, _joined(group, size, limit)
            group, size = [], 0
        if not group:
            start = number
        if size <= limit:  # past the limit only the count goes on: the record is cut anyway
            group.append(raw)
        size += len(raw)
    if group:
        yield start, _joined(group, size, limit)


def _joined(group: list[bytes], size: int, limit: int) -> bytes | Cut:
    if size > limit:
        return Cut(b"".join(group)[:HEAD_BYTES], too_long(limit))
    return b"".join(group)


_BLOCK = 1 << 20


def _split_blocks(stream: BinaryIO, limit: int) -> Iterator[tuple[int, bytes | Cut]]:
    """Cut a binary stream at blank lines a megabyte at a time; records are then cut with C-level
    splits. A block with anything irregular (see ``_irregular``) goes through the line splitter.

    A record still without its end after ``limit`` bytes is cut (its first bytes kept) and the
    line it has reached is skipped to its end; the lines after it are read as usual.
    """
    line = 1  # number of the first line of ``pending``
    pending = b""
    skipping = False  # inside a line of a record already cut
    first = True
    while True:
        chunk = read_block(stream, _BLOCK)
        if isinstance(chunk, InputStopped):
            # the records before ``pending`` are out; what was read of the next one is the reject
            record = pending.lstrip(b"\n")  # the blank lines before it
            yield line + len(pending) - len(record), Cut(record[:HEAD_BYTES], str(chunk))
            return
        if first:
            first = False
            chunk = chunk.removeprefix(BOM)
        if skipping and chunk:
            end = chunk.find(b"\n")
            if end < 0:
                continue
            chunk = chunk[end + 1 :]
            line += 1
            skipping = False
            if not chunk:
                continue
        if chunk:
            pending += chunk
            cut = pending.rfind(b"\n\n")
            if cut < 0:
                if len(pending) > limit:
                    yield line, Cut(pending[:HEAD_BYTES], too_long(limit))
                    line += pending.count(b"\n")
                    skipping = not pending.endswith(b"\n")
                    pending = b""
                continue
            block, pending = pending[: cut + 1], pending[cut + 1 :]
        else:
            block, pending = pending, b""
            if not block:
                return
            if not block.endswith(b"\n"):
                block += b"\n"
        # ``block`` ends with a newline and ``pending`` starts at the line after it
        records, lines = _records_of_block(block, line, limit)
        yield from records
        line += lines
        if not chunk:
            return


# bytes that make a line start with white space other than its newline (bytes.isspace's set):
# such a line may be blank to the line splitter, so a block holding one goes through it
_LINE_SPACE = b" \t\r\x0b\x0c"
_SPACE_STARTS = frozenset(bytes([c]) for c in _LINE_SPACE)
_NEWLINE, _M = ord("\n"), ord("M")


def _records_of_block(block: bytes, first: int, limit: int) -> tuple[list[tuple[int, bytes | Cut]], int]:
    """The records of a block with their first lines' numbers (counted from ``first``), and the
    block's number of lines. The block ends with a newline; its first line is the file's first or
    follows a blank line. Its newlines are found once (numpy): the checks that cutting at "\\n\\n"
    gives the line splitter's records and every record's line number come from them, instead of
    a regular-expression pass and a newline count per record (a third of the splitter's time)."""
    import numpy as np  # here, not at the top: commands that read no records load no numpy

    data = np.frombuffer(block, np.uint8)
    ends = np.flatnonzero(data == _NEWLINE)  # each line's newline; the last one ends the block
    if _irregular(block, data, ends):
        # lines end at "\n" only, as when iterating over the file (a lone "\r" is not a break)
        lines = (line + b"\n" for line in block.split(b"\n")[:-1])
        # the file's byte-order mark went with its first block: a second one is the line's own
        return list(_split_lines(lines, first, limit, bom=False)), len(ends)
    # block = P0 "\n\n" P1 "\n\n" ... Pn: a part starts after the newlines before it, each one
    # line (a part with k newlines spans k + 1 lines, the separator's second newline is blank)
    parts = block.split(b"\n\n")
    offsets = np.zeros(len(parts), np.intp)
    np.cumsum(np.fromiter(map(len, parts), np.intp, len(parts))[:-1] + 2, out=offsets[1:])
    starts = (np.searchsorted(ends, offsets) + first).tolist()
    out: list[tuple[int, bytes | Cut]] = []
    for part, line in zip(parts, starts, strict=True):
        if not part or part[:1] == b"\n":  # more blank lines before the record (or only them)
            stripped = part.lstrip(b"\n")
            if not stripped:
                continue
            line += len(part) - len(stripped)
            part = stripped
        record = part if part[-1:] == b"\n" else part + b"\n"
        if len(record) > limit:
            out.append((line, Cut(record[:HEAD_BYTES], too_long(limit))))
        else:
            out.append((line, record))
    return out, len(ends)


def _irregular(block: bytes, data: Any, ends: Any) -> bool:
    """Whether cutting at "\\n\\n" could differ from the line splitter: a line starting with
    white space (it may be blank to the line splitter), or a Match line right after a non-blank
    line. ``data``: the block's bytes as a numpy array; ``ends``: the positions of its newlines."""
    import numpy as np

    if block[:1] in _SPACE_STARTS:
        return True
    starts = ends[:-1] + 1  # every line's start but the block's first line's
    heads = data[starts]
    space = np.zeros(256, np.bool_)
    space[list(_LINE_SPACE)] = True
    if space[heads].any():
        return True
    # a Match line whose line before is not blank: the byte before that line's newline is not a
    # newline (at the second line, that byte is the block's last, a newline: the first line is
    # blank); the block's first line follows a blank line
    late = starts[(heads == _M) & (data[starts - 2] != _NEWLINE)]
    return any(block.startswith(b"Match ", at) for at in late.tolist())


def _as_bytes(lines: Iterable[bytes | str]) -> Iterator[bytes]:
    """Lines as bytes, each ending in a newline (file lines already are; lists may not be)."""
    for line in lines:
        if isinstance(line, str):
            line = line.encode("utf-8", "surrogateescape")
        yield line if line.endswith(b"\n") else line + b"\n"


def _decode(start: int, record: bytes) -> tuple[list[RawLine], str]:
    """A record's lines (decoded at once; line by line only when not all UTF-8) and its text."""
    try:
        text = record.decode("utf-8")
    except UnicodeDecodeError:
        out: list[RawLine] = []
        for i, raw in enumerate(record.split(b"\n")[:-1]):
            try:
                out.append((start + i, raw.decode("utf-8").rstrip("\r")))
            except UnicodeDecodeError:
                out.append((start + i, None))
        return out, "\n".join(t if t is not None else "<invalid UTF-8>" for _, t in out)
    body = text.split("\n")
    body.pop()  # every line ends in a newline: the last piece is empty
    return [(start + i, t.rstrip("\r")) for i, t in enumerate(body)], text.rstrip("\n")


def parse_record(record: bytes | Cut, start: int, source: str) -> Hand | Reject:
    """One record (as cut by :func:`split_records`) as a Hand, or a Reject saying why not."""
    if isinstance(record, Cut):
        head = record.head.decode("utf-8", "replace")
        first = head.split("\n", 1)
        match_id = _match_id([(start, first[0])]) if len(first) > 1 else None
        return Reject(source=source, line=start, error=record.reason, match_id=match_id, raw=head)
    group, raw = _decode(start, record)
    try:
        return _parse_record(group, source, start, raw)
    except BadLine as bad:
        return Reject(source=source, line=bad.line, error=str(bad), match_id=_match_id(group), raw=raw)


def read_botzone(
    source: str | os.PathLike[str] | BinaryIO | Iterable[bytes | str],
    *,
    name: str | None = None,
    max_record_bytes: int | None = None,
) -> Iterator[Hand | Reject]:
    """Read Botzone records from a path, a binary stream or an iterable of lines.

    ``name`` is the source name written into provenance and rejects (default: the path).
    A record longer than ``max_record_bytes`` (default: the limits in force, 16 MiB) is a
    reject holding its first bytes.
    """
    if isinstance(source, str | os.PathLike):
        label = name or str(source)
        with open_binary(source) as stream:
            for start, record in split_records(stream, max_record_bytes):
                yield parse_record(record, start, label)
        return
    label = name or "<input>"
    for start, record in split_records(source, max_record_bytes):
        yield parse_record(record, start, label)


def _match_id(group: list[RawLine]) -> str | None:
    text = group[0][1]
    if text is not None and text.startswith("Match "):
        parts = text.split()
        if len(parts) == 2:
            return parts[1]
    return None


_SEATS = {"0": 0, "1": 1, "2": 2, "3": 3}

# Ranges of the dataset's integer columns (mjstats.store.schema): a number outside its column's
# range is a reject naming the field here, not an Arrow error when the table is built.
INT16_RANGE = (-(1 << 15), (1 << 15) - 1)
INT32_RANGE = (-(1 << 31), (1 << 31) - 1)
INT64_RANGE = (-(1 << 63), (1 << 63) - 1)
_DIGITS = re.compile(r"[0-9]+")
_INTEGER = re.compile(r"[+-]?[0-9]+")


def parse_number(word: str, what: str, bounds: tuple[int, int], line: int) -> int:
    """An ASCII decimal integer within ``bounds`` (a short word: no 4,300-digit conversions)."""
    if len(word) > 25 or not _INTEGER.fullmatch(word):
        if _INTEGER.fullmatch(word):
            raise BadLine(f"{what} out of range {bounds[0]}..{bounds[1]}: {word[:30]}...", line)
        raise BadLine(f"non-integer {what} {word[:60]!r}", line)
    value = int(word)
    if not bounds[0] <= value <= bounds[1]:
        raise BadLine(f"{what} out of range {bounds[0]}..{bounds[1]}: {value}", line)
    return value


def _tile(code: str, line: int) -> Tile:
    tile = _TILE.get(code)
    if tile is None:
        raise BadLine(f"bad tile code {code!r}", line)
    return tile


def _seat(word: str, line: int) -> int:
    seat = _SEATS.get(word)
    if seat is None:
        raise BadLine(f"bad player number {word!r} (expected 0..3)", line)
    return seat


def _parse_record(group: list[RawLine], source: str, start: int, raw: str) -> Hand:
    for number, text in group:
        if text is None:
            raise BadLine("invalid UTF-8", number)
    first = group[0][1] or ""
    match_id = _match_id(group)
    if match_id is None:
        raise BadLine(f"expected 'Match <id>', found {first[:60]!r}", start)
    if len(group) < 2:
        raise BadLine("truncated record: no Wind line", start)
    wind_line, wind_text = group[1]
    wind_parts = wind_text.split() if wind_text else []
    if len(wind_parts) != 2 or wind_parts[0] != "Wind" or wind_parts[1] not in ("0", "1", "2", "3"):
        raise BadLine(f"expected 'Wind <0..3>', found {wind_text!r}", wind_line)
    prevalent = int(wind_parts[1])

    events: list[Event] = []
    result: Result | None = None
    pending_win: tuple[int, Tile, int | None, bool, WinKind | None, int] | None = None
    fans: tuple[FanEntry, ...] = ()
    fan_total: int | None = None
    last_discard: tuple[int, Tile] | None = None  # (seat, tile) of the latest Play
    prev: Event | None = None
    dealt = 0
    seq = 0
    outcome: Outcome | None = None

    for number, text in group[2:]:
        words = text.split()  # type: ignore[union-attr]  # UTF-8 checked above
        if not words:  # white space the splitter does not take for a blank line (U+3000, ...)
            raise BadLine(f"a line of white space only: {text!r}", number)
        head = words[0]
        if result is not None:
            raise BadLine(f"unexpected line after Score: {text[:60]!r}", number)  # type: ignore[index]
        if head == "Player":
            if len(words) < 3:
                raise BadLine(f"incomplete action line {text!r}", number)
            seat = _SEATS.get(words[1])
            if seat is None:
                seat = _seat(words[1], number)
            verb = words[2]
            if outcome is not None:
                raise BadLine(f"action after the hand ended: {text!r}", number)
            if verb == "Deal":
                tiles = tuple(map(_TILE.get, words[3:]))
                if None in tiles:
                    tiles = tuple(_tile(w, number) for w in words[3:])  # raises on the bad code
                if len(tiles) != 13:
                    raise BadLine(f"a deal has 13 tiles, found {len(tiles)}", number)
                event = _event(Event, (seq, _DEAL, seat, None, tiles, None, None, False, None, None, number))
                dealt += 1
            else:
                if dealt != 4:
                    raise BadLine(f"{verb} before all four deals", number)
                if len(words) < 4:
                    raise BadLine(f"{verb} without a tile", number)
                tile = _TILE.get(words[3]) or _tile(words[3], number)
                # the two commonest lines first: they are nine in ten of a record
                if verb == "Draw":
                    event = _event(Event, (seq, _DRAW, seat, tile, (), None, None, False, None, None, number))
                elif verb == "Play":
                    event = _event(
                        Event, (seq, _DISCARD, seat, tile, (), None, None, False, None, None, number)
                    )
                    last_discard = (seat, tile)
                elif verb == "Chi":
                    from_seat, claimed = last_discard if last_discard else (None, None)
                    event = _event(
                        Event, (seq, _CHI, seat, tile, (), from_seat, claimed, False, None, None, number)
                    )
                elif verb in ("Peng", "Gang"):
                    kind = _PENG if verb == "Peng" else _GANG
                    from_seat = last_discard[0] if last_discard else None
                    event = _event(
                        Event, (seq, kind, seat, tile, (), from_seat, None, False, None, None, number)
                    )
                elif verb == "AnGang":
                    event = _event(
                        Event, (seq, _ANGANG, seat, tile, (), None, None, False, None, None, number)
                    )
                elif verb == "BuGang":
                    event = _event(
                        Event, (seq, _BUGANG, seat, tile, (), None, None, False, None, None, number)
                    )
                elif verb == "Hu":
                    # quirk: a self-drawn Hu names the last discard; the win tile is the tile of
                    # the same player's Draw on the line before (reference botzone-format.md).
                    if prev is not None and prev.kind is _DRAW and prev.seat == seat:
                        tile, from_seat, self_drawn, win_kind = prev.tile, None, True, None  # type: ignore[assignment]
                    elif prev is not None and prev.kind is _BUGANG and prev.seat != seat:
                        # robbing an added kong: Hu names the kong tile, the konger pays
                        from_seat, self_drawn, win_kind = prev.seat, False, WinKind.ROB_KONG
                    else:
                        from_seat = last_discard[0] if last_discard else None
                        self_drawn, win_kind = False, None
                    event = _event(
                        Event, (seq, _HU, seat, tile, (), from_seat, None, False, None, win_kind, number)
                    )
                    pending_win = (seat, tile, from_seat, self_drawn, win_kind, number)
                    outcome = Outcome.WIN
                else:
                    raise BadLine(f"unknown action {verb!r}", number)
            events.append(event)
            prev = event
            seq += 1
            if len(words) > 4 and verb != "Deal":
                seq = _ignored_claims(words[4:], number, events, seq, verb)
        elif head == "Fan":
            if outcome is not Outcome.WIN:
                raise BadLine("Fan line without a Hu", number)
            fan_total, fans = parse_fans(words, number)
        elif head == "Score":
            if outcome is None:
                raise BadLine("Score line before the hand ended", number)
            if len(words) != 5:
                raise BadLine(f"a Score line has 4 scores, found {len(words) - 1}", number)
            scores = tuple(parse_number(w, "score", INT64_RANGE, number) for w in words[1:])
            if outcome is Outcome.WIN:
                assert pending_win is not None
                if fan_total is None:
                    raise BadLine("win without a Fan line", number)
                winner, win_tile, loser, self_drawn, _, _ = pending_win
                result = Result(
                    Outcome.WIN, winner, loser, win_tile, self_drawn, fan_total, fans, scores, None
                )
            else:
                result = Result(Outcome.DRAW, scores=scores)
        elif head == "Huang":
            if outcome is not None:
                raise BadLine("Huang after the hand ended", number)
            if dealt != 4:
                raise BadLine("Huang before all four deals", number)
            events.append(_event(Event, (seq, _HUANG, None, None, (), None, None, False, None, None, number)))
            seq += 1
            outcome = Outcome.DRAW
        else:
            raise BadLine(f"unknown line {head!r}", number)

    if dealt != 4:
        raise BadLine(f"truncated record: {dealt} of 4 deals", group[-1][0])
    if result is None:
        raise BadLine("truncated record: no Score line", group[-1][0])
    return Hand(
        match_id=match_id,
        hand_no=0,
        ruleset=RECORDS_RULESET,
        profile=BOTZONE_PROFILE,
        dealer=0,
        prevalent_wind=prevalent,
        events=tuple(events),
        result=result,
        provenance=Provenance(source, start, raw),
    )


def _ignored_claims(words: list[str], number: int, events: list[Event], seq: int, verb: str) -> int:
    """Parse ``Ignore Player k Act T`` clauses (Act in any case) into IGNORED events."""
    if verb not in ("Peng", "Gang", "Hu", "Chi"):
        raise BadLine(f"unexpected words after {verb}: {' '.join(words)!r}", number)
    if len(words) % 5:
        raise BadLine(f"malformed Ignore clause {' '.join(words)!r}", number)
    for i in range(0, len(words), 5):
        ignore, player, seat_word, act, tile_code = words[i : i + 5]
        claim = act.lower()
        if ignore.lower() != "ignore" or player != "Player" or claim not in CLAIM_KINDS:
            raise BadLine(f"malformed Ignore clause {' '.join(words[i : i + 5])!r}", number)
        seat = _seat(seat_word, number)
        tile = _tile(tile_code, number)
        events.append(_event(Event, (seq, _IGNORED, seat, tile, (), None, None, False, claim, None, number)))
        seq += 1
    return seq


def parse_fans(words: list[str], number: int) -> tuple[int, tuple[FanEntry, ...]]:
    """``Fan <total> <name>*<count>+<name>*<count>...``: count is occurrences, not points."""
    if len(words) < 2:
        raise BadLine("Fan line without a total", number)
    total = parse_number(words[1], "fan total", INT32_RANGE, number)
    if len(words) > 3:
        raise BadLine(f"unexpected words in Fan line: {' '.join(words[3:])!r}", number)
    entries: list[FanEntry] = []
    if len(words) == 3:
        for item in words[2].split("+"):
            name, star, count = item.rpartition("*")
            if not star or not name or not _DIGITS.fullmatch(count):
                raise BadLine(f"malformed fan item {item[:60]!r} (expected name*count)", number)
            times = parse_number(count, "fan count", INT16_RANGE, number)
            if times < 1:
                raise BadLine(f"malformed fan item {item[:60]!r} (a count is at least 1)", number)
            entries.append(FanEntry(name, times))
    return total, tuple(entries)
