"""Sichuan rule profiles: the two built-ins as reference §5 lists them, user TOML overrides, and
bad input (an unknown key is an error naming the key)."""

from __future__ import annotations

import pytest

from mjstats.errors import ProfileError
from mjstats.rulesets.sichuan import BUILTIN_PROFILES, load_profile, parse_profile

# Reference §5: the keys where platform differs from seed, (seed, platform).
DIFFERENCES = {
    ("play", "pass_hu_lock"): ("same_tile", "any_tile_unless_higher"),
    ("play", "pass_hu_lock_cleared_by"): ("draw", "draw_or_meld"),
    ("play", "last_four_must_win"): (True, False),
    ("fan", "cap_fan"): (5, 6),
    ("fan", "self_draw_bonus"): ("none", "fan"),
    ("fan", "tian_di_hu"): ("cap", "pattern"),
    ("fan", "di_hu_on_dealer_first_discard"): (False, True),
    ("fan", "jin_gou_diao_fan"): (0, 1),
    ("fan", "rob_kong_fan"): (0, 1),
    ("transfer", "scope"): ("turn_kongs", "last_kong"),
}


def test_builtins_differ_exactly_where_the_reference_says():
    seed, platform = load_profile("seed"), load_profile("platform")
    assert BUILTIN_PROFILES == ("seed", "platform")
    assert (seed.name, platform.name) == ("seed", "platform")
    for section in ("deal", "play", "dealer", "fan", "kong", "transfer", "end"):
        a, b = getattr(seed, section), getattr(platform, section)
        for key in a.__slots__:
            pair = (getattr(a, key), getattr(b, key))
            assert pair == DIFFERENCES.get((section, key), (pair[0], pair[0])), (section, key)


def test_seed_values():
    p = load_profile("seed")
    assert (p.kong.direct, p.kong.direct_others, p.kong.added, p.kong.concealed) == (2, 0, 1, 2)
    assert p.fan.long_qidui_fan == 4 and p.fan.gen_fan == 1 and p.fan.gang_shang_hua_fan == 1
    assert p.flower_pig_value == 32 and load_profile("platform").flower_pig_value == 64
    assert p.transfer.multi == "each_full" and p.end.cha_jiao_value == "max"


def test_user_override_from_a_file(tmp_path):
    path = tmp_path / "chengdu-room.toml"
    path.write_text('base = "platform"\n[fan]\ncap_fan = 4\nself_draw_bonus = "base"\n', encoding="utf-8")
    p = load_profile(path)
    assert p.name == "chengdu-room"
    assert (p.fan.cap_fan, p.fan.self_draw_bonus, p.fan.rob_kong_fan) == (4, "base", 1)
    assert load_profile(p) is p


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[fan]\ncap_fn = 4\n", "unknown key 'fan.cap_fn'"),
        ("colour = 1\n", "unknown key 'colour'"),
        ("[fan]\ncap_fan = true\n", "'fan.cap_fan' must be an integer"),
        ("[fan]\ncap_fan = -2\n", "'fan.cap_fan' must be at least -1"),
        ("[fan]\nlong_qidui_fan = 5\n", "'fan.long_qidui_fan' must be 3 or 4"),
        ('[fan]\nself_draw_bonus = "double"\n', "must be one of none, base, fan"),
        ("[play]\nrob_kong = 1\n", "'play.rob_kong' must be true or false"),
        ('[end]\nflower_pig_amount = "lots"\n', "'end.flower_pig_amount' must be an integer"),
        ("fan = 3\n", "'fan' must be a table"),
        ('base = "tencent"\n', "key 'base' must be one of seed, platform"),
        ("[fan]\ncap_fan = -1\n", 'tian_di_hu = "cap" needs a cap'),
        ("[fan\n", "not valid TOML"),
    ],
)
def test_bad_user_profiles(text, message):
    with pytest.raises(ProfileError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_profile(text, source="mine.toml")


def test_unknown_profile_name():
    with pytest.raises(ProfileError, match="unknown Sichuan profile 'standard'"):
        load_profile("standard")
