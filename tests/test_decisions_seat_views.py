"""The judge keeps each seat's view (Sichuan: the one of its void suit) and asks the ruleset again
only after the events the view names (``seat_view_events``): its decisions must be those of a
judge that asks ``seat_view`` at every call, with a void declared and without one (then a meld
changes the suits a seat may still give up), faulty records included."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import mjstats.rulesets.sichuan
from mjstats.compiled import compiled_status
from mjstats.decision import hand_decisions
from mjstats.decision import judge as judge_module
from mjstats.decision.view import RulesetView, view_for
from mjstats.records import EventKind, Hand
from mjstats.replay.profile import ReplayProfile
from mjstats.replay.replayer import HandReplay
from mjstats.rulesets.sichuan.replay import sichuan_profile
from mjstats.sim import SimConfig, simulate_with_faults


def _undeclared_profile(tmp_path: Path) -> str:
    """The seed profile with ``deal.declare_void = false``: no 定缺, melds decide the view."""
    text = (Path(mjstats.rulesets.sichuan.__file__).parent / "profiles" / "seed.toml").read_text("utf-8")
    text = text.replace('name = "seed"', 'name = "undeclared"')
    text = text.replace("declare_void = true", "declare_void = false")
    path = tmp_path / "undeclared.toml"
    path.write_text(text, "utf-8")
    return str(path)


def _asked_every_time(self: judge_module._Judge, seat: int) -> RulesetView:
    """The judge's view of a seat before views were kept: the ruleset asked at every call."""
    seat_view = self.view.seat_view
    return self.view if seat_view is None else seat_view(self.replay, seat)


def _judged(
    monkeypatch: pytest.MonkeyPatch, hands: list[Hand], prof: ReplayProfile, every_call: bool
) -> tuple[list[list[judge_module.Decision]], int]:
    """Every hand's decisions, and how often the ruleset was asked for a seat's view."""
    view = view_for("sichuan")
    assert view is not None and view.seat_view is not None
    seat_view, asked = view.seat_view, [0]

    def counted(replay: HandReplay, seat: int) -> RulesetView:
        asked[0] += 1
        return seat_view(replay, seat)

    with monkeypatch.context() as patched:
        counting = dataclasses.replace(view, seat_view=counted)
        patched.setattr(judge_module, "view_for", lambda ruleset: counting)
        if every_call:
            patched.setattr(judge_module._Judge, "view_of", _asked_every_time)
        rows = [hand_decisions(hand, prof) for hand in hands]
    return rows, asked[0]


@pytest.mark.skipif(
    compiled_status()["mjstats.decision.judge"],
    reason="patches a method of the judge, which the compiled judge (a native class) calls directly",
)
@pytest.mark.parametrize("declared", [True, False])
def test_kept_views_judge_as_views_asked_at_every_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, declared: bool
) -> None:
    profile = "seed" if declared else _undeclared_profile(tmp_path)
    prof = sichuan_profile(profile)
    hands = [hand for hand, _ in simulate_with_faults(SimConfig("sichuan", 10, 23, profile), 0.3)]
    assert any(ev.kind is EventKind.VOID for hand in hands for ev in hand.events) is declared
    assert any(ev.kind in (EventKind.PENG, EventKind.GANG) for hand in hands for ev in hand.events)
    kept, asked_kept = _judged(monkeypatch, hands, prof, every_call=False)
    every_time, asked_every_time = _judged(monkeypatch, hands, prof, every_call=True)
    assert sum(map(len, kept)) > 100
    assert kept == every_time
    assert asked_kept * 5 < asked_every_time
