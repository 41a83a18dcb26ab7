"""Fuzhou rule profiles: every rule switch and value as one frozen :class:`Profile`.

Fuzhou rules vary by platform and table (reference fuzhou.md), so the engine reads each switch
from a profile: ``seed`` (default, the seed documents), ``platform`` (the reference's second
column) and user TOML files that name a base profile and override any key of it.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from mjstats.errors import ProfileError

__all__ = [
    "BUILTIN_PROFILES",
    "PatternValues",
    "PaymentFormula",
    "Profile",
    "flower_kinds_of",
    "load_profile",
    "parse_profile",
]

BUILTIN_PROFILES: tuple[str, ...] = ("seed", "platform")

# Allowed values of the string switches (the first is the seed's).
CHOICES: dict[str, tuple[str, ...]] = {
    "honours_are_flowers": ("all", "winds_and_red", "none"),
    "gold_discard": ("self_draw_only", "free", "forbidden"),
    "discard_win_payer": ("discarder", "all"),
    "streak_on_draw": ("unchanged", "plus_one"),
    "idle_gold": ("free", "self_draw_only"),
}

# Honour codes (tiles.py: F1-F4 = 27-30, J1 中 = 31, J2 发 = 32, J3 白 = 33) that are flower
# tiles under each honours_are_flowers choice; the eight flowers H1-H8 (34-41) always are.
_HONOUR_FLOWERS: dict[str, frozenset[int]] = {
    "all": frozenset(range(27, 34)),
    "winds_and_red": frozenset(range(27, 32)),
    "none": frozenset(),
}
_FLOWER_KINDS = {k: v | frozenset(range(34, 42)) for k, v in _HONOUR_FLOWERS.items()}
_PLAYABLE_KINDS = {k: frozenset(range(34)) - v for k, v in _HONOUR_FLOWERS.items()}
_FLOWER_CODES = {k: tuple(sorted(v)) for k, v in _FLOWER_KINDS.items()}


@dataclass(frozen=True, slots=True)
class PatternValues:
    """Points of each pattern (seed 003 花样及其得分); only the single highest counts."""

    heavenly: int  # 天和
    three_golds: int  # 三金倒
    rob_gold: int  # 抢金
    plain: int  # 平和, no flowers and no kongs
    plain_one_flower: int  # 平和 with exactly one flower
    golden_pair: int  # 金雀
    golden_dragon: int  # 金龙
    half_flush: int  # 混一色 (platform: 半清一色)
    full_flush: int  # 清一色 (platform: 全清一色)
    jump_multiplier: int  # 抢炮和: the payment is multiplied by this


@dataclass(frozen=True, slots=True)
class PaymentFormula:
    """Each payer pays ``(fan + base) x multiplier + pattern points``.

    seed 003: base 5, x2 for self-draw and discard win; platform: base 0, x2 self-draw, x1 discard.
    """

    base: int
    self_draw_multiplier: int
    discard_multiplier: int


@dataclass(frozen=True, slots=True)
class Profile:
    """One complete set of Fuzhou rule switches; ``name`` is recorded with every audited hand."""

    name: str
    honours_are_flowers: str
    flower_value: int
    flower_group_value: int
    exposed_kong_fan: int
    concealed_kong_fan: int
    gold_fan: int
    streak_fan: int
    gold_discard: str
    live_golds: int
    discard_win_payer: str
    streak_on_draw: str
    idle_gold: str
    reserve_tiles: int
    reserve_per_exposed_kong: int
    reserve_per_concealed_kong: int
    reserve_per_flower_group: int
    final_draws: int
    patterns: PatternValues
    payment: PaymentFormula

    @property
    def flower_kinds(self) -> frozenset[int]:
        """Tile codes that are flower tiles (only score, never held in the hand)."""
        return _FLOWER_KINDS[self.honours_are_flowers]

    @property
    def flower_codes(self) -> tuple[int, ...]:
        """The flower kinds as a sorted tuple (for fast scans of a count vector)."""
        return _FLOWER_CODES[self.honours_are_flowers]

    @property
    def playable_kinds(self) -> frozenset[int]:
        """Tile codes a hand may hold: the suited tiles plus any honour that is not a flower."""
        return _PLAYABLE_KINDS[self.honours_are_flowers]


_SECTIONS: dict[str, type] = {"patterns": PatternValues, "payment": PaymentFormula}
_TOP_KEYS = tuple(f.name for f in fields(Profile))
_INT_KEYS = {f.name for f in fields(Profile) if f.type == "int"}


def _check_keys(data: dict[str, Any], allowed: tuple[str, ...], where: str, source: str) -> None:
    for key in data:
        if key not in allowed:
            raise ProfileError(f"{source}: unknown key '{where}{key}'")


def _check_int(value: Any, key: str, source: str) -> int:
    # bool is an int subclass in Python, but `true` is never a meaningful count here.
    if not isinstance(value, int) or isinstance(value, bool):
        raise ProfileError(f"{source}: key {key!r} must be an integer, got {value!r}")
    if value < 0:
        raise ProfileError(f"{source}: key {key!r} must not be negative, got {value}")
    return value


def _merge(base: dict[str, Any], override: dict[str, Any], source: str) -> dict[str, Any]:
    """Overlay a (checked) user table on a complete base table, section by section."""
    merged = dict(base)
    for key, value in override.items():
        if key in _SECTIONS:
            if not isinstance(value, dict):
                raise ProfileError(f"{source}: key {key!r} must be a table")
            _check_keys(value, tuple(f.name for f in fields(_SECTIONS[key])), f"{key}.", source)
            merged[key] = {**base[key], **value}
        else:
            merged[key] = value
    return merged


def _build(data: dict[str, Any], source: str) -> Profile:
    """Check every key and type of a complete profile table and freeze it."""
    _check_keys(data, _TOP_KEYS, "", source)
    missing = [k for k in _TOP_KEYS if k not in data]
    if missing:
        raise ProfileError(f"{source}: missing key(s) {', '.join(missing)}")
    values: dict[str, Any] = {}
    for key in _TOP_KEYS:
        value = data[key]
        if key in _SECTIONS:
            cls = _SECTIONS[key]
            if not isinstance(value, dict):
                raise ProfileError(f"{source}: key {key!r} must be a table")
            names = tuple(f.name for f in fields(cls))
            _check_keys(value, names, f"{key}.", source)
            absent = [n for n in names if n not in value]
            if absent:
                raise ProfileError(
                    f"{source}: missing key(s) {', '.join(key + '.' + n for n in absent)}"
                )
            values[key] = cls(**{n: _check_int(value[n], f"{key}.{n}", source) for n in names})
        elif key in _INT_KEYS:
            values[key] = _check_int(value, key, source)
        else:
            if not isinstance(value, str):
                raise ProfileError(f"{source}: key {key!r} must be a string, got {value!r}")
            if key in CHOICES and value not in CHOICES[key]:
                raise ProfileError(
                    f"{source}: key {key!r} must be one of {', '.join(CHOICES[key])}; got {value!r}"
                )
            values[key] = value
    if values["live_golds"] not in (3, 4):
        raise ProfileError(f"{source}: key 'live_golds' must be 3 or 4, got {values['live_golds']}")
    if values["patterns"].jump_multiplier < 1:
        raise ProfileError(f"{source}: key 'patterns.jump_multiplier' must be at least 1")
    return Profile(**values)


@cache
def _builtin_table(name: str) -> dict[str, Any]:
    text = resources.files("mjstats.rulesets.fuzhou").joinpath("profiles", f"{name}.toml").read_text("utf-8")
    return tomllib.loads(text)


def flower_kinds_of(name: str) -> frozenset[int]:
    """The flower tile codes under a profile name or TOML path (the integrity deal test asks)."""
    return load_profile(name).flower_kinds


def parse_profile(text: str, source: str = "<profile>", default_name: str = "user") -> Profile:
    """Read a user profile from TOML text: ``base`` (seed or platform; default seed) + overrides."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"{source}: not valid TOML: {exc}") from None
    base_name = data.pop("base", "seed")
    if base_name not in BUILTIN_PROFILES:
        raise ProfileError(
            f"{source}: key 'base' must be one of {', '.join(BUILTIN_PROFILES)}; got {base_name!r}"
        )
    _check_keys(data, _TOP_KEYS, "", source)
    merged = _merge(_builtin_table(base_name), data, source)
    merged["name"] = data.get("name", default_name)
    return _build(merged, source)


@cache
def _load_builtin(name: str) -> Profile:
    return _build(_builtin_table(name), f"built-in profile {name!r}")


def load_profile(name_or_path: str | Path | Profile = "seed") -> Profile:
    """A built-in profile by name (``seed``, ``platform``) or a user TOML file by path.

    A Profile passed in is returned as is, so every engine function can take either.
    """
    if isinstance(name_or_path, Profile):
        return name_or_path
    if isinstance(name_or_path, str) and name_or_path in BUILTIN_PROFILES:
        return _load_builtin(name_or_path)
    path = Path(name_or_path)
    if not path.is_file():
        raise ProfileError(
            f"unknown profile {str(name_or_path)!r}: not one of {', '.join(BUILTIN_PROFILES)} "
            "and no such file"
        )
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ProfileError(f"{path}: cannot read profile: {exc}") from None
    return parse_profile(text, source=str(path), default_name=path.stem)
