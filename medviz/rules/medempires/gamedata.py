"""Game data of Mediterranean Empires: powers, units, counter mix, Kings, stratagems, scenarios,
set-up, default deployments, politics and operations, loaded from ``data/*.toml`` and validated.

``load_game_data()`` reads the shipped files (optionally patched by a user override file),
resolves fleet placements written as ``adjacent:<land area>`` against the map, validates
everything and returns frozen dataclasses. ``validate_game_data()`` collects every problem, not
just the first. Provenance of every datum is kept (``rule`` / ``reconstructed`` / ``ruling`` /
``source``); see docs/data-provenance.md.
"""

from __future__ import annotations

import functools
import importlib.util
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from medviz.engine.errors import DataError, MalformedInput
from medviz.rules.datafiles import (
    MAX_OVERRIDE_BYTES,
    PROVENANCE_KEYS,
    Field,
    entry_problems,
    has_provenance,
    load_toml,
    merge_by_id,
    table_problems,
)
from medviz.rules.schema import (
    Column,
    Spec,
    Table,
    declared,
    file_fields,
    read_declared,
)

DATA_DIR = Path(__file__).with_name("data")

#: The data files this module owns, each with the tables (arrays of tables) it must contain.
FILES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "powers": ("power",),
        "units": ("unit_type", "counter_mix", "counter_sheet"),
        "kings": ("king",),
        "stratagems": ("stratagem",),
        "scenarios": ("scenario", "option", "setup"),
        "politics": ("diplomacy_row", "attempt", "modifier", "limit"),
        "operations": ("cost", "threshold", "recruiting", "treasury"),
        "deployment": ("deployment",),
    }
)

UNIT_CODES = ("FA", "L", "R", "M", "F", "K")
RECRUITABLE_CODES = ("FA", "L", "R", "M", "F")
LAND_CODES = ("FA", "L", "R", "M")
GROUPS = ("italian", "islamic", "other", "player")
FACTIONS = ("A", "B", "none")
STATUSES = ("player", "ally", "vassal", "neutral")
DEPLOYERS = ("A", "B", "either")
PHASES = ("stratagem", "political", "recruitment", "operations", "field_battle", "end_of_turn")
DISPOSITIONS = ("on_use", "end_of_turn", "pope")
STRATAGEM_KINDS = (
    "ambush",
    "coup_de_main",
    "siege_train",
    "crusade",
    "diplomacy",
    "gold",
    "military_advantage",
    "piracy",
    "plague",
    "pope",
    "trade_concession",
)
DIPLOMACY_COLUMNS = {"rebellion": "rebellion", "vassalage": "vassalage", "diplomacy": "alliance"}
VICTORY_KINDS = ("vp_margin", "vespers")
_HEX = re.compile(r"^#[0-9A-Fa-f]{6}$")

# --------------------------------------------------------------------------------------------
# The schema: every table declared once. A class's fields say which key of the data file each
# attribute reads, what it may hold (``Field``: types and ranges from the rules; validate_game_data
# checks meaning) and what it means; the checks of shipped and override files, the builder and
# docs/data-schema.md all come from these declarations (medviz.rules.schema).
# --------------------------------------------------------------------------------------------
#: A unit count: at most the counter sheet's 176 counters (2.0).
_COUNT = Field("int", 0, 176, why="the counter sheet has 176 counters, 2.0")
#: A King's rating (8.0).
_RATING = Field("int", 0, 3, why="a King is rated 0-3, 8.0")
#: Treasury points: the treasury holds at most 10 TP (6.1, operations.toml treasury cap) plus income.
_TP = Field("int", 0, 99, why="treasury points")
_SMALL = Field("int", -99, 99, why="a table value")
_TEXT, _TEXTS, _FLAG = Field("text"), Field("texts", hi=200), Field("bool")
_ADJACENT = "adjacent:"


class FrozenDict(dict):  # type: ignore[type-arg]
    """A read-only dict: game data cannot be changed by accident, yet pickles (for worker processes)."""

    def _read_only(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("game data is read-only; load an override file instead")

    __setitem__ = __delitem__ = __ior__ = _read_only  # type: ignore[assignment]
    clear = pop = popitem = setdefault = update = _read_only  # type: ignore[assignment]

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (dict(self),))


def _frozen_map(d: Mapping[Any, Any]) -> Mapping[Any, Any]:
    return FrozenDict(d)


def _read_turn_years(en: _Entry, spec: Spec) -> tuple[tuple[int, int], ...]:
    years: list[tuple[int, int]] = []
    for pair in en.get(spec.key, list, "a list of [first, last] years", []) or []:
        if isinstance(pair, list) and len(pair) == 2 and all(isinstance(y, int) and not isinstance(y, bool)
                                                             for y in pair):
            years.append((pair[0], pair[1]))
        else:
            en.problems.append(f"{en.where}: turn_years entry {pair!r} must be [first year, last year]")
    return tuple(years)


def _read_starting_tp(en: _Entry, spec: Spec) -> Mapping[str, int]:
    return _frozen_map({k: v for k, v in en.table(spec.key).items() if isinstance(v, int)})


def _read_units(en: _Entry, spec: Spec) -> Mapping[str, int]:
    return _frozen_map(_unit_counts(en, spec.key, UNIT_CODES))


def _read_land(en: _Entry, spec: Spec) -> Mapping[str, tuple[str, ...]]:
    land: dict[str, tuple[str, ...]] = {}
    for area, codes in en.table(spec.key).items():
        if isinstance(codes, list) and all(isinstance(c, str) for c in codes):
            land[area] = tuple(codes)
        else:
            en.problems.append(f"{en.where}: land.{area} must be a list of unit codes")
    return _frozen_map(land)


def _read_fleets(en: _Entry, spec: Spec) -> tuple[FleetPlacement, ...]:
    fleets: list[FleetPlacement] = []
    for f in en.get(spec.key, list, "a list of { sea = ... } tables", []) or []:
        if not isinstance(f, dict) or not isinstance(f.get("sea"), str):
            en.problems.append(f"{en.where}: fleet {f!r} needs sea = \"<sea id>\" or \"adjacent:<land id>\"")
            continue
        prefer = f.get("prefer") if isinstance(f.get("prefer"), str) else None
        fleets.append(FleetPlacement(f["sea"], prefer, resolve_fleet_sea(f["sea"], prefer, en.view)))
    return tuple(fleets)


@dataclass(frozen=True)
class Power:
    """A power (2.2.2, 3.x): a nation or city state, its colours, start status and areas."""

    id: str
    name: str = field(metadata=declared(_TEXT, "the power's name in the game's words"))
    group: str = field(metadata=declared(_TEXT, f"its group of powers: one of {', '.join(GROUPS)}"))
    counter_background: str = field(metadata=declared(_TEXT, "colour of its counters' background, in words"))
    counter_text: str = field(metadata=declared(_TEXT, "colour of its counters' print, in words"))
    display_colour: str = field(metadata=declared(_TEXT, "its colour on screen, #RRGGBB (each power its own)"))
    display_accent: str | None = field(metadata=declared(_TEXT, "a second colour on screen, #RRGGBB", absent=None))
    faction_at_start: str = field(metadata=declared(_TEXT, f"whose side it starts on: one of {', '.join(FACTIONS)}"))
    status_at_start: str = field(metadata=declared(_TEXT, f"its standing at the start: one of {', '.join(STATUSES)}"))
    home_areas: tuple[str, ...] = field(metadata=declared(_TEXTS, "land areas of its home (map ids)"))
    controlled_at_start: tuple[str, ...] = field(
        metadata=declared(_TEXTS, "land areas it controls at the start (map ids)"))
    deployed_by: str = field(metadata=declared(_TEXT, f"who sets up its units: one of {', '.join(DEPLOYERS)}"))
    mercenaries_allowed: bool = field(metadata=declared(_FLAG, "may it recruit mercenaries (6.2)"))
    fleets_count_double: bool = field(metadata=declared(_FLAG, "do its fleets count double"))
    provenance: Mapping[str, str]


@dataclass(frozen=True)
class UnitType:
    """A unit type (2.2.1) with its recruiting cost in TP (6.2) and doubling tables."""

    code: str
    name: str = field(metadata=declared(_TEXT, "the unit type's name"))
    domain: str = field(metadata=declared(_TEXT, "land or sea"))
    recruit_cost: float | None = field(metadata=declared(Field("number", 0, 15, why="TP, 6.2"), "TP to recruit one (6.2)",
                                          absent=None))
    single_purchase_cost: float | None = field(metadata=declared(Field("number", 0, 15, why="TP, 6.2"),
                                                  "TP to recruit a single one alone (6.2)", absent=None))
    counts_double: tuple[str, ...] = field(
        metadata=declared(_TEXTS, "where a unit of this type counts double", absent=()))
    double_for_powers: tuple[str, ...] = field(metadata=declared(_TEXTS, "powers whose units of this type count double",
                                                  absent=()))
    only_powers: tuple[str, ...] = field(
        metadata=declared(_TEXTS, "the only powers that may have it (empty: all)", absent=()))
    provenance: Mapping[str, str]


@dataclass(frozen=True)
class CounterSheet:
    """The counter sheet's total (2.0) and its track markers; control/alliance markers fill the rest."""

    total: int = field(
        metadata=declared(Field("int", 1, 1000, why="counters on the sheet (176, 2.0)"), "counters on the sheet"))
    track_markers: int = field(metadata=declared(Field("int", 0, 1000, why="markers on the sheet"),
                                  "markers for the tracks (turn, TP, VP)"))
    provenance: Mapping[str, str]


@dataclass(frozen=True)
class King:
    """A King (8.0): diplomacy rating (political rolls) and military value (operations, combat)."""

    id: str
    name: str = field(metadata=declared(_TEXT, "the King's name"))
    power: str = field(metadata=declared(_TEXT, "the power he rules (a power id)"))
    pool: str = field(metadata=declared(_TEXT, "the pool a replacement King is drawn from (8.2)"))
    starting: bool = field(metadata=declared(_FLAG, "does the power start with him"))
    diplomacy: int = field(metadata=declared(_RATING, "diplomacy rating, added to political rolls (7.x, 8.0)"))
    military: int = field(metadata=declared(_RATING, "military value, for operations and combat (8.0, 10.x)"))
    reign: str = field(metadata=declared(Field("text", empty=True), "his reign's years, in words", absent=""))
    provenance: Mapping[str, str]

    @property
    def reign_years(self) -> tuple[int, int] | None:
        """His reign's first and last year read from ``reign`` ("1285-1314 (Sicily)"), or None if it gives none."""
        found = re.match(r"\s*(\d{3,4})\s*[-–]\s*(\d{3,4})", self.reign)
        return (int(found.group(1)), int(found.group(2))) if found else None


@dataclass(frozen=True)
class Stratagem:
    """A kind of stratagem marker (12.0) and how many of it are in the cup."""

    id: str
    name: str = field(metadata=declared(_TEXT, "the stratagem's name"))
    count: int = field(metadata=declared(Field("int", 0, 176, why="markers on the 176-counter sheet, 2.0"),
                          "how many of its markers are in the cup"))
    when: tuple[str, ...] = field(metadata=declared(_TEXTS, f"the phases it may be played in: {', '.join(PHASES)}"))
    drawn_effect: bool = field(metadata=declared(_FLAG, "does it act at once when drawn"))
    disposition: str = field(metadata=declared(_TEXT, f"where it goes after use: one of {', '.join(DISPOSITIONS)}"))
    summary: str = field(metadata=declared(_TEXT, "what it does, in words"))
    effects: Mapping[str, Any] = field(metadata=declared(Field("table", values=Field("any")),
                                          "its effect as data, read by the rule code", absent={}))
    provenance: Mapping[str, str]


@dataclass(frozen=True)
class OptionalRule:
    """A switch: an optional rule (14.x) or an alternative reading of the text."""

    id: str
    name: str = field(metadata=declared(_TEXT, "the option's name"))
    default: bool = field(metadata=declared(_FLAG, "is it on unless a game says otherwise"))
    summary: str = field(metadata=declared(_TEXT, "what it changes, in words"))
    provenance: Mapping[str, str]


@dataclass(frozen=True)
class Scenario:
    """A scenario: length, years per game turn, starting TP and victory conditions (4.0, 13.0)."""

    id: str
    # Fields are read in declaration order, and an entry's problems are listed in it.
    turn_years: tuple[tuple[int, int], ...] = field(metadata=declared(
        Field("list", hi=50, values=Field("list", 2, 2, values=Field("int", 1000, 1600, why="a year"))),
        "the years of each game turn, [first, last]", absent=(), read=_read_turn_years))
    starting_tp: Mapping[str, int] = field(metadata=declared(Field("table", keys=("A", "B"), values=_TP),
                                              "treasury points each player starts with", read=_read_starting_tp))
    name: str = field(metadata=declared(_TEXT, "the scenario's name"))
    game_turns: int = field(metadata=declared(Field("int", 1, 50, why="game turns"), "how many game turns it lasts"))
    setup: str = field(metadata=declared(_TEXT, "which set-up it uses"))
    victory: Mapping[str, Any] = field(metadata=declared(Field("table", values=Field("any")),
                                          f"how it is won, as data (kind: one of {', '.join(VICTORY_KINDS)})"))
    provenance: Mapping[str, str]


@dataclass(frozen=True)
class SetupEntry:
    """How one power is set up (3.1-3.3.1): units, where they may and must go, markers."""

    power: str
    side: str = field(metadata=declared(_TEXT, "the side it plays for"))
    deployed_by: str = field(metadata=declared(_TEXT, "who places its units"))
    order: int = field(metadata=declared(Field("int", 0, 999), "its place in the order of setting up"))
    controls: tuple[str, ...] = field(metadata=declared(_TEXTS, "land areas it controls (map ids)"))
    land_areas: tuple[str, ...] = field(metadata=declared(_TEXTS, "land areas its land units may start in"))
    must_occupy: tuple[str, ...] = field(metadata=declared(_TEXTS, "land areas that must hold one of its units"))
    king_areas: tuple[str, ...] = field(metadata=declared(_TEXTS, "land areas its King may start in", absent=()))
    fleet_coasts: tuple[str, ...] = field(
        metadata=declared(_TEXTS, "land areas whose coasts its fleets may start on", absent=()))
    units: Mapping[str, int] = field(metadata=declared(Field("table", keys=UNIT_CODES, values=_COUNT),
                                        "its starting units by code", read=_read_units))
    marker: str | None = field(metadata=declared(_TEXT, "the marker it starts with", absent=None))
    face_down: bool = field(metadata=declared(_FLAG, "is its marker face down", absent=False))
    provenance: Mapping[str, str]


@dataclass(frozen=True)
class FleetPlacement:
    """One fleet's starting sea: as written (``spec``) and resolved against the map (``sea``)."""

    spec: str
    prefer: str | None
    sea: str | None


@dataclass(frozen=True)
class PowerDeployment:
    """A concrete default placement of one power's starting units for some scenarios."""

    id: str
    # Fields are read in declaration order, and an entry's problems are listed in it.
    land: Mapping[str, tuple[str, ...]] = field(metadata=declared(
        Field("table", values=Field("texts", hi=176, choices=UNIT_CODES)),
        "land area -> the unit codes placed there", read=_read_land))
    fleets: tuple[FleetPlacement, ...] = field(metadata=declared(
        Field("list", hi=176, values=Field("table", keys=("sea", "prefer"), values=_TEXT)),
        'fleets: { sea = "<sea id>" or "adjacent:<land id>", prefer = "<sea id>" }', absent=(), read=_read_fleets))
    power: str = field(metadata=declared(_TEXT, "the power placed (a power id)"))
    scenarios: tuple[str, ...] = field(metadata=declared(_TEXTS, "the scenarios it places for"))
    provenance: Mapping[str, str]

    def unit_counts(self) -> dict[str, int]:
        """Counters placed, by unit code (fleets included)."""
        counts: dict[str, int] = {}
        for codes in self.land.values():
            for code in codes:
                counts[code] = counts.get(code, 0) + 1
        if self.fleets:
            counts["F"] = counts.get("F", 0) + len(self.fleets)
        return counts


@dataclass(frozen=True)
class Deployment:
    """The default placement of every starting unit of one scenario, power by power."""

    scenario: str
    powers: Mapping[str, PowerDeployment]

    def placements(self) -> Iterator[tuple[str, str, str | None]]:
        """Yield (power, unit code, area id) for every starting counter; fleets give their sea."""
        for power, dep in self.powers.items():
            for area, codes in dep.land.items():
                for code in codes:
                    yield power, code, area
            for fleet in dep.fleets:
                yield power, "F", fleet.sea


@dataclass(frozen=True)
class Politics:
    """The Diplomacy Table and the rules around it (7.0-7.3)."""

    table: Mapping[int, Mapping[str, str]]
    attempts: Mapping[str, Mapping[str, Any]]
    modifiers: Mapping[str, Mapping[str, Any]]
    limits: Mapping[str, Mapping[str, Any]]

    def result(self, column: str, modified_roll: int) -> str:
        """Read the Diplomacy Table: below 1 reads row 1, 7 or more reads row 7+."""
        row = min(max(modified_roll, 1), max(self.table))
        try:
            return self.table[row][column]
        except KeyError:
            raise MalformedInput(f"Diplomacy Table has no column {column!r}") from None


@dataclass(frozen=True)
class Operations:
    """OP costs (Operation Point Cost Table), thresholds (10.x, 11.x), recruiting and treasury (5.2, 6.x)."""

    costs: Mapping[str, int]
    thresholds: Mapping[str, int]
    recruiting: Mapping[str, float]
    single_levy_cost: float
    treasury: Mapping[str, int]
    entries: Mapping[str, Mapping[str, Any]]


@dataclass(frozen=True)
class GameData:
    """Everything in the data files except the map and the combat tables, validated."""

    powers: Mapping[str, Power]
    unit_types: Mapping[str, UnitType]
    counter_limits: Mapping[str, Mapping[str, int]]
    counter_sheet: CounterSheet | None
    kings: Mapping[str, King]
    king_pools: Mapping[str, tuple[str, ...]]
    stratagems: Mapping[str, Stratagem]
    scenarios: Mapping[str, Scenario]
    options: Mapping[str, OptionalRule]
    setup: Mapping[str, SetupEntry]
    deployments: Mapping[str, Deployment]
    politics: Politics
    operations: Operations
    provenance_index: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def starting_king(self, power: str) -> King | None:
        """The King a power starts with (3.1, 3.2), or None."""
        for king in self.kings.values():
            if king.starting and king.power == power:
                return king
        return None

    def stratagem_cup(self) -> tuple[str, ...]:
        """Every stratagem marker in the cup at the start, one id per marker, in file order."""
        return tuple(s.id for s in self.stratagems.values() for _ in range(s.count))

# --------------------------------------------------------------------------------------------
# Tables whose rows stay plain read-only tables (Politics, Operations and the counter mix read them)
# --------------------------------------------------------------------------------------------
COUNTER_MIX = Table(
    "The most counters of each unit type a power may have on the map (2.0); `id` is the power.",
    {code: Column(_COUNT, f"most {code} counters", required=False) for code in RECRUITABLE_CODES})
DIPLOMACY_ROW = Table(
    "One row of the Diplomacy Table (7.0): the result in each column for a modified die roll.",
    {"die": Column(Field("int", 0, 12, why="a modified 1d6 row"), "the modified die roll of this row"),
     **{col: Column(_TEXT, f"the result of a {word} attempt") for col, word in DIPLOMACY_COLUMNS.items()}})
ATTEMPT = Table("A kind of political attempt (7.x): its column, cost and targets.", {
    "name": Column(_TEXT, "the attempt's name", required=False),
    "column": Column(_TEXT, "the Diplomacy Table column it reads", required=False),
    "success": Column(_TEXT, "the result that counts as success", required=False),
    "marker_cost": Column(Field("int", 0, 26), "markers it costs", required=False),
    "per_turn": Column(Field("int", 0, 99), "how often a power may try it per turn", required=False),
    "targets": Column(_TEXTS, "which powers it may target", required=False),
    "summary": Column(_TEXT, "what it does, in words", required=False)})
MODIFIER = Table("A modifier to political rolls (7.x) and when it applies.", {
    "name": Column(_TEXT, "the modifier's name", required=False),
    "value": Column(Field("int|text", -99, 99), "the amount, or a rating it reads (text)", required=False),
    "applies_to": Column(_TEXTS, "the attempts it modifies", required=False),
    "once_per_turn": Column(_TEXT, "what limits it to once a turn", required=False),
    "summary": Column(_TEXT, "what it means, in words", required=False),
    "max_tp": Column(_TP, "the most TP it may add", required=False),
    "only_target": Column(_TEXT, "applies only against this target", required=False),
    "only_attempt": Column(_TEXT, "applies only to this attempt", required=False),
    "option": Column(_TEXT, "the option that switches it on", required=False)})
LIMIT = Table("A limit on political rolls (7.x).", {
    "value": Column(_SMALL, "the limit", required=False),
    "summary": Column(_TEXT, "what it limits, in words", required=False),
    "powers": Column(_TEXTS, "the powers it applies to", required=False)})
COST = Table("An entry of the Operation Point Cost Table (10.x, 11.x).", {
    "ops": Column(Field("int", 0, 15, why="a force has at most 15 OPs, 10.0"), "OPs it costs"),
    "per": Column(_TEXT, "what the cost is counted per", required=False),
    "summary": Column(_TEXT, "what it costs, in words", required=False),
    "markers": Column(Field("int", 0, 26), "markers it costs", required=False)})
THRESHOLD = Table("A threshold of operations (10.x, 11.x).", {
    "value": Column(_SMALL, "the threshold"), "summary": Column(_TEXT, "what it bounds, in words", required=False)})
RECRUITING = Table("Recruiting cost of a unit type in TP (6.2); `id` is the unit code.", {
    "tp": Column(Field("number", 0, 15, why="TP, 6.2"), "TP per unit"),
    "single_tp": Column(Field("number", 0, 15, why="TP, 6.2"), "TP for a single unit alone", required=False)})
TREASURY = Table("A treasury rule (5.2, 6.x): income, caps.", {
    "value": Column(_SMALL, "the amount"),
    "summary": Column(_TEXT, "what it is, in words", required=False)})

#: Every table of the data files, declared once: (file, table) -> its class or its plain table.
DECLARED: Mapping[tuple[str, str], type | Table] = MappingProxyType({
    ("powers", "power"): Power,
    ("units", "unit_type"): UnitType,
    ("units", "counter_mix"): COUNTER_MIX,
    ("units", "counter_sheet"): CounterSheet,
    ("kings", "king"): King,
    ("stratagems", "stratagem"): Stratagem,
    ("scenarios", "scenario"): Scenario,
    ("scenarios", "option"): OptionalRule,
    ("scenarios", "setup"): SetupEntry,
    ("politics", "diplomacy_row"): DIPLOMACY_ROW,
    ("politics", "attempt"): ATTEMPT,
    ("politics", "modifier"): MODIFIER,
    ("politics", "limit"): LIMIT,
    ("operations", "cost"): COST,
    ("operations", "threshold"): THRESHOLD,
    ("operations", "recruiting"): RECRUITING,
    ("operations", "treasury"): TREASURY,
    ("deployment", "deployment"): PowerDeployment,
})
#: What each field of each table may hold (shipped files and override files alike), from ``DECLARED``.
SCHEMA: Mapping[tuple[str, str], Mapping[str, Field]] = MappingProxyType(
    {key: file_fields(decl) for key, decl in DECLARED.items()})
#: Tables the builder keeps as they are (no typed access): the schema checks their types.
_UNTYPED = frozenset({("politics", "attempt"), ("politics", "modifier"), ("politics", "limit")})


# --------------------------------------------------------------------------------------------
# The map, as far as this module needs it
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _MapView:
    land: frozenset[str]
    sea: frozenset[str]
    coasts: Mapping[str, tuple[str, ...]]  # land area -> adjacent sea areas, sorted
    ports: Mapping[str, tuple[str, ...]]  # land area -> sea areas its city's port touches


def _get(obj: Any, key: str, default: Any = None) -> Any:
    if isinstance(obj, Mapping):
        return obj.get(key, default)
    return getattr(obj, key, default)


def _map_view(game_map: Any) -> _MapView | None:
    """Read land/sea ids and coasts from a mapdata object or a raw map.toml dict (duck-typed)."""
    if game_map is None:
        return None
    if isinstance(game_map, _MapView):
        return game_map
    areas: Any = _get(game_map, "areas")
    if areas is None:
        areas = _get(game_map, "area")
    if areas is None:
        return None
    items = list(areas.values()) if isinstance(areas, Mapping) else list(areas)
    land: set[str] = set()
    sea: set[str] = set()
    coasts: dict[str, list[str]] = {}
    ports: dict[str, list[str]] = {}
    sea_coasts: dict[str, list[str]] = {}
    for a in items:
        aid = _get(a, "id")
        kind = str(_get(a, "kind", "land"))
        if not isinstance(aid, str):
            continue
        # Sorted: mapdata keeps coasts as sets, so "first" must not depend on set order.
        a_coasts = sorted(str(s) for s in (_get(a, "coasts") or ()))
        a_ports = sorted(str(s) for s in (_get(a, "ports") or ()))
        if kind == "sea":
            sea.add(aid)
            sea_coasts[aid] = a_coasts
        else:
            land.add(aid)
            coasts[aid] = a_coasts
            ports[aid] = a_ports
    # Coasts may be written on either side: add land areas a sea lists as its coast.
    for s, lands in sea_coasts.items():
        for land_id in lands:
            if land_id in coasts and s not in coasts[land_id]:
                coasts[land_id].append(s)
    for seas in coasts.values():
        seas.sort()
    return _MapView(
        land=frozenset(land),
        sea=frozenset(sea),
        coasts=MappingProxyType({k: tuple(v) for k, v in coasts.items()}),
        ports=MappingProxyType({k: tuple(v) for k, v in ports.items()}),
    )


def load_default_map() -> Any | None:
    """The shipped map: via ``mapdata.load_map()`` if that module exists, else raw map.toml, else None."""
    if importlib.util.find_spec("medviz.rules.medempires.mapdata") is not None:
        from medviz.rules.medempires import mapdata  # lazy: another engineer's module

        return mapdata.load_map()
    path = DATA_DIR / "map.toml"
    if path.exists():
        return load_toml(path)
    return None


def resolve_fleet_sea(spec: str, prefer: str | None, view: _MapView | None) -> str | None:
    """Resolve ``adjacent:<land>`` (or a plain sea id) to a sea area id; None if impossible.

    Order of choice: ``prefer`` if it borders the land area; else the alphabetically first sea
    on the land area's port coast (its city's harbour, 11.1); else the first sea it borders.
    """
    if not spec.startswith(_ADJACENT):
        return spec if view is None or spec in view.sea else None
    if view is None:
        return None
    land = spec[len(_ADJACENT) :]
    seas = view.coasts.get(land, ())
    if prefer is not None and prefer in seas:
        return prefer
    for s in view.ports.get(land, ()):
        if s in view.sea:
            return s
    return seas[0] if seas else None


# --------------------------------------------------------------------------------------------
# Reading entries, collecting problems
# --------------------------------------------------------------------------------------------

_MISSING = object()


class _Entry:
    """Typed field access on one TOML entry; wrong or missing fields become problems."""

    def __init__(self, where: str, raw: Mapping[str, Any], problems: list[str], view: _MapView | None = None) -> None:
        self.raw = raw
        self.where = f"{where} {raw.get('id', '?')!r}"
        self.problems = problems
        self.view = view  # the map, for fleets written as adjacent:<land area>

    def _bad(self, key: str, want: str) -> None:
        self.problems.append(f"{self.where}: field {key!r} must be {want}, got {self.raw.get(key)!r}")

    def get(self, key: str, kind: type | tuple[type, ...], want: str, default: Any = _MISSING) -> Any:
        if key not in self.raw:
            if default is _MISSING:
                self.problems.append(f"{self.where}: missing field {key!r}")
                return None
            return default
        value = self.raw[key]
        if isinstance(value, bool) and kind is not bool and kind != (bool,):
            self._bad(key, want)
            return None if default is _MISSING else default
        if not isinstance(value, kind):
            self._bad(key, want)
            return None if default is _MISSING else default
        return value

    def text(self, key: str, default: Any = _MISSING) -> str:
        value = self.get(key, str, "text", default)
        return value if isinstance(value, str) else ""

    def opt_text(self, key: str) -> str | None:
        value = self.get(key, str, "text", None)
        return value if isinstance(value, str) else None

    def integer(self, key: str, default: Any = _MISSING) -> int:
        value = self.get(key, int, "an integer", default)
        return value if isinstance(value, int) else 0

    def number(self, key: str, default: Any = _MISSING) -> float | None:
        value = self.get(key, (int, float), "a number", default)
        return float(value) if isinstance(value, (int, float)) else None

    def flag(self, key: str, default: Any = _MISSING) -> bool:
        value = self.get(key, bool, "true or false", default)
        return bool(value) if isinstance(value, bool) else False

    def texts(self, key: str, default: Any = _MISSING) -> tuple[str, ...]:
        value = self.get(key, list, "a list of text", default)
        if not isinstance(value, list):
            return ()
        if not all(isinstance(v, str) for v in value):
            self._bad(key, "a list of text")
            return tuple(v for v in value if isinstance(v, str))
        return tuple(value)

    def table(self, key: str, default: Any = _MISSING) -> Mapping[str, Any]:
        value = self.get(key, dict, "a table", default)
        return value if isinstance(value, dict) else {}

    def frozen_table(self, key: str, default: Any = _MISSING) -> Mapping[str, Any]:
        return _frozen_map(self.table(key, default))

    def provenance(self) -> Mapping[str, str]:
        return _frozen_map(
            {k: self.raw[k] for k in PROVENANCE_KEYS if isinstance(self.raw.get(k), str) and self.raw[k].strip()}
        )


def _unit_counts(entry: _Entry, key: str, codes: tuple[str, ...]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for code, value in entry.table(key).items():
        if code not in codes:
            entry.problems.append(f"{entry.where}: unknown unit code {code!r} in {key!r}")
        elif isinstance(value, bool) or not isinstance(value, int) or value < 0:
            entry.problems.append(f"{entry.where}: {key}.{code} must be a whole number >= 0, got {value!r}")
        else:
            counts[code] = value
    return counts


# --------------------------------------------------------------------------------------------
# Loading
# --------------------------------------------------------------------------------------------


def load_raw(data_dir: str | Path | None = None) -> dict[str, dict[str, Any]]:
    """Parse every owned data file; a malformed one is a ``MalformedInput`` naming the file."""
    base = Path(data_dir) if data_dir is not None else DATA_DIR
    return {stem: load_toml(base / f"{stem}.toml") for stem in FILES}


def apply_override(
    raw: dict[str, dict[str, Any]], override: Mapping[str, Any], origin: str, problems: list[str]
) -> dict[str, dict[str, Any]]:
    """Patch ``raw`` with an override file: ``[[<file>.<table>]]`` entries replace same ids.

    Example: ``[[units.counter_mix]]`` with ``id = "aragon"`` and ``F = 6``. Unknown files,
    tables or entries without ids are problems (all collected).
    """
    merged = {stem: dict(tables) for stem, tables in raw.items()}
    for stem, tables in override.items():
        if stem not in FILES:
            problems.append(f"{origin}: unknown data file {stem!r} (known: {', '.join(FILES)})")
            continue
        if not isinstance(tables, dict):
            problems.append(f"{origin}: {stem!r} must hold tables like [[{stem}.{FILES[stem][0]}]]")
            continue
        for table, entries in tables.items():
            if table not in FILES[stem]:
                problems.append(f"{origin}: unknown table {stem}.{table} (known: {', '.join(FILES[stem])})")
                continue
            if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
                problems.append(f"{origin}: {stem}.{table} must be an array of tables [[{stem}.{table}]]")
                continue
            good = []
            for j, e in enumerate(entries):
                if not isinstance(e.get("id"), str):
                    problems.append(f"{origin}: [[{stem}.{table}]] entry #{j + 1} has no text 'id'")
                    continue
                problems.extend(entry_problems(
                    e, SCHEMA[(stem, table)], f"{origin}: [[{stem}.{table}]] entry {e['id'][:80]!r}",
                    noun="unit code" if table == "counter_mix" else "field", top_types=(stem, table) in _UNTYPED))
                good.append(e)  # merged all the same: the checks of meaning below report the rest
            base = merged[stem].get(table, [])
            merged[stem][table] = merge_by_id(base if isinstance(base, list) else [], good, origin)
    return merged


def build_game_data(
    raw: Mapping[str, Mapping[str, Any]], problems: list[str], game_map: Any = None
) -> GameData:
    """Turn parsed files into ``GameData``; every type problem is appended, none raised."""
    view = _map_view(game_map)

    def entries(stem: str, table: str) -> list[Mapping[str, Any]]:
        value = raw.get(stem, {}).get(table)
        if value is None:
            problems.append(f"{stem}.toml: missing table [[{table}]]")
            return []
        if not isinstance(value, list) or not all(isinstance(e, dict) for e in value):
            problems.append(f"{stem}.toml: {table} must be an array of tables [[{table}]]")
            return []
        seen: set[Any] = set()
        for e in value:
            if not isinstance(e.get("id"), str):
                problems.append(f"{stem}.toml: a [[{table}]] entry has no text 'id'")
            elif e["id"] in seen:
                problems.append(f"{stem}.toml: duplicate [[{table}]] id {e['id']!r}")
            seen.add(e.get("id"))
        return [e for e in value if isinstance(e.get("id"), str)]

    prov_index: dict[str, Mapping[str, str]] = {}

    def entry(stem: str, table: str, e: Mapping[str, Any]) -> _Entry:
        en = _Entry(f"{stem}.toml [[{table}]]", e, problems, view)
        prov_index[f"{stem}.{table}.{e['id']}"] = en.provenance()
        return en

    def built(stem: str, table: str, cls: type, id_name: str = "id",
              then: Callable[[Any], None] | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for e in entries(stem, table):
            en = entry(stem, table, e)
            out[e["id"]] = read_declared(cls, en, **{id_name: e["id"]}, provenance=en.provenance())
            if then is not None:
                then(out[e["id"]])
        return out

    powers: dict[str, Power] = built("powers", "power", Power)
    unit_types: dict[str, UnitType] = built("units", "unit_type", UnitType, "code")

    counter_limits: dict[str, Mapping[str, int]] = {}
    for e in entries("units", "counter_mix"):
        en = entry("units", "counter_mix", e)
        counts: dict[str, int] = {}
        for key, value in e.items():
            if key == "id" or key in PROVENANCE_KEYS:
                continue
            if key not in RECRUITABLE_CODES:
                problems.append(f"{en.where}: unknown unit code {key!r} (known: {', '.join(RECRUITABLE_CODES)})")
            elif isinstance(value, bool) or not isinstance(value, int) or value < 0:
                problems.append(f"{en.where}: {key} must be a whole number >= 0, got {value!r}")
            else:
                counts[key] = value
        counter_limits[e["id"]] = _frozen_map(counts)

    counter_sheet = None
    for e in entries("units", "counter_sheet"):
        en = entry("units", "counter_sheet", e)
        counter_sheet = read_declared(CounterSheet, en, provenance=en.provenance())

    kings: dict[str, King] = built("kings", "king", King)
    pools: dict[str, list[str]] = {}
    for king in kings.values():
        if not king.starting:
            pools.setdefault(king.pool, []).append(king.id)

    stratagems: dict[str, Stratagem] = built("stratagems", "stratagem", Stratagem)
    scenarios: dict[str, Scenario] = built("scenarios", "scenario", Scenario)
    options: dict[str, OptionalRule] = built("scenarios", "option", OptionalRule)
    setup: dict[str, SetupEntry] = built("scenarios", "setup", SetupEntry, "power")

    per_scenario: dict[str, dict[str, PowerDeployment]] = {}

    def place(dep: PowerDeployment) -> None:
        for sc in dep.scenarios:
            bucket = per_scenario.setdefault(sc, {})
            if dep.power in bucket:
                problems.append(
                    f"deployment.toml: power {dep.power!r} placed twice for scenario {sc!r} "
                    f"({bucket[dep.power].id!r} and {dep.id!r})"
                )
            bucket[dep.power] = dep

    built("deployment", "deployment", PowerDeployment, then=place)
    deployments = {
        sc: Deployment(sc, _frozen_map(powers_)) for sc, powers_ in per_scenario.items()
    }

    table: dict[int, Mapping[str, str]] = {}
    for e in entries("politics", "diplomacy_row"):
        en = entry("politics", "diplomacy_row", e)
        die = en.integer("die")
        if die in table:
            problems.append(f"{en.where}: die row {die} appears twice")
        table[die] = _frozen_map({col: en.text(col) for col in DIPLOMACY_COLUMNS})

    def plain(stem: str, tbl: str) -> dict[str, Mapping[str, Any]]:
        out: dict[str, Mapping[str, Any]] = {}
        for e in entries(stem, tbl):
            entry(stem, tbl, e)
            out[e["id"]] = _frozen_map(e)
        return out

    politics = Politics(
        table=_frozen_map(dict(sorted(table.items()))),
        attempts=_frozen_map(plain("politics", "attempt")),
        modifiers=_frozen_map(plain("politics", "modifier")),
        limits=_frozen_map(plain("politics", "limit")),
    )

    op_entries: dict[str, Mapping[str, Any]] = {}
    costs: dict[str, int] = {}
    for e in entries("operations", "cost"):
        en = entry("operations", "cost", e)
        costs[e["id"]] = en.integer("ops")
        op_entries[f"cost.{e['id']}"] = _frozen_map(e)
    thresholds: dict[str, int] = {}
    for e in entries("operations", "threshold"):
        en = entry("operations", "threshold", e)
        thresholds[e["id"]] = en.integer("value")
        op_entries[f"threshold.{e['id']}"] = _frozen_map(e)
    recruiting: dict[str, float] = {}
    single_levy = 1.0
    for e in entries("operations", "recruiting"):
        en = entry("operations", "recruiting", e)
        recruiting[e["id"]] = en.number("tp") or 0.0
        if e["id"] == "L":
            single_levy = en.number("single_tp", 1.0) or 1.0
        op_entries[f"recruiting.{e['id']}"] = _frozen_map(e)
    treasury: dict[str, int] = {}
    for e in entries("operations", "treasury"):
        en = entry("operations", "treasury", e)
        treasury[e["id"]] = en.integer("value")
        op_entries[f"treasury.{e['id']}"] = _frozen_map(e)
    operations = Operations(
        costs=_frozen_map(costs),
        thresholds=_frozen_map(thresholds),
        recruiting=_frozen_map(recruiting),
        single_levy_cost=single_levy,
        treasury=_frozen_map(treasury),
        entries=_frozen_map(op_entries),
    )

    return GameData(
        powers=_frozen_map(powers),
        unit_types=_frozen_map(unit_types),
        counter_limits=_frozen_map(counter_limits),
        counter_sheet=counter_sheet,
        kings=_frozen_map(kings),
        king_pools=_frozen_map({k: tuple(v) for k, v in pools.items()}),
        stratagems=_frozen_map(stratagems),
        scenarios=_frozen_map(scenarios),
        options=_frozen_map(options),
        setup=_frozen_map(dict(sorted(setup.items(), key=lambda kv: kv[1].order))),
        deployments=_frozen_map(deployments),
        politics=politics,
        operations=operations,
        provenance_index=_frozen_map(prov_index),
    )


@functools.lru_cache(maxsize=1)
def default_game_data() -> GameData:
    """The shipped data with the shipped map, loaded once per process (it is read-only)."""
    return load_game_data()


def load_game_data(
    override: str | Path | Mapping[str, Any] | None = None,
    *,
    data_dir: str | Path | None = None,
    game_map: Any = None,
    origin: str | None = None,
) -> GameData:
    """Load, patch with ``override`` (a TOML file, see docs/data-provenance.md), resolve and validate.

    ``override`` may also be the file's already parsed content; ``origin`` then names it in
    errors. The map defaults to the shipped one (``load_default_map``); fleets written as
    ``adjacent:<land area>`` are resolved against it. Raises ``MalformedInput`` for a file that
    will not parse and ``DataError`` listing every problem otherwise.
    """
    raw = load_raw(data_dir)
    problems: list[str] = []
    for (stem, table), fields in SCHEMA.items():
        if isinstance(raw.get(stem, {}).get(table), list):
            problems += table_problems(raw[stem][table], fields, f"{stem}.toml [[{table}]]",
                                       top_types=(stem, table) in _UNTYPED)
    source = "game data"
    if override is not None:
        if isinstance(override, Mapping):
            where, content = origin or "data override", dict(override)
        else:
            where, content = origin or str(override), load_toml(override, MAX_OVERRIDE_BYTES)
        source = f"game data with override {where}"
        raw = apply_override(raw, content, where, problems)
    if game_map is None:
        game_map = load_default_map()
    data = build_game_data(raw, problems, game_map)
    problems.extend(validate_game_data(data, game_map))
    if problems:
        raise DataError(problems, source)
    return data


# --------------------------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------------------------


def validate_game_data(data: GameData, game_map: Any = None) -> list[str]:
    """Every problem in ``data``: broken references between files, missing provenance, counter
    limits below the set-up, deployments breaking the set-up rules (3.x), and, when a map is
    given, area ids the map does not know."""
    p: list[str] = []
    view = _map_view(game_map)

    for key, prov in data.provenance_index.items():
        if not prov:
            p.append(f"{key}: no provenance (rule, reconstructed or ruling)")

    def area_ok(where: str, area: str, kind: str = "land") -> None:
        if view is None:
            return
        known = view.land if kind == "land" else view.sea
        if area not in known:
            p.append(f"{where}: unknown {kind} area {area!r} (not in the map)")

    # --- powers
    colours: dict[str, str] = {}
    for pw in data.powers.values():
        w = f"powers.toml power {pw.id!r}"
        if pw.group not in GROUPS:
            p.append(f"{w}: group {pw.group!r} is not one of {GROUPS}")
        if pw.faction_at_start not in FACTIONS:
            p.append(f"{w}: faction_at_start {pw.faction_at_start!r} is not one of {FACTIONS}")
        if pw.status_at_start not in STATUSES:
            p.append(f"{w}: status_at_start {pw.status_at_start!r} is not one of {STATUSES}")
        if pw.deployed_by not in DEPLOYERS:
            p.append(f"{w}: deployed_by {pw.deployed_by!r} is not one of {DEPLOYERS}")
        if (pw.status_at_start == "neutral") != (pw.faction_at_start == "none"):
            p.append(f"{w}: a neutral has faction 'none' and only a neutral does")
        for c in (pw.display_colour, pw.display_accent):
            if c is not None and not _HEX.match(c):
                p.append(f"{w}: colour {c!r} is not #RRGGBB")
        key = pw.display_colour.upper()
        if key in colours:
            p.append(f"{w}: display_colour {pw.display_colour} already used by {colours[key]!r}")
        colours[key] = pw.id
        if not pw.home_areas:
            p.append(f"{w}: no home area")
        for a in pw.home_areas:
            if a not in pw.controlled_at_start:
                p.append(f"{w}: home area {a!r} is not among its areas controlled at start")
        for a in (*pw.home_areas, *pw.controlled_at_start):
            area_ok(w, a)
        if pw.id not in data.setup:
            p.append(f"{w}: no [[setup]] entry in scenarios.toml")
        if pw.id not in data.counter_limits:
            p.append(f"{w}: no [[counter_mix]] entry in units.toml")

    # --- unit types
    for code in UNIT_CODES:
        if code not in data.unit_types:
            p.append(f"units.toml: unit type {code!r} missing")
    for ut in data.unit_types.values():
        w = f"units.toml unit_type {ut.code!r}"
        if ut.code not in UNIT_CODES:
            p.append(f"{w}: unknown unit code (known: {', '.join(UNIT_CODES)})")
        if ut.domain not in ("land", "sea", "king"):
            p.append(f"{w}: domain {ut.domain!r} is not land, sea or king")
        for pw_id in (*ut.double_for_powers, *ut.only_powers):
            if pw_id not in data.powers:
                p.append(f"{w}: unknown power {pw_id!r}")
        if ut.code in data.operations.recruiting and ut.recruit_cost != data.operations.recruiting[ut.code]:
            p.append(
                f"{w}: recruit_cost {ut.recruit_cost} differs from operations.toml recruiting "
                f"{data.operations.recruiting[ut.code]}"
            )
        if ut.code in RECRUITABLE_CODES and ut.code not in data.operations.recruiting:
            p.append(f"operations.toml: no [[recruiting]] cost for unit {ut.code!r}")
    levy = data.unit_types.get("L")
    if levy is not None and levy.single_purchase_cost != data.operations.single_levy_cost:
        p.append("units.toml unit_type 'L': single_purchase_cost differs from operations.toml")
    merc = data.unit_types.get("M")
    fleet = data.unit_types.get("F")
    for pw in data.powers.values():
        if merc is not None and pw.mercenaries_allowed != (pw.id in merc.only_powers):
            p.append(f"powers.toml power {pw.id!r}: mercenaries_allowed disagrees with units.toml M only_powers")
        if fleet is not None and pw.fleets_count_double != (pw.id in fleet.double_for_powers):
            p.append(f"powers.toml power {pw.id!r}: fleets_count_double disagrees with units.toml F double_for_powers")

    # --- counter mix
    for pw_id, limits in data.counter_limits.items():
        w = f"units.toml counter_mix {pw_id!r}"
        if pw_id not in data.powers:
            p.append(f"{w}: unknown power")
            continue
        if merc is not None and limits.get("M", 0) and pw_id not in merc.only_powers:
            p.append(f"{w}: only {', '.join(merc.only_powers)} may have mercenaries (2.2.1)")
        st = data.setup.get(pw_id)
        if st is not None:
            for code, n in st.units.items():
                if code != "K" and limits.get(code, 0) < n:
                    p.append(f"{w}: limit {limits.get(code, 0)} {code} is below the {n} set up (3.x)")
    sheet = data.counter_sheet
    if sheet is None:
        p.append("units.toml: no [[counter_sheet]] entry")
    else:
        units_n = sum(sum(v.values()) for v in data.counter_limits.values())
        kings_n = len(data.kings)
        strat_n = sum(s.count for s in data.stratagems.values())
        used = units_n + kings_n + strat_n + sheet.track_markers
        if used > sheet.total:
            p.append(
                f"units.toml counter_sheet: {units_n} units + {kings_n} Kings + {strat_n} stratagems + "
                f"{sheet.track_markers} track markers = {used}, more than the {sheet.total} counters "
                "of the sheet (2.0)"
            )

    # --- kings
    for k in data.kings.values():
        w = f"kings.toml king {k.id!r}"
        if k.power not in data.powers:
            p.append(f"{w}: unknown power {k.power!r}")
        elif data.powers[k.power].status_at_start != "player":
            p.append(f"{w}: only the player powers have Kings (8.0)")
        if k.pool not in data.powers:
            p.append(f"{w}: unknown pool {k.pool!r} (pools are named by power)")
        for rating in (k.diplomacy, k.military):
            if not 0 <= rating <= 3:
                p.append(f"{w}: rating {rating} outside 0..3")
        if not k.starting and k.reign_years is None:
            p.append(f"{w}: reign {k.reign!r} must start with 'first-last' years (the succession ruling, 8.1)")
    for pw_id, st in data.setup.items():
        starters = [k for k in data.kings.values() if k.starting and k.power == pw_id]
        if len(starters) != st.units.get("K", 0):
            p.append(
                f"kings.toml: power {pw_id!r} sets up {st.units.get('K', 0)} King(s) (3.x) "
                f"but has {len(starters)} starting King(s)"
            )
        if st.units.get("K", 0) and not data.king_pools.get(pw_id):
            p.append(f"kings.toml: power {pw_id!r} has no replacement Kings in its pool (8.1)")

    # --- stratagems
    for kind in STRATAGEM_KINDS:
        if kind not in data.stratagems:
            p.append(f"stratagems.toml: marker kind {kind!r} (12.0) missing")
    for s in data.stratagems.values():
        w = f"stratagems.toml stratagem {s.id!r}"
        if s.id not in STRATAGEM_KINDS:
            p.append(f"{w}: not one of the eleven kinds of 12.0")
        if s.count < 1:
            p.append(f"{w}: count must be at least 1")
        for ph in s.when:
            if ph not in PHASES:
                p.append(f"{w}: phase {ph!r} is not one of {PHASES}")
        if s.disposition not in DISPOSITIONS:
            p.append(f"{w}: disposition {s.disposition!r} is not one of {DISPOSITIONS}")

    # --- scenarios and options
    for sc in data.scenarios.values():
        w = f"scenarios.toml scenario {sc.id!r}"
        if sc.game_turns < 1 or len(sc.turn_years) != sc.game_turns:
            p.append(f"{w}: {len(sc.turn_years)} turn_years for {sc.game_turns} game turns")
        for (a0, a1), (b0, _b1) in zip(sc.turn_years, sc.turn_years[1:]):
            if a1 + 1 != b0 or a0 > a1:
                p.append(f"{w}: turn years {a0}-{a1} and {b0} do not follow on")
        if sc.setup != "standard":
            p.append(f"{w}: unknown setup {sc.setup!r} (only 'standard', 3.0)")
        for side in ("A", "B"):
            tp = sc.starting_tp.get(side)
            if tp is None or not 0 <= tp <= 10:
                p.append(f"{w}: starting_tp.{side} must be 0..10 (6.1)")
        vkind = sc.victory.get("kind")
        if vkind not in VICTORY_KINDS:
            p.append(f"{w}: victory kind {vkind!r} is not one of {VICTORY_KINDS}")
        if vkind == "vespers":
            for key in ("b_must_control", "a_must_not_take"):
                areas = sc.victory.get(key)
                if not isinstance(areas, list) or not areas:
                    p.append(f"{w}: victory.{key} must list areas (13.0)")
                    continue
                for a in areas:
                    area_ok(f"{w} victory.{key}", a)
            opt = sc.victory.get("taken_option")
            if opt is not None and opt not in data.options:
                p.append(f"{w}: victory.taken_option {opt!r} is not an option")
        if sc.id not in data.deployments:
            p.append(f"{w}: no default deployment in deployment.toml")

    # --- setup
    for pw_id, st in data.setup.items():
        w = f"scenarios.toml setup {pw_id!r}"
        spw = data.powers.get(pw_id)
        if spw is None:
            p.append(f"{w}: unknown power")
            continue
        if st.side != spw.faction_at_start:
            p.append(f"{w}: side {st.side!r} differs from powers.toml faction_at_start {spw.faction_at_start!r}")
        if st.deployed_by != spw.deployed_by:
            p.append(f"{w}: deployed_by {st.deployed_by!r} differs from powers.toml {spw.deployed_by!r}")
        if tuple(sorted(st.controls)) != tuple(sorted(spw.controlled_at_start)):
            p.append(f"{w}: controls differ from powers.toml controlled_at_start")
        for a in st.must_occupy:
            if a not in st.land_areas:
                p.append(f"{w}: must_occupy area {a!r} is not among its land_areas")
        for a in st.king_areas:
            if a not in st.land_areas:
                p.append(f"{w}: king area {a!r} is not among its land_areas")
        if st.units.get("K", 0) and not st.king_areas:
            p.append(f"{w}: sets up a King but lists no king_areas")
        elif st.units.get("K", 0) and not set(st.king_areas) & set(st.must_occupy):
            # 3.0: the King joins a listed area holding a land unit; only must_occupy areas are sure to hold one
            p.append(f"{w}: none of its king_areas is a must_occupy area, so a set-up may leave the King nowhere to go (3.0)")
        land_n = sum(n for c, n in st.units.items() if c in LAND_CODES)
        if land_n < len(st.must_occupy):
            p.append(f"{w}: {land_n} land units cannot occupy {len(st.must_occupy)} areas")
        if st.units.get("F", 0) and not st.fleet_coasts:
            p.append(f"{w}: sets up fleets but lists no fleet_coasts")
        if st.marker is not None and st.marker not in ("ally:A", "ally:B", "vassal:A", "vassal:B"):
            p.append(f"{w}: marker {st.marker!r} is not ally:A|B or vassal:A|B")
        elif st.marker is not None and st.marker != f"{spw.status_at_start}:{spw.faction_at_start}":
            p.append(f"{w}: marker {st.marker!r} differs from powers.toml status_at_start "
                     f"{spw.status_at_start!r} with faction_at_start {spw.faction_at_start!r} (3.3.1)")
        for a in (*st.controls, *st.land_areas, *st.fleet_coasts):
            area_ok(w, a)

    holders: dict[str, str] = {}
    for pw_id, st in data.setup.items():
        for a in st.controls:
            if a in holders:
                p.append(f"scenarios.toml setup {pw_id!r}: area {a!r} is also controlled by {holders[a]!r} at set-up")
            holders.setdefault(a, pw_id)

    # --- deployments (3.x constraints on the default placement)
    for sc_id, dep in data.deployments.items():
        if sc_id not in data.scenarios:
            p.append(f"deployment.toml: unknown scenario {sc_id!r}")
        for pw_id in data.setup:
            if pw_id not in dep.powers:
                p.append(f"deployment.toml: scenario {sc_id!r} has no placement for power {pw_id!r}")
        for pw_id, pd in dep.powers.items():
            p.extend(_check_placement(data, sc_id, pd, view))

    # --- politics
    dice = sorted(data.politics.table)
    if dice != list(range(1, 8)):
        p.append(f"politics.toml: diplomacy_row dice must be 1..7 (7 = 7+), got {dice}")
    for die, row in data.politics.table.items():
        for col, success in DIPLOMACY_COLUMNS.items():
            if row.get(col) not in ("NE", success):
                p.append(f"politics.toml diplomacy_row {die}: {col} result {row.get(col)!r} is not NE or {success!r}")
    for at_id in DIPLOMACY_COLUMNS:
        at = data.politics.attempts.get(at_id)
        if at is None:
            p.append(f"politics.toml: attempt {at_id!r} missing (7.1-7.3)")
        elif not (isinstance(at.get("column"), str) and at["column"] in DIPLOMACY_COLUMNS):
            p.append(f"politics.toml attempt {at_id!r}: column {at.get('column')!r} is not a table column")
    for mod_id in ("king_diplomacy", "pope", "treasury_point", "territorial_concession"):
        if mod_id not in data.politics.modifiers:
            p.append(f"politics.toml: modifier {mod_id!r} missing")
    conc = data.politics.modifiers.get("territorial_concession")
    # a wrong type there is already a problem of the schema; it must not stop the checks (a list is unhashable)
    if conc is not None and not (isinstance(conc.get("option"), str) and conc["option"] in data.options):
        p.append("politics.toml modifier 'territorial_concession': option is not in scenarios.toml")
    if conc is not None and not (isinstance(conc.get("only_target"), str) and conc["only_target"] in data.powers):
        p.append("politics.toml modifier 'territorial_concession': only_target is not a power")

    # --- operations
    for cost_id in ("ground_move", "leave_enemy_area", "naval_move", "amphibious_landing", "combat"):
        if cost_id not in data.operations.costs:
            p.append(f"operations.toml: cost {cost_id!r} missing (Operation Point Cost Table)")
    for th_id in ("ops_cap", "interception_success", "avoid_non_raiders", "avoid_all"):
        if th_id not in data.operations.thresholds:
            p.append(f"operations.toml: threshold {th_id!r} missing")
    for tr_id in ("tp_cap", "stack_without_city", "stack_with_city", "recruits_per_area"):
        if tr_id not in data.operations.treasury:
            p.append(f"operations.toml: treasury {tr_id!r} missing")
    return p


def _check_placement(data: GameData, sc_id: str, pd: PowerDeployment, view: _MapView | None) -> list[str]:
    """Problems of one power's default placement against its set-up rules (3.0-3.3.1)."""
    p: list[str] = []
    w = f"deployment.toml {pd.id!r} ({sc_id})"
    st = data.setup.get(pd.power)
    if st is None:
        return [f"{w}: power {pd.power!r} has no set-up"]
    counts = pd.unit_counts()
    for code in sorted(set(counts) | set(st.units)):
        if counts.get(code, 0) != st.units.get(code, 0):
            p.append(f"{w}: places {counts.get(code, 0)} {code}, the set-up has {st.units.get(code, 0)}")
    for area, codes in pd.land.items():
        if area not in st.land_areas:
            p.append(f"{w}: area {area!r} is not a set-up area of {pd.power!r}")
        if view is not None and area not in view.land:
            p.append(f"{w}: unknown land area {area!r} (not in the map)")
        for code in codes:
            if code == "F":
                p.append(f"{w}: a fleet in land area {area!r}; fleets go in 'fleets'")
            elif code not in UNIT_CODES:
                p.append(f"{w}: unknown unit code {code!r} in {area!r}")
    for area in st.must_occupy:
        if not any(c in LAND_CODES for c in pd.land.get(area, ())):
            p.append(f"{w}: no land unit in {area!r}, which must hold one (3.x)")
    for area, codes in pd.land.items():
        if "K" in codes:
            if area not in st.king_areas:
                p.append(f"{w}: King in {area!r}, not one of the listed areas (3.0)")
            if not any(c in LAND_CODES for c in codes):
                p.append(f"{w}: King in {area!r} with no land unit (3.0)")
    for fleet in pd.fleets:
        if fleet.spec.startswith(_ADJACENT):
            land = fleet.spec[len(_ADJACENT) :]
            if land not in st.fleet_coasts:
                p.append(f"{w}: fleet next to {land!r}, not one of the set-up fleet coasts (3.1)")
        if view is not None:
            if fleet.sea is None:
                p.append(f"{w}: fleet {fleet.spec!r} does not resolve to a sea area of the map")
            elif fleet.sea not in view.sea:
                p.append(f"{w}: fleet sea {fleet.sea!r} is not a sea area of the map")
            elif not any(fleet.sea in view.coasts.get(a, ()) for a in st.fleet_coasts):
                p.append(f"{w}: fleet sea {fleet.sea!r} touches none of the set-up fleet coasts (3.1)")
            if fleet.prefer is not None and fleet.prefer not in view.sea:
                p.append(f"{w}: preferred sea {fleet.prefer!r} is not a sea area of the map")
    return p


def iter_provenance(data: GameData) -> Iterator[tuple[str, Mapping[str, str]]]:
    """Yield (``file.table.id``, provenance) for every loaded entry."""
    yield from data.provenance_index.items()


__all__ = [
    "DATA_DIR",
    "FILES",
    "Deployment",
    "FrozenDict",
    "FleetPlacement",
    "GameData",
    "King",
    "OptionalRule",
    "Operations",
    "Politics",
    "Power",
    "PowerDeployment",
    "Scenario",
    "SetupEntry",
    "Stratagem",
    "UnitType",
    "apply_override",
    "build_game_data",
    "default_game_data",
    "has_provenance",
    "iter_provenance",
    "load_default_map",
    "load_game_data",
    "load_raw",
    "resolve_fleet_sea",
    "validate_game_data",
]
