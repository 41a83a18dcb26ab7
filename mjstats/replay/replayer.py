"""The deterministic replayer: rebuild a hand event by event and check every step against the rules.

:func:`replay_hand` walks ``Hand.events`` through a :class:`TableState`, records a
:class:`Finding` for every check of the catalogue (checks.py) that fails, derives the situational
fan flags at the win, rescores the win through the profile and compares fans, total and each
seat's score with the recorded result. It keeps going after a finding, adopting what the record
says, and stops (finding ``replay.stopped``) only where no meaningful state is left.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, NoReturn

from mypy_extensions import mypyc_attr

from mjstats.errors import InvalidHand, NotWinningHand, ProfileError
from mjstats.event_columns import EventColumns, with_events
from mjstats.records import Event, EventKind, Hand, Outcome, Win, WinKind
from mjstats.replay.checks import CATALOGUE
from mjstats.replay.findings import Finding, Severity
from mjstats.replay.profile import ComputedWin, Meld, ReplayProfile, WinContext
from mjstats.replay.state import Phase, TableState, TurnState
from mjstats.slot_setters import frozen_record, record_setters
from mjstats.tiles import ALL_KINDS, Tile

__all__ = [
    "HandReplay",
    "ReplayResult",
    "load_replay_profiles",
    "profile_for",
    "register_profile",
    "replay_hand",
]

# The enumerations' members the handlers test on every event, as module constants: in the
# compiled build a Final name is a C static, where ``Phase.DISCARD`` is an attribute lookup
# through the Enum class, several per event (callgrind: ~40,000 instructions a Botzone hand less)
_DEAL_PHASE: Final = Phase.DEAL
_DRAW_PHASE: Final = Phase.DRAW
_DISCARD_PHASE: Final = Phase.DISCARD
_CLAIM_PHASE: Final = Phase.CLAIM
_KONG_PHASE: Final = Phase.KONG
_ROBBABLE_PHASE: Final = Phase.ROBBABLE
_ENDED_PHASE: Final = Phase.ENDED
_DEAL: Final = EventKind.DEAL
_DRAW: Final = EventKind.DRAW
_DISCARD: Final = EventKind.DISCARD
_CHI: Final = EventKind.CHI
_PENG: Final = EventKind.PENG
_GANG: Final = EventKind.GANG
_ANGANG: Final = EventKind.ANGANG
_BUGANG: Final = EventKind.BUGANG
_IGNORED: Final = EventKind.IGNORED
_HU: Final = EventKind.HU
_HUANG: Final = EventKind.HUANG
_ROB_KONG: Final = WinKind.ROB_KONG
# a claim's kind as text (``EventKind.value`` is a Python property of the Enum class: two
# interpreted calls a claim)
_CLAIM_NAMES: Final[dict[EventKind, str]] = {k: k.value for k in (_CHI, _PENG, _GANG)}
# (ruleset, platform profile) -> replay profile; each ruleset's replay part registers its own
# platforms here (register_profile) when it is first imported (load_replay_profiles)
_PROFILES: dict[tuple[str, str], ReplayProfile] = {}


def register_profile(ruleset: str, name: str, profile: ReplayProfile) -> None:
    """Make hands of (ruleset, profile name) replay with ``profile`` (a ruleset's platform)."""
    _PROFILES[(ruleset, name)] = profile


def load_replay_profiles(only: str | None = None, platform: str | None = None) -> None:
    """Import every registered ruleset's replay part (``only``: that ruleset's), which registers
    its replay profiles; with ``platform``, only the module its ruleset names for that platform
    profile (``Ruleset.platform_replays``), where it names one."""
    from mjstats.rulesets import recorded

    for ruleset in recorded():
        if ruleset.replay is not None and only in (None, ruleset.name):
            module = dict(ruleset.platform_replays).get(platform) if platform else None
            ruleset.load(module or ruleset.replay)


def profile_for(hand: Hand) -> ReplayProfile:
    """The replay profile of a hand's (ruleset, profile); ProfileError when none is registered
    (another platform's walls or scoring would make its hands look wrong)."""
    found = _PROFILES.get((hand.ruleset, hand.profile))
    if found is None:
        # the hand's own platform first, then its ruleset: a dataset of one platform never
        # imports the others' replays (~0.1 s of an audit's start-up; the other Guobiao
        # platforms' ~1% of an `ingest --audit` of 2,000 Botzone hands); then all of them, for a
        # profile registered elsewhere, and for the list of those known
        load_replay_profiles(hand.ruleset, hand.profile)
        found = _PROFILES.get((hand.ruleset, hand.profile))
    if found is None:
        load_replay_profiles(hand.ruleset)
        found = _PROFILES.get((hand.ruleset, hand.profile))
    if found is None:
        load_replay_profiles()
        found = _PROFILES.get((hand.ruleset, hand.profile))
    if found is None:
        known = ", ".join(f"{r}/{p}" for r, p in sorted(_PROFILES))
        raise ProfileError(f"no replay profile for {hand.ruleset}/{hand.profile} (have: {known})")
    return found


@dataclass(frozen=True, slots=True)
class ReplayResult:
    """What one replay found: findings in event order, the recomputed win, per-turn states."""

    match_id: str
    hand_no: int
    profile: str
    findings: tuple[Finding, ...]
    stopped: bool  # the replay stopped before the last event
    context: WinContext | None  # the (first) win as the replayer derived it (None: no win reached)
    win: ComputedWin | None  # the recomputed (first) win (None: no win, or no winning hand)
    turns: tuple[TurnState, ...] = ()  # filled when replay_hand(..., explain=True)
    # the wins after the first, in event order: (its win_no, context, recomputed win or None)
    more_wins: tuple[tuple[int, WinContext, ComputedWin | None], ...] = ()

    @property
    def clean(self) -> bool:
        return not any(f.severity is not Severity.INFO for f in self.findings)

    @property
    def wins(self) -> tuple[tuple[int, WinContext, ComputedWin | None], ...]:
        """Every replayed win as (win_no, context, recomputed win or None), win_no 0-based in
        event order (the order of ``Result.wins``)."""
        first = () if self.context is None else ((0, self.context, self.win),)
        return (*first, *self.more_wins)

    @property
    def status(self) -> str:
        """``clean`` (nothing, or only ``info`` findings), ``warnings`` (warnings only),
        ``errors`` or ``stopped``."""
        if self.stopped:
            return "stopped"
        if any(f.severity is Severity.ERROR for f in self.findings):
            return "errors"
        return "clean" if self.clean else "warnings"


# the records made once a hand (ReplayResult) or a win (WinContext), built by their slots'
# setters: their dataclass __init__ runs as interpreted Python even in the compiled build, an
# object.__setattr__ call a field (callgrind: ~22,000 instructions a WinContext)
_REPLAY_RESULT = record_setters(ReplayResult)
_WIN_CONTEXT = record_setters(WinContext)
# every meld a replay makes, one shared immutable record per (kind, tile, offer): Meld's frozen
# dataclass __init__ runs interpreted even in the compiled build (callgrind: ~5,000 instructions
# a claim), a dict look-up does not; at most 3 kinds x 42 tiles x 4 offers (x the tile's type:
# a Tile and the plain int equal to it make a Meld each, so a meld holds the tile it was given)
_MELDS: Final[dict[tuple[str, int, int, type], Meld]] = {}
# a river's (tile, not taken) pair of each discard, one shared immutable tuple per tile (a
# tuple made a discard otherwise); only for the interned Tile of the code (a plain int equal to
# it gets a pair of its own: a river holds the tile it was given). Typed Any: a pair typed as a
# tuple would be unpacked and made anew by the compiled build
_DISCARDED: Final[tuple[Any, ...]] = tuple((tile, False) for tile in ALL_KINDS)
_TILES: Final[tuple[Tile, ...]] = ALL_KINDS  # the interned tiles, by code (a native look-up)
# each profile's fan_key answers by recorded fan name, kept with the profile (the key: its id);
# fan_key is interpreted Python, a call a recorded fan of every win otherwise
_FAN_KEYS: Final[dict[int, tuple[ReplayProfile, dict[str, str]]]] = {}


def _meld(kind: str, tile: int, offer: int) -> Meld:
    """``Meld(kind, tile, offer)``: the same (equal, immutable) record every time."""
    key = (kind, tile, offer, type(tile))
    meld = _MELDS.get(key)
    if meld is None:
        meld = _MELDS[key] = Meld(kind, tile, offer)
    return meld


class _Stop(Exception):
    """Raised inside the replay when no meaningful state is left."""


def _t(tile: int | None) -> str:
    return "-" if tile is None else ALL_KINDS[tile].botzone


def _fans_text(items: list[tuple[str, int]]) -> str:
    return "+".join(f"{name}*{count}" for name, count in items) or "-"


# compiled in the compiled build; each ruleset's replay subclasses it (docs/compiled.md)
@mypyc_attr(allow_interpreted_subclasses=True)
class HandReplay:
    """One replay in progress: the state, the findings, and one handler per event kind.

    A profile whose rules need more than the ruleset-neutral handlers (flowers, a wild tile,
    draws from the tail) subclasses this and names the subclass in ``ReplayProfile.replay_class``.
    """

    def __init__(self, hand: Hand, profile: ReplayProfile, explain: bool) -> None:
        self.hand = hand
        self.profile = profile
        self.state = TableState(profile.new_wall(hand))
        self.findings: list[Finding] = []
        self.turns: list[TurnState] | None = [] if explain else None
        self.seq: int | None = None
        self.context: WinContext | None = None
        self.win: ComputedWin | None = None
        self.win_no = 0  # the recorded win (index into Result.wins) the HU being replayed tells
        self.hus = 0  # HU events replayed so far
        self.more_wins: list[tuple[int, WinContext, ComputedWin | None]] = []
        # (phase, actor) of the discard or added kong a win ended the hand on: another seat may
        # win on the same tile (一炮多响, duplicate MCR's "H1H3")
        self.shared_win: tuple[Phase, int] | None = None
        self.winners: list[int] = []
        self.scored: list[ComputedWin] = []  # the rescored wins (score_win), in event order
        self.scored_first = False  # score_win has seen the first win
        self.last_claim: tuple[str, int] | None = None  # (kind, seat) of the claim IGNORED follows
        self.claim_from = 0  # the discarder (or konger) of that claim
        self.full = profile.hand_size  # tiles held (kongs as 3) by the seat to act (the profile says)
        # tile codes a hand may hold, read at every draw: a native int here, an attribute of the
        # (interpreted) profile there
        self.num_kinds: int = profile.num_kinds
        # the hand's events as columns, its rows columns.first:stop (replay_hand with columns:
        # ``hand`` was made without its events); None: the loop reads ``hand.events``
        self.columns: EventColumns | None = None
        self.handlers: dict[EventKind, Callable[[Event], None]] = {
            _DEAL: self.on_deal,
            _DRAW: self.on_draw,
            _DISCARD: self.on_discard,
            _CHI: self.on_claim,
            _PENG: self.on_claim,
            _GANG: self.on_claim,
            _ANGANG: self.on_concealed_kong,
            _BUGANG: self.on_added_kong,
            _IGNORED: self.on_ignored,
            _HU: self.on_hu,
            _HUANG: self.on_huang,
        }

    # --- reporting -----------------------------------------------------------------------------
    def report(self, code: str, message: str, expected: object = None, recorded: object = None) -> None:
        self.findings.append(
            Finding(
                match_id=self.hand.match_id,
                hand_no=self.hand.hand_no,
                seq=self.seq,
                check=code,
                severity=CATALOGUE[code].severity,
                expected=None if expected is None else str(expected),
                recorded=None if recorded is None else str(recorded),
                message=message,
            )
        )

    def stop(self, why: str) -> NoReturn:
        self.report("replay.stopped", f"replay stopped: {why}")
        raise _Stop

    # --- driver --------------------------------------------------------------------------------
    def run(self) -> ReplayResult:
        stopped = False
        state = self.state
        try:
            if self.columns is not None:
                self.play_columns(self.columns)
            else:
                self.play_events()
            self.seq = None
            self.after_events()
            self.check_win_scores()
            if state.phase is not _ENDED_PHASE:
                self.report("hand.end", "the record ends before a Hu or Huang", "hu or huang", "end")
            self.check_win_count()
        except _Stop:
            stopped = True
        # ReplayResult(match_id, hand_no, profile, findings, stopped, context, win, turns, more_wins)
        values = (
            self.hand.match_id, self.hand.hand_no, self.profile.name, tuple(self.findings), stopped,
            self.context, self.win, tuple(self.turns) if self.turns is not None else (),
            tuple(self.more_wins),
        )  # fmt: skip
        return frozen_record(ReplayResult, _REPLAY_RESULT, values)

    def play_columns(self, columns: EventColumns) -> None:
        """The event loop of :meth:`play_events` over the hand's rows of ``columns``, the same
        steps in the same order: a draw or a discard read as its seat and tile (nearly every
        event: no :class:`Event` made), any other event, a draw or discard that ends the deal or
        follows a kong (:meth:`before_event`), and every event where the handlers are not this
        replay's own, made an Event from its row and handled as the loop over ``hand.events``
        does. Only for a profile that says so (``ReplayProfile.reads_columns``): the neutral
        ``on_draw`` and ``on_discard``, nothing else reading ``hand.events``."""
        state = self.state
        handlers, turns = self.handlers, self.turns
        direct = self.own_handlers() and turns is None
        seqs, kinds, seats, tiles = columns.seq, columns.kinds, columns.seat, columns.tiles
        for i in range(columns.first, columns.stop):
            self.seq = seqs[i]
            kind = kinds[i]
            event: Event | None = None
            phase = state.phase
            if phase is not _DISCARD_PHASE and phase is not _CLAIM_PHASE:
                event = columns.event(i)
                self.before_event(event)
            if kind is not _IGNORED:
                self.last_claim = None
            seat: int | None = seats[i]  # typed: native compares below (Any: generic ones)
            if seat is not None and not 0 <= seat < 4:
                self.stop(f"seat {seat} out of range")
            if direct and kind is _DISCARD:
                self.play_discard(seat, tiles[i])
            elif direct and kind is _DRAW:
                self.play_draw(seat, tiles[i])
            else:
                if event is None:
                    event = columns.event(i)
                if direct and (kind is _CHI or kind is _PENG or kind is _GANG):
                    self.on_claim(event)
                else:
                    self.dispatch(handlers, event)
                if turns is not None:
                    turns.append(state.snapshot(event.seq, _describe(event)))

    def play_events(self) -> None:
        """Every event of the hand through its handler, in order."""
        state = self.state
        handlers, turns = self.handlers, self.turns
        direct = self.own_handlers()
        for event in self.hand.events:
            self.seq = event.seq
            kind = event.kind
            # the phases of nearly every event need no extra work (two identity tests: ``in``
            # a tuple compared the other phase by ``==``, a generic call, ~230 instructions)
            phase = state.phase
            if phase is not _DISCARD_PHASE and phase is not _CLAIM_PHASE:
                self.before_event(event)
            if kind is not _IGNORED:
                self.last_claim = None
            seat = event.seat
            if seat is not None and not 0 <= seat < 4:
                self.stop(f"seat {seat} out of range")
            # the hot kinds' own methods called directly (a method call, where the dict's
            # look-up and the bound method's generic call cost ~270 instructions an event)
            if direct and kind is _DISCARD:
                self.on_discard(event)
            elif direct and kind is _DRAW:
                self.on_draw(event)
            elif direct and (kind is _CHI or kind is _PENG or kind is _GANG):
                self.on_claim(event)
            else:
                self.dispatch(handlers, event)
            if turns is not None:
                turns.append(state.snapshot(event.seq, _describe(event)))

    def own_handlers(self) -> bool:
        """Whether the handlers of discards, draws and claims (nearly every event) are still this
        replay's own methods, as ``__init__`` made them (a subclass or a listener may have
        replaced one: then every event goes through the dict). Bound methods are made anew at
        each look-up, so they are compared by ``==`` (same method of the same replay)."""
        handlers = self.handlers
        claim = self.on_claim
        return (
            handlers.get(_DISCARD) == self.on_discard
            and handlers.get(_DRAW) == self.on_draw
            and handlers.get(_CHI) == claim
            and handlers.get(_PENG) == claim
            and handlers.get(_GANG) == claim
        )

    def dispatch(self, handlers: dict[EventKind, Callable[[Event], None]], event: Event) -> None:
        """Call ``event``'s handler from ``handlers``; a kind without one stops the replay."""
        handler = handlers.get(event.kind)
        if handler is None:
            self.stop(f"{event.kind.value} events are not part of the {self.profile.name} rules")
        handler(event)

    def check_win_count(self) -> None:
        """Every recorded win has its Hu event (the events' extra Hus are found at each Hu)."""
        recorded = len(self.hand.result.wins) if self.hand.result.is_win else 0
        if self.hus and recorded > self.hus:
            self.report("result.outcome", f"{recorded} wins recorded, {self.hus} in the events",
                        self.hus, recorded)

    def after_events(self) -> None:
        """Work once every event has been read (a subclass may score the win only here)."""

    def before_event(self, event: Event) -> None:
        """Phase work before an event: the end of the deal, the end of the hand, kong draws."""
        state = self.state
        if event.kind is _IGNORED:
            if state.phase is _ENDED_PHASE and self.last_claim is None:
                self.report("hand.end", "event after the end of the hand", "nothing", "ignored")
                self.stop("the hand had already ended")
            return
        if state.phase is _ENDED_PHASE and self.joins_win(event):
            return
        if state.phase is _ENDED_PHASE:
            self.report("hand.end", "event after the end of the hand", "nothing", event.kind.value)
            self.stop("the hand had already ended")
        if state.phase is _DEAL_PHASE and event.kind is not _DEAL:
            self.end_deal()
        if state.phase is _KONG_PHASE or state.phase is _ROBBABLE_PHASE:
            self.expect_replacement(event)

    def joins_win(self, event: Event) -> bool:
        """A further Hu on the discard (or added kong) the hand was just won on: replay it on
        that tile. A profile that allows one winner reports the second (``win.several``)."""
        if event.kind is not _HU or self.shared_win is None or event.seat is None:
            return False
        phase, actor = self.shared_win
        if event.seat == actor or event.seat in self.winners:
            return False
        if not self.profile.several_winners:
            self.report(
                "win.several",
                f"seat {event.seat} also wins on seat {actor}'s tile",
                "one winner",
                f"winners {' '.join(map(str, [*self.winners, event.seat]))}",
            )
        self.state.phase, self.state.actor = phase, actor
        return True

    def end_deal(self) -> None:
        state = self.state
        missing = [s for s in range(4) if not state.dealt[s]]
        if missing:
            self.report("deal.size", f"seats {missing} were never dealt", "4 deals", 4 - len(missing))
            self.stop("a seat has no tiles")
        dealer = self.hand.dealer
        state.actor = dealer
        state.phase = _DRAW_PHASE if self.profile.first_to_draw(self.hand) else _DISCARD_PHASE

    def expect_replacement(self, event: Event) -> None:
        """After a kong the konger draws (botzone-format.md); robbing and Huang excepted."""
        state = self.state
        konger = state.actor
        if event.kind is _DRAW and event.seat == konger:
            return
        if event.kind is _HUANG:
            return
        if state.phase is _ROBBABLE_PHASE and event.kind is _HU and event.seat != konger:
            return
        self.report(
            "kong.replacement",
            f"seat {konger} konged but drew no replacement",
            f"seat {konger} draws",
            event.kind.value,
        )
        state.phase = _DISCARD_PHASE  # go on as if the replacement (unknown) had been drawn
        state.drawn = None

    # --- tile accounting -----------------------------------------------------------------------
    def enter_play(self, seat: int, tile: int) -> bool:
        """A tile leaves the wall into ``seat``'s hand: no flowers here, no fifth copy."""
        state = self.state
        if tile >= self.num_kinds:
            self.report(
                "tile.not_allowed",
                f"seat {seat} got {_t(tile)}, which the {self.profile.name} set does not contain",
                "a tile of the set",
                _t(tile),
            )
            return False
        state.seen[tile] += 1
        if state.seen[tile] > 4:
            self.report(
                "tile.fifth_copy",
                f"copy {state.seen[tile]} of {_t(tile)} enters play",
                "at most 4",
                state.seen[tile],
            )
        player = state.seats[seat]
        player.concealed[tile] += 1
        player.held += 1
        return True

    def take(self, seat: int, tile: int, n: int, code: str, what: str) -> int:
        """Remove ``n`` copies of ``tile`` from ``seat``'s hand; report and take what is there."""
        player = self.state.seats[seat]
        held = player.concealed
        have = held[tile]
        if have < n:
            self.report(
                code,
                f"seat {seat} {what} {_t(tile)} without holding it ({have} of {n} held)",
                f"{n}x{_t(tile)}",
                f"{have}x{_t(tile)}",
            )
            n = have
        held[tile] -= n
        player.held -= n
        return n

    def check_size(self, seat: int, expected: int, when: str) -> bool:
        player = self.state.seats[seat]
        size = player.tile_count()
        if size == expected:
            return True
        if not player.size_reported:
            player.size_reported = True
            self.report("hand.size", f"seat {seat} holds {size} tiles when it {when}", expected, size)
        return False

    # --- handlers ------------------------------------------------------------------------------
    def on_deal(self, ev: Event) -> None:
        state, seat = self.state, ev.seat
        if seat is None:
            self.stop("a deal without a seat")
        if state.phase is not _DEAL_PHASE or state.dealt[seat]:
            self.report("deal.size", f"seat {seat} is dealt a second time", "one deal", "two deals")
            self.stop("a second deal")
        state.dealt[seat] = True
        want = self.profile.deal_size(self.hand, seat)
        if len(ev.tiles) != want:
            self.report("deal.size", f"seat {seat} is dealt {len(ev.tiles)} tiles", want, len(ev.tiles))
        seen, kinds, player = state.seen, self.num_kinds, state.seats[seat]
        concealed = player.concealed
        for dealt in ev.tiles:
            tile: int = dealt  # a plain int: native list indexing in the compiled build
            if tile < kinds and seen[tile] < 4:  # enter_play, nothing to report
                # ``x[i] = x[i] + 1``, not ``x[i] += 1``: mypyc adds the item as a native int,
                # where ``+=`` on an item is a generic PyNumber_InPlaceAdd (~100 instructions)
                seen[tile] = seen[tile] + 1
                concealed[tile] = concealed[tile] + 1
                player.held += 1
            else:
                self.enter_play(seat, tile)
        if all(state.dealt):
            self.end_deal()

    def on_draw(self, ev: Event) -> None:
        self.play_draw(ev.seat, ev.tile)

    def play_draw(self, seat: int | None, drawn: Tile | None) -> None:
        """A draw of ``drawn`` by ``seat`` (the fields of its event: :meth:`play_columns` reads
        them from the columns)."""
        state = self.state
        if seat is None or drawn is None:
            self.stop("a draw without a seat or tile")
        phase = state.phase
        actor = state.actor
        assert actor is not None  # end_deal gives the turn to the dealer before any play event
        if phase is _CLAIM_PHASE:
            expected = (actor + 1) % 4  # nobody claimed: the next seat draws
        elif phase is _DISCARD_PHASE:
            expected = None
        else:
            expected = actor
        if expected is None:
            self.report(
                "turn.sequence",
                f"seat {seat} draws while seat {actor} owes a discard",
                f"seat {actor} discards",
                f"seat {seat} draws",
            )
        elif seat != expected:
            self.report("turn.order", f"seat {seat} draws out of turn", f"seat {expected}", f"seat {seat}")
        # identity tests, not ``in`` a tuple (which compares a phase it is not by ``==``)
        replacement = (phase is _KONG_PHASE or phase is _ROBBABLE_PHASE) and seat == actor
        if not state.wall.draw(seat, replacement):
            self.report(
                "wall.overdrawn",
                f"seat {seat} draws from an empty wall",
                "no draw",
                f"draw {state.seats[seat].draws + 1}",
            )
        player = state.seats[seat]
        player.draws += 1
        tile: int = drawn  # a plain int: native list indexing in the compiled build
        seen, concealed = state.seen, player.concealed
        if tile < self.num_kinds and seen[tile] < 4:  # enter_play, nothing to report
            seen[tile] = seen[tile] + 1  # not ``+=``: a native add in the compiled build (on_deal)
            concealed[tile] = concealed[tile] + 1
            player.held += 1
        else:
            self.enter_play(seat, tile)
        state.phase = _DISCARD_PHASE
        state.actor = seat
        state.drawn = drawn
        state.after_kong = replacement

    def check_own_turn(self, seat: int, what: str) -> None:
        """Discards and concealed/added kongs: the seat must be the one holding a full hand."""
        state = self.state
        phase, actor = state.phase, state.actor
        assert actor is not None  # end_deal gives the turn to the dealer before any play event
        if phase is _DISCARD_PHASE and actor == seat:
            return
        if phase is _DISCARD_PHASE:
            self.report(
                "turn.order",
                f"seat {seat} {what} while it is seat {actor}'s turn",
                f"seat {actor}",
                f"seat {seat}",
            )
        elif (phase is _CLAIM_PHASE and seat == (actor + 1) % 4) or (phase is _DRAW_PHASE and seat == actor):
            self.report(
                "turn.sequence",
                f"seat {seat} {what} without drawing first",
                f"seat {seat} draws",
                f"seat {seat} {what}",
            )
        else:
            self.report("turn.order", f"seat {seat} {what} out of turn", "another seat", f"seat {seat}")

    def on_discard(self, ev: Event) -> None:
        self.play_discard(ev.seat, ev.tile)

    def play_discard(self, seat: int | None, tile: Tile | None) -> None:
        """A discard of ``tile`` by ``seat`` (the fields of its event, as :meth:`play_draw`)."""
        state = self.state
        if seat is None or tile is None:
            self.stop("a discard without a seat or tile")
        player = state.seats[seat]
        code: int = tile  # a plain int: native list indexing in the compiled build
        # the checks' fast paths inline (this runs for nearly half of all events); same findings
        # (the actor narrowed to an int first: a native compare, not a generic one)
        actor = state.actor
        if state.phase is not _DISCARD_PHASE or actor is None or actor != seat:
            self.check_own_turn(seat, "discards")
        if player.held + 3 * len(player.melds) != self.full:
            self.check_size(seat, self.full, "discards")
        held = player.concealed
        have = held[code]
        if have:
            held[code] = have - 1  # not ``-=``: a native subtraction in the compiled build (on_deal)
            player.held -= 1
        else:
            self.take(seat, code, 1, "tile.not_held", "discards")
        if 0 <= code < len(_DISCARDED) and _TILES[code] is tile:
            player.river.append(_DISCARDED[code])
        else:
            player.river.append((tile, False))
        visible = state.visible
        visible[code] = visible[code] + 1
        state.phase = _CLAIM_PHASE
        state.actor = seat
        state.last_tile = tile
        state.drawn = None

    def on_claim(self, ev: Event) -> None:
        state, seat = self.state, ev.seat
        kind = _CLAIM_NAMES[ev.kind]
        if seat is None or ev.tile is None:
            self.stop(f"a {kind} without a seat or tile")
        if state.phase is not _CLAIM_PHASE:
            self.report(
                "claim.target",
                f"seat {seat} claims {kind} with no discard to claim",
                "a discard",
                state.phase.value,
            )
            self.stop("a claim without a discard")
        discarder, tile = state.actor, state.last_tile
        # a CLAIM phase always has its discarder and discard (on_discard sets both)
        assert discarder is not None and tile is not None
        if ev.from_seat is not None and ev.from_seat != discarder:
            self.report(
                "claim.target",
                f"the {kind} names seat {ev.from_seat} as discarder",
                f"seat {discarder}",
                f"seat {ev.from_seat}",
            )
        if seat == discarder:
            self.report(
                "claim.own_discard",
                f"seat {seat} claims its own discard",
                "another seat",
                f"seat {seat}",
            )
        if state.wall.remaining((discarder + 1) % 4) == 0:
            self.report(
                "claim.last_discard",
                f"{kind} on the last discard before the wall runs out",
                "hu or huang",
                kind,
            )
        player = state.seats[seat]
        if ev.kind is _CHI:
            middle = ev.tile
            claimed = ev.claimed if ev.claimed is not None else tile
            if claimed != tile:
                self.report(
                    "claim.target",
                    "the chi takes a tile other than the last discard",
                    _t(tile),
                    _t(claimed),
                )
            if not (middle < 27 and 1 <= middle % 9 <= 7 and abs(tile - middle) <= 1):
                self.report(
                    "claim.target",
                    f"chi around {_t(middle)} cannot use {_t(tile)}",
                    "a run with the discard",
                    f"{_t(middle)} chi {_t(tile)}",
                )
                self.stop("the chi is not a run")
            if seat != (discarder + 1) % 4:
                self.report(
                    "claim.chi_seat",
                    f"seat {seat} chis the discard of seat {discarder}",
                    f"seat {(discarder + 1) % 4}",
                    f"seat {seat}",
                )
            for other in (middle - 1, middle, middle + 1):
                if other != tile:
                    self.take(seat, other, 1, "claim.not_held", "chis with")
            meld = _meld("CHI", middle, tile - middle + 2)
            for other in (middle - 1, middle, middle + 1):
                if other != tile:
                    state.visible[other] += 1
        else:
            if ev.tile != tile:
                self.report(
                    "claim.target",
                    f"the {kind} names a tile other than the last discard",
                    _t(tile),
                    _t(ev.tile),
                )
            need = 2 if ev.kind is _PENG else 3
            self.take(seat, tile, need, "claim.not_held", f"{kind}s with")
            state.visible[tile] += need
            meld = _meld("PENG" if need == 2 else "GANG", tile, (seat - discarder) % 4)
        player.melds.append(meld)
        river = state.seats[discarder].river
        if river:
            river[-1] = (river[-1][0], True)
        state.actor = seat
        state.drawn = None
        state.phase = _KONG_PHASE if ev.kind is _GANG else _DISCARD_PHASE
        state.after_kong = False
        self.last_claim = (kind, seat)
        self.claim_from = discarder

    def on_concealed_kong(self, ev: Event) -> None:
        state, seat, tile = self.state, ev.seat, ev.tile
        if seat is None or tile is None:
            self.stop("a concealed kong without a seat or tile")
        self.check_own_turn(seat, "declares a concealed kong")
        self.take(seat, tile, 4, "tile.not_held", "declares a concealed kong of")
        state.seats[seat].melds.append(_meld("GANG", tile, 0))
        state.actor = seat
        state.phase = _KONG_PHASE
        state.drawn = None

    def on_added_kong(self, ev: Event) -> None:
        state, seat, tile = self.state, ev.seat, ev.tile
        if seat is None or tile is None:
            self.stop("an added kong without a seat or tile")
        self.check_own_turn(seat, "adds a kong")
        melds = state.seats[seat].melds
        index = next((i for i, m in enumerate(melds) if m.kind == "PENG" and m.tile == tile), None)
        if index is None:
            self.report(
                "kong.added",
                f"seat {seat} adds {_t(tile)} to a pung it does not have",
                f"a pung of {_t(tile)}",
                "none",
            )
        self.take(seat, tile, 1, "tile.not_held", "adds to a kong")
        if index is not None:
            melds[index] = _meld("GANG", tile, melds[index].offer)
        else:
            melds.append(_meld("GANG", tile, 0))  # keep the tile count meaningful
        state.visible[tile] += 1
        state.actor = seat
        state.phase = _ROBBABLE_PHASE
        state.last_tile = tile
        state.drawn = None

    def on_ignored(self, ev: Event) -> None:
        state, seat, kind = self.state, ev.seat, ev.claim
        if self.last_claim is None or seat is None or kind is None:
            self.report("claim.target", "an ignored claim that follows no claim", "a claim", "ignored")
            return
        taken, winner = self.last_claim
        discarder = self.claim_from
        rank = self.profile.claim_rank
        ign, won = rank.get(kind, 0), rank.get(taken, 0)
        distance_ign, distance_won = (seat - discarder) % 4, (winner - discarder) % 4
        if ign > won or (ign == won and distance_ign < distance_won):
            self.report(
                "claim.priority",
                f"seat {winner}'s {taken} was taken over seat {seat}'s {kind}",
                f"seat {seat} {kind}",
                f"seat {winner} {taken}",
            )
        # The ignored claimer's tiles are untouched by the winning claim: check it was possible.
        held = state.seats[seat].concealed
        tile = ev.tile
        problem = None
        if kind == "chi":
            claimed = state.last_tile
            if seat != (discarder + 1) % 4:
                problem = "chi by a seat that is not next after the discarder"
            elif (
                tile is None
                or claimed is None
                or not (tile < 27 and 1 <= tile % 9 <= 7 and abs(claimed - tile) <= 1)
            ):
                problem = "chi that is not a run with the discard"
            elif any(held[t] < 1 for t in (tile - 1, tile, tile + 1) if t != claimed):
                problem = "chi without the two tiles"
        elif kind in ("peng", "gang"):
            need = 2 if kind == "peng" else 3
            if state.last_tile is None or held[state.last_tile] < need:
                problem = f"{kind} without {need} tiles"
        if problem:
            self.report(
                "claim.ignored_illegal",
                f"ignored claim of seat {seat}: {problem}",
                "a possible claim",
                f"seat {seat} {kind} {_t(tile)}",
            )

    def on_hu(self, ev: Event) -> None:
        state, seat = self.state, ev.seat
        if seat is None:
            self.stop("a win without a seat")
        phase, actor = state.phase, state.actor
        assert actor is not None  # end_deal gives the turn to the dealer before any play event
        discarder: int | None
        tile: int | None
        if phase is _DISCARD_PHASE and actor == seat and state.drawn is not None:
            self_drawn, discarder, tile = True, None, state.drawn
            kong_win = state.after_kong  # 杠上开花
            # 妙手回春: nobody can draw after this one (the next seat's wall is empty), whatever
            # is left in the winner's own wall: the Botzone judge's isWallLast, set at each draw
            last_tile = state.wall.remaining((seat + 1) % 4) == 0
        elif phase is _CLAIM_PHASE and actor != seat:
            self_drawn, discarder, tile = False, actor, state.last_tile
            kong_win = False
            # 海底捞月: the same flag, set at the discarder's last draw or chi/peng: the seat after
            # the discarder has an empty wall, so Huang would follow
            last_tile = state.wall.remaining((actor + 1) % 4) == 0
        elif phase is _ROBBABLE_PHASE and actor != seat:
            self_drawn, discarder, tile = False, actor, state.last_tile
            kong_win = True  # 抢杠和
            last_tile = False
        else:
            self.report(
                "win.timing",
                f"seat {seat} declares a win in phase {phase.value}",
                "own draw, another's discard or added kong",
                f"seat {seat} hu",
            )
            self.stop("a win with no winning tile")
        assert tile is not None  # on_discard and on_added_kong set last_tile with those phases
        state.phase = _ENDED_PHASE
        self.shared_win = None if self_drawn else (phase, actor)
        self.winners.append(seat)
        self.win_no = self.hus
        self.hus += 1
        self.last_claim = ("hu", seat)
        self.claim_from = discarder if discarder is not None else seat
        robbed = phase is _ROBBABLE_PHASE
        self.check_win_record(ev, seat, discarder, tile, self_drawn, robbed)
        player = state.seats[seat]
        concealed = list(player.concealed)
        if self_drawn:
            concealed[tile] -= 1
        if not self.check_size(seat, self.full if self_drawn else self.full - 1, "wins"):
            return
        others = state.visible[tile] - (0 if self_drawn else 1)  # the winning tile itself is not
        # WinContext(winner, discarder, concealed, melds, win_tile, self_drawn, fourth_tile,
        # kong_win, last_tile, seat_wind, round_wind, flowers), built by its slots' setters
        values = (
            seat, discarder, tuple(t for t, n in enumerate(concealed) for _ in range(n)),
            tuple(player.melds), tile, self_drawn,
            others >= 3,  # 和绝张: the other three copies are on the table
            kong_win, last_tile, self.hand.seat_wind(seat), self.hand.prevalent_wind,
            self.flowers_of(seat),
        )  # fmt: skip
        ctx = frozen_record(WinContext, _WIN_CONTEXT, values)
        self.score_win(ctx)

    def flowers_of(self, seat: int) -> int:
        """Flowers ``seat`` has set aside (none where the profile has no flowers)."""
        return 0

    def recorded_win(self) -> Win | None:
        """The recorded win the HU being replayed tells (None: the record has fewer wins)."""
        result = self.hand.result
        if not result.is_win:
            return None
        return result.wins[self.win_no] if self.win_no < len(result.wins) else None

    def check_win_record(
        self,
        ev: Event,
        seat: int,
        discarder: int | None,
        tile: int,
        self_drawn: bool,
        robbed: bool,
        *,
        hu_names_tile: bool | None = None,
        tile_recorded: bool = True,
    ) -> None:
        """The HU event and the recorded result must tell the same win as the replayed table.

        ``hu_names_tile``: whether the HU event names the winning tile (default: not on a
        self-draw, botzone-format.md's quirk); ``tile_recorded``: whether the result's win tile
        is the replayed one (a profile turns it off for wins without a winning tile, 三金倒).
        """
        result = self.hand.result
        recorded = self.recorded_win()
        if hu_names_tile is None:
            hu_names_tile = not self_drawn
        if hu_names_tile and ev.tile is not None and ev.tile != tile:
            self.report("win.tile", f"the Hu names {_t(ev.tile)}", _t(tile), _t(ev.tile))
        if ev.from_seat != discarder:
            self.report("result.outcome", "the Hu names the wrong discarder", discarder, ev.from_seat)
        if (ev.win is _ROB_KONG) != robbed:
            self.report(
                "result.outcome",
                "robbing the kong recorded wrongly",
                "rob_kong" if robbed else "-",
                ev.win.value if ev.win else "-",
            )
        if result.outcome is not Outcome.WIN:
            if self.win_no == 0:
                self.report("result.outcome", "the events end in a win", "win", result.outcome.value)
            return
        if recorded is None:
            self.report("result.outcome", f"seat {seat}'s win is not among the recorded wins",
                        self.win_no + 1, len(result.wins))
            return
        if recorded.winner != seat:
            self.report("result.outcome", "the recorded winner differs", seat, recorded.winner)
        if recorded.loser != discarder:
            self.report("result.outcome", "the recorded discarder differs", discarder, recorded.loser)
        if recorded.self_drawn != self_drawn:
            self.report("result.outcome", "self-draw recorded wrongly", self_drawn, recorded.self_drawn)
        if tile_recorded and recorded.win_tile is not None and recorded.win_tile != tile:
            self.report("win.tile", "the recorded winning tile differs", _t(tile), _t(recorded.win_tile))

    def score_win(self, ctx: WinContext) -> None:
        """Rescore one win (the first sets ``context``/``win``, later ones go to ``more_wins``)
        and compare it with the recorded win it tells; the scores once every win is scored."""
        first = not self.scored_first  # (a subclass may set ``context`` before calling this)
        if first:
            self.scored_first = True
            self.context = ctx
        try:
            win: ComputedWin | None = self.profile.evaluate_win(ctx)
        except (NotWinningHand, InvalidHand) as exc:
            self.report(
                "win.not_winning",
                f"seat {ctx.winner}'s tiles do not win: {exc}",
                "a winning hand",
                "hu",
            )
            win = None
        if first:
            self.win = win
        else:
            self.more_wins.append((self.win_no, ctx, win))
        if win is None:
            return
        if not win.meets_minimum:
            self.report("win.minimum", f"the win is worth {win.total} fan", "at least 8", win.total)
        recorded_win = self.recorded_win()
        if recorded_win is None:
            return
        computed = sorted((f.name, f.count) for f in win.fans)
        recorded = sorted((self.fan_key(f.name), f.count) for f in recorded_win.fans)
        if computed != recorded:
            self.report(
                "win.fans",
                "the recorded fans differ from the recomputed ones",
                _fans_text(computed),
                _fans_text(recorded),
            )
        if recorded_win.fan_total is not None and recorded_win.fan_total != win.total:
            self.report("win.fan_total", "the recorded fan total differs", win.total,
                        recorded_win.fan_total)
        self.scored.append(win)

    def fan_key(self, name: str) -> str:
        """The profile's ``fan_key(name)``, asked once a profile and name (profiles are
        immutable: the answer is kept, ``_FAN_KEYS``)."""
        profile = self.profile
        known = _FAN_KEYS.get(id(profile))
        if known is None or known[0] is not profile:
            known = _FAN_KEYS[id(profile)] = (profile, {})
        keys = known[1]
        key = keys.get(name)
        if key is None:
            key = keys[name] = profile.fan_key(name)
        return key

    def check_win_scores(self) -> None:
        """The recorded scores against the rescored wins, once every Hu is replayed. With
        several wins the base replayer knows no payment rule, so it says so
        (``result.scores_unchecked``) instead of guessing; a profile may override this."""
        if not self.scored or not self.hand.result.is_win:
            return
        if len(self.winners) == 1:
            self.check_scores(self.scored[0].payments)
        elif self.hand.result.scores is not None:
            self.report(
                "result.scores_unchecked",
                f"{len(self.winners)} winners on one tile: how the {self.profile.name} profile "
                "pays several winners is not pinned down, the scores are not checked",
            )

    def check_scores(self, expected: tuple[int, ...]) -> None:
        recorded = self.hand.result.scores
        if recorded is None:
            return
        if tuple(recorded) != tuple(expected):
            seats = [s for s in range(4) if s >= len(recorded) or recorded[s] != expected[s]]
            self.report(
                "result.scores",
                f"scores of seats {seats} differ from the payments",
                " ".join(map(str, expected)),
                " ".join(map(str, recorded)),
            )

    def on_huang(self, ev: Event) -> None:
        state = self.state
        phase, actor = state.phase, state.actor
        assert actor is not None  # end_deal gives the turn to the dealer before any play event
        if phase is _DISCARD_PHASE:
            self.report(
                "turn.sequence",
                f"Huang while seat {actor} owes a discard",
                f"seat {actor} discards",
                "huang",
            )
            must_draw = actor
        else:
            must_draw = (actor + 1) % 4 if phase is _CLAIM_PHASE else actor
        left = state.wall.remaining(must_draw)
        if left:
            self.report(
                "draw.not_exhausted",
                f"Huang while seat {must_draw} still has {left} tiles to draw",
                "an empty wall",
                f"{left} left",
            )
        state.phase = _ENDED_PHASE
        result = self.hand.result
        if result.outcome is not Outcome.DRAW:
            self.report(
                "result.outcome",
                "the events end in an exhaustive draw",
                "draw",
                result.outcome.value,
            )
            return
        self.check_scores((0, 0, 0, 0))  # botzone-format.md: Huang is followed by "Score 0 0 0 0"


def _neutral_steps(cls: type) -> bool:
    """Whether replay class ``cls`` draws and discards by the neutral handlers (which
    :meth:`HandReplay.play_columns` calls without an Event)."""
    known = _NEUTRAL_STEPS.get(cls)
    if known is None:
        base: Any = HandReplay
        steps: Any = cls
        known = _NEUTRAL_STEPS[cls] = steps.on_draw is base.on_draw and steps.on_discard is base.on_discard
    return known


_NEUTRAL_STEPS: Final[dict[type, bool]] = {}


def _describe(ev: Event) -> str:
    """One event as a short line of text (Botzone codes)."""
    who = f"seat {ev.seat} " if ev.seat is not None else ""
    kind = ev.kind.value
    if ev.kind is _DEAL:
        return f"{who}deal {' '.join(_t(t) for t in ev.tiles)}"
    if ev.kind is _IGNORED:
        return f"{who}{ev.claim} {_t(ev.tile)} ignored"
    if ev.kind is _CHI:
        run = "" if ev.tile is None else "".join(_t(t) for t in (ev.tile - 1, ev.tile, ev.tile + 1))
        return f"{who}chi {_t(ev.claimed)} from seat {ev.from_seat} into {run}"
    text = f"{who}{kind}" + (f" {_t(ev.tile)}" if ev.tile is not None else "")
    if ev.from_seat is not None:
        text += f" from seat {ev.from_seat}"
    if ev.win is not None:
        text += f" ({ev.win.value})"
    return text


def replay_hand(
    hand: Hand,
    profile: ReplayProfile | None = None,
    *,
    explain: bool = False,
    columns: EventColumns | None = None,
) -> ReplayResult:
    """Replay one hand and check it. ``profile`` defaults to the hand's (ruleset, profile);
    ``explain`` keeps a :class:`TurnState` after every event. ``columns``: ``hand`` was made
    without its events, which are rows ``columns.first:stop`` (``mjstats.event_columns``); the
    replay steps over them where the profile reads columns (``ReplayProfile.reads_columns``) and
    its replay class keeps the neutral draw and discard, else it gets the hand with its events."""
    chosen = profile or profile_for(hand)
    cls = chosen.replay_class or HandReplay
    if columns is not None and not (chosen.reads_columns and _neutral_steps(cls)):
        hand, columns = with_events(hand, columns.events()), None
    # typed: run, columns and handlers reached natively in the compiled build (not by name)
    replay: HandReplay = cls(hand, chosen, explain)
    replay.columns = columns
    try:
        return replay.run()
    finally:
        # the handlers are bound methods of the replay: without them it is freed at once, not by
        # a cyclic collection (the audit pauses the collector: mjstats.gc_pause)
        replay.handlers.clear()
