"""A replay check of Fuzhou records against their recorded wall (docs/simulation.md).

The simulator's own check of its Fuzhou hands, independent of the audit's replayer
(mjstats.rulesets.fuzhou.replay): every dealt and drawn tile must be the tile the wall model puts there
(front, tail, the live gold as the last drawable tile), every discard, claim and kong must use held
tiles in turn, claims must respect priority, the hand must end as the reserve rules say, and the
recorded result must equal ``settle_win`` on the rebuilt hand. It is an independent re-reading of
the record, not a copy of the game loop, and returns problems as text (empty: the hand checks out).
"""

from __future__ import annotations

from mjstats.errors import RuleError
from mjstats.records import EventKind, FanEntry, Hand, Outcome, WinKind
from mjstats.rulesets.fuzhou import Profile, flower_groups, load_profile, reserve_size, settle_win
from mjstats.rulesets.fuzhou.settle import scoring_items
from mjstats.rulesets.fuzhou.turns import CLAIM_RANK, is_exhausted, is_final_draw

__all__ = ["check_fuzhou_hand"]


def check_fuzhou_hand(hand: Hand, profile: Profile | str | None = None) -> list[str]:
    """Problems found replaying ``hand`` (a Fuzhou record with its wall); [] when clean."""
    prof = load_profile(profile if profile is not None else hand.profile)
    try:
        return _Check(hand, prof).run()
    except (IndexError, KeyError, ValueError, RuleError) as exc:
        return [f"replay stopped: {type(exc).__name__}: {exc}"]


class _Check:
    def __init__(self, hand: Hand, prof: Profile) -> None:
        self.hand = hand
        self.prof = prof
        self.flower_kinds = prof.flower_kinds
        self.wall = [int(t) for t in hand.wall or ()]
        self.front, self.back = 0, len(self.wall)
        self.gold: int | None = None
        self.gold_pending = False
        self.counts = [[0] * 42 for _ in range(4)]
        self.melds: list[list[tuple[str, int, int]]] = [[] for _ in range(4)]
        self.flowers: list[list[int]] = [[] for _ in range(4)]
        self.discarded_gold = [False] * 4
        self.kongs = [0, 0]  # exposed/added, concealed
        self.problems: list[str] = []
        self.last_discard: tuple[int, int] | None = None  # (seat, tile)
        self.last_draw: dict[int, int] = {}
        self.final = False
        self.claim: tuple[int, str, int] | None = None  # taken claim: (seat, kind, discarder)

    def bad(self, seq: int, text: str) -> None:
        self.problems.append(f"seq {seq}: {text}")

    def reserve(self) -> int:
        groups = sum(flower_groups(f, self.prof) for f in self.flowers)
        return reserve_size(self.kongs[0], self.kongs[1], groups, self.prof)

    def wall_left(self) -> int:
        return self.back - self.front + (1 if self.gold_pending else 0)

    def take(self, seat: int, tile: int, n: int, seq: int, what: str) -> None:
        if self.counts[seat][tile] < n:
            self.bad(seq, f"seat {seat} {what} {tile} without holding {n}")
        self.counts[seat][tile] -= n

    def run(self) -> list[str]:
        hand = self.hand
        if len(self.wall) != 144:
            return [f"the wall has {len(self.wall)} tiles, not 144"]
        order = [(hand.dealer + i) % 4 for i in range(4)]
        deals = [e for e in hand.events if e.kind is EventKind.DEAL]
        if [e.seat for e in deals] != order:
            self.problems.append("deals are not in seat order from the dealer")
        for ev in hand.events:
            q, seat = ev.seq, ev.seat
            tile = None if ev.tile is None else int(ev.tile)
            kind = ev.kind
            if kind is not EventKind.IGNORED:
                self.claim = (
                    None
                    if kind not in (EventKind.CHI, EventKind.PENG, EventKind.GANG, EventKind.HU)
                    else self.claim
                )
            if kind is EventKind.DEAL:
                n = 17 if seat == hand.dealer else 16
                want = self.wall[self.front : self.front + n]
                self.front += n
                if [int(t) for t in ev.tiles] != want:
                    self.bad(q, f"seat {seat}'s deal is not the next {n} tiles of the wall")
                for t in want:
                    self.counts[seat][t] += 1  # type: ignore[index]
            elif kind is EventKind.GOLD:
                t = self.wall[self.back - 1]
                self.back -= 1
                if tile != t:
                    self.bad(q, f"the tile turned up is {t}, not {tile}")
                if seat is not None:
                    if seat != hand.dealer or t not in self.flower_kinds:
                        self.bad(q, "only a flower turned up goes to the dealer")
                    self.flowers[hand.dealer].append(t)
                else:
                    self.gold = t
                    self.gold_pending = self.prof.live_golds >= 4
                    if hand.gold is None or int(hand.gold) != t:
                        self.bad(q, f"Hand.gold is {hand.gold}, the gold turned up is {t}")
            elif kind is EventKind.FLOWER:
                if tile not in self.flower_kinds:
                    self.bad(q, f"{tile} is not a flower tile under {self.prof.name}")
                self.take(seat, tile, 1, q, "sets aside flower")  # type: ignore[arg-type]
                self.flowers[seat].append(tile)  # type: ignore[index, arg-type]
            elif kind is EventKind.DRAW:
                self.on_draw(q, seat, tile, ev.tail)  # type: ignore[arg-type]
            elif kind is EventKind.DISCARD:
                if self.final:
                    self.bad(q, "a discard during the final draws")
                size = sum(self.counts[seat][:34]) + 3 * len(self.melds[seat])  # type: ignore[index]
                if size != 17:
                    self.bad(q, f"seat {seat} holds {size} tiles when it discards")
                self.take(seat, tile, 1, q, "discards")  # type: ignore[arg-type]
                if tile == self.gold:
                    self.discarded_gold[seat] = True  # type: ignore[index]
                    if self.prof.gold_discard == "forbidden":
                        self.bad(q, "a gold discarded under gold_discard = forbidden")
                self.last_discard = (seat, tile)  # type: ignore[assignment]
            elif kind in (EventKind.CHI, EventKind.PENG, EventKind.GANG):
                self.on_claim(q, ev)
            elif kind in (EventKind.ANGANG, EventKind.BUGANG):
                if kind is EventKind.ANGANG:
                    self.take(seat, tile, 4, q, "konged")  # type: ignore[arg-type]
                    self.melds[seat].append(("GANG", tile, 0))  # type: ignore[index, arg-type]
                    self.kongs[1] += 1
                else:
                    self.take(seat, tile, 1, q, "added")  # type: ignore[arg-type]
                    melds = self.melds[seat]  # type: ignore[index]
                    i = next((i for i, m in enumerate(melds) if m[0] == "PENG" and m[1] == tile), None)
                    if i is None:
                        self.bad(q, f"seat {seat} adds {tile} to a pung it does not have")
                    else:
                        melds[i] = ("GANG", tile, melds[i][2])  # type: ignore[assignment]
                    self.kongs[0] += 1
                    self.last_discard = (seat, tile)  # type: ignore[assignment]
            elif kind is EventKind.IGNORED:
                if self.claim is None or ev.claim is None:
                    self.bad(q, "an ignored claim after no claim")
                else:
                    won_seat, won_kind, src = self.claim
                    near = (seat - src) % 4 < (won_seat - src) % 4  # type: ignore[operator]
                    if CLAIM_RANK[ev.claim] > CLAIM_RANK[won_kind] or (
                        ev.claim == won_kind and near and won_kind != "hu"
                    ):
                        self.bad(q, f"seat {won_seat}'s {won_kind} taken over seat {seat}'s {ev.claim}")
            elif kind is EventKind.HU:
                self.on_hu(q, ev)
            elif kind is EventKind.HUANG:
                if not is_exhausted(self.wall_left(), self.reserve()):
                    self.bad(q, f"huang with {self.wall_left() - self.reserve()} drawable tiles left")
                if hand.result.outcome is not Outcome.DRAW or hand.result.scores not in (None, (0, 0, 0, 0)):
                    self.bad(q, "an exhaustive draw recorded as something else")
        self.check_jumps()
        return self.problems

    def on_draw(self, q: int, seat: int, tile: int, tail: bool) -> None:
        if tail:
            want = self.wall[self.back - 1]
            self.back -= 1
        else:
            drawable = self.wall_left() - self.reserve()
            if drawable <= 0:
                self.bad(q, "a draw from an exhausted wall")
            if is_final_draw(self.wall_left(), self.reserve(), self.prof):
                self.final = True
            if self.gold_pending and drawable == 1:
                want = self.gold  # type: ignore[assignment]
                self.gold_pending = False
            else:
                want = self.wall[self.front]
                self.front += 1
        if tile != want:
            self.bad(q, f"seat {seat} draws {tile}, the wall gives {want}")
        self.counts[seat][tile] += 1
        self.last_draw[seat] = tile

    def on_claim(self, q: int, ev) -> None:  # type: ignore[no-untyped-def]
        seat, tile, src = ev.seat, int(ev.tile), ev.from_seat
        if self.last_discard is None or src != self.last_discard[0]:
            self.bad(q, "a claim on no discard")
            return
        claimed = self.last_discard[1]
        if claimed == self.gold:
            self.bad(q, "a claim on a discarded gold")
        if ev.kind is EventKind.CHI:
            if (seat - src) % 4 != 1:
                self.bad(q, f"seat {seat} chows seat {src}'s discard")
            for t in (tile - 1, tile, tile + 1):
                if t != claimed:
                    self.take(seat, t, 1, q, "chows with")
            self.melds[seat].append(("CHI", tile, claimed - tile + 2))
            self.claim = (seat, "chi", src)
        else:
            need = 3 if ev.kind is EventKind.GANG else 2
            self.take(seat, claimed, need, q, "claims with")
            self.melds[seat].append(("GANG" if need == 3 else "PENG", claimed, (seat - src) % 4))
            if need == 3:
                self.kongs[0] += 1
            self.claim = (seat, ev.kind.value, src)

    def on_hu(self, q: int, ev) -> None:  # type: ignore[no-untyped-def]
        hand, result = self.hand, self.hand.result
        seat, tile = ev.seat, int(ev.tile)
        counts = self.counts[seat]
        robbed_gold = ev.win is WinKind.ROB_GOLD
        heavenly = ev.win is WinKind.HEAVENLY
        discarder = None
        if robbed_gold or ev.win is WinKind.ROB_KONG:
            in_hand = False
            self_drawn = True
        elif ev.from_seat is not None:
            in_hand, self_drawn, discarder = False, False, ev.from_seat
            if self.last_discard != (discarder, tile):
                self.bad(q, "a discard win on a tile that was not the last discard")
        else:
            in_hand, self_drawn = True, True
            if not heavenly and self.last_draw.get(seat) != tile:
                self.bad(q, "a self-draw win on a tile that was not just drawn")
        tiles = [t for t in range(34) for _ in range(counts[t])]
        if in_hand:
            tiles.remove(tile)
        self.claim = (seat, "hu", discarder if discarder is not None else seat)
        jumped = any(f.name == "抢炮和" for f in result.fans)
        try:
            s = settle_win(
                tiles,
                self.melds[seat],
                self.gold,
                tile,
                self_drawn,
                self.flowers[seat],
                seat,
                hand.dealer,
                discarder=discarder,
                streak=hand.streak,
                profile=self.prof,
                robbed_gold=robbed_gold,
                heavenly=heavenly,
                jumped_claim=jumped,
            )
        except RuleError as exc:
            self.bad(q, f"the win does not settle: {exc}")
            return
        fan = s.fan
        fans = [FanEntry(*item) for item in scoring_items(s, self.prof)]
        for name, want, got in (
            ("winner", seat, result.winner),
            ("loser", discarder if ev.win is not WinKind.ROB_KONG else ev.from_seat, result.loser),
            ("win tile", tile, None if result.win_tile is None else int(result.win_tile)),
            ("self-draw", s.self_drawn, result.self_drawn),
            ("pattern", s.pattern, result.pattern),
            ("fan total", fan.total, result.fan_total),
            (
                "fans",
                sorted((f.name, f.count, f.points) for f in fans),
                sorted((f.name, f.count, f.points) for f in result.fans),
            ),
            ("scores", s.payments, result.scores),
        ):
            if want != got:
                self.bad(q, f"recorded {name} {got}, the engine gives {want}")

    def check_jumps(self) -> None:
        """A discard win over a nearer winner must be a 金雀/金龙 jump (抢炮和) and say so."""
        events = self.hand.events
        for i, ev in enumerate(events):
            if ev.kind is not EventKind.HU or ev.from_seat is None or ev.win is not None:
                continue
            src = ev.from_seat
            nearer = [
                e.seat
                for e in events[i + 1 :]
                if e.kind is EventKind.IGNORED
                and e.claim == "hu"
                and (e.seat - src) % 4 < (ev.seat - src) % 4
            ]  # type: ignore[operator]
            jumped = any(f.name == "抢炮和" for f in self.hand.result.fans)
            if bool(nearer) != jumped:
                self.bad(ev.seq, "a win over a nearer winner must be a 金雀/金龙 jump (抢炮和)")
