"""The 2017 human-play platform (``--format human-tsv``): Guobiao with flowers on one wall.

Its rules as the logs show them (real-formats.md section 2; docs/formats.md): 144 tiles in one
wall, the dealer dealt 14 and discarding first, flowers set aside at once (at the deal, and in
play with a replacement draw), the whole wall drawn before the hand is drawn, wins scored as
Botzone does (8-fan minimum without flowers, duplicate scoring). The file records the winner's
gain, checked here as ``result.gain``; a 和牌 line with play after it is a declared win the
platform refused, judged as ``win.refused``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from mjstats.formats.human_tsv import DEAL_FLOWERS_META, GAIN_META, PROFILE
from mjstats.records import Event, EventKind, Hand, Outcome
from mjstats.replay.profile import ComputedWin, ReplayProfile, SharedWall, Wall, WinContext
from mjstats.replay.replayer import HandReplay, _t, register_profile
from mjstats.replay.state import Phase
from mjstats.rulesets.guobiao.possible_win import possible_win
from mjstats.rulesets.guobiao.replay_botzone import guobiao_win

__all__ = ["HUMAN2017", "Human2017Profile", "Human2017Replay"]

TILES = 144  # 136 + 8 flowers
DEALT = 13 * 4 + 1  # the dealer's 14th tile


def deal_flowers(hand: Hand) -> list[int]:
    """Flowers each seat set aside at the deal (Hand.meta ``deal_flowers``; 0 where absent)."""
    text = dict(hand.meta).get(DEAL_FLOWERS_META, "")
    parts = text.split(",") if text else []
    counts = [int(p) if p.strip().isdigit() else 0 for p in parts][:4]
    return counts + [0] * (4 - len(counts))


@dataclass(frozen=True)
class Human2017Profile(ReplayProfile):
    name: str = PROFILE
    ruleset: str = "guobiao"
    num_kinds: int = 42  # flowers are drawn (and set aside)

    replay_class: ClassVar[Any] = None  # set below (the class needs the profile's module)

    def deal_size(self, hand: Hand, seat: int) -> int:
        return 14 if seat == hand.dealer else 13

    def first_to_draw(self, hand: Hand) -> bool:
        return False

    def new_wall(self, hand: Hand) -> Wall:
        # the deal took 53 tiles plus a replacement for every flower set aside then
        return SharedWall(TILES - DEALT - sum(deal_flowers(hand)))

    def evaluate_win(self, ctx: WinContext) -> ComputedWin:
        return guobiao_win(ctx)

    @property
    def standard_scoring(self) -> bool:
        """Whether ``evaluate_win`` is ``guobiao_win`` itself (not overridden): as
        ``BotzoneProfile.standard_scoring``."""
        return type(self).evaluate_win is Human2017Profile.evaluate_win


class Human2017Replay(HandReplay):
    """The neutral replay plus flowers, the gain and refused declarations."""

    def __init__(self, hand: Hand, profile: ReplayProfile, explain: bool) -> None:
        super().__init__(hand, profile, explain)
        self.flowers = deal_flowers(hand)
        self.handlers[EventKind.FLOWER] = self.on_flower
        self.flower_owed: int | None = None  # the seat that owes replacement draws ...
        self.replacements = 0  # ... and how many (a line may set several flowers aside)
        plays = [ev.seq for ev in hand.events if ev.kind is not EventKind.IGNORED]
        self.final_seq = plays[-1] if plays else None

    # --- flowers -------------------------------------------------------------------------------
    def on_flower(self, ev: Event) -> None:
        state, seat, tile = self.state, ev.seat, ev.tile
        if seat is None or tile is None:
            self.stop("a flower without a seat or tile")
        if tile < 34:
            self.report(
                "flower.replacement", f"seat {seat} sets aside {_t(tile)}, not a flower", "a flower", _t(tile)
            )
        owing = self.flower_owed == seat and self.replacements > 0  # more flowers before the draws
        if not owing and (state.phase is not Phase.DISCARD or state.actor != seat):
            self.report(
                "flower.replacement",
                f"seat {seat} sets a flower aside out of turn",
                f"seat {state.actor}",
                f"seat {seat}",
            )
        self.take(seat, tile, 1, "flower.replacement", "sets aside")
        self.flowers[seat] += 1
        self.replacements = self.replacements + 1 if owing else 1
        self.flower_owed = seat
        state.actor = seat
        state.phase = Phase.KONG  # a replacement draw is owed, as after a kong
        state.drawn = None

    def expect_replacement(self, event: Event) -> None:
        owed = self.flower_owed
        if owed is None:
            super().expect_replacement(event)
            return
        if not (event.kind in (EventKind.DRAW, EventKind.FLOWER) and event.seat == owed):
            self.report(
                "flower.replacement",
                f"seat {owed} set a flower aside and drew no replacement",
                f"seat {owed} draws",
                event.kind.value,
            )
            self.flower_owed = None
            self.replacements = 0
            self.state.phase = Phase.DISCARD

    def on_draw(self, ev: Event) -> None:
        owed = self.flower_owed
        self.flower_owed = None
        super().on_draw(ev)
        if owed is not None and ev.seat == owed:
            # 杠上开花 is a win on the tile a kong brought in, "not counting flower replacements"
            # (the MCR rule's 不包括补花): a flower's replacement draw never gives it
            self.state.after_kong = False
            self.replacements -= 1
            if self.replacements > 0:  # more flowers of the same line still to replace
                self.flower_owed = owed
                self.state.phase = Phase.KONG

    # --- wins ------------------------------------------------------------------------------------
    def on_hu(self, ev: Event) -> None:
        if ev.seq != self.final_seq:
            self.declared_win(ev)
            return
        super().on_hu(ev)

    def declared_win(self, ev: Event) -> None:
        """A 和牌 line the game went on after: the platform refused it. Only a valid win (8 fan
        without flowers) makes that a finding; the table is left as it was."""
        state, seat = self.state, ev.seat
        if seat is None:
            self.stop("a win without a seat")
        phase, actor = state.phase, state.actor
        if phase is Phase.DISCARD and actor == seat and state.drawn is not None:
            how = (True, None, state.drawn, state.after_kong, state.wall.remaining(seat) == 0)
        elif phase in (Phase.CLAIM, Phase.ROBBABLE) and actor != seat and state.last_tile is not None:
            robbed = phase is Phase.ROBBABLE
            last = not robbed and state.wall.remaining(seat) == 0
            how = (False, actor, state.last_tile, robbed, last)
        else:
            return  # nothing to win on: the refusal was right
        self_drawn, discarder, tile, kong_win, last = how
        win = possible_win(
            self,
            seat,
            tile,
            self_drawn=self_drawn,
            discarder=discarder,
            kong_win=kong_win,
            last_tile=last,
            flowers=self.flowers[seat],
        )
        if win is not None and win.meets_minimum:
            self.report(
                "win.refused",
                f"seat {seat}'s win with {_t(tile)} ({win.total} fan) was refused",
                "the win accepted",
                "play went on",
            )

    def score_win(self, ctx: WinContext) -> None:
        ctx = replace(ctx, flowers=self.flowers[ctx.winner])
        self.context = ctx
        super().score_win(ctx)
        if self.win is not None:
            self.check_gain(self.win.payments[ctx.winner])

    def on_huang(self, ev: Event) -> None:
        super().on_huang(ev)
        if self.hand.result.outcome is Outcome.DRAW:
            self.check_gain(0)

    def check_gain(self, expected: int) -> None:
        recorded = dict(self.hand.meta).get(GAIN_META)
        if recorded is not None and recorded.strip() != str(expected):
            self.report(
                "result.gain", "the recorded gain differs from the computed payment", expected, recorded
            )


Human2017Profile.replay_class = Human2017Replay
HUMAN2017 = Human2017Profile()
register_profile("guobiao", PROFILE, HUMAN2017)
