"""Every integrity test against its null on simulated fair play: 1,000 or more p-values a test,
Kolmogorov-Smirnov against the uniform distribution at 1%.

The fair hands are those `bench/integrity_power.py fair --keep DIR` simulated (or any canonical
files of fair play). They are read once, each hand replayed once, and every test family sees
them cut into consecutive runs of its own size: a size where the family's counts are large
enough that their p-values are not visibly discrete (docs/integrity.md, "Checked against the
null"), and small enough that the hands give 1,000 p-values or more. A test passes when its
p-values' KS p-value is above 1%. Results go to --out as one JSON line a test.

    python bench/integrity_null.py --rules guobiao --hands-dir DIR [--max-hands N] [--out R.jsonl]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path

from mjstats.formats.canonical import read_canonical
from mjstats.integrity.api import Family, feed
from mjstats.integrity.collusion import Collusion
from mjstats.integrity.deal import DealFairness
from mjstats.integrity.distributions import ks_uniform
from mjstats.integrity.draws import DrawFairness
from mjstats.integrity.outcomes import Outcomes
from mjstats.integrity.replays import HandReplay, replay_hand
from mjstats.integrity.streaks import Streaks
from mjstats.records import Hand

ALPHA = 0.01
# hands a run, per family and ruleset: Guobiao hands have about 3x the draws of Fuzhou's;
# Sichuan hands about 50 draws (12 a seat) and 2.2 wins, most on discards (several a hand).
# The streak test needs 30 matches a run (Guobiao's matches are 16 hands, the others' 8).
# 50,000 hands give 1,000 p-values or more for every test by seat or pair but the streak test,
# which needs 100,000 (Guobiao: 120,000).
SIZES = {
    "guobiao": {"deal": 200, "draw": 40, "collusion": 500, "outcome": 200, "streak": 480},
    "fuzhou": {"deal": 200, "draw": 100, "collusion": 500, "outcome": 200, "streak": 400},
    "sichuan": {"deal": 200, "draw": 80, "collusion": 500, "outcome": 200, "streak": 320},
}


MAKERS: dict[str, Callable[[], Family]] = {
    "deal": lambda: DealFairness("seat"),
    "draw": lambda: DrawFairness("seat"),
    "collusion": lambda: Collusion("seat"),
    "outcome": lambda: Outcomes("seat"),
    "streak": lambda: Streaks("seat"),
}


def _family(test: str) -> str:
    """The family a test's rows come from (outcome.streak is the streak family's)."""
    test = test.split(" ", 1)[0]
    return "streak" if test == "outcome.streak" else test.split(".", 1)[0]


def fair_hands(folder: Path, ruleset: str, limit: int) -> Iterator[Hand]:
    """The first ``limit`` hands of the ruleset's canonical files in ``folder``, files in name order."""
    files = sorted(folder.glob(f"{ruleset}-*.jsonl.gz"))
    if not files:
        sys.exit(f"integrity_null: no {ruleset}-*.jsonl.gz files in {folder}")
    n = 0
    for path in files:
        for hand in read_canonical(path):
            if isinstance(hand, Hand) and hand.ruleset == ruleset:
                if n == limit:
                    return
                n += 1
                yield hand


def null_p_values(hands: Iterator[Hand], sizes: dict[str, int]) -> tuple[dict[str, list[float]], int]:
    """p-values of every test, each family over consecutive runs of its size (a run left
    incomplete at the end is dropped); and the number of hands read."""
    found: dict[str, list[float]] = defaultdict(list)
    current = {name: MAKERS[name]() for name in sizes}
    counts = dict.fromkeys(sizes, 0)
    n = 0
    replays = bool({"draw", "collusion"} & set(sizes))  # the other families only count
    for hand in hands:
        replay = replay_hand(hand) if replays else HandReplay(None, ())
        n += 1
        for name, size in sizes.items():
            feed(current[name], hand, replay)
            counts[name] += 1
            if counts[name] == size:
                for row in current[name].rows():
                    if row["p_value"] is not None:
                        # rows by role (dealer or not) beside the run's subjects are kept apart
                        by = "" if row["by"] == "seat" else f" by {row['by']}"
                        found[row["test"] + by].append(row["p_value"])
                current[name] = MAKERS[name]()
                counts[name] = 0
        if n % 10_000 == 0:
            print(f"  {n:,} hands", file=sys.stderr, flush=True)
    return found, n


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rules", choices=sorted(SIZES), required=True)
    parser.add_argument("--hands-dir", type=Path, required=True, help="folder of fair canonical hands")
    parser.add_argument("--max-hands", type=int, default=50_000, help="hands read at most (50,000)")
    parser.add_argument(
        "--size",
        action="append",
        default=[],
        metavar="FAMILY=N",
        help="hands a run for one family (deal, draw, collusion, outcome, streak); with --size, "
        "only the families named are run",
    )
    parser.add_argument("--out", type=Path, help="JSON lines to append to")
    args = parser.parse_args()
    sizes = dict(SIZES[args.rules])
    if args.size:
        sizes = {}
        for item in args.size:
            name, _, value = item.partition("=")
            if name not in MAKERS or not value.isdigit() or int(value) < 1:
                known = ", ".join(MAKERS)
                sys.exit(f"integrity_null: --size {item}: expected FAMILY=N, FAMILY one of {known}")
            sizes[name] = int(value)
    start = time.process_time()
    found, n = null_p_values(fair_hands(args.hands_dir, args.rules, args.max_hands), sizes)
    cpu = time.process_time() - start
    print(f"{args.rules}: {n:,} fair hands, {cpu:.0f} s CPU; KS against uniform, pass at p > {ALPHA:.0%}")
    print(f"{'test':24} {'p-values':>9} {'KS D':>7} {'KS p':>8}  verdict")
    rows = []
    for test in sorted(found):
        values = found[test]
        d, p = ks_uniform(values)
        verdict = "uniform" if p > ALPHA else "NOT uniform"
        if len(values) < 1000:
            verdict += " (fewer than 1,000)"
        print(f"{test:24} {len(values):>9,} {d:>7.4f} {p:>8.3f}  {verdict}")
        rows.append(
            {
                "ruleset": args.rules,
                "hands": n,
                "test": test,
                "hands_a_run": sizes[_family(test)],
                "p_values": len(values),
                "ks_d": round(d, 5),
                "ks_p": round(p, 4),
                "uniform": p > ALPHA,
            }
        )
    if args.out is not None:
        with args.out.open("a", encoding="utf-8") as out:
            for row in rows:
                out.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
