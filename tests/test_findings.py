"""``mjstats.findings`` and ``mjstats findings``: every finding of the audit, with its hand's
source file and line, filtered and stably sorted; unknown filter values and unaudited datasets
are errors."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace
from pathlib import Path

import pytest

import mjstats
from mjstats.audit import audit_dataset
from mjstats.cli import main
from mjstats.errors import DatasetError, MjstatsError
from mjstats.formats.canonical import read_canonical, write_canonical
from mjstats.replay import replay_hand
from mjstats.sim import SimConfig, simulate_with_faults
from mjstats.store import SourceInput, ingest_sources


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("findings") / "faulty.jsonl"
    hands = [hand for hand, _ in simulate_with_faults(SimConfig("guobiao", 48, 5), 0.3)]
    # a hand cut short: its "hand.end" finding is about the whole hand (no seq), listed last
    hands[3] = replace(hands[3], events=hands[3].events[:-2])
    write_canonical(hands, path)
    return path


@pytest.fixture(scope="module")
def audited(source: Path) -> Path:
    ds = source.parent / "ds"
    ingest_sources([SourceInput(source, "canonical")], ds)
    audit_dataset(ds, jobs=1)
    return ds


def _replayed(source: Path) -> list[tuple]:
    """Every finding, found by replaying the source's hands one by one, in the listing's order."""
    rows = []
    for hand in read_canonical(source):
        for f in replay_hand(hand).findings:
            rows.append((f.match_id, f.hand_no, f.seq, f.check, str(f.severity), f.expected,
                         f.recorded, f.message, hand.provenance.source, hand.provenance.line))
    big = 1 << 30  # findings about the result (no seq) after the hand's events, replay order kept
    return sorted(rows, key=lambda r: (r[0], r[1], big if r[2] is None else r[2]))


def _plain(frame) -> list[tuple]:
    out = []
    for rec in frame.astype(object).to_dict(orient="records"):
        values = [None if v is None or v != v or str(v) == "<NA>" else v for v in rec.values()]
        out.append(tuple(values[:10]))
    return out


def test_every_finding_with_its_hands_source_and_line(audited: Path, source: Path) -> None:
    frame = mjstats.findings(audited)
    assert list(frame.columns) == [
        "match_id", "hand_no", "seq", "check", "severity", "expected", "recorded", "message",
        "source", "line", "ruleset"]
    expected = _replayed(source)
    assert len(expected) > 10 and {r[4] for r in expected} == {"error", "warning"}
    assert any(r[2] is None for r in expected) and any(r[2] is not None for r in expected)
    assert _plain(frame) == expected
    assert set(frame["ruleset"]) == {"guobiao"}


def test_filters_select_rows(audited: Path) -> None:
    everything = mjstats.findings(audited)
    fans = mjstats.findings(audited, check="win.fans")
    assert len(fans) == (everything["check"] == "win.fans").sum() > 0
    two = mjstats.findings(audited, check=["win.fans", "claim.priority"], severity="error")
    wanted = everything["check"].isin(["win.fans", "claim.priority"]) & (everything["severity"] == "error")
    assert _plain(two) == _plain(everything[wanted])
    match = everything["match_id"].iloc[-1]
    only = everything[everything["match_id"] == match]
    assert _plain(mjstats.findings(audited, match=match)) == _plain(only)
    assert len(mjstats.findings(audited, severity="warning")) == (everything["severity"] == "warning").sum()


def test_unknown_values_and_unaudited_datasets_are_errors(audited: Path, source: Path, tmp_path: Path):
    known = r"unknown check code 'win\.fan' \(known: claim\.chi_seat, .*win\.fans"
    with pytest.raises(MjstatsError, match=known):
        mjstats.findings(audited, check="win.fan")
    with pytest.raises(MjstatsError, match=r"unknown severity 'fatal' \(known: error, info, warning\)"):
        mjstats.findings(audited, severity="fatal")
    with pytest.raises(MjstatsError, match="no match 'nope'"):
        mjstats.findings(audited, match="nope")
    fresh = tmp_path / "fresh"
    ingest_sources([SourceInput(source, "canonical")], fresh)
    with pytest.raises(DatasetError, match="never audited"):
        mjstats.findings(fresh)
    assert main(["findings", str(fresh)]) == 2


def test_cli_text_json_csv_and_count(audited: Path, capsys: pytest.CaptureFixture[str]) -> None:
    everything = mjstats.findings(audited, check="win.fan_total")
    n, hands = len(everything), len(everything[["match_id", "hand_no"]].drop_duplicates())
    assert main(["findings", str(audited), "--check", "win.fan_total"]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    plural = lambda k, word: f"{k} {word}{'s' if k != 1 else ''}"  # noqa: E731
    assert len(lines) == n and err == f"{plural(n, 'finding')} in {plural(hands, 'hand')}\n"
    first = everything.iloc[0]
    where = f"{first['match_id']}/{first['hand_no']} #{first['seq']}"
    assert lines[0].startswith(f"{where} [error] win.fan_total: ")
    assert lines[0].endswith(f"  @ {first['source']}:{first['line']}")

    assert main(["findings", str(audited), "--check", "win.fan_total", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["match_id"], r["hand_no"], r["seq"], r["line"]) for r in rows] == [
        (r[0], r[1], r[2], r[9]) for r in _plain(everything)]
    assert all(type(r["seq"]) is int and type(r["line"]) is int for r in rows)

    assert main(["findings", str(audited), "--csv"]) == 0
    table = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(table) == len(mjstats.findings(audited))
    assert all("." not in r["line"] and "." not in r["hand_no"] for r in table)


def test_cli_unknown_check_is_one_line(audited: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["findings", str(audited), "--check", "nope", "--severity", "error"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("mjstats findings: error: unknown check code 'nope' (known: ")
