"""Sichuan settlement: one hand's money from its sequence of settlement events (reference §4).

Events, in the order they happened: :class:`Kong` (刮风下雨, paid when made), :class:`Turn` (a
player begins a turn: only needed to tell one turn's kongs from the next for 呼叫转移),
:class:`Win` (a self-draw, a discard won by one or several players — 一炮多响 — or a robbed 补杠)
and :class:`HandEnd` (the wall ran out: each active player's final tiles, for 查花猪, 查大叫 and
退税). :func:`settle_hand` turns them into :class:`Payment` rows; the function is pure.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from mjstats.errors import RuleError
from mjstats.rulesets.sichuan.fan import WinContext, WinScore, ready_values, score_win
from mjstats.rulesets.sichuan.profiles import Profile, load_profile
from mjstats.rulesets.sichuan.tiles import (
    check_copies,
    count_tiles,
    meld_counts,
    normalize_melds,
    parse_suit,
    suited_tile,
    suited_tiles,
)
from mjstats.rulesets.sichuan.win import suits_held
from mjstats.slot_setters import frozen_record, record_setters, slot_setters
from mjstats.tiles import Tile

__all__ = [
    "DATASET_REASONS",
    "EndStatus",
    "HandEnd",
    "HandSettlement",
    "Kong",
    "Payment",
    "PlayerHand",
    "Turn",
    "Win",
    "Winner",
    "settle_hand",
    "settle_indexed",
]

# Payment.reason -> the dataset's payment reasons (win, kong, settlement, penalty); 查花猪 is
# the one end-of-hand item stored as a penalty (see Payment.dataset_reason).
DATASET_REASONS: dict[str, str] = {
    "win": "win",
    "kong": "kong",
    "transfer": "kong",
    "refund": "kong",
    "settlement": "settlement",
}
_ORDERS = tuple(tuple((s + i) % 4 for i in range(4)) for s in range(4))
_OTHERS = tuple(order[1:] for order in _ORDERS)  # the other seats in turn order after each
_RANKS = tuple({s: n for n, s in enumerate(order)} for order in _ORDERS)  # place in each order
_KONG_DETAIL = {"direct": "KONG_DIRECT", "added": "KONG_ADDED", "concealed": "KONG_CONCEALED"}
_CONTEXTS: dict[tuple[object, ...], WinContext] = {}  # the WinContext of each combination of flags


def _seat(value: object, what: str) -> int:
    if type(value) is int and 0 <= value <= 3:  # the common case (a bool is no seat)
        return value
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 3:
        raise RuleError(f"{what} must be a seat 0..3, got {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class Kong:
    """A completed kong. ``kind``: ``"direct"`` (直杠 on ``discarder``'s discard), ``"added"``
    (补杠 onto the own pong; ``late`` = the tile was held since earlier, 过手杠) or
    ``"concealed"`` (暗杠). A robbed 补杠 never completes: it is no Kong event."""

    seat: int
    kind: str
    tile: Any  # a Tile or any notation suited_tile reads (Any: a compiled class checks annotations)
    discarder: int | None = None
    late: bool = False


@dataclass(frozen=True, slots=True)
class Turn:
    """``seat`` begins a turn (a draw from the wall or a pong claim; a 直杠 begins one by
    itself). Kongs before it no longer count as "this turn's" for 杠上花/杠上炮 and 呼叫转移."""

    seat: int


@dataclass(frozen=True, slots=True)
class Winner:
    """One winning hand: ``hand`` is the concealed tiles without the winning tile."""

    seat: int
    hand: tuple[Any, ...]  # Tiles or notations (see Kong.tile)
    melds: tuple[Sequence[Any], ...] = ()
    void: Any = None  # a suit index or name, as parse_suit reads
    earthly: bool = False  # claims 地胡


@dataclass(frozen=True, slots=True)
class Win:
    """A win on ``tile``: a self-draw (``discarder`` None, one winner), a discard (``discarder``
    its player; several winners = 一炮多响) or a robbed 补杠 (``robbed_kong``; ``discarder`` is the
    robbed player). ``kong_win`` 杠上花, ``kong_discard`` 杠上炮, ``last_tile`` 海底, ``heavenly`` 天胡."""

    tile: Any  # see Kong.tile
    winners: tuple[Winner, ...]
    discarder: int | None = None
    robbed_kong: bool = False
    kong_win: bool = False
    kong_discard: bool = False
    last_tile: bool = False
    heavenly: bool = False


@dataclass(frozen=True, slots=True)
class PlayerHand:
    """An active player's tiles when the wall runs out: concealed tiles, melds, void suit (None:
    no declaration, then holding all three suits makes a 花猪)."""

    seat: int
    hand: tuple[Any, ...]  # see Winner
    melds: tuple[Sequence[Any], ...] = ()
    void: Any = None


@dataclass(frozen=True, slots=True)
class HandEnd:
    """The wall is exhausted: every still-active player's tiles. ``visible`` (27 counts: ponds,
    every meld, the winners' shown hands) is needed only by profiles that treat 死叫 apart."""

    players: tuple[PlayerHand, ...]
    visible: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class Payment:
    """``amount`` base stakes from ``payer`` to ``payee``. ``reason``: win, kong, transfer,
    settlement or refund; ``detail`` the reference's item (WIN, SELF_DRAW_BASE, KONG_DIRECT,
    KONG_ADDED, KONG_CONCEALED, CALL_TRANSFER, CALL_TRANSFER_EXTRA, CALL_TRANSFER_REFUND,
    FLOWER_PIG, CHA_JIAO, TAX_REFUND); ``event`` the index of the event that caused it."""

    payer: int
    payee: int
    amount: int
    reason: str
    detail: str
    event: int

    @property
    def dataset_reason(self) -> str:
        """The dataset's reason: win, kong, settlement or penalty (查花猪)."""
        return "penalty" if self.detail == "FLOWER_PIG" else DATASET_REASONS[self.reason]


# The slots' own setters of Payment: the generated __init__ of a frozen dataclass sets each field
# through object.__setattr__; a hand's payments (nine on average) are built by these instead,
# about twice as fast, into the same objects. slot_setters refuses, at import, a Payment whose
# fields are not _payment's arguments or that does more than set them (tests/test_sichuan_speed.py).
# (Payment.__new__: object.__new__ in the pure build; the compiled build's native class has an
# allocator of its own, which object.__new__ refuses; its fields are set by the same setters)
_new = Payment.__new__
_PAYMENT_SETTERS = slot_setters(Payment, ("payer", "payee", "amount", "reason", "detail", "event"))


def _payment(payer: int, payee: int, amount: int, reason: str, detail: str, event: int) -> Payment:
    """``Payment(payer, payee, amount, reason, detail, event)``, built by the slots' setters."""
    set_payer, set_payee, set_amount, set_reason, set_detail, set_event = _PAYMENT_SETTERS
    p = _new(Payment)
    set_payer(p, payer)
    set_payee(p, payee)
    set_amount(p, amount)
    set_reason(p, reason)
    set_detail(p, detail)
    set_event(p, event)
    return p


@dataclass(frozen=True, slots=True)
class EndStatus:
    """How the exhaustive draw classified one active player (reference §4.6)."""

    seat: int
    flower_pig: bool
    waits: tuple[Tile, ...]
    dead_wait: bool
    value: int  # M: what each non-ready player pays it (0 when not paid)


@dataclass(frozen=True, slots=True)
class HandSettlement:
    """Every payment of a hand, the scored wins and how the hand ended."""

    payments: tuple[Payment, ...]
    totals: tuple[int, int, int, int]
    wins: tuple[tuple[int, WinScore], ...]  # (seat, score) in settlement order
    winners: tuple[int, ...]  # seats in the order they won
    ended: str  # "third_win", "exhausted" or "open" (no end yet)
    end_status: tuple[EndStatus, ...]
    next_dealer: int | None  # None while the hand is open and nobody has won
    profile: str

    def net(self, seat: int, event: int | None = None) -> int:
        """A seat's balance, over the whole hand or one event."""
        total = 0
        for p in self.payments:
            if event is None or p.event == event:
                if p.payee == seat:
                    total += p.amount
                if p.payer == seat:
                    total -= p.amount
        return total


_END_STATUS_SETTERS = record_setters(EndStatus)
_SETTLEMENT_SETTERS = record_setters(HandSettlement)


@dataclass(slots=True)
class _Income:
    """One kong payment received (mutable ledger row while the hand is settled)."""

    payer: int
    payee: int
    amount: int
    kong: int  # event index of the kong
    settled: bool = False  # transferred (呼叫转移) or refunded: out of later 退税


class _Table:
    """The settlement state while the events are folded; never leaves settle_hand."""

    __slots__ = (
        "active",
        "dealer",
        "end_status",
        "ended",
        "first_win_next",
        "kongs",
        "ledger",
        "payments",
        "prof",
        "turn_kongs",
        "winners",
        "wins",
    )

    def __init__(self, prof: Profile, dealer: int) -> None:
        self.prof = prof
        self.dealer = dealer
        self.active = [True, True, True, True]
        self.winners: list[int] = []
        self.ledger: list[_Income] = []
        self.kongs: list[list[tuple[int, Kong]]] = [[], [], [], []]
        self.turn_kongs: list[list[int]] = [[], [], [], []]
        self.payments: list[Payment] = []
        self.wins: list[tuple[int, WinScore]] = []
        self.end_status: tuple[EndStatus, ...] = ()
        self.ended = "open"
        self.first_win_next: int | None = None

    def order(self, start: int | None = None) -> tuple[int, ...]:
        """Seats in turn order from ``start`` (default the dealer)."""
        return _ORDERS[self.dealer if start is None else start]

    def pay(self, payer: int, payee: int, amount: int, reason: str, detail: str, event: int) -> None:
        if amount > 0:
            self.payments.append(_payment(payer, payee, amount, reason, detail, event))


def _kong(t: _Table, ev: Kong, i: int) -> None:
    seat = _seat(ev.seat, "kong seat")
    if not t.active[seat]:
        raise RuleError(f"event {i}: seat {seat} has won and may not kong")
    suited_tile(ev.tile, "kong tile")
    rules = t.prof.kong
    if ev.kind not in _KONG_DETAIL:
        raise RuleError(f"event {i}: kong kind must be direct, added or concealed, got {ev.kind!r}")
    payers: list[tuple[int, int]] = []
    active = t.active
    others = [s for s in _OTHERS[seat] if active[s]]
    if ev.kind == "direct":
        d = _seat(ev.discarder, "direct kong discarder")
        if d == seat or not t.active[d]:
            raise RuleError(f"event {i}: a direct kong needs an active discarder other than seat {seat}")
        t.turn_kongs[seat] = []  # claiming the discard begins the konger's turn
        payers = [(d, rules.direct)] + [(s, rules.direct_others) for s in others if s != d]
    elif ev.kind == "added":
        if ev.discarder is not None:
            raise RuleError(f"event {i}: only a direct kong has a discarder")
        late_rule = t.prof.play.late_added_kong
        if ev.late and late_rule == "forbidden":
            raise RuleError(f"event {i}: profile {t.prof.name} forbids a late 补杠 (过手杠)")
        if not (ev.late and late_rule == "no_pay"):
            payers = [(s, rules.added) for s in others]
    else:
        if ev.discarder is not None:
            raise RuleError(f"event {i}: only a direct kong has a discarder")
        payers = [(s, rules.concealed) for s in others]
    detail = _KONG_DETAIL[ev.kind]
    for payer, amount in payers:
        if amount > 0:
            t.ledger.append(_Income(payer, seat, amount, i))
            t.payments.append(_payment(payer, seat, amount, "kong", detail, i))
    t.kongs[seat].append((i, ev))
    t.turn_kongs[seat].append(i)


def _transfer_rows(t: _Table, d: int) -> list[_Income]:
    """The discarder's kong income that 呼叫转移 moves (transfer.scope), not yet moved."""
    scope = t.prof.transfer.scope
    if scope == "turn_kongs":
        kongs = set(t.turn_kongs[d])
    elif scope == "last_kong":
        kongs = {t.turn_kongs[d][-1]}
    else:
        kongs = {k for k, _ in t.kongs[d]}
    return [row for row in t.ledger if row.payee == d and row.kong in kongs and not row.settled]


def _call_transfer(t: _Table, d: int, winners: list[int], i: int) -> None:
    """杠上炮: the discarder's fresh kong money goes to the winner(s) (seed rule 6)."""
    rules = t.prof.transfer
    if rules.call_transfer == "off":
        return
    rows = _transfer_rows(t, d)
    g = sum(row.amount for row in rows)
    for row in rows:
        row.settled = True
    if rules.call_transfer == "refund":  # the kong money goes back to the players who paid it
        for row in rows:
            t.pay(d, row.payer, row.amount, "refund", "CALL_TRANSFER_REFUND", i)
        return
    if rules.multi == "each_full":
        # Each winner receives G; beyond the first the discarder pays it again from its pocket.
        for n, w in enumerate(winners):
            t.pay(d, w, g, "transfer", "CALL_TRANSFER" if n == 0 else "CALL_TRANSFER_EXTRA", i)
    elif rules.multi == "first_only":
        t.pay(d, winners[0], g, "transfer", "CALL_TRANSFER", i)
    else:  # split: equal shares, the indivisible rest one each to the nearest winners
        share, rest = divmod(g, len(winners))
        for n, w in enumerate(winners):
            t.pay(d, w, share + (1 if n < rest else 0), "transfer", "CALL_TRANSFER", i)


def _win(t: _Table, ev: Win, i: int) -> None:
    prof = t.prof
    if not ev.winners:
        raise RuleError(f"event {i}: a win needs at least one winner")
    seats = [_seat(w.seat, "winner seat") for w in ev.winners]
    if len(set(seats)) != len(seats):
        raise RuleError(f"event {i}: a seat wins twice on one tile")
    for s in seats:
        if not t.active[s]:
            raise RuleError(f"event {i}: seat {s} has already won")
    self_drawn = ev.discarder is None
    if self_drawn:
        if len(seats) != 1:
            raise RuleError(f"event {i}: a self-draw has one winner")
        if ev.robbed_kong:
            raise RuleError(f"event {i}: a robbed kong names the robbed player as discarder")
    else:
        d = _seat(ev.discarder, "discarder")
        if d in seats or not t.active[d]:
            raise RuleError(f"event {i}: the discarder {d} must be an active player who is not a winner")
        if len(seats) > 1 and not prof.play.multi_win:
            raise RuleError(f"event {i}: profile {prof.name} allows one winner per discard")
    if ev.kong_win and not (self_drawn and t.turn_kongs[seats[0]]):
        raise RuleError(f"event {i}: 杠上花 needs a self-draw after the winner's own kong this turn")
    if ev.kong_discard and (self_drawn or ev.robbed_kong or not t.turn_kongs[ev.discarder]):  # type: ignore[index]
        raise RuleError(f"event {i}: 杠上炮 needs a discard by a player who konged this turn")
    tile = suited_tile(ev.tile, "winning tile")
    # Several winners are valued and listed nearest to the discarder first (reference §4.3).
    winners = ev.winners
    if len(winners) == 1:
        ordered: Sequence[Winner] = winners
    else:
        ordered = sorted(winners, key=lambda w: (w.seat - (ev.discarder or 0)) % 4)
    base_flags = (self_drawn, ev.kong_win, ev.kong_discard, ev.robbed_kong, ev.last_tile, ev.heavenly)
    payments = t.payments
    for w in ordered:
        flags = (*base_flags, w.earthly)
        try:
            context = _CONTEXTS.get(flags)
        except TypeError:  # an unhashable flag: a context of its own
            context = None
        if context is None:  # (frozen and equal for equal flags: one per combination serves)
            context = WinContext(*flags)  # type: ignore[arg-type]
            if len(_CONTEXTS) < 256 and all(type(f) is bool for f in flags):
                _CONTEXTS[flags] = context
        # 点杠花 (seed rule 7): a 杠上花 after a 直杠 on X's discard; "discard" makes X pay alone.
        flower_from = None
        if ev.kong_win and prof.transfer.kong_after_discard_flower == "discard":
            last = t.kongs[w.seat][-1][1]
            if last.kind == "direct":
                flower_from = last.discarder
        score = score_win(
            w.hand, w.melds, tile, context, void=w.void, profile=prof, self_draw_bonus=flower_from is None
        )
        seat = w.seat
        t.wins.append((seat, score))
        if flower_from is not None:
            payers: Sequence[int] = (flower_from,)
        elif self_drawn:
            active = t.active
            payers = [s for s in _OTHERS[seat] if active[s]]
        else:
            payers = (ev.discarder,)  # type: ignore[assignment]
        multiplier = score.multiplier
        bonus = score.value - multiplier
        for p in payers:
            if multiplier > 0:
                payments.append(_payment(p, seat, multiplier, "win", "WIN", i))
            if bonus > 0:
                payments.append(_payment(p, seat, bonus, "win", "SELF_DRAW_BASE", i))
    if ev.kong_discard:
        _call_transfer(t, ev.discarder, [w.seat for w in ordered], i)  # type: ignore[arg-type]
    if t.first_win_next is None:
        if len(ordered) == 1:
            t.first_win_next = ordered[0].seat
        elif prof.dealer.next_after_multi_win == "discarder":
            t.first_win_next = ev.discarder
        else:
            t.first_win_next = ordered[0].seat
    for w in ordered:
        t.active[w.seat] = False
        t.winners.append(w.seat)
    if len(t.winners) == 3:
        t.ended = "third_win"


def _status(t: _Table, p: PlayerHand, visible: Sequence[int] | None) -> EndStatus:
    """Classify one active player at the exhaustive draw: 花猪, ready (waits, M) or not."""
    prof = t.prof
    norm = normalize_melds(p.melds) if p.melds else ()
    counts = count_tiles(suited_tiles(p.hand))
    held = [a + b for a, b in zip(meld_counts(norm), counts, strict=True)] if norm else counts
    check_copies(held)
    void = None if p.void is None else parse_suit(p.void)
    suits = suits_held(held)
    pig = (void in suits) if void is not None else len(suits) == 3
    if pig:
        return frozen_record(EndStatus, _END_STATUS_SETTERS, (p.seat, prof.end.flower_pig, (), False, 0))
    # the waits and each one's 查大叫 value (a discard win without situational extras, capped;
    # reference §4.6) from one pass over the hand's suits
    found, values = ready_values(counts, held, norm, void, prof)
    if not found:
        return frozen_record(EndStatus, _END_STATUS_SETTERS, (p.seat, False, (), False, 0))
    end = prof.end
    dead = False
    if end.dead_wait != "ready":
        if visible is None:
            raise RuleError(
                f"profile {prof.name} (end.dead_wait = {end.dead_wait}) needs HandEnd.visible"
            )
        own_melds = meld_counts(norm)
        # 死叫: every copy of every wait that the player does not hold is visible to the table.
        dead = all(visible[k] - own_melds[k] >= 4 - held[k] for k in found)
    value = 0
    if not (dead and end.dead_wait != "ready"):
        value = max(values) if end.cha_jiao_value == "max" else min(values)
    if dead and end.dead_wait == "not_ready":
        found = ()
    return frozen_record(EndStatus, _END_STATUS_SETTERS, (p.seat, False, found, dead, value))


def _hand_end(t: _Table, ev: HandEnd, i: int) -> None:
    prof = t.prof
    end = prof.end
    players = ev.players
    seats = sorted(_seat(p.seat, "player seat") for p in players)
    active = t.active
    if seats != [s for s in range(4) if active[s]]:
        raise RuleError(
            f"event {i}: the hand end lists seats {seats}, the active players are "
            f"{[s for s in range(4) if active[s]]}"
        )
    visible = ev.visible
    if visible is not None and len(visible) != 27:
        raise RuleError(f"event {i}: visible holds 27 counts, got {len(visible)}")
    status: list[EndStatus | None] = [None, None, None, None]
    for p in players:
        status[p.seat] = _status(t, p, visible)
    t.end_status = tuple([status[s] for s in seats])  # type: ignore[misc]
    order = _ORDERS[t.dealer]
    listed = [s for s in order if status[s] is not None]  # the players left, from the dealer
    pigs = [s for s in listed if status[s].flower_pig]  # type: ignore[union-attr]
    ready = [s for s in listed if status[s].waits]  # type: ignore[union-attr]
    # Players holding void tiles when 查花猪 is off are simply not ready.
    not_ready = [s for s in listed if s not in pigs and s not in ready]
    payments = t.payments
    if end.flower_pig:
        amount = prof.flower_pig_value
        if amount > 0:
            for h in pigs:
                for q in listed:
                    if q not in pigs:
                        payments.append(_payment(h, q, amount, "settlement", "FLOWER_PIG", i))
    if end.cha_jiao and not_ready and ready:
        unpaid_dead = end.dead_wait == "ready_unpaid"
        for u in not_ready:
            for r in ready:
                st = status[r]
                if not (unpaid_dead and st.dead_wait) and st.value > 0:  # type: ignore[union-attr]
                    payments.append(_payment(u, r, st.value, "settlement", "CHA_JIAO", i))  # type: ignore[union-attr]
    if end.tax_refund and t.ledger:
        refunders = [s for s in order if s in pigs or s in not_ready]
        rank = _RANKS[t.dealer]
        to_winners = end.tax_refund_to_winners
        rows = [
            row
            for row in t.ledger
            if row.payee in refunders and not row.settled and (to_winners or active[row.payer])
        ]
        rows.sort(key=lambda row: (rank[row.payee], rank[row.payer]))
        for row in rows:
            row.settled = True
            if row.amount > 0:
                payments.append(_payment(row.payee, row.payer, row.amount, "refund", "TAX_REFUND", i))
    t.ended = "exhausted"


def settle_hand(
    events: Iterable[Kong | Turn | Win | HandEnd], *, dealer: int = 0, profile: Profile | str = "seed"
) -> HandSettlement:
    """Every payment of one hand from its settlement events, in order (reference §4).

    ``dealer`` orders the end-of-hand payments (payers and receivers in seat order from the
    dealer) and decides the next dealer when nobody won. Raises RuleError for an impossible
    sequence (a winner acting again, an event after the third win or the hand end, 杠上炮
    without a kong), NotWinningHand / InvalidHand for a winning hand that does not win.
    """
    return settle_indexed(enumerate(events), dealer=dealer, profile=profile)


def settle_indexed(
    events: Iterable[tuple[int, Kong | Turn | Win | HandEnd]],
    *,
    dealer: int = 0,
    profile: Profile | str = "seed",
) -> HandSettlement:
    """:func:`settle_hand` of events given with their indices in the hand's sequence, which
    ``Payment.event`` and the error messages name: a caller may leave out a :class:`Turn` that
    changes nothing (its seat made no kong since its last Turn) and keep every index."""
    prof = load_profile(profile)
    t = _Table(prof, _seat(dealer, "dealer"))
    turn_kongs = t.turn_kongs
    for i, ev in events:
        if t.ended != "open":
            raise RuleError(f"event {i}: the hand already ended ({t.ended})")
        if type(ev) is Turn and type(ev.seat) is int and 0 <= ev.seat <= 3:
            turn_kongs[ev.seat] = []  # the common event, by the shortest path (as below)
        elif type(ev) is Win:  # the exact classes first, then any subclass by isinstance
            _win(t, ev, i)
        elif type(ev) is Kong:
            _kong(t, ev, i)
        elif type(ev) is HandEnd:
            _hand_end(t, ev, i)
        elif isinstance(ev, Kong):
            _kong(t, ev, i)
        elif isinstance(ev, Turn):
            t.turn_kongs[_seat(ev.seat, "turn seat")] = []
        elif isinstance(ev, Win):
            _win(t, ev, i)
        elif isinstance(ev, HandEnd):
            _hand_end(t, ev, i)
        else:
            raise RuleError(f"event {i}: not a settlement event: {type(ev).__name__}")
    totals = [0, 0, 0, 0]
    for p in t.payments:
        totals[p.payer] -= p.amount
        totals[p.payee] += p.amount
    if t.first_win_next is not None:
        next_dealer: int | None = t.first_win_next
    elif t.ended == "exhausted":
        next_dealer = t.dealer if prof.dealer.next_after_no_win == "stay" else (t.dealer + 1) % 4
    else:
        next_dealer = None
    return frozen_record(HandSettlement, _SETTLEMENT_SETTERS, (
        tuple(t.payments),  # payments
        (totals[0], totals[1], totals[2], totals[3]),  # totals
        tuple(t.wins),  # wins
        tuple(t.winners),  # winners
        t.ended,  # ended
        t.end_status,  # end_status
        next_dealer,  # next_dealer
        prof.name,  # profile
    ))

