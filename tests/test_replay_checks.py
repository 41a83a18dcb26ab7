"""One test per check of the catalogue: a real hand edited to break exactly that rule."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjstats.records import Event, EventKind, Hand, Outcome, Result
from mjstats.replay import CATALOGUE, Severity, replay_hand
from mjstats.rulesets.guobiao.replay_botzone import BotzoneProfile
from mjstats.tiles import ALL_KINDS, parse_tile
from tests.faults import _with_events
from tests.test_replay_oracle import ORACLE, oracle_win, sample_hands

HANDS = sample_hands()
PENG_IGNORE_CHI = HANDS[0]  # Player 0 Peng W9 Ignore Player 3 Chi W8
HU_IGNORE_PENG = HANDS[1]  # Player 1 Hu B6 Ignore Player 0 Peng B6 (discarder 2)
HU_IGNORE_HU = HANDS[9]  # Player 0 Hu W7 Ignore Player 2 Hu W7 (discarder 3)
KONGS = HANDS[10]  # Gang F2, BuGang W9, AnGang B8
HUANG = HANDS[13]


def codes(hand: Hand) -> list[str]:
    return [f.check for f in replay_hand(hand, ORACLE).findings]


def index(hand: Hand, kind: EventKind, nth: int = 0) -> int:
    return [i for i, e in enumerate(hand.events) if e.kind is kind][nth]


def edit(hand: Hand, i: int, **changes: object) -> Hand:
    events = list(hand.events)
    events[i] = events[i]._replace(**changes)
    return _with_events(hand, events)


def insert(hand: Hand, i: int, *new: Event) -> Hand:
    events = list(hand.events)
    return _with_events(hand, [*events[:i], *new, *events[i:]])


def delete(hand: Hand, i: int) -> Hand:
    events = list(hand.events)
    return _with_events(hand, events[:i] + events[i + 1 :])


def test_every_check_has_a_severity_a_title_and_a_rule() -> None:
    for code, check in CATALOGUE.items():
        assert check.code == code and check.title and check.rule
        assert check.severity in (Severity.ERROR, Severity.WARNING, Severity.INFO)


def test_deal_of_twelve_tiles() -> None:
    deal = HANDS[2].events[1]
    assert "deal.size" in codes(edit(HANDS[2], 1, tiles=deal.tiles[:-1]))


def test_flower_in_a_botzone_deal() -> None:
    deal = HANDS[2].events[1]
    assert "tile.not_allowed" in codes(edit(HANDS[2], 1, tiles=(parse_tile("H1"), *deal.tiles[1:])))


def test_draw_by_the_wrong_seat() -> None:
    i = index(HANDS[3], EventKind.DRAW, 5)
    seat = HANDS[3].events[i].seat
    assert "turn.order" in codes(edit(HANDS[3], i, seat=(seat + 2) % 4))


def test_draw_beyond_the_wall() -> None:
    last = HUANG.events[-2]
    assert last.kind is EventKind.DISCARD
    drawer = (last.seat + 1) % 4
    tile = parse_tile("W5")
    hand = insert(
        HUANG,
        len(HUANG.events) - 1,
        Event(0, EventKind.DRAW, drawer, tile),
        Event(0, EventKind.DISCARD, drawer, tile),
    )
    assert "wall.overdrawn" in codes(hand)
    assert "draw.not_exhausted" not in codes(HUANG)


def test_truncated_record_and_event_after_the_end() -> None:
    hand = HANDS[4]
    assert "hand.end" in codes(replace(hand, events=hand.events[:-3]))
    extra = Event(0, EventKind.DRAW, 0, parse_tile("W1"))
    late = insert(hand, len(hand.events), extra)
    result = replay_hand(late, ORACLE)
    assert [f.check for f in result.findings] == ["hand.end", "replay.stopped"]
    assert result.stopped and result.status == "stopped"


def test_peng_of_a_tile_that_was_not_discarded() -> None:
    i = index(PENG_IGNORE_CHI, EventKind.PENG)
    assert "claim.target" in codes(edit(PENG_IGNORE_CHI, i, tile=parse_tile("W8")))


def test_claim_of_ones_own_discard_and_without_the_tiles() -> None:
    i = index(PENG_IGNORE_CHI, EventKind.PENG)
    ev = PENG_IGNORE_CHI.events[i]
    found = codes(edit(PENG_IGNORE_CHI, i, seat=ev.from_seat))
    assert "claim.own_discard" in found and "claim.not_held" in found


def test_chi_that_is_not_a_run_stops_the_replay() -> None:
    i = index(HANDS[0], EventKind.CHI)
    result = replay_hand(edit(HANDS[0], i, tile=parse_tile("J2")), ORACLE)
    assert [f.check for f in result.findings] == ["claim.target", "replay.stopped"]


def test_peng_on_the_last_discard() -> None:
    last = HUANG.events[-2]
    peng = Event(0, EventKind.PENG, (last.seat + 2) % 4, last.tile, from_seat=last.seat)
    assert "claim.last_discard" in codes(insert(HUANG, len(HUANG.events) - 1, peng))


def test_ignored_claim_of_higher_priority() -> None:
    i = index(PENG_IGNORE_CHI, EventKind.IGNORED)
    assert "claim.priority" in codes(edit(PENG_IGNORE_CHI, i, claim="hu"))
    # equal claims (Hu, Hu): the seat nearer after the discarder must win
    hu, ignored = index(HU_IGNORE_HU, EventKind.HU), index(HU_IGNORE_HU, EventKind.IGNORED)
    swapped = edit(edit(HU_IGNORE_HU, hu, seat=2), ignored, seat=0)
    assert "claim.priority" in codes(swapped)
    assert "claim.priority" in codes(
        edit(HU_IGNORE_PENG, index(HU_IGNORE_PENG, EventKind.IGNORED), claim="hu")
    )


def test_impossible_ignored_claim_is_a_warning() -> None:
    i = index(PENG_IGNORE_CHI, EventKind.IGNORED)
    findings = replay_hand(edit(PENG_IGNORE_CHI, i, seat=1), ORACLE).findings
    assert [(f.check, f.severity) for f in findings] == [("claim.ignored_illegal", Severity.WARNING)]


def test_kong_without_replacement_draw() -> None:
    i = index(KONGS, EventKind.GANG)
    assert KONGS.events[i + 1].kind is EventKind.DRAW
    assert "kong.replacement" in codes(delete(KONGS, i + 1))


def test_added_kong_without_a_pung() -> None:
    i = index(KONGS, EventKind.BUGANG)
    assert "kong.added" in codes(edit(KONGS, i, tile=KONGS.events[i - 1].tile))


def test_concealed_kong_without_four_tiles() -> None:
    i = index(KONGS, EventKind.ANGANG)
    assert "tile.not_held" in codes(edit(KONGS, i, tile=parse_tile("B9")))


def test_win_right_after_a_pung() -> None:
    i = index(PENG_IGNORE_CHI, EventKind.PENG)
    seat = PENG_IGNORE_CHI.events[i].seat
    hand = insert(PENG_IGNORE_CHI, i + 1, Event(0, EventKind.HU, seat, parse_tile("W9")))
    assert "win.timing" in codes(hand)


def test_recorded_result_against_the_events() -> None:
    hand = HANDS[5]
    result = hand.result
    assert "win.tile" in codes(replace(hand, result=replace(result, win_tile=parse_tile("J3"))))
    other = (result.winner + 1) % 4
    assert "result.outcome" in codes(replace(hand, result=replace(result, winner=other)))
    assert "result.outcome" in codes(replace(HUANG, result=replace(result)))


def test_minimum_is_enforced() -> None:
    def strict(ctx):  # the oracle's value, but a 20-fan minimum: plumbing of meets_minimum
        win = oracle_win(ctx)
        return replace(win, meets_minimum=win.total >= 20)

    profile = BotzoneProfile(calculator=strict)
    flagged = {
        h.match_id for h in HANDS if any(f.check == "win.minimum" for f in replay_hand(h, profile).findings)
    }
    expected = {h.match_id for h in HANDS if h.result.outcome is Outcome.WIN and h.result.fan_total < 20}
    assert flagged == expected and flagged


def test_huang_with_tiles_left() -> None:
    hand = HANDS[0]
    i = index(hand, EventKind.DISCARD, 10)
    cut = _with_events(hand, [*hand.events[: i + 1], Event(0, EventKind.HUANG)])
    cut = replace(cut, result=Result(Outcome.DRAW, scores=(0, 0, 0, 0)))
    assert codes(cut) == ["draw.not_exhausted"]


def test_every_sample_hand_is_clean_with_the_oracle() -> None:
    assert [codes(h) for h in HANDS] == [[]] * 16


# --- properties ----------------------------------------------------------------------------------
@settings(max_examples=150, deadline=None)
@given(st.sampled_from(HANDS), st.data())
def test_cutting_a_hand_short_never_crashes_and_is_reported(hand: Hand, data: st.DataObject) -> None:
    cut = data.draw(st.integers(0, len(hand.events) - 1))
    found = codes(replace(hand, events=hand.events[:cut]))
    if all(e.kind is EventKind.IGNORED for e in hand.events[cut:]):
        assert found == []  # only the losing claims after the Hu were dropped
    else:
        assert "hand.end" in found or "deal.size" in found


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(HANDS), st.data())
def test_no_event_can_be_deleted_unnoticed(hand: Hand, data: st.DataObject) -> None:
    i = data.draw(st.sampled_from([i for i, e in enumerate(hand.events) if e.kind is not EventKind.IGNORED]))
    assert codes(delete(hand, i)), f"deleting {hand.events[i]} went unnoticed"


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(HANDS), st.permutations(range(4)))
def test_any_reordering_of_scores_is_caught_unless_equal(hand: Hand, order: list[int]) -> None:
    scores = hand.result.scores
    permuted = tuple(scores[i] for i in order)
    found = codes(replace(hand, result=replace(hand.result, scores=permuted)))
    assert ("result.scores" in found) == (permuted != scores)


@pytest.mark.parametrize("hand", HANDS, ids=lambda h: h.match_id[-4:])
def test_turn_states_follow_every_event(hand: Hand) -> None:
    result = replay_hand(hand, ORACLE, explain=True)
    assert [t.seq for t in result.turns] == [e.seq for e in hand.events]
    final = result.turns[-1]
    held = [len(c) + 3 * len(m) for c, m in zip(final.concealed, final.melds, strict=True)]
    assert sorted(held)[:3] == [13, 13, 13]


def test_exhaustive_draws_have_no_computed_win() -> None:
    for hand in (HANDS[13], HANDS[15]):
        result = replay_hand(hand, ORACLE)
        assert result.win is None and result.context is None and result.status == "clean"


def test_docs_list_every_check_with_its_severity() -> None:
    docs = Path(__file__).resolve().parent.parent / "docs" / "audit.md"
    rows = {}
    for line in docs.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0].startswith("`") and cells[1] in ("error", "warning", "info"):
            rows[cells[0].strip("`")] = cells[1]
    assert rows == {code: check.severity.value for code, check in CATALOGUE.items()}


def test_hands_of_an_unregistered_platform_are_not_replayed_with_botzone_rules() -> None:
    from mjstats.errors import ProfileError

    other = replace(HANDS[0], profile="tenhou-like")
    with pytest.raises(ProfileError, match="no replay profile for guobiao/tenhou-like"):
        replay_hand(other)
    assert replay_hand(other, ORACLE).findings == ()  # an explicit profile still works


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(HANDS), st.data())
def test_any_discard_of_a_tile_not_held_is_caught(hand: Hand, data: st.DataObject) -> None:
    i = data.draw(st.sampled_from([i for i, e in enumerate(hand.events) if e.kind is EventKind.DISCARD]))
    seat = hand.events[i].seat
    before = replay_hand(replace(hand, events=hand.events[:i]), ORACLE, explain=True).turns[-1]
    held = set(before.concealed[seat])
    absent = data.draw(st.sampled_from([t for t in range(34) if t not in held]))
    assert "tile.not_held" in codes(edit(hand, i, tile=ALL_KINDS[absent]))


def test_replaced_handlers_are_called_and_own_ones_run_direct() -> None:
    """The replay calls its own discard, draw and claim methods directly while its handlers dict
    still holds them (``HandReplay.own_handlers``); a handler replaced in the dict (a listener,
    a subclass) is called for every event of its kind instead, with the same findings."""
    hand = PENG_IGNORE_CHI
    profile = BotzoneProfile()
    replay_class = profile.replay_class
    fresh = replay_class(hand, profile, False)
    assert fresh.own_handlers()
    expected = fresh.run()
    heard: dict[EventKind, int] = {}
    replay = replay_class(hand, profile, False)
    for kind in (EventKind.DISCARD, EventKind.DRAW, EventKind.PENG):
        own = replay.handlers[kind]

        def listener(ev: Event, own: object = own) -> None:
            heard[ev.kind] = heard.get(ev.kind, 0) + 1
            own(ev)  # type: ignore[operator]

        replay.handlers[kind] = listener
        assert not replay.own_handlers()
    got = replay.run()
    assert heard == {k: sum(e.kind is k for e in hand.events)
                     for k in (EventKind.DISCARD, EventKind.DRAW, EventKind.PENG)}  # fmt: skip
    assert heard[EventKind.DISCARD] > 10 and heard[EventKind.PENG] >= 1
    assert got.findings == expected.findings and got.win == expected.win
