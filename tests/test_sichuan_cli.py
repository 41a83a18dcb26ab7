"""``mjstats fan --rules sichuan`` in a subprocess: the JSON contract (fan before the cap, capped
multiplier, primary pattern, 根), both profiles, and one-line errors with exit code 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def fan(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "mjstats", "fan", "--rules", "sichuan", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=False,
    )


def fan_json(*args: str) -> dict:
    done = fan(*args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


# (argv, seed (fan, multiplier, pattern, gen), platform (fan, multiplier, pattern, gen))
CASES = [
    (  # E7: 杠上花 清对 with two kongs, capped
        ["B9 B9 B1 B1", "--win", "B1", "--melds", "GANG B2 0, PENG B5 1, GANG B7 0", "--kong-win"],
        (6, 32, "清对", 2),
        (7, 64, "清对", 2),
    ),
    (  # E8: 金钩钓
        ["W9", "--win", "W9", "--melds", "PENG W2 1, PENG W6 2, GANG T3 1, PENG T8 3"],
        (2, 4, "对对胡", 1),
        (3, 8, "对对胡", 1),
    ),
    (  # E4 P2: seven pairs on a 杠上炮
        ["T4 T8 T8 B2 B2 B3 B3 B5 B5 B6 B6 B9 B9", "--win", "T4", "--kong-discard", "--void", "W"],
        (3, 8, "七对", 0),
        (3, 8, "七对", 0),
    ),
    (  # E5: robbing a kong
        ["B1 B1 B1 B2 B2 B3 B4 B6 B6 B6 B7 B8 B9", "--win", "B5", "--robbed-kong"],
        (2, 4, "清一色", 0),
        (3, 8, "清一色", 0),
    ),
    (  # E2: 龙七对 with an extra 根
        ["W2 W2 W2 W2 W5 W5 W8 W8 B3 B3 B3 B3 B7", "--win", "B7"],
        (5, 32, "龙七对", 1),
        (5, 32, "龙七对", 1),
    ),
    (  # 清龙七对, self-drawn on the last tile
        ["W1 W1 W2 W2 W4 W4 W4 W4 W5 W5 W7 W7 W9", "--win", "W9", "--self-drawn", "--last-tile"],
        (5, 32, "清龙七对", 0),
        (6, 64, "清龙七对", 0),
    ),
    (  # 天胡
        ["W1 W1 W1 W2 W3 W4 W5 W6 W7 T8 T8 T8 T9", "--win", "T9", "--heavenly"],
        (5, 32, "天胡", 0),
        (6, 64, "天胡", 0),
    ),
]


@pytest.mark.parametrize(("argv", "seed", "platform"), CASES)
def test_json_contract_under_both_profiles(argv, seed, platform):
    for profile, expected in (("seed", seed), ("platform", platform)):
        data = fan_json(*argv, "--profile", profile)
        assert (data["fan"], data["multiplier"], data["pattern"], data["gen"]) == expected
        assert data["rules"] == "sichuan" and data["profile"] == profile


def test_text_output_and_default_profile():
    done = fan("B9 B9 B1 B1", "--win", "B1", "--melds", "GANG B2 0, PENG B5 1, GANG B7 0", "--kong-win")
    assert done.returncode == 0, done.stderr
    assert "清对 (3)" in done.stdout and "= 6" in done.stdout and "x32 (capped)" in done.stdout
    assert "profile:    seed" in done.stdout


def test_user_profile_file(tmp_path):
    path = tmp_path / "room.toml"
    path.write_text('[fan]\ncap_fan = 3\n', encoding="utf-8")
    data = fan_json("W2 W2 W2 W2 W5 W5 W8 W8 B3 B3 B3 B3 B7", "--win", "B7", "--profile", str(path))
    assert (data["fan"], data["multiplier"], data["profile"]) == (5, 8, "room")


PLAIN = "W1 W2 W3 W4 W5 W6 B2 B3 B4 B5 B7 B8 B8"  # 平胡 on B6


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["W1 W2 W3 W4 W5 W6 B2 B3 B4 B5 B7 B8 B8", "--win", "B1"], "not a winning hand"),
        (["W1 W2 W3 T1 T2 T3 B1 B2 B3 B4 B4 B5 B6", "--win", "B7"], "three suits"),
        (["W1 W2 W3 T1 T2 T3 T4 T5 T6 T7 T7 T8 T9", "--win", "W1", "--void", "W"], "void suit"),
        (["W1 W2 W3 T1 T2 T3 T4 T5 T6 T7 T7 T8 J1", "--win", "J1"], "suited"),
        (["W1 W1 W1 W1 T2 T3 T4 T5 T6 T7 T7 T8 T9", "--win", "W1"], "only 4"),
        ([PLAIN, "--win", "B6", "--void", "X"], "unknown suit"),
        ([PLAIN, "--win", "B6", "--kong-discard", "--self-drawn"], "杠上炮"),
        ([PLAIN, "--win", "B6", "--profile", "nosuch"], "unknown Sichuan"),
        ([PLAIN, "--win", "B6", "--gold", "B1"], "--gold"),
        ([PLAIN, "--win", "B6", "--seat-wind", "2"], "--seat-wind"),
        ([PLAIN, "--win", "B6", "--flowers", "2"], "no flower"),
        (["W1 W2 W3 W4 W5 W6 B2 B3 B8", "--win", "B8", "--melds", "CHI B6 1"], "chow"),
    ],
)
def test_errors_are_one_line_and_exit_2(argv, message):
    done = fan(*argv)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], done.stderr
