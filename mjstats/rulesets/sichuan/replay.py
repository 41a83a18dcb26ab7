"""Replay and audit of Sichuan 血战到底 hands (reference sichuan.md §2, §4, §7).

:class:`SichuanReplay` walks a canonical Sichuan hand (deal, 换三张, 定缺, play going on after
each win until three have won or the wall runs out, 查叫 at the end) through its own turn state,
reports every broken rule under a ``sichuan.*`` code (checks.py), infers the passes a record does
not show (pass lock, last four), then settles the hand with :func:`settle_hand` and compares every
recorded win and payment with the recomputed ones. Registered for the ``sichuan`` ruleset under
the ``seed`` and ``platform`` profiles; :func:`sichuan_profile` makes one for a user TOML.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar, NoReturn

from mypy_extensions import mypyc_attr

import mjstats.rulesets.sichuan.checks  # noqa: F401  (adds the sichuan.* codes to the catalogue)
from mjstats.errors import InvalidHand, MjstatsError
from mjstats.records import Event, EventKind, Hand, WinKind
from mjstats.replay.findings import Finding, Severity
from mjstats.replay.profile import (
    ComputedWin,
    Meld,
    ReplayProfile,
    SequenceCheck,
    SharedWall,
    Wall,
    WinContext,
)
from mjstats.replay.replayer import HandReplay, ReplayResult, register_profile
from mjstats.replay.state import TurnState
from mjstats.rulesets.sichuan.dealer import next_dealer_of
from mjstats.rulesets.sichuan.fan import WinContext as FanContext
from mjstats.rulesets.sichuan.fan import score_win
from mjstats.rulesets.sichuan.money_audit import MoneyAudit, SettlementEvent
from mjstats.rulesets.sichuan.profiles import Profile, load_profile
from mjstats.rulesets.sichuan.settle import (
    HandEnd,
    Kong,
    PlayerHand,
    Turn,
    Winner,
)
from mjstats.rulesets.sichuan.settle import Win as WinEvent
from mjstats.rulesets.sichuan.tiles import tiles_of
from mjstats.rulesets.sichuan.win import waits_by_key, waits_from_counts
from mjstats.tiles import ALL_KINDS, SUITED, Tile

__all__ = ["SichuanReplay", "SichuanReplayProfile", "SichuanSequence", "next_dealer_of", "sichuan_profile"]


DEALER_TILES, OTHER_TILES = 14, 13  # reference §1.3
WALL_TILES = 108 - 53  # reference §1.2: 55 drawable tiles, no dead wall
_FULL_SET = tuple(t for t in range(27) for _ in range(4))  # reference §1.1
_DIRECTIONS = {"next": 1, "opposite": 2, "prev": 3}  # (receiver - giver) % 4
_NO_WAITS: frozenset[Tile] = frozenset()
# event kinds bound once: the replay loop tests them on every event
_VOID, _CHI, _PENG, _GANG = EventKind.VOID, EventKind.CHI, EventKind.PENG, EventKind.GANG
_HU, _DRAW, _HUANG, _DISCARD = EventKind.HU, EventKind.DRAW, EventKind.HUANG, EventKind.DISCARD
_TURNS = tuple(Turn(seat) for seat in range(4))  # frozen settlement events: one per seat serves
_BEFORE_PLAY = frozenset({EventKind.DEAL, EventKind.EXCHANGE, EventKind.VOID})
_NEXT = (1, 2, 3, 0)  # the seat after each
_KIND_NAMES = {kind: kind.value for kind in EventKind}
# each kind's slice of its suit within two ranks (the tiles _near looks at)
_WINDOW = tuple((t - min(t % 9, 2), t + min(8 - t % 9, 2) + 1) for t in range(27))
_SEATS = frozenset(range(4))  # (None and anything else is not in them)
_SUITED_KINDS = frozenset(range(27))
_OTHERS = tuple(tuple((start + i) % 4 for i in range(1, 4)) for start in range(4))  # turn order after start


def _near(counts: list[int], tile: int) -> bool:
    """Whether ``tile`` touches the hand: held already (a pair, a pong, 七对) or within two ranks
    of a held tile of its suit (a sequence). A tile that touches nothing completes no hand, so
    the waits need not be worked out for it."""
    if counts[tile]:
        return True
    r = tile % 9
    lo, hi = tile - min(r, 2), tile + min(8 - r, 2)
    return any(counts[lo : hi + 1])


def _t(tile: int | None) -> str:
    return "-" if tile is None else ALL_KINDS[tile].botzone


def _suit(tile: int) -> int:
    return tile // 9


class _Stop(Exception):
    """No meaningful state is left to replay from."""


@dataclass(slots=True)
class _Seat:
    """One player's state during the replay."""

    counts: list[int] = field(default_factory=lambda: [0] * 27)
    melds: list[tuple[str, int, int]] = field(default_factory=list)  # (PENG|GANG, tile, offer)
    void: int | None = None
    won: bool = False
    locked: set[int] = field(default_factory=set)  # same_tile: kinds passed since the last draw
    threshold: int = -1  # any_tile(_unless_higher): the largest fan passed (-1: no lock)
    discards: int = 0
    waits: frozenset[Tile] | None = None  # cached 13-tile waits (None: to compute)

    def size(self) -> int:
        return sum(self.counts) + 3 * len(self.melds)

    def holds_void(self) -> bool:
        v = self.void
        return v is not None and any(self.counts[9 * v : 9 * v + 9])

    def tiles(self) -> tuple[Tile, ...]:
        return tiles_of(self.counts)


class SichuanReplay(MoneyAudit):
    """The replay of one Sichuan hand under one rule profile (``profile.rules``)."""

    def __init__(self, hand: Hand, profile: ReplayProfile, explain: bool) -> None:
        super().__init__(hand, profile, explain)
        assert isinstance(profile, SichuanReplayProfile)
        self.rules = profile.rules
        self.p = [_Seat() for _ in range(4)]
        self.seen = [0] * 27
        self.dealt = [False] * 4
        self.exchanged: dict[int, tuple[tuple[int, ...], int | None]] = {}
        self.voided = [False] * 4
        self.stage = "deal"  # deal, exchange, void, play, ended
        self.mode = "turn"  # turn (actor holds 14), draw, kong, claim, rob
        self.actor = hand.dealer
        self.tile: int | None = None  # claim/rob window: the tile; turn: the tile just drawn
        self.pong_turn = False
        self.kong_turn = False  # the actor konged since its turn began
        self.replacement = False  # the actor's last tile was a replacement draw
        self.discard_after_kong = False  # the discard in the claim window ended a kong turn
        self.first_turn = True  # the dealer's opening turn (天胡)
        self.clean_round = True  # no pong or kong yet (地胡)
        self.left = WALL_TILES if hand.wall is None else len(hand.wall) - 53
        self.wall_pos = 53  # recorded wall: next tile from the head
        if hand.wall is not None and sorted(hand.wall) != list(_FULL_SET):
            self.report(
                "sichuan.wall", "the recorded wall is not the 108 tiles, 4 of each kind", 108, len(hand.wall)
            )
        self.wall_tail = len(hand.wall) if hand.wall is not None else 0
        self.last_drawer: int | None = None
        self.last_four = False
        self.last_tile_discard = False  # the discard in the claim window came after the last draw
        self.window_hus: list[tuple[int, Event]] = []  # the wins declared in the current window
        self.winners: list[int] = []
        # The settlement events, each with its index in the hand's sequence of them: a Turn that
        # changes nothing (its seat made no kong since its last Turn) is only counted, not listed.
        self.events = []
        self.event_index = []
        self.event_count = 0
        self.konged = [False, False, False, False]  # a Kong by the seat since its last Turn
        self.win_events = []  # (index, event) of the wins
        self.win_seqs = []  # seq of each computed win, settlement order
        self.pending_added: tuple[int, int, bool] | None = None  # (seat, tile, late) in a rob window
        self.contexts: list[tuple[WinContext, FanContext]] = []
        # rule switches and the wall read on every draw and discard, bound once
        self.wall = hand.wall
        self.void_strict = self.rules.deal.void_discard == "strict"
        self.last_four_must_win = self.rules.play.last_four_must_win
        # one handler per event kind, as the shared replayer's: a listener (the decision judge)
        # may wrap any of them before ``run``
        self.handlers = {
            EventKind.DEAL: self.on_deal,
            EventKind.EXCHANGE: self.on_exchange,
            EventKind.VOID: self.on_void,
            EventKind.DRAW: self.on_draw,
            EventKind.DISCARD: self.on_discard,
            EventKind.PENG: self.on_claim,
            EventKind.GANG: self.on_claim,
            EventKind.ANGANG: self.on_concealed_kong,
            EventKind.BUGANG: self.on_added_kong,
            EventKind.HU: self.on_hu,
            EventKind.HUANG: self.on_huang,
        }

    # --- small helpers -------------------------------------------------------------------------
    def next_active(self, seat: int) -> int:
        for i in range(1, 5):
            s = (seat + i) % 4
            if not self.p[s].won:
                return s
        return seat

    def waits(self, seat: int) -> frozenset[Tile]:
        """The 13-tile waits of ``seat`` (cached until its concealed tiles change)."""
        p = self.p[seat]
        found = p.waits
        if found is None:
            counts, melds, void = p.counts, p.melds, p.void
            if void is not None and any(counts[9 * void : 9 * void + 9]):
                found = _NO_WAITS  # reference §2.3: no win while holding the void suit
            elif sum(counts) != 13 - 3 * len(melds):
                found = _NO_WAITS  # not a waiting size (the size is reported where it matters)
            else:
                try:
                    key: bytes | tuple[int, ...] = bytes(counts)  # hashed once, compared in C
                except ValueError:  # a count below 0 after a broken record: the tuple key
                    key = tuple(counts)
                if melds:
                    held = list(counts)
                    for kind, tile, _ in melds:
                        held[tile] += 4 if kind == "GANG" else 3
                    found = waits_by_key(key, tuple(held), True, void)
                else:
                    found = waits_by_key(key, key, False, void)
            p.waits = found
        return found

    def add_event(self, ev: SettlementEvent) -> None:
        """The next settlement event."""
        self.event_index.append(self.event_count)
        self.events.append(ev)
        self.event_count += 1

    def add_turn(self, seat: int) -> None:
        """``seat`` begins a turn: a Turn event, listed only when it ends the turn of a kong."""
        if self.konged[seat]:
            self.konged[seat] = False
            self.event_index.append(self.event_count)
            self.events.append(_TURNS[seat])
        self.event_count += 1

    def add_kong(self, ev: Kong) -> None:
        self.konged[ev.seat] = True
        self.add_event(ev)

    def add_win(self, ev: WinEvent) -> None:
        """A win's settlement event, also listed with its index (for the money audit)."""
        self.win_events.append((self.event_count, ev))
        self.add_event(ev)

    def changed(self, seat: int) -> None:
        self.p[seat].waits = None

    def give(self, seat: int, tile: int) -> None:
        self.p[seat].counts[tile] += 1
        self.changed(seat)

    def take(self, seat: int, tile: int, n: int, code: str, what: str) -> int:  # type: ignore[override]
        counts = self.p[seat].counts
        have = counts[tile]
        if have < n:
            self.report(
                code,
                f"seat {seat} {what} {_t(tile)} holding {have} of {n}",
                f"{n}x{_t(tile)}",
                f"{have}x{_t(tile)}",
            )
            n = have
        counts[tile] -= n
        self.changed(seat)
        return n

    def enter(self, seat: int, tile: int) -> bool:
        """A tile leaves the wall into a hand: suited, no fifth copy."""
        if tile >= 27:
            self.report(
                "sichuan.tiles",
                f"seat {seat} gets {_t(tile)}: Sichuan has suited tiles only",
                "W/T/B",
                _t(tile),
            )
            return False
        seen = self.seen
        seen[tile] += 1
        if seen[tile] > 4:
            self.report(
                "sichuan.tiles",
                f"copy {self.seen[tile]} of {_t(tile)} enters play",
                "at most 4",
                self.seen[tile],
            )
        p = self.p[seat]  # give(), inlined: every tile dealt and drawn comes here
        p.counts[tile] += 1
        p.waits = None
        return True

    def could_win(self, seat: int, tile: int) -> bool:
        """``seat`` could legally declare hu on another's ``tile`` (void and lock respected)."""
        p = self.p[seat]
        if p.won or tile // 9 == p.void:
            return False
        counts = p.counts
        if not counts[tile]:  # _near, inlined: the hot path of every claim window
            r = tile % 9
            if not any(counts[tile - min(r, 2) : tile + min(8 - r, 2) + 1]):
                return False
        waits = p.waits if p.waits is not None else self.waits(seat)
        if tile not in waits:
            return False
        return not self.locked_out(seat, tile)

    def locked_out(self, seat: int, tile: int) -> bool:
        p = self.p[seat]
        lock = self.rules.play.pass_hu_lock
        if lock == "same_tile":
            return tile in p.locked
        if lock == "any_tile":
            return p.threshold >= 0
        if lock == "any_tile_unless_higher":
            return p.threshold >= 0 and self.plain_fan(seat, tile) <= p.threshold
        return False

    def plain_fan(self, seat: int, tile: int) -> int:
        """The fan of a win on ``tile`` without situational extras (reference §2.11)."""
        p = self.p[seat]
        try:
            return score_win(
                p.tiles(), p.melds, SUITED[tile], FanContext(), void=p.void, profile=self.rules
            ).fan
        except MjstatsError:
            return -1

    def passed(self, seat: int, tile: int) -> None:
        """``seat`` could win on ``tile`` and did not: the last-four rule, else the pass lock."""
        p = self.p[seat]
        if self.last_four and self.rules.play.last_four_must_win:
            self.report(
                "sichuan.last_four",
                f"seat {seat} passes a win on {_t(tile)} in the last four tiles",
                f"seat {seat} hu",
                "pass",
            )
            return
        lock = self.rules.play.pass_hu_lock
        if lock == "same_tile":
            p.locked.add(tile)
        elif lock in ("any_tile", "any_tile_unless_higher"):
            p.threshold = max(p.threshold, self.plain_fan(seat, tile), 0)

    def release(self, seat: int) -> None:
        p = self.p[seat]
        if p.locked:
            p.locked.clear()
        p.threshold = -1

    def meld_list(self, seat: int) -> tuple[tuple[str, Tile, int], ...]:
        return tuple((k, SUITED[t], o) for k, t, o in self.p[seat].melds)

    # --- driver --------------------------------------------------------------------------------
    def run(self) -> ReplayResult:
        stopped = False
        turns = self.turns
        handlers = self.handlers
        events = self.hand.events
        n, i = len(events), 0
        # --explain snapshots every event, and a listener that wrapped the draw or discard
        # handler (the decision judge) must hear each one: no plain run then
        plain = (
            turns is None
            and handlers[_DISCARD] == self.on_discard  # (bound methods: equal, never identical)
            and handlers[_DRAW] == self.on_draw
        )
        try:
            while i < n:
                if plain and self.stage == "play" and not self.window_hus:
                    i = self.run_plain(events, i)
                    if i == n:
                        break
                ev = events[i]
                i += 1
                self.seq = ev.seq
                kind, seat, tile = ev.kind, ev.seat, ev.tile
                if seat is not None and not 0 <= seat < 4:
                    self.stop(f"seat {seat} out of range")
                if self.stage == "ended":
                    self.report(
                        "sichuan.hand_end", "event after the end of the hand", "nothing", kind.value
                    )
                    self.stop("the hand had already ended")
                if tile is not None and tile >= 27 and kind is not _VOID:
                    self.report(
                        "sichuan.tiles",
                        f"{kind.value} of {_t(tile)}: Sichuan has suited tiles only",
                        "W/T/B",
                        _t(tile),
                    )
                    self.stop("a tile outside the Sichuan set")
                if kind is _CHI:
                    self.report("sichuan.no_chow", f"seat {seat} chows", "pong, kong or pass", "chi")
                    self.stop("a chow has no Sichuan meaning")
                handler = handlers.get(kind)
                if handler is None:
                    self.stop(f"{kind.value} events are not part of the Sichuan rules")
                if self.stage != "play" and kind not in _BEFORE_PLAY:
                    self.start_play()
                if self.window_hus:
                    if kind is _PENG or kind is _GANG:
                        self.report(
                            "sichuan.claim_priority",
                            f"seat {seat}'s {kind.value} on a discard won by another",
                            "no claim after a hu",
                            kind.value,
                        )
                        self.stop("a claim on a tile already won")
                    if kind is not _HU:
                        self.close_wins()
                if self.mode == "kong" and kind is not _DRAW and kind is not _HUANG:
                    self.report(
                        "sichuan.kong_wall",
                        f"seat {self.actor}'s kong has no replacement draw",
                        f"seat {self.actor} draws",
                        kind.value,
                    )
                    self.mode, self.tile, self.replacement = "turn", None, True
                handler(ev)
                if turns is not None:
                    turns.append(self.snapshot(ev))
            self.seq = None
            if self.window_hus:
                self.close_wins()
            if self.stage != "ended":
                self.report(
                    "sichuan.hand_end",
                    "the record ends before the third win or the wall's end",
                    "third win or huang",
                    "end",
                )
            self.settle()
        except _Stop:
            stopped = True
        first = self.more_wins[0] if self.more_wins else None
        return ReplayResult(
            match_id=self.hand.match_id,
            hand_no=self.hand.hand_no,
            profile=self.profile.name,
            findings=tuple(self.findings),
            stopped=stopped,
            context=first[1] if first else None,
            win=first[2] if first else None,
            turns=tuple(self.turns) if self.turns is not None else (),
            more_wins=tuple(self.more_wins[1:]),
        )

    def run_plain(self, events: Sequence[Event], i: int) -> int:
        """Replay the plain draws and discards from ``events[i]`` on, the state held in locals;
        returns the index of the first event that is not plain, for the full handlers.

        Plain: a draw by the seat whose turn it is, of the wall's next tile, after a discard
        nobody could win on (no pass to infer), or a discard by the seat holding 14 tiles with
        no last-four or void-suit question. Such an event raises no finding, so this loop does
        exactly what on_draw / close_window / on_discard do for it, with fewer steps; anything
        else (and any doubt) goes to those handlers, with the state written back first.
        """
        n = len(events)
        seats, seen, wall, konged = self.p, self.seen, self.wall, self.konged
        event_count = self.event_count
        mode, actor, current = self.mode, self.actor, self.tile
        left, wall_pos, wall_tail = self.left, self.wall_pos, self.wall_tail
        kong_turn, pong_turn, first_turn = self.kong_turn, self.pong_turn, self.first_turn
        replacement, last_four, last_drawer = self.replacement, self.last_four, self.last_drawer
        discard_after_kong = self.discard_after_kong
        last_tile_discard = self.last_tile_discard
        four_rule, strict = self.last_four_must_win, self.void_strict
        # the seat and tile of the draw just replayed here, with the seat's waits before it: a
        # discard of that tile right after restores the same 13 tiles, so the same waits
        drawn_seat, drawn_tile, drawn_waits = -1, -1, None
        while i < n:
            ev = events[i]
            kind, seat, tile = ev.kind, ev.seat, ev.tile
            if seat not in _SEATS or tile not in _SUITED_KINDS:
                break
            if kind is _DISCARD:
                if mode != "turn" or actor != seat or (last_four and four_rule):
                    break
                p = seats[seat]
                counts = p.counts
                if p.won or not counts[tile] or sum(counts) + 3 * len(p.melds) != 14:
                    break
                void = p.void
                if strict and void is not None and tile // 9 != void and any(counts[9 * void : 9 * void + 9]):
                    break
                counts[tile] -= 1
                p.waits = drawn_waits if seat == drawn_seat and tile == drawn_tile else None
                drawn_seat = -1
                p.discards += 1
                discard_after_kong = kong_turn
                last_tile_discard = left == 0 and last_drawer == seat and not pong_turn
                mode, actor, current, pong_turn = "claim", seat, tile, False
            elif kind is _DRAW:
                if ev.tail:
                    break
                if mode == "claim":
                    # close_window(None) with no pass to infer: nobody could win on the discard
                    assert current is not None  # a claim window is on a discarded tile
                    wanted = False
                    lo, hi = _WINDOW[current]
                    for other in _OTHERS[actor]:
                        q = seats[other]
                        if q.won:
                            continue
                        waits = q.waits
                        if waits is None:
                            counts = q.counts  # _near(counts, current), inlined
                            if current // 9 == q.void or not (counts[current] or any(counts[lo:hi])):
                                continue
                            waits = self.waits(other)
                        if current in waits:
                            wanted = True
                            break
                    if wanted:
                        break
                    following = _NEXT[actor]
                    mode, actor = "draw", following if not seats[following].won else self.next_active(actor)
                elif mode != "draw":
                    break
                p = seats[seat]
                if seat != actor or p.won or left <= 0 or seen[tile] >= 4:
                    break
                if wall is not None:
                    if wall_pos >= wall_tail or wall[wall_pos] != tile:
                        break
                    wall_pos += 1
                left -= 1
                if left < 4:
                    if left == 3:
                        last_four = True  # reference §2.12: the wall goes from 4 to 3
                    elif left == 0:
                        last_drawer = seat
                seen[tile] += 1
                p.counts[tile] += 1
                drawn_seat, drawn_tile, drawn_waits = seat, tile, p.waits
                p.waits = None
                if p.locked:  # reference §2.11: the lock ends at the player's own draw
                    p.locked.clear()
                p.threshold = -1
                first_turn = kong_turn = pong_turn = replacement = False
                if konged[seat]:  # add_turn(seat), inlined
                    konged[seat] = False
                    self.event_index.append(event_count)
                    self.events.append(_TURNS[seat])
                event_count += 1
                mode, actor, current = "turn", seat, tile
            else:
                break
            i += 1
        self.mode, self.actor, self.tile = mode, actor, current
        self.left, self.wall_pos, self.wall_tail = left, wall_pos, wall_tail
        self.kong_turn, self.pong_turn, self.first_turn = kong_turn, pong_turn, first_turn
        self.replacement, self.last_four, self.last_drawer = replacement, last_four, last_drawer
        self.discard_after_kong, self.last_tile_discard = discard_after_kong, last_tile_discard
        self.event_count = event_count
        return i

    def stop(self, why: str) -> NoReturn:
        self.report("replay.stopped", f"replay stopped: {why}")
        raise _Stop

    def snapshot(self, ev: Event) -> TurnState:
        """The table after ``ev`` for --explain."""
        melds = tuple(tuple(Meld(k, t, o) for k, t, o in p.melds) for p in self.p)
        concealed = tuple(tuple(int(t) for t in p.tiles()) for p in self.p)
        rivers: tuple[tuple[tuple[int, bool], ...], ...] = ((), (), (), ())
        wall = f"wall left {self.left}" + (" (last four)" if self.last_four else "")
        won = " ".join(str(s) for s in self.winners)
        text = f"{ev.kind.value} s{ev.seat} {_t(ev.tile)}" + (f" [won: {won}]" if won else "")
        before_play = ev.kind in (EventKind.DEAL, EventKind.EXCHANGE, EventKind.VOID)
        actor = ev.seat if before_play else self.actor
        return TurnState(ev.seq, text, self.mode, actor, concealed, melds, rivers, wall)

    # --- before play ---------------------------------------------------------------------------
    def on_deal(self, ev: Event) -> None:
        seat = ev.seat
        if seat is None:
            self.stop("a deal without a seat")
        if self.stage != "deal" or self.dealt[seat]:
            self.report(
                "sichuan.deal", f"seat {seat} is dealt again or after the deal", "one deal", "another"
            )
            self.stop("a second deal")
        self.dealt[seat] = True
        want = DEALER_TILES if seat == self.hand.dealer else OTHER_TILES
        if len(ev.tiles) != want:
            self.report("sichuan.deal", f"seat {seat} is dealt {len(ev.tiles)} tiles", want, len(ev.tiles))
        wall = self.hand.wall
        if wall is not None:
            # docs/format.md §5.1: the deal takes the wall's first 53 tiles, seat 0 first
            start = sum(DEALER_TILES if s == self.hand.dealer else OTHER_TILES for s in range(seat))
            part = wall[start : start + len(ev.tiles)]
            if sorted(part) != sorted(ev.tiles):
                self.report(
                    "sichuan.wall",
                    f"seat {seat}'s deal is not the wall's tiles {start}..",
                    "the wall's",
                    "other tiles",
                )
        seen, counts = self.seen, self.p[seat].counts
        for tile in ev.tiles:  # enter(seat, tile) for each, inlined
            if tile >= 27 or seen[tile] >= 4:
                self.enter(seat, tile)  # reports
                continue
            seen[tile] += 1
            counts[tile] += 1
        self.p[seat].waits = None

    def end_deal(self) -> None:
        if self.stage == "deal":
            missing = [s for s in range(4) if not self.dealt[s]]
            if missing:
                self.report("sichuan.deal", f"seats {missing} were never dealt", "4 deals", 4 - len(missing))
                self.stop("a seat has no tiles")
            self.stage = "exchange"

    def on_exchange(self, ev: Event) -> None:
        self.end_deal()
        seat = ev.seat
        if seat is None or self.stage != "exchange" or seat in self.exchanged:
            self.report(
                "sichuan.exchange",
                f"exchange by seat {seat} out of place",
                "one per seat before 定缺",
                "exchange",
            )
            return
        if not self.rules.deal.exchange_three:
            self.report(
                "sichuan.exchange",
                f"seat {seat} exchanges under profile {self.rules.name}",
                "no 换三张",
                "exchange",
            )
        given = tuple(ev.tiles)
        if len(given) != 3 or len({_suit(t) for t in given}) != 1 or any(t >= 27 for t in given):
            self.report(
                "sichuan.exchange",
                f"seat {seat} gives {' '.join(map(_t, given))}",
                "3 tiles of one suit",
                len(given),
            )
        for t in given:
            if t < 27:
                self.take(seat, t, 1, "sichuan.exchange", "gives")
        self.exchanged[seat] = (given, ev.from_seat)
        if len(self.exchanged) == 4:
            self.finish_exchange()

    def finish_exchange(self) -> None:
        steps = {(s - f) % 4 for s, (_, f) in self.exchanged.items() if f is not None}
        fixed = _DIRECTIONS.get(self.rules.deal.exchange_direction)
        if (
            any(f is None for _, f in self.exchanged.values())
            or len(steps) != 1
            or 0 in steps
            or (fixed is not None and steps != {fixed})
        ):
            self.report(
                "sichuan.exchange",
                "the four exchanges do not follow one direction",
                self.rules.deal.exchange_direction,
                sorted(steps),
            )
        for s, (_, f) in self.exchanged.items():
            if f is not None and f in self.exchanged:
                for t in self.exchanged[f][0]:
                    if t < 27:
                        self.give(s, t)
        self.stage = "void"

    def on_void(self, ev: Event) -> None:
        self.end_deal()
        if self.stage == "exchange":
            if self.exchanged:
                self.report(
                    "sichuan.exchange", "定缺 before every seat exchanged", "4 exchanges", len(self.exchanged)
                )
                self.finish_exchange()
            elif self.rules.deal.exchange_three:
                self.report("sichuan.exchange", "no 换三张 under a profile that plays it", "4 exchanges", 0)
            self.stage = "void"
        seat, tile = ev.seat, ev.tile
        if seat is None or tile is None or tile >= 27:
            self.report(
                "sichuan.void_declared",
                f"a void declaration names no suit ({_t(tile)})",
                "W, T or B",
                _t(tile),
            )
            return
        if self.stage != "void" or self.voided[seat]:
            self.report(
                "sichuan.void_declared",
                f"seat {seat} declares a void again or during play",
                "one declaration before play",
                "again",
            )
            return
        if not self.rules.deal.declare_void:
            self.report(
                "sichuan.void_declared",
                f"seat {seat} declares a void under profile {self.rules.name}",
                "no 定缺",
                "void",
            )
        self.voided[seat] = True
        self.p[seat].void = _suit(tile)
        self.changed(seat)

    def start_play(self) -> None:
        self.end_deal()
        if self.stage == "exchange":
            if self.exchanged:
                self.finish_exchange()
            elif self.rules.deal.exchange_three:
                self.report("sichuan.exchange", "no 换三张 under a profile that plays it", "4 exchanges", 0)
        if self.rules.deal.declare_void and not all(self.voided):
            missing = [s for s in range(4) if not self.voided[s]]
            self.report(
                "sichuan.void_declared",
                f"seats {missing} declared no void suit before play",
                "4 declarations",
                4 - len(missing),
            )
        self.stage = "play"
        self.mode, self.actor, self.tile = "turn", self.hand.dealer, None

    # --- play ----------------------------------------------------------------------------------
    def expect_turn(self, seat: int, what: str) -> bool:
        """``seat`` holds the turn (14 tiles); report and adopt the record otherwise."""
        if self.p[seat].won:
            self.report("sichuan.winner_acts", f"seat {seat} {what} after winning", "no action", what)
        if self.mode == "turn" and self.actor == seat:
            return True
        self.report(
            "sichuan.turn",
            f"seat {seat} {what} out of turn ({self.mode} of seat {self.actor})",
            f"seat {self.actor} {self.mode}",
            f"seat {seat} {what}",
        )
        if self.mode == "claim":
            self.close_window(None)
        self.mode, self.actor, self.pong_turn = "turn", seat, False
        return False

    def check_size(self, seat: int, expected: int, when: str) -> bool:  # type: ignore[override]
        size = self.p[seat].size()
        if size != expected:
            self.report("sichuan.hand_size", f"seat {seat} holds {size} tiles when it {when}", expected, size)
            return False
        return True

    def on_draw(self, ev: Event) -> None:
        # The commonest event with on_discard: the helpers (enter, release, the wall check)
        # are inlined; the findings and their order are those of the helpers.
        seat, tile = ev.seat, ev.tile
        if seat is None or tile is None:
            self.stop("a draw without a seat or tile")
        mode = self.mode
        replacement = False
        if mode == "claim":
            expected = self.close_window(None)
        elif mode == "draw":
            expected = self.actor
        elif mode == "kong":
            expected = self.actor
            replacement = True
        elif mode == "rob":
            self.complete_added_kong()
            expected, replacement = self.actor, True
        elif self.pong_turn and seat == self.actor:
            expected = None
            self.report("sichuan.pong_discard", f"seat {seat} draws after its pong", "a discard", "draw")
        else:
            expected = None
            self.report(
                "sichuan.turn",
                f"seat {seat} draws while seat {self.actor} owes a discard",
                f"seat {self.actor} discards",
                f"seat {seat} draws",
            )
        if expected is not None and seat != expected:
            self.report("sichuan.turn", f"seat {seat} draws out of turn", f"seat {expected}", f"seat {seat}")
        p = self.p[seat]
        if p.won:
            self.report("sichuan.winner_acts", f"seat {seat} draws after winning", "no draw", "draw")
        if ev.tail != replacement:
            self.report(
                "sichuan.wall",
                f"seat {seat}'s draw is {'not ' if replacement else ''}a kong replacement",
                "replacement" if replacement else "normal",
                "replacement" if ev.tail else "normal",
            )
        if self.wall is not None:
            self.check_wall_tile(seat, tile, replacement)
        left = self.left
        if left <= 0:
            self.report("sichuan.wall", f"seat {seat} draws from an empty wall", "no draw", "draw")
        left -= 1
        self.left = left
        if left == 3:
            self.last_four = True  # reference §2.12: the wall goes from 4 to 3
        if left == 0:
            self.last_drawer = seat
        self.enter(seat, tile)
        # release(seat), inlined: reference §2.11, the lock ends at the player's own draw
        if p.locked:
            p.locked.clear()
        p.threshold = -1
        self.first_turn = False
        if not replacement:
            self.kong_turn = False
            self.add_turn(seat)
        self.mode, self.actor, self.tile = "turn", seat, tile
        self.pong_turn, self.replacement = False, replacement

    def check_wall_tile(self, seat: int, tile: int, replacement: bool) -> None:
        """With a recorded wall: the draw takes its next tile (replacements per profile)."""
        wall = self.wall
        if wall is None:
            return
        from_tail = replacement and self.rules.deal.kong_replacement_from == "tail"
        if self.wall_pos >= self.wall_tail:
            return  # an empty wall: reported by the caller
        if from_tail:
            self.wall_tail -= 1
            expected = wall[self.wall_tail]
        else:
            expected = wall[self.wall_pos]
            self.wall_pos += 1
        if expected != tile:
            self.report(
                "sichuan.wall",
                f"seat {seat} draws {_t(tile)}, the wall's next tile is {_t(expected)}",
                _t(expected),
                _t(tile),
            )

    def must_take_self_draw(self, seat: int, what: str) -> None:
        """Last four: a self-draw win may not be declined (reference §2.12)."""
        if not (self.last_four and self.rules.play.last_four_must_win) or self.pong_turn or self.tile is None:
            return
        p = self.p[seat]
        p.counts[self.tile] -= 1
        self.changed(seat)
        wins = self.tile in self.waits(seat)
        p.counts[self.tile] += 1
        self.changed(seat)
        if wins:
            self.report(
                "sichuan.last_four",
                f"seat {seat} {what} instead of winning on {_t(self.tile)} in the last four tiles",
                f"seat {seat} hu",
                what,
            )

    def on_discard(self, ev: Event) -> None:
        seat, tile = ev.seat, ev.tile
        if seat is None or tile is None:
            self.stop("a discard without a seat or tile")
        p = self.p[seat]
        if p.won or self.mode != "turn" or self.actor != seat:
            self.expect_turn(seat, "discards")  # reports, and adopts the record
        if self.last_four and self.last_four_must_win:
            self.must_take_self_draw(seat, "discards")
        counts = p.counts
        size = sum(counts) + 3 * len(p.melds)  # check_size(seat, 14, "discards"), inlined
        if size != 14:
            self.report("sichuan.hand_size", f"seat {seat} holds {size} tiles when it discards", 14, size)
        void = p.void
        if (
            self.void_strict
            and void is not None
            and any(counts[9 * void : 9 * void + 9])
            and tile < 27
            and tile // 9 != void
        ):
            self.report(
                "sichuan.void_first",
                f"seat {seat} discards {_t(tile)} while holding its void suit {'WTB'[void]}",
                f"a {'WTB'[void]} tile",
                _t(tile),
            )
        if tile < 27:
            if counts[tile]:  # take(seat, tile, 1, ...), inlined for the common case
                counts[tile] -= 1
                p.waits = None
            else:
                self.take(seat, tile, 1, "sichuan.tiles", "discards")
        p.discards += 1
        self.discard_after_kong = self.kong_turn
        self.last_tile_discard = self.left == 0 and self.last_drawer == seat and not self.pong_turn
        self.mode, self.actor, self.tile = "claim", seat, tile
        self.pong_turn = False

    def close_window(self, claimant: int | None) -> int:
        """The claim window on the current discard closes (no hu, or a pong/kong by
        ``claimant``): passes inferred; returns the seat that draws next."""
        d, tile = self.actor, self.tile
        assert tile is not None
        seats = self.p
        for seat in _OTHERS[d]:
            # could_win(seat, tile), inlined: the hot path of every discard
            p = seats[seat]
            if p.won:
                continue
            waits = p.waits
            if waits is None:
                if tile // 9 == p.void or not _near(p.counts, tile):
                    continue  # no win can use it: the waits need not be worked out
                waits = self.waits(seat)
            # (a wait is never of the void suit and always near the hand: waits() says so)
            if tile in waits and not self.locked_out(seat, tile):
                self.passed(seat, tile)
        self.mode = "draw"
        self.actor = self.next_active(d)
        return self.actor

    def seat_order(self, start: int) -> tuple[int, ...]:
        return _OTHERS[start]

    def on_claim(self, ev: Event) -> None:
        seat, tile = ev.seat, ev.tile
        kind = _KIND_NAMES[ev.kind]  # (an Enum's .value is a Python-level property)
        if seat is None or tile is None:
            self.stop(f"a {kind} without a seat or tile")
        if self.mode != "claim":
            self.report(
                "sichuan.turn", f"seat {seat} claims {kind} with no discard to claim", "a discard", self.mode
            )
            self.stop("a claim without a discard")
        d, discard = self.actor, self.tile
        assert discard is not None
        if tile != discard or (ev.from_seat is not None and ev.from_seat != d) or seat == d:
            self.report(
                "sichuan.turn",
                f"the {kind} does not take seat {d}'s discard {_t(discard)}",
                f"{_t(discard)} from seat {d}",
                f"{_t(tile)} from seat {ev.from_seat}",
            )
        if self.p[seat].won:
            self.report("sichuan.winner_acts", f"seat {seat} claims {kind} after winning", "no claim", kind)
        p = self.p[seat]
        if p.void is not None and _suit(discard) == p.void:
            self.report(
                "sichuan.void_used",
                f"seat {seat} claims {kind} of its void suit",
                "another suit",
                _t(discard),
            )
        if ev.kind is EventKind.GANG and self.left <= 0:
            self.report("sichuan.kong_wall", f"seat {seat} konges with an empty wall", "no kong", "gang")
        self.close_window(seat)
        need = 2 if ev.kind is EventKind.PENG else 3
        self.take(seat, discard, need, "sichuan.meld_tiles", f"{kind}s with")
        offer = (seat - d) % 4 or 1
        p.melds.append(("PENG" if need == 2 else "GANG", discard, offer))
        self.changed(seat)
        self.clean_round = False
        if self.p[seat].won:
            return
        self.actor = seat
        if ev.kind is EventKind.PENG:
            self.add_turn(seat)
            self.kong_turn = False
            self.mode, self.tile, self.pong_turn = "turn", None, True
            if self.rules.play.pass_hu_lock_cleared_by == "draw_or_meld":
                self.release(seat)
        else:
            self.add_kong(Kong(seat, "direct", SUITED[discard], discarder=d))
            self.kong_turn = True
            self.mode, self.tile = "kong", None
            if self.rules.play.pass_hu_lock_cleared_by == "draw_or_meld":
                self.release(seat)

    def own_kong_checks(self, seat: int, tile: int, what: str) -> None:
        self.expect_turn(seat, what)
        if self.pong_turn:
            self.report("sichuan.pong_discard", f"seat {seat} {what} right after its pong", "a discard", what)
        if self.left <= 0:
            self.report("sichuan.kong_wall", f"seat {seat} {what} with an empty wall", "no kong", what)
        p = self.p[seat]
        if p.void is not None and _suit(tile) == p.void:
            self.report("sichuan.void_used", f"seat {seat} {what} of its void suit", "another suit", _t(tile))
        self.must_take_self_draw(seat, what)

    def on_concealed_kong(self, ev: Event) -> None:
        seat, tile = ev.seat, ev.tile
        if seat is None or tile is None or tile >= 27:
            self.stop("a concealed kong without a seat or suited tile")
        self.own_kong_checks(seat, tile, "declares a concealed kong")
        self.take(seat, tile, 4, "sichuan.meld_tiles", "declares a concealed kong of")
        self.p[seat].melds.append(("GANG", tile, 0))
        self.changed(seat)
        self.add_kong(Kong(seat, "concealed", SUITED[tile]))
        self.kong_turn, self.clean_round = True, False
        self.mode, self.actor, self.tile = "kong", seat, None

    def on_added_kong(self, ev: Event) -> None:
        seat, tile = ev.seat, ev.tile
        if seat is None or tile is None or tile >= 27:
            self.stop("an added kong without a seat or suited tile")
        late = tile != self.tile
        self.own_kong_checks(seat, tile, "adds a kong")
        p = self.p[seat]
        index = next((i for i, m in enumerate(p.melds) if m[0] == "PENG" and m[1] == tile), None)
        if index is None:
            self.report(
                "sichuan.meld_tiles",
                f"seat {seat} adds {_t(tile)} to a pong it does not have",
                f"a pong of {_t(tile)}",
                "none",
            )
        self.take(seat, tile, 1, "sichuan.meld_tiles", "adds to a kong")
        if index is not None:
            p.melds[index] = ("GANG", tile, p.melds[index][2])
        else:
            p.melds.append(("GANG", tile, 1))
        self.changed(seat)
        self.clean_round = False
        self.pending_added = (seat, tile, late)
        self.mode, self.actor, self.tile = "rob", seat, tile

    def complete_added_kong(self) -> None:
        """Nobody robbed the 补杠: passes on it inferred, the kong is paid (reference §2.8)."""
        assert self.pending_added is not None
        seat, tile, late = self.pending_added
        self.pending_added = None
        for other in self.seat_order(seat):
            if not self.p[other].won and self.could_win(other, tile):
                self.passed(other, tile)
        self.add_kong(Kong(seat, "added", SUITED[tile], late=late))
        self.kong_turn = True
        self.mode = "kong"

    def on_hu(self, ev: Event) -> None:
        seat = ev.seat
        if seat is None:
            self.stop("a win without a seat")
        if self.p[seat].won:
            self.report("sichuan.winner_acts", f"seat {seat} wins again", "one win a hand", "hu")
            return
        robbed = ev.win is WinKind.ROB_KONG
        if self.mode == "turn" and seat == self.actor:
            if self.pong_turn:
                self.report(
                    "sichuan.pong_discard", f"seat {seat} wins right after its pong", "a discard", "hu"
                )
            if robbed:
                self.report("sichuan.claim_priority", "robbing with no 补杠 to rob", "bugang", "rob_kong")
            self.self_draw(ev, seat)
            return
        if self.mode == "rob":
            if not robbed:
                self.report("sichuan.win_record", "a win on a 补杠 not marked rob_kong", "rob_kong", "-")
            if not self.rules.play.rob_kong:
                self.report(
                    "sichuan.claim_priority", f"robbing under profile {self.rules.name}", "no rob", "hu"
                )
        elif self.mode == "claim":
            if robbed:
                self.report(
                    "sichuan.claim_priority",
                    "robbing a discard: only a 补杠 can be robbed",
                    "bugang",
                    "rob_kong",
                )
        else:
            self.report(
                "sichuan.turn",
                f"seat {seat} declares a win with no tile to win on",
                "own draw, a discard or a 补杠",
                f"seat {seat} hu ({self.mode})",
            )
            self.stop("a win with no winning tile")
        d, tile = self.actor, self.tile
        assert tile is not None
        if seat == d:
            self.report("sichuan.turn", f"seat {seat} wins on its own tile", "another seat", f"seat {seat}")
            self.stop("a win on the own discard")
        if ev.from_seat != d or (ev.tile is not None and ev.tile != tile):
            self.report(
                "sichuan.win_record",
                "the hu names another tile or discarder",
                f"{_t(tile)} from seat {d}",
                f"{_t(ev.tile)} from seat {ev.from_seat}",
            )
        if self.window_hus and (seat - d) % 4 <= (self.window_hus[-1][0] - d) % 4:
            self.report(
                "sichuan.win_order",
                f"seat {seat}'s win is recorded after a farther winner",
                "nearest first",
                f"seat {self.window_hus[-1][0]} then {seat}",
            )
        if self.locked_out(seat, tile):
            self.report(
                "sichuan.pass_lock",
                f"seat {seat} wins on {_t(tile)} it passed since its last draw",
                "no win before its next draw",
                f"hu {_t(tile)}",
            )
        self.window_hus.append((seat, ev))

    def winner_hand(self, seat: int, tile: int, self_drawn: bool) -> tuple[Tile, ...] | None:
        """The winner's concealed tiles without the winning tile, or None (with a finding) when
        the tiles do not win."""
        p = self.p[seat]
        size = p.size() + (0 if self_drawn else 1)
        if size != 14:
            self.report("sichuan.hand_size", f"seat {seat} holds {size} tiles when it wins", 14, size)
            return None
        if p.void is not None and (p.holds_void() or _suit(tile) == p.void):
            self.report(
                "sichuan.void_used",
                f"seat {seat} wins holding its void suit {'WTB'[p.void]}",
                "no void tile",
                "hu",
            )
            return None
        counts = list(p.counts)
        if self_drawn:
            counts[tile] -= 1
        hand = tiles_of(counts)
        try:
            ok = tile in waits_from_counts(
                counts, tuple((k, SUITED[t], o) for k, t, o in p.melds), self.held(seat, counts), p.void
            )
        except InvalidHand:
            ok = False
        if not ok and not self.wins_anyway(hand, seat, tile):
            self.report(
                "sichuan.win_shape",
                f"seat {seat}'s tiles do not win on {_t(tile)}",
                "4 sets + a pair or 七对",
                " ".join(map(_t, hand)),
            )
            return None
        return hand

    def held(self, seat: int, counts: list[int]) -> list[int]:
        held = list(counts)
        for kind, tile, _ in self.p[seat].melds:
            held[tile] += 4 if kind == "GANG" else 3
        return held

    def wins_anyway(self, hand: tuple[Tile, ...], seat: int, tile: int) -> bool:
        """A quad-completing tile is no wait (§4.6) but still wins: ask the scorer."""
        p = self.p[seat]
        try:
            score_win(hand, self.meld_list(seat), SUITED[tile], FanContext(), void=p.void, profile=self.rules)
        except MjstatsError:
            return False
        return True

    def self_draw(self, ev: Event, seat: int) -> None:
        tile = self.tile
        heavenly = False
        if tile is None:
            if self.first_turn and seat == self.hand.dealer and ev.tile is not None:
                tile, heavenly = ev.tile, True  # 天胡: the dealer's opening 14
            else:
                self.report("sichuan.turn", f"seat {seat} self-draws with no drawn tile", "a draw", "hu")
                self.stop("a self-draw without a draw")
        assert tile is not None
        if ev.tile is not None and ev.tile != tile:
            self.report("sichuan.win_record", "the hu names another tile", _t(tile), _t(ev.tile))
        if ev.from_seat is not None:
            self.report("sichuan.win_record", "a self-draw names a discarder", "-", ev.from_seat)
        hand = self.winner_hand(seat, tile, True)
        p = self.p[seat]
        earthly = self.clean_round and seat != self.hand.dealer and p.discards == 0 and not heavenly
        flags = dict(
            kong_win=self.replacement and self.kong_turn, last_tile=self.left == 0, heavenly=heavenly
        )
        if hand is not None:
            winner = Winner(seat, hand, self.meld_list(seat), void=p.void, earthly=earthly)
            self.add_win(WinEvent(SUITED[tile], (winner,), **flags))
            self.win_seqs.append(ev.seq)
        self.out(seat)
        if self.stage != "ended":
            self.mode, self.actor, self.tile = "draw", self.next_active(seat), None

    def close_wins(self) -> None:
        """The wins declared on one discard or 补杠 are settled together (一炮多响)."""
        hus, self.window_hus = self.window_hus, []
        d, tile = self.actor, self.tile
        assert tile is not None
        robbed = self.mode == "rob"
        winners: list[Winner] = []
        seqs: list[int] = []
        dealer_first = d == self.hand.dealer and self.p[d].discards == 1 and self.clean_round
        for seat, ev in hus:
            hand = self.winner_hand(seat, tile, False)
            if hand is not None:
                p = self.p[seat]
                winners.append(
                    Winner(seat, hand, self.meld_list(seat), void=p.void, earthly=dealer_first and not robbed)
                )
                seqs.append(ev.seq)
        # the players who could have won on it and did not passed (lock or last four)
        won = {s for s, _ in hus}
        for seat in self.seat_order(d):
            if seat not in won and not self.p[seat].won and self.could_win(seat, tile):
                self.passed(seat, tile)
        if winners:
            self.add_win(
                WinEvent(
                    SUITED[tile],
                    tuple(winners),
                    discarder=d,
                    robbed_kong=robbed,
                    kong_discard=not robbed and self.discard_after_kong,
                    last_tile=not robbed and self.last_tile_discard,
                )
            )
            self.win_seqs.extend(seqs)
        if robbed:
            # reference §2.8: the 补杠 is cancelled, the pong stays, no replacement
            assert self.pending_added is not None
            konger, _, _ = self.pending_added
            self.pending_added = None
            p = self.p[konger]
            p.melds = [
                ("PENG", t, o) if (k == "GANG" and t == tile and o != 0) else (k, t, o) for k, t, o in p.melds
            ]
            self.changed(konger)
        farthest = max((s for s, _ in hus), key=lambda s: (s - d) % 4)
        for seat, _ in hus:
            self.out(seat)
        if self.stage == "ended":
            return
        if robbed and self.rules.play.turn_after_rob == "after_robbed":
            self.actor = self.next_active(d)
        else:
            self.actor = self.next_active(farthest)  # reference §2.9: after the farthest winner
        self.mode, self.tile = "draw", None

    def out(self, seat: int) -> None:
        self.p[seat].won = True
        self.winners.append(seat)
        if len(self.winners) >= 3:
            self.stage = "ended"  # reference §2.13 (a): the third win ends the hand

    def on_huang(self, ev: Event) -> None:
        if self.mode == "claim":
            self.close_window(None)
        if self.mode == "rob":
            self.report("sichuan.hand_end", "the hand ends inside a 补杠", "a replacement draw", "huang")
        elif self.mode != "draw":
            self.report(
                "sichuan.hand_end",
                f"the hand ends while seat {self.actor} must act",
                "huang after a discard",
                self.mode,
            )
        if self.left > 0:
            self.report(
                "sichuan.hand_end",
                f"exhaustive draw with {self.left} tiles left",
                "an empty wall",
                f"{self.left} left",
            )
        players = tuple(
            PlayerHand(s, self.p[s].tiles(), self.meld_list(s), void=self.p[s].void)
            for s in range(4)
            if not self.p[s].won
        )
        self.add_event(HandEnd(players))
        self.stage = "ended"

    # --- the money -----------------------------------------------------------------------------


@mypyc_attr(native_class=False)
class SichuanSequence(SequenceCheck):
    """Check 36: within a match each hand's dealer is the one the hand before names."""

    def __init__(self, rules: Profile) -> None:
        self.rules = rules
        self.prev: tuple[str, int, int] | None = None  # (match id, hand no, next dealer)

    def check(self, hand: Hand) -> list[Finding]:
        out: list[Finding] = []
        prev = self.prev
        if (
            prev is not None
            and prev[0] == hand.match_id
            and hand.hand_no == prev[1] + 1
            and hand.dealer != prev[2]
        ):
            out.append(
                Finding(
                    hand.match_id,
                    hand.hand_no,
                    None,
                    "sichuan.dealer",
                    Severity.ERROR,
                    str(prev[2]),
                    str(hand.dealer),
                    f"the dealer should be seat {prev[2]} after hand {prev[1]}",
                )
            )
        self.prev = (hand.match_id, hand.hand_no, next_dealer_of(hand, self.rules))
        return out


# the core's profile and sequence bases are plain Python classes: a compiled class cannot
# derive from them, so these two stay Python classes in the compiled build (docs/compiled.md)
@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class SichuanReplayProfile(ReplayProfile):
    """Sichuan under one rule profile: 14/13 dealt, the dealer discards first, 55 tiles to draw."""

    rules: Profile = field(default_factory=lambda: load_profile("seed"))
    name: str = "seed"
    ruleset: str = "sichuan"
    num_kinds: int = 27
    several_winners: ClassVar[bool] = True
    replay_class: ClassVar[type[HandReplay]] = SichuanReplay

    def deal_size(self, hand: Hand, seat: int) -> int:
        return DEALER_TILES if seat == hand.dealer else OTHER_TILES

    def first_to_draw(self, hand: Hand) -> bool:
        return False

    def new_wall(self, hand: Hand) -> Wall:
        return SharedWall(WALL_TILES)

    def evaluate_win(self, ctx: WinContext) -> ComputedWin:
        raise InvalidHand("a Sichuan win is scored by the Sichuan replay (it needs the void suit)")

    def sequence_check(self) -> SequenceCheck:
        return SichuanSequence(self.rules)


def sichuan_profile(rules: Profile | str = "seed") -> SichuanReplayProfile:
    """The Sichuan replay profile of a rule profile (name, TOML path or Profile)."""
    prof = load_profile(rules)
    return SichuanReplayProfile(rules=prof, name=prof.name)


for _name in ("seed", "platform"):
    register_profile("sichuan", _name, sichuan_profile(_name))
