"""Simulated Fuzhou hands (mjstats.sim) through ``mjstats audit``: 1,000 hands of the seed profile
and 300 of the platform profile audit with no finding, dealer rotation and streaks included;
and the audit notices the simulator's injected faults."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from mjstats.audit import audit_dataset, plan_tasks
from mjstats.formats.canonical import read_canonical, write_canonical
from mjstats.records import Hand
from mjstats.replay import replay_hand
from mjstats.sim import SimConfig, simulate
from mjstats.sim.matches import simulate_with_faults
from mjstats.store import SourceInput, ingest_sources, open_dataset


def audited(tmp: Path, hands: list[Hand]) -> Path:
    tmp.mkdir(parents=True, exist_ok=True)
    path = tmp / "hands.jsonl"
    write_canonical(hands, path)
    summary = ingest_sources([SourceInput(path, "canonical", read_canonical)], tmp / "ds")
    assert (summary.hands, summary.rejects) == (len(hands), 0)
    return tmp / "ds"


def test_thousand_simulated_hands_audit_clean(tmp_path: Path) -> None:
    hands = list(simulate(SimConfig("fuzhou", 1_000, seed=2026)))
    ds = audited(tmp_path, hands)
    summary = audit_dataset(ds, jobs=1)
    assert summary.findings_by_check == {}
    assert summary.clean == 1_000
    audited_hands = open_dataset(ds).table("audited_hands")
    assert set(audited_hands["profile"]) == {"seed"}
    wins = open_dataset(ds).table("computed_wins")
    assert len(wins) == sum(1 for h in hands if h.result.is_win)


def test_simulated_hands_replay_clean_under_both_profiles() -> None:
    for profile, n in (("seed", 200), ("platform", 200)):
        for hand in simulate(SimConfig("fuzhou", n, seed=31, profile=profile)):
            result = replay_hand(hand)
            assert result.findings == (), (hand.key, [str(f) for f in result.findings])
            assert result.profile == profile


def test_sequence_checks_across_batches_and_jobs(tmp_path: Path) -> None:
    hands = list(simulate(SimConfig("fuzhou", 120, seed=5)))  # 15 matches of 8 hands
    ds = audited(tmp_path, hands)
    # small batches: tasks never split a match, so no hand loses the hand before it
    data = open_dataset(ds)
    tasks = plan_tasks(data.path, data.parts(), 2, 7)
    ids = [h.match_id for h in hands]
    assert len(tasks) > 1 and all(t[4] == 0 or ids[t[4]] != ids[t[4] - 1] for t in tasks)
    assert sum(t[5] - t[4] for t in tasks) == 120
    summary = audit_dataset(ds, jobs=2, batch_hands=7)
    assert summary.findings_by_check == {} and summary.clean == 120
    # a wrong streak in drawn hands (no payment to follow it) is only seen across hands
    wrong = [replace(h, streak=h.streak + 4) if h.hand_no and not h.result.is_win else h for h in hands]
    faulted = sum(1 for a, b in zip(wrong, hands, strict=True) if a != b)
    assert faulted
    ds = audited(tmp_path / "wrong", wrong)
    summary = audit_dataset(ds, jobs=2, batch_hands=7)
    assert summary.findings_by_check == {"fuzhou.streak": faulted}


def test_the_simulators_injected_faults_are_all_found_by_the_right_check() -> None:
    expected = {
        "tile": {"tile.not_held"},
        "payment": {"result.scores"},
        "claim": {"claim.priority"},
        "pattern": {"fuzhou.pattern"},
        "fan": {"win.fan_total", "win.fans"},
    }
    seen = set()
    for hand, fault in simulate_with_faults(SimConfig("fuzhou", 300, seed=9), 0.5):
        findings = replay_hand(hand).findings
        if fault is None:
            assert findings == ()
            continue
        seen.add(fault.kind)
        assert findings and findings[0].check in expected[fault.kind], (fault, [str(f) for f in findings])
    assert seen == set(expected)
