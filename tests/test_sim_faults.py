"""--faults: the audit flags exactly the hands with an injected fault, with the expected check."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from mjstats.audit import audit_dataset
from mjstats.cli import main
from mjstats.formats.canonical import read_canonical
from mjstats.records import Hand
from mjstats.replay import replay_hand
from mjstats.rulesets.fuzhou.verify import check_fuzhou_hand
from mjstats.sim import FAULT_KINDS, SimConfig, simulate
from mjstats.sim.faults import inject_fault
from mjstats.store import SourceInput, ingest_sources, open_dataset

# The check each fault kind must trip (docs/audit.md).
EXPECTED = {
    "fan": {"win.fans", "win.fan_total"},
    "payment": {"result.scores"},
    "claim": {"claim.priority"},
    "tile": {"tile.not_held"},
    "pattern": {"fuzhou.pattern", "win.fans"},  # Fuzhou only
}


def _faults(path: Path) -> dict[tuple[str, int], dict]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return {(f["match_id"], f["hand_no"]): f for f in map(json.loads, lines)}


@pytest.fixture(scope="module", params=["guobiao", "fuzhou"])
def run(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    ruleset = request.param
    out = tmp_path_factory.mktemp(f"sim_faults_{ruleset}") / "run.jsonl"
    args = ["simulate", "--rules", ruleset, "--hands", "400", "--seed", "31", "--out", str(out)]
    assert main([*args, "--faults", "0.1", "-q"]) == 0
    return out


def test_audit_flags_exactly_the_faulted_hands(run: Path) -> None:
    faults = _faults(run.with_name("run.faults.jsonl"))
    assert 20 <= len(faults) <= 70  # about a tenth of 400
    ruleset = next(iter(read_canonical(run))).ruleset  # type: ignore[union-attr]
    kinds = set(EXPECTED) - ({"pattern"} if ruleset == "guobiao" else set())
    assert set(Counter(f["kind"] for f in faults.values())) == kinds
    ds = run.with_name("ds")
    ingest_sources([SourceInput(run, "canonical", read_canonical)], ds)
    summary = audit_dataset(ds, jobs=1)
    assert summary.hands == 400
    findings = open_dataset(ds).table("findings")
    flagged = set(zip(findings["match_id"], findings["hand_no"], strict=True))
    assert flagged == set(faults)


def test_each_fault_trips_its_check(run: Path) -> None:
    faults = _faults(run.with_name("run.faults.jsonl"))
    for hand in read_canonical(run):
        assert isinstance(hand, Hand)
        fault = faults.get(hand.key)
        checks = {f.check for f in replay_hand(hand).findings}
        if fault is None:
            assert not checks
        else:
            assert checks & EXPECTED[fault["kind"]], (fault, checks)


def test_fuzhou_faults_are_caught_by_the_simulator_self_check() -> None:
    """Every fault kind, injected into any hand, also breaks mjstats.rulesets.fuzhou.verify's replay check."""
    rng = random.Random(5)
    kinds: Counter[str] = Counter()
    for hand in simulate(SimConfig("fuzhou", 160, seed=8)):
        assert check_fuzhou_hand(hand) == []
        faulty, fault = inject_fault(hand, rng)
        kinds[fault.kind] += 1
        assert faulty != hand
        assert check_fuzhou_hand(faulty), fault
    assert set(kinds) == set(FAULT_KINDS)


def test_fault_file_lists_match_hand_kind_and_detail(run: Path) -> None:
    for fault in _faults(run.with_name("run.faults.jsonl")).values():
        assert list(fault) == ["match_id", "hand_no", "kind", "detail"]
        assert fault["kind"] in FAULT_KINDS and fault["detail"]
