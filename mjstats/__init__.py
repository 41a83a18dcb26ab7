"""mjstats: Chinese mahjong game records turned into statistics people can trust."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

__all__ = [
    "__version__",
    "decisions",
    "display",
    "findings",
    "open_dataset",
    "parse_tile",
    "parse_tiles",
    "read_botzone",
]

if TYPE_CHECKING:
    from mjstats.audit_findings import findings
    from mjstats.decision.stage import decisions
    from mjstats.formats.botzone import read_botzone
    from mjstats.store import open_dataset
    from mjstats.tiles import parse_tile, parse_tiles
    from mjstats.viewer import display

# Imported on first use, so that `import mjstats` stays light (pandas and pyarrow load only
# when the dataset is touched).
_LAZY = {
    "display": "mjstats.viewer",
    "decisions": "mjstats.decision.stage",
    "findings": "mjstats.audit_findings",
    "open_dataset": "mjstats.store",
    "read_botzone": "mjstats.formats.botzone",
    "parse_tile": "mjstats.tiles",
    "parse_tiles": "mjstats.tiles",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'mjstats' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
