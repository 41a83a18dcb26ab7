"""The Parquet dataset: tables, read-back, idempotence, atomicity, rejects."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mjstats.errors import DatasetError
from mjstats.formats.botzone import read_botzone
from mjstats.store import SourceInput, ingest_sources, iter_hands, open_dataset

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from botzone_corpus import write_renumbered


def _ingest(path: Path, out: Path, **kw):
    return ingest_sources([SourceInput(path, "botzone")], out, **kw)


def test_custom_reader_and_parallel_parse_give_the_same_dataset(tmp_path, monkeypatch):
    from mjstats.store import writer

    big = write_renumbered(tmp_path / "big.txt", 3_000)
    monkeypatch.setattr(writer, "PARALLEL_MIN_BYTES", 0)  # let the pool run on this small file
    runs = {
        "reader": (SourceInput(big, "botzone", read_botzone), {}),
        "inline": (SourceInput(big, "botzone"), {"batch_records": 700}),
        "pool": (SourceInput(big, "botzone"), {"batch_records": 700, "jobs": 2}),
    }
    results = []
    for name, (source, kw) in runs.items():
        ingest_sources([source], tmp_path / name, chunk_hands=1000, **kw)
        ds = open_dataset(tmp_path / name)
        results.append({t: ds.table(t) for t in ("hands", "events", "wins", "fans", "payments", "matches")})
    for other in results[1:]:
        for name, table in results[0].items():
            assert table.equals(other[name]), name


@pytest.fixture
def sample_ds(tmp_path, sample_path):
    out = tmp_path / "ds"
    _ingest(sample_path, out)
    return out


def test_tables_and_counts(sample_ds):
    ds = open_dataset(sample_ds)
    assert set(ds.tables) >= {"matches", "hands", "events", "wins", "fans", "payments"}
    hands = ds.table("hands")
    assert len(hands) == 16 and set(hands.ruleset) == {"guobiao"} and set(hands.period) == {"undated"}
    assert len(ds.table("matches")) == 16
    assert len(ds.table("wins")) == 14
    assert (hands.outcome == "draw").sum() == 2
    assert len(ds.table("events")) == hands.n_events.sum() == 1672
    pay = ds.table("payments")
    assert len(pay) == 64 and pay.groupby(["match_id"]).score.sum().eq(0).all()
    fans = ds.table("fans")
    assert (fans.name == "平和").groupby(fans.match_id).any().sum() == 6
    assert len(ds.table("rejects")) == 0


def test_read_back_equals_reader(sample_ds, sample_path):
    assert list(iter_hands(sample_ds)) == list(read_botzone(sample_path))
    first = next(iter_hands(sample_ds))
    assert first.provenance.source == str(sample_path) and first.provenance.line == 1


def test_ingest_is_idempotent(sample_ds, sample_path):
    summary = _ingest(sample_path, sample_ds)
    assert summary.hands == 0 and summary.skipped_sources == [str(sample_path)]
    assert len(open_dataset(sample_ds).table("hands")) == 16


def test_duplicate_hands_from_another_file_are_rejected(sample_ds, sample_path, tmp_path):
    copy = tmp_path / "copy.txt"
    copy.write_bytes(sample_path.read_bytes() + b"\n")  # same hands, different bytes
    summary = _ingest(copy, sample_ds)
    assert summary.hands == 0 and summary.rejects == 16
    rejects = open_dataset(sample_ds).table("rejects")
    assert len(rejects) == 16 and rejects.error.str.contains("duplicate hand").all()


def test_small_chunks_give_the_same_hands(tmp_path, sample_path):
    out = tmp_path / "chunked"
    _ingest(sample_path, out, chunk_hands=3, batch_records=3)
    ds = open_dataset(out)
    assert len(ds.parts()) == 6
    assert list(iter_hands(out)) == list(read_botzone(sample_path))


def test_not_a_dataset(tmp_path):
    with pytest.raises(DatasetError, match="no such dataset"):
        open_dataset(tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(DatasetError, match="not an mjstats dataset"):
        open_dataset(tmp_path / "empty")


def test_interrupted_ingest_leaves_the_previous_dataset(tmp_path, sample_ds):
    big = write_renumbered(tmp_path / "big.txt", 20_000)
    before = open_dataset(sample_ds).path.name
    proc = subprocess.Popen(
        [sys.executable, "-m", "mjstats", "ingest", "-q", "--format", "botzone", str(big),
         "--out", str(sample_ds)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    # wait until the run has started writing its staging folder, then kill it hard
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not any(sample_ds.glob(".tmp-*/hands")):
        time.sleep(0.05)
    assert proc.poll() is None, "ingest finished before it could be interrupted"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    ds = open_dataset(sample_ds)
    assert ds.path.name == before and len(ds.table("hands")) == 16
    # the next run clears the debris and works
    summary = _ingest(big, sample_ds)
    assert summary.hands == 20_000
    assert not list(sample_ds.glob(".tmp-*"))
    assert len(open_dataset(sample_ds).table("hands")) == 20_016


def test_rejects_table_keeps_source_line_and_raw(tmp_path, sample_path):
    bad = tmp_path / "bad.txt"
    text = sample_path.read_text(encoding="utf-8").replace("Player 1 Draw T2", "Player 1 Draw T0", 1)
    bad.write_text(text, encoding="utf-8")
    out = tmp_path / "ds"
    summary = _ingest(bad, out)
    assert summary.hands == 15 and summary.rejects == 1
    rej = open_dataset(out).table("rejects").iloc[0]
    assert rej.source == str(bad) and rej.line == 9 and rej.match_id == "61602cb45ddc087351c04358"
    assert "T0" in rej.error and rej.raw.startswith("Match 61602cb45ddc087351c04358")


def test_dataset_folder_cleans_only_its_own_debris(tmp_path, sample_path, monkeypatch):
    """A change removes what interrupted mjstats runs left (a marked staging folder, a version
    CURRENT never named, a temporary pointer file) and superseded versions past their grace
    period; folders a user put in the dataset stay, whatever their names."""
    monkeypatch.setenv("MJSTATS_VERSION_GRACE", "0")
    out = tmp_path / "ds"
    _ingest(sample_path, out)
    staging = out / ".tmp-v000009-0123abcd"
    staging.mkdir()
    (staging / ".mjstats-staging").touch()
    shutil.copytree(out / "v000001", out / "v000007")  # renamed into place, CURRENT never switched
    (out / ".CURRENT.89abcdef").write_text("v000007\n")
    user = [".tmp-v000009-dead", "videos", "venv", "viz", ".tmp-notes", "v2-notes"]
    for name in user:
        (out / name).mkdir()
        (out / name / "keep.txt").write_text("mine")
    _ingest(sample_path, out)  # nothing new: the dataset is left as it is
    assert staging.exists() and (out / "v000007").exists()
    more = write_renumbered(tmp_path / "more.txt", 5)
    _ingest(more, out)  # a change clears the debris of interrupted runs
    names = sorted(p.name for p in out.iterdir() if p.name not in (".mjstats.lock", ".pins"))
    assert names == sorted(["CURRENT", "v000002", *user])
    assert all((out / name / "keep.txt").read_text() == "mine" for name in user)


def test_rejects_are_written_in_row_groups_in_order(sample_path, tmp_path, monkeypatch):
    """Rejects stream to disk (a row group per REJECT_ROWS): all of them, in input order."""
    import pyarrow.parquet as pq

    from mjstats.store import writer

    monkeypatch.setattr(writer, "REJECT_ROWS", 3)
    out = tmp_path / "ds"
    _ingest(sample_path, out)
    copy = tmp_path / "again.txt"
    copy.write_bytes(sample_path.read_bytes() + b"\n")  # another file (new SHA-256), the same 16 hands
    summary = _ingest(copy, out, reject_samples=5)
    assert summary.rejects == 16 and len(summary.reject_samples) == 5
    rejects = open_dataset(out).table("rejects")
    assert len(rejects) == 16 and rejects.error.str.contains("duplicate hand").all()
    lines = rejects.line.tolist()
    assert lines == sorted(lines) and [r.line for r in summary.reject_samples] == lines[:5]
    (part,) = (open_dataset(out).path / "rejects").glob("*.parquet")
    assert pq.ParquetFile(part).metadata.num_row_groups == 6


def test_an_unknown_format_is_an_error_before_anything_is_written(sample_path, tmp_path):
    from mjstats.errors import MjstatsError

    out = tmp_path / "ds"
    known = "botzone, botzone-json, canonical, human-tsv, pmn"
    with pytest.raises(MjstatsError, match=rf"unknown format 'nope' \(known: {known}\)"):
        ingest_sources([SourceInput(sample_path, "nope")], out)
    assert not out.exists()


@pytest.mark.parametrize("size", [0, 1, (1 << 20) - 1, 1 << 20, (1 << 20) + 1, 3 * (1 << 20) + 17])
def test_source_digest_is_the_files_sha256(tmp_path: Path, size: int) -> None:
    """The manifest's digest of a source (read into one reused buffer a megabyte at a time) is
    the file's SHA-256, whatever its size against the block."""
    import hashlib
    import random

    from mjstats.store.writer import sha256_file

    data = random.Random(size).randbytes(size)
    path = tmp_path / "source.txt"
    path.write_bytes(data)
    assert sha256_file(path) == hashlib.sha256(data).hexdigest()
