"""The Botzone reader on the real sample, its quirks, and bad input."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from mjstats.formats.botzone import read_botzone
from mjstats.records import EventKind, Hand, Outcome, Reject, WinKind
from mjstats.tiles import parse_tiles


def test_sample_counts(sample_hands):
    assert all(isinstance(h, Hand) for h in sample_hands)
    assert len(sample_hands) == 16
    outcomes = Counter(h.result.outcome for h in sample_hands)
    assert outcomes == {Outcome.WIN: 14, Outcome.DRAW: 2}
    assert len({h.match_id for h in sample_hands}) == 16
    for h in sample_hands:
        assert h.ruleset == "guobiao" and h.profile == "botzone" and h.dealer == 0
        assert sum(h.result.scores) == 0


def test_first_hand_pinned(sample_hands):
    h = sample_hands[0]
    assert h.match_id == "61602cb45ddc087351c04358"
    assert h.prevalent_wind == 1 and h.provenance.line == 1
    assert h.provenance.source == "sample.txt"
    deals = [e for e in h.events if e.kind is EventKind.DEAL]
    assert [e.seat for e in deals] == [0, 1, 2, 3]
    assert deals[0].tiles == parse_tiles("T8 B7 T1 W6 B8 W9 J1 T9 B2 W3 T6 F4 W9")
    assert [(e.kind, e.seat, str(e.tile)) for e in h.events[4:8]] == [
        (EventKind.DRAW, 0, "J3"), (EventKind.DISCARD, 0, "T6"),
        (EventKind.DRAW, 1, "T2"), (EventKind.DISCARD, 1, "T2"),
    ]
    chi = next(e for e in h.events if e.kind is EventKind.CHI)
    assert (chi.seat, str(chi.tile), str(chi.claimed), chi.from_seat, chi.line) == (2, "T5", "T4", 1, 19)
    peng = next(e for e in h.events if e.kind is EventKind.PENG)
    ignored = h.events[peng.seq + 1]
    assert (peng.seat, str(peng.tile), peng.from_seat) == (0, "W9", 2)
    assert (ignored.kind, ignored.seat, ignored.claim, str(ignored.tile)) == (
        EventKind.IGNORED, 3, "chi", "W8")
    r = h.result
    assert (r.winner, r.loser, str(r.win_tile), r.self_drawn, r.fan_total) == (1, 2, "B7", False, 9)
    assert [(f.name, f.count) for f in r.fans] == [("混一色", 1), ("箭刻", 1), ("老少副", 1)]
    assert r.scores == (-8, 33, -17, -8)
    assert len(h.events) == 102 and [e.seq for e in h.events] == list(range(102))


def test_self_drawn_wins_carry_the_drawn_tile(sample_hands):
    selfdrawn = [h for h in sample_hands if h.result.is_win and h.result.self_drawn]
    assert len(selfdrawn) == 6
    for h in selfdrawn:
        hu = h.events[-1]
        draw = h.events[-2]
        assert hu.kind is EventKind.HU and draw.kind is EventKind.DRAW and draw.seat == hu.seat
        assert h.result.win_tile == draw.tile == hu.tile
        assert h.result.loser is None and hu.from_seat is None
    # match ...4362: "Player 2 Hu T9" on the record, but the drawn (winning) tile is B3
    h = next(h for h in sample_hands if h.match_id.endswith("4362"))
    assert str(h.result.win_tile) == "B3"


def test_wins_by_seat_match_the_sample(sample_hands):
    wins = Counter(h.result.winner for h in sample_hands if h.result.is_win)
    assert [wins[s] for s in range(4)] == [1, 3, 2, 8]
    losers = Counter(h.result.loser for h in sample_hands if h.result.is_win and h.result.loser is not None)
    assert [losers[s] for s in range(4)] == [1, 3, 3, 1]


def test_kongs_and_lost_hu_claim(sample_hands):
    kinds = Counter(e.kind for h in sample_hands for e in h.events)
    assert kinds[EventKind.ANGANG] == 2 and kinds[EventKind.BUGANG] == 2 and kinds[EventKind.GANG] == 1
    h = next(h for h in sample_hands if h.match_id.endswith("4385"))
    lost = [e for e in h.events if e.kind is EventKind.IGNORED]
    assert [(e.seat, e.claim, str(e.tile)) for e in lost] == [(2, "hu", "W7")]


GOOD = """Match aaaaaaaaaaaaaaaaaaaaaaaa
Wind 0
Player 0 Deal W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9 W9
Player 1 Deal T1 T2 T3 T4 T5 T6 T7 T8 T9 B1 B2 B3 B4
Player 2 Deal B5 B6 B7 B8 B9 F1 F2 F3 F4 J1 J2 J3 T1
Player 3 Deal W2 W3 W4 W5 W6 W7 T2 T3 T4 T5 T6 T7 B1
Player 0 Draw W5
Player 0 Hu W9
Fan 91 九莲宝灯*1+双暗刻*1+幺九刻*1
Score 297 -99 -99 -99
"""


def _record(match_id: str, lines: list[str]) -> str:
    text = GOOD.replace("a" * 24, match_id)
    body = text.splitlines()
    return "\n".join(lines if lines else body)


def test_bad_records_become_rejects_and_the_rest_is_read():
    good = GOOD.splitlines()
    unknown_verb = [*good[:7], "Player 0 Dance W5", *good[7:]]
    truncated = good[:8]
    bad_tile = [*good[:6], "Player 0 Draw X9", *good[7:]]
    chunks = [
        "\n".join(good).replace("a" * 24, "1" * 24).encode(),
        "\n".join(unknown_verb).replace("a" * 24, "2" * 24).encode(),
        "\n".join(truncated).replace("a" * 24, "3" * 24).encode(),
        "\n".join(bad_tile).replace("a" * 24, "4" * 24).encode(),
        "\n".join(good).replace("a" * 24, "5" * 24).encode().replace(b"Wind 0", b"Wind 0 \xff\xfe"),
        "\n".join(good).replace("a" * 24, "6" * 24).encode(),
    ]
    data = b"\n\n".join(chunks) + b"\n"
    records = list(read_botzone(data.splitlines(keepends=True), name="bad.txt"))
    kinds = [type(r).__name__ for r in records]
    assert kinds == ["Hand", "Reject", "Reject", "Reject", "Reject", "Hand"]
    rejects = [r for r in records if isinstance(r, Reject)]
    assert [r.match_id for r in rejects] == ["2" * 24, "3" * 24, "4" * 24, "5" * 24]
    assert all(r.source == "bad.txt" for r in rejects)
    # records of 10 lines + a blank: record 2 starts at line 12, its bad verb is its 8th line
    assert rejects[0].line == 19 and "unknown action 'Dance'" in rejects[0].error
    assert "truncated" in rejects[1].error
    assert "bad tile code 'X9'" in rejects[2].error and rejects[2].line == 39
    assert "invalid UTF-8" in rejects[3].error and rejects[3].line == 45
    assert rejects[0].raw.startswith("Match 2222")
    assert records[-1].match_id == "6" * 24


def test_ignore_clauses_are_case_insensitive():
    lines = GOOD.splitlines()
    lines[7] = "Player 0 Hu W9 IGNORE Player 2 HU W9 ignore Player 1 peng W9"
    (hand,) = read_botzone(lines)
    assert isinstance(hand, Hand)
    lost = [(e.seat, e.claim) for e in hand.events if e.kind is EventKind.IGNORED]
    assert lost == [(2, "hu"), (1, "peng")]


def test_fan_lines_with_counts():
    lines = GOOD.splitlines()
    lines[8] = "Fan 11 平和*1+连六*2+喜相逢*2+自摸*1+无字*1+缺一门*1+断幺*1"
    (hand,) = read_botzone(lines)
    assert [(f.name, f.count) for f in hand.result.fans][:3] == [("平和", 1), ("连六", 2), ("喜相逢", 2)]
    lines[8] = "Fan 11 平和*x"
    (reject,) = read_botzone(lines)
    assert isinstance(reject, Reject) and "malformed fan item" in reject.error


def test_robbed_kong_names_the_konger():
    lines = GOOD.splitlines()
    body = [*lines[:6], "Player 0 Draw J1", "Player 0 Play J1", "Player 1 Peng J1",
            "Player 1 Play T9", "Player 2 Draw W5", "Player 2 Play W5",
            "Player 3 Draw J1", "Player 3 Play J1", "Player 0 Draw W9", "Player 0 Play W5",
            "Player 1 Draw J1", "Player 1 BuGang J1", "Player 2 Hu J1",
            "Fan 9 抢杠和*1+无番和*0", "Score 0 0 0 0"]
    body[-2] = "Fan 9 抢杠和*1"
    (hand,) = read_botzone(body)
    hu = hand.events[-1]
    assert hu.win is WinKind.ROB_KONG and hu.from_seat == 1 and hand.result.loser == 1


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from([
    "Match 0123456789abcdef01234567", "Wind 1", "Player 0 Draw W1", "Player 9 Play W1",
    "Player 1 Deal W1 W2", "", "Huang", "Score 0 0 0 0", "Fan 8 平和*1", "garbage ☃",
    "Player 2 Hu B1 Ignore Player 1 Chi", "Player 3 Chi B2", "Player 3 Peng", "Player",
]), max_size=40), st.booleans())
def test_any_input_is_read_or_rejected_never_crashes(lines, with_good):
    if with_good:
        lines = [*lines, "", *GOOD.splitlines()]
    records = list(read_botzone(lines))
    starts = sum(1 for line in lines if line.startswith("Match "))
    assert len(records) >= starts
    if with_good:
        assert isinstance(records[-1], Hand)
    for r in records:
        if isinstance(r, Reject):
            assert r.line >= 1 and r.error


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from([
        b"Match 0123456789abcdef01234567", b"Wind 1", b"Player 0 Draw W1", b"", b"", b" ", b"\t ",
        b"\r", b"Score 0 0 0 0", b"x\xff", b"Match", b"Matchless",
    ]), max_size=60),
    st.sampled_from([b"\n", b"\r\n"]),
    st.booleans(),
    st.integers(min_value=1, max_value=64),
)
def test_block_splitter_equals_the_line_splitter(lines, newline, final_newline, block):
    """Reading a file in blocks cuts exactly the records (and line numbers) the line-by-line
    reference does, whatever the block size and however blank lines and Match lines fall."""
    import io

    from mjstats.formats import botzone

    data = newline.join(lines) + (newline if final_newline and lines else b"")
    expected = list(botzone._split_lines(botzone._as_bytes(io.BytesIO(data)), 1))  # file lines
    old = botzone._BLOCK
    botzone._BLOCK = block
    try:
        got = list(botzone.split_records(io.BytesIO(data)))
    finally:
        botzone._BLOCK = old
    assert got == expected
