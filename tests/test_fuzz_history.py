"""Fuzzing the history loader (issue 17): mutated histories load back exactly or are refused.

The property: ``History.from_json`` either returns a history that writes back the very bytes it
read, or raises ``MalformedInput`` (never another exception). A mutation outside ``options``
that is accepted must have changed nothing, with two exceptions: ``options`` are the
ruleset's to interpret (the battle scenario reads ``city`` as a truth value) and are written back
as given; and a branch whose ``parent`` is set to null is a game played with those rolls set,
which it then is (its policy decisions are all asked again and agree).

Mutations: type swaps at random JSON paths, deletions, huge numbers, deep nesting; a
deterministic corpus truncates a small history at every offset. ``make test`` runs a bounded
number of examples, CI's long run ten times as many (tests/fuzzing.py).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from fuzzing import fuzz
from hypothesis import given
from hypothesis import strategies as st

from medviz.engine import History, MalformedInput, RandomPolicy, RollEvent, play
from medviz.rules.medempires.game.players import Heuristic
from medviz.rules.medempires.odds import Doctrine
from medviz.rules.medempires.ruleset import RULESET

OPTS = {"attacker": "aragon:2FA,1L,1M,K2", "defender": "anjou:3FA,2L,K1"}
Path = tuple[str | int, ...]

#: Stand-ins replaced in the text after ``json.dumps`` (which cannot write these itself).
HUGE = "\x00huge\x00"
DEEP = "\x00deep\x00"
RAW = {json.dumps(HUGE): "9" * 5000, json.dumps(DEEP): "[" * 5000 + "]" * 5000}


@cache
def _battle() -> str:
    return play(RULESET, "battle", OPTS, seed=3,
                players={"attacker": Doctrine(), "defender": Doctrine()}).to_json()


@cache
def _battle_branch() -> str:
    h = History.from_json(_battle())
    r = [r for r in h.rolls() if isinstance(r, RollEvent)][1]
    return h.branch(r.roll, 1 if r.value != 1 else 6).to_json()


@cache
def _battle_random() -> str:
    return play(RULESET, "battle", dict(OPTS, ops=4), seed=5,
                players={"attacker": RandomPolicy(1), "defender": RandomPolicy(2)}).to_json()


@cache
def _vespers() -> str:
    """One whole Vespers game, played once per session."""
    return play(RULESET, "vespers-1282", {}, seed=2, players={"A": Heuristic(), "B": RandomPolicy(2)}).to_json()


def _dump(doc: Any) -> str:
    text = json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n"
    for stand_in, raw in RAW.items():
        text = text.replace(stand_in, raw)
    return text


def _paths(doc: Any, path: Path = ()) -> Iterator[Path]:
    yield path
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, (*path, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _paths(v, (*path, i))


@cache
def _doc_and_paths(which: str) -> tuple[Any, tuple[Path, ...]]:
    doc = json.loads(TEXTS[which]())
    return doc, tuple(p for p in _paths(doc) if p)


TEXTS = {"battle": _battle, "branch": _battle_branch, "random": _battle_random, "vespers": _vespers}

#: Values of every JSON type, and the two that ``json.dumps`` cannot write.
values = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=6), st.just(["roll"]), st.lists(st.integers(0, 9), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(0, 9), max_size=2), st.just(HUGE), st.just(DEEP),
)


def _mutated(doc: Any, path: Path, value: Any, delete: bool) -> Any:
    """``doc`` with ``value`` at ``path`` (or the item there deleted); only the containers on the path are copied."""
    if len(path) == 1:
        out = dict(doc) if isinstance(doc, dict) else list(doc)
        if delete:
            del out[path[0]]  # type: ignore[arg-type]
        else:
            out[path[0]] = value  # type: ignore[index]
        return out
    out = dict(doc) if isinstance(doc, dict) else list(doc)
    out[path[0]] = _mutated(doc[path[0]], path[1:], value, delete)  # type: ignore[index]
    return out


def _check(which: str, path: Path, value: Any, delete: bool) -> None:
    original = TEXTS[which]()
    doc, _ = _doc_and_paths(which)
    text = _dump(_mutated(doc, path, value, delete))
    try:
        h = History.from_json(text, "fuzz.json")
    except MalformedInput as exc:
        message = str(exc)
        assert message.startswith("fuzz.json: ") and "\n" not in message, message
        return
    assert h.to_json() == text, f"accepted {path} = {value!r}, but writes back other bytes"
    if path[0] != "options" and (path, value) != (("parent",), None):
        assert text == original, f"accepted a change outside options: {path} = {value!r} (deleted: {delete})"


@st.composite
def mutations(draw: st.DrawFn, which: str) -> tuple[Path, Any, bool]:
    _, paths = _doc_and_paths(which)
    path = draw(st.sampled_from(paths))
    return path, draw(values), draw(st.booleans()) and draw(st.booleans())


@fuzz
@given(st.sampled_from(["battle", "branch", "random"]).flatmap(lambda w: st.tuples(st.just(w), mutations(w))))
def test_mutated_battle_histories_load_back_exactly_or_are_refused(case: tuple[str, tuple[Path, Any, bool]]) -> None:
    which, (path, value, delete) = case
    _check(which, path, value, delete)


@pytest.mark.parametrize(("path", "value", "named"), [
    # found by CI's long run: the key went into the message raw, splitting it over two lines
    (("outcome", "survivors", "defender"), {"\n": 0}, "survivors.defender.'\\n' is in the file"),
    (("overrides",), {"x\ny": 3}, "overrides.'x\\ny'"),
    (("players",), {"attacker": "doctrine", "de\tfender": 7}, "players.'de\\tfender'"),
])
def test_a_key_with_control_characters_is_named_quoted_on_one_line(path: Path, value: Any, named: str) -> None:
    """A file's own keys go into the message quoted when they would break its one line."""
    _check("battle", path, value, delete=False)
    with pytest.raises(MalformedInput) as caught:
        History.from_json(_dump(_mutated(_doc_and_paths("battle")[0], path, value, False)), "fuzz.json")
    assert named in str(caught.value), str(caught.value)


@fuzz
@given(mutations("vespers"))
def test_mutated_whole_game_loads_back_exactly_or_is_refused(case: tuple[Path, Any, bool]) -> None:
    path, value, delete = case
    _check("vespers", path, value, delete)


@fuzz
@given(st.sampled_from(["battle", "branch"]), st.data())
def test_a_header_field_swapped_for_any_value_is_refused(which: str, data: st.DataObject) -> None:
    doc, paths = _doc_and_paths(which)
    header = [p for p in paths if p[0] not in ("events", "options")]
    path = data.draw(st.sampled_from(header))
    value = data.draw(values)
    _check(which, path, value, delete=False)


def test_truncation_at_every_offset_is_refused() -> None:
    """A deterministic corpus: every strict prefix of a small history is ``MalformedInput``."""
    for which in ("battle", "branch"):
        text = TEXTS[which]()
        end = len(text.rstrip("\n"))
        for offset in range(end):
            try:
                History.from_json(text[:offset], "cut.json")
            except MalformedInput as exc:
                assert str(exc).startswith("cut.json: ") and "\n" not in str(exc)
            else:
                raise AssertionError(f"{which}: the first {offset} characters were accepted")
        assert History.from_json(text[:end]).to_json() == text


def test_every_path_swapped_deterministically() -> None:
    """A deterministic corpus: each JSON path of a battle branch gets one of the hard values in turn."""
    hard = [None, ["roll"], HUGE, DEEP, 1.5, True, {}, "abc", 10**30, -1]
    _, paths = _doc_and_paths("branch")
    for i, path in enumerate(paths):
        _check("branch", path, hard[i % len(hard)], delete=i % 7 == 0)
