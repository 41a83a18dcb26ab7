"""Benchmark: Sichuan hand settlements per second (``settle_hand`` on seeded random hands: kongs,
one or two wins, 杠上炮 with 呼叫转移, and an exhaustive draw with 查花猪 / 查大叫 / 退税 for the
players left), and ``is_winning_hand`` calls per second on random two-suit 14-tile hands. Each
is printed beside a reference measured in the same run: Fuzhou ``settle_win`` on complete hands
and the bare shared shape check (mjstats.rules.hand.is_complete) on the same 14-tile hands.
Target: >= 20,000 hand settlements/s. Then the replay (``replay_hand``: every turn check, the
inferred passes, the settlement and the comparison of every win and payment) on simulated hands
of the seed profile, against the target of 2,000 hands/s per process, beside the Fuzhou replay
of simulated Fuzhou hands measured in the same run.

Every rate is given by the wall clock and by the process's CPU time: on a shared, loaded machine
the CPU figure is the one close to what an idle machine gives, and the ratios in the same run are
what compare. ``--rounds N`` times every run N times and keeps the best (a loaded machine slows
some rounds, never speeds one up). The hand-level caches (waits by canonical key) are emptied
before each timed run, so a hand is never answered from the warm-up, the making of the cases or
an earlier round; the per-suit tables (a fixed table over 9-count vectors) stay warm, as in
steady use.

``--results FILE`` appends the run's figures as one JSON line (bench/results/sichuan_speed.jsonl
holds the measured ones, with a note of which version ran).

Run: .venv/bin/python bench/sichuan.py [--hands N] [--seed S] [--replay-hands N] [--rounds N]
    [--results FILE --label TEXT]
The compiled build: ``PYTHONPATH=build/compiled .venv/bin/python -P bench/sichuan.py`` (``make
bench`` runs both); the first line names the build measured.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from datetime import UTC, datetime

from mjstats.compiled import describe_build
from mjstats.rules import hand as shapes
from mjstats.rulesets.fuzhou.settle import settle_win
from mjstats.rulesets.sichuan import (
    HandEnd,
    Kong,
    PlayerHand,
    Turn,
    Win,
    Winner,
    clear_caches,
    is_winning_hand,
    settle_hand,
)
from mjstats.tiles import SUITED, Tile

TARGET = 20_000
REPLAY_TARGET = 2_000
ROUNDS = [1]  # timed runs per figure, the best kept (--rounds)
FIGURES: dict[str, float] = {}  # this run's figures, for --results


def complete_hand(rng: random.Random, suits: list[int], sets: int = 4) -> list[int] | None:
    """Tile codes forming ``sets`` sets + pair in ``suits``, or None when a kind would exceed 4."""
    tiles: list[int] = []
    for _ in range(sets):
        s = rng.choice(suits)
        if rng.random() < 0.6:
            low = 9 * s + rng.randrange(7)
            tiles += [low, low + 1, low + 2]
        else:
            tiles += [9 * s + rng.randrange(9)] * 3
    tiles += [9 * rng.choice(suits) + rng.randrange(9)] * 2
    return tiles if max(tiles.count(t) for t in set(tiles)) <= 4 else None


def random_hand_events(rng: random.Random) -> list:
    """One hand's settlement events: 0-2 kongs, 1-2 wins (a self-draw, a discard, sometimes a
    杠上炮 after a concealed kong), then the wall runs out for the players left."""
    events: list = []
    winners: list[int] = []
    seats = [0, 1, 2, 3]
    rng.shuffle(seats)
    voids = [rng.randrange(3) for _ in range(4)]
    for _ in range(rng.randrange(3)):
        seat = rng.choice(seats[2:])
        events.append(Turn(seat))
        events.append(Kong(seat, rng.choice(["concealed", "added"]), SUITED[9 * ((voids[seat] + 1) % 3)]))
    for n in range(rng.randrange(1, 3)):
        seat = seats[n]
        suits = [s for s in range(3) if s != voids[seat]]
        tiles = None
        while tiles is None:
            tiles = complete_hand(rng, suits)
        win = tiles.pop(rng.randrange(14))
        winner = Winner(seat, tuple(SUITED[t] for t in tiles), void=voids[seat])
        if rng.random() < 0.5:
            events.append(Win(SUITED[win], (winner,)))
        else:
            discarder = seats[3]
            kong = rng.random() < 0.3
            if kong:
                events.append(Turn(discarder))
                events.append(Kong(discarder, "concealed", SUITED[9 * ((voids[discarder] + 2) % 3) + 8]))
            events.append(Win(SUITED[win], (winner,), discarder=discarder, kong_discard=kong))
        winners.append(seat)
    players = []
    for seat in range(4):
        if seat in winners:
            continue
        suits = [s for s in range(3) if s != voids[seat]]
        tiles = None
        while tiles is None:
            tiles = complete_hand(rng, suits)
        del tiles[rng.randrange(14)]
        if rng.random() < 0.5:  # break the hand: not ready, sometimes a 花猪
            tiles[rng.randrange(13)] = rng.randrange(27)
        players.append(PlayerHand(seat, tuple(SUITED[t] for t in tiles), void=voids[seat]))
    events.append(HandEnd(tuple(players)))
    return events


def rate(fn, cases) -> tuple[float, int]:
    """Calls per second of ``fn`` over ``cases`` by the wall clock (see :func:`rates`)."""
    wall, _, hits = rates(fn, cases)
    return wall, hits


def rates(fn, cases) -> tuple[float, float, int]:
    """(calls/s by the wall clock, calls/s by CPU time, truthy results), hand caches emptied
    before each timed round; the best of ``--rounds`` rounds."""
    best_wall = best_cpu = 0.0
    hits = 0
    for _ in range(ROUNDS[0]):
        clear_caches()
        start, cpu = time.perf_counter(), time.process_time()
        hits = 0
        for case in cases:
            hits += bool(fn(case))
        wall, used = time.perf_counter() - start, time.process_time() - cpu
        best_wall = max(best_wall, len(cases) / wall)
        best_cpu = max(best_cpu, len(cases) / max(used, 1e-9))
    return best_wall, best_cpu, hits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--replay-hands", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=1, help="timed runs per figure, the best kept")
    parser.add_argument("--results", help="append the figures as one JSON line to this file")
    parser.add_argument("--label", default="", help="what ran (a version, a branch), for --results")
    args = parser.parse_args()
    ROUNDS[0] = max(1, args.rounds)
    print(describe_build())
    rng = random.Random(args.seed)

    hands = []
    dropped = 0
    while len(hands) < args.hands:
        events = random_hand_events(rng)
        try:
            settle_hand(events)  # drop the rare draw that breaks a rule (e.g. a 5th copy)
        except Exception as exc:
            dropped += 1
            if dropped > max(100, len(hands)):  # not rare: a broken build, not a rare draw
                sys.exit(f"settle_hand refused {dropped} of {dropped + len(hands)} hands: {exc!r}")
            continue
        hands.append(events)
    ours, ours_cpu, _ = rates(settle_hand, hands)
    payments = sum(len(settle_hand(h).payments) for h in hands[:1000])
    complete = []
    while len(complete) < args.hands:
        tiles = complete_hand(rng, [0, 1, 2])
        if tiles is not None:
            complete.append([Tile(t) for t in tiles])

    fuzhou_hands = []
    while len(fuzhou_hands) < args.hands:
        tiles = complete_hand(rng, [0, 1, 2], sets=5)  # 17 tiles; the gold kind is one not held
        if tiles is not None:
            gold = next(SUITED[k] for k in range(27) if k not in tiles)
            fuzhou_hands.append(([SUITED[t] for t in tiles], gold))

    def fuzhou(case):
        tiles, gold = case
        return settle_win(tiles[:-1], (), gold, tiles[-1], True, (), 1, 0)

    ref, ref_cpu, _ = rates(fuzhou, fuzhou_hands)
    # Like for like with Fuzhou settle_win: a hand settled from one self-draw win.
    single = []
    for tiles in complete[: args.hands]:
        if len({t // 9 for t in tiles}) <= 2:
            winner = Winner(1, tuple(SUITED[t] for t in tiles[:-1]))
            single.append([Win(SUITED[tiles[-1]], (winner,))])
    one_win, one_cpu, _ = rates(settle_hand, single)
    print(f"settle_hand, seeded random hands (seed {args.seed}): {ours:,.0f} hands/s over {len(hands):,} "
          f"(CPU time: {ours_cpu:,.0f}/s)")
    print(f"  ({payments / 1000:.1f} payments per hand)")
    print(f"  reference, Fuzhou settle_win on complete hands in the same run: {ref:,.0f} wins/s "
          f"(CPU time: {ref_cpu:,.0f}/s)")
    print(f"  ratio (Sichuan hands / Fuzhou wins): {ours / ref:.2f} (CPU time: {ours_cpu / ref_cpu:.2f})   "
          f"target {TARGET:,}/s: "
          f"{_verdict(ours, ours_cpu, TARGET)}")
    print(f"settle_hand of a single self-draw win: {one_win:,.0f} hands/s (CPU time: {one_cpu:,.0f}/s; "
          f"ratio to Fuzhou settle_win {one_win / ref:.2f}; target {_verdict(one_win, one_cpu, TARGET)})")

    two_suit = []
    for _ in range(args.hands * 5):
        suits = rng.sample(range(3), 2)
        pool = [9 * s + r for s in suits for r in range(9) for _ in range(4)]
        two_suit.append([SUITED[t] for t in rng.sample(pool, 14)])
    two_suit += complete[: args.hands]
    prepared = []
    for tiles in two_suit:
        counts = [0] * 34
        for t in tiles:
            counts[t] += 1
        prepared.append(counts)
    # Warm both sides' memoised per-suit tables once, so both runs measure steady state.
    rate(is_winning_hand, two_suit[:5000])
    rate(lambda c: shapes.is_complete(c, 4), prepared[:5000])
    wins_rate, wins = rate(is_winning_hand, two_suit)  # (is_winning_hand has no hand cache)
    bare_rate, _ = rate(lambda c: shapes.is_complete(c, 4), prepared)
    print(f"is_winning_hand, two-suit and complete 14-tile hands: {wins_rate:,.0f} calls/s ({wins} wins)")
    print(f"  bare hand.is_complete (regular shape only) on the same hands: {bare_rate:,.0f} calls/s")
    print(f"  ratio (Sichuan / bare): {wins_rate / bare_rate:.2f}")
    replay_rate(args.replay_hands, args.seed)
    FIGURES.update(
        settle_per_s=ours, settle_cpu_per_s=ours_cpu, fuzhou_settle_per_s=ref,
        fuzhou_settle_cpu_per_s=ref_cpu, settle_ratio=ours / ref, settle_cpu_ratio=ours_cpu / ref_cpu,
        single_win_cpu_per_s=one_cpu,
        is_winning_ratio=wins_rate / bare_rate,
    )
    if args.results:
        line = {
            "bench": "sichuan",
            "utc": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "label": args.label,
            "hands": args.hands,
            "replay_hands": args.replay_hands,
            "rounds": ROUNDS[0],
            "seed": args.seed,
            **{k: round(v, 3) for k, v in FIGURES.items()},
        }
        with open(args.results, "a", encoding="utf-8") as out:
            out.write(json.dumps(line, sort_keys=True) + "\n")


def _verdict(wall: float, cpu: float, target: int) -> str:
    if wall >= target:
        return "met"
    return "met by CPU time (machine loaded)" if cpu >= target else "NOT met"


def replay_rate(n: int, seed: int) -> None:
    """Replay simulated hands (made first, not timed); each must come out clean. The Fuzhou
    replay of as many simulated Fuzhou hands is timed in the same run as the reference."""
    from mjstats.replay import replay_hand
    from mjstats.sim import SimConfig, simulate

    hands = list(simulate(SimConfig("sichuan", n, seed)))
    fuzhou = list(simulate(SimConfig("fuzhou", n, seed)))
    for hand in hands[:50] + fuzhou[:50]:  # warm the memoised per-suit tables
        replay_hand(hand)
    per_s, cpu_s, clean = rates(lambda hand: replay_hand(hand).clean, hands)
    ref_s, ref_cpu, _ = rates(replay_hand, fuzhou)
    print(f"replay_hand, {len(hands):,} simulated hands (seed {seed}): {per_s:,.0f} hands/s "
          f"(CPU time: {cpu_s:,.0f}/s), {clean:,} clean; target {REPLAY_TARGET:,}/s: "
          f"{_verdict(per_s, cpu_s, REPLAY_TARGET)}")
    FIGURES.update(replay_per_s=per_s, replay_cpu_per_s=cpu_s, fuzhou_replay_per_s=ref_s,
                   fuzhou_replay_cpu_per_s=ref_cpu, replay_ratio=per_s / ref_s,
                   replay_cpu_ratio=cpu_s / ref_cpu)
    print(f"  reference, Fuzhou replay_hand of {len(fuzhou):,} simulated hands in the same run: "
          f"{ref_s:,.0f} hands/s (CPU time: {ref_cpu:,.0f}/s); ratio (Sichuan / Fuzhou) {per_s / ref_s:.2f} "
          f"(CPU time: {cpu_s / ref_cpu:.2f})")


if __name__ == "__main__":
    main()
