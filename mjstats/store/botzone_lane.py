"""The ingest fast lane for Botzone text records: a record's text straight to column buffers.

The reference parser (:func:`mjstats.formats.botzone.parse_record`) builds a Hand of ~110 Event
tuples per record, which the store then transposes into columns: that is most of the ingest's
time. Here a record of the usual shape is cut only at its first six and last lines: its action
lines stay one block, and the batch's blocks are classified at once with numpy against the table
of every ``Player k Verb T`` line (built once), their events kept as template numbers (a record
with Ignore clauses: one dict lookup a line). The event columns are built per batch with numpy;
claims' ``from_seat`` and chows' ``claimed`` (the latest discard of the hand) and the Hu lines'
wins (self-drawn, a robbed kong, who pays) are computed over the whole batch at once.

Any record this lane does not fully recognise (a line of another shape, a defect, a number to
check) goes through the reference parser unchanged, so hands, rejects, their messages and line
numbers are exactly the reference's; ``tests/test_botzone_lane.py`` compares both lanes' tables.
"""

from __future__ import annotations

import functools
import re
from typing import Any

import numpy as np
import pyarrow as pa

# the reference's own number and fan checks: a line either passes them here or the reference
# parser reads the record and rejects it with its own message
from mjstats.formats.botzone import (
    BOTZONE_PROFILE,
    INT32_RANGE,
    INT64_RANGE,
    BadLine,
    parse_fans,
    parse_number,
    parse_record,
)
from mjstats.formats.limits import Cut
from mjstats.records import CLAIM_KINDS, EventKind, Outcome, Reject, WinKind
from mjstats.rulesets import RECORDS_RULESET
from mjstats.store.arrow_columns import (
    booleans,
    numbers,
    repeated_string,
    repeated_strings,
    strings,
    strings_at,
    take,
)
from mjstats.store.batches import HandInfo, ParsedBatch, RawRecord, hand_info
from mjstats.store.schema import SCHEMAS, UNDATED, HandColumns
from mjstats.tiles import ALL_KINDS

__all__ = ["parse_batch"]

_KEY = (RECORDS_RULESET, UNDATED)  # the partition of every Botzone text hand (no dates)
_NO_NAMES = ("", "", "", "")  # Hand.players when the record names nobody

_SEATS = {"0": 0, "1": 1, "2": 2, "3": 3}
_TILE_OF = {t.botzone: int(t) for t in ALL_KINDS}  # by code text (Hu lines, Ignore clauses)
# a deal line as the lane reads it: "Player k Deal" and 13 tile codes, one space apart (other
# spacing: the reference reads the record), matched by one regular expression; its tiles are then
# at fixed places (a code's letter at 14 + 3i, its digit next), decoded per batch (``_NP_DEALT_TILE``)
_DEAL_LEN = len("Player 0 Deal") + 13 * len(" W1")
_CODE_CLASSES = "|".join(
    f"{letter}[{''.join(sorted(c[1] for c in _TILE_OF if c[0] == letter))}]"
    for letter in sorted({c[0] for c in _TILE_OF})
)
_DEAL_LINE = re.compile(f"Player [0-3] Deal(?: (?:{_CODE_CLASSES})){{13}}".encode("ascii"))
_NP_DEALT_TILE = np.full((256, 256), -1, np.int8)  # a tile code's (letter, digit) bytes -> tile
for _code, _tile in _TILE_OF.items():
    _NP_DEALT_TILE[ord(_code[0]), ord(_code[1])] = _tile
# what ``_DEAL_LINE`` checks, per batch over the deal lines' bytes (``_deals_match``): a line of
# ``_DEAL_LEN`` bytes is a match exactly when its fixed bytes, its seat and its 13 codes are
_DEAL_LENS = [_DEAL_LEN] * 4
_NP_DEAL_FIXED = np.frombuffer(b"Player 0 Deal" + b" ??" * 13, np.uint8)
_NP_DEAL_FIXED_AT = np.array([i for i, c in enumerate(b"Player _ Deal" + b" ??" * 13) if c not in b"_?"])
_NP_SEAT_BYTE = np.zeros(256, np.bool_)
_NP_SEAT_BYTE[list(b"0123")] = True
_WINDS = {f"Wind {w}".encode(): w for w in range(4)}

# Words and fan items already checked by the reference (real records repeat a few hundred);
# bounded so that hostile input cannot grow them
_CACHE_SIZE = 4096
_SCORES: dict[str, int] = {}
_FAN_TOTALS: dict[str, int] = {}
_FAN_ITEMS: dict[str, tuple[str, int]] = {}


def _checked_numbers(cache: dict[str, int], words: list[str], what: str,
                     bounds: tuple[int, int]) -> list[int] | None:  # fmt: skip
    """The words as integers by the reference's check (None if one fails it), remembered."""
    try:
        values = [parse_number(w, what, bounds, 0) for w in words]
    except BadLine:
        return None
    if len(cache) < _CACHE_SIZE:
        cache.update(zip(words, values, strict=True))
    return values


def _fans(words: list[str]) -> tuple[int, list[tuple[str, int]]] | None:
    """A Fan line's total and (name, count) items, as the reference's ``parse_fans`` reads
    them; None where it would reject the line."""
    if len(words) not in (2, 3):
        return None
    total = _FAN_TOTALS.get(words[1])
    if total is None:
        totals = _checked_numbers(_FAN_TOTALS, words[1:2], "fan total", INT32_RANGE)
        if totals is None:
            return None
        total = totals[0]
    if len(words) == 2:
        return total, []
    try:
        items = list(map(_FAN_ITEMS.__getitem__, words[2].split("+")))
    except KeyError:  # an item not seen yet: checked by the reference's parse_fans
        try:
            _, entries = parse_fans(words, 0)
        except BadLine:
            return None
        items = [(e.name, e.count) for e in entries]
        if len(_FAN_ITEMS) < _CACHE_SIZE:
            _FAN_ITEMS.update(zip(words[2].split("+"), items, strict=True))
    return total, items


# --- event templates: (kind, seat, tile, claim, win); an event is its template's number ----------
_VERBS = {
    "Draw": EventKind.DRAW, "Play": EventKind.DISCARD, "Chi": EventKind.CHI,
    "Peng": EventKind.PENG, "Gang": EventKind.GANG, "AnGang": EventKind.ANGANG,
    "BuGang": EventKind.BUGANG,
}  # fmt: skip
_CLAIM_VERBS = ("Chi", "Peng", "Gang")  # action lines that may carry Ignore clauses mid-hand
_TEMPLATES: list[tuple[EventKind, int | None, int | None, str | None, str | None]] = []
_INDEX: dict[tuple[Any, ...], int] = {}
_LINE_TEXT: dict[str, int] = {}  # "Player 2 Play W5" -> its template


def _template(kind: EventKind, seat: int | None, tile: int | None, claim: str | None = None,
              win: str | None = None) -> int:  # fmt: skip
    """Register an event template and give its number."""
    _INDEX[kind, seat, tile, claim, win] = len(_TEMPLATES)
    _TEMPLATES.append((kind, seat, tile, claim, win))
    return len(_TEMPLATES) - 1


for _verb, _kind in _VERBS.items():
    for _seat in range(4):
        for _code, _tile in _TILE_OF.items():
            _LINE_TEXT[f"Player {_seat} {_verb} {_code}"] = _template(_kind, _seat, _tile)
for _seat in range(4):
    _template(EventKind.DEAL, _seat, None)
    for _tile in _TILE_OF.values():
        _template(EventKind.HU, _seat, _tile)
        _template(EventKind.HU, _seat, _tile, win=WinKind.ROB_KONG.value)
        for _claim in sorted(CLAIM_KINDS):
            _template(EventKind.IGNORED, _seat, _tile, claim=_claim)
_HUANG = _template(EventKind.HUANG, None, None)

_T_KIND = [t[0] for t in _TEMPLATES]
_T_SEAT = [t[1] for t in _TEMPLATES]
_T_TILE = [t[2] for t in _TEMPLATES]
# numpy and Arrow lookups by template number (-1: null)
# the templates' numbers for the events table, one row each (seat and tile -1 for null, flags
# 0/1, the tiles a deal holds), taken for a batch's events in one gather (np.take along the rows:
# one tight loop per row, where a fancy index per column cost a pass over the codes each)
_SEAT, _TILE_NO, _FROM, _CHI, _IGNORED, _DEALT = range(6)
_NP_PROPS = np.array(
    [
        [-1 if s is None else s for s in _T_SEAT],
        [-1 if t is None else t for t in _T_TILE],
        [k in (EventKind.CHI, EventKind.PENG, EventKind.GANG) for k in _T_KIND],
        [k is EventKind.CHI for k in _T_KIND],
        [k is EventKind.IGNORED for k in _T_KIND],
        [13 if k is EventKind.DEAL else 0 for k in _T_KIND],
    ],
    np.int8,
)
# the events' strings by template number (``take``: Arrow's C gather, without pyarrow.compute's
# import; numpy gathers of variable-length strings cost more per batch)
_PA_KIND = strings([k.value for k in _T_KIND])
# the claim (IGNORED events) and win kind (a robbed kong) by template, None for most: those
# columns are built from their few values (``strings_at``), not taken row by row
_CLAIM_OF = [None if t[3] is None else t[3].encode() for t in _TEMPLATES]
_WIN_OF = [None if t[4] is None else t[4].encode() for t in _TEMPLATES]
_NP_HAS_CLAIM = np.array([c is not None for c in _CLAIM_OF])
_NP_HAS_WIN = np.array([w is not None for w in _WIN_OF])
_LINE_CODE = {line.encode(): code for line, code in _LINE_TEXT.items()}  # the same, by line bytes
_info = functools.partial(tuple.__new__, HandInfo)
# a hand's four DEAL events as read (their seats are set per batch from the lines' seat bytes,
# ``_NP_DEAL_OF``: only their kind matters before, to ``_hu``)
_DEAL_0 = _INDEX[EventKind.DEAL, 0, None, None, None]
_DEALS = [_DEAL_0] * 4
_NP_DEAL_OF = np.full(256, _DEAL_0, np.intp)  # the DEAL template by the seat's byte (checked)
for _seat in range(4):
    _NP_DEAL_OF[ord(str(_seat))] = _INDEX[EventKind.DEAL, _seat, None, None, None]
# HU and IGNORED templates by (seat, tile, win kind or claim): keys without the EventKind, whose
# hash is a Python-level method (an Enum's), four times the cost of the lookup itself
_HU_OF = {(k[1], k[2], k[4]): code for k, code in _INDEX.items() if k[0] is EventKind.HU}
_IGNORED_OF = {(k[1], k[2], k[3]): code for k, code in _INDEX.items() if k[0] is EventKind.IGNORED}
_DRAW, _DISCARD, _BUGANG = EventKind.DRAW, EventKind.DISCARD, EventKind.BUGANG
_ROB_KONG = WinKind.ROB_KONG.value
_OUTCOMES = (Outcome.DRAW.value, Outcome.WIN.value)  # by won

# --- action lines classified per batch (``_action_templates``) ----------------------------------
# a line of ``_LINE_TEXT``, "Player k Verb T", is: bytes 0-6 "Player ", byte 7 the seat, bytes 8
# to len-3 " Verb ", the last two a tile's code. Its verb is told by bytes 9 and 10 (the verbs'
# first two letters differ), then every byte is compared: a line passes exactly when it is a key.
# The bytes are read as little-endian 8-byte words: from the line's start, from its byte 8 and
# ending at its end
_VERB_NAMES = list(_VERBS)
_NO_VERB = len(_VERB_NAMES)  # the tables' last row: no verb (fails every comparison)
_NP_VERB_AT = np.full(1 << 16, _NO_VERB, np.intp)  # by bytes 9 and 10 as a 16-bit number
for _i, _verb in enumerate(_VERB_NAMES):
    _NP_VERB_AT[int.from_bytes(_verb[:2].encode(), "little")] = _i
_NP_VERB_LEN = np.array([len(f"Player 0 {v} W1") for v in _VERB_NAMES] + [-1], np.intp)
# " Verb " as a word of its bytes, and the mask of its length (at most 8 bytes)
_NP_VERB_WORD = np.array([int.from_bytes(f" {v} ".encode(), "little") for v in _VERB_NAMES] + [1], np.uint64)
_NP_VERB_MASK = np.array([(1 << 8 * len(f" {v} ")) - 1 for v in _VERB_NAMES] + [0], np.uint64)
_PLAYER_WORD = int.from_bytes(b"Player ", "little")  # a line's first word less its seat byte
_PLAYER_MASK = (1 << 8 * len(b"Player ")) - 1
_N_TILES = max(_TILE_OF.values()) + 2  # the last: no tile
_NP_TILE_AT = np.full(1 << 16, _N_TILES - 1, np.intp)  # a tile code's two bytes as a number
for _code, _tile in _TILE_OF.items():
    _NP_TILE_AT[int.from_bytes(_code.encode(), "little")] = _tile
# the template of (verb, seat, tile), flat; seat 4 and the last tile stand for none
_NP_LINE_CODE = np.full((_NO_VERB + 1, 5, _N_TILES), -1, np.intp)
for _i, _verb in enumerate(_VERB_NAMES):
    for _seat in range(4):
        for _code, _tile in _TILE_OF.items():
            _NP_LINE_CODE[_i, _seat, _tile] = _LINE_TEXT[f"Player {_seat} {_verb} {_code}"]
_NP_LINE_CODE = _NP_LINE_CODE.ravel()
# a record's action lines go to the batch's classification when they could be as many plain
# lines: no "o" (Ignore clauses, in any case, hold one; no plain line does) and plausible
# lengths; a cheap test that keeps odd records out of it (a batch holding one that fails is
# read again line by line)
_SHORTEST_ACTION = int(_NP_VERB_LEN[:-1].min()) + 1  # newline included
_LONGEST_ACTION = int(_NP_VERB_LEN[:-1].max()) + 1
_HEAD_PAD, _TAIL_PAD = bytes(8), bytes(16)  # around the joined lines: the words read past them
# by template: whether a draw, an added kong or a discard, and its seat and tile (-1: none), for
# the Hu lines resolved per batch (``_resolve_hus``)
_NP_IS_DRAW = np.array([k is EventKind.DRAW for k in _T_KIND])
_NP_IS_BUGANG = np.array([k is EventKind.BUGANG for k in _T_KIND])
_NP_IS_PLAY = np.array([k is EventKind.DISCARD for k in _T_KIND])
_NP_T_SEAT = np.array([-1 if x is None else x for x in _T_SEAT], np.intp)
_NP_T_TILE = np.array([-1 if x is None else x for x in _T_TILE], np.intp)
_NP_HU_OF = np.full((4, max(_TILE_OF.values()) + 1, 2), -1, np.intp)  # by (seat, tile, robbed)
for (_seat, _tile, _win), _hu_code in _HU_OF.items():
    _NP_HU_OF[_seat, _tile, int(_win is not None)] = _hu_code


def _action_templates(blocks: list[bytes], n: int) -> np.ndarray | None:
    """The templates of the ``n`` action lines of ``blocks`` (lines each ending in a newline)
    as ``_LINE_CODE`` gives them, or None when one of them is not one of its keys; every byte of
    every line is compared, a few numpy passes for the whole batch instead of a bytes object and
    a lookup a line."""
    data = b"".join([_HEAD_PAD, *blocks, _TAIL_PAD])
    ends = np.flatnonzero(np.frombuffer(data, np.uint8) == ord("\n"))
    if len(ends) != n:
        return None
    starts = np.empty(n, np.intp)
    starts[0] = len(_HEAD_PAD)
    starts[1:] = ends[:-1] + 1
    words = np.ndarray((len(data) - 7,), "<u8", data, 0, (1,))  # the 8 bytes from each byte on
    head = words[starts]
    verb_word = words[starts + 8]
    tail = words[ends - 8]  # the line's last 8 bytes: its tile code the top two
    verb = _NP_VERB_AT.take((verb_word >> 8) & 0xFFFF)
    seat = np.minimum((head >> 56) - ord("0"), 4).astype(np.intp)  # 4: not a seat (wraps below 0)
    tile = _NP_TILE_AT.take(tail >> 48)
    ok = ends - starts == _NP_VERB_LEN.take(verb)
    ok &= (verb_word & _NP_VERB_MASK.take(verb)) == _NP_VERB_WORD.take(verb)
    ok &= (head & _PLAYER_MASK) == _PLAYER_WORD
    ok &= seat < 4
    ok &= tile < _N_TILES - 1
    if not ok.all():
        return None
    return _NP_LINE_CODE.take((verb * 5 + seat) * _N_TILES + tile)  # type: ignore[no-any-return]


class _Lane:
    """Column buffers of consecutive fast-lane hands (one source, one partition)."""

    def __init__(self, source: str, strict: bool = False) -> None:
        self.source = source
        # strict: each deal line matched by ``_DEAL_LINE`` and each action line looked up as it
        # is read; otherwise only a deal's length is, and the batch's deals and action blocks
        # are checked all at once (``deals_match``, ``actions_match``)
        self.strict = strict
        # a template number per event; no line numbers: an event's line is its hand's line + 2
        # + its seq, less the IGNORED events up to it (they share their claim's line)
        self.codes: list[int] = []  # but those of the action lines kept as blocks (below)
        self.n_events = 0
        # the records' action lines kept as blocks: each record's (its lines, each ending in a
        # newline), its first action's event index and its line count; classified per batch
        self.middles: list[bytes] = []
        self.mid_at: list[int] = []
        self.mid_n: list[int] = []
        self._actions: np.ndarray | None = None  # their templates, once classified
        # the Hu of each record whose action lines are a block: its event index, the winner
        # and tile its line names, its row in ``wins`` (resolved per batch, ``_resolve_hus``)
        self.defer_at: list[int] = []
        self.defer_seat: list[int] = []
        self.defer_tile: list[int] = []
        self.defer_win: list[int] = []
        self._wins_patch: tuple[np.ndarray, ...] | None = None
        self.deal_lines: list[bytes] = []  # the DEAL events' lines (``_DEAL_LINE``), in order
        self._deals: np.ndarray | None = None  # their bytes, once joined (``_deal_bytes``)
        self.hu_at: list[int] = []  # (event index, from_seat) of each HU on a discard or a kong
        self.hu_from: list[int] = []
        # a row per hand (match_id, prevalent_wind, won, n_events, line) and per win (the wins
        # table's columns from match_id and winner on): one append each, transposed per batch
        self.hands: list[tuple[str, int, bool, int, int]] = []
        self.wins: list[tuple[str, int, int | None, int, bool, str | None, int]] = []
        self.fans: dict[str, list[Any]] = {f: [] for f in ("match_id", "winner", "name", "count")}
        self.scores: list[int] = []  # four per hand

    def add(self, record: bytes, start: int) -> HandInfo | None:
        """Append one record's rows and say what the parent needs of it; None (nothing appended)
        when the record is not of a shape this lane reads: the reference parser takes it.

        The record stays bytes: its action lines and deals are looked up as bytes (table keys are
        ASCII, so a line that matches one is valid UTF-8 and reads as the reference reads its
        text), and only the Match, Hu, Fan and Score lines and lines of other shapes are decoded,
        each on its own (a record is valid UTF-8 exactly when each of its lines is). Decoding
        whole records, whose Fan names are not ASCII, made two-byte strings of every line.

        Outside ``strict`` a record's action lines are kept as one block, classified with the
        batch's (``actions_match``), when they look plain (``_SHORTEST_ACTION``: no Ignore
        clause, plausible lengths); the others line by line."""
        if b"\r" in record:  # the reference strips a CR before each line end: let it
            return None
        # the first six lines (Match, Wind, the deals) and the rest, whose last two or three
        # lines (Hu, Fan or Huang, Score) close the record; the action lines between stay a block
        head = record.split(b"\n", 6)
        if len(head) < 7:
            return None
        rest = head[6]
        n_rest = rest.count(b"\n")  # every record ends in a newline: the rest's lines
        if n_rest < 2 or not head[0].startswith(b"Match "):  # reference: at least 8 lines
            return None
        last = rest.rsplit(b"\n", 4)  # [..., third to last, second to last, last, b""]
        score_line, end_line = last[-2], last[-3]
        wind = _WINDS.get(head[1])
        try:
            match_words = head[0].decode("utf-8").split()
            score_words = score_line.decode("utf-8").split()
        except UnicodeDecodeError:
            return None
        if len(match_words) != 2 or wind is None:
            return None
        match_id = match_words[1]
        # the four deals come first (reference: any action needs all four); their tiles are
        # decoded with the batch's (``_events_table``)
        deals = head[2:6]
        if self.strict:
            if not all(map(_DEAL_LINE.fullmatch, deals)):
                return None
        elif list(map(len, deals)) != _DEAL_LENS:  # the rest is checked per batch (_deals_match)
            return None
        if len(score_words) != 5 or score_words[0] != "Score":
            return None
        try:
            scores = list(map(_SCORES.__getitem__, score_words[1:]))
        except KeyError:
            scores = _checked_numbers(_SCORES, score_words[1:], "score", INT64_RANGE)  # type: ignore[assignment]
            if scores is None:
                return None
        if end_line == b"Huang":
            n_mid, won = n_rest - 2, False
            middle = rest[: len(rest) - len(score_line) - len(end_line) - 2]
        else:
            try:
                fan_words = end_line.decode("utf-8").split()
            except UnicodeDecodeError:
                return None
            if n_rest < 3 or not fan_words or fan_words[0] != "Fan":  # reference: 9 lines
                return None
            fan_line = _fans(fan_words)
            if fan_line is None:
                return None
            fan_total, fans = fan_line
            hu_line = last[-4]
            n_mid, won = n_rest - 3, True
            middle = rest[: len(rest) - len(score_line) - len(end_line) - len(hu_line) - 3]
        first = self.n_events
        if (
            self.strict
            or not n_mid
            or not _SHORTEST_ACTION * n_mid <= len(middle) <= _LONGEST_ACTION * n_mid
            or b"o" in middle
            or b"O" in middle
        ):  # line by line (no action line at all: nothing to classify either)
            lines = middle.split(b"\n")
            lines.pop()  # the block ends in a newline (or is empty)
            try:
                found = list(map(_LINE_CODE.__getitem__, lines))
            except KeyError:  # Ignore clauses (or lines of other shapes: the reference reads those)
                expanded = _with_ignored(lines, list(map(_LINE_CODE.get, lines)))
                if expanded is None:
                    return None
                found, prev = expanded
            else:
                prev = found[-1] if found else _DEAL_0
            codes = _DEALS + found
            if won:
                try:
                    hu_text = hu_line.decode("utf-8")
                except UnicodeDecodeError:
                    return None
                hu = _hu(hu_text, prev, codes)
                if hu is None:
                    return None
                hu_codes, hu_from, winner, win_tile, self_drawn, win_kind = hu
                if hu_from is not None:
                    self.hu_at.append(first + len(codes))
                    self.hu_from.append(hu_from)
                codes += hu_codes
            else:
                codes.append(_HUANG)
            n_codes = len(codes)
        else:  # the block's lines are classified with the batch's; the Hu resolved there too
            codes = _DEALS.copy()
            if won:
                try:
                    hu_words = _hu_words(hu_line.decode("utf-8"))
                except UnicodeDecodeError:
                    return None
                if hu_words is None:
                    return None
                winner, win_tile, ignored = hu_words
                # the win as the Hu line names it; whether it is self-drawn or robs a kong (its
                # tile, kind and payer) depends on the lines before: ``_resolve_hus``
                hu_from, self_drawn, win_kind = None, False, None
                self.defer_at.append(first + 4 + n_mid)
                self.defer_seat.append(winner)
                self.defer_tile.append(win_tile)
                self.defer_win.append(len(self.wins))
                codes.append(_HU_OF[winner, win_tile, None])
                codes += ignored
            else:
                codes.append(_HUANG)
            self.middles.append(middle)
            self.mid_at.append(first + 4)
            self.mid_n.append(n_mid)
            n_codes = len(codes) + n_mid
        self.codes += codes
        self.n_events = first + n_codes
        self.deal_lines += deals
        self.hands.append((match_id, wind, won, n_codes, start))
        self.scores += scores
        if won:
            self.wins.append((match_id, winner, hu_from, win_tile, self_drawn, win_kind, fan_total))
            if fans:
                f = self.fans
                f["match_id"] += [match_id] * len(fans)
                f["winner"] += [winner] * len(fans)
                names, counts = zip(*fans, strict=True)
                f["name"] += names
                f["count"] += counts
        # the named tuple's own __new__ is a Python function: build the tuple directly
        return _info((match_id, 0, *_KEY, BOTZONE_PROFILE, _NO_NAMES, None, self.source, start,
                      n_codes, int(won), not won, None))  # fmt: skip

    def _deal_bytes(self) -> np.ndarray:
        """The deal lines read, a row of ``_DEAL_LEN`` bytes each (joined once a batch)."""
        if self._deals is None or len(self._deals) != len(self.deal_lines):
            joined = np.frombuffer(b"".join(self.deal_lines), np.uint8)
            self._deals = joined.reshape(len(self.deal_lines), _DEAL_LEN)
        return self._deals

    def deals_match(self) -> bool:
        """Whether every deal line read (each of ``_DEAL_LEN`` bytes) matches ``_DEAL_LINE``:
        its fixed bytes, a seat 0-3 and 13 tile codes, checked for all of them in a few passes."""
        if not self.deal_lines:
            return True
        lines = self._deal_bytes()
        fixed = lines[:, _NP_DEAL_FIXED_AT] == _NP_DEAL_FIXED[_NP_DEAL_FIXED_AT]
        tiles = _NP_DEALT_TILE[lines[:, 14::3], lines[:, 15::3]]
        return bool(fixed.all() and _NP_SEAT_BYTE[lines[:, 7]].all() and (tiles >= 0).all())

    def actions_match(self) -> bool:
        """Whether every action line kept in a block is a plain ``Player k Verb T`` line (its
        template then kept for ``tables``), all of them classified at once."""
        if not self.middles:
            return True
        self._actions = _action_templates(self.middles, sum(self.mid_n))
        return self._actions is not None

    def tables(self) -> dict[str, pa.Table]:
        """The buffered hands as the ingest tables, as :class:`HandColumns` would build them
        (built from buffers: no ``pa.array``, see ``arrow_columns``)."""
        n = len(self.hands)
        match_id, wind, won, n_events, line = zip(*self.hands, strict=True)
        match_ids = strings(match_id)
        counts = np.array(n_events, np.int64)
        starts = np.zeros(n, np.int64)  # each hand's first event
        np.cumsum(counts[:-1], out=starts[1:])
        won_mask = np.array(won, np.bool_)
        lines = np.array(line, np.int64)
        hands = {
            "match_id": match_ids,
            "hand_no": numbers(np.zeros(n), pa.int32()),
            "profile": repeated_string(BOTZONE_PROFILE, n),
            "dealer": numbers(np.zeros(n), pa.int8()),
            "prevalent_wind": numbers(wind, pa.int8()),
            "streak": numbers(np.zeros(n), pa.int16()),
            "outcome": strings([_OUTCOMES[w] for w in won]),
            "players": _unnamed(n),
            "styles": _empty_lists(n, pa.string()),
            "meta": _empty_lists(n, pa.list_(pa.string())),
            "has_scores": booleans(np.ones(n, np.bool_)),
            "n_events": numbers(counts, pa.int32()),
            "source": repeated_string(self.source, n),
            "line": numbers(lines, pa.int64()),
        }
        return {
            "hands": _table("hands", hands, n),
            "events": self._events_table(match_id, lines, starts, counts),
            "wins": self._wins_table(),
            "fans": self._fans_table(),
            "payments": self._payments_table(match_id, won_mask),
        }

    def _codes(self) -> np.ndarray:
        """Every event's template: the action lines' blocks (``actions_match``) in their places,
        the codes appended as read in the others."""
        codes = np.empty(self.n_events, np.intp)
        kept = np.fromiter(self.codes, np.intp, len(self.codes))
        if not self.middles:
            codes[:] = kept
            return codes
        assert self._actions is not None, "actions_match first"
        mid_n = np.array(self.mid_n, np.intp)
        before = np.cumsum(mid_n) - mid_n  # the block lines of the records before
        at = np.repeat(np.array(self.mid_at, np.intp) - before, mid_n) + np.arange(len(self._actions))
        others = np.ones(self.n_events, np.bool_)
        others[at] = False
        codes[others] = kept
        codes[at] = self._actions
        return codes

    def _resolve_hus(self, codes: np.ndarray, first: np.ndarray, latest: np.ndarray) -> np.ndarray | None:
        """The Hu lines of the records read as blocks, as ``_hu`` reads them, all at once: their
        HU templates set in ``codes``, their wins' rows (``_wins_patch``) kept; gives each one's
        from_seat (-1: none). ``latest``: each event's latest discard (``_events_table``)."""
        if not self.defer_at:
            self._wins_patch = None
            return None
        at = np.array(self.defer_at, np.intp)
        seat = np.array(self.defer_seat, np.intp)
        tile = np.array(self.defer_tile, np.intp)
        prev = codes[at - 1]  # the previous line's event (a block holds no IGNORED event)
        prev_seat = _NP_T_SEAT[prev]
        # reference botzone-format.md: a self-drawn Hu names the last discard; the win tile is
        # the tile of the same player's Draw on the line before
        drawn = _NP_IS_DRAW[prev] & (prev_seat == seat)
        robbed = ~drawn & _NP_IS_BUGANG[prev] & (prev_seat != seat)  # the konger pays
        win_tile = np.where(drawn, _NP_T_TILE[prev], tile)
        # otherwise the seat of the hand's latest discard (none: null)
        discard = latest[at]
        payer = np.where(discard >= first[at], _NP_T_SEAT[codes[discard]], -1)
        payer = np.where(robbed, prev_seat, np.where(drawn, -1, payer))
        codes[at] = _NP_HU_OF[seat, win_tile, robbed.astype(np.intp)]
        self._wins_patch = (np.array(self.defer_win, np.intp), payer, win_tile, drawn, robbed)
        return payer.astype(np.int8)

    def _wins_table(self) -> pa.Table:
        n = len(self.wins)
        match_id, winner, loser, win_tile, self_drawn, win_kind, fan_total = (
            zip(*self.wins, strict=True) if n else ((),) * 7
        )
        has_loser = np.array([s is not None for s in loser], np.bool_)
        losers = np.array([s if s is not None else 0 for s in loser], np.int8)
        tiles = np.array(win_tile, np.int8)
        drawn = np.array(self_drawn, np.bool_)
        if self._wins_patch is not None:  # the wins of the Hu lines resolved per batch
            rows, payer, patch_tile, patch_drawn, robbed = self._wins_patch
            has_loser[rows] = payer >= 0
            losers[rows] = np.maximum(payer, 0)
            tiles[rows] = patch_tile
            drawn[rows] = patch_drawn
            if robbed.any():
                win_kind = list(win_kind)
                for row in rows[robbed].tolist():
                    win_kind[row] = _ROB_KONG
        wins = {
            "match_id": strings(match_id),
            "hand_no": numbers(np.zeros(n), pa.int32()),
            "win_no": numbers(np.zeros(n), pa.int16()),
            "winner": numbers(winner, pa.int8()),
            "loser": numbers(losers, pa.int8(), has_loser),
            "win_tile": numbers(tiles, pa.int8()),
            "self_drawn": booleans(drawn),
            "win_kind": strings(win_kind),
            "fan_total": numbers(fan_total, pa.int32()),
        }
        return _table("wins", wins, n)

    def _fans_table(self) -> pa.Table:
        f = self.fans
        n = len(f["name"])
        fans = {
            "match_id": strings(f["match_id"]),
            "hand_no": numbers(np.zeros(n), pa.int32()),
            "win_no": numbers(np.zeros(n), pa.int16()),
            "winner": numbers(f["winner"], pa.int8()),
            "name": strings(f["name"]),
            "count": numbers(f["count"], pa.int16()),
        }
        return _table("fans", fans, n)

    def _payments_table(self, match_ids: tuple[str, ...], won: np.ndarray) -> pa.Table:
        n = len(self.hands)
        per_seat = np.repeat(np.arange(n), 4)
        payments = {
            "match_id": repeated_strings(match_ids, np.full(n, 4)),
            "hand_no": numbers(np.zeros(4 * n), pa.int32()),
            "seat": numbers(np.tile(np.arange(4), n), pa.int8()),
            "score": numbers(np.array(self.scores, np.int64), pa.int64()),
            # the only win's number; none on a draw. No reason: net scores, not itemised
            "win_no": numbers(np.zeros(4 * n), pa.int16(), won[per_seat]),
        }
        return _table("payments", payments, 4 * n)

    def _events_table(
        self, match_ids: tuple[str, ...], hand_lines: np.ndarray, starts: np.ndarray, counts: np.ndarray
    ) -> pa.Table:
        codes = self._codes()
        n = len(codes)
        deal_bytes = self._deal_bytes()
        # each hand's first four events are its deals: their templates by the lines' seats
        codes[(starts[:, None] + np.arange(4)).ravel()] = _NP_DEAL_OF[deal_bytes[:, 7]]
        where = np.arange(n)
        first = np.repeat(starts, counts)  # each event's hand's first event
        # each event's hand's latest discard up to it (-1: none yet in the batch)
        latest = np.maximum.accumulate(np.where(_NP_IS_PLAY[codes], where, -1))
        hu_from = self._resolve_hus(codes, first, latest)
        props = _NP_PROPS.take(codes, axis=1)
        seq = where - first
        # an event's line: its hand's line + 2 + seq, less the IGNORED events up to it (they
        # share their claim's line)
        ignored = np.cumsum(props[_IGNORED])
        ignored_before = np.zeros(len(starts), np.int64)
        ignored_before[1:] = ignored[starts[1:] - 1]
        lines = np.repeat(hand_lines + 2 + ignored_before, counts) + seq - ignored
        seat = props[_SEAT]
        tile = props[_TILE_NO]
        # reference: a claim's from_seat is the seat of the hand's latest discard, a chow's
        # claimed tile that discard (none before it: null)
        claims = props[_FROM].view(np.bool_) & (latest >= first)
        from_seat = np.full(n, -1, np.int8)
        from_seat[claims] = seat[latest[claims]]
        from_seat[np.array(self.hu_at, np.intp)] = np.array(self.hu_from, np.int8)
        if hu_from is not None:
            from_seat[np.array(self.defer_at, np.intp)] = hu_from
        claimed = np.full(n, -1, np.int8)
        chows = claims & props[_CHI].view(np.bool_)
        claimed[chows] = tile[latest[chows]]
        offsets = np.zeros(n + 1, np.int32)
        np.cumsum(props[_DEALT], out=offsets[1:])
        # each deal line's 13 codes, at fixed places: letters and digits as two byte columns
        dealt_tiles = _NP_DEALT_TILE[deal_bytes[:, 14::3], deal_bytes[:, 15::3]].ravel()
        dealt = pa.ListArray.from_arrays(numbers(offsets, pa.int32()), numbers(dealt_tiles, pa.int8()))
        taken = numbers(codes, pa.int64())
        columns = [
            repeated_strings(match_ids, counts),
            numbers(np.zeros(n, np.int32), pa.int32()),
            numbers(seq, pa.int32()),
            take(_PA_KIND, taken),
            _nullable(seat),
            _nullable(tile),
            dealt,
            _nullable(from_seat),
            _nullable(claimed),
            booleans(np.zeros(n, np.bool_)),
            _sparse(codes, _NP_HAS_CLAIM, _CLAIM_OF),
            _sparse(codes, _NP_HAS_WIN, _WIN_OF),
            numbers(lines, pa.int64()),
        ]
        return pa.Table.from_arrays(columns, schema=SCHEMAS["events"])


def _table(name: str, columns: dict[str, pa.Array], n: int) -> pa.Table:
    """A table of the schema ``name`` from its columns (Arrow arrays); the columns not given
    are all null."""
    schema = SCHEMAS[name]
    return pa.Table.from_arrays(
        [columns[f.name] if f.name in columns else pa.nulls(n, f.type) for f in schema], schema=schema
    )


def _sparse(codes: np.ndarray, has: np.ndarray, texts: list[bytes | None]) -> pa.Array:
    """The events' strings of a mostly-null column: ``texts`` by template, where ``has``."""
    at = np.flatnonzero(has[codes])
    return strings_at(len(codes), at, [texts[c] for c in codes[at].tolist()])  # type: ignore[misc]


def _nullable(values: np.ndarray) -> pa.Array:
    """An int8 column with -1 as null (no tile or seat code is negative)."""
    return numbers(values, pa.int8(), values >= 0)


def _unnamed(n: int) -> pa.Array:
    """The players column of ``n`` hands naming nobody: four empty names each."""
    return pa.ListArray.from_arrays(numbers(np.arange(n + 1) * 4, pa.int32()), repeated_string("", 4 * n))


def _empty_lists(n: int, item: pa.DataType) -> pa.Array:
    """A list column of ``n`` empty lists."""
    return pa.ListArray.from_arrays(numbers(np.zeros(n + 1), pa.int32()), pa.nulls(0, item))


def _with_ignored(middle: list[bytes], found: list[int | None]) -> tuple[list[int], int] | None:
    """The middle lines' events where some lines are not plain actions: claims with Ignore
    clauses become the claim and an IGNORED event per clause (reference ``_ignored_claims``);
    any other line (or one not UTF-8): None. Also gives the template of the last line's own
    event."""
    codes: list[int] = []
    done = 0
    prev = found[-1]
    while True:
        try:
            at = found.index(None, done)
        except ValueError:
            codes += found[done:]  # type: ignore[arg-type]
            return codes, prev  # type: ignore[return-value]
        codes += found[done:at]  # type: ignore[arg-type]
        try:
            words = middle[at].decode("utf-8").split()
        except UnicodeDecodeError:
            return None
        if len(words) < 9 or words[2] not in _CLAIM_VERBS:
            return None
        code = _LINE_TEXT.get(" ".join(words[:4]))
        ignored = _ignored(words[4:])
        if code is None or words[0] != "Player" or ignored is None:
            return None
        codes.append(code)
        codes += ignored
        if at == len(found) - 1:
            prev = code
        done = at + 1


def _ignored(words: list[str]) -> list[int] | None:
    """``Ignore Player k Act T`` clauses (Act in any case) as IGNORED templates; None if malformed."""
    if len(words) % 5:
        return None
    out = []
    for i in range(0, len(words), 5):
        ignore, player, seat_word, act, tile_code = words[i : i + 5]
        claim = act.lower()
        seat, tile = _SEATS.get(seat_word), _TILE_OF.get(tile_code)
        if ignore.lower() != "ignore" or player != "Player" or claim not in CLAIM_KINDS:
            return None
        if seat is None or tile is None:
            return None
        out.append(_IGNORED_OF[seat, tile, claim])
    return out


def _hu_words(text: str) -> tuple[int, int, list[int]] | None:
    """A Hu line's winner, the tile it names and its Ignore clauses' IGNORED templates; None
    when it is not a well-formed Hu line."""
    words = text.split()
    if len(words) < 4 or words[0] != "Player" or words[2] != "Hu":
        return None
    seat, tile = _SEATS.get(words[1]), _TILE_OF.get(words[3])
    ignored = _ignored(words[4:]) if len(words) > 4 else []
    if seat is None or tile is None or ignored is None:
        return None
    return seat, tile, ignored


def _hu(
    text: str, prev: int, codes: list[int]
) -> tuple[list[int], int | None, int, int, bool, str | None] | None:
    """The Hu line's events and win: (templates, from_seat, winner, win tile, self-drawn, win
    kind); None when it is not a well-formed Hu line. ``prev``: the previous line's own event."""
    words = _hu_words(text)
    if words is None:
        return None
    seat, tile, ignored = words
    kind, prev_seat = _T_KIND[prev], _T_SEAT[prev]
    from_seat: int | None
    win_kind = None
    if kind is _DRAW and prev_seat == seat:
        # reference botzone-format.md: a self-drawn Hu names the last discard; the win tile is
        # the tile of the same player's Draw on the line before
        tile, from_seat, self_drawn = _T_TILE[prev], None, True  # type: ignore[assignment]
    elif kind is _BUGANG and prev_seat != seat:  # robbing an added kong: the konger pays
        from_seat, self_drawn, win_kind = prev_seat, False, _ROB_KONG
    else:
        from_seat, self_drawn = None, False
        for code in reversed(codes):  # the latest discard's seat
            if _T_KIND[code] is _DISCARD:
                from_seat = _T_SEAT[code]
                break
    hu = _HU_OF[seat, tile, win_kind]
    return [hu, *ignored], from_seat, seat, tile, self_drawn, win_kind


def parse_batch(source: str, items: list[RawRecord]) -> ParsedBatch:
    """One batch of Botzone text records, through the fast lane where it reads a record whole and
    the reference parser otherwise; the same batch as :func:`mjstats.store.batches.parse_batch`
    with the reference parser alone (rows in record order).

    The deal and action lines are checked per batch: should one of the right length not match
    ``_DEAL_LINE``, or an action line kept in a block be no key of the line table (a hostile
    input), the batch is read again checking each as it comes."""
    batch = _parse_batch(source, items, strict=False)
    if batch is None:
        batch = _parse_batch(source, items, strict=True)
        assert batch is not None
    return batch


def _parse_batch(source: str, items: list[RawRecord], strict: bool) -> ParsedBatch | None:
    """:func:`parse_batch` with the deal lines checked one by one (``strict``) or per batch;
    None when the batch's check fails."""
    batch = ParsedBatch()
    runs: list[_Lane | HandColumns] = []  # consecutive hands of each lane, in order
    others: dict[tuple[str, str], HandColumns] = {}  # hands of another partition (none expected)
    hands = batch.hands
    lane: _Lane | None = None  # the last run, while it is the lane's
    for start, record in items:
        if not isinstance(record, Cut):
            if lane is None:
                lane = _Lane(source, strict)
                runs.append(lane)
            info = lane.add(record, start)
            if info is not None:
                hands.append(info)
                continue
        parsed = parse_record(record, start, source)
        if isinstance(parsed, Reject):
            batch.rejects.append(parsed)
            continue
        info = hand_info(parsed, keep_raw=False)
        if (info.ruleset, info.period) == _KEY:
            if not runs or not isinstance(runs[-1], HandColumns):
                runs.append(HandColumns())
            lane = None
            runs[-1].add_hand(parsed)
        else:
            others.setdefault((info.ruleset, info.period), HandColumns()).add_hand(parsed)
        hands.append(info)
    batch.records = len(items)
    lanes = [run for run in runs if isinstance(run, _Lane)]
    if not strict and not all(lane.deals_match() and lane.actions_match() for lane in lanes):
        return None
    parts = [run.tables() if isinstance(run, _Lane) else run.take() for run in runs if _filled(run)]
    if parts:
        batch.tables[_KEY] = {
            name: parts[0][name] if len(parts) == 1 else pa.concat_tables([p[name] for p in parts])
            for name in parts[0]
        }
    for key, columns in others.items():
        batch.tables[key] = columns.take()
    return batch


def _filled(run: _Lane | HandColumns) -> bool:
    return bool(run.hands) if isinstance(run, _Lane) else run.n_hands > 0
