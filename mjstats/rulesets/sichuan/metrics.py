"""Sichuan's own metrics (the 血战到底 family) for the metric registry; computed by
:mod:`mjstats.rulesets.sichuan.stats`. Each entry holds the fields of a
:class:`mjstats.stats.registry.Metric` in order; plain data, importing nothing, so the registry
can be built from it at any import order."""

from __future__ import annotations

from typing import Any

__all__ = ["FAMILIES", "METRICS", "SHARED_SKIPPED", "USAGE"]

SICHUAN = ("sichuan",)
FAMILIES = {"sichuan": "Sichuan 血战到底"}
# reference sichuan.md §1.5: no 连庄 count, so the records carry no dealer streak to study
SHARED_SKIPPED = ("streaks",)
USAGE = ('stats.sichuan_metrics("DS")               # every Sichuan metric (Sichuan hands)',)
_LEDGER = ("Needs an itemised ledger (`result.payments` with reasons, docs/format.md §5.1); hands "
           "with net scores only are left out of the denominator.")
_PER_SEAT = "Sichuan seat-hands with an itemised ledger"

METRICS: tuple[tuple[Any, ...], ...] = (
    ("sc_void_choice_share", "定缺选择", "Void-suit choice", "sichuan", "rate", "seat-hand",
       "seat-hands declaring a suit of this rank void", "Sichuan seat-hands with a void declaration",
       "share of seat-hands", SICHUAN,
       ("The rank compares the declared suit's tiles with the other two suits in the hand the seat "
        "held when declaring (the deal, after 换三张 where played): `fewest` when no suit has fewer "
        "(ties included), `most` when no suit has more, else `middle`.",), ("void_choice",)),
    ("sc_void_choice_win_rate", "定缺选择和牌率", "Win rate by void-suit choice", "sichuan", "rate",
       "seat-hand", "seat-hands won", "Sichuan seat-hands with this void-suit choice", "share of hands",
       SICHUAN, ("`mean_points` is the mean net points of those seat-hands (scored ones).",),
       ("void_choice",)),
    ("sc_flower_pig_rate", "花猪率", "Flower-pig frequency", "sichuan", "rate", "seat-hand",
       "seat-hands that paid 查花猪 (held a void-suit tile when the wall ran out)", _PER_SEAT,
       "share of hands", SICHUAN,
       (_LEDGER, "Read from the ledger's `penalty` rows: when every active player is a 花猪 nobody "
        "is paid and none is counted.")),
    ("sc_cha_jiao_rate", "查叫率", "Paid 查大叫 (not ready at the end)", "sichuan", "rate",
       "seat-hand", "seat-hands that paid 查大叫", _PER_SEAT, "share of hands", SICHUAN,
       (_LEDGER, "`ready_paid` counts the seat-hands paid as ready (有叫). A hand won three times "
        "or where nobody is ready has no 查大叫.")),
    ("sc_kong_money", "刮风下雨", "Kong money per hand", "sichuan", "mean", "seat-hand",
       "sum of the seat's `kong` ledger rows (kong money, 呼叫转移, 退税)", _PER_SEAT, "points",
       SICHUAN, (_LEDGER, "Net: what the seat collected minus what it paid and refunded; over all "
                 "seats it sums to zero.")),
    ("sc_win_order_share", "胡牌顺序", "Order of winning", "sichuan", "rate", "seat-hand",
       "seat-hands going out at this place (1 first, 2 second, 3 third; 0 did not win)",
       "Sichuan seat-hands", "share of hands", SICHUAN,
       ("Places follow the record's win order: the winners of one discard (一炮多响) take "
        "consecutive places, the nearest to the discarder first (reference sichuan.md §4.3).",),
       ("win_order",)),
    ("sc_win_order_points", "胡牌顺序得分", "Net points by order of winning", "sichuan", "mean",
       "seat-hand", "sum of the seat's net scores of the hand", "Sichuan seat-hands with scores at "
       "this place", "points", SICHUAN,
       ("The net includes kong money and what the seat paid before going out; `mean_win_money` is "
        "the mean of what the win itself brought (its `win` ledger rows).",), ("win_order",)),
    ("sc_multiplier_share", "倍数分布", "Multiplier distribution", "sichuan", "rate", "win",
       "wins at this multiplier, 2^min(fan, cap)", "Sichuan wins with a recorded fan", "share of wins",
       SICHUAN, ("The cap is the hand's profile's (seed x32, platform x64); wins under a profile "
                 "that cannot be loaded are left out.",), ("multiplier",)),
    ("sc_cap_rate", "封顶率", "Cap hits", "sichuan", "rate", "win",
       "wins whose recorded fan reaches the profile's cap", "Sichuan wins with a recorded fan under a "
       "capped profile", "share of wins", SICHUAN,
       ("天胡/地胡 scored as 满格 are at the cap by definition (reference sichuan.md §3.7).",)),
)  # fmt: skip
