"""Chinese text in figures: SVG keeps text as text naming CJK fonts first (the viewer draws it);
raster figures use an installed CJK font, or say once that there is none."""

from __future__ import annotations

import re
import warnings
import xml.etree.ElementTree as ET

import pytest

from mjstats.report import figures, fonts

SVG = "{http://www.w3.org/2000/svg}"


def test_svg_text_stays_text_and_names_cjk_fonts_first() -> None:
    make = lambda: figures.bars(["平和", "自摸", "abc"], [0.2, 0.4, 0.1], name="f", title="t", xlabel="番")  # noqa: E731
    svg = make()
    assert svg == make()  # deterministic, whatever fonts are installed
    root = ET.fromstring(svg)
    texts = list(root.iter(f"{SVG}text"))
    assert {"平和", "自摸", "番"} <= {"".join(t.itertext()) for t in texts}
    assert not re.search(r'id="[^"]*DejaVuSans-', svg)  # no glyphs drawn as paths
    for text in texts:
        family = re.search(r"font-family: ([^;]*)", text.get("style", "")).group(1)
        assert family == fonts.svg_font_family()
        names = [n.strip(" '") for n in family.split(",")]
        assert names[0] == "Noto Sans CJK SC" and names[-2:] == ["DejaVu Sans", "sans-serif"]
        assert {"Microsoft YaHei", "PingFang SC", "WenQuanYi Zen Hei", "SimHei"} <= set(names)


def test_only_text_styles_are_rewritten() -> None:
    label = "font-family: 'DejaVu Sans', sans-serif"  # record text that looks like a style
    svg = figures.bars([label], [0.3], name="g", title="t", xlabel="x")
    assert label in {"".join(t.itertext()) for t in ET.fromstring(svg).iter(f"{SVG}text")}


@pytest.mark.parametrize(
    ("installed", "expected"),
    [
        (["DejaVu Sans", "WenQuanYi Zen Hei", "Noto Sans CJK JP"], "WenQuanYi Zen Hei"),
        (["DejaVu Sans", "Noto Sans CJK JP"], "Noto Sans CJK JP"),  # Debian's fonts-noto-cjk
        (["Noto Sans CJK SC", "SimHei"], "Noto Sans CJK SC"),
        (["DejaVu Sans", "Sarasa Gothic", "Source Han Serif SC"], "Source Han Serif SC"),
        (["DejaVu Sans", "STIXGeneral", "cmr10", "Kailasa"], None),
        ([], None),
    ],
)
def test_choose_cjk_font(installed: list[str], expected: str | None) -> None:
    assert fonts.choose_cjk_font(installed) == expected


def test_raster_fonts_put_the_installed_cjk_font_first() -> None:
    settings = fonts.raster_fonts(["DejaVu Sans", "SimHei"])
    assert settings["font.sans-serif"] == ["SimHei", "DejaVu Sans"]


def test_no_cjk_font_warns_once_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fonts, "_warned", False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first = fonts.raster_fonts(["DejaVu Sans"])
        second = fonts.raster_fonts(["DejaVu Sans"])
    assert first == second == {"font.family": "sans-serif", "font.sans-serif": ["DejaVu Sans"]}
    assert [w.category for w in caught] == [fonts.MissingCJKFontWarning]
    message = str(caught[0].message)
    assert "\n" not in message and "empty boxes" in message
