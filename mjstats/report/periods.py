"""Report periods: calendar months (the dataset's ``period`` partition), ISO weeks (from
``hands.started_at``), the undated hands, and all time.

A period is named by its key: ``2026-11``, ``2026-W47``, ``undated`` or ``all-time``. Each
period knows which hands it holds and which period comes before it (for the change figures).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass

from mjstats.errors import MjstatsError
from mjstats.store.schema import UNDATED

__all__ = [
    "ALL_TIME",
    "UNDATED",
    "Period",
    "ReportError",
    "parse_period",
    "period_of_date",
    "week_of",
]

ALL_TIME = "all-time"

_MONTH = re.compile(r"^(\d{4})-(\d{2})$")
_WEEK = re.compile(r"^(\d{4})-W(\d{1,2})$")
_MONTH_NAMES = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


class ReportError(MjstatsError):
    """A report request that cannot be met (unknown period, no such ruleset, empty dataset)."""


@dataclass(frozen=True, slots=True)
class Period:
    """One report period. ``kind`` is ``month``, ``week``, ``undated`` or ``all``."""

    key: str
    kind: str

    @property
    def filename(self) -> str:
        """The page's file name inside the report folder."""
        return f"{self.key}.html"

    @property
    def label(self) -> str:
        """A human title: "November 2026", "Week 47, 2026 (16–22 Nov)", "Undated hands"."""
        if self.kind == "month":
            year, month = map(int, self.key.split("-"))
            return f"{_MONTH_NAMES[month - 1]} {year}"
        if self.kind == "week":
            first, last = self.days
            span = (
                f"{first.day}–{last.day} {last:%b}"
                if first.month == last.month
                else f"{first.day} {first:%b} – {last.day} {last:%b}"
            )
            year, week = self.key.split("-W")
            return f"Week {int(week)}, {year} ({span})"
        return "Undated hands" if self.kind == "undated" else "All time"

    @property
    def days(self) -> tuple[dt.date, dt.date]:
        """First and last day of a month or week (ValueError for undated and all time)."""
        if self.kind == "month":
            year, month = map(int, self.key.split("-"))
            first = dt.date(year, month, 1)
            following = dt.date(year + month // 12, month % 12 + 1, 1)
            return first, following - dt.timedelta(days=1)
        if self.kind == "week":
            year, week = map(int, self.key.split("-W"))
            first = dt.date.fromisocalendar(year, week, 1)
            return first, first + dt.timedelta(days=6)
        raise ValueError(f"period {self.key} has no calendar days")

    def previous(self) -> Period | None:
        """The calendar period just before (a month or a week); None for undated and all time."""
        if self.kind in ("month", "week"):
            first, _ = self.days
            return period_of_date(first - dt.timedelta(days=1), self.kind)
        return None

    @property
    def sort_key(self) -> tuple[int, str]:
        return ({"all": 0, "month": 1, "week": 2, "undated": 3}[self.kind], self.key)


def period_of_date(day: dt.date, kind: str) -> Period:
    """The month or ISO week holding ``day``."""
    if kind == "month":
        return Period(f"{day.year:04d}-{day.month:02d}", "month")
    year, week, _ = day.isocalendar()
    return Period(f"{year:04d}-W{week:02d}", "week")


def week_of(started_at: object) -> str | None:
    """The ISO week key (``2026-W47``) of a ``started_at`` timestamp, None when undated or bad.

    Like the store's month partition, the calendar date is read as written (its first ten
    characters), so a hand falls in the same month and week whatever the reader's time zone.
    """
    if not isinstance(started_at, str) or not started_at:
        return None  # None, or NaN from a pandas column
    try:
        day = dt.date.fromisoformat(started_at[:10])
    except ValueError:
        return None
    return period_of_date(day, "week").key


def parse_period(text: str) -> Period:
    """``2026-11``, ``2026-W47`` (or ``2026-w7``), ``undated``, ``all-time`` / ``all`` -> Period."""
    value = text.strip()
    if value.lower() in (ALL_TIME, "all", "alltime"):
        return Period(ALL_TIME, "all")
    if value.lower() == UNDATED:
        return Period(UNDATED, "undated")
    if m := _MONTH.match(value):
        if 1 <= int(m.group(2)) <= 12:
            return Period(value, "month")
    elif m := _WEEK.match(value.upper()):
        year, week = int(m.group(1)), int(m.group(2))
        try:
            dt.date.fromisocalendar(year, week, 1)
        except ValueError:
            raise ReportError(f"period {text!r}: {year} has no ISO week {week}") from None
        return Period(f"{year:04d}-W{week:02d}", "week")
    raise ReportError(
        f"period {text!r}: expected a month (2026-11), an ISO week (2026-W47), 'undated' or 'all-time'"
    )


def ordered(periods: Iterable[Period]) -> list[Period]:
    """Periods without repeats in page order: all time, months, weeks, undated."""
    return sorted(set(periods), key=lambda p: p.sort_key)
