"""The mjstats error hierarchy: every error the toolkit raises on purpose derives from MjstatsError."""

from __future__ import annotations

__all__ = [
    "DatasetError",
    "InvalidHand",
    "MjstatsError",
    "NotWinningHand",
    "ProfileError",
    "RecordError",
    "RuleError",
    "TileError",
]


class MjstatsError(Exception):
    """Root of every error mjstats raises on purpose; the CLI prints these as one line."""


class TileError(MjstatsError, ValueError):
    """A tile notation or code that names no tile."""


class RecordError(MjstatsError, ValueError):
    """A game record that cannot be read: says which source, line and match."""

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        line: int | None = None,
        match_id: str | None = None,
    ) -> None:
        self.message = message
        self.source = source
        self.line = line
        self.match_id = match_id
        super().__init__(str(self))

    def __str__(self) -> str:
        where = []
        if self.source is not None:
            where.append(self.source if self.line is None else f"{self.source}:{self.line}")
        elif self.line is not None:
            where.append(f"line {self.line}")
        if self.match_id:
            where.append(f"match {self.match_id}")
        return f"{', '.join(where)}: {self.message}" if where else self.message


class RuleError(MjstatsError, ValueError):
    """A rules-engine input that the rules do not allow or cannot evaluate."""


class InvalidHand(RuleError):
    """Impossible input to a rules function: wrong tile count, a fifth copy, an unknown code."""


class NotWinningHand(RuleError):
    """The tiles given do not form a winning hand."""


class ProfileError(MjstatsError, ValueError):
    """A rule profile that cannot be loaded: unknown name, unknown key, wrong value type."""


class DatasetError(MjstatsError):
    """A dataset folder that is missing, unreadable or not an mjstats dataset."""
