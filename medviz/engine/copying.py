"""Independent copies of game states, deep by construction.

A snapshot must be a faithful, independent copy of the state at its event: nothing the run does
afterwards may reach into it (DESIGN.md, "Snapshots are independent by construction"). A
hand-written copy that lists each field goes stale the day someone nests a list in a dict, so
``independent_copy`` walks the value instead: every dict, list and set is copied all the way
down, every dataclass is rebuilt field by field, immutable leaves are shared, and a type it does
not know is refused (``TypeError``) rather than shared by accident.

A ruleset marks its own immutable types (loaded map and game data, say) with ``@mark_immutable``
(or a class attribute ``__medviz_immutable__ = True``); they are shared between copies.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

from medviz.engine.events import FrozenDict

T = TypeVar("T")

#: Leaf types shared between copies (immutable; checked by exact type).
_ATOMS: frozenset[type] = frozenset({str, int, float, bool, complex, bytes, type(None), frozenset})

#: Types marked immutable with ``mark_immutable``: shared between copies.
_IMMUTABLE: set[type] = set()

#: Per class: the dataclass's field names, or None when it is not a dataclass (memoized).
_FIELDS: dict[type, tuple[str, ...] | None] = {}


def _fields_of(t: type) -> tuple[str, ...] | None:
    names = _FIELDS.get(t, ())
    if names == ():
        names = tuple(f.name for f in dataclasses.fields(t)) if dataclasses.is_dataclass(t) else None
        _FIELDS[t] = names
    return names


C = TypeVar("C", bound=type)


def mark_immutable(cls: C) -> C:
    """Class decorator: instances are never changed by play, so copies of a state share them."""
    _IMMUTABLE.add(cls)
    return cls


def _is_immutable(t: type) -> bool:
    return t in _IMMUTABLE or bool(getattr(t, "__medviz_immutable__", False))


def independent_copy(value: T) -> T:
    """A copy of ``value`` that shares no mutable object with it (dicts, lists, sets, dataclasses).

    Immutable leaves (numbers, strings, ``FrozenDict``, types marked ``__medviz_immutable__``)
    are shared; tuples are copied only when something inside them is mutable. An object of any
    other type raises ``TypeError``: a state must be made of data this function understands.
    """
    return _copy(value)  # type: ignore[no-any-return]


def _copy(v: Any) -> Any:
    t = type(v)
    if t in _ATOMS or t is FrozenDict:
        return v
    if t is dict:
        return _copy_dict(v)
    if t is list:
        if _ATOMS.issuperset(map(type, v)):  # a list of atoms: copied in C
            return v.copy()
        return [x if type(x) in _ATOMS else _copy(x) for x in v]
    if t is tuple:
        if _ATOMS.issuperset(map(type, v)):
            return v
        return tuple(_copy(x) for x in v)
    if t is set:
        return set(v)  # set members are hashable, so immutable here (checked in tests)
    if _is_immutable(t):
        return v
    names = _fields_of(t)
    if names is None:
        raise TypeError(
            f"independent_copy: cannot copy a {t.__module__}.{t.__qualname__}; a game state holds "
            f"dicts, lists, sets, tuples, atoms and dataclasses (or types marked __medviz_immutable__)"
        )
    new = object.__new__(t)
    if hasattr(v, "__dict__"):
        new.__dict__.update(_copy_dict(v.__dict__))
    else:  # a slotted dataclass
        for name in names:
            object.__setattr__(new, name, _copy(getattr(v, name)))
    return new


def _copy_dict(v: dict[Any, Any]) -> dict[Any, Any]:
    """A dict copied all the way down; a dict of atoms (counts, flags), the usual case, is copied in C."""
    if _ATOMS.issuperset(map(type, v.values())):
        return v.copy()
    out = {}
    for k, x in v.items():
        t = type(x)
        if t in _ATOMS:
            out[k] = x
        elif t is dict and _ATOMS.issuperset(map(type, x.values())):
            out[k] = x.copy()
        else:
            out[k] = _copy(x)
    return out


def shared_mutables(a: Any, b: Any, path: str = "state") -> list[str]:
    """Paths at which ``a`` and ``b`` hold the very same mutable object (empty: independent).

    The check behind the snapshot property tests: a copy is independent exactly when no dict,
    list, set or dataclass instance is reachable from both.
    """
    out: list[str] = []
    _walk_shared(a, b, path, out)
    return out


def _walk_shared(a: Any, b: Any, path: str, out: list[str]) -> None:
    t = type(a)
    if t in _ATOMS or t is FrozenDict or _is_immutable(t):
        return
    if a is b and (t in (dict, list, set) or _fields_of(t) is not None):
        out.append(path)
        return
    if type(b) is not t:
        return
    if t is dict:
        for k in a:
            if k in b:
                _walk_shared(a[k], b[k], f"{path}[{k!r}]", out)
    elif t in (list, tuple):
        for i, (x, y) in enumerate(zip(a, b)):
            _walk_shared(x, y, f"{path}[{i}]", out)
    else:
        names = _fields_of(t)
        if names is not None:
            for name in names:
                _walk_shared(getattr(a, name), getattr(b, name), f"{path}.{name}", out)
