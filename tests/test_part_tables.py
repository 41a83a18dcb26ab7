"""The part tables of ``mjstats.rulesets.guobiao.incremental`` (one int per part: its best
value for each pair and number of blocks, merged and tested cell-wise) against the part masks they
replaced (tests/part_masks_oracle.py): every function on thousands of random hands, and whole
decision tables of the bundled data (the Botzone sample and simulated hands of the three rulesets
in data/sim) judged with each, row for row."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from mjstats.decision import hand_decisions
from mjstats.formats.canonical import read_canonical
from mjstats.records import Hand
from mjstats.rulesets.guobiao import incremental
from tests import part_masks_oracle as oracle
from tests.test_decision_speed import _shaped_counts, _uniform_counts

ROOT = Path(__file__).resolve().parent.parent


def _hands(rng: random.Random, count: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """Hands of 14 - 3m tiles, mostly shaped (sets, pairs, partial sets), some uniform."""
    for i in range(count):
        melds = rng.choice((0, 0, 0, 1, 1, 2, 3, 4))
        yield (_shaped_counts if i % 3 else _uniform_counts)(rng, 14 - 3 * melds), melds


def test_guobiao_functions_equal_the_part_masks() -> None:
    rng = random.Random(73)
    waiting = 0
    for full, melds in _hands(rng, 2000):
        kinds = [t for t in range(34) if full[t]]
        left = incremental.guobiao_discard_shanten(full, melds, kinds)
        assert left == oracle.guobiao_discard_shanten(full, melds, kinds), (full, melds)
        assert incremental.guobiao_discard_shanten(full, melds, None) == left
        after = incremental.guobiao_useful_after_discards(full, melds, kinds)
        assert after == oracle.guobiao_useful_after_discards(full, melds, kinds), (full, melds)
        for t in kinds[:3]:
            hand = (*full[:t], full[t] - 1, *full[t + 1 :])
            shanten = incremental.guobiao_shanten(hand, melds)
            assert shanten == oracle.guobiao_shanten(hand, melds), (hand, melds)
            assert incremental.guobiao_useful_mask(hand, melds) == oracle.guobiao_useful_mask(hand, melds)
            waiting += shanten == 0
    assert waiting > 150  # waiting hands, where the useful kinds are the waits


@pytest.mark.parametrize("groups", [0, 1, 2, 3, 4, 5])
def test_the_formula_alone_equals_the_part_masks(groups: int) -> None:
    # Fuzhou's base: any number of sets up to 5 (16 tiles), golds taken out (fewer tiles)
    rng = random.Random(74 + groups)
    for i in range(300):
        size = max(1, 3 * groups + 2 - rng.choice((0, 0, 1, 2, 3)))
        counts = (_shaped_counts if i % 2 else _uniform_counts)(rng, size)
        kinds = [t for t in range(34) if counts[t]]
        assert incremental.formula_discards(counts, groups) == oracle.formula_discards(counts, groups)
        after = incremental.formula_useful_after(counts, groups, kinds)
        assert after == oracle.formula_useful_after(counts, groups, kinds), (counts, groups)


def test_a_fifth_copy_and_empty_parts() -> None:
    # a record's fifth copy (a draw of a kind held four times, as the waits ask) and hands with
    # whole parts empty, down to a single pair
    hands = [
        ((4, 4, 4, 2) + (0,) * 30, 0),
        ((5, 4, 4, 1) + (0,) * 30, 0),
        ((0,) * 27 + (4, 4, 4, 2, 0, 0, 0), 0),
        ((0,) * 33 + (2,), 4),
        ((0,) * 9 + (1, 1) + (0,) * 23, 4),
    ]
    for full, melds in hands:
        kinds = [t for t in range(34) if full[t]]
        assert incremental.guobiao_discard_shanten(full, melds, kinds) == oracle.guobiao_discard_shanten(
            full, melds, kinds
        )
        assert incremental.guobiao_useful_after_discards(
            full, melds, kinds
        ) == oracle.guobiao_useful_after_discards(full, melds, kinds)


# --- whole decision tables -------------------------------------------------------------------------

# where the judge's views (and the waits, the shapes) take the incremental functions from
_USERS = (
    "mjstats.rulesets.guobiao.decisions",
    "mjstats.rulesets.guobiao.waits",
    "mjstats.rulesets.guobiao.shape",
    "mjstats.rulesets.sichuan.decisions",
    "mjstats.rulesets.fuzhou.decisions",
)
_FUNCTIONS = (
    "guobiao_discard_shanten",
    "guobiao_shanten",
    "guobiao_useful",
    "guobiao_useful_after_discards",
    "guobiao_useful_mask",
    "formula_discards",
    "formula_useful_after",
)


def _clear_caches() -> None:
    """Forget every answer memoised on top of the incremental functions (the waits of a hand,
    Sichuan's shanten by void suit), so that each judge computes its own."""
    import importlib

    for name in (*_USERS, "mjstats.rulesets.guobiao.possible_win"):
        module = importlib.import_module(name)
        for value in vars(module).values():
            clear = getattr(value, "cache_clear", None)
            if callable(clear):
                clear()


def _bundled_hands() -> list[Hand]:
    from tests.test_replay_oracle import sample_hands

    hands = list(sample_hands())
    for ruleset in ("guobiao", "fuzhou", "sichuan"):
        records = itertools.islice(read_canonical(ROOT / "data" / "sim" / f"{ruleset}.jsonl.gz"), 60)
        hands += [h for h in records if isinstance(h, Hand)]
    return hands


def test_the_decisions_of_the_bundled_data_equal_the_part_masks(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    hands = _bundled_hands()
    _clear_caches()
    tables = [hand_decisions(hand) for hand in hands]
    asked: list[str] = []

    def counted(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            asked.append(name)
            return function(*args)

        return call

    for name in _USERS:
        module = importlib.import_module(name)
        for function in _FUNCTIONS:
            if hasattr(module, function):
                monkeypatch.setattr(module, function, counted(function, getattr(oracle, function)))
    _clear_caches()
    try:
        masks = [hand_decisions(hand) for hand in hands]
    finally:
        monkeypatch.undo()
        _clear_caches()
    # the masks answered the judge of every ruleset (the view's, the waits' and Fuzhou's calls)
    assert {"guobiao_discard_shanten", "guobiao_useful_mask", "formula_discards"} <= set(asked)
    assert {h.ruleset for h in hands} == {"guobiao", "fuzhou", "sichuan"}
    assert sum(map(len, tables)) > 10_000
    for hand, rows, expected in zip(hands, tables, masks, strict=True):
        assert rows == expected, (hand.ruleset, hand.match_id, hand.hand_no)


def _run_code(block: tuple[int, ...]) -> int:
    return sum(n << (4 * r) for r, n in enumerate(block))


def test_run_tables_equal_the_engine_decompositions() -> None:
    """A block's table computed by the compiled recursion (``_run_table``) against the table of
    ``rules.hand``'s Pareto options (``_table_of(_suit_options(...))``, what it replaced): every
    run of up to 5 ranks, then random runs of 6 to 9 ranks, with up to 17 tiles (a Fuzhou hand
    and a draw)."""
    from mjstats.rules.hand import _suit_options

    blocks = [
        b
        for n in range(1, 6)
        for b in itertools.product(range(5), repeat=n)
        if b[0] and b[-1] and sum(b) <= 17
    ]
    rng = random.Random(17)
    while len(blocks) < 6000:
        run = [rng.randint(0, 4) for _ in range(rng.randint(6, 9))]
        run[0], run[-1] = run[0] or 1, run[-1] or 3
        if sum(run) <= 17:
            blocks.append(tuple(run))
    for block in blocks:
        expected = incremental._table_of(_suit_options(block, True))
        assert incremental._run_table(_run_code(block)) == expected, block
    incremental._RUNS.clear()  # the memo filled in another order gives the same tables
    assert [incremental._run_table(_run_code(b)) for b in reversed(blocks)] == [
        incremental._table_of(_suit_options(b, True)) for b in reversed(blocks)
    ]


def _random_key(rng: random.Random) -> int:
    """A part's key: a suit's counts of up to 8 tiles (4 bits a rank), or the honours'."""
    counts = [0] * 9
    for _ in range(rng.randint(0, 8)):
        r = rng.randrange(9)
        if counts[r] < 4:
            counts[r] += 1
    if rng.random() < 0.25:
        key = sum(n << (4 * r) for r, n in enumerate(counts[:7]))
        return key | incremental._HONOURS_KEY if key else 0
    return sum(n << (4 * r) for r, n in enumerate(counts))


def test_merges_thresholds_and_part_slots_equal_the_former_ones() -> None:
    """The merge's masks made by shifts (``_merged``), the thresholds of a draw (``_reach``,
    ``_tops``) against the tuples of constants they replaced (tests/part_masks_oracle.py), on
    the tables of random parts and of their merges; a part found through its slot is the
    part of its key, whichever key held the slot before."""
    rng = random.Random(8)
    tables = [incremental._table(_random_key(rng)) for _ in range(400)]
    for groups in range(6):
        assert incremental._tops(groups) == oracle._TOPS[groups]
        for a, b in zip(tables, reversed(tables), strict=True):
            ab = incremental._merged(a, b, groups)
            assert ab == oracle.merged_tables(a, b, groups), (a, b, groups)
            c = tables[rng.randrange(len(tables))]
            assert incremental._merged(ab, c, groups) == oracle.merged_tables(ab, c, groups)
    for t in range(1, 13):
        assert incremental._reach(t) == oracle._REACH[t]
    # keys sharing a slot (the fold of a key equal): each asked in turn gets its own part
    slot = 1 << (2 * incremental._SLOT_BITS)
    for key in (0x111, 0x111 | slot | 1 << incremental._SLOT_BITS, 0x111, 0x3 | incremental._HONOURS_KEY):
        part = incremental._part(key)
        assert part.key == key and part.table == incremental._table(key)
        assert incremental._part(key) is part
