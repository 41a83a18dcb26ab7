"""Deal fairness: starting hands, wall positions and (rulesets with them) the gold and flowers
at the deal, each against its exact distribution under a fair shuffle. Which tiles are flowers
follows the hand's rule profile (the ruleset's ``flower_kinds`` part: a profile may make every
honour a flower); hands under a profile mjstats cannot load are counted in ``unknown_profiles``
and left out.

- ``deal.honours`` / ``deal.pairs`` / ``deal.flowers``: per subject, the sum over its starting
  hands against the exact hypergeometric mean and variance (pairs: kinds held twice or more,
  whose mean and variance follow from the multivariate hypergeometric; exact, no simulation).
  Beside the subjects, rows by role (the dealer, the other three): the three non-dealers of a
  hand are dealt from one wall, so their counts are not independent; their sum is judged as one
  draw (honours, flowers: a hypergeometric draw of all their tiles; pairs: the seats' pair
  counts with their exact covariance), not as three independent hands.
- ``deal.shanten`` (rulesets with ``starting_shanten``): each subject's mean starting shanten
  against the other subjects' (Welch z): no closed form exists for the shanten distribution,
  but under a fair deal every seat's starting hand has the same distribution, so subjects are
  compared with each other.
- ``deal.gold_kind`` (rulesets with a gold): the gold is the first non-flower tile turned up:
  uniform over the 34 kinds; Pearson chi-square, 33 df.
- ``deal.wall_position`` (records with walls): tile classes (each suit, honours, flowers) by
  eighth of the wall; each wall is a permutation of a fixed set, so the pooled Pearson statistic
  times (N - 1) / N is chi-square with (8 - 1)(classes - 1) df.
"""

from __future__ import annotations

import math
from collections import defaultdict
from functools import cache

from mjstats.errors import MjstatsError
from mjstats.integrity.distributions import hypergeom_mean_var
from mjstats.integrity.rows import Row, chi2_row, subject_of, z_row
from mjstats.integrity.subjects import who
from mjstats.integrity.tracker import set_kinds
from mjstats.records import EventKind, Hand
from mjstats.rulesets import get
from mjstats.sim.shapes import Shape
from mjstats.tiles import NUM_KINDS

__all__ = ["DealFairness", "pair_cov", "pair_mean_var", "set_size"]

SEGMENTS = 8
HONOURS = 28  # 7 honour kinds x 4 (a class of the wall-position table)


def set_size(ruleset: str) -> int:
    """Tiles in the ruleset's full set (its flowers included)."""
    return get(ruleset).tile_count


@cache
def flower_kinds(ruleset: str, profile: str) -> frozenset[int] | None:
    """The tile codes that are flowers under the hand's rules (none for a ruleset without a
    ``flower_kinds`` part); None for a profile mjstats cannot load."""
    spec = get(ruleset)
    if spec.flower_kinds is None:
        return frozenset()
    try:
        found: frozenset[int] = spec.load(spec.flower_kinds)(profile)
        return found
    except (MjstatsError, OSError):
        return None


@cache
def _starting_shape(ruleset: str) -> Shape | None:
    """The shape whose shanten the deal.shanten test compares (None: the test does not apply)."""
    spec = get(ruleset)
    if not spec.starting_shanten or spec.shape is None:
        return None
    shape: Shape = spec.load(spec.shape)(None)
    return shape


def _log_comb(n: int, k: int) -> float:
    if k < 0 or k > n:
        return -math.inf
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


@cache
def pair_mean_var(population: int, draws: int, kinds: int = NUM_KINDS) -> tuple[float, float]:
    """Exact mean and variance of the number of ``kinds`` given kinds (four copies each) held at
    least twice in ``draws`` tiles dealt from ``population``."""
    total = _log_comb(population, draws)
    # q = P(a given kind >= 2); r = P(two given kinds both >= 2)
    q = sum(math.exp(_log_comb(4, a) + _log_comb(population - 4, draws - a) - total) for a in range(2, 5))
    r = 0.0
    for a in range(2, 5):
        for b in range(2, 5):
            r += math.exp(
                _log_comb(4, a) + _log_comb(4, b) + _log_comb(population - 8, draws - a - b) - total
            )
    k = kinds
    return k * q, k * q * (1 - q) + k * (k - 1) * (r - q * q)


def _log_multinomial(n: int, a: int, b: int) -> float:
    """log of n! / (a! b! (n - a - b)!): ways to deal ``a`` tiles to one hand and ``b`` to another."""
    if a < 0 or b < 0 or a + b > n:
        return -math.inf
    return math.lgamma(n + 1) - math.lgamma(a + 1) - math.lgamma(b + 1) - math.lgamma(n - a - b + 1)


@cache
def pair_cov(population: int, first: int, second: int, kinds: int = NUM_KINDS) -> float:
    """Exact covariance of the pair counts (``kinds`` kinds of four copies held twice or more) of
    two hands of ``first`` and ``second`` tiles dealt from one ``population`` (the hands share
    one wall, so their counts are not independent)."""
    total = _log_multinomial(population, first, second)
    rest = population - 8
    # same kind paired in both hands: two copies each; two kinds: k >= 2 in the first, l >= 2 in the second
    both_same = math.exp(
        math.log(6) + _log_multinomial(population - 4, first - 2, second - 2) - total
    )
    both_other = 0.0
    for ai in range(2, 5):
        for aj in range(0, 5 - ai):
            for bj in range(2, 5):
                for bi in range(0, 5 - bj):
                    ways = _log_multinomial(4, ai, aj) + _log_multinomial(4, bi, bj)
                    fill = _log_multinomial(rest, first - ai - bi, second - aj - bj)
                    both_other += math.exp(ways + fill - total)
    product = kinds * both_same + kinds * (kinds - 1) * both_other
    return product - pair_mean_var(population, first, kinds)[0] * pair_mean_var(population, second, kinds)[0]


class DealFairness:
    """Accumulates the deal statistics of every hand (one pass)."""

    def __init__(self, by: str) -> None:
        self.by = by
        # (test, ruleset, by, subject) -> [cases, observed, expected, variance]
        self.counts: dict[tuple[str, str, str, object], list[float]] = defaultdict(lambda: [0, 0, 0.0, 0.0])
        # starting shanten: (ruleset, subject) -> [n, sum, sum of squares]
        self.shanten: dict[tuple[str, object], list[float]] = defaultdict(lambda: [0, 0.0, 0.0])
        self.gold: dict[str, tuple[list[int], list[float]]] = {}
        self.unknown_profiles: set[tuple[str, str]] = set()  # (ruleset, profile)
        # ruleset -> (classes, segment x class counts, walls)
        self.walls: dict[str, list] = {}

    def _count(
        self,
        test: str,
        hand: Hand,
        by: str,
        subject: object,
        obs: float,
        mv: tuple[float, float],
        cases: int = 1,
    ) -> None:
        acc = self.counts[(test, hand.ruleset, by, subject)]
        acc[0] += cases
        acc[1] += obs
        acc[2] += mv[0]
        acc[3] += mv[1]

    def add(self, hand: Hand) -> None:
        population = set_size(hand.ruleset)
        flowers_set = flower_kinds(hand.ruleset, hand.profile)
        if flowers_set is None:  # unknown rules: which tiles are flowers is not known
            self.unknown_profiles.add((hand.ruleset, hand.profile))
            return
        spec = get(hand.ruleset)
        shape = _starting_shape(hand.ruleset)
        playable = [k for k in range(set_kinds(hand.ruleset)) if k not in flowers_set]
        honour_kinds = [k for k in playable if k >= 27]
        n_flowers = sum(1 for k in flowers_set for _ in range(4 if k < NUM_KINDS else 1))
        others: list[tuple[int, int, int, int]] = []  # non-dealers: (tiles, honours, pairs, flowers)
        for ev in hand.events:
            if ev.kind is not EventKind.DEAL or ev.seat is None:
                continue
            tiles = ev.tiles
            n = len(tiles)
            if not n:
                continue
            counts = [0] * 42
            for t in tiles:
                counts[t] += 1
            honours = sum(counts[k] for k in honour_kinds)
            pairs = sum(1 for k in playable if counts[k] >= 2)
            flowers = sum(counts[k] for k in flowers_set)
            subjects = [(self.by, who(hand, ev.seat, self.by))]
            if ev.seat == hand.dealer:
                subjects.append(("role", "dealer"))
            else:
                others.append((n, honours, pairs, flowers))
            for by, subject in subjects:
                if honour_kinds:
                    mv = hypergeom_mean_var(population, 4 * len(honour_kinds), n)
                    self._count("deal.honours", hand, by, subject, honours, mv)
                self._count(
                    "deal.pairs", hand, by, subject, pairs, pair_mean_var(population, n, len(playable))
                )
                if n_flowers:
                    mv = hypergeom_mean_var(population, n_flowers, n)
                    self._count("deal.flowers", hand, by, subject, flowers, mv)
            if shape is not None and n == spec.hand_size:
                s = shape.shanten(counts[:NUM_KINDS], 0)
                acc = self.shanten[(hand.ruleset, who(hand, ev.seat, self.by))]
                acc[0] += 1
                acc[1] += s
                acc[2] += s * s
        if others:
            self._count_others(hand, population, others, len(honour_kinds), len(playable), n_flowers)
        if spec.has_gold and hand.gold is not None and int(hand.gold) in playable:
            # the gold is the first non-flower tile turned up: uniform over the playable kinds
            obs, exp = self.gold.setdefault(hand.ruleset, ([0] * NUM_KINDS, [0.0] * NUM_KINDS))
            obs[int(hand.gold)] += 1
            for k in playable:
                exp[k] += 1 / len(playable)
        if hand.wall is not None and len(hand.wall) == population:
            self._add_wall(hand.ruleset, hand.wall)

    def _count_others(
        self,
        hand: Hand,
        population: int,
        others: list[tuple[int, int, int, int]],
        honour_kinds: int,
        playable: int,
        n_flowers: int,
    ) -> None:
        """The non-dealers of one hand as one case of the ``other`` role: their tiles are one draw
        from the wall (honours, flowers: one hypergeometric draw of all their tiles; pairs: the
        sum of the seats' pair counts, whose covariances are exact)."""
        dealt = sum(n for n, _, _, _ in others)
        cases = len(others)
        if honour_kinds:
            mv = hypergeom_mean_var(population, 4 * honour_kinds, dealt)
            self._count("deal.honours", hand, "role", "other", sum(o[1] for o in others), mv, cases)
        mean = sum(pair_mean_var(population, n, playable)[0] for n, _, _, _ in others)
        var = sum(pair_mean_var(population, n, playable)[1] for n, _, _, _ in others)
        for i, first in enumerate(others):
            for second in others[i + 1 :]:
                var += 2 * pair_cov(population, first[0], second[0], playable)
        self._count("deal.pairs", hand, "role", "other", sum(o[2] for o in others), (mean, var), cases)
        if n_flowers:
            mv = hypergeom_mean_var(population, n_flowers, dealt)
            self._count("deal.flowers", hand, "role", "other", sum(o[3] for o in others), mv, cases)

    def _add_wall(self, ruleset: str, wall: tuple[int, ...]) -> None:
        classes = _classes(ruleset)
        n_classes = len(classes)
        if ruleset not in self.walls:
            self.walls[ruleset] = [n_classes, [[0] * n_classes for _ in range(SEGMENTS)], 0]
        entry = self.walls[ruleset]
        table = entry[1]
        size = len(wall)
        column = {c: i for i, c in enumerate(classes)}
        for i, t in enumerate(wall):
            table[i * SEGMENTS // size][column[_tile_class(t)]] += 1
        entry[2] += 1

    def rows(self) -> list[Row]:
        out: list[Row] = []
        for (test, ruleset, by, subject), (n, obs, exp, var) in sorted(
            self.counts.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2], str(kv[0][3]))
        ):
            out.append(
                z_row(
                    test,
                    ruleset,
                    by,
                    subject_of(by, subject),
                    observed=obs,
                    expected=exp,
                    variance=var,
                    n=int(n),
                    null="exact hypergeometric (fair shuffle)",
                )
            )
        out.extend(self._shanten_rows())
        for ruleset, (kinds, expected) in sorted(self.gold.items()):
            cells = [k for k in range(NUM_KINDS) if expected[k] > 0]
            out.append(
                chi2_row(
                    "deal.gold_kind",
                    ruleset,
                    "all",
                    {},
                    observed=[kinds[k] for k in cells],
                    expected=[expected[k] for k in cells],
                    n=sum(kinds),
                    null="uniform over the kinds that are not flowers (chi-square)",
                )
            )
        for ruleset, (n_classes, table, walls) in sorted(self.walls.items()):
            size = set_size(ruleset)
            class_sizes = _class_sizes(ruleset)
            obs, exp = [], []
            for seg in range(SEGMENTS):
                seg_size = sum(1 for i in range(size) if i * SEGMENTS // size == seg)
                for c in range(n_classes):
                    obs.append(table[seg][c])
                    exp.append(walls * seg_size * class_sizes[c] / size)
            out.append(
                chi2_row(
                    "deal.wall_position",
                    ruleset,
                    "all",
                    {},
                    observed=obs,
                    expected=exp,
                    n=walls,
                    scale=(size - 1) / size,
                    df=(SEGMENTS - 1) * (n_classes - 1),
                    null="each wall a uniform permutation (pooled contingency, chi-square)",
                )
            )
        return out

    def _shanten_rows(self) -> list[Row]:
        out = []
        by_ruleset: dict[str, list[tuple[object, list[float]]]] = defaultdict(list)
        for (ruleset, subject), acc in self.shanten.items():
            by_ruleset[ruleset].append((subject, acc))
        for ruleset, items in sorted(by_ruleset.items()):
            total = [sum(a[i] for _, a in items) for i in range(3)]
            for subject, (n, s, s2) in sorted(items, key=lambda kv: str(kv[0])):
                rest = (total[0] - n, total[1] - s, total[2] - s2)
                out.append(_welch_row(ruleset, self.by, subject, (n, s, s2), rest))
        return out


def _welch_row(
    ruleset: str, by: str, subject: object, mine: tuple[float, ...], rest: tuple[float, ...]
) -> Row:
    """Mean starting shanten of a subject against the others' (z of the difference)."""
    (n, s, s2), (m, r, r2) = mine, rest
    row = z_row(
        "deal.shanten",
        ruleset,
        by,
        subject_of(by, subject),
        observed=0,
        expected=0,
        variance=0,
        n=int(n),
        null="same distribution for every subject (Welch z)",
    )
    if n < 30 or m < 30:
        row["note"] = f"too small to judge: {int(n)} starting hands against {int(m)} (30 each needed)"
        return row
    mean_a, mean_b = s / n, r / m
    var_a = max(s2 / n - mean_a**2, 0.0) * n / (n - 1)
    var_b = max(r2 / m - mean_b**2, 0.0) * m / (m - 1)
    se = math.sqrt(var_a / n + var_b / m)
    if se == 0:
        row["note"] = "every starting hand at the same shanten: nothing to compare"
        return row
    from mjstats.integrity.distributions import z_p_value

    z = (mean_a - mean_b) / se
    row.update(
        observed=mean_a,
        expected=mean_b,
        statistic=z,
        p_value=z_p_value(z),
        note="",
        effect_name="mean shanten difference",
        effect=mean_a - mean_b,
        effect_low=mean_a - mean_b - 1.959963984540054 * se,
        effect_high=mean_a - mean_b + 1.959963984540054 * se,
    )
    return row


def _tile_class(t: int) -> int:
    """0-2 the suits, 3 honours, 4 flowers."""
    return 3 if 27 <= t < 34 else 4 if t >= 34 else t // 9


def _classes(ruleset: str) -> tuple[int, ...]:
    """The tile classes (``_tile_class``) the ruleset's set holds: the three suits, the honours
    where it has them (a 108-tile set has none), the flowers where it has them."""
    spec = get(ruleset)
    honours = (3,) if set_kinds(ruleset) > 27 else ()
    flowers = (4,) if spec.flower_tiles else ()
    return (0, 1, 2, *honours, *flowers)


def _class_sizes(ruleset: str) -> list[int]:
    """Tiles of each of the ruleset's classes, in ``_classes`` order."""
    sizes = {0: 36, 1: 36, 2: 36, 3: HONOURS, 4: get(ruleset).flower_tiles}
    return [sizes[c] for c in _classes(ruleset)]
