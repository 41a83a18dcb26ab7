"""Sichuan's answers to the decision judge (mjstats.decision): 4 sets + pair or 七对 with the
seat's declared void suit (定缺), no chow, wins by the replay's own engine (void, pass lock),
血战到底 (a seat that has won is out). docs/decisions.md, "Sichuan".

The answers depend on the seat (its void suit): one view per void suit (and one for a seat
without a declaration), picked by ``seat_view``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, TypeVar

from mjstats.decision.view import Counts, KindsMask, RulesetView
from mjstats.records import EventKind
from mjstats.rulesets.guobiao.incremental import (
    guobiao_discard_shanten,
    guobiao_shanten,
    guobiao_useful_after_discards,
    guobiao_useful_mask,
)
from mjstats.rulesets.sichuan.shape import void_shanten
from mjstats.rulesets.sichuan.table import SichuanTable
from mjstats.rulesets.sichuan.win import waits_by_key

if TYPE_CHECKING:
    from mjstats.replay.replayer import HandReplay
    from mjstats.rulesets.sichuan.replay import SichuanReplay

__all__ = [
    "VIEW",
    "discards_shanten",
    "hand_shanten",
    "seat_view",
    "seat_voids",
    "useful_after_discards",
    "view_of_void",
]

_A = TypeVar("_A")  # what a hand is asked (its shanten or its useful kinds)
Voids = tuple[int, ...]  # the suits a seat may still hold void: its declared one, or (none
# declared) every suit it has no meld of (reference sichuan.md §2.3: a winning hand lacks one)


@lru_cache(maxsize=1 << 16)
def _void_shanten(counts: Counts, melds: int, voids: Voids) -> int:
    # reference sichuan.md §2.3, §3.1: each void tile held is one more tile to take in; with no
    # suit left to give up (melds of all three) the hand can never win, as tenpai.py says (99)
    return min((void_shanten(counts, melds, suit) for suit in voids), default=99)


def _holds(counts: Counts, voids: Voids) -> bool:
    """Whether the hand needs the exact path: it holds a tile of its declared void suit, or no
    suit is declared (the least over the suits it may give up), or a record's fifth copy."""
    return len(voids) != 1 or any(counts[9 * voids[0] : 9 * voids[0] + 9]) or max(counts) > 4


# Without a void tile in hand a Sichuan hand's forms are Guobiao's regular form and 七对 on the
# suited kinds (reference sichuan.md §3.1; 七对 with no meld, a quad two pairs), so the Guobiao
# part tables answer (mjstats/rulesets/guobiao/incremental.py); a void-suit kind is then never
# near a held tile, so never useful. A hand holding void tiles takes the shape part's exact path.


def _shanten(counts: Counts, melds: int, voids: Voids) -> int:
    if _holds(counts, voids):
        return _void_shanten(counts, melds, voids)
    return guobiao_shanten(counts, melds)


@lru_cache(maxsize=1 << 15)
def _useful_with_void(counts: Counts, melds: int, voids: Voids) -> KindsMask:
    """(A kinds mask) every kind outside the declared void suit tried: a hand still to exchange void tiles is
    short of real ones, so a tile far from every held one may lower its shanten too (it fills
    a slot)."""
    before = _void_shanten(counts, melds, voids)
    void = voids[0] if len(voids) == 1 else None
    out = 0
    for k in range(27):
        if k // 9 == void:
            continue  # a void-suit kind must go again: never useful
        if _void_shanten((*counts[:k], counts[k] + 1, *counts[k + 1 :]), melds, voids) < before:
            out |= 1 << k
    return out


def _useful(counts: Counts, melds: int, voids: Voids) -> KindsMask:
    if _holds(counts, voids):
        return _useful_with_void(counts, melds, voids)
    # no void tile: only a kind within two ranks of a held tile can add a set, a partial set
    # or a pair, as the part tables try
    return guobiao_useful_mask(counts, melds)


def _without(counts: Counts, t: int) -> Counts:
    return (*counts[:t], counts[t] - 1, *counts[t + 1 :])


def _discard_shanten(counts: Counts, melds: int, kinds: list[int] | None, voids: Voids) -> dict[int, int]:
    """The shanten each discard of ``kinds`` leaves (a 14 - 3m hand). Every discard of the
    declared void suit leaves the same other tiles and one void tile fewer: one answer serves
    them all."""
    if kinds is None:
        kinds = [k for k in range(34) if counts[k]]
    if not _holds(counts, voids):
        return guobiao_discard_shanten(counts, melds, kinds)
    return _per_discard(counts, melds, kinds, voids, _shanten)


def _useful_after(counts: Counts, melds: int, kinds: list[int], voids: Voids) -> dict[int, KindsMask]:
    """For each discard of ``kinds``: the useful kinds (a kinds mask) of the hand it leaves (declared
    void-suit discards share one answer, as above)."""
    if not _holds(counts, voids):
        return guobiao_useful_after_discards(counts, melds, kinds)
    return _per_discard(counts, melds, kinds, voids, _useful)


def _per_discard(
    counts: Counts, melds: int, kinds: list[int], voids: Voids, answer: Callable[[Counts, int, Voids], _A]
) -> dict[int, _A]:
    """``answer`` of the hand each discard of ``kinds`` leaves; the discards of a declared void
    suit leave hands with the same answer (any void tile is one more to take in), asked once."""
    void = voids[0] if len(voids) == 1 else None
    out: dict[int, _A] = {}
    void_answer: _A | None = None
    for t in kinds:
        if t // 9 == void:
            if void_answer is None:
                void_answer = answer(_without(counts, t), melds, voids)
            out[t] = void_answer
        else:
            out[t] = answer(_without(counts, t), melds, voids)
    return out


@lru_cache(maxsize=1 << 15)
def _waits(counts: Counts, melds: tuple[tuple[str, int, int], ...], void: int | None) -> KindsMask:
    """Kinds (a kinds mask) completing a 13 - 3m hand (4 sets + pair, 七对 with no meld), none while
    a void-suit tile is held; a kind held four times (hand and melds) is no wait (reference §4.6)."""
    concealed = counts[:27]
    if sum(concealed) + 3 * len(melds) != 13 or max(concealed) > 4:
        return 0
    if void is not None and any(concealed[9 * void : 9 * void + 9]):
        return 0  # reference §2.3: no win while holding the void suit
    held = list(concealed)
    for kind, tile, _ in melds:
        if tile >= 27:
            return 0
        held[tile] += 4 if kind == "GANG" else 3
    found = waits_by_key(bytes(concealed), tuple(held) if melds else bytes(concealed), bool(melds), void)
    out = 0
    for t in found:
        out |= 1 << int(t)
    return out


def seat_voids(void: int | None, melded: frozenset[int] = frozenset()) -> Voids:
    """The suits a seat may hold void: its declared ``void``, or (none declared) every suit it
    has no meld of (``melded``: the suits of its melds), as ``seat_view`` picks its view."""
    if void is not None:
        return (void,)
    return tuple(s for s in _EVERY_SUIT if s not in melded)


def hand_shanten(counts: Counts, melds: int, voids: Voids) -> int:
    """The judge's shanten of a hand (34 concealed counts, ``melds`` sets down) of a seat that
    may hold ``voids`` void: what ``shanten`` of its view answers, for a player that measures
    its hand as the judge does (the simulator's bots, rulesets/sichuan/bots.py)."""
    return _shanten(counts, melds, voids)


def discards_shanten(counts: Counts, melds: int, kinds: list[int], voids: Voids) -> dict[int, int]:
    """The shanten each discard of ``kinds`` (increasing) leaves, as the judge asks it."""
    return _discard_shanten(counts, melds, kinds, voids)


def useful_after_discards(counts: Counts, melds: int, kinds: list[int], voids: Voids) -> dict[int, KindsMask]:
    """For each discard of ``kinds`` (increasing; the judge asks the best ones): the useful kinds
    (a kinds mask) of the hand it leaves, as the judge finds them for its ``inefficient`` flag
    (docs/decisions.md, "Flags": waiting, the useful kinds are the winning kinds). One engine
    for the judge and the bots that want to pass it (rulesets/sichuan/bots.py)."""
    return _useful_after(counts, melds, kinds, voids)


def _sichuan(replay: HandReplay) -> SichuanReplay:
    return replay  # type: ignore[return-value]  # the Sichuan profile's replay class


def _legal_win(replay: HandReplay, seat: int, tile: int, self_drawn: bool, discarder: int | None) -> bool:
    """A legal win (no fan minimum in Sichuan, reference §3): on a discard, the replay's own
    test (not out, not the void suit, among the waits, no pass lock §2.11); self-drawn, the
    tile completes the hand of the 13 tiles before it (no void tile held; a kind that hand
    holds four times is no wait, §4.6: a fifth copy only a broken record draws)."""
    sc = _sichuan(replay)
    if not self_drawn:
        return sc.could_win(seat, tile)
    p = sc.p[seat]
    if p.won or tile >= 27 or not p.counts[tile]:
        return False
    before = (*p.counts[:tile], p.counts[tile] - 1, *p.counts[tile + 1 :])
    return _waits(before, tuple(p.melds), p.void) >> tile & 1 == 1


def _may_discard(replay: HandReplay, seat: int, tile: int) -> bool:
    """Profile ``deal.void_discard = "strict"``: while a void-suit tile is held, only void-suit
    tiles may go (reference §2.3); ``lenient``: any tile."""
    sc = _sichuan(replay)
    void = sc.p[seat].void
    if not sc.void_strict or void is None or tile // 9 == void:
        return True
    return not any(sc.p[seat].counts[9 * void : 9 * void + 9])


def _make(void: int | None, voids: Voids) -> RulesetView:
    """The view for a seat whose declared void suit is ``void`` (None: not declared, ``voids``
    the suits it may still give up)."""
    return RulesetView(
        name="sichuan",
        size=13,
        shanten=lambda replay, counts, melds: _shanten(counts, melds, voids),
        useful=lambda replay, counts, melds: _useful(counts, melds, voids),
        discard_shanten=lambda replay, counts, melds, kinds: _discard_shanten(counts, melds, kinds, voids),
        useful_after=lambda replay, counts, melds, kinds: _useful_after(counts, melds, kinds, voids),
        waits=lambda replay, counts, melds: _waits(counts, tuple(m.as_tuple() for m in melds), void),
        legal_win=_legal_win,
        may_discard=_may_discard,
        # reference §2.6, §2.3: pong and kong only, never of the void suit
        may_claim=lambda replay, tile: void is None or tile // 9 != void,
        face_up=lambda replay: (),
        # the shanten is exact and a seat holding a void tile is never waiting (shanten >= 1):
        # above 0, no tile completes the hand
        far_waits=lambda counts, melds: False,
        seat_view=seat_view,
        seat_view_events=_SEAT_VIEW_EVENTS,
        out=lambda replay, seat: _sichuan(replay).p[seat].won,  # reference §2.10: 血战到底
        table=lambda replay: SichuanTable(_sichuan(replay)),
        chow=False,  # reference §2.6: no chow
        several_winners=True,  # reference §2.9: 一炮多响, each seat decides for itself
    )


# what seat_view reads changes only here: the void suit at 定缺 (reference §2.3), the suits of the
# melds (which a seat without a declaration can no longer give up) at a pong or a kong; a robbed
# 补杠 turned back into its pong keeps its suit
_SEAT_VIEW_EVENTS = frozenset(
    {EventKind.VOID, EventKind.PENG, EventKind.GANG, EventKind.ANGANG, EventKind.BUGANG}
)
_VIEWS: dict[tuple[int | None, Voids], RulesetView] = {}
_EVERY_SUIT: Voids = (0, 1, 2)


def _view(void: int | None, voids: Voids) -> RulesetView:
    found = _VIEWS.get((void, voids))
    if found is None:
        found = _VIEWS[void, voids] = _make(void, voids)
    return found


def view_of_void(void: int | None, melded: frozenset[int] = frozenset()) -> RulesetView:
    """The view of a seat with void suit ``void`` (0 W, 1 T, 2 B; None: none declared, then
    ``melded`` are the suits of its melds, which it can no longer give up)."""
    if void is not None:
        return _view(void, (void,))
    return _view(None, tuple(s for s in _EVERY_SUIT if s not in melded))


def seat_view(replay: HandReplay, seat: int) -> RulesetView:
    """The view answering for ``seat``: the one of its declared void suit (or, none declared,
    of the suits its melds leave it free to give up)."""
    p = _sichuan(replay).p[seat]
    if p.void is not None:
        return view_of_void(p.void)
    return view_of_void(None, frozenset(tile // 9 for _, tile, _ in p.melds))


VIEW = view_of_void(None)
