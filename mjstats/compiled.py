"""Which modules the compiled build turns into C extensions, and which are compiled in this process.

The pure-Python package is the reference and what an editable install runs. ``make compiled``
copies the package to ``build/compiled/`` and compiles there, with mypyc, the modules each
ruleset names (its spec's ``compiled``) and those of the core below: the source tree never holds a
built module, so an edited ``.py`` is never shadowed by a stale one. Running with
``PYTHONPATH=build/compiled`` (and ``python -P``) uses the copy. docs/compiled.md has the details.
"""

from __future__ import annotations

import importlib
import sys

from mjstats.rulesets import rulesets

__all__ = ["CORE_MODULES", "compiled_modules", "compiled_status", "describe_build"]

# the replay path: the replayer, the table state it updates per event and the walls it counts
# draws against, the read-back of the hands it replays with the records' slot setters it
# builds them by, and the audit's loop making each hand's rows (docs/compiled.md)
CORE_MODULES: tuple[str, ...] = (
    "mjstats.slot_setters",
    "mjstats.event_columns",
    "mjstats.store.rebuild",
    "mjstats.replay.findings",
    "mjstats.replay.walls",
    "mjstats.replay.state",
    "mjstats.replay.replayer",
    "mjstats.audit_rows",
    "mjstats.decision.judge",
)

_EXTENSION_SUFFIXES = (".so", ".pyd")


def compiled_modules() -> tuple[str, ...]:
    """Every module the compiled build compiles: the core's, then each ruleset's, in order."""
    return CORE_MODULES + tuple(f"{r.package}.{m}" for r in rulesets() for m in r.compiled)


def compiled_status() -> dict[str, bool]:
    """For each module of :func:`compiled_modules`: whether this process runs its compiled form."""
    status = {}
    for name in compiled_modules():
        module = sys.modules.get(name) or importlib.import_module(name)
        status[name] = str(getattr(module, "__file__", "") or "").endswith(_EXTENSION_SUFFIXES)
    return status


def describe_build() -> str:
    """One line naming the build this process runs, for benchmark output."""
    status = compiled_status()
    done = [name.rsplit(".", 1)[1] for name, compiled in status.items() if compiled]
    if not done:
        return "mjstats build: pure Python"
    if len(done) == len(status):
        return f"mjstats build: compiled ({', '.join(done)})"
    return f"mjstats build: partly compiled ({', '.join(done)} of {len(status)} modules)"


if __name__ == "__main__":
    # the Makefile's list of files to compile, relative to the package's parent
    print(" ".join(name.replace(".", "/") + ".py" for name in compiled_modules()))
