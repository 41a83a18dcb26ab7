"""Bot styles: each does what docs/simulation.md says it does, and only ever plays held tiles."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mjstats.rulesets.fuzhou.shape import FuzhouShape
from mjstats.rulesets.guobiao.shape import GuobiaoShape
from mjstats.sim.bots import STYLES, Bot
from mjstats.sim.table import Table
from mjstats.tiles import parse_tiles

GB = GuobiaoShape()


def _table(tiles: str, gold: int | None = None, seat: int = 0) -> Table:
    table = Table(gold)
    for t in parse_tiles(tiles):
        table.seats[seat].counts[t] += 1
    return table


def _bot(style: str, table: Table, shape=GB, seat: int = 0) -> Bot:  # type: ignore[no-untyped-def]
    return Bot(STYLES[style], shape, seat, table)


@settings(max_examples=60, deadline=None)
@given(st.permutations(list(range(34)) * 4).map(lambda wall: wall[:14]))
def test_greedy_discard_is_held_and_minimises_shanten(tiles: list[int]) -> None:
    table = Table()
    counts = table.seats[0].counts
    for t in tiles:
        counts[t] += 1
    choice = _bot("greedy", table).discard()
    assert counts[choice] > 0
    after = []
    for t in set(tiles):
        counts[t] -= 1
        after.append(GB.shanten(counts, 0))
        counts[t] += 1
    counts[choice] -= 1
    assert GB.shanten(counts, 0) == min(after)


def test_flush_throws_the_odd_suit_first() -> None:
    off = parse_tiles("T2 T3 B7 B8")
    assert _bot("flush", _table("W1 W2 W3 W5 W6 W8 W9 W9 T2 T3 F1 F1 B7 B8")).discard() in off
    # with more than five tiles outside its best suit it plays like the greedy bot
    spread = _table("W1 W2 W3 W5 W6 T2 T3 T5 B7 B8 B9 F1 F1 J1")
    assert _bot("flush", spread).discard() == _bot("greedy", spread).discard()


def test_defensive_folds_against_two_melds() -> None:
    table = _table("W1 W4 W7 T2 T5 T8 B3 B6 B9 J1 J1 F2 F3 B5")
    j1 = parse_tiles("J1")[0]
    table.visible[j1] = 2  # the other two 中 are out: breaking the pair is the safest play
    opponent = table.seats[1]
    opponent.melds = [("PENG", 27, 1), ("CHI", 19, 1)]
    assert _bot("defensive", table).discard() == j1
    assert _bot("greedy", table).discard() != j1
    opponent.melds = opponent.melds[:1]  # one meld: no threat yet
    assert _bot("defensive", table).discard() == _bot("greedy", table).discard()


def test_aggressive_calls_where_greedy_does_not() -> None:
    # waiting on B4/B7 with the pair F1: punging F1 keeps it waiting (on a single tile)
    table = _table("W1 W2 W3 W4 W5 W6 T1 T2 T3 B5 B6 F1 F1")
    table.seats[0].standing = GB.shanten(table.seats[0].counts, 0)
    f1 = parse_tiles("F1")[0]
    assert table.seats[0].standing == 0
    assert _bot("aggressive", table).wants_pung(f1)
    assert not _bot("greedy", table).wants_pung(f1)


def test_golds_stay_with_every_style_but_the_thrower() -> None:
    gold = parse_tiles("T5")[0]
    shape = FuzhouShape(gold)
    # at face value T5 is a lone tile like B8; as a wild it is the best tile of the hand
    tiles = "W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B2 B3 B5 B6 B7 B8 T5"
    for style in STYLES.values():
        if "fuzhou" in style.rulesets:
            choice = _bot(style.name, _table(tiles, gold), shape).discard()
            assert (choice == gold) == (not style.golds_wild), style.name


def test_gold_keeper_holds_out_for_golden_wins_with_two_golds() -> None:
    gold = parse_tiles("T5")[0]
    table = _table("W1 W2 W3 T5 T5", gold)
    keeper = _bot("goldkeeper", table, FuzhouShape(gold))
    assert not keeper.wants_win(on_discard=True, golden=False, late=False)
    assert keeper.wants_win(on_discard=True, golden=True, late=False)
    assert keeper.wants_win(on_discard=True, golden=False, late=True)
    assert not keeper.wants_win(on_discard=False, golden=False, late=False)  # not even a self-draw
    table.seats[0].counts[gold] = 1
    assert keeper.wants_win(on_discard=True, golden=False, late=False)  # one gold: no holding out
    assert _bot("greedy", table, FuzhouShape(gold)).wants_win(True, False, False)


def test_forbidden_gold_discard_is_respected() -> None:
    gold = parse_tiles("T5")[0]
    lone = _table("W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B2 B3 B5 B6 B7 B8 T5", gold)
    bot = Bot(STYLES["goldthrower"], FuzhouShape(gold), 0, lone, gold_discard_allowed=False)
    assert bot.discard() != gold
