"""Every integrity test against its null: on fair data its p-values are uniform (Kolmogorov-
Smirnov at 1%).

Counts are discrete: over a handful of hands a count's p-values come in steps that KS sees, so
each test is checked at a size where its count's null variance is about 100 or more (where a
real run of 5,000 hands is far beyond). Deal tests see hand-built fair deals (1,000 p-values each
in the slow test, 300 in the fast one); the draw, collusion and outcome tests see the bundled
simulated hands (fair play) cut into runs (bench/integrity_power.py measures them on more)."""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

import pytest

from mjstats.formats.canonical import read_canonical
from mjstats.integrity.collusion import Collusion
from mjstats.integrity.deal import DealFairness, pair_cov, pair_mean_var
from mjstats.integrity.distributions import hypergeom_mean_var, ks_uniform
from mjstats.integrity.draws import DrawFairness
from mjstats.integrity.outcomes import Outcomes
from mjstats.integrity.replays import HandReplay, replay_hand
from mjstats.integrity.streaks import Streaks
from mjstats.records import Hand, Outcome, Result
from mjstats.tiles import Tile
from tests.integrity_data import SEED_FLOWERS, dealt_hand, result_hand

ROOT = Path(__file__).resolve().parent.parent
ALPHA = 0.01


def _p_values(families, tests: set[str] | None = None) -> dict[str, list[float]]:
    out: dict[str, list[float]] = defaultdict(list)
    for family in families:
        for row in family.rows():
            if row["p_value"] is not None and (tests is None or row["test"] in tests):
                out[f"{row['ruleset']} {row['test']}"].append(row["p_value"])
    return out


def _assert_uniform(name: str, values: list[float], at_least: int) -> None:
    assert len(values) >= at_least, (name, len(values))
    d, p = ks_uniform(values)
    assert p > ALPHA, f"{name}: {len(values)} p-values not uniform (KS D={d:.3f}, p={p:.2g})"


DEAL_TESTS = {"deal.honours", "deal.pairs", "deal.flowers", "deal.shanten"}


def _deal_p_values(runs: int, hands: int) -> dict[str, list[float]]:
    rng = random.Random(2026)
    found: dict[str, list[float]] = defaultdict(list)
    for ruleset in ("guobiao", "fuzhou"):
        for _ in range(runs):
            family = DealFairness("seat")
            for i in range(hands):
                family.add(dealt_hand(rng, ruleset, i, dealer=i % 4))
            for name, values in _p_values([family], DEAL_TESTS).items():
                found[name].extend(values)
    assert set(found) == {
        "guobiao deal.honours",
        "guobiao deal.pairs",
        "guobiao deal.shanten",
        "fuzhou deal.pairs",
        "fuzhou deal.flowers",
    }
    return found


def test_deal_tests_are_uniform_on_fair_deals() -> None:
    # 50 runs of 200 hands: 4 seats + dealer/others = 300 p-values (shanten: 200)
    for name, values in _deal_p_values(50, 200).items():
        _assert_uniform(name, values, 200)


@pytest.mark.slow
def test_deal_tests_are_uniform_on_1000_p_values() -> None:
    for name, values in _deal_p_values(170, 200).items():
        _assert_uniform(name, values, 680)


def test_gold_and_wall_position_tests_are_uniform() -> None:
    rng = random.Random(7)
    playable = [k for k in range(34) if k not in SEED_FLOWERS]
    gold, walls = [], defaultdict(list)
    for _ in range(1000):
        family = DealFairness("seat")
        for i in range(140):
            family.add(_gold_only(i, rng.choice(playable)))
        gold.extend(_p_values([family])["fuzhou deal.gold_kind"])
    for ruleset, count in (("guobiao", 2), ("fuzhou", 5)):
        for _ in range(1000):
            family = DealFairness("seat")
            for i in range(count):
                family.add(dealt_hand(rng, ruleset, i))
            walls[ruleset].extend(
                _p_values([family], {"deal.wall_position"})[f"{ruleset} deal.wall_position"]
            )
    _assert_uniform("gold_kind", gold, 1000)
    for ruleset, values in walls.items():
        _assert_uniform(f"{ruleset} wall_position", values, 1000)


def _gold_only(i: int, gold: int) -> Hand:
    return Hand(
        match_id=f"g-{i // 8}",
        hand_no=i % 8,
        ruleset="fuzhou",
        profile="seed",
        dealer=0,
        prevalent_wind=0,
        events=(),
        result=Result(Outcome.DRAW),
        gold=Tile(gold),
    )


@pytest.fixture(scope="module")
def fair_hands() -> dict[str, list[Hand]]:
    """The bundled simulated hands (fair play, 2,000 per ruleset)."""
    out = {}
    for ruleset in ("guobiao", "fuzhou"):
        path = ROOT / "data" / "sim" / f"{ruleset}.jsonl.gz"
        out[ruleset] = [h for h in read_canonical(path) if isinstance(h, Hand)]
    return out


def test_draw_test_is_uniform_on_fair_play(fair_hands: dict[str, list[Hand]]) -> None:
    # runs of 40 Guobiao / 100 Fuzhou hands: about 600 draws a seat (variance ~100)
    values: list[float] = []
    for ruleset, size in (("guobiao", 40), ("fuzhou", 100)):
        hands = fair_hands[ruleset]
        for start in range(0, len(hands), size):
            family = DrawFairness("seat")
            for hand in hands[start : start + size]:
                family.add(hand)
            values.extend(p for ps in _p_values([family]).values() for p in ps)
    _assert_uniform("draw.improving", values, 280)


def _random_results(rng: random.Random, start: int, count: int) -> list[Hand]:
    """Hands with fair results only: a random winner (or an exhaustive draw), on a random
    discarder or self-drawn; matches of 16 hands (tests.integrity_data.result_hand)."""
    hands = []
    for i in range(start, start + count):
        if rng.random() < 0.2:
            hands.append(result_hand(i, None, None))
            continue
        winner = rng.randrange(4)
        loser = None if rng.random() < 0.3 else rng.choice([s for s in range(4) if s != winner])
        hands.append(result_hand(i, winner, loser))
    return hands


RESULT_TESTS = {"collusion.deal_in", "outcome.win", "outcome.deal_in", "outcome.score"}


def _result_p_values(runs: int, hands: int, families) -> dict[str, list[float]]:
    rng = random.Random(11)
    found: dict[str, list[float]] = defaultdict(list)
    for run in range(runs):
        made = [family() for family in families]
        for hand in _random_results(rng, run * hands, hands):
            for family in made:
                family.add(hand)
        for name, values in _p_values(made).items():
            found[name].extend(values)
    return found


def test_result_tests_are_uniform_on_fair_results() -> None:
    # 30 runs of 400 hands (25 matches): 12 pairs / 4 seats a run
    found = _result_p_values(30, 400, (lambda: Collusion("seat"), lambda: Outcomes("seat")))
    assert {n.split()[1] for n in found} == RESULT_TESTS
    for name, values in found.items():
        _assert_uniform(name, values, 120)


@pytest.mark.slow
def test_result_tests_are_uniform_on_1000_p_values() -> None:
    found = _result_p_values(250, 400, (lambda: Collusion("seat"), lambda: Outcomes("seat")))
    for name, values in found.items():
        _assert_uniform(name, values, 1000)


def test_streak_test_is_uniform_on_fair_results() -> None:
    # runs of 40 matches of 16 hands: 4 seats a run
    found = _result_p_values(60, 640, (lambda: Streaks("seat"),))
    _assert_uniform("outcome.streak", found["guobiao outcome.streak"], 240)


@pytest.mark.slow
def test_streak_test_is_uniform_on_1000_p_values() -> None:
    found = _result_p_values(250, 640, (lambda: Streaks("seat"),))
    _assert_uniform("outcome.streak", found["guobiao outcome.streak"], 1000)


def test_pair_and_outcome_tests_are_uniform_on_fair_play(
    fair_hands: dict[str, list[Hand]],
) -> None:
    """On real (simulated) play, where claims, pungs and waits come from the replay: every
    collusion, outcome and streak test of the bundled hands in runs of 400 (Fuzhou: 500)."""
    found: dict[str, list[float]] = defaultdict(list)
    for ruleset, size in (("guobiao", 400), ("fuzhou", 500)):
        hands = fair_hands[ruleset]
        for start in range(0, len(hands), size):
            families = (Collusion("seat"), Outcomes("seat"), Streaks("seat"))
            for hand in hands[start : start + size]:
                for family in families:
                    family.add(hand)
            for name, values in _p_values(families).items():
                found[name.split()[1]].extend(values)
    assert {"collusion.deal_in", "collusion.feeding", "collusion.danger", "outcome.win"} <= set(found)
    for name, values in found.items():
        _assert_uniform(name, values, 16)


@pytest.fixture(scope="module")
def sichuan_replays() -> list[tuple[Hand, HandReplay]]:
    """The bundled simulated Sichuan hands (fair 血战到底 play), each replayed once."""
    path = ROOT / "data" / "sim" / "sichuan.jsonl.gz"
    return [(h, replay_hand(h)) for h in read_canonical(path) if isinstance(h, Hand)]


@pytest.mark.slow
def test_sichuan_tests_are_uniform_on_fair_play(sichuan_replays: list[tuple[Hand, HandReplay]]) -> None:
    """Several wins a hand, void suits: the draw test in runs of 80 hands (about 1,000 draws a
    seat), collusion in runs of 500, outcomes in runs of 200, deals in runs of 300."""
    found: dict[str, list[float]] = defaultdict(list)
    sizes = {"draw": 80, "collusion": 500, "outcome": 200, "deal": 300}
    makers = {
        "draw": lambda: DrawFairness("seat"),
        "collusion": lambda: Collusion("seat"),
        "outcome": lambda: Outcomes("seat"),
        "deal": lambda: DealFairness("seat"),
    }
    for name, size in sizes.items():
        for start in range(0, len(sichuan_replays) - size + 1, size):
            family = makers[name]()
            for hand, replay in sichuan_replays[start : start + size]:
                if name == "draw":
                    family.add(hand, replay.draws)
                elif name == "collusion":
                    family.add(hand, replay.targets)
                else:
                    family.add(hand)
            for test, values in _p_values([family]).items():
                found[test.split()[1]].extend(values)
    expected = {"draw.improving", "collusion.deal_in", "collusion.danger", "outcome.deal_in", "deal.pairs"}
    assert expected <= set(found)
    assert "deal.honours" not in found  # 108 suited tiles: no honours to count
    for name, values in found.items():
        if name != "deal.wall_position":  # one wall a hand: 6 runs of 300 give too few here
            _assert_uniform(f"sichuan {name}", values, 16)


def _seated_results(rng: random.Random, first: int, hands: int, match_len: int = 16) -> list[Hand]:
    """Fair by seat, unequal players: each match seats one strong player at a random seat (it
    wins 40% of hands), afresh for every match, as a platform seats players of unequal skill."""
    out = []
    strong = 0
    for i in range(first, first + hands):
        if i % match_len == 0:
            strong = rng.randrange(4)
        winner = strong if rng.random() < 0.4 else rng.randrange(4)
        loser = rng.choice([s for s in range(4) if s != winner])
        out.append(result_hand(i, winner, loser))
    return out


def test_outcome_tests_take_the_match_as_the_unit() -> None:
    """A seat that meets a strong player in some matches and not in others wins in bursts: the
    seat-hands of a match are not independent, and a binomial variance flags fair seats. Judged
    over matches (its table as the baseline), the p-values are uniform."""
    rng = random.Random(21)
    found: list[float] = []
    binomial_z: list[float] = []
    for run in range(60):
        family = Outcomes("seat")
        for hand in _seated_results(rng, run * 400, 400):
            family.add(hand)
        for row in family.rows():
            if row["test"] != "outcome.win":
                continue
            assert row["statistic_name"] == "t" and row["df"] == 24  # 25 matches of 16 hands
            found.append(row["p_value"])
            p = row["expected"] / row["n"]
            binomial_z.append((row["observed"] - row["expected"]) / (row["n"] * p * (1 - p)) ** 0.5)
    _assert_uniform("outcome.win over matches", found, 240)
    mean = sum(binomial_z) / len(binomial_z)
    spread = (sum((z - mean) ** 2 for z in binomial_z) / (len(binomial_z) - 1)) ** 0.5
    assert spread > 1.2  # what the seat-hand binomial would have seen: overdispersed


def _dealer_keeps_the_deal(rng: random.Random, matches: int) -> list[Hand]:
    """Fuzhou's match shape on fair results: 8 hands, seat 0 deals first, a winning dealer
    deals again, else the deal passes on; every hand's winner uniform over the four seats."""
    out = []
    for m in range(matches):
        dealer = 0
        for no in range(8):
            winner = rng.randrange(4)
            loser = rng.choice([s for s in range(4) if s != winner])
            hand = result_hand(0, winner, loser)
            out.append(replace(hand, match_id=f"d-{m}", hand_no=no, dealer=dealer))
            dealer = dealer if winner == dealer else (dealer + 1) % 4
    return out


def test_streaks_are_not_biased_by_the_first_dealer() -> None:
    """Where a winning dealer keeps the deal, a dealer's hands run until it loses and the seat
    that deals first has more such runs: with the dealer's hands judged, fair seat 0 shows a
    streak deficit (t about -5 on these hands). Judged on the hands a subject does not deal,
    no seat stands out."""
    streaks = Streaks("seat")
    for hand in _dealer_keeps_the_deal(random.Random(5), 12000):
        streaks.add(hand)
    rows = streaks.rows()
    assert len(rows) == 4
    for row in rows:
        assert abs(row["statistic"]) < 3.3, row


def test_the_three_non_dealers_of_a_hand_are_one_draw() -> None:
    """Rows by role: the three non-dealers' honours are one hypergeometric draw of their 39
    tiles (not three independent 13-tile draws, whose variance is a quarter larger), their
    pairs the sum of three counts with their covariances."""
    family = DealFairness("seat")
    rng = random.Random(3)
    for i in range(50):
        family.add(dealt_hand(rng, "guobiao", i, dealer=i % 4))
    honours = family.counts[("deal.honours", "guobiao", "role", "other")]
    assert honours[0] == 150  # three seat-hands a hand
    assert honours[3] == pytest.approx(50 * hypergeom_mean_var(136, 28, 39)[1])
    assert honours[3] < 150 * hypergeom_mean_var(136, 28, 13)[1] * 0.8
    pairs = family.counts[("deal.pairs", "guobiao", "role", "other")]
    var = pair_mean_var(136, 13, 34)[1]
    assert pairs[3] == pytest.approx(50 * (3 * var + 6 * pair_cov(136, 13, 13, 34)))
    dealer = family.counts[("deal.honours", "guobiao", "role", "dealer")]
    assert dealer[0] == 50 and dealer[3] == pytest.approx(50 * hypergeom_mean_var(136, 28, 13)[1])
