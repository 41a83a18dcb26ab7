"""The audit over a dataset: tables written, job count irrelevant, reruns idempotent, faults found
through the Parquet round trip, rejects counted, and the ``mjstats audit`` command."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest

from mjstats.audit import AUDIT_SCHEMAS, HANDS_PER_DEFAULT_JOB, audit_dataset, default_jobs
from mjstats.cli import main
from mjstats.formats.botzone import read_botzone
from mjstats.records import Hand, Outcome
from mjstats.rulesets.guobiao.replay_botzone import BOTZONE
from mjstats.store import SourceInput, ingest_sources, open_dataset
from tests.faults import FAULTS
from tests.test_replay_oracle import SAMPLE, sample_hands

PROFILE = BOTZONE  # mjstats' own calculator


def ingest(out: Path, hands: list[Hand], source: Path) -> Path:
    ingest_sources([SourceInput(source, "botzone", lambda _: iter(hands))], out)
    return out


@pytest.fixture
def sample_dataset(tmp_path: Path) -> Path:
    out = tmp_path / "ds"
    ingest_sources([SourceInput(SAMPLE, "botzone", read_botzone)], out)
    return out


def tables(path: Path) -> dict[str, pd.DataFrame]:
    ds = open_dataset(path)
    return {name: ds.table(name) for name in AUDIT_SCHEMAS}


def test_sample_dataset_is_clean_and_recomputes_every_win(sample_dataset: Path) -> None:
    summary = audit_dataset(sample_dataset, jobs=1, profile=PROFILE)
    assert (summary.hands, summary.clean, summary.findings_total, summary.rejects) == (16, 16, 0, 0)
    t = tables(sample_dataset)
    assert len(t["findings"]) == 0
    assert set(t["audited_hands"]["status"]) == {"clean"} and len(t["audited_hands"]) == 16
    wins = t["computed_wins"]
    assert len(wins) == 14 and (wins["fan_total"] == wins["recorded_fan_total"]).all()
    pay = t["computed_payments"]
    assert len(pay) == 56 and (pay["score"] == pay["recorded_score"]).all()
    recorded = open_dataset(sample_dataset).table("fans")
    key = ["match_id", "hand_no", "name", "count"]
    assert sorted(map(tuple, t["computed_fans"][key].values.tolist())) == sorted(
        map(tuple, recorded[key].values.tolist())
    )


def test_job_count_does_not_change_the_tables_and_reruns_are_idempotent(
    sample_dataset: Path,
) -> None:
    audit_dataset(sample_dataset, jobs=1, profile=PROFILE)
    first = tables(sample_dataset)
    audit_dataset(sample_dataset, jobs=2, profile=PROFILE, batch_hands=3)
    second = tables(sample_dataset)
    for name in AUDIT_SCHEMAS:
        pd.testing.assert_frame_equal(first[name], second[name], check_like=True)
    assert open_dataset(sample_dataset).table("hands").shape[0] == 16  # ingest tables untouched


def test_default_jobs_start_no_pool_for_a_small_dataset(sample_dataset: Path) -> None:
    # a worker's start-up costs about 2,000 hands of replay: 16 hands run in this process
    assert audit_dataset(sample_dataset, profile=PROFILE).jobs == 1
    assert audit_dataset(sample_dataset, jobs=2, profile=PROFILE).jobs == 2  # asked for: kept
    per = HANDS_PER_DEFAULT_JOB
    sizes = (0, per - 1, per, 2 * per, 3 * per, 40 * per)
    assert [default_jobs(n, 4) for n in sizes] == [1, 1, 1, 2, 3, 4]
    assert default_jobs(40 * per, 1) == 1


def test_default_jobs_give_a_mid_size_dataset_fewer_workers_than_cores(
    sample_dataset: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # four cores and the threshold scaled down to 6 hands a worker: the sample's 16 hands are cut
    # into tasks for four cores but start two workers (16 // 6), and the tables are the one-job run's
    import mjstats.audit

    audit_dataset(sample_dataset, jobs=1, profile=PROFILE)
    one = tables(sample_dataset)
    monkeypatch.setattr(mjstats.audit.os, "cpu_count", lambda: 4)
    monkeypatch.setattr(mjstats.audit, "HANDS_PER_DEFAULT_JOB", 6)
    summary = audit_dataset(sample_dataset, profile=PROFILE)
    assert summary.jobs == 2
    monkeypatch.setattr(mjstats.audit, "HANDS_PER_DEFAULT_JOB", 9)
    assert audit_dataset(sample_dataset, profile=PROFILE).jobs == 1  # 16 // 9
    for name, frame in tables(sample_dataset).items():
        pd.testing.assert_frame_equal(one[name], frame, check_like=True)


def test_faults_are_found_through_the_dataset(tmp_path: Path) -> None:
    hands: list[Hand] = list(sample_hands())
    expected: dict[str, str] = {}
    for k, fault in enumerate(FAULTS):
        for hand in sample_hands():
            faulted = fault.make(hand)
            if faulted is not None:
                faulted = replace(faulted, match_id=f"fault{k}-{hand.match_id}")
                hands.append(faulted)
                expected[faulted.match_id] = fault.check
    out = ingest(tmp_path / "ds", hands, SAMPLE)
    summary = audit_dataset(out, jobs=2, profile=PROFILE, batch_hands=20)
    assert summary.hands == len(hands)
    findings = open_dataset(out).table("findings")
    by_hand = findings.groupby("match_id")["check"].apply(set).to_dict()
    assert set(by_hand) == set(expected)  # no original flagged, every faulted copy flagged
    assert all(expected[m] in checks for m, checks in by_hand.items())
    assert summary.clean == 16
    assert summary.findings_by_check["claim.chi_seat"] >= 16


def test_rejects_are_counted_not_replayed(tmp_path: Path) -> None:
    text = SAMPLE.read_text(encoding="utf-8")
    broken = tmp_path / "broken.txt"
    broken.write_text(text + "\nMatch 0123456789abcdef01234567\nWind 9\n", encoding="utf-8")
    out = tmp_path / "ds"
    ingest_sources([SourceInput(broken, "botzone", read_botzone)], out)
    summary = audit_dataset(out, jobs=1, profile=PROFILE)
    assert (summary.hands, summary.rejects) == (16, 1)
    assert "Wind" in summary.reject_errors[0]
    assert any("rejected records" in line and "1" in line for line in summary.lines())


def test_cli_summary_and_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    clean = tmp_path / "clean"
    ingest_sources([SourceInput(SAMPLE, "botzone", read_botzone)], clean)
    assert main(["audit", str(clean), "--jobs", "1", "--fail-on-findings", "-q"]) == 0
    out = capsys.readouterr().out
    assert "audited 16 hands" in out and "clean: 16" in out

    wins = [h for h in sample_hands() if h.result.outcome is Outcome.WIN]
    bad = [FAULTS[0].make(h) for h in wins[:3]]
    faulted = ingest(tmp_path / "bad", bad, SAMPLE)
    assert main(["audit", str(faulted), "--jobs", "1", "-q"]) == 0
    assert main(["audit", str(faulted), "--jobs", "1", "-q", "--fail-on-findings"]) == 1
    out = capsys.readouterr().out
    assert "win.fan_total" in out and "clean: 0" in out


def test_cli_explain(sample_dataset: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match = "61602cb45ddc087351c0438a"
    assert main(["audit", str(sample_dataset), "--explain", match, "--hand", "0"]) == 0
    out = capsys.readouterr().out
    assert f"match {match} hand 0" in out and "bugang W9" in out
    assert "recomputed: 9 fan" in out and "recorded:   9 fan" in out
    assert main(["audit", str(sample_dataset), "--explain", "nosuchmatch"]) == 2
    assert "no match nosuchmatch" in capsys.readouterr().err


def test_hands_without_a_replay_profile_are_counted_not_flagged(tmp_path: Path) -> None:
    from mjstats.sim import SimConfig, simulate

    # Fuzhou hands of a rule profile no replay profile is registered for (seed and platform are)
    fuzhou = [replace(h, profile="club") for h in simulate(SimConfig("fuzhou", hands=5, seed=2))]
    out = ingest(tmp_path / "ds", [*sample_hands(), *fuzhou], SAMPLE)
    summary = audit_dataset(out, jobs=1)
    assert (summary.hands, summary.clean, summary.with_findings) == (21, 16, 0)
    assert summary.statuses["unsupported"] == 5
    assert any("no replay profile" in line for line in summary.lines())
    audited = open_dataset(out).table("audited_hands")
    assert sorted(audited[audited["status"] == "unsupported"]["ruleset"]) == ["fuzhou"] * 5


def test_explain_ends_on_the_winners_hand_and_fans(sample_dataset: Path, capsys) -> None:
    """A discard win: the Hu line shows the winner's tiles plus the winning tile (the table's
    actor there is still the discarder), and the win is followed by the winner's hand and fans."""
    assert main(["audit", str(sample_dataset), "--explain", "61602cb45ddc087351c04358"]) == 0
    lines = capsys.readouterr().out.splitlines()
    hu = next(i for i, line in enumerate(lines) if " seat 1 hu B7 from seat 2" in line)
    hand = "seat 1: B1 B2 B3 B5 B6 B7 B8 B9 F3 F3 + B7  [J1J1J1]"
    assert lines[hu + 1].strip().startswith(hand)
    assert lines[hu + 2 :] == [
        "win: seat 1 on B7 from seat 2",
        f"winning hand: {hand}",
        "recomputed: 9 fan 混一色*1+箭刻*1+老少副*1; payments -8 33 -17 -8",
        "recorded:   9 fan 混一色*1+箭刻*1+老少副*1",
        "recorded scores: -8 33 -17 -8",
    ]
