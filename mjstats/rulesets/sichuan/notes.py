"""What Sichuan says in texts shared by every ruleset (metric definitions, report sections),
keyed by the place that shows it. Plain data, importing nothing."""

__all__ = ["NOTES"]

NOTES = {
    # reference sichuan.md §4.3: 血战到底, play goes on until three seats have won
    "win_rate": "Sichuan 血战到底: up to three seats win a hand (一炮多响 included), each counted; a "
    "seat wins at most once a hand (it is out after winning), so the rate is the share of "
    "seat-hands that went out.",
    "deal_in_rate": "Sichuan: a seat can deal in several times a hand (play goes on after each "
    "win); the rate counts the seat-hand once, the extra column `deal_ins` counts every win the "
    "seat paid as discarder or robbed konger.",
    "draw_rate": "Sichuan: only hands nobody won (outcome `draw`); a hand whose wall ran out after "
    "one or two wins is a won hand (its end is in `sc_flower_pig_rate`, `sc_cha_jiao_rate`).",
    # reference sichuan.md §3.1, §2.3: the two shapes, no void-suit tile
    "tenpai_at_draw": "Sichuan: 4 sets + pair or seven pairs with no tile of the seat's declared "
    "void suit (a seat still holding one is not waiting); only hands nobody won end in a draw",
    # reference sichuan.md §3.6: 平胡 is 0 fan, the multiplier is 2^min(fan, cap)
    "mean_fan": "Sichuan totals are the 0-based fan before the cap (平胡 = 0, reference sichuan.md "
    "§3.6), `sc_multiplier_share` giving the capped multipliers",
    "mean_win_points": "The winner's net of the whole hand. Sichuan: kong money and what the "
    "winner paid before going out included; `sc_win_order_points` splits it by order of winning.",
    # reference sichuan.md §2.9, §2.10: 一炮多响, and a seat that has won is out (docs/decisions.md)
    "missed_win_rate": "Sichuan: several seats may win one discard (一炮多响), so a seat that "
    "passed a win another seat took is counted; there is no fan minimum, and a seat holding its "
    "void suit or locked by a pass (过手胡) cannot win.",
    "danger_rate": "Sichuan: a discard several seats win on is one deal-in; a seat that has won "
    "is out and is nobody's opponent (it decides nothing more).",
    # reference sichuan.md §1.5: no dealer premium and no 连庄 count
    "streaks_section": "Sichuan records no dealer streak (its scoring has no 连庄 count), so its "
    "streaks stay 0.",
}
