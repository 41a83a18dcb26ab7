"""``--wait SECONDS`` for the writing commands, and the line they print while they wait."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from mjstats.store.lock import DEFAULT_WAIT, LockHolder


def add_wait_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--wait",
        type=_seconds,
        default=None,
        metavar="SECONDS",
        help="how long to wait for another writer of the dataset to finish before giving up "
        f"(default {DEFAULT_WAIT:g}, or MJSTATS_LOCK_WAIT)",
    )


def waiting_notice(command: str) -> Callable[[LockHolder | None], None]:
    """A callback printing one line when the command starts waiting for another writer."""

    def notice(holder: LockHolder | None) -> None:
        who = holder.describe() if holder else "another process"
        print(f"mjstats {command}: waiting for another writer of the dataset: {who}", file=sys.stderr)

    return notice


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 <= value < 10**7:
        raise argparse.ArgumentTypeError(f"--wait takes 0 to 10000000 seconds, not {text}")
    return value
