"""The replayer's derived win context (melds, situational flags) against PyMahjongGB, the oracle.

PyMahjongGB 1.3.0 is a test-only oracle (reference guobiao.md): given the replayer's WinContext it
must reproduce every recorded Fan line of the sample, and mjstats' own calculator must agree with
it. The module also holds the sample loader and the oracle-backed profile other tests use.
"""

from __future__ import annotations

import functools
from dataclasses import replace
from pathlib import Path

import pytest
from MahjongGB import MahjongFanCalculator

from mjstats.errors import NotWinningHand
from mjstats.formats.botzone import read_botzone
from mjstats.records import Hand, Outcome
from mjstats.replay import ComputedFan, ComputedWin, Meld, WinContext, replay_hand
from mjstats.rulesets.guobiao.replay_botzone import BOTZONE, BotzoneProfile
from mjstats.tiles import ALL_KINDS

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "botzone" / "sample.txt"


@functools.cache
def sample_hands() -> tuple[Hand, ...]:
    hands = tuple(h for h in read_botzone(SAMPLE) if isinstance(h, Hand))
    assert len(hands) == 16
    return hands


def _payments(total: int, winner: int, discarder: int | None) -> tuple[int, ...]:
    # botzone-format.md: self-drawn +3(8+F) / -(8+F) each; on a discard +(24+F), -(8+F), -8, -8
    if discarder is None:
        return tuple(3 * (8 + total) if s == winner else -(8 + total) for s in range(4))
    return tuple(24 + total if s == winner else -(8 + total) if s == discarder else -8 for s in range(4))


def oracle_win(ctx: WinContext) -> ComputedWin:
    """Score a WinContext with PyMahjongGB (the oracle does not enforce the 8-fan minimum)."""
    code = [t.botzone for t in ALL_KINDS]
    try:
        fans = MahjongFanCalculator(
            tuple((m.kind, code[m.tile], m.offer) for m in ctx.melds),
            tuple(code[t] for t in ctx.concealed),
            code[ctx.win_tile],
            ctx.flowers,
            ctx.self_drawn,
            ctx.fourth_tile,
            ctx.kong_win,
            ctx.last_tile,
            ctx.seat_wind,
            ctx.round_wind,
            verbose=True,
        )
    except TypeError as exc:  # the oracle reports a non-winning hand as TypeError
        raise NotWinningHand(str(exc)) from None
    computed = tuple(ComputedFan(name, count, points) for points, count, name, _ in fans)
    total = sum(f.points * f.count for f in computed)
    return ComputedWin(computed, total, total - ctx.flowers >= 8, _payments(total, ctx.winner, ctx.discarder))


ORACLE = BotzoneProfile(calculator=oracle_win)


# --- tests ---------------------------------------------------------------------------------------
WINS = [h for h in sample_hands() if h.result.outcome is Outcome.WIN]


@pytest.mark.parametrize("hand", WINS, ids=lambda h: h.match_id[-4:])
def test_oracle_reproduces_every_recorded_fan_line(hand: Hand) -> None:
    result = replay_hand(hand, ORACLE)
    assert result.context is not None and result.win is not None
    recorded = sorted((f.name, f.count) for f in hand.result.fans)
    assert sorted((f.name, f.count) for f in result.win.fans) == recorded
    assert result.win.total == hand.result.fan_total
    assert result.win.payments == hand.result.scores
    assert result.findings == ()


def test_fourth_tile_flag_exactly_where_recorded() -> None:
    flagged = {h.match_id for h in WINS if replay_hand(h, ORACLE).context.fourth_tile}
    recorded = {h.match_id for h in WINS if any(f.name == "和绝张" for f in h.result.fans)}
    assert flagged == recorded and len(recorded) == 2


def test_pung_offer_does_not_change_the_oracle_fans() -> None:
    """Our offer convention (1 previous seat, 2 opposite, 3 next) vs any other: same fans."""
    for hand in WINS:
        ctx = replay_hand(hand, ORACLE).context
        base = oracle_win(ctx)
        for shift in (1, 2):
            melds = tuple(
                Meld(m.kind, m.tile, (m.offer + shift - 1) % 3 + 1) if m.kind != "CHI" and m.offer else m
                for m in ctx.melds
            )
            assert oracle_win(replace(ctx, melds=melds)).fans == base.fans


@pytest.mark.parametrize("hand", WINS, ids=lambda h: h.match_id[-4:])
def test_own_calculator_agrees_with_the_oracle(hand: Hand) -> None:
    ours = replay_hand(hand, BOTZONE)
    theirs = replay_hand(hand, ORACLE)
    assert ours.findings == ()
    assert sorted((f.name, f.count, f.points) for f in ours.win.fans) == sorted(
        (f.name, f.count, f.points) for f in theirs.win.fans
    )
    assert ours.win.payments == theirs.win.payments == hand.result.scores
