"""The numbers of Variant Middle Sea as data (``data/rules.toml``), validated on load, overridable.

``load_rules()`` reads the shipped file; ``load_rules(override)`` patches it with a user file of
the same shape (entries with an existing ``id`` replace fields; new ids are added) and validates
the result, collecting every problem into one ``DataError``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from medviz.engine.errors import DataError
from medviz.rules.datafiles import (
    MAX_OVERRIDE_BYTES,
    Field,
    load_toml,
    patched_tables,
    plain_value_problems,
)
from medviz.rules.schema import Column, Spec, Table, build_checked, declared, declared_problems

DATA = Path(__file__).parent / "data" / "rules.toml"

DOMAINS = ("land", "sea")
_FACE = Field("int", lo=1, hi=6, why="a face of a d6")
_MARKS = Field("int", lo=0, hi=10_000, why="marks")


def _upper_classes(entry: Mapping[str, Any], spec: Spec) -> tuple[str, ...] | None:
    return tuple(str(c).upper() for c in entry[spec.key]) if spec.key in entry else None


@dataclass(frozen=True)
class UnitClass:
    """One class of unit and the modified d6 result it needs to kill in each posture (Combat)."""

    id: str
    name: str = field(metadata=declared(Field("text"), "the class's name"))
    domain: str = field(metadata=declared(Field("text", choices=DOMAINS), "land or sea"))
    kill_on_attack: int = field(metadata=declared(_FACE, "the modified d6 result that kills, attacking"))
    kill_on_defence: int = field(metadata=declared(_FACE, "the modified d6 result that kills, defending"))
    kill_on_defence_fort: int | None = field(metadata=declared(
        _FACE, "the modified d6 result that kills, defending a fort (land classes: needed; sea: none)", absent=None))
    manned_bonus: int = field(metadata=declared(Field("int", lo=0, hi=5), "what a manned ship adds (sea classes: "
                                                "needed)", absent=0))


@dataclass(frozen=True)
class Leader:
    """A leader (by rank, or a power's special leader) and what he adds to the dice (Leaders)."""

    id: str
    name: str = field(metadata=declared(Field("text"), "the leader's name or rank"))
    attack: int = field(metadata=declared(Field("int", lo=0, hi=5), "what he adds to the dice attacking"))
    defence: int = field(metadata=declared(Field("int", lo=0, hi=5), "what he adds to the dice defending"))
    domains: tuple[str, ...] = field(metadata=declared(Field("texts", lo=1, choices=DOMAINS), "where he leads"))
    classes: tuple[str, ...] | None = field(metadata=declared(
        Field("texts", lo=1), "the only unit classes he leads (absent: all)", absent=None, read=_upper_classes))


@dataclass(frozen=True)
class SpyRules:
    """Costs and kill face of a spy ring's attempt on a leader (Spies)."""

    cost_per_die: int = field(metadata=declared(_MARKS, "marks for each die of the attempt"))
    cost_per_plus: int = field(metadata=declared(_MARKS, "marks for +1 on one die"))
    target_cost_per_minus: int = field(metadata=declared(_MARKS, "marks the target pays for -1 on the rolls"))
    kill_on: int = field(metadata=declared(_FACE, "the face that kills"))


#: Every table of ``data/rules.toml``, declared once (checks, builder and docs/data-schema.md).
DECLARED: Mapping[str, type | Table] = {
    "unit_class": UnitClass,
    "leader": Leader,
    "power": Table("A power's special rules (Special powers; Special Selection Rules).", {
        "choices": Column(Field("int", lo=1, hi=3), "how many powers a player picks with it", required=False),
        "free_maintenance": Column(Field("texts"), "what it keeps without paying", required=False),
        "peters_pence_home": Column(Field("int", lo=0, hi=10_000), "Peter's Pence from home, in marks",
                                    required=False),
        "spy_rings_home": Column(Field("int", lo=0, hi=100), "spy rings at home", required=False),
        "spy_rings_other": Column(Field("int", lo=0, hi=100), "spy rings elsewhere", required=False),
        "raid_min_galleys": Column(Field("int", lo=1, hi=10), "the fewest galleys that raid", required=False)}),
}
#: The plain tables ``[name]`` of the file.
SECTIONS: Mapping[str, type | Table] = {"spy": SpyRules}
#: The tables an override file may hold.
SCHEMA = tuple(DECLARED)


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
    problems = declared_problems(raw, DECLARED, origin, sections=SECTIONS)
    if any(not isinstance(raw.get(t), list) for t in DECLARED) or not isinstance(raw.get("spy"), dict):
        raise DataError(problems, origin)
    entries = {t: [e for e in raw[t] if isinstance(e, dict) and isinstance(e.get("id"), str)] for t in DECLARED}
    for e in entries["unit_class"]:
        where = f"{origin} [[unit_class]] entry {e['id']!r}"
        if e.get("domain") == "land" and "kill_on_defence_fort" not in e:
            problems.append(f"{where}: missing field 'kill_on_defence_fort' (a land class defends forts)")
        if e.get("domain") == "sea" and "manned_bonus" not in e:
            problems.append(f"{where}: missing field 'manned_bonus' (a sea class)")
        if e.get("domain") == "sea" and "kill_on_defence_fort" in e:
            problems.append(f"{where}: a sea class has no defence in forts (Combat tables)")
    known = {e["id"].upper() for e in entries["unit_class"]}
    for e in entries["leader"]:
        for c in e.get("classes", []) if isinstance(e.get("classes"), list) else []:
            if not isinstance(c, str) or c.upper() not in known:
                problems.append(f"{origin} [[leader]] entry {e['id']!r}: classes: unknown unit class {c!r}")
    if problems:
        raise DataError(problems, origin)
    classes = {e["id"].upper(): build_checked(UnitClass, e, id=e["id"].upper()) for e in entries["unit_class"]}
    leaders = {e["id"].lower(): build_checked(Leader, e, id=e["id"].lower()) for e in entries["leader"]}
    powers = {e["id"]: {k: v for k, v in e.items() if k != "id"} for e in entries["power"]}
    return Rules(classes, leaders, powers, build_checked(SpyRules, raw["spy"]), origin)


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
