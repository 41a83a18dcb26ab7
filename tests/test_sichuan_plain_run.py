"""The Sichuan fast paths of the second speed round against the straightforward routes they
replace: the replay's plain run of draws and discards (against the full handlers, which
``explain=True`` always takes), the fan's reading from the per-suit byte tables (against
``_hand_reading``), the waits by bytes key (against the per-suit functions directly) and the
settlement without the Turn events that change nothing (against all of them)."""

from __future__ import annotations

import dataclasses
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mjstats.records import EventKind, Hand
from mjstats.replay import replay_hand
from mjstats.rulesets.sichuan import load_profile
from mjstats.rulesets.sichuan.fan import _fast_reading, _hand_reading, gen_count
from mjstats.rulesets.sichuan.replay import SichuanReplay, sichuan_profile
from mjstats.rulesets.sichuan.settle import Kong, Turn, settle_indexed
from mjstats.rulesets.sichuan.tiles import meld_counts, tiles_of
from mjstats.rulesets.sichuan.win import _waits_by_tuples, suits_held, waits_by_key
from mjstats.sim import SimConfig, simulate_with_faults
from mjstats.tiles import SUITED

_SLOW_DATA = [HealthCheck.large_base_example, HealthCheck.too_slow, HealthCheck.data_too_large]
_HANDS: dict[tuple[str, float], list[Hand]] = {}


def sim_hands(profile: str, rate: float) -> list[Hand]:
    key = (profile, rate)
    if key not in _HANDS:
        _HANDS[key] = [h for h, _ in simulate_with_faults(SimConfig("sichuan", 24, 11, profile), rate)]
    return _HANDS[key]


def both_routes(hand: Hand, profile: str) -> tuple[object, object]:
    """(findings and outcome by the plain run, the same by the full handlers only)."""
    prof = sichuan_profile(profile)
    fast = replay_hand(hand, prof)
    full = replay_hand(hand, prof, explain=True)  # --explain snapshots every event: no plain run

    def outcome(r: object) -> tuple:
        return (r.findings, r.stopped, r.context, r.win, r.more_wins)  # type: ignore[attr-defined]

    return outcome(fast), outcome(full)


def test_plain_run_matches_the_handlers_on_simulated_and_faulty_hands() -> None:
    for profile in ("seed", "platform"):
        for rate in (0.0, 0.5):
            for hand in sim_hands(profile, rate):
                fast, full = both_routes(hand, profile)
                assert fast == full, (profile, rate, hand.match_id, hand.hand_no)


_KINDS = [EventKind.DRAW, EventKind.DISCARD, EventKind.PENG, EventKind.HU]


@settings(max_examples=60, deadline=None, suppress_health_check=_SLOW_DATA)
@given(
    st.integers(0, 23),
    st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 5)), min_size=1, max_size=3),
)
def test_plain_run_matches_the_handlers_on_broken_records(index: int, edits: list[tuple[int, int]]) -> None:
    """Records broken at random (a tile, a seat, a kind, a replacement flag changed, an event
    dropped or repeated): the plain run hands every doubt to the handlers, so the findings, in
    order, are the same either way."""
    hand = sim_hands("seed", 0.0)[index]
    events = list(hand.events)
    rng = random.Random(index)
    for at, what in edits:
        i = at % len(events)
        ev = events[i]
        if what == 0:
            events[i] = ev._replace(tile=SUITED[rng.randrange(27)])
        elif what == 1:
            events[i] = ev._replace(seat=rng.randrange(4))
        elif what == 2:
            events[i] = ev._replace(kind=rng.choice(_KINDS))
        elif what == 3:
            events[i] = ev._replace(tail=not ev.tail)
        elif what == 4:
            del events[i]
        else:
            events.insert(i, ev)
    broken = dataclasses.replace(hand, events=tuple(e._replace(seq=n) for n, e in enumerate(events)))
    fast, full = both_routes(broken, "seed")
    assert fast == full


@st.composite
def winning_shapes(draw: st.DrawFn) -> tuple[list[int], tuple, list[int]]:
    """14 - 3m concealed tiles (winning tile included) of one to three suits, often complete:
    (concealed counts, melds, counts with the melds)."""
    suits = draw(st.lists(st.integers(0, 2), min_size=1, max_size=3, unique=True))
    held = [0] * 27
    melds = []
    for _ in range(draw(st.integers(0, 2))):
        k = 9 * draw(st.sampled_from(suits)) + draw(st.integers(0, 8))
        kind = draw(st.sampled_from(["PENG", "GANG"]))
        if held[k]:
            continue
        held[k] = 4 if kind == "GANG" else 3
        melds.append((kind, SUITED[k], 1 if kind == "PENG" else draw(st.integers(0, 3))))
    counts = [0] * 27
    size = 14 - 3 * len(melds)
    while sum(counts) < size:
        k = 9 * draw(st.sampled_from(suits)) + draw(st.integers(0, 8))
        for step in draw(st.sampled_from([(0,), (0, 0), (0, 1, 2), (0, 0, 0), (0, 0, 0, 0)])):
            t = k + step
            if sum(counts) < size and t // 9 == k // 9 and held[t] + counts[t] < 4:
                counts[t] += 1
    return counts, tuple(melds), [a + b for a, b in zip(counts, held, strict=True)]


@settings(max_examples=300, deadline=None, suppress_health_check=_SLOW_DATA)
@given(winning_shapes(), st.sampled_from(["seed", "platform"]))
def test_fast_reading_matches_hand_reading(shape, profile) -> None:
    counts, melds, held = shape
    rules = load_profile(profile).fan
    flush = len(suits_held(held)) == 1
    g = gen_count(held, melds, rules.gen_counting)
    assert meld_counts(melds) == [h - c for h, c in zip(held, counts, strict=True)]
    assert _fast_reading(bytes(counts), melds, flush, g, rules) == _hand_reading(
        tuple(counts), melds, flush, g, rules
    )


@settings(max_examples=300, deadline=None, suppress_health_check=_SLOW_DATA)
@given(st.lists(st.integers(0, 6), min_size=27, max_size=27), st.one_of(st.none(), st.integers(0, 2)))
def test_waits_by_bytes_match_the_tuple_route(counts, void) -> None:
    """Any counts, broken ones (five copies and more) included: the byte tables answer as the
    per-suit functions do."""
    key = tuple(counts)
    want = _waits_by_tuples(key, key, False, void)
    assert waits_by_key(bytes(counts), bytes(counts), False, void) == want
    assert waits_by_key(key, key, False, void) == want


def test_tiles_of_lists_the_tiles_in_kind_order() -> None:
    rng = random.Random(3)
    for _ in range(200):
        counts = [rng.choice([0, 0, 1, 2, 3, 4]) for _ in range(27)]
        assert tiles_of(counts) == tuple(SUITED[k] for k, n in enumerate(counts) for _ in range(n))
    assert tiles_of([-1] + [0] * 26) == ()


def test_plain_run_matches_the_handlers_on_the_examples_and_broken_cases() -> None:
    """The worked examples and every hand the audit-check tests break on purpose (a pass the
    replay must infer, a lock, a wrong drawer ...): the same findings by either route."""
    from tests.test_sichuan_replay import CASES, EXAMPLES

    hands = [*EXAMPLES.values(), *(make() for make in CASES.values())]
    for hand in hands:
        fast, full = both_routes(hand, hand.profile)
        assert fast == full, (hand.match_id, hand.hand_no)


def _without_idle_turns(events: list) -> list[tuple[int, object]]:
    """(index, event) of the events, leaving out each Turn whose seat made no Kong since its
    last Turn: the straightforward statement of what the replay leaves out."""
    out = []
    konged = [False] * 4
    for i, ev in enumerate(events):
        if isinstance(ev, Turn):
            if not konged[ev.seat]:
                continue
            konged[ev.seat] = False
        elif isinstance(ev, Kong):
            konged[ev.seat] = True
        out.append((i, ev))
    return out


def test_idle_turns_left_out_settle_the_same(monkeypatch) -> None:
    """The simulator settles every Turn; settling without the idle ones, by their indices,
    gives the same settlement, and the replay lists exactly the events kept."""
    import mjstats.rulesets.sichuan.game as game

    recorded: list[list] = []
    real = game.settle_hand

    def spy(events, **kw):
        recorded.append(list(events))
        return real(events, **kw)

    monkeypatch.setattr(game, "settle_hand", spy)
    hands = [h for h, _ in simulate_with_faults(SimConfig("sichuan", 40, 5), 0.0)]
    assert len(recorded) == len(hands) and any(isinstance(e, Kong) for ev in recorded for e in ev)
    for hand, events in zip(hands, recorded, strict=True):
        kept = _without_idle_turns(events)
        assert len(kept) < len(events)
        prof = load_profile(hand.profile)
        assert settle_indexed(kept, dealer=hand.dealer, profile=prof) == real(
            events, dealer=hand.dealer, profile=prof
        )
        replay = SichuanReplay(hand, sichuan_profile(hand.profile), False)
        replay.run()
        assert list(zip(replay.event_index, replay.events, strict=True)) == kept
