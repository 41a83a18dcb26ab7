"""Format detection (``mjstats.formats.detect``), folders, and ``mjstats ingest --format auto``."""

from __future__ import annotations

import gzip
import importlib.util
import os
import shutil
from pathlib import Path

import pytest

from mjstats.cli import main
from mjstats.errors import MjstatsError
from mjstats.formats.detect import detect_format, list_inputs, sniff
from mjstats.store import open_dataset

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
JSON_DATA = TESTS / "data" / "botzone-json"
TSV_DATA = TESTS / "data" / "human-tsv"
SAMPLE = ROOT / "data" / "botzone" / "sample.txt"
CANONICAL = ROOT / "data" / "sim" / "guobiao.jsonl.gz"
HAVE_PMN = importlib.util.find_spec("mjstats.formats.pmn") is not None


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        (SAMPLE, "botzone"),
        (CANONICAL, "canonical"),
        (JSON_DATA / "6a20231658ebe27b197daaa8_lite.json", "botzone-json"),
        (JSON_DATA / "judge-log-win.json", "botzone-json"),
        (JSON_DATA / "judge-display-win-1.json", "botzone-json"),
        (JSON_DATA / "6a20231658ebe27b197daaa8_metadata.json", None),
        (TSV_DATA / "PLAY" / "2017-01-01-0.txt", "human-tsv"),
        (ROOT / "README.md", None),
    ],
    ids=lambda v: v.name if isinstance(v, Path) else str(v),
)
def test_detect_format(path: Path, expected: str | None, tmp_path) -> None:
    assert detect_format(path) == expected
    packed = tmp_path / (path.name + ".gz")
    packed.write_bytes(
        gzip.compress(path.read_bytes() if path.suffix != ".gz" else gzip.decompress(path.read_bytes()))
    )
    if expected is not None:
        assert detect_format(packed) == expected


def test_sniff_reads_pmn_tag_pairs_bom_and_crlf() -> None:
    assert sniff(b'[Event "MCR duplicate"]\n[Site "x"]\n') == "pmn"
    assert sniff(b"\xef\xbb\xbf  Match 61602cb45ddc087351c04358\r\nWind 0\r\n") == "botzone"
    assert sniff(b"./2017/2017-01-01/345201.xml\r\n\xe4\xb8\x9c\t0\t[]\t\t\r\n") == "human-tsv"
    assert sniff(b'{"v":1,"match_id":"m","events":[]}') == "canonical"
    assert sniff(b"[1, 2, 3]") is None and sniff(b"") is None


def test_list_inputs_reads_folders_recursively_sorted_without_hidden(tmp_path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / ".git").mkdir()
    for name in ("b/2.txt", "a.txt", ".hidden.txt", ".git/x.txt", "b/1.txt"):
        (tmp_path / name).write_text("x")
    found = [(str(f.path.relative_to(tmp_path)), f.named) for f in list_inputs([tmp_path])]
    assert found == [("a.txt", False), ("b/1.txt", False), ("b/2.txt", False)]
    assert [f.named for f in list_inputs([tmp_path / "a.txt"])] == [True]
    with pytest.raises(MjstatsError, match="no such file"):
        list_inputs([tmp_path / "missing"])


def test_auto_reads_every_sample_in_one_ingest(tmp_path, capsys) -> None:
    inputs = [JSON_DATA, TSV_DATA, SAMPLE]
    pmn = TESTS / "data" / "pmn"
    if HAVE_PMN and pmn.is_dir():  # PMN's reader is written in parallel: read once it is here
        inputs.append(pmn)
    out = tmp_path / "ds"
    assert main(["ingest", *map(str, inputs), "--out", str(out)]) == 0
    captured = capsys.readouterr()
    assert "rejects 0" in captured.out
    assert "metadata" in captured.err  # the three _metadata.json files are skipped, said so
    hands = open_dataset(out).table("hands")
    by_profile = hands.groupby("profile").size().to_dict()
    assert by_profile["botzone"] == 16 + 9 and by_profile["human2017"] == 3
    assert main(["audit", str(out), "--jobs", "1"]) == 0
    ds = open_dataset(out)
    audited = ds.table("audited_hands")
    ours = audited[audited["profile"].isin(["botzone", "human2017"])]
    assert len(ours) == 28 and set(ours["status"]) == {"clean"}


def test_explicit_format_reads_a_folder(tmp_path, capsys) -> None:
    folder = tmp_path / "data"
    (folder / "botzone").mkdir(parents=True)
    shutil.copy(SAMPLE, folder / "botzone" / "sample.txt")
    shutil.copy(CANONICAL, folder / "sim.jsonl.gz")
    assert main(["ingest", "-f", "botzone", str(folder), "-o", str(tmp_path / "ds")]) == 0
    captured = capsys.readouterr()
    assert "hands 16" in captured.out
    assert f"skipped {folder / 'sim.jsonl.gz'}: canonical, not botzone" in captured.err


def test_a_file_in_another_format_fails_with_a_hint_and_can_be_ingested_again(tmp_path, capsys) -> None:
    log = JSON_DATA / "judge-log-win.json"
    out = tmp_path / "ds"
    assert main(["ingest", "-f", "botzone", str(log), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.strip() == (
        f"mjstats ingest: error: {log}: no botzone records here: it reads as botzone-json "
        "(use --format botzone-json, or --format auto)"
    )
    assert main(["ingest", "-f", "botzone-json", str(log), "-o", str(out)]) == 0
    assert "hands 1 " in capsys.readouterr().out  # not skipped as "already in the dataset"
    # with other files beside it, the others are read and the run still exits 2
    assert main(["ingest", "-f", "botzone", str(log), str(SAMPLE), "-o", str(tmp_path / "ds2")]) == 2
    captured = capsys.readouterr()
    assert "hands 16" in captured.out and "reads as botzone-json" in captured.err


def test_auto_names_a_file_it_cannot_tell(tmp_path, capsys) -> None:
    odd = tmp_path / "notes.txt"
    odd.write_text("hello\n")
    assert main(["ingest", str(odd), "-o", str(tmp_path / "ds")]) == 2
    assert "cannot tell its format" in capsys.readouterr().err
    assert not (tmp_path / "ds").exists()


def test_pmn_after_leading_comments_is_pmn() -> None:
    from mjstats.formats.detect import sniff

    board = b'[Event "Club night"]\n[Site "Online"]\n'
    assert sniff(b"; exported boards\n; second line\n" + board) == "pmn"
    assert sniff(b'{ a comment: "quoted", [bracketed] }\n' + board) == "pmn"
    assert sniff(b'{"events": [], "match_id": "x"}') == "canonical"  # JSON is still JSON
    assert sniff(b"{ a comment without a board }") is None


def test_a_pipe_is_named_as_not_a_regular_file(tmp_path, capsys) -> None:
    # ingest hashes a source and then reads it: a pipe would be read once and then block
    fifo = tmp_path / "records.fifo"
    os.mkfifo(fifo)
    for fmt in ("auto", "botzone"):
        code = main(["ingest", "--format", fmt, str(fifo), "--out", str(tmp_path / "ds")])
        err = capsys.readouterr().err
        assert code == 2, err
        assert "not a regular file" in err and "no such file" not in err
    assert not (tmp_path / "ds").exists()
