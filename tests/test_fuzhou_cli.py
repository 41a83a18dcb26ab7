"""``mjstats fan --rules fuzhou``: options, text and JSON output, profiles, errors."""

from __future__ import annotations

import json

import pytest

from mjstats.cli import main
from mjstats.errors import InvalidHand
from mjstats.rulesets.fuzhou.cli_fan import flowers_option, parse_melds
from mjstats.tiles import parse_tiles

EXAMPLE_TWO = [
    "fan", "--rules", "fuzhou", "T4 T4 W5 W6 W7 B1 B2 B3 B5 B6",
    "--win", "B7",
    "--gold", "T4",
    "--flowers", "F2 H1 H3 H6",
    "--melds", "CHI W3 3, GANG T7 2",
    "--seat", "1",
    "--dealer", "0",
    "--discarder", "3",
    "--streak", "1",
]  # fmt: skip


def test_text_output_example_two(capsys):
    assert main(EXAMPLE_TWO) == 0
    out = capsys.readouterr().out
    assert "金雀 (60)" in out
    assert "flowers 4 + kongs 1 + golds 2 + streak 1 = 8" in out
    assert "each pay: 86" in out
    assert "seat1 +86" in out and "seat3 -86" in out


def test_json_output_example_one(capsys):
    argv = [
        "fan", "--rules", "fuzhou", "B2 B2 W1 W4 T1 T4 B5 B8 W9 T6", "--win", "B2",
        "--gold", "B2", "--flowers", "F1 F3 H2 H7", "--melds", "PENG T9 2; CHI W7 3",
        "--streak", "2", "--json",
    ]  # fmt: skip
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rules"] == "fuzhou"
    assert data["pattern"] == "三金倒"
    assert data["payments"] == [204, -68, -68, -68]
    assert data["fan"] == {"flowers": 4, "kongs": 0, "golds": 3, "streak": 2, "total": 9}
    assert data["profile"] == "seed"


def test_profile_option(capsys, tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text('discard_win_payer = "all"\n', encoding="utf-8")
    assert main([*EXAMPLE_TWO, "--profile", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["profile"] == "mine"
    assert data["payments"] == [-86, 258, -86, -86]


def test_errors_are_one_line(capsys):
    assert main(["fan", "--rules", "fuzhou", "W1 W2", "--win", "W3"]) == 2
    assert "--gold" in capsys.readouterr().err
    argv = [*EXAMPLE_TWO[:-2], "--streak", "1", "--profile", "nosuch"]
    assert main(argv) == 2
    assert "unknown profile" in capsys.readouterr().err
    not_a_win = [*EXAMPLE_TWO]
    not_a_win[not_a_win.index("B7")] = "B9"
    not_a_win[not_a_win.index("T4")] = "T5"  # the gold: T4 T4 become a plain pair
    assert main(not_a_win) == 2
    assert "does not win" in capsys.readouterr().err


def test_flower_count_is_refused_for_fuzhou(capsys):
    argv = [*EXAMPLE_TWO]
    argv[argv.index("F2 H1 H3 H6")] = "4"
    assert main(argv) == 2
    assert "flower tiles" in capsys.readouterr().err


def test_flowers_option_and_melds_syntax():
    assert flowers_option("3") == 3  # the Guobiao count still works
    assert flowers_option("F1 H2") == parse_tiles("F1 H2")
    assert parse_melds("GANG T7 0; peng b1") == [("GANG", 15, 0), ("PENG", 18, 1)]
    with pytest.raises(InvalidHand):
        parse_melds("PENG")
    with pytest.raises(InvalidHand):
        parse_melds("PENG T1 x")
