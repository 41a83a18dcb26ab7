"""Canonical format round trips: records -> JSON -> records is lossless and JSON -> records ->
JSON is byte-identical, for generated hands of both rulesets."""

from __future__ import annotations

import io
import json
import random
from dataclasses import fields, replace

import pytest
from hypothesis import given, settings

from mjstats.errors import RecordError
from mjstats.formats.canonical import (
    EVENT_KEYS,
    HAND_KEYS,
    PAYMENT_KEYS,
    RESULT_KEYS,
    WIN_KEYS,
    hand_from_json,
    hand_to_json,
    read_canonical,
    write_canonical,
)
from mjstats.records import (
    Event,
    EventKind,
    FanEntry,
    Hand,
    Payment,
    Provenance,
    Reject,
    Result,
    Win,
)
from mjstats.tiles import parse_tile
from tests.strategies import hands, random_hand

ROUND_TRIP = settings(max_examples=150, deadline=None)


@ROUND_TRIP
@given(hands())
def test_hand_to_json_to_hand_is_lossless(hand: Hand) -> None:
    text = hand_to_json(hand)
    back = hand_from_json(text, source="out.jsonl", line=7)
    assert back == hand
    assert back.events == hand.events  # named tuples: also check field by field below
    assert [e._asdict() for e in back.events] == [e._asdict() for e in hand.events]
    # provenance is always the file and line read; a recorded source is kept as the origin
    assert (back.provenance.source, back.provenance.line) == ("out.jsonl", 7)
    if hand.provenance is None:  # first written as canonical: no origin
        assert back.origin is None
    else:
        assert (back.origin.source, back.origin.line) == (hand.provenance.source, hand.provenance.line)
        assert back.origin.raw is None
    assert back.provenance.raw is None


@ROUND_TRIP
@given(hands())
def test_json_to_hand_to_json_is_byte_identical(hand: Hand) -> None:
    text = hand_to_json(hand)
    again = hand_to_json(hand_from_json(text, source="out.jsonl", line=1))
    if hand.provenance is None:  # the reader filled in a source; the rest is unchanged
        text = hand_to_json(replace(hand, provenance=Provenance("out.jsonl", 1)))
    assert again.encode("utf-8") == text.encode("utf-8")
    assert "\n" not in again and "\r" not in again
    # the writer builds event text itself: it must be exactly what the json module writes
    standard = json.dumps(json.loads(text), ensure_ascii=False, separators=(",", ":"))
    for char in ("\x85", "\u2028", "\u2029"):
        standard = standard.replace(char, f"\\u{ord(char):04x}")
    assert standard == text


@settings(max_examples=25, deadline=None)
@given(hands("guobiao"), hands("fuzhou"))
def test_file_round_trip_is_byte_identical(tmp_path_factory, gb: Hand, fz: Hand) -> None:
    first = tmp_path_factory.mktemp("canon") / "first.jsonl"
    second = first.with_name("second.jsonl")
    # A hand without provenance is re-read as coming from first.jsonl, which changes its line.
    gb = gb if gb.provenance else replace(gb, provenance=Provenance(str(first), 1))
    fz = fz if fz.provenance else replace(fz, provenance=Provenance(str(first), 2))
    assert write_canonical([gb, fz], first) == 2
    read = list(read_canonical(first))
    assert read == [gb, fz]
    assert write_canonical(read, second) == 2
    assert second.read_bytes() == first.read_bytes()
    assert first.read_bytes().count(b"\n") == 2 and first.read_bytes().endswith(b"\n")


@ROUND_TRIP
@given(hands())
def test_keys_come_in_the_documented_order(hand: Hand) -> None:
    obj = json.loads(hand_to_json(hand))
    keys = list(obj)
    assert keys == [k for k in HAND_KEYS if k in obj]
    assert keys[0] == "v"
    for event in obj["events"]:
        assert list(event) == [k for k in EVENT_KEYS if k in event]
    assert list(obj["result"]) == [k for k in RESULT_KEYS if k in obj["result"]]


def test_compact_utf8_text_and_no_raw() -> None:
    hand = random_hand(random.Random(11), "fuzhou")
    hand = replace(hand, provenance=Provenance("a.log", 3, raw="Match 123\nsecret raw text"),
                   players=("林一", "陈二", "黄三", "郑四"))
    text = hand_to_json(hand)
    assert "林一" in text and "\\u" not in text  # ensure_ascii=False: names stay readable
    assert ", " not in text and ": " not in text.replace("福州麻将 · ", "")
    assert "secret raw text" not in text and "raw" not in json.loads(text)["source"]
    assert json.loads(text)["source"] == {"file": "a.log", "line": 3}


def test_defaults_are_omitted() -> None:
    hand = random_hand(random.Random(5), "guobiao")
    bare = replace(hand, players=("",) * 4, styles=(), streak=0, gold=None, wall=None, dice=None,
                   started_at=None, meta=(), provenance=None)
    obj = json.loads(hand_to_json(bare))
    assert list(obj) == ["v", "match_id", "hand_no", "ruleset", "profile", "dealer",
                         "prevalent_wind", "events", "result"]
    draw = next(e for e in obj["events"] if e["k"] == "draw")
    assert "tail" not in draw and "q" not in draw and "f" not in draw


def test_explicit_defaults_are_read() -> None:
    """A hand-written line may spell out defaults; the reader takes them, the writer drops them."""
    line = ('{"v":1,"match_id":"m","hand_no":0,"ruleset":"guobiao","profile":"p","dealer":0,'
            '"prevalent_wind":0,"streak":0,"players":["","","",""],"events":[{"k":"draw","s":0,'
            '"t":"W1","tail":false,"q":0}],"result":{"outcome":"draw","self_drawn":false,'
            '"fans":[]}}')
    hand = hand_from_json(line, source="x", line=1)
    assert hand.events == (Event(0, EventKind.DRAW, 0, parse_tile("W1")),)
    assert hand_to_json(hand) == (
        '{"v":1,"match_id":"m","hand_no":0,"ruleset":"guobiao","profile":"p","dealer":0,'
        '"prevalent_wind":0,"source":{"file":"x","line":1},"events":[{"k":"draw","s":0,'
        '"t":"W1"}],"result":{"outcome":"draw"}}')


def test_seq_is_written_only_where_it_is_not_the_position() -> None:
    hand = random_hand(random.Random(2), "guobiao")
    shifted = replace(hand, events=tuple(e._replace(seq=e.seq + 100) for e in hand.events))
    text = hand_to_json(shifted)
    assert '"q":100' in text
    back = hand_from_json(text, source="x", line=1)
    assert [e.seq for e in back.events] == [e.seq for e in shifted.events]
    assert hand_to_json(back) == text
    assert '"q"' not in hand_to_json(hand)


@pytest.mark.parametrize("char", ["\u2028", "\u2029", "\x85", "\n", "\r", "\x00"])
def test_line_breaks_inside_strings_stay_escaped(char: str) -> None:
    hand = random_hand(random.Random(3), "fuzhou")
    hand = replace(hand, players=(f"a{char}b", "", "", ""), meta=(("k", char),))
    text = hand_to_json(hand)
    assert char not in text and len(text.splitlines()) == 1
    back = hand_from_json(text, source="x", line=1)
    assert back.players[0] == f"a{char}b" and back.meta == (("k", char),)
    assert hand_to_json(back) == hand_to_json(replace(hand, provenance=back.provenance))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"dealer": 4}, "seat out of range"),
        ({"players": ("a", "b")}, "players and styles"),
        ({"match_id": ""}, "match_id"),
        ({"ruleset": "riichi"}, "unknown ruleset"),
        ({"meta": ((1, "a"),)}, "meta keys and values must be strings"),
        ({"dice": (0, 7)}, "dice must be 1..6"),
        ({"started_at": "yesterday"}, "not ISO 8601"),
        ({"provenance": Provenance("", 3)}, "provenance needs a file name"),
        ({"hand_no": -1}, "hand_no and streak"),
        ({"players": ("a\udcff", "", "", "")}, "not valid Unicode"),
    ],
)
def test_writer_refuses_what_the_reader_would_reject(change: dict, message: str) -> None:
    hand = replace(random_hand(random.Random(4), "guobiao"), **change)
    with pytest.raises(RecordError, match=message):
        hand_to_json(hand)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"tiles": (99,)}, "not a tile: 99"),
        ({"claim": "pass"}, "unknown claim kind"),
        ({"line": 0}, "event line must be an integer >= 1"),
        ({"seq": -5}, "event seq must be an integer >= 0"),
        ({"from_seat": 4}, "seat out of range"),
    ],
)
def test_writer_refuses_bad_events(change: dict, message: str) -> None:
    hand = random_hand(random.Random(4), "guobiao")
    bad = replace(hand, events=(hand.events[0]._replace(**change),))
    with pytest.raises(RecordError, match=message):
        hand_to_json(bad)


def test_write_to_streams_and_atomic_path(tmp_path) -> None:
    hs = [random_hand(random.Random(i)) for i in range(3)]
    text_out, byte_out = io.StringIO(), io.BytesIO()
    assert write_canonical(hs, text_out) == 3
    assert write_canonical(iter(hs), byte_out) == 3
    assert byte_out.getvalue() == text_out.getvalue().encode("utf-8")
    target = tmp_path / "out.jsonl"
    target.write_text("old\n")

    def failing():
        yield hs[0]
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        write_canonical(failing(), target)
    assert target.read_text() == "old\n"  # a failed write leaves the old file untouched
    assert [p.name for p in tmp_path.iterdir()] == ["out.jsonl"]
    write_canonical(hs, target)
    assert target.read_bytes() == byte_out.getvalue()
    assert not any(isinstance(x, Reject) for x in read_canonical(target))


def test_the_format_knows_every_field_of_the_model() -> None:
    """If the record model grows a field, the format (and docs/format.md) must grow with it,
    or the new field would be lost on export without a word."""
    assert [f.name for f in fields(Hand)] == [
        "match_id", "hand_no", "ruleset", "profile", "dealer", "prevalent_wind", "events",
        "result", "players", "styles", "streak", "gold", "wall", "dice", "started_at", "meta",
        "provenance", "origin"]
    assert [f.name for f in fields(Provenance)] == ["source", "line", "raw"]  # raw: never written
    assert list(Event._fields) == [
        "seq", "kind", "seat", "tile", "tiles", "from_seat", "claimed", "tail", "claim", "win",
        "line"]
    assert [f.name for f in fields(Result)] == ["outcome", "wins", "scores", "payments"]
    assert [f.name for f in fields(Win)] == [
        "winner", "loser", "win_tile", "self_drawn", "fan_total", "fans", "pattern"]
    assert [f.name for f in fields(Payment)] == ["seat", "score", "reason", "win_no"]
    assert [f.name for f in fields(FanEntry)] == ["name", "count", "points"]
    # every model value is carried: a key per field (seq -> position/"q"); provenance and
    # origin share "source" (written: the origin, else the provenance; read: the origin)
    assert len(HAND_KEYS) == len(fields(Hand)) - 1 + 1  # + "v"
    assert len(EVENT_KEYS) == len(Event._fields)
    # a result carries its wins either as the version-1 fields (one win) or as "wins"
    assert set(RESULT_KEYS) == {"outcome", "wins", "scores", "payments", *WIN_KEYS}
    assert list(WIN_KEYS) == [f.name for f in fields(Win)]
    assert list(PAYMENT_KEYS) == [f.name for f in fields(Payment)]
