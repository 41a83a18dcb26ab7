"""Fuzhou's answers to the decision judge (mjstats.decision): 5 melds + pair with every gold
wild, the gold never claimed, the profile's gold and 闲金 rules for wins, the face-up gold seen.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from mjstats.decision.view import EVERY_KIND, Counts, KindsMask, RulesetView, kinds_mask
from mjstats.errors import InvalidHand, RuleError
from mjstats.integrity.useful import useful_kinds
from mjstats.rulesets.fuzhou.shape import FuzhouShape

# the melds + pair formula on per-suit option masks (no wild: the golds are taken out first)
from mjstats.rulesets.guobiao.incremental import formula_discards, formula_useful_after

if TYPE_CHECKING:
    from mjstats.replay.replayer import HandReplay

__all__ = ["VIEW"]

MeldKey = tuple[tuple[str, int, int], ...]
_CACHE = 1 << 16


def _gold(replay: HandReplay) -> int | None:
    return getattr(replay, "gold", None)


@lru_cache(maxsize=_CACHE)
def _fuzhou_shanten(counts: Counts, melds: int, gold: int) -> int:
    # reference fuzhou.md: 5 melds + pair, every gold wild
    return FuzhouShape(gold).shanten(list(counts), melds)


@lru_cache(maxsize=1 << 15)
def _fuzhou_waits(counts: Counts, melds: MeldKey, gold: int, rules: object) -> KindsMask:
    """Kinds (a kinds mask) completing a 16 - 3m Fuzhou hand, golds wild, within the profile's
    playable kinds."""
    from mjstats.rulesets.fuzhou.win import waits

    tiles = [t for t, n in enumerate(counts) for _ in range(n)]
    try:
        return kinds_mask(int(t) for t in waits(tiles, gold, list(melds), profile=rules))  # type: ignore[arg-type]
    except (InvalidHand, RuleError):
        return 0


def _fz_shanten(replay: HandReplay, counts: Counts, melds: int) -> int:
    gold = _gold(replay)
    if gold is None:  # before the gold is turned up (a faulty record): no wild
        return _fuzhou_shanten(counts, melds, 33) if not counts[33] else _plain_shanten(counts, melds)
    return _fuzhou_shanten(counts, melds, gold)


@lru_cache(maxsize=1 << 14)
def _plain_shanten(counts: Counts, melds: int) -> int:
    from mjstats.rules.hand import partial_shanten

    return partial_shanten(counts, melds)


def _useful_kinds(counts: Counts, melds: int, gold: int | None) -> KindsMask:
    """The kinds (a kinds mask) whose draw lowers the shanten of a 16 - 3m hand, golds wild."""
    return kinds_mask(useful_kinds(counts, melds, gold, "fuzhou"))


def _without_gold(counts: Counts, gold: int) -> Counts:
    return (*counts[:gold], 0, *counts[gold + 1 :])


def _fast(replay: HandReplay, counts: Counts) -> int | None:
    """The gold, where the formula path applies (the gold known, no fifth copy)."""
    gold = _gold(replay)
    return gold if gold is not None and max(counts) <= 4 else None


def _fz_discard_shanten(
    replay: HandReplay, counts: Counts, melds: int, kinds: list[int] | None
) -> dict[int, int]:
    """The shanten each discard leaves, as ``FuzhouShape.shanten`` counts it: the golds taken
    out, the formula F of the rest less one per gold, never under 0 (a waiting-size hand). F of
    every one-tile discard comes from the per-suit masks at once."""
    if kinds is None:
        kinds = [t for t in range(34) if counts[t]]
    gold = _fast(replay, counts)
    if gold is None:
        return {t: _fz_shanten(replay, (*counts[:t], counts[t] - 1, *counts[t + 1 :]), melds) for t in kinds}
    golds = counts[gold]
    left = formula_discards(_without_gold(counts, gold), 5 - melds)
    out = {}
    for t in kinds:
        if t == gold:  # one wild fewer, the rest as it is
            out[t] = _fz_shanten(replay, (*counts[:t], counts[t] - 1, *counts[t + 1 :]), melds)
        else:
            out[t] = max(0, left[t] - golds)
    return out


def _fz_useful_after(
    replay: HandReplay, counts: Counts, melds: int, kinds: list[int]
) -> dict[int, KindsMask]:
    """For each discard of ``kinds``: the kinds (a kinds mask) whose draw lowers the shanten of the hand left
    (``integrity.useful.useful_kinds``). With g golds and F the formula of the rest (shanten
    max(0, F - g)): a gold always helps; when F < g the hand is already complete bar the
    wilds and every kind helps; else exactly the kinds that lower F."""
    gold = _fast(replay, counts)
    out: dict[int, KindsMask] = {}
    if gold is None:
        g = _gold(replay)
        for t in kinds:
            out[t] = _useful_kinds((*counts[:t], counts[t] - 1, *counts[t + 1 :]), melds, g)
        return out
    golds = counts[gold]
    rest = _without_gold(counts, gold)
    groups = 5 - melds
    left = formula_discards(rest, groups)
    lowering = formula_useful_after(rest, groups, [t for t in kinds if t != gold and left[t] >= golds])
    for t in kinds:
        if t == gold:
            out[t] = _useful_kinds((*counts[:t], counts[t] - 1, *counts[t + 1 :]), melds, gold)
        elif left[t] < golds:
            out[t] = EVERY_KIND
        else:
            out[t] = lowering[t] | 1 << gold
    return out


def _fz_legal_win(replay: HandReplay, seat: int, tile: int, self_drawn: bool, discarder: int | None) -> bool:
    from mjstats.rulesets.fuzhou.turns import may_win_on_discard

    gold = _gold(replay)
    if gold is None:
        return False
    rules = replay.rules  # type: ignore[attr-defined]
    player = replay.state.seats[seat]
    if any(player.concealed[34:]):  # reference fuzhou.md: flowers are set aside before a win
        return False
    counts = list(player.concealed[:34])
    melds = 5 - len(player.melds)
    if not self_drawn:
        # reference fuzhou.md: a discarded gold cannot be won on; after discarding a gold a
        # player may only win by self-draw (profile gold_discard = "self_draw_only")
        if tile == gold or not may_win_on_discard(replay.discarded_gold[seat], rules):  # type: ignore[attr-defined]
            return False
        if rules.idle_gold == "self_draw_only" and _idle_gold(replay, seat, gold):
            return False  # profile switch: 闲金 must self-draw
        counts[tile] += 1
    if sum(counts) + 3 * len(player.melds) != 17:
        return False
    if self_drawn and counts[gold] >= 3:
        return True  # reference fuzhou.md: 三金倒, three golds win at once on one's own turn
    return FuzhouShape(gold).complete(counts, melds)


def _idle_gold(replay: HandReplay, seat: int, gold: int) -> bool:
    from mjstats.rulesets.fuzhou.win import is_idle_gold

    player = replay.state.seats[seat]
    melds = [m.as_tuple() for m in player.melds]
    try:
        return is_idle_gold(player.concealed_tiles(), gold, melds, profile=replay.rules)  # type: ignore[attr-defined]
    except (InvalidHand, RuleError):
        return False


def _fz_may_discard(replay: HandReplay, seat: int, tile: int) -> bool:
    from mjstats.rulesets.fuzhou.turns import may_discard_gold

    return tile != _gold(replay) or may_discard_gold(replay.rules)  # type: ignore[attr-defined]


def _fz_face_up(replay: HandReplay) -> tuple[int, ...]:
    """The turned-up gold while it lies face up: out of play (3 live golds) or not yet drawn."""
    gold = _gold(replay)
    if gold is None:
        return ()
    rules = replay.rules  # type: ignore[attr-defined]
    if rules.live_golds < 4 or replay.wall.gold_pending:  # type: ignore[attr-defined]
        return (gold,)
    return ()


VIEW = RulesetView(
    name="fuzhou",
    size=16,
    shanten=_fz_shanten,
    useful=lambda replay, counts, melds: _useful_kinds(counts, melds, _gold(replay)),
    discard_shanten=_fz_discard_shanten,
    waits=lambda replay, counts, melds: (
        _fuzhou_waits(counts, tuple(m.as_tuple() for m in melds), g, replay.rules)  # type: ignore[attr-defined]
        if (g := _gold(replay)) is not None
        else 0
    ),
    legal_win=_fz_legal_win,
    may_discard=_fz_may_discard,
    # reference fuzhou.md: the gold is never claimed
    may_claim=lambda replay, tile: tile != _gold(replay),
    face_up=_fz_face_up,
    ready=lambda replay: _gold(replay) is not None,
    useful_after=_fz_useful_after,
    # reference fuzhou.md: 5 melds + pair is the only form, and the shanten never overstates
    # (exact, or each gold counted as lowering it by one): above 0, no tile completes the hand
    far_waits=lambda counts, melds: False,
)
