"""Fuzhou mahjong (福州麻将) rules engine: 16/17-tile hands, the wild gold (金), flower tiles,
三金倒, 抢金, 金雀, 金龙, dealer streaks, and rule profiles (seed, platform, user TOML).

Public API: win shapes (:mod:`.win`), settlement (:mod:`.settle`), profiles (:mod:`.profiles`)
and pure turn rules for the replayer (:mod:`.turns`). See docs/fuzhou.md.
Names are imported on first use, so reading a profile does not load the engine.
"""

from __future__ import annotations

import importlib
from typing import Any

_HOMES = {
    "BUILTIN_PROFILES": "mjstats.rulesets.fuzhou.profiles",
    "ClaimDecision": "mjstats.rulesets.fuzhou.turns",
    "DealerState": "mjstats.rulesets.fuzhou.turns",
    "FanBreakdown": "mjstats.rulesets.fuzhou.settle",
    "GoldReveal": "mjstats.rulesets.fuzhou.turns",
    "Profile": "mjstats.rulesets.fuzhou.profiles",
    "Settlement": "mjstats.rulesets.fuzhou.settle",
    "claim_winner": "mjstats.rulesets.fuzhou.turns",
    "flower_fan": "mjstats.rulesets.fuzhou.settle",
    "flower_groups": "mjstats.rulesets.fuzhou.settle",
    "gold_robber": "mjstats.rulesets.fuzhou.turns",
    "has_golden_dragon": "mjstats.rulesets.fuzhou.win",
    "has_golden_pair": "mjstats.rulesets.fuzhou.win",
    "is_idle_gold": "mjstats.rulesets.fuzhou.win",
    "is_winning_hand": "mjstats.rulesets.fuzhou.win",
    "load_profile": "mjstats.rulesets.fuzhou.profiles",
    "next_dealer": "mjstats.rulesets.fuzhou.turns",
    "parse_profile": "mjstats.rulesets.fuzhou.profiles",
    "reserve_size": "mjstats.rulesets.fuzhou.turns",
    "reveal_gold": "mjstats.rulesets.fuzhou.turns",
    "settle_win": "mjstats.rulesets.fuzhou.settle",
    "shanten": "mjstats.rulesets.fuzhou.win",
    "waits": "mjstats.rulesets.fuzhou.win",
}

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


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'mjstats.rulesets.fuzhou' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
