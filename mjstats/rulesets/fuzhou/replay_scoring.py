"""A Fuzhou win as the replayer derives it, and its settlement as the scoring items a record lists."""

from __future__ import annotations

from dataclasses import dataclass

from mjstats.replay.profile import ComputedFan, ComputedWin, WinContext
from mjstats.rulesets.fuzhou import Profile, Settlement, settle_win
from mjstats.rulesets.fuzhou.settle import scoring_items

__all__ = ["FuzhouWinContext", "computed_win", "settle_context"]


@dataclass(frozen=True, slots=True)
class FuzhouWinContext(WinContext):
    """A Fuzhou win as the replayer derived it: the Guobiao-neutral part plus the gold, the
    winner's flower tiles, the dealer, the streak and the special ways of winning."""

    gold: int = -1
    flower_tiles: tuple[int, ...] = ()
    dealer: int = 0
    streak: int = 0
    robbed_gold: bool = False
    heavenly: bool = False
    jumped: bool = False


def settle_context(ctx: FuzhouWinContext, rules: Profile) -> Settlement:
    """``settle_win`` on a derived win (raises NotWinningHand, InvalidHand, RuleError)."""
    return settle_win(
        ctx.concealed,
        [m.as_tuple() for m in ctx.melds],
        ctx.gold,
        ctx.win_tile,
        ctx.self_drawn,
        ctx.flower_tiles,
        ctx.winner,
        ctx.dealer,
        discarder=None if ctx.self_drawn else ctx.discarder,
        streak=ctx.streak,
        profile=rules,
        robbed_gold=ctx.robbed_gold,
        heavenly=ctx.heavenly,
        jumped_claim=ctx.jumped,
    )


def computed_win(s: Settlement, rules: Profile) -> ComputedWin:
    """A settlement as the scoring items a Fuzhou record lists (``settle.scoring_items``)."""
    fans = tuple(ComputedFan(*item) for item in scoring_items(s, rules))
    return ComputedWin(fans, s.fan.total, True, s.payments)
