"""Ingest throughput (hands/s) on renumbered Botzone records, beside a bare line split.

Run: ``python bench/ingest.py [--hands 50000] [--jobs 1 2]``. Each measurement runs in a fresh
process so that its peak memory (max RSS, of the parent and of its largest worker) is its own;
the bare split (reading the file line by line) of the same file is the reference measured in the
same run. Two sizes (a fifth of --hands, and --hands) show whether memory stays flat.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from botzone_corpus import write_renumbered


def _child(path: str, out: str, mode: str) -> None:
    from mjstats.store import SourceInput, ingest_sources

    start, cpu = time.perf_counter(), time.process_time()
    if mode == "split":
        count = 0
        with open(path, "rb") as fh:
            for _ in fh:
                count += 1
    else:
        summary = ingest_sources([SourceInput(Path(path), "botzone")], Path(out), jobs=int(mode))
        count = summary.hands
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu  # this process only: with --jobs 1 the whole ingest
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(json.dumps({"seconds": elapsed, "cpu": cpu, "count": count, "peak_mb": peak, "worker_mb": workers}))


def _run(path: Path, out: Path, mode: str) -> dict:
    proc = subprocess.run(
        [sys.executable, __file__, "--child", str(path), str(out), mode],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(proc.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=50_000)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(*args.child)
        return
    sizes = [args.hands // 5, args.hands]
    print("ingest of renumbered Botzone records (the bundled sample's 16 records, repeated)")
    print(
        f"{'hands':>8} {'jobs':>4} {'ingest s':>9} {'hands/s':>9} {'CPU h/s':>8} {'split s':>8} "
        f"{'vs split':>8} {'peak MB':>8} {'worker MB':>9}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            src = write_renumbered(Path(tmp) / f"botzone-{n}.txt", n)
            split = _run(src, Path(tmp) / "unused", "split")
            for jobs in args.jobs:
                ingest = _run(src, Path(tmp) / f"ds-{n}-{jobs}", str(jobs))
                assert ingest["count"] == n, ingest
                print(
                    f"{n:>8} {jobs:>4} {ingest['seconds']:>9.2f} {n / ingest['seconds']:>9,.0f} "
                    f"{n / ingest['cpu']:>8,.0f} {split['seconds']:>8.3f} "
                    f"{ingest['seconds'] / split['seconds']:>7.0f}x "
                    f"{ingest['peak_mb']:>8.0f} {ingest['worker_mb']:>9.0f}"
                )
    print("CPU h/s: hands per CPU second of the parent process (with --jobs 1, per process: what one")
    print("core does whatever else the machine runs); 'vs split': ingest time / a bare line split")
    print("target: >= 10,000 hands/s per process; peak memory flat in the input size")


if __name__ == "__main__":
    main()
