"""Tile kinds and notations: every notation reads back to the same tile."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mjstats.errors import TileError
from mjstats.tiles import (
    ALL_KINDS,
    FLOWERS,
    HONOURS,
    SUITED,
    Tile,
    format_mpsz,
    format_tiles,
    parse_mpsz,
    parse_tile,
    parse_tiles,
    tile_counts,
)


def test_kinds_and_codes():
    assert len(ALL_KINDS) == 42 and len(SUITED) == 27 and len(HONOURS) == 7 and len(FLOWERS) == 8
    assert [str(t) for t in ALL_KINDS[:9]] == [f"W{i}" for i in range(1, 10)]
    assert str(Tile(9)) == "T1" and str(Tile(18)) == "B1"
    assert [str(t) for t in HONOURS] == ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]
    assert [str(t) for t in FLOWERS] == [f"H{i}" for i in range(1, 9)]
    assert Tile(5) is Tile(5) and Tile(5) == 5


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("W1", 0), ("一万", 0), ("1m", 0), ("T5", 13), ("五条", 13), ("5s", 13), ("五索", 13),
        ("B9", 26), ("九筒", 26), ("九饼", 26), ("9p", 26), ("F1", 27), ("东风", 27), ("东", 27),
        ("1z", 27), ("F4", 30), ("北风", 30), ("J1", 31), ("红中", 31), ("中", 31), ("5z", 31),
        ("J2", 32), ("发财", 32), ("發", 32), ("6z", 32), ("J3", 33), ("白板", 33), ("7z", 33),
        ("H1", 34), ("春", 34), ("1f", 34), ("H8", 41), ("菊", 41), ("🀇", 0), ("🀄", 31),
        ("w1", 0),
    ],
)
def test_parse_notations(text, code):
    assert parse_tile(text) == code


def test_properties():
    t = parse_tile("T1")
    assert t.is_suited and t.is_terminal and t.suit == 1 and t.rank == 1
    assert parse_tile("J2").is_dragon and parse_tile("J2").rank == 2
    assert parse_tile("F3").is_wind and parse_tile("F3").is_honour
    assert parse_tile("H2").is_flower and parse_tile("H2").suit is None
    assert parse_tile("B5").chinese == "五筒" and parse_tile("J1").chinese == "红中"
    assert parse_tile("W1").unicode == "\U0001F007"


def test_mpsz_dragon_orders():
    assert [str(t) for t in parse_mpsz("567z")] == ["J1", "J2", "J3"]  # Chinese: 中 发 白
    assert [str(t) for t in parse_mpsz("567z", dragon_order="japanese")] == ["J3", "J2", "J1"]
    assert [str(t) for t in parse_mpsz("0m")] == ["W5"]  # red five reads as a five
    assert format_mpsz(parse_tiles("123m456p789s11z")) == "123m456p789s11z"


@pytest.mark.parametrize("bad", ["X1", "W0", "T10", "", "8z", "9f", "红", 42, -1, 3.5])
def test_bad_tiles_raise(bad):
    with pytest.raises(TileError):
        parse_tile(bad)


def test_parse_tiles_forms():
    assert parse_tiles("W1 W2, W3") == parse_tiles("123m") == parse_tiles(["一万", "2m", 2])
    assert parse_tiles("") == ()
    assert tile_counts(parse_tiles("11m9p"))[0] == 2


@given(st.lists(st.integers(min_value=0, max_value=41), max_size=20))
def test_every_notation_round_trips(codes):
    tiles = [Tile(c) for c in codes]
    for style in ("botzone", "chinese", "unicode"):
        assert list(parse_tiles(format_tiles(tiles, style))) == tiles if tiles else True
    assert sorted(parse_tiles(format_mpsz(tiles))) == sorted(tiles)
    for t in tiles:
        assert parse_tile(t.botzone) is t
        assert parse_tile(t.mpsz) is t
        assert parse_tile(t.chinese) is t
        assert parse_tile(t.unicode) is t
        assert parse_tile(int(t)) is t
