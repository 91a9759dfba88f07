"""Build geodata/medempires.geojson from Natural Earth (npm `world-atlas`, pinned) and map.toml.

Usage:  npm ci --prefix tools/geodata  &&  python tools/geodata/build.py

Method (see geodata/README.md):
1. Decode the 1:10m countries TopoJSON (our own small decoder), keep land inside the map frame,
   drop rings that quantization collapsed below 4 points and islands below MIN_ISLAND_DEG2.
2. Split the land into zones (modern country groups and hand-drawn boxes); inside each zone,
   Voronoi cells of researched seed points (each area's city first) decide which area a piece of
   land belongs to. Hand-drawn "side" polygons then re-split groups of areas where a medieval
   border follows a river or a watershed (the Ebro, the Salso, Corsica's mountains, the giudicati).
3. Water inside the frame is split into the game's sea areas by Voronoi cells of sea seed points;
   enclosed lagoons join the land around them.
4. Every face is noded into one exact coverage, the shared borders are simplified as lines
   (shapely.coverage_simplify), long edges are segmentized, rings are wound clockwise (plotly),
   and coordinates are rounded.  The output is deterministic: same inputs, same bytes.
"""

from __future__ import annotations

import sys
import tomllib
from collections import defaultdict
from pathlib import Path
from typing import Any

import shapely
from shapely.geometry import Point, Polygon, box, mapping

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import (  # noqa: E402  (the shared helpers live beside this script)
    Coord,
    as_multi,
    build_main,
    decode_topojson,
    label_point,
    polygons_lines,
    polygons_of,
    rounded,
    voronoi_assign,
)

ROOT = Path(__file__).resolve().parents[2]
SOURCE = Path(__file__).resolve().parent / "node_modules" / "world-atlas" / "countries-10m.json"
MAP_TOML = ROOT / "medviz" / "rules" / "medempires" / "data" / "map.toml"
OUT = ROOT / "geodata" / "medempires.geojson"

FRAME = (-10.0, 32.5, 20.0, 47.0)  # lon_min, lat_min, lon_max, lat_max
MIN_ISLAND_DEG2 = 0.003  # islands smaller than ~25 km² are dropped (water takes them)
SIMPLIFY_DEG = 0.02  # coverage simplification tolerance (~2 km)
SEGMENT_DEG = 0.5  # longest straight edge kept (so edges stay straight on any projection)
DECIMALS = 3  # ~100 m
CITY_DISC_DEG = 0.04  # a city's area always holds this disc around the city (> SIMPLIFY_DEG)

# --------------------------------------------------------------------------------------------
# Context (inert, off-map) features: id -> (name, provenance)
CONTEXT: dict[str, tuple[str, str]] = {
    "portugal": ("Kingdom of Portugal", "modern border of Portugal (Alcañices 1297 fixed it)"),
    "leon_galicia": ("León and Galicia", "Crown of Castile's western kingdoms with Extremadura"),
    "france": ("Kingdom of France", "royal domain north of the game areas"),
    "burgundy_savoy": ("Burgundy and Savoy", "Kingdom of Arles: Bresse, Savoy, Vaud, Piedmont"),
    "empire": ("Holy Roman Empire", "the Empire north of the Alps, Tyrol and Carniola"),
    "hungary_balkans": ("Hungary and the Balkans", "Hungary-Croatia, Bosnia, Serbia, Albania, Epirus"),
    "tripolitania": ("Tripolitania", "modern Libya's coast; Hafsid in name"),
}

# Seeds per zone: area id -> extra seed points (lon, lat); an area's city point is added first.
SEEDS_FRANCE: dict[str, list[Coord]] = {
    "guyenne": [(-1.47, 43.49), (-0.37, 43.30), (0.62, 44.20), (0.72, 45.18), (-1.05, 43.70), (-0.6, 45.5)],
    "county_of_toulouse": [(2.35, 43.21), (3.00, 43.18), (1.61, 42.96), (1.35, 44.02), (0.07, 43.23), (0.72, 43.11)],
    "albi": [(2.15, 43.93), (2.57, 44.35), (1.9, 44.6)],
    "montpellier": [(4.36, 43.84), (4.08, 44.13), (3.50, 44.52), (4.55, 44.70), (3.45, 43.55)],
    "provence": [(5.45, 43.53), (5.93, 43.12), (7.26, 43.70), (6.24, 44.09), (4.90, 43.80), (6.65, 44.39), (5.2, 44.15)],
    "vienne": [(5.72, 45.19), (4.89, 44.93), (6.08, 44.56), (6.64, 44.90), (5.3, 45.4)],
    "auvergne": [(3.09, 45.78), (2.44, 44.93), (3.88, 45.04), (3.09, 45.03)],
    "rossello": [(2.90, 42.70)],
    "france": [(0.34, 46.58), (1.26, 45.83), (2.40, 47.08), (2.6, 46.34), (3.33, 46.56), (-1.15, 46.16), (0.16, 45.65),
               (-0.5, 46.6), (-1.0, 46.6), (2.8, 46.8), (1.8, 46.8), (3.9, 46.8), (4.3, 46.5)],
    "burgundy_savoy": [(4.83, 46.31), (5.23, 46.20), (5.92, 45.57), (6.13, 45.90), (6.6, 45.5), (4.8, 45.9)],
}
SEEDS_IBERIA: dict[str, list[Coord]] = {
    "navarre": [(-1.65, 42.81), (-1.60, 42.06), (-2.03, 42.67)],
    "biscay": [(-2.72, 43.42), (-2.67, 42.85), (-1.98, 43.32), (-2.93, 43.26)],
    "old_castile": [(-3.80, 43.46), (-4.72, 41.65), (-2.47, 41.76), (-4.12, 40.95), (-4.70, 40.66),
                    (-4.53, 42.01), (-2.45, 42.47), (-3.2, 41.6)],
    "leon_galicia": [(-5.57, 42.60), (-5.85, 43.36), (-8.54, 42.88), (-7.56, 43.01), (-7.86, 42.34),
                     (-5.75, 41.50), (-5.66, 40.97), (-6.37, 39.47), (-6.97, 38.88), (-6.34, 38.92)],
    "new_castile": [(-3.70, 40.42), (-2.13, 40.07), (-3.93, 38.99), (-3.17, 40.63), (-5.99, 37.39),
                    (-4.78, 37.89), (-3.79, 37.77), (-6.29, 36.53), (-6.14, 36.69), (-6.95, 37.26),
                    (-1.86, 38.99), (-2.6, 38.3)],
    "granada": [(-4.42, 36.72), (-2.46, 36.84), (-5.17, 36.74), (-3.14, 37.30), (-5.45, 36.13)],
    "murcia": [(-0.98, 37.60), (-1.70, 37.68), (-0.48, 38.35), (-0.94, 38.08), (-0.70, 38.27), (-1.70, 38.51)],
    "valencia": [(-0.04, 39.99), (-0.52, 38.99), (0.11, 38.84), (-0.47, 38.70), (-0.10, 40.62), (-0.8, 39.7)],
    "lower_aragon": [(-1.11, 40.34), (-1.64, 41.35), (-0.13, 41.05), (-1.41, 41.11), (-0.5, 40.7)],
    "upper_aragon": [(-0.55, 42.57), (0.13, 42.04), (0.48, 42.11), (-1.14, 42.13)],
    "urgell": [(0.81, 41.79), (0.62, 41.62), (1.46, 42.36), (0.90, 42.17), (0.80, 42.70), (1.52, 42.51)],
    "catalan_counties": [(2.82, 41.98), (1.25, 41.12), (0.52, 40.81), (2.25, 41.93), (2.96, 42.27),
                         (1.27, 41.67), (1.83, 41.73)],
    "rossello": [(1.93, 42.43), (1.78, 42.40), (2.05, 42.40)],
}
SEEDS_ITALY: dict[str, list[Coord]] = {
    "genoa": [(8.48, 44.31), (7.61, 43.79), (9.82, 44.10), (8.21, 44.05), (9.4, 44.3)],
    "pisa": [(10.31, 43.55), (10.53, 42.93), (10.7, 43.35)],
    "tuscany": [(11.33, 43.32), (11.88, 43.46), (10.50, 43.84), (10.92, 43.93), (11.11, 42.76),
                (11.55, 42.95)],
    "milan": [(9.16, 45.19), (9.09, 45.81), (8.62, 45.45), (9.69, 45.05), (8.21, 44.90), (8.61, 44.91),
              (8.42, 45.32), (9.02, 46.19), (9.87, 46.17)],
    "brescia": [(9.67, 45.70), (10.02, 45.13), (10.79, 45.16), (10.99, 45.44), (10.33, 44.80)],
    "venice": [(12.24, 45.67), (11.88, 45.41), (12.27, 45.22), (11.55, 45.55)],
    "istria": [(13.73, 45.55), (13.85, 44.87), (13.37, 45.77), (13.24, 46.06), (13.0, 45.95)],
    "dalmatia": [(15.89, 43.73), (16.44, 43.51), (18.09, 42.65), (17.02, 43.30), (17.5, 42.95), (14.6, 45.2),
                 (14.95, 44.95), (15.1, 44.55)],
    "ravenna": [(12.04, 44.22), (12.57, 44.06), (11.34, 44.49), (11.62, 44.84), (10.93, 44.65)],
    "ancona": [(13.45, 43.30), (13.58, 42.85), (12.64, 43.73), (13.72, 43.16), (12.91, 43.91)],
    "papal_states": [(12.11, 42.72), (12.39, 43.11), (12.74, 42.73), (12.10, 42.42), (13.25, 41.29),
                     (12.86, 42.40), (12.58, 43.35), (13.3, 41.7)],
    "abruzzi": [(13.40, 42.35), (14.17, 42.35), (13.70, 42.66), (13.93, 42.05), (14.66, 41.56),
                (14.23, 41.59), (14.99, 42.00)],
    "naples": [(14.21, 41.11), (13.57, 41.21), (14.77, 40.68), (14.78, 41.13), (15.52, 40.07), (15.2, 40.45)],
    "apulia": [(16.87, 41.13), (17.94, 40.64), (15.55, 41.46), (18.17, 40.35), (16.60, 40.67),
               (15.80, 40.64), (15.65, 41.00), (15.9, 41.8), (16.2, 40.3)],
    "calabria": [(16.25, 39.30), (16.59, 38.91), (17.13, 39.08), (16.64, 39.58), (16.20, 39.82), (16.0, 38.5)],
    "burgundy_savoy": [(7.69, 45.07), (7.32, 45.74), (7.05, 45.14), (7.55, 44.39), (6.14, 46.20),
                       (6.63, 46.52), (7.36, 46.23)],
    "empire": [(7.45, 46.95), (8.54, 47.37), (8.31, 47.05), (9.53, 46.85), (11.35, 46.50), (11.12, 46.07),
               (11.40, 47.27), (14.31, 46.62), (15.44, 47.07), (14.51, 46.06), (12.5, 46.7), (13.85, 46.61),
               (12.77, 46.83), (14.36, 46.24), (12.3, 46.55), (10.5, 46.7), (9.85, 46.55)],
    "hungary_balkans": [(15.98, 45.81), (15.87, 44.82), (18.41, 43.86), (17.19, 44.77),
                        (19.26, 42.44), (18.77, 42.42), (19.82, 41.33), (19.51, 42.07), (19.45, 41.32),
                        (20.46, 44.79), (19.04, 47.50), (18.23, 46.07), (20.85, 39.66), (19.92, 39.62),
                        (15.3, 45.3), (16.9, 44.3), (17.8, 43.7)],
}
SEEDS_AFRICA: dict[str, list[Coord]] = {
    "tlemcen": [(-0.63, 35.70), (0.09, 35.93), (1.31, 36.51), (2.22, 36.31), (3.06, 36.75), (1.32, 35.37),
                (2.9, 34.0), (0.5, 33.5)],
    "bougie": [(6.61, 36.37), (7.75, 36.90), (5.41, 36.19), (5.77, 36.82), (5.73, 34.85), (4.05, 36.71),
               (6.5, 33.5), (4.6, 35.5)],
}

# Zones in priority order: (name, country names, clip polygon or None, seeds or single area)
ZONES: list[tuple[str, list[str], list[Coord] | None, dict[str, list[Coord]] | str]] = [
    ("malta", ["Malta"], None, "malta"),
    ("balearics", ["Spain"], [(1.0, 38.5), (4.6, 38.5), (4.6, 40.2), (1.0, 40.2)], "majorca"),
    ("maghreb_spain", ["Spain", "Morocco"], [(-10.0, 32.5), (0.0, 32.5), (0.0, 35.95), (-10.0, 35.95)], "merinids"),
    ("morocco", ["Morocco"], None, "merinids"),
    ("tunisia", ["Tunisia"], None, "tunis"),
    ("libya", ["Libya"], None, "tripolitania"),
    ("portugal", ["Portugal"], None, "portugal"),
    ("corsica", ["France"], [(8.3, 41.3), (9.8, 41.3), (9.8, 43.1), (8.3, 43.1)],
     {"corsica_north": [(9.42, 42.63), (9.45, 42.95)], "corsica_south": [(8.8, 41.9)]}),
    ("sardinia", ["Italy"], [(7.9, 38.7), (10.0, 38.7), (10.0, 41.35), (7.9, 41.35)],
     {"olbia": [(9.50, 40.92), (8.56, 40.73)], "arborea": [(8.59, 39.91)], "caralis": []}),
    ("sicily", ["Italy"], [(11.5, 35.3), (13.0, 35.3), (15.5, 36.3), (15.45, 37.6), (15.55, 38.0),
                           (15.60, 38.15), (15.655, 38.262), (15.5, 38.6), (15.3, 39.0), (12.0, 39.0), (11.5, 38.3)],
     {"sicily_west": [(12.51, 38.02), (13.58, 37.31)], "sicily_east": [(15.09, 37.50), (15.29, 37.07), (14.28, 37.57)]}),
    ("iberia", ["Spain", "Andorra", "Gibraltar"], None, SEEDS_IBERIA),
    ("france", ["France", "Monaco"], None, SEEDS_FRANCE),
    ("africa", ["Algeria"], None, SEEDS_AFRICA),
    ("europe", ["Italy", "San Marino", "Vatican", "Switzerland", "Liechtenstein", "Austria", "Germany",
                "Slovenia", "Croatia", "Bosnia and Herz.", "Montenegro", "Serbia", "Kosovo", "Albania",
                "Macedonia", "Greece", "Hungary", "Slovakia", "Czechia", "Romania", "Bulgaria"], None, SEEDS_ITALY),
]

# Re-splits where the medieval border follows a line rather than the nearest seed:
# (areas sharing the land, [(area, polygon of its side)], area taking the rest).
RESPLITS: list[tuple[list[str], list[tuple[str, list[Coord]]], str]] = [
    # Aragon divided on the Ebro (gazetteer, split line P): north bank Upper, south bank Lower.
    (["upper_aragon", "lower_aragon"],
     [("upper_aragon", [(-2.6, 42.25), (-1.60, 42.06), (-1.32, 41.87), (-1.12, 41.77), (-0.89, 41.665),
                        (-0.63, 41.51), (-0.35, 41.32), (-0.04, 41.24), (0.30, 41.37), (1.0, 41.5),
                        (1.0, 43.5), (-2.6, 43.5)])],
     "lower_aragon"),
    # Sicily citra/ultra Salsum: the Imera Settentrionale and Imera Meridionale (Salso) line.
    (["sicily_west", "sicily_east"],
     [("sicily_west", [(11.0, 39.5), (13.82, 39.5), (13.82, 38.05), (13.86, 37.93), (14.00, 37.80),
                       (14.08, 37.60), (14.07, 37.40), (13.99, 37.22), (13.93, 37.05), (13.9, 34.5), (11.0, 34.5)])],
     "sicily_east"),
    # Corsica: Diquà / Dilà dai monti along the mountain crest (modern departmental line).
    (["corsica_north", "corsica_south"],
     [("corsica_south", [(8.0, 41.0), (10.0, 41.0), (10.0, 41.88), (9.42, 41.90), (9.25, 41.96),
                         (9.10, 42.06), (8.90, 42.25), (8.62, 42.36), (8.0, 42.5)])],
     "corsica_north"),
    # Sardinia: Gallura and Logudoro (Olbia), Arborea, and the old giudicato of Cagliari (Caralis).
    (["olbia", "arborea", "caralis"],
     [("olbia", [(7.5, 40.22), (8.45, 40.22), (9.0, 40.16), (9.35, 40.22), (9.75, 40.22), (10.2, 40.22),
                 (10.2, 41.6), (7.5, 41.6)]),
      ("arborea", [(7.5, 40.22), (8.45, 40.22), (9.0, 40.16), (9.35, 40.22), (9.28, 40.02), (9.10, 39.80),
                   (8.85, 39.58), (8.62, 39.50), (8.40, 39.46), (7.5, 39.46)])],
     "caralis"),
    # Rosselló (with Conflent and Vallespir) against the Toulousain and Narbonnais.
    (["rossello", "county_of_toulouse"],
     [("rossello", [(1.0, 41.5), (3.4, 41.5), (3.4, 42.86), (2.95, 42.85), (2.55, 42.82), (2.20, 42.72),
                    (1.95, 42.62), (1.72, 42.55), (1.0, 42.45)])],
     "county_of_toulouse"),
]

# Sea seeds (lon, lat); the cells of all seeds of a sea make the sea.
SEA_SEEDS: dict[str, list[Coord]] = {
    "bay_of_biscay": [(-4.0, 45.0), (-3.0, 44.0), (-5.5, 44.2), (-2.0, 45.5), (-2.0, 46.5), (-5.5, 46.5)],
    "atlantic_iberia": [(-10.5, 40.5), (-10.0, 38.0), (-10.0, 42.5), (-9.5, 44.0), (-10.0, 46.0), (-7.8, 44.3)],
    "gulf_of_cadiz": [(-7.5, 36.4), (-8.5, 35.0), (-8.0, 33.5), (-10.0, 33.0), (-9.8, 36.5), (-6.4, 36.0)],
    "alboran_sea": [(-3.5, 36.0), (-4.8, 36.2), (-2.0, 35.8), (-5.2, 35.95)],
    "algerian_sea_west": [(0.0, 36.6), (-0.8, 36.9), (1.5, 37.1), (2.5, 37.1), (0.3, 38.1), (-0.2, 37.6)],
    "balearic_sea": [(1.8, 40.6), (2.8, 40.3), (4.6, 39.5), (3.0, 38.9), (1.5, 38.6), (5.5, 39.7), (1.0, 39.6), (2.0, 39.2)],
    "gulf_of_lion": [(4.3, 42.8), (3.4, 43.0), (5.5, 42.7), (6.3, 42.9), (3.6, 42.2)],
    "ligurian_sea": [(8.6, 43.6), (7.7, 43.3), (9.7, 43.5), (8.6, 44.1)],
    "sardinian_sea": [(7.5, 40.5), (7.8, 41.6), (7.8, 39.8), (6.8, 40.9), (8.1, 40.3)],
    "sea_sw_sardinia": [(7.0, 38.2), (6.0, 37.6), (8.0, 38.6), (4.8, 37.6), (7.4, 37.6)],
    "sardinia_channel": [(9.5, 38.5), (10.7, 37.9), (11.7, 37.9), (9.3, 38.9), (8.8, 37.4), (10.2, 37.4)],
    "tyrrhenian_north": [(11.0, 41.9), (10.2, 42.6), (10.0, 41.6), (11.8, 41.4), (9.9, 42.9)],
    "tyrrhenian_south": [(13.0, 39.5), (11.0, 40.3), (14.5, 40.2), (10.3, 39.8), (12.5, 38.6), (15.4, 38.75),
                         (10.3, 40.8), (13.5, 40.8), (15.6, 39.4)],
    "strait_of_sicily": [(12.6, 36.6), (11.5, 35.8), (13.5, 36.4), (11.5, 34.6), (14.0, 35.3), (12.5, 34.0),
                         (14.5, 36.4)],
    "ionian_sea": [(17.5, 38.0), (16.5, 36.5), (17.2, 39.9), (19.0, 37.0), (15.6, 35.2), (16.3, 37.7),
                   (19.5, 39.3), (15.5, 33.5), (18.5, 35.0), (16.6, 38.5)],
    "adriatic_north": [(13.2, 44.6), (12.8, 45.3), (14.3, 44.3), (13.5, 45.3), (12.5, 44.2), (14.4, 44.9)],
    "adriatic_south": [(16.0, 42.2), (17.5, 41.8), (18.9, 41.0), (15.0, 42.6), (17.0, 42.8), (14.4, 42.5),
                       (18.7, 41.9), (16.2, 41.4), (19.1, 40.5)],
}

# Where the label sits, when the pole of inaccessibility is a poor spot (lon, lat).
LABEL_AT: dict[str, Coord] = {
    "tyrrhenian_north": (10.85, 41.75),
    "arborea": (8.78, 39.98),
    "caralis": (9.05, 39.5),
    "corsica_north": (9.2, 42.4),
    "corsica_south": (8.98, 41.8),
    "upper_aragon": (-0.25, 42.42),
    "urgell": (1.05, 42.05),
    "rossello": (2.45, 42.55),
    "majorca": (3.05, 39.78),
    "papal_states": (12.75, 42.25),
    "tuscany": (11.45, 43.3),
    "venice": (12.05, 45.62),
    "adriatic_north": (13.55, 44.55),
}


# --------------------------------------------------------------------------------------------
def build() -> dict[str, Any]:
    """Compute every feature; return the GeoJSON FeatureCollection as a dict."""
    game = tomllib.loads(MAP_TOML.read_text(encoding="utf-8"))
    areas = {a["id"]: a for a in game["area"]}
    frame = box(*FRAME)
    names = {n for _, countries, _, _ in ZONES for n in countries}
    countries = decode_topojson(SOURCE, names)
    for n in names:
        if n not in countries:
            raise SystemExit(f"build.py: country {n!r} not in {SOURCE.name}")
    clipped = {n: shapely.make_valid(shapely.intersection(g, frame)) for n, g in countries.items()}
    small = lambda p: p.area < MIN_ISLAND_DEG2  # noqa: E731
    clipped = {n: shapely.unary_union([p for p in polygons_of(g) if not small(p)] or [Polygon()])
               for n, g in clipped.items()}
    land = shapely.make_valid(shapely.unary_union(list(clipped.values())))

    # 1. land by zones and seeds
    assigned: dict[str, list[Any]] = defaultdict(list)
    taken = Polygon()
    for zone, cnames, clip, seeds in ZONES:
        region = shapely.unary_union([clipped[n] for n in cnames])
        if clip is not None:
            region = shapely.intersection(region, Polygon(clip))
        region = shapely.make_valid(shapely.difference(region, taken))
        if region.is_empty:
            continue
        taken = shapely.union(taken, region)
        if isinstance(seeds, str):
            assigned[seeds].append(region)
            continue
        full: dict[str, list[Coord]] = {}
        for area, extra in seeds.items():
            city = areas.get(area, {})
            first = [(city["city_lon"], city["city_lat"])] if "city_lon" in city else []
            full[area] = first + list(extra)
        for area, piece in voronoi_assign(region, full).items():
            assigned[area].append(piece)
    left = shapely.difference(land, taken)
    if left.area > 1e-6:
        raise SystemExit(f"build.py: {left.area:.4f} deg² of land in no zone near {left.centroid}")
    land_geom = {a: shapely.make_valid(shapely.unary_union(v)) for a, v in assigned.items()}

    for group, sides, rest in RESPLITS:
        whole = shapely.unary_union([land_geom.pop(a) for a in group if a in land_geom])
        remaining = whole
        for area, poly in sides:
            land_geom[area] = shapely.make_valid(shapely.intersection(remaining, Polygon(poly)))
            remaining = shapely.make_valid(shapely.difference(remaining, Polygon(poly)))
        land_geom[rest] = remaining

    # every city stands inside its area, even on a coast the 1:10m outline smooths away (Venice)
    for a in sorted(areas):
        if "city_lon" not in areas[a]:
            continue
        disc = Point(areas[a]["city_lon"], areas[a]["city_lat"]).buffer(CITY_DISC_DEG, quad_segs=4)
        for other in sorted(land_geom):
            if other != a:
                land_geom[other] = shapely.make_valid(shapely.difference(land_geom[other], disc))
        land_geom[a] = shapely.make_valid(shapely.union(land_geom[a], disc))
        land = shapely.union(land, disc)

    # 2. seas: Voronoi of sea seeds over the water in the frame
    water = shapely.make_valid(shapely.difference(frame, land))
    water_parts = sorted(polygons_of(water), key=lambda p: -p.area)
    sea_body = water_parts[0]
    lagoons = water_parts[1:]
    sea_geom = voronoi_assign(sea_body, SEA_SEEDS)

    # 3. one exact coverage: node every boundary, polygonize, give each face to its owner
    owners: dict[str, Any] = {**land_geom, **sea_geom}
    ids = sorted(owners)
    lines = [shapely.boundary(frame)] + [shapely.boundary(shapely.make_valid(owners[i])) for i in ids]
    lines += [shapely.boundary(p) for p in lagoons]
    noded = shapely.unary_union(lines)
    faces = list(shapely.polygonize(list(polygons_lines(noded))).geoms)
    tree_geoms = [shapely.make_valid(owners[i]) for i in ids]
    tree = shapely.STRtree(tree_geoms)
    face_owner: list[str | None] = []
    for f in faces:
        rp = f.point_on_surface()
        hits = [k for k in tree.query(rp) if tree_geoms[k].covers(rp)]
        face_owner.append(ids[min(hits, key=lambda k: (tree_geoms[k].area, k))] if hits else None)
    # faces owned by no one (lagoons, slivers) join the land neighbour (else any neighbour) sharing most border
    for _ in range(3):
        for k, f in enumerate(faces):
            if face_owner[k] is not None:
                continue
            best: dict[str, float] = defaultdict(float)
            for m, g in enumerate(faces):
                if m != k and face_owner[m] is not None and f.distance(g) == 0:
                    shared = shapely.intersection(f.boundary, g.boundary).length
                    bonus = 1000.0 if face_owner[m] in land_geom else 0.0
                    best[face_owner[m]] += shared + (bonus if shared > 0 else 0.0)
            if best:
                face_owner[k] = max(sorted(best), key=lambda a: best[a])
    by_owner: dict[str, list[Polygon]] = defaultdict(list)
    for f, o in zip(faces, face_owner):
        if o is None:
            raise SystemExit(f"build.py: unowned face at {f.representative_point()}")
        by_owner[o].append(f)
    dissolved = {o: shapely.unary_union(v) for o, v in by_owner.items()}
    # a sea split in pieces by land keeps its largest piece; the rest joins the neighbour sharing most
    for sea in sorted(sea_geom):
        parts = sorted(polygons_of(dissolved[sea]), key=lambda p: -p.area)
        for piece in parts[1:]:
            best2 = {s: shapely.intersection(piece.boundary, dissolved[s].boundary).length
                     for s in sorted(sea_geom) if s != sea}
            target = max(sorted(best2), key=lambda s: best2[s])
            dissolved[target] = shapely.unary_union([dissolved[target], piece])
        dissolved[sea] = parts[0]

    # 4. simplify shared borders as lines, segmentize, orient clockwise, round
    order = sorted(dissolved)
    geoms = [as_multi(polygons_of(dissolved[o])) for o in order]
    simplified = shapely.coverage_simplify(geoms, SIMPLIFY_DEG, simplify_boundary=False)
    simplified = shapely.segmentize(simplified, SEGMENT_DEG)
    simplified = shapely.set_precision(simplified, 10 ** -DECIMALS, mode="pointwise")
    finished = {}
    for o, g in zip(order, simplified):
        parts = [shapely.make_valid(p) for p in polygons_of(g)]
        parts = [p for q in parts for p in polygons_of(q) if p.area > 0]
        g2 = shapely.orient_polygons(as_multi(parts), exterior_cw=True)
        finished[o] = g2

    features = []
    for o in order:
        geom = finished[o]
        if o in areas:
            a = areas[o]
            kind, name = a["kind"], a["name"]
            prov = a.get("rule") or a.get("reconstructed") or ""
            prov = f"area per map.toml ({prov}); outline reconstructed from Natural Earth 1:10m"
        else:
            kind = "context"
            name, why = CONTEXT[o]
            prov = f"off-map context: {why}; outline from Natural Earth 1:10m"
        label = areas[o].get("label", name) if o in areas else name
        props: dict[str, Any] = {"id": o, "name": name, "kind": kind, "label": label}
        if o in areas and "city" in areas[o]:
            props["city"] = areas[o]["city"]
            props["city_lon"] = areas[o]["city_lon"]
            props["city_lat"] = areas[o]["city_lat"]
        if o in LABEL_AT:
            lx, ly = LABEL_AT[o]
        else:
            lx, ly = label_point(geom, props.get("city_lon"), props.get("city_lat"))
        props["label_lon"] = round(lx, DECIMALS)
        props["label_lat"] = round(ly, DECIMALS)
        props["provenance"] = prov
        features.append({"type": "Feature", "id": o, "properties": props, "geometry": rounded(mapping(geom))})
    kind_rank = {"land": 0, "sea": 1, "context": 2}
    features.sort(key=lambda f: (kind_rank[f["properties"]["kind"]], f["id"]))
    return {
        "type": "FeatureCollection",
        "name": "medempires",
        "source": "Natural Earth 1:10m Admin 0 (public domain) via npm world-atlas@2.0.2 countries-10m.json",
        "frame": list(FRAME),
        "features": features,
    }


def main(argv: list[str] | None = None) -> int:
    """Build and write the GeoJSON (``--out PATH`` to write elsewhere); print its size."""
    return build_main("build.py", build, SOURCE, OUT, argv)


if __name__ == "__main__":
    sys.exit(main())
