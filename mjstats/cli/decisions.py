"""``mjstats decisions``: judge every discard, claim and pass of a dataset and store the
``decisions`` table (docs/decisions.md)."""

from __future__ import annotations

import argparse

from mjstats.cli.waiting import add_wait_option, waiting_notice
from mjstats.errors import MjstatsError
from mjstats.progress import ProgressLine
from mjstats.store.fs import dataset_location


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "decisions",
        help="judge every discard, claim and pass (shanten, useful tiles, danger)",
        description="Replay every hand of a dataset and judge each decision by exact engine "
        "computation: shanten before and after, useful tiles kept against the best discard, "
        "ready opponents waiting on the tile, missed wins, deal-ins. Stores the table "
        "decisions in the dataset (a rerun replaces it); the metrics efficiency_rate, "
        "useful_lost, missed_win_rate, danger_rate, unsafe_rate and call_gain_rate read it. "
        "See docs/decisions.md.",
    )
    p.add_argument("dataset", type=dataset_location, metavar="DATASET|URL")
    p.add_argument(
        "--jobs", "-j", type=int, default=None, metavar="N",
        help="worker processes (default: the CPU count, at most one per 500 hands)"
    )
    p.add_argument(
        "--profile",
        metavar="NAME|FILE.toml",
        default=None,
        help="rule profile (a name or a user TOML) for every hand of the rulesets that take "
        "one, as for the audit; default: each hand's own profile",
    )
    add_wait_option(p)
    p.add_argument("--quiet", "-q", action="store_true", help="no progress line")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.jobs is not None and args.jobs < 1:
        raise MjstatsError("--jobs must be at least 1")
    from mjstats.decision.stage import decisions

    overrides = None
    if args.profile is not None:  # as the audit: each ruleset that takes user rule profiles
        from mjstats.rulesets import recorded

        overrides = {r.name: r.load(r.user_profile)(args.profile) for r in recorded() if r.user_profile}
    progress = None if args.quiet else ProgressLine("decisions", "hands")
    try:
        summary = decisions(
            args.dataset, jobs=args.jobs, progress=progress, wait=args.wait,
            on_wait=waiting_notice("decisions"), overrides=overrides,
        )  # fmt: skip
    finally:
        if progress is not None:
            progress.close()
    print("\n".join(summary.lines()))
    return 0
