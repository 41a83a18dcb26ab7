"""What a report may overwrite: its own earlier pages, never a user's file unless forced."""

from __future__ import annotations

from pathlib import Path

from mjstats.report.periods import ReportError
from mjstats.store.layout import dataset_containing

__all__ = ["GENERATOR", "check_page_target", "check_report_folder", "is_report_page"]

GENERATOR = '<meta name="generator" content="mjstats'  # every page mjstats writes carries it


def is_report_page(path: Path) -> bool:
    """True when the file at ``path`` is a page an mjstats report wrote (its generator tag)."""
    try:
        with path.open("rb") as fh:
            head = fh.read(4096)
    except OSError:
        return False
    return GENERATOR.encode("ascii") in head


def check_report_folder(out: Path) -> None:
    """Refuse an output folder that is a file or lies in a dataset (reports never go there)."""
    if out.exists() and not out.is_dir():
        raise ReportError(f"{out} exists and is not a folder")
    inside = dataset_containing(out)
    if inside is not None:
        raise ReportError(f"{out}: is inside the dataset {inside}; write the report to another folder")


def check_page_target(path: Path, *, force: bool) -> None:
    """Refuse to replace an existing file that is not an mjstats page (unless ``force``)."""
    if path.is_dir():
        raise ReportError(f"{path}: a folder is in the way of a report page")
    if not force and path.exists() and not is_report_page(path):
        raise ReportError(f"{path}: exists and was not written by mjstats; use --force to replace it")
