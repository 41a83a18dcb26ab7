"""Report figures: inline SVG that is byte-identical on every run, with ids unique per figure,
text kept as (escaped) text, no metadata date, and the page's size (a viewBox, no fixed size)."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mjstats.report import figures

SVG = "{http://www.w3.org/2000/svg}"


def _points(labels: list[str]) -> list[figures.Point]:
    return [figures.Point(s, 0.1 + 0.02 * i, 0.05, 0.3, i % 2 == 0) for i, s in enumerate(labels)]


def test_svg_is_deterministic_and_clean() -> None:
    make = lambda: figures.intervals(_points(["ann", "bo"]), name="f", title="Win rate", xlabel="win rate")  # noqa: E731
    first, second = make(), make()
    assert first == second
    assert first.startswith("<svg") and "<?xml" not in first and "<metadata" not in first
    assert "dc:date" not in first and "Matplotlib" not in first
    root = ET.fromstring(first)
    assert re.fullmatch(r"0 0 [\d.]+ [\d.]+", root.get("viewBox"))
    assert root.get("width") is None and root.get("height") is None
    assert root.get("class") == "figure" and root.get("aria-label") == "Win rate"


def test_ids_are_prefixed_and_references_follow() -> None:
    svg = figures.bars(["a", "b"], [0.2, 0.4], low=[0.1, 0.3], high=[0.3, 0.5], name="fig7", title="t",
                       xlabel="x", percent=True)  # fmt: skip
    root = ET.fromstring(svg)
    ids = [e.get("id") for e in root.iter() if e.get("id")]
    assert ids and all(i.startswith("fig7-") for i in ids)
    refs = re.findall(r'(?:url\(#|href="#)([^)"]+)', svg)
    assert refs and set(refs) <= set(ids)


@settings(max_examples=15, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=12).filter(lambda s: s.strip()), min_size=1, max_size=4))
def test_labels_are_text_and_escaped(labels: list[str]) -> None:
    svg = figures.intervals(_points(labels), name="p", title="<b>&'\"", xlabel="x")
    root = ET.fromstring(svg)  # well-formed whatever the labels hold
    texts = {"".join(t.itertext()) for t in root.iter(f"{SVG}text")}
    for label in labels:
        if label.isprintable() and label == label.strip():
            assert label in texts
    assert root.get("aria-label") == "<b>&'\""


def _texts(root: ET.Element) -> Counter[str]:
    return Counter("".join(t.itertext()) for t in root.iter(f"{SVG}text"))


def test_heatmap_and_series_render() -> None:
    matrix = np.array([[math.nan, 1.0], [1.0, math.nan]])
    svg = figures.heatmap(["平和", "自摸"], matrix, name="h", title="lift", colorbar="log2 lift")
    root = ET.fromstring(svg)
    texts = _texts(root)
    # each fan labels one column and one row; the colour bar carries its label
    assert (texts["平和"], texts["自摸"], texts["log2 lift"]) == (2, 2, 1)
    assert len(list(root.iter(f"{SVG}image"))) == 2  # the matrix and the colour bar
    line = figures.series({"dealer": [(0, 0.25, 0.2, 0.3, False), (1, 0.3, 0.1, 0.5, True)],
                           "others": [(0, 0.2, 0.1, 0.3, False), (1, 0.22, 0.1, 0.3, False),
                                      (2, 0.24, 0.2, 0.3, True)]},
                          name="s", title="s", xlabel="streak", ylabel="rate")  # fmt: skip
    root = ET.fromstring(line)
    texts = _texts(root)
    assert texts["dealer"] == texts["others"] == 1  # the legend names each series once
    assert texts["streak"] == texts["rate"] == 1
    axes = next(g for g in root.iter(f"{SVG}g") if g.get("id") == "s-axes_1")
    plotted = [g for g in axes if "line2d" in (g.get("id") or "")]
    # one marker per point (2 + 3), drawn as <use>; one interval band per series
    assert sum(len(list(g.iter(f"{SVG}use"))) for g in plotted) == 5
    assert sum("FillBetween" in (g.get("id") or "") for g in axes) == 2
