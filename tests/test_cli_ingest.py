"""``mjstats ingest`` and ``mjstats export`` from the command line."""

from __future__ import annotations

from mjstats.cli import main


def _bad_file(tmp_path, sample_path):
    text = sample_path.read_text(encoding="utf-8")
    text = text.replace("Player 1 Draw T2", "Player 1 Draw T0", 1)  # bad tile in match 1
    text = text.replace("Player 3 AnGang W7", "Player 3 Yell W7", 1)  # unknown verb
    # a record cut short (no Score line) in the middle of the file
    cut = text.index("Fan 9 三色三步高*1+箭刻*1+嵌张*1\nScore -8 33 -17 -8\n")
    text = text[:cut] + text[text.index("\n\n", cut):]
    path = tmp_path / "bad.txt"
    path.write_bytes(text.encode("utf-8") + b"Match ffffffffffffffffffffffff\nWind \xff\n")
    return path


def test_ingest_summary(tmp_path, sample_path, capsys):
    assert main(["ingest", "--format", "botzone", str(sample_path), "--out", str(tmp_path / "ds")]) == 0
    out = capsys.readouterr().out
    assert "matches 16" in out and "hands 16 (wins 14, exhaustive draws 2)" in out
    assert "events 1,672" in out and "rejects 0" in out


def test_bad_input_warns_exit_0_and_strict_exit_2(tmp_path, sample_path, capsys):
    bad = _bad_file(tmp_path, sample_path)
    assert main(["ingest", "-f", "botzone", str(bad), "-o", str(tmp_path / "ds")]) == 0
    captured = capsys.readouterr()
    err, out = captured.err, captured.out
    lines = [line for line in err.splitlines() if line.startswith("warning: rejected")]
    assert len(lines) == 4
    assert f"{bad}:9 (match 61602cb45ddc087351c04358): bad tile code 'T0'" in lines[0]
    assert "(match 61602cb45ddc087351c0435d): truncated record: no Score line" in lines[1]
    assert "unknown action 'Yell'" in lines[2]
    assert "invalid UTF-8" in lines[3] and "ffffffffffffffffffffffff" in lines[3]
    assert "warning: 4 record(s) rejected" in err
    assert "hands 13" in out  # every good record was still read (16 - 3 bad in the sample)
    assert main(["ingest", "-f", "botzone", str(bad), "-o", str(tmp_path / "ds2"), "--strict"]) == 2


def test_missing_file_is_one_line_no_traceback(tmp_path, capsys):
    assert main(["ingest", "-f", "botzone", str(tmp_path / "nope.txt"), "-o", str(tmp_path / "d")]) == 2
    err = capsys.readouterr().err
    assert err.strip() == f"mjstats ingest: error: {tmp_path / 'nope.txt'}: no such file"


def test_open_non_dataset_is_one_line(tmp_path, capsys):
    assert main(["export", str(tmp_path / "none")]) == 2
    assert "no such dataset" in capsys.readouterr().err


def test_ingest_audit_leaves_the_audit_tables_of_ingest_then_audit(tmp_path, sample_path, capsys):
    """``ingest --audit`` (one command): the same audit tables, row for row, as ``ingest`` then
    ``audit``, on the sample with bad records among the good; the summary prints both stages."""
    from mjstats.audit import AUDIT_SCHEMAS
    from mjstats.store import open_dataset

    bad = _bad_file(tmp_path, sample_path)
    one, two = tmp_path / "one", tmp_path / "two"
    assert main(["ingest", "--audit", "-f", "botzone", str(bad), "-o", str(one)]) == 0
    out = capsys.readouterr().out
    assert "hands 13" in out and "audited 13 hands" in out
    assert "rejected records (not replayable, see the rejects table): 4" in out
    assert main(["ingest", "-q", "-f", "botzone", str(bad), "-o", str(two)]) == 0
    assert main(["audit", "-q", str(two)]) == 0
    capsys.readouterr()
    a, b = open_dataset(one), open_dataset(two)
    assert a.path.name == b.path.name  # an ingest, then an audit: two versions each way
    for name in AUDIT_SCHEMAS:
        assert a.arrow(name).equals(b.arrow(name)), name
        assert a.arrow(name).num_rows or name == "findings"


def test_ingest_audit_quiet_prints_nothing_and_a_bad_job_count_writes_nothing(tmp_path, sample_path, capsys):
    out = tmp_path / "ds"
    assert main(["ingest", "--audit", "-q", "-f", "botzone", str(sample_path), "-o", str(out)]) == 0
    assert capsys.readouterr().out == ""
    assert open_dataset_tables(out) >= {"audited_hands", "findings", "hands"}
    assert main(["ingest", "--audit", "-j", "0", str(sample_path), "-o", str(tmp_path / "new")]) == 2
    assert "--jobs must be at least 1" in capsys.readouterr().err
    assert not (tmp_path / "new").exists()


def open_dataset_tables(path) -> set[str]:
    from mjstats.store import open_dataset

    return set(open_dataset(path).tables)
