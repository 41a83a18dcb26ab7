"""Differential tests: mjstats.rulesets.guobiao against the PyMahjongGB 1.3.0 oracle.

Fast: 5,000 seeded generated hands and one crafted hand per fan (82). Slow (-m slow): 100,000
hands, every fan of the table seen at least once. Agreement means the same fans, in the same
order, with the same points x count, or the same error category (invalid / not a win).
"""

from __future__ import annotations

from collections import Counter

import pytest

from mjstats.rulesets.guobiao import FANS, calculate_fans
from tests.test_guobiao_handgen import Case, HandGenerator, compare

pytest.importorskip("MahjongGB")

CODE = {c: i for i, c in enumerate(
    [f"{s}{n}" for s in "WTB" for n in range(1, 10)] + [f"F{n}" for n in range(1, 5)]
    + [f"J{n}" for n in range(1, 4)]
)}


def _case(hand: str, win: str, melds: str = "", **flags) -> Case:
    ms = []
    for part in filter(None, (p.strip() for p in melds.split(","))):
        kind, tile, offer = part.split()
        ms.append((kind, CODE[tile], int(offer)))
    return Case([CODE[t] for t in hand.split()], ms, CODE[win], flags)


# One hand per fan: (fan, case). Each must score that fan, identically to the oracle.
CRAFTED: list[tuple[str, Case]] = [
    ("大四喜", _case("F1 F1 F1 F2 F2 F2 F3 F3 F3 F4 F4 F4 W1", "W1")),
    ("大三元", _case("J1 J1 J1 J2 J2 J2 J3 J3 J3 W1 W2 W3 W5", "W5")),
    ("绿一色", _case("T2 T3 T4 T2 T3 T4 T6 T6 T6 T8 T8 T8 J2", "J2")),
    ("九莲宝灯", _case("W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9 W9", "W5")),
    ("四杠", _case("F1", "F1", "GANG W1 1, GANG W2 2, GANG T3 3, GANG B4 0")),
    ("连七对", _case("T1 T1 T2 T2 T3 T3 T4 T4 T5 T5 T6 T6 T7", "T7")),
    ("十三幺", _case("W1 W9 T1 T9 B1 B9 F1 F2 F3 F4 J1 J2 J3", "J3")),
    ("清幺九", _case("W1 W1 W1 W9 W9 W9 T1 T1 T1 B9 B9 B9 T9", "T9")),
    ("小四喜", _case("F1 F1 F1 F2 F2 F2 F3 F3 F3 F4 W1 W2 W3", "F4")),
    ("小三元", _case("J1 J1 J1 J2 J2 J2 J3 W1 W2 W3 W4 W5 W6", "J3")),
    ("字一色", _case("F1 F1 F1 F2 F2 F2 J1 J1 J1 J2 J2 J2 J3", "J3")),
    ("四暗刻", _case("W1 W1 W1 W3 W3 W3 T5 T5 T5 B7 B7 B7 F1", "F1")),
    ("一色双龙会", _case("W1 W2 W3 W1 W2 W3 W7 W8 W9 W7 W8 W9 W5", "W5")),
    ("一色四同顺", _case("W2 W3 W4 W2 W3 W4 W2 W3 W4 W2 W3 W4 F1", "F1")),
    ("一色四节高", _case("W2 W2 W2 W3 W3 W3 W4 W4 W4 W5 W5 W5 F1", "F1")),
    ("一色四步高", _case("W1 W2 W3 W2 W3 W4 W3 W4 W5 W4 W5 W6 F1", "F1")),
    ("三杠", _case("T5 T6 T7 F1", "F1", "GANG W1 1, GANG W2 2, GANG T3 0")),
    ("混幺九", _case("W1 W1 W1 W9 W9 W9 T1 T1 T1 F1 F1 F1 J1", "J1")),
    ("七对", _case("W1 W1 W3 W3 T5 T5 T7 T7 B2 B2 F1 F1 J1", "J1")),
    ("七星不靠", _case("W1 W4 W7 T2 T5 B3 B6 F1 F2 F3 F4 J1 J2", "J3")),
    ("全双刻", _case("W2 W2 W2 W4 W4 W4 T6 T6 T6 B8 B8 B8 T2", "T2")),
    ("清一色", _case("W1 W2 W3 W3 W4 W5 W6 W7 W8 W9 W9 W9 W5", "W5")),
    ("一色三同顺", _case("W2 W3 W4 W2 W3 W4 T5 T6 T7 F1", "F1", "CHI W3 1")),
    ("一色三节高", _case("W2 W2 W2 W3 W3 W3 W4 W4 W4 T5 T6 T7 F1", "F1")),
    ("全大", _case("W7 W8 W9 T7 T8 T9 B7 B8 B9 W8 W8 W8 T9", "T9")),
    ("全中", _case("W4 W5 W6 T4 T5 T6 B4 B5 B6 W5 W5 W5 T4", "T4")),
    ("全小", _case("W1 W2 W3 T1 T2 T3 B1 B2 B3 W2 W2 W2 T3", "T3")),
    ("清龙", _case("W1 W2 W3 W4 W5 W6 W7 W8 W9 T5 T6 T7 F1", "F1")),
    ("三色双龙会", _case("W1 W2 W3 W7 W8 W9 T1 T2 T3 T7 T8 T9 B5", "B5")),
    ("一色三步高", _case("W1 W2 W3 W2 W3 W4 W3 W4 W5 T7 T8 T9 F1", "F1")),
    ("全带五", _case("W3 W4 W5 T4 T5 T6 B5 B6 B7 W5 W5 W5 T5", "T5")),
    ("三同刻", _case("W2 W2 W2 T2 T2 T2 B2 B2 B2 W5 W6 W7 F1", "F1")),
    ("三暗刻", _case("W1 W1 W1 T3 T3 T3 B5 B5 B5 W4 W5 W6 F1", "F1")),
    ("全不靠", _case("W1 W4 W7 T2 T5 T8 B3 B6 F1 F2 F3 F4 J1", "J2")),
    ("组合龙", _case("W1 W4 W7 T2 T5 T8 B3 B6 B9 W2 W3 W4 F1", "F1")),
    ("大于五", _case("W6 W7 W8 T7 T8 T9 B6 B7 B8 W9 W9 W9 T6", "T6")),
    ("小于五", _case("W1 W2 W3 T2 T3 T4 B1 B2 B3 W4 W4 W4 T1", "T1")),
    ("三风刻", _case("F1 F1 F1 F2 F2 F2 F3 F3 F3 W1 W2 W3 W5", "W5")),
    ("花龙", _case("W1 W2 W3 T4 T5 T6 B7 B8 B9 W5 W5 W5 F1", "F1")),
    ("推不倒", _case("B1 B2 B3 B3 B4 B5 T4 T5 T6 T8 T8 T8 J3", "J3")),
    ("三色三同顺", _case("W2 W3 W4 T2 T3 T4 B2 B3 B4 W6 W7 W8 F1", "F1")),
    ("三色三节高", _case("W2 W2 W2 T3 T3 T3 B4 B4 B4 W6 W7 W8 F1", "F1")),
    ("无番和", _case("T7 T8 J1 J1", "T9", "CHI W2 1, PENG T5 1, CHI B6 1")),
    ("妙手回春", _case("W1 W2 W3 T4 T5 T6 B7 B8 B9 W5 W5 F1 F1", "F1", self_drawn=True,
                      last_tile=True)),
    ("海底捞月", _case("W1 W2 W3 T4 T5 T6 B7 B8 B9 W5 W5 F1 F1", "F1", last_tile=True)),
    ("杠上开花", _case("W1 W2 W3 T4 T5 T6 W5 W5 F1 F1", "F1", "GANG B7 0", self_drawn=True,
                      kong_win=True)),
    ("抢杠和", _case("W1 W2 W3 T4 T5 T6 B7 B8 B9 W5 W6 F1 F1", "W7", kong_win=True)),
    ("碰碰和", _case("B7 B7 B7 F2 F2 F2 J1", "J1", "PENG W2 1, PENG T5 2")),
    ("混一色", _case("W1 W2 W3 W4 W5 W6 W6 W7 W8 F1 F1 F1 J1", "J1")),
    ("三色三步高", _case("W1 W2 W3 T2 T3 T4 B3 B4 B5 W5 W5 W5 F1", "F1")),
    ("五门齐", _case("W1 W2 W3 T2 T3 T4 B5 B6 B7 F1 F1 F1 J1", "J1")),
    ("全求人", _case("J1", "J1", "CHI W2 1, PENG T5 1, CHI B6 2, PENG F1 3")),
    ("双暗杠", _case("W3 W4 W5 B2 B3 B4 B5", "B5", "GANG W1 0, GANG T9 0")),
    ("双箭刻", _case("J1 J1 J1 J2 J2 J2 W1 W2 W3 T4 T5 T6 B5", "B5")),
    ("全带幺", _case("W1 W2 W3 W7 W8 W9 T1 T2 T3 F1 F1 F1 B9", "B9")),
    ("不求人", _case("W1 W2 W3 W4 W5 W6 T4 T5 T6 B7 B8 B9 F1", "F1", self_drawn=True)),
    ("双明杠", _case("W3 W4 W5 B2 B3 B4 B5", "B5", "GANG W1 1, GANG T9 2")),
    ("和绝张", _case("W1 W2 W3 T4 T5 T6 B7 B8 B9 W5 W6 F1 F1", "W7", fourth_tile=True)),
    ("箭刻", _case("W1 W2 W3 T4 T5 T6 B7 B8 B9 J1 J1 J1 F1", "F1")),
    ("圈风刻", _case("W1 W2 W3 T4 T5 T6 B7 B8 B9 F2 F2 F2 J1", "J1", round_wind=1)),
    ("门风刻", _case("W1 W2 W3 T4 T5 T6 B7 B8 B9 F3 F3 F3 J1", "J1", seat_wind=2)),
    ("门前清", _case("W1 W2 W3 T4 T5 T6 B7 B8 B9 F3 F3 F3 J1", "J1")),
    ("平和", _case("W1 W2 W3 T4 T5 T6 B7 B8 B9 W5 W6 W7 T2", "T2")),
    ("四归一", _case("W1 W1 W1 W1 W2 W3 T4 T5 T6 B7 B8 B9 F1", "F1")),
    ("双同刻", _case("W2 W2 W2 T2 T2 T2 W4 W5 W6 B7 B8 B9 F1", "F1")),
    ("双暗刻", _case("W1 W1 W1 T3 T3 T3 W4 W5 W6 B7 B8 B9 F1", "F1")),
    ("暗杠", _case("W3 W4 W5 T4 T5 T6 B2 B3 B4 F1", "F1", "GANG W1 0")),
    ("断幺", _case("W2 W3 W4 T4 T5 T6 B6 B7 B8 W5 W5 W5 T2", "T2")),
    ("一般高", _case("W2 W3 W4 W2 W3 W4 T6 T7 T8 B1 B1 B1 F1", "F1")),
    ("喜相逢", _case("W2 W3 W4 T2 T3 T4 T6 T7 T8 B1 B1 B1 F1", "F1")),
    ("连六", _case("W1 W2 W3 W4 W5 W6 T6 T7 T8 B1 B1 B1 F1", "F1")),
    ("老少副", _case("W1 W2 W3 W7 W8 W9 T6 T7 T8 B1 B1 B1 F1", "F1")),
    ("幺九刻", _case("W1 W2 W3 T4 T5 T6 B7 B8 B9 W9 W9 W9 F1", "F1")),
    ("明杠", _case("W3 W4 W5 T4 T5 T6 B2 B3 B4 F1", "F1", "GANG W1 1")),
    ("缺一门", _case("W1 W2 W3 T4 T5 T6 T7 T8 T9 W9 W9 W9 F1", "F1")),
    ("无字", _case("W1 W2 W3 T4 T5 T6 B7 B8 B9 W9 W9 W9 T1", "T1")),
    ("边张", _case("W1 W2 T4 T5 T6 B7 B8 B9 W9 W9 W9 F1 F1", "W3")),
    ("嵌张", _case("W1 W3 T4 T5 T6 B7 B8 B9 W9 W9 W9 F1 F1", "W2")),
    ("单钓将", _case("W1 W2 W3 T4 T5 T6 B7 B8 B9 W9 W9 W9 F1", "F1")),
    ("自摸", _case("W1 W2 W3 T4 T5 T6 B7 B8 B9 W9", "W9", "CHI T2 1", self_drawn=True)),
    ("花牌", _case("W1 W2 W3 T4 T5 T6 B7 B8 B9 W9", "W9", "CHI T2 1", flowers=3)),
    ("明暗杠", _case("W3 W4 W5 B2 B3 B4 B5", "B5", "GANG W1 0, GANG T9 1")),
]


def test_crafted_hands_cover_every_fan():
    assert sorted(name for name, _ in CRAFTED) == sorted(f.name for f in FANS)


@pytest.mark.parametrize(("fan", "case"), CRAFTED, ids=[name for name, _ in CRAFTED])
def test_crafted_hand_scores_its_fan_like_the_oracle(fan, case):
    ours, theirs = compare(case)
    assert ours == theirs
    assert isinstance(ours, tuple), ours
    assert fan in {name for _, name in ours}


def _run(n: int, seed: int) -> tuple[list, Counter, Counter]:
    gen = HandGenerator(seed)
    disagreements = []
    outcomes: Counter = Counter()
    fans_seen: Counter = Counter()
    for _ in range(n):
        case = gen.case()
        ours, theirs = compare(case)
        if ours != theirs:
            disagreements.append((case, ours, theirs))
        if isinstance(theirs, str):
            outcomes[theirs] += 1
        else:
            outcomes["win"] += 1
            fans_seen.update(name for _, name in theirs)
    return disagreements, outcomes, fans_seen


def test_differential_5000_hands():
    bad, outcomes, fans_seen = _run(5000, seed=20261130)
    assert not bad[:5], f"{len(bad)} disagreements, first: {bad[:5]}"
    assert outcomes["win"] > 3500 and outcomes["not_win"] > 200 and outcomes["invalid"] > 20
    assert len(fans_seen) >= 75  # almost every fan, even in the short run


@pytest.mark.slow
def test_differential_100000_hands_cover_all_82_fans():
    bad, outcomes, fans_seen = _run(100_000, seed=81)
    assert not bad[:5], f"{len(bad)} disagreements, first: {bad[:5]}"
    missing = [f.name for f in FANS if not fans_seen[f.name]]
    assert not missing, f"fans never produced by the corpus: {missing}"
    assert outcomes["not_win"] > 5000 and outcomes["invalid"] > 500


def test_result_shape_matches_oracle_verbose_fields():
    from MahjongGB import MahjongFanCalculator

    case = CRAFTED[0][1]
    hand, melds, win = case.our_args()
    ours = calculate_fans(hand, melds, win)
    theirs = MahjongFanCalculator(pack=(), hand=tuple(hand), winTile=win, flowerCount=0,
                                  isSelfDrawn=False, is4thTile=False, isAboutKong=False,
                                  isWallLast=False, seatWind=0, prevalentWind=0, verbose=True)
    assert [(f.points, f.count, f.name, f.name_en) for f in ours.fans] == [tuple(t) for t in theirs]
