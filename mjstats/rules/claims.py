"""Claim priority on a discard, shared by every rule system mjstats knows.

A win beats a pung or a kong, which beat a chow (reference botzone-format.md: Hu > Peng = Gang >
Chi; the other rulesets' references agree). Ties go to the seat nearest the discarder
counter-clockwise; that part lives with each rule system.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

__all__ = ["CLAIM_RANK"]

CLAIM_RANK: Mapping[str, int] = MappingProxyType({"hu": 3, "gang": 2, "peng": 2, "chi": 1})  # read-only
