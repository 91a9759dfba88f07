"""The Mediterranean Empires map as data: areas, cities, ports, coasts, adjacency and straits.

The published map is not available, so ``data/map.toml`` is a reconstruction (every entry says
why); the constraints the rules text does give are checked here (rulings A): the 11.1 worked
example (a fleet south-west of Sardinia reaches Provence with Arborea on the way for 3 OPs),
Cagliari's and Taranto's coasts (11.1), and the straits crossed only by fleet (10.1).
A user override file of the same shape replaces entries by id (``load_map(override=...)``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from medviz.engine.errors import DataError, UnknownReference
from medviz.rules.datafiles import MAX_OVERRIDE_BYTES, Field, check_provenance, load_toml, merge_by_id, table_problems
from medviz.rules.schema import Spec, build_checked, declared, file_fields, specs

__all__ = ["AREA_FIELDS", "Area", "GameMap", "MAP_TABLES", "STRAIT_FIELDS", "Strait", "MAP_FILE", "load_map",
           "validate_map", "sea_path_length"]

MAP_FILE = Path(__file__).resolve().parent / "data" / "map.toml"
KINDS = ("land", "sea")

_AREA_IDS = Field("texts", hi=64)


def _name_or_id(entry: Mapping[str, Any], spec: Spec) -> str:
    return str(entry.get(spec.key, entry["id"]))


def _city(entry: Mapping[str, Any], spec: Spec) -> str | None:
    return str(entry[spec.key]) if entry.get(spec.key) else None


def _city_point(entry: Mapping[str, Any], spec: Spec) -> tuple[float, float] | None:
    if "city_lon" in entry and "city_lat" in entry:
        return (float(entry["city_lon"]), float(entry["city_lat"]))
    return None

#: The 47 land areas of the game (rules 3.x and the gazetteer); their ids are fixed.
LAND_IDS = frozenset(
    "albi auvergne county_of_toulouse montpellier provence vienne guyenne navarre biscay old_castile "
    "new_castile granada murcia valencia lower_aragon upper_aragon urgell catalan_counties rossello "
    "majorca genoa corsica_north corsica_south olbia arborea caralis pisa tuscany milan brescia venice "
    "istria dalmatia ravenna ancona papal_states abruzzi naples apulia calabria sicily_west sicily_east "
    "malta tunis bougie tlemcen merinids".split()
)

#: The 11.1 worked example, as named sea areas (rulings A.1-A.3).
EXAMPLE_11_1 = {
    "start": "sea_sw_sardinia",  # south-west of Sardinia: borders Caralis and Bougie
    "majorca_sea": "balearic_sea",  # surrounds the Kingdom of Majorca
    "arborea_sea": "sardinian_sea",  # adjacent to Arborea
    "provence_sea": "gulf_of_lion",  # adjacent to Provence County
}


@dataclass(frozen=True)
class Area:
    """One land or sea area of the map."""

    id: str
    name: str = field(metadata=declared(Field("text"), "the area's name (default: its id)", absent=None,
                                        read=_name_or_id))
    kind: str = field(metadata=declared(Field("text", choices=KINDS), "land or sea", absent=""))
    city: str | None = field(default=None, metadata=declared(
        Field("text", empty=True), "its city, if it has one (5.2, 6.1, 11.1)", absent=None, read=_city))
    city_point: tuple[float, float] | None = field(default=None, metadata=declared(
        Field("number", -180, 180, why="a longitude"), "where the city is drawn (give both city_lon and city_lat)",
        key="city_lon", absent=None, read=_city_point,
        also={"city_lat": Field("number", -90, 90, why="a latitude")}))
    ports: frozenset[str] = field(default=frozenset(), metadata=declared(
        _AREA_IDS, "sea areas on whose coast the city lies (11.1)", absent=frozenset()))
    coasts: frozenset[str] = field(default=frozenset(), metadata=declared(
        _AREA_IDS, "land: the seas it borders; sea: the land areas it borders", absent=frozenset()))
    neighbours: frozenset[str] = field(default=frozenset(), metadata=declared(
        _AREA_IDS, "land: its neighbours by land; sea: the adjacent seas", absent=frozenset()))
    label: str | None = field(default=None, metadata=declared(
        Field("text"), "a shorter name where the map is crowded", absent=None))
    port_note: str | None = field(default=None, metadata=declared(
        Field("text"), "why its port touches the seas it does", absent=None))
    provenance: str = ""

    @property
    def has_city(self) -> bool:
        """True when the area has a city (5.2 limits, 6.1 income, 11.1 fleets)."""
        return self.city is not None


@dataclass(frozen=True)
class Strait:
    """Two land areas across water that land units cross only by fleet (10.1)."""

    id: str
    between: tuple[str, str] = field(metadata=declared(Field("texts", lo=2, hi=2), "the two land areas it joins",
                                                       absent=()))
    name: str = field(default="", metadata=declared(Field("text"), "the strait's name", absent=""))
    provenance: str = ""


@dataclass(frozen=True)
class GameMap:
    """The whole map: areas by id and the straits."""

    areas: Mapping[str, Area]
    straits: tuple[Strait, ...] = ()
    source: str = "map.toml"

    def area(self, area_id: str) -> Area:
        """The area with this id; an unknown id is an ``UnknownReference`` naming it."""
        try:
            return self.areas[area_id]
        except KeyError:
            raise UnknownReference(f"no area {area_id!r} on the map ({self.source})") from None

    def land_ids(self) -> list[str]:
        """Ids of the land areas, sorted."""
        return sorted(a.id for a in self.areas.values() if a.kind == "land")

    def sea_ids(self) -> list[str]:
        """Ids of the sea areas, sorted."""
        return sorted(a.id for a in self.areas.values() if a.kind == "sea")

    def are_neighbours(self, a: str, b: str) -> bool:
        """True when two areas are adjacent (land by land, or sea to sea); straits are not."""
        return b in self.area(a).neighbours

    def borders(self, land: str, sea: str) -> bool:
        """True when a land area has a coast on a sea area."""
        return sea in self.area(land).coasts

    def is_port(self, land: str, sea: str) -> bool:
        """True when the land area's city lies on the sea area's coast (11.1, rulings A.1)."""
        return sea in self.area(land).ports

    def strait_between(self, a: str, b: str) -> Strait | None:
        """The strait joining two land areas, if any (10.1)."""
        for s in self.straits:
            if set(s.between) == {a, b}:
                return s
        return None


#: What each field of a map entry may hold (shipped file and override files alike), from the classes.
AREA_FIELDS: Mapping[str, Field] = MappingProxyType(file_fields(Area))
STRAIT_FIELDS: Mapping[str, Field] = MappingProxyType(file_fields(Strait))
MAP_TABLES: Mapping[str, Mapping[str, Field]] = MappingProxyType({"area": AREA_FIELDS, "strait": STRAIT_FIELDS})


def _area_from(entry: Mapping[str, Any]) -> Area:
    prov = next((str(entry[k]) for k in ("rule", "reconstructed", "ruling", "source") if entry.get(k)), "")
    return build_checked(Area, entry, id=str(entry["id"]), provenance=prov)  # type: ignore[no-any-return]


#: The map's lists of area ids (each must be a list of ids before the classes are built).
_LIST_KEYS = tuple(spec.key for _name, spec in specs(Area) if spec.field.kind == "texts")


def _shape_problems(entries: Iterable[Mapping[str, Any]], where: str) -> list[str]:
    """Problems with field types that would stop building the dataclasses."""
    problems: list[str] = []
    for i, e in enumerate(entries):
        name = e.get("id", f"#{i}")
        if not isinstance(e.get("id"), str):
            problems.append(f"{where}: entry #{i} has no string 'id'")
        for key in _LIST_KEYS:
            v = e.get(key, [])
            if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                problems.append(f"{where}: area {name!r}: {key} must be a list of area ids")
        if e.get("city") and not all(isinstance(e.get(k), int | float) for k in ("city_lon", "city_lat")):
            problems.append(f"{where}: area {name!r}: city {e.get('city')!r} needs numeric city_lon and city_lat")
    return problems


def override_shape_problems(user: Mapping[str, Any], origin: str) -> list[str]:
    """Problems with the layout of a map override: only ``[[area]]`` and ``[[strait]]`` tables."""
    problems: list[str] = []
    for key, value in user.items():
        if key not in MAP_TABLES:
            problems.append(f"{origin}: unknown table {key!r} (a map override has [[area]] and [[strait]])")
        elif not isinstance(value, list) or not all(isinstance(e, dict) for e in value):
            problems.append(f"{origin}: {key!r} must be an array of tables [[{key}]]")
        else:
            for j, e in enumerate(value):
                if not isinstance(e.get("id"), str):
                    problems.append(f"{origin}: [[{key}]] entry #{j + 1} has no text 'id'")
            problems += table_problems(value, MAP_TABLES[key], f"{origin}: [[{key}]]")
    return problems


def load_map(override: str | Path | Mapping[str, Any] | None = None, *, origin: str | None = None) -> GameMap:
    """Load, merge (override file by id) and validate the map; any problem raises ``DataError``.

    ``override`` is a TOML file or its already parsed content (then ``origin`` names it in errors).
    """
    raw = load_toml(MAP_FILE)
    areas_raw: list[dict[str, Any]] = list(raw.get("area", []))
    straits_raw: list[dict[str, Any]] = list(raw.get("strait", []))
    source = str(MAP_FILE)
    problems: list[str] = []
    check_provenance(areas_raw, "map.toml [[area]]", problems)
    check_provenance(straits_raw, "map.toml [[strait]]", problems)
    problems += table_problems(areas_raw, AREA_FIELDS, "map.toml [[area]]")
    problems += table_problems(straits_raw, STRAIT_FIELDS, "map.toml [[strait]]")
    if override is not None:
        if isinstance(override, Mapping):
            user, where = dict(override), origin or "map override"
        else:
            user, where = load_toml(override, MAX_OVERRIDE_BYTES), origin or str(override)
        source = f"{MAP_FILE} + {where}"
        shape = override_shape_problems(user, where)
        if shape:
            raise DataError(shape, source=source)
        areas_raw = merge_by_id(areas_raw, list(user.get("area", [])), where)
        straits_raw = merge_by_id(straits_raw, list(user.get("strait", [])), where)
    problems += _shape_problems(areas_raw, "map")
    if problems:
        raise DataError(problems, source=source)
    areas = {e["id"]: _area_from(e) for e in areas_raw}
    straits = tuple(
        build_checked(Strait, s, id=str(s["id"]), provenance=str(s.get("rule") or s.get("reconstructed") or ""))
        for s in straits_raw
    )
    game_map = GameMap(areas=MappingProxyType(areas), straits=straits, source=source)
    problems = validate_map(game_map)
    if problems:
        raise DataError(problems, source=source)
    return game_map


def sea_path_length(game_map: GameMap, start: str, goal: str, via: Iterable[str] = ()) -> int | None:
    """Fewest sea-to-sea moves from ``start`` to ``goal`` passing ``via`` in order (None if none)."""
    total = 0
    stops = [start, *via, goal]
    for a, b in zip(stops, stops[1:]):
        seen = {a: 0}
        queue = deque([a])
        while queue:
            cur = queue.popleft()
            if cur == b:
                break
            for n in sorted(game_map.areas[cur].neighbours):
                if n in game_map.areas and game_map.areas[n].kind == "sea" and n not in seen:
                    seen[n] = seen[cur] + 1
                    queue.append(n)
        if b not in seen:
            return None
        total += seen[b]
    return total


def validate_map(game_map: GameMap) -> list[str]:
    """Every problem of the map at once (empty list when it is sound)."""
    p: list[str] = []
    areas = game_map.areas
    for a in areas.values():
        where = f"area {a.id!r}"
        if a.kind not in KINDS:
            p.append(f"{where}: kind must be one of {KINDS}, not {a.kind!r}")
            continue
        if not a.provenance:
            p.append(f"{where}: no provenance (rule or reconstructed)")
        for field_name in ("ports", "coasts", "neighbours"):
            for other in sorted(getattr(a, field_name)):
                if other not in areas:
                    p.append(f"{where}: {field_name} names unknown area {other!r}")
        for n in sorted(a.neighbours):
            b = areas.get(n)
            if b is None:
                continue
            if b.kind != a.kind:
                p.append(f"{where}: neighbour {n!r} is {b.kind}; neighbours join {a.kind} to {a.kind}")
            elif a.id not in b.neighbours:
                p.append(f"{where}: neighbour {n!r} does not list {a.id!r} back (adjacency is symmetric)")
        if a.id in a.neighbours:
            p.append(f"{where}: lists itself as a neighbour")
        for c in sorted(a.coasts):
            b = areas.get(c)
            if b is None:
                continue
            if b.kind == a.kind:
                p.append(f"{where}: coast {c!r} is {b.kind}; coasts join land and sea")
            elif a.id not in b.coasts:
                p.append(f"{where}: coast {c!r} does not list {a.id!r} in its coasts (coasts mirror)")
        if a.kind == "land":
            if not a.ports <= a.coasts:
                extra = ", ".join(sorted(a.ports - a.coasts))
                p.append(f"{where}: ports {extra} are not among its coasts")
            if a.ports and a.city is None:
                p.append(f"{where}: has ports but no city (ports are the city's coasts, 11.1)")
            if a.city is not None and a.city_point is None:
                p.append(f"{where}: city {a.city!r} has no city_lon/city_lat")
            if a.city_point is not None:
                lon, lat = a.city_point
                if not (-180 <= lon <= 180 and -90 <= lat <= 90):
                    p.append(f"{where}: city point ({lon}, {lat}) is not a longitude/latitude")
        elif a.ports or a.city:
            p.append(f"{where}: a sea area has no city or ports")
    missing = sorted(LAND_IDS - {a.id for a in areas.values() if a.kind == "land"})
    if missing:
        p.append(f"land areas missing from the map: {', '.join(missing)}")
    for s in game_map.straits:
        if len(s.between) != 2:
            p.append(f"strait {s.id!r}: between must name two land areas")
            continue
        first, second = s.between
        for x in (first, second):
            if x not in areas:
                p.append(f"strait {s.id!r}: unknown area {x!r}")
            elif areas[x].kind != "land":
                p.append(f"strait {s.id!r}: {x!r} is not a land area")
        if first in areas and second in areas[first].neighbours:
            p.append(f"strait {s.id!r}: {first!r} and {second!r} are also land neighbours (10.1: only by fleet)")
        if not s.provenance:
            p.append(f"strait {s.id!r}: no provenance")
    p += _rulings_problems(game_map)
    return p


def _rulings_problems(game_map: GameMap) -> list[str]:
    """The map facts the rules text gives (rulings A), as checks."""
    p: list[str] = []
    areas = game_map.areas
    need = [*EXAMPLE_11_1.values(), "caralis", "bougie", "arborea", "provence", "majorca", "apulia",
            "papal_states", "calabria", "sicily_east", "corsica_south", "olbia"]
    absent = [x for x in need if x not in areas]
    if absent:
        return [f"rulings A: areas needed by the rules' examples are missing: {', '.join(absent)}"]
    ex = EXAMPLE_11_1
    start = areas[ex["start"]]
    if not {"caralis", "bougie"} <= start.coasts:
        p.append(f"rule 11.1 example: {start.id!r} (south-west of Sardinia) must border caralis and bougie")
    if ex["start"] in areas["caralis"].ports:
        p.append(f"rule 11.1 example: Cagliari must not lie on {start.id!r}")
    if not areas["caralis"].ports:
        p.append("rule 11.1 example: Cagliari must lie on a sea south-east of Sardinia (caralis needs a port)")
    for land, sea_key in (("majorca", "majorca_sea"), ("arborea", "arborea_sea"), ("provence", "provence_sea")):
        if land not in areas[ex[sea_key]].coasts:
            p.append(f"rule 11.1 example: {ex[sea_key]!r} must border {land!r}")
    for a, b in ((ex["start"], ex["majorca_sea"]), (ex["majorca_sea"], ex["arborea_sea"]),
                 (ex["arborea_sea"], ex["provence_sea"])):
        if b not in areas[a].neighbours:
            p.append(f"rule 11.1 example: sea areas {a!r} and {b!r} must be adjacent")
    route = sea_path_length(game_map, ex["start"], ex["provence_sea"], via=(ex["majorca_sea"], ex["arborea_sea"]))
    if route != 3:
        p.append(f"rule 11.1 example: the move south-west of Sardinia -> Majorca -> Arborea -> Provence "
                 f"must cost 3 OPs, not {route}")
    apulia = areas["apulia"]
    if "ionian_sea" not in apulia.ports or "adriatic_south" in apulia.ports:
        p.append("rule 11.1: Taranto lies on the sea south of it (ionian_sea), not the Adriatic to its north-east")
    if areas["papal_states"].city is None:
        p.append("rule 12.0: Rome must be a city of the Papal States")
    for a, b, rule in (("calabria", "sicily_east", "10.1 Messina"), ("corsica_south", "olbia", "10.1 Bonifacio")):
        if game_map.strait_between(a, b) is None:
            p.append(f"rule {rule}: a strait between {a!r} and {b!r} is missing")
    return p
