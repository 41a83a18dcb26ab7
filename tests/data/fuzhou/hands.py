"""The scripted Fuzhou hands of hands.jsonl (see build_records.py). Results worked out by hand:
each payer pays (花番 + 金番 + 连庄数 + 5) x 2 + pattern points (seed 003); self-draws (三金倒,
抢金, 天和 included) are paid by the three others, a discard win by the discarder.
"""

from __future__ import annotations

from build_records import Script


def result(
    winner: int,
    win_tile: str,
    scores: list[int],
    fans: list[dict],
    fan_total: int,
    pattern: str | None = None,
    loser: int | None = None,
) -> dict:
    out: dict = {"outcome": "win", "winner": winner}
    if loser is not None:
        out["loser"] = loser
    out["win_tile"] = win_tile
    if loser is None:
        out["self_drawn"] = True
    out["fan_total"] = fan_total
    out["fans"] = fans
    if pattern is not None:
        out["pattern"] = pattern
    out["scores"] = scores
    return out


def item(name: str, count: int = 1, points: int | None = None) -> dict:
    out: dict = {"name": name}
    if count != 1:
        out["count"] = count
    if points is not None:
        out["points"] = points
    return out


def streak_0() -> Script:
    """Match fz-streak, hand 0: dealer 0 wins 天和 (no flowers, gold B5 not held).
    天和 30 and 平和 30 tie, 天和 is named (table order). Fan 0: each pays (0+5)x2+30 = 40."""
    h = Script("fz-streak", 0, dealer=0, streak=0, gold="B5")
    h.deal(0, "W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 T4 T5 T6 B9 B9", 17)
    for seat in (1, 2, 3):
        h.deal(seat, "", 16)
    h.gold_up("B5")
    h.hu(0, "B9", win="heavenly")
    h.result = result(0, "B9", [120, -40, -40, -40], [item("天和", points=30)], 0, "天和")
    return h


def streak_1() -> Script:
    """fz-streak, hand 1: dealer 0 again (站顶 after hand 0: streak still 0). The dealer is dealt
    one flower (夏 H2) and replaces it from the tail with B8; complete: 天和 30 (平和 with one
    flower is 15). Fan: 1 flower. Each pays (1+5)x2+30 = 42."""
    h = Script("fz-streak", 1, dealer=0, streak=0, gold="W9")
    h.deal(0, "T1 T1 T1 T2 T3 T4 T5 T6 T7 B2 B3 B4 W5 W6 W7 B8 H2", 17)
    for seat in (1, 2, 3):
        h.deal(seat, "", 16)
    h.flower(0, "H2")
    h.draw(0, "B8", tail=True)
    h.gold_up("W9")
    h.hu(0, "B8", win="heavenly")
    h.result = result(0, "B8", [126, -42, -42, -42], [item("花番", 1, 1), item("天和", points=30)], 1, "天和")
    return h


def streak_2() -> Script:
    """fz-streak, hand 2 = seed 003 worked example 2. Dealer 0 has won twice: streak 1. Gold T4.
    Seat 1 chows 二万 with 三四万, pungs 七条, draws 南风 (replaced by 六筒), adds 七条 to its pung
    (replaced by 九筒), draws a gold 四条 and wins seat 3's 七筒 with 金雀 (two golds as the pair).
    Flowers 春 秋 梅 (dealt) + 南: 4; added kong 1; golds 2; streak 1; 金雀 60:
    seat 3 pays (4+1+2+1+5)x2+60 = 86."""
    h = Script("fz-streak", 2, dealer=0, streak=1, gold="T4")
    h.deal(0, "W2", 17)
    h.deal(1, "T4 W5 W6 W7 B1 B2 B2 B3 B6 W3 W3 T7 T7 H1 H3 H6", 16)
    h.deal(2, "", 16)
    h.deal(3, "", 16)
    for f in ("H1", "H3", "H6"):  # seed 000: from the dealer on; only seat 1 holds flowers
        h.flower(1, f)
    for t in ("T2", "B5", "W4"):
        h.draw(1, t, tail=True)
    h.gold_up("T4")
    h.discard(0, "W2")
    h.chi(1, "W3", 0, "W2")  # 上家打出二万，用三、四万吃进
    h.discard(1, "T2")
    h.turn(2, "T7")
    h.peng(1, "T7", 2)  # 碰起七条
    h.discard(1, "B2")
    for seat in (2, 3, 0):
        h.turn(seat)
    h.flower_turn(1, "F2", "B6", "W3")  # 摸上南风，补花抓上六筒，打出三万
    for seat in (2, 3, 0):
        h.turn(seat)
    h.draw(1, "T7")  # 摸进七条，开杠，补起九筒，打出去
    h.bugang(1, "T7")
    h.draw(1, "B9", tail=True)
    h.discard(1, "B9")
    for seat in (2, 3, 0):
        h.turn(seat)
    h.turn(1, "T4", "B6")  # 抓起金牌四条，打出六筒，听牌
    h.turn(2)
    h.turn(3, "B7")  # 有人打出七筒
    h.hu(1, "B7", frm=3)
    h.result = result(
        1,
        "B7",
        [0, 86, 0, -86],
        [item("花番", 5, 1), item("金番", 2, 1), item("连庄", 1, 1), item("金雀", points=60)],
        8,
        "金雀",
        loser=3,
    )
    return h


def streak_3() -> Script:
    """fz-streak, hand 3: seat 1 won hand 2, so seat 1 deals with streak 0. Gold B5. After the
    dealer's first discard (B1) the face-up gold completes the dealer (16 + gold as B9), seat 2
    (gold as B9) and seat 3 (gold as W9): seed 003 gives 抢金 to a non-dealer, the nearest to
    the dealer (seat 2). 抢金 30 (ties 平和 30, named first); the robbed gold is 1 gold:
    each pays (1+5)x2+30 = 42."""
    h = Script("fz-streak", 3, dealer=1, streak=0, gold="B5")
    h.deal(1, "W4 W5 W6 W7 W8 W9 T4 T5 T6 B6 B7 B8 T1 T1 T1 B9 B1", 17)
    h.deal(2, "W1 W2 W3 W4 W5 W6 T1 T2 T3 T7 T8 T9 B1 B2 B3 B9", 16)
    h.deal(3, "B2 B3 B4 W2 W3 W4 T2 T3 T4 T6 T7 T8 B7 B7 B7 W9", 16)
    h.deal(0, "", 16)
    h.gold_up("B5")
    h.discard(1, "B1")
    h.hu(2, "B5", win="rob_gold")
    h.result = result(2, "B5", [-42, -42, 126, -42], [item("金番", 1, 1), item("抢金", points=30)], 1, "抢金")
    return h


def ex1_0() -> Script:
    """Match fz-ex1, hand 0: dealer 2. The first tile turned up is 竹 (H7), a flower: it goes to
    the dealer and the next tail tile, 九条, is the gold (seed 003 開金). Seat 1 discards 八万;
    the dealer, holding three, konges it and wins on the replacement from the tail (杠上).
    花番: 1 flower + 1 exposed kong = 2; no pattern (a kong and a flower rule out 平和):
    each pays (2+5)x2 = 14."""
    h = Script("fz-ex1", 0, dealer=2, streak=0, gold="T9")
    h.deal(2, "W8 W8 W8 W1 W2 W3 B4 B5 B6 T2 T3 T4 B7 B8 T6 T6 B1", 17)
    for seat in (3, 0, 1):
        h.deal(seat, "", 16)
    h.gold_up("H7", dealer=2)
    h.gold_up("T9")
    h.discard(2, "B1")
    h.turn(3)
    h.turn(0)
    h.turn(1, "W8")
    h.gang(2, "W8", 1)
    h.draw(2, "B9", tail=True)
    h.hu(2, "B9")
    h.result = result(2, "B9", [-14, -14, 42, -14], [item("花番", 2, 1)], 2)
    return h


def ex1_1() -> Script:
    """fz-ex1, hand 1: dealer 2 won hand 0 (站顶): streak 0. Dealt two flowers (东 西), replaced
    from the tail by two 九条: complete, 天和 30 (two flowers: no 平和). Each pays (2+5)x2+30 = 44."""
    h = Script("fz-ex1", 1, dealer=2, streak=0, gold="W1")
    h.deal(2, "B1 B1 B1 B2 B3 B4 B5 B6 B7 T3 T4 T5 W6 W7 W8 F1 F3", 17)
    for seat in (3, 0, 1):
        h.deal(seat, "", 16)
    h.flower(2, "F1")
    h.flower(2, "F3")
    h.draw(2, "T9", tail=True)
    h.draw(2, "T9", tail=True)
    h.gold_up("W1")
    h.hu(2, "T9", win="heavenly")
    h.result = result(2, "T9", [-44, -44, 132, -44], [item("花番", 2, 1), item("天和", points=30)], 2, "天和")
    return h


def ex1_2() -> Script:
    """fz-ex1, hand 2: dealer 2 (two wins: streak 1), gold T1. Seat 3 discards 七条: seat 0
    (nearest after seat 3) and the dealer can both win on it; the dealer's pair is two golds
    (金雀), which wins whatever the seat order (截和, 金雀 first) and is 抢炮和: the payment
    doubles. 金雀 60 (平和 30 lower); golds 2, streak 1: seat 3 pays ((2+1+5)x2+60) x 2 = 152."""
    h = Script("fz-ex1", 2, dealer=2, streak=1, gold="T1")
    h.deal(2, "T1 T1 W2 W3 W4 W6 W7 W8 B2 B3 B4 B6 B7 B8 T5 T6 W1", 17)
    h.deal(3, "", 16)
    h.deal(0, "W1 W2 W3 W5 W5 W5 B1 B2 B3 B9 B9 B9 T8 T9 W9 W9", 16)
    h.deal(1, "", 16)
    h.gold_up("T1")
    h.discard(2, "W1")
    h.turn(3, "T7")
    h.hu(2, "T7", frm=3)
    h.ignored(0, "T7", "hu")
    h.result = result(
        2,
        "T7",
        [0, 0, 152, -152],
        [item("金番", 2, 1), item("连庄", 1, 1), item("金雀", points=60), item("抢炮和", points=2)],
        3,
        "金雀",
        loser=3,
    )
    return h


def ex1_3() -> Script:
    """fz-ex1, hand 3 = seed 003 worked example 1. Dealer 2 (three wins: streak 2), gold B2;
    the dealer holds two 二筒, discards 九筒, pungs 九条 (discards 六条), chows 八万 with 六七万
    from seat 1 (discards 九万). Someone discards a 二筒 (a gold: nobody may claim it). Seat 0
    konges (exposed: reserve + 1), seat 3 collects four 北 (a group: reserve + 2): the face-up
    二筒 moves forward and is the last drawable tile, which falls to the dealer: 三金倒.
    The dealer's 8 other tiles are all apart, so the shape is not complete: 三金倒 40 only.
    Flowers 东 南 梅 菊: 4 fan; golds 3; streak 2: each pays (4+3+2+5)x2+40 = 68, 204 in all."""
    h = Script("fz-ex1", 3, dealer=2, streak=2, gold="B2")
    h.deal(2, "B2 B2 T9 T9 W6 W7 W1 W4 W7 T2 T5 T8 B5 B8 B9 T6 W9", 17)
    h.deal(3, "F4 F4", 16)
    h.deal(0, "B6 B6 B6", 16)
    h.deal(1, "", 16)
    h.flower(3, "F4")  # seed 000: seat 3 is the only seat dealt flowers
    h.flower(3, "F4")
    h.draw(3, "W5", tail=True)
    h.draw(3, "T3", tail=True)
    h.gold_up("B2")
    h.discard(2, "B9")
    h.turn(3, "T9")
    h.peng(2, "T9", 3)
    h.discard(2, "T6")
    h.turn(3)
    h.turn(0)
    h.turn(1, "W8")
    h.chi(2, "W7", 1, "W8")
    h.discard(2, "W9")
    h.turn(3)
    h.turn(0)
    h.turn(1, "B2")  # a discarded gold: nobody may claim it
    h.flower_turn(2, "F1")
    h.flower_turn(3, "F4")
    h.turn(0)
    h.turn(1, "B6")
    h.gang(0, "B6", 1)
    h.draw(0, tail=True)
    h.discard(0, "=")
    h.turn(1)
    h.flower_turn(2, "F2")
    h.flower_turn(3, "F4")  # the fourth 北: a group of four, reserve + 2
    h.more_reserve(2)
    h.turn(0)
    h.turn(1)
    h.flower_turn(2, "H5")
    h.turn(3)
    h.turn(0)
    h.turn(1)
    h.flower_turn(2, "H8")
    # play on until the last four drawable tiles, which fall to seats 3, 0, 1 and the dealer;
    # seats 0 and 1 draw (and replace) a few more flowers on the way, never a group
    h.play_to_final(3, 3, ["F3", "J1", "J2", "J3", "F3", "J1", "J2", "J3", "H1", "H2", "H3"], 7, skip=(2,))
    for s in (3, 0, 1):  # seed 003: one each in turn, no discard
        h.draw(s)
    h.draw(2, "B2", face_up_gold=True)
    h.hu(2, "B2", win="three_golds")
    h.result = result(
        2,
        "B2",
        [-68, -68, 204, -68],
        [item("花番", 4, 1), item("金番", 3, 1), item("连庄", 2, 1), item("三金倒", points=40)],
        9,
        "三金倒",
    )
    return h


def huang_0() -> Script:
    """Match fz-huang, hand 0: dealer 3, gold W5, nobody wins. Seat 0 declares a concealed kong
    of 六筒 (reserve + 2), seat 1 konges seat 0's 三条 (exposed, + 1), seat 2 collects 春夏秋冬
    (a group, + 2): the reserve is 18 + 1 + 2 + 2 = 23, so 144 - 23 = 121 tiles are dealt, drawn
    or turned up. The last four drawable tiles are drawn one each without discards (the last is
    the face-up gold), then the hand is drawn: all scores 0."""
    h = Script("fz-huang", 0, dealer=3, streak=0, gold="W5")
    h.deal(3, "W1", 17)
    h.deal(0, "B6 B6 B6 B6 T3", 16)
    h.deal(1, "T3 T3 T3", 16)
    h.deal(2, "H1 H2 H3", 16)
    for f in ("H1", "H2", "H3"):  # seed 000: seat 2 is the only seat dealt flowers
        h.flower(2, f)
    for _ in range(3):
        h.draw(2, tail=True)
    h.gold_up("W5")
    h.discard(3, "W1")
    h.draw(0)
    h.angang(0, "B6")
    h.draw(0, tail=True)
    h.discard(0, "T3")
    h.gang(1, "T3", 0)
    h.draw(1, tail=True)
    h.discard(1, "=")
    h.turn(2)
    h.turn(3)
    h.turn(0)
    h.turn(1)
    h.flower_turn(2, "H4")  # 春夏秋冬 complete: a group
    h.more_reserve(2)
    # play on to the last four drawable tiles (seats 3, 0, 1, 2), some turns drawing flowers:
    # three of each honour at most, so nobody completes another group
    h.play_to_final(3, 3, ["F1", "F2", "F3", "F4", "J1", "J2", "J3"] * 3, 12)
    for seat in (3, 0, 1):
        h.draw(seat)
    h.draw(2, "W5", face_up_gold=True)
    h.huang()
    h.result = {"outcome": "draw", "scores": [0, 0, 0, 0]}
    return h


def huang_1() -> Script:
    """fz-huang, hand 1: an exhaustive draw keeps the dealer (3) and the streak (0). Gold B3.
    Seat 0 holds two golds and draws the third: 三金倒 at once; the hand is also complete with
    the three golds as a pung of 三筒 (金龙 120), which beats 三金倒 40 and 金雀 60.
    Golds 3: each pays (3+5)x2+120 = 136."""
    h = Script("fz-huang", 1, dealer=3, streak=0, gold="B3")
    h.deal(3, "B7", 17)
    h.deal(0, "B3 B3 W1 W2 W3 T4 T5 T6 T7 T8 T9 W9 W9 W9 W5 W5", 16)
    h.deal(1, "", 16)
    h.deal(2, "", 16)
    h.gold_up("B3")
    h.discard(3, "B7")
    h.draw(0, "B3")
    h.hu(0, "B3", win="three_golds")
    h.result = result(
        0, "B3", [408, -136, -136, -136], [item("金番", 3, 1), item("金龙", points=120)], 3, "金龙"
    )
    return h


def kong_final() -> Script:
    """Match fz-kongfinal, hand 0: dealer 0, gold W5. Play reaches the last four drawable tiles
    with the dealer to draw first; it draws its fourth 九条 and konges (seed 003: 刚到最后一组可摸
    牌时，有人要杠，可允许杠牌): the concealed kong adds 2 to the reserve, the replacement from the
    tail takes the last drawable tile but the face-up gold, and the hand is drawn. Reserve
    18 + 2 = 20, so 144 - 20 = 124 tiles are dealt, drawn or turned up, the face-up gold left."""
    h = Script("fz-kongfinal", 0, dealer=0, streak=0, gold="W5")
    h.deal(0, "T9 T9 T9 W1", 17)
    for seat in (1, 2, 3):
        h.deal(seat, "", 16)
    h.gold_up("W5")
    h.discard(0, "W1")
    h.play_to_final(1, 0, ["F1", "F2", "F3", "F4", "J1", "J2", "J3"] * 3 + ["H1", "H5", "H2", "H6"], 20)
    h.draw(0, "T9")
    h.angang(0, "T9")
    h.draw(0, tail=True)
    h.huang()
    h.result = {"outcome": "draw", "scores": [0, 0, 0, 0]}
    return h


def all_hands() -> list[Script]:
    return [
        streak_0(),
        streak_1(),
        streak_2(),
        streak_3(),
        ex1_0(),
        ex1_1(),
        ex1_2(),
        ex1_3(),
        huang_0(),
        huang_1(),
        kong_final(),
    ]
