"""The plain walls the replayer counts draws against (mjstats.replay.walls, compiled in the
compiled build): their counts, their text, and the names the rulesets import them by."""

from __future__ import annotations

import pytest

from mjstats.replay import profile, walls
from mjstats.rulesets.guobiao import replay_botzone


def test_per_seat_walls_count_each_seat_apart() -> None:
    wall = walls.PerSeatWalls(2)
    assert [wall.remaining(s) for s in range(4)] == [2, 2, 2, 2]
    assert wall.draw(1, False) and wall.draw(1, True)
    assert not wall.draw(1, False)  # seat 1's wall is empty; the others are not
    assert wall.remaining(1) == 0 and wall.remaining(0) == 2
    assert wall.draw(3, False)
    assert wall.describe() == "walls left 0:2 1:0 2:2 3:1"


def test_shared_wall_counts_every_seat_together() -> None:
    wall = walls.SharedWall(2)
    assert wall.draw(0, False) and wall.draw(3, True)
    assert not wall.draw(2, False)
    assert [wall.remaining(s) for s in range(4)] == [0, 0, 0, 0]
    assert wall.describe() == "wall left 0"


def test_a_python_subclass_is_a_wall() -> None:
    """Rulesets subclass the interface from interpreted modules (Fuzhou's wall), with slots."""

    class Counted(walls.Wall):
        __slots__ = ("left",)

        def __init__(self) -> None:
            self.left = 1

        def draw(self, seat: int, replacement: bool) -> bool:
            self.left -= 1
            return self.left >= 0

        def remaining(self, seat: int) -> int:
            return max(self.left, 0)

        def describe(self) -> str:
            return f"{self.left}"

    wall = Counted()
    assert isinstance(wall, walls.Wall)
    assert wall.draw(0, False) and not wall.draw(0, False)
    assert wall.remaining(0) == 0


@pytest.mark.parametrize(
    ("module", "name"),
    [(profile, "Wall"), (profile, "SharedWall"), (replay_botzone, "PerSeatWalls")],
)
def test_the_old_names_are_the_walls(module: object, name: str) -> None:
    assert getattr(module, name) is getattr(walls, name)


def test_botzone_profile_gives_per_seat_walls_of_21_draws() -> None:
    wall = replay_botzone.BOTZONE.new_wall(None)  # type: ignore[arg-type]  # the hand is not read
    assert isinstance(wall, walls.PerSeatWalls)
    assert [wall.remaining(s) for s in range(4)] == [21, 21, 21, 21]
