"""``mjstats ingest``: read source files into a Parquet dataset."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from mjstats.cli.waiting import add_wait_option, waiting_notice
from mjstats.errors import MjstatsError
from mjstats.formats import FORMATS, reader_for
from mjstats.formats.detect import InputFile, detect_format, is_companion, list_inputs
from mjstats.formats.limits import DEFAULT_MAX_RATIO, DEFAULT_MAX_RECORD_BYTES, input_limits
from mjstats.progress import ProgressLine
from mjstats.records import shorten
from mjstats.store.fs import dataset_location, is_url
from mjstats.store.sources import SourceInput

AUTO = "auto"

WARN_LIMIT = 20  # reject lines printed before "... and N more"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "ingest",
        help="read game records into a dataset",
        description="Read game records into a Parquet dataset. Bad records become rows of the "
        "rejects table; the rest is still read. Re-ingesting a file already in the dataset "
        "adds nothing.",
    )
    p.add_argument("files", nargs="+", type=Path, metavar="FILE|FOLDER")
    p.add_argument(
        "--format", "-f", default=AUTO, choices=[AUTO, *sorted(FORMATS)],
        help="the records' format (default: auto, told from each file's first bytes); "
        "folders are read recursively, hidden files skipped",
    )
    p.add_argument("--out", "-o", required=True, type=dataset_location, metavar="DATASET|URL")
    p.add_argument(
        "--jobs", "-j", type=int, default=None,
        help="processes parsing large inputs (default: CPU count), and auditing them with --audit "
        "(default there: the audit's own, at most one per 5,000 hands); the dataset is the same "
        "for any N",
    )
    p.add_argument("--strict", action="store_true", help="exit 2 if any record is rejected")
    p.add_argument(
        "--audit", action="store_true",
        help="then audit the dataset, as `mjstats audit DATASET` does with each hand's own profile, "
        "in this process (one start-up instead of two)",
    )
    add_wait_option(p)
    limits = p.add_argument_group("input limits (docs/input-limits.md)")
    limits.add_argument(
        "--max-record-bytes", type=_size, metavar="N",
        help=f"a longer record is a reject holding its first bytes (default {DEFAULT_MAX_RECORD_BYTES:,}; "
        "suffixes K, M, G)",
    )
    limits.add_argument(
        "--max-decompressed-bytes", type=_size, metavar="N",
        help="stop a .gz source, with a reject, past this many decompressed bytes (default: no limit)",
    )
    limits.add_argument(
        "--max-gzip-ratio", type=float, metavar="R",
        help=f"stop a .gz source, with a reject, expanding more than R:1 (default {DEFAULT_MAX_RATIO:g})",
    )
    p.add_argument("--quiet", "-q", action="store_true", help="no progress, only problems")
    p.set_defaults(func=run)


_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


def _size(text: str) -> int:
    """A byte count: ``1000``, ``64K``, ``16M``, ``2G`` (binary multiples)."""
    number, unit = text.strip(), ""
    if number[-1:].upper() in _UNITS:
        number, unit = number[:-1], number[-1:].upper()
    try:
        value = int(number) * _UNITS[unit]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a byte count such as 16M, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1 byte, not {text!r}")
    return value


def choose_inputs(files: list[InputFile], fmt: str) -> tuple[list[SourceInput], list[str], list[str]]:
    """The inputs to read with their formats, the files skipped (a line each, why) and the
    problems (a line each: named files that cannot be read as asked; nothing of them is read,
    so that ingesting them again with the right format works)."""
    inputs: list[SourceInput] = []
    skipped: list[str] = []
    problems: list[str] = []
    for item in files:
        path = item.path
        if is_companion(path):
            skipped.append(f"skipped {path}: a Botzone metadata file (read beside its _lite.json)")
            continue
        detected = detect_format(path)
        if fmt == AUTO:
            if detected is None:
                why = f"{path}: cannot tell its format from its first bytes; name one with --format"
                (problems if item.named else skipped).append(why if item.named else f"skipped {why}")
                continue
            chosen = detected
        else:
            chosen = fmt
            if detected is not None and detected != fmt:
                if item.named:
                    problems.append(
                        f"{path}: no {fmt} records here: it reads as {detected} "
                        f"(use --format {detected}, or --format auto)"
                    )
                else:
                    skipped.append(f"skipped {path}: {detected}, not {fmt}")
                continue
            if detected is None and not item.named:
                skipped.append(f"skipped {path}: not recognisably {fmt}")
                continue
        try:
            reader = reader_for(chosen)
        except MjstatsError as exc:
            problems.append(f"{path}: {exc}")
            continue
        module = sys.modules[reader.__module__]
        streaming = hasattr(module, "split_records") and hasattr(module, "parse_record")
        inputs.append(SourceInput(path, chosen, None if streaming else reader))
    return inputs, skipped, problems


def run(args: argparse.Namespace) -> int:
    if args.audit and not is_url(args.out):
        # the parts this ingest writes stay in memory for its audit (store.part_cache): reading
        # back a part decodes what was just encoded (~30-60 ms a 2,000-hand part); a URL
        # dataset's audit reads its parts through fsspec, never from memory
        from mjstats.audit import audit_ahead
        from mjstats.store.part_cache import keeping_parts

        # and the audit's replay runs while the last part files are encoded (audit.audit_ahead)
        with keeping_parts(ahead=audit_ahead(args.jobs)):
            return _run(args)
    return _run(args)


def _run(args: argparse.Namespace) -> int:
    from mjstats.store import ingest_sources  # pyarrow: only when ingesting
    from mjstats.store.reader import live_version

    if args.format != AUTO:
        reader_for(args.format)  # an unknown format fails here, before anything is written
    if args.jobs is not None and args.jobs < 1:
        raise MjstatsError(f"--jobs must be at least 1, not {args.jobs}")
    inputs, skipped, problems = choose_inputs(list_inputs(args.files), args.format)
    for line in skipped:
        print(line, file=sys.stderr)
    if not inputs:
        for line in problems:
            print(f"mjstats ingest: error: {line}", file=sys.stderr)
        if not problems:
            folders = [str(p) for p in args.files if p.is_dir()]
            where = f" in {', '.join(folders)} (folders are read recursively)" if folders else ""
            print(f"mjstats ingest: error: no record files to read{where}", file=sys.stderr)
        return 2
    progress = None if args.quiet else ProgressLine("ingest", "records")
    try:
        with input_limits(
            max_record_bytes=args.max_record_bytes,
            max_decompressed_bytes=args.max_decompressed_bytes,
            max_ratio=args.max_gzip_ratio,
        ):
            summary = ingest_sources(
                inputs, args.out, jobs=args.jobs or os.cpu_count() or 1, progress=progress,
                wait=args.wait, on_wait=waiting_notice("ingest"),
            )
    finally:  # an OSError mid-run (a source gone, a full disk) is one line from mjstats.cli.main
        if progress is not None:
            progress.close()
    for source in summary.skipped_sources:
        print(f"skipped {source}: already in the dataset (same SHA-256)", file=sys.stderr)
    for reject in summary.reject_samples[:WARN_LIMIT]:
        print(shorten(f"warning: rejected {reject}"), file=sys.stderr)
    if summary.rejects > WARN_LIMIT:
        print(f"warning: ... and {summary.rejects - WARN_LIMIT} more", file=sys.stderr)
    if summary.rejects:
        print(
            f"warning: {summary.rejects} record(s) rejected; see the rejects table of {args.out}",
            file=sys.stderr,
        )
    if not args.quiet:
        version = live_version(args.out)  # a URL dataset: no snapshot just for its name
        print(
            f"ingested {len(summary.sources)} source(s) into {args.out} ({version})\n"
            f"  matches {summary.matches:,}   hands {summary.hands:,} "
            f"(wins {summary.wins:,}, exhaustive draws {summary.draws:,})   "
            f"events {summary.events:,}   rejects {summary.rejects:,}"
        )
    if args.audit:
        _audit(args)
    for line in problems:
        print(f"mjstats ingest: error: {line}", file=sys.stderr)
    return 2 if problems or (args.strict and summary.rejects) else 0


def _audit(args: argparse.Namespace) -> None:
    """``--audit``: the dataset's audit, once the ingest's version is live. It takes the writer
    lock anew: should another writer commit in between, the audit covers that version, as a
    separate ``mjstats audit`` would."""
    from mjstats.audit import audit_dataset

    progress = None if args.quiet else ProgressLine("audit", "hands")
    try:
        summary = audit_dataset(
            args.out, jobs=args.jobs, progress=progress, wait=args.wait, on_wait=waiting_notice("audit")
        )
    finally:
        if progress is not None:
            progress.close()
    if not args.quiet:
        print("\n".join(summary.lines()))
