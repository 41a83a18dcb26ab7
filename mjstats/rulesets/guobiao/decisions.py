"""Guobiao's answers to the decision judge (mjstats.decision): shanten and useful kinds on the
regular form and 七对 (the forms players aim at), waits in every winning form, the 8-fan minimum.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from mjstats.decision.view import Counts, KindsMask, RulesetView
from mjstats.replay.profile import Meld
from mjstats.rulesets.guobiao.incremental import (
    guobiao_discard_shanten,
    guobiao_shanten,
    guobiao_turn,
    guobiao_useful_after_discards,
    guobiao_useful_mask,
)
from mjstats.rulesets.guobiao.possible_win import possible_fan_total, possible_win
from mjstats.rulesets.guobiao.shape import GuobiaoShape
from mjstats.rulesets.guobiao.waits import special_may_wait, waits_by_parts, waits_mask

if TYPE_CHECKING:
    from mjstats.replay.replayer import HandReplay

__all__ = ["VIEW"]

MeldKey = tuple[tuple[str, int, int], ...]
_GUOBIAO = GuobiaoShape()
_CACHE = 1 << 16
_MINIMUM = 8  # reference guobiao.md: a win needs 8 fan (flowers aside)


@lru_cache(maxsize=_CACHE)
def _guobiao_shanten(counts: Counts, melds: int) -> int:
    # reference guobiao.md: 4 melds + pair or 七对 (the forms the simulator's bots aim at)
    return _GUOBIAO.shanten(list(counts), melds)


def _most_copies(counts: Counts) -> int:
    """The most copies of one kind in ``counts``: a native loop (``max()`` iterates boxed ints
    through a generic call)."""
    top = 0
    for k in range(len(counts)):
        n = counts[k]
        if n > top:
            top = n
    return top


def _meld_key(melds: Sequence[Meld]) -> MeldKey:
    """The melds as (kind, tile, offer) tuples, read field by field (``Meld.as_tuple`` is a
    Python method: compiled, a call into the interpreter a meld)."""
    return tuple([(m.kind, m.tile, m.offer) for m in melds])


def _guobiao_waits(counts: Counts, melds: MeldKey) -> KindsMask:
    """Kinds (a kinds mask) completing a 13 - 3m Guobiao hand in any winning form (十三幺 and the
    knitted forms included), by shape."""
    return waits_mask(counts, melds)


def _gb_legal_win(replay: HandReplay, seat: int, tile: int, self_drawn: bool, discarder: int | None) -> bool:
    return _legal_win(replay, seat, tile, self_drawn, discarder, False)


def _gb_shaped_win(replay: HandReplay, seat: int, tile: int, self_drawn: bool, discarder: int | None) -> bool:
    """``_gb_legal_win`` of a tile the judge found among the waits of the hand without it."""
    return _legal_win(replay, seat, tile, self_drawn, discarder, True)


def _legal_win(
    replay: HandReplay, seat: int, tile: int, self_drawn: bool, discarder: int | None, shaped: bool
) -> bool:
    """A legal win worth the minimum. ``shaped``: the caller found a self-drawn ``tile`` among
    the waits of the hand before the draw (they are not asked again)."""
    state = replay.state
    if self_drawn and not shaped:
        # the shape first, on the waits the judge asked for this hand before the draw (as an
        # opponent of the previous discard): the same kinds possible_win's own filter finds
        player = state.seats[seat]
        before = list(player.concealed[:34])
        if before[tile] < 1:
            return False
        before[tile] -= 1
        if not _guobiao_waits(tuple(before), _meld_key(player.melds)) >> tile & 1:
            return False
    # 海底: the seat after the one who just drew or discarded has nothing left to draw
    after = seat if self_drawn else discarder if discarder is not None else seat
    last = state.wall.remaining((after + 1) % 4) == 0
    kong_win = self_drawn and state.after_kong
    # shaped: a self-drawn tile was found among the waits; a discard is asked of the view only
    # where the judge found it among the waits it holds (``wins_need_waits``), and asked of any
    # other tile the calculator says no as the shape would (NotWinningHand), more slowly
    if getattr(replay.profile, "standard_scoring", False):
        # the profile scores by guobiao_win itself: only the calculator's total is needed, no
        # WinContext, fan records, payments or result (each win asked here is a new position)
        total = possible_fan_total(
            replay, seat, tile, self_drawn=self_drawn, kong_win=kong_win, last_tile=last
        )
        return total >= _MINIMUM
    win = possible_win(
        replay, seat, tile, self_drawn=self_drawn, discarder=discarder,
        kong_win=kong_win, last_tile=last, shaped=True,
    )  # fmt: skip
    return win is not None and win.meets_minimum  # reference guobiao.md: 8 fan at least


VIEW = RulesetView(
    name="guobiao",
    size=13,
    # the part tables' shanten (a record's fifth copy goes to the engine's own)
    shanten=lambda replay, counts, melds: (
        guobiao_shanten(counts, melds) if _most_copies(counts) <= 4 else _guobiao_shanten(counts, melds)
    ),
    useful=lambda replay, counts, melds: guobiao_useful_mask(counts, melds),
    discard_shanten=lambda replay, counts, melds, kinds: guobiao_discard_shanten(counts, melds, kinds),
    waits=lambda replay, counts, melds: _guobiao_waits(counts, _meld_key(melds)),
    legal_win=_gb_legal_win,
    shaped_win=_gb_shaped_win,
    may_discard=None,  # any held tile
    may_claim=lambda replay, tile: True,
    face_up=lambda replay: (),
    # the view's default, compiled here: asked at every discard, an interpreted lambda called
    # from the compiled judge costs a Python frame each time
    ready=lambda replay: True,
    useful_after=lambda replay, counts, melds, kinds: guobiao_useful_after_discards(counts, melds, kinds),
    turn=lambda replay, counts, melds: guobiao_turn(counts, melds),
    wins_need_waits=True,  # every Guobiao form is a shape the waits list
    far_waits=special_may_wait,
    # at shanten 0 a hand waits_mask answers from the part tables waits on its useful kinds
    waits_are_useful=lambda counts, melds: waits_by_parts(counts, _meld_key(melds)),
)
