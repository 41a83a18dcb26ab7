"""Seeded randomness for the simulator: one ``random.Random`` stream per (purpose, seed, match),
the shuffled walls and the dice.

Streams are seeded from text (``random.Random`` hashes a str seed with SHA-512), so they do not
depend on PYTHONHASHSEED, the platform or how many hands are asked for: match ``i`` of seed ``s``
is the same whether 10 or 10,000 hands are simulated.
"""

from __future__ import annotations

import random

__all__ = ["dice", "shuffled_wall", "stream"]


def stream(purpose: str, seed: int, ruleset: str, match: int) -> random.Random:
    """An independent random stream for one purpose (``play``, ``faults``...) of one match."""
    return random.Random(f"mjstats-sim/{purpose}/{ruleset}/{seed}/{match}")


def shuffled_wall(rng: random.Random, tiles: tuple[int, ...]) -> list[int]:
    """The tile set (a ruleset game's WALL_SET) in a random order (front first)."""
    wall = list(tiles)
    rng.shuffle(wall)
    return wall


def dice(rng: random.Random) -> tuple[int, int]:
    """Two dice (where the rules roll them they only place the break; recorded for completeness)."""
    return (rng.randint(1, 6), rng.randint(1, 6))
