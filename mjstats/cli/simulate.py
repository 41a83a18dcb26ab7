"""``mjstats simulate``: bots play matches of a simulated ruleset; the hands are written as canonical
JSON Lines (and, with --faults, the list of injected faults beside them)."""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Iterator
from pathlib import Path

from mjstats.errors import MjstatsError
from mjstats.progress import ProgressLine
from mjstats.records import Hand
from mjstats.rulesets import get, rulesets


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "simulate",
        help="self-play: bots play matches, written as canonical records",
        description="Bots with distinct styles play N hands (grouped into matches) through the "
        "rules engines; the same seed gives the same file, byte for byte. With --faults RATE "
        "about that share of hands carries one recorded defect each, listed in "
        "FILE.faults.jsonl (match_id, hand_no, kind, detail). See docs/simulation.md.",
    )
    p.add_argument("--rules", required=True, choices=[r.name for r in rulesets() if r.sim is not None])
    p.add_argument("--hands", required=True, type=int, metavar="N", help="hands in total")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default 0)")
    p.add_argument(
        "--profile",
        metavar="P",
        help="rule profile: a built-in name or a TOML profile where the ruleset takes one "
        "(default: the ruleset's own; docs/simulation.md lists them)",
    )
    p.add_argument(
        "--players",
        metavar="A,B,C,D",
        help="four players NAME[:STYLE] (styles: greedy defensive aggressive flush; where a gold "
        "is wild also goldkeeper goldthrower; a ruleset with styles of its own takes those "
        "instead); default ann, bo, cai, dee with the ruleset's default styles (docs/simulation.md)",
    )
    p.add_argument("--out", "-o", required=True, type=Path, metavar="FILE.jsonl")
    p.add_argument(
        "--faults",
        type=float,
        default=0.0,
        metavar="RATE",
        help="share of hands (0..1) to perturb with one recorded fault each",
    )
    p.add_argument(
        "--rig-draws",
        metavar="SEAT:P",
        help="rigged play to measure the integrity tests: with probability P a draw of SEAT is "
        "replaced by its best useful tile still in the wall (recorded in each hand's meta)",
    )
    p.add_argument(
        "--collude",
        metavar="A,B",
        help="rigged play: seats A and B see each other's hands and feed each other's wins and "
        "pungs (recorded in each hand's meta)",
    )
    p.add_argument("--force", action="store_true",
                   help="replace FILE (and its .faults.jsonl) if it exists")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress line or summary")
    p.set_defaults(func=run)


def faults_path(out: Path) -> Path:
    """Where the fault list goes: FILE.jsonl -> FILE.faults.jsonl."""
    name = out.name.removesuffix(".gz").removesuffix(".jsonl")
    return out.with_name(f"{name}.faults.jsonl")


def run(args: argparse.Namespace) -> int:
    from mjstats.formats.canonical import write_canonical
    from mjstats.sim import SimConfig, parse_players, simulate_with_faults
    from mjstats.sim.rig import Rig, parse_collude, parse_rig_draws

    if args.hands < 1:
        raise MjstatsError(f"--hands must be at least 1, got {args.hands}")
    if args.seed < 0:
        raise MjstatsError(f"--seed must not be negative, got {args.seed}")
    if not 0.0 <= args.faults <= 1.0:
        raise MjstatsError(f"--faults is a share of hands between 0 and 1, got {args.faults}")
    parent = args.out.parent
    if not parent.is_dir():
        raise MjstatsError(f"{args.out}: the folder {parent} does not exist")
    if args.out.is_dir():
        raise MjstatsError(f"{args.out} is a folder; --out names the .jsonl file to write")
    # never replace a user's file unasked: an existing output (or faults file) needs --force
    for target in (args.out, faults_path(args.out)) if args.faults > 0 else (args.out,):
        if target.exists() and not args.force:
            raise MjstatsError(f"{target}: exists; use --force to replace it")
    named = args.profile in (None, "seed", "platform")
    if get(args.rules).user_profile is not None and not named and not Path(args.profile).is_file():
        raise MjstatsError(f"--profile {args.profile}: not seed, platform or a TOML file")
    seat, share = parse_rig_draws(args.rig_draws)
    rig = Rig(seat, share, parse_collude(args.collude))
    config = SimConfig(
        args.rules, args.hands, args.seed, args.profile, parse_players(args.players, args.rules), rig
    ).checked()

    faults = []
    counts = {"hands": 0, "wins": 0}

    def hands() -> Iterator[Hand]:
        for hand, fault in simulate_with_faults(config, args.faults, progress):
            counts["hands"] += 1
            counts["wins"] += hand.result.is_win
            if fault is not None:
                faults.append(fault)
            yield hand

    progress = None if args.quiet else ProgressLine("simulate", "hands")
    try:
        write_canonical(hands(), args.out)
    finally:
        if progress is not None:
            progress.close()
    if args.faults:
        path = faults_path(args.out)
        tmp = path.with_name(f".{path.name}.tmp")
        with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
            for fault in faults:
                fh.write(fault.to_json() + "\n")
        os.replace(tmp, path)
    if not args.quiet:
        n = counts["hands"]
        rigged = ", ".join(f"{k} {v}" for k, v in rig.meta(0) if k != "rigged_draws")
        print(
            f"simulated {n:,} {args.rules} hands (rule profile {config.profile_name}, "
            f"random seed {args.seed}) into {args.out}: {counts['wins']:,} wins, "
            f"{n - counts['wins']:,} exhaustive draws"
            + (f"; rigged: {rigged}" if rig.active else "")
        )
        if args.faults:
            kinds: dict[str, int] = {}
            for fault in faults:
                kinds[fault.kind] = kinds.get(fault.kind, 0) + 1
            print(
                f"injected {len(faults):,} faults into {faults_path(args.out)}: "
                + json.dumps(dict(sorted(kinds.items())), ensure_ascii=False)
            )
    return 0
