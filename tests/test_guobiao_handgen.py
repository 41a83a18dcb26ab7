"""A generator of Guobiao test hands (winning, near-miss and invalid) and the oracle adapter.

Uniform random tiles almost never win, so hands are composed from sets and pairs with biases
toward every special form and fan (themes: one suit, honours, terminals, rank ranges, green,
reversible, patterned chow/pung groups), then melds, kongs, the winning tile and the flags are
drawn. A share is mutated into near-misses (one tile changed) or invalid input. The module also
holds the PyMahjongGB adapter the differential tests use; its own tests check the generator.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

import pytest

from mjstats.tiles import ALL_KINDS

CODES = [ALL_KINDS[t].botzone for t in range(34)]
SUITED = list(range(27))
WINDS = [27, 28, 29, 30]
DRAGONS = [31, 32, 33]
TERMINALS = [0, 8, 9, 17, 18, 26]
GREEN = [10, 11, 12, 14, 16, 32]
REVERSIBLE = [18, 19, 20, 21, 22, 25, 26, 10, 12, 13, 14, 16, 17, 33]


@dataclass
class Case:
    """One input to calculate_fans / the oracle."""

    hand: list[int]
    melds: list[tuple[str, int, int]]  # (kind, tile code, offer); CHI tile = middle
    win: int
    flags: dict = field(default_factory=dict)
    kind: str = "win"

    def kwargs(self) -> dict:
        return dict(self.flags)

    def our_args(self) -> tuple:
        return ([CODES[t] for t in self.hand], [(k, CODES[t], o) for k, t, o in self.melds], CODES[self.win])


def oracle(case: Case):
    """The reference result: tuple of (points, name) or the error string it raised."""
    from MahjongGB import MahjongFanCalculator

    f = case.flags
    try:
        return MahjongFanCalculator(
            pack=tuple((k, CODES[t], o) for k, t, o in case.melds),
            hand=tuple(CODES[t] for t in case.hand),
            winTile=CODES[case.win],
            flowerCount=f.get("flowers", 0),
            isSelfDrawn=f.get("self_drawn", False),
            is4thTile=f.get("fourth_tile", False),
            isAboutKong=f.get("kong_win", False),
            isWallLast=f.get("last_tile", False),
            seatWind=f.get("seat_wind", 0),
            prevalentWind=f.get("round_wind", 0),
        )
    except TypeError as exc:
        return str(exc)


ORACLE_CATEGORY = {
    "ERROR_WRONG_TILES_COUNT": "invalid",
    "ERROR_TILE_COUNT_GREATER_THAN_4": "invalid",
    "ERROE_WRONG_TILE_CODE": "invalid",
    "ERROR_NOT_WIN": "not_win",
}


def ours(case: Case):
    """Our result in the oracle's shape, or the error category."""
    from mjstats.errors import InvalidHand, NotWinningHand
    from mjstats.rulesets.guobiao import calculate_fans

    hand, melds, win = case.our_args()
    try:
        return calculate_fans(hand, melds, win, **case.kwargs()).as_pairs()
    except NotWinningHand:
        return "not_win"
    except InvalidHand:
        return "invalid"


def compare(case: Case) -> tuple[object, object]:
    """(ours, oracle) normalised so that equal means agreement."""
    theirs = oracle(case)
    if isinstance(theirs, str):
        theirs = ORACLE_CATEGORY.get(theirs, theirs)
    return ours(case), theirs


# ----------------------------------------------------------------------------- generator


class HandGenerator:
    """Seeded source of test cases biased toward every Guobiao form and fan."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    # -- sets ---------------------------------------------------------------------------
    def _chow(self, pool: list[int]) -> tuple[str, int] | None:
        starts = [t for t in pool if t < 27 and t % 9 <= 6 and t + 1 in pool and t + 2 in pool]
        return ("chow", self.rng.choice(starts)) if starts else None

    def _pung(self, pool: list[int]) -> tuple[str, int]:
        return ("pung", self.rng.choice(pool))

    def _pattern(self) -> list[tuple[str, int]]:
        """A group of 2-4 sets making a combination fan."""
        r = self.rng
        s = r.randrange(3)
        others = [x for x in range(3) if x != s]
        r.shuffle(others)
        b = s * 9
        choice = r.randrange(19)
        if choice == 0:  # 一色四同顺 / 三同顺 / 一般高
            lo = r.randrange(7)
            return [("chow", b + lo)] * r.choice((2, 3, 4))
        if choice == 1:  # 一色四步高 / 三步高
            step = r.choice((1, 2))
            n = r.choice((3, 4))
            lo = r.randrange(7 - step * (n - 1))
            return [("chow", b + lo + step * i) for i in range(n)]
        if choice == 2:  # 一色四节高 / 三节高
            n = r.choice((3, 4))
            lo = r.randrange(10 - n)
            return [("pung", b + lo + i) for i in range(n)]
        if choice == 3:  # 清龙
            return [("chow", b), ("chow", b + 3), ("chow", b + 6)]
        if choice == 4:  # 花龙
            return [("chow", x * 9 + 3 * i) for i, x in enumerate([s, *others])]
        if choice == 5:  # 三色三同顺 / 喜相逢
            lo = r.randrange(7)
            return [("chow", x * 9 + lo) for x in [s, *others][: r.choice((2, 3))]]
        if choice == 6:  # 三色三步高
            lo = r.randrange(5)
            return [("chow", x * 9 + lo + i) for i, x in enumerate([s, *others])]
        if choice == 7:  # 三同刻 / 双同刻
            rank = r.randrange(9)
            return [("pung", x * 9 + rank) for x in [s, *others][: r.choice((2, 3))]]
        if choice == 8:  # 三色三节高
            lo = r.randrange(7)
            return [("pung", x * 9 + lo + i) for i, x in enumerate([s, *others])]
        if choice == 9:  # wind pungs: 大四喜 / 三风刻 / 小四喜 (pair later)
            n = r.choice((3, 3, 4))
            return [("pung", w) for w in r.sample(WINDS, n)]
        if choice == 10:  # dragons: 大三元 / 双箭刻 / 小三元
            n = r.choice((2, 3))
            return [("pung", d) for d in r.sample(DRAGONS, n)]
        if choice == 11:  # 老少副, double: 一色/三色双龙会
            if r.random() < 0.5:
                return [("chow", b), ("chow", b + 6), ("chow", b), ("chow", b + 6)]
            return [("chow", others[0] * 9), ("chow", others[0] * 9 + 6),
                    ("chow", others[1] * 9), ("chow", others[1] * 9 + 6)]
        if choice == 12:  # 连六
            lo = r.randrange(4)
            return [("chow", b + lo), ("chow", b + lo + 3)]
        if choice == 13:  # 全带五 material
            return [r.choice((("chow", b + 2), ("chow", b + 3), ("chow", b + 4), ("pung", b + 4)))
                    for _ in range(r.choice((2, 3, 4)))]
        if choice == 14:  # even pungs
            return [("pung", r.randrange(3) * 9 + r.choice((1, 3, 5, 7))) for _ in range(r.choice((2, 4)))]
        if choice == 15:  # terminal pungs
            return [("pung", t) for t in r.sample(TERMINALS, r.choice((2, 3, 4)))]
        if choice == 16:  # honour pungs
            return [("pung", t) for t in r.sample(WINDS + DRAGONS, r.choice((2, 3, 4)))]
        if choice == 17:  # kong-heavy (pungs later turned into kongs)
            return [("pung", t) for t in r.sample(range(34), r.choice((2, 3, 4)))]
        lo = r.randrange(7)  # 234s 223344p-style overlaps (套算一次)
        return [("chow", b + lo), ("chow", b + lo), ("chow", others[0] * 9 + lo),
                ("chow", b + min(lo + 3, 6))]

    def _theme_pool(self) -> list[int]:
        r = self.rng
        choice = r.randrange(14)
        s = r.randrange(3)
        if choice == 0:
            return list(range(s * 9, s * 9 + 9))  # 清一色
        if choice == 1:
            return [*range(s * 9, s * 9 + 9), *WINDS, *DRAGONS]  # 混一色
        if choice == 2:
            return TERMINALS + WINDS + DRAGONS  # 混幺九
        if choice == 3:
            return WINDS + DRAGONS  # 字一色
        if choice == 4:
            return [x * 9 + k for x in range(3) for k in range(4)]  # 小于五 / 全小
        if choice == 5:
            return [x * 9 + k for x in range(3) for k in range(5, 9)]  # 大于五 / 全大
        if choice == 6:
            return [x * 9 + k for x in range(3) for k in range(3, 6)]  # 全中
        if choice == 7:
            return GREEN
        if choice == 8:
            return REVERSIBLE
        if choice == 9:
            return [t for t in SUITED if t % 9 not in (0, 8)]  # 断幺
        if choice == 10:
            return [t for t in range(27) if t // 9 != s] + WINDS + DRAGONS  # 缺一门
        if choice == 11:
            return TERMINALS
        return list(range(34))

    def _regular_sets(self) -> tuple[list[tuple[str, int]], int] | None:
        r = self.rng
        sets: list[tuple[str, int]] = []
        if r.random() < 0.6:
            sets = self._pattern()[:4]
        pool = self._theme_pool()
        chow_bias = r.choice((0.0, 0.3, 0.6, 0.9, 1.0))
        tries = 0
        while len(sets) < 4 and tries < 20:
            tries += 1
            got = self._chow(pool) if r.random() < chow_bias else None
            sets.append(got or self._pung(pool))
        if len(sets) < 4:
            return None
        if r.random() < 0.15:
            pair = r.choice(WINDS + DRAGONS)
        elif r.random() < 0.15:
            pair = r.choice([4, 13, 22])
        else:
            pair = r.choice(pool)
        return sets, pair

    # -- cases -----------------------------------------------------------------------------
    def _flags(self) -> dict:
        r = self.rng
        return {
            "self_drawn": r.random() < 0.45,
            "fourth_tile": r.random() < 0.15,
            "kong_win": r.random() < 0.15,
            "last_tile": r.random() < 0.1,
            "seat_wind": r.randrange(4),
            "round_wind": r.randrange(4),
            "flowers": r.choice((0, 0, 0, 1, 2, 3)),
        }

    def regular(self) -> Case | None:
        r = self.rng
        got = self._regular_sets()
        if got is None:
            return None
        sets, pair = got
        n_fixed = r.choices((0, 1, 2, 3, 4), weights=(30, 25, 20, 15, 10))[0]
        order = list(range(4))
        r.shuffle(order)
        melds: list[tuple[str, int, int]] = []
        hand: list[int] = [pair, pair]
        kong_p = r.choice((0.0, 0.2, 0.5, 0.9))
        for pos, i in enumerate(order):
            kind, t = sets[i]
            fixed = pos < n_fixed
            if kind == "chow":
                if fixed:
                    melds.append(("CHI", t + 1, r.randint(1, 3)))
                else:
                    hand += [t, t + 1, t + 2]
            elif r.random() < kong_p:
                melds.append(("GANG", t, 0 if not fixed or r.random() < 0.4 else r.randint(1, 3)))
            elif fixed:
                melds.append(("PENG", t, r.randint(1, 3)))
            else:
                hand += [t, t, t]
        counts = Counter(hand)
        for k, t, _ in melds:
            if k == "CHI":
                counts.update((t - 1, t, t + 1))
            else:
                counts[t] += 4 if k == "GANG" else 3
        if max(counts.values()) > 4:
            return None
        win = r.choice(hand)
        hand.remove(win)
        r.shuffle(hand)
        return Case(hand, melds, win, self._flags())

    def concealed_form(self) -> Case | None:
        """七对 / 连七对 / 十三幺 / 全不靠 / 七星不靠 / 组合龙 / 九莲宝灯."""
        r = self.rng
        choice = r.randrange(7)
        tiles: list[int]
        melds: list[tuple[str, int, int]] = []
        if choice == 0:  # 七对 (with quads sometimes)
            pool = self._theme_pool()
            kinds = [r.choice(pool) for _ in range(7)]
            tiles = [k for k in kinds for _ in range(2)]
        elif choice == 1:  # 连七对
            s = r.randrange(3)
            lo = r.randrange(3)
            tiles = [s * 9 + lo + i for i in range(7) for _ in range(2)]
        elif choice == 2:  # 十三幺
            orphans = TERMINALS + WINDS + DRAGONS
            tiles = [*orphans, r.choice(orphans)]
        elif choice in (3, 4):  # 全不靠 / 七星不靠 / 组合龙
            perm = r.sample(range(3), 3)
            knitted = [perm[i] * 9 + i + 3 * k for i in range(3) for k in range(3)]
            if choice == 3:
                n_honours = r.choice((5, 6, 7))
                tiles = r.sample(knitted, 14 - n_honours) + r.sample(WINDS + DRAGONS, n_honours)
            else:
                tiles = list(knitted)
                if r.random() < 0.4:
                    kind = r.choice(("CHI", "PENG", "GANG"))
                    if kind == "CHI":
                        t = r.randrange(27)
                        t = t - 1 if t % 9 == 8 else t + 1 if t % 9 == 0 else t
                        melds.append(("CHI", t, r.randint(1, 3)))
                    else:
                        melds.append((kind, r.randrange(34), r.randint(0 if kind == "GANG" else 1, 3)))
                else:
                    got = self._regular_sets()
                    if got is None:
                        return None
                    kind, t = got[0][0]
                    tiles += [t, t + 1, t + 2] if kind == "chow" else [t] * 3
                p = r.choice(range(34))
                tiles += [p, p]
        elif choice == 5:  # 九莲宝灯
            s = r.randrange(3) * 9
            tiles = [s, s, s, *range(s + 1, s + 8), s + 8, s + 8, s + 8, s + r.randrange(9)]
        else:  # honours + knitted near shapes with duplicates
            perm = r.sample(range(3), 3)
            knitted = [perm[i] * 9 + i + 3 * k for i in range(3) for k in range(3)]
            tiles = r.sample(knitted, 8) + r.sample(WINDS + DRAGONS, 5) + [r.randrange(34)]
        counts = Counter(tiles)
        for k, t, _ in melds:
            counts.update((t - 1, t, t + 1) if k == "CHI" else [t] * (4 if k == "GANG" else 3))
        if max(counts.values()) > 4:
            return None
        win = r.choice(tiles)
        tiles.remove(win)
        if choice == 5 and r.random() < 0.7:  # wait on the pure nine-gates shape
            s = tiles[0] // 9 * 9
            base = [s, s, s, *range(s + 1, s + 8), s + 8, s + 8, s + 8]
            extra = Counter([*tiles, win]) - Counter(base)
            (win,) = extra.elements()
            tiles = base
        r.shuffle(tiles)
        return Case(tiles, melds, win, self._flags())

    def mutate(self, case: Case) -> Case:
        """A near-miss: one concealed tile (or the winning tile) changed."""
        r = self.rng
        hand = list(case.hand)
        win = case.win
        if hand and r.random() < 0.7:
            hand[r.randrange(len(hand))] = r.randrange(34)
        else:
            win = r.randrange(34)
        return Case(hand, list(case.melds), win, dict(case.flags), "near_miss")

    def invalid(self, case: Case) -> Case:
        r = self.rng
        hand = list(case.hand)
        if r.random() < 0.5 and hand:
            hand.pop()  # wrong count
        else:
            t = r.choice(hand) if hand else case.win
            hand[0:1] = [t]
            hand += [t] * 0
            melds = list(case.melds)
            melds.append(("PENG", case.win, 1))
            return Case(hand[:max(0, len(hand) - 3)], melds, case.win, dict(case.flags), "invalid")
        return Case(hand, list(case.melds), case.win, dict(case.flags), "invalid")

    def case(self) -> Case:
        r = self.rng
        while True:
            got = self.concealed_form() if r.random() < 0.18 else self.regular()
            if got is None:
                continue
            roll = r.random()
            if roll < 0.12:
                return self.mutate(got)
            if roll < 0.14:
                return self.invalid(got)
            return got

    def cases(self, n: int) -> list[Case]:
        return [self.case() for _ in range(n)]


# ----------------------------------------------------------------------------- its own tests


def test_generator_is_deterministic():
    a = HandGenerator(7).cases(50)
    b = HandGenerator(7).cases(50)
    assert [(c.hand, c.melds, c.win, c.flags) for c in a] == [(c.hand, c.melds, c.win, c.flags) for c in b]


def test_generator_mostly_wins():
    pytest.importorskip("MahjongGB")
    cases = HandGenerator(11).cases(400)
    verdicts = Counter(
        "win" if not isinstance(oracle(c), str) else oracle(c) for c in cases
    )
    assert verdicts["win"] > 0.7 * len(cases)
    assert verdicts["ERROR_NOT_WIN"] > 0  # near-misses are there too
