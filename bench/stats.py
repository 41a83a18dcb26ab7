"""Statistics throughput: every registered metric over a large Botzone dataset.

Run: ``python bench/stats.py [--hands 100000] [--also 1000000] [--keep DIR]``. The dataset is
built by renumbering the bundled sample (bench/botzone_corpus.py) and ingesting it (not timed).
Each measurement runs in a fresh process so that its peak memory (max RSS) is its own. The
reference, measured in the same run, is a bare pyarrow read of the columns the statistics read.
Target: 1,000,000 hands in under 60 s and under 4 GB.
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


def _child(dataset: str, mode: str) -> None:
    start = time.perf_counter()
    if mode == "read":
        import pyarrow.dataset as pads

        from mjstats.stats.tables import EVENT_COLUMNS, HAND_COLUMNS, WIN_COLUMNS
        from mjstats.store import open_dataset

        ds = open_dataset(dataset)
        rows = 0
        for name, cols in (("hands", HAND_COLUMNS), ("wins", WIN_COLUMNS), ("events", EVENT_COLUMNS),
                           ("payments", ("match_id", "hand_no", "seat", "score")),
                           ("fans", ("match_id", "hand_no", "winner", "name", "count"))):
            rows += pads.dataset(ds.path / name, format="parquet", partitioning="hive").to_table(
                columns=list(cols)).num_rows
        detail = {"rows": rows}
    else:
        import warnings

        from mjstats.stats import compute_all
        from mjstats.stats.tables import base_tables

        t0 = time.perf_counter()
        base = base_tables(dataset)
        t_base = time.perf_counter() - t0
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            frame = compute_all(dataset)
        detail = {"rows": len(frame), "hands": len(base.hands), "base_s": t_base,
                  "metrics": int(frame["metric"].nunique())}
    elapsed = time.perf_counter() - start
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": elapsed, "peak_mb": peak_mb, **detail}))


def _run(dataset: Path, mode: str) -> dict:
    proc = subprocess.run([sys.executable, __file__, "--child", str(dataset), mode],
                          check=True, capture_output=True, text=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _build(tmp: Path, hands: int) -> Path:
    from mjstats.formats.botzone import read_botzone
    from mjstats.store import SourceInput, ingest_sources

    src = write_renumbered(tmp / f"botzone-{hands}.txt", hands)
    out = tmp / f"ds-{hands}"
    start = time.perf_counter()
    ingest_sources([SourceInput(src, "botzone", read_botzone)], out)
    src.unlink()
    print(f"  (built {hands:,} hands in {time.perf_counter() - start:.0f} s; not timed below)", flush=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--also", type=int, nargs="*", default=[], help="further sizes")
    parser.add_argument("--keep", type=Path, default=None, help="build datasets here and keep them")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(*args.child)
        return
    sizes = [args.hands, *args.also]
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = args.keep or Path(tmpdir)
        tmp.mkdir(parents=True, exist_ok=True)
        results = []
        for n in sizes:
            ds = tmp / f"ds-{n}"
            if not ds.exists():
                ds = _build(tmp, n)
            read = _run(ds, "read")
            stats = _run(ds, "stats")
            assert stats["hands"] == n, stats
            results.append((n, read, stats))
        print(f"{'hands':>9} {'stats s':>8} {'(base s)':>8} {'hands/s':>9} {'read s':>7} {'ratio':>6} "
              f"{'peak MB':>8} {'metrics':>7}")
        for n, read, stats in results:
            print(f"{n:>9,} {stats['seconds']:>8.1f} {stats['base_s']:>8.1f} {n / stats['seconds']:>9,.0f} "
                  f"{read['seconds']:>7.2f} {stats['seconds'] / read['seconds']:>5.1f}x "
                  f"{stats['peak_mb']:>8.0f} {stats['metrics']:>7}")
        n, _, stats = results[-1]
        if n < 1_000_000:
            est = stats["seconds"] * 1_000_000 / n
            print(f"extrapolated to 1,000,000 hands: ~{est:.0f} s (linear)")
    print("target: 1,000,000 hands in < 60 s and < 4,096 MB peak (bench/scale.py: < 2,048 MB)")


if __name__ == "__main__":
    main()
