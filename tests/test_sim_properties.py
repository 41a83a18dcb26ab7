"""Property tests: whatever the seed, players and profile, simulated hands replay clean."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mjstats.replay import replay_hand
from mjstats.rulesets.fuzhou.verify import check_fuzhou_hand
from mjstats.sim import SimConfig, parse_players, simulate
from mjstats.sim.bots import styles_for


def _players(ruleset: str) -> st.SearchStrategy[str]:
    style = st.sampled_from(styles_for(ruleset))
    return st.lists(style, min_size=4, max_size=4).map(
        lambda styles: ",".join(f"p{i}:{s}" for i, s in enumerate(styles))
    )


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**40), players=_players("guobiao"))
def test_guobiao_hands_replay_clean(seed: int, players: str) -> None:
    for hand in simulate(SimConfig("guobiao", 5, seed, players=parse_players(players, "guobiao"))):
        assert replay_hand(hand).findings == ()
        assert sum(hand.result.scores or ()) == 0


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**40), players=_players("fuzhou"), profile=st.sampled_from(["seed", "platform"]))
def test_fuzhou_hands_replay_clean(seed: int, players: str, profile: str) -> None:
    config = SimConfig("fuzhou", 5, seed, profile, parse_players(players, "fuzhou"))
    for hand in simulate(config):
        assert check_fuzhou_hand(hand) == []
        assert replay_hand(hand).findings == ()
