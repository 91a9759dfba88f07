"""The reconstructed 300 BCE map of Empire's Revolt (``data/map300.toml``), validated on load; a user file may override.

An override file has the same tables (``[[area]]``, ``[[crossing]]``, ``[[strait]]``): entries with an
existing ``id`` replace fields, new ids are added. Every problem is reported at once in one ``DataError``:
unknown neighbours, one-way borders, a sea listed as a land neighbour, capitals the rules do not know.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar

from medviz.engine.errors import DataError
from medviz.rules.datafiles import (
    MAX_OVERRIDE_BYTES,
    Field,
    load_toml,
    patched_tables,
    tables_problems,
)
from medviz.rules.empires_revolt.data import RESOURCES, Rules

MAP_DATA = Path(__file__).parent / "data" / "map300.toml"
_IDS = Field("texts", hi=40)

SCHEMA: dict[str, dict[str, Field]] = {
    "area": {"name": Field("text"), "kind": Field("text", choices=("land", "sea")),
             "resource": Field("text", choices=RESOURCES), "city": Field("text"), "capital": Field("text"),
             "nation": Field("text"), "mercenary": Field("bool"), "tech_island": Field("bool"),
             "neighbours": _IDS, "coasts": _IDS, "seas": _IDS},
    "crossing": {"between": Field("texts", lo=2, hi=2), "terrain": Field("text", choices=("mountain", "forest"))},
    "strait": {"between": Field("texts", lo=2, hi=2)},
}


@dataclass(frozen=True)
class Area:
    """A land region or a sea zone of the map."""

    id: str
    name: str
    kind: str  # "land" | "sea"
    resource: str = ""  # what a land region produces (rule 46)
    city: str = ""  # the city's name where the region has its black dot (rule 48)
    capital: str = ""  # the capital card this region is the seat of (rule 2)
    nation: str = ""  # the capital whose colour the region bears, revolting against it (rule 18)
    mercenary: bool = False  # the Illyrian mercenary region (rule 56)
    tech_island: bool = False  # rule 59
    neighbours: tuple[str, ...] = ()  # land borders (land) / adjacent sea zones (sea, rule 30)
    coasts: tuple[str, ...] = ()  # sea zones a land region touches; land regions on a sea zone's coast


@dataclass(frozen=True)
class GameMap:
    """The map: areas by id, two-turn crossings (rule 67) and straits."""

    areas: Mapping[str, Area]
    crossings: Mapping[frozenset[str], str]
    straits: tuple[frozenset[str], ...]
    origin: str
    #: Never changed by play: game states share it (``medviz.engine.copying``).
    __medviz_immutable__: ClassVar[bool] = True

    def land(self) -> list[str]:
        """Land region ids, sorted."""
        return sorted(a for a, x in self.areas.items() if x.kind == "land")

    def seas(self) -> list[str]:
        """Sea zone ids, sorted."""
        return sorted(a for a, x in self.areas.items() if x.kind == "sea")

    def land_moves(self, area: str) -> list[str]:
        """Regions an army may enter from ``area`` by land: its neighbours and across straits."""
        across = [next(iter(s - {area})) for s in self.straits if area in s]
        return sorted(set(self.areas[area].neighbours) | set(across))

    def crossing(self, a: str, b: str) -> str:
        """``mountain`` or ``forest`` when the border a/b takes two turns (rule 67), else ``""``."""
        return self.crossings.get(frozenset((a, b)), "")

    def capital_area(self, capital: str) -> str:
        """The region that is ``capital``'s seat."""
        return next(a for a, x in sorted(self.areas.items()) if x.capital == capital)


def build_map(raw: Mapping[str, Any], origin: str, rules: Rules) -> GameMap:
    """Validate parsed map data (every problem collected) and build the ``GameMap``."""
    problems = tables_problems(raw, SCHEMA, origin)
    if problems:
        raise DataError(problems, origin)
    entries = [e for e in raw["area"]]
    ids = {e["id"] for e in entries}
    kind = {e["id"]: e.get("kind") for e in entries}
    for e in entries:
        at = f"{origin} [[area]] {e['id']!r}"
        for k in ("name", "kind"):
            if k not in e:
                problems.append(f"{at}: missing field {k!r}")
        if e.get("kind") == "land":
            if "resource" not in e:
                problems.append(f"{at}: a land region needs a resource (rule 46)")
            for n in e.get("neighbours", []):
                if kind.get(n) != "land":
                    problems.append(f"{at}: neighbour {n!r} is not a land region")
                elif e["id"] not in next(x for x in entries if x["id"] == n).get("neighbours", []):
                    problems.append(f"{at}: borders {n!r}, but {n!r} does not list it")
            for s in e.get("coasts", []):
                if kind.get(s) != "sea":
                    problems.append(f"{at}: coast {s!r} is not a sea zone")
            for k in ("capital", "nation"):
                if k in e and e[k] not in rules.capitals:
                    problems.append(f"{at}: {k} {e[k]!r} is not a capital card ({', '.join(rules.capitals)})")
        elif e.get("kind") == "sea":
            for s in e.get("seas", []):
                if kind.get(s) != "sea":
                    problems.append(f"{at}: sea {s!r} is not a sea zone")
                elif e["id"] not in next(x for x in entries if x["id"] == s).get("seas", []):
                    problems.append(f"{at}: next to {s!r}, but {s!r} does not list it")
    for table in ("crossing", "strait"):
        for e in raw[table]:
            for a in e.get("between", []):
                if kind.get(a) != "land":
                    problems.append(f"{origin} [[{table}]] {e['id']!r}: {a!r} is not a land region")
    caps = [e.get("capital") for e in entries if e.get("capital")]
    for c in sorted(set(rules.capitals) - set(caps)):
        problems.append(f"{origin}: no region is the seat of capital {c!r}")
    for c in sorted({c for c in caps if caps.count(c) > 1}):
        problems.append(f"{origin}: capital {c!r} has more than one seat")
    if problems:
        raise DataError(problems, origin)
    coasts_of: dict[str, list[str]] = {s: [] for s in ids if kind[s] == "sea"}
    for e in entries:
        if e["kind"] == "land":
            for s in e.get("coasts", []):
                coasts_of[s].append(e["id"])
    areas: dict[str, Area] = {}
    for e in sorted(entries, key=lambda x: x["id"]):
        land = e["kind"] == "land"
        areas[e["id"]] = Area(
            e["id"], e["name"], e["kind"], e.get("resource", ""), e.get("city", ""), e.get("capital", ""),
            e.get("nation", ""), bool(e.get("mercenary", False)), bool(e.get("tech_island", False)),
            tuple(sorted(e.get("neighbours", []) if land else e.get("seas", []))),
            tuple(sorted(e.get("coasts", []) if land else coasts_of[e["id"]])))
    crossings = {frozenset(e["between"]): e["terrain"] for e in raw["crossing"]}
    straits = tuple(frozenset(e["between"]) for e in raw["strait"])
    return GameMap(areas, crossings, straits, origin)


@lru_cache(maxsize=1)
def _shipped_raw() -> dict[str, Any]:
    return load_toml(MAP_DATA)


def load_map(rules: Rules, override: str | Path | Mapping[str, Any] | None = None) -> GameMap:
    """The shipped map patched by ``override`` (a TOML file or its parsed content)."""
    if override is None:
        hit = _SHIPPED.get(id(rules))
        if hit is None or hit[0] is not rules:
            hit = _SHIPPED[id(rules)] = (rules, build_map(_shipped_raw(), MAP_DATA.name, rules))
        return hit[1]
    merged, origin = patched_tables(_shipped_raw(), override, SCHEMA, MAX_OVERRIDE_BYTES)
    return build_map(merged, f"{MAP_DATA.name} with override {origin}", rules)


#: The shipped map built against each rules object (kept with it, so its id stays unique).
_SHIPPED: dict[int, tuple[Rules, GameMap]] = {}
