"""Per-part counter frames summed into one, for the ruleset families that scan their own parts.

A family's scan reduces each part file to small frames of additive counters keyed by the group
keys (and the family's own keys: golds held, void choice ...), as :mod:`group_counts` does for
the shared metrics. Here those partial frames are summed every few parts and at the end, so
what is kept grows with the number of groups, never with the number of hands; the result's
keys have the base tables' dtypes, so metrics grouped from it sort and type as from seat rows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np
import pandas as pd

from mjstats.stats.group_counts import counter_sums, typed_keys
from mjstats.stats.grouping import GROUP_KEYS
from mjstats.stats.tables import release_free_memory

__all__ = ["COMBINE_PARTS", "Columns", "Layout", "summed_parts", "table_sums"]

COMBINE_PARTS = 16  # partial frames summed every this many parts (bounds what is pending)

Columns = dict[str, "np.ndarray | pd.Categorical"]
Partial = dict[str, pd.DataFrame]
Layout = dict[str, tuple[tuple[str, ...], dict[str, type]]]  # name: (extra keys, counter dtypes)


def table_sums(columns: Columns, extra_keys: tuple[str, ...] = ()) -> pd.DataFrame:
    """One part's rows reduced to counters per distinct (group keys, ``extra_keys``)."""
    return counter_sums(columns, [*GROUP_KEYS, *extra_keys])


def summed_parts(partials: Iterable[tuple[int, Partial | None]], layout: Layout,
                 progress: Callable[[int], None] | None = None) -> dict[str, pd.DataFrame]:
    """The per-part frames (``(hands, {name: frame})`` per part, None for a part without rows)
    summed per name. ``layout`` gives each name's extra keys and its counters' dtypes (for the
    empty frame of a dataset without such rows)."""
    summed: Partial | None = None
    pending: list[Partial] = []
    done = 0
    for hands, partial in partials:
        done += hands
        if partial is not None:
            pending.append(partial)
        if len(pending) >= COMBINE_PARTS:
            summed = _combined([*([summed] if summed else []), *pending], layout)
            pending = []
            release_free_memory()  # the scanned parts' buffers, freed in the threads' arenas
        if progress is not None:
            progress(done)
    if pending or summed is None:
        summed = _combined([*([summed] if summed else []), *pending], layout)
    release_free_memory()
    return {name: typed_keys(frame if len(frame.columns) else _empty(*layout[name]))
            for name, frame in summed.items()}


def _combined(partials: list[Partial], layout: Layout) -> Partial:
    out: Partial = {}
    for name, (extra, _) in layout.items():
        frames = [p[name] for p in partials if name in p and len(p[name])]
        if not frames:
            out[name] = pd.DataFrame()
            continue
        joined = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
        out[name] = table_sums({c: joined[c].to_numpy() for c in joined.columns}, extra)
    return out


def _empty(extra: tuple[str, ...], counters: dict[str, type]) -> pd.DataFrame:
    columns: dict[str, object] = {k: pd.Series([], dtype=object) for k in GROUP_KEYS}
    for key in extra:
        columns[key] = np.zeros(0, counters.get(key, np.int64))
    for name, dtype in counters.items():
        if name not in extra:
            columns[name] = np.zeros(0, dtype)
    return pd.DataFrame(columns)
