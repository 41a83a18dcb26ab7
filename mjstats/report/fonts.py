"""Fonts for Chinese text in figures: fan names, player names and tiles are often Chinese.

SVG (the report): text stays text (``svg.fonttype: none``) and every ``<text>`` names common CJK
fonts first, so the viewer's own fonts draw the glyphs; the layout is measured with DejaVu Sans
(shipped with matplotlib) whatever is installed, so the bytes never depend on the machine.
Raster output (PNG, e.g. notebooks): glyphs are drawn by matplotlib itself, so an installed CJK
font must be chosen; without one Chinese text draws as empty boxes, and a single warning says so.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterable

__all__ = [
    "CJK_FONTS",
    "LAYOUT_FONT",
    "MissingCJKFontWarning",
    "choose_cjk_font",
    "raster_fonts",
    "svg_font_family",
    "use_cjk_font",
    "with_cjk_fonts",
]

LAYOUT_FONT = "DejaVu Sans"  # measures the text of every SVG figure (ships with matplotlib)

# Common CJK families, most preferred first: the Simplified Chinese cuts, then the same designs
# in their Japanese, Traditional and Korean cuts (all hold the Han characters fan names use).
CJK_FONTS = (
    "Noto Sans CJK SC",
    "Source Han Sans SC",
    "Source Han Sans CN",
    "PingFang SC",
    "Hiragino Sans GB",
    "Microsoft YaHei",
    "WenQuanYi Micro Hei",
    "WenQuanYi Zen Hei",
    "SimHei",
    "Noto Sans SC",
    "Noto Sans CJK JP",
    "Noto Sans CJK TC",
    "Noto Sans CJK KR",
    "Source Han Sans",
    "Droid Sans Fallback",
    "AR PL UMing CN",
)
# any other installed family whose name says it covers CJK
_CJK_NAME = re.compile(
    r"CJK|Source Han|WenQuanYi|YaHei|Droid Sans Fallback|\b(?:Hei|Heiti|SimSun|Songti|UMing|UKai)\b"
)


class MissingCJKFontWarning(UserWarning):
    """No installed font can draw Chinese characters in raster figures."""


def svg_font_family() -> str:
    """The CSS font-family list an SVG ``<text>`` carries: CJK fonts, then the layout font."""
    return ", ".join([*(f"'{name}'" for name in CJK_FONTS), f"'{LAYOUT_FONT}'", "sans-serif"])


# matplotlib writes ``font-family: 'DejaVu Sans', sans-serif`` into each text's style attribute
# (attribute values cannot hold record text, so only styles are rewritten)
_TEXT_STYLE = re.compile(r"(<text style=\"[^\"]*?font-family: )'" + LAYOUT_FONT + r"', sans-serif")


def with_cjk_fonts(svg: str) -> str:
    """An SVG drawn with ``svg.fonttype: none`` whose texts name the CJK fonts first."""
    family = svg_font_family()
    return _TEXT_STYLE.sub(lambda m: m.group(1) + family, svg)


def choose_cjk_font(installed: Iterable[str]) -> str | None:
    """The preferred CJK family among ``installed`` family names (None when there is none)."""
    names = set(installed)
    for name in CJK_FONTS:
        if name in names:
            return name
    others = sorted(n for n in names if _CJK_NAME.search(n))
    return others[0] if others else None


def _installed_families() -> list[str]:
    from matplotlib import font_manager

    return [entry.name for entry in font_manager.fontManager.ttflist]


_warned = False


def raster_fonts(installed: Iterable[str] | None = None) -> dict[str, object]:
    """matplotlib settings for raster figures: an installed CJK font first, then DejaVu Sans.

    Without a CJK font, Chinese text draws as empty boxes: warns once per process (one line,
    naming a font to install). ``installed``: family names (default: what matplotlib finds).
    """
    global _warned
    chosen = choose_cjk_font(_installed_families() if installed is None else installed)
    if chosen is None:
        if not _warned:
            _warned = True
            warnings.warn(
                "no CJK font installed: Chinese text in raster figures draws as empty boxes "
                "(install e.g. Noto Sans CJK: apt-get install fonts-noto-cjk)",
                MissingCJKFontWarning,
                stacklevel=2,
            )
        return {"font.family": "sans-serif", "font.sans-serif": [LAYOUT_FONT]}
    return {"font.family": "sans-serif", "font.sans-serif": [chosen, LAYOUT_FONT]}


def use_cjk_font() -> str | None:
    """Set matplotlib's global settings for notebooks: Chinese text, and recorded text (player
    names, fan names) drawn literally, never as mathtext. Returns the CJK font used, if any."""
    import matplotlib as mpl

    settings = raster_fonts()
    mpl.rcParams.update(settings)
    mpl.rcParams["text.parse_math"] = False  # "$x^$" in a record must not break or restyle a figure
    first = settings["font.sans-serif"][0]  # type: ignore[index]
    if first == LAYOUT_FONT:
        # said once above: matplotlib's warning per missing glyph would repeat it endlessly
        warnings.filterwarnings("ignore", message=r".*[Gg]lyph.*missing.*")
        return None
    return str(first)
