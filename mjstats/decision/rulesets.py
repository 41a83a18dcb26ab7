"""The ruleset-specific questions the decision judge asks, behind one small table per ruleset.

Each :class:`RulesetView` answers, for one seat at one moment of a replay: the shanten of a
concealed hand, the tile kinds that would lower it, the kinds that complete a waiting hand,
whether a win on a tile is legal and worth the minimum, and which discards and claims are
allowed. Everything else in :mod:`mjstats.decision` is ruleset-neutral, so moving a ruleset's
engine to another package means changing this module only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from mjstats.decision.incremental import guobiao_discard_shanten, guobiao_useful
from mjstats.errors import InvalidHand, RuleError
from mjstats.integrity.useful import useful_kinds
from mjstats.sim.shapes import FuzhouShape, GuobiaoShape

if TYPE_CHECKING:
    from mjstats.replay.profile import Meld
    from mjstats.replay.replayer import HandReplay

__all__ = ["VIEWS", "RulesetView", "view_for"]

Counts = tuple[int, ...]  # 34 concealed counts (flowers left out)
MeldKey = tuple[tuple[str, int, int], ...]

_GUOBIAO = GuobiaoShape()
_CACHE = 1 << 16


@lru_cache(maxsize=_CACHE)
def _guobiao_shanten(counts: Counts, melds: int) -> int:
    # reference guobiao.md: 4 melds + pair or 七对 (the forms the simulator's bots aim at)
    return _GUOBIAO.shanten(list(counts), melds)


@lru_cache(maxsize=_CACHE)
def _fuzhou_shanten(counts: Counts, melds: int, gold: int) -> int:
    # reference fuzhou.md: 5 melds + pair, every gold wild
    return FuzhouShape(gold).shanten(list(counts), melds)


@lru_cache(maxsize=1 << 15)
def _guobiao_waits(counts: Counts, melds: MeldKey) -> frozenset[int]:
    """Kinds completing a 13 - 3m Guobiao hand in any winning form (十三幺 and the knitted forms
    included), by shape."""
    from mjstats.rules.guobiao.waits import waits

    tiles = [t for t, n in enumerate(counts) for _ in range(n)]
    try:
        return frozenset(int(t) for t in waits(tiles, list(melds)))
    except InvalidHand:
        return frozenset()


@lru_cache(maxsize=1 << 15)
def _fuzhou_waits(counts: Counts, melds: MeldKey, gold: int, rules: object) -> frozenset[int]:
    """Kinds completing a 16 - 3m Fuzhou hand, golds wild, within the profile's playable kinds."""
    from mjstats.rules.fuzhou.win import waits

    tiles = [t for t, n in enumerate(counts) for _ in range(n)]
    try:
        return frozenset(int(t) for t in waits(tiles, gold, list(melds), profile=rules))  # type: ignore[arg-type]
    except (InvalidHand, RuleError):
        return frozenset()


@dataclass(frozen=True, slots=True)
class RulesetView:
    """One ruleset's answers. ``size``: tiles (melds as 3) of a waiting hand (13 or 16)."""

    name: str
    size: int
    shanten: Callable[[HandReplay, Counts, int], int]
    useful: Callable[[HandReplay, Counts, int], frozenset[int]]
    # (replay, hand of waiting size + 1, melds, kinds): the shanten each discard leaves
    discard_shanten: Callable[[HandReplay, Counts, int, list[int]], dict[int, int]]
    waits: Callable[[HandReplay, Counts, tuple[Meld, ...]], frozenset[int]]
    # (replay, seat, tile, self_drawn, discarder): a legal win worth the minimum
    legal_win: Callable[[HandReplay, int, int, bool, int | None], bool]
    may_discard: Callable[[HandReplay, int, int], bool]  # (replay, seat, tile)
    may_claim: Callable[[HandReplay, int], bool]  # (replay, tile): the tile can be chowed/punged
    face_up: Callable[[HandReplay], tuple[int, ...]]  # kinds lying face up outside every hand
    # whether discards can be judged now (Fuzhou: once the gold is known, golds being wild)
    ready: Callable[[HandReplay], bool] = lambda replay: True


def _gold(replay: HandReplay) -> int | None:
    return getattr(replay, "gold", None)


# --- Guobiao -------------------------------------------------------------------------------------
def _gb_legal_win(replay: HandReplay, seat: int, tile: int, self_drawn: bool, discarder: int | None) -> bool:
    from mjstats.replay.possible_win import possible_win

    state = replay.state
    # 海底: the seat after the one who just drew or discarded has nothing left to draw
    after = seat if self_drawn else discarder if discarder is not None else seat
    last = state.wall.remaining((after + 1) % 4) == 0
    win = possible_win(
        replay, seat, tile, self_drawn=self_drawn, discarder=discarder,
        kong_win=self_drawn and state.after_kong, last_tile=last,
    )  # fmt: skip
    return win is not None and win.meets_minimum  # reference guobiao.md: 8 fan at least


GUOBIAO = RulesetView(
    name="guobiao",
    size=13,
    shanten=lambda replay, counts, melds: _guobiao_shanten(counts, melds),
    useful=lambda replay, counts, melds: guobiao_useful(counts, melds),
    discard_shanten=lambda replay, counts, melds, kinds: guobiao_discard_shanten(counts, melds, kinds),
    waits=lambda replay, counts, melds: _guobiao_waits(counts, tuple(m.as_tuple() for m in melds)),
    legal_win=_gb_legal_win,
    may_discard=lambda replay, seat, tile: True,
    may_claim=lambda replay, tile: True,
    face_up=lambda replay: (),
)


# --- Fuzhou --------------------------------------------------------------------------------------
def _fz_shanten(replay: HandReplay, counts: Counts, melds: int) -> int:
    gold = _gold(replay)
    if gold is None:  # before the gold is turned up (a faulty record): no wild
        return _fuzhou_shanten(counts, melds, 33) if not counts[33] else _plain_shanten(counts, melds)
    return _fuzhou_shanten(counts, melds, gold)


@lru_cache(maxsize=1 << 14)
def _plain_shanten(counts: Counts, melds: int) -> int:
    from mjstats.rules.hand import partial_shanten

    return partial_shanten(counts, melds)


def _fz_legal_win(replay: HandReplay, seat: int, tile: int, self_drawn: bool, discarder: int | None) -> bool:
    from mjstats.rules.fuzhou.turns import may_win_on_discard

    gold = _gold(replay)
    if gold is None:
        return False
    rules = replay.rules  # type: ignore[attr-defined]
    player = replay.state.seats[seat]
    if any(player.concealed[34:]):  # reference fuzhou.md: flowers are set aside before a win
        return False
    counts = list(player.concealed[:34])
    melds = 5 - len(player.melds)
    if not self_drawn:
        # reference fuzhou.md: a discarded gold cannot be won on; after discarding a gold a
        # player may only win by self-draw (profile gold_discard = "self_draw_only")
        if tile == gold or not may_win_on_discard(replay.discarded_gold[seat], rules):  # type: ignore[attr-defined]
            return False
        if rules.idle_gold == "self_draw_only" and _idle_gold(replay, seat, gold):
            return False  # profile switch: 闲金 must self-draw
        counts[tile] += 1
    if sum(counts) + 3 * len(player.melds) != 17:
        return False
    if self_drawn and counts[gold] >= 3:
        return True  # reference fuzhou.md: 三金倒, three golds win at once on one's own turn
    return FuzhouShape(gold).complete(counts, melds)


def _idle_gold(replay: HandReplay, seat: int, gold: int) -> bool:
    from mjstats.rules.fuzhou.win import is_idle_gold

    player = replay.state.seats[seat]
    melds = [m.as_tuple() for m in player.melds]
    try:
        return is_idle_gold(player.concealed_tiles(), gold, melds, profile=replay.rules)  # type: ignore[attr-defined]
    except (InvalidHand, RuleError):
        return False


def _fz_may_discard(replay: HandReplay, seat: int, tile: int) -> bool:
    from mjstats.rules.fuzhou.turns import may_discard_gold

    return tile != _gold(replay) or may_discard_gold(replay.rules)  # type: ignore[attr-defined]


def _fz_face_up(replay: HandReplay) -> tuple[int, ...]:
    """The turned-up gold while it lies face up: out of play (3 live golds) or not yet drawn."""
    gold = _gold(replay)
    if gold is None:
        return ()
    rules = replay.rules  # type: ignore[attr-defined]
    if rules.live_golds < 4 or replay.wall.gold_pending:  # type: ignore[attr-defined]
        return (gold,)
    return ()


FUZHOU = RulesetView(
    name="fuzhou",
    size=16,
    shanten=_fz_shanten,
    useful=lambda replay, counts, melds: useful_kinds(counts, melds, _gold(replay)),
    discard_shanten=lambda replay, counts, melds, kinds: {
        t: _fz_shanten(replay, (*counts[:t], counts[t] - 1, *counts[t + 1 :]), melds) for t in kinds
    },
    waits=lambda replay, counts, melds: (
        _fuzhou_waits(counts, tuple(m.as_tuple() for m in melds), g, replay.rules)  # type: ignore[attr-defined]
        if (g := _gold(replay)) is not None
        else frozenset()
    ),
    legal_win=_fz_legal_win,
    may_discard=_fz_may_discard,
    # reference fuzhou.md: the gold is never claimed
    may_claim=lambda replay, tile: tile != _gold(replay),
    face_up=_fz_face_up,
    ready=lambda replay: _gold(replay) is not None,
)

VIEWS: dict[str, RulesetView] = {v.name: v for v in (GUOBIAO, FUZHOU)}


def view_for(ruleset: str) -> RulesetView | None:
    """The view of ``ruleset``; None for a ruleset decisions are not judged for yet."""
    return VIEWS.get(ruleset)
