"""Guobiao fan numbers and platform fan names -> the names mjstats' records use.

Formats that number the fans (PMN's ``Fan`` tag: ids 1..81 in the order of the Guobiao fan
table) and platforms that spell a fan differently all map here, so every reader stores one name
per fan: the Chinese name of ``mjstats.rules.guobiao.fans`` (Botzone's). The numbering comes
from that table itself (its ``order``), so it cannot drift from the calculator.
"""

from __future__ import annotations

from mjstats.rules.guobiao.fans import FANS

__all__ = ["FAN_ALIASES", "FAN_NAME_BY_ID", "fan_name", "fan_name_of_id"]

# id 1..81 -> name; 82 (明暗杠, a later Mahjong International League rule) is not numbered by
# the 81-fan formats, so it is left out on purpose.
FAN_NAME_BY_ID: dict[int, str] = {fan.order: fan.name for fan in FANS if 1 <= fan.order <= 81}

# Other spellings of the same fans seen in real records (reference real-formats.md):
# the 2017 human-play platform's, and PyMahjongGB 1.4's renamed wait fans (botzone-format.md).
FAN_ALIASES: dict[str, str] = {
    "断幺九": "断幺",
    "坎张": "嵌张",
    "独听・边张": "边张",
    "独听・嵌张": "嵌张",
    "独听・单钓": "单钓将",
}


def fan_name_of_id(number: int) -> str | None:
    """The fan name of a Guobiao fan number 1..81, or None for a number that names no fan."""
    return FAN_NAME_BY_ID.get(number)


def fan_name(name: str) -> str:
    """A platform's fan name as mjstats writes it (unknown names come back unchanged, so the
    audit can report them rather than have them dropped)."""
    return FAN_ALIASES.get(name, name)
