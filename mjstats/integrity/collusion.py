"""Collusion indicators: does one player's discarding serve another more than chance explains?

- ``collusion.deal_in`` (ordered pair loser -> winner): in every hand won on a discard, which of
  the three others won. Under no collusion the winner is w with chance proportional to w's own
  rate of winning on discards, counted on the other discarders (so a colluding pair does not
  raise its own expectation), times a factor for w's place after the discarder (turn order and
  claim priority favour some places), fitted on the events the loser took no part in.
- ``collusion.feeding`` (ordered pair discarder -> claimer): pungs and exposed kongs one player
  makes on another's discards, with the same model (chows are left out: only the next seat may
  chow, so they say nothing about choice).
- ``collusion.danger`` (ordered pair discarder -> opponent): discards that are a winning tile of
  exactly one opponent, safe against the other two (mjstats.integrity.danger), claimed or not;
  same model.

The observed count of a pair is compared with the sum of its chances, one-sided (more than
expected). The rates and place factors are fitted from the same run, and the hands of one match
share their players: both make O - E vary more than the chances alone say (on fair simulated
play, up to twice as much for neighbouring seats). So the variance of O - E is the larger of the
Poisson-binomial one and a delete-a-group jackknife over matches (the whole model refitted
without each group), and the z-score is referred to Student's t with groups - 1 degrees of
freedom. Each row lists the hands behind its count (``hands``: "match_id#hand_no", at most 20).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from statistics import NormalDist

from mjstats.integrity.danger import unique_targets
from mjstats.integrity.distributions import poisson_binomial_mid_p, t_sf
from mjstats.integrity.rows import EXACT_BELOW, Row, z_row
from mjstats.integrity.subjects import who
from mjstats.records import EventKind, Hand

__all__ = ["Collusion"]

NULL = (
    "winner/claimer chosen in proportion to its own rate on the other discarders x a place factor; "
    "variance: Poisson-binomial or jackknife over matches, whichever is larger; Student t"
)
MAX_HANDS = 20
PLACE_ROUNDS = 8  # fitting rounds of the place factors (they settle to 1e-4 in about five)
PER_SOURCE_LIMIT = 12  # up to this many subjects the place factors are fitted per source
GROUPS = 20  # matches are dealt round-robin into this many jackknife groups
MIN_GROUPS = 8  # with fewer matches than this, the Poisson-binomial variance and a normal null
_TAKES = (EventKind.PENG, EventKind.GANG)
_STANDARD = NormalDist()
# (source subject, (subject, place after the source) x 3, actor, hand id, match)
_Event = tuple[object, tuple[tuple[object, int], ...], object, str, str]
_Pair = tuple[object, object]


@dataclass(slots=True)
class _PairCount:
    """One ordered pair's observed count, its chances and the hands behind it."""

    observed: int = 0
    expected: float = 0.0
    variance: float = 0.0
    chances: list[float] = field(default_factory=list)
    hands: list[str] = field(default_factory=list)


class _PairModel:
    """Events 'actor takes from source' with the three possible actors of each event."""

    def __init__(self) -> None:
        self.events: dict[str, list[_Event]] = defaultdict(list)
        # per ruleset, per match (in order of first appearance): hands played per subject
        self.exposure: dict[str, dict[str, dict[object, int]]] = defaultdict(dict)

    def add_hand(self, ruleset: str, match: str, subjects: list[object]) -> None:
        played = self.exposure[ruleset].setdefault(match, defaultdict(int))
        for s in subjects:
            played[s] += 1

    def add(self, ruleset: str, event: _Event) -> None:
        self.events[ruleset].append(event)

    def rows(self, test: str, by: str, null: str) -> list[Row]:
        out = []
        for ruleset, events in sorted(self.events.items()):
            out.extend(self._ruleset_rows(test, ruleset, by, null, events))
        return out

    def _ruleset_rows(self, test: str, ruleset: str, by: str, null: str, events: list[_Event]) -> list[Row]:
        matches = list(self.exposure[ruleset])
        groups = min(GROUPS, len(matches))
        group_of = {m: i % groups for i, m in enumerate(matches)} if groups else {}
        counts = _pair_counts(events, _exposure(self.exposure[ruleset], None, group_of))
        spread: dict[_Pair, float] = {}
        if groups >= MIN_GROUPS:
            spread = _jackknife(events, self.exposure[ruleset], group_of, groups)
        out = []
        for pair, c in sorted(counts.items(), key=lambda kv: (str(kv[0][0]), str(kv[0][1]))):
            df = groups - 1 if pair in spread else None
            row = _row(test, ruleset, by, null, pair, c, max(c.variance, spread.get(pair, 0.0)), df)
            out.append(row)
        return out


def _exposure(
    played: dict[str, dict[object, int]], left_out: int | None, group_of: dict[str, int]
) -> dict[object, int]:
    """Hands played per subject, without the matches of group ``left_out``."""
    total: dict[object, int] = defaultdict(int)
    for match, per in played.items():
        if left_out is None or group_of[match] != left_out:
            for s, n in per.items():
                total[s] += n
    return total


def _jackknife(
    events: list[_Event], played: dict[str, dict[object, int]], group_of: dict[str, int], groups: int
) -> dict[_Pair, float]:
    """Delete-a-group jackknife variance of every pair's O - E, the whole model refitted without
    each group of matches: it sees the fitted rates' and place factors' own noise and the
    matches' shared players, which the Poisson-binomial variance leaves out."""
    residuals: dict[_Pair, list[float]] = defaultdict(lambda: [0.0] * groups)
    for g in range(groups):
        kept = [e for e in events if group_of[e[4]] != g]
        for pair, c in _pair_counts(kept, _exposure(played, g, group_of), detail=False).items():
            residuals[pair][g] = c.observed - c.expected
    out = {}
    for pair, values in residuals.items():
        mean = sum(values) / groups
        out[pair] = (groups - 1) / groups * sum((v - mean) ** 2 for v in values)
    return out


def _row(
    test: str, ruleset: str, by: str, null: str, pair: _Pair, c: _PairCount, variance: float, df: int | None
) -> Row:
    """The pair's row: z on the widened variance, one-sided, against Student's t (df) or the
    normal; a small count's exact mid-p deviate is shrunk by the same widening."""
    row = z_row(
        test,
        ruleset,
        by,
        {"from": pair[0], "to": pair[1]},
        observed=c.observed,
        expected=c.expected,
        variance=variance,
        n=len(c.chances),
        null=null if df is not None else f"{null} (too few matches for the jackknife: normal)",
        alternative="greater",
        min_variance=3.0,
    )
    row["hands"] = c.hands
    if row["p_value"] is None:
        return row
    z = row["statistic"]
    if c.variance < EXACT_BELOW:
        # reference: the exact Poisson-binomial mid-p of a small, skewed count, as a deviate
        mid_p = poisson_binomial_mid_p(c.chances, c.observed, "greater")
        z = _STANDARD.inv_cdf(min(max(1.0 - mid_p, 1e-300), 1.0 - 1e-16)) * math.sqrt(c.variance / variance)
        row["null"] += " (exact mid-p deviate)"
    row["p_value"] = t_sf(z, df) if df is not None else 1.0 - _STANDARD.cdf(z)
    if df is not None:
        row["df"] = df
    return row


def _pair_counts(
    events: list[_Event], exposure: dict[object, int], *, detail: bool = True
) -> dict[_Pair, _PairCount]:
    """Every ordered pair's observed count and expectation (with chances and hands when
    ``detail``) under the fitted model."""
    took: dict[object, int] = defaultdict(int)
    took_from: dict[_Pair, int] = defaultdict(int)
    for source, _, actor, _, _ in events:
        took[actor] += 1
        took_from[(actor, source)] += 1

    # A candidate's rate leaves out what it took from this source, so a pair cannot raise its
    # own expectation through its rate. Each event's candidates' rates are taken once here: the
    # place-factor fits below go over the events PLACE_ROUNDS times per tested source.
    def rate(s: object, source: object) -> float:
        return (took[s] - took_from[(s, source)] + 0.5) / max(exposure.get(s, 0), 1)

    rates = [tuple(rate(s, source) for s, _ in others) for source, others, _, _, _ in events]
    subjects = _subjects(events)
    if len(subjects) <= PER_SOURCE_LIMIT:
        places = {source: _place_factors(events, rates, source) for source in subjects}
    else:
        shared = _place_factors(events, rates, None)
        places = dict.fromkeys(subjects, shared)

    stats: dict[_Pair, _PairCount] = {}
    for (source, others, actor, hand_id, _), event_rates in zip(events, rates, strict=True):
        factor = places[source]
        weights = [(s, r * factor[d]) for (s, d), r in zip(others, event_rates, strict=True)]
        total = sum(w for _, w in weights)
        for s, w in weights:
            acc = stats.get((source, s))
            if acc is None:
                acc = stats[(source, s)] = _PairCount()
            p = w / total
            acc.expected += p
            if s == actor:
                acc.observed += 1
                if detail and len(acc.hands) < MAX_HANDS:
                    acc.hands.append(hand_id)
            if detail:
                acc.variance += p * (1 - p)
                acc.chances.append(p)
    return stats


def _place_factors(
    events: list[_Event], rates: list[tuple[float, ...]], tested: object
) -> dict[int, float]:
    """A factor per place after the source (1 = next seat, 2 = opposite, 3 = the seat before),
    fitted so that each place takes as many events as observed: turn order and claim priority
    favour some places on every table. ``rates`` holds each event's candidates' rates.

    For the ``tested`` source the factors are fitted without it: on the events it neither gave
    nor took, each among the candidates other than it (the same model, given that it did not
    take). With seats fixed a place is a handful of pairs, and a colluding pair would otherwise
    raise its own place's factor. With many subjects (players reseated), one fit serves all."""
    observed = {1: 0.5, 2: 0.5, 3: 0.5}
    kept: list[tuple[tuple[int, float], ...]] = []  # per event kept: (place, rate) per candidate
    for (source, others, actor, _, _), event_rates in zip(events, rates, strict=True):
        if tested is not None and tested in (source, actor):
            continue
        candidates = tuple(
            (d, r) for (s, d), r in zip(others, event_rates, strict=True) if s != tested
        )
        kept.append(candidates)
        observed[next(d for s, d in others if s != tested and s == actor)] += 1
    # the sums below are the plain loop's, term by term in the same order (the two- and
    # three-candidate cases spelt out: a fit for a tested source leaves it out of the events'
    # candidates, so most have two): the factors, so every expectation, are the same to the bit
    factor = [1.0, 1.0, 1.0, 1.0]  # indexed by place; [0] unused
    for _ in range(PLACE_ROUNDS):
        expected = [0.0, 0.5, 0.5, 0.5]
        for candidates in kept:
            if len(candidates) == 3:
                (d1, r1), (d2, r2), (d3, r3) = candidates
                w1, w2, w3 = r1 * factor[d1], r2 * factor[d2], r3 * factor[d3]
                total = w1 + w2 + w3
                expected[d1] += w1 / total
                expected[d2] += w2 / total
                expected[d3] += w3 / total
            elif len(candidates) == 2:
                (d1, r1), (d2, r2) = candidates
                w1, w2 = r1 * factor[d1], r2 * factor[d2]
                total = w1 + w2
                expected[d1] += w1 / total
                expected[d2] += w2 / total
            else:
                weights = [(d, r * factor[d]) for d, r in candidates]
                total = sum(w for _, w in weights)
                for d, w in weights:
                    expected[d] += w / total
        factor = [1.0, *(factor[d] * observed[d] / expected[d] for d in (1, 2, 3))]
    return {1: factor[1], 2: factor[2], 3: factor[3]}


def _discard_wins(hand: Hand) -> list[tuple[int, int, int | None, frozenset[int]]]:
    """(winner, loser, index of its HU event, the other seats that won on the same discard) for
    every win on a discard or a robbed kong, in record order. Where the record's HU events match
    its wins one to one the index says who had already won (several wins a hand: 血战到底), and
    wins on one discard (一炮多响) are told apart; otherwise the index is None."""
    r = hand.result
    if not r.is_win:
        return []
    hus = [(i, ev) for i, ev in enumerate(hand.events) if ev.kind is EventKind.HU]
    matched = len(hus) == len(r.wins) and all(
        ev.seat == w.winner for (_, ev), w in zip(hus, r.wins, strict=True)
    )
    out = []
    for n, w in enumerate(r.wins):
        if w.loser is None or w.winner is None or w.loser == w.winner:
            continue
        if not matched:
            out.append((w.winner, w.loser, None, frozenset()))
            continue
        # the HU events of one discard follow each other with the same discarder
        start = n
        while start > 0 and hus[start - 1][0] == hus[start][0] - 1 and r.wins[start - 1].loser == w.loser:
            start -= 1
        end = n
        while end + 1 < len(hus) and hus[end + 1][0] == hus[end][0] + 1 and r.wins[end + 1].loser == w.loser:
            end += 1
        co = frozenset(int(hus[k][1].seat) for k in range(start, end + 1) if k != n)  # type: ignore[arg-type]
        out.append((w.winner, w.loser, hus[start][0], co))
    return out


def _subjects(events: list[_Event]) -> set[object]:
    found = set()
    for source, others, actor, _, _ in events:
        found.add(source)
        found.add(actor)
        found.update(s for s, _ in others)
    return found


class Collusion:
    """Accumulates discard wins and pungs/kongs on discards, by ordered pair of subjects."""

    def __init__(self, by: str) -> None:
        self.by = by
        self.deal_in = _PairModel()
        self.feeding = _PairModel()
        self.danger = _PairModel()

    def add(self, hand: Hand, targets: Sequence[tuple[int, int, int]] | None = None) -> None:
        """Count ``hand``'s events; ``targets`` given (mjstats.integrity.replays) saves the replay."""
        by = self.by
        subjects = [who(hand, s, by) for s in range(4)]
        match = hand.match_id
        for model in (self.deal_in, self.feeding, self.danger):
            model.add_hand(hand.ruleset, match, subjects)
        hand_id = f"{hand.match_id}#{hand.hand_no}"

        def others(source: int) -> tuple[tuple[object, int], ...]:
            return tuple((subjects[(source + d) % 4], d) for d in (1, 2, 3))

        wins = _discard_wins(hand)
        # 血战到底 (the ruleset's reference, §0): a seat that has won is out of the hand, so it can
        # neither win again nor claim; only the seats still in play are candidates
        hu_at = [(i, ev.seat) for i, ev in enumerate(hand.events) if ev.kind is EventKind.HU]

        def in_play(
            source: int, index: int, also_out: frozenset[int] = frozenset()
        ) -> tuple[tuple[object, int], ...]:
            out = {seat for i, seat in hu_at if i < index} | also_out
            return tuple((subjects[(source + d) % 4], d) for d in (1, 2, 3) if (source + d) % 4 not in out)

        for winner, loser, index, co_winners in wins:
            candidates = others(loser) if index is None else in_play(loser, index, co_winners)
            self.deal_in.add(hand.ruleset, (subjects[loser], candidates, subjects[winner], hand_id, match))
        for index, ev in enumerate(hand.events):
            giver, taker = ev.from_seat, ev.seat
            if ev.kind in _TAKES and giver is not None and taker is not None and giver != taker:
                candidates = in_play(giver, index) if hu_at else others(giver)
                event = (subjects[giver], candidates, subjects[taker], hand_id, match)
                self.feeding.add(hand.ruleset, event)
        for source, target, index in unique_targets(hand) if targets is None else targets:
            candidates = in_play(source, index) if hu_at else others(source)
            event = (subjects[source], candidates, subjects[target], hand_id, match)
            self.danger.add(hand.ruleset, event)

    def rows(self) -> list[Row]:
        return (
            self.deal_in.rows("collusion.deal_in", self.by, NULL)
            + self.feeding.rows("collusion.feeding", self.by, NULL)
            + self.danger.rows("collusion.danger", self.by, NULL)
        )
