"""A replayed Guobiao win scored by mjstats' calculator: what every Guobiao replay profile's
``evaluate_win`` returns (Botzone, the 2017 human-play platform, MCR boards).

Compiled in the compiled build (docs/compiled.md) with the calculator it calls: the audit scores
every win of every hand through it, and as interpreted Python this wrapper cost about a quarter
of the calculator's own instructions (callgrind, a 2,000-hand Botzone part).
"""

from __future__ import annotations

from typing import Any, Final

from mjstats.replay.profile import ComputedFan, ComputedWin, WinContext
from mjstats.rulesets.guobiao.calculator import calculate_fans, meets_minimum
from mjstats.rulesets.guobiao.scoring import guobiao_payments
from mjstats.slot_setters import frozen_record, record_setters

__all__ = ["guobiao_win"]

# each fan the calculator gives, as the record the replay keeps: one immutable object per
# (name, count, points), shared by every win it occurs in (building one is most of a fan's cost)
_COMPUTED_FANS: Final[dict[tuple[str, int, int], ComputedFan]] = {}
# guobiao_payments is pure: its answer per (total, winner, discarder), asked once a win
_PAYMENTS: Final[dict[tuple[int, int, int | None], tuple[int, int, int, int]]] = {}
# ComputedWin(fans, total, meets_minimum, payments) built by its slots' setters: its frozen
# dataclass __init__ is interpreted Python, one object.__setattr__ call a field (slot_setters)
_COMPUTED_WIN: Final = record_setters(ComputedWin)


def guobiao_win(ctx: WinContext) -> ComputedWin:
    """Score a win with mjstats' Guobiao calculator: fans, total, minimum and payments (the
    fans' tiles, which only a display needs, are not computed)."""
    result = calculate_fans(
        ctx.concealed,
        [(m.kind, m.tile, m.offer) for m in ctx.melds],
        ctx.win_tile,
        flowers=ctx.flowers,
        self_drawn=ctx.self_drawn,
        fourth_tile=ctx.fourth_tile,
        kong_win=ctx.kong_win,
        last_tile=ctx.last_tile,
        seat_wind=ctx.seat_wind,
        round_wind=ctx.round_wind,
        with_tiles=False,
    )
    fans: list[ComputedFan] = []
    for f in result.fans:
        key = (f.name, f.count, f.points)
        fan = _COMPUTED_FANS.get(key)
        if fan is None:
            fan = _COMPUTED_FANS.setdefault(key, ComputedFan(*key))
        fans.append(fan)
    total = result.total
    winner, discarder = ctx.winner, ctx.discarder
    pay_key = (total, winner, discarder)
    payments = _PAYMENTS.get(pay_key)
    if payments is None:
        # guobiao_payments raises RuleError on a bad seat or total: nothing is kept then
        payments = _PAYMENTS.setdefault(pay_key, guobiao_payments(total, winner, discarder))
    values: tuple[Any, ...] = (tuple(fans), total, meets_minimum(result), payments)
    return frozen_record(ComputedWin, _COMPUTED_WIN, values)
