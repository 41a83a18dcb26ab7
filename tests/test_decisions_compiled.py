"""The compiled judge (docs/compiled.md) decides as the pure one: every decision row of the
Botzone sample, each faulted copy of it (tests/faults.py) and simulated hands of every judged
ruleset, made in this process and in a pure-Python child, must be equal. Run by
``make test-compiled`` on build/compiled; the normal run checks the pure package elsewhere
(test_decisions*.py, test_decision_speed.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mjstats.compiled import describe_build
from tests.test_compiled import pure_child_lines

ROOT = Path(__file__).resolve().parent.parent
REQUIRED = os.environ.get("MJSTATS_REQUIRE_COMPILED") == "1"


def decisions_digest() -> list[str]:
    """The build's name, then one line a hand: its id and every decision row it gives."""
    from mjstats.decision import hand_decisions
    from mjstats.sim import SimConfig, simulate
    from tests.faults import FAULTS
    from tests.test_replay_oracle import sample_hands

    hands = list(sample_hands())
    hands += [f for fault in FAULTS for h in sample_hands() if (f := fault.make(h)) is not None]
    for ruleset, count in (("guobiao", 40), ("fuzhou", 20), ("sichuan", 20)):
        hands += list(simulate(SimConfig(ruleset, count, 11)))
    lines = [describe_build()]
    for hand in hands:
        rows = [repr(row) for row in hand_decisions(hand)]
        lines.append(f"{hand.ruleset} {hand.match_id}/{hand.hand_no} {len(rows)} {rows}")
    return lines


@pytest.mark.skipif(not REQUIRED, reason="compares the compiled judge with the pure one: "
                    "run by `make test-compiled` on build/compiled")
def test_the_compiled_judge_decides_as_the_pure_one() -> None:
    pure = pure_child_lines("tests.test_decisions_compiled:decisions_digest")
    compiled = decisions_digest()
    assert pure[0] == "mjstats build: pure Python"
    assert compiled[0].startswith("mjstats build: compiled (")
    assert len(pure) == len(compiled) > 100
    assert sum(int(line.split()[2]) for line in pure[1:]) > 5000  # rows judged, not empty hands
    assert {line.split()[0] for line in pure[1:]} == {"guobiao", "fuzhou", "sichuan"}
    assert pure[1:] == compiled[1:]
