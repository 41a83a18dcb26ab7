"""README.md's first-hour instructions work: the Python API block runs as shown on a dataset
built from the sample, and ``make notebooks`` installs the notebook extra and starts JupyterLab."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from mjstats.store import SourceInput, ingest_sources
from tests.test_report_data import BOTZONE_SAMPLE, ROOT


def readme_block(heading: str, language: str) -> str:
    """The first ```language block under the README's ``## heading``."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index(f"\n## {heading}\n") :]
    section = section[: section.find("\n## ", 1)]
    block = re.search(rf"^```{language}\n(.*?)^```$", section, re.S | re.M)
    assert block, f"no {language} block under {heading}"
    return block.group(1)


def test_python_api_block_runs(tmp_path: Path) -> None:
    dataset = tmp_path / "DS"
    ingest_sources([SourceInput(BOTZONE_SAMPLE, "botzone")], dataset)
    code = readme_block("Python API", "python")
    assert '"DS"' in code
    script = tmp_path / "readme_api.py"
    script.write_text(code.replace('"DS"', repr(str(dataset))), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, str(script)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    # the audit's new version is what the reopened dataset reads: 16 clean hands, no findings
    assert done.stdout.strip().splitlines()[-1] == "16 of 16 hands clean; 0 findings"


def test_make_notebooks_installs_the_notebook_extra_and_starts_jupyter() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]
    names = {re.split(r"[<>=\[ ]", req, maxsplit=1)[0].lower() for req in extras["notebook"]}
    # what test_notebooks needs to run a notebook, plus a front end and the figures' library
    assert {"jupyterlab", "ipykernel", "nbclient", "nbformat", "matplotlib"} <= names
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    # a dry run (-n) prints the commands without running them; PYTHON=false: no venv is made
    plan = subprocess.run(
        ["make", "--no-print-directory", "-n", "notebooks", "PYTHON=false"], cwd=ROOT,
        capture_output=True, text=True, timeout=60,
    ).stdout
    assert "pip install -q -e '.[report,notebook]'" in plan
    assert plan.strip().splitlines()[-1] == ".venv/bin/jupyter lab --notebook-dir=notebooks"


def readme_commands(program: str) -> list[list[str]]:
    """Every ``program ...`` command line of the README's sh blocks (continuations joined,
    comments dropped), as words."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = []
    for block in re.findall(r"^```sh\n(.*?)^```$", text, re.S | re.M):
        for line in block.replace("\\\n", " ").splitlines():
            words = shlex.split(line, comments=True)
            if words and words[0] in (program, f".venv/bin/{program}"):
                commands.append(words[1:])
    return commands


def test_readme_command_lines_are_valid_commands() -> None:
    """Each mjstats command the README shows is accepted as written (parsed, not run: the
    s3:// example needs a bucket)."""
    from mjstats.cli import build_parser

    commands = readme_commands("mjstats")
    assert len(commands) >= 12 and {c[0] for c in commands} >= {"ingest", "audit", "stats", "report"}
    for words in commands:
        try:
            build_parser().parse_args(words)
        except SystemExit:
            pytest.fail(f"README: `mjstats {' '.join(words)}` is not a valid command")
