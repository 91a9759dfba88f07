"""Empire's Revolt's numbers as data (``data/rules.toml``), validated on load; a user file may override.

An override file has the same tables (``[[capital]]``, ``[[territory]]``, ``[[cost]]``,
``[[upkeep]]``, ``[[victory]]``, ``[[trade_control]]``); entries with an existing ``id`` replace
fields, new ids are added; every problem is reported at once in one ``DataError``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar

from medviz.engine.errors import DataError
from medviz.rules.datafiles import (
    MAX_OVERRIDE_BYTES,
    Field,
    load_toml,
    patched_tables,
)
from medviz.rules.schema import Column, Table, build_checked, declared, declared_problems

DATA = Path(__file__).parent / "data" / "rules.toml"
RESOURCES = ("food", "gold", "wood")
_DICE = Field("int", lo=0, hi=20)
_AMOUNT = Field("int", lo=0, hi=100)

_ATTACK = Field("int", lo=1, hi=20, why="dice")


@dataclass(frozen=True)
class Capital:
    """A capital card: attack and defence dice (rule 3), whether it supports an army (rules 5, 6)."""

    id: str
    name: str = field(metadata=declared(Field("text"), "the capital's name"))
    attack: int = field(metadata=declared(_ATTACK, "dice it rolls attacking (rule 3)"))
    defence: int = field(metadata=declared(_ATTACK, "dice it rolls defending (rule 3)"))
    supports_army: bool = field(metadata=declared(Field("bool"), "does it support an army (rules 5, 6)"))
    ability: str | None = field(default=None, metadata=declared(Field("text"), "its card's ability, in words",
                                                                absent=None))


#: Every table of ``data/rules.toml``, declared once (checks, builder and docs/data-schema.md).
DECLARED: Mapping[str, type | Table] = {
    "capital": Capital,
    "territory": Table("The defence dice of a kind of territory (rules 18-21, 23, 56).", {
        "dice": Column(_DICE, "defence dice"),
        "city_dice": Column(_DICE, "defence dice with a city", required=False)}),
    "cost": Table("What something costs to build or buy, by resource (absent: 0).", {
        r: Column(_AMOUNT, f"{r} it costs", required=False) for r in RESOURCES}),
    "upkeep": Table("What a kind of unit costs to keep, and how many are kept free.", {
        "resource": Column(Field("text", choices=RESOURCES), "the resource it is paid in"),
        "free": Column(_AMOUNT, "how many are kept free")}),
    "victory": Table("What a player needs to win; `id` is the number of players (2..6).", {
        r: Column(_AMOUNT, f"{r} needed") for r in RESOURCES}),
    "trade_control": Table("How many cities control trade.", {
        "cities": Column(Field("int", lo=1, hi=100), "cities needed")}),
}
#: The tables an override file may hold.
SCHEMA = tuple(DECLARED)


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
    problems = declared_problems(raw, DECLARED, origin)
    for e in raw.get("victory", []) if isinstance(raw.get("victory"), list) else []:
        if isinstance(e, dict) and not (str(e.get("id", "")).isdigit() and 2 <= int(e["id"]) <= 6):
            problems.append(f"{origin} [[victory]] entry {e.get('id')!r}: id must be a player count 2..6")
    if problems:
        raise DataError(problems, origin)
    capitals = {e["id"]: build_checked(Capital, e, id=e["id"]) for e in raw["capital"]}
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
