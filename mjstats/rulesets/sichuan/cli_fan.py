"""The Sichuan branch of ``mjstats fan`` (``--rules sichuan``): pattern, 根, fan and multiplier of one win.

mjstats/cli/fan.py owns the command; it adds :func:`add_options` to its parser and
dispatches ``--rules sichuan`` to :func:`run`. The hand, --win, --melds, --self-drawn,
--kong-win (杠上花), --last-tile (海底), --heavenly (天胡), --earthly (地胡), --profile and --json
are fan.py's options, shared with the other rule sets.
"""

from __future__ import annotations

import argparse
import json
import re
from typing import TYPE_CHECKING

from mjstats.errors import InvalidHand
from mjstats.rulesets.sichuan.profiles import BUILTIN_PROFILES
from mjstats.rulesets.sichuan.tiles import Meld, normalize_melds, parse_suit
from mjstats.tiles import parse_tile, parse_tiles

if TYPE_CHECKING:
    from mjstats.rulesets.sichuan.fan import WinScore

__all__ = ["add_options", "format_score", "parse_melds", "run", "score_from_args"]

# Options of the other rule sets that mean nothing in Sichuan, with their "unset" value.
_FOREIGN = {
    "fourth_tile": False,
    "human": False,
    "gold": None,
    "robbed_gold": False,
    "jumped": False,
    "discarder": None,
    "streak": 0,
    "seat": 0,
    "dealer": 0,
    "seat_wind": 0,
    "round_wind": 0,
}


def add_options(parser: argparse.ArgumentParser) -> None:
    """The options only ``--rules sichuan`` reads."""
    group = parser.add_argument_group(
        "Sichuan (--rules sichuan)",
        f"--profile is {' or '.join(BUILTIN_PROFILES)} (default seed) or a TOML file; --kong-win is "
        "杠上花 (a self-draw), --last-tile 海底捞月 / 海底炮, --heavenly 天胡 (a self-draw), --earthly "
        "地胡 (a self-draw with --self-drawn, else on the dealer's first discard); melds are "
        '"PENG TILE [OFFER]" and "GANG TILE [OFFER]" (offer 0 = concealed kong)',
    )
    group.add_argument("--kong-discard", action="store_true", help="杠上炮: won on the discard after a kong")
    group.add_argument("--robbed-kong", action="store_true", help="抢杠胡: won on another player's 补杠")
    group.add_argument(
        "--void", metavar="SUIT", help="the winner's void suit 定缺: W, T or B (also m/s/p, 万/条/筒)"
    )


def parse_melds(text: str | None) -> tuple[Meld, ...]:
    """Melds written ``"PENG W1 1, GANG T3 0"``: kind, tile and an optional offer (default 1,
    exposed; a GANG with offer 0 is a concealed kong), split by , or ;."""
    melds: list[tuple[str, object, int]] = []
    for part in re.split(r"[;,]", text or ""):
        words = part.split()
        if not words:
            continue
        if len(words) not in (2, 3) or (len(words) == 3 and not words[2].lstrip("-").isdigit()):
            raise InvalidHand(f"a meld is 'KIND TILE [OFFER]', got {part.strip()!r}")
        melds.append((words[0], words[1], int(words[2]) if len(words) == 3 else 1))
    return normalize_melds(melds)


def score_from_args(args: argparse.Namespace) -> WinScore:
    """Score the win that the parsed ``mjstats fan --rules sichuan`` arguments describe."""
    from mjstats.rulesets.sichuan.fan import WinContext, score_win  # the engine, only when used

    for name, unset in _FOREIGN.items():
        if getattr(args, name, unset) != unset:
            raise InvalidHand(f"--{name.replace('_', '-')} has no meaning under --rules sichuan")
    if args.flowers:
        raise InvalidHand("Sichuan has no flower tiles (--flowers)")
    context = WinContext(
        # 杠上花 and 天胡 are self-draws by definition, so the flags imply --self-drawn.
        self_drawn=args.self_drawn or args.kong_win or args.heavenly,
        kong_win=args.kong_win,
        kong_discard=args.kong_discard,
        robbed_kong=args.robbed_kong,
        last_tile=args.last_tile,
        heavenly=args.heavenly,
        earthly=args.earthly,
    )
    return score_win(
        parse_tiles(args.hand),
        parse_melds(args.melds),
        parse_tile(args.win),
        context,
        void=None if args.void is None else parse_suit(args.void),
        profile=args.profile or "seed",
    )


def format_score(s: WinScore) -> str:
    """The score as a few readable lines."""
    extras = " + ".join(f"{name} {fan}" for name, fan in s.extras)
    sets = " | ".join(" ".join(map(str, tiles)) + ("*" if melded else "") for _, tiles, melded in s.sets)
    lines = [
        f"pattern:    {s.pattern} ({s.pattern_fan})   shape: {s.shape}",
        f"fan:        {s.pattern_fan} + 根 {s.gen}" + (f" + {extras}" if extras else "") + f" = {s.fan}",
        f"multiplier: x{s.multiplier}" + (" (capped)" if s.capped else "")
        + (f"   each payer pays {s.value}" if s.value != s.multiplier else ""),
        f"sets:       {sets}" if sets else "sets:       -",
        f"profile:    {s.profile}",
    ]
    lines.extend(f"note:       {note}" for note in s.notes)
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """``mjstats fan --rules sichuan``: print the score (text or --json)."""
    score = score_from_args(args)
    if args.json:
        print(json.dumps({"rules": "sichuan", **score.as_dict()}, ensure_ascii=False))
    else:
        print(format_score(score))
    return 0
