"""``mjstats export``: write a dataset's hands back out as records (canonical JSON Lines)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from mjstats.errors import MjstatsError
from mjstats.store import open_dataset
from mjstats.store.layout import dataset_containing


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
    p.add_argument("--force", action="store_true", help="replace an existing output file")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mjstats.formats.canonical import write_canonical

    if args.out is not None:
        check_export_target(args.out, force=args.force)
    ds = open_dataset(args.dataset)
    hands = ds.hands(ruleset=args.ruleset)
    if args.out is None:
        count = write_canonical(hands, sys.stdout)
    else:
        count = write_canonical(hands, args.out)  # atomic; gzipped for a .gz name
        print(f"exported {count:,} hands to {args.out}", file=sys.stderr)
    return 0


def check_export_target(out: Path, *, force: bool) -> None:
    """An export never lands in a dataset, never on a folder, and never replaces a file unasked."""
    inside = dataset_containing(out)
    if inside is not None:
        raise MjstatsError(f"{out}: is inside the dataset {inside}; export to a file elsewhere")
    if out.is_dir():
        raise MjstatsError(f"{out}: is a folder; --out takes a file name")
    if out.exists() and not force:
        raise MjstatsError(f"{out}: exists; use --force to replace it")
    if not out.parent.is_dir():
        raise MjstatsError(f"{out.parent}: no such folder")
