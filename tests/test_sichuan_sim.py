"""Simulated Sichuan play: deterministic bytes, hands that audit clean under both profiles and
with 换三张, and ``--faults`` hands flagged exactly where a fault was injected."""

from __future__ import annotations

import dataclasses
import io
import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mjstats.audit import audit_hands
from mjstats.cli import main
from mjstats.formats.canonical import hand_from_json, hand_to_json, read_canonical, write_canonical
from mjstats.records import EventKind, Hand
from mjstats.replay import replay_hand
from mjstats.rulesets.sichuan.replay import sichuan_profile
from mjstats.sim import SimConfig, simulate, simulate_with_faults


def hands_of(n: int, seed: int, profile: object = None, rate: float = 0.0) -> list:
    return list(simulate_with_faults(SimConfig("sichuan", n, seed, profile), rate))


def flagged(hands: list[Hand]) -> dict[tuple[str, int], set[str]]:
    tables, _, _ = audit_hands(hands)
    rows = tables["findings"].to_pylist()
    out: dict[tuple[str, int], set[str]] = {}
    for r in rows:
        out.setdefault((r["match_id"], r["hand_no"]), set()).add(r["check"])
    return out


def test_same_seed_same_bytes() -> None:
    def text(seed: int) -> str:
        buf = io.StringIO()
        write_canonical(simulate(SimConfig("sichuan", 24, seed)), buf)
        return buf.getvalue()

    assert text(5) == text(5)
    assert text(5) != text(6)


@pytest.mark.parametrize("profile", ["seed", "platform"])
def test_simulated_hands_audit_clean(profile: str) -> None:
    hands = [h for h, _ in hands_of(160, 11, profile)]
    assert flagged(hands) == {}
    kinds = Counter(e.kind for h in hands for e in h.events)
    # the play covers what the audit checks: claims, every kong kind, robbing, 一炮多响, 查叫
    assert (
        kinds[EventKind.PENG]
        and kinds[EventKind.GANG]
        and kinds[EventKind.ANGANG]
        and kinds[EventKind.BUGANG]
    )
    assert kinds[EventKind.HUANG] and kinds[EventKind.VOID] == 4 * len(hands)
    assert any(len(h.result.wins) == 3 for h in hands)  # 血战到底: play went on to the third win
    styles = {s for h in hands for s in h.styles}
    assert styles == {"greedy", "voidfirst", "flush", "konger"}


def test_exchange_profile(tmp_path: Path) -> None:
    """换三张 under a user profile: recorded as four exchange events in one direction; a record
    whose exchange breaks the direction is flagged."""
    toml = tmp_path / "room.toml"
    toml.write_text('base = "seed"\nname = "room"\n[deal]\nexchange_three = true\n', encoding="utf-8")
    hands = [h for h, _ in hands_of(40, 2, str(toml))]
    prof = sichuan_profile(str(toml))
    for h in hands:
        assert sum(e.kind is EventKind.EXCHANGE for e in h.events) == 4
        assert replay_hand(h, prof).findings == ()
    h = hands[0]
    events = list(h.events)
    i = next(i for i, e in enumerate(events) if e.kind is EventKind.EXCHANGE)
    events[i] = events[i]._replace(from_seat=(events[i].from_seat + 1) % 4)
    broken = dataclasses.replace(h, events=tuple(events))
    assert "sichuan.exchange" in {f.check for f in replay_hand(broken, prof).findings}


def test_faults_are_flagged_exactly() -> None:
    pairs = hands_of(320, 3, None, 0.1)
    injected = {(f.match_id, f.hand_no): f.kind for _, f in pairs if f is not None}
    assert 15 <= len(injected) <= 50
    found = flagged([h for h, _ in pairs])
    assert set(found) == set(injected)
    expected_check = {
        "void_discard": "sichuan.void_first",
        "chow": "sichuan.no_chow",
        "cha_jiao": "sichuan.cha_jiao",
        "fan": "sichuan.win_fan",
    }
    for key, kind in injected.items():
        if kind in expected_check:
            assert expected_check[kind] in found[key], (key, kind, found[key])
    assert set(injected.values()) == {"payment", "void_discard", "chow", "cha_jiao", "fan"}


def test_cli_simulate_writes_the_fault_list(tmp_path: Path) -> None:
    out = tmp_path / "s.jsonl"
    assert main(["simulate", "--rules", "sichuan", "--hands", "30", "--seed", "4", "--faults", "0.2",
                 "--out", str(out), "--quiet"]) == 0  # fmt: skip
    hands = [h for h in read_canonical(out) if isinstance(h, Hand)]
    assert len(hands) == 30 and all(h.ruleset == "sichuan" for h in hands)
    faults = [json.loads(line) for line in (tmp_path / "s.faults.jsonl").read_text().splitlines()]
    assert {(f["match_id"], f["hand_no"]) for f in faults} == set(flagged(hands))


@pytest.mark.slow
def test_two_thousand_hands_audit_clean() -> None:
    hands = list(simulate(SimConfig("sichuan", 2000, 1)))
    assert flagged(hands) == {}


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=10**6), profile=st.sampled_from(["seed", "platform"]))
def test_any_simulated_hand_round_trips_and_audits_clean(seed: int, profile: str) -> None:
    """Property: whatever the seed, a simulated Sichuan hand reads back byte-identical from its
    canonical line, its payments sum to zero and to its scores, and it audits clean."""
    for hand in simulate(SimConfig("sichuan", 2, seed, profile)):
        line = hand_to_json(hand)
        again = hand_from_json(line, source="prop", line=1)
        assert hand_to_json(dataclasses.replace(again, provenance=None)) == line
        net = [0, 0, 0, 0]
        for p in hand.result.payments:
            net[p.seat] += p.score
        assert sum(net) == 0 and tuple(net) == hand.result.scores
        assert replay_hand(hand, sichuan_profile(profile)).findings == ()


def test_cli_audit_with_a_user_sichuan_profile(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Hands of a user profile replay only when the audit is told the profile."""
    toml = tmp_path / "room.toml"
    toml.write_text('base = "seed"\nname = "room"\n[deal]\nexchange_three = true\n', encoding="utf-8")
    records, dataset = tmp_path / "room.jsonl", tmp_path / "ds"
    assert main(["simulate", "--rules", "sichuan", "--profile", str(toml), "--hands", "8", "--seed", "2",
                 "--out", str(records), "-q"]) == 0  # fmt: skip
    assert main(["ingest", str(records), "--out", str(dataset), "-q"]) == 0
    capsys.readouterr()
    assert main(["audit", str(dataset), "-j", "1"]) == 0
    assert "not replayed (no replay profile for their ruleset yet): 8" in capsys.readouterr().out
    assert main(["audit", str(dataset), "-j", "1", "--sichuan-profile", str(toml), "--fail-on-findings"]) == 0
    assert "clean: 8; with findings: 0" in capsys.readouterr().out


def test_settlement_after_the_third_win_is_flagged() -> None:
    """Check 34: a hand that ended at its third win records no 查叫 (a 查大叫 pair added to one
    is flagged)."""
    from mjstats.records import Payment, PaymentReason, Result

    hand = next(h for h in simulate(SimConfig("sichuan", 60, 11)) if len(h.result.wins) == 3)
    r = hand.result
    extra = (Payment(0, -1, PaymentReason.SETTLEMENT), Payment(1, 1, PaymentReason.SETTLEMENT))
    broken = dataclasses.replace(hand, result=Result(r.outcome, wins=r.wins, payments=r.payments + extra))
    assert "sichuan.end_after_third" in {f.check for f in replay_hand(broken).findings}


def test_a_deal_or_draw_off_the_recorded_wall_is_flagged() -> None:
    hand = next(iter(simulate(SimConfig("sichuan", 1, 8))))
    wall = list(hand.wall or ())
    j = next(j for j in range(60, 108) if wall[j] != wall[0])
    wall[0], wall[j] = wall[j], wall[0]
    result = replay_hand(dataclasses.replace(hand, wall=tuple(wall)))
    assert "sichuan.wall" in {f.check for f in result.findings}
    short = replay_hand(dataclasses.replace(hand, wall=tuple(hand.wall or ())[:-1]))
    assert "sichuan.wall" in {f.check for f in short.findings}
