"""The audit's instructions per part, for callgrind (a count the machine's load does not move).

Run three times under ``PYTHONPATH=build/compiled valgrind --tool=callgrind
--callgrind-out-file=F python -P bench/audit_callgrind.py DATASET --stage S`` with ``S`` =
``warm``, ``read`` and ``audit``: each run imports, reads the first part's first 10 hands and
audits them (warm-up: the modules' tables and caches filled), then ``read`` reads the whole part
back into ``Hand`` records and ``audit`` also replays them and makes the audit's tables. The
read-back's instructions are ``read`` less ``warm``, the replay's and rows' ``audit`` less
``read`` (the totals ``callgrind_annotate F`` prints). Each run ends by ``os._exit``: the
interpreter's shutdown (a full collection over what is left) is not counted. DATASET: e.g.
``mjstats ingest`` of ``bench/botzone_corpus.write_renumbered`` (2,000 hands: one part).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from mjstats.audit import PartSlicer, audit_hands
from mjstats.compiled import describe_build
from mjstats.gc_pause import paused_collection
from mjstats.store import open_dataset


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", type=Path)
    parser.add_argument("--stage", choices=("warm", "read", "audit"), default="audit")
    args = parser.parse_args()
    with open_dataset(args.dataset) as dataset:
        ruleset, period, part = dataset.parts()[0]
        version = dataset.path
    with paused_collection():
        slicer = PartSlicer(version, ruleset, period, part)
        audit_hands(slicer.hands(0, 10))  # warm-up, in every stage
        if args.stage == "warm":
            print(describe_build(), flush=True)
            os._exit(0)
        hands = slicer.hands(0, len(slicer.events) - 1)
        count = len(hands)
        if args.stage == "audit":
            tables, statuses, _ = audit_hands(hands)
            print(dict(statuses), {name: t.num_rows for name, t in tables.items()})
            del tables
        del hands  # freed here, as the audit's task frees them (counted)
    print(describe_build(), count, "hands", flush=True)
    # no interpreter shutdown: its full collection over what is left would be counted too
    os._exit(0)


if __name__ == "__main__":
    main()
