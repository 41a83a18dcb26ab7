"""``mjstats fan``: score one winning hand and print its fans, points, tiles and total.

Errors (not a win, impossible input) reach mjstats.cli.main, which prints them as one line.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable

from mjstats.cli import fuzhou_fan
from mjstats.errors import InvalidHand
from mjstats.rulesets.sichuan import cli_fan as sichuan_fan
from mjstats.tiles import parse_tile, parse_tiles

# Rule sets this command can score; each entry reads the parsed arguments and prints.
RULES: dict[str, Callable[[argparse.Namespace], int]] = {}


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
    p.add_argument("--flowers", type=fuzhou_fan.flowers_option, default=0, metavar="N",
                   help="flower tiles (1 fan each); fuzhou: the tiles, e.g. \"F1 H2\"")
    p.add_argument("--rules", default="guobiao", choices=sorted(RULES), help="rule set (default guobiao)")
    p.add_argument("--profile", default=None, metavar="P",
                   help="rule profile of the rule set (guobiao: standard, platform_extras, "
                   "platform_extras_lianzhong)")
    p.add_argument("--heavenly", action="store_true", help="claim 天和 (platform_extras profiles)")
    p.add_argument("--earthly", action="store_true", help="claim 地和 (platform_extras profiles)")
    p.add_argument("--human", action="store_true", help="claim 人和 (platform_extras profiles)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    fuzhou_fan.add_fuzhou_options(p)
    sichuan_fan.add_sichuan_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    return RULES[args.rules](args)


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


def _guobiao(args: argparse.Namespace) -> int:
    from mjstats.rules.guobiao import calculate_fans, meets_minimum

    hand = [t.botzone for t in parse_tiles(args.hand)]
    win = parse_tile(args.win).botzone
    result = calculate_fans(
        hand,
        parse_melds(args.melds),
        win,
        flowers=args.flowers,
        self_drawn=args.self_drawn,
        fourth_tile=args.fourth_tile,
        kong_win=args.kong_win,
        last_tile=args.last_tile,
        seat_wind=args.seat_wind,
        round_wind=args.round_wind,
        profile=args.profile or "standard",
        heavenly=args.heavenly,
        earthly=args.earthly,
        human=args.human,
    )
    if args.json:
        print(json.dumps({
            "rules": "guobiao",
            "profile": result.profile,
            "form": result.form,
            "total": result.total,
            "fan_total": result.fan_total,
            "meets_minimum": meets_minimum(result),
            "fans": [
                {"name": f.name, "name_en": f.name_en, "points": f.points, "count": f.count,
                 "tiles": [[str(t) for t in group] for group in f.tiles]}
                for f in result.fans
            ],
            "sets": [{"kind": k, "tiles": [str(t) for t in tiles], "exposed": exposed}
                     for k, tiles, exposed in result.sets],
        }, ensure_ascii=False))
        return 0
    width = max(len(f.name_en) for f in result.fans)
    cn_width = max(_display_width(f.name) for f in result.fans)
    for f in result.fans:
        points = f"{f.points}" if f.count == 1 else f"{f.points} x {f.count}"
        groups = " | ".join(" ".join(map(str, g)) for g in f.tiles if g)
        name = f.name + " " * (cn_width - _display_width(f.name))
        print(f"{f.total:>3}  {name}  {f.name_en:<{width}}  {points:<7} {groups}".rstrip())
    note = "" if meets_minimum(result) else "  (below the 8-fan minimum)"
    print(f"total {result.total}{note}")
    return 0


def _display_width(text: str) -> int:
    # CJK characters take two terminal columns.
    return sum(2 if ord(ch) >= 0x2E80 else 1 for ch in text)


RULES["guobiao"] = _guobiao
RULES["fuzhou"] = fuzhou_fan.run
RULES["sichuan"] = sichuan_fan.run

__all__ = ["RULES", "parse_melds", "register", "run"]
