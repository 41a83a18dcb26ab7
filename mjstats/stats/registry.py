"""The metric registry: what every statistic means, in one place.

Each :class:`Metric` names a statistic in Chinese and English and says exactly what is counted
(numerator, denominator, unit), on which rulesets, at which level (per seat-hand, hand or win)
and how edge cases are decided. ``docs/metrics.md`` is generated from this module by
:func:`render_metrics_markdown` (a test keeps the two equal). The functions that compute the
metrics live in the family modules (outcomes, fans, streaks; a ruleset's own); ``mjstats.stats.compute``
dispatches by id.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

from mjstats.rulesets import notes, recorded
from mjstats.stats.grouping import GROUP_KEYS, SMALL_SAMPLE

__all__ = ["FAMILIES", "METRICS", "Metric", "get_metric", "render_metrics_markdown"]

# the metrics below apply to every ruleset whose hands are recorded, save one whose spec says the
# shared metrics do not fit its hands yet (shared_metrics=False)
BOTH = tuple(r.name for r in recorded() if r.shared_metrics)
# tenpai at the wall's end needs a shanten engine (a ruleset's ``shanten`` part)
SHANTEN = tuple(r.name for r in recorded() if r.shared_metrics and r.shanten is not None)


def _skipping(family: str) -> set[str]:
    """Rulesets whose metrics part says a shared ``family`` does not fit its hands
    (``SHARED_SKIPPED``, e.g. no dealer streak recorded)."""
    return {r.name for r in recorded()
            if r.metrics is not None and family in getattr(r.load(r.metrics), "SHARED_SKIPPED", ())}


# the dealer-streak metrics: the shared rulesets whose records carry a dealer streak
STREAKED = tuple(name for name in BOTH if name not in _skipping("streaks"))


@dataclass(frozen=True, slots=True)
class Metric:
    """One registered statistic."""

    id: str
    name_zh: str
    name_en: str
    family: str  # outcomes | fans | streaks | decisions | a ruleset's own family
    kind: str  # rate (Wilson interval) | mean (normal interval) | lift | test
    level: str  # what one observation is: seat-hand | hand | win | fan pair | gold
    numerator: str
    denominator: str
    unit: str
    rulesets: tuple[str, ...]
    edge_cases: tuple[str, ...] = ()
    keys: tuple[str, ...] = ()  # group keys the metric always has (besides the requested ones)


_M = Metric


def _sentence(parts: tuple[str, ...]) -> tuple[str, ...]:
    """The rulesets' clauses as one sentence (none when no ruleset has one)."""
    return ("; ".join(parts) + ".",) if parts else ()

_PER_RULESET = ("Grouped by `ruleset` as well whenever the dataset holds more than one ruleset "
                "(fan names and their denominators are per ruleset).")

_CORE: dict[str, Metric] = {
    m.id: m
    for m in (
        # --- outcomes ---------------------------------------------------------------------------
        _M("win_rate", "和牌率", "Win rate", "outcomes", "rate", "seat-hand",
           "seat-hands the seat won", "seat-hands played", "share of hands", BOTH,
           ("A seat wins a hand if it has a win in it: a hand with several wins (duplicate MCR's "
            "`H1H3`) counts for each winner; otherwise 截和 leaves the record's one winner.",
            *notes("win_rate"))),
        _M("self_draw_share", "自摸率", "Self-draw share", "outcomes", "rate", "win",
           "wins by self-draw", "wins", "share of wins", BOTH,
           (*notes("self_draw_share"),
            "抢金, 三金倒 and 天和 count as self-draws (the winner took no one's discard).")),
        _M("deal_in_rate", "点炮率", "Deal-in rate", "outcomes", "rate", "seat-hand",
           "seat-hands in which the seat's discard was won on", "seat-hands played",
           "share of hands", BOTH,
           ("Robbing a kong counts as a deal-in by the konger (the HU event's from_seat where the "
            "record names no loser).", "Self-draws have no deal-in.",
            "A discard won on by several seats is one deal-in for the discarder.",
            *notes("deal_in_rate"))),
        _M("draw_rate", "荒庄率", "Exhaustive-draw rate", "outcomes", "rate", "hand",
           "hands ended by exhaustive draw (荒庄)", "hands played", "share of hands", BOTH,
           ("Grouped by a seat key (player, seat, style, dealer, wind) it counts the seat-hands "
            "of that group, so the groups' sums are four times the hands.",
            *notes("draw_rate"))),
        _M("call_rate", "副露率", "Call rate", "outcomes", "rate", "seat-hand",
           "seat-hands with at least one chi, peng or exposed kong (gang on a discard)",
           "seat-hands played", "share of hands", BOTH,
           ("A concealed kong (暗杠) is NOT a call: nothing is taken from another player.",
            "An added kong (补杠) extends a peng that already counted.",
            "A claim that lost to a higher one (ignored) is not a call.")),
        _M("mean_fan", "平均番数", "Mean fan per win", "outcomes", "mean", "win",
           "sum of recorded fan totals", "wins with a recorded fan total", "fan", BOTH,
           (*_sentence(notes("mean_fan")),
            "Wins with no recorded total are left out of both sums.")),
        _M("mean_win_points", "平均和牌得分", "Mean points per win", "outcomes", "mean", "win",
           "sum of the winner's net scores", "wins with recorded scores", "points", BOTH,
           notes("mean_win_points")),
        _M("net_points", "场均得失分", "Net points per hand", "outcomes", "mean", "seat-hand",
           "sum of the seat's net scores", "seat-hands with recorded scores", "points", BOTH,
           ("Draws with recorded (zero or penalty) scores count; hands with no scores do not.",)),
        _M("mean_win_turn", "平均和牌巡目", "Mean winning turn", "outcomes", "mean", "win",
           "sum over wins of (discards the winner made before winning + 1)", "wins", "turns", BOTH,
           ("The turn is the winner's own: its discards before the win, plus one. 天和, 抢金 and "
            "a first-draw win are turn 1.",)),
        _M("tenpai_at_draw", "荒庄听牌率", "Tenpai at exhaustive draw", "outcomes", "rate",
           "seat-hand", "seats waiting (shanten <= 0) when the wall ran out",
           "seats at exhaustive draws whose hand could be rebuilt from the events",
           "share of seats", SHANTEN,
           ("The concealed hand is rebuilt from the events (deal, draws, discards, melds, "
            "flowers); a seat holding one tile too many is waiting if some discard leaves it "
            "waiting.", f"Shanten from the rule engines ({'; '.join(notes('tenpai_at_draw'))}). "
            "Skipped with a message when an engine is unavailable.",
            "Hands that cannot be rebuilt are counted in `unreadable` and left out.")),
        # --- fans -------------------------------------------------------------------------------
        _M("fan_frequency", "番种出现率", "Fan frequency", "fans", "rate", "win",
           "wins whose recorded fans include the fan", "wins of the ruleset", "share of wins",
           BOTH, ("`mean_count` is the mean count of the fan over the wins that have it.",
                  *notes("fan_frequency"), _PER_RULESET), ("fan",)),
        _M("fan_lift", "番种共现提升度", "Fan co-occurrence lift", "fans", "lift", "fan pair",
           "wins with both fans", "wins of the ruleset",
           "P(A and B) / (P(A) P(B))", BOTH,
           ("Only pairs seen together at least once are listed; the interval is the Wilson "
            "interval of P(A and B) divided by P(A) P(B).", "Computed per ruleset only (`by` does not "
            "apply).", _PER_RULESET), ("fan", "other")),
        _M("fan_total_share", "番数分布", "Fan-total distribution", "fans", "rate", "win",
           "wins with this recorded fan total", "wins with a recorded fan total",
           "share of wins", BOTH, (_PER_RULESET,), ("fan_total",)),
        _M("fan_mismatch_rate", "番数不符率", "Recorded vs computed fan total", "fans", "rate",
           "win", "audited wins whose recorded total differs from the computed one",
           "audited wins with both totals", "share of wins", BOTH,
           ("Needs the audit's `computed_wins` table; empty when the dataset has none.",)),
        _M("fan_disagreement", "番种记录与计算不符", "Fan recorded vs computed", "fans", "rate",
           "win", "audited wins where the fan's recorded and computed counts differ",
           "audited wins where the fan is recorded or computed", "share of wins", BOTH,
           ("Needs the audit's `computed_fans` table; `recorded_only` and `computed_only` count "
            "the wins where just one side has the fan.", _PER_RULESET), ("fan",)),
    )
}  # fmt: skip

_STREAKS: dict[str, Metric] = {
    m.id: m
    for m in (
        # --- dealer streaks ---------------------------------------------------------------------
        _M("streak_share", "连庄数分布", "Streak-length distribution", "streaks", "rate", "hand",
           "hands played at this streak", "hands", "share of hands", STREAKED, (), ("streak",)),
        _M("streak_survival", "连庄生存率", "Streak survival", "streaks", "rate", "hand",
           "hands played at a streak of at least k", "hands", "P(streak >= k)", STREAKED,
           ("Counted over hands (hands.streak), not over dealerships.",), ("k",)),
        _M("dealer_win_rate_by_streak", "连庄庄家和牌率", "Dealer win rate by streak",
           "streaks", "rate", "seat-hand", "dealer seat-hands won", "dealer seat-hands",
           "share of hands", STREAKED, (), ("streak",)),
        _M("dealer_points_by_streak", "连庄庄家得分", "Dealer points by streak", "streaks",
           "mean", "seat-hand", "sum of the dealer's net scores", "dealer seat-hands with scores",
           "points", STREAKED, (), ("streak",)),
        _M("nondealer_win_rate_by_streak", "闲家对连庄和牌率", "Non-dealer win rate by streak",
           "streaks", "rate", "seat-hand", "non-dealer seat-hands won", "non-dealer seat-hands",
           "share of hands", STREAKED, (), ("streak",)),
        _M("nondealer_deal_in_rate_by_streak", "闲家对连庄点炮率",
           "Non-dealer deal-in rate by streak", "streaks", "rate", "seat-hand",
           "non-dealer seat-hands that dealt in", "non-dealer seat-hands", "share of hands",
           STREAKED, (), ("streak",)),
        _M("nondealer_points_by_streak", "闲家对连庄得分", "Non-dealer points by streak",
           "streaks", "mean", "seat-hand", "sum of the non-dealer's net scores",
           "non-dealer seat-hands with scores", "points", STREAKED, (), ("streak",)),
        _M("streak_trend", "连庄趋势检验", "Trend of dealer win rate across streaks", "streaks",
           "test", "seat-hand", "dealer wins", "dealer seat-hands",
           "change in win rate per streak step", STREAKED,
           ("Cochran-Armitage test for a linear trend (scores = streak lengths); `value` is the "
            "weighted least-squares slope, its 95% interval from the null variance, `z` and "
            "`p_value` the two-sided test. Analytic, so deterministic (no resampling).",
            "Streaks above the 99th percentile of dealer hands are pooled into one top level "
            "(so a handful of very long streaks cannot drive the slope).")),
    )
}  # fmt: skip


# the rulesets whose decisions are judged (their ``decisions`` part, mjstats.decision)
JUDGED = tuple(r.name for r in recorded() if r.decisions is not None)

_DECISIONS: dict[str, Metric] = {
    m.id: m
    for m in (
        # --- decisions (the decisions table: mjstats decisions DS; docs/decisions.md) ----------
        _M("efficiency_rate", "牌效率", "Efficiency rate", "decisions", "rate", "discard",
           "judged discards not flagged `inefficient`", "judged discards", "share of discards",
           JUDGED,
           ("`inefficient`: the discard left a higher shanten than the best discard, or (when "
            "the best discard leaves the hand waiting) kept fewer winning tiles than it.",
            "A discard whose hand is not of a playing size (a faulty record) is not judged.",
            "Needs the decisions table (`mjstats decisions DS`).")),
        _M("useful_lost", "进张损失", "Useful tiles lost per discard", "decisions", "mean",
           "discard", "sum of useful_best - useful_kept", "judged discards", "tiles", JUDGED,
           ("Useful tiles are the unseen copies of the kinds that, drawn next, would take the hand "
            "below the shanten the best discard keeps; a discard that gives up shanten keeps 0.",)),
        _M("missed_win_rate", "漏和率", "Missed-win rate", "decisions", "rate", "decision",
           "judged decisions flagged `missed_win`", "judged decisions (discards, claims, passes)",
           "share of decisions", JUDGED,
           ("A missed win is a legal win worth the minimum (the ruleset's, e.g. 8 fan) on a self-drawn tile "
            "that was discarded, or on a discard that was passed or claimed instead.",
            "Passes while another seat won on the same tile are not counted.",
            *notes("missed_win_rate"))),
        _M("danger_rate", "放铳率(每打)", "Deal-ins per discard", "decisions", "rate", "discard",
           "discards won on by another seat", "discards", "share of discards", JUDGED,
           notes("danger_rate")),
        _M("unsafe_rate", "可避放铳率", "Avoidable deal-ins per discard", "decisions", "rate",
           "discard", "deal-ins while a discard no ready opponent waited on kept the best shanten",
           "discards", "share of discards", JUDGED,
           ("Safe is judged with every hand known (the engine's view, not the player's).",)),
        _M("call_gain_rate", "副露进步率", "Claims that lowered shanten", "decisions", "rate",
           "claim", "claims after which the hand's shanten is lower", "judged claims",
           "share of claims", JUDGED,
           ("After a chow or pung the shanten is the best the following discard can keep; after "
            "an exposed kong, the hand's own (a kong never lowers it: it is `call_worse`).",)),
    )
}  # fmt: skip


def _ruleset_parts() -> list[ModuleType]:
    """The rulesets' metrics parts (registry order): METRICS entries (Metric fields in order),
    FAMILIES (id -> title) and USAGE lines for docs/metrics.md."""
    return [r.load(r.metrics) for r in recorded() if r.metrics is not None]


# a ruleset's own families come between the shared ones and the dealer streaks
METRICS: dict[str, Metric] = {
    **_CORE, **{e[0]: Metric(*e) for part in _ruleset_parts() for e in part.METRICS}, **_STREAKS,
    **_DECISIONS,
}
_TITLES = {"outcomes": "Outcomes", "fans": "Fans",
           **{f: t for part in _ruleset_parts() for f, t in part.FAMILIES.items()},
           "streaks": "Dealer streaks", "decisions": "Decisions"}  # fmt: skip
FAMILIES = tuple(_TITLES)


def get_metric(metric_id: str) -> Metric:
    """The registered metric with this id (StatsError if there is none)."""
    from mjstats.stats.grouping import StatsError

    try:
        return METRICS[metric_id]
    except KeyError:
        raise StatsError(f"no metric {metric_id!r}: one of {', '.join(METRICS)}") from None


def render_metrics_markdown() -> str:
    """docs/metrics.md: every registered metric, generated from this registry."""
    lines = [
        "# Metrics",
        "",
        "<!-- Generated by mjstats.stats.registry.render_metrics_markdown(); do not edit. -->",
        "",
        "Every statistic mjstats reports is one of the metrics below. Each is computed from",
        "per-hand or per-seat counters that are summed first; rates and means are computed last.",
        f"Rates carry a 95% Wilson interval, means a 95% normal interval; every row counts the "
        f"hands behind it and is flagged `small_sample` below {SMALL_SAMPLE} of them.",
        "",
        f"Group keys (`--by`, `by=`): {', '.join(f'`{k}`' for k in GROUP_KEYS)} "
        "(several: `--by ruleset,seat`). `dealer` is `dealer` / `non-dealer`; `wind` is the "
        "seat wind (0 = east); `style` is the bot style of simulated data.",
        "",
        "## Using them",
        "",
        "```python",
        "from mjstats import stats",
        "",
        'stats.win_rates("DS", by="seat")          # win, self-draw, deal-in and call rates',
        'stats.compute("DS", "deal_in_rate", by=["ruleset", "player"])',
        'stats.fan_frequencies("DS")               # also fan_lift, fan_total_distribution',
        *(line for part in _ruleset_parts() for line in part.USAGE),
        'stats.dealer_streaks("DS")                # every streak metric, with the trend test',
        'stats.compute_all("DS", by="seat")        # every metric that applies',
        "```",
        "",
        "```sh",
        "mjstats stats DS                            # readable table, every metric",
        "mjstats stats DS --by seat --metric win_rate --json",
        "mjstats stats DS --metric fan_frequency --csv",
        "mjstats stats DS --list                     # metric ids",
        "```",
        "",
        "Every function takes a dataset folder or an open `Dataset` and returns a tidy pandas "
        "frame: `metric`, the group key columns, `numerator`, `denominator`, `value`, `ci_low`, "
        "`ci_high`, `hands` (the hands, seat-hands or wins behind the row, at the metric's "
        "level), `small_sample`, then metric-specific extras. For a mean, `numerator` is the "
        "sum and `denominator` the count. `--json` prints an array of rows with `by` holding "
        'the group keys (fan metrics: `by: {"fan": name}`). The statistics read only the '
        "columns they need, part file by part file, and sum per-seat counters before dividing.",
        "",
    ]
    for family in FAMILIES:
        lines += [f"## {_TITLES[family]}", ""]
        for m in METRICS.values():
            if m.family != family:
                continue
            lines += [
                f"### `{m.id}`: {m.name_zh} ({m.name_en})",
                "",
                f"- numerator: {m.numerator}",
                f"- denominator: {m.denominator}",
                f"- unit: {m.unit}; kind: {m.kind}; one observation: {m.level}",
                f"- rulesets: {', '.join(m.rulesets)}",
            ]
            if m.keys:
                lines.append(f"- always grouped by: {', '.join(f'`{k}`' for k in m.keys)}")
            for case in m.edge_cases:
                lines.append(f"- edge case: {case}")
            lines.append("")
    return "\n".join(lines)
