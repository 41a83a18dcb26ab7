"""Sichuan (四川, 血战到底) as the registry sees it: the facts and the parts the core asks for."""

from mjstats.rulesets import Ruleset

RULESET = Ruleset(
    name="sichuan",
    label="Sichuan 四川",
    title="Sichuan",
    package="mjstats.rulesets.sichuan",
    hand_size=13,  # reference sichuan.md: 13 dealt, the dealer 14
    tile_count=108,  # reference sichuan.md: the three suits only, 4 of each
    recorded=True,
    # reference sichuan.md §7: a void-suit discard, a chow, a doubled 查叫; payment and fan are
    # Sichuan's own makers (payments of several wins), so the shared ones do not apply
    fault_kinds=("payment", "void_discard", "chow", "cha_jiao", "fan"),
    faults="faults:MAKERS",
    faults_own_only=True,
    notes="notes:NOTES",
    replay="replay",
    checks="checks:CHECKS",
    user_profile="replay:sichuan_profile",
    sim="sim_game",
    metrics="metrics",
    stats="stats",
    report="section:SECTIONS",
    starting_shanten=True,  # the deal test compares seats: 13 dealt tiles, no void declared yet
    shape="shape:shape_for",
    shanten="tenpai:shanten",
    decisions="decisions:VIEW",
    # the settlement path: what settle_hand and is_winning_hand call per hand, and the replay
    # with its money audit, per event and per hand (docs/compiled.md)
    compiled=("settle", "fan", "win", "suit_table", "tiles", "replay", "money_audit"),
)
