"""The Sichuan fast paths (waits by canonical key, per-suit tables, 查大叫 values from one
decomposition) against the straightforward computations kept in tests/sichuan_oracle.py."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mjstats.errors import InvalidHand
from mjstats.rulesets.sichuan import load_profile
from mjstats.rulesets.sichuan.fan import ready_values, wait_value
from mjstats.rulesets.sichuan.profiles import parse_profile
from mjstats.rulesets.sichuan.win import clear_caches, waits_from_counts
from mjstats.tiles import SUITED
from tests.sichuan_oracle import oracle_wait_value, oracle_waits

_PROFILES = {
    "seed": load_profile("seed"),
    "platform": load_profile("platform"),
    # room options that make the hand extras count: 门清, 断幺九, 根 only outside kongs
    "menqing": parse_profile(
        'name = "menqing"\n[fan]\nmenqing_fan = 1\nduanyao_fan = 1\ngen_counting = "unmelded_only"\n'
        'jin_gou_diao_fan = 1\nyaojiu_jiangdui = false\nlong_qidui_fan = 3\n'
    ),
}
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


@settings(max_examples=300, deadline=None, suppress_health_check=_SLOW_DATA)
@given(waiting_shapes(), st.sampled_from(["seed", "platform", "menqing"]))
def test_ready_values_match_the_oracle(shape, profile):
    """The exhaustive draw's one-pass waits and 查大叫 values against the oracle's waits (sorted)
    and each one's value from the whole grown hand."""
    counts, melds, held, void = shape
    prof = _PROFILES[profile]
    found, values = ready_values(counts, held, melds, void, prof)
    want = sorted(oracle_waits(counts, melds, held, void))
    assert list(found) == want and all(type(t) is type(SUITED[0]) for t in found)
    assert values == [oracle_wait_value(counts, held, melds, tile, prof) for tile in want]


def test_ready_values_on_hands_that_exercise_every_part():
    """Hands chosen so each part of the value counts: 断幺九 broken by a wait on a 9, 七对 with
    and without a regular reading, a wait completing a quad (根), a pong and a kong (金钩钓 off)."""
    hands = [
        ([1, 2, 3, 3, 4, 5, 6, 7, 11, 12, 13, 14, 14], ()),  # W234 W456 W78 T345 T66: W3 W6 W9
        ([0, 0, 1, 1, 2, 2, 4, 4, 5, 5, 6, 6, 8], ()),  # 七对 single W9, also 123 123 + ...
        ([9, 9, 11, 11, 13, 13, 15, 15, 17, 17, 19, 19, 21], ()),  # 七对 only, two suits
        ([0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8], ()),  # 九莲宝灯 shape: every W, W1/W9 make quads
        ([2, 3, 4, 9, 9, 9, 10, 11, 12, 14], (("PENG", SUITED[6], 1),)),
        ([2, 3, 4, 5, 5, 6, 7], (("GANG", SUITED[0], 0), ("PENG", SUITED[9], 2))),
    ]
    for tiles, melds in hands:
        counts = [0] * 27
        for k in tiles:
            counts[k] += 1
        held = list(counts)
        for kind, tile, _ in melds:
            held[tile] += 4 if kind == "GANG" else 3
        for prof in _PROFILES.values():
            found, values = ready_values(counts, held, melds, None, prof)
            want = sorted(oracle_waits(counts, melds, held, None))
            assert want and list(found) == want, tiles
            assert values == [oracle_wait_value(counts, held, melds, t, prof) for t in want], tiles


def test_ready_values_refuses_a_wrong_size():
    counts = [0] * 27
    counts[0] = 3
    try:
        ready_values(counts, counts, (), None, load_profile("seed"))
    except InvalidHand:
        pass
    else:
        raise AssertionError("a 3-tile hand without melds is no waiting hand")


def test_a_wrong_size_is_still_refused_after_caching():
    counts = [0] * 27
    counts[0] = 3
    try:
        waits_from_counts(counts, (), counts, None)
    except InvalidHand:
        pass
    else:
        raise AssertionError("a 3-tile hand without melds is no waiting hand")


def test_payments_built_by_the_slot_setters_are_the_dataclass_s_own():
    """settle._payment (the hot path's constructor) gives what Payment(...) gives: equal, same
    hash and repr, every field in order, still frozen."""
    import dataclasses

    import pytest

    from mjstats.rulesets.sichuan.settle import _PAYMENT_SETTERS, Payment, _payment

    assert len(_PAYMENT_SETTERS) == len(dataclasses.fields(Payment))
    cases = [
        (0, 1, 2, "win", "WIN", 3),
        (3, 2, 32, "refund", "TAX_REFUND", 17),
        (1, 0, 1, "kong", "KONG_ADDED", 0),
    ]
    for args in cases:
        fast, plain = _payment(*args), Payment(*args)
        assert type(fast) is Payment and fast == plain and hash(fast) == hash(plain)
        assert repr(fast) == repr(plain) and dataclasses.astuple(fast) == args
        assert fast.dataset_reason == plain.dataset_reason
        with pytest.raises(dataclasses.FrozenInstanceError):
            fast.amount = 0  # type: ignore[misc]


def test_win_scores_built_by_the_slot_setters_are_the_dataclass_s_own():
    """frozen_record with fan's WinScore setters (score_win's constructor) gives what
    WinScore(...) gives, still frozen; a missing field is refused."""
    import dataclasses

    import pytest

    from mjstats.rulesets.sichuan.fan import _WIN_SCORE_SETTERS, WinScore, score_win
    from mjstats.slot_setters import frozen_record

    score = score_win("W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9 W9", (), "W5")
    args = tuple(getattr(score, f.name) for f in dataclasses.fields(WinScore))
    plain = WinScore(*args)
    assert type(score) is WinScore and score == plain and hash(score) == hash(plain)
    assert repr(score) == repr(plain) and score.as_dict() == plain.as_dict()
    with pytest.raises(dataclasses.FrozenInstanceError):
        score.fan = 0  # type: ignore[misc]
    with pytest.raises(ValueError):
        frozen_record(WinScore, _WIN_SCORE_SETTERS, args[:-1])


def test_settlements_built_by_the_slot_setters_are_the_dataclass_s_own():
    """frozen_record (the end status and the settlement of settle_hand) gives what the
    dataclasses' own constructors give: equal, same hash and repr, still frozen; a missing field
    is refused."""
    import dataclasses

    import pytest

    from mjstats.rulesets.sichuan import settle as sc

    hand = lambda text: tuple(text.split())  # noqa: E731
    events = [
        sc.Kong(3, "concealed", "B3"),
        sc.Win("T5", (sc.Winner(1, hand("T1 T1 T1 T2 T3 T4 T4 T6 T7 T7 T7 T9 T9"), void="W"),)),
        sc.HandEnd((
            sc.PlayerHand(0, hand("W1 W1 W2 W2 W3 W3 T1 T1 T2 T2 T3 T3 T5"), void="B"),
            sc.PlayerHand(2, hand("W1 W2 W4 W6 B1 B1 B2 B7 T2 T5 W9 W9 W9"), void="T"),
            sc.PlayerHand(3, hand("B4 B5 B6 B7 B8 B9 B9 B9 W6 W6"), (("GANG", "B3", 0),), void="T"),
        )),
    ]
    settled = sc.settle_hand(events)
    assert len(settled.end_status) == 3
    for record in (settled, *settled.end_status):
        cls = type(record)
        plain = cls(*(getattr(record, f.name) for f in dataclasses.fields(cls)))
        assert record == plain and hash(record) == hash(plain) and repr(record) == repr(plain)
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(record, dataclasses.fields(cls)[0].name, None)
    with pytest.raises(ValueError):
        sc.frozen_record(sc.EndStatus, sc._END_STATUS_SETTERS, (0, False, (), False))
