"""One simulated Fuzhou hand (reference fuzhou.md, seed documents 000 and 003), any profile.

The wall model (what ``Hand.wall`` means; docs/simulation.md "Fuzhou wall"): the 144 tiles in
shuffled order, front first. Deals and ordinary draws take tiles from the front, replacements
(flowers, kongs) and the gold reveal from the tail (the last tile of the list first). The
turned-up gold is laid face up on the 9th stack from the tail and moves forward as the tail is
used (seed 003), i.e. it is always the last drawable tile: it is drawn by whoever makes the last
draw before the reserve (``turns.reserve_size``). Under a profile with three live golds the
turned-up tile is out of play.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from dataclasses import dataclass

from mjstats.errors import RuleError
from mjstats.records import Event, EventKind, FanEntry, Hand, Outcome, Result, WinKind
from mjstats.rulesets.fuzhou import (
    DealerState,
    Profile,
    Settlement,
    claim_winner,
    flower_groups,
    gold_robber,
    load_profile,
    next_dealer,
    reserve_size,
    settle_win,
)
from mjstats.rulesets.fuzhou.settle import scoring_items
from mjstats.rulesets.fuzhou.shape import FuzhouShape
from mjstats.rulesets.fuzhou.turns import (
    CLAIM_RANK,
    flower_round_order,
    is_exhausted,
    is_final_draw,
    may_chow,
    may_claim_discard,
    may_discard_gold,
    may_win_on_discard,
)
from mjstats.rulesets.fuzhou.win import has_golden_dragon, has_golden_pair
from mjstats.sim.bots import Bot, Style
from mjstats.sim.rig import Rig, best_useful, colluding_discard
from mjstats.sim.table import Table
from mjstats.sim.walls import dice, shuffled_wall
from mjstats.tiles import ALL_KINDS

__all__ = [
    "DEFAULT_STYLES",
    "HANDS_PER_MATCH",
    "WALL_SET",
    "FuzhouSetting",
    "checked_profile",
    "play_fuzhou_hand",
    "play_hands",
]

# reference fuzhou.md: 144 tiles, four of each of the 34 kinds plus the eight flowers H1-H8
# (codes 34-41) once.
WALL_SET: tuple[int, ...] = tuple(t for t in range(34) for _ in range(4)) + tuple(range(34, 42))
HANDS_PER_MATCH = 8  # a Fuzhou "8 局" room
DEFAULT_STYLES = ("greedy", "defensive", "goldkeeper", "goldthrower")  # the seats' styles by default

DEALT = 16  # seed 003: 16 each, the dealer one more
_T = ALL_KINDS
LATE = 16  # drawable tiles below which the gold keeper stops holding out


@dataclass(frozen=True, slots=True)
class FuzhouSetting:
    """Everything about a hand that is fixed before the shuffle."""

    match_id: str
    hand_no: int
    dealer: int
    streak: int
    prevalent_wind: int
    players: tuple[str, ...]
    styles: tuple[Style, ...]
    started_at: str
    profile: Profile


class _End(Exception):
    """The hand is over (a win or the exhaustive draw has been recorded)."""


class _Game:
    def __init__(
        self,
        setting: FuzhouSetting,
        rng: random.Random,
        rig: Rig | None = None,
        rig_rng: random.Random | None = None,
    ) -> None:
        self.setting = setting
        self.rig = rig if rig is not None and rig.active else None
        self.rig_rng = rig_rng
        self.rigged_draws = 0
        self.profile = setting.profile
        self.flower_kinds = self.profile.flower_kinds
        self.dice = dice(rng)
        self.wall = shuffled_wall(rng, WALL_SET)
        self.front = 0
        self.back = len(self.wall)
        self.gold_pending = False  # the face-up gold waits as the last drawable tile
        self.gold = -1
        self.table = Table()
        self.events: list[Event] = []
        self.result: Result | None = None
        self.exposed_kongs = 0
        self.concealed_kongs = 0
        self.groups = 0
        self.bots: list[Bot] = []
        self.shape: FuzhouShape | None = None

    # --- the wall ------------------------------------------------------------------------------
    def wall_left(self) -> int:
        return self.back - self.front + (1 if self.gold_pending else 0)

    def reserve(self) -> int:
        return reserve_size(self.exposed_kongs, self.concealed_kongs, self.groups, self.profile)

    def drawable(self) -> int:
        return self.wall_left() - self.reserve()

    def take_front(self) -> int:
        if self.gold_pending and self.drawable() == 1:
            self.gold_pending = False
            return self.gold
        tile = self.wall[self.front]
        self.front += 1
        return tile

    def take_tail(self) -> int:
        self.back -= 1
        return self.wall[self.back]

    # --- recording -----------------------------------------------------------------------------
    def emit(self, kind: EventKind, seat: int | None = None, tile: int | None = None, **kw: object) -> None:
        self.events.append(Event(len(self.events), kind, seat, None if tile is None else _T[tile], **kw))  # type: ignore[arg-type]

    def set_flower(self, seat: int, tile: int) -> None:
        p = self.table.seats[seat]
        p.flowers.append(tile)
        self.emit(EventKind.FLOWER, seat, tile)
        self.groups = sum(flower_groups(s.flowers, self.profile) for s in self.table.seats)

    def huang(self) -> None:
        self.emit(EventKind.HUANG)
        self.result = Result(Outcome.DRAW, scores=(0, 0, 0, 0))
        raise _End

    # --- setup ---------------------------------------------------------------------------------
    def deal(self) -> dict[int, list[int]]:
        dealer = self.setting.dealer
        held: dict[int, list[int]] = {}
        for i in range(4):
            seat = (dealer + i) % 4
            n = DEALT + (1 if i == 0 else 0)
            tiles = self.wall[self.front : self.front + n]
            self.front += n
            self.events.append(
                Event(len(self.events), EventKind.DEAL, seat, tiles=tuple(_T[t] for t in tiles))
            )
            p = self.table.seats[seat]
            for t in tiles:
                if t in self.flower_kinds:
                    held.setdefault(seat, []).append(t)
                else:
                    p.counts[t] += 1
        return held

    def replace_opening_flowers(self, held: dict[int, list[int]]) -> None:
        """seed 000: from the dealer on, each sets aside all flowers and replaces them from the
        tail; flowers drawn meanwhile wait for the next round, which skips those who drew none."""
        while held:
            drawn: dict[int, list[int]] = {}
            for seat in flower_round_order(self.setting.dealer, held):
                flowers = sorted(held[seat])
                for f in flowers:
                    self.set_flower(seat, f)
                for _ in flowers:
                    t = self.take_tail()
                    self.emit(EventKind.DRAW, seat, t, tail=True)
                    if t in self.flower_kinds:
                        drawn.setdefault(seat, []).append(t)
                    else:
                        self.table.seats[seat].counts[t] += 1
            held = drawn

    def reveal(self) -> None:
        """Turn up the gold from the tail (seed 000/003). A flower turned up goes to the dealer's
        flowers and the next tail tile is turned up. The dealer draws no replacement for it: the
        flower never took a place in the hand, and a replacement would leave the dealer 18
        tiles (docs/simulation.md, docs/fuzhou.md "The gold reveal", ``turns.reveal_gold``)."""
        dealer = self.setting.dealer
        while True:
            t = self.take_tail()
            if t not in self.flower_kinds:
                self.emit(EventKind.GOLD, None, t)
                break
            self.emit(EventKind.GOLD, dealer, t)
            self.table.seats[dealer].flowers.append(t)
        self.groups = sum(flower_groups(s.flowers, self.profile) for s in self.table.seats)
        self.gold = t
        self.gold_pending = self.profile.live_golds >= 4
        self.table.gold = t
        self.shape = FuzhouShape(t)
        gold_ok = may_discard_gold(self.profile)
        self.bots = [Bot(self.setting.styles[s], self.shape, s, self.table, gold_ok) for s in range(4)]
        for s in range(4):
            self.update_standing(s)

    # --- wins ----------------------------------------------------------------------------------
    def update_standing(self, seat: int) -> None:
        p = self.table.seats[seat]
        assert self.shape is not None
        if sum(p.counts) % 3 == 1:
            p.standing = self.shape.shanten(p.counts, len(p.melds))

    def settle(
        self,
        seat: int,
        win_tile: int,
        *,
        self_drawn: bool,
        discarder: int | None = None,
        robbed_gold: bool = False,
        heavenly: bool = False,
        jumped: bool = False,
        in_hand: bool = True,
    ) -> Settlement:
        """The engine's settlement; ``in_hand``: the winning tile is already in the counts."""
        p = self.table.seats[seat]
        if in_hand:
            p.counts[win_tile] -= 1
        hand = p.tiles()
        if in_hand:
            p.counts[win_tile] += 1
        return settle_win(
            hand,
            p.melds,
            self.gold,
            win_tile,
            self_drawn,
            p.flowers,
            seat,
            self.setting.dealer,
            discarder=discarder,
            streak=self.setting.streak,
            profile=self.profile,
            robbed_gold=robbed_gold,
            heavenly=heavenly,
            jumped_claim=jumped,
        )

    def finish(
        self, seat: int, tile: int, s: Settlement, *, win: WinKind | None = None, from_seat: int | None = None
    ) -> None:
        self.emit(EventKind.HU, seat, tile, from_seat=from_seat, win=win)
        fan = s.fan
        fans = [FanEntry(*item) for item in scoring_items(s, self.profile)]
        self.result = Result(
            Outcome.WIN,
            winner=seat,
            loser=from_seat,
            win_tile=_T[tile],
            self_drawn=s.self_drawn,
            fan_total=fan.total,
            fans=tuple(fans),
            scores=s.payments,
            pattern=s.pattern,
        )
        raise _End

    def complete_with(self, seat: int, tile: int) -> bool:
        p = self.table.seats[seat]
        if p.standing > 0:
            return False
        assert self.shape is not None
        p.counts[tile] += 1
        done = self.shape.complete(p.counts, len(p.melds))
        p.counts[tile] -= 1
        return done

    # --- turns ---------------------------------------------------------------------------------
    def draw_replacing(self, seat: int, tail: bool) -> int:
        """Draw (front or tail); flowers are set aside and replaced from the tail at once."""
        if not tail and self.rig is not None and seat == self.rig.draw_seat:
            self.rig_draw(seat)
        t = self.take_tail() if tail else self.take_front()
        self.emit(EventKind.DRAW, seat, t, tail=tail)
        while t in self.flower_kinds:
            self.set_flower(seat, t)
            if self.wall_left() <= self.reserve():
                self.huang()  # nothing left to replace the flower with
            t = self.take_tail()
            self.emit(EventKind.DRAW, seat, t, tail=True)
        self.table.seats[seat].counts[t] += 1
        return t

    def self_draw_win(self, seat: int, tile: int) -> None:
        """Win on one's own tile if the rules allow it (三金倒 first: seed 003 立刻和牌)."""
        p = self.table.seats[seat]
        assert self.shape is not None
        if p.counts[self.gold] >= 3:
            self.finish(seat, tile, self.settle(seat, tile, self_drawn=True), win=WinKind.THREE_GOLDS)
        if p.standing <= 0 and self.shape.complete(p.counts, len(p.melds)):
            golden = p.counts[self.gold] >= 2 and self.golden_tiles(p.tiles(), p.melds)
            if self.bots[seat].wants_win(False, golden, self.drawable() < LATE):
                self.finish(seat, tile, self.settle(seat, tile, self_drawn=True))

    def own_turn(self, seat: int, tile: int) -> None:
        """After a draw: win, or kong (replacement from the tail) as the bot likes; repeats."""
        final = self.profile.final_draws
        while True:
            self.self_draw_win(seat, tile)
            p = self.table.seats[seat]
            bot = self.bots[seat]
            konged = False
            for t in range(34):
                if (
                    t != self.gold
                    and p.counts[t] == 4
                    and self.drawable() - 3 > final + 1
                    and bot.wants_own_kong(t, concealed=True)
                ):
                    p.counts[t] = 0
                    p.melds.append(("GANG", t, 0))
                    self.concealed_kongs += 1
                    self.emit(EventKind.ANGANG, seat, t)
                    konged = True
                    break
            if not konged:
                for i, (kind, t, offer) in enumerate(p.melds):
                    if (
                        kind == "PENG"
                        and p.counts[t]
                        and self.drawable() - 2 > final + 1
                        and bot.wants_own_kong(t, concealed=False)
                    ):
                        p.counts[t] -= 1
                        p.melds[i] = ("GANG", t, offer)
                        self.exposed_kongs += 1
                        self.table.visible[t] += 1
                        self.emit(EventKind.BUGANG, seat, t)
                        self.update_standing(seat)
                        self.rob_kong(seat, t)
                        konged = True
                        break
            if not konged:
                return
            self.update_standing(seat)
            tile = self.draw_replacing(seat, tail=True)

    def rob_kong(self, konger: int, tile: int) -> None:
        """Robbing an added kong (reference fuzhou.md: allowed, scored as a self-draw)."""
        claims: dict[int, str] = {}
        golden = []
        for d in (1, 2, 3):
            s = (konger + d) % 4
            if self.complete_with(s, tile):
                claims[s] = "hu"
                if self.is_golden(s, tile):
                    golden.append(s)
        if not claims:
            return
        decision = claim_winner(konger, claims, golden)
        assert decision is not None
        settlement = self.settle(decision.seat, tile, self_drawn=True, in_hand=False)
        others = sorted((s for s in claims if s != decision.seat), key=lambda s: (s - konger) % 4)
        self.table.seats[decision.seat].counts[tile] += 1
        try:
            self.finish(decision.seat, tile, settlement, win=WinKind.ROB_KONG, from_seat=konger)
        finally:
            for s in others:
                self.emit(EventKind.IGNORED, s, tile, claim="hu")

    def is_golden(self, seat: int, tile: int) -> bool:
        """Whether ``seat``'s hand with ``tile`` added wins as 金雀 or 金龙 (claim priority)."""
        p = self.table.seats[seat]
        return self.golden_tiles([*p.tiles(), tile], p.melds)

    def golden_tiles(self, tiles: list[int], melds: list[tuple[str, int, int]]) -> bool:
        prof = self.profile
        return has_golden_pair(tiles, self.gold, melds, profile=prof) or has_golden_dragon(
            tiles, self.gold, melds, profile=prof
        )

    def discard(self, seat: int) -> int:
        p = self.table.seats[seat]
        tile = self.bots[seat].discard()
        if self.rig is not None and self.rig.partner(seat) is not None:
            tile = self.colluding(seat, tile)
        p.counts[tile] -= 1
        p.river.append(tile)
        self.table.visible[tile] += 1
        if tile == self.gold:
            p.discarded_gold = True
        self.emit(EventKind.DISCARD, seat, tile)
        self.update_standing(seat)
        return tile

    def rob_gold(self) -> None:
        """抢金 after the dealer's first discard (seed 003): the face-up gold completes a hand."""
        if self.profile.live_golds < 4:
            return
        can = [s for s in range(4) if self.complete_with(s, self.gold)]
        seat = gold_robber(self.setting.dealer, can, False, self.profile)
        if seat is None:
            return
        self.gold_pending = False
        settlement = self.settle(seat, self.gold, self_drawn=True, robbed_gold=True, in_hand=False)
        self.table.seats[seat].counts[self.gold] += 1
        self.finish(seat, self.gold, settlement, win=WinKind.ROB_GOLD)

    def claims(self, seat: int, tile: int) -> tuple[int, str] | None:
        """Claims on ``seat``'s discard; records the winning one. None: nobody claims."""
        if not may_claim_discard(tile, self.gold):
            return None  # seed 003: nobody chows, pungs, kongs or wins on a discarded gold
        table = self.table
        claims: dict[int, str] = {}
        data: dict[int, int] = {}
        golden: list[int] = []
        final = self.profile.final_draws
        late = self.drawable() < LATE
        for d in (1, 2, 3):
            s = (seat + d) % 4
            q = table.seats[s]
            bot = self.bots[s]
            if may_win_on_discard(q.discarded_gold, self.profile) and self.complete_with(s, tile):
                try:
                    self.settle(s, tile, self_drawn=False, discarder=seat, in_hand=False)
                    allowed = True
                except RuleError:  # e.g. a 闲金 hand that must self-draw (platform profile)
                    allowed = False
                is_golden = allowed and self.is_golden(s, tile)
                if allowed and bot.wants_win(True, is_golden, late):
                    claims[s] = "hu"
                    if is_golden:
                        golden.append(s)
                    continue
            n = q.counts[tile]
            if n == 3 and self.drawable() - 2 > final + 1 and bot.wants_exposed_kong(tile):
                claims[s] = "gang"
                continue
            if n >= 2 and bot.wants_pung(tile):
                claims[s] = "peng"
                continue
            if may_chow(s, seat) and tile < 27:
                middles = [
                    m
                    for m in (tile - 1, tile, tile + 1)
                    if m // 9 == tile // 9
                    and 1 <= m % 9 <= 7
                    and all(q.counts[x] and x != self.gold for x in (m - 1, m, m + 1) if x != tile)
                ]
                if middles:
                    middle = bot.chi_choice(tile, middles)
                    if middle is not None:
                        claims[s] = "chi"
                        data[s] = middle
        decision = claim_winner(seat, claims, golden)
        if decision is None:
            return None
        s, kind = decision.seat, decision.kind
        q = table.seats[s]
        others = sorted(
            (o for o in claims if o != s),
            key=lambda o: (-CLAIM_RANK[claims[o]], (o - seat) % 4),
        )
        try:
            if kind == "hu":
                settlement = self.settle(
                    s, tile, self_drawn=False, discarder=seat, jumped=decision.jumped, in_hand=False
                )
                q.counts[tile] += 1
                self.finish(s, tile, settlement, from_seat=seat)
            elif kind == "chi":
                middle = data[s]
                table.claim(s, kind, tile, seat, middle)
                self.emit(EventKind.CHI, s, middle, from_seat=seat, claimed=_T[tile])
            else:
                table.claim(s, kind, tile, seat)
                if kind == "gang":
                    self.exposed_kongs += 1
                self.emit(EventKind.GANG if kind == "gang" else EventKind.PENG, s, tile, from_seat=seat)
        finally:
            for o in others:
                shown = data[o] if claims[o] == "chi" else tile
                self.emit(EventKind.IGNORED, o, shown, claim=claims[o])
        return (s, kind)

    # --- rigged play (mjstats.sim.rig; never used by a fair simulation) ------------------------
    def rig_draw(self, seat: int) -> None:
        """With the rig's probability, swap the seat's best useful tile still in the wall (front
        to tail, the face-up gold excepted) into the front position it is about to draw."""
        assert self.rig is not None and self.rig_rng is not None and self.shape is not None
        if self.rig_rng.random() >= self.rig.draw_p:
            return
        if self.gold_pending and self.drawable() == 1:
            return  # the next front draw is the face-up gold itself
        places: dict[int, int] = {}
        for i in range(self.front, self.back):
            places.setdefault(self.wall[i], i)
        available = [1 if k in places else 0 for k in range(34)]
        p = self.table.seats[seat]
        best = best_useful(p.counts, len(p.melds), available, self.shape)
        if best is None:
            return
        i = places[best]
        self.wall[i], self.wall[self.front] = self.wall[self.front], self.wall[i]
        self.rigged_draws += 1

    def colluding(self, seat: int, choice: int) -> int:
        """A colluder's discard: feed the partner (mjstats.sim.rig.colluding_discard); a gold is
        never fed (nobody may claim a discarded gold)."""
        assert self.rig is not None and self.shape is not None
        partner = self.rig.partner(seat)
        assert partner is not None
        p, q = self.table.seats[seat], self.table.seats[partner]
        never = frozenset({self.gold})
        if choice == self.gold:
            return choice
        return colluding_discard(
            choice, p.counts, len(p.melds), q.counts, len(q.melds), partner == (seat + 1) % 4,
            self.shape, never,
        )

    def final_draws(self, seat: int) -> None:
        """seed 003: the last drawable tiles are drawn one each in turn, no flower replacement,
        no discard; a tile that completes a hand wins as a self-draw; then the hand is drawn."""
        while not is_exhausted(self.wall_left(), self.reserve()):
            t = self.take_front()
            self.emit(EventKind.DRAW, seat, t)
            if t in self.flower_kinds:
                self.set_flower(seat, t)
            else:
                self.table.seats[seat].counts[t] += 1
                self.self_draw_win(seat, t)
            seat = (seat + 1) % 4
        self.huang()

    def play(self) -> None:
        setting = self.setting
        dealer = setting.dealer
        self.replace_opening_flowers(self.deal())
        self.reveal()
        p = self.table.seats[dealer]
        assert self.shape is not None
        last = self.last_received(dealer)
        if self.shape.complete(p.counts, 0):  # 天和 (cancels robbing the gold)
            self.finish(
                dealer, last, self.settle(dealer, last, self_drawn=True, heavenly=True), win=WinKind.HEAVENLY
            )
        if p.counts[self.gold] >= 3:  # 三金倒 at once
            self.finish(dealer, last, self.settle(dealer, last, self_drawn=True), win=WinKind.THREE_GOLDS)
        seat = dealer
        tile = self.discard(seat)
        self.rob_gold()
        while True:
            claim = self.claims(seat, tile)
            if claim is not None and claim[1] in ("chi", "peng"):
                seat = claim[0]  # no kong in the turn of a chow or pung: discard at once
                tile = self.discard(seat)
                continue
            if claim is not None:  # an exposed kong: replacement from the tail
                seat = claim[0]
                self.update_standing(seat)
                drawn = self.draw_replacing(seat, tail=True)
            else:
                seat = (seat + 1) % 4
                if is_exhausted(self.wall_left(), self.reserve()):
                    self.huang()
                if is_final_draw(self.wall_left(), self.reserve(), self.profile):
                    self.final_draws(seat)
                drawn = self.draw_replacing(seat, tail=False)
            self.own_turn(seat, drawn)
            tile = self.discard(seat)

    def last_received(self, seat: int) -> int:
        """The last non-flower tile ``seat`` received during the deal and replacements."""
        for ev in reversed(self.events):
            if ev.seat == seat and ev.kind is EventKind.DRAW and ev.tile not in self.flower_kinds:
                return int(ev.tile)  # type: ignore[arg-type]
            if ev.seat == seat and ev.kind is EventKind.DEAL:
                return next(int(t) for t in reversed(ev.tiles) if t not in self.flower_kinds)
        raise RuleError("the dealer holds no tile")  # pragma: no cover

    def hand(self) -> Hand:
        s = self.setting
        assert self.result is not None
        return Hand(
            match_id=s.match_id,
            hand_no=s.hand_no,
            ruleset="fuzhou",
            profile=self.profile.name,
            dealer=s.dealer,
            prevalent_wind=s.prevalent_wind,
            events=tuple(self.events),
            result=self.result,
            players=s.players,
            styles=tuple(st.name for st in s.styles),
            streak=s.streak,
            gold=_T[self.gold],
            wall=tuple(_T[t] for t in self.wall),
            dice=self.dice,
            started_at=s.started_at,
            meta=self.rig.meta(self.rigged_draws) if self.rig is not None else (),
        )


def play_fuzhou_hand(
    setting: FuzhouSetting,
    rng: random.Random,
    rig: Rig | None = None,
    rig_rng: random.Random | None = None,
) -> Hand:
    """Shuffle with ``rng``, play the hand with the setting's bots, return the record. ``rig``
    (with its own stream ``rig_rng``) rigs draws or makes two seats collude (mjstats.sim.rig)."""
    game = _Game(setting, rng, rig, rig_rng)
    with contextlib.suppress(_End):  # the hand ends by raising _End once its result is set
        game.play()
    return game.hand()


def checked_profile(profile: str | Profile | None) -> Profile:
    """The rule profile to play: ``"seed"`` (None), ``"platform"``, a TOML path or a Profile."""
    return load_profile(profile if profile is not None else "seed")


def play_hands(
    match_id: str,
    count: int,
    names: tuple[str, ...],
    styles: tuple[Style, ...],
    times: list[str],
    profile: Profile,
    rng: random.Random,
    rig: Rig | None,
    rig_rng: random.Random | None,
) -> Iterator[Hand]:
    """The first ``count`` hands of a match: the dealer stays or passes as the profile says
    (seed 003), the prevalent wind moves on every four passes."""
    state = DealerState(0)
    passes = 0
    for k in range(count):
        setting = FuzhouSetting(
            match_id, k, state.dealer, state.streak, (passes // 4) % 4, names, styles, times[k], profile
        )
        hand = play_fuzhou_hand(setting, rng, rig, rig_rng)
        yield hand
        after = next_dealer(state, hand.result.winner, profile)
        if after.dealer != state.dealer:
            passes += 1
        state = after
