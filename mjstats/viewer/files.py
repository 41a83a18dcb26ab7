"""The viewer at the edges: a dataset's decision flags for a hand, and writing the replay page
of ``mjstats audit --explain ID --html FILE`` (atomically, never over a user's file unless forced)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from mjstats import __version__
from mjstats.atomic import write_text_atomic
from mjstats.errors import MjstatsError
from mjstats.records import Hand
from mjstats.replay.replayer import ReplayResult
from mjstats.viewer.page import decision_notes, replay_page
from mjstats.viewer.table import table_views

__all__ = ["DECISIONS", "hand_decisions", "write_replay_page"]

DECISIONS = "decisions"  # the optional table of decision flags per discard
_GENERATOR = b'<meta name="generator" content="mjstats'


def hand_decisions(dataset: object, match_id: str, hand_no: int) -> dict[int, list[str]]:
    """Decision lines by event ``seq`` for one hand, from the dataset's ``decisions`` table
    (empty when the dataset has none)."""
    from mjstats.store import Dataset, open_dataset

    ds = dataset if isinstance(dataset, Dataset) else open_dataset(dataset)  # type: ignore[arg-type]
    if not ds.has_table(DECISIONS):
        return {}
    import pyarrow.dataset as pads

    wanted = (pads.field("match_id") == match_id) & (pads.field("hand_no") == hand_no)
    rows = ds.table(DECISIONS, filter=wanted)
    return decision_notes(rows.to_dict("records"))


def _is_mjstats_page(path: Path) -> bool:
    try:
        with path.open("rb") as fh:
            return _GENERATOR in fh.read(4096)
    except OSError:
        return False


def write_replay_page(
    path: Path,
    dataset: object,
    hands: Sequence[Hand],
    results: Sequence[ReplayResult],
    texts: Sequence[str],
    *,
    force: bool = False,
) -> Path:
    """Write the hands' replay viewer page to ``path``. An existing file that mjstats did not
    write is refused unless ``force``; a page mjstats wrote is replaced."""
    if path.is_dir():
        raise MjstatsError(f"{path}: is a folder")
    if path.exists() and not force and not _is_mjstats_page(path):
        raise MjstatsError(f"{path}: exists and was not written by mjstats; use --force to replace it")
    if not path.parent.is_dir():
        raise MjstatsError(f"{path.parent}: no such folder")
    entries = []
    for hand, result, text in zip(hands, results, texts, strict=True):
        decisions = hand_decisions(dataset, hand.match_id, hand.hand_no)
        entries.append((hand, table_views(hand, result, decisions=decisions), text))
    first = hands[0]
    title = f"Match {first.match_id}" + (f", hand {first.hand_no}" if len(hands) == 1 else "")
    write_text_atomic(path, replay_page(entries, title, __version__))
    return path
