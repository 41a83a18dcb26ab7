"""The Sichuan decision judge (docs/decisions.md, "Sichuan"): every discard row of simulated
血战到底 hands against a straightforward oracle (tests/sichuan_decision_oracle.py: shanten as
the least tiles to take in, useful kinds and waits by trying every kind, unseen copies and
danger from the events alone), hand-written void positions, and a hypothesis property."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mjstats.rulesets.sichuan
from mjstats.decision import hand_decisions
from mjstats.decision.view import kinds_of, view_for
from mjstats.records import Event, EventKind, Hand, WinKind
from mjstats.replay import replay_hand
from mjstats.replay.replayer import ReplayResult
from mjstats.rulesets.sichuan.decisions import view_of_void
from mjstats.rulesets.sichuan.replay import SichuanReplay, SichuanReplayProfile, sichuan_profile
from mjstats.sim import SimConfig, simulate, simulate_with_faults
from mjstats.tiles import ALL_KINDS
from tests.sichuan_decision_oracle import (
    oracle_discard_shanten,
    oracle_shanten,
    oracle_useful,
    oracle_waits,
)

NAMES = {ALL_KINDS[k].botzone: k for k in range(27)}


def counts_of(text: str) -> tuple[int, ...]:
    counts = [0] * 34
    for name in text.split():
        counts[NAMES[name]] += 1
    return tuple(counts)


# --- an independent walk of the events --------------------------------------------------------


@dataclass
class Seat:
    counts: list[int] = field(default_factory=lambda: [0] * 34)
    melds: list[tuple[str, int, int]] = field(default_factory=list)
    void: int | None = None
    won: bool = False


@dataclass
class Position:
    """The table just before one discard, read from the record's events alone."""

    seq: int
    seat: int
    tile: int
    seats: list[Seat]
    visible: list[int]  # face up: unclaimed river tiles, melds, winners' hands (shown), robbed tiles


def positions(hand: Hand, shown: bool = True) -> dict[int, Position]:
    """Every discard's position by seq (a clean record: the simulator's)."""
    seats = [Seat() for _ in range(4)]
    river = [0] * 34
    robbed = [0] * 34
    given: dict[int, tuple[tuple[int, ...], int]] = {}
    pending: list[int] = []  # winners of the current discard, out once the window closes
    last_discard: tuple[int, int] | None = None
    out: dict[int, Position] = {}
    for ev in hand.events:
        kind, s, tile = ev.kind, ev.seat, ev.tile
        if kind is not EventKind.HU and pending:
            for w in pending:
                seats[w].won = True
            pending = []
        if kind is EventKind.DEAL:
            for t in ev.tiles:
                seats[s].counts[t] += 1
        elif kind is EventKind.EXCHANGE:
            for t in ev.tiles:
                seats[s].counts[t] -= 1
            given[s] = (tuple(ev.tiles), ev.from_seat)
            if len(given) == 4:
                for r, (_, frm) in given.items():
                    for t in given[frm][0]:
                        seats[r].counts[t] += 1
        elif kind is EventKind.VOID:
            seats[s].void = tile // 9
        elif kind is EventKind.DRAW:
            seats[s].counts[tile] += 1
        elif kind is EventKind.DISCARD:
            visible = list(river)
            for p in seats:
                for _, t, size in ((k, t, 4 if k == "GANG" else 3) for k, t, _ in p.melds):
                    visible[t] += size
                if p.won and shown:
                    visible = [v + c for v, c in zip(visible, p.counts, strict=True)]
            visible = [v + r for v, r in zip(visible, robbed, strict=True)]
            snapshot = [Seat(list(p.counts), list(p.melds), p.void, p.won) for p in seats]
            out[ev.seq] = Position(ev.seq, s, tile, snapshot, visible)
            seats[s].counts[tile] -= 1
            river[tile] += 1
            last_discard = (s, tile)
        elif kind in (EventKind.PENG, EventKind.GANG):
            need = 2 if kind is EventKind.PENG else 3
            seats[s].counts[tile] -= need
            seats[s].melds.append(("PENG" if need == 2 else "GANG", tile, 1))
            river[tile] -= 1  # the claimed discard lies in the meld
        elif kind is EventKind.ANGANG:
            seats[s].counts[tile] -= 4
            seats[s].melds.append(("GANG", tile, 0))
        elif kind is EventKind.BUGANG:
            seats[s].counts[tile] -= 1
            seats[s].melds = [
                ("GANG", t, o) if k == "PENG" and t == tile else (k, t, o) for k, t, o in seats[s].melds
            ]
        elif kind is EventKind.HU:
            if ev.win is WinKind.ROB_KONG:
                konger = ev.from_seat
                seats[konger].melds = [
                    ("PENG", t, o) if k == "GANG" and t == tile and o != 0 else (k, t, o)
                    for k, t, o in seats[konger].melds
                ]
                robbed[tile] += 1
            if ev.from_seat is None:
                seats[s].won = True  # a self-draw: out at once
            else:
                pending.append(s)
    del last_discard
    return out


def allowed(seat: Seat, tile: int, strict: bool) -> list[int]:
    """reference sichuan.md §2.3: under ``strict`` a seat holding its void suit discards it."""
    held = [k for k in range(27) if seat.counts[k]]
    void = seat.void
    if strict and void is not None and any(seat.counts[9 * void : 9 * void + 9]):
        held = [k for k in held if k // 9 == void]
    return sorted({*held, tile})


def held_with_melds(seat: Seat) -> list[int]:
    held = list(seat.counts)
    for k, t, _ in seat.melds:
        held[t] += 4 if k == "GANG" else 3
    return held


def melded_suits(seat: Seat) -> frozenset[int]:
    """The suits of a seat's melds: with no void declared, the suits it can no longer give up."""
    return frozenset(t // 9 for _, t, _ in seat.melds)


def expected_row(pos: Position, strict: bool) -> tuple[int, int, int, int, int]:
    """(shanten before, after, useful kept, useful best, danger) by the oracle."""
    me = pos.seats[pos.seat]
    counts, melds, void, melded = tuple(me.counts), len(me.melds), me.void, melded_suits(me)
    kinds = allowed(me, pos.tile, strict)
    left = oracle_discard_shanten(counts, melds, void, kinds, melded)
    best = min(left.values())
    unseen = [max(0, 4 - c - v) for c, v in zip(counts, pos.visible, strict=True)]
    useful = {}
    for t in kinds:
        if left[t] == best:
            after = (*counts[:t], counts[t] - 1, *counts[t + 1 :])
            useful[t] = sum(unseen[k] for k in oracle_useful(after, melds, void, melded))
    most = max(useful.values())
    danger = 0
    for o in range(4):
        other = pos.seats[o]
        if o == pos.seat or other.won:
            continue  # 血战到底: a seat that has won is nobody's opponent
        waits = oracle_waits(tuple(other.counts), len(other.melds), other.void, melded_suits(other))
        held = held_with_melds(other)
        danger += pos.tile in {k for k in waits if held[k] < 4}  # no wait on a fifth copy
    return best, left[pos.tile], useful.get(pos.tile, 0), most, danger


@pytest.fixture(scope="module")
def judged() -> list[tuple[Hand, list]]:
    hands = list(simulate(SimConfig("sichuan", 16, seed=11)))
    return [(hand, hand_decisions(hand)) for hand in hands]


def check_rows(judged: list[tuple[Hand, list]], strict: bool = True, shown: bool = True) -> int:
    """Every discard row against the oracle; the number of rows checked."""
    checked = 0
    for hand, rows in judged:
        where = positions(hand, shown)
        for row in rows:
            if row.kind != "discard":
                continue
            pos = where[row.seq]
            before, after, kept, most, danger = expected_row(pos, strict)
            got = (row.shanten_before, row.shanten_after, row.useful_kept, row.useful_best, row.danger)
            assert got == (before, after, kept, most, danger), (hand.match_id, hand.hand_no, row)
            if after > before:
                assert "shanten_loss" in row.flags and "inefficient" in row.flags
            checked += 1
    return checked


def test_discard_rows_match_the_oracle(judged: list[tuple[Hand, list]]) -> None:
    assert check_rows(judged[:4]) > 150


@pytest.mark.slow
def test_every_discard_row_of_sixteen_hands_matches_the_oracle(judged: list[tuple[Hand, list]]) -> None:
    assert check_rows(judged) > 700


def test_won_seats_decide_nothing_and_every_discard_is_judged(judged: list[tuple[Hand, list]]) -> None:
    several = 0
    for hand, rows in judged:
        where = positions(hand)
        discards = {ev.seq for ev in hand.events if ev.kind is EventKind.DISCARD}
        assert {r.seq for r in rows if r.kind == "discard"} == discards  # none dropped
        for row in rows:
            if row.kind in ("discard", "claim"):
                pos = where.get(row.seq)
                if pos is not None:
                    assert not pos.seats[row.seat].won
        wins = [ev for ev in hand.events if ev.kind is EventKind.HU]
        several += len(wins) > 1
        for row in rows:
            if "deal_in" in row.flags:
                assert any(ev.from_seat == row.seat for ev in wins)
    assert several > 0  # 血战到底: hands with more than one win were judged


def listened_run(hand: Hand, prof: SichuanReplayProfile) -> tuple[ReplayResult, list[int]]:
    """The replay with a listener on its discard handler: its result, the discards heard."""
    replay = SichuanReplay(hand, prof, False)
    heard: list[int] = []
    inner = replay.handlers[EventKind.DISCARD]

    def listener(ev: Event) -> None:
        heard.append(ev.seq)
        inner(ev)

    replay.handlers[EventKind.DISCARD] = listener
    return replay.run(), heard


@pytest.mark.parametrize("profile", ["seed", "platform"])
def test_a_listened_replay_finds_what_the_plain_one_finds(profile: str) -> None:
    """The judge wraps the Sichuan replay's handlers (its plain fast path then stays off): the
    replay's findings and wins must be the same, faulty records included."""
    prof = sichuan_profile(profile)
    for hand, _ in simulate_with_faults(SimConfig("sichuan", 12, 7, profile), 0.5):
        plain = replay_hand(hand, prof)
        listened, heard = listened_run(hand, prof)
        assert listened.findings == plain.findings
        assert (listened.stopped, listened.wins) == (plain.stopped, plain.wins)
        if not listened.stopped:
            assert heard == [ev.seq for ev in hand.events if ev.kind is EventKind.DISCARD]
        hand_decisions(hand, prof)  # a faulty record is judged where it can be, never raises


def test_lenient_void_discards_are_judged_among_every_tile(tmp_path: Path) -> None:
    """Profile ``deal.void_discard = "lenient"``: any tile may go while void tiles are held, so
    the best discards are chosen among all of them; winners' hands hidden
    (``play.winner_hand_public = false``) are not counted as seen."""
    text = (Path(mjstats.rulesets.sichuan.__file__).parent / "profiles" / "seed.toml").read_text("utf-8")
    text = text.replace('name = "seed"', 'name = "lenient"').replace('"strict"', '"lenient"')
    text = text.replace("winner_hand_public = true", "winner_hand_public = false")
    path = tmp_path / "lenient.toml"
    path.write_text(text, "utf-8")
    prof = sichuan_profile(str(path))
    assert not prof.rules.play.winner_hand_public and prof.rules.deal.void_discard == "lenient"
    hands = list(simulate(SimConfig("sichuan", 3, 5, str(path))))
    judged = [(hand, hand_decisions(hand, prof)) for hand in hands]
    assert check_rows(judged, strict=False, shown=False) > 100


def test_without_a_declaration_the_suit_cheapest_to_give_up_counts(tmp_path: Path) -> None:
    """Profile ``deal.declare_void = false``: a winning hand still lacks a suit (缺一门), so the
    shanten is the least over the suits the seat holds no meld of."""
    text = (Path(mjstats.rulesets.sichuan.__file__).parent / "profiles" / "seed.toml").read_text("utf-8")
    text = text.replace('name = "seed"', 'name = "undeclared"')
    text = text.replace("declare_void = true", "declare_void = false")
    path = tmp_path / "undeclared.toml"
    path.write_text(text, "utf-8")
    prof = sichuan_profile(str(path))
    hands = list(simulate(SimConfig("sichuan", 2, 5, str(path))))
    assert not any(ev.kind is EventKind.VOID for hand in hands for ev in hand.events)
    judged = [(hand, hand_decisions(hand, prof)) for hand in hands]
    assert check_rows(judged) > 80
    # melds of two suits leave the third to give up (its tiles must go); of three, no win
    hand = counts_of("W5 W6 W7 W8")
    assert view_of_void(None, frozenset({0, 1})).shanten(None, hand, 3) == 0  # type: ignore[arg-type]
    assert view_of_void(None, frozenset({0, 1})).shanten(None, counts_of("B5 B6 B7 B8"), 3) == 4  # type: ignore[arg-type]
    assert view_of_void(None, frozenset({0, 1, 2})).shanten(None, hand, 3) == 99  # type: ignore[arg-type]


def test_void_first_discards_are_never_inefficient(judged: list[tuple[Hand, list]]) -> None:
    """docs/decisions.md: every allowed (void-suit) discard leaves the same shanten and useful
    tiles, so a forced void discard is never flagged, and the best discards are void tiles."""
    forced = 0
    for hand, rows in judged:
        where = positions(hand)
        for row in rows:
            if row.kind != "discard":
                continue
            me = where[row.seq].seats[row.seat]
            void = me.void
            if void is None or not any(me.counts[9 * void : 9 * void + 9]) or row.seq not in where:
                continue
            assert row.flags in ("", "deal_in", "deal_in,unsafe"), row
            assert all(NAMES[n] // 9 == void for n in row.best_discards.split()), row
            forced += 1
    assert forced > 100


# --- hand-written positions ------------------------------------------------------------------


def test_void_tiles_count_as_tiles_to_take_in() -> None:
    view = view_of_void(0)  # void: 万 (W)
    # T123 T456 T789 B11 B2 + W3 W7: the void tiles must go first, each is one more take-in
    hand = counts_of("T1 T2 T3 T4 T5 T6 T7 T8 T9 B1 B1 B2 W3 W7")
    left = view.discard_shanten(None, hand, 0, None)  # type: ignore[arg-type]
    assert left[NAMES["W3"]] == left[NAMES["W7"]] == 1  # then B1 B1 B2 + W: a take-in, then waiting
    assert min(left.values()) == 1  # discarding a void tile never raises the shanten
    assert left[NAMES["B2"]] == 2  # two void tiles left to exchange
    after = view.useful_after(None, hand, 0, [NAMES["W3"], NAMES["W7"]])  # type: ignore[arg-type, misc]
    assert after[NAMES["W3"]] == after[NAMES["W7"]]
    assert all(k // 9 != 0 for k in kinds_of(after[NAMES["W3"]]))  # a void kind is never useful
    waiting = counts_of("T1 T2 T3 T4 T5 T6 T7 T8 T9 B1 B1 B2 W3")
    assert view.shanten(None, waiting, 0) == 1  # type: ignore[arg-type]
    assert view.waits(None, waiting, ()) == 0  # type: ignore[arg-type]  # holds W3
    assert NAMES["W3"] not in kinds_of(view.useful(None, waiting, 0))  # type: ignore[arg-type]
    ready = counts_of("T1 T2 T3 T4 T5 T6 T7 T8 T9 B1 B1 B2 B3")
    assert kinds_of(view.waits(None, ready, ())) == {NAMES["B1"], NAMES["B4"]}  # type: ignore[arg-type]


def test_no_void_claims_no_chow_and_a_view_per_void() -> None:
    assert view_for("sichuan") is view_of_void(None)
    void_b = view_of_void(2)
    assert not void_b.may_claim(None, NAMES["B5"])  # type: ignore[arg-type]
    assert void_b.may_claim(None, NAMES["W5"])  # type: ignore[arg-type]
    assert not void_b.chow and void_b.several_winners
    assert view_of_void(2) is void_b


# --- a property ---------------------------------------------------------------------------------

_TILES = st.lists(st.integers(0, 26), min_size=14, max_size=14).filter(
    lambda ts: all(ts.count(k) <= 4 for k in set(ts))
)


@settings(max_examples=60, deadline=None)
@given(tiles=_TILES, void=st.integers(0, 2))
def test_view_equals_the_oracle_on_random_hands(tiles: list[int], void: int) -> None:
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    hand = tuple(counts)
    view = view_of_void(void)
    kinds = sorted(set(tiles))
    left = view.discard_shanten(None, hand, 0, kinds)  # type: ignore[arg-type]
    assert left == oracle_discard_shanten(hand, 0, void, kinds)
    best = min(left.values())
    candidates = [t for t in kinds if left[t] == best]
    useful = view.useful_after(None, hand, 0, candidates)  # type: ignore[arg-type, misc]
    for t in candidates:
        after = (*hand[:t], hand[t] - 1, *hand[t + 1 :])
        assert kinds_of(useful[t]) == oracle_useful(after, 0, void)
        assert all(k // 9 != void for k in kinds_of(useful[t]))
        assert view.shanten(None, after, 0) == oracle_shanten(after, 0, void)  # type: ignore[arg-type]
    if any(hand[9 * void : 9 * void + 9]):
        # a void tile's discard is always among the best
        assert min(left[t] for t in kinds if t // 9 == void) == best


# --- the stage, the CLI and the styles -----------------------------------------------------------


@pytest.fixture(scope="module")
def styled_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from mjstats.formats.canonical import write_canonical
    from mjstats.sim.matches import parse_players
    from mjstats.store import SourceInput, ingest_sources

    root = tmp_path_factory.mktemp("decisions-sichuan")
    players = parse_players("g:greedy,v:voidfirst,f:flush,k:konger", "sichuan")
    records = root / "sim.jsonl"
    write_canonical(iter(simulate(SimConfig("sichuan", 48, seed=13, players=players))), records)
    ingest_sources([SourceInput(records, "canonical")], root / "ds")
    return root / "ds"


def test_the_cli_judges_sichuan_and_void_first_play_is_near_the_top(
    styled_dataset: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``mjstats decisions`` on Sichuan hands: none left "not judged"; on the simulator the
    void-first and greedy styles (void tiles first, then the least shanten) are efficient and
    the flush chaser (tiles outside one suit first) is not (docs/decisions.md)."""
    from mjstats import open_dataset, stats
    from mjstats.cli import main

    assert main(["decisions", str(styled_dataset)]) == 0
    printed = capsys.readouterr()
    assert "judged 48 hands" in printed.out + printed.err
    assert "not judged" not in printed.out + printed.err
    table = open_dataset(styled_dataset).table("decisions")
    assert set(table["ruleset"].astype(str)) == {"sichuan"}
    frame = stats.compute(styled_dataset, "efficiency_rate", by="style").set_index("style")
    flush = frame.loc["flush"]
    for style in ("greedy", "voidfirst"):
        assert frame.loc[style, "value"] >= 0.93
        assert flush["ci_high"] < frame.loc[style, "ci_low"]  # intervals apart
    lost = stats.compute(styled_dataset, "useful_lost", by="style").set_index("style")
    assert lost.loc["flush", "value"] > lost.loc["voidfirst", "value"]
    metrics = "danger_rate,missed_win_rate"
    assert main(["stats", str(styled_dataset), "--metric", metrics, "--json", "-q"]) == 0
