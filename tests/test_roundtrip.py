"""Round trips: botzone -> dataset -> canonical -> dataset gives identical tables."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mjstats.cli import main
from mjstats.formats.canonical import read_canonical, write_canonical
from mjstats.store import SourceInput, ingest_sources, iter_hands, open_dataset
from tests.strategies import hands as hand_strategy

TABLES = ("matches", "hands", "events", "wins", "fans", "payments", "rejects")


def _tables(path: Path) -> dict[str, pd.DataFrame]:
    ds = open_dataset(path)
    out = {}
    for name in TABLES:
        df = ds.table(name)
        keys = [c for c in ("match_id", "hand_no", "seq", "seat", "name") if c in df.columns]
        out[name] = df.sort_values(keys, kind="stable").reset_index(drop=True) if keys else df
    return out


def _assert_same(a: dict[str, pd.DataFrame], b: dict[str, pd.DataFrame]) -> None:
    for name in TABLES:
        pd.testing.assert_frame_equal(a[name], b[name], check_dtype=True, obj=name)


def test_botzone_dataset_canonical_dataset(tmp_path, sample_path):
    first = tmp_path / "first"
    assert main(["ingest", "-q", "-f", "botzone", str(sample_path), "-o", str(first)]) == 0
    exported = tmp_path / "hands.jsonl"
    assert main(["export", str(first), "--format", "canonical", "--out", str(exported)]) == 0
    second = tmp_path / "second"
    assert main(["ingest", "-q", "-f", "canonical", str(exported), "-o", str(second)]) == 0
    a, b = _tables(first), _tables(second)
    # provenance is the file and line each dataset read; the original is the copy's origin
    assert set(b["hands"]["source"]) == set(b["matches"]["source"]) == {str(exported)}
    assert sorted(b["hands"]["line"]) == list(range(1, 17))
    assert list(b["hands"]["origin"]) == list(a["hands"]["source"])
    assert list(b["hands"]["origin_line"]) == list(a["hands"]["line"])
    assert a["hands"]["origin"].isna().all()
    for name in ("matches", "hands"):
        moved = ["source", "line", "origin", "origin_line"]
        a[name] = a[name].drop(columns=moved, errors="ignore")
        b[name] = b[name].drop(columns=moved, errors="ignore")
    _assert_same(a, b)
    # and a second export is byte-identical to the first
    again = tmp_path / "again.jsonl"
    assert main(["export", str(second), "--out", str(again)]) == 0
    assert again.read_bytes() == exported.read_bytes()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(hand_strategy(), min_size=1, max_size=6, unique_by=lambda h: (h.match_id, h.hand_no)))
def test_generated_records_survive_the_dataset(tmp_path_factory, hands):
    tmp = tmp_path_factory.mktemp("rt")
    src = tmp / "in.jsonl"
    write_canonical(hands, src)
    ingest_sources([SourceInput(src, "canonical")], tmp / "ds")
    back = list(iter_hands(tmp / "ds"))
    key = lambda h: (h.ruleset, h.period or "", h.match_id, h.hand_no)  # noqa: E731 - dataset order
    expected = sorted(hands, key=key)
    assert sorted(back, key=key) == expected
    # reading the file sets each hand's provenance (the file and line): the dataset keeps it
    expected = sorted(read_canonical(src), key=key)
    assert [(h.provenance.source, h.provenance.line) for h in sorted(back, key=key)] == [
        (h.provenance.source, h.provenance.line) for h in expected
    ]
    # canonical -> records -> canonical through the dataset is byte-identical per hand
    out = tmp / "out.jsonl"
    write_canonical(sorted(back, key=key), out)
    reread = tmp / "expected.jsonl"
    write_canonical(expected, reread)
    assert out.read_bytes() == reread.read_bytes()
    assert list(read_canonical(out)) == expected
