"""Tile kinds and their notations: Botzone codes, mpsz strings, Chinese names, Unicode glyphs.

A tile is a :class:`Tile`, an ``int`` subclass holding the compact storage code:

====== ============ =====================================
code   Botzone      kind
====== ============ =====================================
0-8    W1-W9        characters 万 (mpsz ``m``)
9-17   T1-T9        bamboo 条 (mpsz ``s``)
18-26  B1-B9        dots 筒/饼 (mpsz ``p``)
27-30  F1-F4        winds 东 南 西 北 (mpsz ``1z``-``4z``)
31-33  J1-J3        dragons 中 发 白 (mpsz ``5z``-``7z``, Chinese order)
34-41  H1-H8        flowers 春 夏 秋 冬 梅 兰 竹 菊 (mpsz extension ``1f``-``8f``)
====== ============ =====================================

mpsz order: mjstats writes the dragons in the Chinese order 中 发 白 (5z = 中, 6z = 发, 7z = 白),
the order of Botzone's J1-J3. Japanese tools (Tenhou) use 白 發 中 for 5z-7z; convert with
:func:`parse_mpsz` ``(dragon_order="japanese")`` when reading their strings.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Literal

from mjstats.errors import TileError

__all__ = [
    "ALL_KINDS",
    "FLOWERS",
    "HONOURS",
    "NUM_KINDS",
    "NUM_TILES",
    "SUITED",
    "Tile",
    "format_mpsz",
    "format_tiles",
    "parse_mpsz",
    "parse_tile",
    "parse_tiles",
    "tile_counts",
]

NUM_KINDS = 34  # suited and honour kinds: the kinds a playing hand can hold
NUM_TILES = 42  # with the eight flowers

_SUIT_LETTERS = "WTB"  # Botzone suit letters, in code order
_MPSZ_SUIT = "msp"  # mpsz letter of each suit, in code order (W=m, T=s, B=p)
_SUIT_CN = "万条筒"
_NUMERALS_CN = "一二三四五六七八九"
_HONOUR_CN = ("东风", "南风", "西风", "北风", "红中", "发财", "白板")
_FLOWER_CN = "春夏秋冬梅兰竹菊"
# Unicode Mahjong Tiles block: characters U+1F007.., bamboo U+1F010.., dots U+1F019..,
# winds U+1F000..U+1F003, red/green/white dragon U+1F004..U+1F006, flowers and seasons.
_UNICODE_SUIT_BASE = (0x1F007, 0x1F010, 0x1F019)
_UNICODE_HONOUR = (0x1F000, 0x1F001, 0x1F002, 0x1F003, 0x1F004, 0x1F005, 0x1F006)
# 春夏秋冬 are the seasons U+1F026..U+1F029; 梅兰竹菊 the flowers U+1F022..U+1F025.
_UNICODE_FLOWER = (0x1F026, 0x1F027, 0x1F028, 0x1F029, 0x1F022, 0x1F023, 0x1F024, 0x1F025)


class Tile(int):
    """One tile kind as its compact code (0-41); prints as its Botzone code.

    Tiles are interned: ``Tile(5) is Tile(5)``; use :func:`parse_tile` to read any notation.
    """

    __slots__ = ()

    def __new__(cls, code: int) -> Tile:
        try:
            return _INTERNED[code]
        except (KeyError, TypeError):
            raise TileError(f"tile code out of range 0..{NUM_TILES - 1}: {code!r}") from None

    # --- classification -------------------------------------------------------------------
    @property
    def code(self) -> int:
        return int(self)

    @property
    def is_suited(self) -> bool:
        return self < 27

    @property
    def is_honour(self) -> bool:
        return 27 <= self < 34

    @property
    def is_wind(self) -> bool:
        return 27 <= self < 31

    @property
    def is_dragon(self) -> bool:
        return 31 <= self < 34

    @property
    def is_flower(self) -> bool:
        return self >= 34

    @property
    def is_terminal(self) -> bool:
        return self < 27 and self % 9 in (0, 8)

    @property
    def suit(self) -> int | None:
        """0 characters, 1 bamboo, 2 dots; None for honours and flowers."""
        return self // 9 if self < 27 else None

    @property
    def rank(self) -> int:
        """1-9 for suited tiles; 1-4 winds, 1-3 dragons, 1-8 flowers (the Botzone digit)."""
        if self < 27:
            return self % 9 + 1
        if self < 31:
            return self - 26
        if self < 34:
            return self - 30
        return self - 33

    # --- notations --------------------------------------------------------------------------
    @property
    def botzone(self) -> str:
        return _BOTZONE[self]

    @property
    def mpsz(self) -> str:
        return _MPSZ[self]

    @property
    def chinese(self) -> str:
        return _CHINESE[self]

    @property
    def unicode(self) -> str:
        return _UNICODE[self]

    def __str__(self) -> str:
        return _BOTZONE[self]

    def __repr__(self) -> str:
        return f"Tile({_BOTZONE[self]})"

    def __reduce__(self) -> tuple[type[Tile], tuple[int]]:
        return (Tile, (int(self),))


def _botzone_code(code: int) -> str:
    if code < 27:
        return f"{_SUIT_LETTERS[code // 9]}{code % 9 + 1}"
    if code < 31:
        return f"F{code - 26}"
    if code < 34:
        return f"J{code - 30}"
    return f"H{code - 33}"


def _mpsz_code(code: int) -> str:
    if code < 27:
        return f"{code % 9 + 1}{_MPSZ_SUIT[code // 9]}"
    if code < 34:
        return f"{code - 26}z"
    return f"{code - 33}f"


def _chinese_name(code: int) -> str:
    if code < 27:
        return _NUMERALS_CN[code % 9] + _SUIT_CN[code // 9]
    if code < 34:
        return _HONOUR_CN[code - 27]
    return _FLOWER_CN[code - 34]


def _unicode_glyph(code: int) -> str:
    if code < 27:
        return chr(_UNICODE_SUIT_BASE[code // 9] + code % 9)
    if code < 34:
        return chr(_UNICODE_HONOUR[code - 27])
    return chr(_UNICODE_FLOWER[code - 34])


_BOTZONE = tuple(_botzone_code(c) for c in range(NUM_TILES))
_MPSZ = tuple(_mpsz_code(c) for c in range(NUM_TILES))
_CHINESE = tuple(_chinese_name(c) for c in range(NUM_TILES))
_UNICODE = tuple(_unicode_glyph(c) for c in range(NUM_TILES))
_INTERNED: dict[int, Tile] = {c: int.__new__(Tile, c) for c in range(NUM_TILES)}
ALL_KINDS: tuple[Tile, ...] = tuple(_INTERNED.values())
SUITED: tuple[Tile, ...] = ALL_KINDS[:27]
HONOURS: tuple[Tile, ...] = ALL_KINDS[27:34]
FLOWERS: tuple[Tile, ...] = ALL_KINDS[34:]

# Every accepted spelling of a single tile, mapped to its tile. Chinese has common variants:
# 饼 for 筒, 索 for 条, 萬/万, traditional 發 and 東南 etc., and the bare 中/发/白/东.
_BY_NAME: dict[str, Tile] = {}
for _t in ALL_KINDS:
    _BY_NAME[_BOTZONE[_t]] = _t
    _BY_NAME[_BOTZONE[_t].lower()] = _t
    _BY_NAME[_MPSZ[_t]] = _t
    _BY_NAME[_CHINESE[_t]] = _t
    _BY_NAME[_UNICODE[_t]] = _t
for _i, _n in enumerate(_NUMERALS_CN):
    for _suit, _aliases in enumerate(("萬", "索條", "饼餅")):
        for _a in _aliases:
            _BY_NAME[_n + _a] = ALL_KINDS[_suit * 9 + _i]
for _i, _names in enumerate(
    (("东", "東", "東風"), ("南",), ("西",), ("北",), ("中", "紅中"), ("发", "發", "發財"), ("白",))
):
    for _a in _names:
        _BY_NAME[_a] = ALL_KINDS[27 + _i]
_BY_NAME["🀄\ufe0e"] = ALL_KINDS[31]
_BY_NAME["🀄\ufe0f"] = ALL_KINDS[31]
for _i, _a in enumerate("春夏秋冬梅蘭竹菊"):
    _BY_NAME[_a] = ALL_KINDS[34 + _i]


def parse_tile(text: str | int) -> Tile:
    """Read one tile from a Botzone code, mpsz (``5m``), Chinese name, Unicode glyph or int code."""
    if isinstance(text, Tile):
        return text
    if isinstance(text, int) and not isinstance(text, bool):
        return Tile(text)
    if not isinstance(text, str):
        raise TileError(f"not a tile: {text!r}")
    tile = _BY_NAME.get(text.strip())
    if tile is None:
        raise TileError(f"unknown tile {text!r}")
    return tile


def parse_tiles(text: str | Iterable[str | int]) -> tuple[Tile, ...]:
    """Read several tiles: a whitespace- or comma-separated string of single-tile notations,
    an mpsz string (``123m456p``), or an iterable of single tiles."""
    if isinstance(text, str):
        stripped = text.strip()
        if not stripped:
            return ()
        if _MPSZ_RE.fullmatch(stripped.replace(" ", "")):
            return parse_mpsz(stripped)
        parts = [p for p in re.split(r"[\s,]+", stripped) if p]
        return tuple(parse_tile(p) for p in parts)
    return tuple(parse_tile(t) for t in text)


_MPSZ_RE = re.compile(r"(?:[0-9]+[mpszf])+")
_MPSZ_GROUP = re.compile(r"([0-9]+)([mpszf])")


def parse_mpsz(text: str, *, dragon_order: Literal["chinese", "japanese"] = "chinese") -> tuple[Tile, ...]:
    """Read an mpsz string such as ``123m456p789s11z``.

    ``m`` = 万, ``s`` = 条, ``p`` = 筒, ``z`` = honours 1-7 (E S W N then dragons), ``f`` = flowers 1-8.
    With the default Chinese order 5z 6z 7z are 中 发 白; ``dragon_order="japanese"`` reads them as
    白 發 中 (Tenhou). A ``0`` (red five in Japanese notation) is read as a 5.
    """
    compact = text.replace(" ", "")
    if not _MPSZ_RE.fullmatch(compact):
        raise TileError(f"not an mpsz string: {text!r}")
    tiles: list[Tile] = []
    for digits, letter in _MPSZ_GROUP.findall(compact):
        for ch in digits:
            n = int(ch) or 5
            if letter in "mps":
                tiles.append(ALL_KINDS[_MPSZ_SUIT.index(letter) * 9 + n - 1])
            elif letter == "z":
                if n > 7:
                    raise TileError(f"honour {n}z out of range 1..7 in {text!r}")
                if dragon_order == "japanese" and n >= 5:
                    n = 12 - n  # 5z 白 -> 7, 7z 中 -> 5
                tiles.append(ALL_KINDS[26 + n])
            else:
                if n > 8 or ch == "0":
                    raise TileError(f"flower {ch}f out of range 1..8 in {text!r}")
                tiles.append(ALL_KINDS[33 + n])
    return tuple(tiles)


def format_mpsz(tiles: Iterable[int]) -> str:
    """Write tiles as a sorted mpsz string (``123m456p789s11z``; dragons in Chinese order)."""
    groups: dict[str, list[str]] = {"m": [], "p": [], "s": [], "z": [], "f": []}
    for t in sorted(int(x) for x in tiles):
        m = _MPSZ[t]
        groups[m[1]].append(m[0])
    return "".join("".join(d) + k for k, d in groups.items() if d)


def tile_counts(tiles: Iterable[int], size: int = NUM_KINDS) -> list[int]:
    """Counts per kind code (a list of ``size`` ints): the form the rules engines work on."""
    counts = [0] * size
    for t in tiles:
        counts[t] += 1
    return counts


def format_tiles(
    tiles: Sequence[int], style: Literal["botzone", "chinese", "unicode", "mpsz"] = "botzone"
) -> str:
    """Tiles as text in one notation (space-separated except mpsz)."""
    if style == "mpsz":
        return format_mpsz(tiles)
    table = {"botzone": _BOTZONE, "chinese": _CHINESE, "unicode": _UNICODE}[style]
    return " ".join(table[t] for t in tiles)
