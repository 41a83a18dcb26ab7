"""The replayer against the self-play simulator (mjstats.sim, written independently from the
same references): every simulated Botzone hand replays clean, and every fault the simulator
records is found by the check it names (mjstats/sim/faults.py), with no false positives."""

from __future__ import annotations

import pytest

from mjstats.replay import replay_hand
from mjstats.sim import SimConfig, simulate_with_faults

# the checks each simulator fault kind must trip (the simulator's docstring names them)
EXPECTED = {
    "fan": {"win.fan_total", "win.fans"},
    "payment": {"result.scores"},
    "claim": {"claim.priority"},
    "tile": {"tile.not_held"},
}


def _audit_simulation(hands: int, seed: int) -> None:
    clean = faulted = 0
    problems = []
    for hand, fault in simulate_with_faults(SimConfig("guobiao", hands=hands, seed=seed), 0.4):
        found = {f.check for f in replay_hand(hand).findings}
        if fault is None:
            clean += 1
            if found:
                problems.append(("false positive", hand.match_id, hand.hand_no, sorted(found)))
        else:
            faulted += 1
            if not found & EXPECTED[fault.kind]:
                problems.append(("missed", fault.kind, fault.detail, sorted(found)))
    assert problems == []
    assert clean > hands // 3 and faulted > hands // 5


def test_simulated_hands_clean_and_faults_found() -> None:
    _audit_simulation(240, seed=11)


@pytest.mark.slow
def test_simulated_hands_clean_and_faults_found_at_scale() -> None:
    _audit_simulation(5_000, seed=12)
