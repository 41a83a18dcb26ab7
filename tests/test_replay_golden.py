"""The canonical format's golden hands (and docs/format.md's examples) are legal, correctly
scored hands: the audit replays them without a finding."""

from __future__ import annotations

from pathlib import Path

import pytest

from mjstats.formats.canonical import read_canonical
from mjstats.records import Hand
from mjstats.replay import replay_hand

DATA = Path(__file__).resolve().parent / "data" / "canonical"


@pytest.mark.parametrize("name", ["guobiao.jsonl", "fuzhou.jsonl"])
def test_golden_hands_replay_clean(name: str) -> None:
    hands = [h for h in read_canonical(DATA / name) if isinstance(h, Hand)]
    assert hands
    for hand in hands:
        result = replay_hand(hand)
        assert not result.findings, (hand.match_id, result.findings)
