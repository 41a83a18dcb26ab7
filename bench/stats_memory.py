"""Where the statistics' memory goes: RSS per phase (base tables, then each metric) on a dataset.

Run: ``python bench/stats_memory.py DATASET [METRIC ...]`` (default: every metric), e.g. on a
dataset kept by ``bench/scale.py --keep DIR``. A thread samples the process's RSS every 2 ms;
each phase prints its peak and the RSS left after it, and the sizes of the base frames. The
figures in docs/scaling.md's "What streams" section come from this script at 1,000,000 hands.
Not part of ``make bench`` (it needs a dataset to look at).

``python bench/stats_memory.py --sizes 100000 300000`` compares sizes instead: it renumbers the
bundled Botzone sample into a dataset of each size (bench/botzone_corpus.py; ingest and audit
not measured), computes every metric in a fresh process per size and prints each one's peak
RSS (VmHWM) and the ratio of each peak to the smallest size's, against the statistics' target:
the peak at 3,000,000 hands within 10% of the peak at 1,000,000 (flat in the number of hands).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from collections.abc import Callable
from pathlib import Path

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


def _peak_of_all_metrics(dataset: str) -> None:
    """Child: every metric over ``dataset``; prints the process's peak RSS (MB) and seconds."""
    warnings.simplefilter("ignore")
    from mjstats.stats import compute_all

    start = time.perf_counter()
    compute_all(dataset)
    with open("/proc/self/status") as fh:
        peak = next(int(line.split()[1]) for line in fh if line.startswith("VmHWM:")) / 1024
    print(f"{peak:.1f} {time.perf_counter() - start:.2f}")


def compare_sizes(sizes: list[int]) -> None:
    """Peak memory of every metric at each size (fresh process each), against the smallest."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from botzone_corpus import write_renumbered

    from mjstats.formats.botzone import read_botzone
    from mjstats.store import SourceInput, ingest_sources

    first: float | None = None
    print(f"{'hands':>10} {'peak MB':>9} {'KB/hand':>8} {'seconds':>8} {'peak / smallest':>16}")
    with tempfile.TemporaryDirectory() as tmp:
        for n in sorted(sizes):
            source = write_renumbered(Path(tmp) / f"bz{n}.txt", n)
            dataset = Path(tmp) / f"ds{n}"
            ingest_sources([SourceInput(source, "botzone", read_botzone)], dataset)
            source.unlink()
            proc = subprocess.run([sys.executable, __file__, "--child", str(dataset)],
                                  capture_output=True, text=True)
            if proc.returncode:
                sys.exit(f"statistics at {n:,} hands failed:\n{proc.stderr}")
            peak, seconds = map(float, proc.stdout.split())
            first = first or peak
            print(f"{n:>10,} {peak:>9.0f} {peak * 1024 / n:>8.2f} {seconds:>8.1f} {peak / first:>15.2f}x",
                  flush=True)
    print("target: the peak at 3x the hands within 1.10x (flat statistics), under 1.5 GB")


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    if sys.argv[1] == "--child":
        _peak_of_all_metrics(sys.argv[2])
        return
    if sys.argv[1] == "--sizes":
        compare_sizes([int(n) for n in sys.argv[2:]])
        return
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
