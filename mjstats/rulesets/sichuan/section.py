"""Sichuan's own report section: the 血战到底 block of a period page (metrics of family
``sichuan``), placed after the fan section like every ruleset's own sections.

Three blocks: the multiplier distribution with cap hits; the order of winning and what each
place is worth; the void-suit choice and its outcome, with 花猪, 查叫 and kong money per seat.
"""

from __future__ import annotations

import warnings

import pandas as pd

from mjstats import stats
from mjstats.report import figures
from mjstats.report.content import Block, Figure, Row, Section, Table
from mjstats.report.formatting import count, interval, number, share
from mjstats.store import Dataset

__all__ = ["SECTIONS", "has_sichuan", "sichuan_section"]

TITLE = "Sichuan 血战到底"
INTRO = (
    "Sichuan hands go on after a win until three players are out (血战到底), so a hand has up "
    "to three wins and a seat can pay several. A win is worth 2^fan base stakes per payer, up "
    "to the profile's cap; kongs are paid when made (刮风下雨); at the wall's end a player "
    "still holding the void suit pays as a 花猪 and the players not ready pay 查大叫. "
    "Definitions: docs/metrics.md (Sichuan)."
)
_INTERVAL = "95% interval"
_PLACES = {0: "not out", 1: "first out", 2: "second out", 3: "third out"}
_CHOICES = {"fewest": "fewest tiles", "middle": "middle suit", "most": "most tiles"}


def has_sichuan(ds: Dataset) -> bool:
    """Whether the dataset holds Sichuan hands (else the section says it has none)."""
    return any(r == "sichuan" for r, _ in ds.partitions())


def _rows_of(frame: pd.DataFrame, metric: str) -> pd.DataFrame:
    return frame[frame["metric"] == metric] if len(frame) else frame


def _rate_row(label: str, r: pd.Series) -> Row:
    return Row((label, count(r["numerator"]), count(r["denominator"]), share(r["value"]),
                interval(r["ci_low"], r["ci_high"], percent=True)), small=bool(r["small_sample"]))


def _multipliers(frame: pd.DataFrame) -> Block | None:
    mult = _rows_of(frame, "sc_multiplier_share").sort_values("multiplier")
    if not len(mult):
        return None
    rows = [_rate_row(f"x{int(r['multiplier'])}", r) for _, r in mult.iterrows()]
    rows += [_rate_row("at the cap", r) for _, r in _rows_of(frame, "sc_cap_rate").iterrows()]
    labels = [f"x{int(m)}" for m in mult["multiplier"]]
    svg = figures.bars(labels, list(mult["value"]), low=list(mult["ci_low"]), high=list(mult["ci_high"]),
                       small=list(mult["small_sample"]), percent=True, vertical=True, name="sc-multiplier",
                       title="Multiplier distribution", xlabel="multiplier 2^min(fan, cap)")
    return Block(
        "Multipliers",
        text="What each win is worth per payer, in base stakes: 2 to the power of its fan, capped by "
        "the profile (seed x32, platform x64).",
        tables=(Table(("Multiplier", "Wins", "Out of", "Share", _INTERVAL), (False, True, True, True, True),
                      tuple(rows)),),
        figures=(Figure(svg, "Share of Sichuan wins at each multiplier, with 95% intervals."),),
    )


def _win_order(frame: pd.DataFrame) -> Block | None:
    worth = _rows_of(frame, "sc_win_order_points").sort_values("win_order")
    places = _rows_of(frame, "sc_win_order_share").set_index("win_order")
    if not len(worth):
        return None
    rows = []
    points = []
    for _, r in worth.iterrows():
        place = int(r["win_order"])
        p = places.loc[place] if place in places.index else None
        money = r.get("mean_win_money")
        rows.append(Row((
            _PLACES.get(place, str(place)),
            count(p["numerator"]) if p is not None else "–",
            share(p["value"]) if p is not None else "–",
            number(r["value"]), interval(r["ci_low"], r["ci_high"], percent=False),
            number(money) if place else "–",
        ), small=bool(r["small_sample"])))
        points.append(figures.Point(_PLACES.get(place, str(place)), r["value"], r["ci_low"], r["ci_high"],
                                    bool(r["small_sample"])))
    svg = figures.intervals(points, name="sc-win-order", title="Net points by order of winning",
                            xlabel="mean net points of the hand", percent=False)
    return Block(
        "Order of winning",
        text="Seat-hands by the place the seat went out at (winners of one discard take consecutive "
        "places, nearest to the discarder first), the seat's mean net points of the whole hand "
        "(kong money and earlier payments included) and what the win itself brought.",
        tables=(Table(("Place", "Seat-hands", "Share", "Mean net points", _INTERVAL, "Mean win money"),
                      (False, True, True, True, True, True), tuple(rows)),),
        figures=(Figure(svg, "Mean net points of the hand by order of winning, with 95% intervals."),),
    )


def _void_choice(frame: pd.DataFrame, kong_rows: dict[str, pd.DataFrame]) -> Block | None:
    choice = _rows_of(frame, "sc_void_choice_share").set_index("void_choice")
    wins = _rows_of(frame, "sc_void_choice_win_rate")
    if not len(wins):
        return None
    order = {c: i for i, c in enumerate(_CHOICES)}
    wins = wins.sort_values("void_choice", key=lambda s: s.map(order))
    rows = []
    points = []
    for _, r in wins.iterrows():
        c = r["void_choice"]
        label = _CHOICES.get(c, str(c))
        s = choice.loc[c] if c in choice.index else None
        rows.append(Row((
            label, count(r["denominator"]), share(s["value"]) if s is not None else "–",
            share(r["value"]), interval(r["ci_low"], r["ci_high"], percent=True), number(r["mean_points"]),
        ), small=bool(r["small_sample"])))
        points.append(figures.Point(label, r["value"], r["ci_low"], r["ci_high"], bool(r["small_sample"])))
    svg = figures.intervals(points, name="sc-void-choice", title="Win rate by void-suit choice",
                            xlabel="win rate")
    end_rows = [_rate_row(label, r)
                for metric, label in (("sc_flower_pig_rate", "花猪 (paid 查花猪)"),
                                      ("sc_cha_jiao_rate", "not ready (paid 查大叫)"))
                for _, r in _rows_of(frame, metric).iterrows()]
    kong = [Row((f"kong money, net per seat-hand ({key} {r[key] or '–'})", count(r["denominator"]), "",
                 number(r["value"], 2), interval(r["ci_low"], r["ci_high"], percent=False, digits=2)),
                small=bool(r["small_sample"]))
            for key, rows_ in kong_rows.items() for _, r in rows_.iterrows()]
    return Block(
        "Void suit and the wall's end",
        text="Which suit each seat declared void (定缺), ranked by its tiles in the hand held when "
        "declaring, and how those seat-hands fared; then how often a seat ended as a 花猪 or not "
        "ready, and its net kong money (刮风下雨, 呼叫转移 and 退税).",
        tables=(
            Table(("Void suit declared", "Seat-hands", "Share", "Win rate", _INTERVAL, "Mean net points"),
                  (False, True, True, True, True, True), tuple(rows)),
            Table(("Per seat-hand", "Count", "Out of", "Share / mean", _INTERVAL),
                  (False, True, True, True, True), tuple(end_rows + kong)),
        ),
        figures=(Figure(svg, "Win rate by the void suit declared, with 95% intervals."),),
    )


def sichuan_section(ds: Dataset) -> Section:
    """The section for one period's dataset (says so when the period has no Sichuan hands)."""
    if not has_sichuan(ds):
        return Section("sichuan", TITLE, intro=INTRO, empty="No Sichuan hands in this period: the "
                       "Sichuan metrics apply to Sichuan hands only.")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        frame = stats.sichuan_metrics(ds)
        # kong money nets to zero over all seats: shown per bot style (simulated data) or seat
        styles = stats.base_tables(ds).seats["style"]
        key = "style" if (styles.astype(str) != "").any() else "seat"
        kong = {key: stats.compute(ds, "sc_kong_money", by=key)}
    blocks = [b for b in (_multipliers(frame), _win_order(frame), _void_choice(frame, kong)) if b is not None]
    if not blocks:
        return Section("sichuan", TITLE, intro=INTRO, empty="No Sichuan wins or seat-hands to count.")
    return Section("sichuan", TITLE, intro=INTRO, blocks=tuple(blocks))


SECTIONS = (sichuan_section,)
