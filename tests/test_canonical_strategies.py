"""The shared hand strategies (tests/strategies.py) really cover what they promise."""

from __future__ import annotations

import random
from collections import Counter

from mjstats.records import EventKind, Outcome, WinKind
from tests.strategies import random_hand

HANDS = [random_hand(random.Random(seed)) for seed in range(600)]


def test_every_event_kind_and_win_kind_occurs_in_both_rulesets() -> None:
    kinds = {rs: Counter(e.kind for h in HANDS if h.ruleset == rs for e in h.events)
             for rs in ("guobiao", "fuzhou")}
    sichuan_only = {EventKind.EXCHANGE, EventKind.VOID}  # tests/test_sichuan_*.py cover them
    assert set(kinds["fuzhou"]) == set(EventKind) - sichuan_only
    assert set(kinds["guobiao"]) == set(EventKind) - {EventKind.GOLD} - sichuan_only
    wins = {e.win for h in HANDS for e in h.events if e.kind is EventKind.HU}
    assert wins == {None, *WinKind}
    outcomes = Counter(h.result.outcome for h in HANDS)
    assert outcomes[Outcome.WIN] > 100 and outcomes[Outcome.DRAW] > 10


def test_optional_fields_are_sometimes_present_and_sometimes_absent() -> None:
    checks = {
        "players": lambda h: h.players != ("",) * 4,
        "styles": lambda h: bool(h.styles),
        "streak": lambda h: h.streak > 0,
        "wall": lambda h: h.wall is not None,
        "dice": lambda h: h.dice is not None,
        "started_at": lambda h: h.started_at is not None,
        "meta": lambda h: bool(h.meta),
        "provenance": lambda h: h.provenance is not None,
        "event lines": lambda h: h.events[0].line is not None,
        "scores": lambda h: h.result.scores is not None,
        "fan_total": lambda h: h.result.fan_total is not None,
        "pattern": lambda h: h.result.pattern is not None,
        "fan points": lambda h: any(f.points is not None for f in h.result.fans),
        "flower gold": lambda h: any(e.kind is EventKind.GOLD and e.seat is not None
                                     for e in h.events),
    }
    for name, present in checks.items():
        count = sum(map(present, HANDS))
        assert 0 < count < len(HANDS), name


def test_hands_are_consistent_with_their_rulesets() -> None:
    for hand in HANDS:
        deals = [e for e in hand.events if e.kind is EventKind.DEAL]
        assert [e.seat for e in deals] == [(hand.dealer + i) % 4 for i in range(4)]
        sizes = [len(e.tiles) for e in deals]
        tiles = Counter(t for e in deals for t in e.tiles)
        tiles.update(e.tile for e in hand.events if e.kind is EventKind.DRAW)
        assert max(tiles.values()) <= 4
        if hand.ruleset == "fuzhou":
            assert sizes == [17, 16, 16, 16] and hand.gold is not None and hand.gold.is_suited
        else:
            assert sizes == [13] * 4 and hand.gold is None
        if hand.wall is not None:
            assert len(hand.wall) in (136, 144) and Counter(hand.wall) >= tiles
        if hand.result.scores is not None:
            assert sum(hand.result.scores) == 0
        assert [e.seq for e in hand.events] == list(range(len(hand.events)))
