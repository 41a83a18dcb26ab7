"""Start-up time of the command line, beside the interpreter's own start-up measured in the same run.

Each command runs ``--runs`` times as a fresh process; the median wall time is printed with the
median of ``python -c pass`` (the floor no command can beat) and of ``python -c "import pyarrow,
pandas"`` (what every command paid before commands imported only what they use). Target:
``mjstats --help`` and ``mjstats fan`` under 0.3 s on an idle machine.

Run: ``.venv/bin/python bench/startup.py [--runs N]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

FAN = ["fan", "W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9 W9", "--win", "W5"]
TARGET = 0.3


# as an installed user runs it: bytecode cached (an environment that forbids writing it makes
# every run recompile each module, which is not what start-up means)
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def median_wall(argv: list[str], runs: int) -> float:
    times = []
    for _ in range(runs + 1):  # the first run writes the bytecode cache: not counted
        start = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=ENV)
        times.append(time.perf_counter() - start)
    return statistics.median(times[1:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    runs = parser.parse_args().runs
    py = sys.executable
    floor = median_wall([py, "-c", "pass"], runs)
    data_stack = median_wall([py, "-c", "import pyarrow, pandas"], runs)
    print(f"reference: python -c pass {floor:.3f} s; importing pyarrow + pandas {data_stack:.3f} s")
    for label, argv in (("mjstats --help", ["--help"]), ("mjstats fan (Guobiao)", FAN)):
        wall = median_wall([py, "-m", "mjstats", *argv], runs)
        verdict = "ok" if wall < TARGET else f"over the {TARGET} s target"
        print(f"{label:24s} {wall:.3f} s  ({wall / floor:.1f}x the bare interpreter; {verdict})")


if __name__ == "__main__":
    main()
