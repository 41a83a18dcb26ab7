"""What a seat would score if it won now: a win the record does not end with, scored from the
replayed table without changing it (the judge's canHu values, declared wins a platform refused).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from mjstats.errors import InvalidHand, NotWinningHand
from mjstats.replay.profile import ComputedWin, Meld, WinContext
from mjstats.rulesets.guobiao.calculator import win_fan_total
from mjstats.rulesets.guobiao.waits import waits_mask
from mjstats.slot_setters import frozen_record, record_setters

if TYPE_CHECKING:
    from mjstats.replay.replayer import HandReplay

__all__ = ["possible_fan_total", "possible_win"]

# built by its slots' setters, as the replayer builds its own: the dataclass __init__ runs as
# interpreted Python even compiled (docs/compiled.md, "The replay and the audit")
_WIN_CONTEXT = record_setters(WinContext)


def possible_win(
    replay: HandReplay,
    seat: int,
    tile: int,
    *,
    self_drawn: bool,
    discarder: int | None,
    kong_win: bool,
    last_tile: bool,
    flowers: int = 0,
    shaped: bool = False,
) -> ComputedWin | None:
    """The win ``seat`` would have with ``tile`` at this point of ``replay`` (a HandReplay), or
    None when its tiles do not win (or do not make a hand of the right size).

    On a self-draw ``tile`` is already in the seat's hand; on a discard or a robbed kong it is
    not. 和绝张 as in the replayer: the other three copies on the table. ``shaped``: the caller
    found ``tile`` among the hand's waits already (the waits filter is not asked again).
    """
    state = replay.state
    player = state.seats[seat]
    held = player.concealed
    if any(held[34:]):  # a flower still in hand: no win until it is set aside
        return None
    counts = held[:34]
    if self_drawn:
        if counts[tile] < 1:
            return None
        counts[tile] -= 1
    if sum(counts) + 3 * len(player.melds) != 13:
        return None
    melds = tuple(player.melds)
    # the shape first: most seats at most steps wait on nothing (the calculator costs 50x more)
    if not shaped and not _waits(tuple(counts), melds) >> tile & 1:
        return None
    others = state.visible[tile] - (0 if self_drawn else 1)
    concealed: list[int] = []
    for t in range(34):
        for _ in range(counts[t]):
            concealed.append(t)
    # WinContext's fields in order: winner, discarder, concealed, melds, win_tile, self_drawn,
    # fourth_tile, kong_win, last_tile, seat_wind, round_wind, flowers
    values = (
        seat, discarder, tuple(concealed), melds, tile, self_drawn, others >= 3, kong_win, last_tile,
        replay.hand.seat_wind(seat), replay.hand.prevalent_wind, flowers,
    )  # fmt: skip
    ctx = frozen_record(WinContext, _WIN_CONTEXT, values)
    try:
        return replay.profile.evaluate_win(ctx)
    except (NotWinningHand, InvalidHand):
        return None


def possible_fan_total(
    replay: HandReplay, seat: int, tile: int, *, self_drawn: bool, kong_win: bool, last_tile: bool
) -> int:
    """The fan total (flowers aside) of the win :func:`possible_win` finds for a tile the caller
    found among the hand's waits (``shaped``), -1 where it finds none, for a replay profile
    whose ``evaluate_win`` is ``win_score.guobiao_win`` (``standard_scoring``): the same
    calculator reading, with no WinContext, fan records, payments or result built (the decision
    judge asks only whether the win reaches the minimum)."""
    state = replay.state
    player = state.seats[seat]
    held = player.concealed
    for k in range(34, len(held)):
        if held[k]:
            return -1  # a flower still in hand: no win until it is set aside
    counts = held[:34]
    if self_drawn:
        if counts[tile] < 1:
            return -1
        counts[tile] -= 1
    melds = player.melds
    total = 0
    for k in range(34):
        total += counts[k]
    if total + 3 * len(melds) != 13:
        return -1
    others = state.visible[tile] - (0 if self_drawn else 1)
    hand = replay.hand
    try:
        return win_fan_total(
            counts, [(m.kind, m.tile, m.offer) for m in melds], tile, self_drawn=self_drawn,
            fourth_tile=others >= 3, kong_win=kong_win, last_tile=last_tile,
            seat_wind=hand.seat_wind(seat), round_wind=hand.prevalent_wind,
        )  # fmt: skip
    except (NotWinningHand, InvalidHand):
        return -1


@lru_cache(maxsize=8192)
def _waits(counts: tuple[int, ...], melds: tuple[Meld, ...]) -> int:
    """The kinds (a kinds mask, bit k for kind k) completing a 13 - 3 x melds hand (34 counts)
    in any Guobiao form, by shape. Cached: the three seats waiting for a discard keep their
    hands from one step to the next."""
    return waits_mask(counts, tuple(m.as_tuple() for m in melds))
