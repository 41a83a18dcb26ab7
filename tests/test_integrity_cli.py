"""``mjstats integrity`` and ``mjstats simulate --rig-draws/--collude`` from the command line."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from mjstats.cli import main
from mjstats.formats.canonical import read_canonical
from mjstats.store import SourceInput, ingest_sources
from tests.conftest import SAMPLE


@pytest.fixture(scope="module")
def sample_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("integrity") / "ds"
    ingest_sources([SourceInput(SAMPLE, "botzone")], out)
    return out


def test_json_rows_have_the_promised_fields(sample_dataset: Path, capsys) -> None:
    assert main(["integrity", str(sample_dataset), "--json", "-q"]) == 0
    captured = capsys.readouterr()
    rows = json.loads(captured.out)
    assert rows
    for row in rows:
        for key in ("test", "by", "subject", "statistic", "p_value", "q_value", "significant"):
            assert key in row
        assert isinstance(row["subject"], dict)
    assert {"seat": 2} in [r["subject"] for r in rows if r["test"] == "draw.improving"]
    assert "too small to judge: 16 hands" in captured.err


def test_csv_and_text(sample_dataset: Path, capsys) -> None:
    assert main(["integrity", str(sample_dataset), "--csv", "-q", "--by", "player"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert rows and {"test", "subject", "p_value", "q_value", "significant"} <= set(rows[0])
    assert any(r["subject"].startswith("player=") for r in rows)
    assert main(["integrity", str(sample_dataset), "-q", "--all"]) == 0
    text = capsys.readouterr().out
    assert "too small to judge" in text and "Benjamini-Hochberg" in text


def test_a_missing_dataset_is_one_line_and_exit_2(tmp_path: Path, capsys) -> None:
    assert main(["integrity", str(tmp_path / "nothing")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("mjstats integrity: error:")


def test_simulate_records_the_rig_in_every_hand(tmp_path: Path, capsys) -> None:
    out = tmp_path / "rig.jsonl"
    args = ["simulate", "--rules", "fuzhou", "--hands", "8", "--seed", "3", "--out", str(out)]
    assert main([*args, "--rig-draws", "1:0.5", "--collude", "0,2", "-q"]) == 0
    hands = list(read_canonical(out))
    assert len(hands) == 8
    for hand in hands:
        meta = dict(hand.meta)
        assert meta["rig_draws"] == "1:0.5" and meta["collude"] == "0,2"
        assert int(meta["rigged_draws"]) >= 0
        assert "-rig1x0.5-collude0x2-" in hand.match_id


@pytest.mark.parametrize(
    ("option", "message"),
    [
        (["--rig-draws", "2"], "--rig-draws takes SEAT:P"),
        (["--rig-draws", "4:0.1"], "the seat must be 0-3"),
        (["--rig-draws", "1:1.5"], "between 0 and 1"),
        (["--collude", "1,1"], "two different seats"),
        (["--collude", "x"], "--collude takes two seats"),
    ],
)
def test_bad_rig_options_are_one_line(tmp_path: Path, capsys, option: list[str], message: str) -> None:
    out = tmp_path / "x.jsonl"
    assert main(["simulate", "--rules", "guobiao", "--hands", "4", "--out", str(out), *option]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]
    assert not out.exists()
