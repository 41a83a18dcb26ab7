"""The Guobiao fan calculator: every reading of a winning hand scored, the best one kept.

Each reading (division) is scored in three steps (reference guobiao.md, scoring principles):

1. collect the fans its sets, tiles and win make, each occurrence tagged with the sets it uses;
   combinations of sets follow 不拆移 / 不得相同 / 套算一次 (see :func:`_combine_chows`);
2. apply the 不计 rules of the fan table (fans.py) in table order: 不重复;
3. keep the division with the highest total, the first found on ties: 就高不就低.

The result matches the reference calculator (PyMahjongGB / Botzone) fan for fan, including its
flag corrections and its 明暗杠; tests/test_guobiao_differential.py checks that on 100,000 hands.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, NamedTuple, cast

from mjstats.errors import InvalidHand, NotWinningHand, TileError
from mjstats.rulesets.guobiao.divide import (
    CHOW,
    KONG,
    PAIR,
    PUNG,
    TERMINALS_AND_HONOURS,
    honours_and_knitted,
    is_seven_pairs,
    is_thirteen_orphans,
    knitted_straight_split,
    regular_divisions,
    regular_waits,
    seven_pairs_waits,
)
from mjstats.rulesets.guobiao.fans import FAN_BY_NAME, FANS
from mjstats.rulesets.guobiao.profiles import Profile, get_profile
from mjstats.slot_setters import frozen_record, record_setters
from mjstats.tiles import ALL_KINDS, Tile, parse_tile, parse_tiles

# fans found so far: fan order -> one tuple of source indices per occurrence
Found = dict[int, list[tuple[int, ...]]]

__all__ = ["FanItem", "FanResult", "Meld", "calculate_fans", "meets_minimum", "win_fan_total"]

Meld = tuple[str, "str | int | Tile", int]

# Fan orders by name, for the scoring code below.
_F: Final = {f.name: f.order for f in FANS}
# The orders the per-division scoring adds, as native ints (a str-keyed lookup a fan otherwise).
_O_FOUR_KONGS: Final = _F["四杠"]
_O_THREE_KONGS: Final = _F["三杠"]
_O_TWO_CONCEALED_KONGS: Final = _F["双暗杠"]
_O_TWO_MELDED_KONGS: Final = _F["双明杠"]
_O_MIXED_KONGS: Final = _F["明暗杠"]
_O_CONCEALED_KONG: Final = _F["暗杠"]
_O_MELDED_KONG: Final = _F["明杠"]
_O_ALL_PUNGS: Final = _F["碰碰和"]
_O_DRAGON_PUNG: Final = _F["箭刻"]
_O_TERMINAL_PUNG: Final = _F["幺九刻"]
_O_ALL_CHOWS: Final = _F["平和"]
_O_TWO_DRAGONS: Final = _F["双箭刻"]
_O_LITTLE_DRAGONS: Final = _F["小三元"]
_O_THREE_WINDS: Final = _F["三风刻"]
_O_LITTLE_WINDS: Final = _F["小四喜"]
_O_MELDED_HAND: Final = _F["全求人"]
_O_CHICKEN: Final = _F["无番和"]
_O_PREVALENT_WIND: Final = _F["圈风刻"]
_O_SEAT_WIND: Final = _F["门风刻"]
_O_OUTSIDE: Final = _F["全带幺"]
_O_ALL_FIVES: Final = _F["全带五"]
_O_EVEN_PUNGS: Final = _F["全双刻"]
# 双暗刻 / 三暗刻 / 四暗刻 by the number of concealed pungs and kongs
_O_HIDDEN_PUNGS: Final[list[int]] = [0, 0, _F["双暗刻"], _F["三暗刻"], _F["四暗刻"]]
# 边张 / 嵌张 / 单钓将 by _wait_position's code (0: none)
_O_WAITS: Final[list[int]] = [0, _F["边张"], _F["嵌张"], _F["单钓将"]]
# By fan order (index 0 unused): its points and its 不计 rules as orders (fans.py), so that
# applying them looks up no names.
_FAN_POINTS: Final[list[int]] = [0, *(f.points for f in FANS)]
_EXCLUDES: Final[list[tuple[int, ...]]] = [(), *(tuple(_F[n] for n in f.excludes) for f in FANS)]
_CONSUMES: Final[list[tuple[tuple[int, int], ...]]] = [
    (), *(tuple((_F[n], k) for n, k in f.consumes) for f in FANS)
]
_REPLACES: Final[list[tuple[tuple[int, int], ...]]] = [
    (), *(tuple((_F[a], _F[b]) for a, b in f.replaces) for f in FANS)
]
_HAS_RULES: Final[list[bool]] = [
    bool(_EXCLUDES[o] or _CONSUMES[o] or _REPLACES[o]) for o in range(len(FANS) + 1)
]
WIN: Final = -1  # occurrence source: the winning tile
_FLOWER: Final = FAN_BY_NAME["花牌"].order
HAND: Final[tuple[int, ...]] = ()  # occurrence source: the whole hand
_KIND_NAMES: Final = ["chow", "pung", "kong", "pair"]  # by set kind: CHOW, PUNG, KONG, PAIR (0-3)

# Tile classes (codes from mjstats.tiles).
_GREEN: Final = frozenset((10, 11, 12, 14, 16, 32))  # 23468 条 and 发
# 1234589筒 245689条 白
_REVERSIBLE: Final = frozenset((*range(18, 22), 22, 25, 26, 10, 12, 13, 14, 16, 17, 33))
_TERMINAL_OR_HONOUR: Final = frozenset(TERMINALS_AND_HONOURS)
_TERMINAL: Final = frozenset(t for t in TERMINALS_AND_HONOURS if t < 27)


class FanItem(NamedTuple):
    """One fan of a result: ``points`` per occurrence, ``count`` occurrences and, for each
    occurrence, the tiles that make it (the sets it combines, the winning tile or the hand).
    Immutable (a named tuple: cheap to build, compares by value)."""

    name: str
    name_en: str
    points: int
    count: int  # type: ignore[assignment]  # the field shadows tuple.count, as FanResult's users expect
    tiles: tuple[tuple[Tile, ...], ...]
    order: int

    @property
    def total(self) -> int:
        return self.points * self.count


@dataclass(frozen=True, slots=True)
class FanResult:
    """The best reading of a winning hand: its fans in table order and the total (flowers in).

    ``form`` names the winning shape; ``sets`` is the division scored, as (kind, tiles, exposed).
    """

    total: int
    fans: tuple[FanItem, ...]
    form: str
    sets: tuple[tuple[str, tuple[Tile, ...], bool], ...]
    profile: str = "standard"

    @property
    def fan_total(self) -> int:
        """Total without flowers (what the 8-fan minimum looks at)."""
        return self.total - sum(f.total for f in self.fans if f.name == "花牌")

    def as_pairs(self) -> tuple[tuple[int, str], ...]:
        """(points x count, name) per fan: the reference calculator's output shape."""
        return tuple((f.total, f.name) for f in self.fans)


# _build_result makes a FanResult a scored win by its slots (slot_setters.frozen_record): the
# dataclass __init__ runs interpreted even in the compiled build. slot_setters refuses, at
# import, a FanResult that does more than set its fields when made.
_FAN_RESULT: Final = record_setters(FanResult)


def meets_minimum(result: FanResult, minimum: int = 8) -> bool:
    """Whether a win reaches the Guobiao minimum (8 fan; flowers do not count)."""
    return result.fan_total >= minimum


# --------------------------------------------------------------------------- input


class _Pack(NamedTuple):
    """One set of a division (internal; a tuple for speed)."""

    kind: int
    tile: int  # chow: lowest tile
    exposed: bool


# Fast path for the common spellings (Botzone codes, ints, Tiles); parse_tile does the rest.
_FAST_TILES: Final[dict[object, int]] = {ALL_KINDS[t].botzone: t for t in range(34)}
_FAST_TILES.update({t: t for t in range(34)})


def _tile(value: str | int, what: str) -> int:
    cls = type(value)  # a native type test, where value.__class__ is an attribute look-up
    if cls is str or cls is int or cls is Tile:
        fast = _FAST_TILES.get(value)
        if fast is not None:
            return fast
    try:
        t = parse_tile(value)
    except TileError as exc:
        raise InvalidHand(f"{what}: {exc}") from None
    if t >= 34:
        raise InvalidHand(f"{what}: flower {t} cannot be part of a hand (pass flowers=N)")
    return int(t)


def _parse_meld(meld: Sequence, i: int) -> _Pack:
    if not isinstance(meld, Sequence) or isinstance(meld, str) or len(meld) != 3:
        raise InvalidHand(f"meld {i + 1}: expected (kind, tile, offer), got {meld!r}")
    kind, tile, offer = meld
    kind = str(kind).upper()
    t = _tile(tile, f"meld {i + 1}")
    if isinstance(offer, bool) or not isinstance(offer, int):
        raise InvalidHand(f"meld {i + 1}: offer must be an int 0..3, got {offer!r}")
    if kind == "CHI":
        if t >= 27 or t % 9 in (0, 8):
            raise InvalidHand(f"meld {i + 1}: CHI names its middle tile, {ALL_KINDS[t]} cannot be one")
        if not 1 <= offer <= 3:
            raise InvalidHand(f"meld {i + 1}: CHI offer must be 1..3 (the claimed tile), got {offer}")
        return _Pack(CHOW, t - 1, True)
    if kind == "PENG":
        if not 1 <= offer <= 3:
            raise InvalidHand(f"meld {i + 1}: PENG offer must be 1..3 (the player), got {offer}")
        return _Pack(PUNG, t, True)
    if kind == "GANG":
        if not 0 <= offer <= 3:
            raise InvalidHand(f"meld {i + 1}: GANG offer must be 0..3 (0 = concealed), got {offer}")
        return _Pack(KONG, t, offer != 0)
    raise InvalidHand(f"meld {i + 1}: kind must be CHI, PENG or GANG, got {meld[0]!r}")


_MELDS: Final[dict[object, _Pack]] = {}  # parsed melds by their input tuple


def _pack_tiles(kind: int, t: int) -> tuple[int, ...]:
    if kind == CHOW:
        return (t, t + 1, t + 2)
    if kind == PUNG:
        return (t, t, t)
    if kind == KONG:
        return (t, t, t, t)
    return (t, t)


# Tiles of each set kind by its tile code, as Tile tuples (for the explanation in results).
# A list by kind (CHOW, PUNG, KONG, PAIR are 0-3), of lists by tile.
_PACK_TILES: Final[list[list[tuple[Tile, ...]]]] = [
    [
        tuple(ALL_KINDS[x] for x in _pack_tiles(kind, t)) if kind != CHOW or (t < 27 and t % 9 < 7)
        else ()
        for t in range(34)
    ]
    for kind in (CHOW, PUNG, KONG, PAIR)
]

def _mask(kinds: Iterable[int]) -> int:
    return sum(1 << t for t in kinds)


_SUITED_MASK: Final = (1 << 27) - 1
_TOH_MASK: Final = _mask(_TERMINAL_OR_HONOUR)
_TERMINAL_MASK: Final = _mask(_TERMINAL)
_REVERSIBLE_MASK: Final = _mask(_REVERSIBLE)
_GREEN_MASK: Final = _mask(_GREEN)
_RANK_MASK: Final = [0] + [_mask(s * 9 + r - 1 for s in range(3)) for r in range(1, 10)]  # by rank 1-9
_LOW4, _HIGH4, _MID3 = (_mask(t for r in ranks for t in range(27) if t % 9 + 1 == r)
                        for ranks in ((1, 2, 3, 4), (6, 7, 8, 9), (4, 5, 6)))


def _suit_fans(mask: int) -> list[tuple[int, int]]:
    """无字 / 缺一门 / 混一色 / 清一色 / 五门齐 from the kinds present: (order, count)."""
    missing = sum(1 for s in range(3) if not mask >> (s * 9) & 0x1FF)
    honours = mask >> 27
    out: list[tuple[int, int]] = []
    if not honours:
        out.append((_F["无字"], 1))
    if missing == 2:
        out.append((_F["混一色" if honours else "清一色"], 1))
    elif missing:
        out.append((_F["缺一门"], missing))  # all honours: three suits missing (字一色 drops it)
    elif honours & 0xF and honours >> 4:
        out.append((_F["五门齐"], 1))
    return out


def _trait_fans(mask: int) -> list[int]:
    """断幺 / 推不倒 / 绿一色 / 字一色 / 清幺九 / 混幺九: what every tile of the hand is."""
    out = []
    simples = not mask & _TOH_MASK
    if simples:
        out.append(_F["断幺"])
    if not mask & ~_REVERSIBLE_MASK:
        out.append(_F["推不倒"])
    if not mask & ~_GREEN_MASK:
        out.append(_F["绿一色"])
    if not simples:
        if not mask & _SUITED_MASK:
            out.append(_F["字一色"])
        elif not mask & ~_TERMINAL_MASK:
            out.append(_F["清幺九"])
        elif not mask & ~_TOH_MASK:
            out.append(_F["混幺九"])
    return out


def _range_fans(mask: int) -> list[int]:
    """全小 / 小于五 / 全大 / 大于五 / 全中: the ranks of an honour-free hand."""
    if mask >> 27:
        return []
    if not mask & ~_LOW4:
        return [_F["小于五" if mask & _RANK_MASK[4] else "全小"]]
    if not mask & ~_HIGH4:
        return [_F["大于五" if mask & _RANK_MASK[6] else "全大"]]
    if not mask & ~_MID3:
        return [_F["全中"]]
    return []


# _REPEAT[t][n]: n copies of tile t, for the whole-hand explanations.
_REPEAT: Final = [[(ALL_KINDS[t],) * n for n in range(5)] for t in range(34)]

# Concealed sets are shared immutable tuples: _CONCEALED[kind][tile].
_CONCEALED: Final[list[list[_Pack]]] = [
    [_Pack(kind, t, False) for t in range(34)] for kind in (CHOW, PUNG, KONG, PAIR)
]

# --------------------------------------------------------------------------- hand context


# The hand-level fan sets a reading gets (reference: special forms skip most of them): the
# key of _Hand.base, an index into its list of those made.
_BASE_REGULAR: Final = 0
_BASE_SEVEN_PAIRS: Final = 1
_BASE_SHIFTED_PAIRS: Final = 2
_BASE_KNITTED: Final = 3
_BASE_FLAGS: Final = 4


class _Hand:
    """Everything about one call that does not depend on the division being scored."""

    __slots__ = (
        "_base",
        "_waits",
        "all_counts",
        "concealed",
        "fixed",
        "fourth",
        "kinds",
        "kong_win",
        "last",
        "max_count",
        "n_kongs",
        "prevalent",
        "seat",
        "self_drawn",
        "standing",
        "win",
    )

    def __init__(self, standing: list[int], fixed: list[_Pack], win: int, self_drawn: bool,
                 fourth: bool, kong_win: bool, last: bool, seat: int, prevalent: int) -> None:
        self.standing = tuple(standing)
        conc = list(standing)
        conc[win] = conc[win] + 1  # not +=: on a list item, a generic in-place add compiled
        self.concealed = tuple(conc)
        allc = conc
        n_kongs = 0
        in_fixed = 0  # copies of the winning tile in the melds
        for p in fixed:
            t = p.tile
            if p.kind == CHOW:
                for x in range(t, t + 3):
                    allc[x] = allc[x] + 1
                if t <= win <= t + 2:
                    in_fixed += 1
            else:
                n = 4 if p.kind == KONG else 3
                allc[t] = allc[t] + n
                if t == win:
                    in_fixed += n
                if p.kind == KONG:
                    n_kongs += 1
        kinds = 0  # bitmask of the kinds present (hand, melds and winning tile)
        top = 0
        for t in range(34):
            n = allc[t]
            if n:
                kinds |= 1 << t
                if n > top:
                    top = n
        self.all_counts = allc
        self.max_count = top
        self.kinds = kinds
        self.fixed = fixed
        self.win = win
        self.self_drawn = self_drawn
        self.n_kongs = n_kongs
        self.seat = seat
        self.prevalent = prevalent
        # reference guobiao.md "Oracle quirks": the calculator corrects inconsistent flags.
        if standing[win]:
            fourth = False  # another copy in the hand: not the last one
        if in_fixed == 3:
            fourth = True  # three copies exposed: the winning tile is the last one
        if kong_win:
            # 杠上开花 needs a kong; 抢杠和 needs the tile to be nowhere else in the hand.
            kong_win = n_kongs > 0 if self_drawn else not (in_fixed or standing[win])
        self.fourth, self.kong_win, self.last = fourth, kong_win, last
        self._base: list[Found | None] = [None, None, None, None, None]
        self._waits: frozenset[int] | None = None

    # Hand-level fans: the same for every division, computed once and copied. Each part adds
    # its fans to ``out`` (no two parts add the same fan).
    def add_win_flags(self, out: Found) -> None:
        w: list[tuple[int, ...]] = [(WIN,)]
        if self.fourth:
            out[_F["和绝张"]] = w
        if self.last:
            out[_F["妙手回春" if self.self_drawn else "海底捞月"]] = w
        if self.kong_win:
            out[_F["杠上开花" if self.self_drawn else "抢杠和"]] = w
        if self.self_drawn:
            out[_F["自摸"]] = w

    def add_suits(self, out: Found) -> None:
        for order, n in _suit_fans(self.kinds):
            out[order] = [HAND] * n

    def add_traits(self, out: Found) -> None:
        for order in _trait_fans(self.kinds):
            out[order] = [HAND]

    def add_rank_range(self, out: Found) -> None:
        for order in _range_fans(self.kinds):
            out[order] = [HAND]

    def add_tile_hog(self, out: Found) -> None:
        # 四归一: all four copies of a kind used without declaring a kong.
        n = -self.n_kongs
        for x in self.all_counts:
            if x == 4:
                n += 1
        if n > 0:
            out[_F["四归一"]] = [HAND] * n

    def add_concealment(self, out: Found) -> None:
        exposed = 0
        for p in self.fixed:
            if p.exposed:
                exposed += 1
        if exposed == 0:
            out[_F["不求人" if self.self_drawn else "门前清"]] = [HAND]
        elif exposed == 4 and not self.self_drawn:
            out[_F["全求人"]] = [HAND]
        # self-drawn already gives 自摸 through add_win_flags

    def add_nine_gates(self, out: Found) -> None:
        s = self.standing
        if self.fixed:
            return
        for suit in range(3):
            b = suit * 9
            if s[b] == 3 and s[b + 8] == 3 and all(s[b + r] == 1 for r in range(1, 8)):
                if sum(s) == 13:  # the shape's 13 tiles and nothing else
                    out[_F["九莲宝灯"]] = [HAND]
                return

    def base(self, key: int) -> Found:
        """The hand-level fans of reading ``key`` (_BASE_*), made once a hand."""
        got = self._base[key]
        if got is None:
            got = {}
            self.add_win_flags(got)
            if key == _BASE_REGULAR:
                self.add_concealment(got)
            if key != _BASE_SHIFTED_PAIRS and key != _BASE_FLAGS:
                self.add_suits(got)
            if key != _BASE_KNITTED and key != _BASE_FLAGS:
                self.add_traits(got)
            if key in (_BASE_REGULAR, _BASE_SEVEN_PAIRS):
                self.add_rank_range(got)
            if key in (_BASE_REGULAR, _BASE_SEVEN_PAIRS, _BASE_KNITTED):
                self.add_tile_hog(got)
            if key == _BASE_REGULAR:
                self.add_nine_gates(got)
            self._base[key] = got
        return got

    def waits(self) -> frozenset[int]:
        """Tiles the hand waited on (regular shape; plus 七对 when nothing is melded)."""
        if self._waits is None:
            w = regular_waits(self.standing)
            if w and not self.fixed:
                w = w | seven_pairs_waits(self.standing)
            self._waits = w
        return self._waits


# --------------------------------------------------------------------------- set combinations


def _suit(t: int) -> int:
    return t // 9


def _rank(t: int) -> int:
    return t % 9 + 1


def _chows_2(a: int, b: int) -> str | None:
    """The fan two chows (lowest tiles a, b) make together."""
    if _suit(a) != _suit(b):
        return "喜相逢" if _rank(a) == _rank(b) else None
    if abs(a - b) == 3:
        return "连六"
    if {_rank(a), _rank(b)} == {1, 7}:
        return "老少副"
    if a == b:
        return "一般高"
    return None


def _shifted(ranks: Sequence[int], step: int) -> bool:
    return all(ranks[i] + step == ranks[i + 1] for i in range(len(ranks) - 1))


def _chows_3(a: int, b: int, c: int) -> str | None:
    """The fan three chows (sorted lowest tiles) make together."""
    suits = {_suit(a), _suit(b), _suit(c)}
    ranks = sorted((_rank(a), _rank(b), _rank(c)))
    if len(suits) == 3:
        if _shifted(ranks, 1):
            return "三色三步高"
        if ranks[0] == ranks[2]:
            return "三色三同顺"
        if ranks == [1, 4, 7]:
            return "花龙"
        return None
    if len(suits) == 1:
        if ranks == [1, 4, 7]:
            return "清龙"
        if _shifted(ranks, 1) or _shifted(ranks, 2):
            return "一色三步高"
        if ranks[0] == ranks[2]:
            return "一色三同顺"
    return None


def _chows_4(t: Sequence[int]) -> str | None:
    if len({_suit(x) for x in t}) != 1:
        return None
    if _shifted(t, 1) or _shifted(t, 2):
        return "一色四步高"
    if t[0] == t[3]:
        return "一色四同顺"
    return None


def _pungs_2(a: int, b: int) -> str | None:
    if a < 27 and b < 27:
        return "双同刻" if _rank(a) == _rank(b) else None
    if a >= 31 and b >= 31:
        return "双箭刻"
    return None


def _pungs_3(a: int, b: int, c: int) -> str | None:
    if c < 27:
        suits = {_suit(a), _suit(b), _suit(c)}
        ranks = sorted((_rank(a), _rank(b), _rank(c)))
        if len(suits) == 3:
            if _shifted(ranks, 1):
                return "三色三节高"
            if ranks[0] == ranks[2]:
                return "三同刻"
        elif len(suits) == 1 and _shifted((a, b, c), 1):
            return "一色三节高"
        return None
    if a >= 27 and c <= 30:
        return "三风刻"
    if (a, b, c) == (31, 32, 33):
        return "大三元"
    return None


def _pungs_4(t: Sequence[int]) -> str | None:
    if t[3] < 27 and len({_suit(x) for x in t}) == 1 and _shifted(t, 1):
        return "一色四节高"
    if tuple(t) == (27, 28, 29, 30):
        return "大四喜"
    return None


_TRIPLES: Final = ((0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3))
_PAIRS_OF_4: Final = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))
_PAIRS_OF_3: Final = ((0, 1), (0, 2), (1, 2))
# Two-set chow fans, in the order the account-once rule keeps them (first = kept longest).
_TWO_CHOW_FANS: Final = ("一般高", "喜相逢", "连六", "老少副")


def _account_once(found: list[tuple[str, tuple[int, int]]], n_sets: int) -> list[tuple[str, tuple[int, int]]]:
    """套算一次 + 不得相同 over two-set fans among ``n_sets`` chows.

    Each fan links two chows; a chow not yet combined may combine once with one already combined,
    so the fans can be at most (chows involved - 1) for connected chows. When over the limit,
    repeats of the same fan go first (不得相同), then fans, 老少副 first.
    """
    involved = {i for _, pair in found for i in pair}
    limit = len(involved) - 1 if involved else 0
    if n_sets == 3:
        limit = min(limit, 2)
    kept = list(found)
    for floor in (1, 0):
        for name in reversed(_TWO_CHOW_FANS):
            while len(kept) > limit:
                same = [k for k in kept if k[0] == name]
                if len(same) <= floor:
                    break
                kept.remove(same[-1])
    return kept


def _combine_chows(chows: list[tuple[int, int]], out: Found) -> None:
    """Add the fans made by combining chows, given as (set index, lowest tile) sorted by tile."""
    for order, positions in _chow_combinations(tuple([t for _, t in chows])):
        out.setdefault(order, []).append(tuple([chows[p][0] for p in positions]))


def _combine_pungs(pungs: list[tuple[int, int]], out: Found) -> None:
    """Add the fans made by combining pungs/kongs, given as (set index, tile) sorted by tile."""
    for order, positions in _pung_combinations(tuple([t for _, t in pungs])):
        out.setdefault(order, []).append(tuple([pungs[p][0] for p in positions]))


Combination = tuple[tuple[int, tuple[int, ...]], ...]  # (fan order, positions of the sets used)


@lru_cache(maxsize=1 << 14)
def _chow_combinations(tiles: tuple[int, ...]) -> Combination:
    """Fans of 2-4 chows (sorted lowest tiles). 不拆移: a four-chow fan uses every chow; a
    three-chow fan leaves one chow that combines once more (套算一次); else pairs, limited by
    :func:`_account_once`. Pure in the tiles, so cached."""
    n = len(tiles)
    if n == 4:
        fan = _chows_4(tiles)
        if fan:
            return ((_F[fan], (0, 1, 2, 3)),)
    if n >= 3:
        for tri in _TRIPLES if n == 4 else ((0, 1, 2),):
            fan = _chows_3(*(tiles[i] for i in tri))
            if fan:
                found: list[tuple[int, tuple[int, ...]]] = [(_F[fan], tri)]
                if n == 4:
                    (free,) = {0, 1, 2, 3} - set(tri)
                    links = [(_chows_2(tiles[i], tiles[free]), i) for i in tri]
                    for name in _TWO_CHOW_FANS:
                        hit = next((i for f, i in links if f == name), None)
                        if hit is not None:
                            found.append((_F[name], (hit, free)))
                            break
                return tuple(found)
    pairs = _PAIRS_OF_4 if n == 4 else _PAIRS_OF_3 if n == 3 else ((0, 1),) if n == 2 else ()
    two = []
    for i, j in pairs:
        fan = _chows_2(tiles[i], tiles[j])
        if fan:
            two.append((fan, (i, j)))
    if n >= 3:
        two = _account_once(two, n)
    return tuple((_F[fan], pos) for fan, pos in two)


@lru_cache(maxsize=1 << 14)
def _pung_combinations(tiles: tuple[int, ...]) -> Combination:
    """Fans of 2-4 pungs/kongs (sorted tiles), by the same principles as the chows."""
    n = len(tiles)
    if n == 4:
        fan = _pungs_4(tiles)
        if fan:
            return ((_F[fan], (0, 1, 2, 3)),)
    if n >= 3:
        for tri in _TRIPLES if n == 4 else ((0, 1, 2),):
            fan = _pungs_3(*(tiles[i] for i in tri))
            if fan:
                found: list[tuple[int, tuple[int, ...]]] = [(_F[fan], tri)]
                if n == 4:
                    (free,) = {0, 1, 2, 3} - set(tri)
                    for i in range(4):
                        two = None if i == free else _pungs_2(tiles[i], tiles[free])
                        if two:
                            found.append((_F[two], (i, free)))
                            break
                return tuple(found)
    pairs = _PAIRS_OF_4 if n == 4 else _PAIRS_OF_3 if n == 3 else ((0, 1),) if n == 2 else ()
    return tuple(
        (_F[fan], (i, j)) for i, j in pairs if (fan := _pungs_2(tiles[i], tiles[j])) is not None
    )


def _pung_fans(packs: list[_Pack], pung_idx: list[int], concealed_pung: list[bool],
               out: Found) -> None:
    """Kong fans, concealed-pung fans, 碰碰和 and the per-pung 箭刻 / 幺九刻."""
    mk: list[int] = []  # melded kongs
    ck: list[int] = []  # concealed kongs
    cp: list[int] = []  # concealed pungs
    for j, i in enumerate(pung_idx):
        p = packs[i]
        if p.kind == KONG:
            if p.exposed:
                mk.append(i)
            else:
                ck.append(i)
        elif concealed_pung[j]:
            cp.append(i)
    kongs = mk + ck
    # Every kong fan whose definition holds; the table's 不计 rules keep the right one.
    if len(kongs) == 4:
        out[_O_FOUR_KONGS] = [tuple(kongs)]
    if len(kongs) >= 3:
        out[_O_THREE_KONGS] = [tuple(kongs)]
    if len(ck) >= 2:
        out[_O_TWO_CONCEALED_KONGS] = [tuple(ck)]
    if len(mk) >= 2:
        out[_O_TWO_MELDED_KONGS] = [tuple(mk)]
    if mk and ck:
        out[_O_MIXED_KONGS] = [(mk[0], ck[0])]
    if ck:
        out[_O_CONCEALED_KONG] = [(ck[0],)]
    if mk:
        out[_O_MELDED_KONG] = [(mk[0],)]
    hidden = ck + cp
    if len(hidden) >= 2:  # 双暗刻 / 三暗刻 / 四暗刻
        hidden.sort()
        out[_O_HIDDEN_PUNGS[len(hidden)]] = [tuple(hidden)]
    if len(pung_idx) == 4:
        out[_O_ALL_PUNGS] = [HAND]
    for i in pung_idx:
        t = packs[i].tile
        if t >= 31:
            out.setdefault(_O_DRAGON_PUNG, []).append((i,))
        elif _TOH_MASK >> t & 1:
            out.setdefault(_O_TERMINAL_PUNG, []).append((i,))


def _wind_fans(h: _Hand, packs: list[_Pack], pung_idx: Iterable[int], out: Found) -> None:
    for i in pung_idx:
        t = packs[i].tile
        if 27 <= t <= 30:
            if t - 27 == h.prevalent:
                out[_O_PREVALENT_WIND] = [(i,)]
            if t - 27 == h.seat:
                out[_O_SEAT_WIND] = [(i,)]


def _wait_position(packs: list[_Pack], win: int, start: int = 0) -> int:
    """Where the winning tile sits among concealed sets ``packs[start:]``: 1 边张 (an end of a
    chow) before 2 嵌张 (a chow's middle) before 3 单钓将 (the pair), as the reference ranks
    them when several fit; 0 none (an index into _O_WAITS)."""
    flags = 0
    for j in range(start, len(packs)):
        p = packs[j]
        if p.kind == CHOW:
            if p.tile + 1 == win:
                flags |= 2
            elif p.tile == win or p.tile + 2 == win:
                flags |= 1
        elif p.kind == PAIR and p.tile == win:
            flags |= 4
    if not flags:
        return 0
    return 1 if flags & 1 else 2 if flags & 2 else 3


def _wait_fans(h: _Hand, packs: list[_Pack], first_concealed: int, out: Found) -> None:
    """边张 / 嵌张 / 单钓将: only when exactly one tile kind completed the hand."""
    where = _wait_position(packs, h.win, first_concealed)
    if where and len(h.waits()) == 1:
        out[_O_WAITS[where]] = [(WIN,)]


def _pack_traits(packs: list[_Pack], out: Found) -> None:
    """全带幺 / 全带五 / 全双刻: a property every set and the pair share."""
    terminal = five = even = 0
    for p in packs:
        t = p.tile
        if t >= 27:
            terminal += 1
            continue
        r = _rank(t)
        if p.kind == CHOW:
            if r in (1, 7):
                terminal += 1
            elif r in (3, 4, 5):
                five += 1
        elif r in (1, 9):
            terminal += 1
        elif r == 5:
            five += 1
        elif r % 2 == 0:
            even += 1
    if terminal == 5:
        out[_O_OUTSIDE] = [HAND]
    elif five == 5:
        out[_O_ALL_FIVES] = [HAND]
    elif even == 5:
        out[_O_EVEN_PUNGS] = [HAND]


def _apply_exclusions(out: Found) -> None:
    """不重复: each counted fan, in table order, removes what its 不计 rules name."""
    for order in sorted(out):
        if not _HAS_RULES[order] or order not in out:
            continue
        # `in` and `del`, not dict.pop(key, None): a generic method call in the compiled build
        for excluded in _EXCLUDES[order]:
            if excluded in out:
                del out[excluded]
        for consumed, n in _CONSUMES[order]:
            target = out.get(consumed)
            if not target:
                continue
            if n:
                del target[-n:]
            else:
                used = {i for occ in out[order] for i in occ}
                target[:] = [occ for occ in target if not set(occ) <= used]
            if not target:
                del out[consumed]
        for old, new in _REPLACES[order]:
            if old in out:
                del out[old]
                out[new] = [(WIN,)]


def _total(out: Found) -> int:
    total = 0
    for k, v in out.items():
        total += _FAN_POINTS[k] * len(v)
    return total


# --------------------------------------------------------------------------- readings


def _score_regular(h: _Hand, sets: tuple, pair: int) -> tuple[Found, list[_Pack]]:
    packs = list(h.fixed)
    first = len(packs)
    for k, t in sets:
        packs.append(_CONCEALED[k][t])
    packs.append(_CONCEALED[PAIR][pair])
    out = dict(h.base(_BASE_REGULAR))  # hand-level lists are shared: only per-set fans get appended

    # The chows (set index, lowest tile) and the pungs and kongs (set index, tile), each sorted
    # by tile, ties in set order: sorted as one int a set, tile * 8 + index (index < 5).
    chow_keys: list[int] = []
    pung_keys: list[int] = []
    pung_idx: list[int] = []
    for i, p in enumerate(packs):
        if p.kind == CHOW:
            chow_keys.append(p.tile * 8 + i)
        elif p.kind == PUNG or p.kind == KONG:
            pung_idx.append(i)
            pung_keys.append(p.tile * 8 + i)
    chow_keys.sort()
    chows = [(k & 7, k >> 3) for k in chow_keys]
    # A pung completed by a discard counts as exposed, unless the winning tile can be read as
    # part of a concealed chow (reference behaviour).
    win = h.win
    discard_pung = not h.self_drawn
    if discard_pung:
        for i, t in chows:
            if i >= first and t <= win <= t + 2:
                discard_pung = False
                break
    if pung_idx:
        concealed = [
            not packs[i].exposed and not (discard_pung and i >= first and packs[i].tile == win)
            for i in pung_idx
        ]
        _pung_fans(packs, pung_idx, concealed, out)

    pair_pack = len(packs) - 1
    if len(chows) == 4:
        double_dragon = _double_dragon(chows, pair)
        if double_dragon:
            out[_F[double_dragon]] = [HAND]
        else:
            _combine_chows(chows, out)
        if pair < 27:
            out[_O_ALL_CHOWS] = [HAND]
    else:
        if len(chows) == 2 or len(chows) == 3:
            _combine_chows(chows, out)
        if len(chows) != 3:
            pung_keys.sort()
            _combine_pungs([(k & 7, k >> 3) for k in pung_keys], out)
        # A dragon (wind) pair turns two dragon pungs (three wind pungs) into the small fan.
        two = out.get(_O_TWO_DRAGONS)
        if two and pair >= 31:
            out[_O_LITTLE_DRAGONS] = [(*two[0], pair_pack)]
        three = out.get(_O_THREE_WINDS)
        if three and 27 <= pair <= 30 and not two:
            out[_O_LITTLE_WINDS] = [(*three[0], pair_pack)]
    _pack_traits(packs, out)
    if _O_MELDED_HAND not in out and _O_FOUR_KONGS not in out:
        _wait_fans(h, packs, first, out)
    _wind_fans(h, packs, pung_idx, out)
    _apply_exclusions(out)
    if not out:
        out[_O_CHICKEN] = [HAND]
    return out, packs


def _double_dragon(chows: list[tuple[int, int]], pair: int) -> str | None:
    """三色双龙会 / 一色双龙会: 123 and 789 chows twice around a pair of fives."""
    if pair >= 27 or _rank(pair) != 5:
        return None
    ps = _suit(pair)
    shape = sorted((_suit(t), _rank(t)) for _, t in chows)
    others = sorted({0, 1, 2} - {ps})
    if shape == sorted((s, r) for s in others for r in (1, 7)):
        return "三色双龙会"
    if shape == [(ps, 1), (ps, 1), (ps, 7), (ps, 7)]:
        return "一色双龙会"
    return None


def _score_knitted(h: _Hand) -> tuple[Found, list[_Pack], tuple[int, ...]] | None:
    """组合龙 with one more set (concealed, or the one meld) and a pair."""
    if len(h.fixed) > 1:
        return None
    split = knitted_straight_split(h.concealed)
    if split is None:
        return None
    straight, rest = split
    divisions = regular_divisions(rest) if sum(rest) else ()
    if len(divisions) != 1:
        return None
    sets, pair = divisions[0]
    packs = [*h.fixed, *(_CONCEALED[k][t] for k, t in sets), _CONCEALED[PAIR][pair]]
    fourth = packs[0]
    out = {k: list(v) for k, v in h.base(_BASE_KNITTED).items()}
    out[_F["组合龙"]] = [HAND]
    if fourth.kind == CHOW:
        if pair < 27:
            out[_F["平和"]] = [HAND]
    else:
        # reference: no discard adjustment here; a lone concealed pung is just a pung.
        _pung_fans(packs, [0], [not fourth.exposed], out)
    if not h.fixed or (fourth.kind == KONG and not fourth.exposed):
        out[_F["不求人" if h.self_drawn else "门前清"]] = [HAND]
    win = h.win
    if not h.fixed:
        # reference: the wait is judged on the set and pair beside the knitted straight; a
        # winning tile inside the straight (no other copy) earns no wait fan.
        if rest[win]:
            left = list(rest)
            left[win] -= 1
            where = _wait_position(packs, win)
            if where and len(regular_waits(tuple(left))) == 1:
                out[_O_WAITS[where]] = [(WIN,)]
    elif h.concealed[win] > 1:
        out[_F["单钓将"]] = [(WIN,)]  # reference: with a meld, a held copy means a pair wait
    if fourth.kind != CHOW:
        _wind_fans(h, packs, [0], out)
    _apply_exclusions(out)
    return out, packs, straight


def _score_special(h: _Hand) -> tuple[Found, str] | None:
    """七对 / 连七对 / 十三幺 / 全不靠 / 七星不靠 on a hand with nothing melded."""
    c = h.concealed
    absent = 0  # 14 tiles: 七对 has at most 7 kinds, 十三幺 13, 全不靠 14
    for n in c:  # a loop, not c.count(0): a generic method call in the compiled build
        if not n:
            absent += 1
    if absent >= 27 and is_seven_pairs(c):
        kinds = [t for t in range(34) if c[t]]
        shifted = len(kinds) == 7 and kinds[6] < 27 and kinds[6] - kinds[0] == 6
        if shifted and _suit(kinds[0]) == _suit(kinds[6]):
            out = {k: list(v) for k, v in h.base(_BASE_SHIFTED_PAIRS).items()}
            out[_F["连七对"]] = [HAND]
            form = "seven_shifted_pairs"
        else:
            out = {k: list(v) for k, v in h.base(_BASE_SEVEN_PAIRS).items()}
            out[_F["七对"]] = [HAND]
            form = "seven_pairs"
    elif absent <= 21 and is_thirteen_orphans(c):
        out = {k: list(v) for k, v in h.base(_BASE_FLAGS).items()}
        out[_F["十三幺"]] = [HAND]
        form = "thirteen_orphans"
    else:
        hk = honours_and_knitted(c) if absent == 20 else None
        if hk is None:
            return None
        greater, straight = hk
        out = {k: list(v) for k, v in h.base(_BASE_FLAGS).items()}
        if greater:
            out[_F["七星不靠"]] = [HAND]
        else:
            out[_F["全不靠"]] = [HAND]
            if straight:
                out[_F["组合龙"]] = [HAND]
        form = "honours_and_knitted"
    _apply_exclusions(out)
    return out, form


# --------------------------------------------------------------------------- public entry


def _check_wind(name: str, value: object) -> None:
    """A wind argument must be an int 0..3 (E S W N), not a bool."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise InvalidHand(f"{name} must be 0..3 (E S W N), got {value!r}")


def calculate_fans(
    hand: str | Iterable[str | int],
    melds: Iterable[Meld],
    win_tile: str | int,
    *,
    flowers: int = 0,
    self_drawn: bool = False,
    fourth_tile: bool = False,
    kong_win: bool = False,
    last_tile: bool = False,
    seat_wind: int = 0,
    round_wind: int = 0,
    profile: str | Profile = "standard",
    heavenly: bool = False,
    earthly: bool = False,
    human: bool = False,
    with_tiles: bool = True,
) -> FanResult:
    """Score a Guobiao win: the best reading's fans (flowers included in ``total``).

    ``hand`` is the concealed tiles without ``win_tile``; ``melds`` are ``(kind, tile, offer)``
    as Botzone/PyMahjongGB write them. The 8-fan minimum is not applied (see meets_minimum).
    ``heavenly`` / ``earthly`` / ``human`` claim 天和 / 地和 / 人和 and count only in a profile
    that has them. ``with_tiles=False`` leaves each fan's tiles and the result's sets empty: the
    same fans and totals without the tiles a display needs (the replay compares only names,
    counts and points). Raises NotWinningHand, or InvalidHand for impossible input.
    """
    prof = get_profile(profile)
    if isinstance(hand, str):
        try:
            hand = parse_tiles(hand)  # any notation parse_tiles reads: "W1 W2", "123m", ...
        except TileError as exc:
            raise InvalidHand(f"hand: {exc}") from None
    # str and int codes by lookup (not bool or float, which hash like ints): the replay passes
    # ints; any other spelling makes the whole hand go through _tile (as the hand is iterated
    # again there, every tile is looked at here first)
    tiles: list[int] = []
    fast = True
    for t in hand:
        cls = type(t)
        code = _FAST_TILES.get(t) if cls is str or cls is int else None
        if code is None:
            fast = False
        else:
            tiles.append(code)
    if not fast:
        tiles = [_tile(t, "hand") for t in hand]
    packs = _packs_of(melds)
    win = _tile(win_tile, "winning tile")
    if len(packs) > 4:
        raise InvalidHand(f"{len(packs)} melds: a hand has at most 4")
    if len(tiles) != 13 - 3 * len(packs):
        raise InvalidHand(
            f"{len(tiles)} concealed tiles with {len(packs)} melds: expected {13 - 3 * len(packs)}"
            " (without the winning tile)"
        )
    _check_wind("seat_wind", seat_wind)
    _check_wind("round_wind", round_wind)
    if isinstance(flowers, bool) or not isinstance(flowers, int) or not 0 <= flowers <= 8:
        raise InvalidHand(f"flowers must be 0..8, got {flowers!r}")
    standing = [0] * 34
    for t in tiles:
        standing[t] = standing[t] + 1  # not +=: on a list item, a generic in-place add compiled
    h = _checked_hand(standing, packs, win, bool(self_drawn), bool(fourth_tile), bool(kong_win),
                      bool(last_tile), seat_wind, round_wind)
    best, _, best_packs, form, straight = _best_reading(h, bool(packs))
    if best is None:
        raise _not_winning(tiles, win, len(packs))
    # the extras' flags by name, only for a profile that has extras (ExtraFan.flag)
    flags = {"heavenly": heavenly, "earthly": earthly, "human": human} if prof.extras else None
    return _build_result(h, best, best_packs, form, straight, flowers, prof, flags, with_tiles)


def _packs_of(melds: Iterable[Meld]) -> list[_Pack]:
    """The melds as packs, each ``(kind, tile, offer)`` tuple parsed once (kept by value)."""
    packs = []
    for i, m in enumerate(melds):
        try:
            pack = _MELDS.get(m)  # (kind, tile, offer) tuples seen before
        except TypeError:  # unhashable: parse it every time
            pack = None
        if pack is None:
            pack = _parse_meld(m, i)
            if m.__class__ is tuple and m[2].__class__ is int and len(_MELDS) < 4096:
                _MELDS[m] = pack
        packs.append(pack)
    return packs


def _checked_hand(standing: list[int], packs: list[_Pack], win: int, self_drawn: bool, fourth: bool,
                  kong_win: bool, last: bool, seat: int, prevalent: int) -> _Hand:
    """The call's ``_Hand``; raises InvalidHand where a kind has more than four copies in all."""
    h = _Hand(standing, packs, win, self_drawn, fourth, kong_win, last, seat, prevalent)
    if h.max_count > 4:
        over = [ALL_KINDS[t].botzone for t in range(34) if h.all_counts[t] > 4]
        raise InvalidHand(f"more than four copies of {', '.join(over)} across hand, melds and win")
    return h


def _best_reading(h: _Hand, melded: bool) -> tuple[Found | None, int, list[_Pack], str, tuple[int, ...]]:
    """The best reading of the hand (就高不就低): its fans, their total (no flowers, no extras),
    its packs, form and knitted straight; no fans (None) where no reading wins."""
    best: Found | None = None
    best_total = -1
    form = "regular"
    best_packs: list[_Pack] = []
    straight: tuple[int, ...] = ()
    knitted = _score_knitted(h)
    if knitted is not None:
        best, best_packs, straight = knitted
        best_total = _total(best)
        form = "knitted_straight"
    elif not melded:
        special = _score_special(h)
        if special is not None:
            best, form = special
            best_total = _total(best)
    # 就高不就低: a 七对 hand is also read as a regular hand; the first higher total wins.
    if best is None or form == "seven_pairs":
        for sets, pair in regular_divisions(h.concealed):
            out, div_packs = _score_regular(h, sets, pair)
            total = _total(out)
            if total > best_total:
                best, best_total, best_packs, form = out, total, div_packs, "regular"
    return best, best_total, best_packs, form, straight


def _not_winning(tiles: list[int], win: int, melds: int) -> NotWinningHand:
    """The error of a hand no reading wins (its tiles as given)."""
    return NotWinningHand(
        f"not a winning hand: {' '.join(ALL_KINDS[t].botzone for t in tiles)}"
        f" + {ALL_KINDS[win].botzone} with {melds} meld(s)"
    )


def win_fan_total(standing: list[int], melds: list[tuple[str, int, int]], win_tile: int, *,
                  self_drawn: bool, fourth_tile: bool, kong_win: bool, last_tile: bool,
                  seat_wind: int, round_wind: int) -> int:
    """The total of ``calculate_fans`` (standard profile, no flowers, no extras) of the hand held
    as 34 counts ``standing`` (without ``win_tile``, a tile code): the same checks and reading,
    with no result built (the decision judge asks only whether a win reaches 8 fan). ``standing``
    is not changed. Raises NotWinningHand or InvalidHand as ``calculate_fans`` does."""
    packs = _packs_of(melds)
    win = _tile(win_tile, "winning tile")
    if len(packs) > 4:
        raise InvalidHand(f"{len(packs)} melds: a hand has at most 4")
    held = 0
    for k in range(34):
        held += standing[k]
    if held != 13 - 3 * len(packs):
        raise InvalidHand(
            f"{held} concealed tiles with {len(packs)} melds: expected {13 - 3 * len(packs)}"
            " (without the winning tile)"
        )
    _check_wind("seat_wind", seat_wind)
    _check_wind("round_wind", round_wind)
    h = _checked_hand(standing, packs, win, self_drawn, fourth_tile, kong_win, last_tile, seat_wind,
                      round_wind)
    best, best_total, _, _, _ = _best_reading(h, bool(packs))
    if best is None:
        raise _not_winning([t for t in range(34) for _ in range(standing[t])], win, len(packs))
    return best_total


# By fan order (index 0 unused): what a result's FanItem shows of each fan.
_FAN_NAME: Final[list[str]] = ["", *(f.name for f in FANS)]
_FAN_NAME_EN: Final[list[str]] = ["", *(f.name_en for f in FANS)]
_WIN_TILES: Final[list[tuple[Tile, ...]]] = [(ALL_KINDS[t],) for t in range(34)]
# one empty explanation per flower, for 0-8 flowers (flowers are set aside: no tiles to show)
_FLOWER_TILES: Final[list[tuple[tuple[Tile, ...], ...]]] = [((),) * n for n in range(9)]
_NO_TILES: Final[tuple[tuple[Tile, ...], ...]] = ()
# tuple.__new__ makes a FanItem as the named tuple's own __new__ does (it calls it), without
# that __new__'s interpreted Python frame: once per fan of every result
_TUPLE_NEW: Final = tuple.__new__
_FAN_ITEM: Final = FanItem  # a static, where the class's own name is a module dict look-up


def _fan_item(name: str, name_en: str, points: int, count: int,
              tiles: tuple[tuple[Tile, ...], ...], order: int) -> FanItem:
    """``FanItem(name, name_en, points, count, tiles, order)``, the same named tuple, made fast."""
    return cast("FanItem", _TUPLE_NEW(_FAN_ITEM, (name, name_en, points, count, tiles, order)))


def _hand_tiles(counts: list[int], kinds: int) -> tuple[Tile, ...]:
    """Every tile of the hand (melds and winning tile in), in code order: a whole-hand fan's.
    ``kinds`` is the bitmask of the kinds present (_Hand.kinds): only those are visited."""
    tiles: list[Tile] = []
    while kinds:
        low = kinds & -kinds
        t = low.bit_length() - 1
        tiles.extend(_REPEAT[t][counts[t]])
        kinds ^= low
    return tuple(tiles)


def _occurrence_tiles(occ: tuple[int, ...], hand_tiles: tuple[Tile, ...], win: int,
                      pack_tiles: list[tuple[Tile, ...]]) -> tuple[Tile, ...]:
    """The tiles one occurrence of a fan is made of: the hand, the winning tile or its sets."""
    if not occ:
        return hand_tiles
    if len(occ) == 1:
        i = occ[0]
        return _WIN_TILES[win] if i == WIN else pack_tiles[i]
    tiles: list[Tile] = []
    for i in occ:
        tiles.extend(pack_tiles[i])
    return tuple(tiles)


def _build_result(h: _Hand, fans: Found, packs: list[_Pack], form: str,
                  straight: tuple[int, ...], flowers: int, prof: Profile,
                  flags: dict[str, bool] | None, with_tiles: bool = True) -> FanResult:
    """The FanResult of the best reading ``fans``: the profile's extras claimed in ``flags``
    first, then the fans in table order (flowers in), with their tiles if ``with_tiles``."""
    hand_tiles: tuple[Tile, ...] = ()
    pack_tiles: list[tuple[Tile, ...]] = []
    if with_tiles:
        hand_tiles = _hand_tiles(h.all_counts, h.kinds)
        pack_tiles = [_PACK_TILES[p.kind][p.tile] for p in packs]
    win = h.win

    items: list[FanItem] = []
    total = 0
    excluded: set[str] = set()  # the names the extras claimed exclude
    if prof.extras and flags is not None:
        for extra in prof.extras:
            if flags.get(extra.flag):
                shown = (hand_tiles,) if with_tiles else ()
                items.append(_fan_item(extra.name, extra.name_en, extra.points, 1, shown, 0))
                total += extra.points
                excluded.update(extra.excludes)
    if flowers:
        fans = dict(fans)
        fans[_FLOWER] = [()] * flowers  # one per flower; no tiles to show (flowers are set aside)
    for order in sorted(fans):
        name = _FAN_NAME[order]
        if excluded and name in excluded:
            continue
        occ = fans[order]
        count = len(occ)
        if not with_tiles:
            tiles = _NO_TILES
        elif order == _FLOWER:
            tiles = _FLOWER_TILES[flowers]
        else:
            tiles = tuple([_occurrence_tiles(o, hand_tiles, win, pack_tiles) for o in occ])
        points = _FAN_POINTS[order]
        items.append(_fan_item(name, _FAN_NAME_EN[order], points, count, tiles, order))
        total += points * count
    sets: list[tuple[str, tuple[Tile, ...], bool]] = []
    if with_tiles:
        if straight:
            sets.append(("knitted", tuple([ALL_KINDS[t] for t in straight]), False))
        if form == "regular" or form == "knitted_straight":
            for p, pack in zip(packs, pack_tiles, strict=True):
                sets.append((_KIND_NAMES[p.kind], pack, p.exposed))
    # FanResult(...) by its slots: in the compiled build set by name, one C call a field
    # (slot_setters.frozen_record; its dataclass __init__ runs interpreted)
    return frozen_record(FanResult, _FAN_RESULT, (total, tuple(items), form, tuple(sets), prof.name))
