"""Empire's Revolt's numbers as data (``data/rules.toml``), validated on load; a user file may override.

An override file has the same tables (``[[capital]]``, ``[[territory]]``, ``[[cost]]``,
``[[upkeep]]``, ``[[victory]]``, ``[[trade_control]]``); entries with an existing ``id`` replace
fields, new ids are added; every problem is reported at once in one ``DataError``.
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

DATA = Path(__file__).parent / "data" / "rules.toml"
RESOURCES = ("food", "gold", "wood")
_DICE = Field("int", lo=0, hi=20)
_AMOUNT = Field("int", lo=0, hi=100)

SCHEMA: dict[str, dict[str, Field]] = {
    "capital": {"name": Field("text"), "attack": Field("int", lo=1, hi=20), "defence": Field("int", lo=1, hi=20),
                "supports_army": Field("bool"), "ability": Field("text")},
    "territory": {"dice": _DICE, "city_dice": _DICE},
    "cost": {r: _AMOUNT for r in RESOURCES},
    "upkeep": {"resource": Field("text", choices=RESOURCES), "free": _AMOUNT},
    "victory": {r: _AMOUNT for r in RESOURCES},
    "trade_control": {"cities": Field("int", lo=1, hi=100)},
}
REQUIRED = {"capital": ("name", "attack", "defence", "supports_army"), "territory": ("dice",),
            "upkeep": ("resource", "free"), "victory": RESOURCES, "trade_control": ("cities",)}


@dataclass(frozen=True)
class Capital:
    """A capital card: attack and defence dice (rule 3), whether it supports an army (rules 5, 6)."""

    id: str
    name: str
    attack: int
    defence: int
    supports_army: bool


@dataclass(frozen=True)
class Rules:
    """Every number the Empire's Revolt code uses, by table and id."""

    capitals: Mapping[str, Capital]
    territories: Mapping[str, Mapping[str, int]]
    costs: Mapping[str, Mapping[str, int]]
    upkeep: Mapping[str, tuple[str, int]]
    victory: Mapping[int, Mapping[str, int]]
    trade_cities: int
    origin: str
    #: Never changed by play: game states share it (``medviz.engine.copying``).
    __medviz_immutable__: ClassVar[bool] = True


def build_rules(raw: Mapping[str, Any], origin: str) -> Rules:
    """Validate parsed data (every problem collected) and build ``Rules``."""
    problems = tables_problems(raw, SCHEMA, origin)
    for table in SCHEMA:
        entries = raw.get(table)
        for e in entries if isinstance(entries, list) else []:
            if isinstance(e, dict):
                problems += [f"{origin} [[{table}]] {e.get('id')!r}: missing field {k!r}"
                             for k in REQUIRED.get(table, ()) if k not in e]
    for e in raw.get("victory", []) if isinstance(raw.get("victory"), list) else []:
        if isinstance(e, dict) and not (str(e.get("id", "")).isdigit() and 2 <= int(e["id"]) <= 6):
            problems.append(f"{origin} [[victory]] {e.get('id')!r}: id must be a player count 2..6")
    if problems:
        raise DataError(problems, origin)
    capitals = {e["id"]: Capital(e["id"], e["name"], e["attack"], e["defence"], e["supports_army"])
                for e in raw["capital"]}
    territories = {e["id"]: {k: e[k] for k in ("dice", "city_dice") if k in e} for e in raw["territory"]}
    costs = {e["id"]: {r: e.get(r, 0) for r in RESOURCES} for e in raw["cost"]}
    upkeep = {e["id"]: (e["resource"], e["free"]) for e in raw["upkeep"]}
    victory = {int(e["id"]): {r: e[r] for r in RESOURCES} for e in raw["victory"]}
    return Rules(capitals, territories, costs, upkeep, victory, raw["trade_control"][0]["cities"], origin)


@lru_cache(maxsize=1)
def shipped_rules() -> Rules:
    """The shipped rules (cached)."""
    return build_rules(load_toml(DATA), DATA.name)


def load_rules(override: str | Path | Mapping[str, Any] | None = None) -> Rules:
    """The shipped rules patched by ``override`` (a TOML file or its parsed content)."""
    if override is None:
        return shipped_rules()
    merged, origin = patched_tables(load_toml(DATA), override, SCHEMA, MAX_OVERRIDE_BYTES)
    return build_rules(merged, f"{DATA.name} with override {origin}")
