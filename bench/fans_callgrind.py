"""bench/fans.py's warm pass, for callgrind: instructions a hand (a count the load does not move).

Run twice under ``PYTHONPATH=build/compiled valgrind --tool=callgrind --callgrind-out-file=F
python -P bench/fans_callgrind.py --passes P`` with P = 1 and P = 3: each run imports, makes
bench/fans.py's hands (N, SEED as there), scores them once (the caches filled: the warm state),
then scores them P more times as bench/fans.py's warm pass does. The warm instructions a hand are
(total at 3 - total at 1) / (2 x hands). Each run ends by ``os._exit``: the interpreter's
shutdown is not counted.
"""

from __future__ import annotations

import argparse
import os
import sys
from contextlib import suppress
from pathlib import Path

# the repository for tests.test_guobiao_handgen, after PYTHONPATH so that a compiled build wins
sys.path.append(str(Path(__file__).resolve().parents[1]))

from mjstats.compiled import describe_build
from mjstats.errors import RuleError
from mjstats.rulesets.guobiao import calculate_fans
from tests.test_guobiao_handgen import HandGenerator


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, default=1)
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    cases = [c for c in HandGenerator(args.seed).cases(args.hands) if c.kind == "win"]
    ours_args = [(*c.our_args(), c.flags) for c in cases]
    for _ in range(1 + args.passes):  # the first pass fills the caches
        for hand, melds, win, flags in ours_args:
            with suppress(RuleError):
                calculate_fans(hand, melds, win, **flags)
    print(describe_build(), len(ours_args), "hands", args.passes, "warm passes", flush=True)
    os._exit(0)


if __name__ == "__main__":
    main()
