"""slot_setters: a record built by setting its slots is its class's own only while the builder
sets every field and the class does nothing else when made; anything else is refused."""

from __future__ import annotations

import dataclasses
import inspect
from dataclasses import dataclass, field, make_dataclass

import pytest

from mjstats.errors import MjstatsError
from mjstats.rulesets.sichuan.fan import _WIN_SCORE_SETTERS, WinScore
from mjstats.rulesets.sichuan.settle import Payment, _payment
from mjstats.slot_setters import SlotSetterError, frozen_record, record_setters, slot_setters


@dataclass(frozen=True, slots=True)
class _Pair:
    left: int
    right: str = "r"


def test_the_setters_build_what_the_constructor_builds() -> None:
    set_left, set_right = slot_setters(_Pair, ("left", "right"))
    pair = object.__new__(_Pair)
    set_left(pair, 1)
    set_right(pair, "x")
    assert pair == _Pair(1, "x") and hash(pair) == hash(_Pair(1, "x"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        pair.left = 2  # type: ignore[misc]


@pytest.mark.parametrize("names", [("left",), ("right", "left"), ("left", "right", "extra"), ()])
def test_a_builder_that_does_not_set_every_field_in_order_is_refused(names: tuple[str, ...]) -> None:
    with pytest.raises(SlotSetterError, match="does not set its fields"):
        slot_setters(_Pair, names)


def test_a_class_that_does_more_than_set_its_fields_is_refused() -> None:
    @dataclass(frozen=True, slots=True)
    class Checked:
        value: int

        def __post_init__(self) -> None:
            if self.value < 0:
                raise ValueError("negative")

    @dataclass(frozen=True, slots=True)
    class Derived:
        value: int
        twice: int = field(init=False, default=0)

    @dataclass(frozen=True, slots=True)
    class Interned:
        value: int

        def __new__(cls, *args: object) -> Interned:
            return super().__new__(cls)

    with pytest.raises(SlotSetterError, match="__post_init__"):
        slot_setters(Checked, ("value",))
    with pytest.raises(SlotSetterError, match="outside __init__"):
        slot_setters(Derived, ("value", "twice"))
    with pytest.raises(SlotSetterError, match="__new__"):
        slot_setters(Interned, ("value",))


def test_only_frozen_slotted_dataclasses_are_accepted() -> None:
    plain = make_dataclass("Plain", [("a", int)])
    unfrozen = make_dataclass("Unfrozen", [("a", int)], slots=True)
    unslotted = make_dataclass("Unslotted", [("a", int)], frozen=True)
    for cls in (int, plain, unfrozen, unslotted):
        with pytest.raises(SlotSetterError) as refused:
            slot_setters(cls, ("a",))
        assert isinstance(refused.value, MjstatsError)


def test_payment_gaining_a_field_would_stop_the_import() -> None:
    """What settle.py asks of slot_setters, on a Payment with one field more."""
    names = tuple(f.name for f in dataclasses.fields(Payment))
    grown = make_dataclass("Payment", [*names, "currency"], frozen=True, slots=True)
    with pytest.raises(SlotSetterError, match="does not set its fields"):
        slot_setters(grown, names)


def _distinct_values(cls: type) -> list[object]:
    """A value a field of the dataclass ``cls``, each of its field's type (a compiled build checks
    them) and no two alike but the bools, which alternate: a field set from another's argument
    shows."""
    values: list[object] = []
    for i, f in enumerate(dataclasses.fields(cls)):
        kind = f.type if isinstance(f.type, str) else f.type.__name__
        if kind.startswith("bool"):
            values.append(i % 2 == 0)
        elif kind.startswith("int"):
            values.append(1000 + i)
        elif kind.startswith("tuple"):
            values.append((f"item of {f.name}",))
        else:
            values.append(f"value of {f.name}")
    return values


def test_the_fast_payment_builder_takes_and_sets_every_field_in_order() -> None:
    names = [f.name for f in dataclasses.fields(Payment)]
    assert list(inspect.signature(_payment).parameters) == names
    values = _distinct_values(Payment)
    built = _payment(*values)
    assert [getattr(built, name) for name in names] == values  # an unset slot would raise
    assert built == Payment(*values)
    assert not hasattr(Payment, "__post_init__")


def test_the_fast_win_score_builder_sets_every_field_in_order() -> None:
    names = [f.name for f in dataclasses.fields(WinScore)]
    values = _distinct_values(WinScore)
    built = frozen_record(WinScore, _WIN_SCORE_SETTERS, tuple(values))
    assert [getattr(built, name) for name in names] == values
    assert built == WinScore(*values)
    assert not hasattr(WinScore, "__post_init__")
    with pytest.raises(ValueError):
        frozen_record(WinScore, _WIN_SCORE_SETTERS, (*values, "one too many"))
    with pytest.raises(ValueError):
        frozen_record(WinScore, _WIN_SCORE_SETTERS, tuple(values[:-1]))


def test_record_setters_take_every_field_in_order() -> None:
    set_left, set_right = record_setters(_Pair)
    pair = frozen_record(_Pair, (set_left, set_right), (1, 2))
    assert type(pair) is _Pair and pair == _Pair(1, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        pair.left = 3  # type: ignore[misc]
