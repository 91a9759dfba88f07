"""Fuzz suite for annotation files (issue 17, point 7): any text loads or is a MedvizError, nothing else.

A mutation corpus built from the real annotation files: truncation at every offset of a small file
(and of the Vespers notes, every few offsets; every offset in CI's long run), values swapped for other
TOML types at random key paths (huge numbers, dates, strings, arrays, inline tables, 1,500-deep
nesting), and random insertions and deletions of the characters TOML cares about. A load that fails
must say so in lines that are one line each and short (the CLI prints them on one line).
"""

from __future__ import annotations

import copy
import json
import os
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from fuzzing import fuzz
from medviz.engine import History
from medviz.engine.errors import DataError, MedvizError
from medviz.export.annotations import Annotations, parse_annotations

ROOT = Path(__file__).resolve().parent.parent
VESPERS = (ROOT / "notebooks" / "annotations" / "vespers-1282.toml").read_text(encoding="utf-8")
BATTLE_NOTES = (ROOT / "examples" / "battle-notes.toml").read_text(encoding="utf-8")
SLOW = bool(os.environ.get("MEDVIZ_SLOW"))


@pytest.fixture(scope="module")
def battle() -> History:
    """The history examples/battle-notes.toml is written for."""
    return History.load(ROOT / "examples" / "battle-seed3.json")


def loads_or_refuses(text: str, history: Any = None) -> Annotations | None:
    """Parse ``text``; a refusal must be a MedvizError in one-line, short messages. Anything else fails the test."""
    try:
        notes = parse_annotations(text, "fuzz.toml", history)
    except MedvizError as exc:
        lines = exc.problems if isinstance(exc, DataError) else [str(exc)]
        assert lines, "an error with no message"
        for line in lines:
            assert "\n" not in line and len(line) < 600, line[:300]
        return None
    assert isinstance(notes, Annotations)
    for note in notes:
        json.dumps(note.to_json())  # what the page embeds: always JSON
    return notes


# -- the corpus itself --------------------------------------------------------------------------
def test_the_corpus_files_load(battle: History) -> None:
    assert loads_or_refuses(VESPERS) is not None and len(tomllib.loads(VESPERS)["note"]) >= 5
    assert loads_or_refuses(BATTLE_NOTES, battle) is not None


# -- truncation ------------------------------------------------------------------------------------
def test_truncation_at_every_offset_of_a_small_file(battle: History) -> None:
    loaded = sum(loads_or_refuses(BATTLE_NOTES[:cut], battle) is not None for cut in range(len(BATTLE_NOTES) + 1))
    assert 0 < loaded < len(BATTLE_NOTES)  # some prefixes are whole files, most are not


def test_truncation_of_the_vespers_notes() -> None:
    step = 1 if SLOW else 5
    for cut in range(0, len(VESPERS) + 1, step):
        loads_or_refuses(VESPERS[:cut])


# -- TOML values of every type, as text ----------------------------------------------------------
def _basic_string(s: str) -> str:
    """``s`` as a TOML basic string (control characters and lone surrogates as \\u escapes)."""
    out = []
    for c in s:
        if c in '"\\':
            out.append("\\" + c)
        elif ord(c) < 0x20 or ord(c) == 0x7F or 0xD800 <= ord(c) <= 0xDFFF:
            out.append(f"\\u{ord(c):04X}")
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


SCALARS = st.one_of(
    st.integers(-(10**20), 10**20).map(str),
    st.integers(300, 6000).map(lambda n: "9" * n),  # past Python's 4,300-digit limit from 4,301 on
    st.integers(1, 6000).map(lambda n: "0x" + "f" * n),  # hex has no digit limit: a huge int object
    st.sampled_from(["inf", "-inf", "nan", "1e400", "-0.0", "3.5", "true", "false", "1979-05-27",
                     "07:32:00", "1979-05-27T07:32:00Z", "1979-05-27T00:32:00.999999-07:00"]),
    st.text(max_size=40).map(_basic_string),
    st.sampled_from(["history", "game", "what-if", "politics", "stratagems", "battle-1/combat-1/avoid-attempt",
                     "<script>alert(1)</script>", "30 Mar 1282"]).map(_basic_string),
)
KEYS = st.sampled_from(["event", "turn", "phase", "roll", "decision", "a", "title", "text"])
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]")
    | st.dictionaries(KEYS, inner, max_size=3).map(lambda d: "{" + ", ".join(f"{k} = {v}" for k, v in d.items()) + "}"),
    max_leaves=8,
)
DEEP = st.tuples(st.integers(1, 1500), st.booleans()).map(
    lambda t: "[" * t[0] + "]" * t[0] if t[1] else "{a = " * t[0] + "1" + "}" * t[0])


class Raw(str):
    """A TOML value already written as text (what a mutation puts at a key path)."""


def _value(v: Any) -> str:
    if isinstance(v, Raw):
        return str(v)
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return _basic_string(v)
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k} = {_value(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    raise TypeError(type(v))


def dump(doc: dict[str, Any]) -> str:
    """An annotation document as TOML: top-level values, then one [[note]] table per note."""
    notes = doc.get("note")
    lines = [f"{k} = {_value(v)}" for k, v in doc.items() if k != "note" or not isinstance(notes, list)]
    if isinstance(notes, list):
        for n in notes:
            lines += ["", "[[note]]", *(f"{k} = {_value(v)}" for k, v in n.items())]
    return "\n".join(lines) + "\n"


def key_paths(doc: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Every key path of an annotation document, plus a new key at each level."""
    paths: list[tuple[Any, ...]] = [(k,) for k in doc] + [("title",), ("format",), ("version",), ("extra",)]
    for i, n in enumerate(doc.get("note", [])):
        paths += [("note", i, k) for k in n] + [("note", i, k) for k in ("date", "source", "kind", "colour")]
        paths += [("note", i, "anchor", k) for k in n.get("anchor", {})]
        paths += [("note", i, "anchor", k) for k in ("event", "turn", "phase", "roll", "decision", "area")]
    return paths


def swap(doc: dict[str, Any], path: tuple[Any, ...], value: str) -> dict[str, Any]:
    """A copy of ``doc`` with ``value`` (TOML text) at ``path``."""
    out = copy.deepcopy(doc)
    at = out
    for k in path[:-1]:
        at = at[k]
    at[path[-1]] = Raw(value)
    return out


VESPERS_DOC = tomllib.loads(VESPERS)
PATHS = key_paths(VESPERS_DOC)


def test_the_dumper_round_trips_the_corpus() -> None:
    assert tomllib.loads(dump(VESPERS_DOC)) == VESPERS_DOC
    assert loads_or_refuses(dump(VESPERS_DOC)) is not None


@fuzz
@given(path=st.sampled_from(PATHS), value=st.one_of(VALUES, SCALARS, DEEP))
@example(path=("note", 0, "kind"), value="0x" + "f" * 3572)  # found by the long run: str() of a huge kind
def test_a_value_of_any_type_at_any_key_path_loads_or_is_refused(path: tuple[Any, ...], value: str) -> None:
    loads_or_refuses(dump(swap(VESPERS_DOC, path, value)))


@fuzz
@given(paths=st.lists(st.sampled_from(PATHS), min_size=2, max_size=6, unique=True), data=st.data())
def test_several_swaps_at_once(paths: list[tuple[Any, ...]], data: st.DataObject) -> None:
    doc = VESPERS_DOC
    for p in paths:
        try:
            doc = swap(doc, p, data.draw(st.one_of(VALUES, DEEP)))
        except (TypeError, KeyError, IndexError):
            break  # an earlier swap replaced a table on this path
    loads_or_refuses(dump(doc))


# -- character-level mutations -------------------------------------------------------------------
TOKENS = st.one_of(
    st.sampled_from(["[", "]", "{", "}", '"', "'", '"""', "'''", "=", "\n", "#", "\\", ",", ".", "[[note]]\n",
                     "anchor = ", "\x00", "\ud800", "\u2028"]),
    st.integers(1, 2000).map(lambda n: "[" * n),
    st.integers(4000, 5000).map(lambda n: "9" * n),
    st.integers(1, 5000).map(lambda n: "0x" + "f" * n),
)


@fuzz
@example(edits=[(562, 0, "\ud800")])  # found by the long run: a lone surrogate reached nh3
@given(edits=st.lists(st.tuples(st.integers(0, len(VESPERS)), st.integers(0, 40), TOKENS), min_size=1, max_size=4))
def test_random_insertions_and_deletions(edits: list[tuple[int, int, str]]) -> None:
    text = VESPERS
    for at, deleted, token in edits:
        at = min(at, len(text))
        text = text[:at] + token + text[at + deleted:]
    loads_or_refuses(text)


@fuzz
@given(cut=st.integers(0, len(BATTLE_NOTES)), tail=TOKENS)
def test_a_truncated_small_file_with_any_tail_bound_to_its_history(cut: int, tail: str, battle: History) -> None:
    loads_or_refuses(BATTLE_NOTES[:cut] + tail, battle)
