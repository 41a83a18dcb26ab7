"""The ``mjstats`` command: one subcommand module per stage (ingest, export, fan, audit, ...).

Each module in :data:`COMMANDS` exposes ``register(subparsers)``, which adds its parser and sets
``func`` to a handler taking the parsed arguments and returning the exit code.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import gc
import importlib
import os
import sys
from collections.abc import Sequence

from mjstats import __version__
from mjstats.errors import MjstatsError
from mjstats.rulesets import recorded

# Subcommands in the order `mjstats --help` lists them: the module that defines each one, and its
# one-line help (the module's parser repeats it; a test keeps the two equal). A run imports only
# its own command's module, so `mjstats --help` and `mjstats fan` never load pyarrow or pandas.
COMMANDS: dict[str, tuple[str, str]] = {
    "ingest": ("mjstats.cli.ingest", "read game records into a dataset"),
    "export": ("mjstats.cli.export", "write a dataset's hands as canonical JSON Lines"),
    "audit": ("mjstats.cli.audit", "replay every hand and check it against the rules"),
    "findings": ("mjstats.cli.findings", "list what the audit found, one finding per line"),
    "decisions": (
        "mjstats.cli.decisions", "judge every discard, claim and pass (shanten, useful tiles, danger)"
    ),
    "fan": ("mjstats.cli.fan", "score a winning hand (fans, points, total)"),
    "stats": ("mjstats.cli.stats", "statistics of a dataset (win rates, fans, gold, dealer streaks)"),
    "integrity": (
        "mjstats.cli.integrity", "fairness tests: deals, draws, collusion, outcomes (FDR-corrected)"
    ),
    "simulate": ("mjstats.cli.simulate", "self-play: bots play matches, written as canonical records"),
    "report": ("mjstats.cli.report", "write the HTML report (a page per period, an index)"),
}

ALL = "*"  # build_parser(ALL): every command with its full options


def build_parser(command: str | None = ALL) -> argparse.ArgumentParser:
    """The ``mjstats`` parser with ``command``'s options (every command's for ALL; none for None:
    enough for ``mjstats --help``); the other commands are listed with their help only."""
    parser = argparse.ArgumentParser(
        prog="mjstats",
        description="Chinese mahjong records to trustworthy statistics "
        f"({', '.join(r.title for r in recorded())}).",
    )
    parser.add_argument("--version", action="version", version=f"mjstats {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name, (module, help_text) in COMMANDS.items():
        if command in (ALL, name):
            importlib.import_module(module).register(sub)
        else:
            sub.add_parser(name, help=help_text, add_help=False)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; errors mjstats expects are one line on stderr, never a traceback."""
    words = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(words[0] if words and words[0] in COMMANDS else None)
    args = parser.parse_args(words)
    try:
        return int(args.func(args) or 0)
    except MjstatsError as exc:
        print(f"mjstats {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"mjstats {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:  # the machine said no (permissions, a full disk, a path in the way)
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"mjstats {args.command}: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return 2


# mjstats makes no BLAS call, but numpy's OpenBLAS starts a thread per core at import that spins
# for a while before it sleeps: perf put ~7% of an `ingest --audit` of 2,000 hands' CPU samples in
# it, on the core the write-behind thread and the audit's workers need. Spawned workers inherit it.
ONE_BLAS_THREAD = {"OPENBLAS_NUM_THREADS": "1"}


def entry() -> int:
    """:func:`main` as the command runs it: before anything imports numpy, its OpenBLAS is held
    to one thread unless the user chose a count (:data:`ONE_BLAS_THREAD`); after, every object
    the process holds is moved out of the cycle collector's reach (``gc.freeze``), so that an
    exit does not walk them all for cycles."""
    for name, value in ONE_BLAS_THREAD.items():
        os.environ.setdefault(name, value)
    code = main()
    gc.freeze()
    return code


def script() -> int:
    """The ``mjstats`` script and ``python -m mjstats``: :func:`entry`, then the process leaves
    without the interpreter's teardown (:func:`_exit_without_teardown`). Everything a command
    writes is closed and committed before it returns. Only for a process that is the command:
    tests and notebooks call :func:`main` (or :func:`entry`) in-process."""
    # registered before anything the command imports registers its own: atexit runs the last
    # registered first, so this runs after every other exit handler (multiprocessing's, Dask's)
    atexit.register(_exit_without_teardown)
    code = entry()
    _exit_code.append(code)
    return code


_exit_code: list[int] = []  # the command's exit status, once it returned


def _exit_without_teardown() -> None:
    """The last exit handler: once the command has returned, flush the standard streams and
    leave at once. The interpreter's teardown after it (every module and object freed: numpy's,
    pyarrow's, the rules' tables) was ~30 ms of an ``ingest --audit`` of 2,000 hands (~3% of its
    wall time) and does nothing a command needs: by then non-daemon threads were joined and the
    other exit handlers ran. A command that did not return (a traceback) exits the usual way."""
    if not _exit_code:
        return
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):  # a closed pipe (`mjstats findings | head`)
            stream.flush()
    os._exit(_exit_code[-1])


if __name__ == "__main__":
    sys.exit(script())
