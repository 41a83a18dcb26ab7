"""Guobiao (国标, Mahjong Competition Rules) engine: fan calculation, profiles and payments.

``calculate_fans`` scores a win exactly as the reference calculator (PyMahjongGB/Botzone) does;
``meets_minimum`` applies the 8-fan minimum; ``guobiao_payments`` settles a hand. Names are
imported on first use, so that asking the registry about Guobiao does not load the engine.
"""

from __future__ import annotations

import importlib
from typing import Any

_CALCULATOR = "mjstats.rulesets.guobiao.calculator"
_FANS = "mjstats.rulesets.guobiao.fans"
_PROFILES = "mjstats.rulesets.guobiao.profiles"

# Each public name and the module that defines it.
_HOMES = {
    "FANS": _FANS,
    "FAN_BY_NAME": _FANS,
    "PROFILES": _PROFILES,
    "Fan": _FANS,
    "FanItem": _CALCULATOR,
    "FanResult": _CALCULATOR,
    "Profile": _PROFILES,
    "calculate_fans": _CALCULATOR,
    "get_profile": _PROFILES,
    "guobiao_payments": "mjstats.rulesets.guobiao.scoring",
    "meets_minimum": _CALCULATOR,
}

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'mjstats.rulesets.guobiao' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # later look-ups skip this function
    return value
