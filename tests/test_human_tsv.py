"""The 2017 human-play logs (``--format human-tsv``): one file per hand, flowers, the platform's
fan names, the recorded gain and declared wins the platform refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from mjstats.formats.human_tsv import parse_record, read_human_tsv
from mjstats.records import EventKind, FanEntry, Hand, Outcome, Reject
from mjstats.replay import replay_hand

DATA = Path(__file__).resolve().parent / "data" / "human-tsv"
PLAY = DATA / "PLAY" / "2017-01-01-0.txt"
MO = DATA / "MO" / "2017-01-01-1.txt"
LIU = DATA / "LIU" / "2017-01-01-3.txt"


def _hand(text: str, name: str = "2017-01-01-7.txt") -> Hand | Reject:
    return parse_record(text.encode("utf-8"), 1, name)


def _codes(record: Hand | Reject) -> list[str]:
    assert isinstance(record, Hand), record
    return [f.check for f in replay_hand(record).findings]


@pytest.mark.parametrize("path", [PLAY, MO, LIU], ids=lambda p: p.parent.name)
def test_every_sample_reads_and_audits_clean(path: Path) -> None:
    (hand,) = read_human_tsv(path)
    assert isinstance(hand, Hand)
    assert replay_hand(hand).findings == ()


def test_what_the_header_gives() -> None:
    (play,) = read_human_tsv(PLAY)
    (mo,) = read_human_tsv(MO)
    (liu,) = read_human_tsv(LIU)
    assert {h.match_id for h in (play, mo, liu)} == {"345201"}  # line 1's xml number
    assert (play.hand_no, mo.hand_no, liu.hand_no) == (0, 1, 3)  # the file names' numbers
    assert (play.dealer, mo.dealer, liu.dealer) == (0, 1, 3)  # the seat dealt 14
    assert play.started_at == "2017-01-01" and play.period == "2017-01"
    assert dict(play.meta) == {"deal_flowers": "1,0,0,2", "gain": "57"}
    result = play.result
    assert (result.outcome, result.winner, result.loser, result.self_drawn) == (Outcome.WIN, 0, 3, False)
    assert result.fan_total == 33
    # the platform's names in ours (断幺九 -> 断幺); '花牌-2' is two flowers of 1
    assert FanEntry("断幺", 1, 2) in result.fans and FanEntry("花牌", 2, 1) in result.fans
    assert mo.result.self_drawn and mo.result.loser is None
    assert liu.result.outcome is Outcome.DRAW and liu.events[-1].kind is EventKind.HUANG


def test_a_declared_win_inside_a_drawn_hand_is_kept_and_judged() -> None:
    (liu,) = read_human_tsv(LIU)
    hus = [e for e in liu.events if e.kind is EventKind.HU]
    assert len(hus) == 1 and hus[0].seat == 1 and hus[0].from_seat == 3
    assert hus[0].seq < len(liu.events) - 2  # play went on after it
    # worth 4 fan with its flowers: refused rightly, no finding (the test above)


def test_a_valid_win_the_platform_refused_is_flagged() -> None:
    # the PLAY hand's winning line, with the game going on after it and no win recorded
    lines = PLAY.read_text("utf-8").splitlines()
    lines[1] = "东\t0\t['荒庄-0']\t\t荒庄"
    lines += ["0\t摸牌\t['T9']\t", "0\t打牌\t['T9']\t"]
    codes = _codes(_hand("\n".join(lines)))
    assert "win.refused" in codes


def test_the_recorded_gain_is_checked() -> None:
    text = MO.read_text("utf-8").replace("东\t63\t", "东\t62\t", 1)
    assert _codes(_hand(text, MO.name)) == ["result.gain"]
    text = LIU.read_text("utf-8").replace("东\t0\t", "东\t8\t", 1)
    assert _codes(_hand(text, LIU.name)) == ["result.gain"]


def test_a_flower_without_its_replacement_draw_is_flagged() -> None:
    text = MO.read_text("utf-8").replace("2\t补花后摸牌\t['T3']\t\n", "", 1)
    assert "flower.replacement" in _codes(_hand(text, MO.name))


def test_an_unknown_fan_name_is_a_reject_naming_it() -> None:
    text = PLAY.read_text("utf-8").replace("'双同刻-2'", "'双龙抢珠-2'", 1)
    reject = _hand(text, PLAY.name)
    assert isinstance(reject, Reject)
    assert reject.line == 2 and reject.match_id == "345201"
    assert "unknown fan name '双龙抢珠'" in reject.error


def test_crlf_bom_and_blank_lines_are_tolerated() -> None:
    (plain,) = read_human_tsv(PLAY)
    text = (
        PLAY.read_text("utf-8")
        .replace("\n", "\r\n")
        .replace("\t打牌\t['W7']\t\r\n", "\t打牌\t['W7']\t\r\n\r\n", 1)
    )
    hand = parse_record(b"\xef\xbb\xbf" + text.encode("utf-8"), 1, str(PLAY))
    assert isinstance(hand, Hand)
    assert [e._replace(line=None) for e in hand.events] == [e._replace(line=None) for e in plain.events]
    assert hand.result == plain.result


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t.replace("345201.xml", "345201.txt", 1), "line 1"),
        (lambda t: t.replace("\t打牌\t", "\t跳舞\t", 1), "unknown action '跳舞'"),
        (lambda t: t.replace("['W7']", "['W0']", 1), "bad tile code 'W0'"),
        (lambda t: t.replace("\t和牌\n", "\t胡了\n", 1), "unknown result"),
    ],
)
def test_bad_lines_are_rejects_naming_the_line(change, message) -> None:
    reject = _hand(change(PLAY.read_text("utf-8")), PLAY.name)
    assert isinstance(reject, Reject) and message in reject.error, reject
    assert reject.source == PLAY.name and reject.line >= 1


def test_a_file_name_without_a_hand_number_is_a_reject() -> None:
    reject = _hand(PLAY.read_text("utf-8"), "hand.txt")
    assert isinstance(reject, Reject) and "trailing hand number" in reject.error


def test_every_tile_of_a_line_is_kept_or_the_line_rejected() -> None:
    lines = PLAY.read_text("utf-8").splitlines()
    at = lines.index("0\t补花\t['H4']\t")
    lines[at] = "0\t补花\t['H4','H7']\t"  # two flowers on one line: two flower events
    hand = _hand("\n".join(lines), PLAY.name)
    assert isinstance(hand, Hand)
    flowers = [e.tile.botzone for e in hand.events if e.kind is EventKind.FLOWER and e.line == at + 1]
    assert flowers == ["H4", "H7"]
    lines[at] = "0\t打牌\t['W1','W2']\t"  # a discard of two tiles is no discard
    reject = _hand("\n".join(lines), PLAY.name)
    assert isinstance(reject, Reject) and reject.line == at + 1 and "lists 2 tiles" in reject.error
