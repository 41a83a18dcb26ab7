"""MCR as played on mahjongsoft.com (PMN boards): one shared wall, flowers, standard or duplicate
scoring.

The 144-tile wall (flowers included) is shared: 52 tiles are dealt (13 a seat, flowers among
them), the other 92 are drawn in turn, kong and flower replacements included. East (seat 0)
deals and draws first. A flower is set aside (``flower``) and replaced by a tail draw; flowers
count 1 fan each (花牌). Scoring (reference guobiao.md): 8-fan minimum, a discard win is paid
8 + F by the discarder and 8 by each other seat, a self-draw 8 + F by each. Duplicate MCR lets
several seats win on one discard; how such a board is paid is not pinned down, so those scores
are not checked (``result.scores_unchecked``).
"""

from __future__ import annotations

from dataclasses import dataclass

from mjstats.records import Event, EventKind, Hand, PaymentReason
from mjstats.replay.profile import ComputedWin, ReplayProfile, SharedWall, Wall, WinContext
from mjstats.replay.replayer import HandReplay, register_profile
from mjstats.replay.state import Phase
from mjstats.rulesets.guobiao.replay_botzone import guobiao_win

__all__ = ["DUPLICATE", "MCR", "PMN_UNKNOWN", "McrProfile"]

WALL = 144
DEALT = 13


class McrReplay(HandReplay):
    """The neutral replay plus flowers: set aside, replaced from the wall, counted at the win."""

    def __init__(self, hand: Hand, profile: ReplayProfile, explain: bool) -> None:
        super().__init__(hand, profile, explain)
        self.handlers[EventKind.FLOWER] = self.on_flower
        self.flowers = [0, 0, 0, 0]
        self.owed_flower: set[int] = set()  # seats whose pending replacement is for a flower
        # after a flower set aside out of turn (dealt flowers), the turn it interrupted
        self.resume: dict[int, tuple[Phase, int, int | None]] = {}

    def flowers_of(self, seat: int) -> int:
        return self.flowers[seat]

    def on_flower(self, ev: Event) -> None:
        state, seat, tile = self.state, ev.seat, ev.tile
        if seat is None or tile is None:
            self.stop("a flower without a seat or tile")
        if not tile.is_flower:
            self.report("tile.not_allowed", f"seat {seat} sets aside {tile.botzone} as a flower",
                        "a flower", tile.botzone)
        self.take(seat, tile, 1, "tile.not_held", "sets aside")
        self.flowers[seat] += 1
        self.owed_flower.add(seat)
        if not (state.phase is Phase.DISCARD and state.actor == seat):
            self.resume[seat] = (state.phase, state.actor, state.drawn)
        # the seat now owes a replacement draw, like a konger
        state.phase, state.actor, state.drawn = Phase.KONG, seat, None

    def on_draw(self, ev: Event) -> None:
        flower_replacement = (
            self.state.phase is Phase.KONG and ev.seat == self.state.actor and ev.seat in self.owed_flower
        )
        super().on_draw(ev)
        if flower_replacement:
            self.owed_flower.discard(ev.seat)  # type: ignore[arg-type]
            self.state.after_kong = False  # a flower's replacement is no 杠上开花
            resume = self.resume.pop(ev.seat, None) if ev.seat is not None else None
            if resume is not None:
                self.state.phase, self.state.actor, self.state.drawn = resume

    def check_win_scores(self) -> None:
        """Scores against the rescored win: the recorded win payments (the ledger's ``win``
        part where a penalty sits beside it); several winners or an unknown scoring rule: said,
        not checked."""
        result = self.hand.result
        if not self.scored or not result.is_win:
            return
        rule = self.profile.scoring  # type: ignore[attr-defined]
        if rule is None:
            if result.scores is not None:
                self.report("result.scores_unchecked",
                            "the board names no Scoring: the scores are not checked")
            return
        if len(self.winners) > 1:
            super().check_win_scores()
            return
        if result.payments:
            recorded = [0, 0, 0, 0]
            for payment in result.payments:
                if payment.reason is PaymentReason.WIN:
                    recorded[payment.seat] += payment.score
            self.check_recorded(tuple(recorded), self.scored[0].payments)
        else:
            self.check_scores(self.scored[0].payments)

    def check_recorded(self, recorded: tuple[int, ...], expected: tuple[int, ...]) -> None:
        if recorded != tuple(expected):
            seats = [s for s in range(4) if recorded[s] != expected[s]]
            self.report(
                "result.scores",
                f"win payments of seats {seats} differ from the computed ones",
                " ".join(map(str, expected)),
                " ".join(map(str, recorded)),
            )


@dataclass(frozen=True)
class McrProfile(ReplayProfile):
    """MCR on one shared wall with flowers; ``scoring`` "mcr", "duplicate" or None (unknown)."""

    name: str = "mcr"
    ruleset: str = "guobiao"
    scoring: str | None = "mcr"
    num_kinds: int = 42  # flowers are dealt and drawn (then set aside)
    several_winners: bool = False  # type: ignore[misc]  # duplicate MCR: several may win

    def deal_size(self, hand: Hand, seat: int) -> int:
        return DEALT

    def first_to_draw(self, hand: Hand) -> bool:
        return True

    def new_wall(self, hand: Hand) -> Wall:
        return SharedWall(WALL - 4 * DEALT)

    def evaluate_win(self, ctx: WinContext) -> ComputedWin:
        return guobiao_win(ctx)

    @property
    def standard_scoring(self) -> bool:
        """Whether ``evaluate_win`` is ``guobiao_win`` itself (not overridden): as
        ``BotzoneProfile.standard_scoring``."""
        return type(self).evaluate_win is McrProfile.evaluate_win



McrProfile.replay_class = McrReplay

MCR = McrProfile()
DUPLICATE = McrProfile(name="duplicate", scoring="duplicate", several_winners=True)
PMN_UNKNOWN = McrProfile(name="pmn", scoring=None, several_winners=True)
for _profile in (MCR, DUPLICATE, PMN_UNKNOWN):
    register_profile("guobiao", _profile.name, _profile)
