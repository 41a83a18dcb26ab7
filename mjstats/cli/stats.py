"""``mjstats stats``: the registered metrics of a dataset as a table, JSON rows or CSV."""

from __future__ import annotations

import argparse
import json
import sys
import warnings

from mjstats.errors import MjstatsError
from mjstats.store.fs import dataset_location


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "stats",
        help="statistics of a dataset (win rates, fans, gold, dealer streaks)",
        description="Compute registered metrics (docs/metrics.md) over a dataset. Rates come "
        "with 95% Wilson intervals; groups under 100 hands are flagged (small_sample).",
    )
    p.add_argument("dataset", type=dataset_location, metavar="DATASET|URL")
    p.add_argument("--by", default=None, metavar="KEY",
                   help="group key(s), comma-separated: player, seat, dealer, style, wind, "
                   "ruleset, period, profile, streak")
    p.add_argument("--metric", "-m", action="append", default=None, metavar="ID",
                   help="metric id (repeat or comma-separate; default: all that apply)")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="a JSON array of rows")
    fmt.add_argument("--csv", action="store_true", help="CSV, one row per group")
    p.add_argument("--limit", type=int, default=20,
                   help="rows shown per metric in the table (0 = all; JSON/CSV show all)")
    p.add_argument("--list", action="store_true", help="list the metric ids and exit")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress lines")
    p.add_argument("--jobs", "-j", type=int, default=1, metavar="N",
                   help="worker processes for the rulesets' slow scans (default 1; same results)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mjstats.stats import METRICS, compute_all, plain_frame, result_rows

    if args.list:
        for m in METRICS.values():
            print(f"{m.id:34} {m.name_zh}  {m.name_en}")
        return 0
    if args.jobs < 1:
        raise MjstatsError(f"--jobs must be at least 1, not {args.jobs}")
    metrics = None
    if args.metric:
        metrics = [m.strip() for item in args.metric for m in item.split(",") if m.strip()]
    from mjstats.progress import ProgressLine
    from mjstats.stats.api import PROGRESS_PHASES, ruleset_stats

    labels = {**PROGRESS_PHASES, **{p.PROGRESS[0]: p.PROGRESS[1:] for p in ruleset_stats().values()}}
    lines: dict[str, ProgressLine] = {}

    def progress(phase: str, count: int) -> None:
        if phase not in lines:  # each phase's clock starts when it does
            lines[phase] = ProgressLine(*labels[phase])
        lines[phase](count)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            frame = compute_all(args.dataset, by=args.by, metrics=metrics,
                                progress=None if args.quiet else progress, jobs=args.jobs)
        finally:
            for line in lines.values():
                line.close()
    for w in caught:
        print(f"mjstats stats: note: {w.message}", file=sys.stderr)
    if args.json:
        json.dump(result_rows(frame), sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
    elif args.csv:
        plain_frame(frame).to_csv(sys.stdout, index=False)  # counts as integers, not 16.0
    else:
        sys.stdout.write(render_table(frame, limit=args.limit))
    return 0


def _number(value: object, rate: bool) -> str:
    if value is None or value != value:  # NaN
        return "-"
    v = float(value)  # type: ignore[arg-type]
    if rate:
        return f"{100 * v:.1f}%"
    return f"{v:.2f}" if not v.is_integer() else f"{v:.0f}"


def render_table(frame, limit: int = 20) -> str:
    """A readable text table: one block per metric, its groups, n/d, value and interval."""
    from mjstats.stats import METRICS, result_rows
    from mjstats.stats.labels import group_label

    if frame is None or len(frame) == 0:
        return "no rows (empty dataset or nothing to compute)\n"
    lines: list[str] = []
    rows = result_rows(frame)
    by_metric: dict[str, list[dict]] = {}
    for row in rows:
        by_metric.setdefault(row["metric"], []).append(row)
    for metric_id, items in by_metric.items():
        m = METRICS.get(metric_id)
        rate = m is not None and m.kind == "rate"
        title = f"{metric_id}  {m.name_zh} ({m.name_en})" if m else metric_id
        lines.append(title)
        groups = [", ".join(f"{k}={group_label(k, v)}" for k, v in r["by"].items()) or "all" for r in items]
        width = min(max(len(g) for g in groups), 40)
        shown = items if limit <= 0 else items[:limit]
        for group, r in zip(groups, shown, strict=False):
            flag = "  (small sample)" if r.get("small_sample") else ""
            if m is not None and m.kind == "test" and r.get("z") is not None:
                flag = f"  z={r['z']:.2f} p={r['p_value']:.3g}" + flag
            lo, hi = _number(r.get("ci_low"), rate), _number(r.get("ci_high"), rate)
            value = r.get("value")
            precise = m is not None and m.kind in ("lift", "test") and value is not None
            text = f"{value:.3f}" if precise else _number(value, rate)
            # a statistic that cannot be computed says why instead of "-  [-, -]"
            shown = f"  {r['note']}" if r.get("note") else f" {text:>8}  [{lo}, {hi}]"
            lines.append(
                f"  {group[:40]:<{width}}  {r.get('numerator', '-')!s:>8} / {r.get('denominator', '-')!s:<8}"
                f"{shown}{flag}"
            )
        if len(shown) < len(items):
            lines.append(f"  ... {len(items) - len(shown)} more rows (--limit 0, --json or --csv for all)")
        lines.append("")
    return "\n".join(lines)
