"""Recorded text in figures is drawn literally: a player called ``$x^$`` neither crashes the
report (bad mathtext) nor is ``$\\alpha$`` drawn as a Greek letter (issue [9] item 7)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np

from mjstats.report import figures

NAMES = ["$x^$", r"$\alpha$", "plain", r"a$b\$c$"]


def _texts(svg: str) -> set[str]:
    """Every piece of text an SVG shows (labels, ticks, legend entries)."""
    return {"".join(e.itertext()) for e in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")}


def test_interval_and_bar_labels_are_literal() -> None:
    points = [figures.Point(s, 0.2, 0.1, 0.3) for s in NAMES]
    svg = figures.intervals(points, name="f1", title="$x^$", xlabel=r"rate of $\alpha$")
    assert set(NAMES) <= _texts(svg) and r"rate of $\alpha$" in _texts(svg)
    for vertical in (False, True):
        svg = figures.bars(NAMES, [1, 2, 3, 4], name="f2", title="t", xlabel="$x^$", vertical=vertical)
        assert set(NAMES) <= _texts(svg) and "$x^$" in _texts(svg)


def test_legend_and_heatmap_labels_are_literal() -> None:
    lines = {name: [(1.0, 0.2, 0.1, 0.3, False), (2.0, 0.3, 0.2, 0.4, True)] for name in NAMES}
    svg = figures.series(lines, name="f3", title="t", xlabel="hand", ylabel=r"$\alpha$")
    assert set(NAMES) <= _texts(svg)
    svg = figures.heatmap(NAMES, np.zeros((4, 4)), name="f4", title="t", colorbar="$x^$")
    assert set(NAMES) <= _texts(svg) and "$x^$" in _texts(svg)


def test_notebook_settings_draw_recorded_text_literally() -> None:
    import matplotlib as mpl
    import matplotlib.pyplot as plt

    from mjstats.report import use_cjk_font

    with mpl.rc_context():
        use_cjk_font()
        fig, ax = plt.subplots()
        ax.set_title("$x^$")  # a name that is broken mathtext
        ax.bar(["$\\alpha$"], [1])
        fig.canvas.draw()  # would raise on "$x^$" as mathtext
        assert ax.get_title() == "$x^$"
        plt.close(fig)
