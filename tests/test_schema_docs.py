"""Data schemas declared once (issue 11.7): the classes' fields are the schema that checks files,
builds the data and writes docs/data-schema.md."""

from __future__ import annotations

import dataclasses
import importlib
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


def test_every_ruleset_and_the_annotation_files_are_declared_once_and_on_the_page() -> None:
    from medviz.export import annotations
    from medviz.rules.empires_middle_ages import data as eotma
    from medviz.rules.empires_revolt import data as revolt
    from medviz.rules.medieval_xiii import gamedata as medieval
    from medviz.rules.variant_middle_sea import data as vms

    page = (ROOT / "docs" / "data-schema.md").read_text(encoding="utf-8")
    declared = [("rules.toml [[", revolt.DECLARED), ("rules.toml [[", vms.DECLARED), ("rules.toml [[", eotma.DECLARED),
                ("year cards [[", eotma.CARD_DECLARED)]
    declared += [(f"{f}.toml [[", {t: medieval.DECLARED[t] for t in tables}) for f, tables in medieval.FILES.items()]
    for prefix, tables in declared:
        for table, decl in tables.items():
            sections = [s for s in page.split("### ")[1:] if s.startswith(f"`{prefix}{table}]]`")]
            assert sections, (prefix, table)
            assert any(all(f"| `{key}` |" in s for key in file_fields(decl)) for s in sections), (prefix, table)
    # medieval's schema is the declaration's; its classes are built from it
    assert medieval.SCHEMAS["power"] == file_fields(medieval.Power) and "tags" in medieval.SCHEMAS["power"]
    # the annotation keys a file may give are the declared fields, and the page lists them
    assert annotations.NOTE_FIELDS == ("anchor", "title", "date", "kind", "source", "text")
    assert annotations.ANCHOR_FIELDS == tuple(f.name for f in dataclasses.fields(annotations.Anchor))
    anchor = page.split("### `anchor`")[1]
    assert "| `turn` | whole number 1..999999999 | no |" in anchor


@pytest.mark.parametrize("load, override, expected", [
    ("empires_revolt", {"capital": [{"id": "sparta", "attack": 2, "rule": "mine"}]},
     "[[capital]] entry 'sparta': missing field 'name'"),
    ("empires_revolt", {"upkeep": [{"id": "army", "free": "two"}]},
     "[[upkeep]] entry 'army': free: must be a whole number, not 'two'"),
    ("variant_middle_sea", {"leader": [{"id": "q", "attack": 1, "defence": 1, "name": "Q"}]},
     "[[leader]] entry 'q': missing field 'domains'"),
    ("variant_middle_sea", {"spy": {"kil_on": 5}}, "[spy]: unknown field 'kil_on' (did you mean 'kill_on'?)"),
    ("empires_middle_ages", {"modifier": [{"id": "fort", "ratting": 1}]},
     "[[modifier]] entry 'fort': unknown field 'ratting' (did you mean 'rating'?)"),
])
def test_a_bad_override_names_file_entry_and_field(load: str, override: dict[str, object], expected: str) -> None:
    module = importlib.import_module(f"medviz.rules.{load}.data")
    with pytest.raises(DataError) as exc:
        module.load_rules(override)
    assert any(p.startswith("rules.toml with override data override ") and p.endswith(expected)
               for p in exc.value.problems), exc.value.problems


def test_a_bad_medieval_override_names_file_entry_and_field(tmp_path: Path) -> None:
    from medviz.rules.medieval_xiii.gamedata import load_game_data

    bad = tmp_path / "house.toml"
    bad.write_text('[[power]]\nid = "genoa"\ncode = "GEN"\nsource = "house rule"\n'
                   '[[sea]]\nid = "sea_9"\ncard = "1A"\nname = "x"\ncoasts = []\nsource = "mine"\n')
    with pytest.raises(DataError) as exc:
        load_game_data(bad)
    problems = exc.value.problems
    assert "powers.toml [[power]] entry 'genoa': missing field 'religion'" in problems
    assert "map.toml [[sea]] entry 'sea_9': coasts: a list of 0 items; it must have 1.." in problems
