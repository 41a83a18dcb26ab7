"""The metric registry: what every statistic means, in one place.

Each :class:`Metric` names a statistic in Chinese and English and says exactly what is counted
(numerator, denominator, unit), on which rulesets, at which level (per seat-hand, hand or win)
and how edge cases are decided. ``docs/metrics.md`` is generated from this module by
:func:`render_metrics_markdown` (a test keeps the two equal). The functions that compute the
metrics live in the family modules (outcomes, fans, gold, streaks); ``mjstats.stats.compute``
dispatches by id.
"""

from __future__ import annotations

from dataclasses import dataclass

from mjstats.stats.grouping import GROUP_KEYS, SMALL_SAMPLE

__all__ = ["FAMILIES", "METRICS", "Metric", "get_metric", "render_metrics_markdown"]

BOTH = ("guobiao", "fuzhou")
FUZHOU = ("fuzhou",)
ALL = ("guobiao", "fuzhou", "sichuan")


@dataclass(frozen=True, slots=True)
class Metric:
    """One registered statistic."""

    id: str
    name_zh: str
    name_en: str
    family: str  # outcomes | fans | gold | streaks | sichuan
    kind: str  # rate (Wilson interval) | mean (normal interval) | lift | test
    level: str  # what one observation is: seat-hand | hand | win | fan pair | gold
    numerator: str
    denominator: str
    unit: str
    rulesets: tuple[str, ...]
    edge_cases: tuple[str, ...] = ()
    keys: tuple[str, ...] = ()  # group keys the metric always has (besides the requested ones)


_M = Metric
_PER_RULESET = ("Grouped by `ruleset` as well whenever the dataset holds more than one ruleset "
                "(fan names and their denominators are per ruleset).")

METRICS: dict[str, Metric] = {
    m.id: m
    for m in (
        # --- outcomes ---------------------------------------------------------------------------
        _M("win_rate", "和牌率", "Win rate", "outcomes", "rate", "seat-hand",
           "seat-hands the seat won", "seat-hands played", "share of hands", ALL,
           ("A seat wins a hand if it has a win in it: a hand with several wins (duplicate MCR's "
            "`H1H3`, Sichuan 血战到底 with up to three winners, 一炮多响) counts for each winner; "
            "otherwise 截和 leaves the record's one winner.",
            "Sichuan: a seat wins at most once a hand (it is out after winning), so the rate is "
            "the share of seat-hands that went out.")),
        _M("self_draw_share", "自摸率", "Self-draw share", "outcomes", "rate", "win",
           "wins by self-draw", "wins", "share of wins", ALL,
           ("Robbing a kong (抢杠和) is not a self-draw, even where Fuzhou scores it as one.",
            "抢金, 三金倒 and 天和 count as self-draws (the winner took no one's discard).")),
        _M("deal_in_rate", "点炮率", "Deal-in rate", "outcomes", "rate", "seat-hand",
           "seat-hands in which the seat's discard was won on", "seat-hands played",
           "share of hands", ALL,
           ("Robbing a kong counts as a deal-in by the konger (the HU event's from_seat where the "
            "record names no loser).", "Self-draws have no deal-in.",
            "A discard won on by several seats is one deal-in for the discarder.",
            "Sichuan: a seat can deal in several times a hand (play goes on after each win); the "
            "rate counts the seat-hand once, the extra column `deal_ins` counts every win the "
            "seat paid as discarder or robbed konger.")),
        _M("draw_rate", "荒庄率", "Exhaustive-draw rate", "outcomes", "rate", "hand",
           "hands ended by exhaustive draw (荒庄)", "hands played", "share of hands", ALL,
           ("Grouped by a seat key (player, seat, style, dealer, wind) it counts the seat-hands "
            "of that group, so the groups' sums are four times the hands.",
            "Sichuan: only hands nobody won (outcome `draw`); a hand whose wall ran out after "
            "one or two wins is a won hand (its end is in `sc_flower_pig_rate`, `sc_cha_jiao_rate`).")),
        _M("call_rate", "副露率", "Call rate", "outcomes", "rate", "seat-hand",
           "seat-hands with at least one chi, peng or exposed kong (gang on a discard)",
           "seat-hands played", "share of hands", ALL,
           ("A concealed kong (暗杠) is NOT a call: nothing is taken from another player.",
            "An added kong (补杠) extends a peng that already counted.",
            "A claim that lost to a higher one (ignored) is not a call.")),
        _M("mean_fan", "平均番数", "Mean fan per win", "outcomes", "mean", "win",
           "sum of recorded fan totals", "wins with a recorded fan total", "fan", ALL,
           ("Guobiao totals include flower fans as recorded; Fuzhou totals are 花番 + 金番 + "
            "连庄数 as the platform recorded them (patterns are points, not fan).",
            "Wins with no recorded total are left out of both sums.",
            "Sichuan totals are the 0-based fan before the cap (平胡 = 0, reference sichuan.md "
            "§3.6); `sc_multiplier_share` gives the capped multipliers.")),
        _M("mean_win_points", "平均和牌得分", "Mean points per win", "outcomes", "mean", "win",
           "sum of the winner's net scores", "wins with recorded scores", "points", ALL,
           ("The winner's net of the whole hand. Sichuan: kong money and what the winner paid "
            "before going out included; `sc_win_order_points` splits it by order of winning.",)),
        _M("net_points", "场均得失分", "Net points per hand", "outcomes", "mean", "seat-hand",
           "sum of the seat's net scores", "seat-hands with recorded scores", "points", ALL,
           ("Draws with recorded (zero or penalty) scores count; hands with no scores do not.",)),
        _M("mean_win_turn", "平均和牌巡目", "Mean winning turn", "outcomes", "mean", "win",
           "sum over wins of (discards the winner made before winning + 1)", "wins", "turns", ALL,
           ("The turn is the winner's own: its discards before the win, plus one. 天和, 抢金 and "
            "a first-draw win are turn 1.",)),
        _M("tenpai_at_draw", "荒庄听牌率", "Tenpai at exhaustive draw", "outcomes", "rate",
           "seat-hand", "seats waiting (shanten <= 0) when the wall ran out",
           "seats at exhaustive draws whose hand could be rebuilt from the events",
           "share of seats", BOTH,
           ("The concealed hand is rebuilt from the events (deal, draws, discards, melds, "
            "flowers); a seat holding one tile too many is waiting if some discard leaves it "
            "waiting.", "Shanten from the rule engines (Guobiao: every winning form; Fuzhou: "
            "golds wild). Skipped with a message when an engine is unavailable.",
            "Hands that cannot be rebuilt are counted in `unreadable` and left out.")),
        # --- fans -------------------------------------------------------------------------------
        _M("fan_frequency", "番种出现率", "Fan frequency", "fans", "rate", "win",
           "wins whose recorded fans include the fan", "wins of the ruleset", "share of wins",
           ALL, ("`mean_count` is the mean count of the fan over the wins that have it.",
                  "Fuzhou items (花番, 金番, 连庄, patterns) are counted like fans.",
                  _PER_RULESET), ("fan",)),
        _M("fan_lift", "番种共现提升度", "Fan co-occurrence lift", "fans", "lift", "fan pair",
           "wins with both fans", "wins of the ruleset",
           "P(A and B) / (P(A) P(B))", ALL,
           ("Only pairs seen together at least once are listed; the interval is the Wilson "
            "interval of P(A and B) divided by P(A) P(B).", "Computed per ruleset only (`by` does not "
            "apply).", _PER_RULESET), ("fan", "other")),
        _M("fan_total_share", "番数分布", "Fan-total distribution", "fans", "rate", "win",
           "wins with this recorded fan total", "wins with a recorded fan total",
           "share of wins", ALL, (_PER_RULESET,), ("fan_total",)),
        _M("fan_mismatch_rate", "番数不符率", "Recorded vs computed fan total", "fans", "rate",
           "win", "audited wins whose recorded total differs from the computed one",
           "audited wins with both totals", "share of wins", ALL,
           ("Needs the audit's `computed_wins` table; empty when the dataset has none.",)),
        _M("fan_disagreement", "番种记录与计算不符", "Fan recorded vs computed", "fans", "rate",
           "win", "audited wins where the fan's recorded and computed counts differ",
           "audited wins where the fan is recorded or computed", "share of wins", ALL,
           ("Needs the audit's `computed_fans` table; `recorded_only` and `computed_only` count "
            "the wins where just one side has the fan.", _PER_RULESET), ("fan",)),
        # --- gold (Fuzhou) ----------------------------------------------------------------------
        _M("gold_held_share", "和牌持金分布", "Golds held at win", "gold", "rate", "win",
           "wins holding this many golds", "Fuzhou wins", "share of wins", FUZHOU,
           ("Golds counted in the winner's complete hand, the winning tile included (the robbed "
            "face-up gold of 抢金 counts).",), ("golds_held",)),
        _M("gold_points", "持金得分", "Points by golds held", "gold", "mean", "win",
           "sum of the winner's net scores", "Fuzhou wins with scores", "points", FUZHOU,
           (), ("golds_held",)),
        _M("gold_wild_share", "金作百搭比例", "Golds used as wild", "gold", "rate", "gold",
           "golds that must stand for another tile in the winning shape",
           "golds held in wins with a complete shape", "share of golds", FUZHOU,
           ("The fewest golds needed as wild: as many golds as possible are read at face value.",
            "三金倒 (any shape) and wins whose shape is not complete are left out "
            "(counted in `unresolved`).")),
        _M("gold_discard_win_rate", "打金后和牌率", "Win rate after discarding a gold", "gold",
           "rate", "seat-hand", "seat-hands won", "Fuzhou seat-hands, split by whether the seat "
           "discarded a gold", "share of hands", FUZHOU,
           ("`self_draws` counts the wins that were self-drawn (the seed profile lets a gold "
            "discarder win only by self-draw).",), ("discarded_gold",)),
        _M("start_gold_win_rate", "起手金数和牌率", "Win rate by golds in the starting hand",
           "gold", "rate", "seat-hand", "seat-hands won",
           "Fuzhou seat-hands with this many golds when play starts", "share of hands", FUZHOU,
           ("The starting hand is what the seat holds at the hand's first discard (after the "
            "deal, flower replacement and the gold reveal).",), ("start_golds",)),
        _M("gold_pattern_rate", "金型频率", "Gold pattern frequency", "gold", "rate", "win",
           "wins with the pattern (三金倒, 金雀, 金龙, 抢金)", "Fuzhou wins", "share of wins",
           FUZHOU, ("三金倒 and 抢金 are read from `win_kind` or the pattern; 金雀 and 金龙 from the "
                    "recorded pattern.",), ("pattern",)),
        # --- dealer streaks ---------------------------------------------------------------------
        _M("streak_share", "连庄数分布", "Streak-length distribution", "streaks", "rate", "hand",
           "hands played at this streak", "hands", "share of hands", BOTH, (), ("streak",)),
        _M("streak_survival", "连庄生存率", "Streak survival", "streaks", "rate", "hand",
           "hands played at a streak of at least k", "hands", "P(streak >= k)", BOTH,
           ("Counted over hands (hands.streak), not over dealerships.",), ("k",)),
        _M("dealer_win_rate_by_streak", "连庄庄家和牌率", "Dealer win rate by streak",
           "streaks", "rate", "seat-hand", "dealer seat-hands won", "dealer seat-hands",
           "share of hands", BOTH, (), ("streak",)),
        _M("dealer_points_by_streak", "连庄庄家得分", "Dealer points by streak", "streaks",
           "mean", "seat-hand", "sum of the dealer's net scores", "dealer seat-hands with scores",
           "points", BOTH, (), ("streak",)),
        _M("nondealer_win_rate_by_streak", "闲家对连庄和牌率", "Non-dealer win rate by streak",
           "streaks", "rate", "seat-hand", "non-dealer seat-hands won", "non-dealer seat-hands",
           "share of hands", BOTH, (), ("streak",)),
        _M("nondealer_deal_in_rate_by_streak", "闲家对连庄点炮率",
           "Non-dealer deal-in rate by streak", "streaks", "rate", "seat-hand",
           "non-dealer seat-hands that dealt in", "non-dealer seat-hands", "share of hands",
           BOTH, (), ("streak",)),
        _M("nondealer_points_by_streak", "闲家对连庄得分", "Non-dealer points by streak",
           "streaks", "mean", "seat-hand", "sum of the non-dealer's net scores",
           "non-dealer seat-hands with scores", "points", BOTH, (), ("streak",)),
        _M("streak_trend", "连庄趋势检验", "Trend of dealer win rate across streaks", "streaks",
           "test", "seat-hand", "dealer wins", "dealer seat-hands",
           "change in win rate per streak step", BOTH,
           ("Cochran-Armitage test for a linear trend (scores = streak lengths); `value` is the "
            "weighted least-squares slope, its 95% interval from the null variance, `z` and "
            "`p_value` the two-sided test. Analytic, so deterministic (no resampling).",
            "Streaks above the 99th percentile of dealer hands are pooled into one top level "
            "(so a handful of very long streaks cannot drive the slope).")),
    )
}  # fmt: skip

FAMILIES = ("outcomes", "fans", "gold", "streaks", "sichuan")


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
        'stats.gold_usage("DS")                    # every gold metric (Fuzhou hands)',
        'stats.dealer_streaks("DS")                # every streak metric, with the trend test',
        'stats.sichuan_metrics("DS")               # every Sichuan metric (Sichuan hands)',
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
    titles = {"outcomes": "Outcomes", "fans": "Fans", "gold": "Gold (Fuzhou)",
              "streaks": "Dealer streaks", "sichuan": "Sichuan 血战到底"}  # fmt: skip
    for family in FAMILIES:
        lines += [f"## {titles[family]}", ""]
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
