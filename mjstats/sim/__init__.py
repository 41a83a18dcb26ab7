"""Self-play simulator: bots play full matches of every ruleset with a simulator part through
its rules engine, and the hands are written as canonical records (docs/simulation.md).

>>> from mjstats.sim import SimConfig, simulate, simulated_rulesets
>>> hands = list(simulate(SimConfig(simulated_rulesets()[0], hands=8, seed=1)))
"""

from mjstats.sim.bots import STYLES, Style
from mjstats.sim.faults import FAULT_KINDS, InjectedFault
from mjstats.sim.matches import (
    PlayerSpec,
    SimConfig,
    parse_players,
    simulate,
    simulate_with_faults,
    simulated_rulesets,
)

__all__ = [
    "FAULT_KINDS",
    "STYLES",
    "InjectedFault",
    "PlayerSpec",
    "SimConfig",
    "Style",
    "parse_players",
    "simulate",
    "simulate_with_faults",
    "simulated_rulesets",
]
