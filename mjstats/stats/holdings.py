"""What each seat holds, summed from a hand's events: concealed tile counts and melds.

Used where a metric needs the hand itself (tenpai at exhaustive draws, golds in the starting
and winning hands). Every event adds or removes tiles of one seat, so a seat's concealed
hand is a sum over events, computed for a whole part file at once with numpy.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from mjstats.stats.parts import DatasetLike, as_dataset, int_column, kind_codes, read_part

__all__ = ["COUNT_KINDS", "UnreadableHand", "part_events", "seat_melds", "seat_voids", "tile_counts"]

EVENT_FIELDS = ("kind", "seat", "tile", "tiles", "from_seat", "claimed")
N_CODES = 42


class UnreadableHand(ValueError):
    """A hand that cannot be read back from its events (tiles that do not add up)."""


def _offer(seat: int, from_seat: int | None) -> int:
    """Relative position of the player a meld was taken from (1..3), 1 where unknown."""
    return (seat - from_seat) % 4 or 1 if from_seat is not None else 1


PartEvents = tuple[np.ndarray, pa.Table, pa.Table, np.ndarray]  # hand ids, hands, events, n_events
COUNT_KINDS = ("deal", "draw", "discard", "chi", "peng", "gang", "angang", "bugang", "flower")
_REMOVES = {2: 1, 4: 2, 5: 3, 6: 4, 7: 1, 8: 1}  # kind code -> copies of ``tile`` leaving the hand
_MELD_KINDS = {3: "CHI", 4: "PENG", 5: "GANG", 6: "GANG"}


def tile_counts(events: pa.Table, n_events: np.ndarray, keep: np.ndarray | None = None) -> np.ndarray:
    """Concealed tile counts per (hand, seat) after the events: shape (hands * 4, 42).

    Every event adds or removes tiles of its seat (deal +tiles, draw +1, discard -1, chi -2,
    peng -2, gang -3, angang -4, bugang -1, flower -1), so the final hand is a sum over events:
    one ``bincount``, no Python loop. ``keep`` (per event) limits the sum to some events.
    A negative count means the events contradict themselves.
    """
    n = len(n_events)
    hidx = np.repeat(np.arange(n), n_events)
    kind = kind_codes(events.column("kind"), COUNT_KINDS)
    seat = int_column(events, "seat")
    tile = int_column(events, "tile")
    ok = (seat >= 0) & (seat < 4) & (kind >= 0)
    if keep is not None:
        ok &= keep
    slot = hidx * 4 + seat
    flat: list[np.ndarray] = []
    weight: list[np.ndarray] = []

    def add(mask: np.ndarray, tiles: np.ndarray, w: float, slots: np.ndarray = slot) -> None:
        m = mask & (tiles >= 0)
        flat.append(slots[m] * N_CODES + tiles[m])
        weight.append(np.full(int(m.sum()), w))

    tiles_col = events.column("tiles")
    parent = pc.list_parent_indices(tiles_col).to_numpy(zero_copy_only=False).astype(np.int64)
    dealt = pc.list_flatten(tiles_col).to_numpy(zero_copy_only=False).astype(np.int64)
    add(ok[parent] & (kind[parent] == 0), dealt, 1.0, slot[parent])
    add(ok & (kind == 1), tile, 1.0)
    for code, copies in _REMOVES.items():
        add(ok & (kind == code), tile, -float(copies))
    chi = ok & (kind == 3)
    for delta in (-1, 0, 1):
        add(chi, np.where(tile >= 0, tile + delta, -1), -1.0)
    add(chi, int_column(events, "claimed"), 1.0)
    index = np.concatenate(flat) if flat else np.zeros(0, np.int64)
    weights = np.concatenate(weight) if weight else np.zeros(0)
    counts = np.bincount(index, weights=weights, minlength=n * 4 * N_CODES)
    return counts.astype(np.int32).reshape(n * 4, N_CODES)


def seat_melds(events: pa.Table, n_events: np.ndarray) -> dict[int, list[tuple[str, int, int]]]:
    """Melds per (hand * 4 + seat): (CHI|PENG|GANG, tile, offer) from chi/peng/gang/angang
    events (an added kong stays a PENG: the same shape, and its fourth tile has left the hand)."""
    hidx = np.repeat(np.arange(len(n_events)), n_events)
    kind = kind_codes(events.column("kind"), COUNT_KINDS)
    rows = np.flatnonzero((kind >= 3) & (kind <= 6))
    seat = int_column(events, "seat")
    tile = int_column(events, "tile")
    from_seat = int_column(events, "from_seat")
    claimed = int_column(events, "claimed")
    out: dict[int, list[tuple[str, int, int]]] = {}
    for i in rows.tolist():
        s, t, k = int(seat[i]), int(tile[i]), int(kind[i])
        if s < 0 or t < 0:
            continue
        if k == 3:
            offer = int(claimed[i]) - t + 2 if claimed[i] >= 0 else 1
        elif k == 6:
            offer = 0
        else:
            offer = _offer(s, int(from_seat[i]) if from_seat[i] >= 0 else None)
        out.setdefault(int(hidx[i]) * 4 + s, []).append((_MELD_KINDS[k], t, offer))
    return out


def seat_voids(events: pa.Table, n_events: np.ndarray) -> dict[int, int]:
    """The declared void suit (0-2) per (hand * 4 + seat), from ``void`` events (定缺; the
    event names the suit's 1), for the rulesets that play one; the last declaration counts."""
    kind = kind_codes(events.column("kind"), ("void",))
    rows = np.flatnonzero(kind == 0)
    if not len(rows):
        return {}
    hidx = np.repeat(np.arange(len(n_events)), n_events)
    seat = int_column(events, "seat")
    tile = int_column(events, "tile")
    return {
        int(hidx[i]) * 4 + int(seat[i]): int(tile[i]) // 9
        for i in rows.tolist()
        if 0 <= seat[i] < 4 and 0 <= tile[i] < 27
    }


def part_events(ds: DatasetLike, select: Callable[[pa.Table], np.ndarray], ruleset: str | None = None,
                hand_columns: tuple[str, ...] = ()) -> Iterator[PartEvents]:
    """Per part file: (hand ids, the selected hands' columns, their events, their n_events)."""
    dataset = as_dataset(ds)
    offset = 0
    cols = tuple(dict.fromkeys(("n_events", "outcome", *hand_columns)))
    for rs, period, part in dataset.parts():
        if ruleset is not None and rs != ruleset:
            # hand ids count every hand: a skipped part still advances them (row count only)
            path = dataset.path / "hands" / f"ruleset={rs}" / f"period={period}" / part
            offset += pq.ParquetFile(path).metadata.num_rows
            continue
        h = read_part(dataset, "hands", rs, period, part, cols)
        mask = np.asarray(select(h), dtype=bool)
        if mask.any():
            n_events = h.column("n_events").to_numpy(zero_copy_only=False).astype(np.int64)
            e = read_part(dataset, "events", rs, period, part, EVENT_FIELDS)
            e = e.filter(pa.array(np.repeat(mask, n_events)))
            yield np.flatnonzero(mask) + offset, h.filter(pa.array(mask)), e, n_events[mask]
        offset += h.num_rows
