"""Collusion indicators: does one player's discarding serve another more than chance explains?

- ``collusion.deal_in`` (ordered pair loser -> winner): in every hand won on a discard, which of
  the three others won. Under no collusion the winner is w with chance proportional to w's own
  rate of winning on discards, counted on the other discarders (so a colluding pair does not
  raise its own expectation), times a factor for w's place after the discarder (turn order and
  claim priority favour some places), fitted on the events the loser took no part in. Observed
  count against the sum of those chances: z with a Poisson-binomial variance
  (exact mid-p for small counts), one-sided (more than expected).
- ``collusion.feeding`` (ordered pair discarder -> claimer): pungs and exposed kongs one player
  makes on another's discards, with the same model (chows are left out: only the next seat may
  chow, so they say nothing about choice).
Each row lists the hands behind its count (``hands``: "match_id#hand_no", at most 20).
"""

from __future__ import annotations

from collections import defaultdict

from mjstats.integrity.rows import Row, z_row
from mjstats.integrity.subjects import who
from mjstats.records import EventKind, Hand

__all__ = ["Collusion"]

NULL = "winner/claimer chosen in proportion to its own rate on the other discarders x a place factor"
MAX_HANDS = 20
PLACE_ROUNDS = 8  # fitting rounds of the place factors (they settle to 1e-4 in about five)
PER_SOURCE_LIMIT = 12  # up to this many subjects the place factors are fitted per source
_TAKES = (EventKind.PENG, EventKind.GANG)
_Event = tuple[object, tuple[tuple[object, int], ...], object, str]


class _PairModel:
    """Events 'actor takes from source' with the three possible actors of each event."""

    def __init__(self) -> None:
        # per ruleset: (source subject, (subject, place after the source) x 3, actor, hand id)
        self.events: dict[str, list[_Event]] = defaultdict(list)
        self.exposure: dict[tuple[str, object], int] = defaultdict(int)  # hands played

    def add(self, ruleset: str, event: _Event) -> None:
        self.events[ruleset].append(event)

    def rows(self, test: str, by: str, null: str) -> list[Row]:
        out = []
        for ruleset, events in sorted(self.events.items()):
            exposure = {s: max(self.exposure[(ruleset, s)], 1) for s in _subjects(events)}
            out.extend(_pair_rows(test, ruleset, by, null, events, exposure))
        return out


def _pair_rows(
    test: str, ruleset: str, by: str, null: str, events: list[_Event], exposure: dict[object, int]
) -> list[Row]:
    """One row per ordered pair (source, candidate) of a ruleset's events."""
    took: dict[object, int] = defaultdict(int)
    took_from: dict[tuple[object, object], int] = defaultdict(int)
    for source, _, actor, _ in events:
        took[actor] += 1
        took_from[(actor, source)] += 1

    # A candidate's rate leaves out what it took from this source, so a pair cannot raise its
    # own expectation through its rate.
    def rate(s: object, source: object) -> float:
        return (took[s] - took_from[(s, source)] + 0.5) / exposure[s]

    subjects = _subjects(events)
    if len(subjects) <= PER_SOURCE_LIMIT:
        places = {source: _place_factors(events, rate, source) for source in subjects}
    else:
        shared = _place_factors(events, rate, None)
        places = dict.fromkeys(subjects, shared)

    def weight(s: object, d: int, source: object) -> float:
        return rate(s, source) * places[source][d]

    stats: dict[tuple[object, object], list] = {}
    for source, others, actor, hand_id in events:
        weights = [(s, weight(s, d, source)) for s, d in others]
        total = sum(w for _, w in weights)
        for s, w in weights:
            acc = stats.setdefault((source, s), [0, 0.0, 0.0, 0, [], []])
            p = w / total
            acc[0] += s == actor
            acc[1] += p
            acc[2] += p * (1 - p)
            acc[3] += 1
            if s == actor and len(acc[4]) < MAX_HANDS:
                acc[4].append(hand_id)
            acc[5].append(p)
    out = []
    for (source, actor), (obs, exp, var, n, hands, chances) in sorted(
        stats.items(), key=lambda kv: (str(kv[0][0]), str(kv[0][1]))
    ):
        row = z_row(
            test,
            ruleset,
            by,
            {"from": source, "to": actor},
            observed=obs,
            expected=exp,
            variance=var,
            n=n,
            null=null,
            alternative="greater",
            min_variance=3.0,
            chances=chances,
        )
        row["hands"] = hands
        out.append(row)
    return out


def _place_factors(events: list[_Event], rate, tested: object) -> dict[int, float]:
    """A factor per place after the source (1 = next seat, 2 = opposite, 3 = the seat before),
    fitted so that each place takes as many events as observed: turn order and claim priority
    favour some places on every table.

    For the ``tested`` source the factors are fitted without it: on the events it neither gave
    nor took, each among the candidates other than it (the same model, given that it did not
    take). With seats fixed a place is a handful of pairs, and a colluding pair would otherwise
    raise its own place's factor. With many subjects (players reseated), one fit serves all."""
    factor = {1: 1.0, 2: 1.0, 3: 1.0}
    observed = {1: 0.5, 2: 0.5, 3: 0.5}
    kept = []
    for source, others, actor, _ in events:
        if tested is not None and tested in (source, actor):
            continue
        candidates = tuple((s, d) for s, d in others if s != tested)
        kept.append((source, candidates))
        observed[next(d for s, d in candidates if s == actor)] += 1
    for _ in range(PLACE_ROUNDS):
        expected = {1: 0.5, 2: 0.5, 3: 0.5}
        for source, candidates in kept:
            weights = [(d, rate(s, source) * factor[d]) for s, d in candidates]
            total = sum(w for _, w in weights)
            for d, w in weights:
                expected[d] += w / total
        factor = {d: factor[d] * observed[d] / expected[d] for d in factor}
    return factor


def _subjects(events: list) -> set[object]:
    found = set()
    for source, others, actor, _ in events:
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

    def add(self, hand: Hand) -> None:
        by = self.by
        subjects = [who(hand, s, by) for s in range(4)]
        for model in (self.deal_in, self.feeding):
            for s in subjects:
                model.exposure[(hand.ruleset, s)] += 1
        hand_id = f"{hand.match_id}#{hand.hand_no}"

        def others(source: int) -> tuple[tuple[object, int], ...]:
            return tuple((subjects[(source + d) % 4], d) for d in (1, 2, 3))

        r = hand.result
        if r.is_win and r.loser is not None and r.winner is not None and r.loser != r.winner:
            event = (subjects[r.loser], others(r.loser), subjects[r.winner], hand_id)
            self.deal_in.add(hand.ruleset, event)
        for ev in hand.events:
            giver, taker = ev.from_seat, ev.seat
            if ev.kind in _TAKES and giver is not None and taker is not None and giver != taker:
                self.feeding.add(hand.ruleset, (subjects[giver], others(giver), subjects[taker], hand_id))

    def rows(self) -> list[Row]:
        return self.deal_in.rows("collusion.deal_in", self.by, NULL) + self.feeding.rows(
            "collusion.feeding", self.by, NULL
        )
