"""Self-play simulator: bots play full Guobiao (Botzone rules) and Fuzhou matches through the
rules engines and the hands are written as canonical records (docs/simulation.md).

>>> from mjstats.sim import SimConfig, simulate
>>> hands = list(simulate(SimConfig("fuzhou", hands=8, seed=1)))
"""

from mjstats.sim.bots import STYLES, Style
from mjstats.sim.faults import FAULT_KINDS, InjectedFault
from mjstats.sim.matches import (
    HANDS_PER_MATCH,
    PlayerSpec,
    SimConfig,
    parse_players,
    simulate,
    simulate_with_faults,
)

__all__ = [
    "FAULT_KINDS",
    "HANDS_PER_MATCH",
    "STYLES",
    "InjectedFault",
    "PlayerSpec",
    "SimConfig",
    "Style",
    "parse_players",
    "simulate",
    "simulate_with_faults",
]
