"""The ``mjstats`` command: one subcommand module per stage (ingest, export, fan, audit, ...).

Each module in :data:`COMMANDS` exposes ``register(subparsers)``, which adds its parser and sets
``func`` to a handler taking the parsed arguments and returning the exit code.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from mjstats import __version__
from mjstats.errors import MjstatsError

# Subcommand modules, in the order `mjstats --help` lists them.
COMMANDS: tuple[str, ...] = (
    "mjstats.cli.ingest",
    "mjstats.cli.export",
    "mjstats.cli.audit",
    "mjstats.cli.findings",
    "mjstats.cli.fan",
    "mjstats.cli.stats",
    "mjstats.cli.integrity",
    "mjstats.cli.simulate",
    "mjstats.cli.report",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mjstats",
        description="Chinese mahjong records to trustworthy statistics (Guobiao, Fuzhou).",
    )
    parser.add_argument("--version", action="version", version=f"mjstats {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMANDS:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; errors mjstats expects are one line on stderr, never a traceback."""
    parser = build_parser()
    args = parser.parse_args(argv)
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


if __name__ == "__main__":
    sys.exit(main())
