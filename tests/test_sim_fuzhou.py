"""Simulated Fuzhou hands: the event grammar of docs/simulation.md, the wall model, the special
wins, dealer streaks, and a clean replay check (mjstats.rulesets.fuzhou.verify) of 1,000 hands."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path

import pytest

from mjstats.formats.canonical import read_canonical, write_canonical
from mjstats.records import EventKind, Hand, Outcome, WinKind
from mjstats.rulesets.fuzhou import DealerState, load_profile, next_dealer
from mjstats.rulesets.fuzhou.verify import check_fuzhou_hand
from mjstats.sim import SimConfig, simulate
from mjstats.store import SourceInput, ingest_sources, iter_hands

N = 1_000
FLOWERS = load_profile("seed").flower_kinds  # seed: every honour and flower is a flower tile


@pytest.fixture(scope="module")
def hands() -> list[Hand]:
    return list(simulate(SimConfig("fuzhou", N, seed=2026)))


@pytest.fixture(scope="module")
def dataset(hands: list[Hand], tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("sim_fuzhou")
    path = root / "fuzhou.jsonl"
    write_canonical(hands, path)
    summary = ingest_sources([SourceInput(path, "canonical", read_canonical)], root / "ds")
    assert (summary.hands, summary.rejects) == (N, 0)
    return root / "ds"


def test_thousand_hands_ingest_and_replay_check_clean(dataset: Path) -> None:
    back = list(iter_hands(dataset))
    assert len(back) == N
    problems = {h.key: p for h in back if (p := check_fuzhou_hand(h))}
    assert problems == {}


def test_platform_profile_hands_check_clean() -> None:
    hands = list(simulate(SimConfig("fuzhou", 200, seed=7, profile="platform")))
    assert all(h.profile == "platform" for h in hands)
    assert {h.key: p for h in hands if (p := check_fuzhou_hand(h))} == {}
    # live_golds = 3: the turned-up gold is out of play, so nobody robs it
    assert not any(e.win is WinKind.ROB_GOLD for h in hands for e in h.events)


def test_user_profile_file(tmp_path: Path) -> None:
    toml = tmp_path / "club.toml"
    toml.write_text('base = "seed"\nname = "club"\ngold_discard = "forbidden"\n', encoding="utf-8")
    hands = list(simulate(SimConfig("fuzhou", 40, seed=1, profile=str(toml))))
    assert {h.profile for h in hands} == {"club"}
    assert {h.key: p for h in hands if (p := check_fuzhou_hand(h, load_profile(toml)))} == {}
    gold_discards = [e for h in hands for e in h.events if e.kind is EventKind.DISCARD and e.tile == h.gold]
    assert gold_discards == []  # gold_discard = forbidden


def test_event_grammar(hands: list[Hand]) -> None:
    for hand in hands:
        ev = hand.events
        assert [e.kind for e in ev[:4]] == [EventKind.DEAL] * 4
        assert [e.seat for e in ev[:4]] == [(hand.dealer + i) % 4 for i in range(4)]
        assert [len(e.tiles) for e in ev[:4]] == [17, 16, 16, 16]
        golds = [i for i, e in enumerate(ev) if e.kind is EventKind.GOLD]
        last_gold = golds[-1]
        assert ev[last_gold].seat is None and ev[last_gold].tile == hand.gold
        for i in golds[:-1]:  # a flower turned up goes to the dealer; no replacement draw
            assert ev[i].seat == hand.dealer and ev[i].tile in FLOWERS
            assert ev[i + 1].kind is EventKind.GOLD
        setup = ev[4 : golds[0]]
        assert all(e.kind in (EventKind.FLOWER, EventKind.DRAW) for e in setup)
        assert all(e.tail for e in setup if e.kind is EventKind.DRAW)
        if ev[-1].kind is EventKind.HUANG:
            continue
        after = ev[last_gold + 1]
        assert (after.kind is EventKind.DISCARD and after.seat == hand.dealer) or (
            after.kind is EventKind.HU and after.win in (WinKind.HEAVENLY, WinKind.THREE_GOLDS)
        )
        for i, e in enumerate(ev[last_gold + 1 :], last_gold + 1):
            if e.kind in (EventKind.ANGANG, EventKind.BUGANG, EventKind.GANG):
                nxt = ev[i + 1]
                assert (nxt.kind is EventKind.DRAW and nxt.tail) or nxt.kind in (
                    EventKind.HU,
                    EventKind.IGNORED,
                )
            if e.kind is EventKind.FLOWER:  # in play: replaced from the tail at once
                nxt = ev[i + 1]
                final = nxt.kind is not EventKind.DRAW or not nxt.tail
                assert (nxt.kind is EventKind.DRAW and nxt.tail and nxt.seat == e.seat) or final


def test_special_wins_and_patterns_occur(hands: list[Hand]) -> None:
    wins = Counter(e.win for h in hands for e in h.events if e.kind is EventKind.HU)
    for kind in (WinKind.ROB_GOLD, WinKind.THREE_GOLDS, WinKind.ROB_KONG):
        assert wins[kind] > 0, kind
    patterns = Counter(h.result.pattern for h in hands if h.result.is_win)
    assert patterns["三金倒"] > 0 and patterns["抢金"] > 0
    for hand in hands:
        r = hand.result
        assert r.scores is not None and sum(r.scores) == 0
        if r.is_win:
            hu = next(e for e in hand.events if e.kind is EventKind.HU)
            if hu.win is WinKind.ROB_GOLD:
                # 抢金 or a higher pattern (only the highest counts)
                assert r.pattern in ("抢金", "金雀", "金龙", "清一色", "混一色")
                assert r.win_tile == hand.gold and r.self_drawn
            if hu.win is WinKind.THREE_GOLDS:
                assert r.self_drawn


def test_dealer_rotation_and_streaks(hands: list[Hand]) -> None:
    profile = load_profile("seed")
    by_match: dict[str, list[Hand]] = {}
    for hand in hands:
        by_match.setdefault(hand.match_id, []).append(hand)
    streaks = Counter()
    for match in by_match.values():
        state = DealerState(0)
        for hand in match:
            assert (hand.dealer, hand.streak) == (state.dealer, state.streak)
            streaks[hand.streak] += 1
            state = next_dealer(state, hand.result.winner, profile)
    assert streaks[1] > 0  # a dealer won twice in a row somewhere


def test_final_draws_have_no_discards(hands: list[Hand]) -> None:
    """The last four drawable tiles go one each in turn (no discard between them)."""
    drawn_out = [h for h in hands if h.result.outcome is Outcome.DRAW]
    assert drawn_out
    full = 0
    for hand in drawn_out:
        tail = []
        for e in reversed(hand.events[:-1]):
            if e.kind is EventKind.DISCARD:
                break
            tail.append(e)
        draws = [e for e in tail if e.kind is EventKind.DRAW]
        assert len(draws) <= 4  # none when kongs or a flower group emptied the wall at once
        full += len(draws) == 4
        seats = [e.seat for e in reversed(draws)]
        assert all((b - a) % 4 == 1 for a, b in itertools.pairwise(seats))
    assert full > 0
