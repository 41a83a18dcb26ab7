"""The simulator part of Sichuan (``mjstats simulate --rules sichuan``): its own bot styles,
rooms of 8 hands and the match loop of game.py, behind the interface every ruleset's simulator
part offers (mjstats.sim.matches). Rigged play is not offered: the rig's draws and collusion
assume one winner a hand, and 血战到底 plays on after a win (reference sichuan.md §2.6)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

from mjstats.errors import MjstatsError
from mjstats.records import Hand
from mjstats.rulesets.sichuan.bots import SICHUAN_DEFAULT_STYLES, SICHUAN_STYLES, SichuanBot, SichuanStyle
from mjstats.rulesets.sichuan.game import SICHUAN_SET, play_sichuan_match
from mjstats.rulesets.sichuan.profiles import Profile, load_profile
from mjstats.sim.rig import Rig

__all__ = [
    "DEFAULT_STYLES",
    "HANDS_PER_MATCH",
    "RIGGED_PLAY",
    "STYLES",
    "WALL_SET",
    "checked_profile",
    "play_hands",
]

WALL_SET: tuple[int, ...] = SICHUAN_SET  # reference sichuan.md §1.1: 108 suited tiles
HANDS_PER_MATCH = 8  # Sichuan rooms of 8 hands
DEFAULT_STYLES = SICHUAN_DEFAULT_STYLES
STYLES: dict[str, SichuanStyle] = SICHUAN_STYLES  # its own styles replace the shared ones
RIGGED_PLAY = False  # SimConfig refuses --rig-draws / --collude


def checked_profile(profile: str | Path | Profile | None) -> Profile:
    """The rule profile to play: ``"seed"`` (None), ``"platform"``, a TOML path or a Profile."""
    return load_profile(profile if profile is not None else "seed")


def play_hands(
    match_id: str,
    count: int,
    names: tuple[str, ...],
    styles: tuple[SichuanStyle, ...],
    times: list[str],
    profile: Profile,
    rng: random.Random,
    rig: Rig | None,
    rig_rng: random.Random | None,
) -> Iterator[Hand]:
    """The first ``count`` hands of a match: seat 0 deals first, then the dealer of reference
    §1.5 (game.play_sichuan_match)."""
    if rig is not None:
        raise MjstatsError("rigged play (--rig-draws, --collude) is not available for Sichuan")
    bots = tuple(SichuanBot(s) for s in styles)
    style_names = tuple(s.name for s in styles)
    yield from play_sichuan_match(match_id, count, names, style_names, bots, times, rng, profile)
