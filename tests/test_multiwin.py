"""Several wins in one hand, end to end: the record model keeps the single-win API, canonical
version 2 carries the wins and a payment ledger, the dataset keys wins, fans and payments by
``win_no``, the audit rescores every win, and the statistics count each winner."""

from __future__ import annotations

import io
import json
import pickle
from dataclasses import replace
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mjstats.audit import audit_dataset
from mjstats.cli import main
from mjstats.formats.canonical import hand_to_json, read_canonical, write_canonical
from mjstats.formats.pmn import read_pmn
from mjstats.records import (
    FanEntry,
    Hand,
    Outcome,
    Payment,
    PaymentReason,
    Provenance,
    Reject,
    Result,
    Win,
)
from mjstats.stats import compute
from mjstats.stats.tables import clear_cache
from mjstats.store import SourceInput, ingest_sources, open_dataset
from mjstats.store.schema import HAND_TABLES
from mjstats.tiles import ALL_KINDS
from tests.strategies import hands as hand_strategy

PMN = Path(__file__).parent / "data" / "pmn"
CANONICAL = Path(__file__).parent / "data" / "canonical"
SAMPLE, TWO = PMN / "example_1.pmn", PMN / "two_winners.pmn"


def _two_winner_hand() -> Hand:
    (hand,) = read_pmn(TWO, name="two_winners.pmn")
    assert isinstance(hand, Hand)
    return hand


# --- the record model ---------------------------------------------------------------------------


def test_single_win_construction_and_reads_are_unchanged() -> None:
    fans = (FanEntry("平和", 1, 2),)
    result = Result(Outcome.WIN, 1, 2, None, False, 9, fans, (-8, 33, -17, -8), None)
    assert result == Result(Outcome.WIN, winner=1, loser=2, fan_total=9, fans=fans, scores=(-8, 33, -17, -8))
    assert (result.winner, result.loser, result.fan_total, result.fans, result.scores) == (
        1, 2, 9, fans, (-8, 33, -17, -8))
    assert result.wins == (Win(1, 2, None, False, 9, fans),) and result.payments == ()
    assert Result(Outcome.DRAW, scores=(0, 0, 0, 0)).wins == ()
    # dataclasses.replace changes the (first) win, as it changed the flat fields before
    bumped = replace(result, fan_total=10)
    assert bumped.fan_total == 10 and bumped.wins[0].fans == fans and len(bumped.wins) == 1
    assert replace(result, scores=(0, 0, 0, 0)).wins == result.wins
    again = pickle.loads(pickle.dumps(result))
    assert again == result and hash(again) == hash(result)


def test_several_wins_read_as_the_first_by_the_old_api() -> None:
    wins = (Win(2, 1, fan_total=9), Win(3, 1, fan_total=8))
    result = Result(Outcome.WIN, wins=wins, scores=(0, -33, 25, 24))
    assert (result.winner, result.fan_total, result.winners) == (2, 9, (2, 3))
    assert replace(result, fan_total=12).wins == (Win(2, 1, fan_total=12), wins[1])
    assert replace(result, wins=wins[1:]).wins == wins[1:]


def test_payments_sum_to_the_scores() -> None:
    ledger = (Payment(0, -8, PaymentReason.WIN, 0), Payment(2, 8, PaymentReason.WIN, 0),
              Payment(1, -10, PaymentReason.PENALTY), Payment(3, 4, PaymentReason.KONG))
    result = Result(Outcome.WIN, winner=2, loser=0, payments=ledger)
    assert result.scores == (-8, -10, 8, 4)
    with pytest.raises(ValueError, match="payments sum to"):
        Result(Outcome.WIN, winner=2, scores=(0, 0, 0, 0), payments=ledger)


# --- canonical version 2 ------------------------------------------------------------------------


def test_two_winner_hand_round_trips_as_version_2() -> None:
    hand = _two_winner_hand()
    line = hand_to_json(hand)
    assert json.loads(line)["v"] == 2 and "wins" in json.loads(line)["result"]
    (back,) = read_canonical([line])
    assert back == hand and hand_to_json(back) == line
    # one win and no ledger is still written as version 1, byte for byte the same as before
    (single,) = read_pmn(SAMPLE)
    assert json.loads(hand_to_json(single))["v"] == 1


def test_ledger_round_trips_and_version_1_lines_still_read() -> None:
    hand = _two_winner_hand()
    ledger = (Payment(1, -17, PaymentReason.WIN, 0), Payment(2, 17, PaymentReason.WIN, 0),
              Payment(1, -16, PaymentReason.WIN, 1), Payment(3, 16, PaymentReason.WIN, 1),
              Payment(0, -2, PaymentReason.KONG), Payment(1, 2, PaymentReason.KONG),
              Payment(3, -5, PaymentReason.PENALTY), Payment(0, 1, PaymentReason.SETTLEMENT))
    hand = replace(hand, result=Result(Outcome.WIN, wins=hand.result.wins, payments=ledger))
    (back,) = read_canonical([hand_to_json(hand)])
    assert back.result.payments == ledger and back.result.scores == (-1, -31, 17, 11)
    for line in (CANONICAL / "guobiao.jsonl").read_text("utf-8").splitlines():
        (old,) = read_canonical([line])
        assert isinstance(old, Hand) and hand_to_json(old) == line  # still version 1


def test_bad_version_2_lines_give_the_expected_rejects() -> None:
    items = list(read_canonical(CANONICAL / "bad-v2.jsonl", name="bad-v2.jsonl"))
    expected = [json.loads(x) for x in (CANONICAL / "bad-v2.rejects.jsonl").read_text("utf-8").splitlines()]
    got = [{"line": r.line, "error": r.error} for r in items if isinstance(r, Reject)]
    assert got == expected
    assert [h.provenance.line for h in items if isinstance(h, Hand)] == [1]


# --- the dataset, the audit, the statistics -------------------------------------------------------


@pytest.fixture(scope="module")
def pmn_dataset(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("multiwin")
    boards = folder / "boards.pmn"  # both boards in one file, as a session's boards come
    boards.write_bytes(SAMPLE.read_bytes() + b"\n" + TWO.read_bytes())
    out = folder / "ds"
    summary = ingest_sources([SourceInput(boards, "pmn")], out)
    assert (summary.hands, summary.rejects, summary.wins) == (2, 0, 3)  # each win counted
    audit_dataset(out, jobs=1)
    clear_cache()
    return out


def test_wins_fans_and_payments_are_keyed_by_win_no(pmn_dataset: Path) -> None:
    ds = open_dataset(pmn_dataset)
    wins = ds.arrow("wins", columns=["hand_no", "win_no", "winner", "loser", "fan_total"]).to_pylist()
    assert sorted((w["hand_no"], w["win_no"], w["winner"], w["loser"], w["fan_total"]) for w in wins) == [
        (2, 0, 2, 1, 9), (102, 0, 2, 1, 9), (102, 1, 3, 1, 8)]
    fans = ds.arrow("fans", columns=["hand_no", "win_no", "winner", "name"]).to_pylist()
    assert {(f["win_no"], f["winner"], f["name"]) for f in fans if f["hand_no"] == 102} >= {
        (0, 2, "全带幺"), (1, 3, "无番和")}
    pay = ds.arrow("payments", columns=["hand_no", "seat", "score", "reason", "win_no"]).to_pylist()
    assert sorted((p["hand_no"], p["seat"], p["score"], p["win_no"]) for p in pay) == [
        (2, 0, -8, 0), (2, 1, -17, 0), (2, 2, 33, 0), (2, 3, -8, 0),
        (102, 0, -16, None), (102, 1, -33, None), (102, 2, 25, None), (102, 3, 24, None)]
    assert {p["reason"] for p in pay} == {None}  # net scores, not itemised by the record
    back = {h.hand_no: h for h in ds.hands()}
    assert back[102].result == _two_winner_hand().result and len(back[102].result.wins) == 2


def test_audit_rescores_each_win(pmn_dataset: Path) -> None:
    ds = open_dataset(pmn_dataset)
    computed = ds.arrow("computed_wins", columns=["hand_no", "win_no", "winner", "fan_total",
                                                  "recorded_fan_total"]).to_pylist()
    assert sorted(tuple(c.values()) for c in computed) == [
        (2, 0, 2, 9, 9), (102, 0, 2, 9, 9), (102, 1, 3, 8, 8)]
    findings = ds.arrow("findings", columns=["hand_no", "check", "severity"]).to_pylist()
    assert findings == [{"hand_no": 102, "check": "result.scores_unchecked", "severity": "info"}]
    statuses = ds.arrow("audited_hands", columns=["status"]).column("status").to_pylist()
    assert statuses == ["clean", "clean"]
    fans = ds.arrow("computed_fans", columns=["hand_no", "win_no", "winner", "name"]).to_pylist()
    assert {"hand_no": 102, "win_no": 1, "winner": 3, "name": "无番和"} in fans


def test_statistics_count_both_winners(pmn_dataset: Path) -> None:
    rate = compute(pmn_dataset, "win_rate", by="seat").set_index("seat")
    assert [int(rate.loc[s, "numerator"]) for s in range(4)] == [0, 0, 2, 1]
    assert [int(rate.loc[s, "denominator"]) for s in range(4)] == [2, 2, 2, 2]
    deal_in = compute(pmn_dataset, "deal_in_rate", by="seat").set_index("seat")
    assert [int(deal_in.loc[s, "numerator"]) for s in range(4)] == [0, 2, 0, 0]  # one per hand
    mean_fan = compute(pmn_dataset, "mean_fan", by="seat").set_index("seat")
    assert float(mean_fan.loc[3, "value"]) == 8.0 and float(mean_fan.loc[2, "value"]) == 9.0
    freq = compute(pmn_dataset, "fan_frequency").set_index("fan")
    assert int(freq.loc["全带幺", "numerator"]) == 2 and int(freq.loc["无番和", "numerator"]) == 1
    assert int(freq.loc["无番和", "denominator"]) == 3  # three wins in two hands
    assert int(compute(pmn_dataset, "fan_mismatch_rate")["numerator"].sum()) == 0
    dis = compute(pmn_dataset, "fan_disagreement")
    assert int(dis["numerator"].sum()) == 0 and int(dis["denominator"].sum()) == 5 + 5 + 1


def _tables(path: Path) -> dict[str, list[dict]]:
    ds = open_dataset(path)
    return {name: sorted(ds.arrow(name).to_pylist(), key=repr) for name in ("matches", *HAND_TABLES)}


def test_pmn_export_canonical_ingest_gives_the_same_tables(pmn_dataset: Path, tmp_path: Path, capsys) -> None:
    exported = tmp_path / "boards.jsonl"
    assert main(["export", str(pmn_dataset), "--out", str(exported)]) == 0
    lines = exported.read_text("utf-8").splitlines()
    assert sorted(json.loads(x)["v"] for x in lines) == [1, 2]
    again = tmp_path / "again"
    assert main(["ingest", "--format", "canonical", str(exported), "--out", str(again)]) == 0
    first, second = _tables(pmn_dataset), _tables(again)
    # provenance is the file and line each dataset read; the PMN board is the copy's origin
    assert [(h["origin"], h["origin_line"]) for h in second["hands"]] == [
        (h["source"], h["line"]) for h in first["hands"]]
    for name in ("matches", "hands"):
        for row in (*first[name], *second[name]):
            for moved in ("source", "line", "origin", "origin_line"):
                row.pop(moved, None)
    for name in first:
        assert first[name] == second[name], name
    capsys.readouterr()


def test_cli_ingests_pmn(tmp_path: Path, capsys) -> None:
    out = tmp_path / "ds"
    assert main(["ingest", "--format", "pmn", str(SAMPLE), str(TWO), "--out", str(out)]) == 0
    captured = capsys.readouterr()
    assert "hands 2 (wins 3," in captured.out + captured.err  # each of the 1 + 2 wins


def test_write_canonical_of_several_wins_to_a_stream() -> None:
    buffer = io.StringIO()
    assert write_canonical([_two_winner_hand()], buffer) == 1
    assert buffer.getvalue() == (CANONICAL / "pmn-two_winners.jsonl").read_text("utf-8")


def test_report_key_figures_count_wins_not_won_hands(pmn_dataset: Path) -> None:
    from mjstats.report.sections import key_figures

    figures = key_figures(open_dataset(pmn_dataset))
    assert (figures.hands, figures.wins, figures.draws) == (2, 3, 0)
    # the two-winner board's only finding is info (its scores cannot be checked): not flagged
    assert (figures.findings, figures.flagged_hands, figures.audited_hands) == (1, 0, 2)


# --- any results: the format and the dataset carry them unchanged ------------------------------

_SEAT = st.integers(0, 3)
_WINS = st.builds(
    Win,
    winner=st.none() | _SEAT,
    loser=st.none() | _SEAT,
    win_tile=st.none() | st.sampled_from(ALL_KINDS),
    self_drawn=st.booleans(),
    fan_total=st.none() | st.integers(0, 300),
    fans=st.lists(st.builds(FanEntry, st.sampled_from(["平和", "花牌", "无番和", "金番"]), st.integers(0, 3),
                            st.none() | st.integers(-5, 88)), max_size=3).map(tuple),
    pattern=st.none() | st.sampled_from(["三金倒", "金雀"]),
)


@st.composite
def _results(draw: st.DrawFn) -> Result:
    wins = tuple(draw(st.lists(_WINS, max_size=3)))
    outcome = draw(st.sampled_from(Outcome)) if wins else Outcome.DRAW
    if draw(st.booleans()):
        win_nos = st.none() | st.integers(0, len(wins) - 1) if wins else st.none()
        ledger = draw(st.lists(st.builds(Payment, _SEAT, st.integers(-200, 200),
                                         st.sampled_from(PaymentReason), win_nos), max_size=6))
        return Result(outcome, wins=wins, payments=tuple(ledger))
    scores = draw(st.none() | st.tuples(*[st.integers(-300, 300)] * 4))
    return Result(outcome, wins=wins, scores=scores)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=hand_strategy(), result=_results())
def test_any_result_round_trips_through_canonical(hand: Hand, result: Result) -> None:
    hand = replace(hand, result=result, provenance=Provenance("f.txt", 3))
    line = hand_to_json(hand)
    (back,) = read_canonical([line], name="x")
    assert isinstance(back, Hand) and back.result == result and hand_to_json(back) == line
    one = len(result.wins) == 1 and (result.is_win or result.wins[0] != Win())
    flat = one or (not result.wins and not result.is_win)  # what version 1 can say
    assert json.loads(line)["v"] == (1 if flat and not result.payments else 2)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(items=st.lists(st.tuples(hand_strategy(), _results()), min_size=1, max_size=4))
def test_any_results_survive_the_dataset_tables(items: list[tuple[Hand, Result]]) -> None:
    from mjstats.store.schema import HandColumns, hands_from_tables

    hands = [replace(h, match_id=f"m{i}", hand_no=i, result=r) for i, (h, r) in enumerate(items)]
    by_ruleset: dict[str, list[Hand]] = {}
    for hand in hands:
        by_ruleset.setdefault(hand.ruleset, []).append(hand)
    for ruleset, group in by_ruleset.items():
        columns = HandColumns()
        for hand in group:
            columns.add_hand(hand)
        tables = columns.take()
        back = list(hands_from_tables(ruleset, *(tables[name] for name in HAND_TABLES)))
        assert [h.result for h in back] == [h.result for h in group]


def test_botzone_allows_one_winner_and_explain_shows_every_win() -> None:
    from mjstats.replay import replay_hand
    from mjstats.replay.explain import explain_hand
    from mjstats.rulesets.guobiao.replay_botzone import BOTZONE

    hand = _two_winner_hand()
    botzone = replay_hand(hand, BOTZONE)
    assert "win.several" in [f.check for f in botzone.findings] and len(botzone.wins) == 2
    text = explain_hand(hand, replay_hand(hand, explain=True))
    assert "win 0: seat 2 on T2 from seat 1" in text and "win 1: seat 3 on T2 from seat 1" in text
    assert "recorded:   8 fan 无番和*1 (win 1, seat 3)" in text


def test_tables_written_before_several_wins_still_read(pmn_dataset: Path) -> None:
    """Part files without win_no and reason (datasets ingested before) rebuild the same hands."""
    from mjstats.store.schema import hands_from_tables

    ds = open_dataset(pmn_dataset)
    ruleset, period, part = ds.parts()[0]
    sub = Path(f"ruleset={ruleset}") / f"period={period}" / part
    tables = {name: pq.read_table(ds.path / name / sub) for name in HAND_TABLES}
    single = [h for h in ds.read_part(ruleset, period, part) if len(h.result.wins) == 1]
    old = {}
    for name in HAND_TABLES:
        table = tables[name]
        rows = pa.array([n == single[0].hand_no for n in table["hand_no"].to_pylist()])
        new_columns = [c for c in ("win_no", "reason") if c in table.column_names]
        old[name] = table.filter(rows).drop_columns(new_columns)
    (back,) = hands_from_tables(ruleset, *(old[name] for name in HAND_TABLES))
    assert back == single[0]


def test_ingest_summary_counts_each_win(tmp_path) -> None:
    from mjstats.store import SourceInput, ingest_sources

    board = Path(__file__).resolve().parent / "data" / "pmn" / "two_winners.pmn"
    summary = ingest_sources([SourceInput(board, "pmn")], tmp_path / "ds")
    assert summary.hands == 1 and summary.wins == 2 and summary.draws == 0
