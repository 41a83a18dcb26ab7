"""Issue 17's acceptance on the simulator, for Sichuan: the greedy bot (and the styles that
discard as greedy: void-first, konger) is efficient by the decision judge's own measure
(docs/decisions.md, "Flags": no discard leaves a higher shanten than the best one, and none
waiting keeps fewer live winning tiles than the best), because it asks the judge's engine
(mjstats.rulesets.sichuan.decisions); the flush chaser, which throws off-suit tiles whatever
they cost, scores lower. The hands are judged with the decisions code itself."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import mjstats.rulesets.sichuan
from mjstats.decision import hand_decisions
from mjstats.rulesets.sichuan.replay import sichuan_profile
from mjstats.sim import SimConfig, simulate

GREEDY_LIKE = ("greedy", "voidfirst", "konger")


def _judged(hands: int, seed: int, profile: str) -> tuple[Counter[str], Counter[str]]:
    """Discards judged (with a shanten) and those flagged ``inefficient``, by style."""
    prof = sichuan_profile(profile)
    judged: Counter[str] = Counter()
    flagged: Counter[str] = Counter()
    for hand in simulate(SimConfig("sichuan", hands, seed, profile)):
        for row in hand_decisions(hand, prof):
            if row.kind != "discard" or row.shanten_after is None:
                continue
            style = hand.styles[row.seat]
            judged[style] += 1
            if "inefficient" in row.flags.split(","):  # names comma-separated
                flagged[style] += 1
    return judged, flagged


def _profile(tmp_path: Path, name: str) -> str:
    """The seed profile (name) or a variant: ``hidden`` (lenient void discards, winners' hands
    not shown: the bot must count only what the judge counts as face up), ``undeclared`` (no
    定缺: the least over the suits a seat may still give up)."""
    if name == "seed":
        return name
    text = (Path(mjstats.rulesets.sichuan.__file__).parent / "profiles" / "seed.toml").read_text("utf-8")
    text = text.replace('name = "seed"', f'name = "{name}"')
    if name == "hidden":
        text = text.replace('"strict"', '"lenient"')
        text = text.replace("winner_hand_public = true", "winner_hand_public = false")
    else:
        text = text.replace("declare_void = true", "declare_void = false")
    path = tmp_path / f"{name}.toml"
    path.write_text(text, "utf-8")
    return str(path)


@pytest.mark.parametrize(("name", "hands"), [("seed", 16), ("hidden", 8), ("undeclared", 4)])
def test_greedy_discards_are_all_efficient_and_flush_lower(tmp_path: Path, name: str, hands: int) -> None:
    judged, flagged = _judged(hands, 5, _profile(tmp_path, name))
    for style in GREEDY_LIKE:
        assert judged[style] > 8 * hands, style  # the hands were played and judged
        assert flagged[style] == 0, f"{style}: {flagged[style]} of {judged[style]} discards inefficient"
    assert judged["flush"] and flagged["flush"] > 0
    flush_rate = 1 - flagged["flush"] / judged["flush"]
    assert flush_rate < 0.97  # the off-suit discards give up shanten
