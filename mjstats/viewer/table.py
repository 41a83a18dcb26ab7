"""The table at each event of a hand, ready to draw: every seat's concealed tiles (with the tile
just drawn apart), melds (the claimed tile sideways, a concealed kong's ends face down), river,
flowers, the wall count, the event, its findings and decision flags.

Built from the replayer's turn states (``replay_hand(hand, explain=True)``), so the table shown
is the one the audit checked; the flowers, the drawn tile and what to highlight come from the
hand's events. Pure: no I/O, the same hand always gives the same views.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from mjstats.records import Event, EventKind, Hand
from mjstats.replay.profile import Meld
from mjstats.replay.replayer import ReplayResult, replay_hand
from mjstats.replay.state import TurnState
from mjstats.viewer.tiles_svg import BACK

__all__ = [
    "FindingMark",
    "MeldView",
    "SeatView",
    "TableView",
    "meld_view",
    "table_views",
    "turn_view",
    "voids_of",
]




@dataclass(frozen=True, slots=True)
class FindingMark:
    """An audit finding shown at its event (``seq`` None: about the hand's result)."""

    seq: int | None
    check: str
    severity: str
    message: str

    def __str__(self) -> str:
        return f"[{self.severity}] {self.check}: {self.message}"


@dataclass(frozen=True, slots=True)
class MeldView:
    """One meld as drawn: tile codes left to right (``BACK`` face down) and the index of the
    claimed tile, drawn sideways (None: nothing claimed)."""

    tiles: tuple[int, ...]
    rotated: int | None

    def _repr_svg_(self) -> str:
        from mjstats.viewer.render import meld_svg

        return meld_svg(self)


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat at one moment."""

    seat: int
    wind: int  # the seat's wind, 0 E .. 3 N (-1: not known)
    name: str
    concealed: tuple[int, ...]  # sorted, without the tile just drawn
    drawn: int | None  # the tile just drawn (or won with), shown apart
    melds: tuple[MeldView, ...]
    river: tuple[tuple[int, bool], ...]  # (tile, taken by a claim)
    flowers: tuple[int, ...]
    void: int | None  # the void suit 0 W / 1 T / 2 B (定缺), None when the hand has none


@dataclass(frozen=True, slots=True)
class TableView:
    """The whole table after one event (``index`` counts events from 0)."""

    match_id: str
    hand_no: int
    index: int
    seq: int
    event: str
    actor: int | None
    dealer: int  # -1: not known
    wall: str
    gold: int | None
    seats: tuple[SeatView, ...]
    # what to outline: (seat, place, index) with place one of drawn/river/meld/flower
    focus: tuple[int, str, int] | None
    findings: tuple[FindingMark, ...]
    flags: tuple[str, ...]  # decision flags of the seat's discard, where a decisions table has them
    note: str = ""  # e.g. the replay stopped before this event

    def _repr_svg_(self) -> str:
        from mjstats.viewer.render import table_svg

        return table_svg(self)

    def _repr_html_(self) -> str:
        from mjstats.viewer.render import table_html

        return table_html(self)


def voids_of(hand: Hand) -> tuple[int | None, ...]:
    """Each seat's void suit (定缺, 0 W / 1 T / 2 B) from its ``void`` event (docs/format.md: the
    suit of the event's tile); None for a seat that declared none."""
    out: list[int | None] = [None] * 4
    for event in hand.events:
        if (event.kind is EventKind.VOID and event.seat is not None and event.tile is not None
                and 0 <= event.seat < 4 and 0 <= int(event.tile) < 27):
            out[event.seat] = int(event.tile) // 9
    return tuple(out)


@lru_cache(maxsize=4096)
def meld_view(meld: Meld) -> MeldView:
    """A replayer meld as drawn. reference: the claimed tile lies sideways at the side of the
    seat it came from (offer 1 previous seat: left; 2 opposite: middle; 3 next seat: right);
    a chow's claimed tile is offer 1..3 of its three; a concealed kong shows its ends face down."""
    if meld.kind == "CHI":
        return MeldView(meld.tiles, meld.offer - 1 if 1 <= meld.offer <= 3 else None)
    if meld.kind == "GANG" and meld.offer == 0:
        return MeldView((BACK, meld.tile, meld.tile, BACK), None)
    size = meld.size
    rotated = {1: 0, 2: 1, 3: size - 1}.get(meld.offer)
    return MeldView(meld.tiles, rotated)


def _without_one(tiles: tuple[int, ...], tile: int) -> tuple[int, ...]:
    if tile in tiles:
        i = tiles.index(tile)
        return tiles[:i] + tiles[i + 1 :]
    return tiles


def _findings_by_seq(findings: Iterable[FindingMark]) -> dict[int | None, tuple[FindingMark, ...]]:
    by: dict[int | None, list[FindingMark]] = {}
    for f in findings:
        by.setdefault(f.seq, []).append(f)
    return {k: tuple(v) for k, v in by.items()}


def _marks_of(result: ReplayResult) -> list[FindingMark]:
    return [FindingMark(f.seq, f.check, str(f.severity), f.message) for f in result.findings]


def table_views(
    hand: Hand,
    result: ReplayResult | None = None,
    *,
    findings: Sequence[FindingMark] | None = None,
    decisions: Mapping[int, Sequence[str]] | None = None,
) -> tuple[TableView, ...]:
    """The table after every event of ``hand``.

    ``result``: a replay with turn states (``replay_hand(hand, explain=True)``; replayed here
    when None). ``findings``: what to mark (default: the replay's own findings). ``decisions``:
    decision flags by event ``seq``. After a replay that stopped, the remaining events show the
    last table the replay reached, with a note saying so."""
    if result is None or (not result.turns and hand.events):
        result = replay_hand(hand, explain=True)
    marks = _findings_by_seq(_marks_of(result) if findings is None else findings)
    turns: dict[int, TurnState] = {t.seq: t for t in result.turns}
    voids = voids_of(hand)
    names = tuple(hand.players) + ("",) * (4 - len(hand.players))
    flowers: list[list[int]] = [[], [], [], []]
    views: list[TableView] = []
    last: TurnState | None = None
    for index, event in enumerate(hand.events):
        turn = turns.get(event.seq)
        note = ""
        if turn is None:
            note = "the replay stopped before this event: the table is the last one it reached"
        else:
            last = turn
        # a flower set aside; a GOLD event with a seat is a flower turned up, which goes to that seat
        given = event.kind in (EventKind.FLOWER, EventKind.GOLD) and event.tile is not None
        if given and turn is not None and event.seat is not None and 0 <= event.seat < 4:
            flowers[event.seat].append(int(event.tile))  # type: ignore[arg-type]
        seat_tiles = [tuple(last.concealed[s]) if last else () for s in range(4)]
        drawn: list[int | None] = [None] * 4
        focus = _focus(event, last, flowers) if turn is not None else None
        if turn is not None and event.seat is not None and event.tile is not None:
            if event.kind is EventKind.DRAW or (event.kind is EventKind.HU and event.from_seat is None):
                if int(event.tile) in seat_tiles[event.seat]:
                    seat_tiles[event.seat] = _without_one(seat_tiles[event.seat], int(event.tile))
                    drawn[event.seat] = int(event.tile)
            elif event.kind is EventKind.HU:
                drawn[event.seat] = int(event.tile)  # won on a discard or a robbed kong
        seats = tuple(
            SeatView(
                seat=s,
                wind=hand.seat_wind(s),
                name=names[s],
                concealed=seat_tiles[s],
                drawn=drawn[s],
                melds=tuple(meld_view(m) for m in last.melds[s]) if last else (),
                river=last.rivers[s] if last else (),  # (tile, taken) pairs already
                flowers=tuple(flowers[s]),
                void=voids[s],
            )
            for s in range(4)
        )
        views.append(
            TableView(
                match_id=hand.match_id,
                hand_no=hand.hand_no,
                index=index,
                seq=event.seq,
                event=turn.event if turn is not None else _fallback_text(event),
                actor=event.seat,
                dealer=hand.dealer,
                wall=last.wall if last else "",
                gold=None if hand.gold is None else int(hand.gold),
                seats=seats,
                focus=focus,
                findings=marks.get(event.seq, ()),
                flags=tuple(decisions.get(event.seq, ())) if decisions else (),
                note=note,
            )
        )
    return tuple(views)


def turn_view(turn: TurnState) -> TableView:
    """A replayer turn state drawn on its own: without its hand there is no dealer, wind, name
    or gold to show (:func:`table_views` shows them)."""
    seats = tuple(
        SeatView(
            seat=s,
            wind=-1,
            name="",
            concealed=tuple(turn.concealed[s]),
            drawn=None,
            melds=tuple(meld_view(m) for m in turn.melds[s]),
            river=tuple((int(t), bool(c)) for t, c in turn.rivers[s]),
            flowers=(),
            void=None,
        )
        for s in range(4)
    )
    return TableView(
        match_id="",
        hand_no=0,
        index=0,
        seq=turn.seq,
        event=turn.event,
        actor=turn.actor,
        dealer=-1,
        wall=turn.wall,
        gold=None,
        seats=seats,
        focus=None,
        findings=(),
        flags=(),
    )


def _fallback_text(event: Event) -> str:
    who = f"seat {event.seat} " if event.seat is not None else ""
    return f"{who}{event.kind.value}" + (f" {event.tile}" if event.tile is not None else "")


def _focus(event: Event, turn: TurnState | None, flowers: list[list[int]]) -> tuple[int, str, int] | None:
    """The tile the event moved: drawn, discarded, claimed into a meld, set aside, won with."""
    seat = event.seat
    if seat is None or turn is None or not 0 <= seat < 4:
        return None
    kind = event.kind
    if kind is EventKind.DRAW or kind is EventKind.HU:
        return (seat, "drawn", 0) if event.tile is not None else None
    if kind is EventKind.DISCARD and turn.rivers[seat]:
        return (seat, "river", len(turn.rivers[seat]) - 1)
    if kind in (EventKind.CHI, EventKind.PENG, EventKind.GANG, EventKind.ANGANG, EventKind.BUGANG):
        melds = turn.melds[seat]
        if not melds:
            return None
        if kind is EventKind.BUGANG and event.tile is not None:
            for i, m in enumerate(melds):
                if m.kind == "GANG" and m.tile == int(event.tile):
                    return (seat, "meld", i)
        return (seat, "meld", len(melds) - 1)
    if kind in (EventKind.FLOWER, EventKind.GOLD) and flowers[seat]:
        return (seat, "flower", len(flowers[seat]) - 1)
    return None
