"""The dataset the report, notebook and browser tests share: the bundled data, audited.

``build_bundled_dataset(folder)`` ingests data/botzone/sample.txt and every bundled simulated
set in data/sim/ (when there is none yet, small seeded Guobiao and Fuzhou sets are simulated
instead), plus a small Guobiao set with recorded faults whose first player is named
``<script>alert(1)</script>`` (the escaping tests look for it), then runs the audit.
"""

from __future__ import annotations

import fcntl
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BOTZONE_SAMPLE = ROOT / "data" / "botzone" / "sample.txt"
SIM_DIR = ROOT / "data" / "sim"
EVIL_NAME = "<script>alert(1)</script>"


def bundled_sim_files() -> list[Path]:
    """The simulated sets shipped in data/sim/ (canonical JSON Lines; fault lists excluded)."""
    if not SIM_DIR.is_dir():
        return []
    return sorted(p for p in SIM_DIR.glob("*.jsonl.gz") if ".faults." not in p.name)


def _simulate(
    path: Path, ruleset: str, hands: int, seed: int, faults: float = 0.0, players: str | None = None
):
    from mjstats.formats.canonical import write_canonical
    from mjstats.sim import SimConfig, parse_players, simulate_with_faults

    config = SimConfig(ruleset, hands, seed, None, parse_players(players, ruleset) if players else None)
    write_canonical((hand for hand, _ in simulate_with_faults(config, faults)), path)
    return path


def build_bundled_dataset(folder: Path) -> Path:
    """Ingest and audit the bundled data into ``folder``/dataset; return the dataset path."""
    from mjstats.audit import audit_dataset
    from mjstats.store import SourceInput, ingest_sources

    folder.mkdir(parents=True, exist_ok=True)
    dataset = folder / "dataset"
    sources = [SourceInput(BOTZONE_SAMPLE, "botzone")]
    sims = bundled_sim_files()
    if not sims:
        sims = [
            _simulate(folder / "guobiao.jsonl", "guobiao", 96, seed=11),
            _simulate(folder / "fuzhou.jsonl", "fuzhou", 96, seed=12),
        ]
    evil_players = f"{EVIL_NAME}:greedy,bo:defensive,cai:aggressive,dee:flush"
    evil = _simulate(folder / "faulty.jsonl", "guobiao", 32, seed=13, faults=0.25, players=evil_players)
    sources += [SourceInput(p, "canonical") for p in [*sims, evil]]
    ingest_sources(sources, dataset)
    audit_dataset(dataset, jobs=1)
    return dataset


def make_report_recipe() -> list[list[str]]:
    """The commands of the Makefile's ``report`` target (the main job), variables expanded, with
    ``$(BIN)/mjstats`` as ``python -m mjstats``: what ``make report`` runs, read from the Makefile."""
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    variables = dict(re.findall(r"^([A-Z_]+) :?= (.*)$", text, re.M))
    recipe = re.search(r"^report:.*\n((?:\t.*\n)+)", text, re.M)
    assert recipe, "the Makefile has no report target"
    commands = []
    for line in recipe.group(1).splitlines():
        line = re.sub(r"\$\(([A-Z_]+)\)", lambda m: variables[m.group(1)], line.strip())
        words = shlex.split(line)
        assert words[0].endswith("/mjstats"), line
        commands.append([sys.executable, "-m", "mjstats", *words[1:]])
    return commands


def build_make_report_dataset(folder: Path, *, report: bool = False) -> Path:
    """Run the ``make report`` commands in ``folder`` (the bundled data read from the project,
    the dataset written at the Makefile's relative path below ``folder``); the report itself only
    when ``report`` (into ``folder``/reports). Returns the dataset path."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for data in ("data/botzone", "data/sim", "data/real"):
        (folder / data).parent.mkdir(parents=True, exist_ok=True)
        if not (folder / data).exists():
            (folder / data).symlink_to(ROOT / data)
    dataset = None
    for command in make_report_recipe():
        if command[3] == "report":
            dataset = Path(command[4])
            if not report:
                continue
        subprocess.run(command, cwd=folder, env=env, check=True, capture_output=True, timeout=600)
    assert dataset is not None
    return folder / dataset


def shared_temp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The session's temporary root that every test process of the run shares: under pytest-xdist
    each worker has a folder of its own below it, so a dataset built there is built once a run."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def _once(folder: Path, build) -> Path:
    """Build into ``folder`` once per test run, whichever module (or test process) asks first: the
    fixtures are imported by several test modules, each import a fixture of its own, and under
    pytest-xdist each worker has its own; a lock file beside the folder makes the others wait."""
    done = folder / ".complete"
    folder.parent.mkdir(parents=True, exist_ok=True)
    with open(folder.parent / f".{folder.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            if folder.exists():
                shutil.rmtree(folder)
            folder.mkdir(parents=True)
            build(folder)
            done.touch()
    return folder


@pytest.fixture(scope="session")
def bundled_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled data, ingested and audited (built once per session)."""
    return _once(shared_temp(tmp_path_factory) / "bundled-data", build_bundled_dataset) / "dataset"


@pytest.fixture(scope="session")
def make_report_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The dataset ``make report`` builds (its commands, read from the Makefile), built once."""
    folder = _once(shared_temp(tmp_path_factory) / "make-report", build_make_report_dataset)
    return folder / make_report_recipe()[-1][4]


def first_month(dataset: Path) -> str:
    from mjstats import open_dataset

    return sorted(p for _, p in open_dataset(dataset).partitions() if p != "undated")[0]


def report_periods(dataset: Path) -> list[str]:
    """What the shared report holds: all time, the undated hands and the first month."""
    return ["all-time", "undated", first_month(dataset)]


@pytest.fixture(scope="session")
def bundled_report(bundled_dataset: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A report of the bundled dataset (``report_periods``), built once per session."""
    from mjstats.report import build_report

    def build(folder: Path) -> None:
        build_report(bundled_dataset, folder / "out", periods=report_periods(bundled_dataset))

    return _once(shared_temp(tmp_path_factory) / "bundled-report", build) / "out"


def test_bundled_dataset_holds_both_rulesets_and_the_audit(bundled_dataset: Path) -> None:
    from mjstats import open_dataset

    ds = open_dataset(bundled_dataset)
    rulesets = {r for r, _ in ds.partitions()}
    assert {"guobiao", "fuzhou"} <= rulesets
    assert ("guobiao", "undated") in ds.partitions()  # the Botzone sample has no dates
    assert ds.has_table("findings") and len(ds.table("findings")) > 0
    players = {p for row in ds.table("hands", columns=["players"])["players"] for p in row}
    assert EVIL_NAME in players
