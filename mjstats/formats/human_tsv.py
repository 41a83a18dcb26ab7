"""Reader for the 2017 human-play logs: one tab-separated file per hand.

Layout (shared/reference/real-formats.md section 2; docs/formats.md): line 1 the ``.xml`` the
hand was converted from (its number is the match), line 2 the prevalent wind, the winner's
gain, the fans as ``'name-points'`` items and the result, lines 3-6 each seat's starting tiles
and the flowers it set aside at the deal, then one action a line. The hand number is the file
name's trailing number (``2017-01-01-<n>.txt``). Fans are mapped to our
names by the records' ruleset's ``fan_names`` part (the registry); a name we cannot map is a reject naming it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import BinaryIO

from mjstats.formats import open_binary
from mjstats.records import Event, EventKind, FanEntry, Hand, Outcome, Provenance, Reject, Result, WinKind
from mjstats.rulesets import RECORDS_RULESET, get
from mjstats.tiles import ALL_KINDS, Tile

__all__ = ["DEAL_FLOWERS_META", "GAIN_META", "PROFILE", "parse_record", "read_human_tsv", "split_records"]

_RULESET = get(RECORDS_RULESET)  # the ruleset of the platform records this reader reads
_FAN_NAMES = _RULESET.load(_RULESET.fan_names or "")  # its platforms' fan names -> ours

PROFILE = "human2017"  # the platform's rules: one wall of 144 with flowers, dealer dealt 14
GAIN_META = "gain"  # Hand.meta: the winner's recorded gain (line 2)
DEAL_FLOWERS_META = "deal_flowers"  # Hand.meta: flowers each seat set aside at the deal, "a,b,c,d"

_TILE: dict[str, Tile] = {t.botzone: t for t in ALL_KINDS}
_WINDS = {"东": 0, "南": 1, "西": 2, "北": 3}
_RESULTS = {"和牌": (Outcome.WIN, False), "自摸": (Outcome.WIN, True), "荒庄": (Outcome.DRAW, False)}
_DRAW_MARK = "荒庄"  # '荒庄-0' in a drawn hand's fan list: the result, not a fan
_XML = re.compile(r"(\d+)\.xml\s*$")
_FILE = re.compile(r"(?:(\d{4}-\d{2}-\d{2})-)?(\d+)\.txt(?:\.gz)?$")
_DATE_DIR = re.compile(r"(\d{4}-\d{2}-\d{2})[/\\]\d+\.xml\s*$")
_QUOTED = re.compile(r"'((?:[^'\\]|\\.)*)'|\"((?:[^\"\\]|\\.)*)\"")


class _Bad(Exception):
    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


def split_records(stream: BinaryIO | Iterable[bytes]) -> Iterator[tuple[int, bytes]]:
    """A file is one hand: one record (none for an empty file)."""
    data = stream.read() if hasattr(stream, "read") else b"".join(stream)  # type: ignore[union-attr]
    if data.strip():
        yield 1, data


def read_human_tsv(source: str | os.PathLike[str], *, name: str | None = None) -> Iterator[Hand | Reject]:
    """Read one hand file (``.gz`` too); ``name`` is the source name to record (its file name
    gives the hand number and date)."""
    label = name or str(source)
    with open_binary(source) as stream:
        for start, record in split_records(stream):
            yield parse_record(record, start, label)


def parse_record(record: bytes, start: int, source: str) -> Hand | Reject:
    """One file's bytes as a Hand, or a Reject naming the line at fault."""
    raw = record.decode("utf-8", "replace")
    match_id = None
    try:
        try:
            text = record.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = record[: exc.start].count(b"\n") + 1
            raise _Bad("invalid UTF-8", line) from None
        lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        while lines and not lines[-1].strip():
            lines.pop()
        found = _XML.search(lines[0]) if lines else None
        if found is None:
            raise _Bad(f"line 1: expected the source .xml path, found {lines[0][:60]!r}", 1)
        match_id = found.group(1)
        return _parse(lines, source, match_id, raw)
    except _Bad as bad:
        return Reject(source=source, line=start + bad.line - 1, error=str(bad), match_id=match_id, raw=raw)


def _list(field: str, line: int) -> list[str]:
    """A Python-style list of quoted strings (``['W1','W2']``), read without evaluating it."""
    if field.startswith("['") and field.endswith("']") and " " not in field and '"' not in field:
        items = field[2:-2].split("','")  # the platform's own spelling: the fast path
        if "'" not in "".join(items) and "\\" not in field:
            return items
    body = field.strip()
    if not (body.startswith("[") and body.endswith("]")):
        raise _Bad(f"expected a list like ['W1','W2'], found {field[:60]!r}", line)
    inner = body[1:-1].strip()
    items = [a if a else b for a, b in _QUOTED.findall(inner)]
    if _QUOTED.sub("", inner).replace(",", "").strip():
        raise _Bad(f"expected a list of quoted items, found {field[:60]!r}", line)
    return items


def _tile(code: str, line: int) -> Tile:
    tile = _TILE.get(code.strip())
    if tile is None:
        raise _Bad(f"bad tile code {code!r}", line)
    return tile


def _seat(word: str, line: int) -> int:
    if word.strip() not in ("0", "1", "2", "3"):
        raise _Bad(f"bad seat {word!r} (expected 0..3)", line)
    return int(word)


def _fans(items: list[str], line: int, drawn: bool) -> tuple[int, tuple[FanEntry, ...]]:
    """``'name-points'`` items (points = the fan's total: 花牌-2 is two flowers) as our fans."""
    total = 0
    fans = []
    for item in items:
        name, dash, points_text = item.rpartition("-")
        if not dash or not name or not points_text.strip().isdigit():
            raise _Bad(f"malformed fan item {item!r} (expected 'name-points')", line)
        points = int(points_text)
        if drawn and name == _DRAW_MARK:
            continue
        try:
            ours = _FAN_NAMES.our_fan_name(name, _FAN_NAMES.HUMAN_2017_FAN_NAMES)
        except KeyError:
            raise _Bad(
                f"unknown fan name {name!r} (not among the fan names of {_RULESET.title})", line
            ) from None
        unit = _FAN_NAMES.FAN_BY_NAME[ours].points
        if points < unit or points % unit:
            raise _Bad(f"fan {name!r} worth {points}: not a multiple of its {unit}", line)
        fans.append(FanEntry(ours, points // unit, unit))
        total += points
    return total, tuple(fans)


def _hand_number(source: str) -> tuple[int, str | None]:
    found = _FILE.search(Path(source).name)
    if found is None:
        raise _Bad(f"the file name {Path(source).name!r} has no trailing hand number (…-<n>.txt)", 1)
    return int(found.group(2)), found.group(1)


def _parse(lines: list[str], source: str, match_id: str, raw: str) -> Hand:
    hand_no, date = _hand_number(source)
    if date is None:
        in_path = _DATE_DIR.search(lines[0])
        date = in_path.group(1) if in_path else None
    if len(lines) < 6:
        raise _Bad(f"truncated: {len(lines)} lines, the header alone has 6", len(lines))
    head = lines[1].split("\t")
    if len(head) < 3:
        raise _Bad("line 2: expected wind, gain, fans, and the result", 2)
    if head[0].strip() not in _WINDS:
        raise _Bad(f"line 2: bad prevalent wind {head[0]!r} (expected 东南西北)", 2)
    wind = _WINDS[head[0].strip()]
    gain = head[1].strip()
    if not gain.lstrip("-").isdigit():
        raise _Bad(f"line 2: the gain {head[1]!r} is not an integer", 2)
    result_word = next((f.strip() for f in reversed(head[3:]) if f.strip()), "")
    if result_word not in _RESULTS:
        raise _Bad(f"line 2: unknown result {result_word!r} (expected 和牌, 自摸 or 荒庄)", 2)
    outcome, self_drawn = _RESULTS[result_word]
    fan_total, fans = _fans(_list(head[2], 2), 2, outcome is Outcome.DRAW)

    events: list[Event] = []
    sizes = []
    deal_flowers = []
    for seat_line in range(2, 6):
        number = seat_line + 1
        fields = lines[seat_line].split("\t")
        if len(fields) < 3:
            raise _Bad("expected seat, starting tiles and flowers set aside", number)
        seat = _seat(fields[0], number)
        if seat != seat_line - 2:
            raise _Bad(f"seat lines go 0..3: found seat {seat} on line {number}", number)
        tiles = tuple(_tile(t, number) for t in _list(fields[1], number))
        flowers = fields[2].strip()
        if not flowers.isdigit():
            raise _Bad(f"flowers set aside {fields[2]!r} is not a count", number)
        deal_flowers.append(flowers)
        sizes.append(len(tiles))
        events.append(Event(len(events), EventKind.DEAL, seat, tiles=tiles, line=number))
    dealers = [s for s, n in enumerate(sizes) if n == 14]
    if len(dealers) != 1:
        raise _Bad(f"no single dealer: starting hands of {sizes} tiles (the dealer has 14)", 3)
    dealer = dealers[0]

    hu_events: list[Event] = []
    for index in range(6, len(lines)):
        number = index + 1
        if not lines[index].strip():
            continue  # a blank line between actions carries nothing
        for event in _actions(lines[index], number, len(events), events[-1]):
            events.append(event)
            if event.kind is EventKind.HU:
                hu_events.append(event)

    if outcome is Outcome.WIN:
        if not hu_events:
            raise _Bad(f"result {result_word} but no 和牌 line", len(lines))
        win = hu_events[-1]
        result = Result(Outcome.WIN, win.seat, win.from_seat, win.tile, self_drawn, fan_total, fans, None)
    else:
        # the platform writes no line for the exhaustive draw: the hand ends with the wall
        events.append(Event(len(events), EventKind.HUANG, line=len(lines)))
        result = Result(Outcome.DRAW, fan_total=fan_total, fans=fans)
    meta = ((DEAL_FLOWERS_META, ",".join(deal_flowers)), (GAIN_META, gain))
    return Hand(
        match_id=match_id,
        hand_no=hand_no,
        ruleset=RECORDS_RULESET,
        profile=PROFILE,
        dealer=dealer,
        prevalent_wind=wind,
        events=tuple(events),
        result=result,
        started_at=date,
        meta=meta,
        provenance=Provenance(source, 1, raw),
    )


_SIMPLE = {
    "摸牌": (EventKind.DRAW, False),
    "补花后摸牌": (EventKind.DRAW, True),
    "杠后摸牌": (EventKind.DRAW, True),
    "打牌": (EventKind.DISCARD, False),
    "补花": (EventKind.FLOWER, False),
    "暗杠": (EventKind.ANGANG, False),
    "补杠": (EventKind.BUGANG, False),
}
_CLAIMS = {"吃": EventKind.CHI, "碰": EventKind.PENG, "明杠": EventKind.GANG}


def _actions(text: str, number: int, seq: int, prev: Event) -> list[Event]:
    """One action line as its events (one, or one per flower of a 补花 line listing several)."""
    fields = text.split("\t")
    if len(fields) < 3:
        raise _Bad(f"expected seat, action and tiles, found {text[:60]!r}", number)
    seat = _seat(fields[0], number)
    action = fields[1].strip()
    tiles = [_tile(t, number) for t in _list(fields[2], number)]
    extra = [f.strip() for f in fields[3:] if f.strip()]
    if not tiles:
        raise _Bad(f"{action} without a tile", number)
    if action in _SIMPLE:
        kind, tail = _SIMPLE[action]
        if kind is EventKind.FLOWER:  # each flower set aside is an event of its own
            return [Event(seq + i, kind, seat, t, line=number) for i, t in enumerate(tiles)]
        # a kong line lists its four tiles (all alike), the other lines one
        want = 4 if kind in (EventKind.ANGANG, EventKind.BUGANG) else 1
        if len(tiles) not in (1, want) or len(set(tiles)) != 1:
            raise _Bad(f"{action} lists {len(tiles)} tiles {''.join(t.botzone for t in tiles)}", number)
        return [Event(seq, kind, seat, tiles[0], tail=tail, line=number)]
    if action in _CLAIMS or action == "和牌":
        if len(extra) < 2:
            raise _Bad(f"{action} needs the claimed tile and the seat it came from", number)
        claimed = _tile(extra[0], number)
        giver = _seat(extra[1], number)
        if action == "和牌":
            if giver == seat:  # a self-draw names the winner itself
                return [Event(seq, EventKind.HU, seat, claimed, line=number)]
            robbed = prev.kind is EventKind.BUGANG and prev.seat == giver
            win = WinKind.ROB_KONG if robbed else None
            return [Event(seq, EventKind.HU, seat, claimed, from_seat=giver, win=win, line=number)]
        kind = _CLAIMS[action]
        if kind is EventKind.CHI:
            if len(tiles) != 3:
                raise _Bad(f"a chow lists three tiles, found {len(tiles)}", number)
            middle = sorted(tiles)[1]
            return [Event(seq, kind, seat, middle, from_seat=giver, claimed=claimed, line=number)]
        return [Event(seq, kind, seat, claimed, from_seat=giver, line=number)]
    raise _Bad(f"unknown action {action!r}", number)
