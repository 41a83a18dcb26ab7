"""``mjstats report``: the HTML report of a dataset, one page per period plus an index."""

from __future__ import annotations

import argparse
from pathlib import Path

from mjstats.rulesets import recorded_names
from mjstats.store.fs import dataset_location


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "report",
        help="write the HTML report (a page per period, an index)",
        description="Write a self-contained HTML page per period (overview, audit, win rates, fans, "
        "gold, dealer streaks, provenance), a page listing every audit finding, a glossary, a page "
        "per flagged hand and an index linking them. Pages work offline and the same dataset always "
        "gives the same bytes. See docs/reports.md.",
    )
    p.add_argument("dataset", type=dataset_location, metavar="DATASET|URL")
    which = p.add_mutually_exclusive_group()
    which.add_argument(
        "--period",
        action="append",
        metavar="P",
        help="a month (2026-11), an ISO week (2026-W47), 'undated' or 'all-time'; repeatable",
    )
    which.add_argument(
        "--all-periods",
        action="store_true",
        help="all time, every month and the undated hands (the default)",
    )
    p.add_argument("--weekly", action="store_true", help="also a page for every ISO week")
    p.add_argument("--ruleset", metavar="R",
                   help=f"only this ruleset's hands ({', '.join(recorded_names())})")
    p.add_argument(
        "--out",
        "-o",
        type=Path,
        default=Path("reports"),
        metavar="DIR",
        help="output folder (default: reports/)",
    )
    p.add_argument(
        "--force", action="store_true",
        help="replace files in the output folder that mjstats did not write (its own pages always are)",
    )
    p.add_argument("--quiet", "-q", action="store_true", help="no progress line")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mjstats.progress import ProgressLine
    from mjstats.report import build_report

    periods: list[str] = list(args.period) if args.period else ["all"]
    if args.weekly:
        periods.append("weeks")
    progress = None if args.quiet else ProgressLine("report", "pages", every=5.0)
    try:
        written = build_report(
            args.dataset, args.out, periods=periods, ruleset=args.ruleset, progress=progress,
            force=args.force,
        )
    finally:
        if progress is not None:
            progress.close()
    shared = {"index.html", "findings.html", "glossary.html"}  # written on every run
    pages = [p for p in written if p.parent == args.out and p.name not in shared]
    hands = [p for p in written if p.parent != args.out]
    print(
        f"wrote {len(pages)} period page(s), the findings page, the glossary and "
        f"{len(hands)} hand page(s) to {args.out}/"
    )
    print(args.out / "index.html")
    return 0
