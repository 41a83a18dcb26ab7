"""Report figures: matplotlib drawn to inline SVG that is the same, byte for byte, on every run.

Determinism: a fixed style (matplotlib defaults plus the overrides below, never the user's
matplotlibrc), a fixed font (DejaVu Sans, shipped with matplotlib), a fixed ``svg.hashsalt``
(clip-path ids), no date or creator metadata, and margins computed here rather than measured.
Text stays text (``svg.fonttype: none``) so Chinese fan names render with the page's fonts, and
every id is prefixed per figure so several SVGs can share one HTML page. Every text is drawn
literally (no mathtext): names come from untrusted records.
"""

from __future__ import annotations

import io
import math
import re
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import matplotlib as mpl
import numpy as np
from matplotlib.backends.backend_svg import FigureCanvasSVG
from matplotlib.colors import TwoSlopeNorm
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator, PercentFormatter

from mjstats.report import fonts

__all__ = ["Point", "bars", "heatmap", "intervals", "series", "svg_of"]

INK = "#1f2933"
MUTED = "#7b8794"
GRID = "#e4e7eb"
PRIMARY = "#2f6690"
ACCENT = "#d1495b"
SMALL = "#a3adb8"  # rows flagged small_sample
PALETTE = (PRIMARY, ACCENT, "#3a7d44", "#e09f3e", "#6d597a", "#3f88c5")

STYLE = {
    "svg.hashsalt": "mjstats-report",
    "svg.fonttype": "none",
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans"],
    "font.size": 9.0,
    "axes.edgecolor": MUTED,
    "axes.labelcolor": INK,
    "axes.linewidth": 0.6,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "axes.axisbelow": True,
    "grid.color": GRID,
    "grid.linewidth": 0.6,
    "xtick.color": MUTED,
    "ytick.color": MUTED,
    "xtick.labelcolor": INK,
    "ytick.labelcolor": INK,
    "xtick.major.size": 3.0,
    "ytick.major.size": 0.0,
    "legend.frameon": False,
    "path.simplify": False,
    # recorded text (player, style and fan names, match ids) is drawn as written: a name like
    # "$x^$" must neither crash the figure as bad mathtext nor turn "$\\alpha$" into a glyph
    "text.parse_math": False,
    "text.usetex": False,
}

WIDTH = 7.0  # inches; the page scales the SVG to its column
_CJK = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]")


@dataclass(frozen=True, slots=True)
class Point:
    """One estimate with its 95% interval; ``small`` marks a small sample (drawn hollow, grey)."""

    label: str
    value: float
    low: float
    high: float
    small: bool = False


def _text_width(text: str, size: float) -> float:
    """Width in inches of a label, estimated (CJK glyphs are one em wide, others about 0.6 em)."""
    wide = len(_CJK.findall(text))
    return (wide * 1.0 + (len(text) - wide) * 0.6) * size / 72.0


def _left_margin(labels: Sequence[str]) -> float:
    longest = max((_text_width(s, STYLE["font.size"]) for s in labels), default=0.0)
    return min(0.45, (longest + 0.25) / WIDTH)


def _figure(height: float) -> Figure:
    return Figure(figsize=(WIDTH, height), dpi=72)


_ID = re.compile(r'\bid="([^"]+)"')
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff]")
_REF = re.compile(r'(url\(#|href="#)([^)"]+)')


def svg_of(fig: Figure, name: str, title: str) -> str:
    """The figure as an inline ``<svg>`` element: ids prefixed with ``name``, sized by the page,
    labelled with ``title`` for screen readers."""
    buffer = io.StringIO()
    with mpl.rc_context(STYLE):
        FigureCanvasSVG(fig).print_svg(buffer, metadata={"Date": None, "Creator": None})
    text = buffer.getvalue()
    text = fonts.with_cjk_fonts(text[text.index("<svg") :])
    text = _NOT_XML.sub("\ufffd", text)  # control characters in record text would break the XML
    text = re.sub(r"<metadata>.*?</metadata>\s*", "", text, flags=re.S)
    text = _ID.sub(lambda m: f'id="{name}-{m.group(1)}"', text)
    text = _REF.sub(lambda m: f"{m.group(1)}{name}-{m.group(2)}", text)
    label = f'<svg\\1 class="figure" role="img" aria-label="{_attr(title)}"'
    text = re.sub(r'<svg([^>]*?) width="[^"]*" height="[^"]*"', label, text, count=1)
    return text.strip() + "\n"


def _attr(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;")


@contextmanager
def _drawing() -> Iterator[None]:
    """The fixed style; glyph warnings silenced (CJK labels are measured with DejaVu Sans but
    drawn by the browser's fonts)."""
    with mpl.rc_context(STYLE), warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r".*[Gg]lyph.*missing.*")
        yield


def _percent_axis(ax, axis: str = "x") -> None:
    (ax.xaxis if axis == "x" else ax.yaxis).set_major_formatter(PercentFormatter(1.0, decimals=0))


def intervals(
    points: Sequence[Point],
    *,
    name: str,
    title: str,
    xlabel: str,
    percent: bool = True,
    reference: float | None = None,
) -> str:
    """Estimates as dots with 95% interval whiskers, one row per label (top to bottom)."""
    with _drawing():
        fig = _figure(0.6 + 0.28 * max(len(points), 1))
        ax = fig.add_subplot()
        ys = np.arange(len(points))[::-1]
        for y, p in zip(ys, points, strict=True):
            colour = SMALL if p.small else PRIMARY
            if not math.isnan(p.low):
                ax.plot([p.low, p.high], [y, y], color=colour, linewidth=2.2, solid_capstyle="round")
            ax.plot(
                [p.value],
                [y],
                marker="o",
                markersize=6,
                color=colour,
                markerfacecolor="white" if p.small else colour,
                markeredgewidth=1.4,
            )
        if reference is not None and not math.isnan(reference):
            ax.axvline(reference, color=ACCENT, linewidth=0.9, linestyle=(0, (4, 3)))
        ax.set_yticks(ys, [p.label for p in points])
        ax.set_ylim(-0.7, len(points) - 0.3)
        ax.grid(axis="y", visible=False)
        ax.set_xlabel(xlabel)
        if percent:
            _percent_axis(ax)
            ax.set_xlim(left=0)
        fig.subplots_adjust(
            left=_left_margin([p.label for p in points]),
            right=0.97,
            top=0.97,
            bottom=0.45 / fig.get_figheight() + 0.05,
        )
        return svg_of(fig, name, title)


def bars(
    labels: Sequence[str],
    values: Sequence[float],
    *,
    name: str,
    title: str,
    xlabel: str,
    low: Sequence[float] | None = None,
    high: Sequence[float] | None = None,
    small: Sequence[bool] | None = None,
    percent: bool = False,
    vertical: bool = False,
    positions: Sequence[float] | None = None,
) -> str:
    """Bars (horizontal by default), with 95% interval whiskers when ``low``/``high`` are given.
    Vertical bars stand at ``positions`` on a numeric axis when given (gaps stay visible)."""
    n = len(labels)
    flags = list(small) if small is not None else [False] * n
    colours = [SMALL if s else PRIMARY for s in flags]
    with _drawing():
        if vertical:
            fig = _figure(2.6)
            ax = fig.add_subplot()
            xs = np.asarray(positions, float) if positions is not None else np.arange(n)
            ax.bar(xs, values, color=colours, width=0.7)
            if low is not None and high is not None:
                v = np.asarray(values, float)
                err = np.vstack([v - np.asarray(low, float), np.asarray(high, float) - v])
                ax.errorbar(xs, v, yerr=err, fmt="none", ecolor=INK, elinewidth=0.9, capsize=2.5)
            if positions is None:
                ax.set_xticks(xs, list(labels))
            else:
                ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            ax.grid(axis="x", visible=False)
            ax.set_xlabel(xlabel)
            if percent:
                _percent_axis(ax, "y")
            fig.subplots_adjust(left=0.09, right=0.98, top=0.95, bottom=0.2)
        else:
            fig = _figure(0.6 + 0.26 * max(n, 1))
            ax = fig.add_subplot()
            ys = np.arange(n)[::-1]
            ax.barh(ys, values, color=colours, height=0.68)
            if low is not None and high is not None:
                v = np.asarray(values, float)
                err = np.vstack([v - np.asarray(low, float), np.asarray(high, float) - v])
                ax.errorbar(v, ys, xerr=err, fmt="none", ecolor=INK, elinewidth=0.9, capsize=2.5)
            ax.set_yticks(ys, list(labels))
            ax.set_ylim(-0.7, n - 0.3)
            ax.grid(axis="y", visible=False)
            ax.set_xlabel(xlabel)
            if percent:
                _percent_axis(ax)
            fig.subplots_adjust(
                left=_left_margin(labels), right=0.97, top=0.97, bottom=0.45 / fig.get_figheight() + 0.05
            )
        return svg_of(fig, name, title)


def series(
    lines: dict[str, Sequence[tuple[float, float, float, float, bool]]],
    *,
    name: str,
    title: str,
    xlabel: str,
    ylabel: str,
    percent: bool = True,
    step: bool = False,
) -> str:
    """One line per name over x, each point (x, value, low, high, small) with its interval band."""
    with _drawing():
        fig = _figure(2.8)
        ax = fig.add_subplot()
        for i, (label, pts) in enumerate(lines.items()):
            colour = PALETTE[i % len(PALETTE)]
            xs = np.array([p[0] for p in pts], float)
            vs = np.array([p[1] for p in pts], float)
            lo = np.array([p[2] for p in pts], float)
            hi = np.array([p[3] for p in pts], float)
            where = "mid" if step else None
            ax.fill_between(xs, lo, hi, color=colour, alpha=0.15, linewidth=0, step=where)
            if step:
                ax.step(xs, vs, where="mid", color=colour, linewidth=1.6, label=label)
            else:
                ax.plot(xs, vs, color=colour, linewidth=1.6, label=label)
            for x, v, s in zip(xs, vs, [p[4] for p in pts], strict=True):
                ax.plot(
                    [x],
                    [v],
                    marker="o",
                    markersize=4.5,
                    color=colour,
                    markerfacecolor="white" if s else colour,
                )
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)

        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        if percent:
            _percent_axis(ax, "y")
            ax.set_ylim(bottom=0)
        if len(lines) > 1:
            ax.legend(loc="best")
        fig.subplots_adjust(left=0.1, right=0.98, top=0.95, bottom=0.17)
        return svg_of(fig, name, title)


def heatmap(labels: Sequence[str], matrix: np.ndarray, *, name: str, title: str, colorbar: str) -> str:
    """A symmetric matrix of log2 lifts (NaN = never seen together), diverging around 0."""
    n = len(labels)
    with _drawing():
        side = 1.4 + 0.3 * n
        fig = _figure(min(side, 7.0))
        ax = fig.add_subplot()
        finite = matrix[np.isfinite(matrix)]
        bound = max(1.0, float(np.max(np.abs(finite)))) if finite.size else 1.0
        cmap = mpl.colormaps["RdBu_r"].with_extremes(bad="#f5f7fa")
        norm = TwoSlopeNorm(vcenter=0.0, vmin=-bound, vmax=bound)
        image = ax.imshow(np.ma.masked_invalid(matrix), cmap=cmap, norm=norm, aspect="equal")
        ax.set_xticks(range(n), list(labels), rotation=90)
        ax.set_yticks(range(n), list(labels))
        ax.tick_params(axis="x", length=0)
        ax.grid(False)
        for spine in ax.spines.values():
            spine.set_visible(False)
        bar = fig.colorbar(image, ax=ax, shrink=0.8, pad=0.02)
        bar.set_label(colorbar)
        bar.outline.set_visible(False)
        margin = _left_margin(labels)
        fig.subplots_adjust(
            left=margin, right=0.95, top=0.98, bottom=min(0.45, margin * WIDTH / fig.get_figheight())
        )
        return svg_of(fig, name, title)
