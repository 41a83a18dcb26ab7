"""The core names no ruleset: outside ``mjstats/rulesets/`` only the registry speaks of one, and
no core module imports a ruleset package directly (docs/architecture.md)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from mjstats.errors import MjstatsError
from mjstats.rulesets import names

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "mjstats"
RULESETS = PACKAGE / "rulesets"
MAX_LINES = 20  # the limit the core must stay under (today it names no ruleset at all)


def _core_modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if RULESETS not in p.parents)


def _naming_lines() -> list[str]:
    """Every core line that names a registered ruleset (code, comment or docstring)."""
    pattern = re.compile("|".join(re.escape(n) for n in names()), re.IGNORECASE)
    found = []
    for path in _core_modules():
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            if pattern.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    return found


def test_the_core_names_rulesets_only_in_a_few_lines() -> None:
    found = _naming_lines()
    assert len(found) <= MAX_LINES, "\n".join([f"{len(found)} lines name a ruleset:", *found])


def test_the_grep_sees_a_ruleset_named_in_the_core() -> None:
    # the pattern is the registry's names, case-insensitive: a core line naming one is caught
    pattern = re.compile("|".join(re.escape(n) for n in names()), re.IGNORECASE)
    assert all(pattern.search(f"# {n.title()} only") for n in names())
    assert not pattern.search("# every ruleset alike")


def _ruleset_imports(path: Path) -> list[str]:
    """Imports of a ruleset's own modules (``mjstats.rulesets.<name>...``) in one module."""
    tree = ast.parse(path.read_text("utf-8"), str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            modules = [node.module]
            if node.module == "mjstats.rulesets":
                modules = [f"mjstats.rulesets.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            modules = [a.name for a in node.names]
        else:
            continue
        for module in modules:
            parts = module.split(".")
            if parts[:2] == ["mjstats", "rulesets"] and len(parts) > 2 and parts[2] in names():
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {module}")
    return found


def test_core_modules_import_no_ruleset_package() -> None:
    found = [hit for path in _core_modules() for hit in _ruleset_imports(path)]
    assert not found, "core modules importing a ruleset directly:\n" + "\n".join(found)


def test_every_registered_ruleset_describes_itself() -> None:
    from mjstats.rulesets import get, rulesets

    assert tuple(r.name for r in rulesets()) == names()
    for ruleset in rulesets():
        assert get(ruleset.name) is ruleset
        assert ruleset.package == f"mjstats.rulesets.{ruleset.name}"
        assert ruleset.label and ruleset.title and ruleset.hand_size in (13, 16)
        module = ruleset.load(ruleset.fan_cli)
        assert callable(module.add_options) and callable(module.run)
        for part in (ruleset.replay, ruleset.checks, ruleset.user_profile, ruleset.sim,
                     ruleset.metrics, ruleset.stats, ruleset.report, ruleset.shanten,
                     ruleset.shape, ruleset.flower_kinds, ruleset.faults, ruleset.fan_names,
                     ruleset.notes):
            if part is not None:
                assert ruleset.load(part) is not None, (ruleset.name, part)


def test_an_unknown_ruleset_is_one_clear_error() -> None:
    from mjstats.rulesets import get

    with pytest.raises(MjstatsError, match="unknown ruleset 'mahjong' \\(known: "):
        get("mahjong")
