"""Matches of simulated hands: seats, dealer rotation, streaks and timestamps; the public entry
point :func:`simulate`.

Match ``i`` of a run depends only on (ruleset, profile, seed, players, i): its own random
streams (``walls.stream``) shuffle the walls, seat the players and date the match, so the first
matches of a long run equal a short run with the same seed, byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from mjstats.errors import MjstatsError
from mjstats.records import Hand
from mjstats.rules.fuzhou import DealerState, Profile, load_profile, next_dealer
from mjstats.sim.bots import DEFAULT_STYLES, make_style
from mjstats.sim.faults import InjectedFault, inject_fault
from mjstats.sim.fuzhou_game import FuzhouSetting, play_fuzhou_hand
from mjstats.sim.guobiao_game import GuobiaoSetting, play_guobiao_hand
from mjstats.sim.rig import Rig
from mjstats.sim.walls import stream

__all__ = [
    "DEFAULT_NAMES",
    "HANDS_PER_MATCH",
    "PERIOD_DAYS",
    "PERIOD_START",
    "PlayerSpec",
    "SimConfig",
    "parse_players",
    "simulate",
    "simulate_with_faults",
]

RULESETS = ("guobiao", "fuzhou", "sichuan")
# 4 rounds x 4 deals; a Fuzhou "8 局" room; Sichuan rooms of 8 hands (mjstats.rulesets.sichuan.game)
HANDS_PER_MATCH = {"guobiao": 16, "fuzhou": 8, "sichuan": 8}
DEFAULT_NAMES = ("ann", "bo", "cai", "dee")
PERIOD_START = datetime(2026, 6, 1, tzinfo=UTC)  # matches are dated 2026-06-01 .. 2026-11-30
PERIOD_DAYS = 183


@dataclass(frozen=True, slots=True)
class PlayerSpec:
    """A simulated player: a name (recorded in Hand.players) and a bot style (Hand.styles)."""

    name: str
    style: str


def parse_players(text: str | None, ruleset: str) -> tuple[PlayerSpec, ...]:
    """``NAME[:STYLE]`` four times, comma-separated; a missing style takes the ruleset's default
    for that position (guobiao: greedy, defensive, aggressive, flush; fuzhou: greedy, defensive,
    goldkeeper, goldthrower). None gives the default players."""
    defaults = DEFAULT_STYLES[ruleset]
    if text is None:
        return tuple(PlayerSpec(n, s) for n, s in zip(DEFAULT_NAMES, defaults, strict=True))
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 4:
        raise MjstatsError(f"--players needs four players NAME[:STYLE], got {len(parts)}: {text!r}")
    out = []
    for i, part in enumerate(parts):
        name, _, style = part.partition(":")
        name, style = name.strip(), style.strip() or defaults[i]
        if not name:
            raise MjstatsError(f"--players: player {i + 1} has no name: {text!r}")
        make_style(style, ruleset)  # raises for an unknown style
        out.append(PlayerSpec(name, style))
    if len({p.name for p in out}) != 4:
        raise MjstatsError(f"--players: the four names must differ: {text!r}")
    return tuple(out)


@dataclass(frozen=True, slots=True)
class SimConfig:
    """What to simulate: ``hands`` hands in all (grouped into matches), from ``seed``.

    ``profile``: Guobiao plays the Botzone rules (``"botzone"``, the only choice); Fuzhou takes
    ``"seed"`` (default), ``"platform"``, a TOML path or a :class:`Profile`. ``rig`` rigs draws
    or makes two seats collude, to measure the integrity tests' power (mjstats.sim.rig); without
    it the play is fair and the output is the same as before rigging existed.
    """

    ruleset: str
    hands: int
    seed: int = 0
    profile: str | Profile | None = None
    players: tuple[PlayerSpec, ...] | None = None
    rig: Rig | None = None

    def checked(self) -> SimConfig:
        """This config with defaults filled in; MjstatsError for a bad value."""
        if self.ruleset not in RULESETS:
            raise MjstatsError(f"unknown ruleset {self.ruleset!r} (known: {', '.join(RULESETS)})")
        if isinstance(self.hands, bool) or not isinstance(self.hands, int) or self.hands < 1:
            raise MjstatsError(f"the number of hands must be a positive integer, got {self.hands!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise MjstatsError(f"the seed must be a non-negative integer, got {self.seed!r}")
        profile: str | Profile
        if self.ruleset == "guobiao":
            if self.profile not in (None, "botzone"):
                raise MjstatsError(
                    f"Guobiao is simulated under the Botzone rules only (profile 'botzone'), "
                    f"got {self.profile!r}"
                )
            profile = "botzone"
        elif self.ruleset == "sichuan":  # Sichuan profiles: mjstats.rulesets.sichuan.profiles
            from mjstats.rulesets.sichuan.profiles import load_profile as load_sichuan_profile

            profile = load_sichuan_profile(self.profile if self.profile is not None else "seed")  # type: ignore[assignment]
        else:
            profile = load_profile(self.profile if self.profile is not None else "seed")
        players = self.players or parse_players(None, self.ruleset)
        if len(players) != 4:
            raise MjstatsError(f"four players are needed, got {len(players)}")
        for p in players:
            make_style(p.style, self.ruleset)
        if self.rig is not None and not isinstance(self.rig, Rig):
            raise MjstatsError(f"rig must be a mjstats.sim.rig.Rig, got {self.rig!r}")
        rig = self.rig if self.rig is not None and self.rig.active else None
        if rig is not None and self.ruleset == "sichuan":
            raise MjstatsError("rigged play (--rig-draws, --collude) is not available for Sichuan")
        return SimConfig(self.ruleset, self.hands, self.seed, profile, tuple(players), rig)

    @property
    def profile_name(self) -> str:
        p = self.profile
        return str(getattr(p, "name", p))  # a Fuzhou or Sichuan Profile, or a name


def match_id(config: SimConfig, index: int) -> str:
    """``sim-<ruleset>-<profile>-s<seed>-m<index>``; rigged runs add what is rigged before the
    seed (``-rig2x0.05``, ``-collude0x2``), so they can share a dataset with fair runs."""
    rig = config.rig
    tag = ""
    if rig is not None and rig.draw_seat is not None and rig.draw_p > 0:
        tag += f"-rig{rig.draw_seat}x{rig.draw_p:g}"
    if rig is not None and rig.collude is not None:
        tag += f"-collude{rig.collude[0]}x{rig.collude[1]}"
    return f"sim-{config.ruleset}-{config.profile_name}{tag}-s{config.seed}-m{index:05d}"


def _seating(config: SimConfig, index: int) -> tuple[PlayerSpec, ...]:
    """Players are seated anew each match (seeded), so no player is tied to one seat."""
    assert config.players is not None
    seats = list(config.players)
    stream("seats", config.seed, config.ruleset, index).shuffle(seats)
    return tuple(seats)


def _times(config: SimConfig, index: int, count: int) -> list[str]:
    """Start times of a match's hands: a seeded moment in the period, then 4-9 minutes a hand."""
    rng = stream("time", config.seed, config.ruleset, index)
    at = PERIOD_START + timedelta(minutes=rng.randrange((PERIOD_DAYS - 1) * 24 * 60))
    out = []
    for _ in range(count):
        out.append(at.strftime("%Y-%m-%dT%H:%M:%SZ"))
        at += timedelta(seconds=rng.randrange(240, 540))
    return out


def play_match(config: SimConfig, index: int, count: int) -> Iterator[Hand]:
    """The first ``count`` hands of match ``index`` (config already checked)."""
    seated = _seating(config, index)
    names = tuple(p.name for p in seated)
    styles = tuple(make_style(p.style, config.ruleset) for p in seated)
    times = _times(config, index, count)
    rng = stream("play", config.seed, config.ruleset, index)
    rig = config.rig
    rig_rng = stream("rig", config.seed, config.ruleset, index) if rig is not None else None
    mid = match_id(config, index)
    if config.ruleset == "guobiao":
        for k in range(count):
            # a round per prevalent wind, each seat dealing once in turn (dealer k % 4)
            setting = GuobiaoSetting(mid, k, k % 4, (k // 4) % 4, names, styles, times[k])
            yield play_guobiao_hand(setting, rng, rig, rig_rng)
        return
    if config.ruleset == "sichuan":  # the Sichuan match loop: mjstats.rulesets.sichuan.game
        from mjstats.rulesets.sichuan.bots import SichuanBot
        from mjstats.rulesets.sichuan.game import play_sichuan_match

        bots = tuple(SichuanBot(s) for s in styles)  # type: ignore[arg-type]
        style_names = tuple(p.style for p in seated)
        yield from play_sichuan_match(mid, count, names, style_names, bots, times, rng, config.profile)  # type: ignore[arg-type]
        return
    profile = config.profile
    assert isinstance(profile, Profile)
    state = DealerState(0)
    passes = 0
    for k in range(count):
        setting = FuzhouSetting(
            mid, k, state.dealer, state.streak, (passes // 4) % 4, names, styles, times[k], profile
        )
        hand = play_fuzhou_hand(setting, rng, rig, rig_rng)
        yield hand
        after = next_dealer(state, hand.result.winner, profile)
        if after.dealer != state.dealer:
            passes += 1
        state = after


def simulate(config: SimConfig, progress: Callable[[int], None] | None = None) -> Iterator[Hand]:
    """Simulate ``config.hands`` hands, match after match; ``progress`` gets the count so far."""
    for hand, _ in simulate_with_faults(config, 0.0, progress):
        yield hand


def simulate_with_faults(
    config: SimConfig, rate: float, progress: Callable[[int], None] | None = None
) -> Iterator[tuple[Hand, InjectedFault | None]]:
    """Simulate as :func:`simulate`, then record a fault in about ``rate`` of the hands (each
    hand independently, from a seeded stream of its own, so faults never change the play)."""
    config = config.checked()
    if not 0.0 <= rate <= 1.0:
        raise MjstatsError(f"the fault rate must be between 0 and 1, got {rate!r}")
    per_match = HANDS_PER_MATCH[config.ruleset]
    done = 0
    index = 0
    while done < config.hands:
        count = min(per_match, config.hands - done)
        faults = stream("faults", config.seed, config.ruleset, index)
        for hand in play_match(config, index, count):
            fault = None
            if rate and faults.random() < rate:
                hand, fault = inject_fault(hand, faults)
            yield hand, fault
            done += 1
            if progress is not None and done % 100 == 0:
                progress(done)
        index += 1
    if progress is not None:
        progress(done)
