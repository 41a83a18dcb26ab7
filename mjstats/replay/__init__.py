"""The deterministic replayer: rebuild every turn of a hand, check it, rescore the win.

``replay_hand(hand)`` returns a :class:`ReplayResult` (findings, recomputed win, turn states);
the checks are catalogued in :data:`CATALOGUE` (docs/audit.md lists them); platform rules are a
:class:`ReplayProfile`, which each ruleset package registers for its platforms
(:func:`register_profile`; :func:`profile_for` finds a hand's, loading the rulesets' replay parts).
"""

from mjstats.replay.checks import CATALOGUE, Check
from mjstats.replay.findings import Finding, Severity
from mjstats.replay.profile import (
    ComputedFan,
    ComputedWin,
    Meld,
    ReplayProfile,
    SequenceCheck,
    WinContext,
)
from mjstats.replay.replayer import (
    HandReplay,
    ReplayResult,
    load_replay_profiles,
    profile_for,
    register_profile,
    replay_hand,
)

__all__ = [
    "CATALOGUE",
    "Check",
    "ComputedFan",
    "ComputedWin",
    "Finding",
    "HandReplay",
    "Meld",
    "ReplayProfile",
    "ReplayResult",
    "SequenceCheck",
    "Severity",
    "WinContext",
    "load_replay_profiles",
    "profile_for",
    "register_profile",
    "replay_hand",
]
