"""Audit throughput (hands/s): ingest + replay + rescoring of renumbered Botzone records, 1 vs 2 jobs,
and the command line against the independent checker (bench/checker.py, the reference).

Run: ``python bench/audit.py [--hands 50000] [--jobs 1 2]``; the compiled build:
``PYTHONPATH=build/compiled python -P bench/audit.py`` (every child runs the build named first). The
sample's 16 records are written again and again under fresh match ids, ingested once, then audited
with each job count, each measurement in a fresh process. Printed per run: wall-clock hands/s, CPU
hands/s per process (CPU seconds of the process and its workers: what one core does, whatever else
the machine runs), the wall-clock speed-up against the 1-job audit measured in the same run (the
reference), and the CPU-bound speed-up: jobs x per-process rate / the 1-job rate, i.e. what that
many idle cores give (the wall-clock figure is only meaningful on an otherwise idle machine).

Then the whole commands on the same file, each a fresh process as a user runs them: ``mjstats
ingest`` + ``mjstats audit`` (``--jobs 1``, then its default of one job per core) against
``bench/checker.py`` (its own parser and replay, PyMahjongGB for the fans), wall and CPU seconds,
and their ratios (target: <= 1.0x at 2,000 hands, <= 0.7x at 100,000; the wall ratios are only
meaningful on an otherwise idle machine), and both stages as one command, ``mjstats ingest
--audit`` (one start-up).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# bench/ for botzone_corpus; it holds no mjstats, so PYTHONPATH still decides which build is imported
sys.path.insert(0, str(Path(__file__).resolve().parent))
from botzone_corpus import write_renumbered

from mjstats.compiled import describe_build


def _cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _child(mode: str, source: str, dataset: str, jobs: int) -> None:
    cpu, start = _cpu_seconds(), time.perf_counter()
    if mode == "ingest":
        from mjstats.store import SourceInput, ingest_sources

        # the format's own batches, as ``mjstats ingest`` reads them (the Botzone fast lane)
        summary = ingest_sources([SourceInput(Path(source), "botzone")], Path(dataset))
        count, findings = summary.hands, 0
    else:
        from mjstats.audit import audit_dataset

        audit = audit_dataset(dataset, jobs=jobs)
        count, findings = audit.hands, audit.findings_total
    wall = time.perf_counter() - start
    result = {"wall": wall, "cpu": _cpu_seconds() - cpu, "count": count, "findings": findings,
              "build": describe_build()}
    print(json.dumps(result))


def _mjstats_root() -> str:
    """The folder holding the mjstats package this benchmark's children import: ``python -m``
    puts its working folder first on the path, so the commands run from there (a worktree's
    own code, not whichever checkout the shell stands in)."""
    spec = importlib.util.find_spec("mjstats")
    assert spec is not None and spec.origin is not None
    return str(Path(spec.origin).resolve().parents[1])


def _child_env() -> dict[str, str]:
    """The environment of the children: the folder of the mjstats this process runs first on
    PYTHONPATH (absolute), so that they run the same build, compiled or pure (docs/compiled.md).
    The bytecode cache is allowed, as on a user's machine: an environment that forbids writing
    it (PYTHONDONTWRITEBYTECODE) makes every command recompile each module it imports, ~0.4 s
    of start-up that no installed mjstats pays (bench/startup.py does the same)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (_mjstats_root(), env.get("PYTHONPATH")) if p)
    return env


def _timed(cmd: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one command (a child process; its stdout is dropped)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=_mjstats_root(), env=_child_env())
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode:
        sys.exit(f"{' '.join(cmd)} failed:\n{proc.stderr}")
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return wall, cpu


def _against_checker(source: Path, dataset: Path, n: int, rounds: int) -> None:
    """``mjstats ingest`` + ``mjstats audit`` against bench/checker.py, same file: the audit with
    one job (the CPU a hand costs) and as a user runs it, with its default jobs (one per core: the
    wall time the user waits for, against the checker's one process); then both stages as one
    command, ``mjstats ingest --audit``. ``rounds`` times, the commands interleaved (a machine
    whose speed drifts moves them alike); the medians are printed, and each round's ratio."""
    checker = Path(__file__).resolve().parent / "checker.py"
    runs: dict[str, list[tuple[float, float]]] = {}
    for r in range(rounds):
        ds = dataset.with_name(f"{dataset.name}-{r}")
        timed = {
            "bench/checker.py": _timed([sys.executable, str(checker), str(source)]),
            "mjstats ingest": _timed([sys.executable, "-P", "-m", "mjstats", "ingest", "--format", "botzone",
                                      str(source), "--out", str(ds), "-q"]),
            "mjstats audit --jobs 1": _timed([sys.executable, "-P", "-m", "mjstats", "audit", "-q", "--jobs",
                                              "1", str(ds)]),
            "mjstats audit (default jobs)": _timed([sys.executable, "-P", "-m", "mjstats", "audit", "-q",
                                                    str(ds)]),
            # the two stages in one command (one start-up): a fresh dataset of the same file
            "mjstats ingest --audit": _timed([sys.executable, "-P", "-m", "mjstats", "ingest", "--audit",
                                              "--format", "botzone", str(source), "--out",
                                              str(ds.with_name(ds.name + "-one")), "-q"]),
        }
        ingest = timed["mjstats ingest"]
        for label, jobs in (("mjstats ingest + audit --jobs 1", "mjstats audit --jobs 1"),
                            ("mjstats ingest + audit", "mjstats audit (default jobs)")):
            timed[label] = (ingest[0] + timed[jobs][0], ingest[1] + timed[jobs][1])
        for label, figures in timed.items():
            runs.setdefault(label, []).append(figures)

    def median(label: str, which: int) -> float:
        return statistics.median(figures[which] for figures in runs[label])

    ref = (median("bench/checker.py", 0), median("bench/checker.py", 1))
    print(f"{'command (median of ' + str(rounds) + ')':<32} {'wall s':>7} {'CPU s':>7} {'hands/s CPU':>12} "
          f"{'vs checker CPU':>15} {'vs checker wall':>16}")
    order = ("bench/checker.py", "mjstats ingest", "mjstats audit --jobs 1", "mjstats audit (default jobs)",
             "mjstats ingest + audit --jobs 1", "mjstats ingest + audit", "mjstats ingest --audit")
    for label in order:
        wall, cpu = median(label, 0), median(label, 1)
        print(f"{label:<32} {wall:>7.2f} {cpu:>7.2f} {n / cpu:>12,.0f} {cpu / ref[1]:>14.2f}x "
              f"{wall / ref[0]:>15.2f}x")
    ref_walls = [c[0] for c in runs["bench/checker.py"]]
    one = [o[0] / c for o, c in zip(runs["mjstats ingest --audit"], ref_walls, strict=True)]
    both = [b[0] / c for b, c in zip(runs["mjstats ingest + audit"], ref_walls, strict=True)]
    print(f"wall / checker's wall, each round: ingest --audit {', '.join(f'{x:.2f}x' for x in one)}; "
          f"ingest + audit {', '.join(f'{x:.2f}x' for x in both)} "
          f"(target <= 1.0x at 2,000 hands, <= 0.7x at 100,000)")


def _warm_up(tmp: Path) -> None:
    """Every command once on a few hands, untimed: the modules they import get their bytecode
    cached, as after a user's first run."""
    source = write_renumbered(tmp / "warm.txt", 16)
    _timed([sys.executable, str(Path(__file__).resolve().parent / "checker.py"), str(source)])
    _timed([sys.executable, "-P", "-m", "mjstats", "ingest", "--format", "botzone", str(source),
            "--out", str(tmp / "warm"), "-q"])
    _timed([sys.executable, "-P", "-m", "mjstats", "audit", "-q", "--jobs", "1", str(tmp / "warm")])


def _run(mode: str, source: Path, dataset: Path, jobs: int = 1) -> dict:
    proc = subprocess.run(
        [sys.executable, "-P", __file__, "--child", mode, str(source), str(dataset), str(jobs)],
        capture_output=True,
        text=True,
        env=_child_env(),
    )
    if proc.returncode:
        sys.exit(f"{mode} with {jobs} job(s) failed:\n{proc.stderr}")
    result = json.loads(proc.stdout)
    if result["build"] != describe_build():
        sys.exit(f"{mode} ran another build: {result['build']}")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=50_000)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--rounds", type=int, default=3,
                        help="times the commands are run against the checker, interleaved (medians)")
    parser.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        mode, source, dataset, jobs = args.child
        _child(mode, source, dataset, int(jobs))
        return
    n = args.hands
    print(describe_build())
    print(f"{n:,} hands; {os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.2f} at start")
    with tempfile.TemporaryDirectory() as tmp:
        _warm_up(Path(tmp))
        source = write_renumbered(Path(tmp) / "botzone.txt", n)
        dataset = Path(tmp) / "ds"
        ingest = _run("ingest", source, dataset)
        assert ingest["count"] == n, ingest
        header = ("stage", "wall s", "hands/s", "CPU h/s/proc", "speed-up", "CPU-bound")
        print("{:<16} {:>7} {:>8} {:>13} {:>9} {:>10}".format(*header))
        print(
            f"{'ingest':<16} {ingest['wall']:>7.1f} {n / ingest['wall']:>8,.0f} {n / ingest['cpu']:>13,.0f}"
        )
        reference = None
        for jobs in args.jobs:
            audit = _run("audit", source, dataset, jobs)
            assert audit["count"] == n and audit["findings"] == 0, audit
            per_process = n / audit["cpu"]
            reference = reference or (audit["wall"], per_process)
            # CPU-bound: the speed-up ``jobs`` idle cores would give, from the CPU each hand costs
            # with that many jobs (what the parallel run pays extra: worker start-up, transfers)
            bound = jobs * per_process / reference[1]
            print(
                f"{f'audit, {jobs} job(s)':<16} {audit['wall']:>7.1f} {n / audit['wall']:>8,.0f} "
                f"{per_process:>13,.0f} {reference[0] / audit['wall']:>8.2f}x {bound:>9.2f}x"
            )
            both = ingest["wall"] + audit["wall"]
            print(f"{'  ingest + audit':<16} {both:>7.1f} {n / both:>8,.0f}")
        _against_checker(source, Path(tmp) / "ds-cli", n, args.rounds)
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    print("targets: ingest >= 10,000 and audit >= 4,000 hands/s per process; 2 jobs >= 1.7x of 1 job")


if __name__ == "__main__":
    main()
