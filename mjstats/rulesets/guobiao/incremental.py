"""Incremental shanten and useful kinds for hands without wilds (Guobiao: melds + pair, and 七对).

Judging a discard asks for the shanten of the hand minus each tile, and for the useful kinds of
each of those hands (the kinds whose draw lowers the shanten): hundreds of hands that differ
from one another in one or two suits. The shanten formula (``mjstats.rules.hand``) takes the
best of per-part options (m melds, s melds + partial melds, p pair). The judge's path (below,
"the part tables") holds each part as one int table, its best value for each number of blocks
and pair, so merging parts and "which draws help" are a few whole-int operations; the option
bitmasks above it (a part's options clamped to the melds still needed, one bitmask, and the
*good* options against the rest of a hand) serve the Fuzhou and Sichuan shape parts.

Useful kinds travel as kinds masks (bit k for kind k; ``mjstats.decision.view``).
Same numbers as ``GuobiaoShape.shanten`` and ``integrity.useful.useful_kinds`` (tests compare
them, and a differential test compares this with the straightforward computation).
"""

from __future__ import annotations

from functools import cache
from types import FunctionType
from typing import Final

from mypy_extensions import i64

# the engine's memoised per-suit option tables (one implementation of the decompositions)
from mjstats.rules.hand import _honour_options, _suit_options

__all__ = [
    "formula_discards",
    "formula_useful_after",
    "guobiao_discard_shanten",
    "guobiao_shanten",
    "guobiao_turn",
    "guobiao_useful",
    "guobiao_useful_after_discards",
    "guobiao_useful_mask",
]

Counts = tuple[int, ...]
_Options = tuple[tuple[int, int, int], ...]
_SIDE: Final = 6  # m and s are clamped to the melds needed: at most 4 (Guobiao), 5 (a 16-tile hand)


def _bit(m: int, s: int, p: int) -> int:
    return 1 << ((m * _SIDE + s) * 2 + p)


# each bit's (m, s, p), by bit index
_DECODE = tuple((i // 2 // _SIDE, i // 2 % _SIDE, i % 2) for i in range(_SIDE * _SIDE * 2))


def _options_of(mask: int) -> list[tuple[int, int, int]]:
    out = []
    i = 0
    while mask:
        if mask & 1:
            out.append(_DECODE[i])
        mask >>= 1
        i += 1
    return out


def _mask(options: _Options, groups: int) -> int:
    """The options clamped to ``groups`` (min(m, G), min(s, G), p): the formula's value and
    merges are unchanged by the clamp, as 2G - min(m, G) - min(s, G) - p only sees it."""
    out = 0
    for m, s, p in options:
        out |= _bit(min(m, groups), min(s, groups), p)
    return out


_SUITS: Final[dict[tuple[Counts, int], int]] = {}
_LIMIT: Final = 1 << 18


def _suit_mask(suit: Counts, groups: int) -> int:
    key = (suit, groups)
    mask = _SUITS.get(key)
    if mask is None:
        if len(_SUITS) >= _LIMIT:
            _SUITS.clear()
        mask = _SUITS[key] = _blocks_mask(suit, groups)
    return mask


def _blocks_mask(suit: Counts, groups: int) -> int:
    """A suit's mask as the merge of its blocks: runs of ranks split by two or more empty
    ranks share no set or partial set (a run or a one-gap pair spans three ranks at most), and
    blocks recur far more often than whole suits do."""
    mask = 1  # (0, 0, 0): nothing
    start = None
    gap = 0
    for r, n in enumerate(suit):
        if n:
            if start is None:
                start = r
            gap = 0
            end = r
        elif start is not None:
            gap += 1
            if gap == 2:
                mask = _merge(mask, _block_mask(suit[start : end + 1], groups), groups)
                start = None
    if start is not None:
        mask = _merge(mask, _block_mask(suit[start : end + 1], groups), groups)
    return mask


@cache
def _block_mask(block: Counts, groups: int) -> int:
    """``block``: counts from a held rank to a held rank, no two empty ranks in a row."""
    return _mask(_suit_options(block, True), groups)


@cache
def _honour_mask(held: Counts, groups: int) -> int:
    """``held``: the honours' sorted non-zero counts."""
    return _mask(_honour_options(held), groups)


@cache
def _merge(a: int, b: int, groups: int) -> int:
    """Two disjoint parts together (at most one pair in all), clamped."""
    out = 0
    right = _options_of(b)
    for m, s, p in _options_of(a):
        for x, y, q in right:
            if p + q <= 1:
                out |= _bit(min(m + x, groups), min(s + y, groups), p + q)
    return out


@cache
def _least(mask: int, groups: int) -> int:
    # reference guobiao.md: 4 melds + pair; 2M - min(m, M) - min(s, M) - p over decompositions
    return min(2 * groups - m - s - p for m, s, p in _options_of(mask))


@cache
def _good(rest: int, groups: int, below: int) -> int:
    """Every clamped option of a part that, with the ``rest`` of the hand, gives a value under
    ``below``."""
    out = 0
    options = _options_of(rest)
    for i, (x, y, q) in enumerate(_DECODE):
        if x > groups or y > groups:
            continue
        for m, s, p in options:
            if p + q <= 1 and 2 * groups - min(m + x, groups) - min(s + y, groups) - p - q < below:
                out |= 1 << i
                break
    return out


@cache
def _suit_draws(suit: Counts, groups: int, base: int) -> tuple[tuple[int, int], ...]:
    """For each kind a held tile of the suit can make a set with (within two ranks, as
    mjstats.integrity.useful decides), the suit's mask with one more of it (``base``: the
    suit's first kind)."""
    near: set[int] = set()
    for r, n in enumerate(suit):
        if n:
            near.update(range(max(0, r - 2), min(9, r + 3)))
    return tuple(
        (base + r, _suit_mask((*suit[:r], suit[r] + 1, *suit[r + 1 :]), groups)) for r in sorted(near)
    )


def _seven_pairs(counts: Counts) -> int:
    # reference guobiao.md 七对 (four of a kind as two pairs), as GuobiaoShape counts it. One pass
    # of int tests: compiled, four tuple.count calls compared 136 boxed objects
    pairs = 0
    for n in counts:
        if n == 2 or n == 3:
            pairs += 1
        elif n == 4:
            pairs += 2
    return 6 - pairs


# --- the part tables: each part's best value per (pair, blocks) in one int -----------------------
# The formula (reference guobiao.md: 4 melds + pair) is 2G - max(min(m, G) + min(s, G) + p): the
# most that G blocks (sets or partial sets, sets first) and a pair give, a set worth 2, a partial
# set 1, the pair 1. A part's *table* holds, for each b = 0..5 blocks it may use and p = 0 or 1
# (its pair is the hand's pair), the most its decompositions give: cell (p, b) is 5 bits at bit
# 5 * (6p + b), 0 where the part has no pair. Values are at most 2b + p <= 11, so a cell's top bit
# is free: two tables are merged (the best split of the blocks and the pair between two parts)
# and a draw is tested against the rest of the hand with a few whole-int operations on all
# twelve cells at once (60 bits: a C integer in the compiled build, where no product of two
# such ints is taken, as mypyc multiplies only small ints inline). Parts are memoised on their
# counts, packed 4 bits a rank. The hot table operations take and return ``i64`` (mypy_extensions;
# a plain int interpreted): compiled, C int64 arithmetic, where an int is a tagged value whose
# every shift and mask is checked for overflow (every table, and a table plus a complement, is
# under 1 << 62).

_CELL: Final = 5
_ROW: Final = 6  # blocks 0..5: up to 5 sets (a 16-tile hand's melds + pair)
_PAIR_ROW: Final = 30  # _CELL * _ROW, the shift of row p = 1
_HONOURS_KEY: Final = 1 << 40  # marks an honours part's key (7 counts of 4 bits: below 1 << 28)


def _cells(rows: tuple[int, ...], first: int, last: int) -> int:
    """Ones in the cells (p, b) for p in ``rows`` and first <= b <= last."""
    out = 0
    for p in rows:
        for b in range(first, last + 1):
            out |= 1 << (_CELL * (_ROW * p + b))
    return out


_TOP: Final = 16 * _cells((0, 1), 0, _ROW - 1)  # every cell's top bit
_ONES_ROW: Final = _cells((0,), 0, _ROW - 1)  # the low bit of every cell of row 0
_ONES_ALL: Final = _cells((0, 1), 0, _ROW - 1)  # the low bit of every cell


def _tops(groups: i64) -> i64:
    """The top bit of every cell b <= G of both rows (G <= 5: the literal's C int holds 1 << 30)."""
    low: i64 = (1 << (_CELL * (groups + 1))) - 1
    return (low | low << _PAIR_ROW) & _TOP


def _reach(threshold: i64) -> i64:
    """16 - T in every cell, T = 1..12 (a cell reaching T then sets its top bit)."""
    return (16 - threshold) * _ONES_ALL


def _most(x: i64, y: i64) -> i64:
    """The cell-wise maximum of two tables (cells under 16): x | top - y keeps each cell's top
    bit where x's cell is at least y's, with no borrow between cells."""
    keep: i64 = ((x | _TOP) - y & _TOP) >> 4
    keep = (keep << 5) - keep  # the whole cell
    return x & keep | y & ~keep


# Interpreted, a dict probe costs less than a merge's few dozen int operations, so merges and
# complements are memoised there; compiled (a function is then a built-in), the operations are
# C and cost less than the probe.
_INTERPRETED: Final = isinstance(_most, FunctionType)
_MERGES: Final[dict[tuple[int, int, int], int]] = {}
_COMPLEMENTS: Final[dict[tuple[int, int], int]] = {}


def _table_of(options: _Options) -> int:
    """A part's table from its (m, s, p) options (Pareto-best decompositions, ``rules.hand``):
    with b blocks, sets first, m, s give 2 min(m, b) + min(s - m, b - min(m, b)); an option with
    the pair counts in both rows (its pair may stay a plain pair)."""
    out = 0
    for b in range(_ROW):
        plain = paired = 0
        for m, s, p in options:
            sets = m if m < b else b
            value = 2 * sets + min(s - m, b - sets)
            if value > plain:
                plain = value
            if p and value + 1 > paired:
                paired = value + 1
        out |= plain << (_CELL * b) | paired << (_CELL * b + _PAIR_ROW)
    return out


def _merge_tables(a: int, b: int, groups: int) -> int:
    """``_merged`` of two tables, memoised where the module runs interpreted."""
    if not _INTERPRETED:
        return _merged(a, b, groups)
    key = (a, b, groups)
    found = _MERGES.get(key)
    if found is None:
        if len(_MERGES) >= _LIMIT:
            _MERGES.clear()
        found = _MERGES[key] = _merged(a, b, groups)
    return found


def _merged(a: i64, b: i64, groups: i64) -> i64:
    """The table of two disjoint parts together, cells b <= ``groups`` (at most one pair): for
    each split, a's cell (p1, b1) added to b's row shifted by b1 blocks (row 0 alone when p1 = 1).
    A cell of a no larger than the one before it in its row adds nothing (b's rows never drop
    as blocks are added), so most splits are skipped. The masks of the cells kept are made by
    shifts, not read from tuples of constants: compiled, each tuple item was a 60-bit int object
    unboxed at every read, most of the merge's instructions."""
    # cells 0..groups of row 0 (groups <= 5: at most 30 bits, so the literal's C int holds it)
    low: i64 = (1 << (_CELL * (groups + 1))) - 1
    if not b:
        return a & (low | low << _PAIR_ROW)
    if not a:
        return b & (low | low << _PAIR_ROW)
    out: i64 = 0
    plain: i64 = -1
    paired: i64 = -1
    b1: i64
    for b1 in range(groups + 1):
        shift: i64 = _CELL * b1
        # b's cells 0..groups - b1 of row 0 (``first``), and one unit in each of them (``ones``)
        first: i64 = low >> shift
        ones: i64 = first & _ONES_ROW
        v: i64 = a >> shift & 15
        if v > plain:
            both: i64 = first | first << _PAIR_ROW
            out = _most(out, ((b & both) + v * (ones | ones << _PAIR_ROW)) << shift)
            plain = v
        v = a >> (shift + _PAIR_ROW) & 15
        if v > paired:
            out = _most(out, ((b & first) + v * ones) << (shift + _PAIR_ROW))
            paired = v
    return out


def _complement(rest: int, groups: int) -> int:
    """``_complement_of`` a table, memoised where the module runs interpreted."""
    if not _INTERPRETED:
        return _complement_of(rest, groups)
    key = (rest, groups)
    found = _COMPLEMENTS.get(key)
    if found is None:
        if len(_COMPLEMENTS) >= _LIMIT:
            _COMPLEMENTS.clear()
        found = _COMPLEMENTS[key] = _complement_of(rest, groups)
    return found


def _complement_of(rest: i64, groups: i64) -> i64:
    """What the rest of the hand (its table) adds to each cell of one part, cells b <= groups:
    (0, b) gets the rest's best with G - b blocks and its pair or none, (1, b) without a pair."""
    out: i64 = 0
    b: i64
    for b in range(groups + 1):
        shift: i64 = _CELL * (groups - b)
        plain: i64 = rest >> shift & 15
        paired: i64 = rest >> (shift + _PAIR_ROW) & 15
        out |= (plain if plain > paired else paired) << (_CELL * b) | plain << (_CELL * b + _PAIR_ROW)
    return out


def _value(total: i64, groups: i64) -> i64:
    """The largest cell b <= groups of a part's table plus its complement (the hand's value)."""
    best: i64 = 0
    b: i64
    for b in range(groups + 1):
        shift: i64 = _CELL * b
        v: i64 = total >> shift & 31
        if v > best:
            best = v
        v = total >> (shift + _PAIR_ROW) & 31
        if v > best:
            best = v
    return best


def _whole_value(table: int, groups: int) -> int:
    """The value of a whole hand's table: its cell G, with or without the pair (rows never
    drop as blocks are added)."""
    shift = _CELL * groups
    plain = table >> shift & 15
    paired = table >> (shift + _PAIR_ROW) & 15
    return plain if plain > paired else paired


# cells b = 1..5 of both rows (a table shifted by one block keeps these), the low bit of each
# cell of row 0 b >= 1, the low bit of every cell of row 1, and every cell of row 0
_SHIFTED: Final = 31 * (_cells((0, 1), 0, _ROW - 1) - _cells((0, 1), 0, 0))
_ONES_FIRST: Final = _cells((0,), 1, _ROW - 1)
_ONES_PAIR: Final = _cells((1,), 0, _ROW - 1)
_ROW_FIRST: Final = 31 * _cells((0,), 0, _ROW - 1)


def _with_block(rest: i64, v: i64) -> i64:
    """The table of a decomposition's part ``rest`` (its table) plus one block worth ``v`` (a
    set 2, a partial set 1): with b blocks, the best of the rest's b and b - 1 blocks plus v (the
    b best blocks hold the new one or not); a row-1 cell stays 0 (no pair) where the rest's is."""
    moved: i64 = rest << _CELL & _SHIFTED
    held: i64 = moved >> _PAIR_ROW
    held = (held | held >> 1 | held >> 2 | held >> 3) & _ONES_FIRST  # row 1's cells not 0
    return _most(rest, moved + v * _ONES_FIRST + (v * held << _PAIR_ROW))


def _with_pair(rest: i64) -> i64:
    """The table of ``rest`` plus the hand's pair: row 1 is row 0 plus 1 (the pair is no block)."""
    return _most(rest, ((rest & _ROW_FIRST) << _PAIR_ROW) + _ONES_PAIR)


_RUNS: Final[dict[int, int]] = {}  # a run of suit counts (4 bits a rank, lowest first) -> its table


def _run_table(code: int) -> int:
    """The table of a run of suit counts (``code``: 4 bits a rank, the lowest rank first), by
    the choices for its lowest held tile as ``rules.hand._suit_options`` decomposes it (left
    alone, a pung, a pair as a partial set or as the pair, a chow, two-tile partial chows); the
    best of each cell over every decomposition, memoised on the code (compiled: no interpreted
    recursion and sets of options for a block not seen before)."""
    found = _RUNS.get(code)
    if found is not None:
        return found
    if code == 0:
        return 0
    low = code & 15
    if low == 0:
        out = _run_table(code >> 4)
    else:
        out = _run_table(code - 1)  # the lowest tile left alone
        if low >= 3:
            out = _most(out, _with_block(_run_table(code - 3), 2))  # a pung
        if low >= 2:
            pair_rest = _run_table(code - 2)
            out = _most(out, _with_block(pair_rest, 1))  # a pair as a partial set
            out = _most(out, _with_pair(pair_rest))  # the pair
        second, third = code >> 4 & 15, code >> 8 & 15
        if second:
            if third:
                out = _most(out, _with_block(_run_table(code - 0x111), 2))  # a chow
            out = _most(out, _with_block(_run_table(code - 0x11), 1))  # two ranks in a row
        if third:
            out = _most(out, _with_block(_run_table(code - 0x101), 1))  # one rank between
    if len(_RUNS) >= _LIMIT:
        _RUNS.clear()
    _RUNS[code] = out
    return out


def _suit_table(code: int) -> int:
    """A suit's table (``code``: its 9 counts, 4 bits a rank) as the merge of its blocks: runs
    of ranks split by two or more empty ranks share no set or partial set, and blocks recur far
    more often than whole suits do (each block's table from its code, ``_run_table``)."""
    out = 0
    start = end = -1
    gap = 0
    for r in range(9):
        if code >> (4 * r) & 15:
            if start < 0:
                start = r
            gap = 0
            end = r
        elif start >= 0:
            gap += 1
            if gap == 2:
                out = _merged(out, _run_table(_block_code(code, start, end)), _ROW - 1)
                start = -1
    if start >= 0:
        out = _merged(out, _run_table(_block_code(code, start, end)), _ROW - 1)
    return out


def _block_code(code: int, start: int, end: int) -> int:
    """The counts of ranks ``start``..``end`` of a suit's code, the lowest first."""
    return code >> (4 * start) & (1 << (4 * (end - start + 1))) - 1


def _table(key: int) -> int:
    """The table of a part's key: a suit's counts (4 bits a rank), or the honours' counts
    marked with ``_HONOURS_KEY`` (their order does not matter: sorted, as the engine takes them)."""
    if key & _HONOURS_KEY:
        held = tuple(sorted(n for n in (key >> (4 * r) & 15 for r in range(7)) if n))
        return _table_of(_honour_options(held))
    return _suit_table(key)


class _Step:
    """One link of a part's chain of discards or of draws: the rank, the part's table after it,
    the part it leaves (a discard; None for a draw), the next link. Compiled, a native record
    whose fields are C values (the table an int64): the turn's loops read them with no boxing,
    where a list of tuples unboxed a 60-bit table object at every read."""

    __slots__ = ("after", "bit", "next", "rank", "table")

    def __init__(self, rank: i64, table: i64, after: _Part | None, nxt: _Step | None) -> None:
        self.rank = rank
        # the rank's bit, shifted by the part's first kind in ``_useful_of``: a field, as a
        # literal 1 in i64 arithmetic is a 32-bit C int (docs/compiled.md) even through a local
        self.bit: i64 = 1 << int(rank)
        self.table = table
        self.after = after
        self.next = nxt


class _Part:
    """One part's counts (its key), its table, and what the judge asks of it again and again,
    each found once: the part after each discard and each useful draw."""

    __slots__ = (
        "discard_steps", "discards_chained", "draw_steps", "draws_chained", "key", "removals", "table",
    )  # fmt: skip

    def __init__(self, key: int) -> None:
        self.key = key
        self.table = _table(key)
        self.removals: list[tuple[int, _Part]] | None = None
        # the discards and the draws as chains of links, each made at its first ask
        self.discards_chained = self.draws_chained = False
        self.discard_steps: _Step | None = None
        self.draw_steps: _Step | None = None

    def chain_discards(self) -> None:
        """Make the chain of discards (``discards`` as links, in increasing rank)."""
        found = self.discards()
        head: _Step | None = None
        for i in range(len(found) - 1, -1, -1):
            rank, left = found[i]
            head = _Step(rank, left.table, left, head)
        self.discard_steps = head
        self.discards_chained = True

    def chain_draws(self) -> None:
        """Make the chain of draws: each rank whose draw may help (a suit's ranks within two of a
        held tile, a held honour: as ``integrity.useful`` tries), in increasing rank, with the
        part's table once it is drawn. The ranks near a held one are one mask of shifts (a
        generator of ``abs`` tests a rank, and a list of tuples, were most of a new part's cost)."""
        key = self.key
        held = 0
        for r in range(9):
            if key >> (4 * r) & 15:
                held |= 1 << r
        near = held if key & _HONOURS_KEY else (held | held << 1 | held << 2 | held >> 1 | held >> 2) & 511
        head: _Step | None = None
        for r in range(8, -1, -1):
            if near >> r & 1:
                head = _Step(r, _part(key + (1 << (4 * r))).table, None, head)
        self.draw_steps = head
        self.draws_chained = True

    def discards(self) -> list[tuple[int, _Part]]:
        """For each held rank: the rank and the part once one copy of it is discarded."""
        found = self.removals
        if found is None:
            key = self.key
            held = [r for r in range(9) if key >> (4 * r) & 15]
            found = self.removals = [(r, _part(key - (1 << (4 * r)))) for r in held]
        return found

    def after_discard(self, rank: int) -> _Part:
        """The part once one copy of ``rank`` (held) is discarded."""
        for r, left in self.discards():
            if r == rank:
                return left
        raise KeyError(rank)  # not a held rank (as the shanten of its discard would)


_PARTS: Final[dict[int, _Part]] = {}


# the parts last met, by a fold of their key (a direct-mapped cache in front of ``_PARTS``):
# compiled, a slot is one list read and one compare of the key, an unboxed int, where a dict
# probe boxes the key into a new int object and hashes it. A slot may hold a part ``_PARTS``
# has forgotten: a part is a pure function of its key, so it is still right.
_SLOT_BITS: Final = 14
_SLOTS: Final[list[_Part | None]] = [None] * (1 << _SLOT_BITS)


def _part(key: int) -> _Part:
    code: i64 = key
    slot: i64 = (code ^ code >> _SLOT_BITS ^ code >> (2 * _SLOT_BITS)) & ((1 << _SLOT_BITS) - 1)
    found = _SLOTS[slot]
    if found is not None and found.key == key:
        return found
    found = _PARTS.get(key)
    if found is None:
        if len(_PARTS) >= _LIMIT:
            _PARTS.clear()
        found = _PARTS[key] = _Part(key)
    _SLOTS[slot] = found
    return found


def _hand_parts(counts: Counts) -> list[_Part]:
    """The four parts of a hand (34 counts), as ``_part_keys`` keys them, with no list of keys
    (compiled: each key an int object made for the list)."""
    parts: list[_Part] = []
    part: i64
    for part in range(4):
        low: i64 = 9 * part
        code: i64 = 0
        k: i64
        for k in range(low + 8 if part < 3 else 33, low - 1, -1):
            n: i64 = counts[k]
            code = code << 4 | n
        key = int(code)
        parts.append(_part(key if part < 3 else key | _HONOURS_KEY if key else 0))
    return parts


def _part_keys(counts: Counts) -> list[int]:
    """The four parts' keys of a hand (34 counts): three suits, then the honours. The packing in
    i64 (compiled: C shifts, no tagged-int overflow checks; a key is below 1 << 36); the honours'
    mark is added as an int (a large literal in i64 arithmetic, docs/compiled.md)."""
    keys: list[int] = []
    part: i64
    for part in range(4):
        low: i64 = 9 * part
        code: i64 = 0
        k: i64
        for k in range(low + 8 if part < 3 else 33, low - 1, -1):
            n: i64 = counts[k]
            code = code << 4 | n
        key = int(code)
        keys.append(key if part < 3 else key | _HONOURS_KEY if key else 0)
    return keys


def _useful_of(part: _Part, base: i64, above: i64, tops: i64) -> int:
    """The kinds (a kinds mask; ``base``: the part's first kind) of a part whose draw makes a
    cell of its table reach a threshold with the rest of the hand: ``above`` is the rest's
    complement plus 16 - threshold in every cell (cells b <= G: ``tops``)."""
    if not part.draws_chained:
        part.chain_draws()
    out: i64 = 0
    step = part.draw_steps
    while step is not None:
        if (step.table + above) & tops:
            out |= step.bit << base
        step = step.next
    return int(out)


def _rests(tables: list[int], groups: int) -> list[int]:
    """For each part (its table), the table of the other three merged."""
    a, b, c, d = tables
    ab, cd = _merge_tables(a, b, groups), _merge_tables(c, d, groups)
    return [
        _merge_tables(b, cd, groups),
        _merge_tables(a, cd, groups),
        _merge_tables(ab, d, groups),
        _merge_tables(ab, c, groups),
    ]


def guobiao_shanten(counts: Counts, melds: int) -> int:
    """The shanten of a 13 - 3m tile hand on the regular form and 七对 (``GuobiaoShape.shanten``)
    from the part tables: four memoised lookups and three merges."""
    groups = 4 - melds
    a, b, c, d = [_part(key).table for key in _part_keys(counts)]
    whole = _merge_tables(_merge_tables(a, b, groups), _merge_tables(c, d, groups), groups)
    regular = 2 * groups - _whole_value(whole, groups)
    return min(regular, _seven_pairs(counts)) if melds == 0 else regular


# the two parts other than p and q, by 4 * p + q, for p != q ((0, 0) where p == q: never read)
_OTHER_TWO: Final[tuple[tuple[int, int], ...]] = tuple(
    (0, 0) if p == q else (min({0, 1, 2, 3} - {p, q}), max({0, 1, 2, 3} - {p, q}))
    for p in range(4)
    for q in range(4)
)


class _Hand:
    """A 14 - 3m tile hand taken apart once for both questions asked of its discards: its
    parts' keys and tables, each part's complement (the other three merged)."""

    __slots__ = (
        "base",
        "base_level",
        "c0",
        "c1",
        "c2",
        "c3",
        "counts",
        "groups",
        "odd",
        "pairs",
        "pairs_form",
        "parts",
        "seven",
        "shanten",
        "side",
        "t0",
        "t1",
        "t2",
        "t3",
        "turned",
    )

    def __init__(self, counts: Counts, groups: int, seven: bool) -> None:
        # ``seven``: 七对 counts too (a Guobiao hand without melds)
        self.counts, self.groups, self.pairs_form = counts, groups, seven
        self.parts = parts = _hand_parts(counts)
        # each part's table and complement (the other three merged) as i64 fields: compiled,
        # C ints in the object, where lists boxed each 60-bit value and unboxed it at every read
        a: i64 = parts[0].table
        b: i64 = parts[1].table
        c: i64 = parts[2].table
        d: i64 = parts[3].table
        self.t0, self.t1, self.t2, self.t3 = a, b, c, d
        ab, cd = _merge_tables(a, b, groups), _merge_tables(c, d, groups)  # as ``_rests`` merges
        self.c0: i64 = _complement(_merge_tables(b, cd, groups), groups)
        self.c1: i64 = _complement(_merge_tables(a, cd, groups), groups)
        self.c2: i64 = _complement(_merge_tables(ab, d, groups), groups)
        self.c3: i64 = _complement(_merge_tables(ab, c, groups), groups)
        self.seven = _seven_pairs(counts) if seven else 99
        self.shanten: dict[int, int] | None = None  # each held kind's discard: the shanten left
        # (part, its table after the discard, shanten left, the other parts' useful kinds)
        self.side: list[tuple[int, int, int, int]] | None = None  # made at the first ask
        self.odd = -1  # the kinds held once or three times (七对's draws); -1: not asked yet
        # the merge of two untouched parts (r, s), by 4 * r + s, when asked (-1: not yet)
        self.pairs: list[int] | None = None  # made at the first ask (most turns need none)
        # each part's useful kinds against the other three as they are, then by part their
        # unions (``shared``), at the shanten ``base_level``: shared by every discard that
        # leaves its part's table as it was
        self.base: list[int] = []  # made at the first ask (a level is never -1)
        self.base_level = -1
        self.turned: tuple[int, list[int], list[int], list[int]] | None = None  # ``turn``, once asked

    def table(self, p: int) -> i64:
        """Part ``p``'s table."""
        return self.t0 if p == 0 else self.t1 if p == 1 else self.t2 if p == 2 else self.t3

    def comp(self, p: int) -> i64:
        """Part ``p``'s complement: what the other three parts add to each of its cells."""
        return self.c0 if p == 0 else self.c1 if p == 1 else self.c2 if p == 2 else self.c3

    def discard_shanten(self) -> dict[int, int]:
        """The shanten (regular form and 七对) left by discarding each held kind."""
        found = self.shanten
        if found is None:
            parts, counts, groups = self.parts, self.counts, self.groups
            found = {}
            for p in range(4):
                if parts[p].key:
                    comp, base = self.comp(p), 9 * p
                    for r, rest in self.parts[p].discards():
                        found[base + r] = 2 * groups - _value(rest.table + comp, groups)
            if self.pairs_form:
                seven = self.seven
                for t, s in found.items():
                    # 2 -> 1 and 4 -> 3 lose a pair; 3 -> 2 and 1 -> 0 keep them
                    n = counts[t]
                    after = seven + 1 if n == 2 or n == 4 else seven
                    if after < s:
                        found[t] = after
            self.shanten = found
        return found

    def shared(self, level: int) -> list[int]:
        """The useful kinds shared at shanten ``level``: by part q, its own against the other
        three as held; at 4 + p, the union of the other parts' for a discard of
        p leaving p's table as it was (-1: not asked yet). One list, made again at another level."""
        base = self.base
        if level != self.base_level or not base:
            base = self.base = [-1] * 8
            self.base_level = level
        return base

    def useful_after(self, t: int) -> int:
        """The useful kinds (a kinds mask) of the hand left by discarding ``t``."""
        found = self.shanten
        return self.useful_left(t, (found if found is not None else self.discard_shanten())[t])

    def turn(self) -> tuple[int, list[int], list[int], list[int]]:
        """Every discard of the turn judged in one pass: the least shanten a discard leaves, the
        shanten each kind's discard leaves (by kind, 34 entries; 99 for a kind not held), the
        kinds keeping the least (increasing), and the useful kinds of the hand each of those
        leaves (by kind; -1 elsewhere). The same numbers as ``discard_shanten`` and
        ``useful_after``, with no dict built and no call per kind through a view. Found once a
        hand (a claim's best discard, then the discard judged, ask it of the same hand); the
        lists are shared: callers do not change them. The best discards and their links are
        gathered in the walk of the discards (parts and ranks in increasing order), so no second
        pass over the 34 kinds looks them up, and no chain is walked again to find a link."""
        turned = self.turned
        if turned is not None:
            return turned
        parts, counts = self.parts, self.counts
        groups: i64 = self.groups
        top: i64 = 2 * groups
        after = [99] * 34
        best = 99
        candidates: list[int] = []
        links: list[_Step] = []  # each best discard's link, in the order of ``candidates``
        seven, pairs_form = self.seven, self.pairs_form
        for p in range(4):
            part = parts[p]
            if part.key:
                comp, base = self.comp(p), 9 * p
                if not part.discards_chained:
                    part.chain_discards()
                step = part.discard_steps
                while step is not None:
                    t = base + step.rank
                    s = top - _value(step.table + comp, groups)
                    if pairs_form:
                        # 七对: 2 -> 1 and 4 -> 3 lose a pair; 3 -> 2 and 1 -> 0 keep them
                        n = counts[t]
                        paired = seven + 1 if n == 2 or n == 4 else seven
                        if paired < s:
                            s = paired
                    after[t] = s
                    if s < best:
                        best = s
                        candidates = [t]
                        links = [step]
                    elif s == best:
                        candidates.append(t)
                        links.append(step)
                    step = step.next
        useful = [-1] * 34
        for i in range(len(candidates)):
            t = candidates[i]
            useful[t] = self.useful_of_step(t, links[i], best)
        self.turned = best, after, candidates, useful
        return self.turned

    def useful_left(self, t: int, before: int) -> int:
        """The useful kinds (a kinds mask) of the hand left by discarding ``t``, at shanten
        ``before`` (``useful_of_step`` of its link)."""
        p = 3 if t >= 27 else t // 9
        part = self.parts[p]
        if not part.discards_chained:
            part.chain_discards()
        step = part.discard_steps
        rank = t - 9 * p
        while step is not None and step.rank != rank:
            step = step.next
        if step is None:
            raise KeyError(rank)  # not a held rank (as the shanten of its discard would)
        return self.useful_of_step(t, step, before)

    def useful_of_step(self, t: int, step: _Step, before: int) -> int:
        """The useful kinds (a kinds mask) of the hand left by discarding ``t`` (``step``: its
        link in its part's chain), at shanten ``before``: only part ``p`` (t's) changes, so each
        other part's complement comes from the merge of two untouched parts with p's new table."""
        groups, counts, parts = self.groups, self.counts, self.parts
        p = 3 if t >= 27 else t // 9
        rest = step.after
        if rest is None:
            raise KeyError(t)  # a draw's link (never one of a discard chain)
        table: i64 = step.table
        # a draw helps when the regular form's value goes past 2G - before
        reach, tops = _reach(2 * groups - before + 1), _tops(groups)
        side = -1
        if table == self.table(p):
            # the part's table unchanged: every other part's complement is the one the whole
            # hand gave it, so its useful kinds are shared by every such discard, of any part
            # (and their union by every such discard of p)
            base = self.shared(before)
            side = base[4 + p]
            if side < 0:
                side = 0
                for q in range(4):
                    if q != p and parts[q].key:
                        found = base[q]
                        if found < 0:
                            found = base[q] = _useful_of(parts[q], 9 * q, self.comp(q) + reach, tops)
                        side |= found
                base[4 + p] = side
        else:
            sides = self.side
            if sides is not None:
                for q, known, level, kinds in sides:
                    if q == p and known == table and level == before:
                        side = kinds
                        break
        if side < 0:  # discards of one part leaving the same table share the other parts' draws
            side = 0
            pairs = self.pairs
            if pairs is None:
                pairs = self.pairs = [-1] * 16
            for q in range(4):
                if q != p and parts[q].key:
                    r, o = _OTHER_TWO[4 * p + q]
                    two = pairs[4 * r + o]
                    if two < 0:
                        two = pairs[4 * r + o] = _merge_tables(self.table(r), self.table(o), groups)
                    comp = _complement(_merge_tables(two, table, groups), groups)
                    side |= _useful_of(parts[q], 9 * q, comp + reach, tops)
            if self.side is None:
                self.side = []
            self.side.append((p, table, before, side))
        out = _useful_of(rest, 9 * p, self.comp(p) + reach, tops) | side
        if self.pairs_form:
            n = counts[t]
            if self.seven + (1 if n == 2 or n == 4 else 0) - 1 < before:
                # 1 -> 2 and 3 -> 4 make a pair for 七对
                odd = self.odd
                if odd < 0:
                    odd = 0
                    for k in range(34):
                        if counts[k] == 1 or counts[k] == 3:
                            odd |= 1 << k
                    self.odd = odd
                out |= odd & ~(1 << t)
                if n == 2 or n == 4:
                    out |= 1 << t  # t left once or three times
        return out


_LAST: Final[list[_Hand]] = []


def _hand(counts: Counts, melds: int, groups: int | None = None) -> _Hand:
    """The hand, taken apart once: the judge asks for its discards' shanten, then for the
    useful kinds of the best ones (read once, so a caller in another thread cannot swap it).
    ``groups``: the melds + pair form alone with that many sets to make (no 七对); default
    Guobiao's, 4 - melds and 七对 without melds."""
    seven = groups is None and melds == 0
    groups = 4 - melds if groups is None else groups
    last = _LAST[0] if _LAST else None
    if last is not None and last.counts == counts and last.groups == groups and last.pairs_form == seven:
        return last
    hand = _Hand(counts, groups, seven)
    if _LAST:
        _LAST[0] = hand  # an item set (compiled: no slice object, no generic slice assignment)
    else:
        _LAST.append(hand)
    return hand


def guobiao_discard_shanten(counts: Counts, melds: int, kinds: list[int] | None) -> dict[int, int]:
    """The shanten left by discarding each of ``kinds`` (None: every held kind, in increasing
    order) from a 14 - 3m tile hand."""
    found = _hand(counts, melds).discard_shanten()
    if kinds is None:
        return dict(found)
    return {t: found[t] for t in kinds}


def guobiao_turn(counts: Counts, melds: int) -> tuple[int, list[int], list[int], list[int]]:
    """A 14 - 3m tile hand's discards judged in one pass (``_Hand.turn``): the least shanten a
    discard leaves, each kind's (99: not held), the kinds keeping it, their useful kinds."""
    return _hand(counts, melds).turn()


def guobiao_useful_mask(counts: Counts, melds: int) -> int:
    """The kinds (a kinds mask) whose draw lowers the shanten of a 13 - 3m tile hand (regular
    form and 七对)."""
    groups = 4 - melds
    keys = _part_keys(counts)
    parts = [_part(key) for key in keys]
    tables = [part.table for part in parts]
    comps = [_complement(rest, groups) for rest in _rests(tables, groups)]
    regular = 2 * groups - _value(tables[0] + comps[0], groups)
    seven = _seven_pairs(counts) if melds == 0 else 99
    before = min(regular, seven)
    reach, tops = _reach(2 * groups - before + 1), _tops(groups)
    out = 0
    for p in range(4):
        if keys[p]:
            out |= _useful_of(parts[p], 9 * p, comps[p] + reach, tops)
    if melds == 0 and seven - 1 < before:  # 1 -> 2 and 3 -> 4 make a pair for 七对
        for k in range(34):
            if counts[k] == 1 or counts[k] == 3:
                out |= 1 << k
    return out


def guobiao_useful(counts: Counts, melds: int) -> frozenset[int]:
    """The kinds whose draw lowers the shanten of a 13 - 3m tile hand (regular form and 七对):
    the same set as ``mjstats.integrity.useful.useful_kinds(counts, melds, None)``."""
    mask = guobiao_useful_mask(counts, melds)
    return frozenset(k for k in range(34) if mask >> k & 1)


def guobiao_useful_after_discards(counts: Counts, melds: int, kinds: list[int]) -> dict[int, int]:
    """For each of ``kinds`` held in a 14 - 3m tile hand, the useful kinds (a kinds mask) of the
    hand left by discarding it: the three untouched parts' tables are shared, only the merges
    change."""
    hand = _hand(counts, melds)
    return {t: hand.useful_after(t) for t in kinds}


# --- the melds + pair formula alone, any number of sets (a wild-gold ruleset's base) ----------


def formula_discards(counts: Counts, groups: int) -> dict[int, int]:
    """For a hand of 3 x ``groups`` + 2 tiles (no wild): the melds + pair formula (``rules.hand``
    ``partial_shanten``) of the hand left by discarding each held kind, in increasing order."""
    return dict(_hand(counts, 0, groups).discard_shanten())


def formula_useful_after(counts: Counts, groups: int, kinds: list[int]) -> dict[int, int]:
    """For each of ``kinds`` held: the kinds (a kinds mask) whose draw lowers the formula of the hand left by
    discarding it (the hand's own kinds within two ranks, as ``integrity.useful`` tries)."""
    hand = _hand(counts, 0, groups)
    return {t: hand.useful_after(t) for t in kinds}
