"""The Guobiao branch of ``mjstats fan`` (``--rules guobiao``): fans, points and total of one win.

mjstats/cli/fan.py owns the command and its shared options (the hand, --win, --melds, --flowers
as a count, --self-drawn, --fourth-tile, --kong-win, --last-tile, the winds, --heavenly,
--earthly, --human, --profile, --json); this part adds its options group and scores.
"""

from __future__ import annotations

import argparse
import json

from mjstats.cli.fan import parse_melds
from mjstats.tiles import parse_tile, parse_tiles

__all__ = ["add_options", "run"]


def add_options(parser: argparse.ArgumentParser) -> None:
    """Guobiao reads only the shared options; its group says which profiles there are."""
    parser.add_argument_group(
        "Guobiao (--rules guobiao, the default)",
        "--profile is standard (default), platform_extras or platform_extras_lianzhong; "
        "--heavenly, --earthly and --human claim 天和, 地和 and 人和 (platform_extras profiles)",
    )


def run(args: argparse.Namespace) -> int:
    """Score the win with the Guobiao calculator and print it (``--json``: one object)."""
    from mjstats.rulesets.guobiao import calculate_fans, meets_minimum

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
