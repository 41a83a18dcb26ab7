"""The audit's replay from the events' columns (``mjstats.event_columns``): the hands made without
their events, a Botzone hand's draws and discards read from the columns, any other profile's hand
given its events back, must replay exactly as the hands read whole do: the same results, findings
and audit tables, on the bundled real and simulated data and on hands whose records break rules."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from mjstats.audit import PartSlicer, audit_hands
from mjstats.cli import main
from mjstats.event_columns import EventColumns, with_events
from mjstats.records import Event, EventKind
from mjstats.replay import replayer
from mjstats.replay.replayer import HandReplay, replay_hand
from mjstats.rulesets.guobiao.replay_botzone import BOTZONE, BotzoneProfile
from mjstats.store import SourceInput, ingest_sources, open_dataset
from mjstats.tiles import ALL_KINDS

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
# the bundled records: Botzone text, simulated Guobiao, Fuzhou and Sichuan, the real logs (Botzone
# JSON with walls and canHu, the 2017 human-play TSV, PMN), each format found by the command
SOURCES = [
    DATA / "botzone" / "sample.txt",
    *(DATA / "sim" / f"{name}.jsonl.gz" for name in ("guobiao", "fuzhou", "sichuan")),
    DATA / "real",
]
HANDS = 150  # the first hands of each part (a part of the simulated data holds thousands)


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("columns") / "ds"
    assert main(["ingest", "-q", "--jobs", "1", *map(str, SOURCES), "--out", str(out)]) == 0
    return out


def _slicers(dataset: Path) -> list[PartSlicer]:
    with open_dataset(dataset) as ds:
        version = ds.path
        parts = ds.parts()
    return [PartSlicer(version, ruleset, period, part) for ruleset, period, part in parts]


def _count(slicer: PartSlicer) -> int:
    return min(HANDS, len(slicer.events) - 1)


def test_every_ruleset_and_the_column_path_are_covered(dataset: Path) -> None:
    rulesets = {s.ruleset for s in _slicers(dataset)}
    assert {"guobiao", "fuzhou", "sichuan"} <= rulesets
    profiles = {h.profile for s in _slicers(dataset) for h in s.hands(0, _count(s))}
    assert "botzone" in profiles and len(profiles) > 2  # the columns' profile and others


def test_hands_without_events_and_the_columns_make_the_same_hands(dataset: Path) -> None:
    for slicer in _slicers(dataset):
        n = _count(slicer)
        whole = slicer.hands(0, n)
        hands, columns = slicer.replay_inputs(0, n)
        seen = 0
        for hand, expected in zip(hands, whole, strict=True):
            assert hand.events == ()
            assert columns.events() == expected.events
            assert all(type(ev) is Event for ev in columns.events())
            assert [columns.event(i) for i in range(columns.first, columns.stop)] == list(expected.events)
            rebuilt = with_events(hand, columns.events())
            assert rebuilt == expected and rebuilt.provenance == expected.provenance
            assert rebuilt.origin == expected.origin
            seen += 1
        assert seen == n


def _replays_alike(hands_whole: list, slicer: PartSlicer, profile: object = None) -> int:
    """Each hand replayed from the columns against the same hand replayed from its events: the
    same result, field for field; the number replayed from the columns."""
    hands, columns = slicer.replay_inputs(0, len(hands_whole))
    from_columns = 0
    for hand, whole in zip(hands, hands_whole, strict=True):
        chosen = profile or replayer.profile_for(whole)
        expected = replay_hand(whole, chosen)
        got = replay_hand(hand, chosen, columns=columns)
        assert got == expected, (whole.match_id, whole.hand_no)
        from_columns += chosen.reads_columns
    return from_columns


def test_every_hand_replays_alike_from_the_columns(dataset: Path) -> None:
    from_columns = 0
    for slicer in _slicers(dataset):
        from_columns += _replays_alike(slicer.hands(0, _count(slicer)), slicer)
    assert from_columns >= 16  # the Botzone sample's hands at least


def test_broken_hands_replay_alike_from_the_columns(tmp_path: Path) -> None:
    """Hands whose events break rules (a discard not held, a draw out of turn, a seat out of
    range, a missing Hu): the findings and stopped replays are the same from the columns."""
    out = tmp_path / "ds"
    ingest_sources([SourceInput(DATA / "botzone" / "sample.txt", "botzone")], out, jobs=1)
    (slicer,) = _slicers(out)
    whole = slicer.hands(0, len(slicer.events) - 1)
    broken = []
    for k, hand in enumerate(whole):
        events = list(hand.events)
        at = [i for i, ev in enumerate(events) if ev.kind is EventKind.DISCARD]
        i = at[(3 * k) % len(at)]
        if k % 4 == 0:  # a discard of a tile not held
            events[i] = events[i]._replace(tile=ALL_KINDS[(events[i].tile + 5) % 34])
        elif k % 4 == 1:  # a draw removed: the next seat discards out of turn
            draws = [j for j, ev in enumerate(events) if ev.kind is EventKind.DRAW]
            del events[draws[len(draws) // 2]]
        elif k % 4 == 2:  # a seat out of range: the replay stops
            events[i] = events[i]._replace(seat=7)
        else:  # the Hu cut off
            events = events[:-1]
        broken.append(dataclasses.replace(hand, events=tuple(events)))
    # the broken hands' columns, as the read-back makes them
    columns = _columns_of(broken)
    statuses = set()
    at = 0
    for hand in broken:
        expected = replay_hand(hand, BOTZONE)
        columns.first, columns.stop = at, at + len(hand.events)
        at = columns.stop
        got = replay_hand(dataclasses.replace(hand, events=()), BOTZONE, columns=columns)
        assert got == expected, (hand.match_id, hand.hand_no)
        statuses.add(expected.status)
    assert {"errors", "stopped"} <= statuses


def _columns_of(hands: list) -> EventColumns:
    rows = [ev for hand in hands for ev in hand.events]
    return EventColumns(*[list(field) for field in zip(*rows, strict=True)])


def test_a_profile_that_reads_events_gets_them_back(dataset: Path) -> None:
    """A profile not marked ``reads_columns`` (here the Botzone one, unmarked) and a replay class
    whose draw is its own are given the hand with its events: the same results."""

    @dataclasses.dataclass(frozen=True)
    class Unmarked(BotzoneProfile):
        reads_columns = False

    class OwnDraw(HandReplay):
        def on_draw(self, ev: Event) -> None:
            super().on_draw(ev)

    @dataclasses.dataclass(frozen=True)
    class OwnDrawProfile(BotzoneProfile):
        @property
        def replay_class(self) -> type:  # type: ignore[override]
            return OwnDraw

    for slicer in _slicers(dataset):
        whole = slicer.hands(0, _count(slicer))
        if whole and whole[0].profile == "botzone" and whole[0].ruleset == "guobiao":
            assert _replays_alike(whole, slicer, Unmarked()) == 0
            _replays_alike(whole, slicer, OwnDrawProfile())
            assert not replayer._neutral_steps(OwnDraw)
            assert replayer._neutral_steps(BOTZONE.replay_class)


def test_the_audit_tables_are_the_same_from_the_columns(dataset: Path) -> None:
    for slicer in _slicers(dataset):
        n = _count(slicer)
        expected = audit_hands(slicer.iter_hands(0, n))
        hands, columns = slicer.replay_inputs(0, n)
        got = audit_hands(hands, columns=columns)
        assert got[1] == expected[1] and got[2] == expected[2]
        for name, table in expected[0].items():
            assert got[0][name].equals(table), name
