"""Each platform's replay is imported alone for its hands (``Ruleset.platform_replays``): an audit
of Botzone hands does not load the other Guobiao platforms' replays, and every module named for a
platform registers that platform's profile."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

from mjstats.replay.replayer import _PROFILES, load_replay_profiles
from mjstats.rulesets import recorded

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "data" / "botzone" / "sample.txt"
OTHERS = ("mjstats.rulesets.guobiao.replay_human2017", "mjstats.rulesets.guobiao.replay_mcr",
          "mjstats.formats.human_tsv")


def test_every_platform_module_registers_its_platform_and_all_are_named() -> None:
    for ruleset in recorded():
        named = dict(ruleset.platform_replays)
        for platform, module in named.items():
            importlib.import_module(f"{ruleset.package}.{module}")
            assert (ruleset.name, platform) in _PROFILES, (ruleset.name, platform, module)
        if named:  # then every platform the ruleset's whole replay part registers is named
            load_replay_profiles(ruleset.name)
            registered = {p for r, p in _PROFILES if r == ruleset.name}
            assert registered == set(named), ruleset.name


def test_a_botzone_audit_loads_no_other_platform(tmp_path: Path) -> None:
    code = (
        "import sys, contextlib, io\n"
        "from mjstats.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    code = main(['ingest', '-q', '--audit', '--format', 'botzone', {str(SAMPLE)!r},"
        f" '--out', {str(tmp_path / 'ds')!r}])\n"
        "assert code == 0, code\n"
        f"print(','.join(m for m in {OTHERS!r} if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True)
    assert done.stdout.strip() == ""
    assert "mjstats.rulesets.guobiao.replay_botzone" in _loaded(tmp_path)


def _loaded(tmp_path: Path) -> str:
    """The modules a plain audit of the same dataset loads (the Botzone replay among them)."""
    code = (
        "import sys, contextlib, io\n"
        "from mjstats.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main(['audit', '-q', {str(tmp_path / 'ds')!r}])\n"
        "print(','.join(m for m in sys.modules if m.startswith('mjstats.rulesets.guobiao.replay')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True)
    return done.stdout
