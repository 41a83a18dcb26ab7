"""Building the report folder: one HTML page per period, the findings page, the glossary, a page
per flagged hand (its findings and replay) and an index.

Pages are rendered with Jinja2 (autoescape on: player names and record text are escaped) and
written one by one to a temporary file then renamed (``os.replace``), so a reader never sees
half a page. Nothing depends on the clock: the same dataset gives the same bytes.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import jinja2
from markupsafe import Markup, escape

from mjstats import __version__
from mjstats.integrity.replays import ReplayCache
from mjstats.report import sections
from mjstats.report.audit_section import (
    FINDINGS_PAGE,
    HandPage,
    audit_section,
    findings_sections,
    hand_findings,
    replayed_hands,
)
from mjstats.report.decisions_section import decisions_section
from mjstats.report.integrity_section import integrity_section
from mjstats.report.overwrite import check_page_target, check_report_folder
from mjstats.report.periods import ALL_TIME, UNDATED, Period, ReportError, parse_period, week_of
from mjstats.report.slices import write_slice
from mjstats.stats.grouping import SMALL_SAMPLE
from mjstats.store import Dataset, open_dataset

__all__ = ["PeriodIndex", "available_periods", "build_report", "resolve_periods"]

INDEX = "index.html"
GLOSSARY_PAGE = "glossary.html"


@dataclass(frozen=True, slots=True)
class PeriodIndex:
    """A period that has hands, with its counts (one row of the index page)."""

    period: Period
    hands: int
    matches: int
    rulesets: tuple[str, ...]


def available_periods(ds: Dataset, ruleset: str | None = None) -> dict[Period, PeriodIndex]:
    """Every period with hands: all time, each month, each ISO week, and undated."""
    hands = ds.table("hands", columns=["match_id", "started_at", "ruleset", "period"])
    if ruleset is not None:
        hands = hands[hands["ruleset"] == ruleset]
    if hands.empty:
        return {}
    weeks = [week_of(s) for s in hands["started_at"]]
    hands = hands.assign(week=weeks)
    out: dict[Period, PeriodIndex] = {}

    def add(period: Period, rows) -> None:
        out[period] = PeriodIndex(
            period,
            len(rows),
            int(rows["match_id"].nunique()),
            tuple(sorted(set(rows["ruleset"].astype(str)))),
        )

    add(Period(ALL_TIME, "all"), hands)
    for month, rows in hands.groupby("period", sort=True):
        add(Period(UNDATED, "undated") if month == UNDATED else Period(str(month), "month"), rows)
    for week, rows in hands[hands["week"].notna()].groupby("week", sort=True):
        add(Period(str(week), "week"), rows)
    return out


def resolve_periods(periods: str | Iterable[str], available: dict[Period, PeriodIndex]) -> list[Period]:
    """Requested periods in page order. ``all``: all time, every month and the undated hands;
    ``weeks``: every ISO week; ``months``: every month; else period keys (``2026-11``, ...)."""
    items = [periods] if isinstance(periods, str) else list(periods)
    chosen: set[Period] = set()
    for item in items:
        word = item.strip().lower()
        if word in ("all", "all-periods"):
            chosen |= {p for p in available if p.kind in ("all", "month", "undated")}
            chosen.add(Period(ALL_TIME, "all"))
        elif word in ("weeks", "weekly"):
            chosen |= {p for p in available if p.kind == "week"}
        elif word in ("months", "monthly"):
            chosen |= {p for p in available if p.kind == "month"}
        else:
            chosen.add(parse_period(item))
    return sorted(chosen, key=lambda p: p.sort_key)


def prose(text: str) -> Markup:
    """Escape ``text``, then show `backquoted` spans as code (the escaping comes first, so
    record text can never become markup)."""
    return Markup(re.sub(r"`([^`]+)`", r"<code>\1</code>", str(escape(text))))


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("mjstats.report", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["prose"] = prose
    return env


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class _Builder:
    """One report build: slices periods out of the dataset, renders and writes pages."""

    def __init__(self, ds: Dataset, out: Path, ruleset: str | None, scratch: Path) -> None:
        self.ds = ds
        self.out = out
        self.ruleset = ruleset
        self.scratch = scratch
        self.force = False  # replace files in the way that mjstats did not write
        self.env = _environment()
        self.available = available_periods(ds, ruleset)
        self.figures: dict[str, sections.KeyFigures] = {}
        self.hand_pages: dict[str, tuple[HandPage, dict[str, str]]] = {}  # file -> (hand, back link)
        self.written: list[Path] = []
        self.replays = ReplayCache()  # integrity: each hand replayed once across period pages
        self.common = {
            "version": __version__,
            "dataset_name": ds.root.name or str(ds.root),
            "dataset_fingerprint": ds.fingerprint,
            "ruleset": ruleset,
            "small_sample": SMALL_SAMPLE,
        }

    def view(self, period: Period) -> Dataset:
        """The period's hands as a dataset (the dataset itself for all time, all rulesets)."""
        if period.kind == "all" and self.ruleset is None:
            return self.ds
        dest = self.scratch / period.key
        if dest.exists():
            shutil.rmtree(dest)
        return write_slice(self.ds, period, self.ruleset, dest)

    def drop_view(self, period: Period) -> None:
        shutil.rmtree(self.scratch / period.key, ignore_errors=True)

    def key_figures(self, period: Period | None) -> sections.KeyFigures | None:
        """Key figures of a period (cached); None when the period has no hands."""
        if period is None or period not in self.available:
            return None
        if period.key not in self.figures:
            self.figures[period.key] = sections.key_figures(self.view(period))
            self.drop_view(period)
        return self.figures[period.key]

    def write(self, name: str, text: str) -> Path:
        path = self.out / name
        check_page_target(path, force=self.force)
        write_atomic(path, text)
        self.written.append(path)
        return path

    def neighbours(self, period: Period, built: Sequence[Period]) -> tuple[dict | None, dict | None]:
        """Links to the previous and next page of the same kind (built now or already on disk)."""
        same = sorted((p for p in self.available if p.kind == period.kind), key=lambda p: p.sort_key)
        if period not in same:
            return None, None

        def link(p: Period) -> dict | None:
            exists = p in built or (self.out / p.filename).exists()
            return {"href": p.filename, "label": p.label} if exists else None

        i = same.index(period)
        before = link(same[i - 1]) if i > 0 else None
        after = link(same[i + 1]) if i + 1 < len(same) else None
        return before, after

    def period_page(self, period: Period, built: Sequence[Period]) -> None:
        view = self.view(period)
        now = sections.key_figures(view)
        self.figures[period.key] = now
        previous = period.previous()
        audit, worst = audit_section(view)
        page_sections = [
            sections.overview_section(now, self.key_figures(previous), previous.label if previous else None),
            audit,
            sections.win_rates_section(view),
            sections.fans_section(view),
            *(build(view) for build in sections.ruleset_sections()),
            sections.streaks_section(view),
            integrity_section(view, self.replays),
            decisions_section(view),  # None without the decisions table
            sections.provenance_section(view, self.ds, period.label),
        ]
        page_sections = [s for s in page_sections if s is not None]
        back = {"href": period.filename, "label": period.label}
        for page in worst:
            self.hand_pages.setdefault(page.filename, (page, back))
        before, after = self.neighbours(period, built)
        info = self.available.get(period)
        rulesets = ", ".join(sections.ruleset_name(r) for r in info.rulesets) if info else "none"
        lede = (
            f"{now.hands:,} hands in {now.matches:,} matches ({rulesets})."
            if now.hands
            else "No hands were played in this period."
        )
        html = self.env.get_template("period.html.j2").render(
            period=period,
            sections=page_sections,
            lede=lede,
            root="",
            previous_link=before,
            next_link=after,
            **self.common,
        )
        self.write(period.filename, html)
        if view is not self.ds:
            self.drop_view(period)

    def page(self, name: str, title: str, lede: str, page_sections: Sequence[sections.Section]) -> None:
        html = self.env.get_template("page.html.j2").render(
            title=title, lede=lede, sections=page_sections, root="", **self.common
        )
        self.write(name, html)

    def glossary_page(self) -> None:
        self.page(
            GLOSSARY_PAGE,
            "Glossary",
            "What every metric counts and how the report writes numbers. Every page links here.",
            [sections.conventions_section(), sections.glossary_section()],
        )

    def findings_page(self) -> None:
        """Every finding (of the ruleset chosen), grouped by check; every flagged hand gets a page."""
        everything = Period(ALL_TIME, "all")
        view = self.view(everything)
        page_sections, pages = findings_sections(view)
        if view is not self.ds:
            self.drop_view(everything)
        back = {"href": FINDINGS_PAGE, "label": "Findings"}
        for page in pages:
            self.hand_pages.setdefault(page.filename, (page, back))
        self.page(
            FINDINGS_PAGE,
            "Audit findings",
            "Every problem `mjstats audit` found in the records: the check that failed, where in the "
            "hand (event number, or the result), what the rules expect and what was recorded.",
            page_sections,
        )

    def write_hand_pages(self) -> None:
        from mjstats.report import hand_viewer

        findings = self.ds.table("findings")
        chosen = [self.hand_pages[name] for name in sorted(self.hand_pages)]
        replayed = replayed_hands(self.ds, [page for page, _ in chosen])
        for page, back in chosen:
            hand, result, text = replayed[page.filename]
            viewer = None if hand is None else hand_viewer.hand_viewer(self.ds, findings, hand, result)
            html = self.env.get_template("hand.html.j2").render(
                page=page,
                findings=hand_findings(findings, page),
                lines=text.splitlines(),
                viewer=viewer,
                viewer_css=hand_viewer.VIEWER_CSS,
                viewer_script=hand_viewer.viewer_script_tag() if viewer is not None else None,
                csp=Markup(hand_viewer.page_csp()),
                root="../",
                back={"href": f"../{back['href']}", "label": back["label"]},
                **self.common,
            )
            self.write(page.filename, html)

    def findings_summary(self) -> str:
        """One line on the index about the findings page."""
        audited = self.ds.table("audited_hands", columns=["ruleset"])
        findings = self.ds.table("findings", columns=["match_id", "hand_no", "ruleset"])
        if self.ruleset is not None:
            audited = audited[audited["ruleset"] == self.ruleset]
            findings = findings[findings["ruleset"] == self.ruleset]
        if audited.empty:
            return "not audited yet (run `mjstats audit DATASET`)"
        if findings.empty:
            return f"none: all {len(audited):,} audited hands are clean"
        hands = len(findings[["match_id", "hand_no"]].drop_duplicates())
        return f"{len(findings):,} in {hands:,} of {len(audited):,} audited hands, grouped by check"

    def index_page(self, built: Sequence[Period]) -> None:
        groups = []
        titles = (
            ("all", "all-time", "All time", "No hands."),
            ("month", "months", "Months", "No dated hands."),
            ("week", "weeks", "ISO weeks", "No dated hands."),
            ("undated", "undated", "Undated hands", "Every hand has a date."),
        )
        for kind, anchor, title, empty in titles:
            rows = []
            for p, info in sorted(self.available.items(), key=lambda kv: kv[0].sort_key):
                if p.kind != kind:
                    continue
                exists = p in built or (self.out / p.filename).exists()
                rows.append(
                    {
                        "label": p.label,
                        "href": p.filename if exists else None,
                        "hands": f"{info.hands:,}",
                        "matches": f"{info.matches:,}",
                        "rulesets": ", ".join(sections.ruleset_name(r) for r in info.rulesets),
                    }
                )
            if kind == "week" and rows and not any(r["href"] for r in rows):
                empty, rows = (
                    (
                        "Weekly pages were not built: run `mjstats report DATASET --weekly` "
                        "(or `--period 2026-W47`)."
                    ),
                    [],
                )
            groups.append({"id": anchor, "title": title, "rows": rows, "empty": empty})
        total = self.available.get(Period(ALL_TIME, "all"))
        lede = (
            f"{total.hands:,} hands in {total.matches:,} matches. Each page covers one period: "
            "months and ISO weeks come from when a hand was played; hands without a date have "
            "their own page and count in all time."
            if total
            else "The dataset holds no hands."
        )
        html = self.env.get_template("index.html.j2").render(
            groups=groups, lede=lede, findings=self.findings_summary(), root="", **self.common
        )
        self.write(INDEX, html)


def build_report(
    dataset: str | Path | Dataset,
    out_dir: str | Path,
    *,
    periods: str | Iterable[str] = "all",
    ruleset: str | None = None,
    progress: Callable[[int], None] | None = None,
    force: bool = False,
) -> list[Path]:
    """Write the HTML report of ``dataset`` into ``out_dir``; return the pages written (index last).

    ``periods``: ``"all"`` (all time, every month, the undated hands), ``"weeks"`` (every ISO
    week), period keys (``"2026-11"``, ``"2026-W47"``, ``"undated"``, ``"all-time"``) or a list
    of these. ``ruleset`` keeps one ruleset's hands only. A period without hands still gets a
    page, which says so. ``progress`` is called with the number of period pages done so far.
    Pages of an earlier mjstats report are replaced; any other existing file in the way is an
    error unless ``force``; a folder inside a dataset is refused.
    """
    ds = dataset if isinstance(dataset, Dataset) else open_dataset(dataset)
    rulesets = {r for r, _ in ds.partitions()}
    if ruleset is not None and ruleset not in rulesets:
        have = ", ".join(sorted(rulesets)) or "none"
        raise ReportError(f"{ds.root}: no {ruleset!r} hands (rulesets in the dataset: {have})")
    out = Path(out_dir)
    check_report_folder(out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="mjstats-report-") as scratch:
        builder = _Builder(ds, out, ruleset, Path(scratch))
        builder.force = force
        wanted = resolve_periods(periods, builder.available)
        for name in [INDEX, *(p.filename for p in wanted)]:  # before any page is written
            check_page_target(out / name, force=force)
        # chronological within each kind, so a page's previous period is usually computed already
        for done, period in enumerate(wanted, 1):
            builder.period_page(period, wanted)
            if progress is not None:
                progress(done)
        builder.findings_page()
        builder.glossary_page()
        builder.write_hand_pages()
        builder.index_page(wanted)
    return builder.written
