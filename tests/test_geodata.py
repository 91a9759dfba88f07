"""The committed GeoJSON of the map: valid, seamless, and in agreement with the engine's map."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
from pathlib import Path

import pytest
import shapely

from medviz.engine.errors import UnknownReference
from medviz.geo import REQUIRED_PROPERTIES, load, map_path
from medviz.geo.validate import (
    TILING_TOLERANCE_DEG2,
    engine_problems,
    geometry_problems,
    touching_pairs,
    winding_problems,
)
from medviz.rules.medempires.mapdata import load_map

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "tools" / "geodata" / "build.py"
NODE_SOURCE = ROOT / "tools" / "geodata" / "node_modules" / "world-atlas" / "countries-10m.json"
CONTEXT_IDS = {"portugal", "leon_galicia", "france", "burgundy_savoy", "empire", "hungary_balkans", "tripolitania"}


@pytest.fixture(scope="module")
def geo():  # type: ignore[no-untyped-def]
    return load("medempires")


@pytest.fixture(scope="module")
def frame_box() -> list[float]:
    return json.loads(map_path("medempires").read_text(encoding="utf-8"))["frame"]


def test_load_returns_a_geodataframe_in_wgs84(geo) -> None:  # type: ignore[no-untyped-def]
    import geopandas

    assert isinstance(geo, geopandas.GeoDataFrame)
    assert geo.crs.to_epsg() == 4326
    assert geo.loc["sicily_west", "name"].startswith("Sicily")
    for prop in REQUIRED_PROPERTIES:
        assert geo[prop].notna().all(), prop
    assert set(geo["kind"]) == {"land", "sea", "context"}


def test_unknown_map_name_lists_the_available_maps() -> None:
    with pytest.raises(UnknownReference, match="available: .*medempires"):
        load("atlantis")


def test_every_engine_area_has_one_feature_and_back(geo) -> None:  # type: ignore[no-untyped-def]
    game_map = load_map()
    assert geo["id"].is_unique
    drawn = set(geo.loc[geo["kind"] != "context", "id"])
    assert drawn == set(game_map.areas)
    assert set(geo.loc[geo["kind"] == "context", "id"]) == CONTEXT_IDS
    for area in game_map.areas.values():
        assert geo.loc[area.id, "kind"] == area.kind
        if area.city:
            assert geo.loc[area.id, "city"] == area.city
            assert (geo.loc[area.id, "city_lon"], geo.loc[area.id, "city_lat"]) == area.city_point


def test_geometries_valid_non_overlapping_and_tiling_the_frame(geo, frame_box) -> None:  # type: ignore[no-untyped-def]
    assert geometry_problems(geo, frame_box) == []


def test_seas_do_not_overlap_land(geo) -> None:  # type: ignore[no-untyped-def]
    land = shapely.unary_union(list(geo.loc[geo["kind"] != "sea", "geometry"]))
    for _, sea in geo[geo["kind"] == "sea"].iterrows():
        assert shapely.intersection(sea.geometry, land).area <= TILING_TOLERANCE_DEG2, sea.id


def test_cities_and_labels_lie_inside_their_areas(geo) -> None:  # type: ignore[no-untyped-def]
    cities = geo[geo["city"].notna()]
    assert len(cities) == sum(1 for a in load_map().areas.values() if a.city)
    for _, r in cities.iterrows():
        assert r.geometry.contains(shapely.Point(r.city_lon, r.city_lat)), r.id
    for _, r in geo.iterrows():
        assert r.geometry.contains(shapely.Point(r.label_lon, r.label_lat)), r.id


def test_engine_adjacency_and_coasts_agree_with_the_polygons(geo) -> None:  # type: ignore[no-untyped-def]
    assert engine_problems(geo, load_map()) == []


def test_straits_are_water_crossings(geo) -> None:  # type: ignore[no-untyped-def]
    land_pairs = {frozenset(p) for p in touching_pairs(geo, ("land", "land"))}
    assert frozenset(("calabria", "sicily_east")) not in land_pairs
    assert frozenset(("corsica_south", "olbia")) not in land_pairs
    assert frozenset(("sicily_west", "sicily_east")) in land_pairs
    sicily_east = geo.loc["sicily_east", "geometry"]
    assert sicily_east.distance(geo.loc["calabria", "geometry"]) < 0.1  # narrow, but water


def test_medieval_borders_put_places_in_their_1282_areas(geo) -> None:  # type: ignore[no-untyped-def]
    where = {
        (2.90, 42.70): "rossello",  # Perpignan with Majorca's kingdom, not France
        (2.60, 42.60): "rossello",  # Prades in the Conflent
        (13.58, 37.31): "sicily_west",  # Agrigento, west of the Salso
        (14.28, 37.57): "sicily_east",  # Enna, east of the Salso
        (8.80, 42.17): "corsica_south",  # Vico in the Pumonte
        (9.45, 42.70): "corsica_north",  # Bastia in the Cismonte
        (8.56, 40.73): "olbia",  # Sassari
        (8.59, 39.91): "arborea",  # Oristano
        (8.54, 39.31): "caralis",  # Iglesias
        (-0.41, 42.14): "upper_aragon",  # Huesca, north of the Ebro
        (-1.11, 40.34): "lower_aragon",  # Teruel, south of the Ebro
        (1.43, 38.91): "majorca",  # Ibiza
        (4.10, 39.97): "majorca",  # Menorca
        (14.25, 36.04): "malta",  # Gozo
        (-5.99, 37.39): "new_castile",  # Seville with New Castile
        (7.26, 43.70): "provence",  # Nice
        (4.81, 43.95): "provence",  # Avignon
    }
    for (lon, lat), area in where.items():
        hits = [r.id for _, r in geo.iterrows() if r.geometry.contains(shapely.Point(lon, lat))]
        assert hits == [area], (lon, lat, hits)


def test_rings_are_wound_clockwise_for_plotly(geo) -> None:  # type: ignore[no-untyped-def]
    assert winding_problems(geo) == []


def test_default_map_fits_the_payload_budget() -> None:
    assert map_path("medempires").stat().st_size <= 150 * 1024


def test_every_feature_names_its_provenance(geo) -> None:  # type: ignore[no-untyped-def]
    for _, r in geo.iterrows():
        assert "Natural Earth" in r.provenance, r.id


@pytest.mark.skipif(not NODE_SOURCE.exists(), reason="run `npm ci --prefix tools/geodata` to enable the rebuild check")
def test_rebuild_is_byte_identical_to_the_committed_file(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("geodata_build", BUILD)
    assert spec and spec.loader
    build = importlib.util.module_from_spec(spec)
    sys.modules["geodata_build"] = build
    spec.loader.exec_module(build)
    out = tmp_path / "medempires.geojson"
    assert build.main(["--out", str(out)]) == 0
    committed = map_path("medempires").read_bytes()
    assert hashlib.sha256(out.read_bytes()).hexdigest() == hashlib.sha256(committed).hexdigest()


@pytest.mark.skipif(not NODE_SOURCE.exists(), reason="run `npm ci --prefix tools/geodata` to enable the coastline check")
def test_land_areas_tile_the_natural_earth_land(geo, frame_box) -> None:  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("geodata_build_tiling", BUILD)
    assert spec and spec.loader
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    names = {n for _, countries, _, _ in build.ZONES for n in countries}
    ne = shapely.unary_union(list(build.decode_topojson(build.SOURCE, names).values()))
    ne = shapely.intersection(shapely.make_valid(ne), shapely.box(*frame_box))
    drawn = shapely.unary_union(list(geo.loc[geo["kind"] != "sea", "geometry"]))
    # Simplification (~2 km), dropped islets and filled lagoons move a little land; 1.5 % at most.
    assert shapely.symmetric_difference(ne, drawn).area < 0.015 * ne.area
