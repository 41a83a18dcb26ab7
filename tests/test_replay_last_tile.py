"""妙手回春 follows the Botzone judge's last-tile flag: the wall of the seat after the winner is
empty (botzone-format.md), whatever is left in the winner's own wall.

Two hands are built tile by tile on a real 136-tile wall where every seat discards what it draws:
one where seat 3 chows early (so it draws once less and wins with a tile left in its own wall
while seat 0's is empty), and the converse, where seat 0 wins on the last tile of its own wall
while seat 1 still has one to draw.
"""

from __future__ import annotations

from collections import Counter

from mjstats.records import Event, EventKind, FanEntry, Hand, Outcome, Result
from mjstats.replay import replay_hand
from mjstats.rulesets.guobiao import calculate_fans, guobiao_payments
from mjstats.tiles import ALL_KINDS, parse_tiles

WALL, DEALT = 34, 13


def _wall(placed: dict[tuple[int, int], str]) -> list[list[int]]:
    """Four walls of 34: the placed tiles where given, the rest of the set in order elsewhere."""
    left = Counter({t: 4 for t in range(34)})
    walls: list[list[int | None]] = [[None] * WALL for _ in range(4)]
    for (seat, i), name in placed.items():
        tile = int(parse_tiles(name)[0])
        walls[seat][i] = tile
        left[tile] -= 1
        assert left[tile] >= 0
    rest = iter(sorted(left.elements()))
    return [[t if t is not None else next(rest) for t in wall] for wall in walls]


def _place(placed: dict[tuple[int, int], str], seat: int, start: int, tiles: str) -> None:
    for i, name in enumerate(tiles.split()):
        placed[(seat, start + i)] = name


def _hand(events: list[Event], winner: int, concealed: list[int], melds: list, win: int, last: bool) -> Hand:
    """The hand with its result recorded the judge's way (the fans with the given last-tile flag)."""
    fans = calculate_fans(concealed, melds, win, self_drawn=True, last_tile=last, seat_wind=winner)
    result = Result(
        Outcome.WIN,
        winner=winner,
        win_tile=ALL_KINDS[win],
        self_drawn=True,
        fan_total=fans.total,
        fans=tuple(FanEntry(f.name, f.count, f.points) for f in fans.fans),
        scores=tuple(guobiao_payments(fans.total, winner, None)),
    )
    seqd = [e._replace(seq=i) for i, e in enumerate(events)]
    return Hand("m-last-tile", 0, "guobiao", "botzone", 0, 0, tuple(seqd), result)


def _play(walls: list[list[int]], chow: bool) -> tuple[list[Event], int, int]:
    """Deal, then every seat draws and discards the drawn tile in turn. With ``chow`` seat 3
    chows seat 2's first discard (T4 with its T3 T5) and discards its F4. The hand ends at the
    first draw of the tile the winner waits on (B5). Returns (events, winner, winning tile)."""
    T = ALL_KINDS
    events = [Event(0, EventKind.DEAL, s, tiles=tuple(T[t] for t in walls[s][:DEALT])) for s in range(4)]
    pos = [DEALT] * 4
    b5 = int(parse_tiles("B5")[0])
    seat = 0
    while True:
        tile = walls[seat][pos[seat]]
        pos[seat] += 1
        events.append(Event(0, EventKind.DRAW, seat, T[tile]))
        if tile == b5:
            events.append(Event(0, EventKind.HU, seat, T[tile]))
            return events, seat, tile
        events.append(Event(0, EventKind.DISCARD, seat, T[tile]))
        if chow and seat == 2 and pos[2] == DEALT + 1:
            t4 = parse_tiles("T4")[0]
            events.append(Event(0, EventKind.CHI, 3, t4, from_seat=2, claimed=t4))
            events.append(Event(0, EventKind.DISCARD, 3, parse_tiles("F4")[0]))
            seat = 0
            continue
        seat = (seat + 1) % 4


def test_self_draw_when_the_next_seat_cannot_draw_is_last_tile() -> None:
    # Seat 3 chows once, so it has drawn 19 when seat 0 has drawn all 21: its 20th draw wins
    # with one tile still in its own wall, and nobody can draw after it.
    placed: dict[tuple[int, int], str] = {}
    _place(placed, 3, 0, "W1 W2 W3 W4 W5 W6 W7 W8 W9 B5 T3 T5 F4")  # waits on B5 (单钓)
    _place(placed, 2, DEALT, "T4")  # seat 2's first draw, discarded and chowed by seat 3
    _place(placed, 3, DEALT + 19, "B5")  # seat 3's 20th draw
    _place(placed, 1, 0, "B5 B5")  # the other two B5 stay in seat 1's hand
    walls = _wall(placed)
    events, winner, win = _play(walls, chow=True)
    assert winner == 3 and [e.kind for e in events].count(EventKind.DRAW) == 21 * 3 + 20

    concealed = list(parse_tiles("W1 W2 W3 W4 W5 W6 W7 W8 W9 B5"))
    melds = [("CHI", int(parse_tiles("T4")[0]), 2)]
    hand = _hand(events, winner, concealed, melds, win, last=True)
    result = replay_hand(hand)
    assert result.context is not None and result.context.last_tile
    assert "妙手回春" in {f.name for f in result.win.fans}
    assert result.findings == ()  # the record scored the judge's way is clean


def test_self_draw_on_the_last_tile_of_ones_own_wall_is_not_last_tile() -> None:
    # No claims: seat 0 draws its 21st and last tile while seat 1 still has one to draw.
    placed: dict[tuple[int, int], str] = {}
    _place(placed, 0, 0, "W1 W2 W3 W4 W5 W6 W7 W8 W9 B5 T2 T3 T4")  # waits on B5 (单钓)
    _place(placed, 0, WALL - 1, "B5")  # the last tile of seat 0's wall
    _place(placed, 1, 0, "B5 B5")
    walls = _wall(placed)
    events, winner, win = _play(walls, chow=False)
    assert winner == 0 and [e.kind for e in events].count(EventKind.DRAW) == 21 + 20 * 3

    concealed = list(parse_tiles("W1 W2 W3 W4 W5 W6 W7 W8 W9 B5 T2 T3 T4"))
    hand = _hand(events, winner, concealed, [], win, last=False)
    result = replay_hand(hand)
    assert result.context is not None and not result.context.last_tile
    assert "妙手回春" not in {f.name for f in result.win.fans}
    assert result.findings == ()

