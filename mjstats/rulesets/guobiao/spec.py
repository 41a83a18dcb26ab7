"""Guobiao (国标) as the registry sees it: the facts and the parts the core asks for."""

from mjstats.rulesets import Ruleset

RULESET = Ruleset(
    name="guobiao",
    label="Guobiao 国标",
    title="Guobiao",
    package="mjstats.rulesets.guobiao",
    hand_size=13,  # reference guobiao.md: 13 dealt to every seat
    tile_count=136,  # reference guobiao.md: 136 tiles, 4 of each of 34 kinds (flowers aside)
    recorded=True,
    starting_shanten=True,
    fan_names="fan_names",
    notes="notes:NOTES",
    replay="replay",
    platform_replays=(
        ("botzone", "replay_botzone"),
        ("human2017", "replay_human2017"),
        ("mcr", "replay_mcr"),
        ("duplicate", "replay_mcr"),
        ("pmn", "replay_mcr"),
    ),
    sim="sim_game",
    shanten="tenpai:shanten",
    shape="shape:shape_for",
    decisions="decisions:VIEW",
    # the fan calculator and what it calls per hand (docs/compiled.md: idle, warm, 2.9x PyMahjongGB's
    # time against the pure build's 7.5x), the replay's wrapper of it, asked at every win, and the
    # Botzone replay (a native subclass of the compiled replayer: an interpreted one makes each of
    # the replayer's method calls on itself a Python-level call); the decision judge's waits and
    # possible wins
    compiled=(
        "calculator",
        "win_score",
        "replay_botzone_json",
        "divide",
        "fans",
        "profiles",
        "incremental",
        "decisions",
        "waits",
        "possible_win",
    ),
)
