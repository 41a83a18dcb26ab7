"""Hand-built records for the integrity tests: fair deals from a seeded shuffle, and results
with chosen winners and losers (no play), so each test controls exactly what it measures."""

from __future__ import annotations

import random
from collections.abc import Callable

from mjstats.records import Event, EventKind, Hand, Outcome, Result
from mjstats.rulesets.fuzhou import load_profile
from mjstats.rulesets.fuzhou.sim_game import WALL_SET as FUZHOU_SET
from mjstats.rulesets.guobiao.sim_game import WALL_SET as GUOBIAO_SET
from mjstats.tiles import Tile

SEED_FLOWERS = load_profile("seed").flower_kinds


def dealt_hand(
    rng: random.Random,
    ruleset: str,
    index: int,
    *,
    dealer: int = 0,
    fix: Callable[[list[int]], None] | None = None,
) -> Hand:
    """A hand of deals only, from a shuffled wall (Guobiao: 13 each from seat-by-seat walls of
    34; Fuzhou seed rules: dealer 17, others 16, from the front; gold = the first non-flower from
    the tail). ``fix`` may rearrange the wall before dealing (to rig a test)."""
    wall = list(FUZHOU_SET if ruleset == "fuzhou" else GUOBIAO_SET)
    rng.shuffle(wall)
    if fix is not None:
        fix(wall)
    events = []
    gold = None
    if ruleset == "guobiao":
        for i in range(4):
            seat = (dealer + i) % 4
            tiles = wall[34 * seat : 34 * seat + 13]
            events.append(Event(i, EventKind.DEAL, seat, tiles=tuple(Tile(t) for t in tiles)))
    else:
        front = 0
        for i in range(4):
            seat = (dealer + i) % 4
            n = 17 if i == 0 else 16
            tiles = wall[front : front + n]
            front += n
            events.append(Event(i, EventKind.DEAL, seat, tiles=tuple(Tile(t) for t in tiles)))
        gold = next(Tile(t) for t in reversed(wall) if t not in SEED_FLOWERS)
    return Hand(
        match_id=f"t-{ruleset}-{index // 8}",
        hand_no=index % 8,
        ruleset=ruleset,
        profile="seed" if ruleset == "fuzhou" else "botzone",
        dealer=dealer,
        prevalent_wind=0,
        events=tuple(events),
        result=Result(Outcome.DRAW, scores=(0, 0, 0, 0)),
        players=("ann", "bo", "cai", "dee"),
        gold=gold,
        wall=tuple(Tile(t) for t in wall),
    )


def result_hand(index: int, winner: int | None, loser: int | None, ruleset: str = "guobiao") -> Hand:
    """A hand with only a recorded result: ``winner`` won on ``loser``'s discard (self-draw when
    loser is None, exhaustive draw when winner is None)."""
    if winner is None:
        result = Result(Outcome.DRAW, scores=(0, 0, 0, 0))
    else:
        scores = [0, 0, 0, 0]
        scores[winner] = 24
        if loser is None:
            for s in range(4):
                if s != winner:
                    scores[s] = -8
        else:
            scores[loser] = -24
        result = Result(
            Outcome.WIN, winner=winner, loser=loser, self_drawn=loser is None, scores=tuple(scores)
        )
    return Hand(
        match_id=f"r-{index // 16}",
        hand_no=index % 16,
        ruleset=ruleset,
        profile="botzone",
        dealer=index % 4,
        prevalent_wind=0,
        events=(),
        result=result,
        players=("ann", "bo", "cai", "dee"),
    )
