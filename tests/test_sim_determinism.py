"""The simulator is deterministic: same seed, same bytes; matches do not depend on the run size."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mjstats.formats.canonical import read_canonical, write_canonical
from mjstats.sim import SimConfig, parse_players, simulate, simulate_with_faults


def _bytes(config: SimConfig, rate: float = 0.0) -> bytes:
    out = io.BytesIO()
    write_canonical((h for h, _ in simulate_with_faults(config, rate)), out)
    return out.getvalue()


@pytest.mark.parametrize("ruleset", ["guobiao", "fuzhou"])
def test_same_seed_same_bytes(ruleset: str) -> None:
    config = SimConfig(ruleset, 40, seed=11)
    first = _bytes(config)
    assert first == _bytes(config)
    assert first != _bytes(SimConfig(ruleset, 40, seed=12))


def test_same_seed_same_bytes_with_faults_and_platform_profile() -> None:
    config = SimConfig("fuzhou", 30, seed=3, profile="platform")
    assert _bytes(config, 0.3) == _bytes(config, 0.3)
    assert _bytes(config, 0.3) != _bytes(config)  # faults change some records


@pytest.mark.parametrize("ruleset", ["guobiao", "fuzhou"])
def test_a_short_run_is_a_prefix_of_a_long_one(ruleset: str) -> None:
    short = _bytes(SimConfig(ruleset, 10, seed=5))
    long = _bytes(SimConfig(ruleset, 25, seed=5))
    assert long.startswith(short)


def test_faults_do_not_change_the_play() -> None:
    """A faulted run differs from the clean run only in the faulted hands."""
    config = SimConfig("guobiao", 48, seed=2)
    clean = list(simulate(config))
    faulted = list(simulate_with_faults(config, 0.5))
    changed = {(h.match_id, h.hand_no) for (h, f) in faulted if f is not None}
    assert changed
    for c, (h, f) in zip(clean, faulted, strict=True):
        assert (c == h) == (f is None)


def test_records_read_back_unchanged() -> None:
    hands = list(simulate(SimConfig("fuzhou", 16, seed=9, players=parse_players("x,y:flush,z,w", "fuzhou"))))
    out = io.BytesIO()
    write_canonical(hands, out)
    back = list(read_canonical(io.BytesIO(out.getvalue()).readlines()))
    assert back == hands  # provenance is not compared (Hand.provenance has compare=False)


def test_same_bytes_across_processes_and_hash_seeds(tmp_path: Path) -> None:
    """The CLI output does not depend on PYTHONHASHSEED (set iteration, str hashing)."""
    outputs = []
    for hash_seed in ("1", "2"):
        out = tmp_path / f"run{hash_seed}.jsonl"
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        for ruleset in ("guobiao", "fuzhou"):
            target = out.with_name(f"{ruleset}-{out.name}")
            cmd = [
                sys.executable,
                "-m",
                "mjstats",
                "simulate",
                "--rules",
                ruleset,
                "--hands",
                "12",
                "--seed",
                "4",
                "--out",
                str(target),
                "--faults",
                "0.3",
                "-q",
            ]
            subprocess.run(cmd, check=True, env=env)
            outputs.append(
                (
                    ruleset,
                    target.read_bytes(),
                    target.with_name(target.name.replace(".jsonl", ".faults.jsonl")).read_bytes(),
                )
            )
    assert outputs[:2] == outputs[2:]
