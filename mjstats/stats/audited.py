"""The audit's computed tables (computed_wins, computed_fans) as arrays keyed by hand id.

The audit writes its tables in part files of its own (about 50,000 hands each), keyed by
``(match_id, hand_no)``, not by the statistics' hand ids. They are read here one file at a time
and only numbers leave each file: hand ids, winners, totals, fan-name codes and counts. No
join over the whole dataset's text keys is ever held in memory (at a million hands that join
alone took ~900 MB).

Finding a row's hand: rows of one hand are consecutive, so each run of rows is looked up once,
first among the hands just after the previous file's last one (the audit writes in the
dataset's part order, so that window almost always holds them), then, if any is missing, among
all hands. The lookup is exact either way; the window only makes it cheap.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as pads

from mjstats.stats.parts import int_column
from mjstats.stats.tables import Base, key_strings, release_free_memory
from mjstats.store import Dataset

__all__ = ["Audited", "HandLookup", "audited_tables"]


@dataclass(frozen=True)
class Audited:
    """computed_wins and computed_fans rows whose hand is in the dataset, by hand id."""

    win_hand: np.ndarray  # int64 hand id per computed win
    winner: np.ndarray  # int8 seat (-1 unknown)
    win_slot: np.ndarray  # int64 hand id * 4 + winner per computed win (-1: winner unknown)
    fan_total: np.ndarray  # float: computed fan total (NaN when not computed)
    recorded_fan_total: np.ndarray  # float: the record's total as the audit read it
    fan_hand: np.ndarray  # int64 hand id per computed fan row
    fan_slot: np.ndarray  # int64 hand id * 4 + winner per computed fan row (a hand may have several wins)
    fan_name: pd.Categorical  # fan name per computed fan row
    fan_count: np.ndarray  # int64 count per computed fan row


class HandLookup:
    """Hand ids of rows keyed by ``(match_id, hand_no)`` strings (see module doc)."""

    def __init__(self, keys: pa.Array) -> None:
        self.keys = keys
        self.next = 0  # where the previous lookup's last hand was, plus one

    def positions(self, probe: pa.Array) -> np.ndarray:
        """Per probe key, its hand id, or -1 when no hand has that key."""
        n = len(probe)
        if n == 0:
            return np.zeros(0, dtype=np.int64)
        starts = np.zeros(1, dtype=np.int64)
        if n > 1:
            change = pc.not_equal(probe.slice(1), probe.slice(0, n - 1)).to_numpy(zero_copy_only=False)
            starts = np.concatenate([starts, np.flatnonzero(change) + 1])
        runs = probe.take(pa.array(starts))
        width = 4 * len(runs) + 1024
        found = pc.index_in(runs, value_set=self.keys.slice(self.next, width))
        offset = self.next
        if found.null_count:
            found, offset = pc.index_in(runs, value_set=self.keys), 0
        where = pc.fill_null(found, -1).to_numpy(zero_copy_only=False).astype(np.int64)
        hit = where >= 0
        where[hit] += offset
        if hit.any():
            self.next = int(where[hit].max()) + 1
        return np.repeat(where, np.diff(np.append(starts, n)))


def _files(ds: Dataset, table: str) -> list[pads.Fragment]:
    if not ds.has_table(table):
        return []
    dataset = pads.dataset(ds.path / table, format="parquet", partitioning="hive")
    return sorted(dataset.get_fragments(), key=lambda f: f.path)


def _joined(parts: list[np.ndarray], dtype: type) -> np.ndarray:
    return np.concatenate(parts).astype(dtype, copy=False) if parts else np.zeros(0, dtype)


def _slots(hand: np.ndarray, winner: np.ndarray) -> np.ndarray:
    """A win's slot, hand id * 4 + winner seat (-1 where the seat is unknown)."""
    seat = winner.astype(np.int64)
    return np.where((seat >= 0) & (seat < 4), hand * 4 + seat, -1)


def audited_tables(ds: Dataset, base: Base) -> Audited | None:
    """The audit's results for the hands of ``base``, or None when the audit has not run."""
    if not ds.has_table("computed_wins"):
        return None
    keys = key_strings(base.keys)
    lookup = HandLookup(keys)
    wins: dict[str, list[np.ndarray]] = {"hand": [], "winner": [], "fan_total": [], "recorded": []}
    for fragment in _files(ds, "computed_wins"):
        t = fragment.to_table(columns=["match_id", "hand_no", "winner", "fan_total", "recorded_fan_total"])
        hand = lookup.positions(key_strings(t))
        ok = hand >= 0
        wins["hand"].append(hand[ok])
        wins["winner"].append(int_column(t, "winner", -1).astype(np.int8)[ok])
        wins["fan_total"].append(pc.cast(t["fan_total"], pa.float64()).to_numpy(zero_copy_only=False)[ok])
        wins["recorded"].append(
            pc.cast(t["recorded_fan_total"], pa.float64()).to_numpy(zero_copy_only=False)[ok])
    lookup = HandLookup(keys)
    fan_hand: list[np.ndarray] = []
    fan_winner: list[np.ndarray] = []
    fan_count: list[np.ndarray] = []
    fan_name: list[pd.Categorical] = []
    for fragment in _files(ds, "computed_fans"):
        # audit tables written before several wins per hand have no winner column: a fan
        # row is then the winner's of its hand's (one) computed win
        has_winner = "winner" in fragment.physical_schema.names
        t = fragment.to_table(columns=["match_id", "hand_no", *(["winner"] if has_winner else []),
                                       "name", "count"])
        hand = lookup.positions(key_strings(t))
        ok = hand >= 0
        fan_hand.append(hand[ok])
        unknown = np.full(int(ok.sum()), -2, np.int64)  # -2: the winner is looked up below
        fan_winner.append(int_column(t, "winner", -1)[ok] if has_winner else unknown)
        fan_count.append(int_column(t, "count", 1)[ok])
        names = pc.dictionary_encode(t["name"].combine_chunks())
        codes = pc.fill_null(names.indices, -1).to_numpy(zero_copy_only=False).astype(np.int32)[ok]
        fan_name.append(pd.Categorical.from_codes(codes, categories=pd.Index(names.dictionary.to_pylist(),
                                                                             dtype="str")))

    categories = pd.Index(sorted({c for p in fan_name for c in p.categories}), dtype="str")
    codes = [np.append(categories.get_indexer(p.categories), -1)[p.codes] for p in fan_name]  # -1 stays -1
    name = pd.Categorical.from_codes(_joined(codes, np.int32), categories=categories)
    win_hand = _joined(wins["hand"], np.int64)
    winner = _joined(wins["winner"], np.int8)
    fans_hand = _joined(fan_hand, np.int64)
    fans_winner = _joined(fan_winner, np.int64)
    unknown = fans_winner == -2
    if unknown.any():
        winner_of_hand = np.full(len(base.hands), -1, dtype=np.int64)
        winner_of_hand[win_hand[::-1]] = winner[::-1]  # the first computed win of each hand
        fans_winner[unknown] = winner_of_hand[fans_hand[unknown]]
    audited = Audited(
        win_hand=win_hand,
        winner=winner,
        win_slot=_slots(win_hand, winner),
        fan_total=_joined(wins["fan_total"], np.float64),
        recorded_fan_total=_joined(wins["recorded"], np.float64),
        fan_hand=fans_hand,
        fan_slot=_slots(fans_hand, fans_winner),
        fan_name=name,
        fan_count=_joined(fan_count, np.int64),
    )
    release_free_memory()  # the files' Arrow buffers and key strings are gone
    return audited
