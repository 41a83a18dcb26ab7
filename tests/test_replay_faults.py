"""Acceptance: the real sample is clean, and every faulted copy of it is flagged by the right check.

Zero false positives (no clean record flagged) and zero misses (every fault of every record
caught by the check the fault is about).
"""

from __future__ import annotations

import pytest

from mjstats.formats.canonical import hand_to_json
from mjstats.records import Outcome
from mjstats.replay import replay_hand
from mjstats.rulesets.guobiao.replay_botzone import BOTZONE
from tests.faults import FAULTS, Fault
from tests.test_replay_oracle import sample_hands

HANDS = sample_hands()
PROFILE = BOTZONE  # mjstats' own calculator


def test_the_real_sample_has_no_findings() -> None:
    results = [replay_hand(h, PROFILE) for h in HANDS]
    assert [r.findings for r in results] == [()] * 16


def test_every_win_recomputes_to_the_recorded_fans_and_scores() -> None:
    wins = [h for h in HANDS if h.result.outcome is Outcome.WIN]
    assert len(wins) == 14
    for hand in wins:
        win = replay_hand(hand, PROFILE).win
        assert sorted((f.name, f.count) for f in win.fans) == sorted(
            (f.name, f.count) for f in hand.result.fans
        )
        assert win.total == hand.result.fan_total
        assert win.payments == hand.result.scores


@pytest.mark.parametrize("fault", FAULTS, ids=lambda f: f.name)
def test_every_faulted_copy_is_flagged_by_its_check(fault: Fault) -> None:
    made, missed = 0, []
    for hand in HANDS:
        faulted = fault.make(hand)
        if faulted is None:
            continue
        assert faulted != hand
        made += 1
        found = {f.check for f in replay_hand(faulted, PROFILE).findings}
        if fault.check not in found:
            missed.append((hand.match_id, sorted(found)))
    assert missed == []
    # each fault is made wherever the hand allows it: fan faults on the 14 wins, the false win
    # on the 2 exhaustive draws, the rest on all 16 records
    wins = sum(h.result.outcome is Outcome.WIN for h in HANDS)
    expected = {
        "win.fan_total": wins,
        "win.fans": wins,
        "result.scores": wins,
        "win.not_winning": len(HANDS) - wins,
    }.get(fault.check, len(HANDS))
    assert made == expected


def test_faults_do_not_change_the_original_records() -> None:
    # a snapshot of the records' text, not of the objects: comparing the same objects before and
    # after would pass even if a fault mutated them in place
    before = [hand_to_json(h) for h in HANDS]
    for fault in FAULTS:
        for hand in HANDS:
            fault.make(hand)
    assert [hand_to_json(h) for h in HANDS] == before
