"""The audit on the report: a period page's section (hands by replay status, findings by check,
the worst hands), the findings page (every finding, grouped by check), and a page per flagged
hand with the turn-by-turn text of ``mjstats audit DATASET --explain MATCH_ID``."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any

import pandas as pd
import pyarrow.parquet as pq

from mjstats import stats
from mjstats.report import figures
from mjstats.report.content import Block, Figure, Row, Section, Table
from mjstats.report.formatting import count, interval, share
from mjstats.report.sections import ruleset_name
from mjstats.store import Dataset

__all__ = [
    "FINDINGS_PAGE",
    "WORST_HANDS",
    "HandPage",
    "audit_section",
    "explain_texts",
    "findings_sections",
    "hand_findings",
    "hand_page_name",
    "replayed_hands",
]

WORST_HANDS = 10
FINDINGS_PAGE = "findings.html"


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

    audited = ds.table("audited_hands")
    hands = ds.table("hands", columns=["hand_no"])
    if audited.empty:
        empty = (
            "No hands in this period."
            if hands.empty
            else "This dataset has not been audited: run `mjstats audit DATASET` and rebuild the report."
        )
        return Section("audit", "Audit", empty=empty), []
    findings = ds.table("findings")
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
            link=("Every finding, grouped by check, each hand linked", FINDINGS_PAGE),
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


def _hand_label(match_id: str, hand_no: int) -> str:
    return f"{match_id} #{hand_no}"


def _event(seq: object) -> str:
    """A finding's place in the hand: its event number, or the hand's result."""
    return "result" if pd.isna(seq) else f"#{int(seq)}"


def _text(value: object) -> str:
    return "" if value is None or (isinstance(value, float) and pd.isna(value)) else str(value)


def _slug(check: str) -> str:
    return "check-" + (re.sub(r"[^A-Za-z0-9_.-]+", "-", check).strip("-") or "unnamed")


def findings_sections(ds: Dataset) -> tuple[list[Section], list[HandPage]]:
    """The findings page: a summary by check, then every finding of each check (hand, event,
    expected, recorded, message), each hand linking to its page (returned for the caller)."""
    from mjstats.replay import CATALOGUE

    audited = ds.table("audited_hands", columns=["match_id", "hand_no", "ruleset"])
    if audited.empty:
        empty = (
            "The dataset holds no hands."
            if ds.table("hands", columns=["hand_no"]).empty
            else "This dataset has not been audited: run `mjstats audit DATASET` and rebuild the report."
        )
        return [Section("findings", "Findings", empty=empty)], []
    findings = ds.table("findings")
    if findings.empty:
        return [
            Section(
                "findings",
                "Findings",
                empty=f"No findings: every one of the {count(len(audited))} audited hands is clean.",
            )
        ], []
    findings = findings.sort_values(
        ["match_id", "hand_no", "seq", "check"], na_position="last", kind="stable"
    ).reset_index(drop=True)
    keyed = audited[["match_id", "hand_no", "ruleset"]].itertuples(index=False)
    rulesets = {(str(m), int(h)): str(r) for m, h, r in keyed}
    pages: dict[tuple[str, int], HandPage] = {}
    for match_id, hand_no in findings[["match_id", "hand_no"]].drop_duplicates().itertuples(index=False):
        key = (str(match_id), int(hand_no))
        pages[key] = HandPage(*key, rulesets.get(key, ""), hand_page_name(*key))
    by_check = (
        findings.groupby("check", sort=False)
        .agg(severity=("severity", "first"), findings=("check", "size"))
        .reset_index()
    )
    by_check["hands"] = [
        len(findings.loc[findings["check"] == c, ["match_id", "hand_no"]].drop_duplicates())
        for c in by_check["check"]
    ]
    by_check = by_check.sort_values(["findings", "check"], ascending=[False, True], kind="stable")
    summary = Table(
        ("Check", "Severity", "Findings", "Hands", "What it verifies"),
        (False, False, True, True, False),
        tuple(
            Row(
                (
                    str(r["check"]),
                    str(r["severity"]),
                    count(r["findings"]),
                    count(r["hands"]),
                    CATALOGUE[r["check"]].title if r["check"] in CATALOGUE else "",
                ),
                link=f"#{_slug(str(r['check']))}",
            )
            for _, r in by_check.iterrows()
        ),
    )
    sections = [
        Section(
            "summary",
            "Findings by check",
            intro=f"{count(len(findings))} findings in {count(len(pages))} of the {count(len(audited))} "
            "audited hands. Check codes are stable (docs/audit.md lists each with its rule); every hand "
            "links to its findings and its turn-by-turn replay.",
            blocks=(Block("Checks", tables=(summary,)),),
        )
    ]
    for _, r in by_check.iterrows():
        check = str(r["check"])
        mine = findings[findings["check"] == check]
        rows = tuple(
            Row(
                (
                    _hand_label(str(f.match_id), int(f.hand_no)),
                    ruleset_name(pages[(str(f.match_id), int(f.hand_no))].ruleset),
                    _event(f.seq),
                    str(f.severity),
                    _text(f.expected),
                    _text(f.recorded),
                    _text(f.message),
                ),
                # the hand page's viewer opens at the finding's event
                link=pages[(str(f.match_id), int(f.hand_no))].filename
                + ("" if pd.isna(f.seq) else f"#e{int(f.seq)}"),
            )
            for f in mine.itertuples(index=False)
        )
        title = CATALOGUE[check].title if check in CATALOGUE else ""
        sections.append(
            Section(
                _slug(check),
                check,
                intro=(f"What it verifies: {title}. " if title else "")
                + f"{count(r['findings'])} findings in {count(r['hands'])} hands.",
                blocks=(
                    Block(
                        "",
                        tables=(
                            Table(
                                ("Hand", "Ruleset", "Event", "Severity", "Expected", "Recorded", "Message"),
                                (False,) * 7,
                                rows,
                            ),
                        ),
                    ),
                ),
            )
        )
    return sections, list(pages.values())


def hand_findings(findings: pd.DataFrame, page: HandPage) -> Table:
    """The findings of one hand (``findings``: the dataset's findings table), in event order."""
    mine = findings[(findings["match_id"] == page.match_id) & (findings["hand_no"] == page.hand_no)]
    mine = mine.sort_values(["seq", "check"], na_position="last", kind="stable")
    rows = tuple(
        Row((
            _event(r["seq"]), str(r["check"]), str(r["severity"]), _text(r["message"]),
            _text(r["expected"]), _text(r["recorded"]),
        ))
        for _, r in mine.iterrows()
    )  # fmt: skip
    return Table(
        ("Event", "Check", "Severity", "Finding", "Expected", "Recorded"), (True,) + (False,) * 5, rows
    )


def explain_texts(ds: Dataset, pages: list[HandPage]) -> dict[str, str]:
    """The ``--explain`` text of each page's hand (or why there is none), by page file name.
    Each part file holding a wanted hand is read once."""
    return {name: text for name, (_, _, text) in replayed_hands(ds, pages).items()}


def replayed_hands(ds: Dataset, pages: list[HandPage]) -> dict[str, tuple[Any, Any, str]]:
    """Each page's hand, its replay (with turn states) and its ``--explain`` text, by page file
    name; hand and replay are None when the hand is missing or cannot be replayed (the text
    says why). Each part file holding a wanted hand is read once."""
    from mjstats.replay import replay_hand
    from mjstats.replay.explain import explain_hand

    wanted = {(p.match_id, p.hand_no): p for p in pages}
    out: dict[str, tuple[Any, Any, str]] = {}
    for ruleset, period, part in ds.parts() if wanted else ():
        sub = f"ruleset={ruleset}/period={period}/{part}"
        ids = set(pq.read_table(ds.path / "hands" / sub, columns=["match_id"]).column("match_id").to_pylist())
        if not any(m in ids for m, _ in wanted):
            continue
        for hand in ds.read_part(ruleset, period, part):
            page = wanted.get((hand.match_id, hand.hand_no))
            if page is None or page.filename in out:
                continue
            try:
                result = replay_hand(hand, explain=True)
                out[page.filename] = (hand, result, explain_hand(hand, result))
            except Exception as exc:  # one hand the replayer cannot take must not stop the report
                out[page.filename] = (
                    None,
                    None,
                    f"match {page.match_id} hand {page.hand_no}: could not be replayed "
                    f"({type(exc).__name__}: {exc})",
                )
    for page in pages:
        missing = f"match {page.match_id} hand {page.hand_no}: not found in the dataset"
        out.setdefault(page.filename, (None, None, missing))
    return out
