"""The slots' own setters of a frozen dataclass, for hot paths that build many records.

The generated ``__init__`` of a frozen dataclass sets each field through ``object.__setattr__``;
setting the slots directly is about twice as fast and gives the same object, but only while the
builder sets every field and the class does nothing else when it is made. :func:`slot_setters`
checks that when the module using it is imported: a field added, renamed or reordered, a
``__post_init__``, a field left out of ``__init__`` or a ``__new__`` of its own stops the import
with one clear error, instead of records built half-made. In the compiled build the class is
native (C-level attributes and allocator); the same checks apply to its fields.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable, Sequence
from typing import Any

from mjstats.errors import MjstatsError

__all__ = ["SlotSetterError", "slot_setters"]


class SlotSetterError(MjstatsError, TypeError):
    """A class whose records cannot be built by setting its slots: the builder would not be
    its own constructor."""


def slot_setters(cls: type, names: Sequence[str]) -> tuple[Callable[[Any, Any], None], ...]:
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
    return tuple(slot.__set__ for slot in slots)
