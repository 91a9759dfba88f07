"""Build geodata/empires-revolt-300bce.geojson (Empire's Revolt, the Mediterranean of 300 BCE) from Natural Earth.

Usage:  npm ci --prefix tools/geodata  &&  python tools/geodata/build_empires_revolt.py [--out PATH]

The published map of *Empire's Revolt* is only in the post's pictures, which we do not have: every
area here is a **reconstruction** of the Mediterranean around 300 BCE (after Ipsus, 301 BCE), its
ids equal to the rules' map data (``medviz/rules/empires_revolt/data/map300.toml``).  Method (see
geodata/README.md, "Empire's Revolt"):
1. Decode the 1:50m countries TopoJSON of the pinned world-atlas, keep the land inside FRAME,
   drop islands below MIN_ISLAND_DEG2.
2. Land: every landmass is split by the Voronoi cells of the centres it holds (each area's city
   first, then towns and districts of c. 300 BCE); a landmass holding no centre joins the
   nearest one.  Context lands (Gaul, the Danube lands, Scythia, Mauretania, the Libyan desert, Arabia,
   Cappadocia, Crete, the Balearics) take part so the game's areas stop at plausible borders.
3. Water: the same with the sea zones' points; water holding no sea point stays undrawn.
4. Every city lies inside its area (a disc); one exact coverage, shared borders simplified as
   lines, long edges segmentized, outer rings clockwise (plotly), coordinates rounded.
Deterministic: same inputs, same bytes.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any, NamedTuple

import shapely
from shapely.geometry import Point, box, mapping

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import (
    Coord,
    build_main,
    decode_topojson,
    exact_coverage,
    finish_coverage,
    label_point,
    polygons_of,
    rounded,
    voronoi_assign,
)

ROOT = Path(__file__).resolve().parents[2]
SOURCE = Path(__file__).resolve().parent / "node_modules" / "world-atlas" / "countries-50m.json"
OUT = ROOT / "geodata" / "empires-revolt-300bce.geojson"

FRAME = (-10.0, 29.5, 38.5, 46.5)  # lon_min, lat_min, lon_max, lat_max
MIN_ISLAND_DEG2 = 0.004  # islands smaller than ~35 km² are left to the sea
SIMPLIFY_DEG = 0.03
SEGMENT_DEG = 0.5
DECIMALS = 4
SLIVER_DEG2 = 1e-4
CITY_DISC_DEG = 0.04
LAGOON_DEG2 = 0.1
ENVELOPE = (-30.0, 10.0, 60.0, 70.0)


class Area(NamedTuple):
    """An area: its kind, name, centres (the first is its city where it has one), the city, what the centres are."""

    kind: str  # "land" | "sea" | "context"
    name: str
    seeds: list[Coord]
    city: str
    note: str


#: The game's areas and the context around them (reconstructed: the centres say why each area is drawn so).
AREAS: dict[str, Area] = {
    # -- Rome and Italy -----------------------------------------------------------------------
    "latium": Area("land", "Latium", [(12.48, 41.89), (13.3, 41.6)], "Rome", "Rome; the Volscian hills"),
    "etruria": Area("land", "Etruria", [(11.25, 43.3), (11.88, 43.46), (10.9, 42.8), (12.6, 43.0)],
                    "", "Faesulae, Arretium, Vulci, Perusia"),
    "campania": Area("land", "Campania", [(14.25, 41.08), (14.25, 40.85), (14.8, 41.5), (14.2, 42.0)],
                     "Capua", "Capua, Neapolis, Beneventum, the Samnite hills"),
    "magna_graecia": Area("land", "Magna Graecia", [(17.24, 40.47), (16.3, 39.3), (15.9, 38.3), (16.6, 41.1),
                                                   (15.8, 40.4)],
                          "Tarentum", "Tarentum, Croton, Rhegium, Apulia, Lucania"),
    "cisalpine_gaul": Area("land", "Cisalpine Gaul", [(10.0, 45.0), (11.3, 44.5), (8.5, 45.3), (12.2, 45.5),
                                                      (8.8, 44.4)],
                           "", "Placentia, Felsina, the Insubres, the Veneti, Liguria"),
    # -- Sicily, Sardinia, Africa, Iberia ----------------------------------------------------
    "syracuse": Area("land", "Syracuse", [(15.29, 37.08), (15.28, 37.85), (14.6, 37.4)],
                     "Syracuse", "Syracuse, Tauromenium, Gela"),
    "sicily_west": Area("land", "Western Sicily", [(12.44, 37.8), (13.36, 38.12),
                                                                           (13.4, 37.4)],
                        "Lilybaeum", "Lilybaeum, Panormus, Selinus"),
    "sardinia": Area("land", "Sardinia", [(9.11, 39.22), (9.0, 40.3), (9.1, 42.1)], "",
                     "Carales, Tharros, Alalia"),
    "carthage": Area("land", "Carthage", [(10.32, 36.85), (10.0, 35.5), (9.5, 34.0), (13.2, 32.9),
                                                    (11.0, 33.6)],
                     "Carthage", "Carthage, Hadrumetum, Thapsus, the emporia of the Syrtis"),
    "numidia": Area("land", "Numidia", [(6.61, 36.37), (3.5, 35.8), (0.5, 35.5), (5.5, 34.5)], "",
                    "Cirta, Icosium, the Massyli and Masaesyli"),
    "iberia": Area("land", "Iberia", [(-6.29, 36.53), (-3.7, 40.4), (-1.0, 38.0), (-5.0, 38.0),
                                               (0.5, 41.3), (-4.5, 42.0), (-8.0, 39.5)],
                   "Gades", "Gades, Malaca, Mastia, the silver of the Baetis and Castulo"),
    # -- the Balkans and Greece --------------------------------------------------------------
    "illyria": Area("land", "Illyria", [(19.51, 42.07), (17.5, 43.5), (15.8, 44.5), (20.3, 41.3), (18.8, 44.3)],
                    "", "Scodra, the Ardiaei, the Delmatae, the Liburnian coast"),
    "epirus": Area("land", "Epirus", [(20.99, 39.16), (20.5, 39.7), (21.4, 38.6)], "",
                   "Ambracia, Dodona, the Aetolian League"),
    "macedon": Area("land", "Macedon", [(22.52, 40.76), (21.5, 41.3), (23.85, 40.82), (22.0, 40.2)], "Pella",
                    "Pella, Lyncestis, Amphipolis, Elimeia"),
    "greece": Area("land", "Greece", [(22.88, 37.91), (23.73, 37.98), (22.3, 37.4), (22.4, 39.4), (23.0, 38.6)],
                   "Corinth", "Corinth, Athens, the Peloponnese, Thessaly, Boeotia"),
    "thrace": Area("land", "Thrace", [(26.74, 40.55), (25.5, 41.8), (27.5, 42.5), (24.8, 42.5), (28.98, 41.01)],
                   "Lysimachia", "Lysimachia, Cabyle, Seuthopolis, Byzantium"),
    "asia_minor": Area("land", "Asia Minor", [(27.34, 37.94), (28.04, 38.48), (30.0, 39.5), (32.5, 39.0),
                                                      (29.0, 40.5), (33.0, 41.5), (30.5, 37.2)],
                       "Ephesus", "Ephesus, Sardis, Phrygia, Bithynia, Paphlagonia, Pisidia"),
    "rhodes": Area("land", "Rhodes", [(28.22, 36.44)], "Rhodes", "the island city of Rhodes"),
    # -- the East ---------------------------------------------------------------------------
    "syria": Area("land", "Syria", [(36.16, 36.2), (36.6, 35.2), (37.8, 36.2),
                                                          (34.9, 36.9), (33.6, 37.3)],
                  "Antioch", "Antioch, Apamea, Beroea, Tarsus, Seleucia on the Calycadnus"),
    "phoenicia": Area("land", "Phoenicia", [(35.2, 33.27), (35.65, 34.1), (35.22, 31.78),
                                                            (36.3, 33.5), (34.8, 31.0)],
                      "Tyre", "Tyre, Byblos, Jerusalem, Damascus, Gaza"),
    "egypt": Area("land", "Egypt", [(29.92, 31.2), (31.25, 29.85), (30.5, 30.5), (32.5, 30.4), (33.8, 29.8), (27.24, 31.35)],
                  "Alexandria", "Alexandria, Memphis, the Delta, Pelusium, Sinai, Paraetonium"),
    "cyrenaica": Area("land", "Cyrenaica", [(21.86, 32.82), (20.07, 32.1), (23.9, 32.1), (25.1, 31.6)], "Cyrene",
                      "Cyrene, Euesperides, Barca, Marmarica"),
    "cyprus": Area("land", "Cyprus", [(33.9, 35.18), (32.9, 34.8)], "", "Salamis, Paphos"),
    # -- sea zones --------------------------------------------------------------------------
    "mare_hispanum": Area("sea", "Iberian Sea", [(-2.5, 36.2), (2.5, 39.5), (4.5, 42.2), (6.5, 38.2)], "",
                          "Alboran and Balearic Seas, the Gulf of Lion"),
    "tyrrhenian": Area("sea", "Tyrrhenian Sea", [(11.5, 40.0), (10.5, 42.8), (9.0, 43.8), (13.5, 39.0)], "",
                       "the Tyrrhenian and Ligurian Seas"),
    "mare_africum": Area("sea", "African Sea", [(11.5, 36.6), (12.5, 34.5), (14.5, 35.5)], "",
                         "the Strait of Sicily and the Gulf of Gabes"),
    "adriatic": Area("sea", "Adriatic Sea", [(15.5, 43.0), (13.0, 44.8), (18.5, 41.5)], "", "the Adriatic"),
    "ionian": Area("sea", "Ionian Sea", [(18.5, 37.0), (17.5, 39.5), (19.0, 33.8), (18.5, 32.0), (20.5, 37.5), (16.5, 37.5)], "",
                   "the Ionian Sea and the Gulf of Syrtis"),
    "aegean": Area("sea", "Aegean Sea", [(25.0, 39.0), (25.5, 37.0), (24.5, 36.6), (28.0, 40.7)], "",
                   "the Aegean, the Cretan Sea and the Propontis"),
    "levantine": Area("sea", "Levantine Sea", [(33.0, 33.5), (30.5, 35.0), (35.0, 36.4), (26.5, 33.5), (23.5, 33.8)], "",
                      "the Levantine and Libyan Seas"),
    # -- context: drawn, not played ---------------------------------------------------------
    "gaul": Area("context", "Gaul and the Alps", [(2.0, 45.5), (0.0, 44.0), (4.7, 44.2), (6.8, 45.9),
                                                  (3.0, 43.2), (9.5, 46.6), (11.5, 46.8)], "",
                 "Gaul, the Alps, Raetia"),
    "danube": Area("context", "The Danube lands", [(14.5, 46.4), (17.0, 46.0), (20.0, 45.5), (24.0, 44.5),
                                                  (27.0, 45.5), (21.8, 43.6)], "",
                   "Noricum, Pannonia, the Getae, the Triballi"),
    "scythia": Area("context", "Scythia", [(33.0, 45.8), (37.0, 45.5), (30.0, 46.4), (34.2, 45.0)], "",
                    "the Scythian steppe and the Crimea"),
    "mauretania": Area("context", "Mauretania", [(-5.5, 34.5), (-3.0, 33.5), (-7.5, 31.5)], "",
                       "the Mauri west of the Mulucha"),
    "libyan_desert": Area("context", "The Libyan desert", [(12.0, 30.0), (17.0, 30.0), (22.0, 29.7),
                                                           (27.5, 29.0), (9.0, 30.5), (4.0, 31.5)], "",
                          "the Garamantes and the desert south of the Syrtis"),
    "arabia": Area("context", "Arabia", [(37.5, 31.0), (38.3, 33.5), (35.8, 29.8)], "", "the Nabataeans"),
    "cappadocia": Area("context", "Cappadocia and Pontus", [(36.0, 39.5), (37.5, 40.5), (35.5, 41.5),
                                                            (37.2, 38.2)], "",
                       "Cappadocia, Pontus, Commagene"),
    "crete": Area("context", "Crete", [(24.9, 35.2)], "", "Crete, outside the game"),
    "baleares": Area("context", "The Balearic Islands", [(2.9, 39.6), (1.4, 38.98), (4.1, 39.95)], "",
                     "the Balearics, outside the game"),
    "oceanus": Area("context", "Ocean", [(-9.0, 36.0), (-9.5, 44.0), (-5.0, 45.5), (-8.0, 33.0)], "",
                    "the Atlantic, outside the game"),
    "pontus_euxinus": Area("context", "Black Sea", [(31.0, 43.3), (34.0, 42.5), (29.5, 45.0)], "",
                           "the Black Sea, outside the game"),
}


def _is_water(a: str) -> bool:
    return AREAS[a].kind == "sea" or a in ("oceanus", "pontus_euxinus")


def _split(region: Any, names: list[str]) -> dict[str, list[Any]]:
    """Split each connected part of ``region`` by the Voronoi cells of the named areas' centres it holds;
    a part holding none joins the nearest centre."""
    out: dict[str, list[Any]] = defaultdict(list)
    pts = [(Point(c), a) for a in sorted(names) for c in AREAS[a].seeds]
    for part in polygons_of(region):
        inside: dict[str, list[Coord]] = defaultdict(list)
        for p, a in pts:
            if part.covers(p):
                inside[a].append((p.x, p.y))
        if inside:
            for a, piece in voronoi_assign(part, dict(inside), ENVELOPE).items():
                out[a].append(piece)
        else:
            rp = part.point_on_surface()
            out[min(pts, key=lambda pa: (pa[0].distance(rp), pa[1]))[1]].append(part)
    return out


def build() -> dict[str, Any]:
    """Compute every feature; return the GeoJSON FeatureCollection as a dict."""
    topo_names = {g["properties"]["name"] for g in json.loads(SOURCE.read_text(encoding="utf-8"))
                  ["objects"]["countries"]["geometries"] if "name" in g.get("properties", {})}
    countries = decode_topojson(SOURCE, topo_names)
    frame = box(*FRAME)
    land = shapely.make_valid(shapely.unary_union([shapely.intersection(g, frame) for _, g in sorted(countries.items())]))
    land = shapely.unary_union([p for p in polygons_of(land) if p.area >= MIN_ISLAND_DEG2])
    water = shapely.make_valid(shapely.difference(frame, land))
    land_names = [a for a in AREAS if not _is_water(a)]
    water_names = [a for a in AREAS if _is_water(a)]
    owners: dict[str, Any] = {a: shapely.unary_union(v) for a, v in _split(land, land_names).items()}
    wet: dict[str, list[Any]] = defaultdict(list)
    pts = [(Point(c), a) for a in sorted(water_names) for c in AREAS[a].seeds]
    for part in polygons_of(water):
        inside: dict[str, list[Coord]] = defaultdict(list)
        for p, a in pts:
            if part.covers(p):
                inside[a].append((p.x, p.y))
        if inside:
            for a, piece in voronoi_assign(part, dict(inside), ENVELOPE).items():
                wet[a].append(piece)
        elif part.area < LAGOON_DEG2:  # an enclosed lagoon joins the land around it
            near = max(sorted(owners), key=lambda k: shapely.intersection(part.boundary, owners[k].boundary).length)
            owners[near] = shapely.unary_union([owners[near], part])
    for a, pieces in sorted(wet.items()):  # a sea cut in two by land keeps the pieces holding its points
        parts = polygons_of(shapely.make_valid(shapely.unary_union(pieces)))
        owners[a] = shapely.unary_union([p for p in parts if any(p.covers(Point(c)) for c in AREAS[a].seeds)]
                                        or parts)
    for a in sorted(AREAS):  # every city stands inside its area
        if not AREAS[a].city:
            continue
        disc = Point(AREAS[a].seeds[0]).buffer(CITY_DISC_DEG, quad_segs=4)
        for other in sorted(owners):
            if other != a:
                owners[other] = shapely.make_valid(shapely.difference(owners[other], disc))
        owners[a] = shapely.make_valid(shapely.union(owners[a], disc))
    dissolved = exact_coverage(owners, [shapely.boundary(frame)], SLIVER_DEG2)
    finished = finish_coverage(dissolved, SIMPLIFY_DEG, SEGMENT_DEG, DECIMALS)
    features: list[dict[str, Any]] = []
    for a in sorted(finished):
        ar, geom = AREAS[a], finished[a]
        props: dict[str, Any] = {"id": a, "name": ar.name, "kind": ar.kind}
        city: Coord | None = None
        if ar.city:
            city = ar.seeds[0]
            props["city"] = ar.city
            props["city_lon"], props["city_lat"] = city
        lx, ly = label_point(geom, city[0] if city else None, city[1] if city else None)
        props["label"] = ar.name
        props["label_lon"] = round(lx, DECIMALS)
        props["label_lat"] = round(ly, DECIMALS)
        what = {"land": "land region", "sea": "sea zone", "context": "context (not played)"}[ar.kind]
        props["provenance"] = (f"{what} of Empire's Revolt's 300 BCE map; reconstructed (the post's map picture "
                               f"is not available): Voronoi centres at {ar.note}; outline from Natural Earth 1:50m")
        features.append({"type": "Feature", "id": a, "properties": props, "geometry": rounded(mapping(geom), DECIMALS)})
    kind_rank = {"land": 0, "sea": 1, "context": 2}
    features.sort(key=lambda f: (kind_rank[f["properties"]["kind"]], f["id"]))
    return {
        "type": "FeatureCollection",
        "name": "empires-revolt-300bce",
        "source": "Natural Earth 1:50m Admin 0 (public domain) via npm world-atlas@2.0.2 countries-50m.json",
        "frame": list(FRAME),
        "features": features,
    }


def main(argv: list[str] | None = None) -> int:
    """Build and write the GeoJSON (``--out PATH`` to write elsewhere); print its size."""
    return build_main("build_empires_revolt.py", build, SOURCE, OUT, argv)


if __name__ == "__main__":
    sys.exit(main())
