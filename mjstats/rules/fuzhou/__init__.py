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
    "BUILTIN_PROFILES": "mjstats.rules.fuzhou.profiles",
    "ClaimDecision": "mjstats.rules.fuzhou.turns",
    "DealerState": "mjstats.rules.fuzhou.turns",
    "FanBreakdown": "mjstats.rules.fuzhou.settle",
    "GoldReveal": "mjstats.rules.fuzhou.turns",
    "Profile": "mjstats.rules.fuzhou.profiles",
    "Settlement": "mjstats.rules.fuzhou.settle",
    "claim_winner": "mjstats.rules.fuzhou.turns",
    "flower_fan": "mjstats.rules.fuzhou.settle",
    "flower_groups": "mjstats.rules.fuzhou.settle",
    "gold_robber": "mjstats.rules.fuzhou.turns",
    "has_golden_dragon": "mjstats.rules.fuzhou.win",
    "has_golden_pair": "mjstats.rules.fuzhou.win",
    "is_idle_gold": "mjstats.rules.fuzhou.win",
    "is_winning_hand": "mjstats.rules.fuzhou.win",
    "load_profile": "mjstats.rules.fuzhou.profiles",
    "next_dealer": "mjstats.rules.fuzhou.turns",
    "parse_profile": "mjstats.rules.fuzhou.profiles",
    "reserve_size": "mjstats.rules.fuzhou.turns",
    "reveal_gold": "mjstats.rules.fuzhou.turns",
    "settle_win": "mjstats.rules.fuzhou.settle",
    "shanten": "mjstats.rules.fuzhou.win",
    "waits": "mjstats.rules.fuzhou.win",
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
        raise AttributeError(f"module 'mjstats.rules.fuzhou' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
