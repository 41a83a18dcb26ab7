"""Commands import only what they use: `mjstats --help` and `mjstats fan` load no pyarrow,
pandas or matplotlib, and the one-line help listed for each command is its parser's own."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mjstats.cli import ALL, COMMANDS, build_parser

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("pyarrow", "pandas", "matplotlib", "numpy")


def _loaded_after(argv: list[str]) -> set[str]:
    code = (
        "import sys, contextlib, io\n"
        "from mjstats.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n"
        f"        main({argv!r})\n"
        "    except SystemExit:\n"
        "        pass\n"
        f"print(','.join(m for m in {HEAVY!r} if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True)
    return {m for m in done.stdout.strip().split(",") if m}


@pytest.mark.parametrize(
    "argv",
    [
        ["--help"],
        ["fan", "W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9 W9", "--win", "W5"],
        ["fan", "--help"],
        ["fan", "--rules", "fuzhou", "W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 B1 B2 B3 T4", "--win", "B7",
         "--gold", "T4"],
    ],
    ids=["help", "fan", "fan-help", "fan-fuzhou"],
)
def test_light_commands_load_no_data_stack(argv: list[str]) -> None:
    assert _loaded_after(argv) == set()


def test_listed_help_is_each_commands_own() -> None:
    parser = build_parser(ALL)
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    listed = {a.dest: a.help for a in sub._choices_actions}
    assert listed == {name: help_text for name, (_, help_text) in COMMANDS.items()}


def test_a_command_parses_the_same_alone_or_with_all() -> None:
    argv = ["ingest", "a.txt", "--out", "DS", "--wait", "3"]
    alone, together = build_parser("ingest").parse_args(argv), build_parser(ALL).parse_args(argv)
    assert vars(alone) == {k: v for k, v in vars(together).items() if k in vars(alone)}
    assert vars(alone).keys() == vars(together).keys()


def test_the_script_entry_runs_main_then_freezes_the_collector(monkeypatch, capsys) -> None:
    """``mjstats`` and ``python -m mjstats`` run :func:`entry`: main's exit code, then every object
    frozen so that exiting skips the cycle collector's walk over them (main alone freezes nothing:
    tests and notebooks call it in-process)."""
    import gc

    from mjstats.cli import entry, main

    argv = ["mjstats", "fan", "W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9 W9", "--win", "W5"]
    monkeypatch.setattr(sys, "argv", argv)
    gc.unfreeze()
    try:
        assert main() == 0
        assert gc.get_freeze_count() == 0
        assert entry() == 0
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
    assert capsys.readouterr().out.count("total") == 2  # both runs scored the hand


def test_python_dash_m_and_the_script_name_the_script() -> None:
    main_module = (ROOT / "mjstats" / "__main__.py").read_text(encoding="utf-8")
    assert "sys.exit(script())" in main_module
    assert 'mjstats = "mjstats.cli:script"' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")


def _script(argv: list[str], prologue: str = "") -> subprocess.CompletedProcess[str]:
    """``argv`` run by :func:`mjstats.cli.script` in a fresh process, as ``python -m mjstats``
    runs it, after ``prologue``; stdout and stderr are pipes (block-buffered)."""
    code = (
        "import sys\n"
        f"{prologue}"
        "from mjstats.cli import script\n"
        f"sys.argv = ['mjstats', *{argv!r}]\n"
        "sys.exit(script())\n"
    )
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


FAN = ["fan", "W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9 W9", "--win", "W5"]
# an object freed only by the interpreter's teardown (the __main__ module's globals cleared)
TEARDOWN_WITNESS = (
    "class _Witness:\n"
    "    def __del__(self):\n"
    "        print('torn down', file=sys.stderr)\n"
    "_witness = _Witness()\n"
)


def test_the_script_leaves_without_the_teardown_its_output_and_status_whole() -> None:
    done = _script(FAN, TEARDOWN_WITNESS)
    assert done.returncode == 0
    assert "total" in done.stdout  # flushed from the pipe's buffer before leaving
    assert "torn down" not in done.stderr
    failed = _script(["ingest", "/no/such/file.txt", "--out", "/no/such/ds"], TEARDOWN_WITNESS)
    assert failed.returncode == 2 and "mjstats ingest: error" in failed.stderr
    assert "torn down" not in failed.stderr
    # the other exit handlers still run first (atexit: the last registered runs first)
    code = (
        "import sys, atexit\n"
        "from mjstats.cli import script\n"
        f"sys.argv = ['mjstats', *{FAN!r}]\n"
        "code = script()\n"
        "atexit.register(lambda: print('other handler', flush=True))\n"
        "sys.exit(code)\n"
    )
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert ran.returncode == 0 and ran.stdout.rstrip().endswith("other handler"), ran.stdout


def test_a_command_that_does_not_return_exits_the_usual_way() -> None:
    """A traceback (here: ``main`` made to raise) is printed and the interpreter tears down."""
    prologue = (
        TEARDOWN_WITNESS
        + "import mjstats.cli\n"
        + "def _broken(argv=None):\n"
        + "    raise RuntimeError('a bug')\n"
        + "mjstats.cli.main = _broken\n"
    )
    done = _script(FAN, prologue)
    assert done.returncode == 1
    assert "RuntimeError: a bug" in done.stderr and "torn down" in done.stderr


def test_main_and_entry_in_process_leave_the_exit_alone() -> None:
    """A test or notebook calling them keeps its own exit (no handler of the command's)."""
    code = (
        "import sys\n"
        "from mjstats.cli import entry, main\n"
        f"sys.argv = ['mjstats', *{FAN!r}]\n"
        "main(); entry()\n"
        "sys.exit(3)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 3


def _threads_after_numpy(through_entry: bool) -> int:
    """Threads of a fresh process once numpy is imported, after running ``mjstats --version``
    through :func:`entry` or not at all (the environment has no OpenBLAS setting)."""
    code = (
        "import os, sys\n"
        "from mjstats.cli import entry\n"
        f"if {through_entry!r}:\n"
        "    sys.argv = ['mjstats', '--version']\n"
        "    try:\n"
        "        entry()\n"
        "    except SystemExit:\n"
        "        pass\n"
        "import numpy\n"
        "print(len(os.listdir('/proc/self/task')))\n"
    )
    env = {k: v for k, v in os.environ.items() if "BLAS" not in k and k != "OMP_NUM_THREADS"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env={**env, "PYTHONPATH": str(ROOT)}, check=True)
    return int(done.stdout.split()[-1])


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="counts threads in /proc")
def test_the_entry_keeps_numpy_to_one_blas_thread() -> None:
    """The command's numpy starts no OpenBLAS threads (they spin on the cores the audit uses)."""
    bare = _threads_after_numpy(through_entry=False)
    if bare == 1:
        pytest.skip("this numpy starts no BLAS threads here (one core, or no OpenBLAS)")
    assert _threads_after_numpy(through_entry=True) == 1


def test_the_entry_leaves_a_users_blas_setting(monkeypatch) -> None:
    from mjstats.cli import entry

    argv = ["mjstats", "fan", "W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9 W9", "--win", "W5"]
    monkeypatch.setattr(sys, "argv", argv)
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "3")
    import gc

    try:
        assert entry() == 0
    finally:
        gc.unfreeze()
    assert os.environ["OPENBLAS_NUM_THREADS"] == "3"
