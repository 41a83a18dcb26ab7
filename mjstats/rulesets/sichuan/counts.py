"""The Sichuan metrics' additive counters per group, summed part file by part file.

Each Sichuan part is scanned over its own rows only: the base scan (group keys, wins, points:
``tables.scan_one_part``) and the Sichuan scan (void choice, ledger rows, order of winning:
``stats._scan_part``), whose seat rows line up (row = hand position * 4 + seat in the part).
They are reduced at once to counters per group and the part's rows dropped, so what is kept
grows with the groups, never with the hands; every metric is the one a pass over every Sichuan
seat row gives, digit for digit (the values summed are whole numbers).

Frames (keys: the group keys plus the named ones):

- ``seats`` (+ void_choice, win_order, ledger): seat-hands, wins, the scored points' count, sum
  and sum of squares, 花猪 and 查大叫 payers, those paid as ready, the kong money's sum and sum
  of squares, the money of the seat's own win;
- ``wins`` (+ win_fan, cap): wins with a recorded fan, by fan and the profile's cap.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from mjstats.stats.grouping import GROUP_KEYS
from mjstats.stats.part_sums import Columns, Layout, summed_parts, table_sums
from mjstats.stats.parts import DatasetLike, as_dataset
from mjstats.stats.tables import cached_per_version, scan_one_part, scan_parts_in_order
from mjstats.store import Dataset

__all__ = ["sichuan_counts"]

_I = np.int64
_F = np.float64
LAYOUT: Layout = {
    "seats": (("void_choice", "win_order", "ledger"),
              {"void_choice": _I, "win_order": _I, "ledger": np.bool_, "hands": _I, "win": _I, "points_n": _I,
               "points_sum": _F, "points_sq": _F, "flower_pig": _I, "cha_jiao_paid": _I,
               "cha_jiao_received": _I, "kong_sum": _F, "kong_sq": _F, "win_money": _I}),
    "wins": (("win_fan", "cap"), {"win_fan": _F, "cap": _I, "wins": _I}),
}  # fmt: skip


def sichuan_counts(ds: DatasetLike, progress: Callable[[int], None] | None = None) -> dict[str, pd.DataFrame]:
    """The Sichuan counters of a dataset's live version (built once per version, then cached);
    ``progress`` gets the Sichuan hands scanned so far."""
    dataset = as_dataset(ds)
    return cached_per_version("sichuan_counts", dataset, lambda: _build(dataset, progress))


def _build(ds: Dataset, progress: Callable[[int], None] | None) -> dict[str, pd.DataFrame]:
    caps: dict[str, int] = {}  # profile -> cap, shared by the scan threads (a dict set is atomic)
    partials = (p for p in scan_parts_in_order(ds, _part_counts, caps) if p is not None)
    return summed_parts(partials, LAYOUT, progress)


def _part_counts(ds: Dataset, ruleset: str, period: str, part: str,
                 caps: dict[str, int]) -> tuple[int, dict | None] | None:
    """One Sichuan part reduced to its counters (a scan thread's task; other parts: None)."""
    if ruleset != "sichuan":
        return None
    from mjstats.rulesets.sichuan.stats import _cap_of, _scan_part

    scanned = _scan_part(ds, ruleset, period, part)
    if scanned is None:
        return 0, None
    n, _hands, seat_frames, _fans, _keys, _drawn = scan_one_part(ds, ruleset, period, part)
    seats: Columns = {name: values[0] for name, values in seat_frames.cols.items()}
    keys = {k: seats[k] for k in GROUP_KEYS}
    size = 4 * n
    sc = scanned.counters

    def counter(name: str, fill: object, dtype: type) -> np.ndarray:
        return np.asarray(sc[name], dtype=dtype) if name in sc else np.full(size, fill, dtype)

    points = np.asarray(seats["points"], dtype=float)
    scored = np.asarray(seats["scored"], dtype=bool) & ~np.isnan(points)
    x = np.where(scored, points, 0.0)
    kong = counter("kong_net", 0, np.int64).astype(float)
    win_order = counter("win_order", 0, np.int64)
    out = {"seats": table_sums({
        **keys,
        "void_choice": counter("void_choice", -1, np.int64),
        "win_order": win_order,
        "ledger": counter("ledger", False, np.bool_),
        "hands": np.ones(size, np.int64),
        "win": np.asarray(seats["win"], dtype=bool).astype(np.int64),
        "points_n": scored.astype(np.int64),
        "points_sum": x,
        "points_sq": x * x,
        "flower_pig": counter("flower_pig", False, np.bool_).astype(np.int64),
        "cha_jiao_paid": counter("cha_jiao_paid", False, np.bool_).astype(np.int64),
        "cha_jiao_received": counter("cha_jiao_received", False, np.bool_).astype(np.int64),
        "kong_sum": kong,
        "kong_sq": kong * kong,
        "win_money": counter("win_money", 0, np.int64),
    }, ("void_choice", "win_order", "ledger"))}
    # the wins with a recorded fan, with their hand's profile cap (reference sichuan.md §4.7)
    lut = np.array([_cap_of(str(v), caps) for v in scanned.profile.dictionary.to_pylist()], np.int64)
    cap = np.repeat(lut[scanned.profile.indices.to_numpy(zero_copy_only=False)], 4)
    win_fan = counter("win_fan", np.nan, np.float64)
    won = np.flatnonzero((win_order > 0) & ~np.isnan(win_fan))
    out["wins"] = table_sums({**{k: v[won] for k, v in keys.items()}, "win_fan": win_fan[won],
                              "cap": cap[won], "wins": np.ones(len(won), np.int64)}, ("win_fan", "cap"))
    return n, out
