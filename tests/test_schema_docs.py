"""Data schemas declared once (issue 11.7): the classes' fields are the schema that checks files,
builds the data and writes docs/data-schema.md."""

from __future__ import annotations

import dataclasses
import importlib.util
from pathlib import Path

import pytest

from medviz.engine.errors import DataError
from medviz.rules.medempires import gamedata, mapdata
from medviz.rules.schema import REQUIRED, file_fields, specs

ROOT = Path(__file__).resolve().parent.parent


def _tool() -> object:
    spec = importlib.util.spec_from_file_location("make_schema_docs", ROOT / "tools" / "make_schema_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_field_reference_is_generated_from_the_schemas_and_current() -> None:
    tool = _tool()
    page = (ROOT / "docs" / "data-schema.md").read_text(encoding="utf-8")
    assert page == tool.render(), "docs/data-schema.md is out of date: run tools/make_schema_docs.py"  # type: ignore[attr-defined]
    # every declared key of every table is on the page, under its table
    for (stem, table), decl in gamedata.DECLARED.items():
        section = page.split(f"### `{stem}.toml [[{table}]]`")[1].split("### ")[0]
        for key in gamedata.SCHEMA[(stem, table)]:
            assert f"| `{key}` |" in section, (stem, table, key)
    assert "| `city_lat` | number -90..90 (a latitude) |" in page
    assert "| `military` | whole number 0..3 (a King is rated 0-3, 8.0) | yes |" in page


def test_the_checks_and_the_builder_come_from_one_declaration() -> None:
    # the file keys the schema checks are exactly the declared attributes' keys
    for cls in (gamedata.Power, gamedata.King, gamedata.Scenario, gamedata.SetupEntry, gamedata.PowerDeployment):
        declared = {s.key for _n, s in specs(cls)}
        assert set(file_fields(cls)) == declared
        built = {f.name for f in dataclasses.fields(cls)} - {"id", "code", "power", "provenance"}
        assert built <= {n for n, _s in specs(cls)} | {"power"}, cls  # every attribute read from the file is declared
    assert mapdata.AREA_FIELDS == file_fields(mapdata.Area)
    assert set(mapdata.AREA_FIELDS) >= {"city_lon", "city_lat", "ports", "label", "port_note"}
    # the builder reads each declared attribute by its kind: a wrong type or a missing required key is named
    with pytest.raises(DataError) as exc:
        gamedata.load_game_data({"kings": {"king": [{"id": "new_king", "military": "high", "rule": "8.0"}]}},
                                origin="my.toml")
    problems = exc.value.problems
    assert "kings.toml [[king]] 'new_king': field 'military' must be an integer, got 'high'" in problems
    for name, spec in specs(gamedata.King):
        if spec.absent is REQUIRED and name != "military":
            assert f"kings.toml [[king]] 'new_king': missing field {spec.key!r}" in problems
    assert not any("'reign'" in p for p in problems)  # declared with a default


def test_a_wrong_type_in_a_plain_table_is_a_problem_not_a_crash() -> None:
    # politics.toml's attempts and modifiers stay plain tables; a list or table where text belongs
    # used to stop the checks of meaning with a TypeError (unhashable type)
    for table, entry in (("attempt", {"id": "diplomacy", "column": ["x"]}),
                         ("modifier", {"id": "territorial_concession", "only_target": {"a": 1}, "option": ["b"]})):
        with pytest.raises(DataError) as exc:
            gamedata.load_game_data({"politics": {table: [entry]}}, origin="my.toml")
        assert any(p.startswith(f"my.toml: [[politics.{table}]] entry '{entry['id']}': ") for p in exc.value.problems)
