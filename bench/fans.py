"""Benchmark: Guobiao calculate_fans beside the PyMahjongGB C++ oracle on the same hands.

Run: .venv/bin/python bench/fans.py [N] [SEED]. Prints hands/s for both and our/oracle time
ratio, with our division/wait caches cold (cleared first) and warm (second pass). Times are CPU
times of this process, best of five interleaved rounds, so other load on the machine matters less.
The compiled build: ``PYTHONPATH=build/compiled .venv/bin/python -P bench/fans.py`` (``make bench``
runs both); the first line names the build measured.
"""

from __future__ import annotations

import sys
import time
from contextlib import suppress
from pathlib import Path

# the repository for tests.test_guobiao_handgen, after PYTHONPATH so that a compiled build wins
sys.path.append(str(Path(__file__).resolve().parents[1]))

from MahjongGB import MahjongFanCalculator

from mjstats.compiled import describe_build
from mjstats.errors import RuleError
from mjstats.rulesets.guobiao import (
    calculate_fans,
    divide,
)
from tests.test_guobiao_handgen import CODES, HandGenerator


def _clear_caches() -> None:
    caches = (divide.regular_divisions, divide._group_divisions,
              divide._group_completions, divide._suit_shape, divide._sets_only,
              divide.regular_waits)
    for fn in caches:
        fn.cache_clear()


def main(n: int = 20000, seed: int = 2024) -> None:
    gen = HandGenerator(seed)
    cases = [c for c in gen.cases(n) if c.kind == "win"]
    ours_args = [(*c.our_args(), c.flags) for c in cases]
    oracle_args = [
        dict(
            pack=tuple((k, CODES[t], o) for k, t, o in c.melds),
            hand=tuple(CODES[t] for t in c.hand),
            winTile=CODES[c.win],
            flowerCount=c.flags["flowers"],
            isSelfDrawn=c.flags["self_drawn"],
            is4thTile=c.flags["fourth_tile"],
            isAboutKong=c.flags["kong_win"],
            isWallLast=c.flags["last_tile"],
            seatWind=c.flags["seat_wind"],
            prevalentWind=c.flags["round_wind"],
        )
        for c in cases
    ]

    def run_ours() -> float:
        t0 = time.process_time()
        for hand, melds, win, flags in ours_args:
            with suppress(RuleError):
                calculate_fans(hand, melds, win, **flags)
        return time.process_time() - t0

    def run_oracle() -> float:
        t0 = time.process_time()
        for kw in oracle_args:
            with suppress(TypeError):
                MahjongFanCalculator(**kw)
        return time.process_time() - t0

    # The machine is shared: CPU time (not wall time), phases interleaved, best of five each.
    t_oracle = t_cold = t_warm = float("inf")
    for _ in range(5):
        t_oracle = min(t_oracle, run_oracle())
        _clear_caches()
        t_cold = min(t_cold, run_ours())
        t_warm = min(t_warm, run_ours())
    m = len(cases)
    print(describe_build())
    print(f"hands: {m} generated winning-shaped hands (seed {seed}), all forms, melds and flags")
    print(f"PyMahjongGB 1.3.0 (C++): {m / t_oracle:10.0f} hands/s")
    for label, t in (("cold", t_cold), ("warm", t_warm)):
        print(f"mjstats {label} caches:     {m / t:10.0f} hands/s   "
              f"ratio ours/oracle time {t / t_oracle:5.1f}x")


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    main(*args)
