"""Where the statistics' memory goes: RSS per phase (base tables, then each metric) on a dataset.

Run: ``python bench/stats_memory.py DATASET [METRIC ...]`` (default: every metric), e.g. on a
dataset kept by ``bench/scale.py --keep DIR``. A thread samples the process's RSS every 2 ms;
each phase prints its peak and the RSS left after it: first the summed group counters
(mjstats.stats.group_counts, with their sizes), then each metric (the families that still read
per-hand tables build them in their first phase). The figures in docs/scaling.md's "What
streams" section come from this script.
Not part of ``make bench`` (it needs a dataset to look at).

``python bench/stats_memory.py --sizes 100000 300000 [--repeat 3] [--jobs 1]`` compares sizes instead: it
renumbers the bundled Botzone sample into a dataset of each size (bench/botzone_corpus.py;
ingest and audit not measured), computes every metric in a fresh process, ``--repeat`` times per
size, and prints the peak RSS (VmHWM) of each run, their median and the ratio of each size's
median to the smallest size's, against the statistics' target: the peak at 3,000,000 hands
within 10% of the peak at 1,000,000 (flat in the number of hands).
"""

from __future__ import annotations

import os
import shutil
import statistics
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


def compare_sizes(sizes: list[int], repeat: int = 3, jobs: int = 1) -> None:
    """Peak memory of every metric at each size (a fresh process each run, ``repeat`` runs per
    size: the scan threads' timing moves the peak by a few percent from run to run), the median
    against the smallest size's median. ``jobs`` processes ingest each size (not measured)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from botzone_corpus import write_renumbered

    from mjstats.formats.botzone import read_botzone
    from mjstats.store import SourceInput, ingest_sources

    first: float | None = None
    print(f"{'hands':>10} {'peak MB (median)':>17} {'runs':>17} {'KB/hand':>8} {'seconds':>8} "
          f"{'median / smallest':>18}")
    with tempfile.TemporaryDirectory() as tmp:
        for n in sorted(sizes):
            source = write_renumbered(Path(tmp) / f"bz{n}.txt", n)
            dataset = Path(tmp) / f"ds{n}"
            ingest_sources([SourceInput(source, "botzone", read_botzone)], dataset, jobs=jobs)
            source.unlink()
            peaks, times = [], []
            for _ in range(repeat):
                proc = subprocess.run([sys.executable, __file__, "--child", str(dataset)],
                                      capture_output=True, text=True)
                if proc.returncode:
                    sys.exit(f"statistics at {n:,} hands failed:\n{proc.stderr}")
                peak, seconds = map(float, proc.stdout.split())
                peaks.append(peak)
                times.append(seconds)
            peak = statistics.median(peaks)
            first = first or peak
            runs = "/".join(f"{p:.0f}" for p in peaks)
            seconds = statistics.median(times)
            print(f"{n:>10,} {peak:>17.0f} {runs:>17} {peak * 1024 / n:>8.2f} {seconds:>8.1f} "
                  f"{peak / first:>17.2f}x", flush=True)
            shutil.rmtree(dataset)
    print("target: the peak at 3x the hands within 1.10x (flat statistics), under 1.5 GB")


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    if sys.argv[1] == "--child":
        _peak_of_all_metrics(sys.argv[2])
        return
    if sys.argv[1] == "--sizes":
        args = sys.argv[2:]
        options = {"--repeat": 3, "--jobs": 1}
        for flag in options:
            if flag in args:
                at = args.index(flag)
                options[flag] = int(args[at + 1])
                del args[at:at + 2]
        compare_sizes([int(n) for n in args], options["--repeat"], options["--jobs"])
        return
    warnings.simplefilter("ignore")
    from mjstats.stats import METRICS, StatsError, compute
    from mjstats.stats.group_counts import group_counts
    from mjstats.store import open_dataset

    ds = open_dataset(sys.argv[1])
    sampler = PeakSampler()
    print(f"start: {rss_mb():.0f} MB")
    counts = phase(sampler, "group counters (with tenpai)", lambda: group_counts(ds, tenpai=True))
    frames = {"seats": counts.seats, "fans": counts.fans, "totals": counts.totals, "tenpai": counts.tenpai}
    print("  counters: " + ", ".join(f"{k} {len(v):,} rows ({v.memory_usage(deep=True).sum() / 2**20:.1f} MB)"
                                     for k, v in frames.items() if v is not None))
    for metric in sys.argv[2:] or METRICS:
        try:
            phase(sampler, metric, lambda m=metric: compute(ds, m))
        except StatsError as exc:  # e.g. the decisions metrics before `mjstats decisions`
            print(f"{metric:34s} skipped: {exc}")


if __name__ == "__main__":
    main()
