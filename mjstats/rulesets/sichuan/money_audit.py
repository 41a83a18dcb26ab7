"""The money half of the Sichuan audit: settle the replayed events and compare every recorded
win and payment with the recomputed ones (reference sichuan.md §4, §7.20-35; docs/audit.md).

:class:`MoneyAudit` is mixed into :class:`~mjstats.rulesets.sichuan.replay.SichuanReplay`, which
collects the settlement events (``events``) and the ``seq`` of each win while it replays.
"""

from __future__ import annotations

from mjstats.errors import MjstatsError
from mjstats.replay.profile import ComputedFan, ComputedWin, Meld, WinContext
from mjstats.replay.replayer import HandReplay
from mjstats.rulesets.sichuan.ledger import PaymentRow, payment_rows, win_fans
from mjstats.rulesets.sichuan.profiles import Profile
from mjstats.rulesets.sichuan.settle import HandEnd, HandSettlement, Kong, Turn, settle_indexed
from mjstats.rulesets.sichuan.settle import Win as WinEvent
from mjstats.tiles import ALL_KINDS

__all__ = ["MoneyAudit"]

_DETAIL_CHECK = {
    "KONG_DIRECT": "sichuan.kong_payment",
    "KONG_ADDED": "sichuan.kong_payment",
    "KONG_CONCEALED": "sichuan.kong_payment",
    "CALL_TRANSFER": "sichuan.call_transfer",
    "CALL_TRANSFER_EXTRA": "sichuan.call_transfer",
    "CALL_TRANSFER_REFUND": "sichuan.call_transfer",
    "TAX_REFUND": "sichuan.tax_refund",
    "CHA_JIAO": "sichuan.cha_jiao",
    "FLOWER_PIG": "sichuan.flower_pig",
    "WIN": "sichuan.win_payment",
    "SELF_DRAW_BASE": "sichuan.win_payment",
}


_NO_NETS = (0, 0, 0, 0)

SettlementEvent = Kong | Turn | WinEvent | HandEnd  # what settle.py settles


def _code(tile: object) -> int:
    """A settlement event's tile (a Tile, settle.py types it loosely) as its plain code."""
    assert isinstance(tile, int)
    return int(tile)


def _t(tile: int | None) -> str:
    return "-" if tile is None else ALL_KINDS[tile].botzone


class MoneyAudit(HandReplay):
    """Settlement and comparison with the record, the base of the Sichuan replay, which fills
    the attributes below while it replays (one class chain, not a mixin: the compiled build
    compiles both, and compiled classes have one base)."""

    rules: Profile
    events: list[SettlementEvent]  # the settlement events, in order
    event_index: list[int]  # each one's index in the hand's sequence of settlement events
    win_events: list[tuple[int, WinEvent]]  # (index, event) of the wins
    win_seqs: list[int]  # seq of each computed win, settlement order

    def settle(self) -> None:
        """Settle the replayed events and compare each win and payment with the record."""
        try:
            settled = settle_indexed(
                zip(self.event_index, self.events, strict=True), dealer=self.hand.dealer, profile=self.rules
            )
        except MjstatsError as exc:
            self.stop(f"the events cannot be settled: {exc}")
            return
        rows = payment_rows(settled, self.events, self.win_events)
        self.check_wins(settled, rows)
        self.check_payments(settled, rows)

    def check_wins(self, settled: HandSettlement, rows: list[PaymentRow]) -> None:
        recorded = self.hand.result.wins
        computed: list[tuple[int, WinEvent]] = []
        for _, ev in self.win_events:
            d = ev.discarder or 0
            for w in sorted(ev.winners, key=lambda w: (w.seat - d) % 4):
                computed.append((w.seat, ev))
        # each win's net per seat, from one pass over the rows
        win_nets: dict[int, list[int]] = {}
        for s, v, _, win_no, _ in rows:
            if win_no is not None:
                per_seat = win_nets.get(win_no)
                if per_seat is None:
                    per_seat = win_nets[win_no] = [0, 0, 0, 0]
                per_seat[s] += v
        for n, ((seat, score), (_, ev)) in enumerate(zip(settled.wins, computed, strict=True)):
            self.seq = self.win_seqs[n] if n < len(self.win_seqs) else None
            winner = next(w for w in ev.winners if w.seat == seat)
            melds = tuple(Meld(str(k), _code(t), _code(o)) for k, t, o in winner.melds)
            ctx = WinContext(
                seat,
                ev.discarder,
                tuple(_code(t) for t in winner.hand),
                melds,
                _code(ev.tile),
                ev.discarder is None,
                False,
                ev.kong_win or ev.robbed_kong,
                ev.last_tile,
                self.hand.seat_wind(seat),
                self.hand.prevalent_wind,
            )
            items = win_fans(score)
            fans = tuple(ComputedFan(f.name, f.count, f.points or 0) for f in items)
            nets = tuple(win_nets.get(n, _NO_NETS))
            self.more_wins.append((n, ctx, ComputedWin(fans, score.fan, True, nets)))
            if n >= len(recorded):
                self.report("sichuan.win_record", f"seat {seat}'s win is not recorded", n + 1, len(recorded))
                continue
            rec = recorded[n]
            if (rec.winner, rec.loser, rec.self_drawn) != (seat, ev.discarder, ev.discarder is None) or (
                rec.win_tile is not None and rec.win_tile != _code(ev.tile)
            ):
                self.report(
                    "sichuan.win_record",
                    f"recorded win {n} differs from the events",
                    f"seat {seat} from {ev.discarder} on {_t(_code(ev.tile))}",
                    f"seat {rec.winner} from {rec.loser} on {_t(rec.win_tile)}",
                )
                continue
            want = (score.pattern, score.fan, items)
            got = (rec.pattern, rec.fan_total, rec.fans)
            if (
                (rec.pattern is not None and rec.pattern != want[0])
                or (rec.fan_total is not None and rec.fan_total != want[1])
                or (rec.fans and rec.fans != want[2])
            ):
                self.report(
                    "sichuan.win_fan",
                    f"seat {seat}'s recorded fan differs from the best reading",
                    _fan_text(*want),
                    _fan_text(*got),
                )
        self.seq = None
        if len(recorded) > len(settled.wins):
            self.report(
                "sichuan.win_record",
                "more wins recorded than the events hold",
                len(settled.wins),
                len(recorded),
            )

    def check_payments(self, settled: HandSettlement, rows: list[PaymentRow]) -> None:
        result = self.hand.result
        recorded = [(p.seat, p.score, p.reason, p.win_no) for p in result.payments]
        if result.scores is not None and sum(result.scores) != 0:
            self.report("sichuan.zero_sum", "the recorded scores do not sum to zero", 0, sum(result.scores))
        if settled.ended == "third_win" and any(
            p.reason.value in ("settlement", "penalty") for p in result.payments
        ):
            self.report(
                "sichuan.end_after_third", "end-of-hand settlement after the third win", "none", "settlement"
            )
        if not recorded:
            if result.scores is not None and tuple(result.scores) != settled.totals:
                self.report(
                    "sichuan.zero_sum",
                    "the recorded scores differ from the settlement",
                    " ".join(map(str, settled.totals)),
                    " ".join(map(str, result.scores)),
                )
            return
        mine = [(s, v, r, n) for s, v, r, n, _ in rows]
        if mine == recorded:
            return
        # name the first item that differs by the settlement item it belongs to
        for i in range(max(len(mine), len(recorded))):
            want = mine[i] if i < len(mine) else None
            got = recorded[i] if i < len(recorded) else None
            if want != got:
                detail = rows[i][4] if i < len(rows) else "WIN"
                if got is not None and want is None:
                    detail = _detail_of(got)
                self.report(
                    _DETAIL_CHECK[detail],
                    f"payment {i} differs from the settlement ({detail})",
                    _row_text(want),
                    _row_text(got),
                )
                break
        if tuple(result.scores or ()) != settled.totals:
            self.report(
                "sichuan.zero_sum",
                "the recorded scores differ from the settlement",
                " ".join(map(str, settled.totals)),
                " ".join(map(str, result.scores or ())),
            )


def _detail_of(row: tuple[int, int, object, int | None]) -> str:
    reason = str(row[2])
    return {"win": "WIN", "kong": "KONG_DIRECT", "settlement": "CHA_JIAO", "penalty": "FLOWER_PIG"}.get(
        reason, "WIN"
    )


def _row_text(row: tuple[int, int, object, int | None] | None) -> str:
    if row is None:
        return "none"
    seat, score, reason, win_no = row
    return f"seat {seat} {score:+d} {reason}" + ("" if win_no is None else f" win {win_no}")


def _fan_text(pattern: object, fan: object, fans: object) -> str:
    items = "+".join(f"{f.name}*{f.count}:{f.points}" for f in fans) if fans else "-"  # type: ignore[attr-defined]
    return f"{pattern} F={fan} {items}"
