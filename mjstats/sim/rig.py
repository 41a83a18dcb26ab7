"""Rigged play, to measure how much data the integrity tests need (docs/integrity.md).

``--rig-draws SEAT:P``: with probability P a draw of SEAT is replaced by its best useful tile
still in the wall (the tile is swapped into the drawn position, so ``Hand.wall`` still says where
every tile was and the audit stays clean). ``--collude A,B``: seats A and B see each other's
hands; each discards the tile that completes its partner's waiting hand when it holds one, and
otherwise, among the discards as good for itself as the bot's own choice, one the partner can
pung (or chow, when the partner sits next). Every rigged hand says so in ``Hand.meta``
(``rig_draws``, ``rigged_draws``, ``collude``), so a test can know the truth.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mjstats.errors import MjstatsError
from mjstats.sim.shapes import Shape

__all__ = ["Rig", "best_useful", "colluding_discard", "parse_collude", "parse_rig_draws"]


@dataclass(frozen=True, slots=True)
class Rig:
    """What to rig: the favoured seat and the share of its draws, and a colluding pair of seats."""

    draw_seat: int | None = None
    draw_p: float = 0.0
    collude: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        if self.draw_seat is not None and self.draw_seat not in range(4):
            raise MjstatsError(f"--rig-draws: the seat must be 0-3, got {self.draw_seat}")
        if not 0.0 <= self.draw_p <= 1.0:
            raise MjstatsError(f"--rig-draws: the probability must be between 0 and 1, got {self.draw_p}")
        if self.collude is not None:
            a, b = self.collude
            if a not in range(4) or b not in range(4) or a == b:
                raise MjstatsError(f"--collude needs two different seats 0-3, got {a},{b}")

    @property
    def active(self) -> bool:
        return (self.draw_seat is not None and self.draw_p > 0) or self.collude is not None

    def partner(self, seat: int) -> int | None:
        if self.collude is None or seat not in self.collude:
            return None
        a, b = self.collude
        return b if seat == a else a

    def meta(self, rigged_draws: int) -> tuple[tuple[str, str], ...]:
        """The truth, for Hand.meta (sorted by key)."""
        out = []
        if self.collude is not None:
            out.append(("collude", f"{self.collude[0]},{self.collude[1]}"))
        if self.draw_seat is not None and self.draw_p > 0:
            out.append(("rig_draws", f"{self.draw_seat}:{self.draw_p:g}"))
            out.append(("rigged_draws", str(rigged_draws)))
        return tuple(sorted(out))


def parse_rig_draws(text: str | None) -> tuple[int | None, float]:
    """``SEAT:P`` -> (seat, p); None -> (None, 0)."""
    if text is None:
        return None, 0.0
    seat, sep, p = text.partition(":")
    try:
        if not sep:
            raise ValueError
        return int(seat), float(p)
    except ValueError:
        raise MjstatsError(f"--rig-draws takes SEAT:P (e.g. 2:0.05), got {text!r}") from None


def parse_collude(text: str | None) -> tuple[int, int] | None:
    """``A,B`` -> (a, b); None -> None."""
    if text is None:
        return None
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        return int(parts[0]), int(parts[1])
    except ValueError:
        raise MjstatsError(f"--collude takes two seats A,B (e.g. 0,2), got {text!r}") from None


def best_useful(counts: list[int], melds: int, available: Sequence[int], shape: Shape) -> int | None:
    """The kind still available that lowers the hand's shanten the most (lowest code on ties);
    None when no available kind improves the hand."""
    before = shape.shanten(counts, melds)
    best: tuple[int, int] | None = None
    for k in range(34):
        if available[k] <= 0:
            continue
        counts[k] += 1
        s = shape.shanten(counts, melds)
        counts[k] -= 1
        if s < before and (best is None or s < best[0]):
            best = (s, k)
    return None if best is None else best[1]


def colluding_discard(
    choice: int,
    counts: list[int],
    melds: int,
    partner_counts: list[int],
    partner_melds: int,
    partner_next: bool,
    shape: Shape,
    never: frozenset[int] = frozenset(),
) -> int:
    """The discard of a colluder whose bot chose ``choice``: the partner's winning tile if held,
    else a tile the partner can pung (or chow) that costs nothing, else the bot's choice."""
    held = [k for k in range(34) if counts[k] and k not in never]
    for k in held:
        partner_counts[k] += 1
        done = shape.complete(partner_counts, partner_melds)
        partner_counts[k] -= 1
        if done:
            return k
    counts[choice] -= 1
    target = shape.shanten(counts, melds)
    counts[choice] += 1
    for k in held:
        takes = partner_counts[k] >= 2 or (partner_next and k < 27 and _chowable(partner_counts, k))
        if not takes:
            continue
        counts[k] -= 1
        ok = shape.shanten(counts, melds) <= target
        counts[k] += 1
        if ok:
            return k
    return choice


def _chowable(counts: Sequence[int], k: int) -> bool:
    r = k % 9
    pairs = ((-2, -1), (-1, 1), (1, 2))
    return any(r + a >= 0 and r + b <= 8 and counts[k + a] and counts[k + b] for a, b in pairs)
