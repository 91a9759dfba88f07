"""quick_init: a frozen slotted dataclass built by the faster __init__ is the same value as by dataclasses' own."""

from __future__ import annotations

import dataclasses
import inspect
from dataclasses import dataclass, field

import pytest

from medviz.engine.events import ChangeEvent, DecisionEvent, Event, FrozenDict, RollEvent
from medviz.engine.frozen import quick_init
from medviz.engine.game import Task
from medviz.engine.policy import DecisionPoint
from medviz.rules.medempires.game.options import Action, ForcePick


def _twins() -> tuple[type, type]:
    """The same class twice: as dataclasses makes it, and with quick_init."""
    made = []
    for fast in (False, True):
        @dataclass(frozen=True, slots=True)
        class Base:
            seq: int
            turn: int | None = None

        @dataclass(frozen=True, slots=True)
        class Thing(Base):
            name: str = "x"
            items: list[int] = field(default_factory=list)
            seen: dict[str, int] = field(default_factory=dict, compare=False)
            flag: bool = field(default=False, kw_only=True)

            def __post_init__(self) -> None:
                if self.seq < 0:
                    raise ValueError("negative seq")

        made.append(quick_init(Thing) if fast else Thing)
    return made[0], made[1]


def test_quick_init_builds_the_same_value_with_the_same_signature() -> None:
    slow, fast = _twins()
    assert str(inspect.signature(fast)) == str(inspect.signature(slow))
    for args, kw in [((1,), {}), ((1, 2, "y", [3]), {"flag": True}), ((4,), {"items": [5], "seen": {"a": 1}})]:
        a, b = slow(*args, **kw), fast(*args, **kw)
        assert dataclasses.astuple(a) == dataclasses.astuple(b) and repr(a).split("(", 1)[1] == repr(b).split("(", 1)[1]
    one, two = fast(1), fast(1)
    assert one.items == [] and one.items is not two.items  # each gets its own default from the factory
    with pytest.raises(ValueError, match="negative seq"):  # __post_init__ still runs
        fast(-1)
    with pytest.raises(TypeError):  # keyword-only stays keyword-only
        fast(1, 2, "y", [3], {}, True)
    with pytest.raises(dataclasses.FrozenInstanceError):  # still frozen
        one.seq = 2  # type: ignore[misc]


def test_quick_init_refuses_classes_it_cannot_build() -> None:
    @dataclass(slots=True)
    class Open:
        a: int

    @dataclass(frozen=True)
    class NoSlots:
        a: int

    for cls in (Open, NoSlots, int):
        with pytest.raises(TypeError, match="not a frozen dataclass with slots=True"):
            quick_init(cls)


@pytest.mark.parametrize("cls", [Event, ChangeEvent, DecisionEvent, RollEvent, Task, DecisionPoint, Action, ForcePick])
def test_engine_values_keep_the_dataclass_signature(cls: type) -> None:
    """The engine's events, tasks, decision points and typed options take the arguments dataclasses gave them."""
    plain = dataclass(frozen=True)(type(cls.__name__, (), {"__annotations__": {
        f.name: f.type for f in dataclasses.fields(cls)}, **{
        f.name: (f.default if f.default is not dataclasses.MISSING else field(default_factory=f.default_factory))
        for f in dataclasses.fields(cls) if f.default is not dataclasses.MISSING
        or f.default_factory is not dataclasses.MISSING}}))
    assert str(inspect.signature(cls)) == str(inspect.signature(plain))


def test_engine_values_build_their_defaults() -> None:
    assert ChangeEvent(3, change="c").data == FrozenDict() and Task("t").args == FrozenDict()
