"""What Fuzhou says in texts shared by every ruleset (metric definitions, report sections),
keyed by the place that shows it. Plain data, importing nothing."""

__all__ = ["NOTES"]

NOTES = {
    "self_draw_share": "Robbing a kong (抢杠和) is not a self-draw, even where Fuzhou scores it as one.",
    "mean_fan": "Fuzhou totals are 花番 + 金番 + 连庄数 as the platform recorded them (patterns are "
    "points, not fan)",
    "tenpai_at_draw": "Fuzhou: golds wild",
    "fan_frequency": "Fuzhou items (花番, 金番, 连庄, patterns) are counted like fans.",
}
