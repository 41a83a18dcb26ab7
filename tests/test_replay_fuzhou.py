"""The Fuzhou replay profile on hand-written records (tests/data/fuzhou/hands.jsonl, scripted in
tests/data/fuzhou/hands.py with every result worked out by hand): clean records audit with no
finding through ``mjstats audit``, seed 003's two worked examples reproduce exactly, and faulted
copies are each flagged with the right check at the right event."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjstats.cli import main
from mjstats.formats.canonical import read_canonical
from mjstats.records import Event, EventKind, Hand, Outcome
from mjstats.replay import CATALOGUE, profile_for, replay_hand
from mjstats.rulesets.fuzhou import load_profile
from mjstats.rulesets.fuzhou.replay import FuzhouSequence, fuzhou_profile
from mjstats.store import SourceInput, ingest_sources, open_dataset
from mjstats.tiles import parse_tile

RECORDS = Path(__file__).resolve().parent / "data" / "fuzhou" / "hands.jsonl"


def load() -> list[Hand]:
    hands = [h for h in read_canonical(RECORDS)]
    assert all(isinstance(h, Hand) for h in hands)
    return hands  # type: ignore[return-value]


HANDS = load()
BY_KEY = {h.key: h for h in HANDS}


def codes(hand: Hand) -> list[str]:
    return [f.check for f in replay_hand(hand).findings]


def with_events(hand: Hand, events: list[Event]) -> Hand:
    return replace(hand, events=tuple(e._replace(seq=i) for i, e in enumerate(events)))


def ingest(out: Path, hands: list[Hand]) -> Path:
    ingest_sources([SourceInput(RECORDS, "canonical", lambda _: iter(hands))], out)
    return out


# --- the clean records ---------------------------------------------------------------------------
def test_records_cover_the_special_hands() -> None:
    assert len(HANDS) >= 10
    wins = Counter(e.win.value for h in HANDS for e in h.events if e.kind is EventKind.HU and e.win)
    assert {"rob_gold", "three_golds", "heavenly"} <= set(wins)
    patterns = {h.result.pattern for h in HANDS}
    assert {"抢金", "三金倒", "金雀", "金龙", "天和"} <= patterns
    assert any(f.name == "抢炮和" for h in HANDS for f in h.result.fans)  # 金雀 over a nearer claim
    assert any(h.result.outcome is Outcome.DRAW for h in HANDS)
    assert all(h.wall is not None for h in HANDS)


@pytest.mark.parametrize("key", sorted(BY_KEY))
def test_each_record_replays_clean(key: tuple[str, int]) -> None:
    hand = BY_KEY[key]
    result = replay_hand(hand)
    assert result.findings == () and result.profile == "seed"
    if hand.result.outcome is Outcome.WIN:
        assert result.win is not None and result.win.payments == hand.result.scores


def test_mjstats_audit_finds_nothing_and_reproduces_the_seed_examples(tmp_path: Path) -> None:
    ds = ingest(tmp_path / "ds", HANDS)
    assert main(["audit", str(ds), "--jobs", "1", "-q", "--fail-on-findings"]) == 0
    data = open_dataset(ds)
    assert len(data.table("findings")) == 0
    audited = data.table("audited_hands")
    assert len(audited) == len(HANDS) and set(audited["status"]) == {"clean"}
    assert set(audited["profile"]) == {"seed"}
    pay = data.table("computed_payments")
    assert (pay["score"] == pay["recorded_score"]).all()

    def paid(match: str, no: int) -> list[int]:
        rows = pay[(pay["match_id"] == match) & (pay["hand_no"] == no)].sort_values("seat")
        return rows["score"].tolist()

    # seed 003 example 1: dealer 三金倒, 4 flower fan, 3 golds, streak 2: (4+3+2+5)x2+40 = 68 each
    ex1 = BY_KEY[("fz-ex1", 3)]
    assert ex1.streak == 2 and ex1.dealer == 2 and ex1.result.pattern == "三金倒"
    assert paid("fz-ex1", 3) == [-68, -68, 204, -68]
    # seed 003 example 2: 金雀 on a discard, 4 flowers, a kong, 2 golds, streak 1: 86
    ex2 = BY_KEY[("fz-streak", 2)]
    assert ex2.streak == 1 and ex2.result.pattern == "金雀" and ex2.result.loser == 3
    assert paid("fz-streak", 2) == [0, 86, 0, -86]
    fans = data.table("computed_fans")
    ex2_fans = fans[(fans["match_id"] == "fz-streak") & (fans["hand_no"] == 2)]
    assert dict(zip(ex2_fans["name"], ex2_fans["count"], strict=True)) == {
        "花番": 5,  # 4 flowers + 1 exposed (added) kong
        "金番": 2,
        "连庄": 1,
        "金雀": 1,
    }


def test_the_records_follow_the_rules_counted_by_hand() -> None:
    """Facts of the records checked without the replayer: the reserve of the exhaustive draw, the
    final draws without discards, the face-up gold as the dealer's last draw in example 1."""
    huang = BY_KEY[("fz-huang", 0)]
    kinds = [e.kind for e in huang.events]
    taken = sum(len(e.tiles) for e in huang.events if e.kind is EventKind.DEAL)
    taken += kinds.count(EventKind.DRAW) + kinds.count(EventKind.GOLD) - 1  # the gold: up, then drawn
    assert kinds.count(EventKind.ANGANG) == 1 and kinds.count(EventKind.GANG) == 1
    seat2 = {e.tile for e in huang.events if e.kind is EventKind.FLOWER and e.seat == 2}
    assert {parse_tile(t) for t in ("H1", "H2", "H3", "H4")} <= seat2  # 春夏秋冬: one group
    assert taken == 144 - (18 + 1 + 2 + 2)  # seed 003: 九墩 + exposed 1 + concealed 2 + group 2
    assert kinds[-5:] == [EventKind.DRAW] * 4 + [EventKind.HUANG]  # the last four: no discard
    # a concealed kong in the final draws (seed 003 allows it): reserve 18 + 2; the face-up gold
    # is turned up but never drawn, so it is still in the wall
    kong = BY_KEY[("fz-kongfinal", 0)]
    kinds = [e.kind for e in kong.events]
    assert kinds[-4:] == [EventKind.DRAW, EventKind.ANGANG, EventKind.DRAW, EventKind.HUANG]
    assert kong.events[-2].tail and kong.events[-5].kind is EventKind.DISCARD
    taken = sum(len(e.tiles) for e in kong.events if e.kind is EventKind.DEAL)
    taken += kinds.count(EventKind.DRAW) + kinds.count(EventKind.GOLD)
    assert taken == 144 - (18 + 2) + 1
    ex1 = BY_KEY[("fz-ex1", 3)]
    last = [e for e in ex1.events if e.kind is EventKind.DRAW][-4:]
    assert [e.seat for e in last] == [3, 0, 1, 2] and last[-1].tile == ex1.gold
    assert ex1.events[-1].kind is EventKind.HU and ex1.events[-2] is last[-1]


def test_user_and_platform_profiles_via_the_command_line(tmp_path: Path) -> None:
    ds = ingest(tmp_path / "ds", HANDS)
    club = tmp_path / "club.toml"
    club.write_text('base = "seed"\nname = "club"\n', encoding="utf-8")  # the seed rules renamed
    assert main(["audit", str(ds), "--jobs", "1", "-q", "--profile", str(club), "--fail-on-findings"]) == 0
    assert set(open_dataset(ds).table("audited_hands")["profile"]) == {"club"}
    # the platform profile scores differently (no +5 base, 40-point 天和 ...): findings
    assert main(["audit", str(ds), "--jobs", "1", "-q", "--profile", "platform"]) == 0
    data = open_dataset(ds)
    assert set(data.table("audited_hands")["profile"]) == {"platform"}
    assert "result.scores" in set(data.table("findings")["check"])


def test_hands_of_an_unknown_rule_profile_are_unsupported_until_named(tmp_path: Path) -> None:
    hands = [replace(h, profile="club") for h in HANDS]
    ds = ingest(tmp_path / "ds", hands)
    assert main(["audit", str(ds), "--jobs", "1", "-q"]) == 0
    assert set(open_dataset(ds).table("audited_hands")["status"]) == {"unsupported"}


def test_registered_profiles() -> None:
    assert profile_for(HANDS[0]).name == "seed"
    assert profile_for(replace(HANDS[0], profile="platform")).rules == load_profile("platform")
    assert all(code in CATALOGUE for code in ("fuzhou.reserve", "fuzhou.streak", "fuzhou.pattern"))


# --- faulted copies -----------------------------------------------------------------------------
def first_finding(hand: Hand) -> tuple[int | None, str]:
    findings = replay_hand(hand).findings
    assert findings, "the fault went unnoticed"
    return findings[0].seq, findings[0].check


def index_of(hand: Hand, test: Callable[[Event], bool]) -> int:
    return next(i for i, e in enumerate(hand.events) if test(e))


def test_claiming_a_discarded_gold() -> None:
    hand = BY_KEY[("fz-ex1", 3)]
    i = index_of(hand, lambda e: e.kind is EventKind.DISCARD and e.tile == hand.gold)
    assert hand.events[i].seat == 1
    events = list(hand.events)
    # the dealer, holding two golds, pungs seat 1's discarded gold and discards
    events[i + 1 : i + 1] = [
        Event(0, EventKind.PENG, 2, hand.gold, from_seat=1),
        Event(0, EventKind.DISCARD, 2, parse_tile("W1")),
    ]
    assert first_finding(with_events(hand, events)) == (i + 1, "fuzhou.gold_claimed")


def test_winning_on_a_discarded_gold_and_after_discarding_one() -> None:
    hand = BY_KEY[("fz-ex1", 2)]
    events = list(hand.events)
    hu = index_of(hand, lambda e: e.kind is EventKind.HU)
    # seat 3 discards a gold instead of 七条 and the dealer wins on it
    events[hu - 1] = events[hu - 1]._replace(tile=hand.gold)
    events[hu - 2] = events[hu - 2]._replace(tile=hand.gold)
    events[hu] = events[hu]._replace(tile=hand.gold)
    assert "fuzhou.gold_claimed" in codes(with_events(hand, events[: hu + 1]))
    # the dealer discards a gold first: afterwards it may win only by self-draw (seed profile)
    events = list(hand.events)
    first = index_of(hand, lambda e: e.kind is EventKind.DISCARD)
    deal = events[0]
    tiles = list(deal.tiles)
    tiles[tiles.index(parse_tile("W1"))] = hand.gold  # a third gold dealt in place of 一万
    events[0] = deal._replace(tiles=tuple(tiles))
    events[first] = events[first]._replace(tile=hand.gold)
    found = codes(replace(with_events(hand, events), wall=None))
    assert "fuzhou.gold_discard_win" in found


def test_drawing_into_the_reserve() -> None:
    hand = BY_KEY[("fz-huang", 0)]
    assert hand.wall is not None
    events = list(hand.events)
    used = sum(len(e.tiles) for e in events if e.kind is EventKind.DEAL)
    front = used + sum(1 for e in events if e.kind is EventKind.DRAW and not e.tail) - 1  # gold
    extra = Event(0, EventKind.DRAW, 3, hand.wall[front])  # the next seat draws a reserve tile
    events.insert(len(events) - 1, extra)
    faulted = with_events(hand, events)
    assert codes(faulted) == ["fuzhou.reserve"]
    # and without the wall the count alone finds it
    assert codes(replace(faulted, wall=None)) == ["fuzhou.reserve"]


def test_huang_before_the_wall_is_exhausted_and_a_discard_in_the_final_draws() -> None:
    hand = BY_KEY[("fz-huang", 0)]
    events = list(hand.events)
    cut = len(events) - 5  # drop the four final draws: Huang with four drawable tiles
    assert codes(with_events(hand, [*events[:cut], events[-1]])) == ["draw.not_exhausted"]
    # a flower drawn in the final draws is set aside without replacement
    flower = parse_tile("H8")
    drawn = events[-4]
    faulted = with_events(
        hand,
        [
            *events[:-4],
            drawn._replace(tile=flower),
            Event(0, EventKind.FLOWER, drawn.seat, flower),
            Event(0, EventKind.DRAW, drawn.seat, drawn.tile, tail=True),
            *events[-3:],
        ],
    )
    assert first_finding(replace(faulted, wall=None)) == (len(events) - 2, "fuzhou.final_draw")
    final = len(events) - 4  # the second of the four final draws
    discard = Event(0, EventKind.DISCARD, events[final - 1].seat, events[final - 1].tile)
    faulted = with_events(hand, [*events[:final], discard, *events[final:]])
    assert first_finding(faulted) == (final, "fuzhou.final_draw")


def test_wrong_streak() -> None:
    hand = BY_KEY[("fz-ex1", 3)]
    check = FuzhouSequence(load_profile("seed"))
    match = [h for h in HANDS if h.match_id == "fz-ex1"]
    assert [f for h in match for f in check.check(h)] == []
    check = FuzhouSequence(load_profile("seed"))
    faulted = [*match[:3], replace(hand, streak=1)]
    found = [f for h in faulted for f in check.check(h)]
    assert [(f.hand_no, f.check, f.expected, f.recorded) for f in found] == [(3, "fuzhou.streak", "2", "1")]
    # 站顶 adds nothing: the dealer's second hand still has streak 0
    check = FuzhouSequence(load_profile("seed"))
    found = [f for h in (match[0], replace(match[1], streak=1)) for f in check.check(h)]
    assert [f.check for f in found] == ["fuzhou.streak"]


def test_wrong_streak_through_the_audit(tmp_path: Path) -> None:
    hands = [replace(h, streak=3) if h.key == ("fz-ex1", 3) else h for h in HANDS]
    ds = ingest(tmp_path / "ds", hands)
    assert main(["audit", str(ds), "--jobs", "1", "-q"]) == 0
    found = open_dataset(ds).table("findings")
    assert set(found["match_id"]) == {"fz-ex1"} and set(found["hand_no"]) == {3}
    assert "fuzhou.streak" in set(found["check"])
    assert "result.scores" in set(found["check"])  # the recorded 204 no longer follows


def test_wrong_dealer_rotation() -> None:
    match = [h for h in HANDS if h.match_id == "fz-streak"]
    check = FuzhouSequence(load_profile("seed"))
    faulted = [*match[:3], replace(match[3], dealer=0)]  # seat 1 won hand 2: seat 1 deals next
    found = [f for h in faulted for f in check.check(h)]
    assert [(f.hand_no, f.check) for f in found] == [(3, "fuzhou.dealer")]
    huang = [h for h in HANDS if h.match_id == "fz-huang"]
    check = FuzhouSequence(load_profile("seed"))
    assert [f for h in huang for f in check.check(h)] == []  # a draw keeps dealer and streak
    check = FuzhouSequence(load_profile("platform"))  # platform: a draw adds 1 ... after 站顶 only
    assert [f for h in huang for f in check.check(h)] == []


def test_wrong_pattern_and_wrong_payment() -> None:
    hand = BY_KEY[("fz-streak", 2)]
    assert codes(replace(hand, result=replace(hand.result, pattern="金龙"))) == ["fuzhou.pattern"]
    scores = (0, 90, 0, -90)
    assert codes(replace(hand, result=replace(hand.result, scores=scores))) == ["result.scores"]
    fans = tuple(replace(f, points=120) if f.name == "金雀" else f for f in hand.result.fans)
    assert codes(replace(hand, result=replace(hand.result, fans=fans))) == ["fuzhou.pattern"]


def test_robbing_the_gold_out_of_priority() -> None:
    hand = BY_KEY[("fz-streak", 3)]
    events = list(hand.events)
    events[-1] = events[-1]._replace(seat=3)  # seat 3 robs, but seat 2 is nearer the dealer
    faulted = replace(hand, events=tuple(events), result=replace(hand.result, winner=3))
    assert first_finding(faulted) == (len(events) - 1, "fuzhou.rob_gold")
    events[-1] = events[-1]._replace(seat=1)  # the dealer robs: a non-dealer comes first
    faulted = replace(hand, events=tuple(events), result=replace(hand.result, winner=1))
    assert "fuzhou.rob_gold" in codes(faulted)


def test_a_nearer_claimant_wins_unless_the_other_holds_golden_pair() -> None:
    hand = BY_KEY[("fz-ex1", 2)]
    events = list(hand.events)
    hu, ignored = events[-2], events[-1]
    assert hu.kind is EventKind.HU and ignored.kind is EventKind.IGNORED
    # the record says seat 0 won and the 金雀 dealer was passed over: wrong priority
    events[-2:] = [hu._replace(seat=0), ignored._replace(seat=2)]
    faulted = replace(hand, events=tuple(events), result=replace(hand.result, winner=0))
    assert "claim.priority" in codes(faulted)


def test_flower_order_gold_identity_draw_end_and_kong_timing() -> None:
    ex2 = BY_KEY[("fz-streak", 2)]
    events = list(ex2.events)
    first_flower = index_of(ex2, lambda e: e.kind is EventKind.FLOWER)
    # a replacement drawn before the flower is set aside
    events[first_flower], events[first_flower + 3] = events[first_flower + 3], events[first_flower]
    assert first_finding(with_events(ex2, events))[1] == "fuzhou.flower_order"
    # Hand.gold not the tile turned up
    assert codes(replace(ex2, gold=parse_tile("T5"))) == ["fuzhou.gold_identity"]
    # a flower turned up as gold goes to the dealer (s), with no replacement draw
    ex = BY_KEY[("fz-ex1", 0)]
    g = index_of(ex, lambda e: e.kind is EventKind.GOLD)
    assert ex.events[g].seat == ex.dealer and ex.events[g + 1].kind is EventKind.GOLD
    events = list(ex.events)
    events[g] = events[g]._replace(seat=3)
    assert codes(with_events(ex, events)) == ["fuzhou.gold_identity"]
    events = list(ex.events)
    events.insert(g + 1, Event(0, EventKind.DRAW, ex.dealer, parse_tile("W9"), tail=True))
    assert first_finding(replace(with_events(ex, events), wall=None)) == (g + 1, "fuzhou.gold_identity")
    # a kong replacement drawn from the front
    events = list(ex2.events)
    k = index_of(ex2, lambda e: e.kind is EventKind.BUGANG)
    events[k + 1] = events[k + 1]._replace(tail=False)
    assert first_finding(with_events(ex2, events)) == (k + 1, "fuzhou.draw_end")
    # a kong in the turn of the pung (the fourth 七条 moved into the pung turn)
    events = list(ex2.events)
    p = index_of(ex2, lambda e: e.kind is EventKind.PENG)
    events.insert(p + 1, Event(0, EventKind.BUGANG, 1, parse_tile("T7")))
    assert "fuzhou.kong_timing" in codes(replace(with_events(ex2, events), wall=None))


def test_three_golds_without_three_golds() -> None:
    hand = BY_KEY[("fz-huang", 1)]
    events = list(hand.events)
    seen = Counter(t for e in events for t in (*e.tiles, *([e.tile] if e.tile is not None else [])))
    other = next(t for t in range(27) if seen[t] < 3)  # a tile with a copy left: not a gold
    events[-2] = events[-2]._replace(tile=parse_tile(other))
    events[-1] = events[-1]._replace(tile=parse_tile(other))
    faulted = replace(hand, events=tuple(events), wall=None)
    assert first_finding(faulted) == (len(events) - 1, "fuzhou.three_golds")


# --- any missing event is noticed ------------------------------------------------------------------
DROPPABLE = [(h.key, i) for h in HANDS for i, e in enumerate(h.events) if e.kind is not EventKind.IGNORED]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(DROPPABLE))
def test_dropping_any_event_gives_a_finding(case: tuple[tuple[str, int], int]) -> None:
    key, i = case
    hand = BY_KEY[key]
    events = [e for j, e in enumerate(hand.events) if j != i]
    assert replay_hand(with_events(hand, events)).findings


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(DROPPABLE),
    st.sampled_from(["tile", "seat", "twice", "tail"]),
    st.integers(0, 41),
    st.booleans(),
)
def test_damaged_records_give_findings_never_a_crash(
    case: tuple[tuple[str, int], int], how: str, value: int, keep_wall: bool
) -> None:
    key, i = case
    hand = BY_KEY[key]
    events = list(hand.events)
    e = events[i]
    if how == "tile":
        events[i] = e._replace(tile=parse_tile(value))
    elif how == "seat":
        events[i] = e._replace(seat=value % 4)
    elif how == "twice":
        events.insert(i, e)
    else:
        events[i] = e._replace(tail=not e.tail)
    damaged = with_events(hand, events)
    result = replay_hand(damaged if keep_wall else replace(damaged, wall=None))  # never raises
    other_draw = how == "tile" and e.kind is EventKind.DRAW and e.tile != value
    if how == "twice" or (keep_wall and other_draw):
        assert result.findings  # one event too many, or a drawn tile that is not the wall's


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(BY_KEY)), st.integers(0, 3))
def test_profiles_are_recorded_with_every_replay(key: tuple[str, int], pick: int) -> None:
    rules = ("seed", "platform")[pick % 2]
    result = replay_hand(BY_KEY[key], fuzhou_profile(rules))
    assert result.profile == rules
