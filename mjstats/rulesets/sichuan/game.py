"""One simulated Sichuan 血战到底 hand: bots (bots.py) play by the rules of a profile and the
hand is written as a canonical record with its settlement (reference sichuan.md §2, §4).

The wall is the 108 tiles shuffled by the match's ``play`` stream and recorded in
``Hand.wall``: the deal takes its first 53 tiles (seat 0 first, the dealer 14, the others 13),
turn draws come from the head, kong replacements from the head (``kong_replacement_from =
"head"``) or the tail. Play goes on after each win until three have won or a draw is due from an
empty wall; the settlement is :func:`settle_hand` of the same events the audit rebuilds.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from mjstats.errors import MjstatsError
from mjstats.records import Event, EventKind, Hand, WinKind
from mjstats.rulesets.sichuan.bots import SichuanBot
from mjstats.rulesets.sichuan.fan import WinContext as FanContext
from mjstats.rulesets.sichuan.fan import score_win
from mjstats.rulesets.sichuan.ledger import result_of
from mjstats.rulesets.sichuan.profiles import Profile
from mjstats.rulesets.sichuan.settle import HandEnd, Kong, PlayerHand, Turn, Winner, settle_hand
from mjstats.rulesets.sichuan.settle import Win as WinEvent
from mjstats.rulesets.sichuan.tiles import tiles_of
from mjstats.rulesets.sichuan.win import waits_from_counts
from mjstats.tiles import SUITED, Tile

__all__ = ["SICHUAN_SET", "SichuanSetting", "play_sichuan_hand", "play_sichuan_match"]

SICHUAN_SET: tuple[int, ...] = tuple(t for t in range(27) for _ in range(4))  # reference §1.1
_STEP = {"next": 1, "opposite": 2, "prev": 3}  # the triple of seat s goes to s + step


@dataclass(frozen=True, slots=True)
class SichuanSetting:
    """Everything fixed before a hand starts."""

    match_id: str
    hand_no: int
    dealer: int
    players: tuple[str, ...]
    styles: tuple[str, ...]
    bots: tuple[SichuanBot, ...]
    started_at: str
    profile: Profile


class _Player:
    __slots__ = ("counts", "discards", "locked", "melds", "threshold", "void", "waits", "won")

    def __init__(self) -> None:
        self.counts = [0] * 27
        self.melds: list[tuple[str, int, int]] = []
        self.void: int | None = None
        self.won = False
        self.locked: set[int] = set()
        self.threshold = -1
        self.discards = 0
        self.waits: frozenset[Tile] | None = None

    def tiles(self) -> tuple[Tile, ...]:
        return tiles_of(self.counts)

    def melds_out(self) -> tuple[tuple[str, Tile, int], ...]:
        return tuple((k, SUITED[t], o) for k, t, o in self.melds)

    def holds_void(self) -> bool:
        v = self.void
        return v is not None and any(self.counts[9 * v : 9 * v + 9])


class _Game:
    """The table of one hand while it is played."""

    def __init__(self, setting: SichuanSetting, rng: random.Random) -> None:
        self.s = setting
        self.rules = setting.profile
        self.rng = rng
        self.wall = list(SICHUAN_SET)
        rng.shuffle(self.wall)
        self.head, self.tail = 0, len(self.wall)
        self.p = [_Player() for _ in range(4)]
        self.events: list[Event] = []
        self.money: list[object] = []  # settlement events
        self.winners: list[int] = []
        self.ended = False
        self.last_four = False
        self.last_drawer: int | None = None
        self.clean_round = True
        self.kong_turn = False
        self.replacement = False
        self.seen = [0] * 27  # copies of each kind dealt or drawn so far (as the replay's ``seen``)

    # --- bookkeeping ---------------------------------------------------------------------------
    def ev(self, kind: EventKind, seat: int | None = None, tile: int | None = None, **kw: object) -> None:
        t = None if tile is None else SUITED[tile]
        self.events.append(Event(len(self.events), kind, seat, t, **kw))  # type: ignore[arg-type]

    @property
    def left(self) -> int:
        return self.tail - self.head

    def next_active(self, seat: int) -> int:
        for i in range(1, 5):
            s = (seat + i) % 4
            if not self.p[s].won:
                return s
        return seat

    def visible(self) -> list[int]:
        """Copies of each kind face up, as every seat sees them and as the decision judge counts
        them (rulesets/sichuan/table.py, docs/decisions.md "Useful tiles"): every tile dealt or
        drawn that no hidden hand holds: the rivers, the melds, concealed kongs (reference
        sichuan.md §2.7: laid face up), won tiles and, under ``play.winner_hand_public``
        (§2.10), the hands of the seats that have won."""
        shown = self.rules.play.winner_hand_public
        out = list(self.seen)
        for p in self.p:
            if not (p.won and shown):
                out = [n - c for n, c in zip(out, p.counts, strict=True)]
        return [max(n, 0) for n in out]

    def changed(self, seat: int) -> None:
        self.p[seat].waits = None

    def waits(self, seat: int) -> frozenset[Tile]:
        p = self.p[seat]
        if p.waits is None:
            held = list(p.counts)
            for kind, tile, _ in p.melds:
                held[tile] += 4 if kind == "GANG" else 3
            p.waits = waits_from_counts(p.counts, p.melds_out(), held, p.void)
        return p.waits

    def draw(self, seat: int, replacement: bool) -> int:
        if replacement and self.rules.deal.kong_replacement_from == "tail":
            self.tail -= 1
            tile = self.wall[self.tail]
        else:
            tile = self.wall[self.head]
            self.head += 1
        self.ev(EventKind.DRAW, seat, tile, tail=replacement)
        if self.left == 3:
            self.last_four = True  # reference §2.12
        if self.left == 0:
            self.last_drawer = seat
        p = self.p[seat]
        p.counts[tile] += 1
        self.seen[tile] += 1
        self.changed(seat)
        p.locked.clear()  # reference §2.11: released at the player's own draw
        p.threshold = -1
        if not replacement:
            self.kong_turn = False
            self.money.append(Turn(seat))
        self.replacement = replacement
        return tile

    # --- the pass lock (reference §2.11) -------------------------------------------------------
    def plain_fan(self, seat: int, tile: int) -> int:
        p = self.p[seat]
        try:
            return score_win(
                p.tiles(), p.melds_out(), SUITED[tile], FanContext(), void=p.void, profile=self.rules
            ).fan
        except MjstatsError:
            return -1

    def locked_out(self, seat: int, tile: int) -> bool:
        p = self.p[seat]
        lock = self.rules.play.pass_hu_lock
        if lock == "same_tile":
            return tile in p.locked
        if lock == "any_tile":
            return p.threshold >= 0
        if lock == "any_tile_unless_higher":
            return p.threshold >= 0 and self.plain_fan(seat, tile) <= p.threshold
        return False

    def could_win(self, seat: int, tile: int) -> bool:
        p = self.p[seat]
        return not p.won and tile in self.waits(seat) and not self.locked_out(seat, tile)

    def passes(self, seat: int, tile: int) -> None:
        p = self.p[seat]
        lock = self.rules.play.pass_hu_lock
        if lock == "same_tile":
            p.locked.add(tile)
        elif lock in ("any_tile", "any_tile_unless_higher"):
            p.threshold = max(p.threshold, self.plain_fan(seat, tile), 0)

    def flush_win(self, seat: int, tile: int) -> bool:
        p = self.p[seat]
        suits = {tile // 9} | {t // 9 for t in range(27) if p.counts[t]} | {t // 9 for _, t, _ in p.melds}
        return len(suits) == 1

    def decides_win(self, seat: int, tile: int, on_discard: bool) -> bool:
        if self.last_four and self.rules.play.last_four_must_win:
            return True  # reference §2.12: every legal win is declared
        return self.s.bots[seat].wants_win(self.flush_win(seat, tile), on_discard, self.left)

    def out(self, seat: int) -> None:
        self.p[seat].won = True
        self.winners.append(seat)
        if len(self.winners) >= 3:
            self.ended = True

    # --- the hand ------------------------------------------------------------------------------
    def deal(self) -> None:
        for seat in range(4):
            n = 14 if seat == self.s.dealer else 13
            tiles = self.wall[self.head : self.head + n]
            self.head += n
            for t in tiles:
                self.p[seat].counts[t] += 1
                self.seen[t] += 1
            self.events.append(
                Event(len(self.events), EventKind.DEAL, seat, tiles=tuple(SUITED[t] for t in tiles))
            )
        if self.rules.deal.exchange_three:
            self.exchange()
        for seat in range(4):
            p = self.p[seat]
            p.void = self.s.bots[seat].choose_void(p.counts) if self.rules.deal.declare_void else None
            if p.void is not None:
                self.ev(EventKind.VOID, seat, 9 * p.void)

    def exchange(self) -> None:
        """换三张 (reference §2.2): each gives three tiles of one suit, all in one direction."""
        direction = self.rules.deal.exchange_direction
        if direction == "random":
            direction = self.rng.choice(("next", "prev", "opposite"))
        step = _STEP[direction]
        given = [self.s.bots[s].choose_exchange(self.p[s].counts) for s in range(4)]
        for s in range(4):
            for t in given[s]:
                self.p[s].counts[t] -= 1
        for s in range(4):
            frm = (s - step) % 4
            self.events.append(
                Event(
                    len(self.events),
                    EventKind.EXCHANGE,
                    s,
                    tiles=tuple(SUITED[t] for t in given[s]),
                    from_seat=frm,
                )
            )
        for s in range(4):
            for t in given[(s - step) % 4]:
                self.p[s].counts[t] += 1

    def play(self) -> None:
        self.deal()
        actor, mode = self.s.dealer, "turn"
        drawn: int | None = None
        pong_turn = False
        while not self.ended:
            if mode == "draw":
                if self.left == 0:
                    self.ev(EventKind.HUANG)
                    self.money.append(
                        HandEnd(
                            tuple(
                                PlayerHand(s, self.p[s].tiles(), self.p[s].melds_out(), void=self.p[s].void)
                                for s in range(4)
                                if not self.p[s].won
                            )
                        )
                    )
                    return
                drawn = self.draw(actor, False)
                mode, pong_turn = "turn", False
                continue
            if mode == "kong":
                drawn = self.draw(actor, True)
                mode = "turn"
                continue
            # the actor holds 14 tiles (kongs as 3): win, kong or discard
            p = self.p[actor]
            bot = self.s.bots[actor]
            if drawn is not None and not pong_turn and self.self_draw_wins(actor, drawn):
                self.self_draw(actor, drawn)
                if self.ended:
                    return
                actor, mode, drawn = self.next_active(actor), "draw", None
                continue
            if not pong_turn and self.left > 0:
                kong = self.own_kong(actor, drawn)
                if kong is not None:
                    kind, tile = kong
                    if kind == "angang":
                        mode = "kong"
                        continue
                    robbers = self.rob_window(actor, tile, drawn)
                    if robbers:
                        if self.ended:
                            return
                        farthest = max(robbers, key=lambda s: (s - actor) % 4)
                        after = actor if self.rules.play.turn_after_rob == "after_robbed" else farthest
                        actor, mode, drawn = self.next_active(after), "draw", None
                    else:
                        mode = "kong"
                    continue
            tile = bot.discard(p.counts, p.melds, p.void, self.visible)
            self.ev(EventKind.DISCARD, actor, tile)
            p.counts[tile] -= 1
            p.discards += 1
            self.changed(actor)
            kong_discard = self.kong_turn
            last_tile = self.left == 0 and self.last_drawer == actor and not pong_turn
            dealer_first = actor == self.s.dealer and p.discards == 1 and self.clean_round
            drawn, pong_turn = None, False
            nxt = self.claims(actor, tile, kong_discard, last_tile, dealer_first)
            if self.ended:
                return
            if nxt is None:
                actor, mode = self.next_active(actor), "draw"
            else:
                actor, kind = nxt
                if kind == "peng":
                    mode, pong_turn = "turn", True
                elif kind == "gang":
                    mode = "kong"
                else:
                    actor, mode = self.next_active(actor), "draw"

    def self_draw_wins(self, seat: int, tile: int) -> bool:
        p = self.p[seat]
        p.counts[tile] -= 1
        self.changed(seat)
        ok = tile in self.waits(seat)
        p.counts[tile] += 1
        self.changed(seat)
        return ok and self.decides_win(seat, tile, False)

    def self_draw(self, seat: int, tile: int) -> None:
        p = self.p[seat]
        self.ev(EventKind.HU, seat, tile)
        p.counts[tile] -= 1
        earthly = self.clean_round and seat != self.s.dealer and p.discards == 0
        winner = Winner(seat, p.tiles(), p.melds_out(), void=p.void, earthly=earthly)
        p.counts[tile] += 1
        self.money.append(
            WinEvent(
                SUITED[tile],
                (winner,),
                kong_win=self.replacement and self.kong_turn,
                last_tile=self.left == 0,
            )
        )
        self.out(seat)

    def own_kong(self, seat: int, drawn: int | None) -> tuple[str, int] | None:
        """A concealed or added kong the bot declares (never of its void suit)."""
        p = self.p[seat]
        bot = self.s.bots[seat]
        for t in range(27):
            if p.void is not None and t // 9 == p.void:
                continue
            if p.counts[t] == 4 and bot.wants_kong(p.counts, p.melds, p.void, t):
                self.ev(EventKind.ANGANG, seat, t)
                p.counts[t] = 0
                p.melds.append(("GANG", t, 0))
                self.changed(seat)
                self.money.append(Kong(seat, "concealed", SUITED[t]))
                self.kong_turn, self.clean_round = True, False
                return ("angang", t)
        for i, (kind, t, offer) in enumerate(p.melds):
            if kind == "PENG" and p.counts[t] and bot.wants_kong(p.counts, p.melds, p.void, t, added=True):
                self.ev(EventKind.BUGANG, seat, t)
                p.counts[t] -= 1
                p.melds[i] = ("GANG", t, offer)
                self.changed(seat)
                self.clean_round = False
                return ("bugang", t)
        return None

    def rob_window(self, konger: int, tile: int, drawn: int | None) -> list[int]:
        """Others may rob the 补杠 (reference §2.8); returns the robbers (empty: the kong stands)."""
        robbers: list[int] = []
        for seat in [(konger + i) % 4 for i in range(1, 4)]:
            if self.rules.play.rob_kong and self.could_win(seat, tile):
                if self.decides_win(seat, tile, True):
                    robbers.append(seat)
                else:
                    self.passes(seat, tile)
        if not robbers:
            self.money.append(Kong(konger, "added", SUITED[tile], late=tile != drawn))
            self.kong_turn = True
            return robbers
        winners = []
        for seat in robbers:
            self.ev(EventKind.HU, seat, tile, from_seat=konger, win=WinKind.ROB_KONG)
            q = self.p[seat]
            winners.append(Winner(seat, q.tiles(), q.melds_out(), void=q.void))
        self.money.append(WinEvent(SUITED[tile], tuple(winners), discarder=konger, robbed_kong=True))
        k = self.p[konger]
        k.melds = [
            ("PENG", t, o) if (kind == "GANG" and t == tile and o != 0) else (kind, t, o)
            for kind, t, o in k.melds
        ]
        self.changed(konger)
        for seat in robbers:
            self.out(seat)
        return robbers

    def claims(
        self, d: int, tile: int, kong_discard: bool, last_tile: bool, dealer_first: bool
    ) -> tuple[int, str] | None:
        """The claim window on ``d``'s discard: wins (一炮多响), else a pong or direct kong.
        Returns (seat, "hu" | "peng" | "gang") of who acts next, or None (the next seat draws)."""
        order = [(d + i) % 4 for i in range(1, 4)]
        hus: list[int] = []
        for seat in order:
            if self.could_win(seat, tile):
                if self.decides_win(seat, tile, True) and (self.rules.play.multi_win or not hus):
                    hus.append(seat)
                else:
                    self.passes(seat, tile)
        if hus:
            winners = []
            for seat in hus:
                self.ev(EventKind.HU, seat, tile, from_seat=d)
                q = self.p[seat]
                winners.append(Winner(seat, q.tiles(), q.melds_out(), void=q.void, earthly=dealer_first))
            self.money.append(
                WinEvent(
                    SUITED[tile], tuple(winners), discarder=d, kong_discard=kong_discard, last_tile=last_tile
                )
            )
            for seat in hus:
                self.out(seat)
            return (hus[-1], "hu")  # the farthest winner: the seat after it draws (reference §2.9)
        for seat in order:
            q = self.p[seat]
            if q.won or q.counts[tile] < 2 or (q.void is not None and tile // 9 == q.void):
                continue
            bot = self.s.bots[seat]
            if q.counts[tile] == 3 and self.left > 0 and bot.wants_kong(q.counts, q.melds, q.void, tile):
                self.ev(EventKind.GANG, seat, tile, from_seat=d)
                q.counts[tile] -= 3
                q.melds.append(("GANG", tile, (seat - d) % 4))
                self.money.append(Kong(seat, "direct", SUITED[tile], discarder=d))
                kind = "gang"
            elif bot.wants_pong(q.counts, q.melds, q.void, tile):
                self.ev(EventKind.PENG, seat, tile, from_seat=d)
                q.counts[tile] -= 2
                q.melds.append(("PENG", tile, (seat - d) % 4))
                self.money.append(Turn(seat))
                kind = "peng"
            else:
                continue
            self.changed(seat)
            self.clean_round = False
            self.kong_turn = kind == "gang"
            if self.rules.play.pass_hu_lock_cleared_by == "draw_or_meld":
                q.locked.clear()
                q.threshold = -1
            return (seat, kind)
        return None


def play_sichuan_hand(setting: SichuanSetting, rng: random.Random) -> tuple[Hand, int]:
    """Play one hand; returns it (events, wall, settled result) and the next hand's dealer."""
    game = _Game(setting, rng)
    game.play()
    settled = settle_hand(game.money, dealer=setting.dealer, profile=setting.profile)
    hand = Hand(
        match_id=setting.match_id,
        hand_no=setting.hand_no,
        ruleset="sichuan",
        profile=setting.profile.name,
        dealer=setting.dealer,
        prevalent_wind=0,
        events=tuple(game.events),
        result=result_of(settled, game.money),
        players=setting.players,
        styles=setting.styles,
        wall=tuple(SUITED[t] for t in game.wall),
        started_at=setting.started_at,
    )
    nxt = settled.next_dealer if settled.next_dealer is not None else setting.dealer
    return hand, nxt


def play_sichuan_match(
    match_id: str,
    count: int,
    players: tuple[str, ...],
    styles: tuple[str, ...],
    bots: tuple[SichuanBot, ...],
    times: list[str],
    rng: random.Random,
    profile: Profile,
) -> Iterator[Hand]:
    """The first ``count`` hands of a match: seat 0 deals first, then the dealer of reference
    §1.5 (the first winner; the discarder after a multi-win; the same dealer after no win)."""
    dealer = 0
    for k in range(count):
        setting = SichuanSetting(match_id, k, dealer, players, styles, bots, times[k], profile)
        hand, dealer = play_sichuan_hand(setting, rng)
        yield hand
