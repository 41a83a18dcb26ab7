"""Sichuan fan: the pattern (格), 根, the situational extras and the capped multiplier of one win.

Reference §3.6: ``F = best + extras``, where ``best`` is the highest over the hand's readings
(every regular division and the seven-pairs reading) of ``pattern fan + gen_fan * max(0, G -
consumed)``; ``G`` counts the kinds held four times (concealed, winning tile and melds); 龙七对
and 清龙七对 consume one 根. A win is worth ``2 ** min(F, cap)`` per payer. Fans are 0-based
(平胡 = 0 fan = x1); the seed labels the same hand 一番.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from mjstats.errors import InvalidHand, NotWinningHand, RuleError
from mjstats.rulesets.sichuan.profiles import FanRules, Profile, load_profile
from mjstats.rulesets.sichuan.suit_table import ENTRIES, combine, suit_entry
from mjstats.rulesets.sichuan.tiles import (
    Meld,
    check_copies,
    count_tiles,
    meld_counts,
    normalize_melds,
    parse_suit,
    suited_tile,
    suited_tiles,
)
from mjstats.rulesets.sichuan.win import (
    GROWERS,
    WIN_SIZE,
    is_seven_pairs,
    regular_divisions,
    regular_features,
    suits_held,
)
from mjstats.slot_setters import frozen_record, record_setters
from mjstats.tiles import SUITED, Tile

__all__ = [
    "PATTERNS",
    "WinContext",
    "WinScore",
    "gen_count",
    "reading_sets",
    "ready_values",
    "score_win",
    "wait_value",
    "wait_values",
]

# The patterns of reference §3.3 in table order; on equal totals the pattern with the higher
# own fan is named, then the later row (so 清龙七对 over 清七对 + 根, 龙七对 over 七对 + 根).
PATTERNS: tuple[str, ...] = (
    "平胡",
    "对对胡",
    "清一色",
    "带幺九",
    "七对",
    "清对",
    "将对",
    "龙七对",
    "清七对",
    "清幺九",
    "清龙七对",
)
_ORDER = {name: i for i, name in enumerate(PATTERNS)}
_TERMINAL = (0, 8)  # rank 1 and 9 (code % 9)
_JIANG = (1, 4, 7)  # rank 2, 5 and 8


@dataclass(frozen=True, slots=True)
class WinContext:
    """How the winning tile came (reference §3.5, §3.7); every flag defaults to a plain win."""

    self_drawn: bool = False  # 自摸 (杠上花, 天胡 and the seed's 地胡 are self-draws)
    kong_win: bool = False  # 杠上花: self-drawn on the replacement after the winner's own kong
    kong_discard: bool = False  # 杠上炮: the discard ending a turn in which the discarder konged
    robbed_kong: bool = False  # 抢杠胡: the tile robbed from another player's 补杠
    last_tile: bool = False  # 海底捞月 (self-drawn last wall tile) / 海底炮 (its drawer's discard)
    heavenly: bool = False  # 天胡: the dealer's opening 14 tiles
    earthly: bool = False  # 地胡: a non-dealer's first draw (platform: or the dealer's first discard)

    def check(self) -> None:
        """RuleError for flags no win can combine."""
        if self.kong_win and not self.self_drawn:
            raise RuleError("杠上花 (kong win) is a self-draw")
        if self.kong_discard and self.self_drawn:
            raise RuleError("杠上炮 (kong discard) is won on a discard, not a self-draw")
        if self.robbed_kong and (self.self_drawn or self.kong_discard):
            raise RuleError("抢杠胡 (robbed kong) is won on another player's 补杠, not a draw or discard")
        if self.robbed_kong and self.last_tile:
            raise RuleError("抢杠胡 with the last tile: nobody may kong when the wall is empty")
        if self.heavenly and not self.self_drawn:
            raise RuleError("天胡 (heavenly) is a self-draw of the dealer's opening hand")
        if self.heavenly and self.earthly:
            raise RuleError("天胡 is the dealer's, 地胡 a non-dealer's: not both")
        if (self.heavenly or self.earthly) and (
            self.kong_win or self.kong_discard or self.robbed_kong or self.last_tile
        ):
            raise RuleError("天胡/地胡 come before any kong and far from the last tile")


@dataclass(frozen=True, slots=True)
class WinScore:
    """One Sichuan win under one profile."""

    fan: int  # F of reference §3.6, before the cap
    multiplier: int  # 2 ** min(F, cap)
    value: int  # what each payer pays per base stake: the multiplier (+1 for a "base" self-draw bonus)
    pattern: str  # the pattern of the best reading (天胡/地胡 when they replace it)
    pattern_fan: int
    gen: int  # the 根 fan added (after 龙七对's consumption)
    gen_count: int  # G: kinds held four times
    extras: tuple[tuple[str, int], ...]  # situational and hand extras that apply, with their fan
    shape: str  # "regular" or "seven_pairs"
    reading: str  # the pattern of the best reading (the same as pattern unless 天胡/地胡 replace it)
    tiles: tuple[int, ...]  # concealed counts per kind (27), winning tile included
    melds: tuple[Meld, ...]
    self_drawn: bool
    capped: bool  # F exceeded the cap
    notes: tuple[str, ...]  # claims the profile does not count, and why
    profile: str

    @property
    def sets(self) -> tuple[tuple[str, tuple[Tile, ...], bool], ...]:
        """(kind, tiles, melded) of the best reading, melds first (worked out when asked)."""
        return reading_sets(self.tiles, self.melds, self.reading, self.shape)

    def as_dict(self) -> dict[str, object]:
        return {
            "fan": self.fan,
            "multiplier": self.multiplier,
            "value": self.value,
            "pattern": self.pattern,
            "pattern_fan": self.pattern_fan,
            "gen": self.gen,
            "gen_count": self.gen_count,
            "extras": [{"name": n, "fan": f} for n, f in self.extras],
            "shape": self.shape,
            "sets": [{"kind": k, "tiles": [str(t) for t in ts], "melded": m} for k, ts, m in self.sets],
            "self_drawn": self.self_drawn,
            "capped": self.capped,
            "notes": list(self.notes),
            "profile": self.profile,
        }


# The slots' own setters of WinScore, in field order: the generated __init__ of a frozen
# dataclass sets each of its 16 fields through object.__setattr__, frozen_record with these about
# twice as fast into the same object. slot_setters refuses, at import, a WinScore that does more
# than set its fields (tests/test_sichuan_speed.py).
_WIN_SCORE_SETTERS = record_setters(WinScore)


def gen_count(all_counts: Sequence[int], melds: Sequence[Meld], counting: str = "all") -> int:
    """根 G: kinds held four times in hand, winning tile and melds (a kong, a concealed quad, a
    pong plus its fourth tile in hand). ``counting="unmelded_only"`` leaves kongs out."""
    g = list(all_counts).count(4)
    if counting == "unmelded_only":
        g -= sum(1 for kind, _, _ in melds if kind == "GANG")
    return g


def _pattern_of(all_pungs: bool, yaojiu: bool, jiang: bool, flush: bool) -> tuple[str, int]:
    """The best pattern (name, fan) of one regular reading with these properties."""
    if flush and yaojiu:
        return "清幺九", 4
    if flush and all_pungs:
        return "清对", 3
    if jiang and all_pungs:
        return "将对", 3
    if flush:
        return "清一色", 2
    if yaojiu:
        return "带幺九", 2
    if all_pungs:
        return "对对胡", 1
    return "平胡", 0


def _best_regular(
    counts: tuple[int, ...], melds: tuple[Meld, ...], flush: bool, yaojiu_on: bool
) -> tuple[str, int] | None:
    """The best regular pattern (name, fan) of the concealed counts (27 kinds, winning tile
    included) with ``melds``, or None when the tiles form no 4 sets + pair."""
    combined = regular_features(counts)
    if combined is None:
        return None
    meld_yaojiu = yaojiu_on and all(t % 9 in _TERMINAL for _, t, _ in melds)
    meld_jiang = yaojiu_on and all(t % 9 in _JIANG for _, t, _ in melds)
    return _best_of(combined, meld_yaojiu, meld_jiang, flush)


@lru_cache(maxsize=1 << 12)
def _best_of(combined: frozenset, yaojiu_ok: bool, jiang_ok: bool, flush: bool) -> tuple[str, int]:
    """The best pattern over readings with these features (memoised: few feature sets exist)."""
    best: tuple[int, int, str] | None = None
    for pungs, yaojiu, jiang in combined:
        name, fan = _pattern_of(pungs, yaojiu and yaojiu_ok, jiang and jiang_ok, flush)
        if best is None or (fan, _ORDER[name]) > best[:2]:
            best = (fan, _ORDER[name], name)
    assert best is not None  # a reading exists: regular_features was not None
    return best[2], best[0]


_BEST_BY_MASK: dict[int, tuple[str, int]] = {}


def _best_of_mask(mask: int, yaojiu_ok: bool, jiang_ok: bool, flush: bool) -> tuple[str, int]:
    """:func:`_best_of` of the readings packed in a suit_table mask (not 0), memoised."""
    key = mask << 3 | yaojiu_ok << 2 | jiang_ok << 1 | flush
    out = _BEST_BY_MASK.get(key)
    if out is None:
        readings = frozenset((bool(i & 4), bool(i & 2), bool(i & 1)) for i in range(8) if mask >> i & 1)
        out = _BEST_BY_MASK[key] = _best_of(readings, yaojiu_ok, jiang_ok, flush)
    return out


_BEST_BY_PAIR: dict[int, tuple[str, int]] = {}


def _best_of_pair(a: int, b: int, flags: int) -> tuple[str, int]:
    """:func:`_best_of_mask` of two parts' masks read together, ``flags`` packing (yaojiu_ok,
    jiang_ok, flush) as 4/2/1: one lookup in a table over small ints (a fixed function, filled on
    demand and never emptied, like the per-suit tables)."""
    key = (a << 8 | b) << 3 | flags
    out = _BEST_BY_PAIR.get(key)
    if out is None:
        out = _best_of_mask(combine(a, b), bool(flags & 4), bool(flags & 2), bool(flags & 1))
        _BEST_BY_PAIR[key] = out
    return out


def _meld_flags(melds: Sequence[Meld], yaojiu_on: bool) -> tuple[bool, bool]:
    """Whether every meld keeps 带幺九 (a 1 or 9) and 将对 (rank 2/5/8) open, as _best_regular."""
    return (
        yaojiu_on and all(t % 9 in _TERMINAL for _, t, _ in melds),
        yaojiu_on and all(t % 9 in _JIANG for _, t, _ in melds),
    )


def _choose(
    regular: tuple[str, int] | None, seven: bool, raw: bytes, flush: bool, g: int, rules: FanRules
) -> tuple[str, int, int, str] | None:
    """:func:`_hand_reading`'s choice between the best regular pattern and 七对 (reference §3.6)."""
    best: tuple[int, int, int] | None = None
    chosen = None
    if regular is not None:
        name, fan = regular
        best, chosen = (fan + rules.gen_fan * g, fan, _ORDER[name]), (name, fan, 0, "regular")
    if seven:
        name, fan, consumed = _seven_pairs_pattern(raw, flush, rules.long_qidui_fan)
        key = (fan + rules.gen_fan * max(0, g - consumed), fan, _ORDER[name])
        if best is None or key > best:
            chosen = (name, fan, consumed, "seven_pairs")
    return chosen


def _fast_reading(
    raw: bytes, melds: tuple[Meld, ...], flush: bool, g: int, rules: FanRules
) -> tuple[str, int, int, str] | None:
    """:func:`_hand_reading` from the per-suit tables: ``raw`` is the concealed counts (27
    kinds, winning tile included) as bytes. The same answer (tests/test_sichuan_plain_run.py)."""
    get = ENTRIES.get
    e0 = get(raw[0:9]) or suit_entry(raw[0:9])
    e1 = get(raw[9:18]) or suit_entry(raw[9:18])
    e2 = get(raw[18:27]) or suit_entry(raw[18:27])
    regular = None
    # 4 sets + pair: one suit holds 3k + 2 tiles, the others 3k; a suit's mask is 0 when it
    # does not split (or holds 3k + 1)
    if (e0[0] % 3) + (e1[0] % 3) + (e2[0] % 3) == 2 and e0[1] and e1[1] and e2[1]:
        if melds:
            yaojiu_ok, jiang_ok = _meld_flags(melds, rules.yaojiu_jiangdui)
        else:
            yaojiu_ok = jiang_ok = rules.yaojiu_jiangdui
        regular = _best_of_pair(e0[1], combine(e1[1], e2[1]), yaojiu_ok << 2 | jiang_ok << 1 | flush)
    # 七对: 14 concealed tiles (no meld), every count 0, 2 or 4 (counted in C)
    if melds or 1 in raw or 3 in raw or sum(raw) != WIN_SIZE:
        if regular is None:
            return None
        name, fan = regular
        return name, fan, 0, "regular"
    return _choose(regular, True, raw, flush, g, rules)


def _seven_pairs_pattern(counts: Sequence[int], flush: bool, long_fan: int) -> tuple[str, int, int]:
    """(name, fan, 根 consumed) of a seven-pairs hand."""
    quad = 4 in counts
    if flush:
        return ("清龙七对", 5, 1) if quad else ("清七对", 4, 0)
    if quad:
        return "龙七对", long_fan, 1
    return "七对", 2, 0


def _division_pattern(
    division: tuple, melds: Sequence[Meld], flush: bool, yaojiu_on: bool
) -> tuple[str, int]:
    """The pattern of one explicit division (for showing the sets of the best reading)."""
    pungs = all(kind != "chow" for kind, _ in division)
    yaojiu = all((t % 9 in (0, 6)) if kind == "chow" else (t % 9 in _TERMINAL) for kind, t in division)
    jiang = all(kind != "chow" and t % 9 in _JIANG for kind, t in division)
    yaojiu = yaojiu and all(t % 9 in _TERMINAL for _, t, _ in melds)
    jiang = jiang and all(t % 9 in _JIANG for _, t, _ in melds)
    return _pattern_of(pungs, yaojiu and yaojiu_on, jiang and yaojiu_on, flush)


def reading_sets(
    counts: Sequence[int], melds: Sequence[Meld], pattern: str, shape: str
) -> tuple[tuple[str, tuple[Tile, ...], bool], ...]:
    """The sets of a reading of the concealed counts (winning tile included) that scores
    ``pattern``: (kind, tiles, melded), melds first. Kinds: pong, kong, concealed_kong,
    sequence, pair."""
    out: list[tuple[str, tuple[Tile, ...], bool]] = []
    for kind, meld_tile, offer in melds:
        name = "pong" if kind == "PENG" else ("concealed_kong" if offer == 0 else "kong")
        out.append((name, (SUITED[meld_tile],) * (3 if kind == "PENG" else 4), True))
    if shape == "seven_pairs":  # a quad is two pairs
        for k, c in enumerate(counts):
            out.extend(("pair", (SUITED[k], SUITED[k]), False) for _ in range(c // 2))
        return tuple(out)
    flush = len(suits_held([a + b for a, b in zip(counts, meld_counts(melds), strict=True)])) == 1
    divisions = regular_divisions(counts, 4 - len(melds))
    matching = [
        d for d in divisions for on in (True, False) if _division_pattern(d, melds, flush, on)[0] == pattern
    ]
    for kind, t in (matching or divisions or ((),))[0]:
        if kind == "chow":
            out.append(("sequence", (SUITED[t], SUITED[t + 1], SUITED[t + 2]), False))
        elif kind == "pung":
            out.append(("pong", (SUITED[t],) * 3, False))
        else:
            out.append(("pair", (SUITED[t],) * 2, False))
    return tuple(out)


def _hand_reading(
    counts: tuple[int, ...], melds: tuple[Meld, ...], flush: bool, g: int, rules: FanRules
) -> tuple[str, int, int, str] | None:
    """The best reading (pattern, pattern fan, 根 consumed, shape) of a hand, or None when it
    does not win: the regular reading against 七对, on pattern fan + 根 (reference §3.6)."""
    best: tuple[int, int, int] | None = None
    chosen = None
    regular = _best_regular(counts, melds, flush, rules.yaojiu_jiangdui)
    if regular is not None:
        name, fan = regular
        best, chosen = (fan + rules.gen_fan * g, fan, _ORDER[name]), (name, fan, 0, "regular")
    if is_seven_pairs(counts, len(melds)):
        name, fan, consumed = _seven_pairs_pattern(counts, flush, rules.long_qidui_fan)
        key = (fan + rules.gen_fan * max(0, g - consumed), fan, _ORDER[name])
        if best is None or key > best:
            chosen = (name, fan, consumed, "seven_pairs")
    return chosen


def _hand_extras(melds: Sequence[Meld], all_counts: Sequence[int], rules: FanRules) -> list[tuple[str, int]]:
    """Extras that belong to the hand rather than to how the tile came: 金钩钓 (listed even at 0
    fan), 门清 and 断幺九 (room options, listed only when they are worth something)."""
    out = []
    if len(melds) == 4:  # four melds and a single tile paired by the winning tile
        out.append(("金钩钓", rules.jin_gou_diao_fan))
    if rules.menqing_fan and not any(kind == "PENG" or offer for kind, _, offer in melds):
        out.append(("门清", rules.menqing_fan))
    if rules.duanyao_fan and not any(all_counts[k] for k in range(27) if k % 9 in _TERMINAL):
        out.append(("断幺九", rules.duanyao_fan))
    return out


def wait_value(
    counts: Sequence[int], held: Sequence[int], melds: tuple[Meld, ...], wait: int, profile: Profile
) -> int:
    """The multiplier ``2 ** min(F, cap)`` of a waiting hand completed by ``wait`` as a discard
    win without situational extras: pattern, 根 (a quad the wait completes included) and the
    hand extras (reference §4.6, the value 查大叫 pays). ``counts`` are the concealed counts
    (27 kinds), ``held`` with the melds added; the caller knows ``wait`` completes the hand."""
    return wait_values(counts, held, melds, (wait,), profile)[0]


def wait_values(
    counts: Sequence[int],
    held: Sequence[int],
    melds: tuple[Meld, ...],
    waits: Sequence[int],
    profile: Profile,
) -> list[int]:
    """:func:`wait_value` of each of ``waits``, the parts every wait shares worked out once:
    the suits (a wait lies in a suit the hand holds, so the flush does not change), the 根
    already held and the hand extras (only 断幺九 depends on the wait: a 1 or 9 breaks it)."""
    rules = profile.fan
    flush = len(suits_held(held)) == 1
    quads = list(held).count(4) - (
        sum(1 for kind, _, _ in melds if kind == "GANG") if rules.gen_counting == "unmelded_only" else 0
    )
    extras = _hand_extras(melds, held, rules)
    base_extra = sum(f for name, f in extras if name != "断幺九")
    duanyao = rules.duanyao_fan if any(name == "断幺九" for name, _ in extras) else 0
    raw = bytes(counts)
    get = ENTRIES.get
    entries = (
        get(raw[0:9]) or suit_entry(raw[0:9]),
        get(raw[9:18]) or suit_entry(raw[9:18]),
        get(raw[18:27]) or suit_entry(raw[18:27]),
    )
    yaojiu_ok, jiang_ok = _meld_flags(melds, rules.yaojiu_jiangdui)
    # 七对 needs 13 concealed tiles, no meld and exactly one kind held an odd number of times:
    # then only that kind completes it
    seven_wait = None
    if not melds and sum(raw) == WIN_SIZE - 1 and raw.count(1) + raw.count(3) == 1:
        seven_wait = raw.find(1) if 1 in raw else raw.find(3)  # (the counts are at most 4)
    out = []
    for wait in waits:
        s = wait // 9
        g = quads + (held[wait] == 3)  # gen_count of held + wait: the wait may make a quad
        # the regular reading: the wait's suit grows by one tile, the other two stay as they are
        regular = None
        grown, (a, b) = entries[s], _OTHERS[s]
        ea, eb = entries[a], entries[b]
        if ((grown[0] + 1) % 3) + (ea[0] % 3) + (eb[0] % 3) == 2 and ea[1] and eb[1]:
            rank = wait - 9 * s
            for r, grown_mask in grown[2]:
                if r == rank:
                    mask = combine(combine(grown_mask, ea[1]), eb[1])
                    regular = _best_of_mask(mask, yaojiu_ok, jiang_ok, flush)
                    break
        seven = wait == seven_wait
        if regular is None and not seven:
            raise NotWinningHand(f"{SUITED[wait]} does not complete the hand")
        grown_raw = raw[:wait] + bytes((raw[wait] + 1,)) + raw[wait + 1 :] if seven else raw
        reading = _choose(regular, seven, grown_raw, flush, g, rules)
        assert reading is not None
        _, fan, consumed, _ = reading
        fan += rules.gen_fan * max(0, g - consumed) + base_extra
        if duanyao and wait % 9 not in _TERMINAL:  # reference §3.8: 断幺九 holds no 1 or 9
            fan += duanyao
        out.append(profile.multiplier(fan))
    return out


_OTHERS = ((1, 2), (0, 2), (0, 1))  # the two suits besides each


def ready_values(
    counts: list[int],
    held: list[int],
    melds: tuple[Meld, ...],
    void_suit: int | None,
    profile: Profile,
) -> tuple[tuple[Tile, ...], list[int]]:
    """(waits in kind order, the 查大叫 multiplier of each) of a checked hand of ``13 - 3m``
    concealed tiles: ``sorted(waits_from_counts(...))`` and :func:`wait_values` of them in one
    pass over the per-suit table entries, as the exhaustive draw asks for both (the same answers:
    tests/test_sichuan_speed.py). ``counts`` are the concealed counts (27 kinds, 0-4), ``held``
    with the melds added; InvalidHand for a wrong size, as :func:`waits_from_counts`."""
    n = len(melds)
    raw = bytes(counts)
    if sum(raw) != WIN_SIZE - 1 - 3 * n:
        raise InvalidHand(
            f"a waiting Sichuan hand holds {WIN_SIZE - 1 - 3 * n} concealed tiles with "
            f"{n} meld(s), got {sum(raw)}"
        )
    get = ENTRIES.get
    entries = (
        get(raw[0:9]) or suit_entry(raw[0:9]),
        get(raw[9:18]) or suit_entry(raw[9:18]),
        get(raw[18:27]) or suit_entry(raw[18:27]),
    )
    if n:
        present = (any(held[0:9]), any(held[9:18]), any(held[18:27]))
    else:
        present = (entries[0][0] > 0, entries[1][0] > 0, entries[2][0] > 0)
    if void_suit is not None and present[void_suit]:
        return (), []  # reference §2.3: a void-suit tile must go before any win
    suits = present[0] + present[1] + present[2]
    if suits == 3:
        return (), []  # 缺一门
    # 七对: no meld and exactly one kind held an odd number of times; that kind pairs up
    seven_wait = -1
    if not n and raw.count(1) + raw.count(3) == 1:
        seven_wait = raw.find(1) if 1 in raw else raw.find(3)
    # the suits that can take a regular wait: the other two split as they are
    growing = []
    for s, j, k in GROWERS[entries[0][0] % 3 * 9 + entries[1][0] % 3 * 3 + entries[2][0] % 3]:
        if s == void_suit or (void_suit is None and suits == 2 and not present[s]):
            continue
        mj, mk = entries[j][1], entries[k][1]
        if mj and mk and entries[s][2]:
            growing.append((s, combine(mj, mk)))
    if not growing and seven_wait < 0:
        return (), []
    rules = profile.fan
    flush = suits == 1  # a wait lies in a suit held, so the flush holds with it
    quads = held.count(4)  # 根 before the wait; a wait completing a quad adds one
    if rules.gen_counting == "unmelded_only":
        quads -= sum(1 for kind, _, _ in melds if kind == "GANG")
    extras = _hand_extras(melds, held, rules)
    base_extra = sum(f for name, f in extras if name != "断幺九")
    duanyao = rules.duanyao_fan if any(name == "断幺九" for name, _ in extras) else 0
    if melds:
        yaojiu_ok, jiang_ok = _meld_flags(melds, rules.yaojiu_jiangdui)
    else:
        yaojiu_ok = jiang_ok = rules.yaojiu_jiangdui
    flags = yaojiu_ok << 2 | jiang_ok << 1 | flush
    gen_fan, cap = rules.gen_fan, rules.cap_fan
    found: list[int] = []
    values: list[int] = []
    for s, other in growing:
        base = 9 * s
        for r, grown_mask in entries[s][2]:
            wait = base + r
            if held[wait] >= 4:
                continue  # reference §4.6: no wait on a kind held four times
            g = quads + (held[wait] == 3)
            regular = _best_of_pair(grown_mask, other, flags)
            if wait == seven_wait:
                fan = _seven_choice(regular, raw, wait, flush, g, rules)
            else:
                fan = regular[1] + gen_fan * g
            fan += base_extra
            if duanyao and r != 0 and r != 8:  # reference §3.8: 断幺九 holds no 1 or 9
                fan += duanyao
            found.append(wait)
            values.append(1 << (fan if cap < 0 else min(fan, cap)))
    if seven_wait >= 0 and seven_wait not in found:
        g = quads + (held[seven_wait] == 3)
        fan = _seven_choice(None, raw, seven_wait, flush, g, rules) + base_extra
        if duanyao and seven_wait % 9 not in _TERMINAL:
            fan += duanyao
        at = bisect_left(found, seven_wait)
        found.insert(at, seven_wait)
        values.insert(at, 1 << (fan if cap < 0 else min(fan, cap)))
    return tuple([SUITED[k] for k in found]), values


def _seven_choice(
    regular: tuple[str, int] | None, raw: bytes, wait: int, flush: bool, g: int, rules: FanRules
) -> int:
    """The fan (pattern + 根, before extras) of a wait that completes 七对, against the regular
    reading when it has one too (reference §3.6, as :func:`_choose`)."""
    grown = raw[:wait] + bytes((raw[wait] + 1,)) + raw[wait + 1 :]
    reading = _choose(regular, True, grown, flush, g, rules)
    assert reading is not None  # 七对 itself is a reading
    _, fan, consumed, _ = reading
    return fan + rules.gen_fan * max(0, g - consumed)


def score_win(
    hand: Iterable[object],
    melds: Iterable[Sequence[object]],
    win_tile: object,
    context: WinContext = WinContext(),
    *,
    void: object = None,
    profile: Profile | str = "seed",
    self_draw_bonus: bool = True,
) -> WinScore:
    """Score one Sichuan win: pattern, 根, extras, F, the capped multiplier.

    ``hand`` is the concealed tiles without ``win_tile`` (``13 - 3 * len(melds)`` of them);
    ``melds`` are ``("PENG" | "GANG", tile, offer)`` (GANG offer 0 = concealed kong). ``void`` is
    the declared void suit (W/T/B), or None: then any hand of at most two suits may win.
    ``self_draw_bonus=False`` scores a self-draw without the profile's self-draw bonus (a 点杠花
    paid as a discard). Raises NotWinningHand when the tiles do not win (a void-suit tile, three
    suits, no shape), InvalidHand for impossible tiles, RuleError for impossible flags.
    """
    prof = load_profile(profile)
    context.check()
    norm = normalize_melds(melds) if melds else ()
    concealed = suited_tiles(hand)
    win = suited_tile(win_tile, "winning tile")
    n = len(norm)
    if len(concealed) != WIN_SIZE - 1 - 3 * n:
        raise NotWinningHand(
            f"{len(concealed)} concealed tiles with {n} meld(s): a Sichuan win holds "
            f"{WIN_SIZE - 1 - 3 * n} plus the winning tile"
        )
    if (context.heavenly or context.earthly) and n:
        raise RuleError("天胡/地胡 come before any pong or kong: the hand has melds")
    if context.robbed_kong and not prof.play.rob_kong:
        raise RuleError(f"profile {prof.name}: robbing a kong is not allowed (play.rob_kong = false)")
    counts = count_tiles(concealed)
    counts[win] += 1
    all_counts = [a + b for a, b in zip(meld_counts(norm), counts, strict=True)] if n else counts
    check_copies(all_counts)

    def shown() -> str:
        return " ".join(map(str, concealed)) + f" + {win}"

    suits = suits_held(all_counts)
    if void is not None:
        void_suit = parse_suit(void)
        if void_suit in suits:
            raise NotWinningHand(f"{shown()}: holds a tile of the void suit {'WTB'[void_suit]} (定缺)")
    if len(suits) == 3:
        raise NotWinningHand(f"{shown()}: holds all three suits; a winning hand lacks one (缺一门)")

    rules = prof.fan
    g = all_counts.count(4)  # gen_count, inlined
    if n and rules.gen_counting == "unmelded_only":
        g -= sum(1 for kind, _, _ in norm if kind == "GANG")
    reading = _fast_reading(bytes(counts), norm, len(suits) == 1, g, rules)
    if reading is None:
        raise NotWinningHand(f"{shown()}" + (f" with {n} meld(s)" if n else "") + ": not a winning hand")
    pattern, pattern_fan, consumed, shape = reading
    gen = rules.gen_fan * max(0, g - consumed)

    notes: list[str] = []
    bonus_fan = 1 if context.self_drawn and self_draw_bonus and rules.self_draw_bonus == "fan" else 0
    bonus_base = 1 if context.self_drawn and self_draw_bonus and rules.self_draw_bonus == "base" else 0
    special = None
    if context.heavenly:
        special = "天胡"
    elif context.earthly:
        if context.self_drawn or rules.di_hu_on_dealer_first_discard:
            special = "地胡"
        else:
            notes.append(
                f"地胡 on a discard does not count under profile {prof.name} "
                "(fan.di_hu_on_dealer_first_discard = false): scored as a plain discard win"
            )
    if special is not None and rules.tian_di_hu == "off":
        notes.append(f"{special} does not count under profile {prof.name} (fan.tian_di_hu = \"off\")")
        special = None
    extras: list[tuple[str, int]] = []
    if special is not None:
        # 天胡/地胡: seed 按满格, the cap and nothing else; platform a fan-5 pattern without 根,
        # the self-draw bonus still applies (reference §3.7).
        pattern, gen = special, 0
        if rules.tian_di_hu == "cap":
            pattern_fan = rules.cap_fan
            bonus_fan = bonus_base = 0
        else:
            pattern_fan = 5
            if bonus_fan:
                extras.append(("自摸", bonus_fan))
        total = pattern_fan + bonus_fan
    else:
        if context.kong_win:
            extras.append(("杠上花", rules.gang_shang_hua_fan))
        if context.kong_discard:
            extras.append(("杠上炮", rules.gang_shang_pao_fan))
        if context.robbed_kong:
            extras.append(("抢杠胡", rules.rob_kong_fan))
        if context.last_tile:
            extras.append(("海底捞月" if context.self_drawn else "海底炮", rules.haidi_fan))
        extras.extend(_hand_extras(norm, all_counts, rules))
        if bonus_fan:
            extras.append(("自摸", bonus_fan))
        total = pattern_fan + gen + sum(f for _, f in extras)
    cap = rules.cap_fan  # prof.multiplier and prof.cap, inlined
    multiplier = 1 << (total if cap < 0 else min(total, cap))
    return frozen_record(WinScore, _WIN_SCORE_SETTERS, (
        total,
        multiplier,
        multiplier + bonus_base,
        pattern,
        pattern_fan,
        gen,
        g,
        tuple(extras),
        shape,
        reading[0],
        tuple(counts),
        norm,
        context.self_drawn,
        cap >= 0 and total > cap,
        tuple(notes),
        prof.name,
    ))
