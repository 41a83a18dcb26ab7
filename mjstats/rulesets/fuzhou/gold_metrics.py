"""Fuzhou's own metrics (the gold family) for the metric registry; computed by
:mod:`mjstats.rulesets.fuzhou.gold`. Each entry holds the fields of a
:class:`mjstats.stats.registry.Metric` in order; plain data, importing nothing, so the registry
can be built from it at any import order."""

from __future__ import annotations

from typing import Any

__all__ = ["FAMILIES", "METRICS", "USAGE"]

FUZHOU = ("fuzhou",)
FAMILIES = {"gold": "Gold (Fuzhou)"}
USAGE = ('stats.gold_usage("DS")                    # every gold metric (Fuzhou hands)',)

METRICS: tuple[tuple[Any, ...], ...] = (
    # --- gold ----------------------------------------------------------------------
    ("gold_held_share", "和牌持金分布", "Golds held at win", "gold", "rate", "win",
       "wins holding this many golds", "Fuzhou wins", "share of wins", FUZHOU,
       ("Golds counted in the winner's complete hand, the winning tile included (the robbed "
        "face-up gold of 抢金 counts).",), ("golds_held",)),
    ("gold_points", "持金得分", "Points by golds held", "gold", "mean", "win",
       "sum of the winner's net scores", "Fuzhou wins with scores", "points", FUZHOU,
       (), ("golds_held",)),
    ("gold_wild_share", "金作百搭比例", "Golds used as wild", "gold", "rate", "gold",
       "golds that must stand for another tile in the winning shape",
       "golds held in wins with a complete shape", "share of golds", FUZHOU,
       ("The fewest golds needed as wild: as many golds as possible are read at face value.",
        "三金倒 (any shape) and wins whose shape is not complete are left out "
        "(counted in `unresolved`).")),
    ("gold_discard_win_rate", "打金后和牌率", "Win rate after discarding a gold", "gold",
       "rate", "seat-hand", "seat-hands won", "Fuzhou seat-hands, split by whether the seat "
       "discarded a gold", "share of hands", FUZHOU,
       ("`self_draws` counts the wins that were self-drawn (the seed profile lets a gold "
        "discarder win only by self-draw).",), ("discarded_gold",)),
    ("start_gold_win_rate", "起手金数和牌率", "Win rate by golds in the starting hand",
       "gold", "rate", "seat-hand", "seat-hands won",
       "Fuzhou seat-hands with this many golds when play starts", "share of hands", FUZHOU,
       ("The starting hand is what the seat holds at the hand's first discard (after the "
        "deal, flower replacement and the gold reveal).",), ("start_golds",)),
    ("gold_pattern_rate", "金型频率", "Gold pattern frequency", "gold", "rate", "win",
       "wins with the pattern (三金倒, 金雀, 金龙, 抢金)", "Fuzhou wins", "share of wins",
       FUZHOU, ("三金倒 and 抢金 are read from `win_kind` or the pattern; 金雀 and 金龙 from the "
                "recorded pattern.",), ("pattern",)),
)  # fmt: skip
