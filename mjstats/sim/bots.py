"""Simulated players: a few distinct, documented styles (docs/simulation.md), all deterministic.

Bots only choose among the moves the game loop offers, and the game loop offers only what the
rules engines allow, so every recorded action is legal. A bot sees its own tiles, every river
and meld and the visible-tile counts; never another seat's concealed tiles or the wall.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from mjstats.errors import MjstatsError
from mjstats.sim.shapes import Shape
from mjstats.sim.table import Table

__all__ = ["STYLES", "Bot", "Style", "styles_for"]


@dataclass(frozen=True, slots=True)
class Style:
    """How a bot plays. ``call_margin``: take a chow/pung when it changes the shanten by at most
    this much (-1: only when it gets closer; 0: whenever it does not get further; None: never)."""

    name: str
    description: str
    call_margin: int | None = -1
    defends: bool = False  # plays safe tiles once an opponent has two or more melds
    flush: bool = False  # goes for one suit (混一色 / 清一色) when the hand leans that way
    golds_wild: bool = True  # with a wild gold: counts golds as wild when judging its hand
    keeps_golds: bool = False  # with a wild gold: never discards one; holds out for 金雀 / self-draw
    needs_gold: bool = False  # only for rulesets that turn up a wild gold

    @property
    def rulesets(self) -> tuple[str, ...]:
        """The simulated rulesets that accept this style (registry order)."""
        from mjstats.rulesets import rulesets

        return tuple(
            r.name
            for r in rulesets()
            if r.sim is not None and (r.has_gold or not self.needs_gold) and own_styles(r.name) is None
        )


STYLES: dict[str, Style] = {
    s.name: s
    for s in (
        Style(
            "greedy",
            "discards to the lowest shanten (ties: fewest neighbours; when waiting: "
            "the most live winning tiles); calls only when a call gets it closer",
        ),
        Style(
            "defensive",
            "as greedy, but once an opponent shows two melds it plays safe: two or more "
            "shanten from waiting it folds (the safest tile whatever the shanten), closer it "
            "takes the safest tile within one shanten of the best (safest: honours most seen, "
            "then terminals, tiles the threatening players let go, edge before middle ranks)",
            defends=True,
        ),
        Style(
            "aggressive",
            "as greedy, but chows, pungs and kongs whenever the call does not take it further from winning",
            call_margin=0,
        ),
        Style(
            "flush",
            "goes for one suit: when at most five tiles lie outside its strongest "
            "suit it throws those first and calls only tiles of that suit (or honours)",
            flush=True,
        ),
        Style(
            "goldkeeper",
            "never discards a gold; with two golds it plays for 金雀 (the golds as the pair) "
            "when that costs at most one shanten, and turns down wins that are not "
            "金雀/金龙 (discard or self-draw) until the wall runs low",
            keeps_golds=True,
            needs_gold=True,
        ),
        Style(
            "goldthrower",
            "judges its hand with golds at face value, so it discards golds that "
            "do not fit (and may then only win by self-draw under the seed profile)",
            golds_wild=False,
            needs_gold=True,
        ),
    )
}

def styles_for(ruleset: str) -> tuple[str, ...]:
    """Style names a ruleset accepts."""
    own = own_styles(ruleset)
    if own is not None:
        return tuple(own)
    return tuple(name for name, s in STYLES.items() if ruleset in s.rulesets)


def _keep_value(counts: list[int], t: int) -> int:
    """How useful tile ``t`` is to keep: copies held and suited neighbours (lower: discard first)."""
    value = 4 * (counts[t] - 1)
    if t >= 27:
        return value - 2  # honours only pair or pung
    rank = t % 9
    for d, w in ((-2, 1), (-1, 2), (1, 2), (2, 1)):
        if 0 <= rank + d <= 8 and counts[t + d]:
            value += w
    if rank in (0, 8):
        value -= 1
    return value


class Bot:
    """One seat's player: a style applied to the table through a ruleset's :class:`Shape`."""

    __slots__ = ("gold_discard_allowed", "seat", "shape", "style", "table")

    def __init__(
        self, style: Style, shape: Shape, seat: int, table: Table, gold_discard_allowed: bool = True
    ) -> None:
        self.style = style
        self.shape = shape
        self.seat = seat
        self.table = table
        self.gold_discard_allowed = gold_discard_allowed

    # --- helpers -------------------------------------------------------------------------------
    def _shanten(self, counts: list[int], melds: int) -> int:
        return self.shape.shanten(counts, melds, wild=self.style.golds_wild)

    def threatened(self) -> list[int]:
        """Opponents showing two melds or more (the defensive style's trigger)."""
        seats = self.table.seats
        return [s for s in range(4) if s != self.seat and len(seats[s].melds) >= 2]

    def _danger(self, t: int, threats: list[int], counts: list[int]) -> int:
        """How likely a discard is to feed a waiting opponent (lower: safer). Chinese rules have
        no furiten, so no tile is safe outright: a player may win on a tile it discarded."""
        seats, visible = self.table.seats, self.table.visible
        if t >= 27:
            return 3 - min(visible[t], 3)  # honours: the last copy wins only as a single wait
        rank = t % 9
        danger = 3 if rank in (0, 8) else 4 if rank in (1, 7) else 5
        if all(t in seats[s].river for s in threats):
            danger -= 1  # they let it go once, so their hand did not need it then
        if visible[t] >= 3:
            danger -= 1
        return danger

    def flush_suit(self) -> int | None:
        """The suit the flush style commits to, or None when the hand does not lean that way."""
        if not self.style.flush:
            return None
        p = self.table.seats[self.seat]
        gold = self.table.gold
        per_suit = [0, 0, 0]
        for t in range(27):
            if p.counts[t] and t != gold:
                per_suit[t // 9] += p.counts[t]
        meld_suits = {tile // 9 for _, tile, _ in p.melds if tile < 27}
        if len(meld_suits) > 1:
            return None
        suit = meld_suits.pop() if meld_suits else max(range(3), key=lambda s: (per_suit[s], -s))
        off = sum(per_suit) - per_suit[suit]
        return suit if off <= 5 else None

    def _ukeire(self, counts: list[int], melds: int) -> int:
        """Live tiles that complete a waiting hand (unseen copies of each winning kind)."""
        visible = self.table.visible
        shape = self.shape
        gold = self.table.gold
        wild = self.style.golds_wild
        total = 0
        if gold is not None and counts[gold] and wild:
            kinds: Iterable[int] = range(34)  # a wild may complete with any kind
        else:
            near = set()
            for k in range(34):
                if counts[k]:
                    if k < 27:
                        low = k - k % 9
                        near.update(range(max(low, k - 2), min(low + 9, k + 3)))
                    else:
                        near.add(k)
            kinds = sorted(near)
        for k in kinds:
            live = 4 - counts[k] - visible[k]
            if live <= 0:
                continue
            counts[k] += 1
            if shape.complete(counts, melds, wild=wild):
                total += live
            counts[k] -= 1
        return total

    # --- decisions -----------------------------------------------------------------------------
    def discard(self) -> int:
        """The tile to discard from a hand of one tile more than the ruleset's hand size, less 3
        a meld."""
        p = self.table.seats[self.seat]
        counts = p.counts
        melds = len(p.melds)
        gold = self.table.gold
        candidates = [t for t in range(34) if counts[t]]
        if (
            gold is not None
            and counts[gold]
            and (self.style.keeps_golds or not self.gold_discard_allowed)
            and len(candidates) > 1
        ):
            candidates.remove(gold)
        scored: list[tuple[int, int]] = []
        for t in candidates:
            counts[t] -= 1
            scored.append((self._shanten(counts, melds), t))
            counts[t] += 1
        best = min(s for s, _ in scored)
        if self.style.keeps_golds and gold is not None and counts[gold] >= 2:
            golden = self._golden_choice(scored, best)
            if golden is not None:
                return golden
        suit = self.flush_suit()
        if suit is not None:
            off = [(s, t) for s, t in scored if t < 27 and t // 9 != suit and t != gold]
            if off:
                best_off = min(s for s, _ in off)
                return min((_keep_value(counts, t), t) for s, t in off if s == best_off)[1]
        if self.style.defends:
            threats = self.threatened()
            if threats:
                # push or fold: far from winning (2+ shanten) it folds outright, otherwise it
                # gives up at most one shanten for safety
                slack = 99 if best >= 2 else 1
                pool = [
                    (self._danger(t, threats, counts), s, _keep_value(counts, t), t)
                    for s, t in scored
                    if s <= best + slack
                ]
                return min(pool)[3]
        pool_tiles = [t for s, t in scored if s == best]
        if best == 0 and len(pool_tiles) > 1:
            ranked = []
            for t in pool_tiles:
                counts[t] -= 1
                ranked.append((-self._ukeire(counts, melds), _keep_value(counts, t) + 0, t))
                counts[t] += 1
            return min(ranked)[2]
        return min((_keep_value(counts, t), t) for t in pool_tiles)[1]

    def _golden_choice(self, scored: list[tuple[int, int]], best: int) -> int | None:
        """The gold keeper's discard towards 金雀 when that costs at most one shanten."""
        p = self.table.seats[self.seat]
        counts, melds = p.counts, len(p.melds)
        shape = self.shape
        ranked = []
        for s, t in scored:
            counts[t] -= 1
            ranked.append((shape.golden_shanten(counts, melds), s, _keep_value(counts, t), t))
            counts[t] += 1
        choice = min(ranked)
        return choice[3] if choice[0] <= best + 1 else None

    def _call_ok(self, before: int, after: int, tile: int) -> bool:
        margin = self.style.call_margin
        if margin is None:
            return False
        suit = self.flush_suit()
        if suit is not None and tile < 27 and tile // 9 != suit:
            return False
        return after - before <= margin

    def _standing(self) -> int:
        p = self.table.seats[self.seat]
        if self.style.golds_wild:
            return p.standing  # the game keeps it up to date after each change of hand
        return self._shanten(p.counts, len(p.melds))

    def wants_pung(self, tile: int) -> bool:
        p = self.table.seats[self.seat]
        counts = p.counts
        before = self._standing()
        counts[tile] -= 2
        after = self._shanten(counts, len(p.melds) + 1)
        counts[tile] += 2
        return self._call_ok(before, after, tile)

    def chi_choice(self, tile: int, middles: list[int]) -> int | None:
        """The chow (by middle tile) to take on ``tile``, or None."""
        p = self.table.seats[self.seat]
        counts = p.counts
        before = self._standing()
        best: tuple[int, int] | None = None
        for middle in middles:
            used = [x for x in (middle - 1, middle, middle + 1) if x != tile]
            for x in used:
                counts[x] -= 1
            after = self._shanten(counts, len(p.melds) + 1)
            for x in used:
                counts[x] += 1
            if best is None or after < best[0]:
                best = (after, middle)
        if best is None or not self._call_ok(before, best[0], tile):
            return None
        return best[1]

    def wants_exposed_kong(self, tile: int) -> bool:
        p = self.table.seats[self.seat]
        if self.style.call_margin is None:
            return False
        before = self._standing()
        p.counts[tile] -= 3
        after = self._shanten(p.counts, len(p.melds) + 1)
        p.counts[tile] += 3
        return after <= before

    def wants_own_kong(self, tile: int, concealed: bool) -> bool:
        """A concealed kong of four held ``tile`` or adding ``tile`` to a pung, on one's own turn."""
        p = self.table.seats[self.seat]
        counts = p.counts
        melds = len(p.melds)
        before = self._shanten(counts, melds)
        n = 4 if concealed else 1
        counts[tile] -= n
        after = self._shanten(counts, melds + (1 if concealed else 0))
        counts[tile] += n
        return after <= before

    def wants_win(self, on_discard: bool, golden: bool, late: bool) -> bool:
        """Whether to declare a win the rules allow: always, except that the gold keeper with
        two golds holds out for 金雀/金龙 (on a discard or its own draw) until ``late``."""
        if not self.style.keeps_golds or golden or late:
            return True
        gold = self.table.gold
        return gold is None or self.table.seats[self.seat].counts[gold] < 2


def own_styles(ruleset: str) -> dict[str, Any] | None:
    """A ruleset's own bot styles (its simulator part's ``STYLES``: name -> style), which replace
    the shared ones for it; None when it plays with the shared styles."""
    from mjstats.rulesets import UnknownRuleset, get

    try:
        spec = get(ruleset)
    except UnknownRuleset:
        return None
    if spec.sim is None:
        return None
    own: dict[str, Any] | None = getattr(spec.load(spec.sim), "STYLES", None)
    return own


def make_style(name: str, ruleset: str) -> Style:
    """The style called ``name``; MjstatsError for an unknown one or one the ruleset lacks."""
    own = own_styles(ruleset)
    if own is not None:  # the ruleset's own styles (e.g. with a void suit to choose)
        if name not in own:
            from mjstats.rulesets import get

            raise MjstatsError(f"unknown {get(ruleset).title} bot style {name!r} (known: {', '.join(own)})")
        return own[name]  # type: ignore[no-any-return]
    style = STYLES.get(name)
    if style is None or ruleset not in style.rulesets:
        raise MjstatsError(f"unknown {ruleset} bot style {name!r} (known: {', '.join(styles_for(ruleset))})")
    return style
