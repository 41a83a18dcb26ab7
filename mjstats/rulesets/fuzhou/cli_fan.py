"""The Fuzhou branch of ``mjstats fan`` (``--rules fuzhou``): pattern, fan and payments of one win.

mjstats/cli/fan.py owns the command; it adds :func:`add_options` to its parser, reads
``--flowers`` with :func:`flowers_option` and dispatches ``--rules fuzhou`` to :func:`run`.
"""

from __future__ import annotations

import argparse
import json
import re
from typing import TYPE_CHECKING

from mjstats.cli.fan import flowers_option
from mjstats.errors import InvalidHand
from mjstats.rulesets.fuzhou.profiles import BUILTIN_PROFILES
from mjstats.tiles import Tile, parse_tile, parse_tiles

if TYPE_CHECKING:
    from mjstats.rulesets.fuzhou.settle import Settlement

__all__ = [
    "add_options",
    "flowers_option",
    "format_settlement",
    "parse_melds",
    "run",
    "settle_from_args",
]


def add_options(parser: argparse.ArgumentParser) -> None:
    """The options only ``--rules fuzhou`` reads (the hand, --win, --melds, --flowers,
    --self-drawn, --heavenly, --profile and --json are fan.py's, shared with Guobiao)."""
    group = parser.add_argument_group(
        "Fuzhou (--rules fuzhou)",
        f"--flowers takes the flower tiles (F1-F4 J1-J3 H1-H8); --profile is "
        f"{' or '.join(BUILTIN_PROFILES)} (default seed) or a TOML file; without --discarder "
        "the win is a self-draw; --heavenly claims 天和",
    )
    group.add_argument("--gold", metavar="TILE", help="the gold's kind, e.g. T4 (required)")
    group.add_argument("--seat", type=int, default=0, metavar="N", help="winner's seat 0-3")
    group.add_argument("--dealer", type=int, default=0, metavar="N", help="dealer's seat 0-3")
    group.add_argument("--discarder", type=int, metavar="N", help="discarder's seat 0-3")
    group.add_argument("--streak", type=int, default=0, metavar="N", help="连庄数 (站顶 = 0)")
    group.add_argument(
        "--robbed-gold", action="store_true", help="抢金: the winning tile is the robbed gold"
    )
    group.add_argument(
        "--jumped", action="store_true", help="抢炮和: a 金雀/金龙 hand took a nearer player's win"
    )


def parse_melds(text: str | None) -> list[tuple[str, Tile, int]]:
    """Melds written ``"PENG T9 2, CHI W7 3, GANG T7 0"``: kind, tile (CHI: the middle tile)
    and an optional offer (default 1; a GANG with offer 0 is concealed), split by , or ;."""
    melds: list[tuple[str, Tile, int]] = []
    for part in re.split(r"[;,]", text or ""):
        words = part.split()
        if not words:
            continue
        if len(words) not in (2, 3) or (len(words) == 3 and not words[2].lstrip("-").isdigit()):
            raise InvalidHand(f"a meld is 'KIND TILE [OFFER]', got {part.strip()!r}")
        offer = int(words[2]) if len(words) == 3 else 1
        melds.append((words[0].upper(), parse_tile(words[1]), offer))
    return melds


def settle_from_args(args: argparse.Namespace) -> Settlement:
    from mjstats.rulesets.fuzhou.settle import settle_win  # the engine loads only when scoring

    """Run the settlement that the parsed ``mjstats fan --rules fuzhou`` arguments describe."""
    if not args.gold:
        raise InvalidHand("--rules fuzhou needs --gold TILE")
    flowers = args.flowers
    if isinstance(flowers, int):
        if flowers:
            raise InvalidHand('--rules fuzhou needs the flower tiles, e.g. --flowers "F1 H2"')
        flowers = ()
    return settle_win(
        parse_tiles(args.hand),
        parse_melds(args.melds),
        parse_tile(args.gold),
        parse_tile(args.win),
        args.self_drawn or args.discarder is None,
        flowers,
        args.seat,
        args.dealer,
        discarder=args.discarder,
        streak=args.streak,
        profile=args.profile or "seed",
        robbed_gold=args.robbed_gold,
        heavenly=args.heavenly,
        jumped_claim=args.jumped,
    )


def format_settlement(s: Settlement) -> str:
    """The settlement as a few readable lines."""
    pattern = f"{s.pattern} ({s.pattern_points})" if s.pattern else "none (0)"
    others = ", ".join(f"{name} {points}" for name, points in s.eligible if name != s.pattern)
    f = s.fan
    return "\n".join(
        [
            f"pattern:  {pattern}" + (f"   also: {others}" if others else ""),
            f"fan:      flowers {f.flowers} + kongs {f.kongs} + golds {f.golds}"
            f" + streak {f.streak} = {f.total}",
            f"win:      seat {s.winner}, {'self-draw' if s.self_drawn else 'discard'}"
            + (", 抢炮和" if s.jumped else ""),
            f"each pay: {s.per_payer}",
            "payments: " + "  ".join(f"seat{i} {p:+d}" for i, p in enumerate(s.payments)),
            f"profile:  {s.profile}",
        ]
    )


def run(args: argparse.Namespace) -> int:
    """``mjstats fan --rules fuzhou``: print the settlement (text or --json)."""
    settlement = settle_from_args(args)
    if args.json:
        print(json.dumps({"rules": "fuzhou", **settlement.as_dict()}, ensure_ascii=False))
    else:
        print(format_settlement(settlement))
    return 0
