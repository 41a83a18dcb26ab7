"""The HTML report built from the bundled data: every section and figure, offline and escaped,
byte-identical on a rerun, links that resolve."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from mjstats.report import ReportError, build_report
from tests.test_report_data import (  # noqa: F401  (fixtures)
    EVIL_NAME,
    bundled_dataset,
    bundled_report,
    make_report_dataset,
    report_periods,
)

# the sections of a period page (the glossary has a page of its own)
# "sichuan": the bundled data has Sichuan hands, so every page has the section (it says so when
# its period has none)
SECTIONS = ("overview", "audit", "win-rates", "fans", "gold", "sichuan", "streaks", "integrity", "provenance")
# figure id prefixes (see mjstats.report.sections) a page with both rulesets and findings must hold
FIGURES_BOTH = (
    "findings",
    "win-player-guobiao",
    "win-seat-guobiao",
    "fans-guobiao",
    "totals-guobiao",
    "lift-guobiao",
    "win-player-fuzhou",
    "win-seat-fuzhou",
    "fans-fuzhou",
    "totals-fuzhou",
    "lift-fuzhou",
    "win-player-sichuan",
    "win-seat-sichuan",
    "fans-sichuan",
    "totals-sichuan",
    "lift-sichuan",
    "gold-held",
    "gold-points",
    "gold-start",
    "sc-multiplier",
    "sc-win-order",
    "sc-void-choice",
    "survival-fuzhou",
    "streak-rates-fuzhou",
    "integrity-draws-guobiao",
    "integrity-pairs-guobiao",
    "integrity-draws-fuzhou",
    "integrity-pairs-fuzhou",
    "integrity-draws-sichuan",  # Sichuan hands are judged by the integrity tests too
    "integrity-pairs-sichuan",
)


class PageParser(HTMLParser):
    """Collects what the checks need: ids, links, tags, the SVGs and their sizes, the text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: list[str] = []
        self.links: list[str] = []
        self.tags: set[str] = set()
        self.svgs: list[dict[str, str]] = []
        self.sections: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        self.tags.add(tag)
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "a" and "href" in a:
            self.links.append(a["href"])
        if tag == "svg" and a.get("class") == "figure":
            self.svgs.append(a)
        if tag == "section" and "id" in a:
            self.sections.append(a["id"])
        for name in ("src", "srcset", "data"):
            if name in a:
                self.links.append(a[name])

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def without_viewer(html: str) -> str:
    """A hand page without its replay viewer's two scripts (the viewer's own code, allowed by
    its hash in the page's CSP, and the states as a JSON block): what is left holds no script."""
    from mjstats.viewer.page import page_csp, viewer_script

    code = f"<script>{viewer_script()}</script>"
    if code in html:
        assert html.count(code) == 1 and page_csp() in html
        html = html.replace(code, "")
    return re.sub(r'<script type="application/json" class="mj-data">[^<]*</script>', "", html)


def parse(path: Path) -> PageParser:
    parser = PageParser()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


@pytest.fixture(scope="module")
def report(bundled_report: Path) -> tuple[Path, None]:  # noqa: F811
    return bundled_report, None


def test_rerun_is_byte_identical(bundled_dataset: Path, bundled_report: Path, tmp_path: Path) -> None:  # noqa: F811
    # the all-time page holds every kind of figure; the index differs (it lists what was built)
    written = build_report(bundled_dataset, tmp_path, periods="all-time")
    assert written[-1] == tmp_path / "index.html"  # the API lists the pages, index last
    assert all(p.is_file() for p in written)
    assert not [p for p in tmp_path.rglob("*") if p.name.startswith(".")]  # no temporary files left
    pages = [p.relative_to(tmp_path) for p in written[:-1]]
    assert Path("all-time.html") in pages and any(p.parts[0] == "hands" for p in pages)
    for name in pages:
        assert (tmp_path / name).read_bytes() == (bundled_report / name).read_bytes(), name


def test_every_section_and_figure_is_present(report) -> None:
    out, _ = report
    page = parse(out / "all-time.html")
    assert page.sections == list(SECTIONS)
    for prefix in FIGURES_BOTH:
        assert f"{prefix}-figure_1" in page.ids, f"figure {prefix} missing"
    assert len(page.svgs) == len(FIGURES_BOTH)
    for svg in page.svgs:
        assert re.fullmatch(r"0 0 [\d.]+ [\d.]+", svg["viewbox"])
        assert svg["aria-label"]
    assert len(page.ids) == len(set(page.ids)), "ids repeat across the inline SVGs"


def test_sections_without_data_say_so(report) -> None:
    out, _ = report
    page = parse(out / "undated.html")  # the Botzone sample: Guobiao only, no dealer streaks
    assert page.sections == list(SECTIONS)
    text = " ".join(page.text)
    assert "No Fuzhou hands in this period" in text
    assert "No hand in this period was played at a dealer streak" in text
    assert "No Sichuan hands in this period" in text


def test_pages_are_self_contained_and_links_resolve(report) -> None:
    out, _ = report
    pages = sorted(out.rglob("*.html"))
    assert any(p.parent.name == "hands" for p in pages)
    for path in pages:
        page = PageParser()
        page.feed(without_viewer(path.read_text(encoding="utf-8")))
        assert not page.tags & {"script", "link", "img", "iframe", "object", "embed"}
        for href in page.links:
            if href.startswith("#"):
                assert href[1:] in page.ids, f"{path.name}: dangling anchor {href}"
                continue
            assert not re.match(r"^[a-z]+:", href), f"{path.name}: external link {href}"
            target = (path.parent / href.split("#")[0]).resolve()
            assert target.is_file(), f"{path.name}: link to missing {href}"


def test_player_names_are_escaped(report) -> None:
    out, _ = report
    for path in out.rglob("*.html"):
        html = without_viewer(path.read_text(encoding="utf-8"))
        assert "<script" not in html.lower(), path.name
    html = (out / "all-time.html").read_text(encoding="utf-8")
    escaped = EVIL_NAME.replace("<", "&lt;").replace(">", "&gt;")
    assert escaped in html
    assert EVIL_NAME in " ".join(parse(out / "all-time.html").text)  # shown as text


def test_worst_hands_link_their_explanation(report) -> None:
    out, _ = report
    page = parse(out / "all-time.html")
    hands = [h for h in page.links if h.startswith("hands/")]
    assert hands
    text = (out / hands[0]).read_text(encoding="utf-8")
    assert "--explain" in text and "!!" in text  # the replay text with its findings
    replay = text[text.index('<pre class="explain">') : text.index("</pre>")]
    assert replay.count("\n") > 20 and "<mark>" in replay  # one event a line, findings marked


def test_index_links_every_built_period(report, bundled_dataset: Path) -> None:  # noqa: F811
    out, _ = report
    links = parse(out / "index.html").links
    for name in report_periods(bundled_dataset):
        assert f"{name}.html" in links


def test_a_period_without_hands_gets_a_page_saying_so(bundled_dataset: Path, tmp_path: Path) -> None:  # noqa: F811
    written = build_report(bundled_dataset, tmp_path, periods="2020-01")
    text = " ".join(parse(tmp_path / "2020-01.html").text)
    assert "No hands were played in this period" in text
    assert written[-1].name == "index.html"


def test_ruleset_filter(bundled_dataset: Path, tmp_path: Path) -> None:  # noqa: F811
    build_report(bundled_dataset, tmp_path, periods="all-time", ruleset="fuzhou")
    page = parse(tmp_path / "all-time.html")
    assert "gold-held-figure_1" in page.ids
    assert not [i for i in page.ids if "guobiao" in i]
    with pytest.raises(ReportError, match="no 'mahjongsoul' hands"):
        build_report(bundled_dataset, tmp_path, ruleset="mahjongsoul")


def test_bad_period_is_an_error(bundled_dataset: Path, tmp_path: Path) -> None:  # noqa: F811
    with pytest.raises(ReportError, match="expected a month"):
        build_report(bundled_dataset, tmp_path, periods="November")


def test_unaudited_dataset_says_so(tmp_path: Path) -> None:
    from mjstats.store import SourceInput, ingest_sources
    from tests.test_report_data import BOTZONE_SAMPLE

    ingest_sources([SourceInput(BOTZONE_SAMPLE, "botzone")], tmp_path / "ds")
    build_report(tmp_path / "ds", tmp_path / "out", periods="all-time")
    text = " ".join(parse(tmp_path / "out" / "all-time.html").text)
    assert "has not been audited" in text


def test_cli_report(bundled_dataset: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    from mjstats.cli import main

    assert main(["report", str(bundled_dataset), "--period", "undated", "--out", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[-1] == str(tmp_path / "index.html")
    assert (tmp_path / "undated.html").is_file()
    assert main(["report", str(bundled_dataset), "--period", "2026-13", "--out", str(tmp_path)]) == 2
    assert "expected a month" in capsys.readouterr().err


@pytest.mark.slow
def test_every_period_and_week(bundled_dataset: Path, tmp_path: Path) -> None:  # noqa: F811
    from mjstats.report import available_periods
    from mjstats.store import open_dataset

    build_report(bundled_dataset, tmp_path, periods=["all", "weeks"])
    expected = {p.filename for p in available_periods(open_dataset(bundled_dataset))}
    assert expected <= {p.name for p in tmp_path.glob("*.html")}
    links = set(parse(tmp_path / "index.html").links)
    assert expected <= links
    for name in expected:
        assert parse(tmp_path / name).sections == list(SECTIONS)


def test_rerunning_the_audit_then_the_report_changes_nothing(tmp_path: Path, sample_path: Path) -> None:
    """``make report`` reruns ingest (a no-op), the audit (a new dataset version) and the report:
    the pages name the data by its fingerprint, not the version, so they stay byte-identical."""
    from mjstats.audit import audit_dataset
    from mjstats.store import SourceInput, ingest_sources, open_dataset

    ds = tmp_path / "ds"
    ingest_sources([SourceInput(sample_path, "botzone")], ds)
    audit_dataset(ds, jobs=1)
    first = build_report(ds, tmp_path / "one", periods="all")
    version = open_dataset(ds).path.name
    audit_dataset(ds, jobs=1)
    assert open_dataset(ds).path.name != version
    second = build_report(ds, tmp_path / "two", periods="all")
    names = [p.relative_to(tmp_path / "one") for p in first]
    assert names == [p.relative_to(tmp_path / "two") for p in second]
    for a, b in zip(first, second, strict=True):
        assert a.read_bytes() == b.read_bytes(), a.name


@pytest.mark.slow
def test_committed_report_is_what_make_report_builds(
    make_report_dataset: Path,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """reports/ holds the report of the bundled data byte for byte (rebuild it with make report
    after changing anything a page shows; the same matplotlib version gives the same figures)."""
    from tests.test_report_data import ROOT, make_report_recipe

    report = make_report_recipe()[-1]
    assert report[3:] == ["report", "data/datasets/main", "--all-periods", "--out", "reports", "-q"]
    monkeypatch.chdir(make_report_dataset.parents[2])  # the Makefile's paths are relative
    build_report(Path("data/datasets/main"), tmp_path, periods="all")
    built = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*.html"))
    committed = sorted(p.relative_to(ROOT / "reports") for p in (ROOT / "reports").rglob("*.html"))
    assert built == committed
    for name in built:
        assert (tmp_path / name).read_bytes() == (ROOT / "reports" / name).read_bytes(), name
