"""``mjstats audit``: replay every hand of a dataset, store findings, print a summary;
``--explain MATCH_ID`` prints one hand turn by turn instead."""

from __future__ import annotations

import argparse
from pathlib import Path

from mjstats.cli.waiting import add_wait_option, waiting_notice
from mjstats.errors import MjstatsError
from mjstats.progress import ProgressLine
from mjstats.store.fs import dataset_location


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "audit",
        help="replay every hand and check it against the rules",
        description="Replay every hand of a dataset, check each turn against the rules, rescore "
        "the wins and store the tables findings, computed_wins, computed_fans, computed_payments "
        "and audited_hands in the dataset (a rerun replaces them). The check catalogue is in "
        "docs/audit.md.",
    )
    # a URL (s3://..., memory://...) stays a string: read through fsspec (docs/scaling.md)
    p.add_argument("dataset", type=dataset_location, metavar="DATASET|URL")
    p.add_argument(
        "--jobs",
        "-j",
        type=int,
        default=None,
        metavar="N",
        help="worker processes (default: the CPU count, at most one per 5,000 hands)",
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
        "--html",
        type=Path,
        default=None,
        metavar="FILE",
        help="with --explain: write the hand(s) as a page with the replay viewer (tiles, buttons, "
        "slider, arrow keys) instead of printing text",
    )
    p.add_argument("--force", action="store_true", help="with --html: replace an existing file")
    p.add_argument(
        "--profile",
        metavar="NAME|FILE.toml",
        default=None,
        help="rule profile (a built-in name such as seed or platform, or a user TOML) for every "
        f"{_plain_titles()} hand; default: each hand's own profile",
    )
    p.add_argument(
        "--rules-profile",
        metavar="RULES=NAME|FILE.toml",
        action="append",
        default=[],
        help="rule profile for every hand of ruleset RULES (a built-in name or a user TOML), e.g. "
        f"{_profiled()[-1]}=platform; repeat for several rulesets (RULES: {', '.join(_profiled())}); "
        "default: each hand's own profile",
    )
    add_wait_option(p)
    p.add_argument("--quiet", "-q", action="store_true", help="no progress line")
    p.set_defaults(func=run)


def _profiled() -> tuple[str, ...]:
    """The recorded rulesets that take a user rule profile."""
    from mjstats.rulesets import recorded

    return tuple(r.name for r in recorded() if r.user_profile is not None)


def _plain_titles() -> str:
    """Titles of the rulesets ``--profile`` sets (those with ``plain_profile``)."""
    from mjstats.rulesets import recorded

    return " or ".join(r.title for r in recorded() if r.user_profile is not None and r.plain_profile)


def run(args: argparse.Namespace) -> int:
    if args.explain:
        return _explain(args)
    if args.hand is not None:
        raise MjstatsError("--hand needs --explain MATCH_ID")
    if args.html is not None:
        raise MjstatsError("--html needs --explain MATCH_ID")
    if args.jobs is not None and args.jobs < 1:
        raise MjstatsError("--jobs must be at least 1")
    from mjstats.audit import audit_dataset

    overrides = _overrides(args.profile, args.rules_profile)
    progress = None if args.quiet else ProgressLine("audit", "hands")
    try:
        if args.scheduler is not None:  # a URL without one: the process pool, on its snapshot
            from mjstats.distributed import audit_distributed

            if args.jobs is not None:
                raise MjstatsError("--jobs is the local process pool: not with --scheduler")
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


def _overrides(profile: str | None, per_ruleset: list[str] | None = None) -> dict[str, object] | None:
    """The replay profile of a rule profile name or TOML file, per ruleset: ``--profile`` for
    the rulesets it has always set (spec ``plain_profile``), ``--rules-profile RULES=P`` for
    RULES (given last wins)."""
    from mjstats.rulesets import recorded

    takes = {r.name: r for r in recorded() if r.user_profile is not None}
    chosen: dict[str, str] = {}
    if profile is not None:
        chosen.update((name, profile) for name, r in takes.items() if r.plain_profile)
    for item in per_ruleset or ():
        name, sep, value = item.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not value:
            raise MjstatsError(f"--rules-profile {item}: expected RULES=NAME|FILE.toml")
        if name not in takes:
            raise MjstatsError(
                f"--rules-profile {item}: {name!r} takes no rule profile (known: {', '.join(takes)})"
            )
        chosen[name] = value
    if not chosen:
        return None
    return {name: takes[name].load(takes[name].user_profile)(value) for name, value in chosen.items()}


def _explain(args: argparse.Namespace) -> int:
    from mjstats.audit import find_hands
    from mjstats.replay import replay_hand
    from mjstats.replay.explain import explain_hand

    hands = find_hands(args.dataset, args.explain, args.hand)
    if not hands:
        which = f"hand {args.hand} of match" if args.hand is not None else "match"
        raise MjstatsError(f"{args.dataset}: no {which} {args.explain}")
    overrides = _overrides(args.profile, args.rules_profile) or {}
    results = [replay_hand(hand, overrides.get(hand.ruleset), explain=True) for hand in hands]
    texts = [explain_hand(h, r) for h, r in zip(hands, results, strict=True)]
    if args.html is not None:
        from mjstats.viewer.files import write_replay_page

        write_replay_page(args.html, args.dataset, hands, results, texts, force=args.force)
        print(args.html)
    else:
        print("\n\n".join(texts))
    return 1 if args.fail_on_findings and any(r.findings for r in results) else 0
