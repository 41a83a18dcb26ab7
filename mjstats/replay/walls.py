"""The live walls the replayer counts draws against: the interface and the two plain counters.

Compiled in the compiled build (docs/compiled.md): the replayer asks the wall at every draw, and a
wall written in Python cost a Python call there (the Botzone per-seat walls: ~92,000 calls per
2,000 hands). Rulesets with richer walls (a tail, a gold) subclass :class:`Wall` from
Python; ``mjstats.replay.profile`` re-exports it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from mypy_extensions import mypyc_attr

__all__ = ["PerSeatWalls", "SharedWall", "Wall"]


# rulesets subclass it from interpreted modules (a wall with a tail); mypyc's native classes do not
# refuse instantiating an abstract class as ABCMeta does in the pure build, so only subclasses
# that implement every method are made
@mypyc_attr(allow_interpreted_subclasses=True)
class Wall(ABC):
    """The live wall(s) of one hand as far as the record tells: draws each seat has left."""

    __slots__ = ()

    @abstractmethod
    def draw(self, seat: int, replacement: bool) -> bool:
        """Count one draw by ``seat``; False when its wall was already empty."""

    @abstractmethod
    def remaining(self, seat: int) -> int:
        """Tiles ``seat`` can still draw."""

    @abstractmethod
    def describe(self) -> str:
        """A short text for --explain."""


class SharedWall(Wall):
    """One wall all seats draw from (replacements included), counted only: ``size`` tiles left.

    Platforms whose records give no wall order (2017 human play, PMN boards) need no more."""

    __slots__ = ("_left",)

    def __init__(self, size: int) -> None:
        self._left = size

    def draw(self, seat: int, replacement: bool) -> bool:
        if self._left <= 0:
            return False
        self._left -= 1
        return True

    def remaining(self, seat: int) -> int:
        return self._left

    def describe(self) -> str:
        return f"wall left {self._left}"


class PerSeatWalls(Wall):
    """Four walls, one per seat, each with ``draws_per_seat`` tiles to draw (Botzone: a seat draws,
    kong replacements included, only from its own wall)."""

    __slots__ = ("_left",)

    def __init__(self, draws_per_seat: int) -> None:
        self._left = [draws_per_seat] * 4

    def draw(self, seat: int, replacement: bool) -> bool:
        if self._left[seat] <= 0:
            return False
        self._left[seat] -= 1
        return True

    def remaining(self, seat: int) -> int:
        return self._left[seat]

    def describe(self) -> str:
        return "walls left " + " ".join(f"{s}:{n}" for s, n in enumerate(self._left))
