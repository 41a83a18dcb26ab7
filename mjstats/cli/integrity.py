"""``mjstats integrity``: is the platform fair? Deal and draw fairness, collusion indicators and
outcome advantage, every p-value corrected together (docs/integrity.md)."""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys

from mjstats.rulesets import recorded_names
from mjstats.store.fs import dataset_location


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "integrity",
        help="fairness tests: deals, draws, collusion, outcomes (FDR-corrected)",
        description="Run every integrity test on a dataset: starting hands, wall positions, "
        "gold and flowers against their exact distributions under a fair shuffle; every draw's "
        "chance of improving the drawer's hand; who deals in to and feeds whom; wins, deal-ins "
        "and scores adjusted for the dealer. All p-values are corrected together "
        "(Benjamini-Hochberg, FDR 5%%). See docs/integrity.md.",
    )
    p.add_argument("dataset", type=dataset_location, metavar="DATASET|URL")
    p.add_argument(
        "--by", choices=("seat", "player"), default="seat", help="group by seat (default) or player"
    )
    p.add_argument("--ruleset", choices=recorded_names(), default=None, help="only this ruleset")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="a JSON array of rows")
    fmt.add_argument("--csv", action="store_true", help="CSV with a header row")
    p.add_argument("--all", action="store_true", help="text: every test, not only findings and notes")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress line")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mjstats.integrity import COLUMNS, flat_row, run_integrity
    from mjstats.progress import ProgressLine
    from mjstats.store import open_dataset

    ds = open_dataset(args.dataset)
    line = None if args.quiet else ProgressLine("integrity", "hands")
    try:
        report = run_integrity(ds, by=args.by, ruleset=args.ruleset, progress=line)
    finally:
        if line is not None:
            line.close()
    if args.json:
        json.dump([_json_row(r) for r in report.rows], sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
    elif args.csv:
        writer = csv.DictWriter(sys.stdout, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        for row in report.rows:
            writer.writerow(flat_row(row))
    else:
        _text(report, args.all)
    for note in report.notes:
        print(f"note: {note}", file=sys.stderr)
    print(report.verdict(), file=sys.stderr)
    return 0


def _json_row(row: dict) -> dict:
    """A row as JSON: numbers that are not finite become null."""
    out = {}
    for k, v in row.items():
        out[k] = None if isinstance(v, float) and not math.isfinite(v) else v
    return out


def _text(report, show_all: bool) -> None:
    from mjstats.integrity.rows import subject_key

    shown = report.rows if show_all else [r for r in report.rows if r["significant"]]
    for r in shown:
        mark = "FINDING" if r["significant"] else "       "
        subject = subject_key(r["subject"]) or "all"
        if r["p_value"] is None:
            sys.stdout.write(f"{mark} {r['ruleset']:8} {r['test']:24} {subject:24} {r['note']}\n")
            continue
        effect = ""
        if r["effect"] is not None:
            effect = f"{r['effect_name']} {r['effect']:.3f}"
            if r["effect_low"] is not None:
                effect += f" [{r['effect_low']:.3f}, {r['effect_high']:.3f}]"
        sys.stdout.write(
            f"{mark} {r['ruleset']:8} {r['test']:24} {subject:24} {r['statistic_name']}={r['statistic']:.2f} "
            f"p={r['p_value']:.3g} q={r['q_value']:.3g} {effect}\n"
        )
    judged = len(report.judged)
    small = len(report.rows) - judged
    sys.stdout.write(
        f"{len(report.rows)} tests: {judged} judged, {small} too small to judge, "
        f"{len(report.findings)} findings (Benjamini-Hochberg, FDR {report.fdr:.0%})"
        + ("" if show_all else "; --all lists every test")
        + "\n"
    )
