"""The fast decision path against the straightforward computations kept as oracles: the Guobiao
discard shanten and useful kinds (clamped option bitmasks, shared part masks) against
tests/decision_oracle.py, and the whole judge (per-seat hands kept until they change, waits asked
only of hands that may wait) against tests/judge_oracle.py, on thousands of positions."""

from __future__ import annotations

import dataclasses
import itertools
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjstats.decision import hand_decisions
from mjstats.decision.judge import Decision, DecisionColumns, _Judge
from mjstats.decision.view import RulesetView, kinds_of, view_for
from mjstats.formats.canonical import read_canonical
from mjstats.records import Hand
from mjstats.replay.replayer import HandReplay, profile_for
from mjstats.rulesets.guobiao.divide import KNITTED_STRAIGHTS, TERMINALS_AND_HONOURS
from mjstats.rulesets.guobiao.incremental import (
    guobiao_discard_shanten,
    guobiao_shanten,
    guobiao_useful,
    guobiao_useful_after_discards,
    guobiao_useful_mask,
)
from mjstats.rulesets.guobiao.shape import GuobiaoShape
from mjstats.rulesets.guobiao.waits import special_may_wait, waits, waits_mask
from mjstats.sim import SimConfig, simulate
from tests.decision_oracle import oracle_discard_shanten, oracle_useful
from tests.judge_oracle import oracle_decisions


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
        assert kinds_of(after[t]) == expected, (full, melds, t)
        assert guobiao_useful(left, melds) == expected
        assert kinds_of(guobiao_useful_mask(left, melds)) == expected


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


# --- the whole judge ---------------------------------------------------------------------------


def _oracle_view(ruleset: str) -> RulesetView:
    """The ruleset's view as the straightforward judge asked it: for Guobiao, the engine's own
    shanten, the full waits of every hand, every discard allowed by a function."""
    view = view_for(ruleset)
    assert view is not None
    if ruleset == "fuzhou":  # each discard's shanten and useful kinds asked one by one
        return dataclasses.replace(view, discard_shanten=_one_by_one(view), useful_after=None, far_waits=None)
    return dataclasses.replace(
        view,
        shanten=lambda replay, counts, melds: GuobiaoShape().shanten(list(counts), melds),
        may_discard=lambda replay, seat, tile: True,
        far_waits=None,
        wins_need_waits=False,
    )


def _one_by_one(view: RulesetView):
    def discard_shanten(replay, counts, melds, kinds):
        return {t: view.shanten(replay, _less(counts, t), melds) for t in kinds}

    return discard_shanten


def _less(counts: tuple[int, ...], t: int) -> tuple[int, ...]:
    return (*counts[:t], counts[t] - 1, *counts[t + 1 :])


@pytest.mark.parametrize(("ruleset", "count", "seed"), [("guobiao", 50, 21), ("fuzhou", 50, 22)])
def test_the_judge_equals_the_straightforward_one(ruleset, count, seed):
    hands = list(simulate(SimConfig(ruleset, count, seed=seed)))
    oracle = _oracle_view(ruleset)
    positions = 0
    for hand in hands:
        fast = hand_decisions(hand)
        assert fast == oracle_decisions(hand, oracle), (hand.match_id, hand.hand_no)
        positions += len(fast)
    assert positions > 1000  # over a thousand decisions: discards, claims and passes


def test_the_judge_equals_the_straightforward_one_on_botzone_records(sample_hands):
    oracle = _oracle_view("guobiao")
    hands = [h for h in sample_hands if isinstance(h, Hand)][:12]
    flagged = 0
    for hand in hands:
        fast = hand_decisions(hand)
        assert fast == oracle_decisions(hand, oracle), (hand.match_id, hand.hand_no)
        flagged += sum(1 for r in fast if r.flags)
    assert flagged  # the comparison covers flagged rows, not only plain ones


@pytest.mark.parametrize("ruleset", ["guobiao", "fuzhou"])
def test_the_judge_equals_the_straightforward_one_on_the_bundled_hands(ruleset):
    """The bundled simulated records (data/sim), as ``mjstats decisions`` reads them: every row
    equal to the oracle's, passes and claims among them (the opponents' hands kept from a
    discard's waits to its answers; the legal win asked only where it makes a row, whose passed
    wins the Botzone records' test above and tests/test_decisions.py cover)."""
    oracle = _oracle_view(ruleset)
    path = Path(__file__).resolve().parent.parent / "data" / "sim" / f"{ruleset}.jsonl.gz"
    kinds: set[str] = set()
    flags: set[str] = set()
    for hand in itertools.islice(read_canonical(path), 40):
        assert isinstance(hand, Hand)
        fast = hand_decisions(hand)
        assert fast == oracle_decisions(hand, oracle), (hand.match_id, hand.hand_no)
        kinds.update(r.kind for r in fast)
        flags.update(f for r in fast for f in r.flags.split(",") if f)
    assert kinds == {"discard", "claim", "pass_claim"}  # the bots never pass a win
    assert {"call_worse", "deal_in", "inefficient", "unsafe"} <= flags


def _shape_win(replay, seat: int, tile: int, self_drawn: bool, discarder: int | None) -> bool:
    """A legal win without the 8-fan minimum: the tile completes the seat's hand by shape."""
    player = replay.state.seats[seat]
    counts = list(player.concealed[:34])
    if self_drawn:
        if counts[tile] < 1:
            return False
        counts[tile] -= 1
    return bool(waits_mask(tuple(counts), tuple(m.as_tuple() for m in player.melds)) >> tile & 1)


def _judged_with(hand: Hand, view: RulesetView) -> list[Decision]:
    """``hand_decisions`` under another view (the stage's own steps, the judge given ``view``)."""
    chosen = profile_for(hand)
    replay = (chosen.replay_class or HandReplay)(hand, chosen, False)
    judge = _Judge(hand, replay, view)
    replay.run()
    out = DecisionColumns()
    judge.add_to(out)
    return out.rows()


def test_passed_wins_equal_the_straightforward_ones(sample_hands):
    """Wins worth any fan (the minimum lifted, so that the records' hands pass many): the passed
    wins and the claims over a win equal the oracle's, the legal win asked only where its answer
    makes a row (no bundled record passes a win worth 8 fan). The judge's way in for a drawn
    tile it found among the waits (``shaped_win``) is given the same answer."""
    fast = dataclasses.replace(view_for("guobiao"), legal_win=_shape_win, shaped_win=_shape_win)
    oracle = dataclasses.replace(_oracle_view("guobiao"), legal_win=_shape_win)
    path = Path(__file__).resolve().parent.parent / "data" / "sim" / "guobiao.jsonl.gz"
    hands = [h for h in sample_hands if isinstance(h, Hand)]
    hands += [h for h in itertools.islice(read_canonical(path), 40) if isinstance(h, Hand)]
    passed = claimed = 0
    for hand in hands:
        rows = _judged_with(hand, fast)
        assert rows == oracle_decisions(hand, oracle), (hand.match_id, hand.hand_no)
        passed += sum(1 for r in rows if r.kind == "pass_win")
        claimed += sum(1 for r in rows if r.kind == "claim" and "missed_win" in r.flags)
    assert passed and claimed


# --- waits asked only of hands that may wait ---------------------------------------------------


def _near_special(rng: random.Random) -> tuple[tuple[int, ...], int]:
    """A 13 - 3m tile hand one or two tiles from a special form (十三幺, 全不靠, 组合龙 with or
    without a meld), where the filter must let the full waits be asked."""
    form = rng.choice(("orphans", "knitted", "straight", "straight_meld"))
    counts = [0] * 34
    if form == "orphans":
        for t in TERMINALS_AND_HONOURS:
            counts[t] += 1
        counts[rng.choice(TERMINALS_AND_HONOURS)] += 1
        size, melds = 14, 0
    elif form == "knitted":
        pool = [*rng.choice(KNITTED_STRAIGHTS), *range(27, 34)]
        for t in rng.sample(pool, 14):
            counts[t] += 1
        size, melds = 14, 0
    else:
        for t in rng.choice(KNITTED_STRAIGHTS):
            counts[t] += 1
        melds = 1 if form == "straight_meld" else 0
        rest = rng.sample([k for k in range(34) for _ in range(4 - counts[k])], 5 - 3 * melds)
        for t in rest:
            counts[t] += 1
        size = 14 - 3 * melds
    # one tile out (waiting), and sometimes one swapped for a random kind (one step further)
    held = [t for t in range(34) for _ in range(counts[t])]
    counts[rng.choice(held)] -= 1
    if rng.random() < 0.4:
        held = [t for t in range(34) for _ in range(counts[t])]
        counts[rng.choice(held)] -= 1
        counts[rng.choice([k for k in range(34) if counts[k] < 4])] += 1
    assert sum(counts) == size - 1
    return tuple(counts), melds


def _filter_agrees(counts: tuple[int, ...], melds: int) -> tuple[bool, bool]:
    """Where the view says a hand cannot wait, the full engine finds no wait; its shanten is
    the engine's. Returns (waits asked, a special-form wait the regular shanten misses)."""
    shanten = guobiao_shanten(counts, melds)
    assert shanten == GuobiaoShape().shanten(list(counts), melds), (counts, melds)
    tiles = [t for t in range(34) for _ in range(counts[t])]
    # melds as pungs of honours the hand does not hold (a fifth copy is no hand)
    free = [t for t in range(27, 34) if not counts[t]]
    if len(free) < melds:
        return True, False
    full = frozenset(int(t) for t in waits(tiles, [("PENG", t, 1) for t in free[:melds]]))
    if shanten > 0 and not special_may_wait(counts, melds):
        assert not full, (counts, melds, sorted(full))
        return False, False
    return True, shanten > 0 and bool(full)


def test_waits_are_asked_of_every_hand_that_may_wait():
    rng = random.Random(15)
    asked = special = 0
    for i in range(4000):
        if i % 4 == 0:
            counts, melds = _near_special(rng)
        else:
            melds = rng.choice((0, 0, 0, 1, 1, 2, 3))
            counts = (_shaped_counts if i % 2 else _uniform_counts)(rng, 13 - 3 * melds)
        was_asked, special_wait = _filter_agrees(counts, melds)
        asked += was_asked
        special += special_wait
    assert special > 100  # special-form waits met and asked for
    assert asked < 3000  # most random hands are filtered out


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 10**9), melds=st.integers(0, 4), shaped=st.booleans())
def test_the_waits_filter_never_hides_a_wait(seed, melds, shaped):
    rng = random.Random(seed)
    _filter_agrees((_shaped_counts if shaped else _uniform_counts)(rng, 13 - 3 * melds), melds)


# --- Fuzhou: golds out, the formula on part masks ----------------------------------------------


def test_fuzhou_discards_equal_the_shape_one_by_one():
    from types import SimpleNamespace

    from mjstats.integrity.useful import useful_kinds
    from mjstats.rulesets.fuzhou import decisions as fuzhou_decisions

    rng = random.Random(17)
    view = view_for("fuzhou")
    assert view is not None and view.useful_after is not None
    golds_seen = set()
    for i in range(1500):
        melds = rng.choice((0, 0, 1, 2, 3, 4))
        size = 17 - 3 * melds
        counts = list((_shaped_counts if i % 2 else _uniform_counts)(rng, size))
        if i % 3 == 0:  # most Fuzhou hands hold no honour (seed profile)
            for k in range(27, 34):
                while counts[k]:
                    counts[k] -= 1
                    counts[rng.choice([j for j in range(27) if counts[j] < 4])] += 1
        gold = rng.randrange(34)
        replay = SimpleNamespace(gold=gold)
        full = tuple(counts)
        golds_seen.add(full[gold])
        kinds = [t for t in range(34) if full[t]]
        assert view.discard_shanten(replay, full, melds, kinds) == {
            t: fuzhou_decisions._fz_shanten(replay, _less(full, t), melds) for t in kinds
        }, (full, melds, gold)
        after = view.useful_after(replay, full, melds, kinds)
        for t in kinds:
            expected = useful_kinds(_less(full, t), melds, gold, "fuzhou")
            assert kinds_of(after[t]) == expected, (full, melds, gold, t)
    assert {0, 1, 2} <= golds_seen


# --- Guobiao waits as a kinds mask ---------------------------------------------------------------


def _waits_as_set(counts: tuple[int, ...], melds: tuple[tuple[str, int, int], ...]) -> frozenset[int]:
    from mjstats.errors import InvalidHand

    tiles = [t for t, n in enumerate(counts) for _ in range(n)]
    try:
        return frozenset(int(t) for t in waits(tiles, list(melds)))
    except InvalidHand:
        return frozenset()


def _random_melds(rng: random.Random, count: int) -> tuple[tuple[str, int, int], ...]:
    melds = []
    for _ in range(count):
        kind = rng.choice(("CHI", "PENG", "GANG"))
        tile = rng.randrange(1, 8) + 9 * rng.randrange(3) if kind == "CHI" else rng.randrange(34)
        melds.append((kind, tile, rng.randrange(4)))
    return tuple(melds)


def _special_near(rng: random.Random) -> tuple[int, ...]:
    """A 13-tile hand near a special form: 十三幺, 全不靠 or a knitted straight's tiles."""
    counts = [0] * 34
    form = rng.choice(("orphans", "knitted", "straight"))
    if form == "orphans":
        pool = list(TERMINALS_AND_HONOURS)
    elif form == "knitted":
        pool = [*rng.choice(KNITTED_STRAIGHTS), *range(27, 34)]
    else:
        pool = list(rng.choice(KNITTED_STRAIGHTS))
    for t in rng.sample(pool, min(13, len(pool)) - rng.randrange(2)):
        counts[t] += 1
    while sum(counts) < 13:
        t = rng.choice(pool) if rng.random() < 0.5 else rng.randrange(34)
        if counts[t] < 4:
            counts[t] += 1
    return tuple(counts)


def test_waits_mask_equals_waits_on_thousands_of_hands():
    from mjstats.rulesets.guobiao.waits import waits_mask

    rng = random.Random(41)
    waiting = 0
    for i in range(4000):
        melds = rng.choice((0, 0, 0, 1, 1, 2, 3, 4))
        if i % 5 == 0:
            counts, melds = _special_near(rng), rng.choice((0, 0, 1))
        elif i % 2:
            counts = _shaped_counts(rng, 13 - 3 * melds)
        else:
            counts = _uniform_counts(rng, 13 - 3 * melds)
        meld_tuples = _random_melds(rng, melds)
        expected = _waits_as_set(counts, meld_tuples)
        waiting += bool(expected)
        assert kinds_of(waits_mask(counts, meld_tuples)) == expected, (counts, meld_tuples)
    assert waiting > 400  # the comparison covers waiting hands, not only empty answers


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 10**9), melds=st.integers(0, 4), shaped=st.booleans())
def test_waits_mask_equals_waits(seed, melds, shaped):
    from mjstats.rulesets.guobiao.waits import waits_mask

    rng = random.Random(seed)
    counts = (_shaped_counts if shaped else _uniform_counts)(rng, 13 - 3 * melds)
    meld_tuples = _random_melds(rng, melds)
    assert kinds_of(waits_mask(counts, meld_tuples)) == _waits_as_set(counts, meld_tuples)


# --- rows as columns ------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ["guobiao", "fuzhou", "sichuan"])
def test_columns_hold_the_rows_hand_decisions_returns(ruleset):
    import dataclasses as dc

    from mjstats.decision import DecisionColumns, hand_decision_columns

    out = DecisionColumns()
    expected = []
    for hand in simulate(SimConfig(ruleset, 4, seed=31)):
        rows = hand_decisions(hand)
        assert hand_decision_columns(hand, out) == len(rows)
        expected.extend(rows)
    assert expected and len(out) == len(expected)
    assert out.rows() == expected
    columns = out.columns()
    assert list(columns) == [f.name for f in dc.fields(expected[0])]
    assert columns["flags"] == [r.flags for r in expected]


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("1112345678999m", "123456789m"),  # 九莲宝灯: every rank, 1m and 9m held three times
        ("11112222333m44p", "3m4p"),  # a kind held four times is still a wait by shape
        ("1111m2255p3366s7z", "7z"),  # 七对: four of a kind as two pairs
        ("19m19p19s1234567z", "19m19p19s1234567z"),  # 十三幺, no pair yet: all thirteen
    ],
)
def test_waits_mask_on_named_hands(hand, expected):
    from mjstats.rulesets.guobiao.waits import waits_mask
    from mjstats.tiles import parse_tiles

    counts = [0] * 34
    for t in parse_tiles(hand):
        counts[int(t)] += 1
    assert kinds_of(waits_mask(tuple(counts), ())) == frozenset(int(t) for t in parse_tiles(expected))


def test_guobiao_legal_win_of_any_discard_equals_the_shape_checked_one(sample_hands):
    """The Guobiao view's legal win of a discard leaves the shape to the judge (it asks only
    where the tile is among the waits it holds): asked of every tile at every discard of the
    Botzone sample, each opponent's answer equals ``possible_win`` with its own waits filter."""
    from mjstats.records import EventKind
    from mjstats.rulesets.guobiao.possible_win import possible_win

    view = view_for("guobiao")
    asked = shaped = 0
    for hand in [h for h in sample_hands if isinstance(h, Hand)][:6]:
        chosen = profile_for(hand)
        replay = (chosen.replay_class or HandReplay)(hand, chosen, False)
        inner = replay.handlers[EventKind.DISCARD]

        def listen(ev, replay=replay, inner=inner, hand=hand):
            inner(ev)  # the tile now lies in the river, as the judge asks of it
            nonlocal asked, shaped
            state = replay.state
            for o in range(4):
                player = state.seats[o]
                if o == ev.seat or any(player.concealed[34:]):
                    continue
                if sum(player.concealed[:34]) + 3 * len(player.melds) != 13:
                    continue
                last = state.wall.remaining((ev.seat + 1) % 4) == 0
                for t in range(34):
                    old = possible_win(
                        replay, o, t, self_drawn=False, discarder=ev.seat, kong_win=False,
                        last_tile=last,
                    )  # fmt: skip
                    expected = old is not None and old.meets_minimum
                    assert view.legal_win(replay, o, t, False, ev.seat) == expected, (hand.match_id, o, t)
                    asked += 1
                    shaped += old is not None

        replay.handlers[EventKind.DISCARD] = listen
        try:
            replay.run()
        finally:
            replay.handlers.clear()
    assert asked > 5000 and shaped, (asked, shaped)


@pytest.mark.parametrize("source", ["guobiao", "fuzhou"])
def test_the_tiles_held_the_judge_reads_equal_the_counts(source, sample_hands):
    """The judge reads a seat's tiles held from the shared table's count (``SeatState.held``)
    and its flowers, not by summing 42 counts: after every event of the Botzone sample and 40
    simulated hands of each ruleset whose judge reads that table (Sichuan's replay keeps its
    own seats: the judge sums them), every seat's count equals the sum of its concealed counts."""
    from mjstats.decision.judge import _tiles_held

    path = Path(__file__).resolve().parent.parent / "data" / "sim" / f"{source}.jsonl.gz"
    hands = [h for h in itertools.islice(read_canonical(path), 40) if isinstance(h, Hand)]
    if source == "guobiao":
        hands += [h for h in sample_hands if isinstance(h, Hand)]
    checked = 0
    for hand in hands:
        assert view_for(hand.ruleset).table is None
        chosen = profile_for(hand)
        replay = (chosen.replay_class or HandReplay)(hand, chosen, False)
        judge = _Judge(hand, replay, view_for(hand.ruleset))
        for kind, inner in list(replay.handlers.items()):

            def after(ev, inner=inner, replay=replay, judge=judge):
                nonlocal checked
                try:
                    inner(ev)
                finally:
                    for seat in range(4):
                        player = replay.state.seats[seat]
                        assert player.held == sum(player.concealed), (ev, seat)
                        counted = judge.tiles_held(seat, player.concealed)
                        assert counted == _tiles_held(player.concealed), (ev, seat)
                        checked += 1

            replay.handlers[kind] = after
        try:
            replay.run()
        finally:
            replay.handlers.clear()
    assert checked > 5000, checked
