"""``mjstats ingest``: read source files into a Parquet dataset."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from mjstats.cli.waiting import add_wait_option, waiting_notice
from mjstats.formats import FORMATS, reader_for
from mjstats.progress import ProgressLine
from mjstats.store import SourceInput, ingest_sources, open_dataset

WARN_LIMIT = 20  # reject lines printed before "... and N more"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "ingest",
        help="read game records into a dataset",
        description="Read game records into a Parquet dataset. Bad records become rows of the "
        "rejects table; the rest is still read. Re-ingesting a file already in the dataset "
        "adds nothing.",
    )
    p.add_argument("files", nargs="+", type=Path, metavar="FILE")
    p.add_argument("--format", "-f", required=True, choices=sorted(FORMATS))
    p.add_argument("--out", "-o", required=True, type=Path, metavar="DATASET")
    p.add_argument(
        "--jobs", "-j", type=int, default=os.cpu_count() or 1,
        help="processes parsing large inputs (default: CPU count); the dataset is the same for any N",
    )
    p.add_argument("--strict", action="store_true", help="exit 2 if any record is rejected")
    add_wait_option(p)
    p.add_argument("--quiet", "-q", action="store_true", help="no progress, only problems")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mjstats.errors import MjstatsError

    for path in args.files:
        if not path.is_file():
            raise MjstatsError(f"{path}: no such file")
    reader_for(args.format)  # an unknown format fails here, before anything is written
    if args.jobs < 1:
        raise MjstatsError(f"--jobs must be at least 1, not {args.jobs}")
    inputs = [SourceInput(path, args.format) for path in args.files]
    progress = None if args.quiet else ProgressLine("ingest", "records")
    try:
        summary = ingest_sources(
            inputs, args.out, jobs=args.jobs, progress=progress,
            wait=args.wait, on_wait=waiting_notice("ingest"),
        )
    finally:
        if progress is not None:
            progress.close()
    for source in summary.skipped_sources:
        print(f"skipped {source}: already in the dataset (same SHA-256)", file=sys.stderr)
    for reject in summary.reject_samples[:WARN_LIMIT]:
        print(f"warning: rejected {reject}", file=sys.stderr)
    if summary.rejects > WARN_LIMIT:
        print(f"warning: ... and {summary.rejects - WARN_LIMIT} more", file=sys.stderr)
    if summary.rejects:
        print(
            f"warning: {summary.rejects} record(s) rejected; see the rejects table of {args.out}",
            file=sys.stderr,
        )
    if not args.quiet:
        with open_dataset(args.out) as ds:
            version = ds.path.name
        print(
            f"ingested {len(summary.sources)} source(s) into {args.out} ({version})\n"
            f"  matches {summary.matches:,}   hands {summary.hands:,} "
            f"(wins {summary.wins:,}, exhaustive draws {summary.draws:,})   "
            f"events {summary.events:,}   rejects {summary.rejects:,}"
        )
    return 2 if args.strict and summary.rejects else 0
