"""The audit's loop over a batch of hands: replay each with its profile and make its table rows.

No Arrow here (``mjstats.audit`` turns the rows into tables), so the compiled build compiles this
module with the replayer it calls (docs/compiled.md): as interpreted Python the loop and its rows
cost about a tenth of the replay's own instructions (callgrind, a 2,000-hand Botzone part).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any, Final

from mjstats.errors import ProfileError
from mjstats.event_columns import EventColumns, with_events
from mjstats.records import Hand, Win
from mjstats.replay.findings import Finding, Severity
from mjstats.replay.profile import ComputedWin, ReplayProfile, SequenceCheck, WinContext
from mjstats.replay.replayer import ReplayResult, profile_for, replay_hand

__all__ = ["UNSUPPORTED", "AuditRows", "audit_rows"]

UNSUPPORTED: Final = "unsupported"  # audited_hands status of a hand no replay profile covers yet
_ERROR: Final = Severity.ERROR


class AuditRows:
    """A batch's audit rows, one tuple a row in its table's column order (``DERIVED_SCHEMAS``;
    one append a row, transposed into columns once per batch)."""

    def __init__(self) -> None:
        self.findings: list[tuple[Any, ...]] = []
        self.computed_wins: list[tuple[Any, ...]] = []
        self.computed_fans: list[tuple[Any, ...]] = []
        self.computed_payments: list[tuple[Any, ...]] = []
        self.audited_hands: list[tuple[Any, ...]] = []

    def tables(self) -> dict[str, list[tuple[Any, ...]]]:
        """Each table's rows by its name."""
        return {
            "findings": self.findings,
            "computed_wins": self.computed_wins,
            "computed_fans": self.computed_fans,
            "computed_payments": self.computed_payments,
            "audited_hands": self.audited_hands,
        }

    def add_unsupported(self, hand: Hand) -> None:
        # audited_hands: match_id, hand_no, ruleset, profile, status, findings
        self.audited_hands.append((hand.match_id, hand.hand_no, hand.ruleset, hand.profile, UNSUPPORTED, 0))

    def add_result(self, hand: Hand, result: ReplayResult, status: str) -> None:
        """The rows of one replayed hand (``status``: the result's, computed once by the caller)."""
        mid, no, rs = hand.match_id, hand.hand_no, hand.ruleset
        findings = result.findings
        # audited_hands: match_id, hand_no, ruleset, profile, status, findings
        self.audited_hands.append((mid, no, rs, result.profile, status, len(findings)))
        if findings:
            # findings: match_id, hand_no, seq, check, severity, expected, recorded, message, ruleset
            for f in findings:
                self.findings.append(
                    (mid, no, f.seq, f.check, f.severity.value, f.expected, f.recorded, f.message, rs)
                )
        if result.context is None and not result.more_wins:
            return  # no win replayed (an exhaustive draw, a stopped replay)
        recorded_wins = hand.result.wins
        for win_no, ctx, win in result.wins:
            if win is None:
                continue
            recorded = recorded_wins[win_no] if win_no < len(recorded_wins) else None
            self.add_computed_win(hand, win_no, ctx, win, recorded)

    def add_computed_win(
        self, hand: Hand, win_no: int, ctx: WinContext, win: ComputedWin, recorded: Win | None
    ) -> None:
        """The computed_* rows of one rescored win (once per win of every hand audited)."""
        mid, no, rs, winner = hand.match_id, hand.hand_no, hand.ruleset, ctx.winner
        self.computed_wins.append(
            (
                mid, no, win_no, winner, ctx.discarder, ctx.win_tile, ctx.self_drawn, win.total,
                recorded.fan_total if recorded is not None else None, win.meets_minimum,
                ctx.fourth_tile, ctx.kong_win, ctx.last_tile, rs,
            )
        )  # fmt: skip
        # computed_fans: match_id, hand_no, win_no, winner, name, count, points, ruleset
        fans = self.computed_fans
        for fan in win.fans:
            fans.append((mid, no, win_no, winner, fan.name, fan.count, fan.points, rs))
        # the recorded net scores are one win's payments only when the hand has one win
        result = hand.result
        scores = result.scores if len(result.wins) <= 1 else None
        # computed_payments: match_id, hand_no, win_no, seat, score, recorded_score, ruleset
        payments = self.computed_payments
        pays = win.payments
        for seat in range(len(pays)):  # a native loop in the compiled build (enumerate boxes)
            recorded_score = scores[seat] if scores and seat < len(scores) else None
            payments.append((mid, no, win_no, seat, pays[seat], recorded_score, rs))


def _choose(
    hand: Hand, profile: ReplayProfile | None, overrides: Mapping[str, ReplayProfile] | None
) -> ReplayProfile | None:
    """The replay profile of a hand: the forced one, else the ruleset's override (e.g. from a
    user TOML), else the one registered for (ruleset, profile); None when there is none."""
    if profile is not None:
        return profile
    if overrides and hand.ruleset in overrides:
        return overrides[hand.ruleset]
    try:
        return profile_for(hand)
    except ProfileError:
        return None


def _replay_safely(hand: Hand, chosen: ReplayProfile, columns: EventColumns | None) -> ReplayResult:
    """Replay one hand (``columns``: its events, ``hand`` made without them). A bug met while
    replaying becomes a ``replay.stopped`` finding: the audit of 100,000 hands must not die on
    one."""
    try:
        return replay_hand(hand, chosen, columns=columns)
    except Exception as exc:
        message = f"replay failed: {type(exc).__name__}: {exc}"
        finding = Finding(
            hand.match_id, hand.hand_no, None, "replay.stopped", Severity.ERROR, None, None, message
        )
        return ReplayResult(hand.match_id, hand.hand_no, chosen.name, (finding,), True, None, None)


class _Sequences:
    """The cross-hand checks of each profile (dealer rotation, streaks), fed hands in order."""

    def __init__(self) -> None:
        self.checks: dict[int, SequenceCheck | None] = {}
        self.keep: list[ReplayProfile] = []  # keeps the ids above valid

    def findings(self, hand: Hand, profile: ReplayProfile) -> list[Finding]:
        check = self.check_of(profile)
        return check.check(hand) if check is not None else []

    def check_of(self, profile: ReplayProfile) -> SequenceCheck | None:
        """``profile``'s check, made at its first hand."""
        key = id(profile)
        if key not in self.checks:
            self.keep.append(profile)
            self.checks[key] = profile.sequence_check()
        return self.checks[key]


def audit_rows(
    hands: Iterable[Hand],
    profile: ReplayProfile | None = None,
    overrides: Mapping[str, ReplayProfile] | None = None,
    columns: EventColumns | None = None,
) -> tuple[AuditRows, Counter[str], Counter[str]]:
    """Replay ``hands`` (in dataset order): their audit rows, the count per status and the count
    per check. ``overrides`` maps a ruleset to the profile its hands replay with; checks across
    consecutive hands of a match (a profile's ``sequence_check``) see ``hands`` in order.
    ``columns``: ``hands`` were made without their events, which these hold, each hand's rows
    set as it is yielded (``audit.PartSlicer.replay_inputs``); a profile that reads them
    (``ReplayProfile.reads_columns``) replays from them, any other gets the hand with its events."""
    rows = AuditRows()
    statuses: dict[str, int] = {}
    checks: Counter[str] = Counter()
    sequences = _Sequences()
    for hand in hands:
        chosen = _choose(hand, profile, overrides)
        if chosen is None:
            rows.add_unsupported(hand)
            statuses[UNSUPPORTED] = statuses.get(UNSUPPORTED, 0) + 1
            continue
        if columns is None:
            result = _replay_safely(hand, chosen, None)
        elif chosen.reads_columns and sequences.check_of(chosen) is None:
            # the replay steps over the hand's rows (columns.first:stop): no Event a draw or discard
            result = _replay_safely(hand, chosen, columns)
        else:  # a replay that reads Hand.events: the hand with its events
            hand = with_events(hand, columns.events())
            result = _replay_safely(hand, chosen, None)
        extra = sequences.findings(hand, chosen)
        if extra:
            result = dataclasses.replace(result, findings=result.findings + tuple(extra))
        status = result.status
        rows.add_result(hand, result, status)
        statuses[status] = statuses.get(status, 0) + 1
        if result.findings:
            checks.update(f.check for f in result.findings)
    return rows, Counter(statuses), checks
