"""Pure Fuzhou turn rules for the replayer: reserve, claims and their priority, robbing the
gold, and dealer rotation with the streak (连庄数).

Seats are 0..3 in turn order (counter-clockwise; mjstats.records), so the player after seat s
is (s + 1) % 4 and "nearest counter-clockwise from the discarder" means smallest
``(seat - discarder) % 4``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from mjstats.errors import RuleError
from mjstats.rules.claims import CLAIM_RANK
from mjstats.rulesets.fuzhou.profiles import Profile, load_profile
from mjstats.tiles import Tile, parse_tile

__all__ = [
    "CLAIM_RANK",
    "ClaimDecision",
    "DealerState",
    "GoldReveal",
    "claim_winner",
    "flower_round_order",
    "gold_robber",
    "is_exhausted",
    "is_final_draw",
    "may_chow",
    "may_claim_discard",
    "may_discard_gold",
    "may_kong_now",
    "may_win_on_discard",
    "next_dealer",
    "reserve_size",
    "reveal_gold",
    "seat_distance",
]

# CLAIM_RANK (re-exported from mjstats.rules.claims): reference fuzhou.md, win > pung/kong > chow.


def seat_distance(from_seat: int, to_seat: int) -> int:
    """Turns from ``from_seat`` to ``to_seat``, counter-clockwise (1..3; 0 for the same seat)."""
    return (to_seat - from_seat) % 4


def reserve_size(
    exposed_kongs: int = 0,
    concealed_kongs: int = 0,
    flower_groups: int = 0,
    profile: Profile | str = "seed",
) -> int:
    """Tiles left unplayed at an exhaustive draw (荒庄): seed 003 九墩 (18) plus 1 per exposed or
    added kong, 2 per concealed kong and 2 per complete group of four flowers, all seats counted."""
    prof = load_profile(profile)
    if min(exposed_kongs, concealed_kongs, flower_groups) < 0:
        raise RuleError("kong and flower-group counts must not be negative")
    return (
        prof.reserve_tiles
        + exposed_kongs * prof.reserve_per_exposed_kong
        + concealed_kongs * prof.reserve_per_concealed_kong
        + flower_groups * prof.reserve_per_flower_group
    )


def is_final_draw(wall_left: int, reserve: int, profile: Profile | str = "seed") -> bool:
    """Whether the next draw is one of the last four drawable tiles (seed 003: drawn one each in
    turn, no flower replacement and no discard; a completing tile wins as a self-draw)."""
    return 0 < wall_left - reserve <= load_profile(profile).final_draws


def is_exhausted(wall_left: int, reserve: int) -> bool:
    """Whether no drawable tile remains: the hand is drawn (荒庄) if nobody has won."""
    return wall_left <= reserve


def may_claim_discard(tile: object, gold: object) -> bool:
    """Whether a discard may be chowed, punged, konged or won on: never a gold (seed 003)."""
    return parse_tile(tile) != parse_tile(gold)  # type: ignore[arg-type]


def may_chow(seat: int, discarder: int) -> bool:
    """Chow only from the player before you (reference fuzhou.md)."""
    return seat_distance(discarder, seat) == 1


def may_kong_now(claimed_this_turn: bool) -> bool:
    """No kong in the turn of a chow or pung: only after your next draw (seed 000)."""
    return not claimed_this_turn


def may_discard_gold(profile: Profile | str = "seed") -> bool:
    """Whether a gold may be discarded at all (``gold_discard = "forbidden"`` says no)."""
    return load_profile(profile).gold_discard != "forbidden"


def may_win_on_discard(has_discarded_gold: bool, profile: Profile | str = "seed") -> bool:
    """Whether a player may win on someone's discard: after discarding a gold, only by
    self-draw under ``gold_discard = "self_draw_only"`` (seed 003: 打出金牌者只能靠自摸)."""
    prof = load_profile(profile)
    return not (has_discarded_gold and prof.gold_discard == "self_draw_only")


@dataclass(frozen=True, slots=True)
class ClaimDecision:
    """The claim that takes a discard: seat, kind, and whether a 金雀/金龙 win jumped a nearer
    winner (抢炮和, pass as ``settle_win(jumped_claim=...)``)."""

    seat: int
    kind: str
    jumped: bool = False


def claim_winner(
    discarder: int,
    claims: Mapping[int, str],
    golden: Iterable[int] = (),
) -> ClaimDecision | None:
    """Which claim on one discard succeeds; None when nobody claims.

    ``claims`` maps seat to ``hu``/``gang``/``peng``/``chi``; ``golden`` lists seats whose win
    would be 金雀 or 金龙. Win > pung/kong > chow; one winner only: a 金雀/金龙 hand first
    (seed 003: 有金雀者优先; 抢炮和: 持金雀、金龙者可抢), otherwise the nearest seat
    counter-clockwise from the discarder (截和). Raises RuleError for an impossible claim.
    """
    golden_seats = set(golden)
    for seat, kind in claims.items():
        if kind not in CLAIM_RANK:
            raise RuleError(f"unknown claim {kind!r}: one of {', '.join(CLAIM_RANK)}")
        if not 0 <= seat < 4 or seat == discarder:
            raise RuleError(f"seat {seat} cannot claim its own or a missing seat's discard")
        if kind == "chi" and not may_chow(seat, discarder):
            raise RuleError(f"seat {seat} may not chow seat {discarder}'s discard")
    if not claims:
        return None
    top = max(CLAIM_RANK[k] for k in claims.values())
    contenders = sorted(
        (s for s, k in claims.items() if CLAIM_RANK[k] == top),
        key=lambda s: seat_distance(discarder, s),
    )
    if top == CLAIM_RANK["hu"]:
        golden_winners = [s for s in contenders if s in golden_seats]
        if golden_winners:
            seat = golden_winners[0]
            return ClaimDecision(seat, "hu", jumped=seat != contenders[0])
    seat = contenders[0]
    return ClaimDecision(seat, claims[seat])


def gold_robber(
    dealer: int,
    can_rob: Iterable[int],
    dealer_heavenly: bool = False,
    profile: Profile | str = "seed",
) -> int | None:
    """Who robs the gold (抢金) among the seats whose hand the face-up gold completes.

    seed 003: a non-dealer (who has not discarded) beats the dealer; the dealer's 天和 cancels
    robbing; among non-dealers the nearest counter-clockwise from the dealer. None when nobody
    may rob, or when the profile takes the turned-up gold out of play (live_golds = 3).
    """
    if dealer_heavenly or load_profile(profile).live_golds < 4:
        return None
    seats = set(can_rob)
    others = sorted((s for s in seats if s != dealer), key=lambda s: seat_distance(dealer, s))
    if others:
        return others[0]
    return dealer if dealer in seats else None


@dataclass(frozen=True, slots=True)
class DealerState:
    """The dealer's seat and ``wins``: the dealer's consecutive wins in that seat (站顶 = 1).

    ``streak`` (连庄数) is what a win scores: the first win (站顶) adds nothing, each further
    consecutive dealer win 1 (seed 003). Under ``streak_on_draw = "plus_one"`` a drawn hand
    counts like a dealer win.
    """

    dealer: int
    wins: int = 0

    @property
    def streak(self) -> int:
        return max(0, self.wins - 1)


def next_dealer(
    state: DealerState,
    winner: int | None,
    profile: Profile | str = "seed",
) -> DealerState:
    """The dealer of the next hand: kept after a dealer win (wins + 1) and after an exhaustive
    draw (``winner=None``; unchanged or + 1 by profile); otherwise the next seat deals afresh."""
    prof = load_profile(profile)
    if winner is None:
        bump = 1 if prof.streak_on_draw == "plus_one" else 0
        return DealerState(state.dealer, state.wins + bump)
    if winner == state.dealer:
        return DealerState(state.dealer, state.wins + 1)
    return DealerState((state.dealer + 1) % 4, 0)


def flower_round_order(dealer: int, holding: Iterable[int]) -> tuple[int, ...]:
    """Seats that replace flowers in one round, in order: from the dealer on, counter-clockwise,
    only those holding flowers (seed 000: 自庄家开始补花; later rounds skip those without)."""
    return tuple(sorted(set(holding), key=lambda s: seat_distance(dealer, s)))


@dataclass(frozen=True, slots=True)
class GoldReveal:
    """The gold turned up at the tail: its kind, the flowers turned up before it (they go to the
    dealer), and how many tail tiles were turned (the gold included: it is laid face up on the
    9th stack from the tail and stays live)."""

    gold: Tile
    dealer_flowers: tuple[Tile, ...]
    consumed: int


def reveal_gold(tail: Sequence[object], profile: Profile | str = "seed") -> GoldReveal:
    """Turn up the gold from ``tail`` (tiles in the order they leave the tail).

    seed 003 開金: a flower turned up "歸莊家所有" (goes to the dealer's flowers) and the next tail
    tile is turned up, until one is not a flower. The seed's "莊家即在牌尾補花" is read as that
    next turn-up, not as an extra draw: the dealer already holds 17 tiles after the flower
    rounds, and a replacement would give 18 (the canonical format and the simulator agree).
    """
    flower_kinds = load_profile(profile).flower_kinds
    flowers: list[Tile] = []
    for i, item in enumerate(tail, 1):
        turned = parse_tile(item)  # type: ignore[arg-type]
        if turned not in flower_kinds:
            return GoldReveal(turned, tuple(flowers), i)
        flowers.append(turned)
    raise RuleError("the tail ran out while turning up the gold")
