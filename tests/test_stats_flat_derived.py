"""Flat audit and decisions metrics: summed from per-part counters, with the derived tables'
rows handed to each part in the dataset's order, they equal the per-hand join, digit for
digit, whatever the part size, the derived files' size and however often partial counters are
summed; rows out of order fall back to the per-hand join."""

from __future__ import annotations

import shutil
import zlib
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mjstats.stats.part_rows as part_rows
import mjstats.stats.part_sums as part_sums
from mjstats.audit import audit_dataset
from mjstats.decision.stage import decisions
from mjstats.stats import compute_all, fans
from mjstats.stats import decisions as decision_metrics
from mjstats.stats.audit_counts import audit_counts
from mjstats.stats.decision_counts import decision_counts
from mjstats.stats.grouping import StatsError
from mjstats.stats.part_rows import KEY, RowsByPart
from mjstats.stats.tables import _CACHE, clear_cache
from mjstats.store import SourceInput, ingest_sources
from tests.test_stats_flat import SIM, _first_hands

BYS = [None, "player", "seat", "style", "period", "ruleset", "dealer,wind", "ruleset,profile,streak",
       "player,period"]  # fmt: skip
AUDIT = {"fan_mismatch_rate": fans.fan_mismatch_rate, "fan_disagreement": fans.fan_disagreement}
DECISIONS = decision_metrics.COMPUTE


@pytest.fixture(scope="module")
def derived(tmp_path_factory, sample_path) -> dict[str, Path]:
    """The same hands (Botzone, simulated Guobiao, Fuzhou and Sichuan) in default part files
    (audited and judged in one file per ruleset) and in parts of 30 hands (audited and judged
    on two processes into files of 70 hands, so parts straddle them); a copy not audited."""
    folder = tmp_path_factory.mktemp("flat-derived")
    sources = [SourceInput(sample_path, "botzone"),
               SourceInput(_first_hands(SIM / "guobiao.jsonl.gz", folder / "gb.jsonl", 60), "canonical"),
               SourceInput(_first_hands(SIM / "fuzhou.jsonl.gz", folder / "fz.jsonl", 60), "canonical"),
               SourceInput(_sichuan(folder / "sichuan.jsonl", 15), "canonical")]  # fmt: skip
    out = {"whole": folder / "whole", "parts": folder / "parts", "plain": folder / "plain"}
    ingest_sources(sources, out["whole"])
    ingest_sources(sources, out["parts"], chunk_hands=30, batch_records=30)
    shutil.copytree(out["parts"], out["plain"])
    audit_dataset(out["whole"], jobs=1)
    audit_dataset(out["parts"], jobs=2, batch_hands=45, flush_hands=70)
    decisions(out["whole"], jobs=1)
    decisions(out["parts"], jobs=2, batch_hands=45, flush_hands=70)
    for name in ("whole", "parts"):
        _disagree(out[name])
    return out


def _sichuan(path: Path, matches: int) -> Path:
    from mjstats.formats.canonical import write_canonical
    from mjstats.sim import SimConfig, simulate_with_faults

    write_canonical((hand for hand, _ in simulate_with_faults(SimConfig("sichuan", matches, 3), 0.0)), path)
    return path


def _picked(table: pa.Table, *columns: str, every: int) -> np.ndarray:
    """Rows picked by their hand (and fan): the same rows in both layouts of the dataset."""
    keys = zip(*(table.column(c).to_pylist() for c in columns), strict=True)
    return np.array([zlib.crc32(repr(k).encode()) % every == 0 for k in keys], dtype=bool)


def _disagree(ds: Path) -> None:
    """Some audited totals and fan counts changed, some computed fans dropped (rows kept in
    order): the metrics have differences to count."""
    for file in ds.glob("v*/computed_wins/*/*.parquet"):
        t = pq.read_table(file)
        total = t.column("fan_total").to_numpy(zero_copy_only=False).copy()
        total[_picked(t, "match_id", "hand_no", every=5)] += 1
        pq.write_table(t.set_column(t.schema.get_field_index("fan_total"), "fan_total",
                                    pa.array(total, t.schema.field("fan_total").type)), file)
    for file in ds.glob("v*/computed_fans/*/*.parquet"):
        t = pq.read_table(file)
        count = t.column("count").to_numpy(zero_copy_only=False).copy()
        count[_picked(t, "match_id", "hand_no", "name", every=7)] += 1
        field = t.schema.field("count")
        t = t.set_column(t.schema.get_field_index("count"), "count", pa.array(count, field.type))
        pq.write_table(t.filter(pa.array(~_picked(t, "match_id", "hand_no", "name", every=11))), file)


def _results(ds: Path, metrics: dict, per_hand: bool = False,
             bys: tuple = tuple(BYS)) -> dict[tuple[str, str | None], pd.DataFrame]:
    """Every metric by every grouping (one dataset at a time: its caches stay warm)."""
    clear_cache()
    kw = {"per_hand": True} if per_hand else {}
    return {(metric, by): fn(ds, by, **kw) for metric, fn in metrics.items() for by in bys}


def _assert_same(got: dict, want: dict, name: str) -> None:
    for key, plain in want.items():
        assert len(plain) > 0 and int(plain["denominator"].sum()) > 0, key
        pd.testing.assert_frame_equal(got[key], plain, check_exact=True, obj=f"{key} {name}")
        assert got[key].attrs == plain.attrs, key


def test_audit_counters_equal_the_per_hand_join(derived, monkeypatch):
    monkeypatch.setattr(part_sums, "COMBINE_PARTS", 3)
    monkeypatch.setattr(part_rows, "BATCH_ROWS", 50)  # files decoded in small batches
    assert len(list(derived["parts"].glob("v*/hands/*/*/*.parquet"))) > 12
    assert len(list(derived["parts"].glob("v*/computed_fans/*/*.parquet"))) > 3
    plain = _results(derived["whole"], AUDIT, per_hand=True)
    for name in ("whole", "parts"):
        _assert_same(_results(derived[name], AUDIT), plain, name)
    assert int(plain["fan_mismatch_rate", None]["numerator"].sum()) > 0  # some totals differ
    both = plain["fan_disagreement", None]
    only = int(both["recorded_only"].sum())
    assert only > 0 and int(both["numerator"].sum()) > only


def test_audit_counters_build_no_base_tables(derived):
    clear_cache()
    frame = compute_all(derived["parts"], "player", metrics=list(AUDIT), jobs=2)
    assert not _CACHE  # the per-hand base tables were never built
    counts = audit_counts(derived["parts"])
    assert counts is not None
    wins = int(counts["mismatch"]["wins"].sum())
    assert 0 < len(counts["mismatch"]) < wins  # rows per group, not per win
    clear_cache()
    plain = pd.concat([fn(derived["parts"], "player", per_hand=True) for fn in AUDIT.values()],
                      ignore_index=True)
    pd.testing.assert_frame_equal(frame, plain, check_exact=True)


def test_rows_out_of_order_fall_back_to_the_per_hand_join(derived, tmp_path):
    """Audit files whose rows are not in the dataset's order: the counters say so and the
    metrics are the per-hand join's all the same."""
    ds = tmp_path / "shuffled"
    shutil.copytree(derived["whole"], ds)
    for file in [*ds.glob("v*/computed_fans/*/*.parquet"), *ds.glob("v*/decisions/*/*.parquet")]:
        table = pq.read_table(file)
        pq.write_table(table.take(pa.array(np.arange(table.num_rows)[::-1])), file)
    clear_cache()
    assert audit_counts(ds) is None and decision_counts(ds) is None
    for metrics in (AUDIT, DECISIONS):
        bys = (None, "seat", "player,period")
        want = _results(derived["whole"], metrics, True, bys)
        _assert_same(_results(ds, metrics, bys=bys), want, "shuffled")


def test_a_dataset_never_audited_has_no_audit_rows(derived):
    clear_cache()
    for metric, fn in AUDIT.items():
        assert fn(derived["plain"], "seat").empty, metric
    assert audit_counts(derived["plain"]) is None
    assert not _CACHE


def test_decision_counters_equal_the_per_hand_join(derived, monkeypatch):
    monkeypatch.setattr(part_sums, "COMBINE_PARTS", 3)
    monkeypatch.setattr(part_rows, "BATCH_ROWS", 50)
    assert len(list(derived["parts"].glob("v*/decisions/*/*.parquet"))) > 3
    plain = _results(derived["whole"], DECISIONS, per_hand=True)
    for name in ("whole", "parts"):
        _assert_same(_results(derived[name], DECISIONS), plain, name)
    for metric in ("efficiency_rate", "danger_rate", "unsafe_rate"):
        frame = plain[metric, None]
        assert 0 < int(frame["numerator"].sum()) < int(frame["denominator"].sum()), metric
    assert int(plain["useful_lost", "player"]["numerator"].sum()) > 0


def test_decision_counters_build_no_base_tables(derived):
    clear_cache()
    frame = compute_all(derived["parts"], "style", metrics=list(DECISIONS), jobs=2)
    assert not _CACHE  # the per-hand base tables were never built
    counts = decision_counts(derived["parts"])
    assert counts is not None and 0 < len(counts) < int(counts["discard_all_rows"].sum())
    clear_cache()
    plain = pd.concat([fn(derived["parts"], "style", per_hand=True) for fn in DECISIONS.values()],
                      ignore_index=True)
    pd.testing.assert_frame_equal(frame, plain, check_exact=True)


def test_a_dataset_never_judged_names_the_command_to_run(derived):
    clear_cache()
    for metric in DECISIONS:
        with pytest.raises(StatsError, match="no decisions table: run `mjstats decisions "):
            compute_all(derived["plain"], metrics=[metric])
    assert "efficiency_rate" not in set(compute_all(derived["plain"], metrics=None)["metric"])


# --- the row stream, on made-up tables -----------------------------------------------------------


def _stream(tmp_path: Path, keys: list[str], files: list[int]) -> RowsByPart:
    """A derived table holding one row per key (in that order), cut into files of the given sizes."""
    import pyarrow.dataset as pads

    root = tmp_path / "rows"
    root.mkdir()
    start = 0
    for number, size in enumerate(files):
        chunk = keys[start:start + size]
        start += size
        table = pa.table({"match_id": pa.array(chunk, pa.string()),
                          "hand_no": pa.array([0] * len(chunk), pa.int32()),
                          "row": pa.array(range(start - len(chunk), start), pa.int64())})
        pq.write_table(table, root / f"part-{number:05d}.parquet")
    files = sorted(pads.dataset(root, format="parquet").get_fragments(), key=lambda f: f.path)
    return RowsByPart(files, lambda batch, _names: pa.Table.from_batches([batch]))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=40),  # rows per hand
       st.lists(st.integers(1, 8), min_size=1, max_size=12),  # hands per part
       st.lists(st.integers(1, 30), min_size=1, max_size=8),  # rows per file
       st.booleans(), st.sampled_from([1, 4, 1000]))
def test_every_row_goes_to_its_own_part(tmp_path_factory, rows_per_hand, part_sizes, file_sizes, shuffle,
                                        batch_rows):
    """In order, each part takes exactly its hands' rows; out of order, any row taken is its own
    part's and the stream says some were left."""
    hands = [f"h{i}" for i in range(len(rows_per_hand))]
    keys = [h for h, k in zip(hands, rows_per_hand, strict=True) for _ in range(k)]
    if shuffle and len(set(keys)) > 1:
        keys = keys[1:] + keys[:1] if keys[0] != keys[-1] else list(reversed(keys))
    files = list(file_sizes)
    while sum(files) < len(keys):
        files.append(7)
    stream = _stream(tmp_path_factory.mktemp("rows"), keys, files)
    part_rows.BATCH_ROWS, default = batch_rows, part_rows.BATCH_ROWS  # rows decoded at a time
    try:
        _hand_out(stream, hands, keys, part_sizes)
    finally:
        part_rows.BATCH_ROWS = default


def _hand_out(stream: RowsByPart, hands: list[str], keys: list[str], part_sizes: list[int]) -> None:
    parts, at = [], 0
    for size in part_sizes:
        parts.append(hands[at:at + size])
        at += size
    if at < len(hands):
        parts.append(hands[at:])
    handed: list[str] = []
    for part in parts:
        key_of = pa.array([f"{h}\x1f0" for h in part], pa.string())
        taken = stream.take(key_of)
        got = [] if taken is None else [k.split("\x1f")[0] for k in taken.column(KEY).to_pylist()]
        assert set(got) <= set(part)
        handed += got
    expected_in_order = [h for h in hands for k in keys if k == h] == keys
    if expected_in_order:
        assert handed == keys and stream.in_order()
    else:
        assert not stream.in_order() or handed == keys
    assert stream.in_order() == (len(handed) == len(keys))


def test_the_audit_and_decisions_scans_report_their_hands(derived, capsys):
    """compute_all(progress=...) reports the counters' scans ("audit", "decisions"), up to the
    dataset's hands; the CLI has a progress line for each (no unknown phase)."""
    from mjstats.cli import main
    from mjstats.store import open_dataset

    hands = open_dataset(derived["parts"]).arrow("hands", columns=["hand_no"]).num_rows
    for metrics in (["fan_mismatch_rate", "efficiency_rate"], None):
        clear_cache()
        seen: dict[str, list[int]] = {}

        def progress(phase: str, n: int, seen: dict[str, list[int]] = seen) -> None:
            seen.setdefault(phase, []).append(n)

        compute_all(derived["parts"], metrics=metrics, progress=progress)
        for phase in ("audit", "decisions"):
            assert seen[phase] == sorted(seen[phase]) and seen[phase][-1] == hands, (phase, seen)
    clear_cache()
    assert main(["stats", str(derived["parts"]), "-m", "fan_mismatch_rate,efficiency_rate"]) == 0
    assert "fan_mismatch_rate" in capsys.readouterr().out
