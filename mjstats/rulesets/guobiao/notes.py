"""What Guobiao says in texts shared by every ruleset (metric definitions, report sections),
keyed by the place that shows it. Plain data, importing nothing."""

__all__ = ["NOTES"]

NOTES = {
    "mean_fan": "Guobiao totals include flower fans as recorded",
    "tenpai_at_draw": "Guobiao: every winning form",
    "streaks_section": "Guobiao as Botzone plays it passes the deal every hand, so its streaks stay 0.",
}
