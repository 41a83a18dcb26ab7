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
    "Provenance",
    "Reject",
    "Result",
    "WinKind",
    "group_matches",
    "shorten",
]


class EventKind(StrEnum):
    """What happened at one step of a hand. The values are the canonical format's ``k`` field."""

    DEAL = "deal"  # seat receives its starting tiles (13 Guobiao; 16, dealer 17 Fuzhou)
    DRAW = "draw"  # seat draws one tile; ``tail`` = from the wall's tail (replacement)
    DISCARD = "discard"  # seat discards ``tile``
    CHI = "chi"  # seat chows the last discard; ``tile`` = middle tile, ``claimed`` = the discard
    PENG = "peng"  # seat pungs the last discard ``tile`` from ``from_seat``
    GANG = "gang"  # exposed kong on the last discard ``tile`` from ``from_seat``
    ANGANG = "angang"  # concealed kong of four held ``tile``
    BUGANG = "bugang"  # adds ``tile`` to its own exposed pung
    FLOWER = "flower"  # seat sets aside flower ``tile`` (a replacement DRAW with tail=True follows)
    GOLD = "gold"  # the tile turned up as gold (Fuzhou); a flower here goes to the dealer
    IGNORED = "ignored"  # a claim on the same discard that lost: ``claim`` = its kind
    HU = "hu"  # seat wins with ``tile``; ``from_seat`` = discarder / robbed konger
    HUANG = "huang"  # exhaustive draw: the wall ran out
    PENALTY = "penalty"  # the judge stopped the hand for seat's wrong action (Botzone ``WA``)


CLAIM_KINDS = frozenset({"chi", "peng", "gang", "hu"})


class Outcome(StrEnum):
    WIN = "win"
    DRAW = "draw"  # exhaustive draw (荒庄)
    PENALTY = "penalty"  # stopped for a wrong action (Botzone ``WA``): no win, a penalty paid


class WinKind(StrEnum):
    """How a win came about, where it is not a plain discard win or self-draw."""

    ROB_KONG = "rob_kong"  # 抢杠和: won on another's added kong
    ROB_GOLD = "rob_gold"  # 抢金 (Fuzhou): won with the face-up gold on the first turn
    THREE_GOLDS = "three_golds"  # 三金倒 (Fuzhou): three golds held, any shape
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
    """One fan (Guobiao) or scoring item (Fuzhou) as a platform recorded it."""

    name: str
    count: int = 1
    points: int | None = None  # points per occurrence, where the record gives them


@dataclass(frozen=True, slots=True)
class Result:
    """The result as the platform recorded it (never recomputed here: the audit does that)."""

    outcome: Outcome
    winner: int | None = None
    loser: int | None = None  # discarder (or robbed konger); None on self-draw or draw
    win_tile: Tile | None = None
    self_drawn: bool = False
    fan_total: int | None = None  # recorded total (Guobiao: flowers included)
    fans: tuple[FanEntry, ...] = ()
    scores: tuple[int, ...] | None = None  # net points per seat, zero-sum
    pattern: str | None = None  # Fuzhou: the recorded pattern (三金倒, 金雀, ...)

    @property
    def is_win(self) -> bool:
        return self.outcome is Outcome.WIN


@dataclass(frozen=True, slots=True)
class Hand:
    """One hand (局) of a match: its setting, every event in order and the recorded result."""

    match_id: str
    hand_no: int
    ruleset: str  # "guobiao" | "fuzhou"
    profile: str  # rule profile the platform played: "botzone", "standard", "seed", ...
    dealer: int
    prevalent_wind: int
    events: tuple[Event, ...]
    result: Result
    players: tuple[str, ...] = ("", "", "", "")  # player name per seat
    styles: tuple[str, ...] = ()  # bot style per seat (simulated data), else empty
    streak: int = 0  # dealer streak (连庄数) in force during this hand
    gold: Tile | None = None  # Fuzhou: the gold kind
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
