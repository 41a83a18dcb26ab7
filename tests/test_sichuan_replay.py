"""The Sichuan audit: the nine worked examples of reference sichuan.md §6 as canonical hands
replay clean with every payment equal to the reference's tables (tests/data/sichuan/), and a
record breaking each check of §7 is flagged by that check (one case per check)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import pytest

from mjstats.formats.canonical import hand_from_json, read_canonical
from mjstats.records import Event, EventKind, Hand, Payment, PaymentReason, Result
from mjstats.replay import replay_hand
from mjstats.rulesets.sichuan import load_profile
from mjstats.rulesets.sichuan.replay import SichuanSequence, next_dealer_of, sichuan_profile
from mjstats.tiles import parse_tile

DATA = Path(__file__).parent / "data" / "sichuan" / "examples.jsonl"
EXAMPLES = {h.match_id: h for h in read_canonical(DATA) if isinstance(h, Hand)}


def t(code: str):
    return parse_tile(code)


def nets(hand: Hand) -> tuple[int, ...]:
    return tuple(hand.result.scores or ())


def test_nine_examples_are_read() -> None:
    assert sorted(EXAMPLES) == [f"sc-e{n}" for n in range(1, 10)]


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_example_replays_clean(name: str) -> None:
    result = replay_hand(EXAMPLES[name])
    assert result.findings == (), [str(f) for f in result.findings]
    assert result.status == "clean"


# The reference's totals (§6), plus the earlier wins and kongs the examples only mention.
TOTALS = {
    "sc-e1": (-5, 8, -4, 1),  # P3's earlier 平胡 on P0's discard (1), then the table
    "sc-e2": (-32, 0, 32, 0),
    "sc-e3": (0, 1, -3, 2),
    "sc-e4": (-16, 6, 12, -2),
    "sc-e5": (0, 4, 0, -4),
    "sc-e6": (-68, 24, 4, 40),  # end-of-hand table + kong money + P2's self-draw (2 from each)
    "sc-e7": (1, -37, 73, -37),
    "sc-e8": (-4, 6, -2, 0),
    "sc-e9": (-6, -4, -4, 14),
}


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_example_totals(name: str) -> None:
    hand = EXAMPLES[name]
    assert nets(hand) == TOTALS[name]
    assert sum(nets(hand)) == 0
    result = replay_hand(hand)
    computed = [0, 0, 0, 0]
    for _, _, win in result.wins:
        assert win is not None
        for seat, score in enumerate(win.payments):
            computed[seat] += score
    recorded_wins = [0, 0, 0, 0]
    for p in hand.result.payments:
        if p.reason is PaymentReason.WIN:
            recorded_wins[p.seat] += p.score
    assert computed == recorded_wins


def test_e6_end_of_hand_items() -> None:
    """E6: 查花猪 x32 twice, 查大叫 4, 退税 of the 补杠 and the 直杠, as the reference lists them."""
    pays = EXAMPLES["sc-e6"].result.payments
    tail = [(p.seat, p.score, p.reason.value) for p in pays[-12:]]
    assert tail == [
        (0, -32, "penalty"), (1, 32, "penalty"), (0, -32, "penalty"), (3, 32, "penalty"),
        (1, -4, "settlement"), (3, 4, "settlement"),
        (0, -1, "kong"), (1, 1, "kong"), (0, -1, "kong"), (3, 1, "kong"), (1, -2, "kong"), (0, 2, "kong"),
    ]  # fmt: skip


# --- one broken record per check ---------------------------------------------------------------


def with_events(hand: Hand, events: list[Event]) -> Hand:
    return dataclasses.replace(hand, events=tuple(e._replace(seq=i) for i, e in enumerate(events)))


def with_payments(hand: Hand, payments: list[Payment]) -> Hand:
    r = hand.result
    return dataclasses.replace(hand, result=Result(r.outcome, wins=r.wins, payments=tuple(payments)))


def events_of(name: str) -> list[Event]:
    return list(EXAMPLES[name].events)


def find(
    events: list[Event], kind: EventKind, seat: int | None = None, tile: str | None = None, nth: int = 0
) -> int:
    hits = [
        i for i, e in enumerate(events)
        if e.kind is kind and (seat is None or e.seat == seat) and (tile is None or e.tile == t(tile))
    ]  # fmt: skip
    return hits[nth]


def discard_not_held() -> Hand:
    ev = events_of("sc-e2")
    i = find(ev, EventKind.DISCARD, 1)
    ev[i] = ev[i]._replace(tile=t("B9"))
    return with_events(EXAMPLES["sc-e2"], ev)


def short_deal() -> Hand:
    ev = events_of("sc-e2")
    ev[0] = ev[0]._replace(tiles=ev[0].tiles[:-1])
    return with_events(EXAMPLES["sc-e2"], ev)


def exchange_under_seed() -> Hand:
    ev = events_of("sc-e2")
    swaps = [Event(0, EventKind.EXCHANGE, s, tiles=ev[s].tiles[:3], from_seat=(s + 3) % 4) for s in range(4)]
    return with_events(EXAMPLES["sc-e2"], ev[:4] + swaps + ev[4:])


def missing_void() -> Hand:
    ev = events_of("sc-e2")
    del ev[find(ev, EventKind.VOID, 3)]
    return with_events(EXAMPLES["sc-e2"], ev)


def non_void_discard_while_holding_void() -> Hand:
    # E5: P3 (void T) holds T5 until its pong; its first filler discard becomes a W1
    ev = events_of("sc-e5")
    i = find(ev, EventKind.DISCARD, 3)
    ev[i] = ev[i]._replace(tile=t("W1"))
    return with_events(EXAMPLES["sc-e5"], ev)


def win_in_void_suit() -> Hand:
    ev = events_of("sc-e3")
    i = find(ev, EventKind.VOID, 1)
    ev[i] = ev[i]._replace(tile=t("B1"))
    return with_events(EXAMPLES["sc-e3"], ev)


def extra_dealt_tile() -> Hand:
    ev = events_of("sc-e3")
    ev[1] = ev[1]._replace(tiles=(*ev[1].tiles, t("W9")))
    return with_events(EXAMPLES["sc-e3"], ev)


def wrong_drawer() -> Hand:
    ev = events_of("sc-e2")
    i = find(ev, EventKind.DRAW, 1)
    ev[i] = ev[i]._replace(seat=2)
    ev[i + 1] = ev[i + 1]._replace(seat=2)
    return with_events(EXAMPLES["sc-e2"], ev)


def normal_draw_marked_replacement() -> Hand:
    ev = events_of("sc-e2")
    i = find(ev, EventKind.DRAW, 1)
    ev[i] = ev[i]._replace(tail=True)
    return with_events(EXAMPLES["sc-e2"], ev)


def chow() -> Hand:
    ev = events_of("sc-e2")
    i = find(ev, EventKind.DISCARD, 0)
    return with_events(
        EXAMPLES["sc-e2"], [*ev[: i + 1], Event(0, EventKind.CHI, 1, t("B2"), claimed=t("B2"))]
    )


def pong_with_one_tile() -> Hand:
    ev = events_of("sc-e8")
    tiles = list(ev[1].tiles)
    tiles[tiles.index(t("W2"))] = t("B5")
    ev[1] = ev[1]._replace(tiles=tuple(tiles))
    return with_events(EXAMPLES["sc-e8"], ev)


def draw_after_pong() -> Hand:
    ev = events_of("sc-e8")
    i = find(ev, EventKind.PENG, 1)
    return with_events(EXAMPLES["sc-e8"], [*ev[: i + 1], Event(0, EventKind.DRAW, 1, t("B3")), *ev[i + 1 :]])


def kong_without_replacement() -> Hand:
    ev = events_of("sc-e9")
    del ev[find(ev, EventKind.GANG, 3) + 1]
    return with_events(EXAMPLES["sc-e9"], ev)


def pong_after_hu() -> Hand:
    ev = events_of("sc-e3")
    i = find(ev, EventKind.HU, 1)
    return with_events(
        EXAMPLES["sc-e3"], [*ev[: i + 1], Event(0, EventKind.PENG, 0, t("B6"), from_seat=2), *ev[i + 1 :]]
    )


def robbing_a_discard() -> Hand:
    ev = events_of("sc-e2")
    i = find(ev, EventKind.HU, 2)
    from mjstats.records import WinKind

    ev[i] = ev[i]._replace(win=WinKind.ROB_KONG)
    return with_events(EXAMPLES["sc-e2"], ev)


def win_on_a_locked_tile() -> Hand:
    # E3: P0's filler becomes B6, which P3 (and P1) pass; P3 does not draw again before P2's B6
    ev = events_of("sc-e3")
    i = find(ev, EventKind.DRAW, 0)
    ev[i] = ev[i]._replace(tile=t("B6"))
    ev[i + 1] = ev[i + 1]._replace(tile=t("B6"))
    return with_events(EXAMPLES["sc-e3"], ev)


def pass_in_last_four() -> Hand:
    # E6: P3 waits on T6; P1's last discard becomes its T6, in the last four tiles
    ev = events_of("sc-e6")
    i = max(j for j, e in enumerate(ev) if e.kind is EventKind.DISCARD and e.seat == 1)
    ev[i] = ev[i]._replace(tile=t("T6"))
    return with_events(EXAMPLES["sc-e6"], ev)


def winner_draws() -> Hand:
    ev = events_of("sc-e1")
    i = find(ev, EventKind.HU, 3)
    return with_events(EXAMPLES["sc-e1"], [*ev[: i + 1], Event(0, EventKind.DRAW, 3, t("B9")), *ev[i + 1 :]])


def no_huang() -> Hand:
    return with_events(EXAMPLES["sc-e2"], events_of("sc-e2")[:-1])


def not_a_winning_shape() -> Hand:
    ev = events_of("sc-e2")
    tiles = list(ev[2].tiles)
    tiles[tiles.index(t("W5"))] = t("W6")
    ev[2] = ev[2]._replace(tiles=tuple(tiles))
    return with_events(EXAMPLES["sc-e2"], ev)


def far_winner_first() -> Hand:
    ev = events_of("sc-e3")
    i = find(ev, EventKind.HU, 3)
    ev[i], ev[i + 1] = ev[i + 1], ev[i]
    return with_events(EXAMPLES["sc-e3"], ev)


def wrong_winner_recorded() -> Hand:
    hand = EXAMPLES["sc-e2"]
    wins = (dataclasses.replace(hand.result.wins[0], winner=1),)
    return dataclasses.replace(
        hand, result=Result(hand.result.outcome, wins=wins, payments=hand.result.payments)
    )


def wrong_pattern() -> Hand:
    hand = EXAMPLES["sc-e2"]
    wins = (dataclasses.replace(hand.result.wins[0], pattern="七对", fan_total=3),)
    return dataclasses.replace(
        hand, result=Result(hand.result.outcome, wins=wins, payments=hand.result.payments)
    )


def scaled(name: str, reason: PaymentReason, index: int, factor: int) -> Hand:
    """The payment pair ``index`` (0-based among ``reason``'s pairs) multiplied by ``factor``."""
    hand = EXAMPLES[name]
    pays = list(hand.result.payments)
    pairs = [i for i in range(0, len(pays), 2) if pays[i].reason is reason]
    i = pairs[index]
    for j in (i, i + 1):
        pays[j] = dataclasses.replace(pays[j], score=pays[j].score * factor)
    return with_payments(hand, pays)


def unbalanced_scores() -> Hand:
    hand = EXAMPLES["sc-e2"]
    return dataclasses.replace(
        hand, result=Result(hand.result.outcome, wins=hand.result.wins, scores=(-32, 0, 31, 0))
    )


CASES: dict[str, Callable[[], Hand]] = {
    "sichuan.tiles": discard_not_held,
    "sichuan.deal": short_deal,
    "sichuan.exchange": exchange_under_seed,
    "sichuan.void_declared": missing_void,
    "sichuan.void_first": non_void_discard_while_holding_void,
    "sichuan.void_used": win_in_void_suit,
    "sichuan.hand_size": extra_dealt_tile,
    "sichuan.turn": wrong_drawer,
    "sichuan.wall": normal_draw_marked_replacement,
    "sichuan.no_chow": chow,
    "sichuan.meld_tiles": pong_with_one_tile,
    "sichuan.pong_discard": draw_after_pong,
    "sichuan.kong_wall": kong_without_replacement,
    "sichuan.claim_priority": pong_after_hu,
    "sichuan.pass_lock": win_on_a_locked_tile,
    "sichuan.last_four": pass_in_last_four,
    "sichuan.winner_acts": winner_draws,
    "sichuan.hand_end": no_huang,
    "sichuan.win_shape": not_a_winning_shape,
    "sichuan.win_order": far_winner_first,
    "sichuan.win_record": wrong_winner_recorded,
    "sichuan.win_fan": wrong_pattern,
    "sichuan.win_payment": lambda: scaled("sc-e2", PaymentReason.WIN, 0, 2),
    "sichuan.kong_payment": lambda: scaled("sc-e4", PaymentReason.KONG, 0, 2),
    "sichuan.call_transfer": lambda: scaled("sc-e4", PaymentReason.KONG, 4, 2),
    "sichuan.flower_pig": lambda: scaled("sc-e6", PaymentReason.PENALTY, 1, 2),
    "sichuan.cha_jiao": lambda: scaled("sc-e6", PaymentReason.SETTLEMENT, 0, 2),
    "sichuan.tax_refund": lambda: scaled("sc-e6", PaymentReason.KONG, 8, 2),
    "sichuan.zero_sum": unbalanced_scores,
}


@pytest.mark.parametrize("code", sorted(CASES))
def test_broken_record_is_flagged_by_its_check(code: str) -> None:
    result = replay_hand(CASES[code]())
    assert code in {f.check for f in result.findings}, [str(f) for f in result.findings]


def test_robbing_a_discard_is_a_claim_priority_fault() -> None:
    assert "sichuan.claim_priority" in {f.check for f in replay_hand(robbing_a_discard()).findings}


def test_dealer_sequence() -> None:
    """Check 36: after E3 (a multi-win on P2's discard) P2 deals; after E1 the first winner P3."""
    rules = load_profile("seed")
    assert next_dealer_of(EXAMPLES["sc-e3"], rules) == 2
    assert next_dealer_of(EXAMPLES["sc-e1"], rules) == 3
    seq = SichuanSequence(rules)
    first = dataclasses.replace(EXAMPLES["sc-e3"], match_id="m", hand_no=0)
    assert seq.check(first) == []
    good = dataclasses.replace(EXAMPLES["sc-e2"], match_id="m", hand_no=1, dealer=2)
    bad = dataclasses.replace(EXAMPLES["sc-e2"], match_id="m", hand_no=1, dealer=0)
    assert seq.check(good) == []
    seq = SichuanSequence(rules)
    seq.check(first)
    assert [f.check for f in seq.check(bad)] == ["sichuan.dealer"]


def test_platform_profile_replays_its_own_rules() -> None:
    """The same E5 record under the platform profile: the rob is worth 抢杠胡 +1 there (x8), so
    the seed-valued record is flagged."""
    result = replay_hand(EXAMPLES["sc-e5"], sichuan_profile("platform"))
    assert "sichuan.win_fan" in {f.check for f in result.findings}


def test_examples_round_trip_byte_identical() -> None:
    from mjstats.formats.canonical import hand_to_json

    for n, line in enumerate(DATA.read_text(encoding="utf-8").splitlines(), 1):
        hand = hand_from_json(line, source=str(DATA), line=n)
        assert hand_to_json(dataclasses.replace(hand, provenance=None)) == line
