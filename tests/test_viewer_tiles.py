"""SVG tiles: every kind drawn, well-formed, distinct, deterministic; marks and rotation; rows
and tables escape record text; the viewer's JSON cannot close its script block."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

from hypothesis import given
from hypothesis import strategies as st

from mjstats.tiles import ALL_KINDS, NUM_TILES, parse_tiles
from mjstats.viewer import BACK, Tiles, tile_svg, tile_symbols, tiles_svg
from mjstats.viewer.page import _json, decision_notes
from mjstats.viewer.tiles_svg import tile_face, tile_group, tile_label

SVG = "{http://www.w3.org/2000/svg}"
KINDS = [*range(NUM_TILES), BACK]


def test_every_kind_is_well_formed_and_distinct() -> None:
    faces = {}
    for code in KINDS:
        svg = tile_svg(code)
        root = ET.fromstring(svg)
        assert root.tag == f"{SVG}svg"
        assert root.get("viewBox") == "0 0 30 40" and root.get("aria-label") == tile_label(code)
        assert root.find(f"{SVG}g/{SVG}title").text == tile_label(code)
        assert "<image" not in svg and 'href="http' not in svg and "@font-face" not in svg
        faces[code] = tile_face(code)
    assert len(set(faces.values())) == len(KINDS), "two kinds drawn the same"
    # the characters, honours and flowers name their character in plain text
    assert "萬" in faces[0] and "九" in faces[8] and "東" in faces[27] and "中" in faces[31]
    assert "發" in faces[32] and "春" in faces[34] and "菊" in faces[41]
    # dots and bamboo are drawn: n circles pairs for n dots, sticks for bamboo
    for rank in range(2, 10):
        assert faces[18 + rank - 1].count("<circle") == 2 * rank
        assert faces[9 + rank - 1].count("<rect") - 2 == rank  # body (2 rects) + one per stick


def test_tiles_are_deterministic() -> None:
    assert [tile_svg(c) for c in KINDS] == [tile_svg(c) for c in KINDS]
    assert tile_symbols() == tile_symbols()


def test_marks_and_rotation() -> None:
    plain = tile_svg(5)
    gold, void = tile_svg(5, gold=True), tile_svg(5, void=True)
    assert "金" in gold and "金" not in plain and "缺" in void and "缺" not in plain
    current, finding = tile_svg(5, highlight="current"), tile_svg(5, highlight="finding")
    assert "#1971c2" in current and "#d1495b" in finding and current != finding
    assert ET.fromstring(current).get("viewBox") == "-2 -2 34 44"  # room for the outline
    rotated = ET.fromstring(tile_svg(5, rotated=True))
    assert rotated.get("viewBox") == "0 0 40 30"
    assert "rotate(90)" in rotated.find(f"{SVG}g").get("transform")
    for svg in (gold, void, current, finding):
        ET.fromstring(svg)


def test_symbols_hold_every_kind_once() -> None:
    root = ET.fromstring(tile_symbols("p"))
    ids = [s.get("id") for s in root.iter(f"{SVG}symbol")]
    assert len(ids) == len(set(ids))
    assert {f"p-{t.botzone}" for t in ALL_KINDS} | {"p-back"} <= set(ids)
    assert {"p-mark-gold", "p-mark-void", "p-mark-current", "p-mark-finding"} <= set(ids)
    used = tile_group(3, symbol="p")
    assert 'href="#p-W4"' in used


@given(st.lists(st.integers(0, NUM_TILES - 1), max_size=20), st.sampled_from([0.5, 0.72, 1.0]))
def test_any_row_is_well_formed(codes: list[int], scale: float) -> None:
    root = ET.fromstring(tiles_svg(codes, scale=scale))
    titles = [t.text for t in root.iter(f"{SVG}title")]
    assert titles == [tile_label(c) for c in codes]


def test_tiles_row_type() -> None:
    row = Tiles("123m 5z")
    assert row == parse_tiles("123m5z") and repr(row) == "Tiles('W1 W2 W3 J1')"
    assert row._repr_svg_().count("<title>") == 4


def test_json_cannot_close_the_script_block() -> None:
    evil = {"name": "</script><script>alert(1)</script>", "amp": "&lt;", "nested": ["<!--"]}
    text = _json(evil)
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == evil


def test_decision_notes() -> None:
    rows = [
        {"seq": 12, "seat": 1, "flags": "not_best, dangerous", "shanten_before": 2, "shanten_after": 3,
         "useful_kept": 8, "useful_best": 12, "best_discards": "W1 B9", "danger": None},
        {"seq": float("nan"), "seat": 0, "flags": "x"},
        {"seq": 14, "seat": 2, "flags": "", "shanten_before": None, "shanten_after": None},
    ]  # fmt: skip
    notes = decision_notes(rows)
    assert list(notes) == [12]
    assert notes[12][0] == "seat 1 decision: flags: not_best, dangerous"
    assert "shanten 2→3" in notes[12][1] and "kept 8 of best 12" in notes[12][1] and "W1 B9" in notes[12][1]


def test_no_tile_drawn_from_outside_the_code_range() -> None:
    for bad in (-2, NUM_TILES):
        try:
            tile_face(bad)
        except ValueError as exc:
            assert re.search(r"no tile", str(exc))
        else:
            raise AssertionError("drew a tile that does not exist")
