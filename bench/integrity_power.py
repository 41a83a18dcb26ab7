"""Measure the integrity tests: false alarms on fair play, and the hands needed to detect a
rigged seat (--rig-draws) or a colluding pair (--collude) in 80% of runs.

Each run simulates its own hands (seed = BASE + run) and runs every integrity test by seat,
corrected together (Benjamini-Hochberg, FDR 5%). A rigged run counts as detected when the
rigged seat's draw test (or a colluding pair's deal-in or feeding test, either direction)
survives the correction. Results are appended as JSON lines to --out, one line per run, so an
interrupted measurement keeps what it measured; `summary` turns them into the figures of
docs/integrity.md (and the plot with --plot).

    python bench/integrity_power.py fair --rules guobiao --runs 10 --hands 5000 --out R.jsonl [--keep DIR]
    python bench/integrity_power.py draws --rules guobiao --sizes 250,500,1000 --runs 10 --out R.jsonl
    python bench/integrity_power.py collude --rules fuzhou --sizes 100,200,400 --runs 10 --out R.jsonl
    python bench/integrity_power.py summary R.jsonl [--plot docs/integrity_power.png]
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
import time
from collections import defaultdict
from pathlib import Path

from mjstats.formats.canonical import read_canonical, write_canonical
from mjstats.integrity import run_integrity
from mjstats.records import Hand
from mjstats.rulesets import get, recorded
from mjstats.sim import SimConfig, simulate
from mjstats.sim.rig import Rig

BASE_SEED = 1000
RIG_SEAT, RIG_P = 2, 0.05
PAIR = (0, 2)


def _hands(ruleset: str, hands: int, seed: int, rig: Rig | None, keep: Path | None) -> list:
    """The run's simulated hands; with ``keep`` (fair runs) read from, or written to,
    KEEP/RULESET-HANDS-SEED.jsonl.gz, so a measurement can be repeated without simulating."""
    config = SimConfig(ruleset, hands, seed=seed, rig=rig)
    if keep is None or rig is not None:
        return list(simulate(config))
    path = keep / f"{ruleset}-{hands}-{seed}.jsonl.gz"
    if not path.exists():
        keep.mkdir(parents=True, exist_ok=True)
        write_canonical(simulate(config), path)
    return [h for h in read_canonical(path) if isinstance(h, Hand)]


def _run(kind: str, ruleset: str, hands: int, run: int, keep: Path | None = None) -> dict:
    rig = None
    if kind == "draws":
        rig = Rig(RIG_SEAT, RIG_P)
    elif kind == "collude":
        rig = Rig(collude=PAIR)
    start = time.process_time()
    played = _hands(ruleset, hands, BASE_SEED + run, rig, keep)
    report = run_integrity(played, by="seat")
    findings = report.findings
    if kind == "draws":
        detected = any(r["test"] == "draw.improving" and r["subject"] == {"seat": RIG_SEAT} for r in findings)
    elif kind == "collude":
        pairs = {PAIR, PAIR[::-1]}
        detected = any(
            r["test"].startswith("collusion.") and (r["subject"]["from"], r["subject"]["to"]) in pairs
            for r in findings
        )
    else:
        detected = bool(findings)
    return {
        "kind": kind,
        "ruleset": ruleset,
        "hands": hands,
        "run": run,
        "detected": detected,
        "findings": [f"{r['test']} {r['subject']}" for r in findings],
        "tests": len(report.judged),
        "cpu_s": round(time.process_time() - start, 1),
    }


def measure(
    kind: str, ruleset: str, sizes: list[int], runs: int, out: Path, keep: Path | None = None, first: int = 0
) -> None:
    for hands in sizes:
        for run in range(first, first + runs):
            row = _run(kind, ruleset, hands, run, keep)
            with open(out, "a", encoding="utf-8") as fh:
                fh.write(json.dumps(row) + "\n")
            print(json.dumps(row), flush=True)


def hands_for(rates: list[tuple[int, float]], target: float = 0.8) -> float | None:
    """Hands at which the detection rate reaches ``target``, interpolated on log(hands)."""
    rates = sorted(rates)
    for (n0, r0), (n1, r1) in itertools.pairwise(rates):
        if r0 < target <= r1:
            t = (target - r0) / (r1 - r0)
            return math.exp(math.log(n0) + t * (math.log(n1) - math.log(n0)))
    if rates and rates[0][1] >= target:
        return float(rates[0][0])  # reached at the smallest size measured (an upper bound)
    return None


def summary(path: Path, plot: Path | None) -> None:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    groups: dict[tuple[str, str], dict[int, list[bool]]] = defaultdict(lambda: defaultdict(list))
    for r in rows:
        groups[(r["kind"], r["ruleset"])][r["hands"]].append(r["detected"])
    curves = {}
    for (kind, ruleset), by_size in sorted(groups.items()):
        rates = [(n, sum(d) / len(d)) for n, d in sorted(by_size.items())]
        label = "runs with any finding" if kind == "fair" else "runs detected"
        print(
            f"{kind} {ruleset}: "
            + ", ".join(f"{n:,} hands {r:.0%} of {len(by_size[n])} ({label})" for n, r in rates)
        )
        if kind != "fair":
            need = hands_for(rates)
            print(
                f"  80% detection at about {need:,.0f} hands"
                if need
                else "  80% not reached at the sizes measured"
            )
            curves[(kind, ruleset)] = rates
    if plot is not None and curves:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(6.4, 3.8), dpi=110)
        names = {
            "draws": f"rigged draws (seat {RIG_SEAT}, p = {RIG_P})",
            "collude": "colluding pair (seats 0, 2)",
        }
        for (kind, ruleset), rates in sorted(curves.items()):
            xs, ys = zip(*rates, strict=True)
            ax.plot(xs, ys, marker="o", label=f"{names[kind]}, {ruleset}")
        ax.axhline(0.8, color="grey", linestyle="--", linewidth=1)
        ax.set_xscale("log")
        ax.set_xlabel("hands in the run")
        ax.set_ylabel("share of runs detected (BH, FDR 5%)")
        ax.set_ylim(0, 1.02)
        ax.legend(fontsize=7, loc="lower right")
        ax.set_title("Detection power of mjstats integrity")
        fig.tight_layout()
        fig.savefig(plot)
        print(f"wrote {plot}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("kind", choices=("fair", "draws", "collude", "summary"))
    parser.add_argument("results", nargs="?", type=Path, help="summary: the results file")
    simulated = [r.name for r in recorded() if r.sim is not None]
    parser.add_argument("--rules", choices=simulated, default=simulated[0])
    parser.add_argument("--hands", type=int, default=5000, help="fair: hands a run")
    parser.add_argument("--sizes", default="250,500,1000,2000", help="rigged: hands a run, comma-separated")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--first", type=int, default=0, help="number of the first run (its seed: 1000 + it)")
    parser.add_argument("--out", type=Path, help="JSON lines to append to")
    parser.add_argument("--plot", type=Path, help="summary: write the power figure here")
    parser.add_argument("--keep", type=Path, help="fair: keep (or reuse) each run's hands in this folder")
    args = parser.parse_args(argv)
    if args.kind == "summary":
        if args.results is None:
            parser.error("summary needs the results file")
        summary(args.results, args.plot)
        return 0
    if args.out is None:
        parser.error("--out is needed")
    spec = get(args.rules)
    if args.kind != "fair" and not getattr(spec.load(spec.sim), "RIGGED_PLAY", True):
        parser.error(f"{spec.title} self-play cannot be rigged: only 'fair' runs measure it")
    sizes = [args.hands] if args.kind == "fair" else [int(x) for x in args.sizes.split(",")]
    measure(args.kind, args.rules, sizes, args.runs, args.out, args.keep, args.first)
    return 0


if __name__ == "__main__":
    sys.exit(main())
