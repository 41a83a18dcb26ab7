"""Guobiao (国标, Mahjong Competition Rules) engine: fan calculation, profiles and payments.

``calculate_fans`` scores a win exactly as the reference calculator (PyMahjongGB/Botzone) does;
``meets_minimum`` applies the 8-fan minimum; ``guobiao_payments`` settles a hand.
"""

from mjstats.rules.guobiao.calculator import FanItem, FanResult, calculate_fans, meets_minimum
from mjstats.rules.guobiao.fans import FAN_BY_NAME, FANS, Fan
from mjstats.rules.guobiao.profiles import PROFILES, Profile, get_profile
from mjstats.rules.guobiao.scoring import guobiao_payments

__all__ = [
    "FANS",
    "FAN_BY_NAME",
    "PROFILES",
    "Fan",
    "FanItem",
    "FanResult",
    "Profile",
    "calculate_fans",
    "get_profile",
    "guobiao_payments",
    "meets_minimum",
]
