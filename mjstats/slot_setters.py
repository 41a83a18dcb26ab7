"""The slots' own setters of a frozen dataclass, for hot paths that build many records.

The generated ``__init__`` of a frozen dataclass sets each field through ``object.__setattr__``;
setting the slots directly is about twice as fast and gives the same object, but only while the
builder sets every field and the class does nothing else when it is made. :func:`slot_setters`
checks that when the module using it is imported: a field added, renamed or reordered, a
``__post_init__``, a field left out of ``__init__`` or a ``__new__`` of its own stops the import
with one clear error, instead of records built half-made. In the compiled build the class is
native (C-level attributes and allocator); the same checks apply to its fields.
:func:`frozen_record` is the builder that uses them. A ruleset's settlement builds its records
through them, and the store's read-back the dataset's (``store.rebuild``); this module is
compiled with both (docs/compiled.md), so the builder's loop runs as C there.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable, Sequence
from typing import Any, Final, TypeVar

from mypy_extensions import mypyc_attr

from mjstats.errors import MjstatsError

__all__ = ["SlotSetterError", "frozen_record", "record_setters", "slot_setters"]

_T = TypeVar("_T")
Setter = Callable[[Any, Any], None]

# the field names of every class slot_setters accepted, for frozen_record to set them by name in
# the compiled build (there, object.__setattr__ is one C call, CPyObject_GenericSetAttr)
_FIELD_NAMES: Final[dict[type, tuple[str, ...]]] = {}


# its bases are Python classes: it stays a Python class in the compiled build (docs/compiled.md)
@mypyc_attr(native_class=False)
class SlotSetterError(MjstatsError, TypeError):
    """A class whose records cannot be built by setting its slots: the builder would not be
    its own constructor."""


def slot_setters(cls: type, names: Sequence[str]) -> tuple[Setter, ...]:
    """The slot setters of frozen, slotted dataclass ``cls`` for ``names``, which must be its
    fields, all of them, in order (so a builder that takes ``names`` as its arguments is the
    constructor). Raises :class:`SlotSetterError` otherwise, or when making a record does more
    than set its fields (a ``__post_init__``, a field outside ``__init__``, a ``__new__``)."""
    if not dataclasses.is_dataclass(cls):
        raise SlotSetterError(f"{cls.__qualname__} is not a dataclass")
    params = cls.__dataclass_params__  # type: ignore[attr-defined]
    # a class of the compiled build (docs/compiled.md) is native: its fields are C-level
    # attributes (getset descriptors) and it allocates with its own C-level __new__
    native = isinstance(getattr(cls, "__new__", None), types.BuiltinMethodType) and (
        cls.__new__ is not object.__new__
    )
    if not params.frozen or ("__slots__" not in cls.__dict__ and not native):
        raise SlotSetterError(f"{cls.__qualname__} must be a frozen dataclass with slots")
    fields = tuple(f.name for f in dataclasses.fields(cls))
    if tuple(names) != fields:
        raise SlotSetterError(
            f"{cls.__qualname__}: a builder setting {list(names)} does not set its fields {list(fields)}"
        )
    if hasattr(cls, "__post_init__"):
        raise SlotSetterError(f"{cls.__qualname__} has a __post_init__ that setting its slots would skip")
    skipped = [f.name for f in dataclasses.fields(cls) if not f.init]
    if skipped:
        raise SlotSetterError(f"{cls.__qualname__}: fields outside __init__ ({', '.join(skipped)})")
    if cls.__new__ is not object.__new__ and not native:
        raise SlotSetterError(f"{cls.__qualname__} has a __new__ of its own")
    slots = [getattr(cls, name) for name in names]
    kind = types.GetSetDescriptorType if native else types.MemberDescriptorType
    if not all(isinstance(slot, kind) for slot in slots):
        raise SlotSetterError(f"{cls.__qualname__}: a field is not a slot")
    _FIELD_NAMES[cls] = fields
    return tuple(slot.__set__ for slot in slots)


def record_setters(cls: type) -> tuple[Setter, ...]:
    """The slot setters of every field of frozen, slotted dataclass ``cls``, in field order (the
    ``setters`` of :func:`frozen_record`)."""
    return slot_setters(cls, [f.name for f in dataclasses.fields(cls)])


def frozen_record(cls: type[_T], setters: tuple[Setter, ...], values: tuple[Any, ...]) -> _T:
    """``cls(*values)`` of a frozen dataclass (every field, in order), built by its slots'
    ``setters`` (:func:`record_setters`): about twice as fast as the dataclass ``__init__`` in
    the pure build, and faster than it in the compiled one, where that ``__init__`` still runs as
    interpreted Python. A value too many or too few raises ``ValueError``."""
    # cls.__new__: object.__new__ in the pure build; a native class's own allocator in the
    # compiled one, which object.__new__ refuses
    record = cls.__new__(cls)
    if _COMPILED:
        # setters of every field (slot_setters accepts no fewer): set by the fields' names, one
        # C call a field against a method-wrapper call to each setter (callgrind, ingest --audit
        # of 2,000 Botzone hands: 119 M instructions in here, 33 M by name)
        names = _FIELD_NAMES.get(cls)
        if names is not None and len(names) == len(setters):
            n = len(names)
            if len(values) != n:  # (zip(strict=True)'s error below; by index here: no iterator)
                raise ValueError(f"{n} fields of {cls.__qualname__} and {len(values)} values")
            for i in range(n):
                object.__setattr__(record, names[i], values[i])
            return record
    # the pure build: a call to each slot's setter is faster than object.__setattr__ by name
    for set_field, value in zip(setters, values, strict=True):
        set_field(record, value)
    return record


# whether this module runs compiled: its functions are then native, not Python functions
_COMPILED: Final = not isinstance(frozen_record, types.FunctionType)
