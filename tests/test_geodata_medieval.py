"""The committed map of *Medieval: The XIIIth Century in Europe*: ids as the reference writes the
cards, valid and seamless polygons, every province on its card, and a byte-identical rebuild."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
import sys
import unicodedata
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import shapely
from shapely.geometry import Point, box, shape

from medviz.geo import REQUIRED_PROPERTIES, load, map_path
from medviz.geo.validate import TILING_TOLERANCE_DEG2, touching_pairs, winding_problems

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "tools" / "geodata" / "build_medieval.py"
NODE_SOURCE = ROOT / "tools" / "geodata" / "node_modules" / "world-atlas" / "countries-50m.json"
REFERENCE = ROOT.parent / "shared" / "reference" / "medieval-data.md"
START_CARDS = {"1B", "1D", "2A", "2B", "2C", "3A", "3D", "4D"}  # rules §1.2, §2.1
SEA_OUTSIDE_BOX_DEG2 = 0.3  # a strait cut off from its own card's sea joins the sea it touches


def _load_build(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, BUILD)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def build() -> ModuleType:
    return _load_build("geodata_build_medieval")


@pytest.fixture(scope="module")
def geo():  # type: ignore[no-untyped-def]
    return load("medieval-xiii")


def _snake(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "_", folded.lower()).strip("_")


def parse_reference(text: str) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Province ids and naval-area codes per card, from the table of §1.3 of the reference."""
    section = text[text.index("### 1.3"):text.index("**Sea links")]
    provinces: dict[str, list[str]] = {}
    seas: dict[str, list[str]] = {}
    for line in section.splitlines():
        m = re.match(r"^\| (\d[A-F]) \| (.*)$", line)
        if not m:
            continue
        card, rest = m.group(1), m.group(2)
        cells = [c.strip() for c in rest.split(" | ")]
        plain = re.sub(r"\[[^\]]*\]", "", cells[0])
        plain = re.sub(r"\([^)]*\)", "", plain)
        ids = []
        for item in (i.strip() for i in re.split(r"[,;]", plain)):
            code = re.match(r"^([A-Z]{3})\b\s*(.*)$", item)
            if code:
                suffix = f"_{_snake(code.group(2))}" if code.group(2) else ""
                ids.append(f"{code.group(1).lower()}_{card.lower()}{suffix}")
            elif re.fullmatch(r"[A-Z][a-z]+(?:[ /][A-Z][a-z]+)*", item):
                # the rules' data names the island pair by its code SAR, like every other province
                ids.append({"sardinia_corsica": "sar"}.get(_snake(item), _snake(item)))
        provinces[card] = ids
        codes: list[str] = []
        for c in re.findall(r"`(\d[A-F]-[A-Za-z-]+)`", cells[-1]):
            if c.startswith(card) and c not in codes:
                codes.append(c)
        seas[card] = codes
    return provinces, seas


def test_reference_parser_reads_a_table_row() -> None:
    row = ("### 1.3\n| 3D | BYZ (Nicaea), LAT Thrace, SEL [T NoP], TRE [T\\* §2.2 + §11] | 4 | 4 [P] | "
           "`3D-Med` [T]; `3D-Black` [P, joined to `3D-Med`] |\n| 3B | ALM [T], Sardinia/Corsica (independent) "
           "[T\\*], Papal States [P] | 3 | none | `3B-Tyrrhenian` [T] |\n**Sea links")
    provinces, seas = parse_reference(row)
    assert provinces == {"3D": ["byz_3d", "lat_3d_thrace", "sel_3d", "tre_3d"],
                         "3B": ["alm_3b", "sar", "papal_states"]}
    assert seas == {"3D": ["3D-Med", "3D-Black"], "3B": ["3B-Tyrrhenian"]}


def test_load_returns_every_kind_with_the_required_properties(geo) -> None:  # type: ignore[no-untyped-def]
    assert geo.crs.to_epsg() == 4326
    assert geo["id"].is_unique
    for prop in REQUIRED_PROPERTIES + ("card",):
        assert geo[prop].notna().all(), prop
    assert set(geo["kind"]) == {"land", "sea", "context", "card"}


def test_ids_match_the_build_scripts_lists(geo, build) -> None:  # type: ignore[no-untyped-def]
    by_kind = {k: set(geo.loc[geo["kind"] == k, "id"]) for k in ("land", "sea", "context", "card")}
    assert by_kind["land"] == set(build.PROVINCES)
    assert by_kind["sea"] == set(build.SEAS)
    assert by_kind["context"] == set(build.CONTEXT)
    assert by_kind["card"] == set(build.CARDS) == {f"{r}{c}" for r, c in
                                                 [("1", x) for x in "ABCDEF"] + [("2", x) for x in "ABCDF"]
                                                 + [("3", x) for x in "ABCDF"] + [("4", x) for x in "BCD"]}
    assert len(by_kind["land"]) == 68  # 67 provinces with Sardinia/Corsica, and the Papal States
    for i in by_kind["land"] | by_kind["sea"] | by_kind["context"]:
        assert geo.loc[i, "card"] == build.PROVINCES.get(i, build.SEAS.get(i, build.CONTEXT.get(i))).card


def test_sea_ids_number_each_cards_naval_areas_from_one(geo, build) -> None:  # type: ignore[no-untyped-def]
    per_card: dict[str, list[str]] = {}
    for sid in build.SEAS:  # dict order is the reference's order
        m = re.fullmatch(r"sea_(\d[a-f])_(\d+)", sid)
        assert m, sid
        assert build.SEAS[sid].card.lower() == m.group(1)
        assert build.SEAS[sid].ref.lower().startswith(m.group(1) + "-")
        per_card.setdefault(m.group(1), []).append(m.group(2))
    for card, numbers in per_card.items():
        assert numbers == [str(n) for n in range(1, len(numbers) + 1)], card
    assert geo.loc["sea_2b_2", "ref"] == "2B-Adriatic"
    assert geo.loc["sea_3d_2", "ref"] == "3D-Black"


@pytest.mark.skipif(not REFERENCE.exists(), reason=f"{REFERENCE} not present (the shared reference is outside the repository)")
def test_ids_match_the_reference_cards(build) -> None:  # type: ignore[no-untyped-def]
    provinces, seas = parse_reference(REFERENCE.read_text(encoding="utf-8"))
    assert set(provinces) == set(build.CARDS)
    for card in build.CARDS:
        assert [p for p, a in build.PROVINCES.items() if a.card == card] == provinces[card], card
        assert [s.ref for s in build.SEAS.values() if s.card == card] == seas[card], card
        assert [s for s, a in build.SEAS.items() if a.card == card] == [f"sea_{card.lower()}_{n}" for n in
                                                                       range(1, len(seas[card]) + 1)]


def test_geometries_are_valid_and_do_not_overlap(geo) -> None:  # type: ignore[no-untyped-def]
    drawn = geo[geo["kind"] != "card"]
    for _, r in geo.iterrows():
        assert not r.geometry.is_empty and r.geometry.is_valid, (r.id, shapely.is_valid_reason(r.geometry))
    geoms = list(drawn.geometry)
    ids = list(drawn["id"])
    tree = shapely.STRtree(geoms)
    overlaps = []
    for k, g in enumerate(geoms):
        for m in tree.query(g, predicate="intersects"):
            if int(m) > k and shapely.intersection(g, geoms[int(m)]).area > TILING_TOLERANCE_DEG2:
                overlaps.append((ids[k], ids[int(m)]))
    assert overlaps == []


def test_labels_and_towns_lie_inside(geo) -> None:  # type: ignore[no-untyped-def]
    for _, r in geo.iterrows():
        assert r.geometry.contains(Point(r.label_lon, r.label_lat)), r.id
        if isinstance(r.get("city"), str):
            assert r.geometry.contains(Point(r.city_lon, r.city_lat)), (r.id, r.city)
    assert geo["city"].notna().sum() == 68  # every province names its principal town


def test_each_province_lies_on_its_card(geo, build) -> None:  # type: ignore[no-untyped-def]
    land = geo[geo["kind"].isin(["land", "context"])]
    for _, r in land.iterrows():
        card_box = box(*build.CARDS[r.card].box)
        for part in getattr(r.geometry, "geoms", [r.geometry]):
            outside = part.difference(card_box).area
            if outside <= 1e-6:
                continue
            # documented exception: an island is never cut by a card edge (Mallorca and Menorca,
            # Lesbos, Chios, Rhodes, the Isle of Wight); it is small and touches no other land
            assert part.area <= build.WHOLE_ISLAND_DEG2, (r.id, outside)
            others = [o for i, o in zip(land["id"], land.geometry) if i != r.id]
            assert all(part.boundary.intersection(o.boundary).length < 0.02 for o in others), r.id
    for _, r in geo[geo["kind"] == "sea"].iterrows():
        assert r.geometry.difference(box(*build.CARDS[r.card].box)).area <= SEA_OUTSIDE_BOX_DEG2, r.id


def test_medieval_places_fall_in_their_provinces(geo) -> None:  # type: ignore[no-untyped-def]
    where = {
        (2.35, 48.86): "fra_1b", (-0.13, 51.51): "eng_1b", (-2.59, 51.45): "eng_1a", (-0.58, 44.84): "fra_2a",
        (-3.70, 42.34): "spa_2a", (-5.99, 37.39): "spa_3a", (4.10, 39.97): "spa_3a", (-7.99, 31.63): "alm_3a",
        (10.18, 36.80): "alm_3b", (12.50, 41.90): "papal_states", (13.36, 38.12): "hre_3b",
        (9.15, 42.30): "sar", (12.34, 45.44): "ven_2b", (9.19, 45.46): "hre_2b",
        (13.73, 45.55): "ven_2c", (19.94, 50.06): "pol_2c", (19.04, 47.50): "hun_2c", (14.42, 50.08): "hre_2c",
        (31.28, 58.52): "rus_1d", (24.10, 56.95): "liv_1d", (17.64, 59.86): "swe_1c", (12.08, 55.64): "den_1c",
        (9.40, 56.45): "den_1b", (28.95, 41.02): "lat_3d_thrace", (29.72, 40.43): "byz_3d",
        (29.10, 41.05): "byz_3d", (32.49, 37.87): "sel_3d", (39.72, 41.00): "tre_3d", (28.22, 36.43): "ven_3d",
        (25.38, 37.10): "ven_3c", (22.94, 40.64): "lat_3c", (31.24, 30.04): "ayy_4d", (35.07, 32.93): "koj_4d",
        (33.36, 35.17): "lat_4d", (25.13, 35.34): "ven_4c", (14.51, 35.90): "hre_4b", (44.79, 41.72): "geo_2f",
        (44.36, 33.31): "ayy_3f", (49.05, 54.98): "blg_1f", (40.41, 56.13): "rus_1e",
    }
    for (lon, lat), area in where.items():
        hits = [r.id for _, r in geo[geo["kind"] != "card"].iterrows() if r.geometry.contains(Point(lon, lat))]
        assert hits == [area], (lon, lat, hits)


def _shared(geo: Any, a: str, b: str) -> float:
    return float(shapely.intersection(geo.loc[a, "geometry"].boundary, geo.loc[b, "geometry"].boundary).length)


def test_borders_the_rules_and_the_reference_need(geo) -> None:  # type: ignore[no-untyped-def]
    # L7 (§9.5): France 2B -> HRE 2B -> HRE 2C -> Poland 2C -> Russia 2C by land
    for a, b in [("fra_2b", "hre_2b"), ("hre_2b", "hre_2c"), ("hre_2c", "pol_2c"), ("pol_2c", "rus_2c"),
                 # §6: Pyrenees, Holstein-Jutland, Hungary-Serbia, Seljuks-Nicaea/Trebizond/Armenia, Acre
                 ("spa_2a", "fra_2a"), ("hre_1b", "den_1b"), ("hun_2c", "ser_2c"), ("sel_3d", "byz_3d"),
                 ("sel_3d", "tre_3d"), ("sel_3d", "lat_3d_armenia"), ("koj_3d", "lat_3d_armenia"),
                 ("koj_4d", "ayy_4d"), ("hre_2b", "ven_2b"), ("hre_2c", "ven_2c"), ("spa_2a", "spa_3a"),
                 ("hre_2b", "papal_states"), ("hre_3b", "papal_states")]:
        assert _shared(geo, a, b) >= 0.02, (a, b)
    # L5 (§10.1): a fleet sails 1A -> 2A -> 3A -> 3B
    for a, b in [("sea_1a_1", "sea_2a_1"), ("sea_2a_1", "sea_3a_1"), ("sea_3a_1", "sea_3b_1")]:
        assert _shared(geo, a, b) >= 0.02, (a, b)
    # §6: the Straits separate Thrace from Nicaea; islands are reached by sea only
    land_pairs = {frozenset(p) for p in touching_pairs(geo, ("land", "land"))}
    assert frozenset(("lat_3d_thrace", "byz_3d")) not in land_pairs
    for island in ("ven_3c", "ven_3d", "ven_4c", "lat_4d", "hre_4b", "sar"):
        assert not any(island in p for p in land_pairs), island


def test_cards_are_the_reference_boxes_and_grid(geo, build) -> None:  # type: ignore[no-untyped-def]
    cards = geo[geo["kind"] == "card"]
    assert set(cards.loc[cards["start"].astype(bool), "id"]) == START_CARDS
    for _, r in cards.iterrows():
        assert r.geometry.bounds == pytest.approx(build.CARDS[r.id].box)
        assert r.geometry.area == pytest.approx(box(*build.CARDS[r.id].box).area)
    grid = {c: box(*card.grid) for c, card in build.CARDS.items()}

    def edge(a: str, b: str) -> float:
        return float(grid[a].intersection(grid[b]).length) if grid[a].touches(grid[b]) else 0.0

    for other in ("1D", "1E", "2C", "2F", "3D"):  # L1
        assert edge("2D", other) > 0, other
    for corner in ("3C", "3F"):
        assert grid["2D"].touches(grid[corner]) and edge("2D", corner) == 0, corner
    east_4d = shapely.LineString([(grid["4D"].bounds[2], 3), (grid["4D"].bounds[2], 4)])
    assert 0 < grid["3F"].intersection(east_4d).length < 1  # L2: 3F covers part of 4D's east edge
    assert grid["1F"].bounds[0] >= grid["1E"].bounds[2] and edge("1E", "1F") > 0  # L3
    assert (geo.loc[geo["kind"] == "land", "card"] == "1B").sum() == 5  # L9
    assert set(geo.loc[geo["id"].str.startswith("fra_"), "card"]) == {"1A", "1B", "2A", "2B"}  # L6


def test_rings_are_wound_clockwise_for_plotly(geo) -> None:  # type: ignore[no-untyped-def]
    assert winding_problems(geo) == []


def test_default_map_fits_the_payload_budget() -> None:
    assert map_path("medieval-xiii").stat().st_size <= 400 * 1024


def test_every_feature_names_its_provenance(geo) -> None:  # type: ignore[no-untyped-def]
    for _, r in geo.iterrows():
        if r.kind == "card":
            assert "§1.2" in r.provenance, r.id
        else:
            assert "Natural Earth" in r.provenance and "reconstructed:" in r.provenance, r.id


def test_committed_file_is_compact_json_with_the_frame() -> None:
    fc = json.loads(map_path("medieval-xiii").read_text(encoding="utf-8"))
    assert fc["name"] == "medieval-xiii"
    assert fc["frame"] == [-11.0, 28.0, 58.0, 62.0]
    assert "Natural Earth" in fc["source"]


@pytest.mark.skipif(not NODE_SOURCE.exists(), reason="run `npm ci --prefix tools/geodata` to enable the rebuild check")
def test_rebuild_is_byte_identical_to_the_committed_file(tmp_path: Path) -> None:
    module = _load_build("geodata_build_medieval_rebuild")
    out = tmp_path / "medieval-xiii.geojson"
    assert module.main(["--out", str(out)]) == 0
    committed = map_path("medieval-xiii").read_bytes()
    assert hashlib.sha256(out.read_bytes()).hexdigest() == hashlib.sha256(committed).hexdigest()


@pytest.mark.skipif(not NODE_SOURCE.exists(), reason="run `npm ci --prefix tools/geodata` to enable the coastline check")
def test_land_follows_the_natural_earth_coast(geo, build) -> None:  # type: ignore[no-untyped-def]
    names = {g["properties"]["name"] for g in json.loads(NODE_SOURCE.read_text(encoding="utf-8"))
             ["objects"]["countries"]["geometries"]}
    ne = shapely.make_valid(shapely.unary_union(list(build.decode_topojson(NODE_SOURCE, names).values())))
    cover = shapely.unary_union([box(*c.box) for c in build.CARDS.values()])
    ne = shapely.intersection(ne, cover)
    drawn = shapely.intersection(shapely.unary_union(list(geo.loc[geo["kind"].isin(["land", "context"]),
                                                                  "geometry"])), cover)
    # simplification (~3 km), dropped islets, town discs and the opened Straits move a little land
    assert shapely.symmetric_difference(ne, drawn).area < 0.01 * ne.area


def test_the_map_names_exactly_the_rules_provinces_and_naval_areas(geo) -> None:  # type: ignore[no-untyped-def]
    """Ids agree with the engine: every province and naval area of the rules' data has its polygon."""
    import tomllib

    data = Path(__file__).resolve().parent.parent / "medviz" / "rules" / "medieval_xiii" / "data"
    provinces = {p["id"] for p in tomllib.loads((data / "provinces.toml").read_text(encoding="utf-8"))["province"]}
    seas = {s["id"] for s in tomllib.loads((data / "map.toml").read_text(encoding="utf-8"))["sea"]}
    drawn = geo[geo["kind"].isin(["land", "sea"])]
    assert set(drawn.index[drawn["kind"] == "land"]) == provinces
    assert set(drawn.index[drawn["kind"] == "sea"]) == seas
