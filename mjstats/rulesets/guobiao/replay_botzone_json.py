"""Botzone's own checks on top of the neutral replayer, for what the JSON match logs carry:
the wall (``wall.draw``), the judge's canHu values (``judge.can_hu``) and the judge's penalty
for a wrong action (``WA``). Hands without a wall or canHu values replay as before.
"""

from __future__ import annotations

from collections.abc import Callable

from mjstats.formats.botzone_json import CAN_HU_META, parse_can_hu
from mjstats.records import Event, EventKind, Hand, Outcome
from mjstats.replay.profile import ReplayProfile
from mjstats.replay.replayer import HandReplay, _t
from mjstats.replay.state import Phase
from mjstats.rulesets.guobiao.possible_win import possible_win

__all__ = ["PENALTY", "PENALTY_BONUS", "BotzoneReplay", "SeatWallTiles"]

PENALTY = 30  # botzone-format.md: a wrong action costs the offender 30 ...
PENALTY_BONUS = 10  # ... and pays each other player 10
WALL_PER_SEAT = 34
_PENALTY = EventKind.PENALTY  # looked up once: an enumeration's member costs a class look-up each time


class SeatWallTiles:
    """The four walls of ``Hand.wall``: seat s's is wall[34s:34s+34] in draw order (the JSON
    reader reverses Botzone's popped parts into that order; the simulator writes it so)."""

    def __init__(self, wall: tuple[int, ...]) -> None:
        self.walls = [wall[WALL_PER_SEAT * s : WALL_PER_SEAT * (s + 1)] for s in range(4)]
        self.next = [0, 0, 0, 0]

    def take(self, seat: int, n: int) -> list[int]:
        """The next ``n`` tiles of ``seat``'s wall (fewer when it runs out)."""
        start = self.next[seat]
        taken = list(self.walls[seat][start : start + n])
        self.next[seat] = start + len(taken)
        return taken


class BotzoneReplay(HandReplay):
    """The neutral replay plus the wall, canHu and penalty checks where the hand has them."""

    def __init__(self, hand: Hand, profile: ReplayProfile, explain: bool) -> None:
        super().__init__(hand, profile, explain)
        self.walls: SeatWallTiles | None = None
        if hand.wall is not None:
            if len(hand.wall) == 4 * WALL_PER_SEAT:
                self.walls = SeatWallTiles(tuple(hand.wall))
            else:
                self.report(
                    "wall.draw", f"the wall has {len(hand.wall)} tiles", 4 * WALL_PER_SEAT, len(hand.wall)
                )
        if self.walls is not None:  # without a wall the neutral handlers do it all (the hot path)
            self.handlers[EventKind.DEAL] = self.on_deal_from_wall
            self.handlers[EventKind.DRAW] = self.on_draw_from_wall
        self.handlers[_PENALTY] = self.on_penalty
        self.can_hu: dict[int, tuple[int, ...]] = {}
        text = dict(hand.meta).get(CAN_HU_META) if hand.meta else None
        if text:
            try:
                self.can_hu = parse_can_hu(text)
            except ValueError as exc:
                self.report(
                    "judge.can_hu", f"the canHu values cannot be read: {exc}", "seq:v,v,v,v", text[:40]
                )
        if self.can_hu:
            for kind, handler in list(self.handlers.items()):
                self.handlers[kind] = self.checking_can_hu(handler)

    # --- wall.draw -----------------------------------------------------------------------------
    def on_deal_from_wall(self, ev: Event) -> None:
        """The deal, checked against the seat's wall first (handler only when there is a wall)."""
        if self.walls is not None and ev.seat is not None and 0 <= ev.seat < 4:
            expected = self.walls.take(ev.seat, len(ev.tiles))
            # the deal is the seat's first pops; compared as a set of tiles (text records sort it)
            if sorted(expected) != sorted(ev.tiles):
                self.report(
                    "wall.draw",
                    f"seat {ev.seat}'s deal is not the first {len(ev.tiles)} tiles of its wall",
                    " ".join(_t(t) for t in expected),
                    " ".join(_t(t) for t in ev.tiles),
                )
        self.on_deal(ev)

    def on_draw_from_wall(self, ev: Event) -> None:
        """The draw, checked against the seat's wall first (handler only when there is a wall)."""
        if self.walls is not None and ev.seat is not None and 0 <= ev.seat < 4 and ev.tile is not None:
            taken = self.walls.take(ev.seat, 1)
            if taken and taken[0] != ev.tile:
                self.report(
                    "wall.draw",
                    f"seat {ev.seat} draws {_t(ev.tile)}, its wall's next tile is {_t(taken[0])}",
                    _t(taken[0]),
                    _t(ev.tile),
                )
        self.on_draw(ev)

    # --- WA ------------------------------------------------------------------------------------
    def on_penalty(self, ev: Event) -> None:
        """The judge stopped the hand for ``ev.seat``'s wrong action: -30 to it, +10 to the others."""
        state, seat = self.state, ev.seat
        if seat is None:
            self.stop("a penalty without a seat")
        state.phase = Phase.ENDED
        result = self.hand.result
        if result.outcome is not Outcome.PENALTY:
            self.report("result.outcome", "the events end in a penalty", "penalty", result.outcome.value)
            return
        self.check_scores(tuple(-PENALTY if s == seat else PENALTY_BONUS for s in range(4)))

    # --- judge.can_hu --------------------------------------------------------------------------
    def checking_can_hu(self, handler: Callable[[Event], None]) -> Callable[[Event], None]:
        def handle(ev: Event) -> None:
            handler(ev)
            values = self.can_hu.get(ev.seq)
            if values is not None:
                self.check_can_hu(ev, values)

        return handle

    def check_can_hu(self, ev: Event, values: tuple[int, ...]) -> None:
        """Compare the judge's canHu after ``ev`` with the win each seat could make there."""
        state = self.state
        eligible: dict[int, tuple[bool, int | None, bool, bool]] = {}  # seat -> how it would win
        tile = ev.tile
        seat = ev.seat
        # isWallLast (botzone-format.md): the wall of the seat after the last drawer/claimer is empty
        if ev.kind is EventKind.DRAW and seat is not None and tile is not None:
            last = state.wall.remaining((seat + 1) % 4) == 0
            eligible[seat] = (True, None, state.after_kong, last)
        elif ev.kind is EventKind.DISCARD and seat is not None and tile is not None:
            last = state.wall.remaining((seat + 1) % 4) == 0
            for other in range(4):
                if other != seat:
                    eligible[other] = (False, seat, False, last)
        elif ev.kind is EventKind.BUGANG and seat is not None and tile is not None:
            for other in range(4):
                if other != seat:
                    eligible[other] = (False, seat, True, False)
        for s, value in enumerate(values):
            how = eligible.get(s)
            if how is None:
                if value >= 0:
                    self.report(
                        "judge.can_hu",
                        f"the judge lets seat {s} win after {ev.kind.value}, where it cannot win",
                        "a negative value",
                        value,
                    )
                continue
            self_drawn, discarder, kong_win, last = how
            assert tile is not None
            win = possible_win(
                self, s, tile, self_drawn=self_drawn, discarder=discarder, kong_win=kong_win, last_tile=last
            )
            if value >= 0 and (win is None or win.total != value):
                self.report(
                    "judge.can_hu",
                    f"the judge gives seat {s} a win of {value} fan with {_t(tile)}",
                    "no win" if win is None else win.total,
                    value,
                )
            elif value < 0 and win is not None and win.meets_minimum:
                self.report(
                    "judge.can_hu",
                    f"seat {s} could win with {_t(tile)} for {win.total} fan; the judge says no",
                    win.total,
                    value,
                )
