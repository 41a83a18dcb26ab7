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


def pure_child_lines(digest: str, *args: str) -> list[str]:
    """The lines ``digest`` (``"tests.module:function"``, called with ``args``) returns, made in a
    child process on the pure package (no build on its path): the compiled side's reference."""
    module, function = digest.split(":")
    code = (f"import sys; from {module} import {function}; "
            f"print('\\n'.join({function}(*sys.argv[1:])))")
    root = SOURCE.parent
    child = subprocess.run(
        [sys.executable, "-P", "-c", code, *args],
        capture_output=True, text=True, cwd=root, env={**os.environ, "PYTHONPATH": str(root)},
        check=True,
    )
    return child.stdout.splitlines()


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


def _sichuan_results(n: int = 3000, seed: int = 11) -> list[object]:
    """Every outcome of the Sichuan settlement path on seeded random hands, as plain JSON data:
    ``settle_hand`` of bench/sichuan.py's random hands (kongs, one or two wins, 杠上炮, the
    exhaustive draw) under both bundled profiles, the same hands cut short (open, or a rule
    broken), and ``is_winning_hand`` / ``waits`` of random two-suit hands; an error as its
    class and message."""
    import random

    from bench.sichuan import complete_hand, random_hand_events
    from mjstats.errors import MjstatsError
    from mjstats.rulesets.sichuan import is_winning_hand, settle_hand, waits

    def settled(events: list[object], dealer: int, profile: str) -> object:
        try:
            s = settle_hand(events, dealer=dealer, profile=profile)  # type: ignore[arg-type]
        except MjstatsError as exc:
            return {"error": type(exc).__name__, "message": str(exc)}
        return [
            [[p.payer, p.payee, p.amount, p.reason, p.detail, p.event, p.dataset_reason] for p in s.payments],
            list(s.totals),
            [[seat, score.as_dict(), list(score.tiles), [list(m) for m in score.melds]]
             for seat, score in s.wins],
            list(s.winners), s.ended, s.next_dealer, s.profile,
            [[e.seat, e.flower_pig, [int(t) for t in e.waits], e.dead_wait, e.value] for e in s.end_status],
        ]

    def called(fn, *args: object, **kwargs: object) -> object:
        try:
            out = fn(*args, **kwargs)
        except MjstatsError as exc:
            return {"error": type(exc).__name__, "message": str(exc)}
        return sorted(int(t) for t in out) if isinstance(out, frozenset) else out

    rng = random.Random(seed)
    results: list[object] = []
    for k in range(n):
        events = random_hand_events(rng)
        dealer, profile = k % 4, ("seed", "platform")[k % 2]
        results.append(settled(events, dealer, profile))
        if k % 5 == 0:  # cut short: no hand end (open), or an event dropped (often a broken rule)
            results.append(settled(events[:-1], dealer, profile))
            half = len(events) // 2
            results.append(settled(events[:half] + events[half + 1 :], dealer, profile))
        suits = rng.sample(range(3), 2)
        pool = [f"{'WTB'[s]}{r + 1}" for s in suits for r in range(9) for _ in range(4)]
        tiles = rng.sample(pool, 14)
        complete = complete_hand(rng, suits)
        if complete is not None and k % 2:  # a winning shape (七对 aside), its last tile the wait
            tiles = [f"{'WTB'[c // 9]}{c % 9 + 1}" for c in complete]
        void = rng.choice((None, 0, 1, 2, "W", "T", "B"))
        results.append(called(is_winning_hand, tiles, void=void))
        results.append(called(waits, tiles[:13], void=void))
    return results


@pytest.mark.skipif(not REQUIRED, reason="compares the compiled Sichuan settlement with the pure "
                    "package: run by `make test-compiled` on build/compiled")
def test_the_compiled_sichuan_settlement_settles_as_its_source() -> None:
    import json
    import subprocess

    from mjstats.rulesets.sichuan import fan, settle, win

    for module in (settle, fan, win):
        assert not (module.__file__ or "").endswith(".py"), module.__name__
    root = SOURCE.parent
    code = ("import json; from mjstats.compiled import describe_build; "
            "from tests.test_compiled import _sichuan_results; "
            "print(describe_build()); print(json.dumps(_sichuan_results(), ensure_ascii=False))")
    env = {**os.environ, "PYTHONPATH": str(root)}
    env.pop("MJSTATS_REQUIRE_COMPILED", None)
    run = subprocess.run([sys.executable, "-P", "-c", code], cwd=root, env=env, capture_output=True,
                         text=True, encoding="utf-8", check=True)
    build, pure_json = run.stdout.splitlines()
    assert build == "mjstats build: pure Python"
    pure = json.loads(pure_json)
    compiled = json.loads(json.dumps(_sichuan_results(), ensure_ascii=False))
    assert len(compiled) == len(pure) > 9000
    assert sum(isinstance(r, list) and len(r) == 8 for r in pure) > 2500  # settled hands
    assert sum(isinstance(r, dict) for r in pure) > 200  # errors
    for i, (expected, got) in enumerate(zip(pure, compiled, strict=True)):
        assert got == expected, i


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
    pure = pure_child_lines("tests.test_compiled:replay_digest")
    compiled = replay_digest()
    assert pure[0] == "mjstats build: pure Python"
    assert compiled[0].startswith("mjstats build: compiled (")
    assert len(pure) == len(compiled) > 200
    assert sum("clean" not in line.split()[1] for line in pure[1:]) > 50  # the faults are found
    assert pure[1:] == compiled[1:]


def readback_digest(dataset: str) -> list[str]:
    """The build, then a digest of every hand ``dataset`` reads back (its fields, provenance and
    origin) and of every table its audit writes, one line each (the audit replaces its tables,
    so each build writes its own)."""
    import hashlib
    import json

    from mjstats.audit import AUDIT_SCHEMAS, audit_dataset
    from mjstats.store import open_dataset

    def digest(text: str) -> str:
        return hashlib.sha256(text.encode()).hexdigest()[:20]

    lines = [describe_build()]
    lines.extend(
        f"{hand.ruleset} {hand.match_id} {hand.hand_no} "
        f"{digest(repr((hand, hand.provenance, hand.origin, [type(e.tile) for e in hand.events])))}"
        for hand in open_dataset(dataset).hands()
    )
    audit_dataset(dataset, jobs=1)
    with open_dataset(dataset) as ds:
        for name in sorted(AUDIT_SCHEMAS):
            table = ds.arrow(name)
            lines.append(f"{name} {table.num_rows} {digest(json.dumps(table.to_pydict(), default=str))}")
    return lines


@pytest.mark.skipif(not REQUIRED, reason="compares the compiled read-back with the pure one: "
                    "run by `make test-compiled` on build/compiled")
def test_the_compiled_read_back_rebuilds_what_the_pure_one_rebuilds(tmp_path: Path) -> None:
    from mjstats.cli import main

    root = SOURCE.parent
    dataset = tmp_path / "ds"
    data = root / "data"
    sources = [data / "botzone" / "sample.txt", data / "real"]
    for rules in ("guobiao", "fuzhou", "sichuan"):  # simulated hands with faults: findings rows too
        sources.append(tmp_path / f"{rules}.jsonl.gz")
        assert main(["simulate", "--rules", rules, "--hands", "300", "--seed", "5", "--faults", "0.3",
                     "--out", str(sources[-1])]) == 0
    assert main(["ingest", *map(str, sources), "--out", str(dataset), "-q"]) == 0
    pure = pure_child_lines("tests.test_compiled:readback_digest", str(dataset))
    compiled = readback_digest(str(dataset))
    assert pure[0] == "mjstats build: pure Python"
    assert compiled[0].startswith("mjstats build: compiled (")
    assert len(pure) == len(compiled) > 900  # 16 sample records, real logs, 900 simulated hands
    assert {line.split()[0] for line in pure[1:]} >= {"guobiao", "fuzhou", "sichuan", "computed_fans"}
    assert next(line for line in pure if line.startswith("findings ")) != "findings 0"
    assert pure[1:] == compiled[1:]


@pytest.mark.skipif(not REQUIRED, reason="the compiled build's own layout")
def test_the_builds_python_modules_are_byte_compiled() -> None:
    """``make compiled`` byte-compiles the modules it leaves as Python: a command started with
    PYTHONDONTWRITEBYTECODE would otherwise parse and compile them at every start."""
    build = Path(sys.modules["mjstats"].__file__ or "").parent
    sources = sorted(build.rglob("*.py"))
    assert sources
    missing = [str(p.relative_to(build)) for p in sources
               if not Path(importlib.util.cache_from_source(str(p))).is_file()]
    assert not missing, missing
