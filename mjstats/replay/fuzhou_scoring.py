"""A Fuzhou win as the replayer derives it, and its settlement as the scoring items a record lists."""

from __future__ import annotations

from dataclasses import dataclass

from mjstats.replay.profile import ComputedFan, ComputedWin, WinContext
from mjstats.rules.fuzhou import Profile, Settlement, settle_win

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
    """A settlement as the scoring items a Fuzhou record lists (docs/format.md example): 花番
    (flowers and kongs), 金番, 连庄 (count = fan, 1 point each), the pattern (count 1, its points)
    and 抢炮和 (count 1, the multiplier)."""
    fan = s.fan
    fans = [
        ComputedFan(name, value, 1)
        for name, value in (("花番", fan.flowers + fan.kongs), ("金番", fan.golds), ("连庄", fan.streak))
        if value
    ]
    if s.pattern is not None:
        fans.append(ComputedFan(s.pattern, 1, s.pattern_points))
    if s.jumped:
        fans.append(ComputedFan("抢炮和", 1, rules.patterns.jump_multiplier))
    return ComputedWin(tuple(fans), fan.total, True, s.payments)
