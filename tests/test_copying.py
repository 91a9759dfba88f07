"""independent_copy: deep where play can change things, shared where nothing can (DESIGN.md, snapshots)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from medviz.engine.copying import independent_copy, mark_immutable, shared_mutables
from medviz.engine.events import freeze


@mark_immutable
class Atlas:
    """Loaded once, never changed by play (like a game's map)."""

    def __init__(self) -> None:
        self.areas = {"murcia": ["valencia"]}


class Rulebook:
    __medviz_immutable__ = True

    def __init__(self) -> None:
        self.rules = ["6.1"]


@dataclass
class Side:
    units: dict[str, int] = field(default_factory=dict)


@dataclass(slots=True)
class Slotted:
    seen: set[str] = field(default_factory=set)
    hands: list[list[str]] = field(default_factory=list)


@dataclass
class State:
    atlas: Atlas
    book: Rulebook
    sides: dict[str, Side]
    slotted: Slotted
    path: tuple[str, ...]
    cells: tuple[Any, ...]
    frozen: Any
    plain: list[Any]


def _state() -> State:
    return State(Atlas(), Rulebook(), {"A": Side({"murcia": 2})}, Slotted({"pope"}, [["plague"]]),
                 ("valencia", "murcia", 3, None), (1, ["x"]), freeze({"a": [1]}), [1, "two", 3.0, {"b": [2]}])


def test_a_copy_equals_the_state_and_shares_nothing_play_could_change() -> None:
    s = _state()
    c = independent_copy(s)
    assert c == s and shared_mutables(s, c) == []
    c.sides["A"].units["murcia"] += 1
    c.slotted.seen.add("crusade")
    c.slotted.hands[0].append("spy")
    c.cells[1].append("y")
    c.plain[3]["b"].append(5)
    assert s.sides["A"].units == {"murcia": 2} and s.slotted.seen == {"pope"} and s.slotted.hands == [["plague"]]
    assert s.cells == (1, ["x"]) and s.plain[3] == {"b": [2]}


def test_immutable_parts_are_shared_not_copied() -> None:
    s = _state()
    c = independent_copy(s)
    assert c.atlas is s.atlas and c.book is s.book  # marked immutable: one copy for every snapshot
    assert c.path is s.path and c.frozen is s.frozen  # a tuple of atoms and frozen data cannot change
    assert c.cells is not s.cells and c.cells[1] is not s.cells[1]


def test_an_unknown_type_is_refused_rather_than_shared() -> None:
    class Stranger:
        pass

    with pytest.raises(TypeError, match="cannot copy a .*Stranger"):
        independent_copy({"x": [Stranger()]})


def test_shared_mutables_names_every_shared_path() -> None:
    s = _state()
    c = independent_copy(s)
    c.sides["A"] = s.sides["A"]
    c.slotted.hands = s.slotted.hands
    c.plain[3] = s.plain[3]
    assert shared_mutables(s, c) == ["state.sides['A']", "state.slotted.hands", "state.plain[3]"]
    assert shared_mutables(s, s) == ["state"] and shared_mutables(s.atlas, s.atlas) == []
