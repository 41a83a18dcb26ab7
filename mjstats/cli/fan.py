"""``mjstats fan``: score one winning hand and print its fans, points, tiles and total.

Errors (not a win, impossible input) reach mjstats.cli.main, which prints them as one line.
"""

from __future__ import annotations

import argparse
from types import ModuleType

from mjstats.errors import InvalidHand
from mjstats.rulesets import RECORDS_RULESET, get, names
from mjstats.tiles import Tile, parse_tile, parse_tiles


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "fan",
        help="score a winning hand (fans, points, total)",
        description="Score a winning hand. HAND is the concealed tiles without the winning tile, "
        "in any notation (Botzone W1 T5 B9 F1 J1, mpsz 123m45p, Chinese).",
        epilog='example: mjstats fan "W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9 W9" --win W5',
    )
    p.add_argument("hand", metavar="HAND")
    p.add_argument("--win", required=True, metavar="TILE", help="the winning tile")
    p.add_argument(
        "--melds",
        default="",
        metavar="MELDS",
        help='exposed/declared sets, comma-separated "KIND TILE OFFER": CHI (middle tile, '
        "offer 1-3 = claimed tile), PENG (offer 1-3 = from whom), GANG (offer 0 = concealed)",
    )
    p.add_argument("--self-drawn", action="store_true", help="won on a self-drawn tile")
    p.add_argument("--fourth-tile", action="store_true", help="和绝张: the last copy of the tile")
    p.add_argument("--kong-win", action="store_true",
                   help="杠上开花 when self-drawn, 抢杠和 on another's kong")
    p.add_argument("--last-tile", action="store_true",
                   help="妙手回春 when self-drawn, 海底捞月 on a discard")
    p.add_argument("--seat-wind", type=int, default=0, choices=range(4), metavar="N",
                   help="0-3 = E S W N (default 0)")
    p.add_argument("--round-wind", type=int, default=0, choices=range(4), metavar="N",
                   help="0-3 = E S W N (default 0)")
    p.add_argument("--flowers", type=flowers_option, default=0, metavar="N",
                   help="flower tiles: a count (1 fan each) or, where groups count, the tiles, "
                   'e.g. "F1 H2"')
    p.add_argument("--rules", default=RECORDS_RULESET, choices=sorted(names()),
                   help=f"rule set (default {RECORDS_RULESET})")
    p.add_argument("--profile", default=None, metavar="P",
                   help="rule profile of the rule set (its options group below lists them)")
    p.add_argument("--heavenly", action="store_true", help="claim 天和 (platform_extras profiles)")
    p.add_argument("--earthly", action="store_true", help="claim 地和 (platform_extras profiles)")
    p.add_argument("--human", action="store_true", help="claim 人和 (platform_extras profiles)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    for name in names():  # each rule set's own options, in a group of its own
        fan_cli(name).add_options(p)
    p.set_defaults(func=run)


def fan_cli(ruleset: str) -> ModuleType:
    """The rule set's fan command part (its registry ``fan_cli``): add_options(parser), run(args)."""
    spec = get(ruleset)
    module: ModuleType = spec.load(spec.fan_cli)
    return module


def run(args: argparse.Namespace) -> int:
    code: int = fan_cli(args.rules).run(args)
    return code


def flowers_option(text: str) -> int | tuple[Tile, ...]:
    """``--flowers``: a count (``2``) or the flower tiles themselves (``"F1 H2 J3"``, for rule
    sets where groups of four count)."""
    stripped = text.strip()
    if stripped.isdigit():
        return int(stripped)
    try:
        return parse_tiles(stripped)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not a count or flower tiles: {text!r} ({exc})") from None


def parse_melds(text: str) -> list[tuple[str, str, int]]:
    """``"PENG W1 1,CHI T5 2"`` (tiles in any notation) as Botzone-style meld tuples."""
    melds = []
    for i, part in enumerate(p.strip() for p in text.split(",")):
        if not part:
            continue
        fields = part.split()
        if len(fields) != 3:
            raise InvalidHand(f'meld {i + 1} {part!r}: expected "KIND TILE OFFER"')
        kind, tile, offer = fields
        try:
            offer_n = int(offer)
        except ValueError:
            raise InvalidHand(f"meld {i + 1} {part!r}: offer must be a number 0-3") from None
        melds.append((kind.upper(), parse_tile(tile).botzone, offer_n))
    return melds


__all__ = ["fan_cli", "flowers_option", "parse_melds", "register", "run"]
