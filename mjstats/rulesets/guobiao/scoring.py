"""Guobiao payments (reference guobiao.md; seed 001 全国标准麻将记分规则), base 8 per player.

Self-drawn: each of the three others pays 8 + F, the winner gets 3 x (8 + F). On a discard the
discarder pays 8 + F, the two others 8 each, the winner gets 24 + F. F is the fan total the
win is scored at (Botzone: the calculator's total, flowers included).
"""

from __future__ import annotations

from mjstats.errors import RuleError

__all__ = ["BASE", "guobiao_payments"]

BASE = 8


def guobiao_payments(fan_total: int, winner: int, discarder: int | None = None) -> tuple[int, int, int, int]:
    """Score change of seats 0-3; ``discarder`` None means self-drawn. Sums to zero."""
    if isinstance(fan_total, bool) or not isinstance(fan_total, int) or fan_total < 0:
        raise RuleError(f"fan total must be a non-negative int, got {fan_total!r}")
    if winner not in (0, 1, 2, 3):
        raise RuleError(f"winner must be a seat 0..3, got {winner!r}")
    if discarder is not None and (discarder not in (0, 1, 2, 3) or discarder == winner):
        raise RuleError(f"discarder must be a seat 0..3 other than the winner, got {discarder!r}")
    out = [0, 0, 0, 0]
    for seat in range(4):
        if seat == winner:
            continue
        pay = BASE + fan_total if discarder is None or seat == discarder else BASE
        out[seat] = -pay
        out[winner] += pay
    return (out[0], out[1], out[2], out[3])
