"""Sichuan mahjong (四川麻将, 血战到底) rules engine: 108 suited tiles, the void suit (定缺),
patterns and 根 with a capped multiplier, kong money (刮风下雨), 呼叫转移, 一炮多响, 抢杠胡 and the
exhaustive-draw settlement (查花猪, 查大叫, 退税), under rule profiles (seed, platform, user TOML).

Public API: win shapes (:mod:`.win`), fan (:mod:`.fan`), settlement (:mod:`.settle`) and
profiles (:mod:`.profiles`). See docs/sichuan.md and reference sichuan.md. Names are imported
on first use, so a command that only needs a profile name does not load the engine.
"""

from __future__ import annotations

import importlib
from typing import Any

_FAN = "mjstats.rulesets.sichuan.fan"
_PROFILES = "mjstats.rulesets.sichuan.profiles"
_SETTLE = "mjstats.rulesets.sichuan.settle"
_WIN = "mjstats.rulesets.sichuan.win"

# Each public name and the module that defines it.
_HOMES = {
    "BUILTIN_PROFILES": _PROFILES,
    "PATTERNS": _FAN,
    "EndStatus": _SETTLE,
    "HandEnd": _SETTLE,
    "HandSettlement": _SETTLE,
    "Kong": _SETTLE,
    "Payment": _SETTLE,
    "PlayerHand": _SETTLE,
    "Profile": _PROFILES,
    "Turn": _SETTLE,
    "Win": _SETTLE,
    "WinContext": _FAN,
    "WinScore": _FAN,
    "Winner": _SETTLE,
    "clear_caches": _WIN,
    "gen_count": _FAN,
    "is_winning_hand": _WIN,
    "load_profile": _PROFILES,
    "parse_profile": _PROFILES,
    "score_win": _FAN,
    "settle_hand": _SETTLE,
    "shanten": _WIN,
    "waits": _WIN,
}

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'mjstats.rulesets.sichuan' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # later look-ups skip this function
    return value
