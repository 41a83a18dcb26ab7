"""Designed differences are recovered: a synthetic dataset (hand-made canonical records through
the store) where one bot style calls far more often than the others. The simulator-based test
comes when the simulator exists."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from mjstats.records import Event, EventKind, Hand, Outcome, Result
from mjstats.stats import compute
from mjstats.store import SourceInput, ingest_sources
from mjstats.tiles import ALL_KINDS

K = EventKind
STYLES = ("caller", "quiet", "quiet", "quiet")
CALL_PROB = {"caller": 0.7, "quiet": 0.15}  # designed: chance a seat pungs in a hand


def _hand(rng: random.Random, no: int) -> Hand:
    """A short Guobiao hand: deal, a few draw/discard rounds in which a seat may pung the
    previous discard (with its style's probability), then an exhaustive draw."""
    wall = [ALL_KINDS[k] for k in range(34) for _ in range(4)]
    rng.shuffle(wall)
    shift = no % 4  # rotate styles over seats so style is not confounded with seat
    styles = tuple(STYLES[(s - shift) % 4] for s in range(4))
    events: list[Event] = []
    held = {}
    for seat in range(4):
        tiles = tuple(wall.pop() for _ in range(13))
        held[seat] = list(tiles)
        events.append(Event(len(events), K.DEAL, seat, tiles=tiles))
    wants = {s: rng.random() < CALL_PROB[styles[s]] for s in range(4)}
    for turn in range(8):
        seat = turn % 4
        drawn = wall.pop()
        held[seat].append(drawn)
        events.append(Event(len(events), K.DRAW, seat, drawn))
        discard = held[seat].pop(0)
        events.append(Event(len(events), K.DISCARD, seat, discard))
        taker = (seat + 2) % 4
        if wants[taker]:
            # give the taker the pair it needs (drawn from the wall), then pung
            wants[taker] = False
            for _ in range(2):
                events.append(Event(len(events), K.DRAW, taker, discard))
            events.append(Event(len(events), K.PENG, taker, discard, from_seat=seat))
            events.append(Event(len(events), K.DISCARD, taker, discard))
    events.append(Event(len(events), K.HUANG))
    return Hand(match_id=f"syn-{no // 4}", hand_no=no % 4, ruleset="guobiao", profile="standard",
                dealer=0, prevalent_wind=0, events=tuple(events), result=Result(Outcome.DRAW),
                styles=styles, players=tuple(f"bot-{s}" for s in range(4)))


@pytest.fixture(scope="module")
def styles_ds(tmp_path_factory) -> Path:
    rng = random.Random(42)
    hands = [_hand(rng, i) for i in range(400)]
    root = tmp_path_factory.mktemp("styles")
    src = root / "synthetic.marker"
    src.write_text("synthetic styles\n", encoding="utf-8")
    ingest_sources([SourceInput(src, "made", lambda _p: iter(hands))], root / "ds")
    return root / "ds"


def test_call_rate_separates_the_styles(styles_ds):
    rates = compute(styles_ds, "call_rate", by="style").set_index("style")
    caller, quiet = rates.loc["caller"], rates.loc["quiet"]
    assert caller.denominator == 400 and quiet.denominator == 1200
    assert caller.ci_low > quiet.ci_high  # the intervals do not overlap
    # and each interval covers the designed probability
    assert caller.ci_low <= CALL_PROB["caller"] <= caller.ci_high
    assert quiet.ci_low <= CALL_PROB["quiet"] <= quiet.ci_high


def test_by_seat_the_difference_is_averaged_away(styles_ds):
    rates = compute(styles_ds, "call_rate", by="seat")
    assert rates["ci_low"].max() < rates["ci_high"].min()  # all seat intervals overlap
