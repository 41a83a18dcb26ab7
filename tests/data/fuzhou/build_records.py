"""Write the hand-written Fuzhou records of tests/data/fuzhou/ (run from the repository root:
``.venv/bin/python tests/data/fuzhou/build_records.py``).

Each hand is scripted event by event below; the results (pattern, fan, scores) are worked out
by hand from reference fuzhou.md and seed 003 in the comments, never computed by mjstats. The
script only does the bookkeeping a person would do with real tiles: it picks inert filler
tiles (suited, never the gold kind) from what is left of the 144, counts the wall, and lays
out ``wall`` so that deals and turn draws come from the front, replacements and the gold from
the tail, and the face-up gold is the last drawable tile (seed 003: its place moves forward).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
SUITED = [f"{s}{n}" for n in range(1, 10) for s in "WTB"]  # filler order: spread over suits
HONOURS = ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]
FLOWERS = [f"H{n}" for n in range(1, 9)]
FLOWER_TILES = set(HONOURS) | set(FLOWERS)  # seed profile: every honour is a flower tile
FILL = "?"  # a filler tile, chosen at build time
SAME = "="  # discard the tile just drawn


def full_set() -> Counter[str]:
    return Counter({**{t: 4 for t in SUITED + HONOURS}, **{t: 1 for t in FLOWERS}})


class Script:
    """One hand: events in order, with the wall counted as they go (reserve by hand)."""

    def __init__(self, match_id: str, hand_no: int, dealer: int, streak: int, gold: str) -> None:
        self.head = {
            "v": 1,
            "match_id": match_id,
            "hand_no": hand_no,
            "ruleset": "fuzhou",
            "profile": "seed",
            "dealer": dealer,
            "prevalent_wind": 0,
        }
        if streak:
            self.head["streak"] = streak
        self.head["gold"] = gold
        self.gold = gold
        self.events: list[dict] = []
        self.front: list[str] = []  # tiles in the order they leave the front
        self.tail: list[str] = []  # tiles in the order they leave the tail
        self.live_gold = False  # the face-up gold is still in the wall
        self.reserve = 18  # kept by hand: call more_reserve() at each kong / flower group
        self.result: dict = {}

    # --- counting -------------------------------------------------------------------------
    def drawable(self) -> int:
        left = 144 - len(self.front) - len(self.tail) + (1 if self.live_gold else 0)
        return left - self.reserve

    def more_reserve(self, n: int) -> None:
        """seed 003: +1 per exposed kong, +2 per concealed kong, +2 per group of four flowers."""
        self.reserve += n

    # --- events ---------------------------------------------------------------------------
    def ev(self, **kw: object) -> None:
        self.events.append({k: v for k, v in kw.items() if v is not None})

    def deal(self, seat: int, tiles: str, n: int) -> None:
        ts = tiles.split() + [FILL] * (n - len(tiles.split()))
        self.front.extend(ts)
        self.ev(k="deal", s=seat, ts=ts)

    def flower(self, seat: int, tile: str) -> None:
        self.ev(k="flower", s=seat, t=tile)

    def draw(self, seat: int, tile: str = FILL, tail: bool = False, face_up_gold: bool = False) -> None:
        assert self.drawable() > 0, f"{self.head['match_id']}: draw into the reserve"
        if face_up_gold:
            assert self.live_gold and self.drawable() == 1 and tile == self.gold
            self.live_gold = False
        elif tail:
            self.tail.append(tile)
        else:
            assert not (self.live_gold and self.drawable() == 1), "the next front draw is the gold"
            self.front.append(tile)
        self.ev(k="draw", s=seat, t=tile, tail=True if tail else None, face_up=face_up_gold or None)

    def gold_up(self, tile: str, dealer: int | None = None) -> None:
        self.tail.append(tile)
        if tile not in FLOWER_TILES:
            self.live_gold = True
        self.ev(k="gold", s=dealer, t=tile)

    def discard(self, seat: int, tile: str = SAME) -> None:
        self.ev(k="discard", s=seat, t=tile)

    def turn(self, seat: int, draw: str = FILL, discard: str = SAME) -> None:
        self.draw(seat, draw)
        self.discard(seat, discard)

    def flower_turn(self, seat: int, flower: str, replacement: str = FILL, discard: str = SAME) -> None:
        """Draw a flower in play, set it aside, replace it from the tail, discard."""
        self.draw(seat, flower)
        self.flower(seat, flower)
        self.draw(seat, replacement, tail=True)
        self.discard(seat, discard)

    def play_to_final(
        self, seat: int, first_final: int, honours: list[str], at_least: int, skip: tuple[int, ...] = ()
    ) -> None:
        """Plain turns (draw, discard the drawn tile) from ``seat`` on until four drawable tiles
        are left and ``first_final`` is the next to draw. Some turns draw one of ``honours`` (a
        flower tile: set aside, replaced from the tail, which uses one more tile without moving
        the turn on): as many as align the turn, and ``at_least`` of them (so that the suited
        tiles do not run out); seats in ``skip`` draw none. ``honours`` must never give a seat
        a group of four."""
        drawable = self.drawable()
        need = (seat + drawable - 4 - first_final) % 4
        while need < at_least:
            need += 4
        assert len(honours) >= need, "not enough flower tiles"
        plain = drawable - 4 - 2 * need  # turns without a flower
        assert plain >= 0
        k = 0
        while self.drawable() > 4:
            if need and seat not in skip and self.drawable() > 8:
                self.flower_turn(seat, honours.pop(0))
                need -= 1
            else:
                self.turn(seat)
            seat = (seat + 1) % 4
            k += 1
        assert need == 0 and seat == first_final and self.drawable() == 4, (need, seat, self.drawable())

    def chi(self, seat: int, middle: str, frm: int, claimed: str) -> None:
        self.ev(k="chi", s=seat, t=middle, f=frm, c=claimed)

    def peng(self, seat: int, tile: str, frm: int) -> None:
        self.ev(k="peng", s=seat, t=tile, f=frm)

    def gang(self, seat: int, tile: str, frm: int) -> None:
        self.ev(k="gang", s=seat, t=tile, f=frm)
        self.more_reserve(1)

    def angang(self, seat: int, tile: str) -> None:
        self.ev(k="angang", s=seat, t=tile)
        self.more_reserve(2)

    def bugang(self, seat: int, tile: str) -> None:
        self.ev(k="bugang", s=seat, t=tile)
        self.more_reserve(1)

    def ignored(self, seat: int, tile: str, claim: str) -> None:
        self.ev(k="ignored", s=seat, t=tile, claim=claim)

    def hu(self, seat: int, tile: str, frm: int | None = None, win: str | None = None) -> None:
        self.ev(k="hu", s=seat, t=tile, f=frm, win=win)

    def huang(self) -> None:
        self.ev(k="huang")

    # --- output ---------------------------------------------------------------------------
    def build(self) -> dict:
        """Resolve fillers from the tiles left and lay out the wall."""
        pool = full_set()
        explicit = [t for t in self.front + self.tail if t not in (FILL, SAME)]
        pool.subtract(explicit)
        bad = {t: n for t, n in pool.items() if n < 0}
        assert not bad, f"{self.head['match_id']}/{self.head['hand_no']}: too many copies {bad}"
        order = [t for t in SUITED if t != self.gold]
        cursor = 0

        def filler() -> str:
            nonlocal cursor
            for _ in range(len(order)):
                t = order[cursor % len(order)]
                cursor += 1
                if pool[t] > 0:
                    pool[t] -= 1
                    return t
            raise AssertionError("no filler tile left")

        last_drawn: dict[int, str] = {}
        for e in self.events:
            if e["k"] == "deal":
                e["ts"] = [filler() if t == FILL else t for t in e["ts"]]
            elif e["k"] == "draw":
                if e["t"] == FILL:
                    e["t"] = filler()
                last_drawn[e["s"]] = e["t"]
            elif e["k"] == "discard" and e["t"] == SAME:
                e["t"] = last_drawn[e["s"]]
        front = [t for e in self.events if e["k"] == "deal" for t in e["ts"]]
        # the face-up gold, when drawn, is the gold event's tile: it takes no front place
        front += [
            e["t"] for e in self.events if e["k"] == "draw" and not e.get("tail") and not e.get("face_up")
        ]
        tail = [e["t"] for e in self.events if (e["k"] == "draw" and e.get("tail")) or e["k"] == "gold"]
        for e in self.events:
            e.pop("face_up", None)
        middle = sorted(pool.elements(), key=lambda t: (t[0], t[1]))
        wall = front + middle + tail[::-1]
        assert Counter(wall) == full_set(), "the wall is not the 144-tile set"
        return {**self.head, "wall": wall, "events": self.events, "result": self.result}


def json_line(record: dict) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def main() -> None:
    sys.path.insert(0, str(HERE))
    from hands import all_hands  # the scripted hands, one function each

    from mjstats.formats.canonical import hand_from_json, hand_to_json

    # through the canonical reader and writer: the committed lines are canonical bytes
    lines = [
        hand_to_json(hand_from_json(json_line(script.build()), source="build", line=1))
        for script in all_hands()
    ]
    (HERE / "hands.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {len(lines)} hands to {HERE / 'hands.jsonl'}")


if __name__ == "__main__":
    main()
