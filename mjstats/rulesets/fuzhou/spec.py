"""Fuzhou (福州) as the registry sees it: the facts and the parts the core asks for."""

from mjstats.rulesets import Ruleset

RULESET = Ruleset(
    name="fuzhou",
    label="Fuzhou 福州",
    title="Fuzhou",
    package="mjstats.rulesets.fuzhou",
    hand_size=16,  # reference fuzhou.md: 16 tiles a seat, the dealer 17
    tile_count=144,  # reference fuzhou.md: the 136 plus the eight flowers H1-H8 once each
    flower_tiles=8,
    has_gold=True,  # reference fuzhou.md: the gold is turned up after the flower replacements
    recorded=True,
    win_may_jump=True,  # reference fuzhou.md: a 金雀/金龙 hand may jump a nearer winner (抢炮和)
    fault_kinds=("pattern",),
    faults="faults:MAKERS",
    notes="notes:NOTES",
    replay="replay",
    checks="checks:CHECKS",
    user_profile="replay:fuzhou_profile",
    plain_profile=True,  # `audit --profile` has always meant the Fuzhou rule profile
    sim="sim_game",
    metrics="gold_metrics",
    stats="gold",
    report="gold_section:SECTIONS",
    shanten="tenpai:shanten",
    shape="shape:shape_for",
    decisions="decisions:VIEW",
    flower_kinds="profiles:flower_kinds_of",
)
