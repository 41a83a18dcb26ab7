"""The Sichuan 血战到底 section of the report (the Sichuan package's ``report`` part): the
multiplier, order-of-winning and void-choice figures for Sichuan hands, the same bytes on every
build; a period without Sichuan hands says so, like the gold section for Fuzhou."""

from __future__ import annotations

from pathlib import Path

import pytest

from mjstats.cli import main
from mjstats.rulesets.sichuan.section import sichuan_section
from mjstats.stats.tables import clear_cache
from mjstats.store import open_dataset
from tests.test_stats_sichuan import _ingest, hands


@pytest.fixture(scope="module")
def sichuan_ds(tmp_path_factory) -> Path:
    clear_cache()
    return _ingest(tmp_path_factory.mktemp("scr"), hands())


def test_section_blocks_and_numbers(sichuan_ds):
    section = sichuan_section(open_dataset(sichuan_ds))
    titles = [b.title for b in section.blocks]
    assert titles == ["Multipliers", "Order of winning", "Void suit and the wall's end"]
    multipliers, order, void = section.blocks
    cells = [r.cells for r in multipliers.tables[0].rows]
    assert cells[0][:3] == ("x1", "2", "6") and cells[-1][:3] == ("at the cap", "2", "6")
    assert [r.cells[0] for r in order.tables[0].rows] == ["not out", "first out", "second out", "third out"]
    assert order.tables[0].rows[1].cells[3] == "49.2"  # (2 + 2 + 192 + 1) / 4
    assert [r.cells[:4] for r in void.tables[0].rows] == [
        ("fewest tiles", "16", "80.0%", "18.8%"), ("middle suit", "2", "10.0%", "100.0%"),
        ("most tiles", "2", "10.0%", "50.0%")]
    assert all("<svg" in f.svg for b in section.blocks for f in b.figures)
    assert len([f for b in section.blocks for f in b.figures]) == 3


def test_report_has_the_figures_only_for_sichuan_data(sichuan_ds, tmp_path):
    out = tmp_path / "rep"
    assert main(["report", str(sichuan_ds), "--out", str(out), "-q"]) == 0
    page = (out / "all-time.html").read_text(encoding="utf-8")
    assert 'id="sichuan"' in page and "Sichuan 血战到底" in page
    again = tmp_path / "rep2"
    assert main(["report", str(sichuan_ds), "--out", str(again), "-q"]) == 0
    assert (again / "all-time.html").read_bytes() == (out / "all-time.html").read_bytes()

    from tests.test_stats_fuzhou import _ingest as ingest_fuzhou
    from tests.test_stats_fuzhou import all_hands

    (tmp_path / "fz").mkdir()
    fuzhou = ingest_fuzhou(tmp_path / "fz", all_hands())
    assert main(["report", str(fuzhou), "--out", str(tmp_path / "fzrep"), "-q"]) == 0
    page = (tmp_path / "fzrep" / "all-time.html").read_text(encoding="utf-8")
    assert 'id="sichuan"' in page and "No Sichuan hands in this period" in page
    assert "sc-multiplier" not in page and "sc-void-choice" not in page
