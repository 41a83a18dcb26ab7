"""The Sichuan fast paths (waits by canonical key, per-suit tables, 查大叫 values from one
decomposition) against the straightforward computations kept in tests/sichuan_oracle.py."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mjstats.errors import InvalidHand
from mjstats.rulesets.sichuan import load_profile
from mjstats.rulesets.sichuan.fan import wait_value
from mjstats.rulesets.sichuan.win import clear_caches, waits_from_counts
from mjstats.tiles import SUITED
from tests.sichuan_oracle import oracle_wait_value, oracle_waits

_SLOW_DATA = [HealthCheck.large_base_example, HealthCheck.too_slow, HealthCheck.data_too_large]


@st.composite
def waiting_shapes(draw: st.DrawFn) -> tuple[list[int], tuple, list[int], int | None]:
    """A 13 - 3m tile hand (m melds) mostly of two suits, often close to ready: (counts,
    melds, counts with melds, void or None)."""
    suits = draw(st.lists(st.integers(0, 2), min_size=1, max_size=3, unique=True))
    n_melds = draw(st.integers(0, 2))
    held = [0] * 27
    melds = []
    for _ in range(n_melds):
        k = 9 * draw(st.sampled_from(suits)) + draw(st.integers(0, 8))
        kind = draw(st.sampled_from(["PENG", "GANG"]))
        need = 4 if kind == "GANG" else 3
        if held[k]:
            continue
        held[k] = need
        melds.append((kind, SUITED[k], 1 if kind == "PENG" else draw(st.integers(0, 3))))
    counts = [0] * 27
    size = 13 - 3 * len(melds)
    while sum(counts) < size:
        k = 9 * draw(st.sampled_from(suits)) + draw(st.integers(0, 8))
        # groups of 1-3 equal or running tiles make ready hands common
        run = draw(st.sampled_from([(0,), (0, 0), (0, 1, 2), (0, 0, 0), (0, 1)]))
        for step in run:
            t = k + step
            if sum(counts) < size and t // 9 == k // 9 and held[t] + counts[t] < 4:
                counts[t] += 1
    total = [a + b for a, b in zip(counts, held, strict=True)]
    void = draw(st.one_of(st.none(), st.integers(0, 2)))
    return counts, tuple(melds), total, void


@settings(max_examples=200, deadline=None, suppress_health_check=_SLOW_DATA)
@given(waiting_shapes(), st.booleans())
def test_waits_match_the_oracle(shape, cleared):
    counts, melds, held, void = shape
    if cleared:
        clear_caches()
    fast = waits_from_counts(counts, melds, held, void)
    assert fast == oracle_waits(counts, melds, held, void)
    assert waits_from_counts(counts, melds, held, void) == fast  # a cache hit answers the same


@settings(max_examples=150, deadline=None, suppress_health_check=_SLOW_DATA)
@given(waiting_shapes(), st.sampled_from(["seed", "platform"]))
def test_wait_values_match_the_oracle(shape, profile):
    counts, melds, held, void = shape
    prof = load_profile(profile)
    for tile in sorted(oracle_waits(counts, melds, held, void)):
        want = oracle_wait_value(counts, held, melds, tile, prof)
        assert wait_value(counts, held, melds, tile, prof) == want


def test_a_wrong_size_is_still_refused_after_caching():
    counts = [0] * 27
    counts[0] = 3
    try:
        waits_from_counts(counts, (), counts, None)
    except InvalidHand:
        pass
    else:
        raise AssertionError("a 3-tile hand without melds is no waiting hand")
