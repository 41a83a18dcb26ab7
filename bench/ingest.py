"""Ingest throughput (hands/s) on renumbered Botzone records, beside a bare line split.

Run: ``python bench/ingest.py [--hands 50000]``. Each size runs in a fresh process so that its
peak memory (max RSS) is its own; the bare split (read + splitlines) of the same file is the
reference measured in the same run.
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
    from mjstats.formats.botzone import read_botzone
    from mjstats.store import SourceInput, ingest_sources

    start = time.perf_counter()
    if mode == "split":
        with open(path, "rb") as fh:
            lines = 0
            for _ in fh:
                lines += 1
        hands = lines  # reported as lines; hands computed by the parent
    else:
        summary = ingest_sources([SourceInput(Path(path), "botzone", read_botzone)], Path(out))
        hands = summary.hands
    elapsed = time.perf_counter() - start
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": elapsed, "count": hands, "peak_mb": peak_mb}))


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
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(*args.child)
        return
    sizes = [args.hands // 5, args.hands]
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{'hands':>8} {'ingest s':>9} {'hands/s':>9} {'split s':>8} {'ratio':>6} {'peak MB':>8}")
        for n in sizes:
            src = write_renumbered(Path(tmp) / f"botzone-{n}.txt", n)
            split = _run(src, Path(tmp) / "unused", "split")
            ingest = _run(src, Path(tmp) / f"ds-{n}", "ingest")
            assert ingest["count"] == n, ingest
            rate = n / ingest["seconds"]
            print(
                f"{n:>8} {ingest['seconds']:>9.2f} {rate:>9,.0f} {split['seconds']:>8.3f} "
                f"{ingest['seconds'] / split['seconds']:>5.0f}x {ingest['peak_mb']:>8.0f}"
            )
    print("target: >= 5,000 hands/s; peak memory flat in the input size")


if __name__ == "__main__":
    main()
