"""Guobiao's replay part: importing it registers the replay profile of every Guobiao platform
mjstats reads (Botzone, the 2017 human-play platform, MCR and duplicate MCR boards from PMN)."""

from mjstats.rulesets.guobiao.replay_botzone import BOTZONE
from mjstats.rulesets.guobiao.replay_human2017 import HUMAN2017
from mjstats.rulesets.guobiao.replay_mcr import DUPLICATE, MCR

__all__ = ["BOTZONE", "DUPLICATE", "HUMAN2017", "MCR"]
