"""Hands, melds, tiles and tables display as tiles (notebook reprs), ``mjstats.display`` at any
event matches the replay, ``Dataset.hand`` finds a hand, and ``audit --explain --html`` writes
the viewer page without overwriting a user's file."""

from __future__ import annotations

import dataclasses
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mjstats
from mjstats.cli import main
from mjstats.errors import MjstatsError
from mjstats.formats.botzone import read_botzone
from mjstats.records import Event, EventKind, Hand
from mjstats.replay import Meld, replay_hand
from mjstats.tiles import Tile
from mjstats.viewer import BACK, DisplayError, meld_view, table_views, voids_of

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "data" / "botzone" / "sample.txt"
HAND_ID = "61602cb45ddc087351c04358"
EVIL = "<script>alert(1)</script>"


@pytest.fixture(scope="module")
def hand() -> Hand:
    found = [h for h in read_botzone(SAMPLE) if isinstance(h, Hand) and h.match_id == HAND_ID]
    assert len(found) == 1
    return found[0]


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("viewer") / "ds"
    assert main(["ingest", str(SAMPLE), "--out", str(out), "-q"]) == 0
    return out


def test_hand_repr_shows_tiles_and_keeps_equality(hand: Hand) -> None:
    html = hand._repr_html_()
    assert html.count("<svg") == 4  # each seat's starting tiles
    for svg in re.findall(r"<svg.*?</svg>", html, re.S):
        ET.fromstring(svg)
    assert HAND_ID in html and "result: win" in html
    copy = dataclasses.replace(hand)
    assert copy == hand and hash(copy) == hash(hand)  # the repr methods change neither


def test_player_names_are_escaped(hand: Hand) -> None:
    evil = dataclasses.replace(hand, players=(EVIL, "b", "c", "d"), match_id=f"m{EVIL}")
    html = evil._repr_html_()
    assert "<script" not in html and "&lt;script&gt;" in html
    svg = table_views(evil)[5]._repr_svg_()
    assert "<script" not in svg
    ET.fromstring(svg)


def test_meld_and_tile_reprs() -> None:
    chow = Meld("CHI", 4, 2)
    svg = ET.fromstring(chow._repr_svg_())
    titles = [t.text for t in svg.iter("{http://www.w3.org/2000/svg}title")]
    assert titles == ["四万 W4", "五万 W5", "六万 W6"]
    assert meld_view(chow).rotated == 1
    assert meld_view(Meld("PENG", 30, 3)).rotated == 2  # from the next seat: right
    assert meld_view(Meld("GANG", 30, 1)).rotated == 0  # from the previous seat: left
    assert meld_view(Meld("GANG", 30, 0)).tiles == (BACK, 30, 30, BACK)  # concealed kong
    assert "万" in Tile(0)._repr_svg_() or "萬" in Tile(0)._repr_svg_()


def test_display_at_every_event_matches_the_replay(hand: Hand) -> None:
    result = replay_hand(hand, explain=True)
    views = table_views(hand, result)
    assert [v.seq for v in views] == [e.seq for e in hand.events]
    for view, turn, event in zip(views, result.turns, hand.events, strict=True):
        won_on_discard = event.kind.value == "hu" and event.from_seat is not None
        for seat in range(4):
            shown = list(view.seats[seat].concealed)
            if view.seats[seat].drawn is not None and not won_on_discard:
                shown.append(view.seats[seat].drawn)
            assert sorted(shown) == sorted(turn.concealed[seat])
            assert view.seats[seat].river == tuple((t, c) for t, c in turn.rivers[seat])
        assert view.wall == turn.wall
    ET.fromstring(result.turns[30]._repr_svg_())  # a replayer turn state displays too
    at = mjstats.display(hand, at=20)
    assert at.seq == 20 and at.event == result.turns[20].event
    assert at.focus == (at.actor, "drawn", 0)  # event 20 is a draw: the drawn tile is outlined
    ET.fromstring(at._repr_svg_())
    assert mjstats.display(hand) is hand
    with pytest.raises(DisplayError, match="no event 999"):
        mjstats.display(hand, at=999)


def test_findings_are_marked_at_their_event(hand: Hand) -> None:
    # discard a tile the seat does not hold: the replay finds it at that event
    events = list(hand.events)
    i = next(i for i, e in enumerate(events) if e.kind.value == "discard" and e.seat == 1)
    held = set(t for e in events[:i] if e.seat == 1 for t in (e.tiles or ((e.tile,) if e.tile else ())))
    other = next(t for t in range(27) if t not in held)
    events[i] = events[i]._replace(tile=Tile(other))
    bad = dataclasses.replace(hand, events=tuple(events))
    views = table_views(bad)
    marked = [v for v in views if v.findings]
    assert marked and marked[0].seq == events[i].seq
    assert 'stroke="#d1495b"' in marked[0]._repr_svg_()  # outlined in the finding's red


def test_voids_come_from_the_hand(hand: Hand) -> None:
    assert voids_of(hand) == (None,) * 4
    declared = tuple(Event(seq=i, kind=EventKind.VOID, seat=s, tile=Tile(t)) for i, (s, t) in
                     enumerate(((0, 18), (1, 0), (3, 9))))  # seat 0 dots, 1 characters, 3 bamboo
    sichuan = dataclasses.replace(hand, events=declared + hand.events)
    assert voids_of(sichuan) == (2, 0, None, 1)
    assert "缺" in sichuan._repr_html_()


def test_voids_come_from_the_void_events() -> None:
    """A Sichuan record declares each seat's void suit with a ``void`` event (docs/format.md):
    the viewer marks the suit of each seat's event, whatever the meta says."""
    from mjstats.formats.canonical import read_canonical

    hand = next(h for h in read_canonical(Path("data/sim/sichuan.jsonl.gz")) if isinstance(h, Hand))
    declared = [None] * 4
    for event in hand.events:
        if event.kind.value == "void":
            declared[event.seat] = int(event.tile) // 9
    assert None not in declared
    assert voids_of(hand) == tuple(declared)
    views = table_views(hand)
    assert all(view.seats[s].void == declared[s] for view in views for s in range(4))


def test_dataset_hand(dataset: Path) -> None:
    ds = mjstats.open_dataset(dataset)
    hand = ds.hand(HAND_ID)
    assert hand.match_id == HAND_ID and "<svg" in hand._repr_html_()
    assert ds.hand(HAND_ID, hand.hand_no) == hand
    with pytest.raises(MjstatsError, match="no match"):
        ds.hand("nope")
    with pytest.raises(MjstatsError, match="no hand 7"):
        ds.hand(HAND_ID, 7)


def test_explain_html(dataset: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "hand.html"
    assert main(["audit", str(dataset), "--explain", HAND_ID, "--html", str(page)]) == 0
    html = page.read_text(encoding="utf-8")
    assert html.count('class="mj-viewer"') == 1 and "script-src 'sha256-" in html
    data = re.search(r'<script type="application/json" class="mj-data">(.*?)</script>', html, re.S)
    states = json.loads(data.group(1))["states"]
    assert len(states) == len(mjstats.open_dataset(dataset).hand(HAND_ID).events)
    again = page.read_bytes()
    assert main(["audit", str(dataset), "--explain", HAND_ID, "--html", str(page)]) == 0  # its own page
    assert page.read_bytes() == again  # deterministic
    user = tmp_path / "notes.html"
    user.write_text("mine", encoding="utf-8")
    capsys.readouterr()
    assert main(["audit", str(dataset), "--explain", HAND_ID, "--html", str(user)]) == 2
    assert "--force" in capsys.readouterr().err and user.read_text(encoding="utf-8") == "mine"
    assert main(["audit", str(dataset), "--explain", HAND_ID, "--html", str(user), "--force"]) == 0
    assert "mj-viewer" in user.read_text(encoding="utf-8")
    assert main(["audit", str(dataset), "--html", str(page)]) == 2


def test_decision_flags_show_at_their_discard(dataset: Path, tmp_path: Path) -> None:
    """A dataset with a ``decisions`` table: its flags are shown at the discard they belong to."""
    import shutil

    import pyarrow as pa
    import pyarrow.parquet as pq

    copy = tmp_path / "ds"
    shutil.copytree(dataset, copy)
    ds = mjstats.open_dataset(copy)
    hand = ds.hand(HAND_ID)
    discard = next(e for e in hand.events if e.kind.value == "discard" and e.seq > 10)
    folder = ds.path / "decisions"
    folder.mkdir()
    pq.write_table(
        pa.table({
            "match_id": [HAND_ID], "hand_no": [hand.hand_no], "seq": [discard.seq], "seat": [discard.seat],
            "kind": ["discard"], "shanten_before": [1], "shanten_after": [2], "useful_kept": [4],
            "useful_best": [9], "best_discards": ["W1"], "danger": [0.25], "flags": ["not_best,broke_tenpai"],
        }),
        folder / "part-0.parquet",
    )  # fmt: skip
    page = tmp_path / "hand.html"
    assert main(["audit", str(copy), "--explain", HAND_ID, "--html", str(page)]) == 0
    html = page.read_text(encoding="utf-8")
    data = re.search(r'<script type="application/json" class="mj-data">(.*?)</script>', html, re.S)
    states = {s["s"]: s for s in json.loads(data.group(1))["states"]}
    assert states[discard.seq]["g"][0] == f"seat {discard.seat} decision: flags: not_best, broke_tenpai"
    assert "shanten 1→2" in states[discard.seq]["g"][1]
    assert sum(bool(s["g"]) for s in states.values()) == 1


def test_readme_seeing_hands_block_runs(dataset: Path, tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    from tests.test_readme import readme_block

    code = readme_block("Seeing hands", "python")
    script = tmp_path / "seeing_hands.py"
    check = '\nassert "<svg" in svg and table.seq == 20\nprint(len(hand._repr_html_()))\n'
    script.write_text(code.replace('"DS"', repr(str(dataset))) + check, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) > 1000


def test_simulated_fuzhou_hands_draw_gold_flowers_and_findings() -> None:
    """Every event of simulated Fuzhou hands (with recorded faults) draws as well-formed SVG;
    the gold carries its mark, flowers turned up as gold go to their seat, findings are marked."""
    from mjstats.sim import SimConfig, simulate_with_faults

    hands = [hand for hand, _ in simulate_with_faults(SimConfig("fuzhou", 12, 5), 0.5)]
    marked = given_gold_flower = 0
    for hand in hands:
        result = replay_hand(hand, explain=True)
        views = table_views(hand, result)
        assert len(views) == len(hand.events)
        at_events = {f.seq for f in result.findings if f.seq is not None}
        for view in views:
            assert bool(view.findings) == (view.seq in at_events)
        marked += sum(bool(v.findings) for v in views)
        for i, event in enumerate(hand.events):
            if event.kind.value == "gold" and event.seat is not None and i < len(result.turns):
                assert views[i].seats[event.seat].flowers[-1] == event.tile
                given_gold_flower += 1
        last = views[-1]
        svg = last._repr_svg_()
        ET.fromstring(svg)
        shown = [
            t
            for s in last.seats
            for t in (*s.concealed, s.drawn, *(t for t, _ in s.river), *(t for m in s.melds for t in m.tiles))
        ]
        gold_held = hand.gold in shown
        assert ("金" in svg) == gold_held
    assert marked and given_gold_flower


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(["guobiao", "fuzhou"]), st.integers(0, 10_000))
def test_views_agree_with_the_replay_on_any_simulated_hand(ruleset: str, seed: int) -> None:
    """Whatever the hand, each view shows exactly the replay's tiles: concealed plus the tile
    set apart, rivers, melds; the outlined tile exists where the view says."""
    from mjstats.sim import SimConfig, simulate_with_faults

    hand = next(h for h, _ in simulate_with_faults(SimConfig(ruleset, 1, seed), 0.3))
    result = replay_hand(hand, explain=True)
    views = table_views(hand, result)
    for view, turn, event in zip(views, result.turns, hand.events, strict=False):
        won_on_discard = event.kind.value == "hu" and event.from_seat is not None
        for s, seat in enumerate(view.seats):
            extra = [seat.drawn] if seat.drawn is not None and not won_on_discard else []
            assert sorted([*seat.concealed, *extra]) == sorted(turn.concealed[s])
            assert seat.river == turn.rivers[s]
            assert [m.tiles for m in seat.melds] == [meld_view(m).tiles for m in turn.melds[s]]
        if view.focus is not None:
            s, place, i = view.focus
            seat = view.seats[s]
            places = {"drawn": [seat.drawn], "river": seat.river, "meld": seat.melds, "flower": seat.flowers}
            held = places[place]
            assert 0 <= i < len(held) and held[i] is not None
