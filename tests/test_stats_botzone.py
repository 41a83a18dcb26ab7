"""Acceptance on the bundled Botzone sample (16 hands): rates by seat, fan frequencies, the CLI."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pyarrow as pa
import pytest

from mjstats.cli import main
from mjstats.formats.botzone import read_botzone
from mjstats.records import EventKind, Hand
from mjstats.rulesets.guobiao.waits import shanten
from mjstats.stats import compute, compute_all, fan_frequencies, result_rows, win_rates
from mjstats.store import SourceInput, ingest_sources, write_derived
from mjstats.tiles import Tile


@pytest.fixture(scope="module")
def sample_ds(tmp_path_factory, sample_path) -> Path:
    out = tmp_path_factory.mktemp("bz") / "ds"
    ingest_sources([SourceInput(sample_path, "botzone", read_botzone)], out)
    return out


@pytest.fixture(scope="module")
def records(sample_path) -> list[Hand]:
    return [r for r in read_botzone(sample_path) if isinstance(r, Hand)]


def _by_seat(frame, metric):
    rows = frame[frame["metric"] == metric].sort_values("seat")
    return list(rows["numerator"].astype(int)), list(rows["denominator"].astype(int))


def test_pinned_rates_by_seat(sample_ds):
    rates = win_rates(sample_ds, by="seat")
    assert _by_seat(rates, "win_rate") == ([1, 3, 2, 8], [16] * 4)
    assert _by_seat(rates, "deal_in_rate") == ([1, 3, 3, 1], [16] * 4)
    assert _by_seat(rates, "self_draw_share") == ([0, 1, 1, 4], [1, 3, 2, 8])
    assert rates["small_sample"].all()  # 16 hands per seat


def test_rates_match_the_records(sample_ds, records):
    """The same counts derived straight from the parsed records (no dataset, no pandas)."""
    wins = Counter(h.result.winner for h in records if h.result.is_win)
    deal_ins = Counter(h.result.loser for h in records if h.result.is_win and h.result.loser is not None)
    self_draws = Counter(h.result.winner for h in records if h.result.is_win and h.result.self_drawn)
    calls = Counter(
        s for h in records for s in {e.seat for e in h.events if e.kind in ("chi", "peng", "gang")}
    )
    rates = win_rates(sample_ds, by="seat")
    assert _by_seat(rates, "win_rate")[0] == [wins[s] for s in range(4)]
    assert _by_seat(rates, "deal_in_rate")[0] == [deal_ins[s] for s in range(4)]
    assert _by_seat(rates, "self_draw_share")[0] == [self_draws[s] for s in range(4)]
    assert _by_seat(rates, "call_rate")[0] == [calls[s] for s in range(4)]


def test_ping_hu_frequency(sample_ds, records):
    freq = fan_frequencies(sample_ds)
    row = freq[freq["fan"] == "平和"].iloc[0]
    assert (row.numerator, row.denominator) == (6, 14)
    with_it = sum(1 for h in records if any(f.name == "平和" for f in h.result.fans))
    assert row.numerator == with_it
    # every fan's count is the number of wins listing it
    expected = Counter(f.name for h in records for f in {x.name: x for x in h.result.fans}.values())
    assert dict(zip(freq["fan"], freq["numerator"], strict=True)) == dict(expected)


def test_means_match_the_records(sample_ds, records):
    won = [h for h in records if h.result.is_win]
    fan = compute(sample_ds, "mean_fan").iloc[0]
    assert fan.numerator == sum(h.result.fan_total for h in won) and fan.denominator == len(won)
    pts = compute(sample_ds, "mean_win_points").iloc[0]
    assert pts.numerator == sum(h.result.scores[h.result.winner] for h in won)
    turn = compute(sample_ds, "mean_win_turn").iloc[0]
    discards = sum(
        1 + sum(1 for e in h.events if e.kind == "discard" and e.seat == h.result.winner) for h in won
    )
    assert turn.numerator == discards
    net = compute(sample_ds, "net_points").iloc[0]
    assert net.numerator == 0 and net.denominator == 64  # Botzone scores are zero-sum


def _final_hands(hand: Hand) -> list[tuple[list[Tile], list[tuple[str, Tile, int]]]]:
    """Each seat's concealed tiles and exposed melds at the end of a hand, replayed event by event
    here (not through mjstats.replay), in the form guobiao waits.shanten takes."""
    held: list[Counter] = [Counter() for _ in range(4)]
    melds: list[list[tuple[str, Tile, int]]] = [[] for _ in range(4)]
    for e in hand.events:
        if e.kind == EventKind.DEAL:
            held[e.seat].update(e.tiles)
        elif e.kind == EventKind.DRAW:
            held[e.seat][e.tile] += 1
        elif e.kind in (EventKind.DISCARD, EventKind.FLOWER):
            held[e.seat][e.tile] -= 1
        elif e.kind == EventKind.CHI:  # tile = the run's middle, claimed = the discard taken
            held[e.seat].subtract(t for t in (e.tile - 1, e.tile, e.tile + 1) if t != e.claimed)
            melds[e.seat].append(("CHI", e.tile, 0))
        elif e.kind == EventKind.PENG:
            held[e.seat][e.tile] -= 2
            melds[e.seat].append(("PENG", e.tile, 0))
        elif e.kind in (EventKind.GANG, EventKind.ANGANG):
            held[e.seat][e.tile] -= 3 if e.kind == EventKind.GANG else 4
            melds[e.seat].append(("GANG", e.tile, 0))
        elif e.kind == EventKind.BUGANG:
            held[e.seat][e.tile] -= 1
            melds[e.seat] = [("GANG", t, o) if k == "PENG" and t == e.tile else (k, t, o)
                             for k, t, o in melds[e.seat]]  # fmt: skip
    return [(sorted(held[s].elements()), melds[s]) for s in range(4)]


def test_tenpai_at_draw_reads_every_seat(sample_ds, records):
    t = compute(sample_ds, "tenpai_at_draw").iloc[0]
    draws = [h for h in records if not h.result.is_win]
    assert t.denominator == 4 * len(draws) and t.unreadable == 0
    # expected from an independent path: replay each exhaustive draw's events by hand and run
    # guobiao shanten on every seat's final hand (0 = waiting)
    tenpai = sum(shanten(tiles, melds) == 0 for h in draws for tiles, melds in _final_hands(h))
    assert (t.numerator, t.denominator) == (tenpai, 8)
    # pinned: the sample's two drawn hands leave 4 of 4 and 1 of 4 seats waiting
    assert (t.numerator, t.denominator) == (5, 8)


def test_cli_json(sample_ds, capsys):
    assert main(["stats", str(sample_ds), "--by", "seat", "--metric", "win_rate", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["by"] for r in rows] == [{"seat": s} for s in range(4)]
    assert [r["numerator"] for r in rows] == [1, 3, 2, 8]
    for r in rows:
        assert set(r) >= {"metric", "by", "numerator", "denominator", "value", "ci_low", "ci_high"}
        assert r["metric"] == "win_rate" and r["ci_low"] <= r["value"] <= r["ci_high"]


def test_cli_fan_rows_are_keyed_by_fan(sample_ds, capsys):
    assert main(["stats", str(sample_ds), "-m", "fan_frequency", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    ping = [r for r in rows if r["by"] == {"fan": "平和"}]
    assert len(ping) == 1 and (ping[0]["numerator"], ping[0]["denominator"]) == (6, 14)


def test_cli_table_and_csv(sample_ds, capsys):
    assert main(["stats", str(sample_ds)]) == 0
    out = capsys.readouterr().out
    assert "win_rate  和牌率 (Win rate)" in out and "small sample" in out
    assert main(["stats", str(sample_ds), "--by", "seat", "-m", "deal_in_rate", "--csv"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].startswith("metric,seat,numerator,denominator,value")
    assert len(lines) == 5


def test_cli_errors_are_one_line(sample_ds, tmp_path, capsys):
    assert main(["stats", str(tmp_path / "missing")]) == 2
    assert main(["stats", str(sample_ds), "--by", "colour"]) == 2
    assert main(["stats", str(sample_ds), "-m", "no_such_metric"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3 and all(line.startswith("mjstats stats: error:") for line in err)


def test_all_metrics_json_rows(sample_ds):
    frame = compute_all(sample_ds)
    rows = result_rows(frame)
    assert {r["metric"] for r in rows} >= {"win_rate", "fan_frequency", "fan_lift", "streak_trend"}
    json.dumps(rows)  # plain values only


def test_recorded_vs_computed_fans(tmp_path, sample_path):
    """With audit tables present: totals that differ and fans only one side has."""
    out = tmp_path / "ds"
    ingest_sources([SourceInput(sample_path, "botzone", read_botzone)], out)
    recs = [r for r in read_botzone(sample_path) if isinstance(r, Hand) and r.result.is_win][:3]
    cw = {"match_id": [], "hand_no": [], "winner": [], "fan_total": [], "recorded_fan_total": [],
          "ruleset": []}
    cf = {"match_id": [], "hand_no": [], "name": [], "count": [], "points": [], "ruleset": []}
    for i, h in enumerate(recs):
        cw["match_id"].append(h.match_id)
        cw["hand_no"].append(h.hand_no)
        cw["winner"].append(h.result.winner)
        cw["fan_total"].append(h.result.fan_total + (2 if i == 0 else 0))  # first one differs
        cw["recorded_fan_total"].append(h.result.fan_total)
        cw["ruleset"].append("guobiao")
        fans = list(h.result.fans) if i else list(h.result.fans)[1:]  # first drops a fan
        for f in fans:
            cf["match_id"].append(h.match_id)
            cf["hand_no"].append(h.hand_no)
            cf["name"].append(f.name)
            cf["count"].append(f.count)
            cf["points"].append(f.points)
            cf["ruleset"].append("guobiao")
    write_derived(out, {"computed_wins": pa.table(cw), "computed_fans": pa.table(cf)})
    rate = compute(out, "fan_mismatch_rate").iloc[0]
    assert (rate.numerator, rate.denominator) == (1, 3)
    dis = compute(out, "fan_disagreement")
    dropped = recs[0].result.fans[0].name
    row = dis[dis["fan"] == dropped].iloc[0]
    assert row.numerator == 1 and row.recorded_only == 1 and row.computed_only == 0
    assert dis["numerator"].sum() == 1


def test_absent_audit_tables_give_empty_frames(sample_ds):
    assert compute(sample_ds, "fan_mismatch_rate").empty
    assert compute(sample_ds, "fan_disagreement").empty


def test_cli_csv_and_json_write_counts_as_integers(sample_ds, capsys):
    """All metrics by seat: the seat and count columns are empty in some rows (float in pandas);
    CSV and JSON still write counts as integers, and statistics as real numbers."""
    import csv
    import io

    assert main(["stats", str(sample_ds), "--by", "seat", "--csv", "-q"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    win = [r for r in rows if r["metric"] == "win_rate"]
    assert [(r["seat"], r["numerator"], r["denominator"]) for r in win] == [
        ("0", "1", "16"), ("1", "3", "16"), ("2", "2", "16"), ("3", "8", "16")]
    for r in rows:
        for name in ("numerator", "denominator", "hands"):
            assert "." not in r[name], (name, r)
    assert main(["stats", str(sample_ds), "-m", "net_points", "--json", "-q"]) == 0
    (net,) = json.loads(capsys.readouterr().out)
    assert type(net["numerator"]) is int and type(net["denominator"]) is int
    assert type(net["value"]) is float and net["value"] == 0.0  # a mean, even when it is 0


def test_table_labels_say_what_they_mean(sample_ds, capsys):
    """Unnamed players read "(unnamed)" as in the report; a trend test with no value says why."""
    from mjstats.stats.labels import UNNAMED

    assert main(["stats", str(sample_ds), "--by", "player", "-m", "win_rate", "-q"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].startswith(f"  player={UNNAMED}  ") and "14 / 64" in out[1]
    assert main(["stats", str(sample_ds), "-m", "streak_trend", "-q"]) == 0
    (line,) = [x for x in capsys.readouterr().out.splitlines() if "1 / 16" in x]
    assert "n/a (every hand at one streak length: no trend to test)" in line and "[-, -]" not in line
    row = result_rows(compute(sample_ds, "streak_trend"))[0]
    assert row["value"] is None and row["note"].startswith("n/a (every hand at one streak length")


def test_trend_notes_name_the_reason():
    from mjstats.stats import cochran_armitage
    from mjstats.stats.labels import trend_note

    won_all = cochran_armitage([0, 1], [5, 3], [5, 3])
    assert trend_note(won_all.levels, won_all.trials, won_all.successes) == (
        "n/a (the dealer won all or none of these hands)")
    some = cochran_armitage([0, 1], [2, 3], [5, 4])
    assert trend_note(some.levels, some.trials, some.successes) is None and some.slope == some.slope
    assert trend_note(0, 0, 0) == "n/a (no dealer hands)"
