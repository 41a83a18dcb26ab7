"""The report's Integrity section: it runs on the bundled data and on the real Botzone sample,
and says plainly when the data is too small to judge."""

from __future__ import annotations

from pathlib import Path

from mjstats import open_dataset
from mjstats.report.integrity_section import integrity_section
from mjstats.store import SourceInput, ingest_sources
from tests.conftest import SAMPLE
from tests.test_report_data import (
    bundled_dataset,  # noqa: F401  (fixture)
    bundled_report,  # noqa: F401  (fixture)
)


def test_the_botzone_sample_is_too_small_to_judge(tmp_path: Path) -> None:
    ingest_sources([SourceInput(SAMPLE, "botzone")], tmp_path / "ds")
    section = integrity_section(open_dataset(tmp_path / "ds"))
    verdict = section.blocks[0]
    assert verdict.title == "Verdict"
    assert verdict.text.startswith("too small to judge: 16 hands")
    guobiao = section.blocks[1]
    assert "tests had enough data" in guobiao.text
    small = [row for table in guobiao.tables for row in table.rows if row.small]
    assert small and all("too small to judge" in row.cells[3] for row in small)


def test_the_bundled_report_has_the_section_with_its_figures(bundled_report: Path) -> None:  # noqa: F811
    page = (bundled_report / "all-time.html").read_text(encoding="utf-8")
    assert 'id="integrity"' in page
    start = page.index('id="integrity"')
    section = page[start : page.index("</section>", start)]
    for ruleset in ("guobiao", "fuzhou"):
        assert f"integrity-draws-{ruleset}" in section  # observed vs expected with bands
        assert f"integrity-pairs-{ruleset}" in section  # the pair heat map
    assert "Benjamini-Hochberg" in section
