"""Where the statistics' memory goes: RSS per phase (base tables, then each metric) on a dataset.

Run: ``python bench/stats_memory.py DATASET [METRIC ...]`` (default: every metric), e.g. on a
dataset kept by ``bench/scale.py --keep DIR``. A thread samples the process's RSS every 2 ms;
each phase prints its peak and the RSS left after it, and the sizes of the base frames. The
figures in docs/scaling.md's "What streams" section come from this script at 1,000,000 hands.
Not part of ``make bench`` (it needs a dataset to look at).
"""

from __future__ import annotations

import os
import sys
import threading
import time
import warnings
from collections.abc import Callable

_PAGE = os.sysconf("SC_PAGE_SIZE")


def rss_mb() -> float:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * _PAGE / 2**20


class PeakSampler:
    """The highest RSS seen since the last :meth:`reset`, sampled from a daemon thread."""

    def __init__(self, every: float = 0.002) -> None:
        self.peak = rss_mb()
        self.every = every
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        while True:
            self.peak = max(self.peak, rss_mb())
            time.sleep(self.every)

    def reset(self) -> None:
        self.peak = rss_mb()


def phase(sampler: PeakSampler, name: str, fn: Callable[[], object]) -> object:
    sampler.reset()
    start = time.perf_counter()
    result = fn()
    time.sleep(0.01)  # let the sampler see the end of the phase
    print(f"{name:34s} peak {sampler.peak:7.0f} MB  after {rss_mb():7.0f} MB  "
          f"{time.perf_counter() - start:6.1f} s", flush=True)
    return result


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    warnings.simplefilter("ignore")
    from mjstats.stats import METRICS, compute
    from mjstats.stats.tables import base_tables
    from mjstats.store import open_dataset

    ds = open_dataset(sys.argv[1])
    sampler = PeakSampler()
    print(f"start: {rss_mb():.0f} MB")
    base = phase(sampler, "base tables", lambda: base_tables(ds))
    sizes = {k: getattr(base, k).memory_usage(deep=True).sum() / 2**20 for k in ("hands", "seats", "fans")}
    print("  frames: " + ", ".join(f"{k} {v:.0f} MB" for k, v in sizes.items())
          + f", keys {base.keys.nbytes / 2**20:.0f} MB")
    for metric in sys.argv[2:] or METRICS:
        phase(sampler, metric, lambda m=metric: compute(ds, m))


if __name__ == "__main__":
    main()
