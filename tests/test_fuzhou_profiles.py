"""Fuzhou rule profiles: the two built-ins, user TOML overrides, and every kind of bad input."""

from __future__ import annotations

import dataclasses

import pytest

from mjstats.errors import ProfileError
from mjstats.rulesets.fuzhou.profiles import BUILTIN_PROFILES, Profile, load_profile, parse_profile


def test_seed_profile_follows_the_reference():
    p = load_profile("seed")
    assert p.name == "seed"
    assert p.honours_are_flowers == "all"
    assert p.flower_group_value == 6
    assert p.gold_discard == "self_draw_only"
    assert p.live_golds == 4
    assert p.discard_win_payer == "discarder"
    assert p.streak_on_draw == "unchanged"
    assert p.idle_gold == "free"
    assert p.reserve_tiles == 18
    v = p.patterns
    assert (v.heavenly, v.three_golds, v.rob_gold, v.plain, v.plain_one_flower) == (
        30,
        40,
        30,
        30,
        15,
    )
    assert (v.golden_pair, v.golden_dragon, v.half_flush, v.full_flush) == (60, 120, 60, 120)
    assert (p.payment.base, p.payment.self_draw_multiplier, p.payment.discard_multiplier) == (
        5,
        2,
        2,
    )
    assert len(p.flower_kinds) == 15 and len(p.playable_kinds) == 27  # kinds, not tiles


def test_platform_profile_is_the_second_column():
    p = load_profile("platform")
    assert p.name == "platform"
    v = p.patterns
    assert (v.heavenly, v.rob_gold, v.plain, v.plain_one_flower, v.three_golds) == (
        40,
        40,
        40,
        20,
        50,
    )
    assert (v.golden_pair, v.golden_dragon, v.half_flush, v.full_flush) == (60, 120, 100, 200)
    assert (p.payment.base, p.payment.self_draw_multiplier, p.payment.discard_multiplier) == (
        0,
        2,
        1,
    )
    assert p.discard_win_payer == "all"
    assert p.gold_discard == "free"
    assert p.live_golds == 3
    assert p.streak_on_draw == "plus_one"
    assert p.idle_gold == "self_draw_only"
    assert p.flower_group_value == 4
    assert 32 in p.playable_kinds and 33 in p.playable_kinds and 31 in p.flower_kinds


def test_builtins_are_frozen_and_listed():
    assert BUILTIN_PROFILES == ("seed", "platform")
    p = load_profile()
    assert p is load_profile("seed")
    assert load_profile(p) is p
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.live_golds = 3  # type: ignore[misc]


def test_user_profile_overrides_a_base(tmp_path):
    path = tmp_path / "club.toml"
    path.write_text(
        'base = "platform"\nlive_golds = 4\n[patterns]\nfull_flush = 150\n[payment]\nbase = 2\n',
        encoding="utf-8",
    )
    p = load_profile(path)
    assert isinstance(p, Profile)
    assert p.name == "club"  # the file stem when the file names none
    assert p.live_golds == 4
    assert p.patterns.full_flush == 150
    assert p.patterns.half_flush == 100  # the rest of the platform's table stays
    assert p.payment.base == 2 and p.payment.discard_multiplier == 1
    assert p.discard_win_payer == "all"
    assert load_profile(str(path)) == p


def test_user_profile_defaults_to_seed_and_may_name_itself():
    p = parse_profile('name = "friday"\nflower_group_value = 12\n')
    assert p.name == "friday"
    assert p.flower_group_value == 12
    assert dataclasses.replace(p, name="seed", flower_group_value=6) == load_profile("seed")


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("golds_are_wild = true\n", "golds_are_wild"),
        ("[patterns]\nseven_pairs = 10\n", "patterns.seven_pairs"),
        ("[payment]\nbonus = 1\n", "payment.bonus"),
        ("[extras]\na = 1\n", "extras"),
        ('live_golds = "four"\n', "live_golds"),
        ("live_golds = 5\n", "live_golds"),
        ("flower_value = true\n", "flower_value"),
        ("flower_value = -1\n", "flower_value"),
        ("flower_value = 1.5\n", "flower_value"),
        ('gold_discard = "sometimes"\n', "gold_discard"),
        ("discard_win_payer = 3\n", "discard_win_payer"),
        ('patterns = "high"\n', "patterns"),
        ('[patterns]\nfull_flush = "200"\n', "patterns.full_flush"),
        ("name = 7\n", "name"),
        ('base = "guobiao"\n', "base"),
        ("this is not toml", "TOML"),
    ],
)
def test_bad_user_profiles_name_the_problem(text, needle):
    with pytest.raises(ProfileError, match=needle.replace(".", r"\.")):
        parse_profile(text, source="bad.toml")


def test_unknown_profile_name_or_missing_file(tmp_path):
    with pytest.raises(ProfileError, match="unknown profile"):
        load_profile("tenhou")
    with pytest.raises(ProfileError):
        load_profile(tmp_path / "absent.toml")
