"""``mjstats simulate``: output, players, and clear errors for bad arguments."""

from __future__ import annotations

from pathlib import Path

import pytest

from mjstats.cli import main
from mjstats.formats.canonical import read_canonical
from mjstats.records import Hand
from mjstats.sim import PlayerSpec, parse_players


def _run(*args: str) -> int:
    return main(["simulate", *args])


def test_writes_hands_and_a_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "fz.jsonl"
    assert _run("--rules", "fuzhou", "--hands", "20", "--seed", "3", "--out", str(out)) == 0
    hands = list(read_canonical(out))
    assert len(hands) == 20 and all(isinstance(h, Hand) for h in hands)
    assert {h.match_id for h in hands} == {
        "sim-fuzhou-seed-s3-m00000",
        "sim-fuzhou-seed-s3-m00001",
        "sim-fuzhou-seed-s3-m00002",
    }
    text = capsys.readouterr().out
    # the rule profile is also called "seed": say which "seed" is which
    assert "simulated 20 fuzhou hands (rule profile seed, random seed 3) into " in text
    assert not (tmp_path / "fz.faults.jsonl").exists()  # no --faults, no fault list


def test_players_names_and_styles(tmp_path: Path) -> None:
    out = tmp_path / "gb.jsonl"
    players = "Li:aggressive,Wang,Zhao:defensive,Qian:greedy"
    assert _run("--rules", "guobiao", "--hands", "3", "--out", str(out), "--players", players, "-q") == 0
    hand = next(iter(read_canonical(out)))
    assert isinstance(hand, Hand)
    style = dict(zip(hand.players, hand.styles, strict=True))
    assert style == {"Li": "aggressive", "Wang": "defensive", "Zhao": "defensive", "Qian": "greedy"}


def test_parse_players_defaults() -> None:
    assert parse_players(None, "fuzhou")[3] == PlayerSpec("dee", "goldthrower")
    assert parse_players("a,b,c,d", "guobiao")[3] == PlayerSpec("d", "flush")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rules", "guobiao", "--hands", "0"], "--hands must be at least 1"),
        (["--rules", "guobiao", "--hands", "5", "--faults", "1.5"], "--faults is a share of hands"),
        (["--rules", "guobiao", "--hands", "5", "--seed", "-1"], "--seed must not be negative"),
        (["--rules", "guobiao", "--hands", "5", "--profile", "platform"], "Botzone rules only"),
        (["--rules", "fuzhou", "--hands", "5", "--profile", "nope.toml"], "not seed, platform or a TOML"),
        (["--rules", "fuzhou", "--hands", "5", "--players", "a,b,c"], "four players"),
        (
            ["--rules", "guobiao", "--hands", "5", "--players", "a,b,c,d:goldkeeper"],
            "unknown guobiao bot style 'goldkeeper'",
        ),
        (["--rules", "guobiao", "--hands", "5", "--players", "a,a,c,d"], "names must differ"),
    ],
)
def test_bad_arguments_are_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    out = tmp_path / "x.jsonl"
    assert _run(*args, "--out", str(out)) == 2
    err = capsys.readouterr().err
    assert err.startswith("mjstats simulate: error: ") and message in err
    assert err.count("\n") == 1
    assert not out.exists()


def test_missing_output_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _run("--rules", "guobiao", "--hands", "1", "--out", str(tmp_path / "no" / "x.jsonl")) == 2
    assert "does not exist" in capsys.readouterr().err


def test_non_numeric_hands_is_an_argparse_error(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exc:
        _run("--rules", "guobiao", "--hands", "many", "--out", str(tmp_path / "x.jsonl"))
    assert exc.value.code == 2


def test_an_existing_file_is_replaced_only_with_force(tmp_path: Path, capsys) -> None:
    """simulate never replaces a user's file unasked: an existing --out (or its faults file)
    is refused with one line, and replaced with --force."""
    out = tmp_path / "mine.jsonl"
    out.write_text("my notes\n", encoding="utf-8")
    assert _run("--rules", "guobiao", "--hands", "2", "--out", str(out), "-q") == 2
    assert "exists; use --force" in capsys.readouterr().err
    assert out.read_text(encoding="utf-8") == "my notes\n"
    faults = tmp_path / "fresh.faults.jsonl"
    faults.write_text("kept\n", encoding="utf-8")
    fresh = tmp_path / "fresh.jsonl"
    assert _run("--rules", "guobiao", "--hands", "2", "--faults", "0.5", "--out", str(fresh), "-q") == 2
    assert not fresh.exists() and faults.read_text(encoding="utf-8") == "kept\n"
    assert _run("--rules", "guobiao", "--hands", "2", "--out", str(out), "--force", "-q") == 0
    assert out.read_text(encoding="utf-8").startswith("{")
