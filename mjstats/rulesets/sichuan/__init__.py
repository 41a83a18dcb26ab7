"""Sichuan mahjong (四川麻将, 血战到底) rules engine: 108 suited tiles, the void suit (定缺),
patterns and 根 with a capped multiplier, kong money (刮风下雨), 呼叫转移, 一炮多响, 抢杠胡 and the
exhaustive-draw settlement (查花猪, 查大叫, 退税), under rule profiles (seed, platform, user TOML).

Public API: win shapes (:mod:`.win`), fan (:mod:`.fan`), settlement (:mod:`.settle`) and
profiles (:mod:`.profiles`). See docs/sichuan.md and reference sichuan.md.
"""

from mjstats.rulesets.sichuan.fan import PATTERNS, WinContext, WinScore, gen_count, score_win
from mjstats.rulesets.sichuan.profiles import BUILTIN_PROFILES, Profile, load_profile, parse_profile
from mjstats.rulesets.sichuan.settle import (
    EndStatus,
    HandEnd,
    HandSettlement,
    Kong,
    Payment,
    PlayerHand,
    Turn,
    Win,
    Winner,
    settle_hand,
)
from mjstats.rulesets.sichuan.win import is_winning_hand, shanten, waits

__all__ = [
    "BUILTIN_PROFILES",
    "PATTERNS",
    "EndStatus",
    "HandEnd",
    "HandSettlement",
    "Kong",
    "Payment",
    "PlayerHand",
    "Profile",
    "Turn",
    "Win",
    "WinContext",
    "WinScore",
    "Winner",
    "gen_count",
    "is_winning_hand",
    "load_profile",
    "parse_profile",
    "score_win",
    "settle_hand",
    "shanten",
    "waits",
]
