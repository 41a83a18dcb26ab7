"""The Decisions section of a period page: how well each player and style plays
(the ``decisions`` table, ``mjstats decisions``; docs/decisions.md).

Per ruleset, a table by player and one by style (simulated data) of the decision metrics with
95% intervals, and a figure of the efficiency rate by style (or by player where the records
carry no styles).
"""

from __future__ import annotations

import pandas as pd

from mjstats import stats
from mjstats.report import figures
from mjstats.report.content import Block, Figure, Row, Section, Table
from mjstats.report.formatting import count, interval, number, share
from mjstats.report.sections import MAX_PLAYERS, _quiet, player_label, ruleset_name
from mjstats.stats.grouping import SMALL_SAMPLE
from mjstats.store import Dataset

__all__ = ["TABLE", "decisions_section"]

TABLE = "decisions"
INTRO = (
    "Every discard, claim and pass judged by exact engine computation (docs/decisions.md). "
    "Efficiency: discards that kept the least shanten (and, when waiting, the most winning "
    "tiles). Useful tiles lost: how many fewer unseen tiles that would improve the hand the "
    "discard kept than the best discard. Deal-ins and avoidable deal-ins (a discard no ready "
    "opponent waited on kept the same shanten) per discard; missed wins per decision; claims "
    "that lowered the shanten."
)
# (metric, column header, shown as a share or a mean)
COLUMNS = (
    ("efficiency_rate", "Efficiency", True),
    ("useful_lost", "Useful tiles lost", False),
    ("danger_rate", "Deal-ins / discard", True),
    ("unsafe_rate", "Avoidable deal-ins", True),
    ("missed_win_rate", "Missed wins / decision", True),
    ("call_gain_rate", "Claims gaining", True),
)


def decisions_section(ds: Dataset) -> Section | None:
    """The section, or None when the dataset has no decisions table (not computed)."""
    if not ds.has_table(TABLE):
        return None
    rulesets = sorted({r for r, _ in ds.partitions()})
    metrics = [m for m, _, _ in COLUMNS]
    by_player = _quiet(stats.compute_all, ds, by="ruleset,player", metrics=metrics)
    by_style = _quiet(stats.compute_all, ds, by="ruleset,style", metrics=metrics)
    blocks = []
    for ruleset in rulesets:
        players = _rows(by_player, ruleset)
        styles = _rows(by_style, ruleset)
        styles = styles[styles["style"].astype(str) != ""] if "style" in styles.columns else styles.iloc[0:0]
        if players.empty:
            continue
        blocks.append(_block(ruleset, "player", players))
        if not styles.empty:
            blocks.append(_block(ruleset, "style", styles))
    return Section(
        "decisions", "Decisions", intro=INTRO, blocks=tuple(blocks),
        empty="" if blocks else "No judged decisions in this period.",
    )  # fmt: skip


def _rows(frame: pd.DataFrame, ruleset: str) -> pd.DataFrame:
    if frame.empty or "ruleset" not in frame.columns:
        return frame.iloc[0:0]
    return frame[frame["ruleset"].astype(str) == ruleset]


def _block(ruleset: str, key: str, frame: pd.DataFrame) -> Block:
    efficiency = frame[frame["metric"] == "efficiency_rate"]
    order = efficiency.sort_values(["denominator", key], ascending=[False, True], kind="stable")
    values = list(order[key])[:MAX_PLAYERS]
    labels = [player_label(v) if key == "player" else str(v) for v in values]
    rows = []
    for value, label in zip(values, labels, strict=True):
        mine = frame[frame[key] == value].set_index("metric")
        discards = int(mine.loc["efficiency_rate", "denominator"]) if "efficiency_rate" in mine.index else 0
        seat_hands = int(mine.loc["efficiency_rate", "hands"]) if "efficiency_rate" in mine.index else 0
        cells: list[str | tuple[str, str]] = [label, count(discards)]
        for metric, _, is_share in COLUMNS:
            if metric not in mine.index:
                cells.append("–")
                continue
            r = mine.loc[metric]
            text = share(r["value"]) if is_share else number(r["value"], 2)
            digits = 1 if is_share else 2
            cells.append((text, interval(r["ci_low"], r["ci_high"], percent=is_share, digits=digits)))
        rows.append(Row(tuple(cells), small=seat_hands < SMALL_SAMPLE))
    headers = (key.capitalize(), "Discards", *(f"{name} (95% interval)" for _, name, _ in COLUMNS))
    table = Table(headers, (False,) + (True,) * (len(headers) - 1), tuple(rows))
    name = ruleset_name(ruleset)
    points = [
        figures.Point(lab, r["value"], r["ci_low"], r["ci_high"], bool(r["small_sample"]))
        for lab, (_, r) in zip(labels, order.head(MAX_PLAYERS).iterrows(), strict=True)
    ]
    title = f"Efficiency by {key}, {name}"
    svg = figures.intervals(points, name=f"decisions-{key}-{ruleset}", title=title, xlabel="efficiency rate")
    many = len(order) > MAX_PLAYERS
    note = f" Showing the {MAX_PLAYERS} with the most discards of {len(order)}." if many else ""
    return Block(
        f"{name}: by {key}",
        text="Rows marked small rest on fewer than "
        f"{SMALL_SAMPLE} seat-hands.{note}",
        tables=(table,),
        figures=(Figure(svg, f"{title}, with 95% intervals."),),
    )
