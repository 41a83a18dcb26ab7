"""Reader for Botzone match logs in JSON (Chinese Standard Mahjong, one match = one hand).

Three wrappers (shared/reference/real-formats.md section 1; docs/formats.md): a ``*_lite.json``
object (``logs`` + ``players`` + ``initdata``, a JSON string holding the wall), the bare log
array a local judge saves, and the bare array of ``display`` objects. Every wrapper is read
through its display objects; a file is one record and becomes one Hand or one Reject naming
the file, the entry and the match. A ``*_metadata.json`` beside a log is not a record: it
yields nothing here (the log's reader takes the match id and names from it).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

from mjstats.formats import open_binary
from mjstats.formats.detect import is_companion
from mjstats.records import Event, EventKind, FanEntry, Hand, Outcome, Provenance, Reject, Result, WinKind
from mjstats.rulesets import RECORDS_RULESET, get
from mjstats.tiles import ALL_KINDS, Tile

__all__ = [
    "CAN_HU_META",
    "content_match_id",
    "draw_order",
    "format_can_hu",
    "parse_can_hu",
    "parse_record",
    "read_botzone_json",
    "split_records",
]

_RULESET = get(RECORDS_RULESET)  # the ruleset of the platform records this reader reads
_FAN_NAMES = _RULESET.load(_RULESET.fan_names or "")  # its platforms' fan names -> ours

PROFILE = "botzone"  # the same platform rules as the text records (replay.botzone)
CAN_HU_META = "can_hu"  # Hand.meta key of the judge's canHu values (see format_can_hu)
WALL_SIZE = 136
_TILE: dict[str, Tile] = {t.botzone: t for t in ALL_KINDS}
_LITE_NAME = re.compile(r"^([0-9a-f]{24})_lite\.json(?:\.gz)?$")


class _Bad(Exception):
    """A defect in the log: the message names the entry."""


def split_records(stream: BinaryIO | Iterable[bytes]) -> Iterator[tuple[int, bytes]]:
    """The whole file is one record (a JSON document); a metadata file or an empty one is none."""
    data = stream.read() if hasattr(stream, "read") else b"".join(stream)  # type: ignore[union-attr]
    if data.strip():
        yield 1, data


def read_botzone_json(source: str | os.PathLike[str], *, name: str | None = None) -> Iterator[Hand | Reject]:
    """Read one Botzone JSON log file (``.gz`` too); ``name`` is the source name to record."""
    if is_companion(source):
        return
    label = name or str(source)
    with open_binary(source) as stream:
        for start, record in split_records(stream):
            yield parse_record(record, start, label)


def draw_order(walltiles: list[Tile]) -> tuple[Tile, ...]:
    """Botzone's ``walltiles`` as ``Hand.wall``: seat 0's wall, then seat 1's, ..., each in the
    order it is drawn. Botzone's seat s owns walltiles[34s:34s+34] and pops from its end
    (real-formats.md section 1), so each 34-tile part is reversed: the convention the
    simulator writes too (docs/simulation.md), one meaning of ``Hand.wall`` for the profile."""
    per_seat = WALL_SIZE // 4
    return tuple(t for s in range(4) for t in reversed(walltiles[per_seat * s : per_seat * (s + 1)]))


def content_match_id(obj: Any) -> str:
    """A match id from the whole content: the first 24 hex digits of the SHA-256 of the JSON
    canonicalised (sorted keys, no white space), so key order, CRLF or indentation do not
    change it while any change of a deal, a move or a player does."""
    text = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]


def format_can_hu(values: Iterable[tuple[int, tuple[int, ...]]]) -> str:
    """``(seq, four canHu values)`` pairs as the stored text ``seq:v0,v1,v2,v3`` joined by spaces."""
    return " ".join(f"{seq}:{','.join(map(str, four))}" for seq, four in values)


def parse_can_hu(text: str) -> dict[int, tuple[int, ...]]:
    """The inverse of :func:`format_can_hu`: event seq -> the four canHu values after it.

    Raises ValueError on text that is not in that form."""
    out: dict[int, tuple[int, ...]] = {}
    for item in text.split():
        seq, _, values = item.partition(":")
        four = tuple(int(v) for v in values.split(","))
        if len(four) != 4:
            raise ValueError(f"canHu entry {item!r} does not have 4 values")
        out[int(seq)] = four
    return out


def parse_record(record: bytes, start: int, source: str) -> Hand | Reject:
    """One file's bytes as a Hand, or a Reject naming the entry at fault."""
    raw = record.decode("utf-8", "replace")
    match_id = None
    try:
        try:
            text = record.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise _Bad(f"invalid UTF-8 at byte {exc.start}") from None
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise _Bad(f"invalid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None
        except (ValueError, RecursionError) as exc:
            raise _Bad(f"invalid JSON: {exc}") from None
        wrapper = _Wrapper.of(obj, source)
        match_id = wrapper.match_id
        return _Log(wrapper, source, start, raw).hand()
    except _Bad as bad:
        return Reject(source=source, line=start, error=str(bad), match_id=match_id, raw=raw)


class _Wrapper:
    """What surrounds the displays: the match id, players, the wall, the wind and the seed."""

    def __init__(self) -> None:
        self.kind = ""
        self.entries: list[Any] = []
        self.match_id = ""
        self.players: tuple[str, ...] = ("", "", "", "")
        self.wall: tuple[Tile, ...] | None = None
        self.quan: int | None = None
        self.srand: str | None = None

    @classmethod
    def of(cls, obj: Any, source: str) -> _Wrapper:
        w = cls()
        metadata = _sibling_metadata(source)
        if isinstance(obj, dict):
            if not isinstance(obj.get("logs"), list):
                raise _Bad("not a Botzone match log: an object without a 'logs' list")
            w.kind = "lite"
            w.entries = obj["logs"]
            init = obj.get("initdata")
            if init is None and metadata is not None:
                init = metadata.get("initdata")
            w.read_init(init)
            w.read_players(obj.get("players") or (metadata or {}).get("players"))
            mid = obj.get("matchId") or obj.get("_id") or (metadata or {}).get("matchId")
            if mid is None:
                named = _LITE_NAME.match(Path(source).name)
                mid = named.group(1) if named else None
            if mid is not None and not isinstance(mid, str):
                raise _Bad(f"matchId: expected a string, got {type(mid).__name__}")
            w.match_id = mid or content_match_id(obj)
        elif isinstance(obj, list):
            if not obj:
                raise _Bad("an empty log array")
            first = obj[0]
            if isinstance(first, dict) and "action" in first and "output" not in first:
                w.kind = "display"
            else:
                w.kind = "log"
            w.entries = obj
            w.match_id = content_match_id(obj)
        else:
            raise _Bad(f"not a Botzone match log: a JSON {type(obj).__name__}")
        return w

    def read_init(self, init: Any) -> None:
        if init is None:
            return
        if isinstance(init, str):  # the _lite.json wrapper keeps initdata as a JSON string
            try:
                init = json.loads(init) if init.strip() else {}
            except ValueError as exc:
                raise _Bad(f"initdata: not a JSON object ({exc})") from None
        if not isinstance(init, dict):
            raise _Bad(f"initdata: expected an object, got {type(init).__name__}")
        if "quan" in init:
            self.quan = _wind(init["quan"], "initdata.quan")
        if "srand" in init:
            self.srand = str(init["srand"])
        walltiles = init.get("walltiles")
        if walltiles is not None:
            codes = walltiles.split() if isinstance(walltiles, str) else walltiles
            if not isinstance(codes, list):
                raise _Bad("initdata.walltiles: expected a string of tile codes")
            tiles = [_tile(c, "initdata.walltiles") for c in codes]
            if len(tiles) != WALL_SIZE:
                raise _Bad(f"initdata.walltiles: {len(tiles)} tiles, expected {WALL_SIZE}")
            self.wall = draw_order(tiles)

    def read_players(self, players: Any) -> None:
        if players is None:
            return
        if not isinstance(players, list) or len(players) != 4:
            raise _Bad("players: expected a list of 4 players")
        names = []
        for i, p in enumerate(players):
            name = p.get("name", "") if isinstance(p, dict) else p
            if not isinstance(name, str):
                raise _Bad(f"players[{i}].name: expected a string")
            names.append(name)
        self.players = tuple(names)


def _sibling_metadata(source: str) -> dict[str, Any] | None:
    """The ``<id>_metadata.json`` beside a ``<id>_lite.json``, when there is one and it parses."""
    path = Path(source)
    named = _LITE_NAME.match(path.name)
    if not named:
        return None
    meta_path = path.with_name(f"{named.group(1)}_metadata.json")
    try:
        obj = json.loads(meta_path.read_bytes().decode("utf-8-sig"))
    except (OSError, ValueError):
        return None
    return obj if isinstance(obj, dict) else None


def _tile(code: Any, where: str) -> Tile:
    tile = _TILE.get(code) if isinstance(code, str) else None
    if tile is None:
        raise _Bad(f"{where}: bad tile code {code!r}")
    return tile


def _wind(value: Any, where: str) -> int:
    if isinstance(value, bool) or value not in (0, 1, 2, 3):
        raise _Bad(f"{where}: expected a wind 0..3, got {value!r}")
    return int(value)


def _seat(value: Any, where: str) -> int:
    if isinstance(value, str) and value in ("0", "1", "2", "3"):
        return int(value)
    if isinstance(value, bool) or value not in (0, 1, 2, 3):
        raise _Bad(f"{where}: expected a seat 0..3, got {value!r}")
    return int(value)


def _ints(value: Any, where: str, n: int = 4) -> tuple[int, ...]:
    if isinstance(value, dict):  # the finish command's content: {"0": s0, ...}
        try:
            value = [value[str(s)] for s in range(n)]
        except KeyError:
            raise _Bad(f"{where}: expected a score per seat") from None
    if not isinstance(value, list) or len(value) != n:
        raise _Bad(f"{where}: expected {n} integers, got {value!r}"[:200])
    if any(isinstance(v, bool) or not isinstance(v, int) for v in value):
        raise _Bad(f"{where}: expected {n} integers, got {value!r}"[:200])
    return tuple(value)


class _Log:
    """The displays of one log turned into events and a result."""

    def __init__(self, wrapper: _Wrapper, source: str, start: int, raw: str) -> None:
        self.w = wrapper
        self.source = source
        self.start = start
        self.raw = raw
        self.events: list[Event] = []
        self.can_hu: list[tuple[int, tuple[int, ...]]] = []
        self.result: Result | None = None
        self.quan = wrapper.quan
        self.srand = wrapper.srand
        self.dealt = False
        self.discard: tuple[int, Tile] | None = None  # (seat, tile) that can be claimed now
        self.prev: dict[str, Any] | None = None  # the display before this one
        self.where = ""

    def add(
        self, kind: EventKind, entry: int, seat: int | None = None, tile: Tile | None = None, **kw: Any
    ) -> None:
        self.events.append(Event(len(self.events), kind, seat, tile, line=entry, **kw))

    def displays(self) -> Iterator[tuple[int, dict[str, Any]]]:
        """(1-based entry number, display) of every judge turn, in order."""
        for number, entry in enumerate(self.w.entries, 1):
            where = f"entry {number}"
            if not isinstance(entry, dict):
                raise _Bad(f"{where}: expected an object, got {type(entry).__name__}")
            if self.w.kind == "display":
                yield number, entry
                continue
            output = entry.get("output")
            if output is None:
                if all(k in ("0", "1", "2", "3") for k in entry):  # the four bots' responses
                    continue
                raise _Bad(f"{where}: neither a judge turn (output) nor the bots' responses")
            if not isinstance(output, dict) or not isinstance(output.get("display"), dict):
                raise _Bad(f"{where}: a judge turn without a display object")
            display = output["display"]
            if output.get("command") == "finish" and "score" not in display:
                content = output.get("content")
                if content is not None:
                    display = {**display, "score": content}
            yield number, display

    def hand(self) -> Hand:
        for number, display in self.displays():
            self.where = f"entry {number}"
            if self.result is not None:
                raise _Bad(f"{self.where}: {display.get('action')!r} after the end of the hand")
            before = len(self.events)
            self.read(number, display)
            can_hu = display.get("canHu")
            if can_hu is not None and len(self.events) > before:
                # the judge's canHu after this display belongs to its last event (a claim's
                # display carries the claimer's next discard: the values are about that discard)
                self.can_hu.append((len(self.events) - 1, _ints(can_hu, f"{self.where}: canHu")))
            self.prev = display
        if not self.dealt:
            raise _Bad("truncated log: no DEAL")
        if self.result is None:
            raise _Bad("truncated log: it ends before HU, HUANG or WA")
        if self.quan is None:
            raise _Bad("no prevalent wind (no INIT quan and no initdata)")
        meta = []
        if self.can_hu:
            meta.append((CAN_HU_META, format_can_hu(self.can_hu)))
        if self.srand is not None:
            meta.append(("srand", self.srand))
        return Hand(
            match_id=self.w.match_id,
            hand_no=0,
            ruleset=RECORDS_RULESET,
            profile=PROFILE,
            dealer=0,  # Botzone: seat 0 is East and deals (botzone-format.md)
            prevalent_wind=self.quan,
            events=tuple(self.events),
            result=self.result,
            players=self.w.players,
            wall=self.w.wall,
            meta=tuple(sorted(meta)),
            provenance=Provenance(self.source, self.start, self.raw),
        )

    def read(self, entry: int, d: dict[str, Any]) -> None:
        action = d.get("action")
        where = self.where
        if action == "INIT":
            if "quan" in d:
                quan = _wind(d["quan"], f"{where}: quan")
                if self.quan is not None and quan != self.quan:
                    raise _Bad(f"{where}: quan {quan} differs from initdata's {self.quan}")
                self.quan = quan
            if "srand" in d and self.srand is None:
                self.srand = str(d["srand"])
            return
        if action == "DEAL":
            hands = d.get("hand")
            if self.dealt or not isinstance(hands, list) or len(hands) != 4:
                raise _Bad(f"{where}: DEAL needs 'hand', four lists of tiles, once")
            for seat, tiles in enumerate(hands):
                if not isinstance(tiles, list):
                    raise _Bad(f"{where}: hand[{seat}] is not a list of tiles")
                dealt = tuple(_tile(t, f"{where}: hand[{seat}]") for t in tiles)
                self.add(EventKind.DEAL, entry, seat, tiles=dealt)
            self.dealt = True
            return
        if not isinstance(action, str):
            raise _Bad(f"{where}: a display without an action")
        if not self.dealt and action not in ("WA",):
            raise _Bad(f"{where}: {action} before the DEAL")
        if action == "HUANG":
            self.add(EventKind.HUANG, entry)
            scores = _ints(d["score"], f"{where}: score") if "score" in d else None
            self.result = Result(Outcome.DRAW, scores=scores)
            return
        seat = _seat(d.get("player"), f"{where}: player")
        prev = self.prev or {}
        if action == "DRAW":
            self.add(EventKind.DRAW, entry, seat, _tile(d.get("tile"), f"{where}: tile"))
            self.discard = None
        elif action == "PLAY":
            tile = _tile(d.get("tile"), f"{where}: tile")
            self.add(EventKind.DISCARD, entry, seat, tile)
            self.discard = (seat, tile)
        elif action in ("PENG", "CHI"):
            if self.discard is None:
                raise _Bad(f"{where}: {action} with no discard to claim")
            giver, claimed = self.discard
            if action == "PENG":
                self.add(EventKind.PENG, entry, seat, claimed, from_seat=giver)
            else:
                middle = _tile(d.get("tileCHI"), f"{where}: tileCHI")
                self.add(EventKind.CHI, entry, seat, middle, from_seat=giver, claimed=claimed)
            self.discard = None
            if "tile" in d:  # the claimer's next discard (real-formats.md)
                tile = _tile(d["tile"], f"{where}: tile")
                self.add(EventKind.DISCARD, entry, seat, tile)
                self.discard = (seat, tile)
        elif action == "GANG":
            if prev.get("action") == "DRAW" and prev.get("player") == seat:
                # a kong right after one's own draw is concealed (an exposed one takes a discard)
                self.add(EventKind.ANGANG, entry, seat, _tile(d.get("tile"), f"{where}: tile"))
            elif self.discard is not None:
                giver, claimed = self.discard
                self.add(EventKind.GANG, entry, seat, claimed, from_seat=giver)
            else:
                raise _Bad(f"{where}: GANG neither after the player's draw nor on a discard")
            self.discard = None
        elif action == "BUGANG":
            self.add(EventKind.BUGANG, entry, seat, _tile(d.get("tile"), f"{where}: tile"))
            self.discard = None
        elif action == "BUHUA":
            self.add(EventKind.FLOWER, entry, seat, _tile(d.get("tile"), f"{where}: tile"))
        elif action == "HU":
            self.read_hu(entry, d, seat, prev)
        elif action == "WA":
            self.add(EventKind.PENALTY, entry, seat)
            scores = _ints(d["score"], f"{where}: score") if "score" in d else None
            self.result = Result(Outcome.PENALTY, scores=scores)
        else:
            raise _Bad(f"{where}: unknown action {action!r}")

    def read_hu(self, entry: int, d: dict[str, Any], seat: int, prev: dict[str, Any]) -> None:
        """HU names no tile: the display before it says how the hand was won (real-formats.md)."""
        where = self.where
        last = self.events[-1] if self.events else None
        win_kind = None
        if last is not None and last.kind is EventKind.DRAW and last.seat == seat:
            tile, giver, self_drawn = last.tile, None, True
        elif last is not None and last.kind is EventKind.BUGANG and last.seat != seat:
            tile, giver, self_drawn, win_kind = last.tile, last.seat, False, WinKind.ROB_KONG
        elif self.discard is not None and self.discard[0] != seat:
            giver, tile = self.discard
            self_drawn = False
        else:
            raise _Bad(f"{where}: HU after {prev.get('action')!r}: no winning tile to name")
        self.add(EventKind.HU, entry, seat, tile, from_seat=giver, win=win_kind)
        fans_raw = d.get("fan", [])
        if not isinstance(fans_raw, list):
            raise _Bad(f"{where}: fan: expected a list")
        fans = []
        for i, item in enumerate(fans_raw):
            if not isinstance(item, dict) or not isinstance(item.get("name"), str):
                raise _Bad(f"{where}: fan[{i}]: expected {{name, cnt, value}}")
            try:
                name = _FAN_NAMES.our_fan_name(item["name"], _FAN_NAMES.BOTZONE_FAN_NAMES)
            except KeyError:
                raise _Bad(f"{where}: fan[{i}]: unknown fan name {item['name']!r}") from None
            count, value = item.get("cnt", 1), item.get("value")
            if isinstance(count, bool) or not isinstance(count, int) or count < 1:
                raise _Bad(f"{where}: fan[{i}].cnt: expected a positive integer, got {count!r}")
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise _Bad(f"{where}: fan[{i}].value: expected an integer, got {value!r}")
            # Botzone's value is the fan's worth per occurrence (连六*2: cnt 2, value 1)
            fans.append(FanEntry(name, count, value))
        total = d.get("fanCnt")
        if total is not None and (isinstance(total, bool) or not isinstance(total, int)):
            raise _Bad(f"{where}: fanCnt: expected an integer, got {total!r}")
        scores = _ints(d["score"], f"{where}: score") if "score" in d else None
        self.result = Result(Outcome.WIN, seat, giver, tile, self_drawn, total, tuple(fans), scores)
