"""Decision judging throughput (hands/s of CPU time) against the replay alone, same hands, same run.

Run: ``python bench/decisions.py [--hands 300]``. Simulates Guobiao and Fuzhou hands, replays
each set with ``replay_hand`` (the reference: every decision is judged on that replay, so it is
the floor) and judges it with ``mjstats.decision.hand_decisions``. Printed per ruleset: CPU
hands/s and decisions/s of the judge, the replay's hands/s, and their ratio. The brief's
target is 1,000 Guobiao hands/s per process; docs/decisions.md gives the measured figure.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from mjstats.decision import hand_decisions
from mjstats.records import Hand
from mjstats.replay import replay_hand
from mjstats.sim import SimConfig, simulate

TARGET = 1000  # Guobiao hands/s per process


def seconds(fn: Callable[[Hand], object], hands: list[Hand]) -> tuple[float, int]:
    """CPU seconds to run ``fn`` on every hand, and the rows (or hands) it made."""
    start = time.process_time()
    made = sum(len(r) if isinstance(r, list) else 1 for r in map(fn, hands))
    return time.process_time() - start, made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    args = parser.parse_args()
    for ruleset in ("guobiao", "fuzhou"):
        hands = list(simulate(SimConfig(ruleset, args.hands, seed=3)))
        replay_s, _ = seconds(replay_hand, hands)
        judge_s, rows = seconds(hand_decisions, hands)
        rate = len(hands) / judge_s
        reference = len(hands) / replay_s
        line = (
            f"{ruleset:8} decisions: {rate:8,.0f} hands/s ({rows / judge_s:,.0f} decisions/s); "
            f"replay alone (reference): {reference:8,.0f} hands/s; ratio {rate / reference:.3f}"
        )
        if ruleset == "guobiao":
            line += f"; target {TARGET:,} hands/s: {'met' if rate >= TARGET else 'NOT met'}"
        print(line)


if __name__ == "__main__":
    main()
