"""The replay viewer on a report's hand page: the hand's table at every event as tiles, its
stored findings marked at their events, decision flags where the dataset has them."""

from __future__ import annotations

import pandas as pd
from markupsafe import Markup

from mjstats.records import Hand
from mjstats.replay.replayer import ReplayResult
from mjstats.store import Dataset
from mjstats.viewer.files import hand_decisions
from mjstats.viewer.page import VIEWER_CSS, page_csp, viewer_html, viewer_script
from mjstats.viewer.table import FindingMark, table_views

__all__ = ["VIEWER_CSS", "hand_viewer", "page_csp", "viewer_script_tag"]


def _marks(findings: pd.DataFrame, hand: Hand) -> list[FindingMark]:
    mine = findings[(findings["match_id"] == hand.match_id) & (findings["hand_no"] == hand.hand_no)]
    mine = mine.sort_values(["seq", "check"], na_position="last", kind="stable")
    return [
        FindingMark(
            None if pd.isna(r["seq"]) else int(r["seq"]),
            str(r["check"]),
            str(r["severity"]),
            str(r["message"]),
        )
        for _, r in mine.iterrows()
    ]


def hand_viewer(ds: Dataset, findings: pd.DataFrame, hand: Hand, result: ReplayResult) -> Markup:
    """The viewer's HTML for one hand page (tile symbols included: one viewer a page)."""
    marks = _marks(findings, hand)
    views = table_views(
        hand, result, findings=marks, decisions=hand_decisions(ds, hand.match_id, hand.hand_no)
    )
    about_result = [str(m) for m in marks if m.seq is None]
    return Markup(viewer_html(hand, views, result_findings=about_result))


def viewer_script_tag() -> Markup:
    """The viewer's script, once at the end of a page (allowed by :func:`page_csp`)."""
    return Markup(f"<script>{viewer_script()}</script>")
