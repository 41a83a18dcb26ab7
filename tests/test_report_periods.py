"""Report periods (months, ISO weeks, undated, all time), number formatting, and period slices
of a dataset."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mjstats.report.formatting import change, count, interval, number, share
from mjstats.report.periods import Period, ReportError, parse_period, period_of_date, week_of
from tests.test_report_data import bundled_dataset  # noqa: F401  (fixture)

dates = st.dates(min_value=dt.date(1990, 1, 1), max_value=dt.date(2100, 12, 31))


@pytest.mark.parametrize(
    ("text", "key", "kind"),
    [
        ("2026-11", "2026-11", "month"),
        ("2026-W47", "2026-W47", "week"),
        ("2026-w7", "2026-W07", "week"),
        ("undated", "undated", "undated"),
        ("all", "all-time", "all"),
        ("all-time", "all-time", "all"),
    ],
)
def test_parse_period(text: str, key: str, kind: str) -> None:
    assert parse_period(text) == Period(key, kind)


@pytest.mark.parametrize("text", ["2026-13", "2026-00", "2026-W54", "2025-W53", "Nov 2026", "2026", ""])
def test_parse_period_rejects(text: str) -> None:
    with pytest.raises(ReportError):
        parse_period(text)


def test_labels_and_neighbours() -> None:
    assert parse_period("2026-11").label == "November 2026"
    assert parse_period("2026-W47").label == "Week 47, 2026 (16–22 Nov)"
    assert parse_period("2026-W44").label == "Week 44, 2026 (26 Oct – 1 Nov)"
    assert parse_period("2026-01").previous() == Period("2025-12", "month")
    assert parse_period("2026-W01").previous() == Period("2025-W52", "week")
    assert parse_period("2021-W01").previous() == Period("2020-W53", "week")  # 2020 had 53 ISO weeks
    assert parse_period("undated").previous() is None
    assert parse_period("all-time").previous() is None


def test_week_of() -> None:
    assert week_of("2026-11-16T00:10:00Z") == "2026-W47"
    assert week_of("2027-01-01T12:00:00+08:00") == "2026-W53"  # ISO year differs from the calendar's
    assert week_of(None) is None
    assert week_of(float("nan")) is None
    assert week_of("not a date") is None


@given(dates, st.sampled_from(["month", "week"]))
def test_a_period_holds_its_days_and_follows_its_previous(day: dt.date, kind: str) -> None:
    period = period_of_date(day, kind)
    first, last = period.days
    assert first <= day <= last
    assert parse_period(period.key) == period
    before = period.previous()
    assert before is not None and before.days[1] + dt.timedelta(days=1) == first
    if kind == "week":
        assert (last - first).days == 6 and first.isoweekday() == 1
        assert week_of(day.isoformat() + "T00:00:00Z") == period.key
    else:
        assert period.key == day.isoformat()[:7]


def test_formatting() -> None:
    assert share(0.27612) == "27.6%"
    assert share(float("nan")) == "–"
    assert interval(0.2461, 0.3083, percent=True) == "24.6–30.8%"
    assert (
        interval(41.55, 49.71, percent=False) == "41.5–49.7"
        or interval(41.55, 49.71, percent=False) == "41.6–49.7"
    )
    assert interval(None, 1.0, percent=True) == "–"
    assert number(1234.56) == "1,234.6"
    assert count(12345) == "12,345"
    assert change(0.25, 0.238, unit="share") == "+1.2 pp"
    assert change(0.20, 0.238, unit="share") == "−3.8 pp"  # a true minus sign
    assert change(96, 152, unit="count") == "−56"
    assert change(7.1, 7.6, unit="mean") == "−0.5"
    assert change(1.0, None, unit="mean") == "–"


def test_slices_hold_exactly_their_hands(bundled_dataset: Path, tmp_path: Path) -> None:  # noqa: F811
    """Every month and ISO week slice holds the hands whose date falls in it (counted here with
    pandas' own ISO calendar), with every aligned table cut to the same hands."""
    from mjstats.report.build import available_periods
    from mjstats.report.slices import write_slice
    from mjstats.store import open_dataset

    ds = open_dataset(bundled_dataset)
    hands = ds.table("hands", columns=["match_id", "hand_no", "started_at", "ruleset", "period"])
    stamp = pd.to_datetime(hands["started_at"].str.slice(0, 10), errors="coerce")
    iso = stamp.dt.isocalendar()
    hands["week"] = [
        None if pd.isna(y) else f"{int(y):04d}-W{int(w):02d}"
        for y, w in zip(iso["year"], iso["week"], strict=True)
    ]
    periods = list(available_periods(ds))
    weeks = [p for p in periods if p.kind == "week"]
    assert weeks, "the bundled data has dated hands"
    for i, period in enumerate(periods):
        if period.kind == "week":
            expected = hands[hands["week"] == period.key]
        elif period.kind == "month" or period.kind == "undated":
            expected = hands[hands["period"] == period.key]
        else:
            expected = hands
        for ruleset in (None, "fuzhou") if i < 4 else (None,):  # the filter on a few periods
            want = expected if ruleset is None else expected[expected["ruleset"] == ruleset]
            view = write_slice(ds, period, ruleset, tmp_path / f"{i}-{ruleset}")
            got = view.table("hands", columns=["match_id", "hand_no", "n_events"])
            assert sorted(zip(got["match_id"], got["hand_no"], strict=True)) == sorted(
                zip(want["match_id"], want["hand_no"], strict=True)
            ), period.key
            assert len(view.table("events", columns=["seq"])) == int(got["n_events"].sum())
            keys = set(zip(got["match_id"], got["hand_no"], strict=True))
            for name in ("wins", "findings", "audited_hands"):
                rows = view.table(name, columns=["match_id", "hand_no"]) if view.has_table(name) else None
                if rows is not None and len(rows):
                    assert set(zip(rows["match_id"], rows["hand_no"], strict=True)) <= keys, name
            audited = view.table("audited_hands", columns=["match_id", "hand_no"])
            assert len(audited) == len(got)  # the audit covered every hand, so every slice too
