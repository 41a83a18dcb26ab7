"""Simulated Guobiao hands follow the Botzone rules: they ingest, and the audit finds nothing."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from mjstats.audit import audit_dataset
from mjstats.formats.canonical import read_canonical, write_canonical
from mjstats.records import EventKind, Hand, Outcome, WinKind
from mjstats.sim import SimConfig, simulate
from mjstats.store import SourceInput, ingest_sources, iter_hands

N = 1_000


@pytest.fixture(scope="module")
def hands() -> list[Hand]:
    return list(simulate(SimConfig("guobiao", N, seed=2026)))


@pytest.fixture(scope="module")
def dataset(hands: list[Hand], tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("sim_guobiao")
    path = root / "guobiao.jsonl"
    write_canonical(hands, path)
    summary = ingest_sources([SourceInput(path, "canonical", read_canonical)], root / "ds")
    assert (summary.hands, summary.rejects) == (N, 0)
    return root / "ds"


def test_thousand_hands_ingest_and_audit_clean(dataset: Path) -> None:
    summary = audit_dataset(dataset, jobs=1)
    assert summary.hands == N
    assert summary.findings_by_check == {}
    assert summary.clean == N


def test_dataset_round_trip_keeps_every_field(hands: list[Hand], dataset: Path) -> None:
    back = {h.key: h for h in iter_hands(dataset)}
    assert len(back) == N
    for hand in hands[:50]:
        assert back[hand.key] == hand


def test_walls_deals_and_draws_follow_the_botzone_model(hands: list[Hand]) -> None:
    full = Counter(t for t in range(34) for _ in range(4))
    for hand in hands:
        assert hand.wall is not None and Counter(hand.wall) == full
        walls = [list(hand.wall[34 * s : 34 * (s + 1)]) for s in range(4)]
        taken = [0] * 4
        deals = [e for e in hand.events if e.kind is EventKind.DEAL]
        assert [e.seat for e in deals] == [(hand.dealer + i) % 4 for i in range(4)]
        for e in deals:
            assert list(e.tiles) == walls[e.seat][:13]
            taken[e.seat] = 13
        for e in hand.events:
            if e.kind is EventKind.DRAW:  # every draw, replacements too, from the seat's own wall
                assert e.tile == walls[e.seat][taken[e.seat]]
                taken[e.seat] += 1
        if hand.result.outcome is Outcome.DRAW:
            last = hand.events[-2]
            must_draw = (last.seat + 1) % 4 if last.kind is EventKind.DISCARD else last.seat
            assert taken[must_draw] == 34  # Huang only when the seat that must draw has none left


def test_dealer_rotation_winds_players_and_times(hands: list[Hand]) -> None:
    months = Counter()
    for hand in hands:
        assert hand.dealer == hand.hand_no % 4
        assert hand.prevalent_wind == hand.hand_no // 4
        assert hand.events[4].seat == hand.dealer  # the dealer draws first
        assert sorted(hand.players) == ["ann", "bo", "cai", "dee"]
        style_of = dict(zip(hand.players, hand.styles, strict=True))
        assert style_of == {"ann": "greedy", "bo": "defensive", "cai": "aggressive", "dee": "flush"}
        assert hand.started_at is not None and hand.started_at.endswith("Z")
        months[hand.period] += 1
    assert set(months) <= {f"2026-{m:02d}" for m in range(6, 12)}
    assert len(months) == 6
    matches = Counter(h.match_id for h in hands)
    assert set(matches.values()) == {16} | ({N % 16} if N % 16 else set())


def test_results_are_consistent(hands: list[Hand]) -> None:
    kinds: Counter[str] = Counter()
    for hand in hands:
        r = hand.result
        assert r.scores is not None and sum(r.scores) == 0
        last = (
            hand.events[-1]
            if hand.events[-1].kind is not EventKind.IGNORED
            else next(e for e in reversed(hand.events) if e.kind is not EventKind.IGNORED)
        )
        if r.is_win:
            assert last.kind is EventKind.HU and last.seat == r.winner and last.tile == r.win_tile
            assert r.fan_total == sum(f.count * (f.points or 0) for f in r.fans)
            assert r.fan_total >= 8  # no flowers in Botzone: the whole total counts
            assert r.self_drawn == (r.loser is None)
        else:
            assert last.kind is EventKind.HUANG and r.scores == (0, 0, 0, 0)
        for e in hand.events:
            kinds[e.kind.value] += 1
            if e.win is WinKind.ROB_KONG:
                kinds["rob_kong"] += 1
    # every kind of action happens in a thousand hands
    for kind in ("chi", "peng", "gang", "angang", "bugang", "ignored", "hu", "huang", "rob_kong"):
        assert kinds[kind] > 0, kind


def test_ignored_claims_follow_the_winning_claim(hands: list[Hand]) -> None:
    rank = {"hu": 3, "gang": 2, "peng": 2, "chi": 1}
    seen = 0
    for hand in hands:
        events = hand.events
        for i, e in enumerate(events):
            if e.kind is not EventKind.IGNORED:
                continue
            j = i
            while events[j].kind is EventKind.IGNORED:
                j -= 1
            taken = events[j]
            assert taken.kind.value in rank and rank[e.claim] <= rank[taken.kind.value]
            seen += 1
    assert seen > 0


def test_last_tile_fans_follow_the_next_seats_wall(hands: list[Hand]) -> None:
    """妙手回春 / 海底捞月 exactly when the seat after the drawer (or discarder) has an empty wall
    (botzone-format.md: the judge's isWallLast), whatever the winner's own wall holds."""
    own_wall_not_empty = 0
    for hand in hands:
        r = hand.result
        if not r.is_win:
            continue
        drawn = Counter(e.seat for e in hand.events if e.kind is EventKind.DRAW)
        names = {f.name for f in r.fans}
        if r.self_drawn:
            next_empty = drawn[(r.winner + 1) % 4] == 34 - 13
            assert ("妙手回春" in names) == next_empty, hand.key
            own_wall_not_empty += next_empty and drawn[r.winner] < 34 - 13
        elif r.loser is not None and not any(e.win is WinKind.ROB_KONG for e in hand.events):
            assert ("海底捞月" in names) == (drawn[(r.loser + 1) % 4] == 34 - 13), hand.key
    assert own_wall_not_empty > 0  # the case the old rule (the winner's own wall) got wrong
