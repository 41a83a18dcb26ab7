"""The deterministic replayer: rebuild every turn of a hand, check it, rescore the win.

``replay_hand(hand)`` returns a :class:`ReplayResult` (findings, recomputed win, turn states);
the checks are catalogued in :data:`CATALOGUE` (docs/audit.md lists them); platform rules are a
:class:`ReplayProfile` (Botzone Guobiao: :data:`BOTZONE`; Fuzhou: :func:`fuzhou_profile`, registered for
the ``seed`` and ``platform`` rule profiles; MCR boards from PMN: :data:`MCR`, :data:`DUPLICATE`).
"""

from mjstats.replay.botzone import BOTZONE, BotzoneProfile
from mjstats.replay.checks import CATALOGUE, Check
from mjstats.replay.findings import Finding, Severity
from mjstats.replay.fuzhou import FuzhouReplayProfile, fuzhou_profile  # registers seed, platform
from mjstats.replay.human2017 import HUMAN2017  # registers guobiao/human2017
from mjstats.replay.mcr import DUPLICATE, MCR, McrProfile  # registers mcr, duplicate, pmn
from mjstats.replay.profile import (
    ComputedFan,
    ComputedWin,
    Meld,
    ReplayProfile,
    SequenceCheck,
    WinContext,
)
from mjstats.replay.replayer import HandReplay, ReplayResult, profile_for, register_profile, replay_hand

__all__ = [
    "BOTZONE",
    "CATALOGUE",
    "DUPLICATE",
    "HUMAN2017",
    "MCR",
    "BotzoneProfile",
    "Check",
    "ComputedFan",
    "ComputedWin",
    "Finding",
    "FuzhouReplayProfile",
    "HandReplay",
    "McrProfile",
    "Meld",
    "ReplayProfile",
    "ReplayResult",
    "SequenceCheck",
    "Severity",
    "WinContext",
    "fuzhou_profile",
    "profile_for",
    "register_profile",
    "replay_hand",
]

# Sichuan (mjstats.rulesets.sichuan): registers sichuan/seed and sichuan/platform
import mjstats.rulesets.sichuan.replay  # noqa: F401
