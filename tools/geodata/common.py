"""Helpers shared by the map builders (build.py, build_medieval.py): TopoJSON decoding, Voronoi
splitting, labels, rounding and atomic writes.  Deterministic: same inputs, same outputs."""

from __future__ import annotations

import json
import os
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

import shapely
from shapely.geometry import MultiPolygon, Point, Polygon, box
from shapely.ops import polylabel

Coord = tuple[float, float]


def decode_topojson(path: Path, names: set[str]) -> dict[str, Any]:
    """Return {country name: shapely geometry} for the named countries of a world-atlas file."""
    topo = json.loads(path.read_text(encoding="utf-8"))
    (sx, sy), (tx, ty) = topo["transform"]["scale"], topo["transform"]["translate"]
    cache: dict[int, list[Coord]] = {}

    def arc(i: int) -> list[Coord]:
        j = i if i >= 0 else ~i
        if j not in cache:
            x = y = 0
            pts: list[Coord] = []
            for dx, dy in topo["arcs"][j]:
                x += dx
                y += dy
                pts.append((x * sx + tx, y * sy + ty))
            cache[j] = pts
        pts = cache[j]
        return pts if i >= 0 else pts[::-1]

    def ring(indices: list[int]) -> list[Coord]:
        out: list[Coord] = []
        for k, i in enumerate(indices):
            pts = arc(i)
            out.extend(pts if k == 0 else pts[1:])
        return out

    def polygon(rings: list[list[int]]) -> Polygon | None:
        coords = [ring(r) for r in rings]
        coords = [c for c in coords if len(set(c)) >= 3 and len(c) >= 4]  # drop collapsed rings
        if not coords:
            return None
        return Polygon(coords[0], coords[1:])

    out: dict[str, Any] = {}
    for g in topo["objects"]["countries"]["geometries"]:
        name = g.get("properties", {}).get("name")
        if name not in names:
            continue
        polys = [g["arcs"]] if g["type"] == "Polygon" else g["arcs"] if g["type"] == "MultiPolygon" else []
        parts = [p for p in (polygon(r) for r in polys) if p is not None]
        out[name] = shapely.make_valid(shapely.unary_union([shapely.make_valid(p) for p in parts]))
    return out


def polygons_of(geom: Any) -> list[Polygon]:
    """The polygon parts of any geometry (collections from make_valid included)."""
    if geom is None or geom.is_empty:
        return []
    if isinstance(geom, Polygon):
        return [geom]
    if hasattr(geom, "geoms"):
        return [p for g in geom.geoms for p in polygons_of(g)]
    return []


def as_multi(parts: list[Polygon]) -> MultiPolygon:
    """A MultiPolygon of the parts, largest first, for stable output."""
    return MultiPolygon(sorted(parts, key=lambda p: (-round(p.area, 9), p.bounds)))


def voronoi_assign(region: Any, seeds: dict[str, list[Coord]],
                   envelope: tuple[float, float, float, float] = (-30.0, 20.0, 40.0, 60.0)) -> dict[str, Any]:
    """Split `region` among areas by the Voronoi cells of their seed points (cells reach `envelope`)."""
    if len(seeds) == 1:
        return {next(iter(seeds)): region}
    pts, owners, seen = [], [], set()
    for area, coords in seeds.items():
        for c in coords:
            if c in seen:
                continue
            seen.add(c)
            pts.append(Point(c))
            owners.append(area)
    env = box(*envelope)
    cells = shapely.voronoi_polygons(shapely.MultiPoint(pts), extend_to=env, ordered=True)
    out: dict[str, list[Any]] = defaultdict(list)
    for owner, cell in zip(owners, cells.geoms):
        piece = shapely.intersection(region, cell)
        if not piece.is_empty:
            out[owner].append(piece)
    return {a: shapely.unary_union(v) for a, v in out.items()}


def label_point(geom: Any, city_lon: float | None, city_lat: float | None) -> Coord:
    """A label spot well inside the largest part, kept clear of the city's dot and name."""
    big = max(polygons_of(geom), key=lambda p: p.area)
    room = big
    if city_lon is not None and city_lat is not None:
        clear = shapely.difference(big, Point(city_lon, city_lat).buffer(0.45))
        parts = polygons_of(clear)
        if parts and max(p.area for p in parts) > 0.25 * big.area:
            room = max(parts, key=lambda p: p.area)
    lp = polylabel(room, tolerance=0.01)
    return lp.x, lp.y


def polygons_lines(noded: Any) -> list[Any]:
    """The line parts of a noded union, as a flat list."""
    if hasattr(noded, "geoms"):
        return [g for g in noded.geoms]
    return [noded]


def rounded(obj: Any, decimals: int = 3) -> Any:
    """Round every coordinate of a GeoJSON geometry mapping to `decimals` places."""
    if isinstance(obj, dict):
        return {k: rounded(v, decimals) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        if obj and isinstance(obj[0], float | int) and len(obj) == 2:
            return [round(float(obj[0]), decimals), round(float(obj[1]), decimals)]
        return [rounded(v, decimals) for v in obj]
    return obj


def write_atomic(path: Path, text: str) -> None:
    """Write text to path via a temporary file and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)
    os.replace(tmp, path)


def exact_coverage(owners: dict[str, Any], extra_lines: list[Any] | None = None,
                   sliver_deg2: float = 1e-4) -> dict[str, Any]:
    """Re-draw overlapping-free `owners` as one exact coverage: node every boundary, polygonize,
    give each face to the owner covering it (the smallest, if several); faces nobody covers join
    the neighbour sharing most border when smaller than `sliver_deg2`, else stay undrawn."""
    ids = sorted(owners)
    geoms = [shapely.make_valid(owners[i]) for i in ids]
    lines = [shapely.boundary(g) for g in geoms] + list(extra_lines or [])
    noded = shapely.unary_union(lines)
    faces = list(shapely.polygonize(polygons_lines(noded)).geoms)
    tree = shapely.STRtree(geoms)
    owner: list[str | None] = []
    for f in faces:
        rp = f.point_on_surface()
        hits = [int(k) for k in tree.query(rp) if geoms[int(k)].covers(rp)]
        owner.append(ids[min(hits, key=lambda k: (geoms[k].area, k))] if hits else None)
    face_tree = shapely.STRtree(faces)
    for k, f in enumerate(faces):
        if owner[k] is not None or f.area >= sliver_deg2:
            continue
        best: dict[str, float] = defaultdict(float)
        for hit in face_tree.query(f, predicate="intersects"):
            m = int(hit)
            neighbour = owner[m]
            if m != k and neighbour is not None:
                best[neighbour] += shapely.intersection(f.boundary, faces[m].boundary).length
        if best:
            owner[k] = max(sorted(best), key=lambda a: best[a])
    by_owner: dict[str, list[Polygon]] = defaultdict(list)
    for f, o in zip(faces, owner):
        if o is not None:
            by_owner[o].append(f)
    return {o: shapely.unary_union(v) for o, v in sorted(by_owner.items())}


def finish_coverage(dissolved: dict[str, Any], simplify_deg: float, segment_deg: float,
                    decimals: int) -> dict[str, MultiPolygon]:
    """Simplify the shared borders of a coverage as lines, segmentize long edges, snap to
    `decimals` places and wind outer rings clockwise (plotly's convention)."""
    order = sorted(dissolved)
    geoms = [as_multi(polygons_of(dissolved[o])) for o in order]
    simplified = shapely.coverage_simplify(geoms, simplify_deg, simplify_boundary=False)
    simplified = shapely.segmentize(simplified, segment_deg)
    simplified = shapely.set_precision(simplified, 10 ** -decimals, mode="pointwise")
    finished: dict[str, MultiPolygon] = {}
    for o, g in zip(order, simplified):
        parts = [p for q in polygons_of(g) for p in polygons_of(shapely.make_valid(q)) if p.area > 0]
        if parts:
            finished[o] = shapely.orient_polygons(as_multi(parts), exterior_cw=True)
    return finished


def build_main(name: str, build: Any, source: Path, default_out: Path, argv: list[str] | None) -> int:
    """The command line of a map builder: build, write atomically (``--out PATH`` elsewhere), print the size."""
    import sys

    args = sys.argv[1:] if argv is None else argv
    out = Path(args[args.index("--out") + 1]).resolve() if "--out" in args else default_out
    if not source.exists():
        print(f"{name}: {source} missing; run `npm ci --prefix tools/geodata` first", file=sys.stderr)
        return 2
    fc = build()
    text = json.dumps(fc, ensure_ascii=False, separators=(",", ":"), sort_keys=False) + "\n"
    write_atomic(out, text)
    print(f"wrote {out}: {len(fc['features'])} features, {len(text.encode()) / 1024:.1f} KB")
    return 0
