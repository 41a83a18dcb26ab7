"""Every source's fan names mapped to mjstats' (the Chinese names of ``mjstats.rulesets.guobiao``).

One section per source; PMN numbers the fans instead (``id`` 1..81 in the order of the
Guobiao fan table, taken from that table itself so it cannot drift). A name that is neither
ours nor in the source's table is an error naming it (:func:`our_fan_name` raises
``KeyError``): readers turn it into a reject, never drop it. Our names are those of
PyMahjongGB 1.3.0, the calculator Botzone scores with.
"""

from __future__ import annotations

from collections.abc import Mapping

from mjstats.rulesets.guobiao import FAN_BY_NAME
from mjstats.rulesets.guobiao.fans import FANS

__all__ = [
    "BOTZONE_FAN_NAMES",
    "FAN_NAME_BY_ID",
    "HUMAN_2017_FAN_NAMES",
    "OUR_FAN_NAMES",
    "fan_name_of_id",
    "our_fan_name",
]

OUR_FAN_NAMES = frozenset(FAN_BY_NAME)

# --- Botzone (text records, match logs, judge displays) ----------------------------------------
# Botzone writes our names; PyMahjongGB 1.4.0 renamed the three single-wait fans
# (shared/reference/botzone-format.md), and records of either version are read.
BOTZONE_FAN_NAMES: Mapping[str, str] = {
    "独听・边张": "边张",
    "独听・嵌张": "嵌张",
    "独听・单钓": "单钓将",
}

# --- the 2017 human-play logs (human-tsv) -----------------------------------------------------
# The platform's names where they differ from ours (real-formats.md section 2 and the samples).
HUMAN_2017_FAN_NAMES: Mapping[str, str] = {
    "断幺九": "断幺",
    "坎张": "嵌张",
    "单调将": "单钓将",
}


def our_fan_name(name: str, table: Mapping[str, str]) -> str:
    """``name`` in our vocabulary: ours as it is, else the source table's entry; KeyError else."""
    if name in OUR_FAN_NAMES:
        return name
    return table[name]


# --- PMN (mahjongsoft boards): fans by number ----------------------------------------------------
# id 1..81 -> our name, in the Guobiao fan table's order (reference guobiao.md); 82 (明暗杠, a
# later Mahjong International League rule) is not numbered by the 81-fan formats.
FAN_NAME_BY_ID: Mapping[int, str] = {fan.order: fan.name for fan in FANS if 1 <= fan.order <= 81}


def fan_name_of_id(number: int) -> str | None:
    """Our name of a Guobiao fan number 1..81, or None for a number that names no fan."""
    return FAN_NAME_BY_ID.get(number)
