"""``mjstats audit``: replay every hand of a dataset, store findings, print a summary;
``--explain MATCH_ID`` prints one hand turn by turn instead."""

from __future__ import annotations

import argparse
from pathlib import Path

from mjstats.cli.waiting import add_wait_option, waiting_notice
from mjstats.errors import MjstatsError
from mjstats.progress import ProgressLine


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "audit",
        help="replay every hand and check it against the rules",
        description="Replay every hand of a dataset, check each turn against the rules, rescore "
        "the wins and store the tables findings, computed_wins, computed_fans, computed_payments "
        "and audited_hands in the dataset (a rerun replaces them). The check catalogue is in "
        "docs/audit.md.",
    )
    # a URL (s3://..., memory://...) stays a string: the Dask runner reads it through fsspec
    p.add_argument("dataset", type=lambda t: t if "://" in t else Path(t), metavar="DATASET")
    p.add_argument(
        "--jobs",
        "-j",
        type=int,
        default=None,
        metavar="N",
        help="worker processes (default: the CPU count)",
    )
    p.add_argument(
        "--scheduler",
        metavar="tcp://HOST:PORT|local:N",
        default=None,
        help="run on a Dask scheduler, or on a LocalCluster of N workers (pip install mjstats[dask]; "
        "docs/scaling.md)",
    )
    p.add_argument("--fail-on-findings", action="store_true", help="exit 1 when any hand has a finding")
    p.add_argument(
        "--explain",
        metavar="MATCH_ID",
        help="print this match's hand(s) turn by turn instead of auditing",
    )
    p.add_argument(
        "--hand",
        type=int,
        default=None,
        metavar="N",
        help="with --explain: only hand N of the match",
    )
    p.add_argument(
        "--profile",
        metavar="NAME|FILE.toml",
        default=None,
        help="Fuzhou rule profile for every Fuzhou hand (seed, platform or a user TOML); "
        "default: each hand's own profile",
    )
    p.add_argument(  # Sichuan (mjstats.rulesets.sichuan.replay)
        "--sichuan-profile",
        metavar="NAME|FILE.toml",
        default=None,
        help="Sichuan rule profile for every Sichuan hand (seed, platform or a user TOML); "
        "default: each hand's own profile",
    )
    add_wait_option(p)
    p.add_argument("--quiet", "-q", action="store_true", help="no progress line")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.explain:
        return _explain(args)
    if args.hand is not None:
        raise MjstatsError("--hand needs --explain MATCH_ID")
    if args.jobs is not None and args.jobs < 1:
        raise MjstatsError("--jobs must be at least 1")
    from mjstats.audit import audit_dataset

    overrides = _overrides(args.profile, args.sichuan_profile)
    progress = None if args.quiet else ProgressLine("audit", "hands")
    try:
        if args.scheduler is not None or isinstance(args.dataset, str):
            from mjstats.distributed import audit_distributed

            if args.jobs is not None:
                raise MjstatsError("--jobs is the local process pool: not with --scheduler or a URL")
            summary = audit_distributed(
                args.dataset, scheduler=args.scheduler, progress=progress, overrides=overrides,
                wait=args.wait,
            )
        else:
            summary = audit_dataset(
                args.dataset, jobs=args.jobs, progress=progress, overrides=overrides,
                wait=args.wait, on_wait=waiting_notice("audit"),
            )
    finally:
        if progress is not None:
            progress.close()
    print("\n".join(summary.lines()))
    return 1 if args.fail_on_findings and summary.findings_total else 0


def _overrides(profile: str | None, sichuan: str | None = None) -> dict[str, object] | None:
    """``--profile``: the Fuzhou replay profile of a rule profile name or TOML file;
    ``--sichuan-profile`` the Sichuan one."""
    if profile is None and sichuan is None:
        return None
    out: dict[str, object] = {}
    if profile is not None:
        from mjstats.replay import fuzhou_profile

        out["fuzhou"] = fuzhou_profile(profile)
    if sichuan is not None:
        from mjstats.rulesets.sichuan.replay import sichuan_profile

        out["sichuan"] = sichuan_profile(sichuan)
    return out


def _explain(args: argparse.Namespace) -> int:
    from mjstats.audit import find_hands
    from mjstats.replay import replay_hand
    from mjstats.replay.explain import explain_hand

    hands = find_hands(args.dataset, args.explain, args.hand)
    if not hands:
        which = f"hand {args.hand} of match" if args.hand is not None else "match"
        raise MjstatsError(f"{args.dataset}: no {which} {args.explain}")
    overrides = _overrides(args.profile, args.sichuan_profile) or {}
    results = [replay_hand(hand, overrides.get(hand.ruleset), explain=True) for hand in hands]
    print("\n\n".join(explain_hand(h, r) for h, r in zip(hands, results, strict=True)))
    return 1 if args.fail_on_findings and any(r.findings for r in results) else 0
