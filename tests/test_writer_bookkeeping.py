"""The ingest's per-batch bookkeeping (duplicate keys, matches) against the hand-by-hand loop it
replaced, on random batches with repeated keys, runs of one match and matches across batches."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mjstats.store.batches import HandInfo
from mjstats.store.hand_keys import hand_key
from mjstats.store.writer import _closed_matches, _new_hands


def _info(match_id: str, hand_no: int, ruleset: str) -> HandInfo:
    return HandInfo(match_id, hand_no, ruleset, "undated", "p", ("",) * 4, None, "s", 1, 10, 1, False, None)


def _loop(batches: list[list[HandInfo]], seen: set[int]) -> tuple[list, list, list]:
    """The loop of mjstats before: each hand's key checked and added, matches closed one by one."""
    kept, dropped, closed, match = [], [], [], []
    for hands in batches:
        for info in hands:
            key = hand_key(info.match_id, info.hand_no)
            if key in seen:
                dropped.append(info)
                continue
            seen.add(key)
            kept.append(info)
            if match and match[0].match_id == info.match_id:
                match[1] += 1
            else:
                if match:
                    closed.append((match[0], match[1]))
                match[:] = (info, 1)
    return kept, dropped, [*closed, tuple(match)] if match else closed


_HANDS = st.lists(
    st.tuples(st.sampled_from("abc"), st.integers(0, 3), st.sampled_from(["guobiao", "fuzhou"])),
    max_size=12,
)


@given(st.lists(_HANDS, max_size=5), st.sets(st.tuples(st.sampled_from("abcd"), st.integers(0, 3))))
def test_batches_keep_drop_and_group_as_the_hand_loop(batches, before):
    infos = [[_info(*h) for h in hands] for hands in batches]
    seen_a = {hand_key(*k) for k in before}
    seen_b = set(seen_a)
    expected = _loop(infos, seen_a)
    kept, dropped, closed, match = [], [], [], []
    for hands in infos:
        k, d = _new_hands(hands, seen_b)
        kept += k
        dropped += d
        closed += _closed_matches(k, match)
    if match:
        closed.append(tuple(match))
    assert (kept, dropped, closed) == expected
    assert seen_b == seen_a
