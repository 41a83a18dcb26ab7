"""calculate_fans' whole output over generated hands, pinned to the digest main gave.

The calculator is tuned for speed (its warm per-hand path: bench/fans.py); every result must stay
what it was, field for field: each fan's name, English name, points, count, tiles and order, the
total, the form, the division's sets and the profile, or the error raised. The digests were
computed on main at 2c58fba, before the tuning, and the test runs in the pure and the compiled
build (Makefile: COMPILED_TESTS). The first set is bench/fans.py's own hands (seed 2024, 20,000 drawn).
"""

from __future__ import annotations

import hashlib

import pytest

from mjstats.errors import MjstatsError
from mjstats.rulesets.guobiao import calculate_fans
from tests.test_guobiao_handgen import HandGenerator

# (seed, hands generated, with_tiles, profile, extras claimed) -> sha256 of the results' lines
PINNED = {
    (2024, 20000, True, 'standard', False):
        "27f85c56cc365a817a5defb09e0d75574aa08dd1b6adea946641a3020825a389",
    (2024, 3000, False, 'standard', False):
        "2866be9668bc67a3f10f0be8b90f959592bb3cd8993212f946d6bebb72a04223",
    (77, 2000, True, 'platform_extras', True):
        "3d189095a1a1a5c41c0226633559fd059f298c8b38422d01d09a255971e6567f",
}


def _line(case, with_tiles: bool, profile: str, extras: bool) -> str:
    """One hand's result (or error) as text: every field, tiles by their Botzone names."""
    hand, melds, win = case.our_args()
    flags = dict(case.flags)
    if extras:  # each of 天和 / 地和 / 人和 claimed on a share of the hands, by the hand's size
        flags[("heavenly", "earthly", "human")[len(hand) % 3]] = len(melds) == 0
    try:
        r = calculate_fans(hand, melds, win, profile=profile, with_tiles=with_tiles, **flags)
    except MjstatsError as exc:
        return f"{type(exc).__name__}: {exc}"
    fans = [
        (f.name, f.name_en, f.points, f.count, f.order, f.total,
         [[t.botzone for t in occ] for occ in f.tiles], type(f).__name__)
        for f in r.fans
    ]
    sets = [(kind, [t.botzone for t in tiles], exposed) for kind, tiles, exposed in r.sets]
    return repr((r.total, r.fan_total, r.form, r.profile, fans, sets, r.as_pairs()))


@pytest.mark.parametrize("key", sorted(PINNED))
def test_results_match_main(key):
    seed, n, with_tiles, profile, extras = key
    digest = hashlib.sha256()
    for case in HandGenerator(seed).cases(n):
        digest.update(_line(case, with_tiles, profile, extras).encode())
        digest.update(b"\n")
    assert digest.hexdigest() == PINNED[key]
