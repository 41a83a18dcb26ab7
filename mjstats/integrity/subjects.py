"""Who a row is about: seats 0-3, or the players seated there (by name)."""

from __future__ import annotations

from mjstats.errors import MjstatsError
from mjstats.records import Hand

__all__ = ["BY_CHOICES", "check_by", "who"]

BY_CHOICES = ("seat", "player")


def check_by(by: str) -> str:
    if by not in BY_CHOICES:
        raise MjstatsError(f"unknown grouping {by!r} (known: {', '.join(BY_CHOICES)})")
    return by


def who(hand: Hand, seat: int, by: str) -> object:
    """The subject ``seat`` stands for in ``hand``: the seat itself, or its player's name
    (``(unnamed)`` when the record names nobody)."""
    if by == "seat":
        return seat
    name = hand.players[seat] if seat < len(hand.players) else ""
    return name or "(unnamed)"
