"""Fuzzing override files (issue 17): whatever the file holds, loading it either works or raises a
``MedvizError`` that the CLI prints on one line; never another exception, never a hang.

Hypothesis generates override files of arbitrary shape; a mutation corpus takes the example files
and truncates them at every offset, swaps value types, nests deeply and plants huge numbers.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from fuzzing import fuzz
from hypothesis import given
from hypothesis import strategies as st

from medviz.cli import one_line
from medviz.engine.errors import MedvizError
from medviz.rules.medempires.game.setup import data_for_options, override_options

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
FIELDS = ["id", "name", "city", "kind", "neighbours", "ports", "coasts", "city_lon", "city_lat", "between",
          "F", "FA", "military", "diplomacy", "count", "starting_tp", "evil", "reconstructed", "rule"]
IDS = ["malta", "sicily_east", "aragon", "peter3", "ambush", "vespers-1282", "messina", "", "x" * 90]


def _load(tmp_path: Path, flag: str, text: str | bytes) -> None:
    """Load ``text`` as an override file the way ``medviz play`` does; a user error must be one line."""
    f = tmp_path / "fuzz.toml"
    f.write_bytes(text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text)
    try:
        data_for_options("vespers-1282", override_options(**{f"{flag}_file": f}))
    except MedvizError as exc:
        line = one_line(exc, "medviz check-data lists them all")
        assert line and "\n" not in line and "fuzz.toml" in line, line


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value) if value == value and value not in (float("inf"), float("-inf")) else "nan"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return "{ " + ", ".join(f"{json.dumps(k)} = {_toml_value(v)}" for k, v in value.items()) + " }"


scalars = st.one_of(st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
                    st.floats(allow_nan=True), st.text(max_size=20), st.sampled_from(IDS))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                        st.dictionaries(st.sampled_from(FIELDS), inner, max_size=4)),
                      max_leaves=12)
entries = st.dictionaries(st.sampled_from(FIELDS), values, max_size=6)
TABLES = ["area", "strait", "units.counter_mix", "kings.king", "stratagems.stratagem", "scenarios.scenario",
          "powers.power", "operations.cost", "politics.limit", "nonsense.table", "area.deep"]


@st.composite
def override_files(draw: st.DrawFn) -> str:
    """A TOML text of ``[[table]]`` entries with random fields and values (valid TOML by construction)."""
    parts = []
    for _ in range(draw(st.integers(1, 3))):
        table = draw(st.sampled_from(TABLES))
        entry = draw(entries)
        parts.append(f"[[{table}]]\n" + "".join(f"{json.dumps(k)} = {_toml_value(v)}\n" for k, v in entry.items()))
    return "\n".join(parts)


@fuzz
@given(text=override_files(), flag=st.sampled_from(["map", "data"]))
def test_generated_override_files_load_or_fail_on_one_line(tmp_path_factory: pytest.TempPathFactory,
                                                           text: str, flag: str) -> None:
    _load(tmp_path_factory.mktemp("gen"), flag, text)


@fuzz
@given(data=st.binary(max_size=300), flag=st.sampled_from(["map", "data"]))
def test_arbitrary_bytes_load_or_fail_on_one_line(tmp_path_factory: pytest.TempPathFactory,
                                                  data: bytes, flag: str) -> None:
    _load(tmp_path_factory.mktemp("bytes"), flag, data)


# --------------------------------------------------------------------------------------------
# The mutation corpus
# --------------------------------------------------------------------------------------------
CORPUS = {f.name: f.read_text(encoding="utf-8") for f in sorted(EXAMPLES.glob("*.toml"))}
SWAPS = ['"text"', "5", "-1", "1.5", "true", "[]", "[1, 2]", "{ a = 1 }", '""', "9" * 5000, "1e400",
         "nan", "1282-03-30", "[" * 600 + "]" * 600]


def _flag(name: str) -> str:
    return "map" if "map" in name else "data"


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_truncation_at_every_offset(tmp_path: Path, name: str) -> None:
    text = CORPUS[name]
    step = 1 if len(text) < 4000 else 3
    for cut in range(0, len(text), step):
        _load(tmp_path, _flag(name), text[:cut])


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_every_value_swapped_for_every_type(tmp_path: Path, name: str) -> None:
    lines = CORPUS[name].splitlines()
    assignments = [i for i, line in enumerate(lines) if " = " in line and not line.startswith("#")]
    for i in assignments:
        key = lines[i].split(" = ", 1)[0]
        for swap in SWAPS:
            mutated = [*lines[:i], f"{key} = {swap}", *lines[i + 1:]]
            _load(tmp_path, _flag(name), "\n".join(mutated) + "\n")


@pytest.mark.parametrize("depth", [7, 9, 50, 400, 2000])
def test_deep_nesting_and_huge_numbers(tmp_path: Path, depth: int) -> None:
    head = '[[area]]\nid = "malta"\nreconstructed = "x"\n'
    _load(tmp_path, "map", head + "x = " + "[" * depth + "1" + "]" * depth + "\n")
    _load(tmp_path, "map", head + "x = " + "{ a = " * depth + "1" + " }" * depth + "\n")
    _load(tmp_path, "data", '[[kings.king]]\nid = "peter3"\nmilitary = ' + "9" * depth + '\nreconstructed = "x"\n')
    _load(tmp_path, "map", head + "city_lon = " + "9" * depth + ".5\n")


@fuzz
@given(seed=st.integers(0, 2**32 - 1))
def test_random_byte_mutations_of_the_examples(tmp_path_factory: pytest.TempPathFactory, seed: int) -> None:
    rng = random.Random(seed)
    name = rng.choice(sorted(CORPUS))
    text = list(CORPUS[name])
    for _ in range(rng.randint(1, 6)):
        pos = rng.randrange(len(text))
        op = rng.choice(["delete", "insert", "replace"])
        char = rng.choice('[]{}="#\n,.-0123456789 aeiouAZ\\\'\u00e9\u2028')
        if op == "delete":
            del text[pos]
        elif op == "insert":
            text.insert(pos, char)
        else:
            text[pos] = char
    _load(tmp_path_factory.mktemp("mut"), _flag(name), "".join(text))
