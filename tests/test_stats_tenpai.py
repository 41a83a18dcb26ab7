"""The tenpai check used at exhaustive draws agrees with the Guobiao engine's shanten, including
hands near the special forms (七对, 十三幺, 全不靠, 组合龙) that its fast path must not miss."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from mjstats.rulesets.guobiao.waits import KNITTED_STRAIGHTS, TERMINALS_AND_HONOURS, shanten
from mjstats.stats.outcomes import _shanten_engines

ENGINE = _shanten_engines()["guobiao"]


def _near_form(rng: random.Random, form: str) -> list[int]:
    wall = [t for t in range(34) for _ in range(4)]
    if form == "pairs":
        kinds = rng.sample(range(34), 7)
        hand = [k for k in kinds[:6] for _ in range(2)] + [kinds[6]]
    elif form == "orphans":
        hand = rng.sample(TERMINALS_AND_HONOURS, 13)
    elif form == "knitted":
        straight = list(rng.choice(KNITTED_STRAIGHTS))
        hand = straight + rng.sample(range(27, 34), 4)
    else:
        hand = rng.sample(wall, 13)
    # perturb a little: swap up to two tiles for random ones
    for _ in range(rng.randint(0, 2)):
        hand[rng.randrange(13)] = rng.randrange(34)
    hand.sort()
    return hand


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["pairs", "orphans", "knitted", "random"]))
def test_tenpai_matches_the_engine(seed, form):
    rng = random.Random(seed)
    tiles = _near_form(rng, form)
    if max(tiles.count(t) for t in set(tiles)) > 4:
        return
    assert (ENGINE(tiles, [], None, "") <= 0) == (shanten(tiles) <= 0)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32))
def test_tenpai_with_one_meld_matches_the_engine(seed):
    rng = random.Random(seed)
    meld_tile = rng.randrange(27, 34)
    pool = [t for t in range(34) for _ in range(4 if t != meld_tile else 1)]
    if rng.random() < 0.5:  # near a knitted straight + one meld
        tiles = list(rng.choice(KNITTED_STRAIGHTS)) + rng.sample(range(27), 1)
    else:
        tiles = rng.sample(pool, 10)
    tiles.sort()
    if max(tiles.count(t) for t in set(tiles)) > 4:
        return
    melds = [("PENG", meld_tile, 1)]
    assert (ENGINE(tiles, melds, None, "") <= 0) == (shanten(tiles, melds) <= 0)
