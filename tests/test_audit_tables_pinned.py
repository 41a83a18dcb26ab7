"""The audit's tables pinned: the Botzone sample, the bundled real logs and simulated hands of every
ruleset with faults injected, audited, must give the tables ``main`` gave before the audit's loop
and rows moved into ``mjstats.audit_rows`` and the Guobiao win's scoring into ``win_score`` (both
compiled in the compiled build). Each table's content (its rows as JSON) has a SHA-256 here, taken
from ``main`` at bf0ebe4; a changed value, row or order changes it."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from mjstats.audit import AUDIT_SCHEMAS, audit_dataset
from mjstats.cli import main
from mjstats.store import open_dataset

DATA = Path(__file__).resolve().parent.parent / "data"

# table -> (rows, SHA-256 of its rows as JSON), from main at bf0ebe4 (pure build)
PINNED: dict[str, tuple[int, str]] = {
    "audited_hands": (329, "252955be3540d724d74e6e542f51cc1b95a07efc5288ad446f040f7592fb5eb6"),
    "computed_fans": (884, "d8ae502f0c691487c8be8d1404d81abf0eb201dc5e839635831a4d5e490102e0"),
    "computed_payments": (1656, "8111cfc47c13a2e08fca76cb6d0531dca4bdcdc50c16221fa7f0ae263043690f"),
    "computed_wins": (414, "1cacb9b28765fe059d1c0e5a6226b537a9fa385c456f8963766c1fb69584a5df"),
    "findings": (169, "481f6cb57ce09b291968e3c64b5c45d9cbdf8bb72ea3e9fba6b4cf2c6e961343"),
}


def audit_digests(tmp: Path) -> dict[str, tuple[int, str]]:
    """Each audit table's row count and content digest, for the sample, the real logs and 100
    simulated hands a ruleset (faults at 0.3: findings rows too)."""
    sources = [DATA / "botzone" / "sample.txt", DATA / "real"]
    for rules in ("guobiao", "fuzhou", "sichuan"):
        sources.append(tmp / f"{rules}.jsonl.gz")
        assert main(["simulate", "--rules", rules, "--hands", "100", "--seed", "11", "--faults", "0.3",
                     "--out", str(sources[-1])]) == 0
    dataset = tmp / "ds"
    assert main(["ingest", *map(str, sources), "--out", str(dataset), "-q"]) == 0
    audit_dataset(dataset, jobs=1)
    out = {}
    with open_dataset(dataset) as ds:
        for name in sorted(AUDIT_SCHEMAS):
            table = ds.arrow(name)
            text = json.dumps(table.to_pydict(), default=str, ensure_ascii=False)
            out[name] = (table.num_rows, hashlib.sha256(text.encode()).hexdigest())
    return out


def test_the_audit_tables_are_main_s(tmp_path: Path) -> None:
    got = audit_digests(tmp_path)
    assert got["findings"][0] > 100 and got["computed_fans"][0] > 500  # faults found, wins rescored
    assert got == PINNED
