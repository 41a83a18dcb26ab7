"""The notebooks in notebooks/: committed without outputs, parameterised (a cell tagged
``parameters``, as papermill expects), using the public API only, and running without errors
on the bundled data (the parameters cell is replaced to point at a dataset built for the test)."""

from __future__ import annotations

import asyncio
import os
import re
import sys
from pathlib import Path

import pytest

from tests.test_report_data import (  # noqa: F401  (fixtures)
    ROOT,
    bundled_dataset,
    first_month,
    make_report_dataset,
)

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
EXPECTED = (
    "01_audit_walkthrough",
    "02_win_rates",
    "03_fans",
    "04_gold",
    "05_dealer_streaks",
    "06_sichuan",
    "07_integrity",
    "08_decisions",
)
PUBLIC = (
    "mjstats",
    "mjstats.stats",
    "mjstats.audit",
    "mjstats.replay",
    "mjstats.replay.explain",
    "mjstats.report",
    "mjstats.integrity",
    "mjstats.decision",
)


def parameters_cell(nb) -> int:
    tagged = [i for i, c in enumerate(nb.cells) if "parameters" in c.metadata.get("tags", [])]
    assert len(tagged) == 1, "one cell tagged 'parameters'"
    return tagged[0]


def test_the_notebooks_are_there() -> None:
    assert tuple(p.stem for p in NOTEBOOKS) == EXPECTED


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_committed_notebook_is_stripped_and_parameterised(path: Path) -> None:
    raw = path.read_text(encoding="utf-8")
    nb = nbformat.reads(raw, as_version=4)
    nbformat.validate(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, "outputs not stripped"
    source = nb.cells[parameters_cell(nb)].source
    assert re.search(r"^DATASET = ", source, re.M) and re.search(r"^PERIOD = ", source, re.M)
    assert sum(c.cell_type == "markdown" for c in nb.cells) >= 4, "prose explaining the figures"
    assert raw == nbformat.writes(nb) + "\n" or raw == nbformat.writes(nb), "not in nbformat's layout"
    for cell in nb.cells:
        for module in re.findall(r"^\s*(?:from|import) (mjstats[\w.]*)", cell.source, re.M):
            assert module in PUBLIC, f"{module} is not the public API"
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    # Chinese labels: the shared font set-up, which says once when no CJK font is installed,
    # rather than silencing matplotlib's warnings
    assert "use_cjk_font()" in code
    assert "filterwarnings" not in code and "logging.ERROR" not in code and "papermill" not in code


def _prepared(path: Path, dataset: Path, period: str | None):
    nb = nbformat.read(path, as_version=4)
    nb.cells[parameters_cell(nb)].source = f"DATASET = {str(dataset)!r}\nPERIOD = {period!r}"
    return nb


def _errors(name: str, nb) -> list[str]:
    return [
        f"{name}: {o.get('ename')}: {o.get('evalue')}"
        for cell in nb.cells
        for o in cell.get("outputs", [])
        if o.get("output_type") == "error"
    ]


def _run_all(runs: list[tuple[Path, Path, str | None]], executed: dict | None = None) -> list[str]:
    """Execute notebooks side by side (one kernel each); the errors they raised. ``executed``
    receives each executed notebook by (file name, period)."""

    async def run(
        path: Path, dataset: Path, period: str | None, slots: asyncio.Semaphore
    ) -> list[str]:
        nb = _prepared(path, dataset, period)
        if executed is not None:
            executed[(path.name, period)] = nb
        # a kernel's start-up competes with the others' cells for the CPU: a loaded CI machine
        # took over nbclient's default 60 s to answer, so starts get as long as cells do
        client = nbclient.NotebookClient(
            nb,
            timeout=300,
            startup_timeout=300,
            kernel_name="python3",
            resources={"metadata": {"path": str(path.parent)}},
        )
        async with slots:
            try:
                await client.async_execute()
            except nbclient.exceptions.CellExecutionError as exc:
                return [f"{path.name} (PERIOD={period!r}): {str(exc)[-1500:]}"]
        return _errors(path.name, nb)

    async def everything() -> list[list[str]]:
        # no more kernels at once than the machine has cores (at least two)
        slots = asyncio.Semaphore(max(2, os.cpu_count() or 2))
        return await asyncio.gather(*(run(*r, slots) for r in runs))

    return [e for errors in asyncio.run(everything()) for e in errors]


def test_notebooks_run_on_the_bundled_data(bundled_dataset: Path) -> None:  # noqa: F811
    runs = [(path, bundled_dataset, None) for path in NOTEBOOKS]
    # the undated hands are the Botzone sample: Guobiao only, so the gold cells must say so
    runs.append((ROOT / "notebooks" / "04_gold.ipynb", bundled_dataset, "undated"))
    executed: dict = {}
    assert _run_all(runs, executed) == []
    # notebook 01 shows a hand of the bundled sample as tiles (HTML with SVG tiles)
    nb = executed[("01_audit_walkthrough.ipynb", None)]
    shown = [c for c in nb.cells if c.cell_type == "code" and "ds.hand(HAND)" in c.source]
    assert len(shown) == 2
    for cell in shown:
        html = "".join(o.get("data", {}).get("text/html", "") for o in cell.outputs)
        assert "<svg" in html and html.count("<title>") >= 4 * 13, cell.source  # every seat's tiles


def test_notebooks_run_on_the_make_report_dataset(make_report_dataset: Path) -> None:  # noqa: F811
    """What a user has after ``make report``: the bundled data, audited clean (no findings file)."""
    from mjstats import open_dataset

    ds = open_dataset(make_report_dataset)
    assert ds.table("audited_hands")["status"].eq("clean").all()
    assert ds.table("findings").empty
    assert _run_all([(path, make_report_dataset, None) for path in NOTEBOOKS]) == []


@pytest.mark.slow
def test_notebooks_run_for_one_period(bundled_dataset: Path) -> None:  # noqa: F811
    month = first_month(bundled_dataset)
    runs = [(path, bundled_dataset, period) for path in NOTEBOOKS for period in (month, "undated")]
    assert _run_all(runs) == []


def test_kernel_is_this_python(tmp_path: Path) -> None:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("import sys; print(sys.executable)")]
    nbclient.NotebookClient(nb, timeout=300, startup_timeout=300, kernel_name="python3").execute()
    printed = nb.cells[0].outputs[0]["text"].strip()
    assert Path(printed).resolve() == Path(sys.executable).resolve()
