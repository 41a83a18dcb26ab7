"""The Fuzhou replay profile: one wall with a tail, flowers, the gold, 抢金, 三金倒, 金雀 first.

Rules: reference fuzhou.md and seeds 000/003, switched by a rule profile (``seed``, ``platform``
or a user TOML; ``mjstats.rulesets.fuzhou.profiles``). The event grammar is the canonical format's
(docs/format.md) as the simulator writes it (``mjstats.rulesets.fuzhou.sim_game``):

- deals from the front of the wall, dealer first (17, the others 16);
- opening replacement rounds: from the dealer on, each seat holding flowers sets all of them
  aside (``flower``) and draws as many from the tail (``draw`` with ``tail``); flowers drawn
  meanwhile wait for the next round, which skips seats that drew none (seed 000);
- ``gold`` events: tiles turned up at the tail; a flower goes to the dealer (``s``) with no
  replacement draw, the first non-flower is the gold (``Hand.gold``);
- the dealer discards first; 抢金 is a ``hu`` with ``win = rob_gold`` right after that discard;
- a flower drawn in play is set aside at once and replaced from the tail;
- the face-up gold is the last drawable tile: a front draw that leaves the reserve (18 + 1 per
  exposed kong + 2 per concealed kong + 2 per complete flower group) untouched takes it;
- the last four drawable tiles are drawn one each in turn, with no discard and no flower
  replacement; then ``huang``.

With ``Hand.wall`` every dealt, drawn and turned-up tile is checked against the wall; without it
the wall is counted. Wins are rescored with ``settle_win`` (pattern, fan, payments).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import ClassVar

from mjstats.errors import InvalidHand, NotWinningHand, RuleError
from mjstats.records import Event, EventKind, Hand, Outcome, WinKind
from mjstats.replay.profile import (
    ComputedWin,
    ReplayProfile,
    SequenceCheck,
    Wall,
    WinContext,
)
from mjstats.replay.replayer import HandReplay, register_profile
from mjstats.replay.state import Phase
from mjstats.rulesets.fuzhou import (
    Profile,
    Settlement,
    claim_winner,
    flower_groups,
    gold_robber,
    load_profile,
    reserve_size,
)
from mjstats.rulesets.fuzhou.replay_scoring import FuzhouWinContext, computed_win, settle_context
from mjstats.rulesets.fuzhou.replay_streaks import FuzhouSequence
from mjstats.rulesets.fuzhou.replay_wall import FUZHOU_SET, FuzhouWall
from mjstats.rulesets.fuzhou.turns import (
    flower_round_order,
    is_final_draw,
    may_discard_gold,
    may_kong_now,
    may_win_on_discard,
)
from mjstats.rulesets.fuzhou.win import has_golden_dragon, has_golden_pair, is_winning_hand
from mjstats.tiles import ALL_KINDS

__all__ = [
    "FUZHOU_SET",
    "FuzhouReplay",
    "FuzhouReplayProfile",
    "FuzhouSequence",
    "FuzhouWall",
    "FuzhouWinContext",
    "computed_win",
    "fuzhou_profile",
    "settle_context",
]

DEALER_DEAL, OTHER_DEAL = 17, 16  # seed 000/003: 庄家拿17张牌，闲家16张


def _t(tile: int | None) -> str:
    return "-" if tile is None else ALL_KINDS[tile].botzone


# Stages of a Fuzhou hand before play (the generic Phase covers play itself).
_DEAL, _FLOWERS, _GOLD, _PLAY = "deal", "flowers", "gold", "play"


class FuzhouReplay(HandReplay):
    """The replay of one Fuzhou hand: the neutral turn checks plus flowers, the gold, the tail,
    the reserve and the final draws, the special wins and the Fuzhou claim priority."""

    def __init__(self, hand: Hand, profile: ReplayProfile, explain: bool) -> None:
        super().__init__(hand, profile, explain)
        assert isinstance(profile, FuzhouReplayProfile)
        self.rules = profile.rules
        self.flower_kinds = self.rules.flower_kinds
        self.wall: FuzhouWall = self.state.wall  # type: ignore[assignment]
        self.stage = _DEAL
        self.flowers: list[list[int]] = [[], [], [], []]
        self.groups = [0, 0, 0, 0]  # complete flower groups per seat
        self.gold: int | None = None
        self.kongs = [0, 0]  # exposed/added, concealed (all seats): the reserve grows with them
        self.discarded_gold = [False] * 4
        self.discards = 0
        self.dealer_start: tuple[int, ...] = ()  # the dealer's 17 tiles before its first discard
        self.rob_open = False  # right after the dealer's first discard (抢金)
        self.claimed_turn = False  # the acting seat chowed or punged this turn: no kong
        self.flower_owed: int | None = None  # seat that set a flower aside and owes a tail draw
        self.final_flower: int | None = None  # seat that set a flower aside in the final draws
        self.final = False  # the last drawable tiles are being drawn (no discard, no replacement)
        self.lenient = False  # the opening broke its order once: only account tiles after that
        self.round_order: list[int] = []
        self.round_need = 0
        self.round_set = 0
        self.round_drawn = 0
        self.pending: tuple[FuzhouWinContext, int, bool] | None = None  # (win, HU seq, on a discard)
        self.ignored_hu: list[int] = []
        self.handlers[EventKind.FLOWER] = self.on_flower
        self.handlers[EventKind.GOLD] = self.on_gold
        self.check_wall()

    # --- the wall and tile accounting ---------------------------------------------------------
    def check_wall(self) -> None:
        tiles = self.wall.tiles  # the recorded wall as ints (FuzhouReplayProfile.new_wall)
        if tiles is None:
            return
        if Counter(tiles) != FUZHOU_SET:
            self.report(
                "fuzhou.wall",
                "the recorded wall is not the 144-tile set (4 of each tile, 1 of each flower)",
                "144 tiles",
                f"{len(tiles)} tiles",
            )
            self.wall.tiles = None  # count only: the positions mean nothing

    def enter_play(self, seat: int, tile: int) -> bool:
        """A tile leaves the wall into ``seat``'s hand (flowers too, until set aside)."""
        self.see(tile)
        player = self.state.seats[seat]
        player.concealed[tile] += 1
        player.held += 1
        return True

    def see(self, tile: int) -> None:
        state = self.state
        state.seen[tile] += 1
        limit = 1 if tile >= 34 else 4
        if state.seen[tile] > limit:
            self.report(
                "tile.fifth_copy",
                f"copy {state.seen[tile]} of {_t(tile)} enters play",
                f"at most {limit}",
                state.seen[tile],
            )

    def check_wall_tile(self, expected: int | None, tile: int, where: str) -> None:
        if expected is not None and expected != tile:
            self.report("fuzhou.wall", f"the {where} is not the wall's tile", _t(expected), _t(tile))

    def update_reserve(self, flowers_of: int | None = None) -> None:
        """seed 003: the reserve grows with kongs and complete flower groups; ``flowers_of`` is
        the seat whose flowers just changed (a flower tile seen twice is a tile.fifth_copy
        finding; it is counted once here)."""
        if flowers_of is not None and len(self.flowers[flowers_of]) >= 4:  # a group has four
            counts = Counter(self.flowers[flowers_of])
            capped = Counter({t: min(n, 1 if t >= 34 else 4) for t, n in counts.items()})
            self.groups[flowers_of] = flower_groups(capped.elements(), self.rules)
        groups = sum(self.groups)
        self.wall.reserve = reserve_size(self.kongs[0], self.kongs[1], groups, self.rules)

    def held_flowers(self, seat: int) -> list[int]:
        held = self.state.seats[seat].concealed
        return [t for t in self.flower_kinds if held[t]]

    # --- the deal and the opening -------------------------------------------------------------
    def on_deal(self, ev: Event) -> None:
        expected = []
        for _ in ev.tiles:
            tile, _ = self.wall.take_front()
            expected.append(tile)
        if None not in expected and Counter(expected) != Counter(int(t) for t in ev.tiles):
            self.report(
                "fuzhou.wall",
                f"seat {ev.seat} is dealt other tiles than the front of the wall",
                " ".join(_t(t) for t in expected),
                " ".join(_t(t) for t in ev.tiles),
            )
        super().on_deal(ev)

    def end_deal(self) -> None:
        super().end_deal()
        self.start_round()

    def start_round(self) -> None:
        """seed 000: a replacement round, from the dealer on, of the seats holding flowers."""
        holding = [s for s in range(4) if self.held_flowers(s)]
        self.round_order = list(flower_round_order(self.hand.dealer, holding))
        self.round_set = self.round_drawn = 0
        if self.round_order:
            self.stage = _FLOWERS
            self.round_need = sum(
                self.state.seats[self.round_order[0]].concealed[t] for t in self.flower_kinds
            )
        else:
            self.stage = _GOLD

    def opening_fault(self, message: str, expected: object, recorded: object) -> None:
        if not self.lenient:
            self.report("fuzhou.flower_order", message, expected, recorded)
        self.lenient = True

    def opening_flower(self, ev: Event, seat: int, tile: int) -> None:
        current = self.round_order[0] if self.round_order else None
        if seat != current or self.round_set >= self.round_need:
            self.opening_fault(
                f"seat {seat} sets a flower aside out of the replacement order",
                f"seat {current}",
                f"seat {seat}",
            )
        self.set_aside(seat, tile)
        self.round_set += 1

    def opening_draw(self, ev: Event, seat: int, tile: int) -> None:
        current = self.round_order[0] if self.round_order else None
        if not ev.tail:
            self.report("fuzhou.draw_end", "a flower replacement comes from the tail", "tail", "front")
        if seat != current or self.round_drawn >= self.round_set:
            self.opening_fault(
                f"seat {seat} draws a replacement out of the replacement order",
                f"seat {current}" if self.round_drawn < self.round_set else f"seat {current} flower",
                f"seat {seat} draw",
            )
        self.check_wall_tile(
            self.wall.take_tail() if ev.tail else self.wall.take_front()[0], tile, "replacement"
        )
        self.enter_play(seat, tile)
        self.round_drawn += 1
        if not self.lenient and self.round_drawn == self.round_need:
            self.round_order.pop(0)
            self.round_set = self.round_drawn = 0
            if self.round_order:
                nxt = self.round_order[0]
                self.round_need = sum(self.state.seats[nxt].concealed[t] for t in self.flower_kinds)
            else:
                self.start_round()

    def set_aside(self, seat: int, tile: int) -> None:
        held = self.state.seats[seat]
        if tile not in self.flower_kinds or not held.concealed[tile]:
            what = "not a flower" if tile not in self.flower_kinds else "not held"
            self.report(
                "fuzhou.flower_order",
                f"seat {seat} sets {_t(tile)} aside: {what}",
                "a held flower",
                _t(tile),
            )
            if tile not in self.flower_kinds:
                return
        else:
            held.concealed[tile] -= 1
            held.held -= 1
        self.flowers[seat].append(tile)
        self.update_reserve(seat)

    def on_flower(self, ev: Event) -> None:
        self.rob_open = False
        seat, tile = ev.seat, ev.tile
        if seat is None or tile is None:
            self.stop("a flower without a seat or tile")
        if self.stage == _FLOWERS:
            self.opening_flower(ev, seat, tile)
            return
        state = self.state
        if self.stage != _PLAY or state.phase is not Phase.DISCARD or state.actor != seat:
            self.report(
                "fuzhou.flower_order",
                f"seat {seat} sets a flower aside out of turn",
                "the seat that drew it",
                f"seat {seat}",
            )
        self.set_aside(seat, tile)
        # seed 003: in the final draws no flower is replaced; otherwise a tail draw follows
        self.flower_owed = None if self.final else seat
        self.final_flower = seat if self.final else None
        state.drawn = None

    def on_gold(self, ev: Event) -> None:
        self.rob_open = False
        tile = ev.tile
        if tile is None:
            self.stop("a gold event without a tile")
        if self.stage == _FLOWERS:
            self.opening_fault(
                "the gold is turned up before the flower replacement is complete",
                f"seat {self.round_order[0] if self.round_order else '-'} replaces",
                "gold",
            )
        elif self.stage == _PLAY:
            self.report("fuzhou.gold_identity", "a second gold is turned up", "one gold", _t(tile))
        elif self.stage == _DEAL:
            self.stop("a gold before the deal")
        self.stage = _GOLD
        self.check_wall_tile(self.wall.take_tail(), tile, "tile turned up as gold")
        self.see(tile)
        dealer = self.hand.dealer
        if tile in self.flower_kinds:
            # seed 003 開金: a flower turned up goes to the dealer; the next tail tile is turned up,
            # no replacement draw (docs/fuzhou.md "The gold reveal": the dealer keeps 17 tiles)
            if ev.seat != dealer:
                self.report(
                    "fuzhou.gold_identity",
                    "a flower turned up as gold goes to the dealer",
                    f"seat {dealer}",
                    f"seat {ev.seat}",
                )
            self.flowers[dealer].append(tile)
            self.update_reserve(dealer)
            return
        self.gold = tile
        if self.hand.gold is None or int(self.hand.gold) != tile:
            self.report(
                "fuzhou.gold_identity", "Hand.gold is not the tile turned up", _t(tile), _t(self.hand.gold)
            )
        self.wall.gold = tile
        self.wall.gold_pending = self.rules.live_golds >= 4  # 3 live golds: the turned-up one is out
        self.stage = _PLAY

    def enter_play_stage(self, what: str) -> None:
        """Play met before the gold was turned up: report once and go on with Hand.gold."""
        if self.stage == _PLAY:
            return
        self.report("fuzhou.gold_identity", f"{what} before the gold is turned up", "gold", what)
        self.stage = _PLAY
        self.gold = None if self.hand.gold is None else int(self.hand.gold)

    # --- draws, discards, claims, kongs -------------------------------------------------------
    def on_draw(self, ev: Event) -> None:
        self.rob_open = False
        state, seat, tile = self.state, ev.seat, ev.tile
        if seat is None or tile is None:
            self.stop("a draw without a seat or tile")
        if self.stage == _FLOWERS:
            self.opening_draw(ev, seat, tile)
            return
        self.enter_play_stage("a draw")
        phase, actor = state.phase, state.actor
        kong_draw = False
        if self.final_flower == seat and ev.tail:
            self.report("fuzhou.final_draw", "a flower replaced in the final draws", "no replacement", "draw")
            expected, tail = seat, True
        elif self.flower_owed is not None:
            expected, tail = self.flower_owed, True
        elif phase in (Phase.KONG, Phase.ROBBABLE):
            expected, tail, kong_draw = actor, True, True
        elif phase is Phase.CLAIM or (phase is Phase.DISCARD and self.final):
            expected, tail = (actor + 1) % 4, False  # the next seat (in the final draws: no discard)
        else:
            self.report(
                "turn.sequence",
                f"seat {seat} draws while seat {actor} owes a discard",
                f"seat {actor} discards",
                f"seat {seat} draws",
            )
            expected, tail = seat, ev.tail
        if seat != expected:
            self.report("turn.order", f"seat {seat} draws out of turn", f"seat {expected}", f"seat {seat}")
        if ev.tail != tail:
            self.report(
                "fuzhou.draw_end",
                "turn draws come from the front, kong and flower replacements from the tail",
                "tail" if tail else "front",
                "tail" if ev.tail else "front",
            )
        wall = self.wall
        drawable = wall.drawable()
        if drawable <= 0:
            self.report(
                "fuzhou.reserve",
                f"seat {seat} draws into the reserve of {wall.reserve}",
                "huang",
                f"{wall.left()} left",
            )
        if not ev.tail and not self.final and is_final_draw(wall.left(), wall.reserve, self.rules):
            self.final = True  # seed 003: 所留出牌之前的四张牌为最后一组可摸之牌
        if ev.tail:
            self.check_wall_tile(wall.take_tail(), tile, "replacement draw")
            self.enter_play(seat, tile)
        else:
            expected_tile, was_gold = wall.take_front()
            if was_gold:  # the face-up gold, already counted when it was turned up
                self.check_wall_tile(expected_tile, tile, "last drawable tile (the face-up gold)")
                player = state.seats[seat]
                player.concealed[tile] += 1
                player.held += 1
            else:
                self.check_wall_tile(expected_tile, tile, "draw")
                self.enter_play(seat, tile)
        state.seats[seat].draws += 1
        state.phase = Phase.DISCARD
        state.actor = seat
        state.drawn = tile
        state.after_kong = kong_draw
        self.flower_owed = self.final_flower = None
        self.claimed_turn = False

    def on_discard(self, ev: Event) -> None:
        self.rob_open = False
        seat, tile = ev.seat, ev.tile
        if seat is None or tile is None:
            self.stop("a discard without a seat or tile")
        self.enter_play_stage("a discard")
        if self.final:
            self.report(
                "fuzhou.final_draw", f"seat {seat} discards in the final draws", "no discard", _t(tile)
            )
        if self.flower_owed is not None or self.held_flowers(seat):
            self.report(
                "fuzhou.flower_order",
                f"seat {seat} discards before replacing its flowers",
                "flowers set aside and replaced",
                _t(tile),
            )
        if tile == self.gold:
            self.discarded_gold[seat] = True
            if not may_discard_gold(self.rules):
                self.report(
                    "fuzhou.gold_discard",
                    f"seat {seat} discards a gold (profile {self.rules.name}: forbidden)",
                    "no gold discarded",
                    _t(tile),
                )
        first = self.discards == 0
        if first:
            self.dealer_start = self.state.seats[self.hand.dealer].concealed_tiles()
        self.flower_owed = None
        super().on_discard(ev)
        self.discards += 1
        self.rob_open = first and seat == self.hand.dealer
        self.claimed_turn = False

    def on_claim(self, ev: Event) -> None:
        self.rob_open = False
        self.enter_play_stage("a claim")
        state = self.state
        if state.phase is Phase.CLAIM and state.last_tile is not None and state.last_tile == self.gold:
            self.report(
                "fuzhou.gold_claimed",
                f"seat {ev.seat} claims a discarded gold ({ev.kind.value})",
                "no claim",
                ev.kind.value,
            )
        super().on_claim(ev)
        self.claimed_turn = ev.kind is not EventKind.GANG
        if ev.kind is EventKind.GANG:
            self.kongs[0] += 1
            self.update_reserve()

    def check_kong_timing(self, ev: Event) -> None:
        if not may_kong_now(self.claimed_turn) and ev.seat == self.state.actor:
            self.report(
                "fuzhou.kong_timing",
                f"seat {ev.seat} konges in the turn of its chow or pung",
                "a discard",
                ev.kind.value,
            )

    def on_concealed_kong(self, ev: Event) -> None:
        self.rob_open = False
        self.check_kong_timing(ev)
        super().on_concealed_kong(ev)
        self.kongs[1] += 1
        self.update_reserve()
        self.claimed_turn = False

    def on_added_kong(self, ev: Event) -> None:
        self.rob_open = False
        self.check_kong_timing(ev)
        super().on_added_kong(ev)
        self.kongs[0] += 1
        self.update_reserve()
        self.claimed_turn = False

    def on_ignored(self, ev: Event) -> None:
        if self.last_claim is not None and self.last_claim[0] == "hu" and ev.claim == "hu":
            if ev.seat is not None:
                self.ignored_hu.append(ev.seat)  # judged with the win, once all are known
            return
        super().on_ignored(ev)

    # --- the end of the hand --------------------------------------------------------------
    def on_huang(self, ev: Event) -> None:
        self.rob_open = False
        state = self.state
        if self.stage != _PLAY:
            self.report("hand.end", "Huang before play began", "play", "huang")
        if state.phase is Phase.DISCARD and not self.final and self.flower_owed is None:
            self.report(
                "turn.sequence",
                f"Huang while seat {state.actor} owes a discard",
                f"seat {state.actor} discards",
                "huang",
            )
        drawable = self.wall.drawable()
        if drawable > 0:
            self.report(
                "draw.not_exhausted",
                f"Huang with {drawable} tiles drawable before the reserve of {self.wall.reserve}",
                "no drawable tile",
                f"{drawable} drawable",
            )
        state.phase = Phase.ENDED
        if self.hand.result.outcome is not Outcome.DRAW:
            self.report(
                "result.outcome",
                "the events end in an exhaustive draw",
                "draw",
                self.hand.result.outcome.value,
            )
            return
        self.check_scores((0, 0, 0, 0))

    def completes_with_gold(self, seat: int) -> bool:
        player = self.state.seats[seat]
        if player.melds or self.gold is None:
            return False
        try:
            return is_winning_hand([*player.concealed_tiles(), self.gold], self.gold, profile=self.rules)
        except (InvalidHand, RuleError):
            return False

    def dealer_heavenly(self) -> bool:
        if len(self.dealer_start) != DEALER_DEAL or self.gold is None:
            return False
        try:
            return is_winning_hand(self.dealer_start, self.gold, profile=self.rules)
        except (InvalidHand, RuleError):
            return False

    def on_hu(self, ev: Event) -> None:
        state, seat = self.state, ev.seat
        if seat is None:
            self.stop("a win without a seat")
        rob_open = self.rob_open
        self.rob_open = False
        if self.stage != _PLAY:
            self.report("win.timing", f"seat {seat} wins before the gold is turned up", "play", "hu")
            self.stop("a win before play")
        phase, actor, gold = state.phase, state.actor, self.gold
        player = state.seats[seat]
        robbed_gold = heavenly = robbed_kong = False
        discarder: int | None = None
        in_hand = True  # the winning tile is already among the winner's tiles
        tile: int | None
        if ev.win is WinKind.ROB_GOLD:
            robbed_gold, tile, in_hand = True, gold, False
            if not rob_open:
                self.report(
                    "fuzhou.rob_gold",
                    "抢金 only right after the dealer's first discard",
                    "the dealer's first discard",
                    f"seat {seat} robs",
                )
            elif self.wall.gold_pending or self.rules.live_golds < 4:
                can = [s for s in range(4) if self.completes_with_gold(s)]
                first = gold_robber(self.hand.dealer, can, self.dealer_heavenly(), self.rules)
                if seat in can and first != seat:
                    self.report(
                        "fuzhou.rob_gold",
                        f"seat {seat} robs the gold before seat {first}"
                        if first is not None
                        else "the dealer's 天和 cancels robbing the gold",
                        f"seat {first}" if first is not None else "no 抢金",
                        f"seat {seat}",
                    )
            self.wall.gold_pending = False
        elif ev.win is WinKind.HEAVENLY:
            heavenly = True
            tile = ev.tile if ev.tile is not None and player.concealed[ev.tile] else state.drawn
            if (
                seat != self.hand.dealer
                or self.discards
                or state.seats[seat].draws
                or phase is not Phase.DISCARD
            ):
                self.report(
                    "win.timing",
                    "天和 is the dealer's win before its first discard",
                    "dealer, start",
                    f"seat {seat}",
                )
            if tile is None:
                tile = next((t for t in range(34) if player.concealed[t]), None)
        elif ev.win is WinKind.THREE_GOLDS:
            if phase is not Phase.DISCARD or actor != seat:
                self.report("win.timing", "三金倒 on one's own turn", f"seat {actor}", f"seat {seat}")
            tile = state.drawn if state.drawn is not None else ev.tile
            if gold is None or player.concealed[gold] < 3:
                self.report(
                    "fuzhou.three_golds",
                    f"seat {seat} declares 三金倒 without three golds",
                    "3 golds",
                    player.concealed[gold] if gold is not None else 0,
                )
            if tile is None or not player.concealed[tile]:
                tile = gold
        elif phase is Phase.DISCARD and actor == seat and state.drawn is not None:
            tile = state.drawn
        elif phase is Phase.CLAIM and actor != seat:
            discarder, tile, in_hand = actor, state.last_tile, False
            if tile is not None and tile == gold:
                self.report("fuzhou.gold_claimed", f"seat {seat} wins on a discarded gold", "no win", "hu")
            if not may_win_on_discard(self.discarded_gold[seat], self.rules):
                self.report(
                    "fuzhou.gold_discard_win",
                    f"seat {seat} discarded a gold and wins on a discard",
                    "self-draw only",
                    f"discard of seat {actor}",
                )
        elif phase is Phase.ROBBABLE and actor != seat:
            robbed_kong, discarder, tile, in_hand = True, actor, state.last_tile, False
        else:
            self.report(
                "win.timing",
                f"seat {seat} declares a win in phase {phase.value}",
                "own draw, another's discard or added kong",
                f"seat {seat} hu",
            )
            self.stop("a win with no winning tile")
        if tile is None:
            self.stop("a win with no winning tile")
        if self.held_flowers(seat):
            self.report(
                "fuzhou.flower_order", f"seat {seat} wins holding a flower", "flowers set aside", "hu"
            )
        state.phase = Phase.ENDED
        self.last_claim = ("hu", seat)
        self.claim_from = discarder if discarder is not None else seat
        scored_self = discarder is None or robbed_kong
        # 三金倒 and 天和 have no winning tile of their own: the tile named is not checked
        any_tile = ev.win in (WinKind.THREE_GOLDS, WinKind.HEAVENLY)
        self.check_win_record(
            ev, seat, discarder, tile, scored_self, robbed_kong,
            hu_names_tile=not any_tile, tile_recorded=not any_tile,
        )  # fmt: skip
        if not self.check_size(seat, self.full if in_hand else self.full - 1, "wins"):
            return
        concealed = list(player.concealed)
        if in_hand:
            concealed[tile] -= 1
        ctx = FuzhouWinContext(
            winner=seat,
            discarder=discarder,
            concealed=tuple(t for t, n in enumerate(concealed) for _ in range(n)),
            melds=tuple(player.melds),
            win_tile=tile,
            self_drawn=scored_self,
            fourth_tile=False,
            kong_win=robbed_kong or (state.after_kong and in_hand),
            last_tile=self.final,
            seat_wind=self.hand.seat_wind(seat),
            round_wind=self.hand.prevalent_wind,
            flowers=len(self.flowers[seat]),
            gold=gold if gold is not None else -1,
            flower_tiles=tuple(self.flowers[seat]),
            dealer=self.hand.dealer,
            streak=self.hand.streak,
            robbed_gold=robbed_gold,
            heavenly=heavenly,
        )
        self.pending = (ctx, ev.seq, discarder is not None and not robbed_kong)

    def is_golden(self, seat: int, tile: int) -> bool:
        """Whether ``seat`` would win ``tile`` with 金雀 or 金龙 (the claim that comes first)."""
        player = self.state.seats[seat]
        if self.gold is None:
            return False
        tiles = [*player.concealed_tiles(), tile]
        melds = [m.as_tuple() for m in player.melds]
        try:
            return has_golden_pair(tiles, self.gold, melds, profile=self.rules) or has_golden_dragon(
                tiles, self.gold, melds, profile=self.rules
            )
        except (InvalidHand, RuleError):
            return False

    def after_events(self) -> None:
        if self.stage != _PLAY and self.hand.events:
            self.report("fuzhou.gold_identity", "no gold was turned up", _t(self.hand.gold), "none")
        if self.pending is None:
            return
        ctx, seq, on_discard = self.pending
        self.seq = seq
        if self.ignored_hu:
            ctx = self.judge_claims(ctx, on_discard)
        self.context = ctx
        try:
            settlement = settle_context(ctx, self.rules)
        except (NotWinningHand, InvalidHand, RuleError) as exc:
            self.report(
                "win.not_winning", f"seat {ctx.winner}'s win does not stand: {exc}", "a winning hand", "hu"
            )
            return
        self.win = computed_win(settlement, self.rules)
        self.compare(settlement, self.win)
        self.seq = None

    def judge_claims(self, ctx: FuzhouWinContext, on_discard: bool) -> FuzhouWinContext:
        """截和 with 金雀 first (seed 003): of the seats that claimed the win, a 金雀/金龙 hand
        wins, else the nearest after the discarder; a 金雀/金龙 win over a nearer claimant is
        抢炮和 (the payment multiplies), on a discard only."""
        from_seat = self.claim_from
        claims = {s: "hu" for s in (ctx.winner, *self.ignored_hu) if s != from_seat}
        tile = ctx.win_tile
        golden = [s for s in claims if self.is_golden(s, tile)]
        try:
            decision = claim_winner(from_seat, claims, golden)
        except RuleError as exc:
            self.report("claim.priority", f"impossible claims on one tile: {exc}", "-", "-")
            return ctx
        if decision is None:
            return ctx
        if decision.seat != ctx.winner:
            self.report(
                "claim.priority",
                f"seat {ctx.winner} wins over seat {decision.seat} (截和: 金雀/金龙 first, "
                "then the nearest after the discarder)",
                f"seat {decision.seat}",
                f"seat {ctx.winner}",
            )
            return ctx
        if decision.jumped and on_discard:
            return _replace_jumped(ctx)
        return ctx

    def compare(self, s: Settlement, win: ComputedWin) -> None:
        """Recorded pattern, scoring items, fan total and scores against the settlement."""
        result = self.hand.result
        if result.outcome is not Outcome.WIN:
            return
        detailed = result.pattern is not None or bool(result.fans)
        if detailed and result.pattern != s.pattern:
            self.report(
                "fuzhou.pattern", "the recorded pattern differs", s.pattern or "-", result.pattern or "-"
            )
        if s.pattern is not None:
            for fan in result.fans:
                if fan.name == s.pattern and fan.points is not None and fan.points != s.pattern_points:
                    self.report(
                        "fuzhou.pattern",
                        f"the recorded points of {s.pattern} differ",
                        s.pattern_points,
                        fan.points,
                    )
        if result.fans:
            key = self.profile.fan_key
            computed = sorted((f.name, f.count) for f in win.fans)
            recorded = sorted((key(f.name), f.count) for f in result.fans)
            if computed != recorded:
                self.report(
                    "win.fans",
                    "the recorded scoring items differ from the recomputed ones",
                    "+".join(f"{n}*{c}" for n, c in computed) or "-",
                    "+".join(f"{n}*{c}" for n, c in recorded) or "-",
                )
        if result.fan_total is not None and result.fan_total != win.total:
            self.report("win.fan_total", "the recorded fan total differs", win.total, result.fan_total)
        self.check_scores(win.payments)


def _replace_jumped(ctx: FuzhouWinContext) -> FuzhouWinContext:
    from dataclasses import replace

    return replace(ctx, jumped=True)


@dataclass(frozen=True)
class FuzhouReplayProfile(ReplayProfile):
    """Fuzhou under one rule profile (``rules``): 17/16 dealt, the dealer discards first, one
    wall with a tail, 42 tile kinds (flowers), wins scored by ``settle_win``."""

    rules: Profile = field(default_factory=lambda: load_profile("seed"))
    name: str = "seed"
    ruleset: str = "fuzhou"
    num_kinds: int = 42
    hand_size: ClassVar[int] = 17  # seed 003: a winning hand is 17 tiles, kongs as 3
    replay_class: ClassVar[type[HandReplay]] = FuzhouReplay

    def deal_size(self, hand: Hand, seat: int) -> int:
        return DEALER_DEAL if seat == hand.dealer else OTHER_DEAL

    def first_to_draw(self, hand: Hand) -> bool:
        return False  # the dealer holds 17 and discards first

    def new_wall(self, hand: Hand) -> Wall:
        return FuzhouWall(None if hand.wall is None else tuple(int(t) for t in hand.wall))

    def evaluate_win(self, ctx: WinContext) -> ComputedWin:
        if not isinstance(ctx, FuzhouWinContext):
            raise InvalidHand("a Fuzhou win needs its gold, flowers and streak (FuzhouWinContext)")
        return computed_win(settle_context(ctx, self.rules), self.rules)

    def sequence_check(self) -> SequenceCheck:
        return FuzhouSequence(self.rules)


def fuzhou_profile(rules: Profile | str = "seed") -> FuzhouReplayProfile:
    """The Fuzhou replay profile of a rule profile (name, TOML path or Profile); its name (the
    rule profile's) is recorded with every audited hand."""
    prof = load_profile(rules)
    return FuzhouReplayProfile(rules=prof, name=prof.name)


for _name in ("seed", "platform"):
    register_profile("fuzhou", _name, fuzhou_profile(_name))
