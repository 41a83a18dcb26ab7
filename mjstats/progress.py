"""Progress on long runs: a one-line counter on stderr, refreshed at most a few times a second."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class ProgressLine:
    """Prints ``label: N unit (R/s)`` in place on a terminal, or a line every ``every`` s otherwise."""

    def __init__(
        self, label: str, unit: str = "records", *, stream: TextIO | None = None, every: float = 10.0
    ) -> None:
        self.label = label
        self.unit = unit
        self.stream = stream if stream is not None else sys.stderr
        self.tty = self.stream.isatty()
        self.every = 0.25 if self.tty else every
        self.start = time.monotonic()
        self.last = self.start
        self.shown = False

    def __call__(self, count: int) -> None:
        now = time.monotonic()
        if now - self.last < self.every:
            return
        self.last = now
        self._show(count, now)

    def _show(self, count: int, now: float) -> None:
        rate = count / max(now - self.start, 1e-9)
        text = f"{self.label}: {count:,} {self.unit} ({rate:,.0f}/s)"
        if self.tty:
            self.stream.write("\r" + text)
        else:
            self.stream.write(text + "\n")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        """End the in-place line (if one was shown)."""
        if self.shown and self.tty:
            self.stream.write("\n")
            self.stream.flush()
