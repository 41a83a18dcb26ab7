"""Sichuan (四川, 血战到底) as the registry sees it: so far its engine and fan command only."""

from mjstats.rulesets import Ruleset

RULESET = Ruleset(
    name="sichuan",
    label="Sichuan 四川",
    title="Sichuan",
    package="mjstats.rulesets.sichuan",
    hand_size=13,  # reference sichuan.md: 13 dealt, the dealer 14
    tile_count=108,  # reference sichuan.md: the three suits only, 4 of each
)
