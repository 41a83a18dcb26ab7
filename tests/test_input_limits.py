"""Hostile input is bounded: long records, decompression bombs, broken gzip, huge numbers,
unreadable paths and byte-order marks each end as a reject or one error line, never a crash."""

from __future__ import annotations

import dataclasses
import gzip
import io
import json
import os
import random
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mjstats.cli import main
from mjstats.formats.botzone import read_botzone
from mjstats.formats.canonical import hand_to_json, read_canonical
from mjstats.formats.limits import HEAD_BYTES, input_limits
from mjstats.records import MESSAGE_CHARS, Hand, Reject
from mjstats.store import SourceInput, ingest_sources, open_dataset
from mjstats.store.batches import batch_from_records
from tests.strategies import random_hand

ROOT = Path(__file__).resolve().parent.parent
# hands without a recorded source: their provenance is the line they are read from
LINES = [hand_to_json(dataclasses.replace(random_hand(random.Random(seed)), provenance=None))
         for seed in range(150)]
FEW = LINES[:4]


def write_renumbered_bytes(sample_path: Path, n: int) -> bytes:
    """``n`` records of the sample under fresh match ids (no duplicates of the sample's)."""
    records = sample_path.read_text(encoding="utf-8").split("\n\n")
    out = []
    for i in range(n):
        body = records[i % 16].strip("\n").split("\n", 1)[1]
        out.append(f"Match {i:024x}\n{body}\n\n")
    return "".join(out).encode()


# Runs the CLI and reports its own peak RSS, read from /proc (VmHWM belongs to the process's own
# memory; ru_maxrss would also carry the peak of the forked test process before the exec).
_MEASURED_CLI = """
import os, sys
from mjstats.cli import main
try:
    code = main(sys.argv[1:])
finally:
    with open("/proc/self/status") as status:
        peak_kb = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    with open(os.environ["MJSTATS_TEST_PEAK_FILE"], "w") as fh:
        fh.write(str(peak_kb // 1024))
sys.exit(code)
"""


def _run_cli(*args: str) -> tuple[subprocess.CompletedProcess[str], int]:
    """Run ``mjstats`` in a child process; its result and the child's own peak RSS in MB."""
    with tempfile.TemporaryDirectory() as scratch:
        peak_file = os.path.join(scratch, "peak")
        proc = subprocess.run([sys.executable, "-c", _MEASURED_CLI, *args], capture_output=True,
                              text=True, timeout=600, env={**os.environ, "MJSTATS_TEST_PEAK_FILE": peak_file})
        with open(peak_file) as fh:
            peak = int(fh.read())
    return proc, peak


# --- records longer than the limit ---------------------------------------------------------------


def test_a_long_canonical_line_is_a_short_reject_and_reading_goes_on():
    long_line = '{"v":1,"match_id":"' + "x" * 50_000 + '"}'
    data = "\n".join([LINES[0], long_line, LINES[1], "{", ""]).encode()
    items = list(read_canonical(io.BytesIO(data), max_record_bytes=10_000))
    assert [type(x) for x in items] == [Hand, Reject, Hand, Reject]
    reject = items[1]
    assert reject.line == 2 and "max_record_bytes" in reject.error
    assert len(reject.raw) <= HEAD_BYTES and reject.raw.startswith('{"v":1,"match_id":"xxx')
    assert items[3].line == 4  # line numbers still count the skipped line
    with input_limits(max_record_bytes=10_000):  # the limit in force reaches the default reader
        assert [type(x) for x in read_canonical(io.BytesIO(data))] == [Hand, Reject, Hand, Reject]
    # under the default 16 MiB the 50 kB line is read whole (and rejected for what it holds)
    read = list(read_canonical(io.BytesIO(data)))[1]
    assert "max_record_bytes" not in read.error and len(read.raw) == len(long_line)


def test_a_line_without_end_longer_than_the_limit_is_cut(tmp_path):
    path = tmp_path / "tail.jsonl"
    path.write_bytes((LINES[0] + "\n").encode() + b"{" * 50_000)  # the last line never ends
    items = list(read_canonical(path, max_record_bytes=10_000))
    assert isinstance(items[0], Hand)
    assert isinstance(items[1], Reject) and items[1].line == 2 and len(items[1].raw) == HEAD_BYTES


def test_a_long_botzone_line_is_a_reject_naming_the_match(sample_path):
    text = sample_path.read_text(encoding="utf-8")
    first_end = text.index("\n\n")
    long_record = "Match 0123456789abcdef01234567\nWind 0\nPlayer 0 Deal " + "W1 " * 10_000 + "\n"
    data = (text[: first_end + 2] + long_record + "\n" + text[first_end + 2 :]).encode()
    items = list(read_botzone(io.BytesIO(data), max_record_bytes=4_096))
    rejects = [x for x in items if isinstance(x, Reject)]
    assert len(rejects) == 1 and sum(isinstance(x, Hand) for x in items) == 16
    assert rejects[0].match_id == "0123456789abcdef01234567" and "max_record_bytes" in rejects[0].error
    assert len(rejects[0].raw) <= HEAD_BYTES
    # the same through the line-by-line splitter (lists of lines)
    listed = list(read_botzone(data.decode().splitlines(), max_record_bytes=4_096))
    assert [type(x) for x in listed] == [type(x) for x in items]


def test_messages_and_match_ids_are_cut_to_a_sane_length():
    huge_id = "m" * 100_000
    line = json.dumps({"v": 1, "match_id": huge_id, "hand_no": "x"})
    [reject] = read_canonical([line])
    assert len(reject.match_id) <= 100 and len(reject.error) <= MESSAGE_CHARS
    reject = Reject("src", 1, "e" * 10_000, huge_id)
    assert len(str(reject)) < MESSAGE_CHARS + 150 and "10,000 characters" in reject.error


def test_a_200_mb_line_has_a_bounded_peak_and_a_short_warning(tmp_path):
    path = tmp_path / "long.jsonl"
    with path.open("wb") as fh:
        fh.write(b'{"v":1,"match_id":"')
        block = b"x" * (1 << 20)
        for _ in range(200):
            fh.write(block)
        fh.write(b'"}\n' + "\n".join(FEW).encode() + b"\n")
    proc, peak = _run_cli("ingest", "-q", "-j", "1", "-f", "canonical", str(path),
                          "--out", str(tmp_path / "ds"))
    assert proc.returncode == 0, proc.stderr
    assert peak < 600, f"peak RSS {peak} MB"  # 2.1-2.6 GB when the line was read whole
    assert len(proc.stderr) < 1_000 and "Traceback" not in proc.stderr
    assert "max_record_bytes" in proc.stderr
    rejects = open_dataset(tmp_path / "ds").table("rejects")
    assert len(rejects) == 1 and len(rejects.raw[0]) <= HEAD_BYTES
    assert len(open_dataset(tmp_path / "ds").table("hands")) == 4


def test_max_record_bytes_option(tmp_path, sample_path, capsys):
    out = tmp_path / "ds"
    assert main(["ingest", "-q", "-f", "botzone", str(sample_path), "-o", str(out),
                 "--max-record-bytes", "1K"]) == 0
    err = capsys.readouterr().err
    assert "16 record(s) rejected" in err and "limit of 1,024 bytes" in err
    for bad in ("lots", "0"):
        with pytest.raises(SystemExit):
            main(["ingest", "-f", "botzone", str(sample_path), "-o", str(out), "--max-record-bytes", bad])
    assert "expected a byte count" in capsys.readouterr().err


# --- compressed input --------------------------------------------------------------------------


def _zeros_gz(path: Path, mib: int) -> Path:
    """A gzip of ``mib`` MiB of zeros (about 1 kB per MiB): one compressed MiB written as many
    gzip members, which a reader must decompress one after another."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    member = packer.compress(bytes(1 << 20)) + packer.flush()
    with path.open("wb") as fh:
        for _ in range(mib):
            fh.write(member)
    return path


def test_a_decompression_bomb_is_stopped_with_a_reject(tmp_path):
    bomb = _zeros_gz(tmp_path / "bomb.jsonl.gz", 1024)  # 1 GiB of zeros in ~1 MB
    assert bomb.stat().st_size < 2 << 20
    proc, peak = _run_cli("ingest", "-f", "canonical", str(bomb), "--out", str(tmp_path / "ds"))
    assert proc.returncode == 0, proc.stderr
    assert peak < 1024, f"peak RSS {peak} MB"  # 8.8-9.4 GB when decompressed whole
    assert "Traceback" not in proc.stderr and "200:1" in proc.stderr
    [reject] = open_dataset(tmp_path / "ds").table("rejects").itertuples()
    assert reject.source == str(bomb) and reject.line == 1 and "decompressed bytes" in reject.error
    strict, _ = _run_cli("ingest", "-q", "--strict", "-f", "botzone", str(bomb),
                         "--out", str(tmp_path / "ds2"))
    assert strict.returncode == 2 and "Traceback" not in strict.stderr


def test_the_decompressed_size_limit(tmp_path):
    text = ("\n".join(FEW) + "\n").encode()
    path = tmp_path / "hands.jsonl.gz"
    path.write_bytes(gzip.compress(text * 4))
    with input_limits(max_decompressed_bytes=len(text) * 2 + 10):
        items = list(read_canonical(path))
    assert [type(x) for x in items] == [Hand] * 8 + [Reject]
    assert "max_decompressed_bytes" in items[-1].error and items[-1].line == 9


@pytest.mark.parametrize("fmt", ["canonical", "botzone"])
def test_a_truncated_gz_keeps_the_records_before_it(tmp_path, sample_path, fmt):
    text = (("\n".join(LINES) + "\n").encode() if fmt == "canonical"
            else sample_path.read_bytes() + write_renumbered_bytes(sample_path, 40))
    whole = gzip.compress(text)
    path = tmp_path / f"cut.{fmt}.gz"
    path.write_bytes(whole[: len(whole) * 2 // 3])
    reader = read_canonical if fmt == "canonical" else read_botzone
    items = list(reader(path))
    assert all(isinstance(x, Hand) for x in items[:-1]) and len(items) > 10
    assert isinstance(items[-1], Reject) and "truncated" in items[-1].error
    stop, last = items[-1], items[-2]
    if fmt == "canonical":
        assert stop.line == last.provenance.line + 1
    else:  # the record cut short starts after the last one read and its blank line
        assert stop.line == last.provenance.line + last.provenance.raw.count("\n") + 2
        assert stop.raw.startswith("Match ")
    # through the CLI: no traceback, the hands before the cut are in the dataset
    proc, _ = _run_cli("ingest", "-q", "-f", fmt, str(path), "--out", str(tmp_path / "ds"))
    assert proc.returncode == 0 and "Traceback" not in proc.stderr and "truncated" in proc.stderr
    assert len(open_dataset(tmp_path / "ds").table("hands")) == len(items) - 1


def test_a_bad_gzip_header_is_a_reject(tmp_path, sample_path, capsys):
    path = tmp_path / "plain.txt.gz"
    path.write_bytes(sample_path.read_bytes())  # not gzip at all
    [reject] = read_botzone(path)
    assert "not a gzip file" in reject.error and reject.line == 1
    assert main(["ingest", "-q", "-f", "botzone", str(path), "-o", str(tmp_path / "ds")]) == 0
    assert "not a gzip file" in capsys.readouterr().err


# --- numbers out of range ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "named"),
    [
        ("hand_no", 2**31, "hand_no"),
        ("streak", 40_000, "streak"),
        ("scores", [2**64, 0, 0, 0], "result.scores[0]"),
        ("fan_total", 2**40, "result.fan_total"),
        ("count", 2**70, "result.fans[0].count"),
        ("line", 2**63, "events[0].l"),
    ],
)
def test_canonical_numbers_beyond_the_columns_are_rejects_naming_the_field(field, value, named):
    obj = json.loads(LINES[0])
    if field in ("hand_no", "streak"):
        obj[field] = value
    elif field in ("scores", "fan_total"):
        obj["result"][field] = value
    elif field == "count":
        obj["result"]["fans"] = [{"name": "x", "count": value}]
    else:
        obj["events"][0]["l"] = value
    items = list(read_canonical([json.dumps(obj), LINES[1]]))
    assert isinstance(items[0], Reject) and items[0].error.startswith(named + ":")
    assert isinstance(items[1], Hand)


def test_botzone_numbers_beyond_64_bits_are_rejects(sample_path, tmp_path):
    text = sample_path.read_text(encoding="utf-8")
    text = text.replace("Score -19 -8 35 -8", f"Score -19 -8 {2**64} -8", 1)
    text = text.replace("Fan 9 ", f"Fan {2**40} ", 1)
    items = list(read_botzone(text.splitlines()))
    errors = [x.error for x in items if isinstance(x, Reject)]
    assert len(errors) == 2 and sum(isinstance(x, Hand) for x in items) == 14
    assert any(e.startswith("score out of range") for e in errors)
    assert any(e.startswith("fan total out of range") for e in errors)
    path = tmp_path / "big.txt"
    path.write_text(text, encoding="utf-8")
    summary = ingest_sources([SourceInput(path, "botzone")], tmp_path / "ds")  # no Arrow error
    assert summary.hands == 14 and summary.rejects == 2


def test_canonical_out_of_range_numbers_ingest(tmp_path):
    obj = json.loads(LINES[0])
    obj["hand_no"] = 2**31
    path = tmp_path / "h.jsonl"
    path.write_text("\n".join([json.dumps(obj), *FEW[1:]]) + "\n", encoding="utf-8")
    summary = ingest_sources([SourceInput(path, "canonical")], tmp_path / "ds")
    assert summary.hands == 3 and summary.rejects == 1


_NUMERIC = ["hand_no", "streak", "dealer", "prevalent_wind", "result.fan_total", "result.scores",
            "events.l", "events.q", "fans.count", "fans.points", "source.line", "dice"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(_NUMERIC), st.integers(min_value=-(2**80), max_value=2**80)
                          | st.integers(min_value=-40_000, max_value=40_000)), min_size=1, max_size=4))
def test_arbitrary_integers_in_numeric_fields_read_or_reject(changes):
    """Any integer in any numeric field: the reader gives a Hand that the dataset's columns can
    hold, or a Reject; it never raises."""
    obj = json.loads(LINES[2])
    for field, value in changes:
        if field == "result.fan_total":
            obj["result"]["fan_total"] = value
        elif field == "result.scores":
            obj["result"]["scores"] = [value, 0, 0, 0]
        elif field == "events.l":
            obj["events"][1]["l"] = value
        elif field == "events.q":
            obj["events"][1]["q"] = value
        elif field == "fans.count":
            obj["result"]["fans"] = [{"name": "f", "count": value}]
        elif field == "fans.points":
            obj["result"]["fans"] = [{"name": "f", "points": value}]
        elif field == "source.line":
            obj["source"] = {"file": "f", "line": value}
        elif field == "dice":
            obj["dice"] = [value]
        else:
            obj[field] = value
    [item] = read_canonical([json.dumps(obj)])
    assert isinstance(item, Hand | Reject)
    if isinstance(item, Hand):
        batch_from_records([item])  # the Arrow columns take every value read


# --- unreadable input -------------------------------------------------------------------------


def _one_error_line(capsys) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    return err


def test_unreadable_inputs_are_one_line_exit_2(tmp_path, sample_path, capsys, monkeypatch):
    out = str(tmp_path / "ds")
    assert main(["ingest", "-f", "botzone", str(tmp_path / "missing.txt"), "-o", out]) == 2
    assert "missing.txt: no such file" in _one_error_line(capsys)
    folder = tmp_path / "folder"
    folder.mkdir()
    assert main(["ingest", "-f", "botzone", str(folder), "-o", out]) == 2  # a folder holding no records
    assert f"no record files to read in {folder}" in _one_error_line(capsys)
    real_open = open

    def no_permission(file, *args, **kwargs):
        if str(file) == str(sample_path):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr("builtins.open", no_permission)
    assert main(["ingest", "-f", "botzone", str(sample_path), "-o", out]) == 2
    err = _one_error_line(capsys)
    assert f"{sample_path}: " in err and "Permission denied" in err


# --- byte-order marks -------------------------------------------------------------------------


def test_a_byte_order_mark_is_accepted_by_every_reader(tmp_path, sample_path):
    bom = b"\xef\xbb\xbf"
    botzone = tmp_path / "bom.txt"
    botzone.write_bytes(bom + sample_path.read_bytes())
    assert all(isinstance(x, Hand) for x in read_botzone(botzone))
    assert len(list(read_botzone(botzone))) == 16
    lines = (bom + sample_path.read_bytes()).decode("utf-8").splitlines()  # "\ufeffMatch ..."
    assert all(isinstance(x, Hand) for x in read_botzone(lines))
    canonical = tmp_path / "bom.jsonl"
    canonical.write_bytes(bom + "\n".join(FEW).encode())
    assert all(isinstance(x, Hand) for x in read_canonical(canonical))
    summary = ingest_sources([SourceInput(botzone, "botzone"), SourceInput(canonical, "canonical")],
                             tmp_path / "ds")
    assert summary.rejects == 0 and summary.hands == 20
