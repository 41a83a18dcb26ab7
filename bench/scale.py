"""Scaling: ingest, audit and statistics at 10,000 / 100,000 / 1,000,000 hands, time and memory.

Run: ``python bench/scale.py [--sizes 10000 100000] [--corpora botzone fuzhou]
[--audits 1 2 dask:2] [--keep DIR]``. Corpora: ``botzone`` renumbers the bundled Botzone
sample (bench/botzone_corpus.py); ``fuzhou`` renumbers simulated Fuzhou hands (the bundled
data/sim/fuzhou.jsonl.gz, or ``--fuzhou-base N`` hands simulated once) under fresh match ids,
since simulating a million hands would take hours. Each stage runs in a fresh process: wall
seconds, CPU seconds (the process and its workers: what the stage costs whatever else the
machine runs), peak RSS of the parent and of its largest worker. Audits: ``N`` = the process
pool with N jobs (``audit_dataset``), ``dask:N`` = an N-worker LocalCluster (``audit_distributed``).

The reference, measured in the same run, is the smallest size: each row prints its time per
hand against the smallest size's, wall clock / CPU (1.00/1.00 = linear), and each audit its
speed-up against the 1-job audit of the same size, by wall clock and CPU-bound (jobs x the
1-job CPU seconds / the CPU seconds of the run: what idle cores would give; the wall-clock
figure needs an idle machine).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from botzone_corpus import write_renumbered

ROOT = Path(__file__).resolve().parent.parent
FUZHOU_SAMPLE = ROOT / "data" / "sim" / "fuzhou.jsonl.gz"
TARGETS = (
    "targets: time linear in hands (1,000,000 within 12x the 100,000 time); peak memory < 2,048 MB "
    "at 1,000,000 hands; audit on 2 processes >= 1.7x of 1"
)


# --- the corpora ----------------------------------------------------------------------------------
def _fuzhou_base(tmp: Path, base: int) -> list[str]:
    """Simulated Fuzhou hands as canonical lines (the bundled sample, or ``base`` simulated)."""
    if not base:
        with gzip.open(FUZHOU_SAMPLE, "rt", encoding="utf-8") as fh:
            return [line for line in fh if line.strip()]
    out = tmp / f"fuzhou-base-{base}.jsonl"
    if not out.exists():
        subprocess.run(
            [sys.executable, "-m", "mjstats", "simulate", "--rules", "fuzhou", "--hands", str(base),
             "--seed", "1", "--out", str(out), "-q"],
            check=True,
        )  # fmt: skip
    return [line for line in out.read_text(encoding="utf-8").splitlines(keepends=True) if line.strip()]


def write_fuzhou(path: Path, hands: int, base: list[str]) -> Path:
    """``hands`` canonical Fuzhou hands: copies of ``base`` whose match ids get a copy prefix
    (base matches are whole, so every copy is a run of whole matches)."""
    key = '"match_id":"'
    with path.open("w", encoding="utf-8") as fh:
        for i in range(hands):
            copy, line = divmod(i, len(base))
            fh.write(base[line].replace(key, f'{key}c{copy:05d}-', 1))
    return path


def build_source(tmp: Path, corpus: str, hands: int, fuzhou_base: int) -> tuple[Path, str]:
    if corpus == "botzone":
        return write_renumbered(tmp / f"botzone-{hands}.txt", hands), "botzone"
    base = _fuzhou_base(tmp, fuzhou_base)
    return write_fuzhou(tmp / f"fuzhou-{hands}.jsonl", hands, base), "canonical"


# --- one stage, in a fresh process ----------------------------------------------------------------
def _cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _child(stage: str, dataset: str, arg: str) -> None:
    cpu, start = _cpu_seconds(), time.perf_counter()
    if stage == "ingest":
        from mjstats.store import SourceInput, ingest_sources

        source, fmt, jobs = arg.split("|")
        summary = ingest_sources([SourceInput(Path(source), fmt)], Path(dataset), jobs=int(jobs))
        count = summary.hands
    elif stage == "audit" and arg.startswith("dask:"):
        from mjstats.distributed import audit_distributed

        count = audit_distributed(dataset, scheduler=f"local:{arg.removeprefix('dask:')}").hands
    elif stage == "audit":
        from mjstats.audit import audit_dataset

        count = audit_dataset(dataset, jobs=int(arg)).hands
    else:
        import warnings

        from mjstats.stats import compute_all
        from mjstats.stats.tables import base_tables

        count = len(base_tables(dataset).hands)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compute_all(dataset)
    wall = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    worker = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(json.dumps({"wall": wall, "cpu": _cpu_seconds() - cpu, "count": count,
                      "peak_mb": peak, "worker_mb": worker}))  # fmt: skip


def _run(stage: str, dataset: Path, arg: str) -> dict:
    proc = subprocess.run(
        [sys.executable, __file__, "--child", stage, str(dataset), arg], capture_output=True, text=True
    )
    if proc.returncode:
        sys.exit(f"{stage} {arg} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


# --- the table ------------------------------------------------------------------------------------
HEADER = (
    f"{'corpus':<8} {'hands':>9} {'stage':<12} {'wall s':>8} {'CPU s':>8} {'hands/s':>8} "
    f"{'per hand w/c':>13} {'speed-up':>8} {'CPU-bound':>9} {'peak MB':>8} {'worker MB':>9}"
)


def _row(corpus: str, n: int, stage: str, r: dict, ref: dict | None, one: dict | None, jobs: int) -> str:
    if ref:  # time per hand against the reference's, wall clock / CPU
        wall, cpu = (r["wall"] / n) / (ref["wall"] / ref["n"]), (r["cpu"] / n) / (ref["cpu"] / ref["n"])
        linear = f"{wall:.2f}/{cpu:.2f}"
    else:
        linear = "(ref)"
    speed = bound = ""
    if one is not None:
        speed = f"{one['wall'] / r['wall']:.2f}x"
        bound = f"{jobs * one['cpu'] / r['cpu']:.2f}x"
    return (
        f"{corpus:<8} {n:>9,} {stage:<12} {r['wall']:>8.1f} {r['cpu']:>8.1f} {n / r['wall']:>8,.0f} "
        f"{linear:>13} {speed:>8} {bound:>9} {r['peak_mb']:>8.0f} {r['worker_mb']:>9.0f}"
    )


def main() -> None:
    raw = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=raw)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--corpora", nargs="+", choices=["botzone", "fuzhou"], default=["botzone", "fuzhou"])
    parser.add_argument("--audits", nargs="+", default=["1", "2", "dask:2"],
                        help="audit runs: N (process pool, N jobs) or dask:N (N-worker LocalCluster)")
    parser.add_argument("--big-audits", nargs="+", default=["2"],
                        help="audit runs at sizes >= --big (default: only 2 jobs)")
    parser.add_argument("--big", type=int, default=1_000_000)
    parser.add_argument("--stages", nargs="+", choices=["ingest", "audit", "stats"],
                        default=["ingest", "audit", "stats"])
    parser.add_argument("--ingest-jobs", type=int, default=1)
    parser.add_argument("--fuzhou-base", type=int, default=0,
                        help="simulate this many Fuzhou hands as the base (default: the bundled 2,000)")
    parser.add_argument("--keep", type=Path, default=None, help="work (and keep datasets) here")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()  # fmt: skip
    if args.child:
        _child(*args.child)
        return
    print(f"{os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.2f} at start", flush=True)
    print(HEADER, flush=True)
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = args.keep or Path(tmpdir)
        tmp.mkdir(parents=True, exist_ok=True)
        for corpus in args.corpora:
            refs: dict[str, dict] = {}  # stage -> the smallest size's run (the reference)
            for n in sorted(args.sizes):
                dataset = tmp / f"ds-{corpus}-{n}"
                if "ingest" in args.stages or not dataset.exists():
                    shutil.rmtree(dataset, ignore_errors=True)
                    source, fmt = build_source(tmp, corpus, n, args.fuzhou_base)
                    r = _run("ingest", dataset, f"{source}|{fmt}|{args.ingest_jobs}")
                    source.unlink()
                    assert r["count"] == n, r
                    _report(corpus, n, "ingest", r, refs, None, args.ingest_jobs)
                if "audit" in args.stages:
                    one = None
                    for mode in args.big_audits if n >= args.big else args.audits:
                        r = _run("audit", dataset, mode)
                        assert r["count"] == n, r
                        jobs = int(mode.removeprefix("dask:"))
                        one = r if mode == "1" else one
                        _report(corpus, n, f"audit {mode}", r, refs, one if mode != "1" else None, jobs)
                if "stats" in args.stages:
                    r = _run("stats", dataset, "")
                    assert r["count"] == n, r
                    _report(corpus, n, "stats", r, refs, None, 1)
                if args.keep is None:
                    shutil.rmtree(dataset, ignore_errors=True)
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    print(TARGETS)


def _report(corpus: str, n: int, stage: str, r: dict, refs: dict, one: dict | None, jobs: int) -> None:
    r["n"] = n
    ref = refs.setdefault(stage, r)
    print(_row(corpus, n, stage, r, ref if ref is not r else None, one, jobs), flush=True)


if __name__ == "__main__":
    main()
