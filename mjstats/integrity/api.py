"""Run every integrity test over a dataset (or any hands) in one pass; tidy rows, corrected together.

>>> from mjstats.integrity import run_integrity
>>> report = run_integrity("DS", by="seat")
>>> [r for r in report.rows if r["significant"]]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mjstats.integrity.collusion import Collusion
from mjstats.integrity.deal import DealFairness
from mjstats.integrity.draws import DrawFairness
from mjstats.integrity.multiple import FDR, bh_q_values
from mjstats.integrity.outcomes import Outcomes
from mjstats.integrity.replays import HandReplay, ReplayCache, replay_hand
from mjstats.integrity.rows import Row, subject_key
from mjstats.integrity.streaks import Streaks
from mjstats.integrity.subjects import check_by
from mjstats.records import Hand
from mjstats.rulesets import get

__all__ = ["FAMILIES", "IntegrityReport", "feed", "run_integrity"]

FAMILIES = ("deal", "draw", "collusion", "outcome")
# Below this many hands a run is called too small to judge, whatever single tests could say:
# most tests then lack the data, and the few that run see little (docs/integrity.md, power).
MIN_HANDS = 500


@dataclass(slots=True)
class IntegrityReport:
    """The rows of a run (every test, corrected together) and what the run saw."""

    by: str
    hands: int
    rows: list[Row]
    fdr: float = FDR
    notes: list[str] = field(default_factory=list)

    @property
    def judged(self) -> list[Row]:
        """Rows with a p-value (enough data to judge)."""
        return [r for r in self.rows if r["p_value"] is not None]

    @property
    def findings(self) -> list[Row]:
        """Rows that survive the Benjamini-Hochberg correction at the run's FDR."""
        return [r for r in self.rows if r["significant"]]

    @property
    def too_small(self) -> bool:
        """True when the run is too small to judge the platform (fewer than MIN_HANDS hands, or
        no test with enough data for a p-value)."""
        return self.hands < MIN_HANDS or not self.judged

    def verdict(self) -> str:
        """One plain sentence on the run."""
        found = self.findings
        small = len(self.rows) - len(self.judged)
        if self.too_small and found:
            return (
                f"{len(found)} of {len(self.judged)} tests survive Benjamini-Hochberg at FDR "
                f"{self.fdr:.0%} on only {self.hands:,} hands; too small to judge the rest "
                f"({small} of {len(self.rows)} tests lack the data)"
            )
        if self.too_small:
            return (
                f"too small to judge: {self.hands:,} hands (at least {MIN_HANDS:,} needed); "
                f"{small} of {len(self.rows)} tests lack the data, {len(found)} findings among "
                f"the {len(self.judged)} that ran"
            )
        if not found:
            return (
                f"no finding: none of {len(self.judged)} tests on {self.hands:,} hands survives "
                f"Benjamini-Hochberg at FDR {self.fdr:.0%}"
            )
        return (
            f"{len(found)} of {len(self.judged)} tests survive Benjamini-Hochberg at FDR "
            f"{self.fdr:.0%} on {self.hands:,} hands"
        )

    def frame(self) -> Any:
        """The rows as a pandas DataFrame (``subject`` as text, ``hands`` joined by spaces)."""
        import pandas as pd

        return pd.DataFrame([flat_row(r) for r in self.rows], columns=COLUMNS)


COLUMNS = (
    "test",
    "ruleset",
    "by",
    "subject",
    "n",
    "observed",
    "expected",
    "statistic_name",
    "statistic",
    "df",
    "p_value",
    "q_value",
    "significant",
    "effect_name",
    "effect",
    "effect_low",
    "effect_high",
    "null",
    "note",
    "hands",
)


def flat_row(row: Row) -> dict[str, Any]:
    """A row for CSV or a DataFrame: subject as ``seat=2``, hands joined by spaces."""
    out = {k: row.get(k) for k in COLUMNS}
    out["subject"] = subject_key(row["subject"])
    out["hands"] = " ".join(row.get("hands") or ())
    return out


Family = DealFairness | DrawFairness | Collusion | Outcomes | Streaks


def feed(family: Family, hand: Hand, replay: HandReplay) -> None:
    """Count ``hand`` in one test family: the draw and collusion families read its replay (the
    draws' useful tiles, the discards only one ready player could win on), the others the record."""
    if isinstance(family, DrawFairness):
        family.add(hand, replay.draws)
    elif isinstance(family, Collusion):
        family.add(hand, replay.targets)
    else:
        family.add(hand)


def _hands_of(source: str | Path | Any | Iterable[Hand], ruleset: str | None) -> Iterable[Hand]:
    if isinstance(source, (str, Path)):
        from mjstats.store import open_dataset

        return open_dataset(source).hands(ruleset=ruleset)
    if hasattr(source, "hands") and callable(source.hands):
        return source.hands(ruleset=ruleset)
    return (h for h in source if ruleset is None or h.ruleset == ruleset)


def run_integrity(
    source: str | Path | Any | Iterable[Hand],
    *,
    by: str = "seat",
    ruleset: str | None = None,
    fdr: float = FDR,
    progress: Callable[[int], None] | None = None,
    replays: ReplayCache | None = None,
) -> IntegrityReport:
    """Every integrity test on the hands of ``source`` (a dataset path, an open Dataset, or an
    iterable of Hand records), grouped ``by`` seat or player; p-values corrected together.
    ``replays`` shares hand replays between runs over overlapping hands (report periods)."""
    check_by(by)
    deal, draw, collusion, outcomes, streaks = (
        DealFairness(by),
        DrawFairness(by),
        Collusion(by),
        Outcomes(by),
        Streaks(by),
    )
    families: tuple[Family, ...] = (deal, draw, collusion, outcomes, streaks)
    n = 0
    shapeless: dict[str, int] = {}  # ruleset -> hands left out: no shape part to judge draws by
    for hand in _hands_of(source, ruleset):
        if get(hand.ruleset).shape is None:
            shapeless[hand.ruleset] = shapeless.get(hand.ruleset, 0) + 1
            continue
        replay = replays.get(hand) if replays is not None else replay_hand(hand)
        for family in families:
            feed(family, hand, replay)
        n += 1
        if progress is not None and n % 500 == 0:
            progress(n)
    rows: list[Row] = []
    for family in families:
        rows.extend(family.rows())
    q = bh_q_values([r["p_value"] for r in rows])
    for row, qv in zip(rows, q, strict=True):
        row["q_value"] = qv
        row["significant"] = qv is not None and qv <= fdr
    notes = []
    skipped = draw.skipped
    if skipped:
        notes.append(
            f"the draw test left out {skipped:,} hand(s) whose events take a tile the seat does "
            "not hold (run mjstats audit: it names the fault)"
        )
    for name in sorted(shapeless):
        notes.append(
            f"the tests left out {shapeless[name]:,} {get(name).title} hand(s): mjstats has no "
            "hand shape for that ruleset yet (its spec's shape part)"
        )
    unknown = deal.unknown_profiles
    for ruleset in sorted({r for r, _ in unknown}):
        notes.append(
            f"deal tests left out hands under {get(ruleset).title} profiles mjstats cannot load: "
            + ", ".join(sorted(p for r, p in unknown if r == ruleset))
        )
    return IntegrityReport(by=by, hands=n, rows=rows, fdr=fdr, notes=notes)
