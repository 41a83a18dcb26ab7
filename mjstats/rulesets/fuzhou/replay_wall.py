"""The Fuzhou wall as the replayer counts it: one wall with a tail and the live face-up gold."""

from __future__ import annotations

from collections import Counter

from mjstats.replay.profile import Wall
from mjstats.tiles import ALL_KINDS

__all__ = ["FUZHOU_SET", "FuzhouWall"]

# reference fuzhou.md: 144 tiles, four of each suited tile and honour, one of each flower.
FUZHOU_SET: Counter[int] = Counter({**{t: 4 for t in range(34)}, **{t: 1 for t in range(34, 42)}})


def _t(tile: int | None) -> str:
    return "-" if tile is None else ALL_KINDS[tile].botzone


class FuzhouWall(Wall):
    """One wall with a tail (seed 000: deals and draws from the front, replacements and the gold
    from the tail). ``tiles`` is ``Hand.wall`` (front first) or None to count only. The face-up
    gold stays live as the last drawable tile (seed 003: it moves forward as the tail is used)."""

    __slots__ = ("back", "front", "gold", "gold_pending", "reserve", "tiles")

    def __init__(self, tiles: tuple[int, ...] | None, size: int = 144) -> None:
        self.tiles = tiles
        self.front = 0
        self.back = len(tiles) if tiles is not None else size
        self.gold: int | None = None
        self.gold_pending = False  # the turned-up gold is still face up (live)
        self.reserve = 18

    def left(self) -> int:
        """Tiles not yet dealt, drawn or turned up, the live face-up gold included."""
        return self.back - self.front + (1 if self.gold_pending else 0)

    def drawable(self) -> int:
        """Tiles that may still be drawn before the reserve (negative: the reserve was drawn into)."""
        return self.left() - self.reserve

    def take_front(self) -> tuple[int | None, bool]:
        """The next front draw: (the wall's tile or None if unknown, whether it is the face-up gold)."""
        if self.gold_pending and self.drawable() == 1:
            self.gold_pending = False
            return self.gold, True
        tile = self.tiles[self.front] if self.tiles is not None and self.front < self.back else None
        self.front += 1
        return tile, False

    def take_tail(self) -> int | None:
        """The next tail draw: the wall's tile, or None if unknown."""
        self.back -= 1
        if self.tiles is not None and self.front <= self.back:
            return self.tiles[self.back]
        return None

    def draw(self, seat: int, replacement: bool) -> bool:
        ok = self.drawable() > 0
        if replacement:
            self.take_tail()
        else:
            self.take_front()
        return ok

    def remaining(self, seat: int) -> int:
        return max(0, self.drawable())

    def describe(self) -> str:
        gold = f", gold {_t(self.gold)} face up" if self.gold_pending else ""
        return f"wall {self.left()} left, reserve {self.reserve}, {self.drawable()} drawable{gold}"
