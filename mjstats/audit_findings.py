"""Every finding of a dataset's audit, one row each, with the place its hand was read from.

:func:`findings` reads the audit's ``findings`` table, joins each row to its hand's ``source``
and ``line`` (the file and line the hand was read from), filters by check code, severity and
match, and sorts stably: by match, hand, then event (findings about the result, ``seq`` empty,
after the hand's events), keeping the replay's order among ties. It is pure over the dataset
(no writes), so the command line and the HTML report list the same rows.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from mjstats.errors import DatasetError, MjstatsError
from mjstats.filters import require_known
from mjstats.replay.checks import CATALOGUE
from mjstats.replay.findings import Severity

if TYPE_CHECKING:
    import pandas as pd

    from mjstats.store import Dataset

__all__ = ["FINDING_COLUMNS", "findings"]

FINDING_COLUMNS = (
    "match_id", "hand_no", "seq", "check", "severity", "expected", "recorded", "message",
    "source", "line", "ruleset",
)  # fmt: skip
_STORED = ("match_id", "hand_no", "seq", "check", "severity", "expected", "recorded", "message")


def _values(value: str | Iterable[str] | None) -> list[str] | None:
    if value is None:
        return None
    return [value] if isinstance(value, str) else list(value)


def findings(
    ds: Dataset | str | Path,
    *,
    check: str | Iterable[str] | None = None,
    severity: str | Iterable[str] | None = None,
    match: str | Iterable[str] | None = None,
) -> pd.DataFrame:
    """The audit's findings as a DataFrame with :data:`FINDING_COLUMNS` (``seq`` and ``line``
    nullable integers). ``check``: check codes (docs/audit.md); ``severity``: error, warning, info;
    ``match``: match ids. An unknown code or severity, or a match the dataset does not hold,
    raises MjstatsError naming what is known; a dataset never audited raises DatasetError."""
    import pandas as pd

    from mjstats.store import Dataset, open_dataset

    dataset = ds if isinstance(ds, Dataset) else open_dataset(ds)
    checks, severities, matches = _values(check), _values(severity), _values(match)
    require_known("check code", checks, CATALOGUE)
    require_known("severity", severities, (s.value for s in Severity))
    if not dataset.has_table("audited_hands"):
        raise DatasetError(f"{dataset.root}: never audited (run: mjstats audit {dataset.root})")
    hands = dataset.table("hands", columns=["match_id", "hand_no", "source", "line"])
    if matches is not None:
        missing = sorted(set(matches) - set(hands["match_id"]))
        if missing:
            raise MjstatsError(f"no match {', '.join(map(repr, missing))} in {dataset.root}")
    rows = _stored_findings(dataset)
    keep = pd.Series(True, index=rows.index)
    if checks is not None:
        keep &= rows["check"].isin(checks)
    if severities is not None:
        keep &= rows["severity"].isin(severities)
    if matches is not None:
        keep &= rows["match_id"].isin(matches)
    rows = rows[keep]
    out = rows.merge(hands, on=["match_id", "hand_no"], how="left", sort=False)
    out["seq"] = out["seq"].astype("Int64")
    out["line"] = out["line"].astype("Int64")
    out["hand_no"] = out["hand_no"].astype("int64")
    # stable: by match, hand, event (result-level findings last), replay order among ties
    out = out.sort_values(["match_id", "hand_no", "seq"], kind="stable", na_position="last")
    return out.loc[:, list(FINDING_COLUMNS)].reset_index(drop=True)


def _stored_findings(dataset: Dataset) -> pd.DataFrame:
    """The findings table as written (with its ruleset partition key), empty when there are none."""
    import pandas as pd

    folder = dataset.path / "findings"
    if not any(folder.rglob("*.parquet")):
        empty = {name: pd.Series(dtype=object) for name in (*_STORED, "ruleset")}
        empty.update(hand_no=pd.Series(dtype="int32"), seq=pd.Series(dtype="float64"))
        return pd.DataFrame(empty)
    return dataset.table("findings", columns=[*_STORED, "ruleset"])
