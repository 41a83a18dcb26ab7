"""Fuzhou win shapes with the wild gold (金): complete hands, waits, shanten, 金雀, 金龙, 闲金.

A Fuzhou hand wins with 5 melds + 1 pair (17 tiles, seed 003 基本牌型). Every copy of the gold
kind in the concealed hand is wild and stands for any suited tile, itself included (reference
fuzhou.md); golds are removed from the count vector and passed to mjstats.rules.hand as
``wilds``. Honours a profile makes playable (platform: 发 白) are never stood for by a gold, so
they must pair or pung on their own; a gold of an honour kind standing for itself only forms
all-gold groups, which any suited kind forms too. 三金倒 (three golds win whatever the shape)
is a settlement rule, not a shape.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from mjstats.errors import InvalidHand, TileError
from mjstats.rules import hand as shapes
from mjstats.rulesets.fuzhou.profiles import Profile, load_profile
from mjstats.tiles import ALL_KINDS, Tile, parse_tile

__all__ = [
    "HAND_GROUPS",
    "WIN_SIZE",
    "Meld",
    "count_golds",
    "has_golden_dragon",
    "has_golden_pair",
    "is_idle_gold",
    "is_winning_hand",
    "meld_tiles",
    "normalize_melds",
    "shanten",
    "split_golds",
    "waits",
]

WIN_SIZE = 17  # seed 003: the dealer takes 17, a winning hand is 17 tiles
HAND_GROUPS = 5  # 5 melds (chow, pung or kong) + 1 pair

Meld = tuple[str, Tile, int]  # (kind, tile, offer) as in the Guobiao engine; CHI names the middle tile
_MELD_KINDS = ("CHI", "PENG", "GANG")


def _tile(value: object) -> Tile:
    if type(value) is Tile:
        return value  # fast path: the common case in audits and the benchmark
    try:
        return parse_tile(value)  # type: ignore[arg-type]
    except TileError as exc:
        raise InvalidHand(str(exc)) from None


def normalize_melds(melds: Iterable[Sequence[object]], profile: Profile | str = "seed") -> tuple[Meld, ...]:
    """Melds as ``(kind, Tile, offer)`` with kinds upper-case; raises InvalidHand on a bad meld."""
    prof = load_profile(profile)
    out: list[Meld] = []
    for meld in melds:
        if len(meld) != 3:
            raise InvalidHand(f"a meld is (kind, tile, offer), got {meld!r}")
        kind, tile, offer = meld
        kind = str(kind).upper()
        if kind not in _MELD_KINDS:
            raise InvalidHand(f"unknown meld kind {kind!r}: one of {', '.join(_MELD_KINDS)}")
        t = _tile(tile)
        if t not in prof.playable_kinds:
            raise InvalidHand(f"meld of {t}: flower tiles are never melded (profile {prof.name})")
        if kind == "CHI" and (t >= 27 or t % 9 in (0, 8)):
            raise InvalidHand(f"CHI names the middle tile of a suited run, got {t}")
        if not isinstance(offer, int) or isinstance(offer, bool):
            raise InvalidHand(f"meld offer must be an int, got {offer!r}")
        # As in the Guobiao engine: CHI/PENG 1..3 (who offered), GANG 0..3 (0 = concealed).
        if not (0 if kind == "GANG" else 1) <= offer <= 3:
            raise InvalidHand(f"{kind} offer out of range: {offer}")
        out.append((kind, t, offer))
    return tuple(out)


def meld_tiles(meld: Meld) -> tuple[Tile, ...]:
    """The face tiles of one meld (a kong is four tiles)."""
    kind, t, _ = meld
    if kind == "CHI":
        return (ALL_KINDS[t - 1], t, ALL_KINDS[t + 1])
    return (t,) * (4 if kind == "GANG" else 3)


def split_golds(
    tiles: Iterable[object],
    gold: object,
    melds: Sequence[Meld] = (),
    profile: Profile | str = "seed",
) -> tuple[list[int], int]:
    """Count vector (34 kinds) of the non-gold concealed tiles, and the number of golds.

    Raises InvalidHand for a flower tile in the hand (seed 003: honours and flowers only score),
    a fifth copy of a kind, more golds than the profile's live golds, or a flower as the gold.
    """
    prof = load_profile(profile)
    g = gold if type(gold) is Tile else _tile(gold)
    flower_codes = prof.flower_codes
    if g in flower_codes:
        raise InvalidHand(f"the gold {g} is a flower tile: a flower turned up is replaced")
    counts = [0] * 42  # every tile code, so that a flower is counted before it is refused
    for t in tiles:
        if type(t) is not Tile:
            t = _tile(t)
        counts[t] += 1
    if any(map(counts.__getitem__, flower_codes)):
        t = next(ALL_KINDS[k] for k in flower_codes if counts[k])
        raise InvalidHand(f"{t} is a flower tile under profile {prof.name}: it is never held")
    del counts[34:]
    held = counts
    if melds:
        held = counts.copy()
        for meld in melds:
            for t in meld_tiles(meld):
                held[t] += 1
    if max(held) > 4:
        kind = max(range(34), key=held.__getitem__)
        raise InvalidHand(f"{held[kind]} copies of {ALL_KINDS[kind]}: there are only 4")
    if held[g] > prof.live_golds:
        raise InvalidHand(f"{held[g]} golds held but profile {prof.name} has {prof.live_golds} live")
    golds = counts[g]
    counts[g] = 0  # golds leave the count vector: they are the wilds
    return counts, golds


def count_golds(tiles: Iterable[object], gold: object) -> int:
    """How many copies of the gold kind are among ``tiles``."""
    g = _tile(gold)
    return sum(1 for t in tiles if _tile(t) == g)


def _prepared(
    tiles: Sequence[object],
    gold: object,
    melds: Iterable[Sequence[object]],
    size: int,
    profile: Profile | str,
) -> tuple[list[int], int, tuple[Meld, ...]] | None:
    """Checked counts, golds and melds, or None when the tile count is not ``size`` - 3 x melds."""
    norm = normalize_melds(melds, profile) if melds else ()
    if len(norm) > HAND_GROUPS or len(tiles) != size - 3 * len(norm):
        # Still reject flower tiles: a hand holding one is impossible, whatever its size.
        split_golds(tiles, gold, (), profile)
        return None
    counts, golds = split_golds(tiles, gold, norm, profile)
    return counts, golds, norm


def is_winning_hand(
    tiles: Sequence[object],
    gold: object,
    melds: Iterable[Sequence[object]] = (),
    *,
    profile: Profile | str = "seed",
) -> bool:
    """Whether ``tiles`` (concealed, winning tile included) with ``melds`` form 5 melds + 1 pair.

    Golds are wild. A wrong tile count is simply not a win; a flower tile raises InvalidHand.
    """
    prepared = _prepared(tiles, gold, melds, WIN_SIZE, profile)
    if prepared is None:
        return False
    counts, golds, norm = prepared
    return shapes.is_complete(counts, HAND_GROUPS - len(norm), wilds=golds)


def has_golden_pair(
    tiles: Sequence[object],
    gold: object,
    melds: Iterable[Sequence[object]] = (),
    *,
    profile: Profile | str = "seed",
) -> bool:
    """金雀: the hand is complete with two golds as its pair (the other golds stay wild)."""
    prepared = _prepared(tiles, gold, melds, WIN_SIZE, profile)
    if prepared is None:
        return False
    counts, golds, norm = prepared
    return golds >= 2 and shapes.is_complete(counts, HAND_GROUPS - len(norm), pair=False, wilds=golds - 2)


def has_golden_dragon(
    tiles: Sequence[object],
    gold: object,
    melds: Iterable[Sequence[object]] = (),
    *,
    profile: Profile | str = "seed",
) -> bool:
    """金龙: the hand is complete with three golds as a pung of the gold kind."""
    prepared = _prepared(tiles, gold, melds, WIN_SIZE, profile)
    if prepared is None:
        return False
    counts, golds, norm = prepared
    return golds >= 3 and shapes.is_complete(counts, HAND_GROUPS - len(norm) - 1, wilds=golds - 3)


def is_idle_gold(
    hand: Sequence[object],
    gold: object,
    melds: Iterable[Sequence[object]] = (),
    *,
    profile: Profile | str = "seed",
) -> bool:
    """闲金: a waiting hand (16 - 3 x melds tiles) of complete melds plus its one gold waiting
    alone for the pair, so that any tile completes it (the `idle_gold` profile switch).

    Exactly one gold (reference: "one gold as a single-tile wait"); a hand with two golds that
    waits the same way is a 金雀 wait instead.
    """
    prepared = _prepared(hand, gold, melds, WIN_SIZE - 1, profile)
    if prepared is None:
        return False
    counts, golds, norm = prepared
    return golds == 1 and shapes.is_complete(counts, HAND_GROUPS - len(norm), pair=False)


def waits(
    hand: Sequence[object],
    gold: object,
    melds: Iterable[Sequence[object]] = (),
    *,
    profile: Profile | str = "seed",
) -> frozenset[Tile]:
    """Kinds that complete a waiting hand of 16 - 3 x melds tiles (a drawn gold adds a wild).

    Kinds whose four copies the hand and its melds already hold are left out (none can be
    drawn). Empty when the hand size is wrong or nothing completes it.
    """
    prof = load_profile(profile)
    prepared = _prepared(hand, gold, melds, WIN_SIZE - 1, prof)
    if prepared is None:
        return frozenset()
    counts, golds, norm = prepared
    g = _tile(gold)
    held = counts.copy()
    held[g] = golds
    for meld in norm:
        for t in meld_tiles(meld):
            held[t] += 1
    playable = prof.playable_kinds
    out = {
        ALL_KINDS[t]
        for t in shapes.regular_waits(counts, HAND_GROUPS - len(norm), wilds=golds)
        if t != g and t in playable and held[t] < 4
    }
    if held[g] < 4 and shapes.is_complete(counts, HAND_GROUPS - len(norm), wilds=golds + 1):
        out.add(g)
    return frozenset(out)


def shanten(
    hand: Sequence[object],
    gold: object,
    melds: Iterable[Sequence[object]] = (),
    *,
    profile: Profile | str = "seed",
) -> int:
    """Tiles still to change before the hand waits (16 - 3m tiles: 0 = waiting) or wins
    (17 - 3m tiles: -1 = complete); golds count as wild. Shape only: 三金倒 is not considered."""
    norm = normalize_melds(melds, profile) if melds else ()
    size = len(hand) + 3 * len(norm)
    if size not in (WIN_SIZE - 1, WIN_SIZE) or len(norm) > HAND_GROUPS:
        raise InvalidHand(f"a Fuzhou hand has 16 or 17 tiles with melds counted as 3, got {size}")
    counts, golds = split_golds(hand, gold, norm, profile)
    return shapes.regular_shanten(counts, HAND_GROUPS - len(norm), wilds=golds)
