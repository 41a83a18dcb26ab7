"""What the replayer reports: one :class:`Finding` per broken rule or record mismatch."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = ["Finding", "Severity"]


class Severity(StrEnum):
    """``error``: the record breaks a rule or contradicts itself; ``warning``: doubtful;
    ``info``: something the audit could not check, said rather than guessed."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem in one hand: which check, at which event, what was expected and recorded.

    ``seq`` is the event's sequence number, or None for a finding about the hand as a whole
    (its recorded result). ``expected`` and ``recorded`` are short strings (tiles in Botzone codes).
    """

    match_id: str
    hand_no: int
    seq: int | None
    check: str
    severity: Severity
    expected: str | None
    recorded: str | None
    message: str

    def __str__(self) -> str:
        at = f"#{self.seq}" if self.seq is not None else "result"
        text = f"{self.match_id}/{self.hand_no} {at} [{self.severity}] {self.check}: {self.message}"
        if self.expected is not None or self.recorded is not None:
            text += f" (expected {self.expected}, recorded {self.recorded})"
        return text
