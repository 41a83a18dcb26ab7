"""Fuzhou replay throughput (hands/s of CPU time) against Guobiao replay measured in the same run.

Run: ``python bench/replay_fuzhou.py [--hands 2000]``. Simulates that many Fuzhou hands (seed
profile, with their walls) and as many Guobiao hands, then replays each set in memory with
``replay_hand`` (every check, the win rescored). Printed: CPU hands/s for each ruleset and the
Fuzhou/Guobiao ratio (the reference is the Guobiao replay, which scores wins with the 81-fan
calculator); plus the rate without the wall (counting only) for Fuzhou.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace

from mjstats.records import Hand
from mjstats.replay import replay_hand
from mjstats.sim import SimConfig, simulate


def rate(hands: list[Hand]) -> float:
    start = time.process_time()
    findings = sum(len(replay_hand(h).findings) for h in hands)
    seconds = time.process_time() - start
    assert findings == 0, f"{findings} findings in simulated hands"
    return len(hands) / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    args = parser.parse_args()
    fuzhou = list(simulate(SimConfig("fuzhou", args.hands, seed=1)))
    guobiao = list(simulate(SimConfig("guobiao", args.hands, seed=1)))
    guobiao_rate = rate(guobiao)
    fuzhou_rate = rate(fuzhou)
    counted_rate = rate([replace(h, wall=None) for h in fuzhou])
    print(f"guobiao replay (reference): {guobiao_rate:8,.0f} hands/s")
    for what, value in (("with wall:  ", fuzhou_rate), ("counted:    ", counted_rate)):
        print(f"fuzhou replay, {what} {value:8,.0f} hands/s  ratio {value / guobiao_rate:.2f}")


if __name__ == "__main__":
    main()
