"""Botzone JSON match logs (``--format botzone-json``): the three wrappers, what goes into the
dataset, and the audit checks only they allow (wall.draw, judge.can_hu, the WA penalty)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mjstats.formats.botzone_json import (
    CAN_HU_META,
    content_match_id,
    parse_can_hu,
    parse_record,
    read_botzone_json,
)
from mjstats.records import EventKind, Hand, Outcome, Reject
from mjstats.replay import replay_hand

DATA = Path(__file__).resolve().parent / "data" / "botzone-json"
LOGS = sorted(p for p in DATA.glob("*.json") if not p.name.endswith("_metadata.json"))
LITE = DATA / "6a20288058ebe27b197dae95_lite.json"


def _read(path: Path) -> list[Hand | Reject]:
    return list(read_botzone_json(path))


def _hand(obj: object, name: str = "log.json") -> Hand | Reject:
    return parse_record(json.dumps(obj, ensure_ascii=False).encode("utf-8"), 1, name)


def _codes(hand: Hand) -> list[tuple[str, int | None]]:
    return [(f.check, f.seq) for f in replay_hand(hand).findings]


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name)
def test_every_sample_reads_and_audits_clean(path: Path) -> None:
    records = _read(path)
    assert len(records) == 1 and isinstance(records[0], Hand), records
    result = replay_hand(records[0])
    assert result.findings == ()


def test_metadata_files_are_no_records() -> None:
    for path in DATA.glob("*_metadata.json"):
        assert _read(path) == []


def test_lite_wrapper_gives_wall_wind_players_id_and_can_hu() -> None:
    (hand,) = _read(LITE)
    assert hand.match_id == "6a20288058ebe27b197dae95"  # the metadata's matchId
    assert hand.prevalent_wind == 3 and hand.dealer == 0
    assert hand.players == ("[pycc]chunjiandu",) * 4
    wall = json.loads(json.loads(LITE.read_text("utf-8"))["initdata"])["walltiles"].split()
    # each seat's 34 in draw order: Botzone pops them from the end of walltiles[34s:34s+34]
    in_draw_order = [t for s in range(4) for t in reversed(wall[34 * s : 34 * s + 34])]
    assert hand.wall is not None and [t.botzone for t in hand.wall] == in_draw_order
    meta = dict(hand.meta)
    assert meta["srand"] == "1780492407"
    can_hu = parse_can_hu(meta[CAN_HU_META])
    assert 14 in {v for four in can_hu.values() for v in four}  # the winning discard's value
    assert hand.result.outcome is Outcome.WIN and hand.result.fan_total == 14
    assert hand.result.scores == (38, -22, -8, -8)


def test_display_arrays_take_the_win_from_the_event_before() -> None:
    (hand,) = _read(DATA / "judge-display-win-1.json")
    hu = hand.events[-1]
    assert hu.kind is EventKind.HU and hu.seat == 3 and hu.from_seat is None
    assert hand.result.self_drawn and hand.result.win_tile.botzone == "W1"  # the kong replacement
    assert hand.wall is None and hand.meta == ()


def test_match_id_comes_from_the_content_not_the_deal() -> None:
    obj = json.loads((DATA / "judge-display-win-2.json").read_text("utf-8"))
    (hand,) = _read(DATA / "judge-display-win-2.json")
    assert hand.match_id == content_match_id(obj)
    # the same deal played on differently (another final score) is another match
    replayed = json.loads(json.dumps(obj))
    replayed[-1]["score"] = [-17, 49, -16, -16]
    assert _hand(replayed).match_id != hand.match_id
    # key order and layout do not change it
    reordered = [dict(reversed(list(d.items()))) for d in obj]
    text = json.dumps(reordered, indent=2).replace("\n", "\r\n").encode("utf-8")
    assert parse_record(b"\xef\xbb\xbf" + text, 1, "x.json").match_id == hand.match_id


def test_lite_without_metadata_or_matchid_uses_its_file_name(tmp_path) -> None:
    copy = tmp_path / LITE.name
    copy.write_bytes(LITE.read_bytes())
    (hand,) = _read(copy)
    assert hand.match_id == "6a20288058ebe27b197dae95"
    renamed = tmp_path / "renamed.json"
    renamed.write_bytes(LITE.read_bytes())
    (hand,) = _read(renamed)
    assert hand.match_id == content_match_id(json.loads(LITE.read_text("utf-8")))


def test_tolerates_bom_crlf_extra_keys_and_missing_optional_fields() -> None:
    obj = json.loads(LITE.read_text("utf-8"))
    (plain,) = _read(LITE)
    obj["something_new"] = {"x": 1}
    obj["logs"][0]["output"]["display"]["extra"] = True
    del obj["viewurl"], obj["success"]
    text = json.dumps(obj, indent=1, ensure_ascii=False).replace("\n", "\r\n")
    hand = parse_record(b"\xef\xbb\xbf" + text.encode("utf-8"), 1, str(DATA / LITE.name))
    assert isinstance(hand, Hand)
    assert (hand.events, hand.result, hand.wall, hand.meta) == (
        plain.events,
        plain.result,
        plain.wall,
        plain.meta,
    )


def test_a_swapped_wall_tile_is_flagged_at_the_first_draw_it_changes() -> None:
    obj = json.loads(LITE.read_text("utf-8"))
    init = json.loads(obj["initdata"])
    wall = init["walltiles"].split()
    # seat 1's wall is wall[34:68], drawn from its end: 13 dealt (67..55), then 54, 53, ...
    assert wall[53] != wall[35]
    wall[53], wall[35] = wall[35], wall[53]  # its second draw and a tile it never reaches
    init["walltiles"] = " ".join(wall)
    obj["initdata"] = json.dumps(init)
    hand = _hand(obj, str(DATA / LITE.name))
    draws = [e for e in hand.events if e.kind is EventKind.DRAW and e.seat == 1]
    findings = [f for f in replay_hand(hand).findings if f.check == "wall.draw"]
    assert [(f.seq, f.recorded, f.expected) for f in findings] == [
        (draws[1].seq, draws[1].tile.botzone, wall[53])
    ]


def test_a_dealt_tile_off_the_wall_is_flagged_at_the_deal() -> None:
    obj = json.loads(LITE.read_text("utf-8"))
    init = json.loads(obj["initdata"])
    wall = init["walltiles"].split()
    wall[33], wall[0] = wall[0], wall[33]  # seat 0's first pop
    init["walltiles"] = " ".join(wall)
    obj["initdata"] = json.dumps(init)
    codes = _codes(_hand(obj, str(DATA / LITE.name)))
    assert ("wall.draw", 0) in codes


def _first_display(obj: dict, predicate) -> dict:
    for entry in obj["logs"]:
        display = entry.get("output", {}).get("display") if isinstance(entry, dict) else None
        if display and predicate(display):
            return display
    raise AssertionError("no such display")


def test_a_changed_can_hu_is_flagged() -> None:
    obj = json.loads(LITE.read_text("utf-8"))
    winning = _first_display(obj, lambda d: d["action"] == "PLAY" and max(d["canHu"]) >= 0)
    winning["canHu"] = [v - 1 if v >= 0 else v for v in winning["canHu"]]  # 14 -> 13
    findings = [f for f in replay_hand(_hand(obj, str(LITE))).findings]
    assert [(f.check, f.expected, f.recorded) for f in findings] == [("judge.can_hu", "14", "13")]


def test_a_denied_win_and_an_impossible_one_are_flagged() -> None:
    obj = json.loads(LITE.read_text("utf-8"))
    winning = _first_display(obj, lambda d: d["action"] == "PLAY" and max(d["canHu"]) >= 0)
    winning["canHu"] = [-3 if v >= 0 else v for v in winning["canHu"]]  # the judge says: no win
    assert [c for c, _ in _codes(_hand(obj, str(LITE)))] == ["judge.can_hu"]
    obj = json.loads(LITE.read_text("utf-8"))
    first_play = _first_display(obj, lambda d: d["action"] == "PLAY")
    first_play["canHu"] = [5, 5, 5, 5]  # nobody can win on the first discard; the discarder never
    findings = replay_hand(_hand(obj, str(LITE))).findings
    assert len(findings) == 4 and {f.check for f in findings} == {"judge.can_hu"}


def test_wrong_action_is_a_penalty_and_its_scores_are_checked() -> None:
    (hand,) = _read(DATA / "judge-display-wrong-action.json")
    assert hand.result.outcome is Outcome.PENALTY and hand.result.scores == (10, 10, -30, 10)
    assert hand.events[-1].kind is EventKind.PENALTY and hand.events[-1].seat == 2
    obj = json.loads((DATA / "judge-display-wrong-action.json").read_text("utf-8"))
    obj[-1]["score"] = [10, 10, 10, -30]  # the wrong seat penalised
    assert [c for c, _ in _codes(_hand(obj))] == ["result.scores"]


def test_bad_input_is_a_reject_naming_source_entry_and_match(tmp_path) -> None:
    obj = json.loads(LITE.read_text("utf-8"))
    obj["logs"][10]["output"]["display"]["action"] = "DANCE"
    path = tmp_path / LITE.name
    path.write_text(json.dumps(obj), encoding="utf-8")
    (reject,) = _read(path)
    assert isinstance(reject, Reject)
    assert reject.source == str(path) and reject.match_id == "6a20288058ebe27b197dae95"
    assert "entry 11" in reject.error and "unknown action 'DANCE'" in reject.error
    obj = json.loads(LITE.read_text("utf-8"))
    hu = _first_display(obj, lambda d: d["action"] == "HU")
    hu["fan"][0]["name"] = "不存在番"
    reject = _hand(obj, str(LITE))
    assert isinstance(reject, Reject) and "unknown fan name '不存在番'" in reject.error
    for text in (b"{not json", b"[1, 2]", b'{"logs": "x"}'):
        assert isinstance(parse_record(text, 1, "x.json"), Reject)
    truncated = json.loads((DATA / "judge-display-win-2.json").read_text("utf-8"))[:-1]
    reject = _hand(truncated)
    assert isinstance(reject, Reject) and "ends before HU, HUANG or WA" in reject.error


def test_a_penalty_is_no_exhaustive_draw_in_the_ingest_summary(tmp_path, capsys) -> None:
    from mjstats.cli import main

    wa = DATA / "judge-display-wrong-action.json"
    assert main(["ingest", str(wa), str(DATA / "judge-display-draw.json"), "-o", str(tmp_path / "ds")]) == 0
    assert "hands 2 (wins 0, exhaustive draws 1)" in capsys.readouterr().out
