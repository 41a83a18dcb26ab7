"""Write the nine worked examples of reference sichuan.md §6 as canonical Sichuan hands
(tests/data/sichuan/examples.jsonl; run from the repository root:
``.venv/bin/python tests/data/sichuan/build_records.py``).

Each example is scripted event by event below around the situation the reference describes;
its recorded wins (pattern, 0-based fan) and payments are copied from the reference's tables,
and the payments of what the reference only mentions ("P3 has already won") are worked out by
hand in the comments, never computed by mjstats. The script does only the bookkeeping a person
would do with real tiles: filler tiles for the turns around the example (a tile of the drawer's
void suit where one is left, never a tile anyone could win on, so no pass is ever forced), the
wall count (55 draws, then the exhaustive draw) and the 108-tile budget.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT))

from mjstats.formats.canonical import hand_from_json, hand_to_json  # noqa: E402
from mjstats.rulesets.sichuan import waits  # noqa: E402  (bookkeeping only: no filler may win)
from mjstats.tiles import parse_tile  # noqa: E402

KINDS = [f"{s}{n}" for s in "WTB" for n in range(1, 10)]
JUNK = {  # 13 tiles far from ready, none of the void suit
    "B": "W1 W4 W7 W2 W5 W8 W9 T1 T4 T7 T2 T5 T8",
    "W": "T1 T4 T7 T3 T6 T9 T2 B1 B4 B7 B3 B6 B9",
    "T": "W3 W6 W9 W1 W4 B2 B5 B8 B3 B6 B9 B1 B7",
}
FILL = None  # a filler tile chosen at build time
SAME = "="  # discard the tile just drawn


class Script:
    """One hand: its events in order, with the tiles counted as they go."""

    def __init__(self, match_id: str, dealer: int, voids: str, hands: dict[int, str]) -> None:
        self.match_id, self.dealer, self.voids = match_id, dealer, voids
        self.hands = {s: hands.get(s, JUNK[voids[s]]).split() for s in range(4)}
        self.melds: dict[int, list[tuple[str, str, int]]] = {s: [] for s in range(4)}
        self.won: set[int] = set()
        self.events: list[dict] = []
        self.drawn = 0
        self.last: str | None = None
        self.ops: list[tuple] = []
        self.wins: list[dict] = []
        self.payments: list[tuple[int, int, int, str, int | None]] = []

    # --- the script -------------------------------------------------------------------------
    def op(self, *args: object) -> Script:
        self.ops.append(args)
        return self

    def turn(self, seat: int, tile: str | None = FILL, discard: str = SAME) -> Script:
        return self.op("draw", seat, tile, False).op("discard", seat, discard)

    def fill(self, seats: list[int]) -> Script:
        for s in seats:
            self.turn(s)
        return self

    def win(self, winner: int, loser: int | None, tile: str, pattern: str, fan: int) -> None:
        win: dict[str, object] = {
            "winner": winner,
            "loser": loser,
            "win_tile": tile,
            "self_drawn": loser is None,
            "fan_total": fan,
            "pattern": pattern,
        }
        self.wins.append({k: v for k, v in win.items() if v is not None and v is not False})

    def pay(self, payer: int, payee: int, amount: int, reason: str, win_no: int | None = None) -> None:
        self.payments.append((payer, payee, amount, reason, win_no))

    # --- bookkeeping ------------------------------------------------------------------------
    def pool(self) -> Counter[str]:
        """Tiles not yet in play, less every tile the script names for later."""
        left = Counter({k: 4 for k in KINDS})
        for s in range(4):
            left.subtract(self.hands[s])
        for op in self.ops:
            if op[0] == "draw" and op[2] is not None:
                left[op[2]] -= 1
        return left

    def waits_of(self, seat: int) -> set[str]:
        hand = self.hands[seat]
        if len(hand) + 3 * len(self.melds[seat]) != 13:
            return set()
        melds = [(k, parse_tile(t), o) for k, t, o in self.melds[seat]]
        return {str(t.botzone) for t in waits([parse_tile(t) for t in hand], melds, void=self.voids[seat])}

    def filler(self, seat: int, budget: Counter[str]) -> str:
        """A tile of the drawer's void suit where one is left (any suit when it holds no void tile)
        that nobody could win on; the tiles someone could win on go before the last four (a pass
        there is only a pass lock until the player's next draw; in the last four it is a fault)."""
        banned = set().union(*(self.waits_of(s) for s in range(4) if s not in self.won))
        void = self.voids[seat]
        holds_void = any(t[0] == void for t in self.hands[seat])
        order = [k for k in KINDS if k[0] == void] + (
            [] if holds_void else [k for k in KINDS if k[0] != void]
        )
        usable = [k for k in order if budget[k] > 0]
        risky = [k for k in usable if k in banned]
        before_last_four = 51 - self.drawn
        dangerous = sum(budget[k] for k in KINDS if k in banned)
        picks = (
            risky
            if risky and 0 < before_last_four <= 3 * dangerous
            else [k for k in usable if k not in banned]
        )
        if not picks:
            left = sorted(k for k in KINDS if budget[k] > 0)
            raise SystemExit(
                f"{self.match_id}: no filler left for seat {seat} after {self.drawn} draws "
                f"(left: {left}, banned: {sorted(banned)})"
            )
        budget[picks[0]] -= 1
        return picks[0]

    def ev(self, **kw: object) -> None:
        self.events.append({k: v for k, v in kw.items() if v is not None})

    def build(self) -> str:
        budget = self.pool()
        assert min(budget.values()) >= 0, f"{self.match_id}: more than 4 of {budget.most_common()[-1]}"
        assert len(self.hands[self.dealer]) == 14 and all(
            len(self.hands[s]) == 13 for s in range(4) if s != self.dealer
        ), self.match_id
        for s in range(4):
            self.ev(k="deal", s=s, ts=list(self.hands[s]))
        for s in range(4):
            self.ev(k="void", s=s, t=f"{self.voids[s]}1")
        for op in self.ops:
            kind = op[0]
            if kind == "draw":
                _, seat, tile, tail = op
                assert self.drawn < 55, f"{self.match_id}: the wall is empty"
                tile = tile or self.filler(seat, budget)
                self.drawn += 1
                self.hands[seat].append(tile)
                self.last = tile
                self.ev(k="draw", s=seat, t=tile, tail=True if tail else None)
            elif kind == "discard":
                _, seat, tile = op
                tile = self.last if tile == SAME else tile
                self.hands[seat].remove(tile)
                self.ev(k="discard", s=seat, t=tile)
            elif kind in ("peng", "gang"):
                _, seat, frm, tile = op
                for _ in range(2 if kind == "peng" else 3):
                    self.hands[seat].remove(tile)
                self.melds[seat].append(("PENG" if kind == "peng" else "GANG", tile, (seat - frm) % 4))
                self.ev(k=kind, s=seat, t=tile, f=frm)
            elif kind == "angang":
                _, seat, tile = op
                for _ in range(4):
                    self.hands[seat].remove(tile)
                self.melds[seat].append(("GANG", tile, 0))
                self.ev(k="angang", s=seat, t=tile)
            elif kind == "bugang":
                _, seat, tile = op
                self.hands[seat].remove(tile)
                self.melds[seat] = [
                    ("GANG", t, o) if t == tile else (k, t, o) for k, t, o in self.melds[seat]
                ]
                self.ev(k="bugang", s=seat, t=tile)
            elif kind == "hu":
                _, seat, tile, frm, rob = op
                self.won.add(seat)
                self.ev(k="hu", s=seat, t=tile, f=frm, win="rob_kong" if rob else None)
            elif kind == "play_out":
                _, start = op
                seat = start
                while self.drawn < 55:
                    tile = self.filler(seat, budget)
                    self.drawn += 1
                    self.ev(k="draw", s=seat, t=tile)
                    self.ev(k="discard", s=seat, t=tile)
                    seat = next((seat + i) % 4 for i in range(1, 5) if (seat + i) % 4 not in self.won)
                self.ev(k="huang")
        rows = []
        for payer, payee, amount, reason, win_no in self.payments:
            for seat, score in ((payer, -amount), (payee, amount)):
                row = {"seat": seat, "score": score, "reason": reason}
                if win_no is not None:
                    row["win_no"] = win_no
                rows.append(row)
        scores = [0, 0, 0, 0]
        for payer, payee, amount, *_ in self.payments:
            scores[payer] -= amount
            scores[payee] += amount
        result: dict = {"outcome": "win" if self.wins else "draw"}
        if self.wins:
            result["wins"] = self.wins
        result["scores"] = scores
        result["payments"] = rows
        hand = {
            "v": 2,
            "match_id": self.match_id,
            "hand_no": 0,
            "ruleset": "sichuan",
            "profile": "seed",
            "dealer": self.dealer,
            "prevalent_wind": 0,
            "events": self.events,
            "result": result,
        }
        return json.dumps(hand, ensure_ascii=False, separators=(",", ":"))


def e1() -> Script:
    """P3 won earlier (平胡 on P0's B7: W123 W456 W789 B11 B567 = 0 fan, x1, P0 pays 1); then P1
    (void W) self-draws T5 for 清一色 x4, paid by the active P0 and P2."""
    s = Script(
        "sc-e1",
        0,
        "BWBT",
        {
            0: JUNK["B"] + " B2",
            1: "T1 T1 T1 T2 T3 T4 T4 T6 T7 T7 T7 T9 T9",
            3: "W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B1 B5 B6",
            2: "W3 W6 W9 W1 W4 W7 T3 T6 T9 T2 T5 T8 W8",
        },
    )
    s.op("discard", 0, "B2").fill([1, 2, 3]).turn(0, "B7").op("hu", 3, "B7", 0, False)
    s.win(3, 0, "B7", "平胡", 0)
    s.pay(0, 3, 1, "win", 0)
    s.turn(0).op("draw", 1, "T5", False).op("hu", 1, "T5", None, False)
    s.win(1, None, "T5", "清一色", 2)
    s.pay(2, 1, 4, "win", 1)  # payers in turn order from the winner
    s.pay(0, 1, 4, "win", 1)
    return s.op("play_out", 2)


def e2() -> Script:
    """P2 (void T) wins 龙七对 with a second quad on P0's B7: x32."""
    s = Script(
        "sc-e2",
        0,
        "BBTW",
        {
            0: "W1 W4 W7 W3 W5 W8 W9 T1 T4 T7 T2 T5 T8 B2",
            2: "W2 W2 W2 W2 W5 W5 W8 W8 B3 B3 B3 B3 B7",
            1: "W1 W4 W7 W3 W6 W9 T1 T4 T7 T3 T6 T9 T2",
            3: "T1 T4 T7 T3 T6 T9 T2 B1 B4 B6 B5 B8 B9",
        },
    )
    s.op("discard", 0, "B2").fill([1, 2, 3]).turn(0, "B7").op("hu", 2, "B7", 0, False)
    s.win(2, 0, "B7", "龙七对", 5)
    s.pay(0, 2, 32, "win", 0)
    return s.op("play_out", 3)


def e3() -> Script:
    """一炮多响: P2 (void B) discards B6; P3 (对对胡 x2, nearest) and P1 (平胡 x1) win."""
    s = Script(
        "sc-e3",
        2,
        "TTBW",
        {
            2: "W1 W4 W7 W2 W5 W8 W9 T1 T4 T7 T3 T6 T9 B1",
            1: "W1 W2 W3 W4 W5 W6 B2 B3 B4 B5 B7 B8 B8",
            3: "T2 T2 T2 T5 T5 T5 T8 T8 T8 B6 B6 B9 B9",
            0: "W3 W6 W9 W1 W4 W7 B1 B4 B7 B2 B5 B9 W8",
        },
    )
    s.op("discard", 2, "B1").fill([3, 0, 1]).turn(2, "B6")
    s.op("hu", 3, "B6", 2, False).op("hu", 1, "B6", 2, False)
    s.win(3, 2, "B6", "对对胡", 1)
    s.win(1, 2, "B6", "平胡", 0)
    s.pay(2, 3, 2, "win", 0)
    s.pay(2, 1, 1, "win", 1)
    return s.op("play_out", 2)


def e4() -> Script:
    """杠上炮 with 呼叫转移: P0 (void B) 暗杠 W7 (2 from each), replacement T4 discarded; P1 and
    P2 win; each gets G = 6 (the second from P0's pocket)."""
    s = Script(
        "sc-e4",
        0,
        "BBWT",
        {
            0: "W7 W7 W7 W1 W4 W2 W5 W9 T1 T7 T3 T6 T9 B1",
            1: "W1 W1 W1 W4 W5 W6 T2 T3 T5 T6 T7 T9 T9",
            2: "T4 T8 T8 B2 B2 B3 B3 B5 B5 B6 B6 B9 B9",
            3: "W3 W6 W9 W2 W5 W8 B1 B4 B7 B3 B6 B9 W8",
        },
    )
    s.op("discard", 0, "B1").fill([1, 2, 3])
    s.op("draw", 0, "W7", False).op("angang", 0, "W7").op("draw", 0, "T4", True).op("discard", 0, "T4")
    s.pay(1, 0, 2, "kong")
    s.pay(2, 0, 2, "kong")
    s.pay(3, 0, 2, "kong")
    s.op("hu", 1, "T4", 0, False).op("hu", 2, "T4", 0, False)
    s.win(1, 0, "T4", "平胡", 1)
    s.win(2, 0, "T4", "七对", 3)
    s.pay(0, 1, 2, "win", 0)
    s.pay(0, 2, 8, "win", 1)
    s.pay(0, 1, 6, "kong")  # CALL_TRANSFER
    s.pay(0, 2, 6, "kong")  # CALL_TRANSFER_EXTRA
    return s.op("play_out", 3)


def e5() -> Script:
    """抢杠胡: P3 (void T) pongs P0's B5 (P1 could win on it and passes: locked until its draw),
    later draws the fourth B5 and declares 补杠; P1 (void W) robs it: 清一色 x4, P3 pays."""
    s = Script(
        "sc-e5",
        0,
        "BWWT",
        {
            0: JUNK["B"] + " B4",
            1: "B1 B1 B1 B2 B2 B3 B4 B6 B6 B6 B7 B8 B9",
            3: "B5 B5 T5 W1 W4 W7 W2 W8 W9 B8 W6 W3 B9",
            2: "T1 T4 T7 T3 T6 T9 T2 B2 B3 T8 B7 T8 B9",
        },
    )
    s.op("discard", 0, "B4").fill([1, 2, 3]).turn(0, "B5").op("peng", 3, 0, "B5").op("discard", 3, "T5")
    s.fill([0, 1, 2]).op("draw", 3, "B5", False).op("bugang", 3, "B5").op("hu", 1, "B5", 3, True)
    s.win(1, 3, "B5", "清一色", 2)
    s.pay(3, 1, 4, "win", 0)
    return s.op("play_out", 2)


def e6() -> Script:
    """The exhaustive draw: (a) P3 暗杠 B3, (b) P1 直杠 T9 on P0's discard, (c) P2 self-draws
    (W222 W444 W666 B666 B88, 对对胡 x2 from P0, P1 and P3), (d) P0 补杠 W8 after a pong of P3's
    W8; at the end P0 is a 花猪, P1 not ready, P3 ready (M = 4): the reference's table."""
    s = Script(
        "sc-e6",
        0,
        "TBTW",
        {
            0: "W1 W2 W4 W6 B1 B1 B2 B7 T2 T5 W8 W8 T9 T3",
            1: "T9 T9 T9 W1 W3 W5 W7 W9 T1 T2 T4 T6 T7",
            2: "W2 W2 W2 W4 W4 W4 W6 W6 W6 B6 B6 B6 B8",
            3: "B3 B3 B3 B4 B5 B6 B7 B8 B9 B9 B9 T6 T6",
        },
    )
    s.op("discard", 0, "T9").op("gang", 1, 0, "T9").op("draw", 1, FILL, True).op("discard", 1, SAME)
    s.pay(0, 1, 2, "kong")  # (b)
    s.turn(2)
    s.op("draw", 3, "B3", False).op("angang", 3, "B3").op("draw", 3, FILL, True).op("discard", 3, SAME)
    s.pay(0, 3, 2, "kong")  # (a), payers from the konger's next seat
    s.pay(1, 3, 2, "kong")
    s.pay(2, 3, 2, "kong")
    s.turn(0).turn(1).op("draw", 2, "B8", False).op("hu", 2, "B8", None, False)
    s.win(2, None, "B8", "对对胡", 1)  # (c)
    s.pay(3, 2, 2, "win", 0)
    s.pay(0, 2, 2, "win", 0)
    s.pay(1, 2, 2, "win", 0)
    s.turn(3, "W8").op("peng", 0, 3, "W8").op("discard", 0, "T3")
    s.turn(1).turn(3)
    s.op("draw", 0, "W8", False).op("bugang", 0, "W8").op("draw", 0, FILL, True).op("discard", 0, SAME)
    s.pay(1, 0, 1, "kong")  # (d)
    s.pay(3, 0, 1, "kong")
    s.pay(0, 1, 32, "penalty")  # FLOWER_PIG
    s.pay(0, 3, 32, "penalty")
    s.pay(1, 3, 4, "settlement")  # CHA_JIAO
    s.pay(0, 1, 1, "kong")  # TAX_REFUND of W8
    s.pay(0, 3, 1, "kong")
    s.pay(1, 0, 2, "kong")  # TAX_REFUND of T9
    return s.op("play_out", 1)


def e7() -> Script:
    """P0 won earlier (self-draw B5, 平胡 x1 from P1, P2, P3); P2 (void W) had 暗杠 B2 (P0, P1, P3
    paid 2 each) and a pong of P3's B5; it 暗杠 B7 and wins 杠上花 on the replacement B1: 清对 3
    + 根 2 + 杠上花 1 = 6, capped x32."""
    s = Script(
        "sc-e7",
        0,
        "TBWB",
        {
            0: "W1 W2 W3 W4 W5 W6 W7 W8 W9 B3 B3 B4 B6 T1",
            2: "B2 B2 B2 B5 B5 B7 B7 B7 B9 B9 B1 B1 W1",
            1: "W3 W6 W9 W2 W5 W8 W4 T1 T4 T7 T3 T6 T9",
            3: "W1 W4 W7 W2 W5 W8 W9 T2 T5 T8 T3 T6 T9",
        },
    )
    s.op("discard", 0, "T1").fill([1])
    s.op("draw", 2, "B2", False).op("angang", 2, "B2").op("draw", 2, FILL, True).op("discard", 2, SAME)
    s.pay(3, 2, 2, "kong")
    s.pay(0, 2, 2, "kong")
    s.pay(1, 2, 2, "kong")
    s.fill([3]).op("draw", 0, "B5", False).op("hu", 0, "B5", None, False)
    s.win(0, None, "B5", "平胡", 0)
    s.pay(1, 0, 1, "win", 0)
    s.pay(2, 0, 1, "win", 0)
    s.pay(3, 0, 1, "win", 0)
    s.fill([1]).turn(2, FILL).turn(3, "B5").op("peng", 2, 3, "B5").op("discard", 2, "W1")
    s.fill([3, 1]).op("draw", 2, "B7", False).op("angang", 2, "B7").op("draw", 2, "B1", True)
    s.pay(3, 2, 2, "kong")
    s.pay(1, 2, 2, "kong")
    s.op("hu", 2, "B1", None, False)
    s.win(2, None, "B1", "清对", 6)
    s.pay(3, 2, 32, "win", 1)
    s.pay(1, 2, 32, "win", 1)
    return s.op("play_out", 3)


def e8() -> Script:
    """金钩钓: P1 (void B) pongs W2, W6, T8 and 直杠s T3 (P2 pays 2); it wins on P0's W9 with one
    tile left: 对对胡 1 + 根 1 = 2, x4 (the seed gives 金钩钓 nothing)."""
    s = Script(
        "sc-e8",
        0,
        "TBWT",
        {
            0: "W3 W6 W9 W1 W4 B2 B5 B8 B3 B6 B9 B1 B7 T1",
            1: "W2 W2 W6 W6 T3 T3 T3 T8 T8 W9 B4 B4 B4",
            2: "T1 T4 T7 T2 T5 T9 T6 B1 B3 B6 B9 B7 B5",
            3: "W1 W4 W7 W3 W5 W8 B2 B5 B8 B6 B9 B1 B7",
        },
    )
    s.op("discard", 0, "T1").fill([1]).turn(2, "W2").op("peng", 1, 2, "W2").op("discard", 1, "B4")
    s.turn(2, "W6").op("peng", 1, 2, "W6").op("discard", 1, "B4")
    s.turn(2, "T3").op("gang", 1, 2, "T3").op("draw", 1, "B2", True).op("discard", 1, "B2")
    s.pay(2, 1, 2, "kong")
    s.turn(2, "T8").op("peng", 1, 2, "T8").op("discard", 1, "B4")
    s.fill([2, 3]).turn(0, "W9").op("hu", 1, "W9", 0, False)
    s.win(1, 0, "W9", "对对胡", 2)
    s.pay(0, 1, 4, "win", 0)
    return s.op("play_out", 2)


def e9() -> Script:
    """点杠花: P3 (void T) 直杠s P0's W4 (P0 pays 2), draws W9 and wins: 平胡 + 根 + 杠上花 = 2,
    x4 from each active player (seed rule 7: a self-draw)."""
    s = Script(
        "sc-e9",
        0,
        "BBBT",
        {
            0: "W1 W7 W2 W5 W8 W9 T1 T4 T7 T2 T5 T8 W3 B2",
            3: "W4 W4 W4 W7 W8 B1 B2 B3 B5 B6 B7 B8 B8",
            1: "W3 W6 W9 W1 W5 W7 T3 T6 T9 T2 T5 T8 W2",
            2: "W3 W6 W2 W5 W8 T1 T4 T7 T3 T6 T9 T2 T5",
        },
    )
    s.op("discard", 0, "B2").fill([1, 2, 3]).turn(0, "W4").op("gang", 3, 0, "W4")
    s.pay(0, 3, 2, "kong")
    s.op("draw", 3, "W9", True).op("hu", 3, "W9", None, False)
    s.win(3, None, "W9", "平胡", 2)
    s.pay(0, 3, 4, "win", 0)
    s.pay(1, 3, 4, "win", 0)
    s.pay(2, 3, 4, "win", 0)
    return s.op("play_out", 0)


EXAMPLES = (e1, e2, e3, e4, e5, e6, e7, e8, e9)


def main() -> None:
    # written as mjstats writes canonical hands (a single win in the flat form of docs/format.md)
    lines = [hand_to_json(hand_from_json(make().build(), source="build", line=1)) for make in EXAMPLES]
    (HERE / "examples.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
