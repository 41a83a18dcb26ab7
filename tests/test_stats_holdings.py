"""The vectorised holdings (tile counts summed over events) against a plain replay of the
records, event by event, on random hands of both rulesets and on the Botzone sample."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from mjstats.formats.botzone import read_botzone
from mjstats.records import EventKind, Hand
from mjstats.stats.holdings import part_events, seat_melds, tile_counts
from mjstats.store import SourceInput, ingest_sources, open_dataset
from tests.strategies import random_hand

K = EventKind


def replay(hand: Hand) -> tuple[list[list[int]], list[int]]:
    """Concealed counts per seat and melds per seat, one event at a time (the reference)."""
    counts = [[0] * 42 for _ in range(4)]
    melds = [0, 0, 0, 0]
    for ev in hand.events:
        s = ev.seat
        if s is None:
            continue
        c = counts[s]
        if ev.kind is K.DEAL:
            for t in ev.tiles:
                c[t] += 1
        elif ev.kind is K.DRAW:
            c[ev.tile] += 1
        elif ev.kind in (K.DISCARD, K.FLOWER, K.BUGANG):
            c[ev.tile] -= 1
        elif ev.kind is K.CHI:
            for t in (ev.tile - 1, ev.tile, ev.tile + 1):
                if t != ev.claimed:
                    c[t] -= 1
            melds[s] += 1
        elif ev.kind is K.PENG:
            c[ev.tile] -= 2
            melds[s] += 1
        elif ev.kind is K.GANG:
            c[ev.tile] -= 3
            melds[s] += 1
        elif ev.kind is K.ANGANG:
            c[ev.tile] -= 4
            melds[s] += 1
    return counts, melds


def _ingest(tmp: Path, hands: list[Hand]) -> Path:
    src = tmp / "src"
    src.write_text("x", encoding="utf-8")
    ingest_sources([SourceInput(src, "made", lambda _p: iter(hands))], tmp / "ds")
    return tmp / "ds"


def _check(ds: Path) -> int:
    records = list(open_dataset(ds).hands())
    checked = 0
    for hand_ids, _hands, events, n_events in part_events(ds, lambda h: np.ones(h.num_rows, bool)):
        counts = tile_counts(events, n_events)
        melds = seat_melds(events, n_events)
        for i, hid in enumerate(hand_ids.tolist()):
            want_counts, want_melds = replay(records[hid])
            for seat in range(4):
                assert counts[i * 4 + seat].tolist() == want_counts[seat], (records[hid].key, seat)
                assert len(melds.get(i * 4 + seat, [])) == want_melds[seat]
            checked += 1
    return checked


@pytest.mark.parametrize("seed", [1, 2])
def test_tile_counts_equal_a_plain_replay(tmp_path, seed):
    rng = random.Random(seed)
    # undated: one partition per ruleset keeps the dataset to a few part files
    hands = [replace(random_hand(rng), started_at=None) for _ in range(60)]
    assert _check(_ingest(tmp_path, hands)) > 0


def test_tile_counts_on_the_sample(tmp_path, sample_path):
    hands = [r for r in read_botzone(sample_path) if isinstance(r, Hand)]
    assert _check(_ingest(tmp_path, hands)) == 16


def test_keep_limits_the_sum(tmp_path, sample_path):
    hands = [r for r in read_botzone(sample_path) if isinstance(r, Hand)]
    ds = _ingest(tmp_path, hands)
    for _ids, _h, events, n_events in part_events(ds, lambda h: np.ones(h.num_rows, bool)):
        is_deal = np.asarray(events.column("kind").to_pylist()) == "deal"
        deals_only = tile_counts(events, n_events, keep=is_deal)
        assert (deals_only.sum(axis=1) == 13).all()
