"""``mjstats export``: write a dataset's hands back out as records (canonical JSON Lines)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from mjstats.store import open_dataset


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "export",
        help="write a dataset's hands as canonical JSON Lines",
        description="Write every hand of a dataset in mjstats' canonical format "
        "(docs/format.md), to a file (written atomically) or to standard output.",
    )
    p.add_argument("dataset", type=Path, metavar="DATASET")
    p.add_argument("--format", "-f", default="canonical", choices=["canonical"])
    p.add_argument("--out", "-o", type=Path, default=None, help="output file (default: stdout)")
    p.add_argument("--ruleset", default=None, help="only hands of this ruleset")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mjstats.formats.canonical import write_canonical

    ds = open_dataset(args.dataset)
    hands = ds.hands(ruleset=args.ruleset)
    if args.out is None:
        count = write_canonical(hands, sys.stdout)
    else:
        count = write_canonical(hands, args.out)  # atomic; gzipped for a .gz name
        print(f"exported {count:,} hands to {args.out}", file=sys.stderr)
    return 0
