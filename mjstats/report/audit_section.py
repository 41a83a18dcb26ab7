"""The audit section: hands by replay status, findings by check, and the worst hands, each with
the turn-by-turn text of ``mjstats audit DATASET --explain MATCH_ID`` on a page of its own."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

import pandas as pd

from mjstats import stats
from mjstats.report import figures
from mjstats.report.content import Block, Figure, Row, Section, Table
from mjstats.report.formatting import count, interval, share
from mjstats.report.sections import derived_table, ruleset_name
from mjstats.store import Dataset

__all__ = ["WORST_HANDS", "HandPage", "audit_section", "explain_text", "hand_page_name"]

WORST_HANDS = 10


@dataclass(frozen=True, slots=True)
class HandPage:
    """A hand whose explanation gets its own page."""

    match_id: str
    hand_no: int
    ruleset: str
    filename: str


def hand_page_name(match_id: str, hand_no: int) -> str:
    """A safe, stable file name for a hand's page (record ids may hold any character)."""
    slug = re.sub(r"[^A-Za-z0-9_-]+", "-", match_id).strip("-")[:60] or "match"
    digest = hashlib.sha256(f"{match_id}\x1f{hand_no}".encode()).hexdigest()[:8]
    return f"hands/{slug}-{hand_no}-{digest}.html"


def audit_section(ds: Dataset) -> tuple[Section, list[HandPage]]:
    """The section, and the worst hands (whose pages the caller writes)."""
    from mjstats.replay import CATALOGUE

    audited = derived_table(ds, "audited_hands")
    hands = ds.table("hands", columns=["hand_no"])
    if audited.empty:
        empty = (
            "No hands in this period."
            if hands.empty
            else "This dataset has not been audited: run `mjstats audit DATASET` and rebuild the report."
        )
        return Section("audit", "Audit", empty=empty), []
    findings = derived_table(ds, "findings")
    blocks = []
    status = audited.groupby(["ruleset", "status"], observed=True).size().reset_index(name="n")
    status_rows = []
    for ruleset, group in status.groupby("ruleset", observed=True):
        total = int(group["n"].sum())
        for _, r in group.sort_values("status").iterrows():
            status_rows.append(
                Row(
                    (
                        ruleset_name(str(ruleset)),
                        _status_label(str(r["status"])),
                        count(r["n"]),
                        share(r["n"] / total),
                    )
                )
            )
    blocks.append(
        Block(
            "Hands by replay result",
            text="Every hand is replayed turn by turn against the rules engine; a hand is clean when no "
            "check fails. Hands of a ruleset with no replay profile yet are counted as not replayed.",
            tables=(
                Table(
                    ("Ruleset", "Result", "Hands", "Share"), (False, False, True, True), tuple(status_rows)
                ),
            ),
        )
    )
    if findings.empty:
        blocks.append(Block("Findings by check", empty="No findings: every replayed hand is clean."))
        return Section("audit", "Audit", intro=_INTRO, blocks=tuple(blocks)), []
    by_check = (
        findings.groupby(["check", "severity"], observed=True)
        .agg(
            findings=("match_id", "size"),
            hands=("match_id", lambda s: len(set(zip(s, findings.loc[s.index, "hand_no"], strict=True)))),
        )
        .reset_index()
        .sort_values(["findings", "check"], ascending=[False, True], kind="stable")
    )
    check_rows = tuple(
        Row(
            (
                str(r["check"]),
                str(r["severity"]),
                count(r["findings"]),
                count(r["hands"]),
                CATALOGUE[r["check"]].title if r["check"] in CATALOGUE else "",
            )
        )
        for _, r in by_check.iterrows()
    )
    blocks.append(
        Block(
            "Findings by check",
            text="Check codes are stable (docs/audit.md lists them with the rule each enforces).",
            tables=(
                Table(
                    ("Check", "Severity", "Findings", "Hands", "What it verifies"),
                    (False, False, True, True, False),
                    check_rows,
                ),
            ),
            figures=(
                Figure(
                    figures.bars(
                        list(by_check["check"].astype(str)),
                        list(by_check["findings"]),
                        name="findings",
                        title="Findings by check",
                        xlabel="findings",
                    ),
                    "Number of findings per check.",
                ),
            ),
        )
    )
    mismatch = stats.compute(ds, "fan_mismatch_rate", by="ruleset")
    if len(mismatch):
        rows = tuple(
            Row(
                (
                    ruleset_name(str(r["ruleset"])),
                    count(r["numerator"]),
                    count(r["denominator"]),
                    share(r["value"]),
                    interval(r["ci_low"], r["ci_high"], percent=True),
                ),
                small=bool(r["small_sample"]),
            )
            for _, r in mismatch.iterrows()
        )
        blocks.append(
            Block(
                "Recorded against computed fan totals",
                tables=(
                    Table(
                        ("Ruleset", "Wins differing", "Audited wins", "Share", "95% interval"),
                        (False, True, True, True, True),
                        rows,
                    ),
                ),
            )
        )
    worst, pages = _worst_hands(findings, audited)
    blocks.append(
        Block(
            "Worst hands",
            text=f"The {len(pages)} hands with the most errors (then warnings). Each links to its "
            "turn-by-turn replay, the text `mjstats audit DATASET --explain MATCH_ID --hand N` prints.",
            tables=(worst,),
        )
    )
    return Section("audit", "Audit", intro=_INTRO, blocks=tuple(blocks)), pages


_INTRO = (
    "The audit (`mjstats audit`) replays every hand and checks each turn and the recorded "
    "result; its findings are stored in the dataset and summarised here."
)


def _status_label(status: str) -> str:
    return {"unsupported": "not replayed", "errors": "with errors", "warnings": "with warnings"}.get(
        status, status
    )


def _worst_hands(findings: pd.DataFrame, audited: pd.DataFrame) -> tuple[Table, list[HandPage]]:
    f = findings.assign(error=(findings["severity"] == "error").astype(int))
    per_hand = (
        f.groupby(["match_id", "hand_no"], observed=True)
        .agg(
            errors=("error", "sum"),
            findings=("check", "size"),
            checks=("check", lambda s: ", ".join(sorted(set(map(str, s))))),
        )
        .reset_index()
    )
    rulesets = audited.set_index(["match_id", "hand_no"])["ruleset"]
    per_hand = per_hand.sort_values(
        ["errors", "findings", "match_id", "hand_no"], ascending=[False, False, True, True], kind="stable"
    ).head(WORST_HANDS)
    rows, pages = [], []
    for _, r in per_hand.iterrows():
        key = (r["match_id"], r["hand_no"])
        ruleset = str(rulesets.get(key, "")) if key in rulesets.index else ""
        page = HandPage(str(r["match_id"]), int(r["hand_no"]), ruleset, hand_page_name(*key))
        pages.append(page)
        rows.append(
            Row(
                (
                    str(r["match_id"]),
                    str(int(r["hand_no"])),
                    ruleset_name(ruleset),
                    count(r["errors"]),
                    count(r["findings"]),
                    str(r["checks"]),
                ),
                link=page.filename,
            )
        )
    return Table(
        ("Match", "Hand", "Ruleset", "Errors", "Findings", "Checks"),
        (False, True, False, True, True, False),
        tuple(rows),
    ), pages


def hand_findings(ds: Dataset, page: HandPage) -> Table:
    """The stored findings of one hand, in event order."""
    findings = derived_table(ds, "findings")
    mine = findings[(findings["match_id"] == page.match_id) & (findings["hand_no"] == page.hand_no)]
    mine = mine.sort_values(["seq", "check"], na_position="last", kind="stable")
    rows = tuple(
        Row((
            "result" if pd.isna(r["seq"]) else f"#{int(r['seq'])}", str(r["check"]), str(r["severity"]),
            str(r["message"]), "" if r["expected"] is None else str(r["expected"]),
            "" if r["recorded"] is None else str(r["recorded"]),
        ))
        for _, r in mine.iterrows()
    )  # fmt: skip
    return Table(
        ("Event", "Check", "Severity", "Finding", "Expected", "Recorded"), (True,) + (False,) * 5, rows
    )


def explain_text(ds: Dataset, page: HandPage) -> str:
    """The ``--explain`` text of one hand (or why there is none)."""
    from mjstats.audit import find_hands
    from mjstats.replay import replay_hand
    from mjstats.replay.explain import explain_hand

    hands = find_hands(ds.root, page.match_id, page.hand_no)
    if not hands:
        return f"match {page.match_id} hand {page.hand_no}: not found in the dataset"
    try:
        return explain_hand(hands[0], replay_hand(hands[0], explain=True))
    except Exception as exc:  # the replayer is a colleague's work in progress: keep the report going
        return (
            f"match {page.match_id} hand {page.hand_no}: could not be replayed ({type(exc).__name__}: {exc})"
        )
