"""The report's shared pages and conventions: one glossary page linked from every page, the
findings page (every finding, grouped by check, every flagged hand linked), one way of writing
rates (%) and differences of rates (pp), record text escaped."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from mjstats import stats
from mjstats.report.audit_section import findings_sections, hand_page_name
from mjstats.report.build import _environment
from mjstats.report.formatting import change, difference_interval, rate_difference
from mjstats.store import open_dataset
from tests.test_report_build import PageParser, parse
from tests.test_report_data import (  # noqa: F401  (fixtures)
    EVIL_NAME,
    bundled_dataset,
    bundled_report,
)


def test_glossary_is_one_page_linked_from_every_page(bundled_report: Path) -> None:  # noqa: F811
    glossary = bundled_report / "glossary.html"
    page = parse(glossary)
    assert page.sections == ["conventions", "glossary"]
    text = " ".join(page.text)
    for metric in stats.METRICS:
        assert metric in text, metric
    pages = sorted(bundled_report.rglob("*.html"))
    assert len([p for p in pages if p.parent.name == "hands"]) > 0
    for path in pages:
        parsed = parse(path)
        targets = {(path.parent / h).resolve() for h in parsed.links if not h.startswith("#")}
        assert glossary.resolve() in targets, f"{path.name} does not link the glossary"
        assert (bundled_report / "findings.html").resolve() in targets, path.name
        if path != glossary:
            assert "glossary" not in parsed.sections, f"{path.name} repeats the glossary"
            assert "Edge cases" not in parsed.text, path.name


def test_findings_page_lists_every_finding_grouped_by_check(
    bundled_report: Path,  # noqa: F811
    bundled_dataset: Path,  # noqa: F811
) -> None:
    findings = open_dataset(bundled_dataset).table("findings")
    assert len(findings) > 0
    html = (bundled_report / "findings.html").read_text(encoding="utf-8")
    page = parse(bundled_report / "findings.html")
    checks = findings.groupby("check").size()
    assert page.sections[0] == "summary"
    assert sorted(page.sections[1:]) == sorted(f"check-{c}" for c in checks.index)
    for check, n in checks.items():
        section = html[html.index(f'<section id="check-{check}"') :]
        section = section[: section.index("</section>")]
        assert section.count("<tr>") - 1 == n, check  # a header row, then one row per finding
        assert f"{n} findings in" in section
    keys = findings[["match_id", "hand_no"]].itertuples(index=False)
    flagged = {hand_page_name(m, int(h)) for m, h in keys}
    linked = {h.split("#")[0] for h in page.links if h.startswith("hands/")}  # #eSEQ: the event
    assert linked == flagged  # every flagged hand, not only the worst ten
    assert all((bundled_report / h).is_file() for h in linked)
    for column in ("Hand", "Event", "Severity", "Expected", "Recorded", "Message"):
        assert f'scope="col">{column}</th>' in html
    assert "findings.html" in parse(bundled_report / "index.html").links


class _Tables:
    """A dataset stand-in holding given tables (the findings page only reads tables)."""

    def __init__(self, **tables: pd.DataFrame) -> None:
        self.tables = tables

    def table(self, name: str, columns: list[str] | None = None) -> pd.DataFrame:
        frame = self.tables[name]
        return frame[columns] if columns else frame


def test_findings_page_escapes_record_text() -> None:
    evil = EVIL_NAME
    findings = pd.DataFrame(
        {
            "match_id": [evil, "m2"],
            "hand_no": [1, 2],
            "seq": [3, None],
            "check": [evil, "win.fans"],
            "severity": ["error", "warning"],
            "expected": [evil, None],
            "recorded": ["<b>", None],
            "message": [f"seat 1 {evil}", "fans differ"],
            "ruleset": ["guobiao", "guobiao"],
        }
    )
    audited = pd.DataFrame({"match_id": [evil, "m2"], "hand_no": [1, 2], "ruleset": ["guobiao"] * 2})
    sections, pages = findings_sections(_Tables(findings=findings, audited_hands=audited, hands=audited))
    assert {p.filename for p in pages} == {hand_page_name(evil, 1), hand_page_name("m2", 2)}
    html = _environment().get_template("page.html.j2").render(
        title="Audit findings", lede=evil, sections=sections, root="", version="0", dataset_name=evil,
        dataset_fingerprint="x", ruleset=None, small_sample=100,
    )  # fmt: skip
    assert "<script" not in html and "<b>" not in html
    assert html.count("&lt;script&gt;alert(1)&lt;/script&gt;") >= 5
    parser = PageParser()
    parser.feed(html)
    assert all(re.fullmatch(r"[A-Za-z0-9_.-]+", i) for i in parser.sections)  # safe anchors
    assert "result" in parser.text  # a finding on the hand's result, not an event


def test_rates_in_percent_differences_in_points(bundled_report: Path) -> None:  # noqa: F811
    assert rate_difference(0.0123) == "+1.2 pp" and change(0.30, 0.31, unit="share") == "−1.0 pp"
    assert difference_interval(-0.003, 0.021) == "−0.3 to +2.1 pp"
    trend = re.compile(r"[−+]\d+\.\d pp per step \(95% interval [−+]\d+\.\d to [−+]\d+\.\d pp\)")
    text = " ".join(parse(bundled_report / "all-time.html").text)
    assert trend.search(text), "the streak trend is a difference of rates: pp, its interval too"
    for path in bundled_report.rglob("*.html"):
        text = " ".join(parse(path).text)
        assert not re.search(r"pp[^()]*\(95% interval [^)]*%\)", text), path.name
    glossary = " ".join(parse(bundled_report / "glossary.html").text)
    assert "percentage points (pp)" in glossary and "+1.2 pp" in glossary
