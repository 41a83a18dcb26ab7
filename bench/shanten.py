"""Throughput of mjstats.rules.hand and Guobiao shanten/waits, beside references run on the same hands.

1. ``hand.is_complete`` on random 17-tile Fuzhou-sized count vectors (5 melds + pair, 0-3 wilds):
   cold (tables filling) and warm; target >= 50,000 calls/s. Reference: completeness by trying
   every choice of suited kinds for the wilds (the naive way), on a sample.
2. ``hand.regular_shanten`` on 16-tile hands with 0-3 wilds.
3. Guobiao ``waits.shanten`` and ``waits.waits`` beside PyMahjongGB's ``MahjongShanten`` on the
   same 13-tile hands (uniform deals and near-complete hands): prints the ratio.

Run: ``.venv/bin/python bench/shanten.py [--hands N]``
"""

from __future__ import annotations

import argparse
import itertools
import random
import time
from collections.abc import Callable, Sequence

from mjstats.rules import hand
from mjstats.rulesets.guobiao import waits as gb
from mjstats.tiles import ALL_KINDS

NAMES = tuple(str(ALL_KINDS[k]) for k in range(34))
SUITED_WALL = [k for k in range(27) for _ in range(4)]
FULL_WALL = [k for k in range(34) for _ in range(4)]


def rate(fn: Callable[[], object], calls: int) -> float:
    start = time.perf_counter()
    fn()
    return calls / (time.perf_counter() - start)


def fuzhou_hands(rng: random.Random, n: int, size: int) -> list[tuple[list[int], int]]:
    """Count vectors of ``size`` tiles of which 0-3 are wilds (kept out of the counts)."""
    out = []
    for _ in range(n):
        wilds = rng.randint(0, 3)
        counts = [0] * 34
        for t in rng.sample(SUITED_WALL, size - wilds):
            counts[t] += 1
        out.append((counts, wilds))
    return out


def near_complete_fuzhou(rng: random.Random, n: int) -> list[tuple[list[int], int]]:
    """Complete 17-tile hands with 0-3 tiles turned into wilds and sometimes one tile swapped."""
    out = []
    lows = [s * 9 + r for s in range(3) for r in range(7)]
    while len(out) < n:
        tiles: list[int] = []
        for _ in range(5):
            if rng.random() < 0.6:
                low = rng.choice(lows)
                tiles += [low, low + 1, low + 2]
            else:
                tiles += [rng.randrange(27)] * 3
        tiles += [rng.randrange(27)] * 2
        rng.shuffle(tiles)
        if rng.random() < 0.5:
            tiles[0] = rng.randrange(27)
        wilds = rng.randint(0, 3)
        counts = [0] * 34
        for t in tiles[wilds:]:
            counts[t] += 1
        if max(counts) <= 4:
            out.append((counts, wilds))
    return out


def naive_complete(counts: Sequence[int], melds: int, wilds: int) -> bool:
    """Reference: try every multiset of suited kinds for the wilds, then look for a division."""
    for kinds in itertools.combinations_with_replacement(range(27), wilds):
        trial = list(counts)
        for k in kinds:
            trial[k] += 1
        if hand.divisions(trial, melds):
            return True
    return False


def guobiao_hands(rng: random.Random, n: int) -> tuple[list[list[int]], list[list[int]]]:
    uniform = [rng.sample(FULL_WALL, 13) for _ in range(n)]
    near = []
    lows = [s * 9 + r for s in range(3) for r in range(7)]
    while len(near) < n:
        tiles: list[int] = []
        for _ in range(4):
            low = rng.choice(lows)
            tiles += [low, low + 1, low + 2] if rng.random() < 0.6 else [rng.randrange(34)] * 3
        tiles += [rng.randrange(34)] * 2
        rng.shuffle(tiles)
        tiles = tiles[:13]
        if rng.random() < 0.5:
            tiles[0] = rng.randrange(34)
        if max(tiles.count(t) for t in tiles) <= 4:
            near.append(tiles)
    return uniform, near


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000, help="hands per Fuzhou set")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    n = args.hands

    print(f"== hand.is_complete, 17 tiles (5 melds + pair), 0-3 wilds, {n} hands per set")
    for label, hands in (
        ("uniform random", fuzhou_hands(rng, n, 17)),
        ("near-complete", near_complete_fuzhou(rng, n)),
    ):
        cold = rate(lambda h=hands: [hand.is_complete(c, 5, wilds=w) for c, w in h], n)
        warm = rate(lambda h=hands: [hand.is_complete(c, 5, wilds=w) for c, w in h], n)
        wins = sum(hand.is_complete(c, 5, wilds=w) for c, w in hands)
        sample = hands[:300]
        naive = rate(lambda s=sample: [naive_complete(c, 5, w) for c, w in s], len(sample))
        same = all(hand.is_complete(c, 5, wilds=w) == naive_complete(c, 5, w) for c, w in sample)
        verdict = "OK" if cold >= 50_000 else "BELOW TARGET"
        print(
            f"  {label:15s} cold {cold:10,.0f}/s  warm {warm:10,.0f}/s  ({wins} complete)  "
            f"naive substitution {naive:8,.0f}/s  ratio x{warm / naive:,.0f}  "
            f"[agree on {len(sample)}: {same}]  target 50,000/s: {verdict}"
        )

    print("== hand.regular_shanten, 16 tiles (5 melds + pair), 0-3 wilds")
    hands16 = fuzhou_hands(rng, n // 2, 16)
    cold = rate(lambda: [hand.regular_shanten(c, 5, wilds=w) for c, w in hands16], len(hands16))
    warm = rate(lambda: [hand.regular_shanten(c, 5, wilds=w) for c, w in hands16], len(hands16))
    waits = rate(lambda: [hand.regular_waits(c, 5, wilds=w) for c, w in hands16], len(hands16))
    print(f"  shanten cold {cold:10,.0f}/s  warm {warm:10,.0f}/s   regular_waits {waits:10,.0f}/s")
    # platform profile: 发 白 are playable honours, which no gold stands for (the exact slow path)
    wall = SUITED_WALL + [32, 33] * 4
    mixed = []
    for _ in range(n // 20):
        golds = rng.randint(1, 3)
        counts = [0] * 34
        for t in rng.sample(wall, 16 - golds):
            counts[t] += 1
        mixed.append((counts, golds))
    cold = rate(lambda: [hand.regular_shanten(c, 5, wilds=w) for c, w in mixed], len(mixed))
    warm = rate(lambda: [hand.regular_shanten(c, 5, wilds=w) for c, w in mixed], len(mixed))
    print(f"  with playable honours, 1-3 wilds: shanten cold {cold:9,.0f}/s  warm {warm:9,.0f}/s")

    import MahjongGB  # test-only oracle, used here as the reference speed

    print("== Guobiao shanten (all forms) beside PyMahjongGB MahjongShanten, 13 tiles, no melds")
    uniform, near = guobiao_hands(rng, n // 4)
    for label, hands13 in (("uniform random", uniform), ("near-complete", near)):
        names = [tuple(NAMES[t] for t in h) for h in hands13]
        ours = rate(lambda h=hands13: [gb.shanten(x) for x in h], len(hands13))
        ours_waits = rate(lambda h=hands13: [gb.waits(x) for x in h], len(hands13))
        ref = rate(lambda h=names: [MahjongGB.MahjongShanten((), x) for x in h], len(hands13))
        oracle = [MahjongGB.MahjongShanten((), y) for y in names]
        agree = sum(gb.shanten(x) == o for x, o in zip(hands13, oracle, strict=True))
        print(
            f"  {label:15s} mjstats shanten {ours:9,.0f}/s  waits {ours_waits:9,.0f}/s  "
            f"PyMahjongGB {ref:9,.0f}/s  speed ratio mjstats/PyMahjongGB {ours / ref:.2f}  "
            f"(same shanten on {agree}/{len(hands13)}{glitch_note(hands13, names, oracle)})"
        )


def glitch_note(hands13: list[list[int]], names: list[tuple[str, ...]], oracle: list[int]) -> str:
    """Explain disagreements: PyMahjongGB's MahjongShanten sometimes contradicts its own per-form
    functions (an uninitialised read in 1.3.0); count those where mjstats matches the per-form."""
    import MahjongGB

    per_form = (
        MahjongGB.RegularShanten,
        MahjongGB.SevenPairsShanten,
        MahjongGB.ThirteenOrphansShanten,
        MahjongGB.HonorsAndKnittedTilesShanten,
        MahjongGB.KnittedStraightShanten,
    )
    glitches = 0
    for x, y, o in zip(hands13, names, oracle, strict=True):
        ours = gb.shanten(x)
        if ours != o and ours == min(f(y)[0] for f in per_form):
            glitches += 1
    return f"; {glitches} oracle glitches where mjstats = oracle per-form" if glitches else ""


if __name__ == "__main__":
    main()
