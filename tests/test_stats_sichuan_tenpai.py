"""tenpai_at_draw on Sichuan hands: the seat's declared void suit decides whether it waits."""

from __future__ import annotations

from pathlib import Path

import pytest

from mjstats.rulesets.sichuan.tenpai import shanten
from mjstats.stats import clear_cache, compute
from mjstats.stats.holdings import UnreadableHand
from mjstats.tiles import parse_tiles
from tests.test_stats_sichuan import _ingest, _nd, _one

DEALS = (
    "T4 T4 W1 W1 W9 W9 T7 T8 T8 T9 W5 W5 T6 B9",  # dealer, void B: one from waiting after B9 goes
    "W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T2 T3",  # waits on T1/T4 unless T is its void
    "T1 T2 T3 T5 T6 B1 B2 B3 B4 B5 B6 B9 B9",  # void W: waits on T4/T7
    "W2 W3 W4 W5 W6 W7 B2 B3 B4 B7 B8 B9 T9",  # void T and holds a T9: not waiting
)


def _drawn_hand(no: int, voids: str) -> dict:
    events = [{"k": "deal", "s": s, "ts": DEALS[s].split()} for s in range(4)]
    events += [{"k": "void", "s": s, "t": f"{voids[s]}1"} for s in range(4)]
    events += [{"k": "discard", "s": 0, "t": "B9"}, {"k": "huang"}]
    return {"v": 2, "match_id": "tp", "hand_no": no, "ruleset": "sichuan", "profile": "seed",
            "dealer": 0, "prevalent_wind": 0, "players": ["ann", "bo", "cai", "dee"],
            "events": events, "result": {"outcome": "draw", "scores": [0, 0, 0, 0]}}


def test_tenpai_at_draw_reads_each_seats_void(tmp_path: Path) -> None:
    clear_cache()
    ds = _ingest(tmp_path, [_drawn_hand(0, "BBWT"), _drawn_hand(1, "BTWT")])
    by_seat = compute(ds, "tenpai_at_draw", by="seat")
    # seat 1 waits only while T is not its void; seat 2 waits both times
    assert [_nd(_one(by_seat, seat=s)) for s in range(4)] == [(0, 2), (1, 2), (2, 2), (0, 2)]


def test_the_shanten_part() -> None:
    def tiles(text: str) -> list[int]:
        return [int(t) for t in parse_tiles(text)]

    assert shanten(tiles(DEALS[1]), [], None, "seed", void=2) == 0
    assert shanten(tiles(DEALS[1]), [], None, "seed", void=1) > 0
    assert shanten(tiles(DEALS[3]), [], None, "seed", void=1) == 1  # the T9 must go first
    assert shanten(tiles("W1 W1 W1 W2"), [("PENG", 18, 1)] * 3, None, "seed", void=2) == 99
    assert shanten(tiles("W1 W1 W1 W2"), [("PENG", 9, 1)] * 3, None, "seed", void=2) == 0
    with pytest.raises(UnreadableHand):
        shanten(tiles("W1 W1"), [], None, "seed", void=2)
