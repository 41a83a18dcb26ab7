"""The sections of a period page, each computed from the period's dataset with mjstats.stats.

Every function takes the period's :class:`~mjstats.store.Dataset` (see ``slices``) and returns a
:class:`~mjstats.report.content.Section`; a section with nothing to show says so (``empty``)
rather than disappearing.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

from mjstats import stats
from mjstats.report import figures
from mjstats.report.content import Block, Card, Figure, Row, Section, Table
from mjstats.report.formatting import (
    change,
    count,
    difference_interval,
    interval,
    number,
    rate_difference,
    share,
)
from mjstats.stats.grouping import SMALL_SAMPLE
from mjstats.store import Dataset

__all__ = [
    "KeyFigures",
    "conventions_section",
    "fans_section",
    "glossary_section",
    "gold_section",
    "key_figures",
    "overview_section",
    "player_label",
    "provenance_section",
    "streaks_section",
    "win_rates_section",
]

RULESET_NAMES = {"guobiao": "Guobiao 国标", "fuzhou": "Fuzhou 福州", "sichuan": "Sichuan 四川"}
MAX_PLAYERS = 24  # players listed per ruleset (the most hands first)
MAX_FANS = 20  # fans listed per ruleset
HEATMAP_FANS = 12  # fans in the co-occurrence matrix
MIN_PAIR_WINS = 3  # pairs seen together in fewer wins are left pale (a lift from 1 win is noise)
_INTERVAL = "95% interval"


def ruleset_name(ruleset: str) -> str:
    return RULESET_NAMES.get(ruleset, ruleset)


def player_label(name: object) -> str:
    """A player's name as shown; records without names (the Botzone sample) say so."""
    text = "" if name is None or (isinstance(name, float) and math.isnan(name)) else str(name)
    return text if text.strip() else "(unnamed)"


def _rulesets(ds: Dataset) -> list[str]:
    return sorted({r for r, _ in ds.partitions()})


def _quiet(fn, *args, **kwargs):
    """Call a statistic, keeping its notes (e.g. a skipped engine) off the terminal."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


# --- key figures and the overview ---------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Estimate:
    value: float
    low: float
    high: float
    n: int
    small: bool


# (metric id, label, unit): the overview's comparison table, per ruleset
KEY_METRICS = (
    ("win_rate", "Win rate (per seat)", "share"),
    ("self_draw_share", "Self-draw share of wins", "share"),
    ("deal_in_rate", "Deal-in rate (per seat)", "share"),
    ("draw_rate", "Exhaustive draws", "share"),
    ("call_rate", "Call rate (per seat)", "share"),
    ("mean_fan", "Mean fan per win", "mean"),
    ("mean_win_turn", "Mean winning turn", "mean"),
    ("fan_mismatch_rate", "Recorded fan total ≠ computed", "share"),
)


@dataclass(frozen=True, slots=True)
class KeyFigures:
    """A period's headline counts and, per ruleset, its key metrics (for the change columns)."""

    hands: int
    matches: int
    players: int
    wins: int
    draws: int
    findings: int
    flagged_hands: int
    audited_hands: int
    hands_by_ruleset: dict[str, int]
    metrics: dict[tuple[str, str], Estimate]


def _win_count(ds: Dataset, hands: pd.DataFrame) -> int:
    """Recorded wins: a row of ``wins`` each (a hand may have several), of won hands only."""
    if not len(hands):
        return 0
    wins = ds.table("wins", columns=["match_id", "hand_no"])
    won = ds.table("hands", columns=["match_id", "hand_no", "outcome"])
    won = won[won["outcome"] == "win"][["match_id", "hand_no"]]
    return len(wins.merge(won, on=["match_id", "hand_no"]))


def key_figures(ds: Dataset) -> KeyFigures:
    hands = ds.table("hands", columns=["match_id", "players", "outcome"])
    players = {p for row in hands["players"] for p in (row if row is not None else ()) if p}
    metrics: dict[tuple[str, str], Estimate] = {}
    for metric, _, _ in KEY_METRICS:
        frame = _quiet(stats.compute, ds, metric, by="ruleset") if len(hands) else pd.DataFrame()
        for rec in frame.to_dict(orient="records"):
            metrics[(str(rec["ruleset"]), metric)] = Estimate(
                float(rec["value"]),
                float(rec["ci_low"]),
                float(rec["ci_high"]),
                int(rec["denominator"]),
                bool(rec["small_sample"]),
            )
    findings = ds.table("findings", columns=["match_id"])
    audited = ds.table("audited_hands", columns=["status", "findings"])
    replayed = audited[audited["status"] != "unsupported"]
    by_ruleset = ds.table("hands", columns=["hand_no", "ruleset"]).groupby("ruleset", observed=True).size()
    return KeyFigures(
        hands=len(hands),
        matches=int(hands["match_id"].nunique()),
        players=len(players),
        wins=_win_count(ds, hands),
        draws=int((hands["outcome"] == "draw").sum()) if len(hands) else 0,
        findings=len(findings),
        # hands with findings, not counting those whose only findings are info (status clean)
        flagged_hands=int((replayed["status"] != "clean").sum()),
        audited_hands=len(replayed),
        hands_by_ruleset={str(k): int(v) for k, v in by_ruleset.items()},
        metrics=metrics,
    )


def overview_section(now: KeyFigures, before: KeyFigures | None, previous_label: str | None) -> Section:
    """Headline numbers and the key metrics per ruleset, against the previous period."""

    def delta(a: float, b: float | None) -> str:
        return "" if b is None else change(a, b, unit="count")

    prev = before
    cards = (
        Card("Hands", count(now.hands), delta(now.hands, prev and prev.hands)),
        Card("Matches", count(now.matches), delta(now.matches, prev and prev.matches)),
        Card(
            "Players",
            count(now.players),
            delta(now.players, prev and prev.players),
            "named players" if now.players else "no player names recorded",
        ),
        Card(
            "Wins",
            count(now.wins),
            delta(now.wins, prev and prev.wins),
            f"{count(now.draws)} exhaustive draws",
        ),
        Card(
            "Audit findings",
            count(now.findings),
            delta(now.findings, prev and prev.findings),
            f"{count(now.flagged_hands)} of {count(now.audited_hands)} replayed hands flagged"
            if now.audited_hands
            else ("not audited" if now.hands else ""),
        ),
    )
    if previous_label is None:
        compared = "This page has no previous period to compare with."
    elif before is None or before.hands == 0:
        compared = f"The previous period ({previous_label}) has no hands, so there is nothing to compare."
    else:
        compared = f"Changes are against the previous period, {previous_label}."
    tables = []
    for ruleset in sorted(now.hands_by_ruleset):
        rows = []
        for metric, label, unit in KEY_METRICS:
            est = now.metrics.get((ruleset, metric))
            if est is None:
                continue
            old = before.metrics.get((ruleset, metric)) if before else None
            fmt = share if unit == "share" else number
            rows.append(
                Row(
                    (
                        label,
                        fmt(est.value),
                        interval(est.low, est.high, percent=unit == "share"),
                        count(est.n),
                        fmt(old.value) if old else "–",
                        change(est.value, old.value, unit=unit) if old else "–",
                    ),
                    small=est.small,
                )
            )
        tables.append(
            Table(
                ("Metric", "This period", _INTERVAL, "n", "Previous", "Change"),
                (False, True, True, True, True, True),
                tuple(rows),
                caption=f"{ruleset_name(ruleset)}: {count(now.hands_by_ruleset[ruleset])} hands",
            )
        )
    return Section(
        "overview",
        "Overview",
        intro=f"{compared} Intervals are 95% (Wilson for shares, normal for means); n is the "
        f"number of observations behind the figure, and rows resting on fewer than {SMALL_SAMPLE} "
        "hands carry a small-sample flag. A change smaller than the interval is not evidence of "
        "a real change.",
        cards=cards,
        blocks=(Block("Key figures by ruleset", tables=tuple(tables)),) if tables else (),
        empty="" if now.hands else "No hands in this period.",
    )


# --- win rates ------------------------------------------------------------------------------------
_RATE_COLUMNS = (
    ("win_rate", "Win rate"),
    ("self_draw_share", "Self-draw share"),
    ("deal_in_rate", "Deal-in rate"),
    ("call_rate", "Call rate"),
)


def _rate_table(frame: pd.DataFrame, key: str, keys: list, labels: list[str]) -> Table:
    rows = []
    for value, label in zip(keys, labels, strict=True):
        cells: list[str | tuple[str, str]] = [label]
        small = False
        seat_hands = 0
        for metric, _ in _RATE_COLUMNS:
            rec = frame[(frame["metric"] == metric) & (frame[key] == value)]
            if rec.empty:
                cells.append("–")
                continue
            r = rec.iloc[0]
            cells.append((share(r["value"]), interval(r["ci_low"], r["ci_high"], percent=True)))
            if metric == "win_rate":
                seat_hands = int(r["denominator"])
                small = bool(r["small_sample"])
        rows.append(Row((cells[0], count(seat_hands), *cells[1:]), small=small))
    headers = [key.capitalize(), "Seat-hands", *(f"{name} (95% interval)" for _, name in _RATE_COLUMNS)]
    return Table(tuple(headers), (False,) + (True,) * (len(headers) - 1), tuple(rows))


def win_rates_section(ds: Dataset) -> Section:
    """Win, self-draw, deal-in and call rates by player and by seat, per ruleset."""
    blocks = []
    rulesets = _rulesets(ds)
    players_all = _quiet(stats.win_rates, ds, by=["ruleset", "player"]) if rulesets else None
    seats_all = _quiet(stats.win_rates, ds, by=["ruleset", "seat"]) if rulesets else None
    overall_all = _quiet(stats.compute, ds, "win_rate", by="ruleset") if rulesets else None
    for ruleset in rulesets:
        by_player = players_all[players_all["ruleset"] == ruleset]
        wins = by_player[by_player["metric"] == "win_rate"].sort_values(
            ["denominator", "player"], ascending=[False, True], kind="stable"
        )
        players = list(wins["player"])[:MAX_PLAYERS]
        shown = wins[wins["player"].isin(players)].sort_values(
            ["value", "player"], ascending=[False, True], kind="stable"
        )
        labels = [player_label(p) for p in shown["player"]]
        name = ruleset_name(ruleset)
        points = [
            figures.Point(lab, r["value"], r["ci_low"], r["ci_high"], bool(r["small_sample"]))
            for lab, (_, r) in zip(labels, shown.iterrows(), strict=True)
        ]
        overall = overall_all[overall_all["ruleset"] == ruleset]
        reference = float(overall["value"].iloc[0]) if len(overall) else None
        note = (
            f"Showing the {MAX_PLAYERS} players with the most hands of {len(wins)}."
            if len(wins) > MAX_PLAYERS
            else ""
        )
        blocks.append(
            Block(
                f"{name}: by player",
                text="Each dot is the player's share of seat-hands won, the bar its 95% interval; "
                "hollow grey dots rest on fewer than "
                f"{SMALL_SAMPLE} hands. The dashed line is the ruleset's overall win rate (with four "
                "seats and one winner a hand it is at most 25%; duplicate MCR's several winners "
                "can raise it).",
                tables=(_rate_table(by_player, "player", list(shown["player"]), labels),),
                figures=(
                    Figure(
                        figures.intervals(
                            points,
                            name=f"win-player-{ruleset}",
                            title=f"Win rate by player, {name}",
                            xlabel="win rate",
                            reference=reference,
                        ),
                        f"Win rate by player, {name}, with 95% intervals. {note}".strip(),
                    ),
                ),
            )
        )
        by_seat = seats_all[seats_all["ruleset"] == ruleset]
        seats = sorted(by_seat[by_seat["metric"] == "win_rate"]["seat"].unique())
        seat_labels = [f"Seat {int(s)}" for s in seats]
        seat_rows = by_seat[by_seat["metric"] == "win_rate"].set_index("seat")
        points = [
            figures.Point(
                lab,
                seat_rows.loc[s, "value"],
                seat_rows.loc[s, "ci_low"],
                seat_rows.loc[s, "ci_high"],
                bool(seat_rows.loc[s, "small_sample"]),
            )
            for s, lab in zip(seats, seat_labels, strict=True)
        ]
        blocks.append(
            Block(
                f"{name}: by seat",
                text="Seats are the record's seat numbers (0-3), not winds: the dealer moves round "
                "the table, so in a fair game every seat should win about as often.",
                tables=(_rate_table(by_seat, "seat", seats, seat_labels),),
                figures=(
                    Figure(
                        figures.intervals(
                            points,
                            name=f"win-seat-{ruleset}",
                            title=f"Win rate by seat, {name}",
                            xlabel="win rate",
                            reference=reference,
                        ),
                        f"Win rate by seat, {name}, with 95% intervals.",
                    ),
                ),
            )
        )
    return Section(
        "win-rates",
        "Win rates",
        intro="A seat-hand is one seat in one hand. The win rate is the share of seat-hands the "
        "seat won; the self-draw share is the share of its wins it drew itself; the deal-in rate "
        "the share of seat-hands in which its discard was won on; the call rate the share with "
        "at least one chi, peng or exposed kong.",
        blocks=tuple(blocks),
        empty="" if blocks else "No hands in this period.",
    )


# --- fans -----------------------------------------------------------------------------------------
def _ruleset_rows(frame: pd.DataFrame, ruleset: str, rulesets: list[str]) -> pd.DataFrame:
    if "ruleset" in frame.columns:
        return frame[frame["ruleset"].astype(str) == ruleset]
    return frame if rulesets == [ruleset] else frame.iloc[0:0]


def fans_section(ds: Dataset) -> Section:
    """Fan frequencies, fan totals and which fans come together (lift), per ruleset."""
    rulesets = _rulesets(ds)
    freq_all = _quiet(stats.fan_frequencies, ds, by="ruleset")
    totals_all = _quiet(stats.fan_total_distribution, ds, by="ruleset")
    lift_all = _quiet(stats.fan_lift, ds)
    blocks = []
    for ruleset in rulesets:
        name = ruleset_name(ruleset)
        freq = _ruleset_rows(freq_all, ruleset, rulesets)
        if freq.empty:
            blocks.append(
                Block(
                    f"{name}: fan frequencies",
                    empty="No recorded fans in this period (no wins, or the records carry no fan lists).",
                )
            )
            continue
        freq = freq.sort_values(["numerator", "fan"], ascending=[False, True], kind="stable")
        wins = int(freq["denominator"].iloc[0])
        top = freq.head(MAX_FANS)
        rows = tuple(
            Row(
                (
                    str(r["fan"]),
                    count(r["numerator"]),
                    share(r["value"]),
                    interval(r["ci_low"], r["ci_high"], percent=True),
                    number(r["mean_count"], 2),
                ),
                small=wins < SMALL_SAMPLE,
            )
            for _, r in top.iterrows()
        )
        note = f"The {MAX_FANS} most frequent of {len(freq)} fans." if len(freq) > MAX_FANS else ""
        blocks.append(
            Block(
                f"{name}: fan frequencies",
                text=f"Share of the {count(wins)} wins whose recorded fans include each fan (flower "
                "fans included as recorded); the mean count is over the wins that have the fan.",
                tables=(
                    Table(
                        ("Fan", "Wins with it", "Share of wins", _INTERVAL, "Mean count"),
                        (False, True, True, True, True),
                        rows,
                        note=note,
                    ),
                ),
                figures=(
                    Figure(
                        figures.bars(
                            [str(f) for f in top["fan"]],
                            list(top["value"]),
                            low=list(top["ci_low"]),
                            high=list(top["ci_high"]),
                            small=[wins < SMALL_SAMPLE] * len(top),
                            percent=True,
                            name=f"fans-{ruleset}",
                            title=f"Fan frequencies, {name}",
                            xlabel="share of wins",
                        ),
                        f"Share of wins with each fan, {name}, with 95% intervals.",
                    ),
                ),
            )
        )
        totals = _ruleset_rows(totals_all, ruleset, rulesets).sort_values("fan_total", kind="stable")
        if len(totals):
            blocks.append(
                Block(
                    f"{name}: fan totals",
                    text="How many fan the wins scored in all (as recorded).",
                    figures=(
                        Figure(
                            figures.bars(
                                [str(int(t)) for t in totals["fan_total"]],
                                list(totals["value"]),
                                positions=[float(t) for t in totals["fan_total"]],
                                low=list(totals["ci_low"]),
                                high=list(totals["ci_high"]),
                                percent=True,
                                vertical=True,
                                name=f"totals-{ruleset}",
                                title=f"Fan totals, {name}",
                                xlabel="recorded fan total",
                            ),
                            f"Distribution of recorded fan totals, {name}.",
                        ),
                    ),
                )
            )
        blocks.append(_lift_block(_ruleset_rows(lift_all, ruleset, rulesets), top, ruleset))
    return Section(
        "fans",
        "Fans",
        intro="Fans (番种) as the records list them. Co-occurrence is measured by lift: how much "
        "more often two fans appear in the same win than they would by chance (1 = independent).",
        blocks=tuple(blocks),
        empty="" if rulesets else "No hands in this period.",
    )


def _lift_block(lift: pd.DataFrame, top: pd.DataFrame, ruleset: str) -> Block:
    name = ruleset_name(ruleset)
    title = f"{name}: fans that come together"
    names = [str(f) for f in top["fan"].head(HEATMAP_FANS)]
    if lift.empty or len(names) < 2:
        return Block(title, empty="Too few distinct fans in this period to measure co-occurrence.")
    index = {n: i for i, n in enumerate(names)}
    matrix = np.full((len(names), len(names)), np.nan)
    for _, r in lift.iterrows():
        a, b = index.get(str(r["fan"])), index.get(str(r["other"]))
        if a is not None and b is not None and r["value"] > 0 and r["numerator"] >= MIN_PAIR_WINS:
            matrix[a, b] = matrix[b, a] = math.log2(float(r["value"]))
    pairs = lift[lift["numerator"] >= 5].sort_values(
        ["value", "numerator", "fan", "other"], ascending=[False, False, True, True], kind="stable"
    )
    rows = tuple(
        Row(
            (
                f"{r['fan']} + {r['other']}",
                count(r["numerator"]),
                number(r["value"], 2),
                interval(r["ci_low"], r["ci_high"], percent=False, digits=2),
            )
        )
        for _, r in pairs.head(10).iterrows()
    )
    tables = (
        (
            Table(
                ("Pair", "Wins with both", "Lift", _INTERVAL),
                (False, True, True, True),
                rows,
                caption="Strongest pairs seen together in at least 5 wins",
            ),
        )
        if rows
        else ()
    )
    return Block(
        title,
        text="Colour is log2 of the lift among the most frequent fans: red pairs come together more "
        f"often than chance, blue less; pale cells were seen together in fewer than {MIN_PAIR_WINS} wins.",
        tables=tables,
        figures=(
            Figure(
                figures.heatmap(
                    names,
                    matrix,
                    name=f"lift-{ruleset}",
                    title=f"Fan co-occurrence, {name}",
                    colorbar="log2 lift",
                ),
                f"Co-occurrence (log2 lift) of the {len(names)} most frequent fans, {name}.",
            ),
        ),
        empty="" if rows or len(names) >= 2 else "No pair of fans seen together in 5 wins or more.",
    )


# --- gold (Fuzhou) --------------------------------------------------------------------------------
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


# --- dealer streaks -------------------------------------------------------------------------------
def streaks_section(ds: Dataset) -> Section:
    """Streak lengths, survival, and how dealer and non-dealers fare as the streak grows."""
    rulesets = _rulesets(ds)
    frame = _quiet(stats.dealer_streaks, ds, by="ruleset") if rulesets else pd.DataFrame()
    blocks = []
    for ruleset in rulesets:
        name = ruleset_name(ruleset)
        mine = frame[frame["ruleset"].astype(str) == ruleset]
        share_rows = mine[mine["metric"] == "streak_share"].sort_values("streak")
        longest = int(share_rows.loc[share_rows["numerator"] > 0, "streak"].max()) if len(share_rows) else 0
        if longest == 0:
            blocks.append(
                Block(f"{name}", empty="No hand in this period was played at a dealer streak (连庄) above 0.")
            )
            continue

        def line(metric: str, mine: pd.DataFrame = mine) -> list[tuple[float, float, float, float, bool]]:
            rows = mine[mine["metric"] == metric].sort_values("streak")
            return [
                (
                    float(r["streak"]),
                    float(r["value"]),
                    float(r["ci_low"]),
                    float(r["ci_high"]),
                    bool(r["small_sample"]),
                )
                for _, r in rows.iterrows()
            ]

        survival = mine[mine["metric"] == "streak_survival"].sort_values("k")
        trend = mine[mine["metric"] == "streak_trend"]
        text = ""
        if len(trend) and not math.isnan(float(trend["value"].iloc[0])):
            t = trend.iloc[0]
            text = (
                f"Trend test (Cochran-Armitage) of the dealer's win rate across streaks: "
                f"{rate_difference(t['value'])} per step (95% interval "
                f"{difference_interval(t['ci_low'], t['ci_high'])}), z = {t['z']:.2f}, "
                f"p = {t['p_value']:.3f}."
            )
        table = Table(
            ("Streak", "Hands", "Share of hands", _INTERVAL, "Dealer win rate", _INTERVAL),
            (True,) * 6,
            tuple(_streak_row(mine, r) for _, r in share_rows.iterrows() if r["numerator"] > 0),
        )
        blocks.append(
            Block(
                name,
                text=text,
                tables=(table,),
                figures=(
                    Figure(
                        figures.series(
                            {
                                "P(streak ≥ k)": [
                                    (
                                        float(r["k"]),
                                        float(r["value"]),
                                        float(r["ci_low"]),
                                        float(r["ci_high"]),
                                        bool(r["small_sample"]),
                                    )
                                    for _, r in survival.iterrows()
                                ]
                            },
                            name=f"survival-{ruleset}",
                            title=f"Streak survival, {name}",
                            xlabel="streak k",
                            ylabel="share of hands",
                            step=True,
                        ),
                        f"Share of hands played at a streak of at least k, {name}.",
                    ),
                    Figure(
                        figures.series(
                            {
                                "dealer win rate": line("dealer_win_rate_by_streak"),
                                "non-dealer win rate": line("nondealer_win_rate_by_streak"),
                                "non-dealer deal-in rate": line("nondealer_deal_in_rate_by_streak"),
                            },
                            name=f"streak-rates-{ruleset}",
                            title=f"Rates by streak, {name}",
                            xlabel="current streak",
                            ylabel="share of seat-hands",
                        ),
                        f"Dealer and non-dealer rates by the dealer's current streak, {name}; bands are "
                        "95% intervals, hollow dots small samples.",
                    ),
                ),
            )
        )
    return Section(
        "streaks",
        "Dealer streaks",
        intro="A dealer who wins (or, under some rules, draws) deals again: the streak (连庄) counts "
        "the repeats. Guobiao as Botzone plays it passes the deal every hand, so its streaks stay 0.",
        blocks=tuple(blocks),
        empty="" if rulesets else "No hands in this period.",
    )


def _streak_row(mine: pd.DataFrame, r: pd.Series) -> Row:
    dealer = mine[(mine["metric"] == "dealer_win_rate_by_streak") & (mine["streak"] == r["streak"])]
    d = dealer.iloc[0] if len(dealer) else None
    return Row(
        (
            str(int(r["streak"])),
            count(r["numerator"]),
            share(r["value"]),
            interval(r["ci_low"], r["ci_high"], percent=True),
            share(d["value"]) if d is not None else "–",
            interval(d["ci_low"], d["ci_high"], percent=True) if d is not None else "–",
        ),
        small=bool(d["small_sample"]) if d is not None else False,
    )


# --- glossary and provenance ----------------------------------------------------------------------
def conventions_section() -> Section:
    """How the report writes numbers (one convention on every page), with examples."""
    rows = (
        ("Rate or share (win rate, share of wins)", "percent", share(0.2761)),
        ("95% interval of a rate (Wilson)", "percent range", interval(0.2465, 0.3082, percent=True)),
        (
            "Difference of two rates (change against the previous period, trend per streak step)",
            "percentage points (pp)",
            change(0.2881, 0.2761, unit="share"),
        ),
        ("95% interval of a difference of rates", "pp range", difference_interval(-0.003, 0.021)),
        ("Mean (fan per win, points, winning turn)", "plain number", number(45.638)),
        ("95% interval of a mean (normal)", "range", interval(41.6, 49.7, percent=False)),
        ("Change of a mean or a count", "signed number", f"{change(45.2, 45.6, unit='mean')}, "
         f"{change(112, 100, unit='count')}"),
        ("Lift (co-occurrence of fans)", "ratio, 1 = independent", number(1.352, 2)),
        ("No value (nothing to divide by, no previous period)", "en dash", "–"),
    )  # fmt: skip
    return Section(
        "conventions",
        "How numbers are written",
        intro="Every page writes numbers the same way: rates as percentages, differences of rates "
        "in percentage points (pp), so a change from 27.6% to 28.8% is +1.2 pp, not +4.3%. An "
        f"interval is a 95% interval. Rows resting on fewer than {SMALL_SAMPLE} hands carry a "
        "small-sample badge (hollow grey markers in figures): read them with care.",
        blocks=(
            Block(
                "Conventions",
                tables=(Table(("Quantity", "Written as", "Example"), (False, False, True), tuple(
                    Row(r) for r in rows)),),
            ),
        ),
    )  # fmt: skip


def glossary_section() -> Section:
    """Every registered metric: names, what is counted, edge cases (from the registry)."""
    rows = tuple(
        Row(
            (
                f"{m.name_en} ({m.name_zh})",
                f"`{m.id}`",
                m.numerator,
                m.denominator,
                m.unit,
                " ".join(m.edge_cases),
            )
        )
        for m in stats.METRICS.values()
    )
    return Section(
        "glossary",
        "Metric glossary",
        intro="The figures of the report come from mjstats' metric registry (docs/metrics.md): each "
        "is a numerator over a denominator, summed before dividing.",
        blocks=(
            Block(
                "Metrics",
                tables=(
                    Table(
                        ("Metric", "Id", "Numerator", "Denominator", "Unit", "Edge cases"),
                        (False,) * 6,
                        rows,
                        prose=True,
                    ),
                ),
            ),
        ),
    )


def provenance_section(ds: Dataset, source: Dataset, period_label: str) -> Section:
    """Where the numbers come from: the sources ingested, this period's hands per source, rejects."""
    hands = ds.table("hands", columns=["source"])
    per_source = hands.groupby("source").size().to_dict() if len(hands) else {}
    rows = []
    for s in source.manifest.get("sources", []):
        name = str(s.get("name") or s.get("path") or "")
        here = sum(n for src, n in per_source.items() if str(src) in (name, str(s.get("path", ""))))
        rows.append(
            Row(
                (
                    name,
                    str(s.get("format", "")),
                    count(here),
                    count(s.get("hands")),
                    count(s.get("rejects")),
                    str(s.get("sha256", ""))[:12],
                )
            )
        )
    rejects = source.table("rejects")
    reject_rows = tuple(
        Row(
            (
                f"{r['source']}:{r['line']}",
                str(r["match_id"] or ""),
                str(r["error"]),
                _clip(str(r["raw"] or "")),
            )
        )
        for _, r in rejects.head(20).iterrows()
    )
    blocks = [
        Block(
            "Sources",
            text=f"Dataset {source.root} (data fingerprint {source.fingerprint}). Every input record "
            "became a hand or a reject.",
            tables=(
                Table(
                    ("Source", "Format", "Hands in this period", "Hands in all", "Rejects", "SHA-256"),
                    (False, False, True, True, True, False),
                    tuple(rows),
                ),
            ),
        ),
        Block(
            "Rejected records",
            text="Records that could not be read (they have no date, so the list is the whole dataset's).",
            tables=(
                Table(
                    ("Where", "Match", "Error", "Raw text"),
                    (False,) * 4,
                    reject_rows,
                    note=f"The first 20 of {len(rejects)}." if len(rejects) > 20 else "",
                ),
            )
            if reject_rows
            else (),
            empty="" if reject_rows else "No record was rejected.",
        ),
    ]
    return Section(
        "provenance",
        "Data provenance",
        blocks=tuple(blocks),
        intro=f"{count(len(hands))} hands in this period.",
    )


def _clip(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
