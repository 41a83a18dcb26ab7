"""The integrity tests on hand-built Sichuan hands (血战到底): void suits, the three-tile
exchange, several wins a hand and 一炮多响, each count known in advance."""

from __future__ import annotations

import itertools

from mjstats.formats.canonical import read_canonical
from mjstats.integrity import run_integrity
from mjstats.integrity.collusion import Collusion, _discard_wins
from mjstats.integrity.danger import unique_targets
from mjstats.integrity.deal import DealFairness
from mjstats.integrity.draws import draw_chances
from mjstats.integrity.outcomes import Outcomes
from mjstats.integrity.tracker import draws_of
from mjstats.integrity.useful import useful_kinds, waits
from mjstats.records import Event, EventKind, Hand, Outcome, Result, Win
from mjstats.tiles import Tile, parse_tiles

# seat 0 deals (14); seat 1 (void B) waits on T1/T4, seat 2 (void W) on T4/T7, seat 3 (void T)
# holds a T9 and so waits on nothing
DEALS = (
    "T4 T4 W1 W1 W9 W9 T7 T8 T8 T9 W5 W5 T6 B9",
    "W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T2 T3",
    "T1 T2 T3 T5 T6 B1 B2 B3 B4 B5 B6 B9 B9",
    "W2 W3 W4 W5 W6 W7 B2 B3 B4 B7 B8 B9 T9",
)
VOIDS = ("B1", "B1", "W1", "T1")


def _t(text: str) -> Tile:
    return parse_tiles(text)[0]


def _hand(plays: list[tuple[str, int, str, int | None]], wins: tuple[Win, ...], index: int = 0) -> Hand:
    """Deals, 定缺, then ``plays`` as (kind, seat, tile, from seat)."""
    events = [Event(s, EventKind.DEAL, s, tiles=tuple(parse_tiles(DEALS[s]))) for s in range(4)]
    events += [Event(4 + s, EventKind.VOID, s, tile=_t(VOIDS[s])) for s in range(4)]
    for kind, seat, tile, source in plays:
        events.append(Event(len(events), EventKind(kind), seat, tile=_t(tile), from_seat=source))
    result = Result(Outcome.WIN, wins=wins, scores=(-4, 2, 2, 0)) if wins else Result(Outcome.DRAW)
    return Hand(
        match_id=f"sc-{index // 8}",
        hand_no=index % 8,
        ruleset="sichuan",
        profile="seed",
        dealer=0,
        prevalent_wind=0,
        events=tuple(events),
        result=result,
        players=("ann", "bo", "cai", "dee"),
    )


T4 = _t("T4")
TWO_ON_ONE = (Win(winner=1, loser=0, win_tile=T4), Win(winner=2, loser=0, win_tile=T4))
PLAY = [
    ("discard", 0, "T4", None),
    ("hu", 1, "T4", 0),  # 一炮多响: seats 1 and 2 both win on the T4 and leave
    ("hu", 2, "T4", 0),
    ("draw", 3, "T5", None),  # a T for seat 3, whose void is T: never useful
    ("discard", 3, "T9", None),
    ("draw", 0, "B8", None),
    ("discard", 0, "T7", None),  # seat 2 waited on T7, but it has won: no danger target
]


def test_the_draws_know_the_void_and_a_void_draw_is_never_useful() -> None:
    hand = _hand(PLAY, TWO_ON_ONE)
    views = list(draws_of(hand))
    assert [(v.seat, v.void) for v in views] == [(3, 1), (0, 2)]
    assert sum(views[0].pool) == 108 - 53  # no honours in the pool: the 55 tiles left
    assert not any(views[0].pool[27:])
    chances = draw_chances(hand)
    assert [hit for _, _, hit in chances] == [False, False]
    useful = useful_kinds(views[0].concealed, 0, None, "sichuan", 1)
    assert useful and all(k // 9 != 1 for k in useful)
    total = sum(views[0].pool)
    assert chances[0][1] == sum(views[0].pool[k] for k in useful) / total


def test_waits_honour_the_void_and_a_hand_holding_a_void_tile_waits_on_nothing() -> None:
    def counts(text: str) -> tuple[int, ...]:
        c = [0] * 34
        for t in parse_tiles(text):
            c[t] += 1
        return tuple(c)

    assert waits(counts(DEALS[1]), 0, None, "sichuan", 2) == {_t("T1"), _t("T4")}
    assert waits(counts(DEALS[2]), 0, None, "sichuan", 0) == {_t("T4"), _t("T7")}
    assert waits(counts(DEALS[3]), 0, None, "sichuan", 1) == frozenset()
    # the same hand with a W9 for its T9 waits on W9
    assert waits(counts(DEALS[3].replace("T9", "W9")), 0, None, "sichuan", 1) == {_t("W9")}


def test_danger_targets_leave_out_winners_and_count_one_opponent_only() -> None:
    # T4 completes two opponents (no target); T7 after seat 2 has won completes nobody in play
    assert unique_targets(_hand(PLAY, TWO_ON_ONE)) == []
    first_t7 = [("discard", 0, "T7", None), ("hu", 2, "T7", 0)]
    assert unique_targets(_hand(first_t7, (Win(winner=2, loser=0, win_tile=_t("T7")),))) == [(0, 2, 8)]


def test_several_wins_on_one_discard_are_told_apart() -> None:
    hand = _hand(PLAY, TWO_ON_ONE)
    assert _discard_wins(hand) == [(1, 0, 9, frozenset({2})), (2, 0, 9, frozenset({1}))]
    collusion = Collusion("seat")
    collusion.add(hand)
    events = collusion.deal_in.events["sichuan"]
    # each winner against the seats that could still have won instead: not the co-winner
    assert [e[:3] for e in events] == [(0, ((1, 1), (3, 3)), 1), (0, ((2, 2), (3, 3)), 2)]


def test_a_later_win_has_only_the_seats_still_in_play_as_candidates() -> None:
    plays = [*PLAY, ("draw", 3, "W8", None), ("discard", 3, "W8", None), ("hu", 0, "W8", 3)]
    wins = (*TWO_ON_ONE, Win(winner=0, loser=3, win_tile=_t("W8")))
    hand = _hand(plays, wins)
    assert _discard_wins(hand)[2] == (0, 3, 17, frozenset())
    collusion = Collusion("seat")
    collusion.add(hand)
    last = collusion.deal_in.events["sichuan"][2]
    assert len(last[1]) == 1  # seats 1 and 2 are out: seat 0 was the only one who could win


def test_outcomes_count_every_win_and_deal_in() -> None:
    outcomes = Outcomes("seat")
    hands = [_hand(PLAY, TWO_ON_ONE, i) for i in range(3)] + [_hand([], (), 3)]
    for hand in hands:
        outcomes.add(hand)
    dealer = outcomes.cells[("sichuan", 0, "dealer")]
    assert dealer[:3] == [4, 0, 6]  # 4 hands, no win, two deal-ins in each of three hands
    assert outcomes.cells[("sichuan", 1, "other")][:3] == [4, 3, 0]
    rows = {(r["test"], r["subject"]["seat"]): r for r in outcomes.rows()}
    assert rows[("outcome.deal_in", 0)]["observed"] == 6
    # one dealer: its deal-ins per hand are 2, 2, 2, 0: mean 1.5 and variance 0.75 a hand
    # (E[x^2] - E[x]^2), not a Bernoulli's p(1 - p)
    assert rows[("outcome.deal_in", 0)]["expected"] == 6
    assert "null variance 3.0 " in rows[("outcome.deal_in", 0)]["note"]


def test_the_deal_tests_know_the_set_has_no_honours() -> None:
    deal = DealFairness("seat")
    deal.add(_hand(PLAY, TWO_ON_ONE))
    tests = {key[0] for key in deal.counts}
    assert tests == {"deal.pairs"}  # no honours and no flowers to test
    assert deal.shanten  # starting shanten compared between seats


def test_the_bundled_sichuan_hands_are_judged_by_every_family() -> None:
    records = itertools.islice(read_canonical("data/sim/sichuan.jsonl.gz"), 240)
    hands = [h for h in records if isinstance(h, Hand)]
    report = run_integrity(hands)
    assert not any("no hand shape" in n for n in report.notes)
    families = {r["test"].split(".")[0] for r in report.rows if r["ruleset"] == "sichuan"}
    assert families == {"deal", "draw", "collusion", "outcome"}
    draws = [r for r in report.rows if r["test"] == "draw.improving"]
    assert len(draws) == 4 and all(r["n"] > 1000 for r in draws)
