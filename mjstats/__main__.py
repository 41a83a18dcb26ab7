"""``python -m mjstats`` runs the command line."""

import sys

from mjstats.cli import script

sys.exit(script())
