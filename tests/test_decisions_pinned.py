"""The decisions table pinned: every decision column of the first 60 hands of each bundled file
(the Botzone sample, the simulated Guobiao, Fuzhou and Sichuan hands), judged in order, must
digest to what ``main`` gave at bf0ebe4, before the judge's turn-shared discards and kept waits
(docs/decisions.md). ``bench/decisions_hash.py`` computes the digests (the whole files: ``python
bench/decisions_hash.py``); ``make test-compiled`` runs this on the compiled judge too."""

from __future__ import annotations

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

from decisions_hash import SOURCES, column_digests, combined_digest, hands_of  # noqa: E402

HANDS = 60
# the SHA-256 of the per-file, per-column digests, as decisions_hash.py --hands 60 prints it last
PINNED_ALL = "38dc7a7718117008e2df0a409e5e1d569543a29a6a61157b154ad3165dae6542"
PINNED_ROWS = {"botzone/sample.txt": 1003, "sim/guobiao.jsonl.gz": 4671, "sim/fuzhou.jsonl.gz": 1497,
               "sim/sichuan.jsonl.gz": 3673}


def test_the_decision_columns_are_main_s() -> None:
    per_source = {source: column_digests(hands_of(source, HANDS)) for source in SOURCES}
    assert {source: int(d["rows"]) for source, d in per_source.items()} == PINNED_ROWS
    assert combined_digest(per_source) == PINNED_ALL
