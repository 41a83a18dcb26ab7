"""The registry is complete, every metric has a compute function, and docs/metrics.md is its
generated output."""

from __future__ import annotations

from pathlib import Path

import pytest

from mjstats.stats import COMPUTE, METRICS, StatsError, get_metric, render_metrics_markdown
from mjstats.stats.grouping import normalize_by
from mjstats.stats.registry import FAMILIES

DOC = Path(__file__).resolve().parent.parent / "docs" / "metrics.md"


def test_docs_metrics_md_is_generated_from_the_registry():
    assert DOC.read_text(encoding="utf-8") == render_metrics_markdown(), (
        "docs/metrics.md is stale: regenerate it with "
        "python -c 'from mjstats.stats import render_metrics_markdown as r; "
        "open(\"docs/metrics.md\", \"w\").write(r())'"
    )


def test_every_metric_is_computable_and_documented():
    assert set(COMPUTE) == set(METRICS)
    for m in METRICS.values():
        assert m.name_zh and m.name_en and m.numerator and m.denominator and m.unit
        assert m.kind in ("rate", "mean", "lift", "test")
        assert set(m.rulesets) <= {"guobiao", "fuzhou", "sichuan"}
        assert m.family in FAMILIES
        assert f"### `{m.id}`" in render_metrics_markdown()


def test_call_edge_cases_are_decided():
    call = get_metric("call_rate")
    assert any("concealed kong" in c and "NOT a call" in c for c in call.edge_cases)
    assert any("konger" in c for c in get_metric("deal_in_rate").edge_cases)


def test_unknown_metric_and_key():
    with pytest.raises(StatsError):
        get_metric("nope")
    with pytest.raises(StatsError):
        normalize_by("colour")
    assert normalize_by("ruleset, seat,bot_style") == ("ruleset", "seat", "style")


def test_sichuan_takes_the_shared_metrics_and_its_own_family():
    # the generic metrics count each win of a multi-win hand (血战到底), so they apply to Sichuan
    shared = [m for m in METRICS.values() if m.family in ("outcomes", "fans")]
    assert all("sichuan" in m.rulesets for m in shared)
    # its shanten part (the seat's void honoured) gives tenpai at the wall's end too
    assert "sichuan" in get_metric("tenpai_at_draw").rulesets
    # no dealer streak in Sichuan records (reference sichuan.md §1.5): the streak family skips it
    assert all("sichuan" not in m.rulesets for m in METRICS.values() if m.family == "streaks")
    own = [m for m in METRICS.values() if m.family == "sichuan"]
    assert len(own) == 9 and all(m.rulesets == ("sichuan",) for m in own)
    assert FAMILIES.index("gold") < FAMILIES.index("sichuan") < FAMILIES.index("streaks")
    assert any("Sichuan" in c for c in get_metric("win_rate").edge_cases)
    assert any("deal_ins" in c for c in get_metric("deal_in_rate").edge_cases)
