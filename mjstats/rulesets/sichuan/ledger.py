"""A Sichuan settlement as the record model carries it: ``Result.wins`` and ``Result.payments``.

One form shared by the simulator (which writes it) and the audit (which compares a record with
it): each settlement payment of ``payer -> payee, amount`` becomes two rows, the payer's loss then
the payee's gain, in settlement order; a win's rows carry its ``win_no`` (its index in
``Result.wins``, settlement order: a multi-win nearest to the discarder first). Fan totals are
the engine's 0-based count before the cap (docs/format.md, Sichuan).
"""

from __future__ import annotations

from collections.abc import Sequence

from mjstats.records import FanEntry, Outcome, Payment, PaymentReason, Result, Win
from mjstats.rulesets.sichuan.fan import WinScore
from mjstats.rulesets.sichuan.settle import HandSettlement
from mjstats.rulesets.sichuan.settle import Win as WinEvent
from mjstats.tiles import Tile

__all__ = ["PaymentRow", "payment_rows", "result_of", "win_events", "win_fans"]

_REASONS = {r.value: r for r in PaymentReason}

# (seat, score, dataset reason, win_no, the settlement item's detail)
PaymentRow = tuple[int, int, PaymentReason, int | None, str]


def win_fans(score: WinScore) -> tuple[FanEntry, ...]:
    """A win's scoring items as recorded: the pattern, 根 (count = 根 counted), every extra."""
    items = [FanEntry(score.pattern, 1, score.pattern_fan)]
    if score.gen:
        items.append(FanEntry("根", score.gen_count, score.gen // max(1, score.gen_count)))
    items.extend(FanEntry(name, 1, fan) for name, fan in score.extras)
    return tuple(items)


def win_events(events: Sequence[object]) -> list[tuple[int, WinEvent]]:
    """(index, event) of every win among the settlement events."""
    return [(i, ev) for i, ev in enumerate(events) if isinstance(ev, WinEvent)]


def _win_numbers(wins: Sequence[tuple[int, WinEvent]]) -> dict[tuple[int, int], int]:
    """(settlement event index, winner seat) -> win_no."""
    out: dict[tuple[int, int], int] = {}
    n = 0
    for i, ev in wins:
        d = ev.discarder or 0
        for w in sorted(ev.winners, key=lambda w: (w.seat - d) % 4):
            out[(i, w.seat)] = n
            n += 1
    return out


def payment_rows(
    settled: HandSettlement, events: Sequence[object], wins: Sequence[tuple[int, WinEvent]] | None = None
) -> list[PaymentRow]:
    """Every settlement payment as the two recorded rows, with the item's detail kept. ``wins``:
    the (index, event) pairs of the win events when the caller has them (else found here)."""
    numbers = _win_numbers(win_events(events) if wins is None else wins)
    rows: list[PaymentRow] = []
    for p in settled.payments:
        reason = _REASONS[p.dataset_reason]
        win_no = numbers.get((p.event, p.payee)) if p.reason == "win" else None
        rows.append((p.payer, -p.amount, reason, win_no, p.detail))
        rows.append((p.payee, p.amount, reason, win_no, p.detail))
    return rows


def result_of(settled: HandSettlement, events: Sequence[object]) -> Result:
    """The record's result of a settled hand: every win (settlement order) and payment."""
    wins: list[Win] = []
    scores = iter(settled.wins)
    for ev in events:
        if not isinstance(ev, WinEvent):
            continue
        for _ in ev.winners:  # settled.wins lists a multi-win nearest to the discarder first
            seat, score = next(scores)
            wins.append(
                Win(
                    winner=seat,
                    loser=ev.discarder,
                    win_tile=Tile(int(ev.tile)),  # type: ignore[call-overload]
                    self_drawn=ev.discarder is None,
                    fan_total=score.fan,
                    fans=win_fans(score),
                    pattern=score.pattern,
                )
            )
    payments = tuple(Payment(s, v, r, n) for s, v, r, n, _ in payment_rows(settled, events))
    outcome = Outcome.WIN if wins else Outcome.DRAW
    return Result(outcome, wins=tuple(wins), scores=settled.totals, payments=payments)
