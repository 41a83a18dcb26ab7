"""Benchmark the self-play simulator: hands per second per ruleset, in one process.

Prints, per ruleset, the simulation rate (wall clock and CPU time) and, as the reference
measured in the same run, the rate at which the same hands are replay-checked (Guobiao: the
audit's replayer, mjstats.replay.replay_hand; Fuzhou: mjstats.rulesets.fuzhou.verify.check_fuzhou_hand;
Sichuan: the audit's replayer, which dispatches to the Sichuan replay).
Target: >= 100 simulated hands/s per process.

    .venv/bin/python bench/simulate.py [--hands 1000] [--seed 1]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from mjstats.replay import replay_hand
from mjstats.rulesets.fuzhou.verify import check_fuzhou_hand
from mjstats.sim import SimConfig, simulate

TARGET = 100.0


def _timed(work: Callable[[], Any]) -> tuple[Any, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    out = work()
    return out, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--hands", type=int, default=1_000)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    check: dict[str, Callable[[Any], object]] = {
        "guobiao": replay_hand,
        "fuzhou": check_fuzhou_hand,
        "sichuan": replay_hand,
    }
    print(f"simulate {args.hands:,} hands per ruleset, seed {args.seed}, one process")
    for ruleset in ("guobiao", "fuzhou", "sichuan"):
        config = SimConfig(ruleset, args.hands, args.seed)
        hands, wall, cpu = _timed(lambda c=config: list(simulate(c)))
        _, ref_wall, ref_cpu = _timed(lambda r=ruleset, h=hands: [check[r](x) for x in h])
        n = len(hands)
        rate, rate_cpu = n / wall, n / cpu
        ref_cpu_rate = n / ref_cpu
        verdict = "meets" if rate_cpu >= TARGET else "BELOW"
        print(
            f"{ruleset:8s} simulate {rate:7.0f} hands/s wall, {rate_cpu:7.0f} hands/s CPU "
            f"({verdict} the {TARGET:.0f}/s target) | reference replay-check {n / ref_wall:7.0f} "
            f"hands/s wall, {ref_cpu_rate:7.0f} CPU | ratio simulate/replay {rate_cpu / ref_cpu_rate:.2f}"
        )


if __name__ == "__main__":
    main()
