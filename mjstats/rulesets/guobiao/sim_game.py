"""One simulated Guobiao hand under the Botzone rules (reference botzone-format.md).

136 tiles shuffled and split into four walls of 34, one per seat (``Hand.wall`` lists seat 0's
wall, then seat 1's, ...; each seat is dealt the first 13 of its own wall and draws the rest in
order, kong replacements included). The dealer draws first. Huang when a seat that must draw has
an empty wall; on the discard before it only Hu may be claimed. Claims: Hu > Peng = Gang > Chi,
nearest counter-clockwise from the discarder first, one winner; the losing claims follow the
winning one as IGNORED events. A win needs 8 fan without flowers; robbing only an added kong.
Wins are scored by ``mjstats.rulesets.guobiao`` with the flags the replayer derives.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from mjstats.errors import MjstatsError
from mjstats.records import Event, EventKind, FanEntry, Hand, Outcome, Result, WinKind
from mjstats.rules.claims import CLAIM_RANK
from mjstats.rulesets.guobiao import FanResult, calculate_fans, guobiao_payments, meets_minimum
from mjstats.rulesets.guobiao.shape import GuobiaoShape
from mjstats.sim.bots import Bot, Style
from mjstats.sim.rig import Rig, best_useful, colluding_discard
from mjstats.sim.table import Table
from mjstats.sim.walls import shuffled_wall
from mjstats.tiles import ALL_KINDS

__all__ = [
    "DEFAULT_STYLES",
    "HANDS_PER_MATCH",
    "WALL_SET",
    "WALL_SIZE",
    "GuobiaoSetting",
    "checked_profile",
    "play_guobiao_hand",
    "play_hands",
]

# reference botzone-format.md: 136 tiles, four of each of the 34 kinds, no flowers.
WALL_SET: tuple[int, ...] = tuple(t for t in range(34) for _ in range(4))
HANDS_PER_MATCH = 16  # 4 rounds x 4 deals
DEFAULT_STYLES = ("greedy", "defensive", "aggressive", "flush")  # the seats' styles by default

WALL_SIZE = 34  # botzone-format.md: four walls of 34, one per seat
DEALT = 13
_SHAPE = GuobiaoShape()
_T = ALL_KINDS


@dataclass(frozen=True, slots=True)
class GuobiaoSetting:
    """Everything about a hand that is fixed before the shuffle."""

    match_id: str
    hand_no: int
    dealer: int
    prevalent_wind: int
    players: tuple[str, ...]
    styles: tuple[Style, ...]
    started_at: str
    profile: str = "botzone"


class _Game:
    def __init__(
        self,
        setting: GuobiaoSetting,
        rng: random.Random,
        rig: Rig | None = None,
        rig_rng: random.Random | None = None,
    ) -> None:
        self.setting = setting
        self.rig = rig if rig is not None and rig.active else None
        self.rig_rng = rig_rng
        self.rigged_draws = 0
        self.wall = shuffled_wall(rng, WALL_SET)
        self.walls = [self.wall[WALL_SIZE * s : WALL_SIZE * (s + 1)] for s in range(4)]
        self.pos = [DEALT] * 4  # next tile of each seat's wall
        self.table = Table()
        self.bots = [Bot(setting.styles[s], _SHAPE, s, self.table) for s in range(4)]
        self.events: list[Event] = []
        self.result: Result | None = None
        self.pending_kong: int | None = None  # set by own_turn when the seat declares a kong

    # --- recording -----------------------------------------------------------------------------
    def emit(self, kind: EventKind, seat: int | None = None, tile: int | None = None, **kw: object) -> None:
        self.events.append(Event(len(self.events), kind, seat, None if tile is None else _T[tile], **kw))  # type: ignore[arg-type]

    # --- scoring -------------------------------------------------------------------------------
    def score(
        self,
        seat: int,
        win_tile: int,
        *,
        self_drawn: bool,
        kong_win: bool,
        last_tile: bool,
        fourth_tile: bool,
    ) -> FanResult | None:
        """The engine's fan result when ``seat`` may win on ``win_tile`` (8-fan minimum met)."""
        p = self.table.seats[seat]
        counts = p.counts
        if self_drawn:
            counts[win_tile] -= 1
        hand = p.tiles()
        if self_drawn:
            counts[win_tile] += 1
        result = calculate_fans(
            hand,
            p.melds,
            win_tile,
            self_drawn=self_drawn,
            fourth_tile=fourth_tile,
            kong_win=kong_win,
            last_tile=last_tile,
            seat_wind=(seat - self.setting.dealer) % 4,
            round_wind=self.setting.prevalent_wind,
        )
        return result if meets_minimum(result) else None

    def can_complete(self, seat: int, tile: int) -> bool:
        """Whether ``tile`` completes ``seat``'s standing hand (shape only)."""
        p = self.table.seats[seat]
        if p.standing > 0:
            return False
        p.counts[tile] += 1
        done = _SHAPE.complete(p.counts, len(p.melds))
        p.counts[tile] -= 1
        return done

    def finish_win(
        self, seat: int, tile: int, fans: FanResult, discarder: int | None, rob: bool = False
    ) -> None:
        self.emit(EventKind.HU, seat, tile, from_seat=discarder, win=WinKind.ROB_KONG if rob else None)
        self.result = Result(
            Outcome.WIN,
            winner=seat,
            loser=discarder,
            win_tile=_T[tile],
            self_drawn=discarder is None,
            fan_total=fans.total,
            fans=tuple(FanEntry(f.name, f.count, f.points) for f in fans.fans),
            scores=guobiao_payments(fans.total, seat, discarder),
        )

    def update_standing(self, seat: int) -> None:
        p = self.table.seats[seat]
        p.standing = _SHAPE.shanten(p.counts, len(p.melds))

    # --- play ----------------------------------------------------------------------------------
    def deal(self) -> None:
        dealer = self.setting.dealer
        for i in range(4):
            seat = (dealer + i) % 4
            tiles = self.walls[seat][:DEALT]
            p = self.table.seats[seat]
            for t in tiles:
                p.counts[t] += 1
            self.events.append(
                Event(len(self.events), EventKind.DEAL, seat, tiles=tuple(_T[t] for t in tiles))
            )
            self.update_standing(seat)

    def own_turn(self, seat: int, drawn: int, after_kong: bool) -> bool:
        """After a draw: win, or declare a kong (sets ``pending_kong``). True if the hand ended."""
        p = self.table.seats[seat]
        visible = self.table.visible
        if p.standing <= 0 and p.counts[drawn] and _SHAPE.complete(p.counts, len(p.melds)):
            fans = self.score(
                seat,
                drawn,
                self_drawn=True,
                kong_win=after_kong,
                # 妙手回春: the next seat's wall is empty (nobody draws after this), whatever is
                # left in the winner's own wall (botzone-format.md: the judge's isWallLast)
                last_tile=self.pos[(seat + 1) % 4] >= WALL_SIZE,
                fourth_tile=visible[drawn] >= 3,
            )
            if fans is not None and self.bots[seat].wants_win(False, False, False):
                self.finish_win(seat, drawn, fans, None)
                return True
        if self.pos[seat] >= WALL_SIZE:
            return False  # no replacement tile left: no kong
        bot = self.bots[seat]
        for t in range(34):
            if p.counts[t] == 4 and bot.wants_own_kong(t, concealed=True):
                p.counts[t] = 0
                p.melds.append(("GANG", t, 0))
                self.emit(EventKind.ANGANG, seat, t)
                self.update_standing(seat)
                self.pending_kong = t
                return False
        for i, (kind, t, offer) in enumerate(p.melds):
            if kind == "PENG" and p.counts[t] and bot.wants_own_kong(t, concealed=False):
                p.counts[t] -= 1
                p.melds[i] = ("GANG", t, offer)
                visible[t] += 1
                self.emit(EventKind.BUGANG, seat, t)
                self.update_standing(seat)
                if self.rob_kong(seat, t):
                    return True
                self.pending_kong = t
                return False
        return False

    def rob_kong(self, konger: int, tile: int) -> bool:
        """Others may win on an added kong (抢杠和); the nearest after the konger takes it."""
        robbers = []
        for d in (1, 2, 3):
            s = (konger + d) % 4
            if self.can_complete(s, tile):
                fans = self.score(
                    s,
                    tile,
                    self_drawn=False,
                    kong_win=True,
                    last_tile=False,
                    fourth_tile=self.table.visible[tile] - 1 >= 3,
                )
                if fans is not None and self.bots[s].wants_win(True, False, False):
                    robbers.append((s, fans))
        if not robbers:
            return False
        seat, fans = robbers[0]
        self.finish_win(seat, tile, fans, konger, rob=True)
        for s, _ in robbers[1:]:
            self.emit(EventKind.IGNORED, s, tile, claim="hu")
        return True

    def discard_and_claims(self, seat: int) -> tuple[int, bool, bool] | None:
        """``seat`` discards; claims are settled. Returns (next seat to act, after a kong, whether
        the seat acts without drawing) or None when the hand ended."""
        table = self.table
        p = table.seats[seat]
        tile = self.bots[seat].discard()
        if self.rig is not None and self.rig.partner(seat) is not None:
            tile = self.colluding(seat, tile)
        p.counts[tile] -= 1
        p.river.append(tile)
        table.visible[tile] += 1
        self.emit(EventKind.DISCARD, seat, tile)
        self.update_standing(seat)
        nxt = (seat + 1) % 4
        # the discard before Huang (the seat after the discarder has an empty wall): only Hu,
        # and a win on it is 海底捞月 (the flag the discarder's last draw or chi/peng set)
        last = self.pos[nxt] >= WALL_SIZE
        claims: list[tuple[int, int, str, int, object]] = []  # (rank, distance, kind, seat, data)
        for d in (1, 2, 3):
            s = (seat + d) % 4
            q = table.seats[s]
            bot = self.bots[s]
            if self.can_complete(s, tile):
                fans = self.score(
                    s,
                    tile,
                    self_drawn=False,
                    kong_win=False,
                    last_tile=last,
                    fourth_tile=table.visible[tile] - 1 >= 3,
                )
                if fans is not None and bot.wants_win(True, False, False):
                    claims.append((CLAIM_RANK["hu"], d, "hu", s, fans))
                    continue
            if last:
                continue
            n = q.counts[tile]
            if n == 3 and self.pos[s] < WALL_SIZE and bot.wants_exposed_kong(tile):
                claims.append((CLAIM_RANK["gang"], d, "gang", s, tile))
                continue
            if n >= 2 and bot.wants_pung(tile):
                claims.append((CLAIM_RANK["peng"], d, "peng", s, tile))
                continue
            if d == 1 and tile < 27:
                middles = [
                    m
                    for m in (tile - 1, tile, tile + 1)
                    if m // 9 == tile // 9
                    and 1 <= m % 9 <= 7
                    and all(q.counts[x] for x in (m - 1, m, m + 1) if x != tile)
                ]
                if middles:
                    middle = bot.chi_choice(tile, middles)
                    if middle is not None:
                        claims.append((CLAIM_RANK["chi"], d, "chi", s, middle))
        if not claims:
            return (nxt, False, False)
        claims.sort(key=lambda c: (-c[0], c[1]))
        _, _, kind, s, data = claims[0]
        q = table.seats[s]
        from_seat = seat
        if kind == "hu":
            q.counts[tile] += 1
            self.finish_win(s, tile, data, seat)  # type: ignore[arg-type]
        elif kind == "chi":
            middle = int(data)  # type: ignore[call-overload]
            table.claim(s, kind, tile, seat, middle)
            self.emit(EventKind.CHI, s, middle, from_seat=from_seat, claimed=_T[tile])
        else:
            table.claim(s, kind, tile, seat)
            self.emit(EventKind.GANG if kind == "gang" else EventKind.PENG, s, tile, from_seat=from_seat)
        for _, _, other_kind, other, other_data in claims[1:]:
            shown = int(other_data) if other_kind == "chi" else tile  # type: ignore[call-overload]
            self.emit(EventKind.IGNORED, other, shown, claim=other_kind)
        if kind == "hu":
            return None
        if kind == "gang":
            self.update_standing(s)
            return (s, True, False)
        return (s, False, True)

    # --- rigged play (mjstats.sim.rig; never used by a fair simulation) ------------------------
    def rig_draw(self, seat: int) -> None:
        """With the rig's probability, swap the seat's best useful tile still in any wall into the
        position it is about to draw from."""
        assert self.rig is not None and self.rig_rng is not None
        if self.rig_rng.random() >= self.rig.draw_p:
            return
        places: dict[int, tuple[int, int]] = {}
        for s in [seat] + [x for x in range(4) if x != seat]:
            for i in range(self.pos[s], WALL_SIZE):
                places.setdefault(self.walls[s][i], (s, i))
        available = [1 if k in places else 0 for k in range(34)]
        p = self.table.seats[seat]
        best = best_useful(p.counts, len(p.melds), available, _SHAPE)
        if best is None:
            return
        s, i = places[best]
        here = self.pos[seat]
        if (s, i) != (seat, here):
            self.walls[s][i], self.walls[seat][here] = self.walls[seat][here], self.walls[s][i]
        self.rigged_draws += 1

    def colluding(self, seat: int, choice: int) -> int:
        """A colluder's discard: feed the partner (mjstats.sim.rig.colluding_discard)."""
        assert self.rig is not None
        partner = self.rig.partner(seat)
        assert partner is not None
        p, q = self.table.seats[seat], self.table.seats[partner]
        return colluding_discard(
            choice, p.counts, len(p.melds), q.counts, len(q.melds), partner == (seat + 1) % 4, _SHAPE
        )

    def run(self) -> None:
        """Play the hand to its end (handles the kong replacement and claim loops)."""
        self.deal()
        seat = self.setting.dealer
        after_kong = False
        while True:
            if self.pos[seat] >= WALL_SIZE:
                self.emit(EventKind.HUANG)
                self.result = Result(Outcome.DRAW, scores=(0, 0, 0, 0))
                return
            if self.rig is not None and seat == self.rig.draw_seat:
                self.rig_draw(seat)
            tile = self.walls[seat][self.pos[seat]]
            self.pos[seat] += 1
            self.emit(EventKind.DRAW, seat, tile)
            self.table.seats[seat].counts[tile] += 1
            self.pending_kong = None
            if self.own_turn(seat, tile, after_kong):
                return
            if self.pending_kong is not None:
                after_kong = True  # the konger draws its replacement next
                continue
            step = self.discard_and_claims(seat)
            while step is not None and step[2]:  # chow/pung: discard without drawing
                step = self.discard_and_claims(step[0])
            if step is None:
                return
            seat, after_kong, _ = step

    def hand(self) -> Hand:
        s = self.setting
        assert self.result is not None
        return Hand(
            match_id=s.match_id,
            hand_no=s.hand_no,
            ruleset="guobiao",
            profile=s.profile,
            dealer=s.dealer,
            prevalent_wind=s.prevalent_wind,
            events=tuple(self.events),
            result=self.result,
            players=s.players,
            styles=tuple(st.name for st in s.styles),
            wall=tuple(_T[t] for t in self.played_wall()),
            started_at=s.started_at,
            meta=self.rig.meta(self.rigged_draws) if self.rig is not None else (),
        )

    def played_wall(self) -> list[int]:
        """The wall as it was drawn: the shuffle, or with rigged draws the four walls after the
        swaps (seat 0's first)."""
        if self.rig is None:
            return self.wall
        return [t for w in self.walls for t in w]


def play_guobiao_hand(
    setting: GuobiaoSetting,
    rng: random.Random,
    rig: Rig | None = None,
    rig_rng: random.Random | None = None,
) -> Hand:
    """Shuffle with ``rng``, play the hand with the setting's bots, return the record. ``rig``
    (with its own stream ``rig_rng``) rigs draws or makes two seats collude (mjstats.sim.rig)."""
    game = _Game(setting, rng, rig, rig_rng)
    game.run()
    return game.hand()


def checked_profile(profile: object) -> str:
    """Guobiao is simulated under the Botzone rules only: ``"botzone"`` (or None)."""
    if profile not in (None, "botzone"):
        raise MjstatsError(
            f"Guobiao is simulated under the Botzone rules only (profile 'botzone'), got {profile!r}"
        )
    return "botzone"


def play_hands(
    match_id: str,
    count: int,
    names: tuple[str, ...],
    styles: tuple[Style, ...],
    times: list[str],
    profile: object,
    rng: random.Random,
    rig: Rig | None,
    rig_rng: random.Random | None,
) -> Iterator[Hand]:
    """The first ``count`` hands of a match: a round per prevalent wind, each seat dealing once
    in turn (dealer k % 4)."""
    for k in range(count):
        setting = GuobiaoSetting(match_id, k, k % 4, (k // 4) % 4, names, styles, times[k])
        yield play_guobiao_hand(setting, rng, rig, rig_rng)
