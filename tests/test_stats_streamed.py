"""The fan metrics that stream: block-wise sums equal whole-table sums, and recorded-vs-computed
fans equal a plain per-hand count over the rows, whatever order the audit wrote them in."""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjstats.stats import compute, fans
from mjstats.stats.audited import HandLookup
from mjstats.stats.tables import clear_cache
from mjstats.store import SourceInput, ingest_sources, open_dataset, write_derived

SIM = Path(__file__).resolve().parents[1] / "data" / "sim" / "guobiao.jsonl.gz"


def _perturbed_audit(ds_path: Path, *, shuffle: bool) -> None:
    """Computed tables made from the recorded ones, with totals bumped, fans dropped, counts
    changed and an unknown fan added (seeded); optionally in shuffled row order."""
    ds = open_dataset(ds_path)
    rng = np.random.default_rng(11)
    wins = ds.arrow("wins", columns=["match_id", "hand_no", "winner", "fan_total", "ruleset"])
    total = wins["fan_total"].to_numpy(zero_copy_only=False).astype(float)
    bumped = np.where(rng.random(len(total)) < 0.1, total + 2, total)
    cw = pa.table({
        "match_id": wins["match_id"], "hand_no": wins["hand_no"], "winner": wins["winner"],
        "fan_total": pa.array([None if np.isnan(x) else int(x) for x in bumped], pa.int32()),
        "recorded_fan_total": pa.array([None if np.isnan(x) else int(x) for x in total], pa.int32()),
        "ruleset": wins["ruleset"],
    })  # fmt: skip
    rec = ds.arrow("fans", columns=["match_id", "hand_no", "name", "count", "ruleset"])
    rec = rec.filter(pa.array(rng.random(rec.num_rows) > 0.05))
    count = rec["count"].to_numpy(zero_copy_only=False).astype(np.int16)
    count[rng.random(len(count)) < 0.03] += 1
    extra = rec.slice(0, 7)  # a fan only the audit names
    cf = pa.concat_tables([
        rec.set_column(3, "count", pa.array(count, pa.int16())),
        extra.set_column(2, "name", pa.array(["未记录番"] * extra.num_rows)),
    ])  # fmt: skip
    if shuffle:
        cw = cw.take(pa.array(rng.permutation(cw.num_rows)))
        cf = cf.take(pa.array(rng.permutation(cf.num_rows)))
    write_derived(ds_path, {"computed_wins": cw, "computed_fans": cf})


@pytest.fixture(scope="module", params=[False, True], ids=["audit-order", "shuffled"])
def audited_ds(request, tmp_path_factory, sample_path) -> Path:
    out = tmp_path_factory.mktemp("streamed") / "ds"
    ingest_sources([SourceInput(sample_path, "botzone"), SourceInput(SIM, "canonical")], out)
    _perturbed_audit(out, shuffle=request.param)
    clear_cache()
    return out


def _naive_disagreement(ds_path: Path) -> tuple[dict[str, tuple[int, int]], tuple[int, int]]:
    """Per fan (numerator, denominator) and the total mismatch, counted hand by hand in Python."""
    ds = open_dataset(ds_path)
    key = ("match_id", "hand_no")

    def per_hand(table: pa.Table) -> dict[tuple, Counter]:
        out: dict[tuple, Counter] = defaultdict(Counter)
        for row in table.to_pylist():
            out[row["match_id"], row["hand_no"]][row["name"]] += row["count"]
        return out

    recorded = per_hand(ds.arrow("fans", columns=[*key, "name", "count"]))
    computed = per_hand(ds.arrow("computed_fans", columns=[*key, "name", "count"]))
    won = {(r["match_id"], r["hand_no"]) for r in ds.arrow("wins", columns=[*key, "winner"]).to_pylist()
           if r["winner"] is not None and r["winner"] >= 0}
    per_fan: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    mismatch = [0, 0]
    for row in ds.arrow("computed_wins").to_pylist():
        hand = row["match_id"], row["hand_no"]
        if hand not in won:
            continue
        if row["fan_total"] is not None and row["recorded_fan_total"] is not None:
            mismatch[0] += row["fan_total"] != row["recorded_fan_total"]
            mismatch[1] += 1
        rec, com = recorded.get(hand, Counter()), computed.get(hand, Counter())
        for name in set(rec) | set(com):
            per_fan[name][0] += rec[name] != com[name]
            per_fan[name][1] += 1
    return {k: (a, b) for k, (a, b) in per_fan.items()}, (mismatch[0], mismatch[1])


def test_recorded_vs_computed_match_a_per_hand_count(audited_ds):
    per_fan, mismatch = _naive_disagreement(audited_ds)
    dis = compute(audited_ds, "fan_disagreement")
    got = {}
    for row in dis.itertuples():
        got.setdefault(row.fan, [0, 0])
        got[row.fan][0] += row.numerator
        got[row.fan][1] += row.denominator
    assert {k: tuple(v) for k, v in got.items()} == per_fan
    assert "未记录番" in per_fan and per_fan["未记录番"][0] == per_fan["未记录番"][1] > 0
    assert sum(a for a, _ in per_fan.values()) > 0
    rate = compute(audited_ds, "fan_mismatch_rate")
    assert (int(rate["numerator"].sum()), int(rate["denominator"].sum())) == mismatch
    assert mismatch[0] > 0


@pytest.mark.parametrize("by", [None, "player", "seat", "ruleset"])
def test_blocks_do_not_change_results(audited_ds, monkeypatch, by):
    metrics = ("fan_frequency", "fan_lift", "fan_disagreement", "fan_mismatch_rate")
    whole = {m: compute(audited_ds, m, by=by) for m in metrics}
    monkeypatch.setattr(fans, "_BLOCK_HANDS", 7)
    monkeypatch.setattr(fans, "_LIFT_CHUNK", 5)
    for m in metrics:
        blocked = compute(audited_ds, m, by=by)
        assert len(blocked) > 0
        pd.testing.assert_frame_equal(blocked, whole[m])


def test_pair_counts_equal_the_dense_gram_matrix(monkeypatch):
    rng = np.random.default_rng(3)
    rows = rng.integers(0, 50, 400)
    cols = rng.integers(0, 9, 400)
    dense = np.zeros((50, 9))
    dense[rows, cols] = 1
    monkeypatch.setattr(fans, "_LIFT_CHUNK", 8)
    assert (fans._pair_counts(rows, cols, 50, 9) == (dense.T @ dense)).all()


@settings(max_examples=60, deadline=None)
@given(
    n_hands=st.integers(1, 300),
    picks=st.lists(st.tuples(st.integers(0, 10_000), st.integers(1, 4)), max_size=80),
    skip_unknown=st.booleans(),
)
def test_hand_lookup_is_exact(n_hands, picks, skip_unknown):
    """Runs of rows per hand, in any order, some keys unknown: the same as a dict lookup."""
    keys = [f"m{i // 3}\x1f{i % 3}" for i in range(n_hands)]
    position = {k: i for i, k in enumerate(keys)}
    probe: list[str] = []
    for pick, run in picks:
        key = keys[pick % n_hands] if skip_unknown or pick % 7 else f"unknown{pick}"
        probe.extend([key] * run)
    lookup = HandLookup(pa.array(keys))
    half = len(probe) // 2
    got = np.concatenate([lookup.positions(pa.array(probe[:half], pa.string())),
                          lookup.positions(pa.array(probe[half:], pa.string()))])
    assert got.tolist() == [position.get(k, -1) for k in probe]


def test_a_dataset_ingested_again_at_the_same_path_is_not_served_from_cache(tmp_path, sample_path):
    import shutil

    out = tmp_path / "ds"
    ingest_sources([SourceInput(sample_path, "botzone")], out)
    first = compute(out, "win_rate")
    shutil.rmtree(out)
    ingest_sources([SourceInput(SIM, "canonical")], out)  # the same folder, v000001 again
    second = compute(out, "win_rate")
    assert int(first["denominator"].sum()) == 16 * 4
    assert int(second["denominator"].sum()) == 4 * len(open_dataset(out).table("hands"))


def test_compute_all_reports_its_scans(audited_ds):
    from mjstats.stats import compute_all
    from mjstats.stats.tables import clear_cache as forget

    forget()
    seen: dict[str, list[int]] = {}
    frame = compute_all(audited_ds, metrics=["win_rate", "fan_frequency"],
                        progress=lambda phase, n: seen.setdefault(phase, []).append(n))
    hands = len(open_dataset(audited_ds).table("hands"))
    assert set(seen) == {"hands"} and seen["hands"][-1] == hands
    assert seen["hands"] == sorted(seen["hands"]) and len(frame) > 0


def test_compute_all_reports_the_gold_scan(tmp_path):
    from mjstats.stats import compute_all

    out = tmp_path / "fz"
    ingest_sources([SourceInput(SIM.with_name("fuzhou.jsonl.gz"), "canonical")], out)
    seen: dict[str, list[int]] = {}
    compute_all(out, metrics=["gold_points"], progress=lambda phase, n: seen.setdefault(phase, []).append(n))
    hands = len(open_dataset(out).table("hands"))
    # the gold counters scan the parts themselves: no per-hand base tables are built
    assert "hands" not in seen and 0 < seen["gold"][-1] <= hands
    assert seen["gold"] == sorted(seen["gold"])


def test_reads_gold_rows_names_exactly_the_metrics_that_scan_gold(tmp_path):
    """compute_all prefetches the gold scan (with progress) for the metrics in READS: each
    reads the gold counters, and none builds the per-hand base tables or gold rows."""
    from mjstats.rulesets.fuzhou import gold
    from mjstats.stats.registry import METRICS
    from mjstats.stats.tables import _CACHE, _DERIVED

    out = tmp_path / "fz"
    ingest_sources([SourceInput(SIM.with_name("fuzhou.jsonl.gz"), "canonical")], out)
    for metric_id, metric in METRICS.items():
        if metric.family != "gold":
            continue
        clear_cache()
        compute(out, metric_id)
        assert metric_id in gold.READS, metric_id
        assert _DERIVED.get("gold_counts") and not _DERIVED.get("gold_rows") and not _CACHE, metric_id
