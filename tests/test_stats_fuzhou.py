"""Gold usage and dealer-streak metrics on small hand-made Fuzhou records, end to end
(records -> store -> stats). Expected values are worked out by hand in the comments."""

from __future__ import annotations

from pathlib import Path

import pytest

from mjstats.records import Event, EventKind, FanEntry, Hand, Outcome, Result, WinKind
from mjstats.stats import cochran_armitage, compute, dealer_streaks, gold_usage, streak_trend
from mjstats.store import SourceInput, ingest_sources, open_dataset
from mjstats.tiles import ALL_KINDS, parse_tiles

K = EventKind
GOLD = parse_tiles("5m")[0]  # W5 is the gold in every hand below
# A consistent tile pool without the gold kind: 26 kinds x 4 copies, dealt in order.
POOL = [ALL_KINDS[k] for k in range(27) if k != GOLD for _ in range(4)]


class Script:
    """Events of one hand, numbered as they are added."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def add(self, kind: EventKind, seat: int | None = None, tile=None, **fields) -> None:
        self.events.append(Event(len(self.events), kind, seat, tile, **fields))

    def deal(self, dealer: int, hands: dict[int, str]) -> None:
        for i in range(4):
            seat = (dealer + i) % 4
            self.add(K.DEAL, seat, tiles=parse_tiles(hands[seat]))


def _hand(match: str, no: int, dealer: int, streak: int, script: Script, result: Result) -> Hand:
    return Hand(match_id=match, hand_no=no, ruleset="fuzhou", profile="seed", dealer=dealer,
                prevalent_wind=0, events=tuple(script.events), result=result, streak=streak,
                gold=GOLD, players=("甲", "乙", "丙", "丁"))


def _win(winner, loser, tile, self_drawn, scores, pattern=None, golds=0, streak=0):
    fans = [FanEntry("花番", 0, 1), FanEntry("金番", golds, 1)]
    if streak:
        fans.append(FanEntry("连庄", streak, 1))
    return Result(Outcome.WIN, winner, loser, tile, self_drawn, golds + streak, tuple(fans),
                  tuple(scores), pattern)


def hand_three_golds() -> Hand:
    """Seat 1 (dealt two golds) draws the third and wins 三金倒. Start golds 0/2/1/0."""
    s = Script()
    s.deal(0, {
        0: "123678m123456789s1f",  # 17 tiles with one flower
        1: "55m123456789p12389s",
        2: "5m9m123678m1234567p",
        3: "11m2399m4455667788s",
    })
    s.add(K.FLOWER, 0, parse_tiles("1f")[0])
    s.add(K.DRAW, 0, parse_tiles("8p")[0], tail=True)
    s.add(K.GOLD, None, GOLD)
    s.add(K.DISCARD, 0, parse_tiles("8p")[0])
    s.add(K.DRAW, 1, GOLD)
    s.add(K.HU, 1, None, win=WinKind.THREE_GOLDS)
    # each pays (0 + 3 + 0 + 5) x 2 + 40 = 56
    return _hand("fzA", 0, 0, 0, s, _win(1, None, None, True, (-56, 168, -56, -56), "三金倒", 3))


def hand_golden_pair() -> Hand:
    """Seat 2 waits with a pair of golds (金雀) and wins seat 3's 9p: golds at face value."""
    s = Script()
    s.deal(1, {
        1: "123m789m123s456s789s22p",
        2: "123m123s456s123p78p55m",
        3: "1199m778899s3344p9p6m",
        0: "234678m234s567p1166s",
    })
    s.add(K.GOLD, None, GOLD)
    s.add(K.DISCARD, 1, parse_tiles("2p")[0])
    s.add(K.DRAW, 2, parse_tiles("4s")[0])
    s.add(K.DISCARD, 2, parse_tiles("4s")[0])
    s.add(K.DRAW, 3, parse_tiles("1p")[0])
    s.add(K.DISCARD, 3, parse_tiles("9p")[0])
    s.add(K.HU, 2, parse_tiles("9p")[0], from_seat=3)
    # the discarder pays (0 + 2 + 0 + 5) x 2 + 60 = 74
    return _hand("fzA", 1, 1, 0, s, _win(2, 3, parse_tiles("9p")[0], False, (0, 0, 74, -74), "金雀", 2))


def hand_wild_gold() -> Hand:
    """Seat 3 self-draws 9p; its one gold must stand for 9s (the pair): one gold used as wild."""
    s = Script()
    s.deal(2, {
        2: "111999m111999p22334s",
        3: "123m123s456s123p78p9s5m",
        0: "234678m678s456p5566s",
        1: "5m2346789m789s5678p1s",
    })
    s.add(K.GOLD, None, GOLD)
    s.add(K.DISCARD, 2, parse_tiles("4s")[0])
    s.add(K.DRAW, 3, parse_tiles("9p")[0])
    s.add(K.HU, 3, parse_tiles("9p")[0])
    # each pays (0 + 1 + 0 + 5) x 2 = 12
    return _hand("fzA", 2, 2, 0, s, _win(3, None, parse_tiles("9p")[0], True, (-12, -12, -12, 36), None, 1))


def simple_hand(match: str, no: int, dealer: int, streak: int, *, winner: int | None = None,
                loser: int | None = None, gold_discarder: int | None = None, pattern: str | None = None,
                scores: tuple[int, ...] | None = None, rob_gold: bool = False,
                rob_kong_by: int | None = None) -> Hand:
    """A short, tile-consistent hand: deal from POOL, reveal the gold, the dealer discards, an
    optional gold discard, then a win (self-draw when ``loser`` is None) or an exhaustive draw."""
    s = Script()
    hands, at = {}, 0
    for i in range(4):
        seat = (dealer + i) % 4
        size = 17 if i == 0 else 16
        tiles = [int(t) for t in POOL[at:at + size]]
        at += size
        if seat == gold_discarder:
            tiles[-1] = int(GOLD)
        hands[seat] = tiles
    s.deal(dealer, {k: [ALL_KINDS[t] for t in v] for k, v in hands.items()})
    s.add(K.GOLD, None, GOLD)
    if rob_gold:  # 抢金: a non-dealer completes with the face-up gold on the first turn
        s.add(K.DISCARD, dealer, ALL_KINDS[hands[dealer][0]])
        s.add(K.HU, winner, GOLD, win=WinKind.ROB_GOLD)
        return _hand(match, no, dealer, streak, s, _win(winner, None, GOLD, True, scores, "抢金", 1, streak))
    s.add(K.DISCARD, dealer, ALL_KINDS[hands[dealer][0]])
    spare = iter(POOL[at:])
    if gold_discarder is not None:
        s.add(K.DRAW, gold_discarder, next(spare))
        s.add(K.DISCARD, gold_discarder, GOLD)
    if rob_kong_by is not None:
        # the konger pungs the dealer's discard, later adds the fourth copy; the winner robs it
        tile = ALL_KINDS[hands[dealer][0]]
        s.events.pop()
        s.add(K.DISCARD, dealer, tile)
        holder = hands[rob_kong_by]
        # give the konger two copies and the fourth by a draw: rebuild from POOL positions
        s.add(K.DRAW, rob_kong_by, next(spare))
        s.add(K.DISCARD, rob_kong_by, ALL_KINDS[holder[0]])
        s.add(K.HU, winner, tile, from_seat=rob_kong_by, win=WinKind.ROB_KONG)
        # reference fuzhou.md: robbing a kong scores as a self-draw (no loser recorded)
        return _hand(match, no, dealer, streak, s, _win(winner, None, tile, True, scores, None, 0, streak))
    if winner is None:
        s.add(K.HUANG)
        return _hand(match, no, dealer, streak, s, Result(Outcome.DRAW, scores=scores))
    tile = next(spare)
    if loser is None:
        s.add(K.DRAW, winner, tile)
        s.add(K.HU, winner, tile)
        return _hand(match, no, dealer, streak, s, _win(winner, None, tile, True, scores, pattern, 0, streak))
    s.add(K.DRAW, loser, tile)
    s.add(K.DISCARD, loser, tile)
    s.add(K.HU, winner, tile, from_seat=loser)
    return _hand(match, no, dealer, streak, s, _win(winner, loser, tile, False, scores, pattern, 0, streak))


def streak_match() -> list[Hand]:
    """Dealer 0 wins twice (streak 0 -> 1 -> 2), a draw (gold discarded by seat 1), a non-dealer
    wins, then dealer 1 starts a new streak and seat 3 wins on seat 1's discard (金龙)."""
    return [
        simple_hand("fzB", 0, 0, 0, winner=0, scores=(30, -10, -10, -10)),
        simple_hand("fzB", 1, 0, 1, winner=0, scores=(36, -12, -12, -12)),
        simple_hand("fzB", 2, 0, 2, gold_discarder=1, scores=(0, 0, 0, 0)),
        simple_hand("fzB", 3, 0, 2, winner=2, loser=0, scores=(-20, 0, 20, 0)),
        simple_hand("fzB", 4, 1, 0, winner=3, loser=1, pattern="金龙", scores=(0, -130, 0, 130)),
        simple_hand("fzB", 5, 1, 0, winner=2, rob_gold=True, scores=(-40, -40, 120, -40)),
        simple_hand("fzB", 6, 2, 0, winner=0, rob_kong_by=3, scores=(30, -10, -10, -10)),
    ]


def all_hands() -> list[Hand]:
    return [hand_three_golds(), hand_golden_pair(), hand_wild_gold(), *streak_match()]


def _ingest(tmp: Path, hands: list[Hand]) -> Path:
    src = tmp / "hands.marker"
    src.write_text(f"{len(hands)} hand-made hands\n", encoding="utf-8")
    out = tmp / "ds"
    summary = ingest_sources([SourceInput(src, "made", lambda _p: iter(hands))], out)
    assert summary.hands == len(hands) and summary.rejects == 0
    return out


@pytest.fixture(scope="module")
def fuzhou_ds(tmp_path_factory) -> Path:
    return _ingest(tmp_path_factory.mktemp("fz"), all_hands())


def _rows(frame, **match):
    sel = frame
    for key, value in match.items():
        sel = sel[sel[key] == value]
    return sel


def _one(frame, **match):
    rows = _rows(frame, **match)
    assert len(rows) == 1, rows
    return rows.iloc[0]


def test_gold_held_at_win(fuzhou_ds):
    g = gold_usage(fuzhou_ds)
    held = _rows(g, metric="gold_held_share")
    # 9 wins: 三金倒 (3 golds), 金雀 (2), wild gold (1), and six in the streak match: the 抢金
    # winner holds no dealt gold but takes the face-up one (1); the other five hold none.
    by_k = {int(r.golds_held): int(r.numerator) for r in held.itertuples()}
    assert by_k == {0: 5, 1: 2, 2: 1, 3: 1}
    assert set(held["denominator"]) == {9}


def test_golds_wild_or_face_value(fuzhou_ds):
    r = _one(gold_usage(fuzhou_ds), metric="gold_wild_share")
    # complete shapes: 金雀 (2 golds at face value), the wild gold (1 wild) and the 抢金 hand
    # (dealt 4 copies each of four consecutive kinds: four runs, a pung and one tile, paired
    # by the robbed gold as wild); the five filler wins are not complete, 三金倒 is set aside
    assert (r.numerator, r.denominator, r.natural) == (2, 4, 2)
    assert r.unresolved == 6


def test_start_golds_and_gold_discards(fuzhou_ds):
    g = gold_usage(fuzhou_ds)
    start = _rows(g, metric="start_gold_win_rate")
    by_k = {int(r.start_golds): (int(r.numerator), int(r.denominator)) for r in start.itertuples()}
    # starting golds: hand A seats 0/2/1/0, B 0/0/2/0, C 0/1/0/1, fzB h2 seat 1 has one:
    # two seat-hands with 2 (both won), four with 1 (C seat 3 won), 34 with none (6 wins)
    assert by_k == {0: (6, 34), 1: (1, 4), 2: (2, 2)}
    disc = _rows(g, metric="gold_discard_win_rate")
    yes = _one(disc, discarded_gold=True)
    assert (yes.numerator, yes.denominator, yes.gold_discards) == (0, 1, 1)


def test_gold_patterns(fuzhou_ds):
    pats = _rows(gold_usage(fuzhou_ds), metric="gold_pattern_rate")
    counts = {r.pattern: (int(r.numerator), int(r.denominator)) for r in pats.itertuples()}
    assert counts == {"三金倒": (1, 9), "金雀": (1, 9), "金龙": (1, 9), "抢金": (1, 9)}


def test_points_by_golds_held(fuzhou_ds):
    pts = _rows(gold_usage(fuzhou_ds), metric="gold_points")
    by_k = {int(r.golds_held): (float(r.numerator), int(r.denominator)) for r in pts.itertuples()}
    assert by_k[3] == (168.0, 1)
    assert by_k[2] == (74.0, 1)
    assert by_k[1] == (36.0 + 120.0, 2)


def test_rob_kong_is_a_deal_in_not_a_self_draw(fuzhou_ds):
    di = compute(fuzhou_ds, "deal_in_rate", by="seat")
    sd = compute(fuzhou_ds, "self_draw_share", by="seat")
    # seat 3 konged and was robbed in fzB h6 (no loser recorded): a deal-in by the konger
    assert int(_one(di, seat=3).numerator) == 2  # fzA h1 (discarded 9p) and the robbed kong
    # seat 0's wins: fzB h0, h1 (self-draws) and h6 (robbed kong: not a self-draw)
    r = _one(sd, seat=0)
    assert (r.numerator, r.denominator) == (2, 3)


def test_streak_metrics(fuzhou_ds):
    s = dealer_streaks(fuzhou_ds)
    share = {int(r.streak): int(r.numerator) for r in _rows(s, metric="streak_share").itertuples()}
    assert share == {0: 7, 1: 1, 2: 2}
    surv = {int(r.k): (int(r.numerator), int(r.denominator))
            for r in _rows(s, metric="streak_survival").itertuples()}
    assert surv == {0: (10, 10), 1: (3, 10), 2: (2, 10)}
    dw = {int(r.streak): (int(r.numerator), int(r.denominator))
          for r in _rows(s, metric="dealer_win_rate_by_streak").itertuples()}
    # streak 0: fzA h0-h2 (no dealer win), fzB h0 (win), h4, h5 (no), h6 (no) -> 1 of 7
    assert dw == {0: (1, 7), 1: (1, 1), 2: (0, 2)}
    dp = {int(r.streak): float(r.value) for r in _rows(s, metric="dealer_points_by_streak").itertuples()}
    assert dp[1] == 36.0 and dp[2] == -10.0
    nd = {int(r.streak): (int(r.numerator), int(r.denominator))
          for r in _rows(s, metric="nondealer_win_rate_by_streak").itertuples()}
    assert nd == {0: (6, 21), 1: (0, 3), 2: (1, 6)}
    ndi = {int(r.streak): int(r.numerator)
           for r in _rows(s, metric="nondealer_deal_in_rate_by_streak").itertuples()}
    # fzA h1 seat 3 and fzB h6 konger seat 3; fzB h4's discarder is that hand's dealer
    assert ndi == {0: 2, 1: 0, 2: 0}


def test_streak_trend_is_deterministic_and_matches_the_test(fuzhou_ds):
    a = streak_trend(fuzhou_ds)
    b = streak_trend(fuzhou_ds)
    assert a.equals(b)
    row = a.iloc[0]
    assert row.denominator == 10 and row.numerator == 2
    assert row.ci_low <= row.value <= row.ci_high
    # the test on the dealer wins by streak pinned in test_streak_metrics: streak 0 -> 1 of 7,
    # 1 -> 1 of 1, 2 -> 0 of 2 (streak 2 is the top level: no streak is pooled)
    assert (row.levels, row.top_level) == (3, 2)
    test = cochran_armitage([0, 1, 2], [1, 1, 0], [7, 1, 2])
    assert (row.numerator, row.denominator) == (test.successes, test.trials)
    got = (row.value, row.ci_low, row.ci_high, row.z, row.p_value)
    assert got == pytest.approx((test.slope, test.ci_low, test.ci_high, test.z, test.p_value), rel=1e-12)


def test_fuzhou_tenpai_hands_are_rebuilt(fuzhou_ds):
    t = compute(fuzhou_ds, "tenpai_at_draw")
    r = t.iloc[0]
    assert r.denominator == 4 and r.unreadable == 0  # the one draw (fzB h2), four seats


def test_dataset_reads_back(fuzhou_ds):
    hands = open_dataset(fuzhou_ds).table("hands", columns=["gold"])
    assert set(hands["gold"]) == {int(GOLD)}
