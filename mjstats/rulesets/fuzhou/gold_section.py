"""Fuzhou's own report section: gold usage (golds held at win and their points, wild use,
discarding a gold), from the gold metrics."""

from __future__ import annotations

import pandas as pd

from mjstats import stats
from mjstats.report import figures
from mjstats.report.content import Block, Figure, Row, Section, Table
from mjstats.report.formatting import count, interval, number, share
from mjstats.report.sections import _INTERVAL, _quiet, _rulesets
from mjstats.store import Dataset

__all__ = ["SECTIONS", "gold_section"]


# --- gold --------------------------------------------------------------------------------
def gold_section(ds: Dataset) -> Section:
    """Fuzhou gold usage: golds held at win and their points, wild use, discarding a gold."""
    intro = (
        "In Fuzhou mahjong one tile kind is turned up as the gold (金): golds are wild, and "
        "holding them raises the score."
    )
    if "fuzhou" not in _rulesets(ds):
        return Section(
            "gold",
            "Gold (Fuzhou)",
            intro=intro,
            empty="No Fuzhou hands in this period: the gold metrics apply to Fuzhou only.",
        )
    frame = _quiet(stats.gold_usage, ds)

    def rows_of(metric: str) -> pd.DataFrame:
        return frame[frame["metric"] == metric]

    blocks = []
    held = rows_of("gold_held_share").sort_values("golds_held")
    points = rows_of("gold_points").set_index("golds_held")
    if len(held):
        table_rows = []
        for _, r in held.iterrows():
            p = points.loc[r["golds_held"]] if r["golds_held"] in points.index else None
            table_rows.append(
                Row(
                    (
                        str(int(r["golds_held"])),
                        count(r["numerator"]),
                        share(r["value"]),
                        interval(r["ci_low"], r["ci_high"], percent=True),
                        number(p["value"]) if p is not None else "–",
                        interval(p["ci_low"], p["ci_high"], percent=False) if p is not None else "–",
                    ),
                    small=bool(p["small_sample"]) if p is not None else bool(r["small_sample"]),
                )
            )
        pts = [
            figures.Point(
                f"{int(g)} gold{'s' if g != 1 else ''}",
                r["value"],
                r["ci_low"],
                r["ci_high"],
                bool(r["small_sample"]),
            )
            for g, r in points.sort_index().iterrows()
        ]
        blocks.append(
            Block(
                "Golds held at win",
                text="Golds in the winner's complete hand (the winning tile included) and the winner's "
                "mean net points for each count.",
                tables=(
                    Table(
                        ("Golds held", "Wins", "Share of wins", _INTERVAL, "Mean points", _INTERVAL),
                        (True,) * 6,
                        tuple(table_rows),
                    ),
                ),
                figures=(
                    Figure(
                        figures.bars(
                            [str(int(g)) for g in held["golds_held"]],
                            list(held["value"]),
                            low=list(held["ci_low"]),
                            high=list(held["ci_high"]),
                            percent=True,
                            vertical=True,
                            name="gold-held",
                            title="Golds held at win",
                            xlabel="golds held",
                        ),
                        "Share of Fuzhou wins by golds held, with 95% intervals.",
                    ),
                    Figure(
                        figures.intervals(
                            pts,
                            name="gold-points",
                            title="Points by golds held",
                            xlabel="winner's mean net points",
                            percent=False,
                        ),
                        "Winner's mean net points by golds held, with 95% intervals.",
                    ),
                ),
            )
        )
    rate_rows = []
    for metric, label_of in (
        ("gold_wild_share", lambda r: "Golds standing for another tile (of golds held)"),
        (
            "gold_discard_win_rate",
            lambda r: (
                "Win rate, seat discarded a gold" if r["discarded_gold"] else "Win rate, no gold discarded"
            ),
        ),
        ("start_gold_win_rate", lambda r: f"Win rate, {int(r['start_golds'])} gold(s) at the start"),
        ("gold_pattern_rate", lambda r: f"Wins with {r['pattern']}"),
    ):
        for _, r in rows_of(metric).iterrows():
            rate_rows.append(
                Row(
                    (
                        label_of(r),
                        count(r["numerator"]),
                        count(r["denominator"]),
                        share(r["value"]),
                        interval(r["ci_low"], r["ci_high"], percent=True),
                    ),
                    small=bool(r["small_sample"]),
                )
            )
    starts = rows_of("start_gold_win_rate").sort_values("start_golds")
    start_points = [
        figures.Point(
            f"{int(r['start_golds'])} at start",
            r["value"],
            r["ci_low"],
            r["ci_high"],
            bool(r["small_sample"]),
        )
        for _, r in starts.iterrows()
    ]
    blocks.append(
        Block(
            "Using the golds",
            text="Whether golds were needed as wild, and how often a seat wins by the golds it starts "
            "with or after throwing one away.",
            tables=(
                Table(
                    ("Measure", "Count", "Out of", "Share", _INTERVAL),
                    (False, True, True, True, True),
                    tuple(rate_rows),
                ),
            ),
            figures=(
                Figure(
                    figures.intervals(
                        start_points, name="gold-start", title="Win rate by starting golds", xlabel="win rate"
                    ),
                    "Win rate by the golds a seat holds when play starts, with 95% intervals.",
                ),
            )
            if start_points
            else (),
        )
    )
    return Section("gold", "Gold (Fuzhou)", intro=intro, blocks=tuple(blocks))


SECTIONS = (gold_section,)
