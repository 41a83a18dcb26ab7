"""The Integrity section of a period page: is the platform fair? (mjstats.integrity)

A verdict in one sentence (saying plainly when the period is too small to judge), the findings
that survive Benjamini-Hochberg, per ruleset a figure of each seat's improving draws observed
against expected with 95% bands, and a heat map of who deals in to whom (observed over
expected), then every test in a table.
"""

from __future__ import annotations

import math

import numpy as np

from mjstats.integrity import IntegrityReport, run_integrity
from mjstats.integrity.replays import ReplayCache
from mjstats.integrity.rows import subject_key
from mjstats.report import figures
from mjstats.report.content import Block, Figure, Row, Section, Table
from mjstats.report.formatting import count, number
from mjstats.store import Dataset

__all__ = ["integrity_section"]

INTRO = (
    "Whether the platform was fair, not whether each action was legal: starting hands, wall "
    "positions, the gold and flowers against their exact distributions under a fair shuffle; "
    "every draw's exact chance of improving the drawer's hand; who deals in to, feeds and throws "
    "winning tiles to whom; wins, deal-ins, scores and win-after-win streaks by seat. All "
    "p-values are corrected together (Benjamini-Hochberg, FDR 5%); a finding is a test that "
    "survives. See docs/integrity.md for each test and its limits."
)


# The tests replay every hand (~100-150 hands/s): past this many hands a report page points to
# `mjstats integrity` instead of making the whole report wait hours on a large dataset.
REPORT_MAX_HANDS = 50_000


def integrity_section(ds: Dataset, replays: ReplayCache | None = None) -> Section:
    """The section for one period's dataset (grouped by seat); ``replays`` shared by the pages of
    one build replays each hand once, whatever the periods it belongs to."""
    hands = ds.table("hands", columns=["hand_no"])
    if hands.empty:
        return Section("integrity", "Integrity", intro=INTRO, empty="No hands in this period.")
    if len(hands) > REPORT_MAX_HANDS:
        return Section(
            "integrity",
            "Integrity",
            intro=INTRO,
            empty=f"{len(hands):,} hands: more than the report runs the integrity tests on "
            f"({REPORT_MAX_HANDS:,}); run `mjstats integrity` on the dataset for this section's tests.",
        )
    report = run_integrity(ds, by="seat", replays=replays)
    blocks = [_verdict_block(report)]
    for ruleset in sorted({r["ruleset"] for r in report.rows}):
        blocks.append(_ruleset_block(report, ruleset))
    return Section("integrity", "Integrity", intro=INTRO, blocks=tuple(blocks))


def _verdict_block(report: IntegrityReport) -> Block:
    text = report.verdict() + "."
    if report.notes:
        text += " " + " ".join(f"Note: {n}." for n in report.notes)
    found = report.findings
    if not found:
        return Block("Verdict", text=text)
    rows = tuple(
        Row(
            (
                r["ruleset"],
                r["test"],
                subject_key(r["subject"]),
                _p(r["p_value"]),
                _p(r["q_value"]),
                _effect(r),
            )
        )
        for r in found
    )
    table = Table(
        ("Ruleset", "Test", "Subject", "p", "q (BH)", "Effect [95%]"),
        (False, False, False, True, True, True),
        rows,
        caption="Findings: tests that survive Benjamini-Hochberg at FDR 5%",
    )
    return Block("Verdict", text=text, tables=(table,))


def _ruleset_block(report: IntegrityReport, ruleset: str) -> Block:
    rows = [r for r in report.rows if r["ruleset"] == ruleset]
    figs = []
    draws = [r for r in rows if r["test"] == "draw.improving" and r["effect"] is not None]
    if draws:
        points = [
            figures.Point(f"seat {r['subject']['seat']}", r["effect"], r["effect_low"], r["effect_high"])
            for r in draws
        ]
        name = f"integrity-draws-{ruleset}"
        title = "Improving draws, observed / expected, with 95% bands (1 = a fair wall)"
        svg = figures.intervals(
            points,
            name=name,
            title=title,
            xlabel="observed / expected improving draws",
            percent=False,
            reference=1.0,
        )
        figs.append(Figure(svg, title))
    matrix = _deal_in_matrix(rows)
    if matrix is not None:
        name = f"integrity-pairs-{ruleset}"
        title = "Deal-ins, loser (row) to winner (column): log2 observed / expected"
        svg = figures.heatmap(
            [f"seat {s}" for s in range(4)],
            matrix,
            name=name,
            title=title,
            colorbar="log2 observed / expected",
        )
        figs.append(Figure(svg, title))
    table_rows = tuple(
        Row(
            (
                r["test"],
                subject_key(r["subject"]) or "all",
                count(r["n"]),
                _p(r["p_value"]) if r["p_value"] is not None else r["note"],
                _p(r["q_value"]),
                _effect(r),
            ),
            small=r["p_value"] is None,
        )
        for r in rows
    )
    table = Table(
        ("Test", "Subject", "Cases", "p (or why not)", "q (BH)", "Effect [95%]"),
        (False, False, True, True, True, True),
        table_rows,
        caption="Every test",
        note="Grey rows are too small to judge; their reason stands in the p column.",
    )
    from mjstats.report.sections import ruleset_name

    judged = sum(r["p_value"] is not None for r in rows)
    text = f"{judged} of {len(rows)} tests had enough data to judge."
    if not judged:
        text = "Too small to judge: no test had enough data in this period."
    return Block(ruleset_name(ruleset), text=text, tables=(table,), figures=tuple(figs))


def _deal_in_matrix(rows: list[dict]) -> np.ndarray | None:
    cells = [r for r in rows if r["test"] == "collusion.deal_in" and r["expected"]]
    if not cells:
        return None
    matrix = np.full((4, 4), np.nan)
    for r in cells:
        a, b = r["subject"]["from"], r["subject"]["to"]
        if isinstance(a, int) and isinstance(b, int) and r["observed"] > 0:
            matrix[a, b] = math.log2(r["observed"] / r["expected"])
    return matrix


def _p(value: float | None) -> str:
    if value is None:
        return "—"
    return f"{value:.2g}" if value >= 0.001 else f"{value:.1e}"


def _effect(row: dict) -> str:
    if row["effect"] is None:
        return "—"
    text = number(row["effect"], 3)
    if row["effect_low"] is not None:
        text += f" [{number(row['effect_low'], 3)}, {number(row['effect_high'], 3)}]"
    return text
