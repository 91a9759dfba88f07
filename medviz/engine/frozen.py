"""A faster ``__init__`` for frozen, slotted dataclasses (events, tasks, typed options).

A frozen dataclass's generated ``__init__`` sets each field with ``object.__setattr__`` looked up
afresh for every field, about 70 ns a field. The engine builds a few thousand such values a
game (every event, option, task and decision point), so ``quick_init`` swaps that ``__init__``
for one with the same signature, defaults and ``__post_init__`` call that sets each slot through
its own descriptor, bound once: the same object, about half the cost. The class stays frozen
(its ``__setattr__`` still refuses every change).
"""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any, TypeVar

T = TypeVar("T")


class _Factory:
    """The default of a field made by its ``default_factory`` (shown as ``<factory>``, as dataclasses do)."""

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


def quick_init(cls: type[T]) -> type[T]:
    """Give frozen slotted dataclass ``cls`` an equivalent, faster ``__init__`` (a class decorator)."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in cls.__dict__:
        raise TypeError(f"quick_init: {cls.__name__} is not a frozen dataclass with slots=True")
    names: dict[str, Any] = {"_FACTORY": _FACTORY}
    args: list[str] = []
    kw_only: list[str] = []
    body: list[str] = []
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    for f in fields:
        if not f.init:
            raise TypeError(f"quick_init: field {cls.__name__}.{f.name} is not set by __init__")
        slot = next((k.__dict__[f.name] for k in cls.__mro__ if f.name in k.__dict__), None)
        if slot is None or not inspect.ismemberdescriptor(slot):
            raise TypeError(f"quick_init: field {cls.__name__}.{f.name} has no slot")
        names[f"_set_{f.name}"] = slot.__set__
        if f.default is not dataclasses.MISSING:
            names[f"_default_{f.name}"] = f.default
            arg = f"{f.name}=_default_{f.name}"
        elif f.default_factory is not dataclasses.MISSING:
            names[f"_factory_{f.name}"] = f.default_factory
            arg = f"{f.name}=_FACTORY"
            body.append(f"    if {f.name} is _FACTORY: {f.name} = _factory_{f.name}()")
        else:
            arg = f.name
        (kw_only if f.kw_only else args).append(arg)
        body.append(f"    _set_{f.name}(self, {f.name})")
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()")
    signature = ", ".join(["self", *args, *(["*", *kw_only] if kw_only else [])])
    source = f"def __init__({signature}) -> None:\n" + "\n".join(body or ["    pass"]) + "\n"
    exec(source, names)  # built once per class, from the class's own field names only
    init = names["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__doc__ = cls.__init__.__doc__
    init.__annotations__ = {**{f.name: f.type for f in fields}, "return": None}
    setattr(cls, "__init__", init)
    return cls
