"""The simulator's table state: what each seat holds and what is visible to everyone.

Mutable on purpose (one table per hand, updated in place for speed). Melds are kept in the
engines' form ``(kind, tile, offer)``: CHI names the middle tile and offer 1..3 says which tile
was claimed; PENG/GANG offer 1..3 is where the tile came from relative to the owner
((owner - discarder) % 4), 0 for a concealed kong (the reference calculator's convention).
"""

from __future__ import annotations

__all__ = ["Seat", "Table"]

Meld = tuple[str, int, int]


class Seat:
    """One seat: concealed tile counts (34 kinds), melds, river, flowers, and the standing
    shanten the game keeps up to date after each discard (used to skip hopeless win checks)."""

    __slots__ = ("counts", "discarded_gold", "flowers", "melds", "river", "standing")

    def __init__(self) -> None:
        self.counts = [0] * 34
        self.melds: list[Meld] = []
        self.river: list[int] = []
        self.flowers: list[int] = []
        self.discarded_gold = False
        self.standing = 8  # shanten of the hand between turns (13 - 3m or 16 - 3m tiles)

    def tiles(self) -> list[int]:
        """The concealed tiles, sorted."""
        return [t for t, n in enumerate(self.counts) for _ in range(n)]


class Table:
    """All four seats, the tiles everyone can see, and the gold (a wild kind) if any.

    ``visible`` counts unclaimed and claimed discards plus exposed meld tiles, the way the
    replayer counts them for 和绝张 (mjstats.replay.state.TableState.visible).
    """

    __slots__ = ("gold", "seats", "visible")

    def __init__(self, gold: int | None = None) -> None:
        self.seats = [Seat() for _ in range(4)]
        self.visible = [0] * 34
        self.gold = gold

    def claim(self, seat: int, kind: str, tile: int, discarder: int, middle: int | None = None) -> Meld:
        """Seat ``seat`` takes ``discarder``'s discard ``tile`` into a chow (around ``middle``), a
        pung or an exposed kong: its tiles leave the hand, become visible, and form the meld."""
        q = self.seats[seat]
        if kind == "chi":
            assert middle is not None
            for x in (middle - 1, middle, middle + 1):
                if x != tile:
                    q.counts[x] -= 1
                    self.visible[x] += 1
            meld: Meld = ("CHI", middle, tile - middle + 2)
        else:
            need = 3 if kind == "gang" else 2
            q.counts[tile] -= need
            self.visible[tile] += need
            meld = ("GANG" if kind == "gang" else "PENG", tile, (seat - discarder) % 4)
        q.melds.append(meld)
        return meld
