"""Check a game map's geodata against itself and against the engine's map (map.toml).

Each check returns a list of problems (empty when sound), so a test can report them all.
Two areas *touch* when their borders share a line at least ``MIN_SHARED_DEG`` long (about 2 km);
meeting at a point does not count.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import shapely
from shapely.geometry import Point

__all__ = [
    "MIN_SHARED_DEG", "TILING_TOLERANCE_DEG2", "touching_pairs", "geometry_problems",
    "engine_problems", "winding_problems", "pairs_by_area",
]

#: Shortest shared border that makes two areas neighbours (degrees, ~2 km).
MIN_SHARED_DEG = 0.02
#: Largest gap or overlap area accepted between land areas (square degrees, ~1 km²).
TILING_TOLERANCE_DEG2 = 1e-4


def _rows(frame: Any) -> dict[str, dict[str, Any]]:
    return {str(r["id"]): dict(r) for _, r in frame.iterrows()}


def touching_pairs(frame: Any, kinds: tuple[str, str], min_shared: float = MIN_SHARED_DEG) -> set[tuple[str, str]]:
    """Pairs (a, b) of features of the given kinds whose borders share a line of ``min_shared``+."""
    rows = _rows(frame)
    ids = sorted(rows)
    geoms = [rows[i]["geometry"] for i in ids]
    tree = shapely.STRtree(geoms)
    out: set[tuple[str, str]] = set()
    for k, i in enumerate(ids):
        for m in tree.query(geoms[k], predicate="intersects"):
            j = ids[int(m)]
            if j <= i:
                continue
            ki, kj = rows[i]["kind"], rows[j]["kind"]
            if (ki, kj) != kinds and (kj, ki) != kinds:
                continue
            shared = shapely.intersection(geoms[k].boundary, geoms[int(m)].boundary).length
            if shared >= min_shared:
                a, b = (i, j) if (ki, kj) == kinds else (j, i)
                out.add((a, b))
    return out


def winding_problems(frame: Any) -> list[str]:
    """Plotly needs outer rings clockwise and holes counter-clockwise."""
    p = []
    for i, r in _rows(frame).items():
        for k, poly in enumerate(getattr(r["geometry"], "geoms", [r["geometry"]])):
            if poly.exterior.is_ccw:
                p.append(f"{i}: outer ring of part {k} is counter-clockwise (plotly fills the world)")
            for hole in poly.interiors:
                if not hole.is_ccw:
                    p.append(f"{i}: a hole of part {k} is clockwise")
    return p


def geometry_problems(frame: Any, frame_box: Iterable[float] | None = None) -> list[str]:
    """Validity, overlaps, tiling of the frame, label and city points inside their polygons."""
    p: list[str] = []
    rows = _rows(frame)
    for i, r in rows.items():
        g = r["geometry"]
        if g is None or g.is_empty:
            p.append(f"{i}: empty geometry")
            continue
        if not g.is_valid:
            p.append(f"{i}: invalid geometry ({shapely.is_valid_reason(g)})")
        if r["kind"] not in ("land", "sea", "context"):
            p.append(f"{i}: kind {r['kind']!r} is not land, sea or context")
        lab = Point(float(r["label_lon"]), float(r["label_lat"]))
        if not g.contains(lab):
            p.append(f"{i}: label point {lab.x, lab.y} is outside the area")
        if isinstance(r.get("city"), str) and r.get("city"):
            c = Point(float(r["city_lon"]), float(r["city_lat"]))
            if not g.contains(c):
                p.append(f"{i}: city {r['city']} {c.x, c.y} is outside the area")
    ids = sorted(rows)
    geoms = [rows[i]["geometry"] for i in ids]
    tree = shapely.STRtree(geoms)
    for k, i in enumerate(ids):
        for m in tree.query(geoms[k], predicate="intersects"):
            j = ids[int(m)]
            if j <= i:
                continue
            overlap = shapely.intersection(geoms[k], geoms[int(m)]).area
            if overlap > TILING_TOLERANCE_DEG2:
                p.append(f"{i} and {j} overlap by {overlap:.5f} deg²")
    if frame_box is not None:
        x0, y0, x1, y1 = frame_box
        frame_poly = shapely.box(x0, y0, x1, y1)
        union = shapely.unary_union(geoms)
        gap = frame_poly.difference(union).area
        if gap > TILING_TOLERANCE_DEG2:
            p.append(f"areas leave {gap:.5f} deg² of the frame uncovered")
        outside = union.difference(frame_poly).area
        if outside > TILING_TOLERANCE_DEG2:
            p.append(f"areas reach {outside:.5f} deg² outside the frame")
    return p


def engine_problems(frame: Any, game_map: Any, min_shared: float = MIN_SHARED_DEG) -> list[str]:
    """Disagreements between the geodata and the engine's map (ids, adjacency, coasts)."""
    p: list[str] = []
    rows = _rows(frame)
    engine: Mapping[str, Any] = game_map.areas
    for i, r in rows.items():
        if r["kind"] == "context":
            if i in engine:
                p.append(f"{i}: drawn as context but is an engine area")
            continue
        if i not in engine:
            p.append(f"{i}: feature has no engine area")
        elif engine[i].kind != r["kind"]:
            p.append(f"{i}: kind {r['kind']} in geodata, {engine[i].kind} in map.toml")
    for i in sorted(set(engine) - set(rows)):
        p.append(f"{i}: engine area has no feature")
    straits = {frozenset(s.between) for s in game_map.straits}
    land_geo = {frozenset(x) for x in touching_pairs(frame, ("land", "land"), min_shared)}
    land_eng = {frozenset((a.id, n)) for a in engine.values() if a.kind == "land" for n in a.neighbours}
    for pair in sorted(land_eng - land_geo, key=sorted):
        p.append(f"{' / '.join(sorted(pair))}: neighbours in map.toml but the polygons do not touch")
    for pair in sorted(land_geo - land_eng, key=sorted):
        if pair in straits:
            continue
        p.append(f"{' / '.join(sorted(pair))}: polygons touch but map.toml does not make them neighbours")
    for pair in sorted(straits, key=sorted):
        if pair in land_geo:
            p.append(f"strait {' / '.join(sorted(pair))}: the two land areas touch by land")
    coast_geo = touching_pairs(frame, ("land", "sea"), min_shared)
    coast_eng = {(a.id, s) for a in engine.values() if a.kind == "land" for s in a.coasts}
    for land, sea in sorted(coast_eng - coast_geo):
        p.append(f"{land}: map.toml says it borders {sea}, but the polygons do not touch")
    for land, sea in sorted(coast_geo - coast_eng):
        p.append(f"{land}: touches {sea} on the map, but map.toml does not list that coast")
    sea_geo = {frozenset(x) for x in touching_pairs(frame, ("sea", "sea"), min_shared)}
    sea_eng = {frozenset((a.id, n)) for a in engine.values() if a.kind == "sea" for n in a.neighbours}
    for pair in sorted(sea_eng ^ sea_geo, key=sorted):
        where = "map.toml only" if pair in sea_eng else "geodata only"
        p.append(f"sea areas {' / '.join(sorted(pair))}: adjacent in {where}")
    return p


def pairs_by_area(pairs: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    """Turn symmetric pairs into sorted neighbour lists per area."""
    out: dict[str, set[str]] = {}
    for a, b in pairs:
        out.setdefault(a, set()).add(b)
        out.setdefault(b, set()).add(a)
    return {k: sorted(v) for k, v in sorted(out.items())}


