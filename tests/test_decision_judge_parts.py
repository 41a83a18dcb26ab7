"""The judge's bookkeeping shortcuts against the computations they replaced (kept here as
oracles): the counts compared as lists (``_one_more``), the answers to discards kept only for
discards answered (``_responses``), the flags as bits and their texts, on random values and on
every discard of the Botzone sample and bundled simulated hands of each ruleset."""

from __future__ import annotations

import dataclasses
import itertools
import random
from pathlib import Path

import pytest

from mjstats.decision.judge import _FLAG_TEXTS, FLAGS, _one_more, _responses, _unseen_of
from mjstats.formats.canonical import read_canonical
from mjstats.records import EventKind, Hand

DATA = Path(__file__).resolve().parent.parent / "data" / "sim"
_RESPONSES = frozenset({EventKind.CHI, EventKind.PENG, EventKind.GANG, EventKind.HU, EventKind.IGNORED})


def _old_one_more(fewer: tuple[int, ...], more: tuple[int, ...], kind: int) -> bool:
    """The loop ``_one_more`` was: every kind compared, one more copy of ``kind``."""
    if len(fewer) != len(more):
        return False
    return all(more[k] == fewer[k] + (1 if k == kind else 0) for k in range(len(fewer)))


def _old_responses(hand: Hand) -> dict[int, dict[int, EventKind]]:
    """``_responses`` as it was: an entry (maybe empty) for every discard, the last one of a seq."""
    out: dict[int, dict[int, EventKind]] = {}
    events = hand.events
    for i, ev in enumerate(events):
        if ev.kind is not EventKind.DISCARD:
            continue
        answered: dict[int, EventKind] = {}
        j = i + 1
        while j < len(events) and events[j].kind in _RESPONSES:
            nxt = events[j]
            if nxt.seat is not None and nxt.seat not in answered:
                answered[nxt.seat] = nxt.kind
            j += 1
        out[ev.seq] = answered
    return out


def test_one_more_equals_the_loop_on_random_counts():
    rng = random.Random(17)
    same = 0
    for _ in range(20000):
        fewer = tuple(rng.randrange(5) for _ in range(34))
        kind = rng.randrange(-2, 37)
        more = list(fewer)
        roll = rng.random()
        if 0 <= kind < 34 and roll < 0.5:
            more[kind] += 1
        elif roll < 0.7:
            more[rng.randrange(34)] += rng.choice((-1, 1, 2))
        if rng.random() < 0.05:
            more = more[:33]
        expected = _old_one_more(fewer, tuple(more), kind)
        assert _one_more(fewer, tuple(more), kind) == expected, (fewer, more, kind)
        same += expected
    assert same > 5000


@pytest.mark.parametrize("source", ["guobiao", "fuzhou", "sichuan"])
def test_responses_read_as_before(source, sample_hands):
    """Every discard's answers as the old table read them (``.get(seq, {})``): the same."""
    records = itertools.islice(read_canonical(DATA / f"{source}.jsonl.gz"), 200)
    hands = [h for h in records if isinstance(h, Hand)]
    if source == "guobiao":
        hands += [h for h in sample_hands if isinstance(h, Hand)]
    answered = 0
    for hand in hands:
        new, old = _responses(hand), _old_responses(hand)
        for ev in hand.events:
            if ev.kind is EventKind.DISCARD:
                assert new.get(ev.seq, {}) == old.get(ev.seq, {}), (hand.match_id, ev.seq)
                answered += bool(new.get(ev.seq))
        assert all(new.values())  # no empty dict kept
    assert answered > 100


def test_a_seq_met_again_keeps_the_last_discards_answers(sample_hands):
    """A broken record repeating a seq: the last discard's answers, as before (none here)."""
    from mjstats.records import Event

    events = (
        Event(1, EventKind.DISCARD, 0, 5),
        Event(2, EventKind.PENG, 1, 5),
        Event(1, EventKind.DISCARD, 2, 7),
        Event(3, EventKind.DRAW, 3, 8),
    )
    hand = dataclasses.replace(next(h for h in sample_hands if isinstance(h, Hand)), events=events)
    assert _responses(hand).get(1, {}) == _old_responses(hand)[1] == {}


def test_flag_texts_are_the_sorted_names():
    for bits in range(1 << len(FLAGS)):
        names = {FLAGS[i] for i in range(len(FLAGS)) if bits >> i & 1}
        assert _FLAG_TEXTS[bits] == ",".join(sorted(names))


def test_unseen_of_equals_the_sum_over_the_kinds():
    """The unseen copies of a kinds mask (zero bytes of it passed in one step) equal the sum."""
    rng = random.Random(23)
    for _ in range(5000):
        unseen = [rng.randrange(5) for _ in range(34)]
        mask = 0
        for k in rng.sample(range(34), rng.randrange(35)):
            mask |= 1 << k
        assert _unseen_of(mask, unseen) == sum(unseen[k] for k in range(34) if mask >> k & 1)
