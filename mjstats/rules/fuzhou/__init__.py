"""Fuzhou mahjong (福州麻将) rules engine: 16/17-tile hands, the wild gold (金), flower tiles,
三金倒, 抢金, 金雀, 金龙, dealer streaks, and rule profiles (seed, platform, user TOML).

Public API: win shapes (:mod:`.win`), settlement (:mod:`.settle`), profiles (:mod:`.profiles`)
and pure turn rules for the replayer (:mod:`.turns`). See docs/fuzhou.md.
"""

from mjstats.rules.fuzhou.profiles import BUILTIN_PROFILES, Profile, load_profile, parse_profile
from mjstats.rules.fuzhou.settle import (
    FanBreakdown,
    Settlement,
    flower_fan,
    flower_groups,
    settle_win,
)
from mjstats.rules.fuzhou.turns import (
    ClaimDecision,
    DealerState,
    GoldReveal,
    claim_winner,
    gold_robber,
    next_dealer,
    reserve_size,
    reveal_gold,
)
from mjstats.rules.fuzhou.win import (
    has_golden_dragon,
    has_golden_pair,
    is_idle_gold,
    is_winning_hand,
    shanten,
    waits,
)

__all__ = [
    "BUILTIN_PROFILES",
    "ClaimDecision",
    "DealerState",
    "FanBreakdown",
    "GoldReveal",
    "Profile",
    "Settlement",
    "claim_winner",
    "flower_fan",
    "flower_groups",
    "gold_robber",
    "has_golden_dragon",
    "has_golden_pair",
    "is_idle_gold",
    "is_winning_hand",
    "load_profile",
    "next_dealer",
    "parse_profile",
    "reserve_size",
    "reveal_gold",
    "settle_win",
    "shanten",
    "waits",
]
