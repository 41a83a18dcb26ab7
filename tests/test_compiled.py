"""The compiled build (mjstats.compiled): which modules it names, what a process reports, that
a compiled calculator scores exactly as its pure-Python source on generated hands, and that the
compiled replay finds what the pure one finds.

In the normal run these tests check the pure package; ``make test-compiled`` runs them again on
``build/compiled`` (conftest refuses that run if a named module is not compiled there), where the
last test loads the pure source of the calculator beside the compiled one and compares them.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mjstats.compiled import compiled_modules, compiled_status, describe_build
from mjstats.errors import RuleError
from tests.test_guobiao_handgen import HandGenerator

SOURCE = Path(__file__).resolve().parent.parent / "mjstats"
REQUIRED = os.environ.get("MJSTATS_REQUIRE_COMPILED") == "1"


def test_every_named_module_exists_as_source() -> None:
    assert compiled_modules()
    for name in compiled_modules():
        path = SOURCE.joinpath(*name.split(".")[1:]).with_suffix(".py")
        assert path.is_file(), name
        importlib.import_module(name)


def test_the_build_reported_is_the_one_imported() -> None:
    status = compiled_status()
    assert list(status) == list(compiled_modules())
    for name, compiled in status.items():
        origin = sys.modules[name].__file__ or ""
        assert compiled == (not origin.endswith(".py")), (name, origin)
    if REQUIRED:
        assert all(status.values())
        assert describe_build().startswith("mjstats build: compiled (")
    elif not any(status.values()):
        assert describe_build() == "mjstats build: pure Python"


def _pure_calculator():
    """The calculator's pure-Python source as a module of its own (its imports are the build's)."""
    path = SOURCE / "rulesets" / "guobiao" / "calculator.py"
    spec = importlib.util.spec_from_file_location("mjstats_pure_calculator", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module


def _score(calculate, case):
    hand, melds, win = case.our_args()
    try:
        result = calculate(hand, melds, win, **case.kwargs())
    except RuleError as exc:
        return type(exc).__name__, str(exc)
    return (result.total, result.form, [tuple(item) for item in result.fans], result.profile,
            [(kind, tuple(t.botzone for t in tiles), exposed) for kind, tiles, exposed in result.sets])


@pytest.mark.skipif(not REQUIRED, reason="compares the compiled calculator with its source: "
                    "run by `make test-compiled` on build/compiled")
def test_the_compiled_calculator_scores_as_its_source() -> None:
    from mjstats.rulesets.guobiao import calculator

    pure = _pure_calculator()
    assert (pure.__file__ or "").endswith(".py")
    assert not (calculator.__file__ or "").endswith(".py")
    cases = HandGenerator(7).cases(3000)
    assert sum(c.kind == "win" for c in cases) > 1000
    for case in cases:
        expected = _score(pure.calculate_fans, case)
        assert _score(calculator.calculate_fans, case) == expected, case


def replay_digest() -> list[str]:
    """What the replay finds, one line a hand: the Botzone sample and each faulted copy of it
    (every check of tests/faults.py), simulated Sichuan and Fuzhou hands; with the build's name
    first. Run in this process and in a pure-Python child, the lines must be equal."""
    from mjstats.replay import replay_hand
    from mjstats.sim import SimConfig, simulate
    from tests.faults import FAULTS
    from tests.test_replay_oracle import sample_hands

    hands = list(sample_hands())
    hands += [f for fault in FAULTS for h in sample_hands() if (f := fault.make(h)) is not None]
    hands += list(simulate(SimConfig("sichuan", 120, 7))) + list(simulate(SimConfig("fuzhou", 40, 7)))
    lines = [describe_build()]
    for hand in hands:
        result = replay_hand(hand)
        # int(): where an annotation says int the compiled build holds a plain int, the pure one
        # may hold the event's Tile (an int subclass: equal, same hash, same ALL_KINDS entry)
        wins = [(n, ctx.winner, int(ctx.win_tile),
                 None if win is None else (win.total, win.fans, win.payments)) for n, ctx, win in result.wins]
        findings = [str(f) for f in result.findings]
        lines.append(f"{hand.match_id}/{hand.hand_no} {result.status} {findings} {wins}")
    return lines


@pytest.mark.skipif(not REQUIRED, reason="compares the compiled replay with the pure one: "
                    "run by `make test-compiled` on build/compiled")
def test_the_compiled_replay_finds_what_the_pure_one_finds() -> None:
    root = SOURCE.parent
    child = subprocess.run(
        [sys.executable, "-P", "-c",
         "from tests.test_compiled import replay_digest; print('\\n'.join(replay_digest()))"],
        capture_output=True, text=True, cwd=root, env={**os.environ, "PYTHONPATH": str(root)},
        check=True,
    )
    pure = child.stdout.splitlines()
    compiled = replay_digest()
    assert pure[0] == "mjstats build: pure Python"
    assert compiled[0].startswith("mjstats build: compiled (")
    assert len(pure) == len(compiled) > 200
    assert sum("clean" not in line.split()[1] for line in pure[1:]) > 50  # the faults are found
    assert pure[1:] == compiled[1:]
