"""The Botzone "Chinese Standard Mahjong" profile: per-seat walls, 13 dealt, Guobiao scoring.

Reference botzone-format.md: the shuffled wall is split into four walls of 34, one per seat; each
seat is dealt 13 and draws (kong replacements included) only from its own wall, so at most 21
draws per seat. The dealer (seat 0) draws first. Wins are scored by ``mjstats.rulesets.guobiao``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from mjstats.records import Hand
from mjstats.replay.profile import ComputedWin, ReplayProfile, Wall, WinContext
from mjstats.replay.replayer import register_profile
from mjstats.replay.walls import PerSeatWalls  # compiled in the compiled build (a call a draw)
from mjstats.rulesets.guobiao.fan_names import BOTZONE_FAN_NAMES
from mjstats.rulesets.guobiao.win_score import guobiao_win  # compiled in the compiled build

__all__ = ["BOTZONE", "BotzoneProfile", "PerSeatWalls", "guobiao_win"]

WALL_PER_SEAT = 34
DEALT = 13


@dataclass(frozen=True)
class BotzoneProfile(ReplayProfile):
    """Botzone Guobiao. ``calculator`` scores wins (default: mjstats' Guobiao calculator)."""

    calculator: Callable[[WinContext], ComputedWin] = guobiao_win
    name: str = "botzone"
    ruleset: str = "guobiao"
    # neither these methods nor BotzoneReplay read Hand.events: the audit's replay steps over
    # the events' columns (mjstats.event_columns), nearly every event made no Event
    reads_columns: ClassVar[bool] = True

    def deal_size(self, hand: Hand, seat: int) -> int:
        return DEALT

    def first_to_draw(self, hand: Hand) -> bool:
        return True

    def new_wall(self, hand: Hand) -> Wall:
        return PerSeatWalls(WALL_PER_SEAT - DEALT)

    def evaluate_win(self, ctx: WinContext) -> ComputedWin:
        return self.calculator(ctx)

    @property
    def standard_scoring(self) -> bool:
        """Whether ``evaluate_win`` is ``guobiao_win`` itself (the default calculator, the method
        not overridden): then a caller wanting only the fan total may ask the calculator for it
        (``possible_win.possible_fan_total``, the decision judge's legal wins)."""
        return self.calculator is guobiao_win and type(self).evaluate_win is BotzoneProfile.evaluate_win

    def fan_key(self, name: str) -> str:
        # PyMahjongGB 1.4.0 renamed three wait fans (botzone-format.md): either version compares
        return BOTZONE_FAN_NAMES.get(name, name)

    @property
    def replay_class(self) -> Any:  # type: ignore[override]
        """The replay with the wall, canHu and penalty checks (imported at the first call: it
        imports the neutral replayer, which imports this module; asked once a hand, so kept)."""
        return _botzone_replay()


@cache
def _botzone_replay() -> Any:
    """``replay_botzone_json.BotzoneReplay``, imported once (an import statement run once a hand
    cost more than the lookup of a cached result)."""
    from mjstats.rulesets.guobiao.replay_botzone_json import BotzoneReplay

    return BotzoneReplay


BOTZONE = BotzoneProfile()
register_profile("guobiao", BOTZONE.name, BOTZONE)
