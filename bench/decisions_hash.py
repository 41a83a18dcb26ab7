"""Digests of the decision columns of the bundled data, to compare two versions (or builds) of the judge.

Run: ``python bench/decisions_hash.py [--hands N]`` (``PYTHONPATH=build/compiled python -P ...``
for the compiled build). Every hand of the Botzone sample and of the simulated Guobiao, Fuzhou
and Sichuan files in ``data/`` (the first ``N`` of each, if given) is judged as ``mjstats
decisions`` judges it (``hand_decision_columns``); printed: per file and per column, the SHA-256
of the column's values (their ``repr``, one a line), then one digest of them all. Two versions
that print the same last line made the same rows, value for value and in the same order.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import time
from collections.abc import Iterable
from pathlib import Path

from mjstats.compiled import describe_build
from mjstats.decision.judge import DECISION_FIELDS, DecisionColumns, hand_decision_columns
from mjstats.formats.botzone import read_botzone
from mjstats.formats.canonical import read_canonical
from mjstats.gc_pause import paused_collection
from mjstats.records import Hand

DATA = Path(__file__).resolve().parent.parent / "data"
SOURCES = ("botzone/sample.txt", "sim/guobiao.jsonl.gz", "sim/fuzhou.jsonl.gz", "sim/sichuan.jsonl.gz")


def hands_of(source: str, limit: int | None) -> list[Hand]:
    """The hands of one bundled file (its first ``limit``), in file order."""
    path = DATA / source
    records: Iterable[object] = read_botzone(path) if source.startswith("botzone") else read_canonical(path)
    hands = (r for r in records if isinstance(r, Hand))
    return list(itertools.islice(hands, limit))


def column_digests(hands: list[Hand]) -> dict[str, str]:
    """Each decision column's SHA-256 over the rows of ``hands`` judged in order."""
    out = DecisionColumns()
    with paused_collection():
        for hand in hands:
            hand_decision_columns(hand, out)
    columns = out.columns()
    return {
        name: hashlib.sha256("\n".join(map(repr, columns[name])).encode()).hexdigest()
        for name in DECISION_FIELDS
    } | {"rows": str(len(out))}


def combined_digest(per_source: dict[str, dict[str, str]]) -> str:
    """One SHA-256 of every file's column digests (the last line :func:`main` prints)."""
    total = hashlib.sha256()
    for source, digests in per_source.items():
        for name in (*DECISION_FIELDS, "rows"):
            total.update(f"{source} {name} {digests[name]}\n".encode())
    return total.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=None, help="the first N hands of each file")
    args = parser.parse_args()
    print(describe_build(), flush=True)
    per_source = {}
    for source in SOURCES:
        start = time.process_time()
        hands = hands_of(source, args.hands)
        digests = column_digests(hands)
        seconds = time.process_time() - start
        print(f"{source}: {len(hands)} hands, {digests['rows']} rows ({seconds:.1f} CPU s)")
        for name in (*DECISION_FIELDS, "rows"):
            print(f"  {name:15} {digests[name][:16]}")
        per_source[source] = digests
    print(f"all: {combined_digest(per_source)}")


if __name__ == "__main__":
    main()
