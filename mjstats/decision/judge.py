"""Judge every decision of one hand: each discard, claim, passed claim and passed win.

The hand is replayed by the audit's own replayer (``mjstats.replay``); the judge only listens,
through its event handlers, and reads the table state before and after each decision. What it
computes (shanten, useful tiles, waits, legal wins) comes from the ruleset's engines through
:mod:`mjstats.decision.view` (each ruleset's ``decisions`` part). Definitions and their
limits: docs/decisions.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, Final

from mypy_extensions import i64

from mjstats.decision.view import KindsMask, RulesetView, Table, view_for
from mjstats.errors import ProfileError
from mjstats.records import Event, EventKind, Hand
from mjstats.replay.profile import Meld, ReplayProfile
from mjstats.replay.replayer import HandReplay, profile_for
from mjstats.replay.state import Phase, TableState
from mjstats.tiles import ALL_KINDS

__all__ = ["FLAGS", "KINDS", "Decision", "DecisionColumns", "hand_decision_columns", "hand_decisions"]

KINDS = ("discard", "claim", "pass_claim", "pass_win")
FLAGS = ("call_worse", "deal_in", "inefficient", "missed_win", "shanten_loss", "unsafe")
UNKNOWN: Final = -1  # danger of a discard whose opponents' hands are not all of a playing size
# Final: the compiled build reads them as constants, not from the module's globals at each use
_DISCARD: Final = EventKind.DISCARD
_HU: Final = EventKind.HU
_GANG: Final = EventKind.GANG
_CHI: Final = EventKind.CHI
_PENG: Final = EventKind.PENG
_CLAIMS: Final = (_CHI, _PENG, _GANG)
_RESPONSES: Final = frozenset({*_CLAIMS, _HU, EventKind.IGNORED})
_NAMES: Final = tuple(ALL_KINDS[k].botzone for k in range(34))
_DISCARD_PHASE: Final = Phase.DISCARD
_CLAIM_PHASES: Final = (Phase.CLAIM, Phase.ENDED)


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision, as a row of the ``decisions`` table (docs/decisions.md). The shanten and
    useful-tile columns are None where they do not apply or the record's hand cannot be judged."""

    match_id: str
    hand_no: int
    seq: int
    seat: int
    kind: str
    shanten_before: int | None
    shanten_after: int | None
    useful_kept: int | None
    useful_best: int | None
    best_discards: str
    danger: int
    flags: str


class DecisionColumns:
    """Decision rows as one list per column (the fields of :class:`Decision`, in order): what
    ``mjstats decisions`` turns into a table, with no object per row on the way."""

    __slots__ = (
        "best_discards", "danger", "flags", "hand_no", "kind", "match_id", "seat", "seq", "shanten_after",
        "shanten_before", "useful_best", "useful_kept",
    )  # fmt: skip

    def __init__(self) -> None:
        self.match_id: list[str] = []
        self.hand_no: list[int] = []
        self.seq: list[int] = []
        self.seat: list[int] = []
        self.kind: list[str] = []
        self.shanten_before: list[int | None] = []
        self.shanten_after: list[int | None] = []
        self.useful_kept: list[int | None] = []
        self.useful_best: list[int | None] = []
        self.best_discards: list[str] = []
        self.danger: list[int] = []
        self.flags: list[str] = []

    def __len__(self) -> int:
        return len(self.seq)

    def columns(self) -> dict[str, list[Any]]:
        """Each column by its name, in the order of :class:`Decision`'s fields."""
        return {name: getattr(self, name) for name in DECISION_FIELDS}

    def rows(self) -> list[Decision]:
        """The rows as :class:`Decision` records (the Python API's view)."""
        return [
            Decision(*values) for values in zip(*(getattr(self, n) for n in DECISION_FIELDS), strict=True)
        ]


DECISION_FIELDS = tuple(f.name for f in fields(Decision))

# a row's flags as bits, bit i for FLAGS[i] (FLAGS is sorted): one int a row, where a set was
# made for every row and sorted and joined at its end
_CALL_WORSE: Final = 1
_DEAL_IN: Final = 2
_INEFFICIENT: Final = 4
_MISSED_WIN: Final = 8
_SHANTEN_LOSS: Final = 16
_UNSAFE: Final = 32


def _flags_text(bits: int) -> str:
    """The flags column of a row's flag bits: the names comma-separated in sorted order."""
    return ",".join([FLAGS[i] for i in range(len(FLAGS)) if bits >> i & 1])


# every combination's text, made once (the column's value is read by the bits)
_FLAG_TEXTS: Final = tuple(_flags_text(bits) for bits in range(1 << len(FLAGS)))


class _Row:
    """A decision being built (flags are added later: a deal-in shows at the next event)."""

    __slots__ = ("after", "before", "best", "danger", "flags", "kept", "kind", "names", "safe", "seat", "seq")

    def __init__(self, seq: int, seat: int, kind: str) -> None:
        self.seq, self.seat, self.kind = seq, seat, kind
        self.before: int | None = None
        self.after: int | None = None
        self.kept: int | None = None
        self.best: int | None = None
        self.names = ""
        self.danger = UNKNOWN
        self.flags = 0  # bits of FLAGS (_CALL_WORSE ... _UNSAFE)
        # a discard keeping the best shanten was in no opponent's wait (read at a deal-in)
        self.safe = False


def _one_more(fewer: tuple[int, ...], more: tuple[int, ...], kind: int) -> bool:
    """Whether the counts ``more`` are ``fewer`` with one more copy of ``kind`` (a kind outside
    the counts: the same counts). A native loop that stops at the first difference: two list
    copies compared in C cost more, and ``all()`` over a generator more again."""
    count = len(fewer)
    if count != len(more):
        return False
    k = 0
    while k < count and more[k] == fewer[k] + (1 if k == kind else 0):
        k += 1
    return k == count


def _tiles_held(concealed: list[int]) -> int:
    """The tiles of a seat's concealed counts, or -1 where it holds a flower (a count past the
    34 kinds): one loop of C ints compiled, where sum() and any() iterate boxed objects."""
    total = 0
    for k in range(len(concealed)):
        n = concealed[k]
        if n and k >= 34:
            return -1
        total += n
    return total


def _unseen_of(kinds: KindsMask, unseen: list[int]) -> int:
    """The unseen copies of the kinds of a kinds mask: one pass over its bits, shifted in i64
    (compiled: C shifts, where a 34-bit int's ``&``, ``-`` and ``bit_length`` each made an object);
    eight kinds none of which is in the mask are passed in one step (a mask holds a few kinds)."""
    total = 0
    rest: i64 = kinds
    k: i64 = 0
    while rest:
        if not rest & 0xFF:
            rest >>= 8
            k += 8
            continue
        if rest & 1:
            total += unseen[k]
        rest >>= 1
        k += 1
    return total


def _responses(hand: Hand) -> dict[int, dict[int, EventKind]]:
    """For every discard answered (by seq): the seats that answered it (claim, win or a lost
    claim). A discard nobody answered (most) has no entry: no empty dict made for it."""
    out: dict[int, dict[int, EventKind]] = {}
    events = hand.events
    count = len(events)
    for i in range(count):
        ev = events[i]
        if ev.kind is not _DISCARD:
            continue
        j = i + 1
        if j == count or events[j].kind not in _RESPONSES:
            if out:
                out.pop(ev.seq, None)  # a seq met again (a broken record): the last discard's
            continue
        answered: dict[int, EventKind] = {}
        while j < count and events[j].kind in _RESPONSES:
            nxt = events[j]
            if nxt.seat is not None and nxt.seat not in answered:
                answered[nxt.seat] = nxt.kind
            j += 1
        if answered:
            out[ev.seq] = answered
        elif out:
            out.pop(ev.seq, None)
    return out


_NO_ANSWERS: Final[dict[int, EventKind]] = {}  # a discard nobody answered (read, never written)
_NOT_ASKED: Final = -1  # a marker: waits not computed yet (a kinds mask is never negative)
_NO_WAITS: Final = 0
_SHAPE_UNKNOWN: Final = -1  # drawn_shape: no hand before the draw to tell by


class _SeatHand:
    """One seat's hand as the judge last saw it, with what was asked of it. A seat's concealed
    tiles change on its own turn and its claims only, so its waits and shanten are computed
    once per change, not at every other seat's discard."""

    __slots__ = ("counts", "groups", "held", "melds", "playing", "shanten", "view", "waits")

    def __init__(self, held: list[int], melds: list[Meld], playing: bool, view: RulesetView) -> None:
        self.held = held  # a copy of the seat's concealed counts (flowers included)
        self.melds = melds  # a copy of its melds
        self.view = view  # the view answering for the seat (its void suit, where it has one)
        self.groups = len(melds)
        self.playing = playing
        self.counts = tuple(held[:34])
        self.waits = _NOT_ASKED
        self.shanten = -99


class _Judge:
    """Listens to one replay and builds its decision rows."""

    def __init__(self, hand: Hand, replay: HandReplay, view: RulesetView) -> None:
        self.hand = hand
        self.replay = replay
        self.state: Table = replay.state if view.table is None else view.table(replay)
        # the shared table typed as itself where it is the one read: compiled, its seats' counts
        # and melds are struct fields, where the Table protocol reads each by name
        self.native: TableState | None = replay.state if view.table is None else None
        self.view = view
        self.size = view.size
        # read once: the view is a Python dataclass, each attribute read a lookup by name
        self.out: Callable[[HandReplay, int], bool] | None = view.out
        self.rows: list[_Row] = []
        self.last_discard: _Row | None = None
        self.responses = _responses(hand)
        self.claim_missed: dict[int, bool] = {}  # seat -> it could have won the tile it claimed
        self.several = view.several_winners  # read once (the view is a Python dataclass)
        # the last discard's opponents' waits, by seat (-1: not an opponent still in the hand)
        self.others: list[KindsMask] | None = None
        # the opponents' hands taken for the last discard's waits (None: not taken), read again
        # by its answers: a discard changes no other seat's tiles
        self.opponents: list[_SeatHand | None] = [None] * 4
        self.waits_list: list[KindsMask] = [_NOT_ASKED] * 4  # waits_of_others' answer, refilled
        self.hands: list[_SeatHand | None] = [None] * 4
        # each seat's view, asked of the ruleset once and again only after an event that may
        # change it (the view's seat_view_events); a view answering for every seat is kept as is
        self.views: list[RulesetView | None] = [None if view.seat_view else view] * 4
        self.judged: tuple[int, ...] = ()  # the last judged discarder's hand before its discard
        # the useful kinds of the hand each of its best discards leaves (by kind, -1 for the other
        # kinds), and the view that found them
        self.judged_useful: list[KindsMask] = [-1] * 34
        self.judged_view: RulesetView | None = None
        handlers = replay.handlers
        # innermost, so that a listener hears the event with every seat's view already forgotten
        for kind in view.seat_view_events if view.seat_view is not None else ():
            self._wrap(handlers, kind, self.forget_views)
        self._wrap(handlers, _DISCARD, self.on_discard)
        for kind in _CLAIMS:
            self._wrap(handlers, kind, self.on_claim)
        self._wrap(handlers, _HU, self.on_hu)

    @staticmethod
    def _wrap(
        handlers: dict[EventKind, Callable[[Event], None]],
        kind: EventKind,
        listener: Callable[[Event, Callable[[Event], None]], None],
    ) -> None:
        inner = handlers.get(kind)
        if inner is not None:
            handlers[kind] = lambda ev: listener(ev, inner)

    # --- what a seat holds and sees ------------------------------------------------------------
    def concealed_of(self, seat: int) -> list[int]:
        """The seat's concealed counts (34 kinds, then any flowers), as the table holds them."""
        native = self.native
        if native is not None:
            return native.seats[seat].concealed
        return self.state.seats[seat].concealed

    def melds_of(self, seat: int) -> list[Meld]:
        """The seat's melds, as the table holds them."""
        native = self.native
        if native is not None:
            return native.seats[seat].melds
        return self.state.seats[seat].melds

    def tiles_held(self, seat: int, concealed: list[int]) -> int:
        """The tiles of the seat's concealed counts ``concealed``, or -1 where it holds a flower.
        The shared table keeps each seat's count of tiles held (``SeatState.held``, flowers
        included), so only the flowers' counts are read (8 entries, where the sum read 42)."""
        native = self.native
        if native is None:
            return _tiles_held(concealed)
        for k in range(34, len(concealed)):
            if concealed[k]:
                return -1
        return native.seats[seat].held

    def view_of(self, seat: int) -> RulesetView:
        """The view answering for ``seat`` (the ruleset's own, or the seat's: its void suit)."""
        found = self.views[seat]
        if found is None:
            seat_view = self.view.seat_view
            assert seat_view is not None  # a view answering for every seat is never forgotten
            found = self.views[seat] = seat_view(self.replay, seat)
        return found

    def forget_views(self, ev: Event, inner: Callable[[Event], None]) -> None:
        """After an event that may change a seat's view, every seat's is asked again."""
        try:
            inner(ev)
        finally:
            self.views = [None] * 4

    def is_out(self, seat: int) -> bool:
        """The seat is out of the hand (血战到底: it has won): no decision, nobody's opponent."""
        out = self.out
        return out is not None and out(self.replay, seat)

    def seat_hand(self, seat: int) -> _SeatHand:
        """The seat's hand now: the one last seen while its concealed tiles are unchanged (a
        list comparison), else taken afresh."""
        concealed = self.concealed_of(seat)
        held_melds = self.melds_of(seat)
        known = self.hands[seat]
        view = self.view_of(seat)
        if (
            known is not None
            and known.held == concealed
            and known.melds == held_melds
            and known.view is view
        ):
            return known
        melds = list(held_melds)
        held = self.tiles_held(seat, concealed)
        playing = held >= 0 and held + 3 * len(melds) == self.size
        known = self.hands[seat] = _SeatHand(list(concealed), melds, playing, view)
        return known

    def waits(self, known: _SeatHand) -> KindsMask:
        """The kinds completing a seat's (playing) hand, asked once per hand (not at all of a
        hand the view says cannot wait)."""
        if known.waits == _NOT_ASKED:
            view = known.view
            far = view.far_waits
            if far is not None and self.hand_shanten(known) > 0 and not far(known.counts, known.groups):
                known.waits = _NO_WAITS
            else:
                known.waits = view.waits(self.replay, known.counts, tuple(known.melds))
        return known.waits

    def hand_shanten(self, known: _SeatHand) -> int:
        if known.shanten == -99:
            known.shanten = known.view.shanten(self.replay, known.counts, known.groups)
        return known.shanten

    def playing(self, seat: int, extra: int = 0) -> bool:
        """The seat holds a waiting-size hand (+ ``extra`` tiles) and no flower."""
        held = self.tiles_held(seat, self.concealed_of(seat))
        return held >= 0 and held + 3 * len(self.melds_of(seat)) == self.size + extra

    def unseen(self, seat: int, counts: tuple[int, ...], kinds: KindsMask) -> list[int]:
        """Copies of each kind of ``kinds`` (a kinds mask; 0 for the other kinds) ``seat``
        cannot see: 4 minus its own concealed tiles and concealed kongs, every river tile not
        claimed, every exposed meld, tiles face up (none where a record holds too many). Only
        the kinds asked (the best discards' useful kinds, a few of the 34) are counted."""
        native = self.native
        # unclaimed discards + exposed meld tiles (flowers too)
        visible = native.visible if native is not None else self.state.visible
        out = [0] * 34
        rest: i64 = kinds  # its bits shifted in i64 (compiled: C shifts, no int objects)
        k: i64 = 0
        while rest:
            if not rest & 0xFF:  # eight kinds not asked: passed in one step
                rest >>= 8
                k += 8
                continue
            if rest & 1:
                out[k] = 4 - counts[k] - visible[k]
            rest >>= 1
            k += 1
        for meld in self.melds_of(seat):
            if meld.kind == "GANG" and meld.offer == 0:  # own concealed kong: not in visible
                out[meld.tile] -= 4
        for t in self.view.face_up(self.replay):
            out[t] -= 1
        rest = kinds
        k = 0
        while rest:  # a kind not asked may have gone below 0 above: it is never read
            if not rest & 0xFF:
                rest >>= 8
                k += 8
                continue
            if rest & 1 and out[k] < 0:
                out[k] = 0
            rest >>= 1
            k += 1
        return out

    def shanten(self, seat: int, counts: tuple[int, ...], groups: int) -> int:
        return self.view_of(seat).shanten(self.replay, counts, groups)

    def best_after_discard(self, seat: int, counts: tuple[int, ...], groups: int) -> int:
        """The least shanten any one discard leaves (a hand of waiting size + 1)."""
        view = self.view_of(seat)
        turn = view.turn
        if turn is not None and view.may_discard is None:
            # the turn judged in one pass: the discard that follows the claim asks it again of
            # the same hand, and the engine keeps it (its useful kinds are found once)
            return turn(self.replay, counts, groups)[0]
        kinds = [t for t in range(34) if counts[t]]
        left = view.discard_shanten(self.replay, counts, groups, kinds)
        return min(left.values(), default=99)

    def waits_of_others(self, seat: int) -> list[KindsMask] | None:
        """The waits of the other seats still in the hand, ready or not, by seat (-1 for the
        discarder and a seat out of the hand; None: a seat's hand is not playable): a list of
        four, where a dict was built and iterated at every discard. The judge's two lists of
        four (these waits, the hands taken) are filled afresh, not made anew, at each discard:
        both are read only until the discard's answers are judged."""
        out, taken = self.waits_list, self.opponents
        for o in range(4):
            out[o] = _NOT_ASKED
            taken[o] = None
        for i in range(1, 4):  # a native loop (a tuple of the three seats was built and iterated)
            o = (seat + i) % 4
            if self.is_out(o):
                continue  # 血战到底: a seat that has won is nobody's opponent
            known = taken[o] = self.seat_hand(o)
            if not known.playing:
                return None
            out[o] = self.waits(known)
        return out

    # --- the listeners -------------------------------------------------------------------------
    def on_discard(self, ev: Event, inner: Callable[[Event], None]) -> None:
        seat, tile = ev.seat, ev.tile
        row = None
        if seat is not None and tile is not None and 0 <= seat < 4 and not self.is_out(seat):
            row = self.judge_discard(ev.seq, seat, int(tile))
        inner(ev)
        self.last_discard = row
        if row is not None:
            if row.after is not None:
                self.keep_shanten(seat, int(tile), row.after)  # type: ignore[arg-type]
            self.judge_responses(ev.seq, seat, int(tile))  # type: ignore[arg-type]

    def keep_shanten(self, seat: int, tile: int, after: int) -> None:
        """The discarder's hand now is the one judged without ``tile``: its shanten is known
        (``discard_shanten`` is ``shanten`` of the hand left), and is kept for its waits; waiting,
        with waits the view says are its useful kinds, the useful kinds found for ``tile`` (one
        of the best discards) are its waits."""
        known = self.seat_hand(seat)
        if known.shanten == -99 and known.playing:
            judged = self.judged
            if _one_more(known.counts, judged, tile):
                known.shanten = after
                useful = self.judged_useful[tile]
                same = known.view.waits_are_useful
                if (
                    after == 0
                    and useful >= 0
                    and same is not None
                    and known.view is self.judged_view
                    and known.waits == _NOT_ASKED
                    and same(known.counts, tuple(known.melds))
                ):
                    known.waits = useful

    def drawn_shape(self, seat: int, drawn: int, counts: tuple[int, ...]) -> int:
        """Whether the drawn tile may complete the hand, by the waits of the hand before the draw
        (asked when the seat was an opponent), for a view whose wins need it: 0 surely not (not
        among those waits), 1 among them, -1 not known (no such hand kept)."""
        before = self.hands[seat]
        if before is None or not before.view.wins_need_waits or not before.playing:
            return _SHAPE_UNKNOWN
        if before.counts[drawn] + 1 != counts[drawn]:
            return _SHAPE_UNKNOWN
        if before.melds != self.melds_of(seat):
            return _SHAPE_UNKNOWN
        if not _one_more(before.counts, counts, drawn):
            return _SHAPE_UNKNOWN
        return self.waits(before) >> drawn & 1

    def missed_self_draw(self, seat: int, drawn: int, counts: tuple[int, ...], view: RulesetView) -> bool:
        """Whether the drawn tile completed a legal hand worth the minimum (then discarded): the
        legal win asked only of a tile the shape does not rule out, and told when the judge found
        it among the waits already (``shaped_win``)."""
        shape = self.drawn_shape(seat, drawn, counts)
        if shape == 0:
            return False
        shaped = view.shaped_win
        if shape == 1 and shaped is not None:
            return shaped(self.replay, seat, drawn, True, None)
        return view.legal_win(self.replay, seat, drawn, True, None)

    def judge_discard(self, seq: int, seat: int, tile: int) -> _Row:
        row = _Row(seq, seat, "discard")
        self.rows.append(row)
        view, replay = self.view_of(seat), self.replay
        others = self.waits_of_others(seat)
        self.others = others
        if others is not None:
            danger = 0
            for waits in others:
                if waits > 0:
                    danger += waits >> tile & 1
            row.danger = danger
        concealed = self.concealed_of(seat)
        if not concealed[tile] or not self.playing(seat, 1) or not view.ready(replay):
            return row  # not a hand that can be judged (the audit reports why)
        counts = tuple(concealed[:34])
        groups = len(self.melds_of(seat))
        # a self-drawn tile that completes a legal hand worth the minimum, discarded instead
        drawn = self.drawn_by(seat)
        if drawn is not None and self.missed_self_draw(seat, int(drawn), counts, view):
            row.flags |= _MISSED_WIN
        turn = view.turn
        if turn is not None and view.may_discard is None:
            # every discard of the turn in one pass (the engine's own arrays, no dict a call)
            best, after_of, candidates, kinds_after = turn(replay, counts, groups)
        else:
            best, after_of, candidates, kinds_after = self.discards_asked(seat, tile, counts, groups)
        self.judged = counts
        self.judged_useful, self.judged_view = kinds_after, view
        asked = 0
        for t in candidates:
            asked |= kinds_after[t]
        unseen = self.unseen(seat, counts, asked)
        # each best discard's useful copies, the most of them, the discarded tile's (candidates
        # are in increasing kind order: the names are listed so)
        useful = [_unseen_of(kinds_after[t], unseen) for t in candidates]
        most = 0
        for n in useful:  # a native loop (max() iterates boxed objects through a generic call)
            if n > most:
                most = n
        after = after_of[tile]
        row.before, row.after = best, after
        row.best = most
        # a discard that gives up shanten keeps no tile that takes the hand below ``best``
        kept = 0
        names: list[str] = []
        for i in range(len(candidates)):
            t = candidates[i]
            if t == tile:
                kept = useful[i]
            if useful[i] == most:
                names.append(_NAMES[t])
        row.kept = kept
        row.names = " ".join(names)
        if after > best:
            row.flags |= _SHANTEN_LOSS | _INEFFICIENT
        elif best == 0 and kept < most:
            # waiting: the useful tiles are the winning tiles, and keeping the most of them is
            # exact; further away the one-step count is reported (useful_kept/useful_best) but
            # not flagged, as it says nothing of the shape the next tiles make (docs/decisions.md)
            row.flags |= _INEFFICIENT
        if others is not None:
            waited = 0
            for waits in others:
                if waits > 0:
                    waited |= waits
            for t in candidates:  # a native loop, no generator object a discard
                if not waited >> t & 1:
                    row.safe = True
                    break
        return row

    def drawn_by(self, seat: int) -> int | None:
        """The tile ``seat`` just drew, while it is to discard it (None otherwise): read from the
        shared table's struct fields where it is the one read (the Table protocol reads each by
        name)."""
        native = self.native
        if native is not None:
            if native.phase is _DISCARD_PHASE and native.actor == seat:
                return native.drawn
            return None
        state = self.state
        return state.drawn if state.phase is _DISCARD_PHASE and state.actor == seat else None

    def discards_asked(
        self, seat: int, tile: int, counts: tuple[int, ...], groups: int
    ) -> tuple[int, list[int], list[int], list[int]]:
        """A turn's discards asked of the view one question at a time (a view with no ``turn``,
        or one that forbids some discards): as ``RulesetView.turn`` answers them."""
        view, replay = self.view_of(seat), self.replay
        if view.may_discard is None:
            shanten = view.discard_shanten(replay, counts, groups, None)  # every held kind
        else:
            allowed = [t for t in range(34) if counts[t] and view.may_discard(replay, seat, t)]
            if tile not in allowed:
                allowed.append(tile)
            shanten = view.discard_shanten(replay, counts, groups, allowed)
        best = min(shanten.values())
        candidates = sorted(t for t, s in shanten.items() if s == best)
        if view.useful_after is not None:
            found = view.useful_after(replay, counts, groups, candidates)
        else:
            found = {
                t: view.useful(replay, (*counts[:t], counts[t] - 1, *counts[t + 1 :]), groups)
                for t in candidates
            }
        after = [99] * 34
        for t, s in shanten.items():
            after[t] = s
        kinds_after = [-1] * 34
        for t in candidates:
            kinds_after[t] = found[t]
        return best, after, candidates, kinds_after

    def judge_responses(self, seq: int, discarder: int, tile: int) -> None:
        """The other seats' answers to a discard: a win or claim passed, a claim over a win."""
        answered = self.responses.get(seq, _NO_ANSWERS)  # a shared empty dict, never changed
        # most discards nobody answered: no view of the dict's values, no look-up a seat
        won = bool(answered) and _HU in answered.values()
        replay = self.replay
        several = self.several
        if self.claim_missed:
            self.claim_missed = {}  # made anew only once a claim filled it
        last = self.wall_empty_after(discarder)
        others, taken = self.others, self.opponents
        for o in range(4):
            response = answered.get(o) if answered else None
            if o == discarder or response is _HU or self.is_out(o):
                continue
            # the discard left the other hands as they were: the one taken for its waits serves
            # while the seat's view is the one it was taken with (a seat view may be renewed)
            known = taken[o]
            if known is None or known.view is not self.views[o]:
                known = self.seat_hand(o)
            if not known.playing:
                continue
            view = known.view
            # the shape first (the waits were just computed): most hands wait on nothing
            waits = others[o] if others is not None and others[o] >= 0 else None
            if waits is None and view.wins_need_waits:
                waits = self.waits(known)
            shaped = waits is None or waits >> tile & 1 == 1
            if response is _CHI or response is _PENG or response is _GANG:  # identity: no __eq__ calls
                self.claim_missed[o] = shaped and view.legal_win(replay, o, tile, False, discarder)
                continue
            if (won and not several) or response is not None:
                continue  # another seat won on it (one winner a tile), or this one tried a claim that lost
            # the legal win (a fan count) asked only here, where its answer makes a row
            if shaped and view.legal_win(replay, o, tile, False, discarder):
                row = self.pass_row(seq, o, "pass_win", known)
                row.flags |= _MISSED_WIN
            elif not answered and not last and self.could_claim(o, discarder, tile):
                self.pass_row(seq, o, "pass_claim", known)

    def wall_empty_after(self, seat: int) -> bool:
        """Whether the seat after ``seat`` has nothing left to draw (海底: no claim then), read
        from the shared table's wall where it is the one read (a native call, where the Table
        protocol looks the wall and its method up by name)."""
        native = self.native
        if native is not None:
            return native.wall.remaining((seat + 1) % 4) == 0
        return self.state.wall.remaining((seat + 1) % 4) == 0

    def could_claim(self, seat: int, discarder: int, tile: int) -> bool:
        """Whether ``seat`` could pung, kong or (next seat, suited) chow ``tile``."""
        held = self.concealed_of(seat)
        if held[tile] >= 2:
            return self.view_of(seat).may_claim(self.replay, tile)
        if seat != (discarder + 1) % 4 or tile >= 27:
            return False
        view = self.view_of(seat)
        if not view.chow:
            return False
        # the three chows holding the tile, each test on the counts (a tuple of offsets was
        # built and iterated at every pass judged)
        rank = tile % 9
        below = rank >= 2 and held[tile - 2] != 0 and held[tile - 1] != 0
        middle = 1 <= rank <= 7 and held[tile - 1] != 0 and held[tile + 1] != 0
        above = rank <= 6 and held[tile + 1] != 0 and held[tile + 2] != 0
        return (below or middle or above) and view.may_claim(self.replay, tile)

    def pass_row(self, seq: int, seat: int, kind: str, known: _SeatHand) -> _Row:
        row = _Row(seq, seat, kind)
        row.before = row.after = self.hand_shanten(known)  # a pass leaves the hand as it was
        self.rows.append(row)
        return row

    def on_claim(self, ev: Event, inner: Callable[[Event], None]) -> None:
        seat = ev.seat
        before = None
        if seat is None or not 0 <= seat < 4 or self.is_out(seat):
            inner(ev)  # a seat out of the hand decides nothing (the audit reports the claim)
            return
        known = self.seat_hand(seat)
        if known.playing:
            before = self.hand_shanten(known)
        inner(ev)
        row = _Row(ev.seq, seat, "claim")
        self.rows.append(row)
        if before is None:
            return
        counts, groups = tuple(self.concealed_of(seat)[:34]), len(self.melds_of(seat))
        if ev.kind is _GANG:
            after = self.shanten(seat, counts, groups) if self.playing(seat) else None
        else:
            after = self.best_after_discard(seat, counts, groups) if self.playing(seat, 1) else None
        row.before, row.after = before, after
        if after is not None and after >= before:
            row.flags |= _CALL_WORSE
        if self.claim_missed.get(seat):
            row.flags |= _MISSED_WIN

    def on_hu(self, ev: Event, inner: Callable[[Event], None]) -> None:
        state, row = self.state, self.last_discard
        if (
            row is not None
            and state.phase in _CLAIM_PHASES
            and state.actor == row.seat
            and ev.seat != row.seat
            and state.last_tile is not None
            and ev.win is None  # 抢金, 三金倒, 天和 take no one's discard
        ):
            row.flags |= _DEAL_IN
            if row.safe:
                row.flags |= _UNSAFE
        inner(ev)

    def add_to(self, out: DecisionColumns) -> int:
        """The rows appended to ``out``, a column at a time (one list built and extended a
        column, where each row appended twelve values one method call each)."""
        match_id, hand_no, rows = self.hand.match_id, self.hand.hand_no, self.rows
        count = len(rows)
        out.match_id.extend([match_id] * count)
        out.hand_no.extend([hand_no] * count)
        out.seq.extend([row.seq for row in rows])
        out.seat.extend([row.seat for row in rows])
        out.kind.extend([row.kind for row in rows])
        out.shanten_before.extend([row.before for row in rows])
        out.shanten_after.extend([row.after for row in rows])
        out.useful_kept.extend([row.kept for row in rows])
        out.useful_best.extend([row.best for row in rows])
        out.best_discards.extend([row.names for row in rows])
        out.danger.extend([row.danger for row in rows])
        out.flags.extend([_FLAG_TEXTS[row.flags] for row in rows])
        return count


def hand_decisions(hand: Hand, profile: ReplayProfile | None = None) -> list[Decision]:
    """Every decision of ``hand`` judged (empty for a ruleset not judged yet or a hand no
    replay profile covers). ``profile`` forces a replay profile (default: the hand's own)."""
    out = DecisionColumns()
    hand_decision_columns(hand, out, profile)
    return out.rows()


def hand_decision_columns(hand: Hand, out: DecisionColumns, profile: ReplayProfile | None = None) -> int:
    """Judge every decision of ``hand`` and append its rows to ``out``; the number of rows (0
    for a ruleset not judged yet or a hand no replay profile covers). Nothing is appended when
    the replay raises."""
    view = view_for(hand.ruleset)
    if view is None:
        return 0
    try:
        chosen = profile or profile_for(hand)
    except ProfileError:
        return 0
    replay = (chosen.replay_class or HandReplay)(hand, chosen, False)
    judge = _Judge(hand, replay, view)
    try:
        replay.run()
    finally:
        # the handlers (the replay's bound methods, the judge's listeners) are the only cycle:
        # cleared, the replay and the judge are freed at once, no collector pass needed
        replay.handlers.clear()
    return judge.add_to(out)
