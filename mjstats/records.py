"""The record model: hands, their events, recorded results and provenance (frozen, no I/O).

Every reader (``mjstats.formats``) yields :class:`Hand` or :class:`Reject` values; the store,
the replayer and the simulator all speak this model. Seats are 0..3 in turn order (Botzone's
player numbers); the dealer's seat is ``Hand.dealer``; a seat's wind is ``(seat - dealer) % 4``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import NamedTuple

from mjstats.tiles import Tile

__all__ = [
    "CLAIM_KINDS",
    "DUPLICATE_HAND",
    "EVENT_FIELDS",
    "Event",
    "EventKind",
    "FanEntry",
    "Hand",
    "Match",
    "Outcome",
    "Payment",
    "PaymentReason",
    "Provenance",
    "Reject",
    "Result",
    "Win",
    "WinKind",
    "group_matches",
    "shorten",
]


class EventKind(StrEnum):
    """What happened at one step of a hand. The values are the canonical format's ``k`` field."""

    DEAL = "deal"  # seat receives its starting tiles (the ruleset's hand size; the dealer may get one more)
    DRAW = "draw"  # seat draws one tile; ``tail`` = from the wall's tail (replacement)
    DISCARD = "discard"  # seat discards ``tile``
    CHI = "chi"  # seat chows the last discard; ``tile`` = middle tile, ``claimed`` = the discard
    PENG = "peng"  # seat pungs the last discard ``tile`` from ``from_seat``
    GANG = "gang"  # exposed kong on the last discard ``tile`` from ``from_seat``
    ANGANG = "angang"  # concealed kong of four held ``tile``
    BUGANG = "bugang"  # adds ``tile`` to its own exposed pung
    FLOWER = "flower"  # seat sets aside flower ``tile`` (a replacement DRAW with tail=True follows)
    GOLD = "gold"  # the tile turned up as gold (a wild); a flower turned up goes to the dealer
    IGNORED = "ignored"  # a claim on the same discard that lost: ``claim`` = its kind
    HU = "hu"  # seat wins with ``tile``; ``from_seat`` = discarder / robbed konger
    HUANG = "huang"  # exhaustive draw: the wall ran out
    PENALTY = "penalty"  # the judge stopped the hand for seat's wrong action (Botzone ``WA``)
    # before the first discard, in rulesets that play them (each ruleset's reference cites them)
    EXCHANGE = "exchange"  # 换三张: seat gives ``tiles`` (3 of one suit), receives from ``from_seat``
    VOID = "void"  # 定缺: seat declares the suit of ``tile`` void (writers name the suit's 1)


CLAIM_KINDS = frozenset({"chi", "peng", "gang", "hu"})


class Outcome(StrEnum):
    WIN = "win"
    DRAW = "draw"  # exhaustive draw (荒庄)
    PENALTY = "penalty"  # stopped for a wrong action (Botzone ``WA``): no win, a penalty paid


class WinKind(StrEnum):
    """How a win came about, where it is not a plain discard win or self-draw."""

    ROB_KONG = "rob_kong"  # 抢杠和: won on another's added kong
    ROB_GOLD = "rob_gold"  # 抢金: won with the face-up gold on the first turn
    THREE_GOLDS = "three_golds"  # 三金倒: three golds held, any shape
    HEAVENLY = "heavenly"  # 天和: dealer complete at the start


@dataclass(frozen=True, slots=True)
class Provenance:
    """Where a record was read from: source file, 1-based line of its first line, and its raw text.

    ``raw`` is kept for error reports and rejects; it is not written to the dataset for good hands.
    """

    source: str
    line: int
    raw: str | None = None


class Event(NamedTuple):
    """One action of a hand. Fields a kind does not use stay at their defaults.

    An immutable named tuple rather than a dataclass: a hand has about a hundred events, and
    tuples are four times cheaper to build and transpose straight into the dataset's columns.
    Use ``event._replace(...)`` to derive a changed copy.
    """

    seq: int
    kind: EventKind
    seat: int | None = None
    tile: Tile | None = None
    tiles: tuple[Tile, ...] = ()  # DEAL: the dealt tiles
    from_seat: int | None = None  # claims and HU on a discard: who discarded (or who konged)
    claimed: Tile | None = None  # CHI: the discarded tile taken into the chow
    tail: bool = False  # DRAW: from the tail of the wall (kong or flower replacement)
    claim: str | None = None  # IGNORED: the kind of claim that lost (chi/peng/gang/hu)
    win: WinKind | None = None  # HU: special way of winning
    line: int | None = None  # source line the event was read from


EVENT_FIELDS = Event._fields


@dataclass(frozen=True, slots=True)
class FanEntry:
    """One fan or scoring item (花番, 金番, a pattern) as a platform recorded it."""

    name: str
    count: int = 1
    points: int | None = None  # points per occurrence, where the record gives them


class PaymentReason(StrEnum):
    """Why points changed hands. A hand may hold several (kongs paid mid-hand, a
    settlement at the end), so each recorded payment says which."""

    WIN = "win"  # paid for a win (Payment.win_no says which)
    KONG = "kong"  # kong money paid when the kong is made
    SETTLEMENT = "settlement"  # end-of-hand settlement (查叫, 查花猪, ...)
    PENALTY = "penalty"  # a penalty for a wrong action (错和, 诈和, a tournament penalty)


@dataclass(frozen=True, slots=True)
class Payment:
    """One seat's recorded gain (+) or loss (-) for one reason, and the win it belongs to.

    A result's payments, summed per seat, are its ``scores``."""

    seat: int
    score: int
    reason: PaymentReason = PaymentReason.WIN
    win_no: int | None = None  # 0-based index into Result.wins, for reason WIN (else None)


@dataclass(frozen=True, slots=True)
class Win:
    """One win of a hand as the platform recorded it (a hand may hold several: 一炮多响,
    duplicate MCR's ``H1H3``, play going on after a win)."""

    winner: int | None = None
    loser: int | None = None  # discarder (or robbed konger); None on self-draw
    win_tile: Tile | None = None
    self_drawn: bool = False
    fan_total: int | None = None  # recorded total (flower fans included where they count)
    fans: tuple[FanEntry, ...] = ()
    pattern: str | None = None  # the recorded pattern where the rules have them (三金倒, 金雀, ...)


_WIN_FIELDS = ("winner", "loser", "win_tile", "self_drawn", "fan_total", "fans", "pattern")
_NO_WIN = Win()


@dataclass(frozen=True, slots=True, init=False)
class Result:
    """The result as the platform recorded it (never recomputed here: the audit does that).

    ``wins`` holds every win of the hand in record order (its index is the win's ``win_no``,
    0-based); ``scores`` the net points per seat; ``payments`` the itemised ledger where the
    record gives one (empty otherwise). The single-win API is kept: ``Result(outcome,
    winner=..., loser=..., win_tile=..., self_drawn=..., fan_total=..., fans=..., scores=...,
    pattern=...)`` builds a one-win result, and ``result.winner`` etc. read the first win;
    ``dataclasses.replace(result, fans=...)`` changes the first win.
    """

    outcome: Outcome
    wins: tuple[Win, ...]
    scores: tuple[int, ...] | None
    payments: tuple[Payment, ...]

    def __init__(
        self,
        outcome: Outcome,
        winner: int | None = None,
        loser: int | None = None,
        win_tile: Tile | None = None,
        self_drawn: bool = False,
        fan_total: int | None = None,
        fans: tuple[FanEntry, ...] = (),
        scores: tuple[int, ...] | None = None,
        pattern: str | None = None,
        *,
        wins: tuple[Win, ...] | None = None,
        payments: tuple[Payment, ...] = (),
    ) -> None:
        fans = tuple(fans)
        legacy = {
            name: value
            for name, value in zip(
                _WIN_FIELDS, (winner, loser, win_tile, self_drawn, fan_total, fans, pattern), strict=True
            )
            if value != getattr(_NO_WIN, name)
        }
        if wins is None:
            # the single-win form: one win when the outcome is a win or a field of it is given
            wins = (Win(**legacy),) if legacy or outcome is Outcome.WIN else ()
        elif legacy:
            # dataclasses.replace(result, fans=...) passes wins and the changed field:
            # the single-win fields given are the first win's
            first = wins[0] if wins else _NO_WIN
            wins = (Win(**{n: legacy.get(n, getattr(first, n)) for n in _WIN_FIELDS}), *wins[1:])
        payments = tuple(payments)
        if payments:
            # the ledger is the itemised form of the net scores: both must tell the same
            net = [0, 0, 0, 0]
            for payment in payments:
                net[payment.seat] += payment.score
            if scores is None:
                scores = tuple(net)
            elif tuple(scores) != tuple(net):
                raise ValueError(f"payments sum to {net} per seat, not the scores {list(scores)}")
        set_field = object.__setattr__
        set_field(self, "outcome", outcome)
        set_field(self, "wins", tuple(wins))
        set_field(self, "scores", scores)
        set_field(self, "payments", payments)

    @property
    def is_win(self) -> bool:
        return self.outcome is Outcome.WIN

    @property
    def first_win(self) -> Win:
        """The first recorded win (an empty :class:`Win` when there is none)."""
        return self.wins[0] if self.wins else _NO_WIN

    @property
    def winner(self) -> int | None:
        return self.first_win.winner

    @property
    def loser(self) -> int | None:
        return self.first_win.loser

    @property
    def win_tile(self) -> Tile | None:
        return self.first_win.win_tile

    @property
    def self_drawn(self) -> bool:
        return self.first_win.self_drawn

    @property
    def fan_total(self) -> int | None:
        return self.first_win.fan_total

    @property
    def fans(self) -> tuple[FanEntry, ...]:
        return self.first_win.fans

    @property
    def pattern(self) -> str | None:
        return self.first_win.pattern

    @property
    def winners(self) -> tuple[int, ...]:
        """Every seat with a recorded win, in record order."""
        return tuple(w.winner for w in self.wins if w.winner is not None)


@dataclass(frozen=True, slots=True)
class Hand:
    """One hand (局) of a match: its setting, every event in order and the recorded result."""

    match_id: str
    hand_no: int
    ruleset: str  # a registered ruleset name (mjstats.rulesets.recorded_names())
    profile: str  # rule profile the platform played: "botzone", "standard", "seed", ...
    dealer: int
    prevalent_wind: int
    events: tuple[Event, ...]
    result: Result
    players: tuple[str, ...] = ("", "", "", "")  # player name per seat
    styles: tuple[str, ...] = ()  # bot style per seat (simulated data), else empty
    streak: int = 0  # dealer streak (连庄数) in force during this hand
    gold: Tile | None = None  # the gold (wild) kind, where the rules turn one up
    wall: tuple[Tile, ...] | None = None  # full wall order where the record has it
    dice: tuple[int, ...] | None = None
    started_at: str | None = None  # ISO 8601 timestamp, where known
    meta: tuple[tuple[str, str], ...] = ()  # other platform fields, sorted by key
    provenance: Provenance | None = field(default=None, compare=False)  # the file and line read
    # where the hand was first recorded, when what was read is a copy (canonical ``source``)
    origin: Provenance | None = field(default=None, compare=False)

    @property
    def key(self) -> tuple[str, int]:
        return (self.match_id, self.hand_no)

    @property
    def period(self) -> str | None:
        """The month ``YYYY-MM`` the hand was played in, if known."""
        return self.started_at[:7] if self.started_at else None

    def seat_wind(self, seat: int) -> int:
        return (seat - self.dealer) % 4

    def _repr_html_(self) -> str:
        """The hand as tiles in a notebook: setting, starting tiles, result (mjstats.viewer)."""
        from mjstats.viewer.render import hand_html

        return hand_html(self)


DUPLICATE_HAND = "duplicate hand"  # how a duplicate's reject error starts (its own category)

MESSAGE_CHARS = 300  # longest reject message (and match id) kept or printed
MATCH_ID_CHARS = 100


def shorten(text: str, limit: int = MESSAGE_CHARS) -> str:
    """``text`` cut to at most ``limit`` characters, saying how much was left out: a hostile
    record can carry a 200 MB match id, and a message line must stay a line."""
    if len(text) <= limit:
        return text
    note = f"... [{len(text):,} characters]"
    return text[: max(0, limit - len(note))] + note


@dataclass(frozen=True, slots=True)
class Reject:
    """Input that could not be read as a hand: where it is, why, and the raw text.

    The error and the match id are cut to a sane length (:func:`shorten`) wherever the reject
    is made, so neither the rejects table nor a warning line repeats a huge field whole.
    """

    source: str
    line: int
    error: str
    match_id: str | None = None
    raw: str | None = None

    def __post_init__(self) -> None:
        if len(self.error) > MESSAGE_CHARS:
            object.__setattr__(self, "error", shorten(self.error))
        if self.match_id is not None and len(self.match_id) > MATCH_ID_CHARS:
            object.__setattr__(self, "match_id", shorten(self.match_id, MATCH_ID_CHARS))

    def __str__(self) -> str:
        where = f"{self.source}:{self.line}"
        if self.match_id:
            where += f" (match {self.match_id})"
        return f"{where}: {self.error}"


@dataclass(frozen=True, slots=True)
class Match:
    """A match: consecutive hands among the same players."""

    match_id: str
    ruleset: str
    profile: str
    players: tuple[str, ...]
    hands: tuple[Hand, ...]
    started_at: str | None = None


def group_matches(hands: Iterable[Hand]) -> Iterator[Match]:
    """Group consecutive hands with the same match id into matches (input order kept)."""
    current: list[Hand] = []
    for hand in hands:
        if current and hand.match_id != current[0].match_id:
            yield _match_of(current)
            current = []
        current.append(hand)
    if current:
        yield _match_of(current)


def _match_of(hands: list[Hand]) -> Match:
    first = hands[0]
    return Match(
        match_id=first.match_id,
        ruleset=first.ruleset,
        profile=first.profile,
        players=first.players,
        hands=tuple(hands),
        started_at=first.started_at,
    )
