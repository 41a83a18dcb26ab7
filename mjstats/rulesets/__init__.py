"""The ruleset registry: every ruleset mjstats knows, each a package of its own.

The core (records, formats, store, replay loop, audit, stats, report, simulator table, integrity,
CLI) never names a ruleset: it asks this registry. A package describes itself with a
:class:`Ruleset` (its ``spec`` module's ``RULESET``), imported on first look-up, and its parts
(replay profiles, metrics, simulator game, ...) only when a command needs them, so that
``mjstats --help`` and ``mjstats fan`` load no engine they do not use. docs/architecture.md
says how to add a ruleset.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache
from typing import Any

from mjstats.errors import MjstatsError

__all__ = [
    "RECORDS_RULESET",
    "Ruleset",
    "UnknownRuleset",
    "get",
    "names",
    "notes",
    "recorded",
    "recorded_names",
    "rulesets",
]

# name -> the package holding its spec module; the order is the order of every listing
_PACKAGES: dict[str, str] = {
    "guobiao": "mjstats.rulesets.guobiao",
    "fuzhou": "mjstats.rulesets.fuzhou",
    "sichuan": "mjstats.rulesets.sichuan",
}

# The ruleset of the platform records mjstats reads (Botzone text and JSON, the 2017 human-play
# logs, PMN boards) and of `mjstats fan` without --rules.
RECORDS_RULESET = "guobiao"


class UnknownRuleset(MjstatsError):
    """A ruleset name the registry does not hold."""


@dataclass(frozen=True, slots=True)
class Ruleset:
    """What the core needs to know of one ruleset. Parts are module names inside ``package``
    (``"module"`` or ``"module:attribute"``), loaded with :meth:`load` on first use; None where
    the ruleset has no such part yet.

    ``recorded``: hands of this ruleset can be stored, replayed, counted and reported (canonical
    records accept the name). ``hand_size``: tiles a non-dealer holds once dealt (kongs as 3).
    ``tile_count``: the full set, ``flower_tiles`` of it the flower codes 34-41 held once each.
    ``has_gold``: a wild gold is turned up after the deal (play starts only then).
    ``starting_shanten``: the integrity deal test compares starting shanten across subjects.
    ``win_may_jump``: a win on a discard may rightly pass over a nearer seat that could win.
    ``fault_kinds``: faults only this ruleset's records can carry (``simulate --faults``).
    ``faults_own_only``: its ``faults`` part makes every kind its records can carry, drawn in
    ``fault_kinds`` order; the shared kinds (fan, payment, claim, tile) do not apply.
    ``plain_profile``: ``audit --profile NAME|FILE`` (without ``RULES=``) applies to its hands.
    ``shared_metrics``: the metrics shared by all recorded rulesets (mjstats.stats.registry)
    apply to its hands; False while they do not fit them (e.g. several wins a hand).
    """

    name: str
    label: str  # shown in reports, e.g. "Guobiao 国标"
    title: str  # in messages and help, e.g. "Guobiao"
    package: str
    hand_size: int
    tile_count: int
    flower_tiles: int = 0
    has_gold: bool = False
    recorded: bool = False
    starting_shanten: bool = False
    win_may_jump: bool = False  # a discard win may pass over a nearer seat's win (e.g. 抢炮和)
    fault_kinds: tuple[str, ...] = ()
    faults: str | None = None  # MAKERS: fault kind -> maker, for the kinds in fault_kinds
    faults_own_only: bool = False  # its MAKERS replace the shared fault makers
    fan_names: str | None = None  # the platforms' fan names -> ours (the format readers)
    notes: str | None = None  # NOTES: its sentences in shared texts, by place (metrics, report)
    fan_cli: str = "cli_fan"  # add_options(parser), run(args): `mjstats fan --rules NAME`
    replay: str | None = None  # importing it registers the replay profiles (register_profile)
    # platform profile name -> the module that registers it alone, imported for that platform's
    # hands instead of ``replay`` (a Botzone audit need not load the other platforms' replays)
    platform_replays: tuple[tuple[str, str], ...] = ()
    checks: str | None = None  # CHECKS: the ruleset's own audit checks
    user_profile: str | None = None  # name or TOML path -> replay profile (`audit --profile`)
    plain_profile: bool = False  # `audit --profile X` without RULES= sets this ruleset's profile
    shared_metrics: bool = True  # the shared metric families apply to its hands
    sim: str | None = None  # STYLES, DEFAULT_STYLES, HANDS_PER_MATCH, checked_profile, play_hands
    metrics: str | None = None  # METRICS (registry entries), FAMILIES (id -> title), USAGE lines
    stats: str | None = None  # COMPUTE, READS, COUNTED, prepare(ds, progress), PROGRESS, PUBLIC
    report: str | None = None  # SECTIONS: builders (period dataset -> Section) for the report pages
    shanten: str | None = None  # (tiles, melds, gold, profile) -> shanten (stats: tenpai_at_draw)
    shape: str | None = None  # gold -> Shape (integrity: useful draws, starting shanten)
    flower_kinds: str | None = None  # profile name -> flower tile codes, None if not loadable
    decisions: str | None = None  # VIEW: the decision judge's questions (mjstats.decision.view)
    compiled: tuple[str, ...] = ()  # its modules the compiled build compiles (mjstats.compiled)

    def load(self, part: str) -> Any:
        """The module (``"module"``) or attribute (``"module:attribute"``) of a part."""
        module, _, attribute = part.partition(":")
        loaded = importlib.import_module(f"{self.package}.{module}")
        return getattr(loaded, attribute) if attribute else loaded


def names() -> tuple[str, ...]:
    """Every registered ruleset name, in registry order."""
    return tuple(_PACKAGES)


@cache
def get(name: str) -> Ruleset:
    """The ruleset called ``name``; UnknownRuleset naming the known ones otherwise."""
    package = _PACKAGES.get(name)
    if package is None:
        raise UnknownRuleset(f"unknown ruleset {name!r} (known: {', '.join(_PACKAGES)})")
    spec = importlib.import_module(f"{package}.spec").RULESET
    assert isinstance(spec, Ruleset) and spec.name == name, f"{package}.spec describes {spec.name!r}"
    return spec


def rulesets() -> tuple[Ruleset, ...]:
    """Every registered ruleset, in registry order."""
    return tuple(get(n) for n in _PACKAGES)


def recorded() -> tuple[Ruleset, ...]:
    """The rulesets whose hands mjstats stores, replays and reports."""
    return tuple(r for r in rulesets() if r.recorded)


def notes(place: str) -> tuple[str, ...]:
    """What each recorded ruleset says at ``place`` in a text shared by all (a metric's edge
    cases, a report section's intro): its ``notes`` part's entry, in registry order."""
    return tuple(
        r.load(r.notes)[place] for r in recorded() if r.notes is not None and place in r.load(r.notes)
    )


def recorded_names() -> tuple[str, ...]:
    """Names of :func:`recorded`."""
    return tuple(r.name for r in recorded())
