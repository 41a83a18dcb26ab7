"""Decision judging throughput (hands/s of CPU time) against the replay alone, same hands, same run.

Run: ``python bench/decisions.py [--hands 300] [--warm 300] [--rulesets guobiao,fuzhou,sichuan]``.
Per ruleset, three sets of simulated hands (different seeds): the judge's first pass in the
process (``cold``: its memoised per-suit tables empty), then ``--warm`` hands judged to fill them,
then fresh hands judged (``steady``: as deep in a long run, where most suits were met before)
and replayed with ``replay_hand`` (the reference: every decision is judged on that replay, so it
is the floor). The judge runs as ``mjstats decisions`` runs it: rows appended to one list per
column (``hand_decision_columns``), the cyclic collector paused.
Printed: the build (pure or compiled, docs/compiled.md), CPU hands/s and decisions/s, the
replay's hands/s, and the same-run ratio. The target is 1,000 Guobiao hands/s per process
(issue 14); docs/decisions.md gives the measured figures.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from mjstats.compiled import describe_build
from mjstats.decision.judge import DecisionColumns, hand_decision_columns
from mjstats.gc_pause import paused_collection
from mjstats.records import Hand
from mjstats.replay import replay_hand
from mjstats.sim import SimConfig, simulate

TARGET = 1000  # Guobiao hands/s per process


def seconds(fn: Callable[[Hand], object], hands: list[Hand]) -> tuple[float, int]:
    """CPU seconds to run ``fn`` on every hand, and the rows (or hands) it made."""
    start = time.process_time()
    made = sum(len(r) if isinstance(r, list) else 1 for r in map(fn, hands))
    return time.process_time() - start, made


def judge_columns(hands: list[Hand]) -> tuple[float, int]:
    """CPU seconds to judge every hand into one set of columns, and the rows made."""
    out = DecisionColumns()
    start = time.process_time()
    for hand in hands:
        hand_decision_columns(hand, out)
    return time.process_time() - start, len(out)


def measure(ruleset: str, count: int, warm: int) -> str:
    cold_hands = list(simulate(SimConfig(ruleset, count, seed=3)))
    warm_hands = list(simulate(SimConfig(ruleset, warm, seed=4))) if warm else []
    steady_hands = list(simulate(SimConfig(ruleset, count, seed=5)))
    with paused_collection():
        cold_s, cold_rows = judge_columns(cold_hands)
        judge_columns(warm_hands)
        judge_s, rows = judge_columns(steady_hands)
        replay_s, _ = seconds(replay_hand, steady_hands)
    reference = count / replay_s
    if not rows:
        return f"{ruleset:8} no decision judge (0 rows); replay alone {reference:8,.0f} hands/s"
    cold, steady = count / cold_s, count / judge_s
    line = (
        f"{ruleset:8} decisions: cold {cold:6,.0f} hands/s ({cold_rows / cold_s:,.0f} decisions/s), "
        f"steady {steady:6,.0f} hands/s ({rows / judge_s:,.0f} decisions/s); replay alone "
        f"(reference) {reference:6,.0f} hands/s; ratio cold {cold / reference:.3f}, "
        f"steady {steady / reference:.3f}"
    )
    if ruleset == "guobiao":
        line += f"; target {TARGET:,} hands/s: {'met' if steady >= TARGET else 'NOT met'}"
    return line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--warm", type=int, default=300, help="hands judged between cold and steady")
    parser.add_argument("--rulesets", default="guobiao,fuzhou,sichuan")
    args = parser.parse_args()
    print(describe_build(), flush=True)
    for ruleset in args.rulesets.split(","):
        print(measure(ruleset, args.hands, args.warm), flush=True)


if __name__ == "__main__":
    main()
