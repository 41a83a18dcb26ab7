"""What the decision judge asks a ruleset, as one small table of functions per ruleset.

A :class:`RulesetView` answers, for one seat at one moment of a replay: the shanten of a
concealed hand, the tile kinds that would lower it, what each discard would leave, the kinds
that complete a waiting hand, whether a win on a tile is legal and worth the minimum, and which
discards and claims are allowed. Each ruleset package defines its view (its ``decisions`` part,
``VIEW``); everything in :mod:`mjstats.decision` asks through it and names no ruleset.
Where the answers depend on the seat (Sichuan's declared void suit) a view hands out one view
per seat; a replay keeping its own seat state gives the judge a :class:`Table` to read.
Sets of tile kinds travel as *kinds masks*: one int, bit ``k`` set for kind ``k`` (34 bits), so
that the judge's per-discard sums and tests are integer operations, not set building.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Protocol

from mjstats.rulesets import UnknownRuleset, get

if TYPE_CHECKING:
    from mjstats.records import EventKind
    from mjstats.replay.profile import Meld
    from mjstats.replay.replayer import HandReplay
    from mjstats.replay.state import Phase

__all__ = [
    "EVERY_KIND",
    "Counts",
    "KindsMask",
    "RulesetView",
    "Table",
    "TableSeat",
    "kinds_mask",
    "kinds_of",
    "view_for",
]

Counts = tuple[int, ...]  # 34 concealed counts (flowers left out)
KindsMask = int  # a set of tile kinds: bit k set for kind k (0-33)
EVERY_KIND: KindsMask = (1 << 34) - 1


def kinds_mask(kinds: Iterable[int]) -> KindsMask:
    """The kinds mask of ``kinds``."""
    out = 0
    for k in kinds:
        out |= 1 << k
    return out


def kinds_of(mask: KindsMask) -> frozenset[int]:
    """The kinds of a kinds mask, as a set (the Python API's and the tests' view of it)."""
    return frozenset(k for k in range(34) if mask >> k & 1)


@dataclass(frozen=True, slots=True)
class RulesetView:
    """One ruleset's answers. ``size``: tiles (melds as 3) of a waiting hand (13 or 16)."""

    name: str
    size: int
    shanten: Callable[[HandReplay, Counts, int], int]
    useful: Callable[[HandReplay, Counts, int], KindsMask]
    # (replay, hand of waiting size + 1, melds, kinds): the shanten each discard leaves, kinds
    # in increasing order (None: every held kind, asked only where ``may_discard`` is None)
    discard_shanten: Callable[[HandReplay, Counts, int, list[int] | None], dict[int, int]]
    waits: Callable[[HandReplay, Counts, tuple[Meld, ...]], KindsMask]
    # (replay, seat, tile, self_drawn, discarder): a legal win worth the minimum
    legal_win: Callable[[HandReplay, int, int, bool, int | None], bool]
    # (replay, seat, tile); None: every held tile may be discarded
    may_discard: Callable[[HandReplay, int, int], bool] | None
    may_claim: Callable[[HandReplay, int], bool]  # (replay, tile): the tile can be chowed/punged
    face_up: Callable[[HandReplay], tuple[int, ...]]  # kinds lying face up outside every hand
    # whether discards can be judged now (a ruleset with a wild: once the wild is known)
    ready: Callable[[HandReplay], bool] = lambda replay: True
    # (replay, hand of waiting size + 1, melds, kinds): for each discard of ``kinds``, the useful
    # kinds of the hand it leaves (``useful`` on each; a ruleset may share the work between them)
    useful_after: Callable[[HandReplay, Counts, int, list[int]], dict[int, KindsMask]] | None = None
    # (replay, hand of waiting size + 1, melds): every discard of the turn judged in one pass,
    # for a view whose ``may_discard`` is None: the least shanten a discard leaves, the shanten
    # each kind's discard leaves (34 entries, 99 for a kind not held), the kinds keeping the
    # least (increasing), and the useful kinds of the hand each of those leaves (34 entries, -1
    # elsewhere): ``discard_shanten`` and ``useful_after`` in one call (None: asked of those)
    turn: Callable[[HandReplay, Counts, int], tuple[int, list[int], list[int], list[int]]] | None = None
    # a win on a tile needs it among the waits of the hand without it (then a self-drawn tile
    # outside the waits the judge already holds is no win, and legal_win is not asked)
    wins_need_waits: bool = False
    # (as legal_win) for a self-drawn tile the judge found among the waits of the hand before
    # the draw (a view whose wins need waits): the view need not test the shape again (None:
    # legal_win is asked)
    shaped_win: Callable[[HandReplay, int, int, bool, int | None], bool] | None = None
    # (hand of waiting size, melds): whether a hand whose ``shanten`` is above 0 may still wait
    # on some form ``shanten`` does not measure; given, ``waits`` is asked only of hands at
    # shanten 0 or for which this holds (most hands an opponent holds are not waiting)
    far_waits: Callable[[Counts, int], bool] | None = None
    # (hand of waiting size, its melds): whether, at shanten 0, its ``waits`` are its ``useful``
    # kinds (those taking it to complete); given, the useful kinds the judge found for a discard
    # that leaves such a hand serve as its waits, and ``waits`` is not asked of it again
    waits_are_useful: Callable[[Counts, tuple[Meld, ...]], bool] | None = None
    # (replay, seat): the view answering for one seat, where the answers depend on the seat
    # (a declared void suit); None: this view answers for every seat
    seat_view: Callable[[HandReplay, int], RulesetView] | None = None
    # the events after which ``seat_view`` may answer otherwise for some seat (a void declared, a
    # meld of a new suit): the judge keeps each seat's view and asks again only after one of them
    seat_view_events: frozenset[EventKind] = frozenset()
    # (replay, seat): the seat is out of the hand (血战到底: it has won): it decides nothing
    # more and is nobody's opponent; None: a hand ends at its first win
    out: Callable[[HandReplay, int], bool] | None = None
    # the table the judge reads (a replay keeping its own seat state); None: ``replay.state``
    table: Callable[[HandReplay], Table] | None = None
    chow: bool = True  # the next seat may chow a suited discard
    # several seats may win on one discard: passing a win another seat took is still a pass
    several_winners: bool = False


class TableSeat(Protocol):
    """One seat as the judge reads it: 34 concealed counts (then any flowers), its melds."""

    @property
    def concealed(self) -> list[int]: ...

    @property
    def melds(self) -> list[Meld]: ...


class TableWall(Protocol):
    def remaining(self, seat: int) -> int: ...


class Table(Protocol):
    """What the judge reads of the table (``mjstats.replay.state.TableState`` has it all)."""

    @property
    def seats(self) -> Sequence[TableSeat]: ...

    @property
    def visible(self) -> list[int]: ...  # unclaimed discards + exposed meld tiles, by kind

    @property
    def drawn(self) -> int | None: ...

    @property
    def phase(self) -> Phase: ...

    @property
    def actor(self) -> int | None: ...

    @property
    def last_tile(self) -> int | None: ...

    @property
    def wall(self) -> TableWall: ...


@cache
def view_for(ruleset: str) -> RulesetView | None:
    """The view of ``ruleset``; None for a ruleset whose decisions are not judged (yet)."""
    try:
        spec = get(ruleset)
    except UnknownRuleset:
        return None
    if not spec.recorded or spec.decisions is None:
        return None
    view: RulesetView = spec.load(spec.decisions)
    return view
