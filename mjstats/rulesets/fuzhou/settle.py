"""Fuzhou settlement: the single highest pattern, the fan (花番, 金番, 连庄数) and the payments.

seed 003 和牌的计分公式: each payer pays ``(花番 + 金番 + 连庄数 + 5) x 2 + pattern points``;
a self-draw is paid by the three others, a discard win (放胡) by the discarder alone. Profiles
switch the values, the formula and the payer (reference fuzhou.md, variant table).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from mjstats.errors import InvalidHand, NotWinningHand, RuleError
from mjstats.rulesets.fuzhou.profiles import Profile, load_profile
from mjstats.rulesets.fuzhou.win import (
    count_golds,
    has_golden_dragon,
    has_golden_pair,
    is_idle_gold,
    is_winning_hand,
    meld_tiles,
    normalize_melds,
)
from mjstats.tiles import Tile, parse_tile

__all__ = [
    "PATTERN_NAMES",
    "FanBreakdown",
    "Settlement",
    "flower_fan",
    "flower_groups",
    "kong_fan",
    "scoring_items",
    "settle_win",
]

# Pattern key (PatternValues field) -> name, in table order (reference fuzhou.md). Only the
# single highest pattern counts (seed 003: 只计番数最高的一种花样); on equal points the
# earlier entry of this order names the pattern (the points are the same either way).
PATTERN_NAMES: dict[str, str] = {
    "heavenly": "天和",
    "three_golds": "三金倒",
    "rob_gold": "抢金",
    "plain": "平和",
    "plain_one_flower": "平和",
    "golden_pair": "金雀",
    "golden_dragon": "金龙",
    "half_flush": "混一色",
    "full_flush": "清一色",
}

# Complete flower groups of four (seed 003: 摸齐四个一组的花按6朵花计算): 春夏秋冬 (H1-H4),
# 梅兰竹菊 (H5-H8), and the four copies of one honour when honours are flowers.
_SEASONS = (34, 35, 36, 37)
_PLANTS = (38, 39, 40, 41)


@dataclass(frozen=True, slots=True)
class FanBreakdown:
    """The fan that enters the payment formula: 花番 (flowers + kongs), 金番, 连庄数."""

    flowers: int  # flower tiles, complete groups of four at the group value
    kongs: int  # 1 per exposed/added kong, 2 per concealed kong (seed 003)
    golds: int  # 金番: 1 per gold the winner holds
    streak: int  # 连庄数 x the profile's streak fan

    @property
    def total(self) -> int:
        return self.flowers + self.kongs + self.golds + self.streak

    def as_dict(self) -> dict[str, int]:
        return {
            "flowers": self.flowers,
            "kongs": self.kongs,
            "golds": self.golds,
            "streak": self.streak,
            "total": self.total,
        }


@dataclass(frozen=True, slots=True)
class Settlement:
    """The result of one Fuzhou win under one profile."""

    winner: int
    pattern: str | None  # the single highest pattern (simplified Chinese), None if none
    pattern_points: int
    eligible: tuple[tuple[str, int], ...]  # every pattern the win qualifies for, with points
    fan: FanBreakdown
    self_drawn: bool  # scored as a self-draw (三金倒, 抢金, 天和 always are)
    jumped: bool  # 抢炮和: the payment was multiplied
    per_payer: int  # what each paying player pays
    payments: tuple[int, int, int, int]  # net change per seat, zero-sum
    profile: str

    def as_dict(self) -> dict[str, object]:
        return {
            "winner": self.winner,
            "pattern": self.pattern,
            "pattern_points": self.pattern_points,
            "eligible": [list(e) for e in self.eligible],
            "fan": self.fan.as_dict(),
            "self_drawn": self.self_drawn,
            "jumped": self.jumped,
            "per_payer": self.per_payer,
            "payments": list(self.payments),
            "profile": self.profile,
        }


def scoring_items(s: Settlement, profile: Profile | str = "seed") -> tuple[tuple[str, int, int], ...]:
    """A settlement as the scoring items a Fuzhou record lists, ``(name, count, points each)``:
    花番 (flowers and kongs), 金番 and 连庄 (count = fan, 1 point each; left out when 0), the
    pattern (count 1, its points) and 抢炮和 (count 1, the profile's multiplier) — the form of
    the canonical format's Fuzhou ``fans`` (docs/format.md), shared by the simulator and the audit.
    """
    fan = s.fan
    items = [
        (name, value, 1)
        for name, value in (("花番", fan.flowers + fan.kongs), ("金番", fan.golds), ("连庄", fan.streak))
        if value
    ]
    if s.pattern is not None:
        items.append((s.pattern, 1, s.pattern_points))
    if s.jumped:
        items.append(("抢炮和", 1, load_profile(profile).patterns.jump_multiplier))
    return tuple(items)


def _flower_tiles(flowers: Iterable[object], prof: Profile) -> list[Tile]:
    tiles: list[Tile] = []
    for value in flowers:
        t = parse_tile(value)  # type: ignore[arg-type]
        if t not in prof.flower_kinds:
            raise InvalidHand(f"{t} is not a flower tile under profile {prof.name}")
        tiles.append(t)
    for t, n in Counter(tiles).items():
        if n > (1 if t >= 34 else 4):
            raise InvalidHand(f"{n} copies of flower {t}")
    return tiles


def flower_groups(flowers: Iterable[object], profile: Profile | str = "seed") -> int:
    """Complete groups of four among the flower tiles (春夏秋冬, 梅兰竹菊, four of one honour)."""
    prof = load_profile(profile)
    counts = Counter(_flower_tiles(flowers, prof))
    groups = sum(1 for group in (_SEASONS, _PLANTS) if all(counts[t] for t in group))
    return groups + sum(1 for t, n in counts.items() if t < 34 and n == 4)


def flower_fan(flowers: Iterable[object], profile: Profile | str = "seed") -> int:
    """花番 from flower tiles: each the flower value, a full group of four the group value."""
    prof = load_profile(profile)
    tiles = _flower_tiles(flowers, prof)
    groups = flower_groups(tiles, prof)
    return (len(tiles) - 4 * groups) * prof.flower_value + groups * prof.flower_group_value


def kong_fan(melds: Iterable[Sequence[object]], profile: Profile | str = "seed") -> int:
    """花番 from kongs (seed 003: 明杠算1朵花, 暗杠算2朵花); offer 0 marks a concealed kong."""
    prof = load_profile(profile)
    fan = 0
    for kind, _, offer in normalize_melds(melds, prof):
        if kind == "GANG":
            fan += prof.concealed_kong_fan if offer == 0 else prof.exposed_kong_fan
    return fan


def _flush(tiles: Sequence[Tile], gold: Tile) -> str | None:
    """Which flush pattern the face tiles make, if any.

    ``full_flush`` (清一色): every tile, golds at face value, of one suit; ``half_flush`` (混一色):
    the non-gold tiles of one suit plus honours (reference: the gold of another suit).
    """
    suits = {t // 9 for t in tiles if t < 27}
    if len(suits) == 1 and all(t < 27 for t in tiles):
        return "full_flush"
    plain = [t for t in tiles if t != gold]
    if len({t // 9 for t in plain if t < 27}) == 1:
        return "half_flush"
    return None


def settle_win(
    hand: Sequence[object],
    melds: Iterable[Sequence[object]],
    gold: object,
    win_tile: object,
    self_drawn: bool,
    flowers: Iterable[object],
    seat: int,
    dealer: int,
    discarder: int | None = None,
    streak: int = 0,
    profile: Profile | str = "seed",
    robbed_gold: bool = False,
    heavenly: bool = False,
    jumped_claim: bool = False,
) -> Settlement:
    """Score one Fuzhou win and split the payments.

    ``hand`` is the concealed tiles without ``win_tile``; ``streak`` is 连庄数 as it stands for
    the hand (0 before the dealer's second consecutive win: 站顶 adds nothing), added to every
    win of the hand whoever wins. ``jumped_claim`` marks a discard won by a 金雀/金龙 hand that a
    player nearer in turn order could also have won on (抢炮和: the payment is multiplied).
    Raises NotWinningHand when the tiles do not win (and three golds do not apply), RuleError for
    an impossible combination of flags.
    """
    prof = load_profile(profile)
    if not (0 <= seat < 4 and 0 <= dealer < 4):
        raise RuleError(f"seats are 0..3, got seat {seat} and dealer {dealer}")
    if streak < 0:
        raise RuleError(f"streak must not be negative, got {streak}")
    norm = normalize_melds(melds, prof)
    g = parse_tile(gold)  # type: ignore[arg-type]
    w = parse_tile(win_tile)  # type: ignore[arg-type]
    tiles = [*hand, w]
    if len(norm) > 5 or len(tiles) != 17 - 3 * len(norm):
        raise InvalidHand(
            f"a Fuzhou win holds {17 - 3 * len(norm)} concealed tiles with {len(norm)} melds, "
            f"got {len(tiles)} (the hand without the winning tile, then the winning tile)"
        )
    if heavenly and seat != dealer:
        raise RuleError("天和 is the dealer's win")
    if robbed_gold:
        if w != g:
            raise RuleError(f"抢金: the winning tile is the robbed gold {g}, got {w}")
        if prof.live_golds < 4:
            raise RuleError(f"profile {prof.name}: the turned-up gold is out of play, no 抢金")
    scored_self = self_drawn or robbed_gold or heavenly
    if not scored_self:
        if discarder is None or not 0 <= discarder < 4 or discarder == seat:
            raise RuleError(
                f"a discard win needs the discarder's seat (not the winner's), got {discarder}"
            )
        if w == g:
            raise RuleError("nobody may win on a discarded gold (seed 003)")

    complete = is_winning_hand(tiles, g, norm, profile=prof)  # also validates the tiles
    golds_in_hand = count_golds(tiles, g)
    # seed 003 example 1: holding two golds one may not rob the gold to make 三金倒.
    three_golds = scored_self and not robbed_gold and golds_in_hand >= 3
    if not complete and not three_golds:
        raise NotWinningHand(
            f"{' '.join(str(parse_tile(t)) for t in tiles)} with gold {g} does not win"
        )

    flower_list = _flower_tiles(flowers, prof)
    kongs = kong_fan(norm, prof)
    values = prof.patterns
    eligible: list[tuple[str, int]] = []
    if heavenly and complete:
        eligible.append(("heavenly", values.heavenly))
    if three_golds:
        eligible.append(("three_golds", values.three_golds))
    if robbed_gold:
        eligible.append(("rob_gold", values.rob_gold))
    golden_pair = golden_dragon = False
    if complete:
        if kongs == 0 and len(flower_list) == 0:
            eligible.append(("plain", values.plain))
        elif kongs == 0 and len(flower_list) == 1:
            eligible.append(("plain_one_flower", values.plain_one_flower))
        golden_pair = has_golden_pair(tiles, g, norm, profile=prof)
        golden_dragon = has_golden_dragon(tiles, g, norm, profile=prof)
        if golden_pair:
            eligible.append(("golden_pair", values.golden_pair))
        if golden_dragon:
            eligible.append(("golden_dragon", values.golden_dragon))
        face = [parse_tile(t) for t in tiles]  # type: ignore[arg-type]
        for meld in norm:
            face.extend(meld_tiles(meld))
        flush = _flush(face, g)
        if flush is not None:
            eligible.append((flush, getattr(values, flush)))

    if jumped_claim and (scored_self or not (golden_pair or golden_dragon)):
        raise RuleError("抢炮和 is a discard win by a 金雀 or 金龙 hand")
    if (
        not scored_self
        and prof.idle_gold == "self_draw_only"
        and is_idle_gold(hand, g, norm, profile=prof)
    ):
        raise RuleError(f"profile {prof.name}: a 闲金 hand (one gold waiting alone) must self-draw")

    best_key, best_points = None, 0
    for key, points in eligible:
        if best_key is None or points > best_points:
            best_key, best_points = key, points

    melded_golds = sum(1 for meld in norm for t in meld_tiles(meld) if t == g)
    fan = FanBreakdown(
        flowers=flower_fan(flower_list, prof),
        kongs=kongs,
        golds=(golds_in_hand + melded_golds) * prof.gold_fan,
        streak=streak * prof.streak_fan,
    )
    pay = prof.payment
    multiplier = pay.self_draw_multiplier if scored_self else pay.discard_multiplier
    per_payer = (fan.total + pay.base) * multiplier + best_points
    if jumped_claim:
        per_payer *= values.jump_multiplier
    if scored_self or prof.discard_win_payer == "all":
        payers = [s for s in range(4) if s != seat]
    else:
        payers = [discarder]  # type: ignore[list-item]
    payments = [0, 0, 0, 0]
    for s in payers:
        payments[s] -= per_payer
    payments[seat] += per_payer * len(payers)
    return Settlement(
        winner=seat,
        pattern=PATTERN_NAMES[best_key] if best_key else None,
        pattern_points=best_points,
        eligible=tuple((PATTERN_NAMES[k], p) for k, p in eligible),
        fan=fan,
        self_drawn=scored_self,
        jumped=jumped_claim,
        per_payer=per_payer,
        payments=(payments[0], payments[1], payments[2], payments[3]),
        profile=prof.name,
    )
