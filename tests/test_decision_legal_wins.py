"""The decision judge's legal wins asked of the calculator's total alone (``possible_fan_total``)
against the whole win (``possible_win``: WinContext, ``evaluate_win``, ComputedWin), the old
computation kept as the oracle: at every draw and discard of the Botzone sample and of bundled
simulated Guobiao hands, for every seat and every tile its hand waits on by shape (and a few it
does not), the same total (or no win) and the same legal win through the view."""

from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path

import pytest

from mjstats.decision.view import view_for
from mjstats.formats.canonical import read_canonical
from mjstats.records import EventKind, Hand
from mjstats.replay.replayer import HandReplay, profile_for
from mjstats.rulesets.guobiao.calculator import calculate_fans, win_fan_total
from mjstats.rulesets.guobiao.possible_win import possible_fan_total, possible_win
from mjstats.rulesets.guobiao.replay_botzone import BotzoneProfile
from mjstats.rulesets.guobiao.waits import waits_mask
from mjstats.rulesets.guobiao.win_score import guobiao_win

SIM = Path(__file__).resolve().parent.parent / "data" / "sim" / "guobiao.jsonl.gz"


def _asked_tiles(replay: HandReplay, seat: int, self_drawn: bool) -> list[int]:
    """The tiles a seat's hand waits on by shape (the only ones the judge asks), and three it
    does not (the calculator's own "not a winning hand")."""
    player = replay.state.seats[seat]
    counts = list(player.concealed[:34])
    if self_drawn:
        drawn = replay.state.drawn
        if drawn is None or counts[drawn] < 1:
            return []
        counts[drawn] -= 1
    if sum(counts) + 3 * len(player.melds) != 13:
        return []
    waits = waits_mask(tuple(counts), tuple(m.as_tuple() for m in player.melds))
    tiles = [t for t in range(34) if waits >> t & 1]
    if self_drawn:
        return [t for t in tiles if t == replay.state.drawn]
    return tiles + [t for t in (0, 13, 33) if not waits >> t & 1]


def _compare(replay: HandReplay, seat: int, tile: int, self_drawn: bool, discarder: int | None) -> bool:
    """``possible_fan_total`` against ``possible_win``'s fan total; whether the win is legal."""
    state = replay.state
    after = seat if self_drawn else discarder if discarder is not None else seat
    last = state.wall.remaining((after + 1) % 4) == 0
    kong_win = self_drawn and state.after_kong
    old = possible_win(
        replay, seat, tile, self_drawn=self_drawn, discarder=discarder, kong_win=kong_win, last_tile=last,
        shaped=True,
    )  # fmt: skip
    new = possible_fan_total(replay, seat, tile, self_drawn=self_drawn, kong_win=kong_win, last_tile=last)
    if old is None:
        assert new == -1, (seat, tile, self_drawn)
        return False
    fans = sum(f.points * f.count for f in old.fans if f.name != "花牌")
    assert new == fans, (seat, tile, self_drawn, old.fans)
    assert (new >= 8) == old.meets_minimum
    return old.meets_minimum


def _hands(botzone: list[object], count: int) -> list[Hand]:
    hands = [h for h in botzone if isinstance(h, Hand)]
    return hands + [h for h in itertools.islice(read_canonical(SIM), count) if isinstance(h, Hand)]


@pytest.mark.parametrize("count", [40])
def test_fan_total_equals_the_whole_win_at_every_draw_and_discard(sample_hands, count):
    view = view_for("guobiao")
    assert view is not None and view.shaped_win is not None
    asked = won = selfs = 0
    for hand in _hands(sample_hands, count):
        chosen = profile_for(hand)
        assert getattr(chosen, "standard_scoring", False)  # every bundled profile scores so
        replay = (chosen.replay_class or HandReplay)(hand, chosen, False)
        handlers = replay.handlers
        inner_discard, inner_draw = handlers[EventKind.DISCARD], handlers[EventKind.DRAW]

        def on_discard(ev, replay=replay, inner=inner_discard):
            nonlocal asked, won
            inner(ev)  # the tile now lies in the river, as the judge asks of it
            for o in range(4):
                if o == ev.seat:
                    continue
                for t in _asked_tiles(replay, o, False):
                    legal = _compare(replay, o, t, False, ev.seat)
                    assert view.legal_win(replay, o, t, False, ev.seat) == legal
                    asked += 1
                    won += legal

        def on_draw(ev, replay=replay, inner=inner_draw):
            nonlocal asked, selfs, won
            inner(ev)
            seat = ev.seat
            for t in _asked_tiles(replay, seat, True):
                legal = _compare(replay, seat, t, True, None)
                # the judge's two ways in: the shape tested by the view, or found by the judge
                assert view.legal_win(replay, seat, t, True, None) == legal
                assert view.shaped_win(replay, seat, t, True, None) == legal
                asked += 1
                selfs += 1
                won += legal

        handlers[EventKind.DISCARD], handlers[EventKind.DRAW] = on_discard, on_draw
        try:
            replay.run()
        finally:
            handlers.clear()
    assert asked > 20000 and selfs > 40 and won > 500, (asked, selfs, won)


def test_a_profile_scoring_otherwise_is_asked_the_whole_win(sample_hands):
    """A profile whose calculator is not ``guobiao_win`` itself is not read by the total alone:
    its own ``evaluate_win`` answers (here a calculator that never reaches 8 fan)."""

    def stingy(ctx):
        return dataclasses.replace(guobiao_win(ctx), meets_minimum=False)

    profile = BotzoneProfile(calculator=stingy)
    assert not profile.standard_scoring and BotzoneProfile().standard_scoring
    view = view_for("guobiao")
    hand = next(h for h in sample_hands if isinstance(h, Hand) and h.result is not None and h.result.wins)
    replay = (profile.replay_class or HandReplay)(hand, profile, False)
    asked = 0
    inner = replay.handlers[EventKind.DISCARD]

    def on_discard(ev):
        nonlocal asked
        inner(ev)
        for o in range(4):
            if o != ev.seat:
                for t in _asked_tiles(replay, o, False):
                    assert not view.legal_win(replay, o, t, False, ev.seat)
                    asked += 1

    replay.handlers[EventKind.DISCARD] = on_discard
    try:
        replay.run()
    finally:
        replay.handlers.clear()
    assert asked


@pytest.mark.parametrize(
    ("hand", "melds", "win", "flags"),
    [
        ([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 10], [], 10, {}),  # 清龙-like, self-drawn below
        ([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 10], [], 10, {"self_drawn": True, "last_tile": True}),
        ([27, 27, 28, 28, 29, 29, 30, 30, 31, 31, 32, 32, 33], [], 33, {"fourth_tile": True}),
        ([0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33], [], 0, {"self_drawn": True}),
        ([1, 2, 3, 3, 4, 5, 11, 11, 11, 20], [("PENG", 30, 1)], 20, {"seat_wind": 3, "round_wind": 3}),
        ([2, 3, 4, 5], [("CHI", 10, 3), ("GANG", 20, 0), ("PENG", 31, 2)], 5, {"kong_win": True}),
    ],
)
def test_fan_total_equals_calculate_fans(hand, melds, win, flags):
    """``win_fan_total`` (counts in) equals ``calculate_fans``' total (tiles in) on named hands."""
    counts = [0] * 34
    for t in hand:
        counts[t] += 1
    options = {"self_drawn": False, "fourth_tile": False, "kong_win": False, "last_tile": False,
               "seat_wind": 0, "round_wind": 0} | flags  # fmt: skip
    expected = calculate_fans(hand, melds, win, with_tiles=False, **options).fan_total
    assert win_fan_total(list(counts), list(melds), win, **options) == expected
