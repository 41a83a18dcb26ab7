"""Dealer rotation and the streak (连庄数) across consecutive Fuzhou hands of a match."""

from __future__ import annotations

from mjstats.records import Hand, Outcome
from mjstats.replay.findings import Finding, Severity
from mjstats.replay.profile import SequenceCheck
from mjstats.rulesets.fuzhou import DealerState, Profile, next_dealer

__all__ = ["FuzhouSequence"]


class FuzhouSequence(SequenceCheck):
    """Dealer rotation and the streak (连庄数) across consecutive hands of a match.

    seed 003/000: the dealer keeps the deal after a win (站顶 first, then the streak counts) and
    after an exhaustive draw; otherwise the next seat deals with streak 0. ``Hand.streak`` = 0
    cannot tell a new dealer from one who won once (站顶), so both are kept as possible until a
    later hand tells them apart. A match's first hand (hand_no 0) has streak 0. After a wrong
    streak the count goes on from the rules (a single wrong hand gives a single finding); after
    a wrong dealer it starts again from what the hand records.
    """

    def __init__(self, rules: Profile) -> None:
        self.rules = rules
        self.previous: Hand | None = None
        self.wins: set[int] = {0}  # the dealer's possible consecutive wins before ``previous``

    def check(self, hand: Hand) -> list[Finding]:
        found: list[Finding] = []
        prev = self.previous
        self.previous = hand

        def report(code: str, message: str, expected: object, recorded: object) -> None:
            found.append(
                Finding(
                    hand.match_id,
                    hand.hand_no,
                    None,
                    code,
                    Severity.ERROR,
                    str(expected),
                    str(recorded),
                    message,
                )
            )

        if prev is None or prev.match_id != hand.match_id or hand.hand_no != prev.hand_no + 1:
            if hand.hand_no == 0 and hand.streak != 0:
                report("fuzhou.streak", "a match's first hand has no dealer streak", 0, hand.streak)
            self.wins = {0} if hand.hand_no == 0 else ({hand.streak + 1} if hand.streak else {0, 1})
            return found
        winner = prev.result.winner if prev.result.outcome is Outcome.WIN else None
        after = {next_dealer(DealerState(prev.dealer, w), winner, self.rules) for w in self.wins}
        dealer = next(iter(after)).dealer
        if hand.dealer != dealer:
            why = "keeps the deal" if dealer == prev.dealer else "passes the deal to the next seat"
            report(
                "fuzhou.dealer",
                f"after hand {prev.hand_no} the dealer {why}",
                f"seat {dealer}",
                f"seat {hand.dealer}",
            )
            self.wins = {hand.streak + 1} if hand.streak else {0, 1}
            return found
        streaks = sorted({a.streak for a in after})
        if hand.streak not in streaks:
            report(
                "fuzhou.streak",
                f"after hand {prev.hand_no} the streak (连庄数, 站顶 adds nothing) is {streaks[0]}",
                "/".join(map(str, streaks)),
                hand.streak,
            )
            self.wins = {a.wins for a in after}  # go on from the rules' count: one wrong hand, one finding
            return found
        self.wins = {a.wins for a in after if a.streak == hand.streak}
        return found
