"""The numbers of Variant Middle Sea as data (``data/rules.toml``), validated on load, overridable.

``load_rules()`` reads the shipped file; ``load_rules(override)`` patches it with a user file of
the same shape (entries with an existing ``id`` replace fields; new ids are added) and validates
the result, collecting every problem into one ``DataError``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from medviz.engine.errors import DataError
from medviz.rules.datafiles import (
    MAX_OVERRIDE_BYTES,
    Field,
    check_provenance,
    entry_problems,
    load_toml,
    patched_tables,
    plain_value_problems,
    tables_problems,
)

DATA = Path(__file__).parent / "data" / "rules.toml"

DOMAINS = ("land", "sea")

SCHEMA: dict[str, dict[str, Field]] = {
    "unit_class": {
        "name": Field("text"), "domain": Field("text", choices=DOMAINS),
        "kill_on_attack": Field("int", lo=1, hi=6, why="a face of a d6"),
        "kill_on_defence": Field("int", lo=1, hi=6, why="a face of a d6"),
        "kill_on_defence_fort": Field("int", lo=1, hi=6, why="a face of a d6"),
        "manned_bonus": Field("int", lo=0, hi=5),
    },
    "leader": {
        "name": Field("text"), "attack": Field("int", lo=0, hi=5), "defence": Field("int", lo=0, hi=5),
        "domains": Field("texts", lo=1, choices=DOMAINS), "classes": Field("texts", lo=1),
    },
    "power": {
        "choices": Field("int", lo=1, hi=3), "free_maintenance": Field("texts"),
        "peters_pence_home": Field("int", lo=0, hi=10_000), "spy_rings_home": Field("int", lo=0, hi=100),
        "spy_rings_other": Field("int", lo=0, hi=100), "raid_min_galleys": Field("int", lo=1, hi=10),
    },
}
SPY_SCHEMA: dict[str, Field] = {
    "cost_per_die": Field("int", lo=0, hi=10_000), "cost_per_plus": Field("int", lo=0, hi=10_000),
    "target_cost_per_minus": Field("int", lo=0, hi=10_000), "kill_on": Field("int", lo=1, hi=6),
}


@dataclass(frozen=True)
class UnitClass:
    """One class of unit and the modified d6 result it needs to kill in each posture (Combat)."""

    id: str
    name: str
    domain: str
    kill_on_attack: int
    kill_on_defence: int
    kill_on_defence_fort: int | None
    manned_bonus: int


@dataclass(frozen=True)
class Leader:
    """A leader (by rank, or a power's special leader) and what he adds to the dice (Leaders)."""

    id: str
    name: str
    attack: int
    defence: int
    domains: tuple[str, ...]
    classes: tuple[str, ...] | None


@dataclass(frozen=True)
class SpyRules:
    """Costs and kill face of a spy ring's attempt on a leader (Spies)."""

    cost_per_die: int
    cost_per_plus: int
    target_cost_per_minus: int
    kill_on: int


@dataclass(frozen=True)
class Rules:
    """Every number of Variant Middle Sea the code uses; ``origin`` names the files it came from."""

    classes: Mapping[str, UnitClass]
    leaders: Mapping[str, Leader]
    powers: Mapping[str, Mapping[str, Any]]
    spy: SpyRules
    origin: str


def _raw(path: Path | str, max_bytes: int | None = None) -> dict[str, Any]:
    return load_toml(path, max_bytes) if max_bytes else load_toml(path)


def build_rules(raw: Mapping[str, Any], origin: str) -> Rules:
    """Validate parsed data and build ``Rules``; every problem is collected into one ``DataError``."""
    problems = plain_value_problems(raw, origin)
    if problems:
        raise DataError(problems, origin)
    problems = tables_problems(raw, SCHEMA, origin, extra=("spy",))
    spy = raw.get("spy")
    if not isinstance(spy, dict):
        problems.append(f"{origin}: missing table [spy]")
    else:
        problems += entry_problems(spy, SPY_SCHEMA, f"{origin} [spy]")
        check_provenance([spy], f"{origin} [spy]", problems)
        for k in SPY_SCHEMA:
            if k not in spy:
                problems.append(f"{origin} [spy]: missing field {k!r}")
    if any(not isinstance(raw.get(t), list) for t in SCHEMA) or not isinstance(spy, dict):
        raise DataError(problems, origin)
    classes: dict[str, UnitClass] = {}
    for e in raw["unit_class"]:
        if not isinstance(e, dict) or not isinstance(e.get("id"), str):
            continue
        where = f"{origin} [[unit_class]] {e['id']!r}"
        need = ["name", "domain", "kill_on_attack", "kill_on_defence"]
        need += ["kill_on_defence_fort"] if e.get("domain") == "land" else ["manned_bonus"]
        problems += [f"{where}: missing field {k!r}" for k in need if k not in e]
        if e.get("domain") == "sea" and "kill_on_defence_fort" in e:
            problems.append(f"{where}: a sea class has no defence in forts (Combat tables)")
        if not problems:
            classes[e["id"].upper()] = UnitClass(e["id"].upper(), e["name"], e["domain"], e["kill_on_attack"],
                                                 e["kill_on_defence"], e.get("kill_on_defence_fort"),
                                                 e.get("manned_bonus", 0))
    leaders: dict[str, Leader] = {}
    for e in raw["leader"]:
        if not isinstance(e, dict) or not isinstance(e.get("id"), str):
            continue
        where = f"{origin} [[leader]] {e['id']!r}"
        problems += [f"{where}: missing field {k!r}" for k in ("name", "attack", "defence", "domains") if k not in e]
        for c in e.get("classes", []):
            if not isinstance(c, str) or c.upper() not in {str(x.get("id", "")).upper() for x in raw["unit_class"]}:
                problems.append(f"{where}: classes: unknown unit class {c!r}")
        if not problems:
            leaders[e["id"].lower()] = Leader(e["id"].lower(), e["name"], e["attack"], e["defence"],
                                              tuple(e["domains"]),
                                              tuple(c.upper() for c in e["classes"]) if "classes" in e else None)
    if problems:
        raise DataError(problems, origin)
    powers = {e.get("id", "?"): {k: v for k, v in e.items() if k != "id"} for e in raw["power"]}
    return Rules(classes, leaders, powers, SpyRules(**{k: spy[k] for k in SPY_SCHEMA}), origin)


@lru_cache(maxsize=1)
def shipped_rules() -> Rules:
    """The shipped rules (cached)."""
    return build_rules(_raw(DATA), DATA.name)


def load_rules(override: str | Path | Mapping[str, Any] | None = None) -> Rules:
    """The shipped rules, patched by ``override`` (a TOML file or its parsed content) when given."""
    if override is None:
        return shipped_rules()
    merged, origin = patched_tables(_raw(DATA), override, SCHEMA, MAX_OVERRIDE_BYTES, sections=("spy",))
    return build_rules(merged, f"{DATA.name} with override {origin}")
