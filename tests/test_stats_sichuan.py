"""Statistics on Sichuan 血战到底 hands: the generic metrics count each of a hand's wins, and the
Sichuan metrics (void choice, 花猪, 查叫, kong money, win order, multipliers, cap hits) give the
numbers worked out by hand below for five hand-made hands.

The hands are records, not replays: each holds the deal, the void declarations and just the
events and ledger the statistics read. Every expected number is counted from the comments.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjstats.cli import main
from mjstats.formats.canonical import read_canonical
from mjstats.rulesets.sichuan.stats import COMPUTE as COMPUTE_SICHUAN
from mjstats.stats import compute, result_rows, sichuan_metrics
from mjstats.stats.tables import clear_cache
from mjstats.store import SourceInput, ingest_sources

PLAYERS = ["ann", "bo", "cai", "dee"]


def _deal(seat: int, suits: tuple[int, int, int]) -> dict:
    """A deal of ``suits`` = (万, 条, 筒) tiles: ranks 1-9 in turn, at most four of a kind."""
    tiles = [f"{letter}{i % 9 + 1}" for letter, count in zip("WTB", suits, strict=True) for i in range(count)]
    return {"k": "deal", "s": seat, "ts": tiles}


def _record(match: str, no: int, dealer: int, profile: str, deals: dict[int, tuple[int, int, int]],
            voids: dict[int, str], play: list[dict], result: dict) -> dict:
    events = [_deal((dealer + i) % 4, deals[(dealer + i) % 4]) for i in range(4)]
    events += [{"k": "void", "s": s, "t": f"{voids[s]}1"} for s in range(4)]
    return {"v": 2, "match_id": match, "hand_no": no, "ruleset": "sichuan", "profile": profile,
            "dealer": dealer, "prevalent_wind": 0, "players": PLAYERS,
            "styles": ["greedy", "flush", "greedy", "flush"],
            "started_at": "2026-10-01T10:00:00Z", "events": events + play, "result": result}


def _pay(seat: int, score: int, reason: str, win_no: int | None = None) -> dict:
    row = {"seat": seat, "score": score, "reason": reason}
    if win_no is not None:
        row["win_no"] = win_no
    return row


def _win(winner: int, fan: int, pattern: str, loser: int | None = None) -> dict:
    win: dict = {"winner": winner}
    if loser is not None:
        win["loser"] = loser
    else:
        win["self_drawn"] = True
    return {**win, "fan_total": fan, "fans": [{"name": pattern, "points": fan}], "pattern": pattern}


def hands() -> list[dict]:
    # H1 (seed, cap 5): seat 0 deals W8 T5 B1 and voids 筒 (fewest); seat 1 W6 T4 B3 voids 条
    # (middle); seat 2 W2 T2 B9 voids 筒 (most); seat 3 W4 T4 B5 voids 万 (fewest, tied).
    # Seat 0 pays seat 2 kong money 2, then deals in to seats 1 and 3 on one discard (一炮多响:
    # fan 1 = x2, fan 6 capped at x32), then seat 2 self-draws (fan 0): only seat 0 is left to pay.
    h1 = _record("m1", 0, 0, "seed", {0: (8, 5, 1), 1: (6, 4, 3), 2: (2, 2, 9), 3: (4, 4, 5)},
                 {0: "B", 1: "T", 2: "B", 3: "W"},
                 [{"k": "discard", "s": 0, "t": "W5"}, {"k": "hu", "s": 1, "t": "W5", "f": 0},
                  {"k": "hu", "s": 3, "t": "W5", "f": 0}, {"k": "draw", "s": 2, "t": "W3"},
                  {"k": "hu", "s": 2, "t": "W3"}],
                 {"outcome": "win",
                  "wins": [_win(1, 1, "对对胡", 0), _win(3, 6, "清龙七对", 0), _win(2, 0, "平胡")],
                  "scores": [-37, 2, 3, 32],
                  "payments": [_pay(0, -2, "kong"), _pay(2, 2, "kong"),
                               _pay(0, -2, "win", 0), _pay(1, 2, "win", 0),
                               _pay(0, -32, "win", 1), _pay(3, 32, "win", 1),
                               _pay(0, -1, "win", 2), _pay(2, 1, "win", 2)]})
    # H2 (seed): dealer 1 W5 T5 B4 voids 筒 (fewest); seat 0 W7 T4 B2 voids 条 (middle); seat 2
    # W6 T6 B1 voids 筒 (fewest); seat 3 W3 T3 B7 voids 筒 (most). Seat 3's concealed kong
    # takes 2 from each; seat 2 deals in to seat 0 (fan 2, x4); the wall runs out: seat 1 is a
    # 花猪 (pays 32 to seats 2 and 3), seat 2 is not ready and pays ready seat 3 查大叫 2.
    h2 = _record("m1", 1, 1, "seed", {1: (5, 5, 4), 0: (7, 4, 2), 2: (6, 6, 1), 3: (3, 3, 7)},
                 {0: "T", 1: "B", 2: "B", 3: "B"},
                 [{"k": "discard", "s": 1, "t": "W1"}, {"k": "draw", "s": 2, "t": "W2"},
                  {"k": "discard", "s": 2, "t": "W2"}, {"k": "hu", "s": 0, "t": "W2", "f": 2},
                  {"k": "huang"}],
                 {"outcome": "win", "wins": [_win(0, 2, "清一色", 2)], "scores": [2, -66, 24, 40],
                  "payments": [_pay(1, -2, "kong"), _pay(3, 2, "kong"), _pay(2, -2, "kong"),
                               _pay(3, 2, "kong"), _pay(0, -2, "kong"), _pay(3, 2, "kong"),
                               _pay(2, -4, "win", 0), _pay(0, 4, "win", 0),
                               _pay(1, -32, "penalty"), _pay(2, 32, "penalty"),
                               _pay(1, -32, "penalty"), _pay(3, 32, "penalty"),
                               _pay(2, -2, "settlement"), _pay(3, 2, "settlement")]})
    # H3 (platform, cap 6): nobody wins; every seat voids its fewest suit. Seat 0's concealed
    # kong takes 2 from each; at the wall's end seat 0 is ready, the others pay it 查大叫 1.
    fewest = {0: (6, 6, 2), 1: (5, 5, 3), 2: (2, 5, 6), 3: (6, 2, 5)}
    fewest_void = {0: "B", 1: "B", 2: "W", 3: "T"}
    h3 = _record("m1", 2, 0, "platform", fewest, fewest_void,
                 [{"k": "discard", "s": 0, "t": "B1"}, {"k": "huang"}],
                 {"outcome": "draw", "scores": [9, -3, -3, -3],
                  "payments": [_pay(s, -2, "kong") if i == 0 else _pay(0, 2, "kong")
                               for s in (1, 2, 3) for i in (0, 1)]
                  + [_pay(s, -1, "settlement") if i == 0 else _pay(0, 1, "settlement")
                     for s in (1, 2, 3) for i in (0, 1)]})
    # H4 (platform): seat 0 self-draws a fan-7 hand, capped at x64, paid by the three others.
    h4 = _record("m2", 0, 0, "platform", fewest, fewest_void,
                 [{"k": "hu", "s": 0, "t": "W9"}, {"k": "huang"}],
                 {"outcome": "win", "wins": [_win(0, 7, "清十八罗汉")], "scores": [192, -64, -64, -64],
                  "payments": [_pay(s, -64, "win", 0) if i == 0 else _pay(0, 64, "win", 0)
                               for s in (1, 2, 3) for i in (0, 1)]})
    # H5 (seed): net scores only (no ledger): seat 3 deals in to seat 1 (fan 0, x1).
    h5 = _record("m2", 1, 0, "seed", fewest, fewest_void,
                 [{"k": "discard", "s": 0, "t": "B1"}, {"k": "draw", "s": 1, "t": "W4"},
                  {"k": "discard", "s": 1, "t": "T1"}, {"k": "draw", "s": 2, "t": "B2"},
                  {"k": "discard", "s": 2, "t": "W1"}, {"k": "draw", "s": 3, "t": "W9"},
                  {"k": "discard", "s": 3, "t": "W9"}, {"k": "hu", "s": 1, "t": "W9", "f": 3}],
                 {"outcome": "win", "winner": 1, "loser": 3, "fan_total": 0,
                  "fans": [{"name": "平胡", "points": 0}], "pattern": "平胡", "scores": [0, 1, 0, -1]})
    return [h1, h2, h3, h4, h5]


def _ingest(tmp: Path, records: list[dict]) -> Path:
    src = tmp / "hands.jsonl"
    src.write_text("".join(json.dumps(h, ensure_ascii=False) + "\n" for h in records), encoding="utf-8")
    summary = ingest_sources([SourceInput(src, "canonical", lambda p: read_canonical(p, name=p.name))],
                             tmp / "ds")
    assert summary.hands == len(records) and summary.rejects == 0
    return tmp / "ds"


@pytest.fixture(scope="module")
def sichuan_ds(tmp_path_factory) -> Path:
    clear_cache()
    return _ingest(tmp_path_factory.mktemp("sc"), hands())


def _rows(frame, **match) -> list[dict]:
    rows = frame.to_dict(orient="records")
    return [r for r in rows if all(r.get(k) == v for k, v in match.items())]


def _one(frame, **match) -> dict:
    (row,) = _rows(frame, **match)
    return row


def _nd(row: dict) -> tuple[int, int]:
    return int(row["numerator"]), int(row["denominator"])


# --- the generic metrics on several wins a hand ---------------------------------------------------


def test_each_win_counts_for_its_winner(sichuan_ds):
    assert _nd(_one(compute(sichuan_ds, "win_rate"))) == (6, 20)  # H1 three, H2, H4, H5 one each
    assert _nd(_one(compute(sichuan_ds, "self_draw_share"))) == (2, 6)  # H1 seat 2, H4 seat 0
    by_seat = compute(sichuan_ds, "win_rate", by="seat")
    assert [_nd(_one(by_seat, seat=s)) for s in range(4)] == [(2, 5), (2, 5), (1, 5), (1, 5)]


def test_deal_ins_count_every_win_paid(sichuan_ds):
    row = _one(compute(sichuan_ds, "deal_in_rate"))
    # seat-hands that dealt in: H1 seat 0 (twice, 一炮多响), H2 seat 2, H5 seat 3
    assert _nd(row) == (3, 20) and row["deal_ins"] == 4
    seat0 = _one(compute(sichuan_ds, "deal_in_rate", by="seat"), seat=0)
    assert _nd(seat0) == (1, 5) and seat0["deal_ins"] == 2


def test_fans_points_and_draws_per_win(sichuan_ds):
    assert _one(compute(sichuan_ds, "mean_fan"))["numerator"] == 1 + 6 + 0 + 2 + 7 + 0
    points = _one(compute(sichuan_ds, "mean_win_points"))
    assert (points["numerator"], points["denominator"]) == (2 + 32 + 3 + 2 + 192 + 1, 6)
    assert _nd(_one(compute(sichuan_ds, "draw_rate"))) == (1, 5)  # H3 only: H2 and H4 were won
    fans = compute(sichuan_ds, "fan_frequency")
    assert _nd(_one(fans, fan="平胡")) == (2, 6)


# --- the Sichuan metrics --------------------------------------------------------------------------


def test_void_choice_share_and_outcome(sichuan_ds):
    share = compute(sichuan_ds, "sc_void_choice_share")
    assert {r["void_choice"]: _nd(r) for r in _rows(share)} == {
        "fewest": (16, 20), "middle": (2, 20), "most": (2, 20)}
    wins = compute(sichuan_ds, "sc_void_choice_win_rate")
    assert {r["void_choice"]: _nd(r) for r in _rows(wins)} == {
        "fewest": (3, 16), "middle": (2, 2), "most": (1, 2)}
    # middle: H1 seat 1 (+2) and H2 seat 0 (+2); most: H1 seat 2 (+3), H2 seat 3 (+40)
    assert _one(wins, void_choice="middle")["mean_points"] == 2.0
    assert _one(wins, void_choice="most")["mean_points"] == 21.5


def test_void_choice_after_the_exchange(tmp_path):
    # H4's deal with 换三张, each seat receiving the three tiles the next seat gives:
    # seat 0 W6 T6 B2 gives 条 x3, gets 万 x3 -> W9 T3 B2: voiding 条 is `middle` (`most` before)
    # seat 1 W5 T5 B3 gives 万 x3, gets 筒 x3 -> W2 T5 B6: voiding 筒 is `most` (`fewest` before)
    # seat 2 W2 T5 B6 gives 筒 x3, gets 筒 x3 -> W2 T5 B6: voiding 万 stays `fewest`
    # seat 3 W6 T2 B5 gives 筒 x3, gets 条 x3 -> W6 T5 B2: voiding 条 is `middle` (`fewest` before)
    record = hands()[3]
    events = record["events"]
    swaps = [{"k": "exchange", "s": s, "ts": ts, "f": (s + 1) % 4}
             for s, ts in ((0, ["T1", "T2", "T3"]), (1, ["W1", "W2", "W3"]),
                           (2, ["B1", "B2", "B3"]), (3, ["B4", "B5", "B1"]))]
    voids = [{"k": "void", "s": 0, "t": "T1"}, *events[5:8]]
    record["events"] = events[:4] + swaps + voids + events[8:]
    share = compute(_ingest(tmp_path, [record]), "sc_void_choice_share", by="seat")
    assert [_one(share, seat=s)["void_choice"] for s in range(4)] == ["middle", "most", "fewest", "middle"]


def test_flower_pig_and_cha_jiao(sichuan_ds):
    # ledgered seat-hands: H1-H4 (16); H5 has net scores only
    assert _nd(_one(compute(sichuan_ds, "sc_flower_pig_rate"))) == (1, 16)  # H2 seat 1
    cha = _one(compute(sichuan_ds, "sc_cha_jiao_rate"))
    assert _nd(cha) == (4, 16) and cha["ready_paid"] == 2  # H2 seat 2, H3 seats 1-3; H2 s3, H3 s0


def test_kong_money_per_seat(sichuan_ds):
    total = _one(compute(sichuan_ds, "sc_kong_money"))
    assert (total["numerator"], total["denominator"]) == (0, 16)  # kong money is zero-sum
    by_seat = compute(sichuan_ds, "sc_kong_money", by="seat")
    # seat 0: -2 (H1) -2 (H2) +6 (H3) 0 (H4); seat 3: 0 +6 -2 0
    assert _one(by_seat, seat=0)["value"] == 0.5 and _one(by_seat, seat=3)["value"] == 1.0


def test_order_of_winning_and_its_worth(sichuan_ds):
    share = compute(sichuan_ds, "sc_win_order_share")
    assert {r["win_order"]: _nd(r) for r in _rows(share)} == {0: (14, 20), 1: (4, 20), 2: (1, 20), 3: (1, 20)}
    worth = compute(sichuan_ds, "sc_win_order_points")
    first = _one(worth, win_order=1)
    assert (first["numerator"], first["denominator"]) == (2 + 2 + 192 + 1, 4)
    assert first["mean_win_money"] == (2 + 4 + 192) / 3  # H5 has no ledger
    assert _one(worth, win_order=2)["value"] == 32 and _one(worth, win_order=3)["value"] == 3
    assert _one(worth, win_order=0)["numerator"] == -232


def test_multipliers_and_cap_hits(sichuan_ds):
    share = compute(sichuan_ds, "sc_multiplier_share")
    assert {r["multiplier"]: _nd(r) for r in _rows(share)} == {
        1: (2, 6), 2: (1, 6), 4: (1, 6), 32: (1, 6), 64: (1, 6)}
    assert _nd(_one(compute(sichuan_ds, "sc_cap_rate"))) == (2, 6)  # H1 fan 6 >= 5, H4 fan 7 >= 6
    by_profile = compute(sichuan_ds, "sc_cap_rate", by="profile")
    assert _nd(_one(by_profile, profile="platform")) == (1, 1)


def test_all_sichuan_metrics_in_one_frame_and_json(sichuan_ds, capsys):
    frame = sichuan_metrics(sichuan_ds, by="style")
    assert set(frame["metric"]) == {
        "sc_void_choice_share", "sc_void_choice_win_rate", "sc_flower_pig_rate", "sc_cha_jiao_rate",
        "sc_kong_money", "sc_win_order_share", "sc_win_order_points", "sc_multiplier_share", "sc_cap_rate"}
    rows = result_rows(compute(sichuan_ds, "sc_multiplier_share"))
    assert rows[0]["by"] == {"multiplier": 1}
    assert main(["stats", str(sichuan_ds), "--metric", "sc_win_order_points", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {r["by"]["win_order"] for r in out} == {0, 1, 2, 3}
    # a Sichuan-only dataset gets the generic metrics that apply, not tenpai or streaks
    assert main(["stats", str(sichuan_ds), "--json"]) == 0
    ids = {r["metric"] for r in json.loads(capsys.readouterr().out)}
    assert {"win_rate", "deal_in_rate", "sc_cap_rate"} <= ids and "streak_share" not in ids


def test_same_bytes_twice(sichuan_ds):
    first = sichuan_metrics(sichuan_ds, by="seat").to_csv(index=False)
    clear_cache()
    assert sichuan_metrics(sichuan_ds, by="seat").to_csv(index=False) == first


def test_no_sichuan_hands_no_rows(tmp_path):
    from tests.test_stats_fuzhou import _ingest, all_hands

    ds = _ingest(tmp_path, all_hands())
    assert sichuan_metrics(ds).empty
    assert compute(ds, "sc_kong_money").empty and compute(ds, "sc_win_order_share").empty


def test_a_later_win_without_a_loser_takes_its_own_hu_event(tmp_path):
    # two wins on different discards; the second names no loser: its hu event (the hand's
    # second) says seat 2 discarded, not seat 0 (the first hu event's discarder)
    record = _record("m9", 0, 0, "seed", {0: (6, 6, 2), 1: (5, 5, 3), 2: (2, 5, 6), 3: (6, 2, 5)},
                     {0: "B", 1: "B", 2: "W", 3: "T"},
                     [{"k": "discard", "s": 0, "t": "W5"}, {"k": "hu", "s": 1, "t": "W5", "f": 0},
                      {"k": "draw", "s": 2, "t": "T7"}, {"k": "discard", "s": 2, "t": "T7"},
                      {"k": "hu", "s": 3, "t": "T7", "f": 2}],
                     {"outcome": "win", "wins": [_win(1, 0, "平胡", 0), _win(3, 0, "平胡", None)]})
    record["result"]["wins"][1].pop("self_drawn")
    by_seat = compute(_ingest(tmp_path, [record]), "deal_in_rate", by="seat")
    assert [_one(by_seat, seat=s)["deal_ins"] for s in range(4)] == [1, 0, 1, 0]


def test_sichuan_hands_among_other_rulesets(tmp_path):
    # Fuzhou and Sichuan hands in one dataset: the Sichuan counters land on the right seat rows
    from tests.test_stats_fuzhou import all_hands

    src = tmp_path / "sc.jsonl"
    src.write_text("".join(json.dumps(h, ensure_ascii=False) + "\n" for h in hands()), encoding="utf-8")
    fz = tmp_path / "fz.marker"
    fz.write_text("hand-made Fuzhou hands\n", encoding="utf-8")
    fuzhou = all_hands()
    summary = ingest_sources([SourceInput(fz, "made", lambda _p: iter(fuzhou)),
                              SourceInput(src, "canonical", lambda p: read_canonical(p, name=p.name))],
                             tmp_path / "ds")
    assert summary.hands == len(fuzhou) + 5 and summary.rejects == 0
    ds = tmp_path / "ds"
    share = compute(ds, "sc_win_order_share")
    assert {r["win_order"]: _nd(r) for r in _rows(share)} == {0: (14, 20), 1: (4, 20), 2: (1, 20), 3: (1, 20)}
    assert _nd(_one(compute(ds, "sc_cha_jiao_rate"))) == (4, 16)
    wins = compute(ds, "win_rate", by="ruleset")
    assert _nd(_one(wins, ruleset="sichuan")) == (6, 20)


# --- properties of the per-part counters -----------------------------------------------------------

_SUITS = st.tuples(st.integers(0, 9), st.integers(0, 9), st.integers(0, 9))  # 万 条 筒 held
_FOUR = st.tuples(*[st.integers(0, 2)] * 4)


@settings(max_examples=60, deadline=None)
@given(deals=st.lists(st.tuples(_SUITS, _SUITS, _SUITS, _SUITS), min_size=1, max_size=4),
       voids=st.lists(_FOUR, min_size=4, max_size=4), gives=st.lists(_FOUR, min_size=4, max_size=4),
       steps=st.lists(st.sampled_from([1, 2, 3]), min_size=4, max_size=4))
def test_void_choice_matches_counting_by_hand(deals, voids, gives, steps):
    """The vectorised choice equals a plain count: the deal, then (when every seat holds three
    of the suit it gives) three tiles to the seat ``step`` after, three from the seat before."""
    import pyarrow as pa

    from mjstats.rulesets.sichuan.stats import VOID_CHOICES, _void_choices

    cols: dict[str, list] = {"kind": [], "seat": [], "tile": [], "tiles": [], "from_seat": []}

    def add(kind, seat, tile=None, tiles=None, from_seat=None):
        for name, value in zip(cols, (kind, seat, tile, tiles, from_seat), strict=True):
            cols[name].append(value)

    n_events, expected = [], []
    for h, deal in enumerate(deals):
        held = [list(c) for c in deal]
        for s in range(4):
            add("deal", s, tiles=[9 * suit + i for suit in range(3) for i in range(held[s][suit])])
        swapped = all(held[s][gives[h][s]] >= 3 for s in range(4))
        if swapped:
            for s in range(4):
                add("exchange", s, tiles=[9 * gives[h][s]] * 3, from_seat=(s - steps[h]) % 4)
            before = [list(c) for c in held]
            for s in range(4):
                held[s][gives[h][s]] -= 3
                held[s][gives[h][(s - steps[h]) % 4]] += 3
            assert sum(map(sum, held)) == sum(map(sum, before))
        for s in range(4):
            add("void", s, tile=9 * voids[h][s])
        n_events.append(8 + 4 * swapped)
        for s in range(4):
            mine, fewest, most = held[s][voids[h][s]], min(held[s]), max(held[s])
            expected.append("fewest" if mine == fewest else "most" if mine == most else "middle")
    events = pa.table({"kind": cols["kind"], "seat": pa.array(cols["seat"], pa.int8()),
                       "tile": pa.array(cols["tile"], pa.int8()),
                       "tiles": pa.array(cols["tiles"], pa.list_(pa.int8())),
                       "from_seat": pa.array(cols["from_seat"], pa.int8())})
    got = _void_choices(events, np.asarray(n_events), len(deals))
    assert [VOID_CHOICES[c] for c in got] == expected


@settings(max_examples=80, deadline=None)
@given(st.lists(st.lists(st.integers(0, 3), min_size=0, max_size=3), min_size=1, max_size=6),
       st.lists(st.integers(0, 3), min_size=0, max_size=3))
def test_each_win_takes_the_hu_event_of_its_rank(hu_froms, win_counts):
    from mjstats.stats.tables import _nth_hu_from

    hu_hand = np.asarray([h for h, froms in enumerate(hu_froms) for _ in froms], dtype=np.int64)
    hu_from = np.asarray([f for froms in hu_froms for f in froms], dtype=np.int64)
    win_hand = np.asarray([h for h in range(len(hu_froms)) for _ in range(win_counts[h % len(win_counts)]
                                                                          if win_counts else 0)], np.int64)
    expected = []
    rank: dict[int, int] = {}
    for h in win_hand:
        k = rank.get(int(h), 0)
        rank[int(h)] = k + 1
        expected.append(hu_froms[h][k] if k < len(hu_froms[h]) else -1)
    assert _nth_hu_from(win_hand, hu_hand, hu_from).tolist() == expected


@pytest.mark.parametrize("metric", sorted(COMPUTE_SICHUAN))
@pytest.mark.parametrize("key", [None, "seat", "style", "profile", "player"])
def test_rates_are_bounded_and_groups_sum_up(sichuan_ds, metric, key):
    from tests.test_stats_properties import _check_rows

    frame = compute(sichuan_ds, metric, by=key)
    assert len(frame) > 0
    _check_rows(frame)
    whole = compute(sichuan_ds, metric)
    # grouping then summing gives back the ungrouped counts (per row key where there is one)
    row_keys = [k for k in ("void_choice", "win_order", "multiplier") if k in whole.columns]
    if row_keys:
        summed = frame.groupby(row_keys)["numerator"].sum().astype(float)
        assert summed.to_dict() == whole.set_index(row_keys)["numerator"].astype(float).to_dict()
    else:
        assert frame["numerator"].sum() == whole["numerator"].sum()
        assert frame["denominator"].sum() == whole["denominator"].sum()
