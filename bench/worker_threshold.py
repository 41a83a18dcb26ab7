"""Where a second worker starts paying off: the audit and the decisions stage, one job against two,
on datasets around each stage's default threshold (``HANDS_PER_DEFAULT_JOB``).

Run: ``python bench/worker_threshold.py [--stages audit decisions] [--cores 2]``; the compiled
build: ``PYTHONPATH=build/compiled python -P bench/worker_threshold.py``. Each stage's default
gives a dataset one worker per ``HANDS_PER_DEFAULT_JOB`` hands (up to a worker per core), so on
two cores it switches from one process to two workers at twice the threshold. For datasets of
1/2, 1, 2 and 4 times the threshold (renumbered Botzone hands), each stage runs with ``jobs=1``
(in this process) and with ``jobs=2`` (two workers: their start-up and table warm-up included),
each in a fresh process, and the faster of the two is the reference the default's own choice is
measured against. The figures are wall-clock times: meaningful on an otherwise idle machine only.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from botzone_corpus import write_renumbered


def _child(stage: str, dataset: str, jobs: int) -> None:
    start = time.perf_counter()
    if stage == "audit":
        from mjstats.audit import audit_dataset

        audit_dataset(dataset, jobs=jobs)
    else:
        from mjstats.decision.stage import decisions

        decisions(dataset, jobs=jobs)
    print(json.dumps({"wall": time.perf_counter() - start}))


def _run(stage: str, dataset: Path, jobs: int) -> float:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # workers import from their bytecode cache, as users' do
    proc = subprocess.run(
        [sys.executable, *(["-P"] if sys.flags.safe_path else []), __file__, "--child", stage,
         str(dataset), str(jobs)],
        check=True, capture_output=True, text=True, env=env,
    )  # fmt: skip
    return float(json.loads(proc.stdout)["wall"])


def _threshold(stage: str) -> int:
    if stage == "audit":
        from mjstats.audit import HANDS_PER_DEFAULT_JOB
    else:
        from mjstats.decision.stage import HANDS_PER_DEFAULT_JOB
    return HANDS_PER_DEFAULT_JOB


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--stages", nargs="+", default=["audit", "decisions"], choices=["audit", "decisions"])
    parser.add_argument("--cores", type=int, default=2, help="the cores the default assumes")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        stage, dataset, jobs = args.child
        _child(stage, dataset, int(jobs))
        return
    from mjstats.audit import default_jobs
    from mjstats.compiled import describe_build
    from mjstats.store import SourceInput, ingest_sources

    print(describe_build())
    print(f"{'stage':10} {'hands':>7} {'1 job s':>8} {'2 jobs s':>9} {'default':>8} {'vs best':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        for stage in args.stages:
            per_job = _threshold(stage)
            for size in (per_job // 2, per_job, 2 * per_job, 4 * per_job):
                source = write_renumbered(Path(tmp) / f"{stage}-{size}.txt", size)
                dataset = Path(tmp) / f"{stage}-{size}"
                ingest_sources([SourceInput(source, "botzone")], dataset)
                walls = {jobs: _run(stage, dataset, jobs) for jobs in (1, 2)}
                chosen = default_jobs(size, args.cores, per_job)
                best = min(walls.values())
                print(f"{stage:10} {size:7,} {walls[1]:8.2f} {walls[2]:9.2f} {chosen:>5} job"
                      f"{'s' if chosen > 1 else ' '} {walls[chosen] / best:7.2f}x")  # fmt: skip
    print(f"load average {os.getloadavg()[0]:.2f} at the end (the wall times need an idle machine)")


if __name__ == "__main__":
    main()
