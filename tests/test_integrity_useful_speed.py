"""The table path of ``mjstats.integrity.useful`` against the straightforward search it replaced
(tests/useful_oracle.py): the same useful kinds and waits on random hands, simulated play and a
hypothesis property, for every ruleset shape, golds and void suits included."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjstats.integrity.tracker import draws_of
from mjstats.integrity.useful import shape_of, useful_kinds, waits
from mjstats.sim import SimConfig, simulate
from tests.useful_oracle import oracle_useful_kinds, oracle_waits

# ruleset -> (kinds in its set, sets of a hand without melds)
SETS = {"guobiao": (34, 4), "fuzhou": (34, 5), "sichuan": (27, 4)}

RANDOM_HANDS = {"guobiao": 2500, "fuzhou": 2000, "sichuan": 700}
SIMULATED_HANDS = {"guobiao": 12, "fuzhou": 40, "sichuan": 12}  # Fuzhou's golds end hands early
Position = tuple[tuple[int, ...], int, int | None, int | None]  # counts, melds, gold, void


def _check(ruleset: str, position: Position) -> None:
    counts, melds, gold, void = position
    expected = oracle_useful_kinds(counts, melds, gold, ruleset, void)
    assert useful_kinds(counts, melds, gold, ruleset, void) == expected, (ruleset, position)
    assert waits(counts, melds, gold, ruleset, void) == oracle_waits(counts, melds, gold, ruleset, void)


def _counts(tiles: list[int]) -> tuple[int, ...]:
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    return tuple(counts)


def _random_positions(ruleset: str, rng: random.Random, n: int) -> Iterator[Position]:
    """Hands of a waiting size: uniform from the set, or from one or two suits (and a few
    honours) so that ready and nearly ready hands are common; golds held 0-4 times."""
    kinds, sets = SETS[ruleset]
    wall = [k for k in range(kinds) for _ in range(4)]
    for _ in range(n):
        melds = rng.choice((0, 0, 0, 1, 2, 3))
        size = 3 * (sets - melds) + 1
        pool = wall
        if rng.random() < 0.6:
            suits = rng.sample(range(3), rng.choice((1, 2)))
            pool = [t for t in wall if t < 27 and t // 9 in suits]
            pool += rng.sample([t for t in wall if t >= 27], min(rng.randint(0, 6), len(wall) - 108))
        tiles = rng.sample(pool, size) if len(pool) >= size else rng.sample(wall, size)
        gold = None
        if ruleset == "fuzhou":
            gold = rng.randrange(kinds)
            extra = min(rng.choice((0, 0, 1, 2, 3, 4)), 4)
            tiles = [t for t in tiles if t != gold][: size - extra]
            tiles += [gold] * (size - len(tiles))
            if _counts(tiles)[gold] > 4:
                continue
        counts = _counts(tiles)
        voids: tuple[int | None, ...] = (None, 0, 1, 2) if ruleset == "sichuan" else (None,)
        for void in voids:
            yield counts, melds, gold, void


@pytest.mark.parametrize("ruleset", sorted(SETS))
def test_random_hands_have_the_oracles_useful_kinds(ruleset: str) -> None:
    rng = random.Random(f"useful-{ruleset}")
    # thousands of positions each (a Sichuan hand is asked with every void suit and none)
    positions = list(_random_positions(ruleset, rng, RANDOM_HANDS[ruleset]))
    assert len(positions) >= 2000
    # the tables answer (almost) every such hand: the comparison tests them, not the fallback
    tabled = sum(
        shape_of(ruleset, gold, void).shanten_and_useful(counts, melds) is not None
        for counts, melds, gold, void in positions
    )
    assert tabled == len(positions)
    ready = 0
    for position in positions:
        _check(ruleset, position)
        ready += bool(waits(position[0], position[1], position[2], ruleset, position[3]))
    assert ready >= 20  # ready hands (non-empty waits) are among them


def _simulated_positions(ruleset: str, hands: int, seed: int, profile: str | None = None) -> list[Position]:
    out = []
    for hand in simulate(SimConfig(ruleset, hands, seed, profile)):
        for d in draws_of(hand):
            out.append((d.concealed, d.melds, d.gold, d.void))
            if ruleset == "sichuan" and d.void is None:
                out.extend((d.concealed, d.melds, d.gold, v) for v in range(3))
    return out


@pytest.mark.parametrize(
    ("ruleset", "profile"), [("guobiao", None), ("fuzhou", None), ("fuzhou", "platform"), ("sichuan", None)]
)
def test_simulated_draws_have_the_oracles_useful_kinds(ruleset: str, profile: str | None) -> None:
    positions = _simulated_positions(ruleset, SIMULATED_HANDS[ruleset], 5, profile)
    assert len(positions) >= 400
    for position in positions:
        _check(ruleset, position)
    if ruleset == "sichuan":
        assert any(p[3] is not None and any(p[0][9 * p[3] : 9 * p[3] + 9]) for p in positions)
    if ruleset == "fuzhou":
        assert any(p[2] is not None and p[0][p[2]] for p in positions)  # golds held


@st.composite
def _positions(draw: st.DrawFn) -> tuple[str, Position]:
    ruleset = draw(st.sampled_from(sorted(SETS)))
    kinds, sets = SETS[ruleset]
    melds = draw(st.integers(0, 3))
    size = 3 * (sets - melds) + 1
    gold = draw(st.integers(0, kinds - 1)) if ruleset == "fuzhou" else None
    counts = [0] * 34
    # few distinct kinds, so that sets, pairs, golds and void tiles are common
    kinds_used = draw(st.lists(st.integers(0, kinds - 1), min_size=1, max_size=10))
    if gold is not None:
        kinds_used.append(gold)
    i = 0
    while sum(counts) < size and i < 60:
        k = kinds_used[draw(st.integers(0, len(kinds_used) - 1))]
        if counts[k] < 4:
            counts[k] += 1
        i += 1
    filler = (k for k in range(kinds) for _ in range(4))
    while sum(counts) < size:
        k = next(filler)
        if counts[k] < 4:
            counts[k] += 1
    void = draw(st.sampled_from((None, 0, 1, 2))) if ruleset == "sichuan" else None
    return ruleset, (tuple(counts), melds, gold, void)


@settings(max_examples=400, deadline=None)
@given(_positions())
def test_useful_kinds_match_the_oracle_on_any_hand(case: tuple[str, Position]) -> None:
    ruleset, position = case
    _check(ruleset, position)


def test_an_unusual_hand_size_takes_the_straightforward_path() -> None:
    # one tile too many for a waiting hand: the tables decline and the search decides (raises)
    counts = _counts([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13])
    assert shape_of("guobiao", None, None).shanten_and_useful(counts, 0) is None
    assert shape_of("sichuan", None, 1).shanten_and_useful(counts, 0) is None
    honours = _counts([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 27])
    assert shape_of("sichuan", None, None).shanten_and_useful(honours, 0) is None
