"""The straightforward decision judge, kept as the oracle of the fast one in
``mjstats.decision.judge`` (tests/test_decision_speed.py): every opponent's hand compared and its
waits asked (unfiltered) at every discard, the unseen copies of every kind counted, each view
question asked as the view states it (its kinds masks read as sets).
"""

from __future__ import annotations

from collections.abc import Callable

from mjstats.decision.judge import Decision
from mjstats.decision.view import RulesetView, kinds_of
from mjstats.errors import ProfileError
from mjstats.records import Event, EventKind, Hand
from mjstats.replay.profile import ReplayProfile
from mjstats.replay.replayer import HandReplay, profile_for
from mjstats.replay.state import Phase
from mjstats.tiles import ALL_KINDS

__all__ = ["oracle_decisions"]

UNKNOWN = -1  # danger of a discard whose opponents' hands are not all of a playing size
_CLAIMS = (EventKind.CHI, EventKind.PENG, EventKind.GANG)
_RESPONSES = frozenset({*_CLAIMS, EventKind.HU, EventKind.IGNORED})


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
        self.flags: set[str] = set()
        self.safe = False  # a discard keeping the best shanten that no ready opponent waits on

    def freeze(self, hand: Hand) -> Decision:
        return Decision(
            hand.match_id, hand.hand_no, self.seq, self.seat, self.kind, self.before, self.after,
            self.kept, self.best, self.names, self.danger, ",".join(sorted(self.flags)),
        )  # fmt: skip


def _responses(hand: Hand) -> dict[int, dict[int, EventKind]]:
    """For every discard (by seq): the seats that answered it (claim, win or a lost claim)."""
    out: dict[int, dict[int, EventKind]] = {}
    events = hand.events
    for i, ev in enumerate(events):
        if ev.kind is not EventKind.DISCARD:
            continue
        answered: dict[int, EventKind] = {}
        j = i + 1
        while j < len(events) and events[j].kind in _RESPONSES:
            nxt = events[j]
            if nxt.seat is not None and nxt.seat not in answered:
                answered[nxt.seat] = nxt.kind
            j += 1
        out[ev.seq] = answered
    return out


class _Judge:
    """Listens to one replay and builds its decision rows."""

    def __init__(self, hand: Hand, replay: HandReplay, view: RulesetView) -> None:
        self.hand = hand
        self.replay = replay
        self.state = replay.state
        self.view = view
        self.rows: list[_Row] = []
        self.last_discard: _Row | None = None
        self.responses = _responses(hand)
        self.claim_missed: dict[int, bool] = {}  # seat -> it could have won the tile it claimed
        self.others: dict[int, frozenset[int]] | None = None  # the last discard's opponents' waits
        self.waits_memo: dict[int, tuple[tuple[int, ...], tuple[object, ...], frozenset[int]]] = {}
        handlers = replay.handlers
        self._wrap(handlers, EventKind.DISCARD, self.on_discard)
        for kind in _CLAIMS:
            self._wrap(handlers, kind, self.on_claim)
        self._wrap(handlers, EventKind.HU, self.on_hu)

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
    def counts(self, seat: int) -> tuple[int, ...]:
        return tuple(self.state.seats[seat].concealed[:34])

    def playing(self, seat: int, extra: int = 0) -> bool:
        """The seat holds a waiting-size hand (+ ``extra`` tiles) and no flower."""
        player = self.state.seats[seat]
        if any(player.concealed[34:]):
            return False
        return sum(player.concealed[:34]) + 3 * len(player.melds) == self.view.size + extra

    def groups(self, seat: int) -> int:
        """Melds already set down (the shape engines take this count)."""
        return len(self.state.seats[seat].melds)

    def unseen(self, seat: int) -> list[int]:
        """Copies of each kind ``seat`` cannot see: 4 minus its own concealed tiles and
        concealed kongs, every river tile not claimed, every exposed meld, tiles face up."""
        state = self.state
        player = state.seats[seat]
        out = [4 - player.concealed[k] - state.visible[k] for k in range(34)]
        for meld in player.melds:
            if meld.kind == "GANG" and meld.offer == 0:  # own concealed kong: not in visible
                out[meld.tile] -= 4
        for k in self.view.face_up(self.replay):
            out[k] -= 1
        return [n if n > 0 else 0 for n in out]

    def shanten(self, counts: tuple[int, ...], groups: int) -> int:
        return self.view.shanten(self.replay, counts, groups)

    def best_after_discard(self, counts: tuple[int, ...], groups: int) -> int:
        """The least shanten any one discard leaves (a hand of waiting size + 1)."""
        best = 99
        for t in range(34):
            if counts[t]:
                after = (*counts[:t], counts[t] - 1, *counts[t + 1 :])
                s = self.shanten(after, groups)
                if s < best:
                    best = s
        return best

    def waits_of_others(self, seat: int) -> dict[int, frozenset[int]] | None:
        """The waits of the other seats, ready or not (None: a seat's hand is not playable)."""
        out = {}
        view, replay, memo = self.view, self.replay, self.waits_memo
        for o in range(4):
            if o == seat:
                continue
            if not self.playing(o):
                return None
            counts, melds = self.counts(o), tuple(self.state.seats[o].melds)
            known = memo.get(o)
            if known is None or known[0] != counts or known[1] != melds:
                # a seat's hand changes once a turn; the three others are asked at each discard
                known = memo[o] = (counts, melds, kinds_of(view.waits(replay, counts, melds)))
            out[o] = known[2]
        return out

    # --- the listeners -------------------------------------------------------------------------
    def on_discard(self, ev: Event, inner: Callable[[Event], None]) -> None:
        seat, tile = ev.seat, ev.tile
        row = None
        if seat is not None and tile is not None and 0 <= seat < 4:
            row = self.judge_discard(ev.seq, seat, int(tile))
        inner(ev)
        self.last_discard = row
        if row is not None:
            self.judge_responses(ev.seq, seat, int(tile))  # type: ignore[arg-type]

    def judge_discard(self, seq: int, seat: int, tile: int) -> _Row:
        row = _Row(seq, seat, "discard")
        self.rows.append(row)
        state, view, replay = self.state, self.view, self.replay
        others = self.waits_of_others(seat)
        self.others = others
        if others is not None:
            row.danger = sum(1 for w in others.values() if tile in w)
        counts = self.counts(seat)
        if not self.playing(seat, 1) or not counts[tile] or not view.ready(replay):
            return row  # not a hand that can be judged (the audit reports why)
        groups = self.groups(seat)
        # a self-drawn tile that completes a legal hand worth the minimum, discarded instead
        drawn = state.drawn if state.phase is Phase.DISCARD and state.actor == seat else None
        if drawn is not None and view.legal_win(replay, seat, int(drawn), True, None):
            row.flags.add("missed_win")
        allowed = [t for t in range(34) if counts[t] and view.may_discard(replay, seat, t)]
        if tile not in allowed:
            allowed.append(tile)
        shanten = view.discard_shanten(replay, counts, groups, allowed)
        best = min(shanten.values())
        unseen = self.unseen(seat)
        candidates = [t for t in allowed if shanten[t] == best]
        if view.useful_after is not None:
            masks = view.useful_after(replay, counts, groups, candidates)
            kinds_after = {t: kinds_of(mask) for t, mask in masks.items()}
        else:
            kinds_after = {
                t: kinds_of(view.useful(replay, (*counts[:t], counts[t] - 1, *counts[t + 1 :]), groups))
                for t in candidates
            }
        useful = {t: sum(unseen[k] for k in kinds_after[t]) for t in candidates}
        most = max(useful.values())
        row.before, row.after = best, shanten[tile]
        row.best = most
        # a discard that gives up shanten keeps no tile that takes the hand below ``best``
        row.kept = useful.get(tile, 0)
        row.names = " ".join(ALL_KINDS[t].botzone for t in sorted(useful) if useful[t] == most)
        if shanten[tile] > best:
            row.flags.update(("shanten_loss", "inefficient"))
        elif best == 0 and row.kept < most:
            # waiting: the useful tiles are the winning tiles, and keeping the most of them is
            # exact; further away the one-step count is reported (useful_kept/useful_best) but
            # not flagged, as it says nothing of the shape the next tiles make (docs/decisions.md)
            row.flags.add("inefficient")
        if others is not None:
            danger = frozenset().union(*others.values())
            row.safe = any(t not in danger for t in useful)
        return row

    def judge_responses(self, seq: int, discarder: int, tile: int) -> None:
        """The other seats' answers to a discard: a win or claim passed, a claim over a win."""
        answered = self.responses.get(seq, {})
        won = EventKind.HU in answered.values()
        view, replay, state = self.view, self.replay, self.state
        self.claim_missed = {}
        last = state.wall.remaining((discarder + 1) % 4) == 0
        for o in range(4):
            if o == discarder or answered.get(o) is EventKind.HU or not self.playing(o):
                continue
            # the shape first (the waits were just computed): most hands wait on nothing
            waits = self.others.get(o) if self.others is not None else None
            can_win = (waits is None or tile in waits) and view.legal_win(replay, o, tile, False, discarder)
            if answered.get(o) in _CLAIMS:
                self.claim_missed[o] = can_win
                continue
            if won or o in answered:
                continue  # another seat won on it, or this one tried a claim that lost
            if can_win:
                row = self.pass_row(seq, o, "pass_win")
                row.flags.add("missed_win")
            elif not answered and not last and self.could_claim(o, discarder, tile):
                self.pass_row(seq, o, "pass_claim")

    def could_claim(self, seat: int, discarder: int, tile: int) -> bool:
        """Whether ``seat`` could pung, kong or (next seat, suited) chow ``tile``."""
        if not self.view.may_claim(self.replay, tile):
            return False
        held = self.state.seats[seat].concealed
        if held[tile] >= 2:
            return True
        if seat != (discarder + 1) % 4 or tile >= 27:
            return False
        rank = tile % 9
        return any(
            rank + a >= 0 and rank + b <= 8 and held[tile + a] and held[tile + b]
            for a, b in ((-2, -1), (-1, 1), (1, 2))
        )

    def pass_row(self, seq: int, seat: int, kind: str) -> _Row:
        row = _Row(seq, seat, kind)
        s = self.shanten(self.counts(seat), self.groups(seat))
        row.before = row.after = s  # a pass leaves the hand as it was
        self.rows.append(row)
        return row

    def on_claim(self, ev: Event, inner: Callable[[Event], None]) -> None:
        seat = ev.seat
        judged = seat is not None and 0 <= seat < 4 and self.playing(seat)
        before = self.shanten(self.counts(seat), self.groups(seat)) if judged else None  # type: ignore[arg-type]
        inner(ev)
        if seat is None or not 0 <= seat < 4:
            return
        row = _Row(ev.seq, seat, "claim")
        self.rows.append(row)
        if before is None:
            return
        counts, groups = self.counts(seat), self.groups(seat)
        if ev.kind is EventKind.GANG:
            after = self.shanten(counts, groups) if self.playing(seat) else None
        else:
            after = self.best_after_discard(counts, groups) if self.playing(seat, 1) else None
        row.before, row.after = before, after
        if after is not None and after >= before:
            row.flags.add("call_worse")
        if self.claim_missed.get(seat):
            row.flags.add("missed_win")

    def on_hu(self, ev: Event, inner: Callable[[Event], None]) -> None:
        state, row = self.state, self.last_discard
        if (
            row is not None
            and state.phase in (Phase.CLAIM, Phase.ENDED)
            and state.actor == row.seat
            and ev.seat != row.seat
            and state.last_tile is not None
            and ev.win is None  # 抢金, 三金倒, 天和 take no one's discard
        ):
            row.flags.add("deal_in")
            if row.safe:
                row.flags.add("unsafe")
        inner(ev)

    def result(self) -> list[Decision]:
        return [row.freeze(self.hand) for row in self.rows]


def oracle_decisions(hand: Hand, view: RulesetView, profile: ReplayProfile | None = None) -> list[Decision]:
    """Every decision of ``hand`` judged (empty for a ruleset not judged yet or a hand no
    replay profile covers). ``profile`` forces a replay profile (default: the hand's own)."""
    try:
        chosen = profile or profile_for(hand)
    except ProfileError:
        return []
    replay = (chosen.replay_class or HandReplay)(hand, chosen, False)
    judge = _Judge(hand, replay, view)
    replay.run()
    return judge.result()
