"""The committed map of Empire's Revolt (the Mediterranean of 300 BCE, reconstructed): ids equal to the
rules' map data, valid polygons without overlaps, borders and coasts as the data lists them, a
byte-identical rebuild."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import helpers_sample
import pytest
import shapely

from medviz.geo import REQUIRED_PROPERTIES, load, map_path
from medviz.geo.validate import engine_problems, geometry_problems, winding_problems
from medviz.rules.empires_revolt.data import shipped_rules
from medviz.rules.empires_revolt.mapdata import load_map

ROOT = Path(__file__).resolve().parents[1]
NODE_SOURCE = ROOT / "tools" / "geodata" / "node_modules" / "world-atlas" / "countries-50m.json"
NAME = "empires-revolt-300bce"


@pytest.fixture(scope="module")
def geo() -> Any:
    return load(NAME)


@pytest.fixture(scope="module")
def game_map() -> Any:
    return load_map(shipped_rules())


def _engine_map(game_map: Any) -> Any:
    """The rules' map in the shape ``engine_problems`` reads (areas with kind, neighbours, coasts; straits)."""
    areas = {a: SimpleNamespace(id=a, kind=x.kind, neighbours=x.neighbours,
                                coasts=x.coasts if x.kind == "land" else ()) for a, x in game_map.areas.items()}
    return SimpleNamespace(areas=areas, straits=[SimpleNamespace(between=tuple(sorted(s))) for s in game_map.straits])


def test_every_feature_has_the_required_properties_and_provenance(geo: Any) -> None:
    for p in REQUIRED_PROPERTIES:
        assert p in geo.columns
    assert all("reconstructed" in str(v) for v in geo["provenance"])
    assert set(geo["kind"]) == {"land", "sea", "context"}


def test_ids_borders_coasts_and_seas_agree_with_the_rules_map(geo: Any, game_map: Any) -> None:
    assert engine_problems(geo, _engine_map(game_map)) == []


def test_the_check_finds_a_border_the_polygons_do_not_have(geo: Any, game_map: Any) -> None:
    m = _engine_map(game_map)
    m.areas["iberia"].neighbours = ("latium",)
    m.areas["latium"].neighbours = (*m.areas["latium"].neighbours, "iberia")
    assert any("iberia / latium" in p for p in engine_problems(geo, m))


def test_geometries_are_valid_without_overlaps_and_wound_for_plotly(geo: Any) -> None:
    assert geometry_problems(geo) == []
    assert winding_problems(geo) == []


def test_cities_lie_in_their_regions_as_the_rules_name_them(geo: Any, game_map: Any) -> None:
    for a, x in game_map.areas.items():
        row = geo.loc[a]
        assert row["name"] == x.name
        if x.city:
            assert row["city"] == x.city
            assert row["geometry"].contains(shapely.Point(row["city_lon"], row["city_lat"]))
        else:
            assert not isinstance(row.get("city"), str) or not row["city"]


def test_the_map_is_small_and_compact_json() -> None:
    path = map_path(NAME)
    assert path.stat().st_size <= 400 * 1024
    fc = json.loads(path.read_text(encoding="utf-8"))
    assert fc["name"] == NAME and fc["frame"] == [-10.0, 29.5, 38.5, 46.5]
    assert "Natural Earth" in fc["source"]


@pytest.mark.skipif(not NODE_SOURCE.exists(), reason="run `npm ci --prefix tools/geodata` to enable the rebuild check")
def test_rebuild_is_byte_identical_to_the_committed_file(tmp_path: Path) -> None:
    module = helpers_sample.load_tool("geodata/build_empires_revolt")
    out = tmp_path / f"{NAME}.geojson"
    assert module.main(["--out", str(out)]) == 0
    assert hashlib.sha256(out.read_bytes()).hexdigest() == hashlib.sha256(map_path(NAME).read_bytes()).hexdigest()
