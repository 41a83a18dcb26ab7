"""The ``mjstats fan`` command."""

from __future__ import annotations

import json

import pytest

from mjstats.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["fan", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_text_output_lists_fans_points_tiles_and_total(capsys):
    code, out, _ = run(capsys, "W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9 W9", "--win", "W5")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["88", "九莲宝灯", "Nine"]
    assert "W1 W1 W1 W9 W9 W9" in lines[1]
    assert lines[-1] == "total 91"


def test_json_output_and_any_notation(capsys):
    code, out, _ = run(capsys, "55m45p", "--win", "6p", "--melds", "PENG 1z 1, CHI T5 2, GANG 中 0",
                       "--self-drawn", "--flowers", "2", "--json")
    assert code == 0
    data = json.loads(out)
    names = [f["name"] for f in data["fans"]]
    assert names == ["五门齐", "箭刻", "圈风刻", "门风刻", "暗杠", "喜相逢", "自摸", "花牌"]
    assert data["total"] == 18 and data["fan_total"] == 16 and data["meets_minimum"]
    assert data["rules"] == "guobiao" and data["profile"] == "standard"
    assert {"kind": "kong", "tiles": ["J1"] * 4, "exposed": False} in data["sets"]
    assert data["fans"][1]["tiles"] == [["J1", "J1", "J1", "J1"]]


def test_flags_and_winds_reach_the_calculator(capsys):
    _, out, _ = run(capsys, "W1 W2 W3 T4 T5 T6 B7 B8 B9 F2 F2 F2 J1", "--win", "J1",
                    "--seat-wind", "1", "--round-wind", "1", "--last-tile", "--json")
    names = {f["name"] for f in json.loads(out)["fans"]}
    assert {"圈风刻", "门风刻", "海底捞月"} <= names


def test_profile_option(capsys):
    _, out, _ = run(capsys, "W1 W2 W3 T4 T5 T6 B7 B8 B9 W9 W9 W9 F1", "--win", "F1", "--self-drawn",
                    "--profile", "platform_extras", "--heavenly", "--json")
    data = json.loads(out)
    assert data["fans"][0]["name"] == "天和" and data["profile"] == "platform_extras"


def test_below_minimum_is_flagged(capsys):
    _, out, _ = run(capsys, "W1 W2 W3 T4 T5 T6 B1 B1 B1 W5 W6 F1 F1", "--win", "W7")
    assert out.splitlines()[-1].startswith("total") and "below the 8-fan minimum" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["W1 W2 W4 W5 W7 W8 T1 T2 T4 T5 B1 B2 F1", "--win", "J1"], "not a winning hand"),
        (["W1 W2", "--win", "W3"], "expected 13"),
        (["W1 W2 W3 T4 T5 T6 B7 B8 B9 W9 W9 W9 F1", "--win", "X1"], "unknown tile"),
        (["W2 W3 W4 W5 W6 W7 W8 W9 T1 T2", "--win", "T3", "--melds", "PENG F1"], "KIND TILE OFFER"),
    ],
)
def test_errors_are_one_line_exit_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err


def test_rules_option_defaults_to_guobiao(capsys):
    with pytest.raises(SystemExit):
        main(["fan", "W1", "--win", "W1", "--rules", "riichi"])
    assert "invalid choice" in capsys.readouterr().err
