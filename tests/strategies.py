"""Hypothesis strategies for realistic :class:`mjstats.records.Hand` values (both rulesets).

A hand is produced by a small table simulator driven by a hypothesis-controlled ``Random``: a
shuffled wall, the deal, draws and discards, flowers and tail replacements, chows, pungs, the
three kongs, claims that lose (``ignored``), robbed kongs, Fuzhou's gold reveal (sometimes a
flower first), 抢金, 三金倒 and 天和, exhaustive draws, and a recorded result with fans,
pattern and zero-sum scores. The play is plausible, not audited: a hand never holds a tile it
was not dealt or did not draw, but wins and fans are drawn at random.

Optional fields (players, styles, streak, wall, dice, timestamp, meta, event lines,
provenance) are present or absent at random. Use :func:`hands` in ``@given``; use
:func:`random_hand` with a seeded ``random.Random`` where no hypothesis is wanted.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta, timezone

from hypothesis import strategies as st

from mjstats.records import (
    Event,
    EventKind,
    FanEntry,
    Hand,
    Outcome,
    Provenance,
    Result,
    WinKind,
)
from mjstats.tiles import ALL_KINDS, Tile

__all__ = ["RULESETS", "hands", "random_hand"]

RULESETS = ("guobiao", "fuzhou")

# A sample of Guobiao fans with their values (reference guobiao.md), for recorded results.
GUOBIAO_FANS = (
    ("大三元", 88), ("清幺九", 64), ("一色双龙会", 64), ("清一色", 24), ("七对", 24),
    ("全求人", 6), ("碰碰和", 6), ("混一色", 6), ("五门齐", 6), ("花龙", 8), ("妙手回春", 8),
    ("海底捞月", 8), ("杠上开花", 8), ("抢杠和", 8), ("三色三步高", 6), ("箭刻", 2),
    ("门前清", 2), ("平和", 2), ("断幺", 2), ("双暗刻", 2), ("明杠", 1), ("一般高", 1),
    ("喜相逢", 1), ("连六", 1), ("幺九刻", 1), ("边张", 1), ("嵌张", 1), ("单钓将", 1),
    ("自摸", 1), ("无字", 1), ("花牌", 1),
)  # fmt: skip
# Fuzhou patterns and their seed-profile points (reference fuzhou.md).
FUZHOU_PATTERNS = {"平和": 30, "金雀": 60, "金龙": 120, "混一色": 60, "清一色": 120}
STYLES = ("aggressive", "defensive", "balanced", "random")
NAMES = ("张三", "李四", "王五", "赵六", "bot-α", "Alice", "ゲスト", "")

_K = EventKind


class _Table:
    """One hand being played out; appends events as it goes."""

    def __init__(self, rng: random.Random, ruleset: str, dealer: int, lines: bool) -> None:
        self.rng = rng
        # a second stream for rare endings added later (the WA penalty), seeded without drawing
        # from ``rng``, so that every other hand stays the one the tests were written against
        self.side = random.Random(hash(rng.getstate()[1]))
        self.ruleset = ruleset
        self.fuzhou = ruleset == "fuzhou"
        self.dealer = dealer
        self.events: list[Event] = []
        self.line = rng.randint(1, 5000) if lines else None
        kinds = ALL_KINDS[:34] * 4
        if self.fuzhou or rng.random() < 0.3:  # Guobiao sometimes plays with the 8 flowers
            kinds = kinds + ALL_KINDS[34:]
        self.full_wall = list(kinds)
        rng.shuffle(self.full_wall)
        self.wall = deque(self.full_wall)
        self.held: list[list[Tile]] = [[], [], [], []]
        self.pungs: list[set[Tile]] = [set(), set(), set(), set()]
        self.flowers = [0, 0, 0, 0]
        self.kongs = [0, 0, 0, 0]
        self.gold: Tile | None = None
        self.reserve = 18 if self.fuzhou else 0

    # --- events -------------------------------------------------------------------------------
    def emit(self, kind: EventKind, seat: int | None = None, tile: Tile | None = None,
             **fields: object) -> None:
        line = None
        if self.line is not None:
            self.line += 1
            line = self.line
        self.events.append(Event(len(self.events), kind, seat, tile, line=line, **fields))  # type: ignore[arg-type]

    def is_flower(self, tile: Tile) -> bool:
        # reference fuzhou.md: every honour and flower is a flower tile in Fuzhou
        return tile.is_flower or (self.fuzhou and tile.is_honour)

    def draw(self, seat: int, *, tail: bool = False) -> Tile | None:
        """Draw for ``seat`` (replacing flowers from the tail); None when the wall is spent."""
        while True:
            if len(self.wall) <= self.reserve:
                return None
            tile = self.wall.pop() if tail else self.wall.popleft()
            self.emit(_K.DRAW, seat, tile, tail=tail)
            if not self.is_flower(tile):
                self.held[seat].append(tile)
                return tile
            self.emit(_K.FLOWER, seat, tile)
            self.flowers[seat] += 1
            tail = True

    # --- the hand -----------------------------------------------------------------------------
    def deal(self) -> None:
        for i in range(4):
            seat = (self.dealer + i) % 4
            count = (17 if i == 0 else 16) if self.fuzhou else 13
            tiles = tuple(self.wall.popleft() for _ in range(count))
            self.emit(_K.DEAL, seat, tiles=tiles)
            self.held[seat] = list(tiles)
        # reference fuzhou.md: replacement rounds from the dealer on until nobody holds a flower
        pending = True
        while pending:
            pending = False
            for i in range(4):
                seat = (self.dealer + i) % 4
                found = [t for t in self.held[seat] if self.is_flower(t)]
                for tile in found:
                    self.held[seat].remove(tile)
                    self.emit(_K.FLOWER, seat, tile)
                    self.flowers[seat] += 1
                for _ in found:
                    tile = self.wall.pop()
                    self.emit(_K.DRAW, seat, tile, tail=True)
                    self.held[seat].append(tile)
                    pending = pending or self.is_flower(tile)

    def reveal_gold(self) -> None:
        # seed 000: a flower turned up counts for the dealer and the next tail tile is turned up.
        # (The dealer draws no tile for it: 17 held is the dealer's full hand.)
        while True:
            tile = self.wall.pop()
            if self.is_flower(tile):
                self.emit(_K.GOLD, self.dealer, tile)
                self.flowers[self.dealer] += 1
                continue
            self.emit(_K.GOLD, None, tile)
            self.gold = tile
            return

    def discard_choice(self, seat: int) -> Tile:
        """A random held tile, keeping golds and tiles that could extend a pung when possible."""
        held = self.held[seat]
        keep = self.pungs[seat] | ({self.gold} if self.gold is not None else set())
        choices = [t for t in held if t not in keep] or held
        return self.rng.choice(choices)

    def play(self) -> Result:
        rng = self.rng
        if self.fuzhou:
            self.reveal_gold()
            if rng.random() < 0.04:  # 天和
                self.emit(_K.HU, self.dealer, None, win=WinKind.HEAVENLY)
                return self.win(self.dealer, None, None, WinKind.HEAVENLY)
            if rng.random() < 0.05:  # 抢金 on the first turn
                seat = rng.randrange(4)
                self.emit(_K.HU, seat, self.gold, win=WinKind.ROB_GOLD)
                return self.win(seat, None, self.gold, WinKind.ROB_GOLD)
        # Fuzhou's dealer holds 17 and starts by discarding; Guobiao's holds 13 and draws first
        turn, need_draw, tail, turns = self.dealer, not self.fuzhou, False, 0
        while True:
            turns += 1
            drawn: Tile | None = None
            if need_draw:
                drawn = self.draw(turn, tail=tail)
                if drawn is None:
                    self.emit(_K.HUANG)
                    scores = (0, 0, 0, 0) if rng.random() < 0.7 else None
                    return Result(Outcome.DRAW, scores=scores)
                tail = False
                settled = self.self_action(turn, drawn, turns)
                if isinstance(settled, Result):
                    return settled
                if settled:  # a kong: draw a replacement
                    tail = True
                    continue
            tile = self.discard_choice(turn)
            self.held[turn].remove(tile)
            self.emit(_K.DISCARD, turn, tile)
            claimed = self.claims(turn, tile)
            if isinstance(claimed, Result):
                return claimed
            if claimed is None and self.side.random() < 0.001:  # a wrong action stops the hand (WA)
                offender = self.side.randrange(4)
                self.emit(_K.PENALTY, offender)
                penalty = tuple(-30 if s == offender else 10 for s in range(4))
                return Result(Outcome.PENALTY, scores=penalty if self.side.random() < 0.8 else None)
            if claimed is None:
                turn, need_draw = (turn + 1) % 4, True
            else:
                turn, kind = claimed
                need_draw = kind == "gang"
                tail = need_draw

    def self_action(self, seat: int, drawn: Tile, turns: int) -> Result | bool:
        """After a draw: maybe win, kong; True if a replacement draw is due."""
        rng, held = self.rng, self.held[seat]
        golds = held.count(self.gold) if self.fuzhou and self.gold is not None else 0
        if golds >= 3 and rng.random() < 0.7:
            self.emit(_K.HU, seat, None, win=WinKind.THREE_GOLDS)  # 三金倒: any shape
            return self.win(seat, None, None, WinKind.THREE_GOLDS)
        if rng.random() < min(0.1, turns / 2500):
            self.emit(_K.HU, seat, drawn)
            return self.win(seat, None, drawn, None)
        fours = [t for t in set(held) if held.count(t) == 4]
        if fours and rng.random() < 0.6:
            tile = rng.choice(sorted(fours))
            for _ in range(4):
                held.remove(tile)
            self.emit(_K.ANGANG, seat, tile)
            self.kongs[seat] += 2
            return True
        added = sorted(t for t in self.pungs[seat] if t in held)
        if added and rng.random() < 0.7:
            drawn = rng.choice(added)
            held.remove(drawn)
            self.pungs[seat].discard(drawn)
            self.emit(_K.BUGANG, seat, drawn)
            self.kongs[seat] += 1
            if rng.random() < 0.25:  # 抢杠和
                robber = (seat + rng.randint(1, 3)) % 4
                self.emit(_K.HU, robber, drawn, from_seat=seat, win=WinKind.ROB_KONG)
                return self.win(robber, seat, drawn, WinKind.ROB_KONG)
            return True
        return False

    def claims(self, discarder: int, tile: Tile) -> Result | tuple[int, str] | None:
        """Claims on a discard by priority (hu > peng = gang > chi); the losers are ``ignored``."""
        rng = self.rng
        if self.fuzhou and tile == self.gold:
            return None  # reference fuzhou.md: nobody may claim a discarded gold
        offers: list[tuple[int, int, str, Tile]] = []  # (priority, distance, kind, tile)
        for distance in (1, 2, 3):
            seat = (discarder + distance) % 4
            held = self.held[seat]
            if rng.random() < 0.006:
                offers.append((0, distance, "hu", tile))
            if held.count(tile) >= 3 and rng.random() < 0.5:
                offers.append((1, distance, "gang", tile))
            elif held.count(tile) >= 2 and rng.random() < 0.5:
                offers.append((1, distance, "peng", tile))
            if distance == 1 and tile.is_suited and rng.random() < 0.5:
                middle = self.chow_middle(held, tile)
                if middle is not None:
                    offers.append((2, distance, "chi", middle))
        if not offers:
            return None
        offers.sort()
        _, distance, kind, shown = offers[0]
        seat = (discarder + distance) % 4
        held = self.held[seat]
        if kind == "hu":
            self.emit(_K.HU, seat, tile, from_seat=discarder)
        elif kind == "chi":
            for t in (shown - 1, shown, shown + 1):
                if t != tile:
                    held.remove(ALL_KINDS[t])
            self.emit(_K.CHI, seat, shown, from_seat=discarder, claimed=tile)
        else:
            for _ in range(3 if kind == "gang" else 2):
                held.remove(tile)
            if kind == "peng":
                self.pungs[seat].add(tile)
            else:
                self.kongs[seat] += 1
            self.emit(_K.PENG if kind == "peng" else _K.GANG, seat, tile, from_seat=discarder)
        for _, other_distance, other_kind, other_tile in offers[1:]:
            other = (discarder + other_distance) % 4
            if other != seat:
                self.emit(_K.IGNORED, other, other_tile, claim=other_kind)
        if kind == "hu":
            return self.win(seat, discarder, tile, None)
        return seat, kind

    @staticmethod
    def chow_middle(held: Sequence[Tile], tile: Tile) -> Tile | None:
        rank, base = tile % 9, tile - tile % 9
        for middle in (rank - 1, rank, rank + 1):
            if 1 <= middle <= 7:
                run = [base + middle - 1, base + middle, base + middle + 1]
                run.remove(tile)
                if all(ALL_KINDS[t] in held for t in run):
                    return ALL_KINDS[base + middle]
        return None

    # --- results ------------------------------------------------------------------------------
    def win(self, winner: int, loser: int | None, tile: Tile | None,
            kind: WinKind | None) -> Result:
        self_drawn = loser is None or (self.fuzhou and kind is WinKind.ROB_KONG)
        if self.fuzhou:
            return self.fuzhou_result(winner, loser, tile, kind, self_drawn)
        rng = self.rng
        fans = [FanEntry(name, rng.choice((1, 1, 1, 2)), value if rng.random() < 0.3 else None)
                for name, value in rng.sample(GUOBIAO_FANS, rng.randint(1, 5))]
        if self.flowers[winner]:
            fans.append(FanEntry("花牌", self.flowers[winner]))
        total = max(8, sum(dict(GUOBIAO_FANS)[f.name] * f.count for f in fans))
        # reference botzone-format.md: self-draw 3(8+F) from all; discard 8+F from the discarder
        if self_drawn:
            scores = [-(8 + total)] * 4
            scores[winner] = 3 * (8 + total)
        else:
            scores = [-8] * 4
            scores[loser] = -(8 + total)  # type: ignore[index]
            scores[winner] = 24 + total
        return Result(Outcome.WIN, winner, None if self_drawn else loser, tile, self_drawn,
                      total if rng.random() < 0.9 else None, tuple(fans),
                      tuple(scores) if rng.random() < 0.9 else None)

    def fuzhou_result(self, winner: int, loser: int | None, tile: Tile | None,
                      kind: WinKind | None, self_drawn: bool) -> Result:
        rng = self.rng
        golds = self.held[winner].count(self.gold) if self.gold is not None else 0
        if kind is WinKind.ROB_GOLD:
            golds += 1  # reference fuzhou.md: the robbed face-up gold counts as a gold
        special = {WinKind.THREE_GOLDS: ("三金倒", 40), WinKind.ROB_GOLD: ("抢金", 30),
                   WinKind.HEAVENLY: ("天和", 30)}
        if kind in special:
            pattern, points = special[kind]  # type: ignore[index]
        elif rng.random() < 0.6:
            pattern, points = rng.choice(sorted(FUZHOU_PATTERNS.items()))
        else:
            pattern, points = None, 0
        streak = self.streak
        flower_fan = self.flowers[winner] + self.kongs[winner]
        fans = [FanEntry("花番", flower_fan, 1), FanEntry("金番", golds, 1)]
        if streak:
            fans.append(FanEntry("连庄", streak, 1))
        if pattern is not None:
            fans.append(FanEntry(pattern, 1, points))
        # reference fuzhou.md (seed 003): each payer pays (花番 + 金番 + 连庄数 + 5) x 2 + pattern
        each = (flower_fan + golds + streak + 5) * 2 + points
        scores = [0] * 4
        payers = [s for s in range(4) if s != winner] if self_drawn else [loser]
        for payer in payers:
            scores[payer] -= each  # type: ignore[index]
            scores[winner] += each
        return Result(Outcome.WIN, winner, None if self_drawn else loser, tile, self_drawn,
                      flower_fan + golds + streak if rng.random() < 0.5 else None, tuple(fans),
                      tuple(scores), pattern)

    streak = 0


def _timestamp(rng: random.Random) -> str:
    moment = datetime(2017, 1, 1, tzinfo=UTC) + timedelta(seconds=rng.randrange(10**9 // 4))
    zone = rng.choice((UTC, timezone(timedelta(hours=8)), None))
    if zone is None:
        return moment.replace(tzinfo=None).isoformat()
    return moment.astimezone(zone).isoformat()


def random_hand(rng: random.Random, ruleset: str | None = None,
                texts: Sequence[str] = ()) -> Hand:
    """A plausible hand played out by ``rng``; ``texts`` are odd strings to use for names/meta."""
    ruleset = ruleset or rng.choice(RULESETS)
    fuzhou = ruleset == "fuzhou"
    pool = list(NAMES) + list(texts)
    dealer = rng.randrange(4) if fuzhou or rng.random() < 0.5 else 0
    table = _Table(rng, ruleset, dealer, lines=rng.random() < 0.6)
    table.streak = rng.choice((0, 0, 1, 2, 5)) if fuzhou else rng.choice((0, 0, 0, 1))
    table.deal()
    result = table.play()
    match_id = rng.choice((f"{rng.getrandbits(96):024x}", f"fz-{rng.randrange(10**6)}",
                           *(t for t in texts if t)))
    players = tuple(rng.choice(pool) for _ in range(4)) if rng.random() < 0.6 else ("",) * 4
    meta: tuple[tuple[str, str], ...] = ()
    if rng.random() < 0.3:
        meta = tuple(sorted({rng.choice(("room", "table", "备注", *texts)): rng.choice(pool)
                             for _ in range(rng.randint(1, 3))}.items()))
    provenance = None
    if rng.random() < 0.8:
        provenance = Provenance(rng.choice(("data.txt", "sample.txt", "logs/福州/2024-05.log",
                                            "sim/run-7.jsonl")), rng.randint(1, 10**6))
    return Hand(
        match_id=match_id,
        hand_no=rng.randrange(16) if fuzhou or rng.random() < 0.3 else 0,
        ruleset=ruleset,
        profile=rng.choice(("seed", "platform")) if fuzhou else rng.choice(("botzone", "standard")),
        dealer=dealer,
        prevalent_wind=rng.randrange(4),
        events=tuple(table.events),
        result=result,
        players=players,
        styles=tuple(rng.choice(STYLES) for _ in range(4)) if rng.random() < 0.3 else (),
        streak=table.streak,
        gold=table.gold,
        wall=tuple(table.full_wall) if rng.random() < 0.3 else None,
        dice=(rng.randint(1, 6), rng.randint(1, 6)) if rng.random() < 0.5 else None,
        started_at=_timestamp(rng) if rng.random() < 0.5 else None,
        meta=meta,
        provenance=provenance,
    )


_ODD_TEXT = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=12
)


@st.composite
def hands(draw: st.DrawFn, ruleset: str | None = None) -> Hand:
    """A realistic hand of ``ruleset`` (either when None), with odd strings now and then."""
    # A seed rather than st.randoms(): a hand makes hundreds of random choices, and recording
    # each one in hypothesis makes generation ten times slower for no useful shrinking.
    rng = random.Random(draw(st.integers(0, 2**64 - 1)))
    chosen = ruleset or draw(st.sampled_from(RULESETS))
    texts = draw(st.lists(_ODD_TEXT, max_size=3))
    return random_hand(rng, chosen, texts)
