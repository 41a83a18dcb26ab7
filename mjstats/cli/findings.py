"""``mjstats findings``: list every finding of a dataset's audit, with where its hand was read."""

from __future__ import annotations

import argparse
import json
import sys

from mjstats.filters import split_values
from mjstats.store.fs import dataset_location


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "findings",
        help="list what the audit found, one finding per line",
        description="List every finding of the last audit (docs/audit.md): match, hand, event, "
        "check, severity, expected and recorded values, message, and the file and line the hand "
        "was read from. Sorted by match, hand and event; the count goes to standard error.",
    )
    p.add_argument("dataset", type=dataset_location, metavar="DATASET|URL")
    p.add_argument("--check", default=None, metavar="CODE[,CODE...]", help="only these check codes")
    p.add_argument("--severity", default=None, metavar="S", help="only this severity (error, warning, info)")
    p.add_argument("--match", default=None, metavar="ID[,ID...]", help="only these matches")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="a JSON array of objects")
    fmt.add_argument("--csv", action="store_true", help="CSV with a header row")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mjstats.audit_findings import findings

    rows = findings(
        args.dataset,
        check=split_values(args.check),
        severity=split_values(args.severity),
        match=split_values(args.match),
    )
    if args.json:
        records = [
            {k: (None if _missing(v) else v) for k, v in rec.items()}
            for rec in rows.astype(object).to_dict(orient="records")
        ]
        json.dump(records, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
    elif args.csv:
        rows.to_csv(sys.stdout, index=False)
    else:
        for rec in rows.astype(object).to_dict(orient="records"):
            sys.stdout.write(_line(rec) + "\n")
    hands = len(rows[["match_id", "hand_no"]].drop_duplicates())
    print(f"{len(rows):,} finding{'s' if len(rows) != 1 else ''} in {hands:,} "
          f"hand{'s' if hands != 1 else ''}", file=sys.stderr)
    return 0


def _missing(value: object) -> bool:
    return value is None or value != value or str(value) == "<NA>"


def _line(rec: dict) -> str:
    """One finding as a line: where, which check, what, and the hand's source file and line."""
    at = "result" if _missing(rec["seq"]) else f"#{rec['seq']}"
    text = f"{rec['match_id']}/{rec['hand_no']} {at} [{rec['severity']}] {rec['check']}: {rec['message']}"
    if not (_missing(rec["expected"]) and _missing(rec["recorded"])):
        text += f" (expected {rec['expected']}, recorded {rec['recorded']})"
    if not _missing(rec["source"]):
        text += f"  @ {rec['source']}:{rec['line']}"
    return text
