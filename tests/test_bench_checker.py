"""bench/checker.py, the audit's speed reference: it must agree with the sample's records and
catch a broken one, else the speed comparison measures a checker that checks nothing."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytest.importorskip("MahjongGB")

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "data" / "botzone" / "sample.txt"


def _checker():
    spec = importlib.util.spec_from_file_location("bench_checker", ROOT / "bench" / "checker.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_checker"] = module
    spec.loader.exec_module(module)
    return module


def _records() -> list[list[str]]:
    return list(_checker().records(SAMPLE))


def test_the_sample_replays_without_problems() -> None:
    checker = _checker()
    replays = [checker.check_record(lines) for lines in _records()]
    assert len(replays) == 16
    assert sum(r.win is not None for r in replays) == 14  # 14 wins, 2 exhaustive draws
    assert [p for r in replays for p in r.problems] == []


def _broken(change) -> list[str]:
    checker = _checker()
    lines = next(r for r in _records() if any(x.startswith("Fan") for x in r))
    return checker.check_record(change(list(lines))).problems


def test_a_wrong_fan_line_is_caught() -> None:
    def change(lines: list[str]) -> list[str]:
        i = next(i for i, x in enumerate(lines) if x.startswith("Fan"))
        words = lines[i].split()
        lines[i] = f"Fan {int(words[1]) + 1} {words[2]}"
        return lines

    assert any("fan total" in p for p in _broken(change))


def test_a_wrong_score_is_caught() -> None:
    def change(lines: list[str]) -> list[str]:
        i = next(i for i, x in enumerate(lines) if x.startswith("Score"))
        s = [int(w) for w in lines[i].split()[1:]]
        lines[i] = f"Score {s[0] + 1} {s[1] - 1} {s[2]} {s[3]}"
        return lines

    assert any("scores" in p for p in _broken(change))


def test_a_discard_not_held_is_caught() -> None:
    def change(lines: list[str]) -> list[str]:
        i = next(i for i, x in enumerate(lines) if " Play " in x)
        seat = lines[i].split()[1]
        deal = next(x for x in lines if x.startswith(f"Player {seat} Deal")).split()[3:]
        absent = next(t for t in ("F1", "F2", "F3", "F4", "J1", "J2", "J3", "W5") if t not in deal)
        lines[i] = f"Player {seat} Play {absent}"
        return lines

    assert any("without holding" in p for p in _broken(change))
