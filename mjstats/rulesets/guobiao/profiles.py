"""Guobiao rule profiles: ``standard`` (the 81 fans, default) and opt-in platform extras.

天和/地和/人和 are not Guobiao fans; some platforms add them with values the seeds disagree on
(reference guobiao.md "Platform extras"). Each profile fixes one set of values:

- ``standard``: none of them.
- ``platform_extras``: seed 000 (通行的规则): 天和 99, 地和 88, 人和 64.
- ``platform_extras_lianzhong``: seed 004 (联众 charts): 天和 168, 地和 158, 人和 108.

An extra fan is added on top of the best Guobiao reading when its flag is passed; 天和 has no
winning tile to wait on, so it drops the wait fans (as the reference calculator's 天和 flag does).
"""

from __future__ import annotations

from dataclasses import dataclass

from mjstats.errors import ProfileError

__all__ = ["PROFILES", "ExtraFan", "Profile", "get_profile"]


@dataclass(frozen=True, slots=True)
class ExtraFan:
    """A platform fan outside the Guobiao table, switched on by a calculate_fans flag."""

    name: str
    name_en: str
    points: int
    flag: str  # the calculate_fans keyword that claims it
    excludes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Profile:
    """A named Guobiao variant: the standard table plus, optionally, platform extras."""

    name: str
    description: str
    extras: tuple[ExtraFan, ...] = ()


_NO_WAIT = ("边张", "嵌张", "单钓将")


def _extras(heavenly: int, earthly: int, human: int) -> tuple[ExtraFan, ...]:
    return (
        ExtraFan("天和", "Heavenly Hand", heavenly, "heavenly", _NO_WAIT),
        ExtraFan("地和", "Earthly Hand", earthly, "earthly"),
        ExtraFan("人和", "Human Hand", human, "human"),
    )


PROFILES: dict[str, Profile] = {
    "standard": Profile("standard", "Guobiao 81 fans as the reference calculator scores them"),
    "platform_extras": Profile(
        "platform_extras", "standard + 天和 99 / 地和 88 / 人和 64 (seed 000)", _extras(99, 88, 64)
    ),
    "platform_extras_lianzhong": Profile(
        "platform_extras_lianzhong",
        "standard + 天和 168 / 地和 158 / 人和 108 (seed 004)",
        _extras(168, 158, 108),
    ),
}


def get_profile(profile: str | Profile) -> Profile:
    """A profile by name (or the profile itself); unknown names raise ProfileError."""
    if isinstance(profile, Profile):
        return profile
    try:
        return PROFILES[profile]
    except KeyError:
        known = ", ".join(PROFILES)
        raise ProfileError(f"unknown Guobiao profile {profile!r} (known: {known})") from None
