"""Fan metrics: how often each fan appears in wins, which fans go together (lift), the
distribution of fan totals, and where recorded fans differ from the audit's computed ones.

A win is keyed by its slot, ``hand_id * 4 + winner`` (the winner's seat row): a hand with
several winners has several wins, each with its own fans."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import pairwise

import numpy as np
import pandas as pd

from mjstats.stats.audit_counts import audit_counts
from mjstats.stats.audited import Audited, audited_tables
from mjstats.stats.group_counts import group_counts, pair_counts
from mjstats.stats.grouping import normalize_by, rate_rows
from mjstats.stats.intervals import wilson_arrays
from mjstats.stats.parts import sorted_by
from mjstats.stats.tables import Base, DatasetLike, as_dataset, base_tables, cached_per_version

__all__ = [
    "COMPUTE",
    "fan_count_pairs",
    "fan_disagreement",
    "fan_frequencies",
    "fan_lift",
    "fan_mismatch_rate",
    "fan_total_distribution",
]  # fmt: skip


def _fan_group(ds: DatasetLike, by: Iterable[str] | str | None) -> list[str]:
    """Requested keys, with ``ruleset`` first when the dataset mixes rulesets: fan names are
    per ruleset (平和 in one ruleset is not 平和 in another) and so are the denominators."""
    keys = list(normalize_by(by))
    if "ruleset" not in keys and _rulesets(ds) > 1:
        keys.insert(0, "ruleset")
    return keys


def _rulesets(ds: DatasetLike) -> int:
    """How many rulesets the dataset's hands are of."""
    return int(group_counts(ds).seats["ruleset"].nunique())


def _winner_rows(ds: DatasetLike) -> pd.DataFrame:
    """The winner's seat row of every win (group keys + hands = 1)."""
    seats = base_tables(ds).seats
    return seats[seats["win"].to_numpy()]


def _winner_row_of_slot(base: Base, winners: pd.DataFrame) -> np.ndarray:
    """Per win slot (hand id * 4 + seat), the position of its row in ``winners`` (-1: no win)."""
    row = np.full(4 * len(base.hands), -1, dtype=np.int64)
    slots = winners["hand_id"].to_numpy() * 4 + winners["seat"].to_numpy().astype(np.int64)
    row[slots] = np.arange(len(winners))
    return row


def _rows_of(frame: pd.DataFrame, rows: np.ndarray, columns: list[str]) -> pd.DataFrame:
    """Some columns of ``frame`` at row positions ``rows`` (categoricals stay coded)."""
    return pd.DataFrame({c: frame[c].array.take(rows) for c in columns}, index=pd.RangeIndex(len(rows)))


_BLOCK_HANDS = 131_072  # hands per block when a metric works through per-(hand, fan) rows


def _hand_blocks(hand: np.ndarray, n_hands: int) -> list[slice]:
    """Row slices of a hand-sorted array, one per block of :data:`_BLOCK_HANDS` hand ids (the
    same blocks for every array, so two tables' blocks line up)."""
    bounds = np.searchsorted(hand, np.arange(0, n_hands + _BLOCK_HANDS, _BLOCK_HANDS))
    return [slice(int(a), int(b)) for a, b in pairwise(bounds)] or [slice(0, 0)]


def _summed(frame: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Additive columns summed per group (categorical keys stay coded: blocks concatenate)."""
    return frame.groupby(keys, observed=True, sort=True).sum().reset_index()


def _per_hand_fan(hand: np.ndarray, code: np.ndarray, count: np.ndarray,
                  n_codes: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Counts summed per (hand id, fan-name code), sorted by both: a win can list a fan twice.

    Works on integer keys (hand * n_codes + code), never on fan-name strings: at a million
    hands the fans tables hold ~5 million rows.
    """
    keep = code >= 0
    key = hand[keep].astype(np.int64) * max(n_codes, 1) + code[keep]
    key, counts = sorted_by(key, count[keep].astype(np.int64))
    if len(key) == 0:
        empty = np.zeros(0, np.int64)
        return empty, empty, empty
    starts = np.flatnonzero(np.concatenate([[True], key[1:] != key[:-1]]))
    unique = key[starts]
    return unique // max(n_codes, 1), unique % max(n_codes, 1), np.add.reduceat(counts, starts)


FanRows = tuple[np.ndarray, np.ndarray, np.ndarray]  # win slot, fan-name code, count per fan row


def fan_count_pairs(recorded: FanRows, computed: FanRows, width: int) -> tuple[np.ndarray, ...]:
    """The (win slot, fan) pairs either side lists (key ``slot * width + code``, sorted), with
    each side's summed count (0 where it does not list the fan): an outer join on integers."""
    rh, rc, rn = _per_hand_fan(*recorded, width)
    ch, cc, cn = _per_hand_fan(*computed, width)
    rkey, ckey = rh * width + rc, ch * width + cc
    pairs = np.union1d(rkey, ckey)
    rec = np.zeros(len(pairs), np.int64)
    com = np.zeros(len(pairs), np.int64)
    rec[np.searchsorted(pairs, rkey)] = rn
    com[np.searchsorted(pairs, ckey)] = cn
    return pairs, rec, com


def fan_frequencies(ds: DatasetLike, by: Iterable[str] | str | None = None) -> pd.DataFrame:
    """Per fan: wins containing it / wins (of its ruleset, in the group), with ``mean_count``.

    From the summed counters (group_counts): per group and fan, the wins listing it and its
    count; per group, the wins and the seat-hands."""
    counts = group_counts(ds)
    seats = counts.seats
    group = _fan_group(ds, by)
    if not seats["win"].to_numpy().any():
        return _empty("fan_frequency", [*group, "fan"])
    wins = _sizes(seats, group, "wins", "win")
    counted = _summed(counts.fans[[*group, "fan", "has", "count"]], [*group, "fan"])
    for k in [*group, "fan"]:
        if isinstance(counted[k].dtype, pd.CategoricalDtype):
            counted[k] = counted[k].astype(object)
    counted = (counted.merge(wins, on=group, how="left") if group
               else counted.assign(wins=int(seats["win"].sum())))
    out = rate_rows(counted.assign(hands=counted["wins"]), "fan_frequency", (*group, "fan"),
                    "has", "wins", total_count="count")
    out["mean_count"] = out["total_count"] / out["numerator"].where(out["numerator"] > 0)
    out = out.drop(columns=["total_count"])
    # hands behind a row: the group's seat-hands (fans only exist in wins)
    hands = _sizes(seats, group, "group_hands", "hands")
    out = (out.merge(hands, on=group, how="left") if group
           else out.assign(group_hands=int(seats["hands"].sum())))
    out["hands"] = out["group_hands"].fillna(0).astype(np.int64)
    out["small_sample"] = out["hands"] < 100
    out = out.drop(columns=["group_hands"])
    out = out.sort_values([*group, "numerator", "fan"], ascending=[True] * len(group) + [False, True],
                          kind="stable").reset_index(drop=True)
    out.attrs["group_keys"] = [*group, "fan"]
    return out


def fan_lift(ds: DatasetLike, by: Iterable[str] | str | None = None, min_both: int = 1) -> pd.DataFrame:
    """Co-occurrence of fan pairs in wins, per ruleset: lift = P(A and B) / (P(A) P(B)).

    From a wins x fans 0/1 matrix's Gram matrix (it counts the pairs), summed part by part
    (group_counts), so it stays small with a hundred fan names and millions of wins.
    """
    counts = group_counts(ds)
    seats = counts.seats
    frames = []
    for ruleset, pairs in pair_counts(counts).items():
        n_wins = pairs.wins
        if n_wins == 0 or not pairs.names:
            continue
        names = np.asarray(pairs.names, dtype=object)
        both = pairs.both
        single = np.diag(both)
        a, b = np.triu_indices(len(names), k=1)
        keep_pairs = both[a, b] >= min_both
        a, b = a[keep_pairs], b[keep_pairs]
        k = both[a, b]
        expected = single[a] * single[b] / n_wins  # wins with both if independent
        low, high = wilson_arrays(k.astype(float), np.full(len(k), float(n_wins)))
        scale = n_wins / expected
        frames.append(pd.DataFrame({
            "metric": "fan_lift", "ruleset": ruleset,
            "fan": names[a], "other": names[b],
            "numerator": k, "denominator": n_wins, "value": k / expected,
            "ci_low": low * scale, "ci_high": high * scale,
            "hands": int(seats["hands"].to_numpy()[(seats["ruleset"].astype(object) == ruleset).to_numpy()]
                         .sum()),
            "count_fan": single[a], "count_other": single[b],
        }))
    if not frames:
        out = pd.DataFrame(columns=["metric", "ruleset", "fan", "other", "numerator", "denominator", "value",
                                    "ci_low", "ci_high", "hands", "small_sample"])
    else:
        out = pd.concat(frames, ignore_index=True)
        out["small_sample"] = out["hands"] < 100
        out = out.sort_values(["ruleset", "value", "fan", "other"], ascending=[True, False, True, True],
                              kind="stable").reset_index(drop=True)
    multi = _rulesets(ds) > 1
    out.attrs["group_keys"] = ["ruleset", "fan", "other"] if multi else ["fan", "other"]
    return out


_LIFT_CHUNK = 65_536  # wins per block of the 0/1 matrix (bounds its memory at any dataset size)


def _pair_counts(rows: np.ndarray, cols: np.ndarray, n_rows: int, n_cols: int) -> np.ndarray:
    """Gram matrix of the rows x cols 0/1 matrix (cell = rows holding both columns), summed
    over blocks of rows so the matrix itself is never whole in memory."""
    rows, cols = sorted_by(rows, cols)
    both = np.zeros((n_cols, n_cols), dtype=np.int64)
    bounds = np.searchsorted(rows, np.arange(0, n_rows + _LIFT_CHUNK, _LIFT_CHUNK))
    for i, start in enumerate(range(0, n_rows, _LIFT_CHUNK)):
        lo, hi = bounds[i], bounds[i + 1]
        block = np.zeros((min(_LIFT_CHUNK, n_rows - start), n_cols), dtype=np.float32)
        block[rows[lo:hi] - start, cols[lo:hi]] = 1.0
        both += np.rint(block.T @ block).astype(np.int64)  # exact: a block has < 2**24 rows
    return both


def fan_total_distribution(ds: DatasetLike, by: Iterable[str] | str | None = None) -> pd.DataFrame:
    """Share of wins with each recorded fan total (per ruleset and group)."""
    group = _fan_group(ds, by)
    totals = group_counts(ds).totals
    if not len(totals):
        return _empty("fan_total_share", [*group, "fan_total"])
    counts = _sizes(totals, [*group, "fan_total"], "one", "wins")
    wins = _sizes(totals, group, "wins", "wins")
    counts = counts.merge(wins, on=group) if group else counts.assign(wins=int(totals["wins"].sum()))
    out = rate_rows(counts.assign(hands=counts["wins"]), "fan_total_share", (*group, "fan_total"),
                    "one", "wins")
    return out


def _sizes(frame: pd.DataFrame, keys: list[str], name: str, column: str) -> pd.DataFrame:
    """A counter column summed per group, as a frame with plain (non-categorical) key columns."""
    if not keys:
        return pd.DataFrame({name: [int(frame[column].sum())]})
    out = frame.groupby(keys, observed=True)[column].sum().rename(name).reset_index()
    for k in keys:
        if isinstance(out[k].dtype, pd.CategoricalDtype):
            out[k] = out[k].astype(object)
    return out


def _audit_tables(ds: DatasetLike) -> Audited | None:
    """The audit's computed wins and fans by hand id (None when the audit has not run), read
    once per dataset version, like the base tables."""
    dataset = as_dataset(ds)
    if not dataset.has_table("computed_wins"):
        return None  # never audited: no need for the base tables
    return cached_per_version("audited", dataset, lambda: audited_tables(dataset, base_tables(dataset)))


def _empty(metric: str, keys: list[str]) -> pd.DataFrame:
    out = pd.DataFrame(columns=["metric", *keys, "numerator", "denominator", "value", "ci_low",
                                "ci_high", "hands", "small_sample"])
    out.attrs["group_keys"] = keys
    return out


def fan_mismatch_rate(ds: DatasetLike, by: Iterable[str] | str | None = None,
                      per_hand: bool = False) -> pd.DataFrame:
    """Audited wins whose recorded fan total differs from the computed one / audited wins.

    From the audit's counters summed part by part (audit_counts); ``per_hand`` joins the
    per-hand tables instead (what is done when the audit's rows are out of the dataset's order).
    """
    keys = normalize_by(by)
    if not as_dataset(ds).has_table("computed_wins"):
        return _empty("fan_mismatch_rate", list(keys))
    counts = None if per_hand else audit_counts(ds)
    if counts is not None:
        return rate_rows(counts["mismatch"], "fan_mismatch_rate", keys, "differ", "wins", "hands")
    audit = _audit_tables(ds)
    if audit is None:
        return _empty("fan_mismatch_rate", list(keys))
    base = base_tables(ds)
    winners = _winner_rows(ds)
    both = ~np.isnan(audit.fan_total) & ~np.isnan(audit.recorded_fan_total) & (audit.win_slot >= 0)
    row = _winner_row_of_slot(base, winners)[audit.win_slot[both]]
    won = row >= 0
    rows = winners.iloc[row[won]]
    differ = audit.fan_total[both][won] != audit.recorded_fan_total[both][won]
    return rate_rows(rows, "fan_mismatch_rate", keys, differ.astype(np.int64), np.ones(len(rows), np.int64))


def fan_disagreement(ds: DatasetLike, by: Iterable[str] | str | None = None,
                     per_hand: bool = False) -> pd.DataFrame:
    """Per fan: audited wins where recorded and computed counts differ / audited wins with it.

    From the audit's counters summed part by part (audit_counts); ``per_hand`` joins the
    per-hand tables instead (what is done when the audit's rows are out of the dataset's order).
    """
    group = _fan_group(ds, by)
    if not as_dataset(ds).has_table("computed_wins"):
        return _empty("fan_disagreement", [*group, "fan"])
    counts = None if per_hand else audit_counts(ds)
    if counts is not None:
        return rate_rows(counts["disagreement"], "fan_disagreement", (*group, "fan"), "differ", "one", "one",
                         recorded_only="recorded_only", computed_only="computed_only")
    audit = _audit_tables(ds)
    if audit is None:
        return _empty("fan_disagreement", [*group, "fan"])
    base = base_tables(ds)
    # one fan-name code space for both sides
    recorded_names = base.fans["name"].cat.categories
    names = pd.Index(sorted(set(recorded_names) | set(audit.fan_name.categories)), dtype="str")
    rec_lut = np.append(names.get_indexer(recorded_names), -1)
    com_lut = np.append(names.get_indexer(audit.fan_name.categories), -1)
    audited = np.zeros(4 * len(base.hands), dtype=bool)
    audited[audit.win_slot[audit.win_slot >= 0]] = True
    fan_slot = base.fans["slot"].to_numpy()
    mine = (fan_slot >= 0) & audited[np.maximum(fan_slot, 0)]
    rec_hand, rec_code, rec_count = sorted_by(fan_slot[mine],
                                             rec_lut[base.fans["name"].cat.codes.to_numpy()[mine]],
                                             base.fans["count"].to_numpy()[mine])
    com_hand, com_code, com_count = sorted_by(audit.fan_slot, com_lut[audit.fan_name.codes], audit.fan_count)
    winners = _winner_rows(ds)
    winner_row = _winner_row_of_slot(base, winners)
    width = max(len(names), 1)
    partials = []
    n_slots = 4 * len(base.hands)
    for rec, com in zip(_hand_blocks(rec_hand, n_slots), _hand_blocks(com_hand, n_slots), strict=True):
        pairs, recorded, computed = fan_count_pairs((rec_hand[rec], rec_code[rec], rec_count[rec]),
                                                    (com_hand[com], com_code[com], com_count[com]), width)
        row = winner_row[pairs // width]
        won = row >= 0
        recorded, computed = recorded[won], computed[won]
        block = _rows_of(winners, row[won], group)
        block["fan"] = pd.Categorical.from_codes((pairs % width)[won], categories=names)
        block["differ"] = (recorded != computed).astype(np.int64)
        block["one"] = np.ones(len(block), np.int64)
        block["recorded_only"] = ((recorded > 0) & (computed == 0)).astype(np.int64)
        block["computed_only"] = ((computed > 0) & (recorded == 0)).astype(np.int64)
        partials.append(_summed(block, [*group, "fan"]))
    merged = pd.concat(partials, ignore_index=True)
    return rate_rows(merged, "fan_disagreement", (*group, "fan"), "differ", "one", "one",
                     recorded_only="recorded_only", computed_only="computed_only")


COMPUTE = {
    "fan_frequency": fan_frequencies,
    "fan_lift": fan_lift,
    "fan_total_share": fan_total_distribution,
    "fan_mismatch_rate": fan_mismatch_rate,
    "fan_disagreement": fan_disagreement,
}
