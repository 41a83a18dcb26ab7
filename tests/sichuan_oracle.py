"""The straightforward Sichuan wait and 查大叫 computations the engine had before its fast paths
(per-hand caches, per-suit completion tables), kept as the oracle of the differential tests in
tests/test_sichuan_speed.py. Deliberately simple: every wait and value recomputed from scratch."""

from __future__ import annotations

from collections.abc import Sequence

from mjstats.errors import InvalidHand, NotWinningHand
from mjstats.rulesets.sichuan.fan import _hand_extras, _hand_reading, gen_count
from mjstats.rulesets.sichuan.profiles import Profile
from mjstats.rulesets.sichuan.tiles import Meld
from mjstats.rulesets.sichuan.win import WIN_SIZE, suit_completions, suit_features, suits_held
from mjstats.tiles import SUITED, Tile


def oracle_waits(
    counts: Sequence[int], norm: tuple[Meld, ...], held: Sequence[int], void_suit: int | None
) -> frozenset[Tile]:
    """The waits of a 13-tile hand, suit by suit, without any hand-level cache."""
    size = sum(counts)
    if size != WIN_SIZE - 1 - 3 * len(norm):
        raise InvalidHand(f"size {size} with {len(norm)} meld(s)")
    present = (any(held[0:9]), any(held[9:18]), any(held[18:27]))
    if void_suit is not None and present[void_suit]:
        return frozenset()
    if all(present):
        return frozenset()
    two_suits = sum(present) == 2
    keys = (tuple(counts[0:9]), tuple(counts[9:18]), tuple(counts[18:27]))
    sizes = (sum(keys[0]) % 3, sum(keys[1]) % 3, sum(keys[2]) % 3)
    out: list[int] = []
    for s in (0, 1, 2):
        if s == void_suit or (void_suit is None and two_suits and not present[s]):
            continue
        grown = list(sizes)
        grown[s] = (grown[s] + 1) % 3
        if grown.count(0) != 2 or grown.count(2) != 1:
            continue
        if all(suit_features(keys[j], grown[j] == 2) for j in (0, 1, 2) if j != s):
            out.extend(9 * s + r for r in suit_completions(keys[s], grown[s] == 2))
    if not norm:
        odd = [k for k in range(27) if counts[k] & 1]
        if len(odd) == 1:
            out.append(odd[0])
    return frozenset(SUITED[k] for k in out if held[k] < 4)


def oracle_wait_value(
    counts: Sequence[int], held: Sequence[int], melds: tuple[Meld, ...], wait: int, profile: Profile
) -> int:
    """The 查大叫 multiplier of one wait, from the whole grown hand."""
    rules = profile.fan
    grown = list(counts)
    grown[wait] += 1
    all_counts = list(held)
    all_counts[wait] += 1
    g = gen_count(all_counts, melds, rules.gen_counting)
    reading = _hand_reading(tuple(grown), melds, len(suits_held(held)) == 1, g, rules)
    if reading is None:
        raise NotWinningHand(f"{SUITED[wait]} does not complete the hand")
    _, fan, consumed, _ = reading
    fan += rules.gen_fan * max(0, g - consumed) + sum(f for _, f in _hand_extras(melds, all_counts, rules))
    return profile.multiplier(fan)
