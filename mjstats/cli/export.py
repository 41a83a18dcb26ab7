"""``mjstats export``: write a dataset's hands back out as records (canonical JSON Lines)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from mjstats.errors import MjstatsError
from mjstats.filters import require_known, split_values
from mjstats.rulesets import recorded_names
from mjstats.store.fs import dataset_location
from mjstats.store.layout import dataset_containing

if TYPE_CHECKING:
    from mjstats.records import Hand
    from mjstats.store import Dataset


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "export",
        help="write a dataset's hands as canonical JSON Lines",
        description="Write every hand of a dataset in mjstats' canonical format "
        "(docs/format.md), to a file (written atomically) or to standard output.",
    )
    p.add_argument("dataset", type=dataset_location, metavar="DATASET|URL")
    p.add_argument("--format", "-f", default="canonical", choices=["canonical"])
    p.add_argument("--out", "-o", type=Path, default=None, help="output file (default: stdout)")
    p.add_argument("--ruleset", default=None, metavar="R[,R...]",
                   help=f"only hands of these rulesets ({', '.join(recorded_names())})")
    p.add_argument("--period", default=None, metavar="P[,P...]",
                   help="only hands of these periods (months YYYY-MM, or undated)")
    p.add_argument("--force", action="store_true", help="replace an existing output file")
    p.set_defaults(func=run)


def selected_hands(ds: Dataset, rulesets: list[str] | None, periods: list[str] | None) -> Iterator[Hand]:
    """The dataset's hands in its stored order, in the given rulesets and periods. A value the
    dataset does not have is an error naming the ones it has (not an empty export); it is
    raised here, before any output is written."""
    partitions = ds.partitions()
    require_known("ruleset", rulesets, (r for r, _ in partitions), str(ds.root))
    require_known("period", periods, (p for _, p in partitions), str(ds.root))
    chosen = [
        (ruleset, period, part)
        for ruleset, period, part in ds.parts()
        if (rulesets is None or ruleset in rulesets) and (periods is None or period in periods)
    ]
    return (hand for key in chosen for hand in ds.read_part(*key))


def run(args: argparse.Namespace) -> int:
    from mjstats.formats.canonical import write_canonical
    from mjstats.store import open_dataset

    if args.out is not None:
        check_export_target(args.out, force=args.force)
    ds = open_dataset(args.dataset)
    hands = selected_hands(ds, split_values(args.ruleset), split_values(args.period))
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
