"""The PMN reader: the mahjongsoft sample and a hand-written two-winner board read as golden
canonical lines, the tolerances of the format as written (tag order, comments, CRLF, BOM,
several boards a file), rejects that name source, line and match, and a property test: any
text gives hands or rejects, never an exception."""

from __future__ import annotations

import io
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mjstats.formats import FORMATS, reader_for
from mjstats.formats.canonical import hand_to_json
from mjstats.formats.pmn import read_pmn
from mjstats.records import EventKind, Hand, Outcome, Reject
from mjstats.replay import replay_hand
from mjstats.rulesets.guobiao.fan_names import FAN_NAME_BY_ID, OUR_FAN_NAMES, fan_name_of_id
from mjstats.rulesets.guobiao.replay_mcr import DUPLICATE, MCR
from mjstats.tiles import parse_tiles

DATA = Path(__file__).parent / "data" / "pmn"
GOLDEN = Path(__file__).parent / "data" / "canonical"  # the boards as canonical lines
SAMPLE = DATA / "example_1.pmn"
TWO = DATA / "two_winners.pmn"


def _read(path: Path) -> list[Hand | Reject]:
    return list(read_pmn(path, name=path.name))


def _lines(text: str) -> list[Hand | Reject]:
    return list(read_pmn(io.BytesIO(text.encode("utf-8")), name="t.pmn"))


def test_pmn_is_a_registered_format() -> None:
    assert "pmn" in FORMATS and reader_for("pmn") is read_pmn


def test_fan_numbers_follow_the_guobiao_table() -> None:
    assert len(FAN_NAME_BY_ID) == 81 and sorted(FAN_NAME_BY_ID) == list(range(1, 82))
    assert (fan_name_of_id(1), fan_name_of_id(39), fan_name_of_id(62), fan_name_of_id(81)) == (
        "大四喜", "花龙", "门前清", "花牌")
    assert fan_name_of_id(82) is None and fan_name_of_id(0) is None
    assert set(FAN_NAME_BY_ID.values()) <= OUR_FAN_NAMES


def test_sample_reads_as_its_golden_canonical_line() -> None:
    (hand,) = _read(SAMPLE)
    assert isinstance(hand, Hand)
    golden = (GOLDEN / "pmn-example_1.jsonl").read_text("utf-8").splitlines()
    assert [hand_to_json(hand)] == golden


def test_sample_fields() -> None:
    (hand,) = _read(SAMPLE)
    assert (hand.match_id, hand.hand_no, hand.ruleset, hand.profile) == (
        "mahjongsoft-74621-2-2", 2, "guobiao", "duplicate")
    assert hand.players == ("Sandy7169", "Alec (钧力）", "忘却氤氲", "Annie Fok")
    assert (hand.started_at, hand.period, hand.dealer, hand.prevalent_wind) == ("2022-06-25", "2022-06", 0, 0)
    deal = [e for e in hand.events if e.kind is EventKind.DEAL]
    # c = 万 (W), d = 筒 (B), b = 条 (T), w = winds, r = dragons J1..J3
    assert deal[0].tiles == parse_tiles("W2 W5 W5 W6 W6 B5 B7 B9 T2 T2 T6 T9 J2")
    assert deal[3].tiles == parse_tiles("W3 W3 W8 B3 B8 B9 T4 T6 T6 F1 F1 F2 F4")
    assert all(e.line == 10 for e in deal) and hand.events[-1].line == 15
    kinds = [e.kind for e in hand.events]
    assert kinds.count(EventKind.DRAW) == 25 and kinds.count(EventKind.GANG) == 1
    first = hand.events[4:6]  # T0r3 D0z1: z1 is the tile just drawn
    assert [(e.kind, e.seat, e.tile) for e in first] == [
        (EventKind.DRAW, 0, parse_tiles("J3")[0]), (EventKind.DISCARD, 0, parse_tiles("J3")[0])]
    kong = next(e for e in hand.events if e.kind is EventKind.GANG)  # Z1r1 on West's discard
    assert (kong.seat, kong.from_seat, kong.tile) == (1, 2, parse_tiles("J1")[0])
    assert hand.events[hand.events.index(kong) + 1].tail  # the kong's replacement
    chi = next(e for e in hand.events if e.kind is EventKind.CHI)  # D2b8 C3b7: b7 is the middle
    t7, t8 = parse_tiles("T7 T8")
    assert (chi.seat, chi.tile, chi.claimed, chi.from_seat) == (3, t7, t8, 2)
    result = hand.result
    assert result.outcome is Outcome.WIN and len(result.wins) == 1
    t2 = parse_tiles("T2")[0]
    assert (result.winner, result.loser, result.win_tile, result.self_drawn) == (2, 1, t2, False)
    assert [(f.name, f.points, f.count) for f in result.fans] == [
        ("全带幺", 4, 1), ("箭刻", 2, 1), ("喜相逢", 1, 1), ("幺九刻", 1, 1), ("嵌张", 1, 1)]
    assert result.fan_total == 9 and result.scores == (-8, -17, 33, -8) and result.payments == ()


def test_sample_audits_clean_with_the_recorded_fans() -> None:
    (hand,) = _read(SAMPLE)
    replayed = replay_hand(hand)
    assert replayed.findings == () and replayed.status == "clean"
    assert replayed.win is not None and replayed.win.total == hand.result.fan_total
    assert sorted((f.name, f.count) for f in replayed.win.fans) == sorted(
        (f.name, f.count) for f in hand.result.fans)
    assert replayed.win.payments == hand.result.scores  # 8 + 9 from the discarder, 8 from the others
    # the same board under standard MCR scoring checks the same way
    assert replay_hand(hand, MCR).findings == ()


def test_two_winner_board_is_one_hand_with_two_wins() -> None:
    (hand,) = _read(TWO)
    assert [hand_to_json(hand)] == (GOLDEN / "pmn-two_winners.jsonl").read_text("utf-8").splitlines()
    wins = hand.result.wins
    assert [(w.winner, w.loser, w.fan_total) for w in wins] == [(2, 1, 9), (3, 1, 8)]
    assert [f.name for f in wins[1].fans] == ["无番和"]
    hus = [e for e in hand.events if e.kind is EventKind.HU]
    assert [(e.seat, e.from_seat) for e in hus] == [(2, 1), (3, 1)]
    replayed = replay_hand(hand)
    # both wins rescored and equal to the record; the scores cannot be checked: said, not guessed
    assert [(n, c.winner, w.total) for n, c, w in replayed.wins] == [(0, 2, 9), (1, 3, 8)]
    assert [(f.check, f.severity.value) for f in replayed.findings] == [("result.scores_unchecked", "info")]
    assert replayed.status == "clean"
    # standard MCR allows one winner: the second is a finding, and still rescored
    strict = replay_hand(hand, MCR)
    assert [f.check for f in strict.findings] == ["win.several", "result.scores_unchecked"]
    assert len(strict.wins) == 2 and strict.status == "errors"
    assert replay_hand(hand, DUPLICATE).findings == replayed.findings


def _tolerant_variant() -> str:
    """The two boards written the way other writers may: BOM, CRLF, comments of both kinds,
    tags in another order, extra blanks, no blank line between the boards."""
    first = SAMPLE.read_text("utf-8").splitlines()
    second = TWO.read_text("utf-8").splitlines()
    first = [first[-1], "; the Fan tag first, then the rest", *reversed(first[:-1])]
    second = ["{ a comment", "", "over lines }", *second]
    padded = [line.replace('[Board "102"]', '[ Board    "102" ]  ; padded') for line in second]
    return "\ufeff" + "\r\n".join([*first, *padded, "", ""])


def test_tag_order_comments_crlf_bom_and_several_boards() -> None:
    plain = [*_read(SAMPLE), *_read(TWO)]
    got = _lines(_tolerant_variant())
    assert [type(x) for x in got] == [Hand, Hand]
    for a, b in zip(got, plain, strict=True):
        unlined = [[e._replace(line=None) for e in h.events] for h in (a, b)]
        assert a.result == b.result and unlined[0] == unlined[1] and a.players == b.players
        assert (a.match_id, a.hand_no, a.meta) == (b.match_id, b.hand_no, b.meta)
    # the second board starts at its own first tag (a comment before it stays with the first)
    assert got[1].provenance.line == 1 + len(SAMPLE.read_text("utf-8").splitlines()) + 1 + 3


def test_boards_separated_by_blank_lines() -> None:
    text = SAMPLE.read_text("utf-8") + "\n\n" + TWO.read_text("utf-8") + "\n" + SAMPLE.read_text("utf-8")
    got = _lines(text)
    assert [type(x).__name__ for x in got] == ["Hand", "Hand", "Hand"]
    assert [h.hand_no for h in got] == [2, 102, 2]
    assert got[2].provenance.line == 16 + 2 + 17 + 1 + 1


def _board(**changes: str) -> str:
    text = SAMPLE.read_text("utf-8")
    for old, new in changes.items():
        assert old in text
        text = text.replace(old, new)
    return text


def test_bad_boards_are_rejects_naming_line_and_match_and_reading_goes_on() -> None:
    bad = {
        "deal tile": (_board(**{"w2": "w7"}), 10, "Deal: no tile w7"),
        "unknown fan": (_board(**{"70/1/1": "99/1/1"}), 16, "fan number 99 is not one of 1..81"),
        "fan of a non-winner": (_board(**{'[Fan "None': '[Fan "62/2/1'}), 16,
                                "seat 0 has fans but never declares Hu"),
        "no deal": (_board(**{"[Deal": "[NoDeal"}), 1, "missing tag Deal"),
        "bad move": (_board(**{"T0r3D0z1": "T0r3X0z1"}), 15, "Play: cannot read the move"),
        "z1 before a draw": (_board(**{"T0r3D0z1": "D0z1"}), 15, "seat has drawn no tile"),
        "claim without discard": (_board(**{"T0r3D0z1": "T0r3P1r3"}), 15, "the move before it is no discard"),
        "text": (_board(**{"[Board": "stray words\n[Board"}), 4, "text outside a tag pair"),
        "result": (_board(**{'[Result "-8 -17 33 -8"]': '[Result "-8 -17 33"]'}), 13,
                   "Result: expected 4 integer scores"),
        "scoring": (_board(**{'"Duplicate"]': '"Riichi"]'}), 11, "Scoring: expected MCR or Duplicate"),
        "date": (_board(**{"2022.06.25": "2022.13.45"}), 3, "Date: no such day"),
    }
    for label, (text, line, message) in bad.items():
        got = _lines(text + "\n\n" + TWO.read_text("utf-8"))
        assert isinstance(got[0], Reject), label
        assert message in got[0].error and got[0].line == line, (label, got[0])
        assert got[0].match_id == "mahjongsoft-74621-2-2" and got[0].source == "t.pmn", label
        assert isinstance(got[1], Hand), label  # the next board is still read
    # a comment never closed runs to the end of the file (PGN): one reject for all of it
    (unclosed,) = _lines(_board(**{"[Board": "{ never closed\n[Board"}))
    assert isinstance(unclosed, Reject) and unclosed.line == 4
    assert "'{' comment is never closed" in unclosed.error


def test_bad_utf8_is_one_reject() -> None:
    data = SAMPLE.read_bytes().replace(b"Annie", b"Ann\xffe") + b"\n\n" + TWO.read_bytes()
    got = list(read_pmn(io.BytesIO(data), name="t.pmn"))
    assert isinstance(got[0], Reject) and "invalid UTF-8" in got[0].error and got[0].line == 9
    assert isinstance(got[1], Hand)


def test_penalty_becomes_ledger_payments() -> None:
    (hand,) = _lines(_board(**{'[Penalty "0 0 0 0"]': '[Penalty "0 -10 0 0"]'}))
    assert isinstance(hand, Hand)
    ledger = [(p.seat, p.score, p.reason.value, p.win_no) for p in hand.result.payments]
    assert ledger == [(0, -8, "win", 0), (1, -17, "win", 0), (2, 33, "win", 0), (3, -8, "win", 0),
                      (1, -10, "penalty", None)]
    assert hand.result.scores == (-8, -27, 33, -8)
    assert replay_hand(hand).findings == ()  # the win part is checked, the penalty beside it


def test_python_majiang_id_count_fans_and_m_for_hu() -> None:
    text = _board(**{"55/4/1.59/2/1.70/1/1.73/1/1.78/1/1": "55/1.59/1.70/1.73/1.78/1", "H2": "M2"})
    (hand,) = _lines(text)
    assert isinstance(hand, Hand)
    fans = [(f.name, f.count, f.points) for f in hand.result.fans]
    assert fans[:2] == [("全带幺", 1, None), ("箭刻", 1, None)]
    assert hand.result.fan_total is None and hand.result.winner == 2
    assert [f.check for f in replay_hand(hand).findings] == []


_ALPHABET = '[]"{};% \n\r\tEventDealPlayFanResultTDCPABZRHNcdbwrfz0123456789./-'


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=st.sampled_from(list(_ALPHABET)), max_size=400))
def test_any_text_gives_hands_or_rejects(text: str) -> None:
    for item in _lines(text):
        assert isinstance(item, Hand | Reject)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_edit_of_the_sample_gives_hands_or_rejects(data: st.DataObject) -> None:
    raw = bytearray(SAMPLE.read_bytes())
    for _ in range(data.draw(st.integers(1, 6))):
        at = data.draw(st.integers(0, len(raw) - 1))
        raw[at] = data.draw(st.integers(0, 255))
    for item in read_pmn(io.BytesIO(bytes(raw)), name="t.pmn"):
        assert isinstance(item, Hand | Reject)
        if isinstance(item, Hand):
            hand_to_json(item)  # whatever reads is writable


def test_flowers_are_set_aside_replaced_and_scored() -> None:
    """The sample with flowers added: East is dealt one (replaced before its first draw) and
    draws one; West, the winner, draws one, so its win gains 花牌 (10 fan: 8 + 10 from the
    discarder, 34 to the winner)."""
    text = _board(**{
        "c25566d579b2269wr2f ": "c25566d579b2269wf2 ",
        '[Play "T0r3D0z1': '[Play "R0f2T0r2T0r3D0z1',
        "T1c9D1c2T2d3": "T1c9D1c2T2f5R2f5T2d3",
        "T0w2D0z1T1c9D1c8": "T0f1R0f1T0w2D0z1T1c9D1c8",
        "78/1/1 None": "78/1/1.81/1/1 None",
        "-8 -17 33 -8": "-8 -18 34 -8",
    })
    (hand,) = _lines(text)
    assert isinstance(hand, Hand)
    flowers = [(e.seat, e.tile.botzone) for e in hand.events if e.kind is EventKind.FLOWER]
    assert flowers == [(0, "H2"), (2, "H5"), (0, "H1")]
    after = [hand.events[i + 1] for i, e in enumerate(hand.events) if e.kind is EventKind.FLOWER]
    assert all(e.kind is EventKind.DRAW and e.tail for e in after)
    assert hand.result.fan_total == 10 and hand.result.fans[-1].name == "花牌"
    replayed = replay_hand(hand)
    assert replayed.findings == ()
    assert replayed.win is not None and replayed.win.total == 10 and replayed.context.flowers == 1
    assert replayed.win.payments == (-8, -18, 34, -8)
    # a flower kept in hand at the win is no winning hand; one set aside that is not held is found
    kept = _board(**{"T2d1D2r1": "T2f5D2r1"})
    assert [f.check for f in replay_hand(_lines(kept)[0]).findings] == ["win.not_winning"]
    missing = _board(**{'[Play "T0r3D0z1': '[Play "R0f2T0r2T0r3D0z1'})
    assert "tile.not_held" in [f.check for f in replay_hand(_lines(missing)[0]).findings]


def test_a_board_over_the_record_limit_is_one_reject_and_the_next_is_read() -> None:
    from mjstats.formats.pmn import parse_record, split_records

    data = TWO.read_bytes() + b"\n" + SAMPLE.read_bytes()
    limit = len(SAMPLE.read_bytes()) + 10  # the two-winner board (with its comment) is longer
    records = list(split_records(io.BytesIO(data), max_record_bytes=limit))
    got = [parse_record(record, start, "t.pmn") for start, record in records]
    assert [type(x).__name__ for x in got] == ["Reject", "Hand"]
    assert got[0].line == 1 and "max_record_bytes" in got[0].error and got[0].raw.startswith("[Event")
    assert got[1].provenance.line == 19
