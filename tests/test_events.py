"""Event data is frozen, deep, so nothing can reach into a recorded event; JSON types are named in words."""

from __future__ import annotations

from collections import namedtuple
from typing import Any

import pytest

from medviz.engine import MalformedInput
from medviz.engine.events import (ChangeEvent, FrozenDict, event_from_dict, expect, freeze, has_type, json_type,
                                  thaw)

DATA = {"area": "murcia", "units": {"aragon L": 2}, "path": ["valencia", "murcia"], "n": 1, "why": None,
        "cells": [[1, 2], {"x": [3]}]}


def test_frozen_data_is_deep_read_only_and_thaws_back_to_the_same_json() -> None:
    f = freeze(DATA)
    assert isinstance(f, FrozenDict) and isinstance(f["units"], FrozenDict)
    assert f["path"] == ("valencia", "murcia") and f["cells"] == ((1, 2), FrozenDict({"x": (3,)}))
    with pytest.raises(TypeError):
        f["area"] = "granada"  # type: ignore[index]
    with pytest.raises(TypeError):
        f["units"]["aragon L"] = 3
    assert thaw(f) == DATA and type(thaw(f)["cells"][1]["x"]) is list
    source = {"units": {"aragon L": 2}}
    e = ChangeEvent(seq=0, change="units", data=freeze(source))
    source["units"]["aragon L"] = 9  # the caller's dict changes later: the recorded event does not
    assert e.data["units"]["aragon L"] == 2


def test_frozen_dicts_equal_and_hash_like_their_data() -> None:
    a, b = freeze({"x": 1, "y": [1, 2]}), freeze({"y": [1, 2], "x": 1})
    assert a == b and hash(a) == hash(b) and a == {"x": 1, "y": (1, 2)}
    assert a != freeze({"x": 2, "y": [1, 2]}) and len(a) == 2 and list(a) == ["x", "y"]
    assert {a: "seen"}[b] == "seen"
    assert (a == 5) is False and FrozenDict() == {} and len(FrozenDict(None)) == 0
    assert repr(freeze({"x": [1]})) == "FrozenDict({'x': (1,)})"  # events print their data readably
    assert "FrozenDict({'area': 'murcia'})" in repr(ChangeEvent(seq=3, change="c", data=freeze({"area": "murcia"})))


def test_freeze_makes_every_sequence_a_plain_tuple_and_keeps_frozen_values() -> None:
    Point = namedtuple("Point", "x y")

    class Path(list[Any]):
        pass

    assert freeze(Point(1, [2])) == (1, (2,)) and type(freeze(Point(1, [2]))) is tuple
    assert freeze(Path(["a", {"b": 1}])) == ("a", FrozenDict({"b": 1})) and type(freeze(Path([1]))) is tuple
    f = freeze({"a": 1})
    atoms = (1, "x", None)
    assert freeze(f) is f and freeze(atoms) is atoms  # already immutable: the same object, not a copy
    assert freeze(((1, [2]),)) == ((1, (2,)),)
    assert freeze(2.5) == 2.5 and freeze(True) is True and freeze(frozenset({1})) == frozenset({1})


@pytest.mark.parametrize(("value", "words"), [
    (None, "null"), (True, "true/false"), (3, "a whole number"), (1.5, "a number"), ("x", "text"),
    ([1], "a list"), ((1,), "a list"), ({"a": 1}, "an object"), (FrozenDict({"a": 1}), "an object"), ({1}, "set"),
])
def test_json_types_are_named_in_words(value: Any, words: str) -> None:
    assert json_type(value) == words


@pytest.mark.parametrize(("value", "wanted", "ok"), [
    (1, "int", True), (True, "int", False), (1.0, "int", False), ("a", "str", True), (1, "str", False),
    (False, "bool", True), (0, "bool", False), ({}, "object", True), ([], "object", False),
    ([], "list", True), ((), "list", False), ([1, 2], "ints", True), ([1, True], "ints", False),
    ((1,), "ints", False), (["a"], "strs", True), (["a", 1], "strs", False), ("a", "strs", False),
    (None, "int?", True), (None, "int", False), (2, "int?", True), ("2", "int?", False),
    ([1], "any", True), (None, "any", True), (1, "nonsense", False),
])
def test_field_types(value: Any, wanted: str, ok: bool) -> None:
    assert has_type(value, wanted) is ok


def test_a_wrong_field_type_is_named_with_what_was_wanted_and_what_came() -> None:
    expect(None, "str?", "f")
    with pytest.raises(MalformedInput, match=r"^g.json: events\[1\].turn: expected a whole number or null, got text$"):
        expect("2", "int?", "g.json: events[1].turn")
    with pytest.raises(MalformedInput, match=r"^e.faces: expected a list of whole numbers, got a list$"):
        expect([1, "a"], "ints", "e.faces")


def test_events_come_back_from_json_with_their_own_type_and_frozen_data() -> None:
    e = event_from_dict({"kind": "change", "seq": 4, "change": "unit-moved", "data": DATA, "turn": 2})
    assert isinstance(e, ChangeEvent) and (e.seq, e.turn, e.change) == (4, 2, "unit-moved")
    assert isinstance(e.data, FrozenDict) and e.to_dict() == {"seq": 4, "kind": "change", "turn": 2,
                                                               "change": "unit-moved", "data": DATA}
    with pytest.raises(MalformedInput, match=r"^ev: missing field 'seq'$"):
        event_from_dict({"kind": "change"}, "ev")
    with pytest.raises(MalformedInput, match=r"^ev.source: 'oracle' is not one of policy, human, recorded, forced$"):
        event_from_dict({"kind": "decision", "seq": 0, "source": "oracle"}, "ev")


def test_a_frozen_dict_refuses_every_change_and_travels_whole() -> None:
    import copy
    import pickle
    from types import MappingProxyType

    f = freeze({"area": "malta", "units": {"A": 2}})
    for change in (lambda: f.__setitem__("area", "sicily"), lambda: f.__delitem__("area"), f.clear,
                   lambda: f.pop("area"), f.popitem, lambda: f.setdefault("x", 1), lambda: f.update(x=1)):
        with pytest.raises(TypeError, match="read-only"):
            change()
    with pytest.raises(TypeError, match="read-only"):
        f |= {"x": 1}  # type: ignore[misc]
    assert f == {"area": "malta", "units": {"A": 2}} and dict(f) == {"area": "malta", "units": {"A": 2}}
    assert f == MappingProxyType({"units": {"A": 2}, "area": "malta"})  # any mapping, any key order
    assert f != {"area": "malta"} and hash(f) == hash(freeze({"units": {"A": 2}, "area": "malta"}))
    back = pickle.loads(pickle.dumps(f))
    assert type(back) is FrozenDict and back == f and type(back["units"]) is FrozenDict
    assert copy.copy(f) is f and copy.deepcopy(f) is f and f.get("nothing", 3) == 3 and "area" in f


def test_a_draw_event_gives_the_probability_of_the_value_shown() -> None:
    """A draw's probability is the share of the pool the shown value makes up (0 for an empty pool)."""
    from fractions import Fraction

    from medviz.engine.events import DrawEvent

    pool = ("king-a", "king-a", "king-b")
    assert DrawEvent(seq=1, draw="x", pool=pool, natural="king-a", value="king-a").probability == Fraction(2, 3)
    assert DrawEvent(seq=1, draw="x", pool=pool, natural="king-a", value="king-b").probability == Fraction(1, 3)
    assert DrawEvent(seq=1, draw="x", pool=(), natural="", value="").probability == 0
