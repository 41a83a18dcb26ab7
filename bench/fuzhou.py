"""Benchmark: Fuzhou ``is_winning_hand`` calls per second on seeded random 17-tile hands holding
0-3 golds, against the bare shared shape check (mjstats.rules.hand.is_complete) on the same
hands measured in the same run, and ``settle_win`` on winning hands. Target: >= 50,000 calls/s.

Run: .venv/bin/python bench/fuzhou.py [--hands N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import time

from mjstats.rules import hand as shapes
from mjstats.rulesets.fuzhou.settle import settle_win
from mjstats.rulesets.fuzhou.win import is_winning_hand
from mjstats.tiles import ALL_KINDS, Tile

TARGET = 50_000


def random_hands(n: int, seed: int) -> list[tuple[list[Tile], Tile]]:
    """``n`` (tiles, gold) pairs: a random gold kind, 0-3 golds, the rest drawn from the 104
    suited tiles that are not golds."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        gold = ALL_KINDS[rng.randrange(27)]
        golds = rng.randrange(4)
        wall = [ALL_KINDS[k] for k in range(27) if k != gold for _ in range(4)]
        tiles = rng.sample(wall, 17 - golds) + [gold] * golds
        rng.shuffle(tiles)
        out.append((tiles, gold))
    return out


def winning_hands(n: int, seed: int) -> list[tuple[list[Tile], Tile]]:
    """``n`` complete hands: five random melds and a pair, then 0-3 tiles turned into golds."""
    rng = random.Random(seed)
    out: list[tuple[list[Tile], Tile]] = []
    while len(out) < n:
        counts = [0] * 27
        tiles: list[int] = []
        for _ in range(5):
            if rng.random() < 0.5:
                low = rng.randrange(3) * 9 + rng.randrange(7)
                group = [low, low + 1, low + 2]
            else:
                group = [rng.randrange(27)] * 3
            tiles += group
        tiles += [rng.randrange(27)] * 2
        for t in tiles:
            counts[t] += 1
        if max(counts) > 4:
            continue
        gold = ALL_KINDS[rng.randrange(27)]
        golds = rng.randrange(4)
        hand = [ALL_KINDS[t] for t in tiles if t != gold]
        rng.shuffle(hand)
        hand = hand[: 17 - golds]
        hand += [gold] * (17 - len(hand))
        if sum(1 for t in hand if t == gold) > 4:
            continue
        out.append((hand, gold))
    return out


def rate(fn, cases) -> tuple[float, int]:
    start = time.perf_counter()
    hits = 0
    for case in cases:
        hits += bool(fn(case))
    return len(cases) / (time.perf_counter() - start), hits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    hands = random_hands(args.hands, args.seed)
    # Warm the shared per-suit tables once, so both runs measure steady state.
    for tiles, gold in hands[:2000]:
        is_winning_hand(tiles, gold)

    def fuzhou(case):
        tiles, gold = case
        return is_winning_hand(tiles, gold)

    prepared = []
    for tiles, gold in hands:
        counts = [0] * 34
        for t in tiles:
            counts[t] += 1
        golds = counts[gold]
        counts[gold] = 0
        prepared.append((counts, golds))

    def bare(case):
        counts, golds = case
        return shapes.is_complete(counts, 5, wilds=golds)

    ours, wins = rate(fuzhou, hands)
    ref, ref_wins = rate(bare, prepared)
    assert wins == ref_wins, "the Fuzhou wrapper and the bare shape check disagree"
    print(f"is_winning_hand, random 17-tile hands with 0-3 golds (seed {args.seed}):")
    print(f"  {ours:,.0f} calls/s over {len(hands):,} hands ({wins} wins)")
    print(f"  bare hand.is_complete on the same hands: {ref:,.0f} calls/s")
    print(
        f"  ratio (Fuzhou / bare): {ours / ref:.2f}   target {TARGET:,}/s: "
        f"{'met' if ours >= TARGET else 'NOT met'}"
    )

    complete = winning_hands(max(1, args.hands // 10), args.seed + 1)
    wr, wwins = rate(fuzhou, complete)
    print(
        f"is_winning_hand, complete hands with 0-3 golds: {wr:,.0f} calls/s "
        f"({wwins}/{len(complete)} win)"
    )

    def settle(case):
        tiles, gold = case
        return settle_win(tiles[:-1], (), gold, tiles[-1], True, ("H1", "F2"), 1, 0, streak=1)

    sr, _ = rate(settle, complete)
    print(f"settle_win (self-draw, seed profile) on the same complete hands: {sr:,.0f} calls/s")


if __name__ == "__main__":
    main()
