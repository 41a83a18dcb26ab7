"""Filter values (rulesets, periods, check codes, ...) checked against the values that exist."""

from __future__ import annotations

from collections.abc import Iterable

from mjstats.errors import MjstatsError

__all__ = ["require_known", "split_values"]


def split_values(text: str | None) -> list[str] | None:
    """A comma-separated option as its values (None when the option was not given)."""
    if text is None:
        return None
    return [v.strip() for v in text.split(",") if v.strip()]


def require_known(what: str, values: Iterable[str] | None, known: Iterable[str], where: str = "") -> None:
    """Raise MjstatsError for values not in ``known``, naming them and every known one: a
    filter that matches nothing because of a typo must not look like an empty result."""
    if values is None:
        return
    have = sorted(set(known))
    unknown = [v for v in values if v not in have]
    if unknown:
        shown = ", ".join(repr(v) for v in unknown)
        place = f" in {where}" if where else ""
        raise MjstatsError(
            f"unknown {what} {shown}{place} (known: {', '.join(have) if have else 'none'})"
        )
