"""The classroom page's app switcher (medviz.apps.Classroom): lazy, kept, one on the stage (issue 16)."""

from __future__ import annotations

import ipywidgets as widgets
import pytest

from medviz.apps import Classroom
from medviz.engine.errors import MedvizError


def test_only_the_first_app_is_built_and_each_is_kept_once_built() -> None:
    made: list[str] = []

    def factory(name: str) -> widgets.HTML:
        made.append(name)
        return widgets.HTML(name)

    room = Classroom({"Replay": lambda: factory("Replay"), "Dice lab": lambda: factory("Dice lab")})
    assert made == ["Replay"]
    assert [w.value for w in room.stage.children] == ["Replay"]
    room.menu.value = "Dice lab"  # the student presses the second button
    assert made == ["Replay", "Dice lab"] and [w.value for w in room.stage.children] == ["Dice lab"]
    first = room.app("Replay")
    room.show("Replay")
    assert made == ["Replay", "Dice lab"], "an app already built is not built again"
    assert room.stage.children == (first,) and room.menu.value == "Replay"


def test_a_named_first_app_and_bad_names_are_refused_in_words() -> None:
    room = Classroom({"A": lambda: widgets.HTML("a"), "B": lambda: widgets.HTML("b")}, first="B")
    assert room.menu.value == "B" and room.stage.children[0].value == "b"
    with pytest.raises(MedvizError, match="no app called 'C'; the apps are A, B"):
        room.show("C")
    with pytest.raises(MedvizError, match="no app called 'Z'"):
        Classroom({"A": lambda: widgets.HTML("a")}, first="Z")
    with pytest.raises(MedvizError, match="at least one app"):
        Classroom({})
