"""How group values and missing statistics read in text: one wording for the terminal and the
report (records without player names, a trend test with nothing to test)."""

from __future__ import annotations

import math

__all__ = ["UNNAMED", "group_label", "player_label", "trend_note"]

UNNAMED = "(unnamed)"  # a player without a name (the Botzone records have none)


def player_label(name: object) -> str:
    """A player's name as shown; an empty or missing name reads ``(unnamed)``."""
    text = "" if name is None or (isinstance(name, float) and math.isnan(name)) else str(name)
    return text if text.strip() else UNNAMED


def group_label(key: str, value: object) -> str:
    """One group key's value as shown (``player`` values through :func:`player_label`)."""
    return player_label(value) if key == "player" else str(value)


def trend_note(levels: int, trials: int, successes: int) -> str | None:
    """Why a trend test has no value, or None when it has one: fewer than two streak lengths
    among the hands (nothing to compare), or the dealer won all or none of them (no variance)."""
    if trials == 0:
        return "n/a (no dealer hands)"
    if levels < 2:
        return "n/a (every hand at one streak length: no trend to test)"
    if successes in (0, trials):
        return "n/a (the dealer won all or none of these hands)"
    return None
