"""The audit metrics' additive counters per group (fan_mismatch_rate, fan_disagreement), summed
part file by part file.

Each part is scanned (the base scan: group keys, recorded wins and fans) and given the audit's
rows of its hands (computed_wins, computed_fans: :class:`part_rows.RowsByPart`, the audit writes
them in the dataset's order). The part is reduced at once to counters per group and its rows
dropped, so what is kept grows with the groups, never with the hands; the metrics grouped from
them are the ones the per-hand join (``fans.fan_mismatch_rate(..., per_hand=True)``) gives,
digit for digit. When the audit's rows do not line up with the parts (written out of order, or
holding hands the dataset does not), :func:`audit_counts` says so and the metrics are computed
per hand.

Frames (keys: the group keys of the winner's seat row, plus the named ones):

- ``mismatch``: audited wins with both fan totals, those whose totals differ, seat-hands;
- ``disagreement`` (+ fan): per win (audited, recorded) and fan name either side lists, the
  pairs, those whose counts differ, those only recorded, those only computed.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from mjstats.stats.grouping import GROUP_KEYS
from mjstats.stats.part_rows import KEY, RowsByPart, derived_files, reported_parts
from mjstats.stats.part_sums import Columns, Layout, summed_parts, table_sums
from mjstats.stats.parts import DatasetLike, as_dataset, int_column
from mjstats.stats.tables import cached_per_version, key_strings, scan_one_part, scan_parts_in_order
from mjstats.store import Dataset

__all__ = ["AUDITED_WINS", "AUDIT_METRICS", "audit_counts"]

AUDITED_WINS = "computed_wins"
_I = np.int64
LAYOUT: Layout = {
    "mismatch": ((), {"wins": _I, "differ": _I, "hands": _I}),
    "disagreement": (("fan",), {"fan": object, "one": _I, "differ": _I, "recorded_only": _I,
                                "computed_only": _I}),
}  # fmt: skip
AUDIT_METRICS = ("fan_mismatch_rate", "fan_disagreement")  # the metrics read from these counters
_UNKNOWN_WINNER = -2  # a fans file written before several wins per hand: the hand's first win's


def audit_counts(
    ds: DatasetLike, progress: Callable[[int], None] | None = None
) -> dict[str, pd.DataFrame] | None:
    """The audit metrics' counters of a dataset's live version (built once per version, then
    cached); None when the audit has not run or its rows do not line up with the dataset's
    parts (the metrics are then computed per hand). ``progress(hands)`` reports the scan."""
    dataset = as_dataset(ds)
    if not dataset.has_table(AUDITED_WINS):
        return None
    return cached_per_version("audit_counts", dataset, lambda: _build(dataset, progress))


def _read_wins(batch: pa.RecordBatch, _names: list[str]) -> pa.Table:
    return pa.table({
        "match_id": batch["match_id"], "hand_no": batch["hand_no"],
        "winner": pc.cast(batch["winner"], pa.int64()),
        "fan_total": pc.cast(batch["fan_total"], pa.float64()),
        "recorded_fan_total": pc.cast(batch["recorded_fan_total"], pa.float64()),
    })  # fmt: skip


def _read_fans(batch: pa.RecordBatch, names: list[str]) -> pa.Table:
    winner = (pc.cast(batch["winner"], pa.int64()) if "winner" in names
              else pa.array(np.full(batch.num_rows, _UNKNOWN_WINNER, np.int64)))
    return pa.table({"match_id": batch["match_id"], "hand_no": batch["hand_no"], "winner": winner,
                     "name": pc.cast(batch["name"], pa.string()),
                     "count": pc.cast(batch["count"], pa.int64())})


def _build(ds: Dataset, progress: Callable[[int], None] | None) -> dict[str, pd.DataFrame] | None:
    wins = RowsByPart(derived_files(ds, AUDITED_WINS), _read_wins)
    fans = RowsByPart(derived_files(ds, "computed_fans"), _read_fans)
    partials = (_part_counts(scanned, wins.take(scanned[4]), fans.take(scanned[4]))
                for scanned in reported_parts(scan_parts_in_order(ds, _scan), progress))
    counts = summed_parts(partials, LAYOUT)
    if not (wins.in_order() and fans.in_order()):
        return None
    fan = counts["disagreement"]["fan"]  # typed as the per-hand rows' fan names (sorted categories)
    counts["disagreement"]["fan"] = pd.Categorical(fan, categories=pd.Index(sorted(set(fan)), dtype="str"))
    return counts


_Scanned = tuple[int, Columns, np.ndarray, Columns, pa.Array]


def _scan(ds: Dataset, ruleset: str, period: str, part: str) -> _Scanned:
    """One part's group keys, winners and recorded fans (a scan thread's task)."""
    n, _hands, seat_frames, fan_frames, keys, _drawn = scan_one_part(ds, ruleset, period, part)
    if n == 0:
        return 0, {}, np.zeros(0, bool), {}, pa.array([], pa.string())
    seats = {name: values[0] for name, values in seat_frames.cols.items()}
    recorded = {name: values[0] for name, values in fan_frames.cols.items()}
    return (n, {k: seats[k] for k in GROUP_KEYS}, np.asarray(seats["win"], dtype=bool), recorded,
            key_strings(keys[0]))


def _slots(hand: np.ndarray, winner: np.ndarray) -> np.ndarray:
    """A win's slot, hand * 4 + winner seat (-1 where the seat is unknown)."""
    return np.where((winner >= 0) & (winner < 4), hand * 4 + winner, -1)


def _hands_of(rows: pa.Table | None, hand_keys: pa.Array) -> np.ndarray:
    """Per row, its hand's position in the part (every row handed out is a hand of the part)."""
    if rows is None or rows.num_rows == 0:
        return np.zeros(0, np.int64)
    return pc.index_in(rows.column(KEY), value_set=hand_keys).to_numpy(zero_copy_only=False).astype(np.int64)


def _part_counts(scanned: _Scanned, wins: pa.Table | None,
                 fans: pa.Table | None) -> tuple[int, dict[str, pd.DataFrame] | None]:
    """One part's audit rows reduced to counters by the group keys of the winner's seat row."""
    n, keys, win, recorded, hand_keys = scanned
    if n == 0 or (wins is None and fans is None):
        return n, None
    if wins is None:  # computed fans without a computed win: counted all the same (per hand too)
        wins = pa.table({KEY: pa.array([], pa.string()), "winner": pa.array([], pa.int64()),
                         "fan_total": pa.array([], pa.float64()),
                         "recorded_fan_total": pa.array([], pa.float64())})
    w_hand = _hands_of(wins, hand_keys)
    w_winner = int_column(wins, "winner", -1)
    w_slot = _slots(w_hand, w_winner)
    fan_total = wins.column("fan_total").to_numpy(zero_copy_only=False).astype(float)
    recorded_total = wins.column("recorded_fan_total").to_numpy(zero_copy_only=False).astype(float)
    won = np.zeros(len(w_slot), dtype=bool)  # the seat won per the record: its row is a winner's
    won[w_slot >= 0] = win[w_slot[w_slot >= 0]]
    both = won & ~np.isnan(fan_total) & ~np.isnan(recorded_total)
    at = w_slot[both]
    ones = np.ones(len(at), np.int64)
    out = {"mismatch": table_sums({**{k: v[at] for k, v in keys.items()}, "wins": ones,
                                   "differ": (fan_total[both] != recorded_total[both]).astype(np.int64),
                                   "hands": ones})}
    out["disagreement"] = _disagreement(n, keys, win, recorded, w_hand, w_winner, w_slot,
                                        fans, hand_keys)
    return n, out


def _disagreement(n: int, keys: Columns, win: np.ndarray, recorded: Columns, w_hand: np.ndarray,
                  w_winner: np.ndarray, w_slot: np.ndarray, fans: pa.Table | None,
                  hand_keys: pa.Array) -> pd.DataFrame:
    """Per (audited win, fan) listed by the record or the audit: counts compared."""
    from mjstats.stats.fans import fan_count_pairs

    audited = np.zeros(4 * n, dtype=bool)
    audited[w_slot[w_slot >= 0]] = True
    # the record's fans of audited wins
    if recorded:
        r_slot = np.asarray(recorded["slot"], dtype=np.int64)
        r_name = recorded["name"]
        r_names = np.asarray(r_name.categories, dtype=object)
        r_code = np.asarray(r_name.codes, dtype=np.int64)
        r_count = np.asarray(recorded["count"], dtype=np.int64)
        mine = (r_slot >= 0) & audited[np.maximum(r_slot, 0)]
        r_slot, r_code, r_count = r_slot[mine], r_code[mine], r_count[mine]
    else:
        r_names = np.zeros(0, dtype=object)
        r_slot = r_code = r_count = np.zeros(0, np.int64)
    # the audit's fans; a winner unknown in old files is the hand's first computed win's
    c_hand = _hands_of(fans, hand_keys)
    if len(c_hand):
        c_winner = int_column(fans, "winner", -1)
        unknown = c_winner == _UNKNOWN_WINNER
        if unknown.any():
            winner_of_hand = np.full(n, -1, dtype=np.int64)
            winner_of_hand[w_hand[::-1]] = w_winner[::-1]
            c_winner[unknown] = winner_of_hand[c_hand[unknown]]
        c_slot = _slots(c_hand, c_winner)
        encoded = pc.dictionary_encode(fans.column("name").combine_chunks())
        c_names = np.asarray(encoded.dictionary.to_pylist(), dtype=object)
        c_code = pc.fill_null(encoded.indices, -1).to_numpy(zero_copy_only=False).astype(np.int64)
        c_count = int_column(fans, "count", 1)
        keep = c_slot >= 0
        c_slot, c_code, c_count = c_slot[keep], c_code[keep], c_count[keep]
    else:
        c_names = np.zeros(0, dtype=object)
        c_slot = c_code = c_count = np.zeros(0, np.int64)
    # one name code space for both sides (-1, no name, stays -1 and is dropped)
    names = np.asarray(sorted({*r_names.tolist(), *c_names.tolist()}), dtype=object)
    index = {name: i for i, name in enumerate(names)}
    r_lut = np.array([*(index[x] for x in r_names), -1], dtype=np.int64)
    c_lut = np.array([*(index[x] for x in c_names), -1], dtype=np.int64)
    width = max(len(names), 1)
    pairs, rec, com = fan_count_pairs((r_slot, r_lut[r_code], r_count), (c_slot, c_lut[c_code], c_count),
                                      width)
    slot = pairs // width
    won = win[slot] if len(slot) else np.zeros(0, dtype=bool)  # the record's winner's seat row
    rec, com, slot = rec[won], com[won], slot[won]
    return table_sums({
        **{k: v[slot] for k, v in keys.items()},
        "fan": names[(pairs % width)[won]] if len(slot) else np.zeros(0, dtype=object),
        "one": np.ones(len(slot), np.int64),
        "differ": (rec != com).astype(np.int64),
        "recorded_only": ((rec > 0) & (com == 0)).astype(np.int64),
        "computed_only": ((com > 0) & (rec == 0)).astype(np.int64),
    }, ("fan",))
