"""The fast Guobiao discard path (clamped option bitmasks, shared part masks) against the
straightforward computation kept in tests/decision_oracle.py, on a few thousand hands."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from mjstats.rulesets.guobiao.incremental import (
    guobiao_discard_shanten,
    guobiao_useful,
    guobiao_useful_after_discards,
)
from tests.decision_oracle import oracle_discard_shanten, oracle_useful


def _shaped_counts(rng: random.Random, size: int) -> tuple[int, ...]:
    """A hand of ``size`` tiles built mostly from sets, pairs and partial sets (close to
    waiting, where the useful kinds are subtle), topped up with random tiles; at most 4 copies."""
    counts = [0] * 34
    held = 0
    while held < size:
        room = size - held
        kind = rng.randrange(34)
        shape = rng.choice(("run", "pung", "pair", "two", "gap", "one"))
        if shape == "run" and kind < 27 and kind % 9 <= 6 and room >= 3:
            add = [kind, kind + 1, kind + 2]
        elif shape == "pung" and room >= 3:
            add = [kind] * 3
        elif shape == "pair" and room >= 2:
            add = [kind] * 2
        elif shape == "two" and kind < 27 and kind % 9 <= 7 and room >= 2:
            add = [kind, kind + 1]
        elif shape == "gap" and kind < 27 and kind % 9 <= 6 and room >= 2:
            add = [kind, kind + 2]
        else:
            add = [kind]
        if all(counts[k] + add.count(k) <= 4 for k in add):
            for k in add:
                counts[k] += 1
            held += len(add)
    return tuple(counts)


def _uniform_counts(rng: random.Random, size: int) -> tuple[int, ...]:
    counts = [0] * 34
    for t in rng.sample([k for k in range(34) for _ in range(4)], size):
        counts[t] += 1
    return tuple(counts)


def _check(full: tuple[int, ...], melds: int) -> None:
    kinds = [t for t in range(34) if full[t]]
    assert guobiao_discard_shanten(full, melds, kinds) == oracle_discard_shanten(full, melds, kinds)
    after = guobiao_useful_after_discards(full, melds, kinds)
    assert set(after) == set(kinds)
    for t in kinds:
        left = (*full[:t], full[t] - 1, *full[t + 1 :])
        expected = oracle_useful(left, melds)
        assert after[t] == expected, (full, melds, t)
        assert guobiao_useful(left, melds) == expected


def test_fast_path_equals_the_oracle_on_thousands_of_hands():
    rng = random.Random(14)
    for i in range(3000):
        melds = rng.choice((0, 0, 0, 1, 1, 2, 3, 4))
        make = _shaped_counts if i % 3 else _uniform_counts
        _check(make(rng, 14 - 3 * melds), melds)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 10**9), melds=st.integers(0, 4), shaped=st.booleans())
def test_fast_path_equals_the_oracle(seed, melds, shaped):
    rng = random.Random(seed)
    _check((_shaped_counts if shaped else _uniform_counts)(rng, 14 - 3 * melds), melds)
