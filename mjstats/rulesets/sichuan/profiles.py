"""Sichuan rule profiles: every switch of reference/sichuan.md §5 as one frozen :class:`Profile`.

Sichuan rules vary by region and platform, so the engine reads each rule from a profile: ``seed``
(default: seed document 001 completed by the reference's decisions), ``platform`` (the
Tencent-style clones) and user TOML files that name a base profile and override any key of it.
The built-ins ship as TOML files in ``mjstats/rulesets/sichuan/profiles/``.
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
    "DealRules",
    "DealerRules",
    "EndRules",
    "FanRules",
    "KongRules",
    "PlayRules",
    "Profile",
    "TransferRules",
    "load_profile",
    "parse_profile",
]

BUILTIN_PROFILES: tuple[str, ...] = ("seed", "platform")


@dataclass(frozen=True, slots=True)
class DealRules:
    """Deal, 换三张 and 定缺 (§2.2-2.3), replacement end (§1.2)."""

    exchange_three: bool
    exchange_direction: str
    declare_void: bool
    void_discard: str
    kong_replacement_from: str


@dataclass(frozen=True, slots=True)
class PlayRules:
    """Claims, robbing, the pass lock, the last four tiles, late 补杠, turn order (§2)."""

    multi_win: bool
    rob_kong: bool
    pass_hu_lock: str
    pass_hu_lock_cleared_by: str
    last_four_must_win: bool
    late_added_kong: str
    turn_after_rob: str
    winner_hand_public: bool


@dataclass(frozen=True, slots=True)
class DealerRules:
    """Who deals the next hand (§1.5)."""

    next_after_multi_win: str
    next_after_no_win: str


@dataclass(frozen=True, slots=True)
class FanRules:
    """Pattern values, 根, extras and the cap (§3); fans are 0-based (平胡 = 0, x1)."""

    cap_fan: int  # -1: no cap
    label_base: int
    self_draw_bonus: str
    tian_di_hu: str
    di_hu_on_dealer_first_discard: bool
    gen_counting: str
    gen_fan: int
    long_qidui_fan: int
    yaojiu_jiangdui: bool
    jin_gou_diao_fan: int
    gang_shang_hua_fan: int
    gang_shang_pao_fan: int
    rob_kong_fan: int
    haidi_fan: int
    menqing_fan: int
    duanyao_fan: int


@dataclass(frozen=True, slots=True)
class KongRules:
    """Kong money 刮风下雨 in units of the base stake (§4.4)."""

    direct: int
    direct_others: int
    added: int
    concealed: int


@dataclass(frozen=True, slots=True)
class TransferRules:
    """呼叫转移 on 杠上炮 (§4.5) and who pays a 点杠花 (§4.2)."""

    call_transfer: str
    scope: str
    multi: str
    kong_after_discard_flower: str


@dataclass(frozen=True, slots=True)
class EndRules:
    """Exhaustive-draw settlement: 查花猪, 查大叫, 死叫, 退税 (§4.6)."""

    flower_pig: bool
    flower_pig_amount: int | str  # "cap" or a number of base stakes
    cha_jiao: bool
    cha_jiao_value: str
    dead_wait: str
    tax_refund: bool
    tax_refund_to_winners: bool


@dataclass(frozen=True, slots=True)
class Profile:
    """One complete set of Sichuan rule switches; ``name`` is recorded with every audited hand."""

    name: str
    deal: DealRules
    play: PlayRules
    dealer: DealerRules
    fan: FanRules
    kong: KongRules
    transfer: TransferRules
    end: EndRules

    @property
    def cap(self) -> int | None:
        """The fan cap (``2 ** cap`` is the largest multiplier), None when uncapped."""
        return None if self.fan.cap_fan < 0 else self.fan.cap_fan

    def multiplier(self, fan: int) -> int:
        """``2 ** min(fan, cap)``: what one payer pays per base stake for a hand of ``fan``."""
        cap = self.fan.cap_fan
        return 1 << (fan if cap < 0 else min(fan, cap))

    @property
    def flower_pig_value(self) -> int:
        """What a 花猪 pays each receiver, in base stakes (the cap value by default)."""
        amount = self.end.flower_pig_amount
        return (1 << self.fan.cap_fan) if amount == "cap" else int(amount)


_SECTIONS: dict[str, type] = {
    "deal": DealRules,
    "play": PlayRules,
    "dealer": DealerRules,
    "fan": FanRules,
    "kong": KongRules,
    "transfer": TransferRules,
    "end": EndRules,
}
_TOP_KEYS = ("name", *_SECTIONS)

# Allowed values of the string switches (reference §5).
CHOICES: dict[str, tuple[str, ...]] = {
    "deal.exchange_direction": ("random", "next", "prev", "opposite"),
    "deal.void_discard": ("strict", "lenient"),
    "deal.kong_replacement_from": ("head", "tail"),
    "play.pass_hu_lock": ("same_tile", "any_tile", "any_tile_unless_higher", "none"),
    "play.pass_hu_lock_cleared_by": ("draw", "draw_or_meld"),
    "play.late_added_kong": ("pays", "no_pay", "forbidden"),
    "play.turn_after_rob": ("after_winner", "after_robbed"),
    "dealer.next_after_multi_win": ("discarder", "nearest_winner"),
    "dealer.next_after_no_win": ("stay", "next"),
    "fan.self_draw_bonus": ("none", "base", "fan"),
    "fan.tian_di_hu": ("cap", "pattern", "off"),
    "fan.gen_counting": ("all", "unmelded_only"),
    "transfer.call_transfer": ("transfer", "refund", "off"),
    "transfer.scope": ("turn_kongs", "last_kong", "all_kongs"),
    "transfer.multi": ("each_full", "split", "first_only"),
    "transfer.kong_after_discard_flower": ("self_draw", "discard"),
    "end.cha_jiao_value": ("max", "min"),
    "end.dead_wait": ("ready", "not_ready", "ready_unpaid"),
}
# Integer switches that may take values below zero, with their least value.
_INT_MINIMUM: dict[str, int] = {"fan.cap_fan": -1}
_ONE_OF: dict[str, tuple[int, ...]] = {"fan.label_base": (0, 1), "fan.long_qidui_fan": (3, 4)}


def _check_value(key: str, value: Any, kind: str, source: str) -> Any:
    """Check one switch against its declared type (bool, int, str or int | str)."""
    if kind == "bool":
        if not isinstance(value, bool):
            raise ProfileError(f"{source}: key {key!r} must be true or false, got {value!r}")
        return value
    if kind == "int | str":  # end.flower_pig_amount: "cap" or a count
        if value == "cap":
            return value
        kind = "int"
    if kind == "int":
        # bool is an int subclass in Python, but `true` is never a meaningful count here.
        if not isinstance(value, int) or isinstance(value, bool):
            raise ProfileError(f"{source}: key {key!r} must be an integer, got {value!r}")
        least = _INT_MINIMUM.get(key, 0)
        if value < least:
            raise ProfileError(f"{source}: key {key!r} must be at least {least}, got {value}")
        if key in _ONE_OF and value not in _ONE_OF[key]:
            allowed = " or ".join(map(str, _ONE_OF[key]))
            raise ProfileError(f"{source}: key {key!r} must be {allowed}, got {value}")
        return value
    if not isinstance(value, str):
        raise ProfileError(f"{source}: key {key!r} must be a string, got {value!r}")
    if key in CHOICES and value not in CHOICES[key]:
        raise ProfileError(f"{source}: key {key!r} must be one of {', '.join(CHOICES[key])}; got {value!r}")
    return value


def _check_keys(data: dict[str, Any], allowed: tuple[str, ...], where: str, source: str) -> None:
    for key in data:
        if key not in allowed:
            raise ProfileError(f"{source}: unknown key '{where}{key}'")


def _build(data: dict[str, Any], source: str) -> Profile:
    """Check every key, type and choice of a complete profile table and freeze it."""
    _check_keys(data, _TOP_KEYS, "", source)
    missing = [k for k in _TOP_KEYS if k not in data]
    if missing:
        raise ProfileError(f"{source}: missing key(s) {', '.join(missing)}")
    if not isinstance(data["name"], str) or not data["name"]:
        raise ProfileError(f"{source}: key 'name' must be a non-empty string")
    sections: dict[str, Any] = {}
    for section, cls in _SECTIONS.items():
        table = data[section]
        if not isinstance(table, dict):
            raise ProfileError(f"{source}: key {section!r} must be a table")
        names = tuple(f.name for f in fields(cls))
        _check_keys(table, names, f"{section}.", source)
        absent = [n for n in names if n not in table]
        if absent:
            raise ProfileError(f"{source}: missing key(s) {', '.join(section + '.' + n for n in absent)}")
        values = {
            f.name: _check_value(f"{section}.{f.name}", table[f.name], str(f.type), source)
            for f in fields(cls)
        }
        sections[section] = cls(**values)
    fan: FanRules = sections["fan"]
    if fan.cap_fan < 0 and fan.tian_di_hu == "cap":
        raise ProfileError(f"{source}: fan.tian_di_hu = \"cap\" needs a cap (fan.cap_fan >= 0)")
    if fan.cap_fan < 0 and sections["end"].flower_pig_amount == "cap":
        raise ProfileError(f"{source}: end.flower_pig_amount = \"cap\" needs a cap (fan.cap_fan >= 0)")
    return Profile(name=data["name"], **sections)


def _merge(base: dict[str, Any], override: dict[str, Any], source: str) -> dict[str, Any]:
    """Overlay a user table on a complete base table, section by section."""
    _check_keys(override, _TOP_KEYS, "", source)
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


@cache
def _builtin_table(name: str) -> dict[str, Any]:
    folder = resources.files("mjstats.rulesets.sichuan").joinpath("profiles")
    return tomllib.loads(folder.joinpath(f"{name}.toml").read_text("utf-8"))


@cache
def _load_builtin(name: str) -> Profile:
    return _build(_builtin_table(name), f"built-in Sichuan profile {name!r}")


def parse_profile(text: str, source: str = "<profile>", default_name: str = "user") -> Profile:
    """A user profile from TOML text: ``base`` (seed or platform; default seed) plus overrides.

    Unknown keys, wrong types and values outside a switch's choices raise ProfileError naming
    the key.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"{source}: not valid TOML: {exc}") from None
    base_name = data.pop("base", "seed")
    if base_name not in BUILTIN_PROFILES:
        raise ProfileError(
            f"{source}: key 'base' must be one of {', '.join(BUILTIN_PROFILES)}; got {base_name!r}"
        )
    merged = _merge(_builtin_table(base_name), data, source)
    merged["name"] = data.get("name", default_name)
    return _build(merged, source)


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
            f"unknown Sichuan profile {str(name_or_path)!r}: not one of {', '.join(BUILTIN_PROFILES)} "
            "and no such file"
        )
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ProfileError(f"{path}: cannot read profile: {exc}") from None
    return parse_profile(text, source=str(path), default_name=path.stem)
