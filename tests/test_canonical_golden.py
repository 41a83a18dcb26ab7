"""Golden canonical files: a Guobiao hand (kongs, a robbed kong, ignored claims), two Fuzhou
hands (flowers, tail draws, a flower turned up as gold, 三金倒 with a dealer streak, 抢金) and a
file of bad lines with the rejects they must give."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from mjstats.formats.canonical import hand_to_json, read_canonical
from mjstats.records import EventKind, Hand, Outcome, Reject, WinKind
from mjstats.tiles import parse_tile, parse_tiles

DATA = Path(__file__).parent / "data" / "canonical"
K = EventKind


def _hands(name: str) -> list[Hand]:
    items = list(read_canonical(DATA / name))
    assert all(isinstance(h, Hand) for h in items), items
    return items  # type: ignore[return-value]


@pytest.mark.parametrize("name", ["guobiao.jsonl", "fuzhou.jsonl"])
def test_golden_files_rewrite_byte_identical(name: str) -> None:
    lines = (DATA / name).read_bytes().splitlines(keepends=True)
    hands = _hands(name)
    assert len(hands) == len(lines)
    for hand, line in zip(hands, lines, strict=True):
        if json.loads(line).get("source") is None:
            continue  # its provenance is now this file: checked in the Fuzhou test below
        assert (hand_to_json(hand) + "\n").encode("utf-8") == line


def _replay_counts(hand: Hand) -> list[Counter]:
    """Tiles each seat holds after every event: checks the golden hands are consistent."""
    held = [Counter() for _ in range(4)]
    for e in hand.events:
        if e.kind is K.DEAL:
            held[e.seat].update(e.tiles)
        elif e.kind is K.DRAW:
            held[e.seat][e.tile] += 1
        elif e.kind in (K.DISCARD, K.FLOWER):
            held[e.seat][e.tile] -= 1
        elif e.kind is K.CHI:
            for t in (e.tile - 1, e.tile, e.tile + 1):
                if t != e.claimed:
                    held[e.seat][parse_tile(t)] -= 1
        elif e.kind is K.PENG:
            held[e.seat][e.tile] -= 2
        elif e.kind is K.GANG:
            held[e.seat][e.tile] -= 3
        elif e.kind is K.ANGANG:
            held[e.seat][e.tile] -= 4
        elif e.kind is K.BUGANG:
            held[e.seat][e.tile] -= 1
        assert all(n >= 0 for c in held for n in c.values()), (e, held)
    return held


def test_guobiao_golden_hand() -> None:
    (hand,) = _hands("guobiao.jsonl")
    assert (hand.ruleset, hand.profile, hand.dealer, hand.prevalent_wind) == (
        "guobiao", "botzone", 0, 1)
    # provenance is the file read; the recorded source is the hand's origin
    assert (hand.provenance.source, hand.provenance.line) == (str(DATA / "guobiao.jsonl"), 1)
    assert (hand.origin.source, hand.origin.line) == ("data.txt", 1203)
    kinds = [e.kind for e in hand.events]
    assert kinds[:4] == [K.DEAL] * 4 and all(len(e.tiles) == 13 for e in hand.events[:4])
    for kind in (K.ANGANG, K.GANG, K.PENG, K.BUGANG, K.IGNORED, K.HU):
        assert kind in kinds
    ignored = [(e.seat, e.tile, e.claim) for e in hand.events if e.kind is K.IGNORED]
    assert ignored == [(3, parse_tile("T2"), "chi"), (2, parse_tile("B3"), "chi")]
    gang = next(e for e in hand.events if e.kind is K.GANG)
    assert (gang.seat, gang.tile, gang.from_seat) == (1, parse_tile("T2"), 2)
    # an ignored claim shares the source line of the claim that beat it (Botzone's Ignore clause)
    after = hand.events[gang.seq + 1]
    assert after.kind is K.IGNORED and after.line == gang.line
    hu = hand.events[-1]
    assert hand.events[-2].kind is K.BUGANG
    assert (hu.seat, hu.tile, hu.from_seat, hu.win) == (0, parse_tile("B2"), 3, WinKind.ROB_KONG)
    r = hand.result
    assert (r.outcome, r.winner, r.loser, r.win_tile, r.self_drawn, r.fan_total) == (
        Outcome.WIN, 0, 3, parse_tile("B2"), False, 14)
    assert [f.name for f in r.fans] == ["抢杠和", "门前清", "双暗刻", "喜相逢", "幺九刻"]
    assert r.scores == (38, -8, -8, -22) and sum(r.scores) == 0
    held = _replay_counts(hand)
    assert sorted(held[0].elements()) == sorted(parse_tiles("W1 W1 W1 W2 W3 W4 T5 T5 T5 B3 B4 F1 F1"))


def test_guobiao_golden_fans_match_the_reference_calculator() -> None:
    mahjong_gb = pytest.importorskip("MahjongGB")
    (hand,) = _hands("guobiao.jsonl")
    held = _replay_counts(hand)[0]
    fans = mahjong_gb.MahjongFanCalculator(
        pack=(), hand=tuple(t.botzone for t in sorted(held.elements())), winTile="B2",
        flowerCount=0, isSelfDrawn=False, is4thTile=True, isAboutKong=True, isWallLast=False,
        seatWind=0, prevalentWind=hand.prevalent_wind)
    assert sum(points for points, _ in fans) == hand.result.fan_total
    assert [name for _, name in fans] == [f.name for f in hand.result.fans]


def test_fuzhou_golden_three_golds_with_streak() -> None:
    hand, _ = _hands("fuzhou.jsonl")
    assert (hand.ruleset, hand.profile, hand.dealer, hand.streak, hand.hand_no) == (
        "fuzhou", "seed", 1, 2, 3)
    assert hand.gold == parse_tile("T7")
    assert hand.players == ("林一", "陈二", "黄三", "郑四")
    assert hand.dice == (3, 5) and hand.started_at == "2019-06-01T20:15:03+08:00"
    assert hand.period == "2019-06"
    assert hand.meta == (("room", "福州麻将 · 8 局"), ("table", "17"))
    assert (hand.provenance.source, hand.provenance.line) == (str(DATA / "fuzhou.jsonl"), 1)
    assert (hand.origin.source, hand.origin.line) == ("fuzhou/2019-06.log", 41)
    deals = [e for e in hand.events if e.kind is K.DEAL]
    assert [len(e.tiles) for e in deals] == [17, 16, 16, 16] and deals[0].seat == hand.dealer
    flowers = [e for e in hand.events if e.kind is K.FLOWER]
    assert all(e.tile.is_flower or e.tile.is_honour for e in flowers)
    # every flower set aside is followed (within its replacement round) by a tail draw
    tail_draws = [e for e in hand.events if e.kind is K.DRAW and e.tail]
    assert len(tail_draws) == len(flowers) == 7
    golds = [e for e in hand.events if e.kind is K.GOLD]
    assert [(e.seat, e.tile.botzone) for e in golds] == [(1, "H5"), (None, "T7")]
    hu = hand.events[-1]
    assert (hu.kind, hu.seat, hu.win) == (K.HU, 1, WinKind.THREE_GOLDS)
    assert _replay_counts(hand)[1][hand.gold] == 3
    r = hand.result
    assert (r.pattern, r.self_drawn, r.winner, r.loser) == ("三金倒", True, 1, None)
    # seed 003, worked example 1: (4 flowers + 3 golds + streak 2 + 5) x 2 + 40 = 68 from each
    fan = {f.name: f.count for f in r.fans}
    assert (fan["花番"] + fan["金番"] + fan["连庄"] + 5) * 2 + 40 == 68
    assert r.scores == (-68, 204, -68, -68)


def test_fuzhou_golden_rob_gold_without_source() -> None:
    _, hand = _hands("fuzhou.jsonl")
    # no "source" in the line: the hand comes from the canonical file itself, line 2
    assert hand.provenance.source == str(DATA / "fuzhou.jsonl") and hand.provenance.line == 2
    assert hand.origin is None
    assert hand.styles == ("defensive", "aggressive", "balanced", "random")
    assert [e.kind for e in hand.events][-3:] == [K.GOLD, K.DISCARD, K.HU]
    assert hand.events[-1].win is WinKind.ROB_GOLD and hand.events[-1].tile == hand.gold
    assert all(e.line is None for e in hand.events)
    line = (DATA / "fuzhou.jsonl").read_text(encoding="utf-8").splitlines()[1]
    again = json.loads(hand_to_json(hand))
    assert again.pop("source") == {"file": str(DATA / "fuzhou.jsonl"), "line": 2}
    assert again == json.loads(line)


def test_bad_lines_give_the_expected_rejects() -> None:
    items = list(read_canonical(DATA / "bad.jsonl", name="bad.jsonl"))
    expected = [json.loads(x) for x in (DATA / "bad.rejects.jsonl").read_text("utf-8").splitlines()]
    rejects = [x for x in items if isinstance(x, Reject)]
    good = [x for x in items if isinstance(x, Hand)]
    got = [{"line": r.line, "match_id": r.match_id, "error": r.error} for r in rejects]
    assert got == expected
    assert [h.provenance.line for h in good] == [1, 39]  # reading went on to the last line
    lines = (DATA / "bad.jsonl").read_bytes().split(b"\n")
    blank = {i for i, b in enumerate(lines[:-1], 1) if not b.strip()}
    # every non-blank line is either a hand or a reject: nothing dropped
    assert {r.line for r in rejects} | {1, 39} | blank == set(range(1, len(lines)))
    for r in rejects:
        assert r.source == "bad.jsonl" and r.raw
        assert r.raw == lines[r.line - 1].decode("utf-8", "backslashreplace")


def test_the_spec_examples_are_the_golden_hands() -> None:
    """docs/format.md shows the golden hands; they must not drift apart."""
    spec = (Path(__file__).parents[1] / "docs" / "format.md").read_text("utf-8")
    pretty = re.findall(r"```json\n(.*?)\n```", spec, re.S)
    golden = [*(DATA / "guobiao.jsonl").read_text("utf-8").splitlines(),
              *(DATA / "fuzhou.jsonl").read_text("utf-8").splitlines()]
    assert [json.loads(p) for p in pretty] == [json.loads(g) for g in golden[:2]]
    assert f"```\n{golden[2]}\n```" in spec  # the 抢金 line, byte for byte
