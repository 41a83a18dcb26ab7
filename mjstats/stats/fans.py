"""Fan metrics: how often each fan appears in wins, which fans go together (lift), the
distribution of fan totals, and where recorded fans differ from the audit's computed ones."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from mjstats.stats.grouping import normalize_by, rate_rows
from mjstats.stats.intervals import wilson_arrays
from mjstats.stats.tables import DatasetLike, as_dataset, base_tables

__all__ = [
    "COMPUTE",
    "fan_disagreement",
    "fan_frequencies",
    "fan_lift",
    "fan_mismatch_rate",
    "fan_total_distribution",
]  # fmt: skip


def _fan_group(ds: DatasetLike, by: Iterable[str] | str | None) -> list[str]:
    """Requested keys, with ``ruleset`` first when the dataset mixes rulesets: fan names are
    per ruleset (Guobiao 平和 is not Fuzhou 平和) and so are the denominators."""
    keys = list(normalize_by(by))
    if "ruleset" not in keys and base_tables(ds).hands["ruleset"].nunique() > 1:
        keys.insert(0, "ruleset")
    return keys


def _winner_rows(ds: DatasetLike) -> pd.DataFrame:
    """The winner's seat row of every won hand (group keys + hands = 1)."""
    seats = base_tables(ds).seats
    return seats[seats["win"].to_numpy()]


def fan_frequencies(ds: DatasetLike, by: Iterable[str] | str | None = None) -> pd.DataFrame:
    """Per fan: wins containing it / wins (of its ruleset, in the group), with ``mean_count``."""
    base = base_tables(ds)
    winners = _winner_rows(ds)
    group = _fan_group(ds, by)
    if winners.empty:
        return _empty("fan_frequency", [*group, "fan"])
    wins = _sizes(winners, group, "wins")
    fans = base.fans
    per_win = fans.groupby(["hand_id", "name"], observed=True)["count"].sum().reset_index()
    per_win = per_win.merge(winners[["hand_id", *group]], on="hand_id", how="inner")
    per_win["has"] = 1
    per_win = per_win.rename(columns={"name": "fan"})
    per_win["fan"] = per_win["fan"].astype(object)
    for k in group:
        if isinstance(per_win[k].dtype, pd.CategoricalDtype):
            per_win[k] = per_win[k].astype(object)
            wins[k] = wins[k].astype(object)
    counted = per_win.groupby([*group, "fan"], sort=True)[["has", "count"]].sum().reset_index()
    counted = counted.merge(wins, on=group, how="left") if group else counted.assign(wins=len(winners))
    out = rate_rows(counted.assign(hands=counted["wins"]), "fan_frequency", (*group, "fan"),
                    "has", "wins", total_count="count")
    out["mean_count"] = out["total_count"] / out["numerator"].where(out["numerator"] > 0)
    out = out.drop(columns=["total_count"])
    # hands behind a row: the group's seat-hands (fans only exist in wins)
    hands = _sizes(base.seats, group, "group_hands")
    out = out.merge(hands, on=group, how="left") if group else out.assign(group_hands=len(base.seats))
    out["hands"] = out["group_hands"].fillna(0).astype(np.int64)
    out["small_sample"] = out["hands"] < 100
    out = out.drop(columns=["group_hands"])
    out = out.sort_values([*group, "numerator", "fan"], ascending=[True] * len(group) + [False, True],
                          kind="stable").reset_index(drop=True)
    out.attrs["group_keys"] = [*group, "fan"]
    return out


def fan_lift(ds: DatasetLike, by: Iterable[str] | str | None = None, min_both: int = 1) -> pd.DataFrame:
    """Co-occurrence of fan pairs in wins, per ruleset: lift = P(A and B) / (P(A) P(B)).

    Built from a wins x fans 0/1 matrix (its Gram matrix counts the pairs), so it stays fast
    with a hundred fan names and a million wins.
    """
    base = base_tables(ds)
    frames = []
    hands = base.hands
    fans = base.fans
    names = np.asarray(fans["name"].cat.categories, dtype=object)
    name_code = fans["name"].cat.codes.to_numpy()
    fan_hand = fans["hand_id"].to_numpy()
    rulesets = hands["ruleset"].cat.categories
    ruleset_code = hands["ruleset"].cat.codes.to_numpy()
    seat_rulesets = base.seats["ruleset"].cat.codes.to_numpy()
    won = hands["winner"].to_numpy() >= 0
    for code, ruleset in enumerate(rulesets):
        win_ids = hands["hand_id"].to_numpy()[won & (ruleset_code == code)]
        n_wins = len(win_ids)
        if n_wins == 0:
            continue
        row_of = np.full(len(hands), -1, dtype=np.int64)
        row_of[win_ids] = np.arange(n_wins)
        rows = row_of[fan_hand]
        keep = (rows >= 0) & (name_code >= 0)
        if not keep.any():
            continue
        used, col = np.unique(name_code[keep], return_inverse=True)
        matrix = np.zeros((n_wins, len(used)), dtype=np.float32)
        matrix[rows[keep], col] = 1.0
        both = (matrix.T @ matrix).astype(np.int64)  # Gram matrix: wins with both fans
        single = np.diag(both)
        a, b = np.triu_indices(len(used), k=1)
        keep_pairs = both[a, b] >= min_both
        a, b = a[keep_pairs], b[keep_pairs]
        k = both[a, b]
        expected = single[a] * single[b] / n_wins  # wins with both if independent
        low, high = wilson_arrays(k.astype(float), np.full(len(k), float(n_wins)))
        scale = n_wins / expected
        frames.append(pd.DataFrame({
            "metric": "fan_lift", "ruleset": ruleset,
            "fan": names[used[a]], "other": names[used[b]],
            "numerator": k, "denominator": n_wins, "value": k / expected,
            "ci_low": low * scale, "ci_high": high * scale,
            "hands": int((seat_rulesets == code).sum()),
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
    multi = base.hands["ruleset"].nunique() > 1
    out.attrs["group_keys"] = ["ruleset", "fan", "other"] if multi else ["fan", "other"]
    return out


def fan_total_distribution(ds: DatasetLike, by: Iterable[str] | str | None = None) -> pd.DataFrame:
    """Share of wins with each recorded fan total (per ruleset and group)."""
    group = _fan_group(ds, by)
    seats = base_tables(ds).seats
    winners = seats[seats["win"].to_numpy() & seats["fan_total"].notna().to_numpy()]
    if winners.empty:
        return _empty("fan_total_share", [*group, "fan_total"])
    table = winners.assign(fan_total=winners["fan_total"].astype(np.int64), one=1)
    counts = _sizes(table, [*group, "fan_total"], "one")
    totals = _sizes(table, group, "wins")
    counts = counts.merge(totals, on=group) if group else counts.assign(wins=len(table))
    out = rate_rows(counts.assign(hands=counts["wins"]), "fan_total_share", (*group, "fan_total"),
                    "one", "wins")
    return out


def _sizes(frame: pd.DataFrame, keys: list[str], name: str) -> pd.DataFrame:
    """Row counts per group as a frame with plain (non-categorical) key columns."""
    if not keys:
        return pd.DataFrame({name: [len(frame)]})
    out = frame.groupby(keys, observed=True).size().rename(name).reset_index()
    for k in keys:
        if isinstance(out[k].dtype, pd.CategoricalDtype):
            out[k] = out[k].astype(object)
    return out


_AUDIT_CACHE: dict[str, tuple[pd.DataFrame, pd.DataFrame]] = {}


def _audit_tables(ds: DatasetLike) -> tuple[pd.DataFrame, pd.DataFrame] | None:
    """computed_wins and computed_fans joined to hand ids, or None when the audit has not run.

    Joined in Arrow on (match_id, hand_no), keeping only hand ids, numbers and dictionary-coded
    fan names for pandas (at a million hands a pandas merge on the text keys doubled the peak
    memory of a full stats run); built once per dataset version, like the base tables.
    """
    dataset = as_dataset(ds)
    if not dataset.has_table("computed_wins"):
        return None
    cache_key = str(dataset.path.resolve())
    cached = _AUDIT_CACHE.get(cache_key)
    if cached is not None:
        return cached
    base = base_tables(dataset)
    keys = pa.table(
        {
            "match_id": base.keys["match_id"].cast(pa.string()),
            "hand_no": base.keys["hand_no"].cast(pa.int64()),
            "hand_id": pa.array(np.arange(base.keys.num_rows, dtype=np.int64)),
        }
    )
    on = ["match_id", "hand_no"]

    def keyed(table: pa.Table) -> pa.Table:  # the join needs the same key types on both sides
        table = table.set_column(0, "match_id", table["match_id"].cast(pa.string()))
        return table.set_column(1, "hand_no", table["hand_no"].cast(pa.int64()))

    cw = keyed(dataset.arrow("computed_wins", columns=[*on, "winner", "fan_total", "recorded_fan_total"]))
    cw = cw.join(keys, keys=on, join_type="inner").drop_columns(on).sort_by("hand_id").to_pandas()
    if dataset.has_table("computed_fans"):
        cf = keyed(dataset.arrow("computed_fans", columns=[*on, "name", "count"]))
        cf = cf.join(keys, keys=on, join_type="inner").drop_columns(on).sort_by("hand_id")
        cf = cf.set_column(cf.schema.get_field_index("name"), "name", pc.dictionary_encode(cf["name"]))
        cf = cf.to_pandas()
    else:
        cf = pd.DataFrame({"hand_id": np.zeros(0, np.int64), "name": [], "count": []})
    _AUDIT_CACHE.clear()  # one dataset version at a time
    _AUDIT_CACHE[cache_key] = (cw, cf)
    return cw, cf


def _empty(metric: str, keys: list[str]) -> pd.DataFrame:
    out = pd.DataFrame(columns=["metric", *keys, "numerator", "denominator", "value", "ci_low",
                                "ci_high", "hands", "small_sample"])
    out.attrs["group_keys"] = keys
    return out


def fan_mismatch_rate(ds: DatasetLike, by: Iterable[str] | str | None = None) -> pd.DataFrame:
    """Audited wins whose recorded fan total differs from the computed one / audited wins."""
    keys = normalize_by(by)
    audit = _audit_tables(ds)
    if audit is None:
        return _empty("fan_mismatch_rate", list(keys))
    cw, _ = audit
    winners = _winner_rows(ds)
    both = cw.dropna(subset=["fan_total", "recorded_fan_total"])
    rows = winners.merge(both[["hand_id", "fan_total", "recorded_fan_total"]], on="hand_id",
                         suffixes=("_seat", ""))
    differ = (rows["fan_total"].to_numpy(float) != rows["recorded_fan_total"].to_numpy(float))
    return rate_rows(rows, "fan_mismatch_rate", keys, differ.astype(np.int64),
                     np.ones(len(rows), np.int64))


def fan_disagreement(ds: DatasetLike, by: Iterable[str] | str | None = None) -> pd.DataFrame:
    """Per fan: audited wins where recorded and computed counts differ / audited wins with it."""
    audit = _audit_tables(ds)
    group = _fan_group(ds, by)
    if audit is None:
        return _empty("fan_disagreement", [*group, "fan"])
    cw, cf = audit
    base = base_tables(ds)
    audited = set(cw["hand_id"].tolist())
    rec = base.fans[np.isin(base.fans["hand_id"].to_numpy(), list(audited))]
    rec = rec.groupby(["hand_id", "name"], observed=True)["count"].sum().rename("recorded").reset_index()
    com = cf.groupby(["hand_id", "name"], observed=True)["count"].sum().rename("computed").reset_index()
    rec["name"] = rec["name"].astype(object)
    com["name"] = com["name"].astype(object)
    merged = rec.merge(com, on=["hand_id", "name"], how="outer").fillna({"recorded": 0, "computed": 0})
    winners = _winner_rows(ds)
    merged = merged.merge(winners[["hand_id", *group]], on="hand_id", how="inner")
    merged["differ"] = (merged["recorded"] != merged["computed"]).astype(np.int64)
    merged["recorded_only"] = ((merged["recorded"] > 0) & (merged["computed"] == 0)).astype(np.int64)
    merged["computed_only"] = ((merged["computed"] > 0) & (merged["recorded"] == 0)).astype(np.int64)
    merged["one"] = 1
    merged = merged.rename(columns={"name": "fan"})
    for k in group:
        if isinstance(merged[k].dtype, pd.CategoricalDtype):
            merged[k] = merged[k].astype(object)
    return rate_rows(merged, "fan_disagreement", (*group, "fan"), "differ", "one", "one",
                     recorded_only="recorded_only", computed_only="computed_only")


COMPUTE = {
    "fan_frequency": fan_frequencies,
    "fan_lift": fan_lift,
    "fan_total_share": fan_total_distribution,
    "fan_mismatch_rate": fan_mismatch_rate,
    "fan_disagreement": fan_disagreement,
}
