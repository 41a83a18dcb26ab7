"""The discards of one turn judged together (``incremental._Hand``: a discard leaving its part's
table as it was shares the hand's per-part values and useful kinds) against the per-discard
computation kept as the oracle (tests/decision_oracle.py: each discard's hand taken apart on
its own, each draw tried), on every hand the judge meets in the Botzone sample and simulated
Guobiao hands: every held kind's shanten and useful kinds, asked in the judge's order (every
discard's shanten, then some discards' useful kinds) and in others."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

from mjstats.decision.view import kinds_of
from mjstats.formats.canonical import read_canonical
from mjstats.records import EventKind, Hand
from mjstats.replay.replayer import HandReplay, profile_for
from mjstats.rulesets.guobiao import incremental
from tests.decision_oracle import oracle_discard_shanten, oracle_useful
from tests.test_replay_oracle import sample_hands

ROOT = Path(__file__).resolve().parent.parent


def _positions(hand: Hand) -> list[tuple[tuple[int, ...], int]]:
    """The discarder's 34 counts and melds at each discard of ``hand`` (a playing-size hand of
    14 - 3m tiles, no flower), read from the replay as the judge reads it."""
    chosen = profile_for(hand)
    replay = (chosen.replay_class or HandReplay)(hand, chosen, False)
    found: list[tuple[tuple[int, ...], int]] = []
    inner = replay.handlers[EventKind.DISCARD]

    def listen(ev):  # the hand before the discard, then the replay's own handler
        if ev.seat is not None and 0 <= ev.seat < 4:
            player = replay.state.seats[ev.seat]
            concealed = list(player.concealed)
            melds = len(player.melds)
            if not any(concealed[34:]) and sum(concealed[:34]) + 3 * melds == 14 and max(concealed) <= 4:
                found.append((tuple(concealed[:34]), melds))
        inner(ev)

    replay.handlers[EventKind.DISCARD] = listen
    try:
        replay.run()
    finally:
        replay.handlers.clear()
    return found


def _hands() -> list[Hand]:
    records = itertools.islice(read_canonical(ROOT / "data" / "sim" / "guobiao.jsonl.gz"), 25)
    return [*sample_hands(), *(h for h in records if isinstance(h, Hand))]


def _unchanged(counts: tuple[int, ...], t: int) -> bool:
    """Whether discarding ``t`` leaves its part's table as it was (the shared path)."""
    p = 3 if t >= 27 else t // 9
    part = incremental._part(incremental._part_keys(counts)[p])
    return part.after_discard(t - 9 * p).table == part.table


def test_shared_discards_equal_the_per_discard_oracle() -> None:
    rng = random.Random(5)
    positions = [pos for hand in _hands() for pos in _positions(hand)]
    assert len(positions) > 1500
    shared = changed = 0
    for counts, melds in positions:
        kinds = [t for t in range(34) if counts[t]]
        expected = oracle_discard_shanten(counts, melds, kinds)
        incremental._LAST.clear()  # the hand taken apart afresh for each order of questions
        assert incremental.guobiao_discard_shanten(counts, melds, None) == expected, (counts, melds)
        # the judge's order: the best discards' useful kinds; then every kind, shuffled
        best = min(expected.values())
        candidates = [t for t in kinds if expected[t] == best]
        asked = incremental.guobiao_useful_after_discards(counts, melds, candidates)
        rng.shuffle(kinds)
        asked_all = incremental.guobiao_useful_after_discards(counts, melds, kinds)
        for t in kinds:
            left = (*counts[:t], counts[t] - 1, *counts[t + 1 :])
            useful = oracle_useful(left, melds)
            assert kinds_of(asked_all[t]) == useful, (counts, melds, t)
            if t in asked:
                assert kinds_of(asked[t]) == useful, (counts, melds, t)
            if _unchanged(counts, t):
                shared += 1
            else:
                changed += 1
    # both paths ran on many discards (the shared one is most of the best discards in play)
    assert shared > 5000 and changed > 5000, (shared, changed)


def test_turn_in_one_pass_equals_the_per_discard_oracle() -> None:
    """``guobiao_turn`` (the judge's one call a turn: every discard's shanten, the best ones and
    their useful kinds, from the parts' chains of links) against the per-discard oracle, on a
    hand taken apart afresh and on one the engine just took apart for other questions."""
    positions = [pos for hand in _hands() for pos in _positions(hand)]
    assert len(positions) > 1500
    kinds_seen = 0
    for i, (counts, melds) in enumerate(positions):
        kinds = [t for t in range(34) if counts[t]]
        expected = oracle_discard_shanten(counts, melds, kinds)
        if i % 2:
            incremental._LAST.clear()
        else:  # the hand already taken apart (its useful kinds of one kind asked first)
            incremental.guobiao_useful_after_discards(counts, melds, kinds[-1:])
        best, after, candidates, useful = incremental.guobiao_turn(counts, melds)
        assert best == min(expected.values())
        assert after == [expected.get(t, 99) for t in range(34)], (counts, melds)
        assert candidates == [t for t in kinds if expected[t] == best]
        for t in range(34):
            if t in candidates:
                left = (*counts[:t], counts[t] - 1, *counts[t + 1 :])
                assert kinds_of(useful[t]) == oracle_useful(left, melds), (counts, melds, t)
                kinds_seen += 1
            else:
                assert useful[t] == -1
    assert kinds_seen > 5000, kinds_seen
