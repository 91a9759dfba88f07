"""Game data of *Medieval: The XIIIth Century in Europe*, loaded from ``data/*.toml`` and validated.

``load_game_data()`` reads the shipped files (optionally patched by a user override file of the
same shape), checks everything with ``validate()`` (every problem, not just the first) and returns
one frozen ``GameData``. Every entry keeps its provenance (``rule`` / ``reconstructed`` /
``ruling`` / ``source``); power cards also keep the reference's tag for each value ([T], [T*],
[S], [P] of ``shared/reference/medieval-data.md``).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from medviz.engine.errors import DataError, MalformedInput
from medviz.rules.datafiles import (
    MAX_OVERRIDE_BYTES,
    Field,
    has_provenance,
    load_toml,
    merge_by_id,
    plain_value_problems,
    table_problems,
)
from medviz.rules.schema import Column, Spec, Table, build_checked, declared, file_fields, missing_problems

DATA_DIR = Path(__file__).with_name("data")

#: Each data file and its tables; each table's key field (override entries with the same key replace it).
FILES: Mapping[str, Mapping[str, str | None]] = MappingProxyType({
    "powers": {"power": "id"},
    "provinces": {"province": "id", "border": None},
    "map": {"card": "id", "sea": "id", "sea_link": None},
    "tables": {"powers_roll": "roll", "leader_roll": "ruler", "action_card": "kind", "constant": "id"},
})

RELIGIONS = ("catholic", "orthodox", "islam", "pagan")
RULERS = ("good", "normal", "bad")
RULER_DRM = MappingProxyType({"good": 1, "normal": 0, "bad": -1})
TAGS = ("T", "T*", "S", "P")
CARD_KINDS = ("pope", "mongols", "knights_of_christ", "spies", "assassin", "civil_war", "jihad", "heresy",
              "disaster", "change_of_ruler", "deus_ex_machina")
#: The six Powers whose map cards are not in play at the start (rule 2.2).
LATE_POWERS = ("sweden", "prussia", "polovtsy", "cumans", "georgia", "bulgars")
MAP_CARDS = ("1A", "1B", "1C", "1D", "1E", "1F", "2A", "2B", "2C", "2D", "2F",
             "3A", "3B", "3C", "3D", "3F", "4B", "4C", "4D")
START_CARDS = ("1B", "1D", "2A", "2B", "2C", "3A", "3D", "4D")
CONSTANTS = ("hand_size", "attack_cost", "attacks_per_turn", "attacks_after_map_draw", "militia_cost",
             "jihad_militia_cost", "naval_drm_cost", "interception_cost", "mongol_strength", "mongol_no_events",
             "knights_army", "knights_vs_mongols_province", "crusade_fee_three_players",
             "crusade_fee_more_players", "lift_excommunication_cost", "assassin_success_from",
             "whole_power_bonus", "powers_table_rerolls")

_TEXT = Field("text")
_FLAG = Field("bool")


def _navy(entry: Mapping[str, Any], spec: Spec) -> int | None:
    value = entry[spec.key]
    return None if value == "no" else int(value)


def _tags(entry: Mapping[str, Any], spec: Spec) -> Mapping[str, str]:
    return MappingProxyType(dict(entry.get(spec.key, {})))


@dataclass(frozen=True)
class Power:
    """One Power card (4.1): start Fl, army and navy DRMs, religion, starting ruler."""

    id: str
    code: str = field(metadata=declared(_TEXT, "the Power's code on the map (reference §1.3)"))
    name: str = field(metadata=declared(_TEXT, "the Power's name"))
    religion: str = field(metadata=declared(Field("text", choices=RELIGIONS), "its religion (4.6)"))
    start: int = field(metadata=declared(Field("int", lo=0, hi=99), "Start Fl (4.4)"))
    army: int = field(metadata=declared(Field("int", lo=-5, hi=9), "Base Army Strength DRM (9.1)"))
    #: Naval DRM; None: "Navy = No", never uses Naval Transport (10.1).
    navy: int | None = field(metadata=declared(Field("int|text"), 'Naval DRM, or "no": never uses Naval Transport '
                                               "(10.1)", read=_navy))
    ruler: str = field(metadata=declared(Field("text", choices=RULERS), "its starting ruler (4.5)"))
    draft: bool = field(metadata=declared(_FLAG, "selectable at the start (false: the six of 2.2)", absent=True))
    mercenary: bool = field(metadata=declared(_FLAG, "may provide Mercenaries (11.0)", absent=False))
    #: The reference's tag of each value: T, T* (the text), S (a source), P (a proposal).
    tags: Mapping[str, str] = field(metadata=declared(
        Field("table", keys=("religion", "start", "army", "navy", "ruler"), values=Field("text", choices=TAGS)),
        "the reference's tag (T, T*, S, P) of religion, start, army, navy and ruler", absent={}, read=_tags))


@dataclass(frozen=True)
class Province:
    """A Power's part on one map card (4.1), or Sardinia/Corsica, or the Papal States."""

    id: str
    power: str = field(metadata=declared(Field("text", empty=True), "the Power printed on it (empty: none)"))
    card: str = field(metadata=declared(Field("text", choices=MAP_CARDS), "the map card it is on (1.2)"))
    income: int = field(metadata=declared(Field("int", lo=0, hi=20), "its Fl income and VPs (3.4, 12.0)"))
    name: str = field(metadata=declared(_TEXT, "the province's name"))
    island: bool = field(metadata=declared(_FLAG, "is it an island", absent=False))
    koc_target: bool = field(metadata=declared(_FLAG, "may the Knights of Christ target it", absent=False))
    home_at_start: str = field(metadata=declared(_TEXT, "the Power holding it at the start, if not its own",
                                                 absent=""))
    uncontrollable: bool = field(metadata=declared(_FLAG, "can nobody control it", absent=False))


@dataclass(frozen=True)
class MapCard:
    """One map card: its place in the display, whether it starts displayed, its MDR (5.2)."""

    id: str
    start: bool = field(metadata=declared(_FLAG, "is it displayed at the start (2.1)"))
    mdr: int | None = field(metadata=declared(Field("int", lo=0, hi=12), "its Mongol die roll (5.2; A and B cards: "
                                              "none)", absent=None))
    x0: float = field(metadata=declared(Field("number"), "its west edge in the display"))
    x1: float = field(metadata=declared(Field("number"), "its east edge in the display"))
    y0: float = field(metadata=declared(Field("number"), "its north edge in the display"))
    y1: float = field(metadata=declared(Field("number"), "its south edge in the display"))


@dataclass(frozen=True)
class Sea:
    """A Naval Area (10.4) and the provinces on its coast (10.2)."""

    id: str
    card: str = field(metadata=declared(Field("text", choices=MAP_CARDS), "the map card it is on"))
    name: str = field(metadata=declared(_TEXT, "the Naval Area's name"))
    coasts: tuple[str, ...] = field(metadata=declared(Field("texts", lo=1), "the provinces on its coast (10.2)"))


_PAIR = {"a": Column(_TEXT, "one end"), "b": Column(_TEXT, "the other end")}
#: Every table of the data files, declared once (checks, builder and docs/data-schema.md).
DECLARED: Mapping[str, type | Table] = MappingProxyType({
    "power": Power,
    "province": Province,
    "border": Table("Two provinces that border each other (1.2).", _PAIR),
    "card": MapCard,
    "sea": Sea,
    "sea_link": Table("Two Naval Areas that link (10.4).", _PAIR),
    "powers_roll": Table("One entry of the Powers Table (1.6): a 2d6 roll read red then white, and its Power.", {
        "roll": Column(Field("int", lo=11, hi=66), "the roll, 11..66"), "power": Column(_TEXT, "the Power")}),
    "leader_roll": Table("A row of the Leader Table (4.5): the die faces that give a ruler.", {
        "lo": Column(Field("int", lo=1, hi=6), "the lowest face"), "hi": Column(Field("int", lo=1, hi=6), "the highest face"),
        "ruler": Column(Field("text", choices=RULERS), "the ruler they give")}),
    "action_card": Table("A kind of additional Action Card (1.0) and how many there are.", {
        "kind": Column(Field("text", choices=CARD_KINDS), "the kind"),
        "count": Column(Field("int", lo=0, hi=64), "how many"),
        "mandatory": Column(_FLAG, "must it be played when drawn", required=False),
        "names": Column(Field("texts"), "each card's name (as many as count)", required=False)}),
    "constant": Table("A number the rules state.", {"value": Column(Field("int", lo=0, hi=1000), "the number")}),
})
#: What each field of each table may hold, from ``DECLARED``.
SCHEMAS: Mapping[str, Mapping[str, Field]] = MappingProxyType({t: file_fields(d) for t, d in DECLARED.items()})


@dataclass(frozen=True)
class GameData:
    """Everything a game of Medieval is played with; shared by every copy of a state (never changed)."""

    __medviz_immutable__ = True

    powers: Mapping[str, Power]
    provinces: Mapping[str, Province]
    borders: Mapping[str, frozenset[str]]
    cards: Mapping[str, MapCard]
    seas: Mapping[str, Sea]
    sea_links: Mapping[str, frozenset[str]]
    powers_table: Mapping[int, str]
    leader_table: Mapping[int, str]
    #: Card id -> kind (``pope``, ``mongols``...), for the 64 additional Action Cards.
    action_cards: Mapping[str, str]
    mandatory_kinds: frozenset[str]
    constants: Mapping[str, int]
    #: Where the data came from ("shipped data" or the override file).
    label: str = "shipped data"

    def c(self, name: str) -> int:
        """A rules constant by name (``militia_cost``...)."""
        return self.constants[name]

    @functools.cached_property
    def by_power(self) -> Mapping[str, tuple[str, ...]]:
        """Power -> the provinces printed with its name, in data order (worked out once)."""
        out: dict[str, list[str]] = {}
        for p, v in self.provinces.items():
            if v.power:
                out.setdefault(v.power, []).append(p)
        return MappingProxyType({k: tuple(v) for k, v in out.items()})

    def provinces_of(self, power: str) -> tuple[str, ...]:
        """The provinces printed with ``power``'s name (4.1), in data order."""
        return _provinces_of(self, power)

    def provinces_on(self, card: str) -> tuple[str, ...]:
        """The provinces on map card ``card``."""
        return tuple(p for p, v in self.provinces.items() if v.card == card)

    def edge_adjacent(self, a: str, b: str) -> bool:
        """Two map cards share an edge along a positive length (corners do not count; reference §1.2)."""
        ca, cb = self.cards[a], self.cards[b]
        if ca.x1 == cb.x0 or cb.x1 == ca.x0:
            return min(ca.y1, cb.y1) - max(ca.y0, cb.y0) > 0
        if ca.y1 == cb.y0 or cb.y1 == ca.y0:
            return min(ca.x1, cb.x1) - max(ca.x0, cb.x0) > 0
        return False

    def east_of(self, z: str, x: str) -> bool:
        """Card ``z`` lies east of card ``x`` (5.3): its west edge at or past x's east edge, rows overlapping."""
        cz, cx = self.cards[z], self.cards[x]
        return cz.x0 >= cx.x1 and min(cz.y1, cx.y1) - max(cz.y0, cx.y0) > 0

    def easternmost(self, card: str, in_play: frozenset[str] | set[str]) -> bool:
        """No in-play card touches ``card``'s east edge along a positive length (5.2)."""
        c = self.cards[card]
        return not any(o != card and self.cards[o].x0 == c.x1
                       and min(self.cards[o].y1, c.y1) - max(self.cards[o].y0, c.y0) > 0 for o in in_play)

    def near_cards(self, card: str) -> frozenset[str]:
        """``card`` and the map cards sharing an edge with it (11.0, ruling R9)."""
        return frozenset([card, *(c for c in self.cards if c != card and self.edge_adjacent(card, c))])

    def card_id(self, kind: str) -> list[str]:
        """The additional Action Card ids of one kind."""
        return [k for k, v in self.action_cards.items() if v == kind]


def _provinces_of(data: GameData, power: str) -> tuple[str, ...]:
    return data.by_power.get(power, ())


def power_card(power: str) -> str:
    """The Action Card id of a Power card (the Power cards double as Action Cards, 1.0)."""
    return f"power-{power}"


def card_power(card: str) -> str | None:
    """The Power of a Power card id, else None."""
    return card[6:] if card.startswith("power-") else None


# -- loading ------------------------------------------------------------------------------------

def read_files(data_dir: Path = DATA_DIR) -> dict[str, list[dict[str, Any]]]:
    """The raw tables of the shipped data files, by table name."""
    tables: dict[str, list[dict[str, Any]]] = {}
    for fname, names in FILES.items():
        content = load_toml(data_dir / f"{fname}.toml")
        for name in names:
            tables[name] = [dict(e) for e in content.get(name, [])] if isinstance(content.get(name), list) else content.get(name)  # type: ignore[assignment]
    return tables


def merge_override(tables: dict[str, list[dict[str, Any]]], path: str | Path) -> dict[str, list[dict[str, Any]]]:
    """Patch ``tables`` with a user override file: same-key entries change field by field, new ones append."""
    content = load_toml(path, MAX_OVERRIDE_BYTES)
    problems = plain_value_problems(content, str(path))
    known = {t: k for names in FILES.values() for t, k in names.items()}
    for name in content:
        if name not in known:
            problems.append(f"{path}: unknown table {name!r} (known: {', '.join(sorted(known))})")
    if problems:
        raise DataError(problems, str(path))
    out = dict(tables)
    for name, entries in content.items():
        if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
            raise MalformedInput(f"{path}: table {name!r} must be an array of tables")
        key = known[name]
        if key is None:
            out[name] = list(out[name]) + [{**e, "source": str(path)} for e in entries]
            continue
        keyed = []
        for j, e in enumerate(entries):
            if key not in e:
                raise MalformedInput(f"{path}: [[{name}]] entry #{j + 1} has no {key!r}")
            keyed.append({**e, "id": str(e[key])})
        base = [{**e, "id": str(e[key])} for e in out[name]]
        merged = merge_by_id(base, keyed, str(path))
        out[name] = [{k: v for k, v in e.items() if not (k == "id" and key != "id")} for e in merged]
    return out


def validate(tables: Mapping[str, Any]) -> list[str]:
    """Every problem in the raw tables: schemas, provenance, references and the facts the rules state."""
    problems: list[str] = []
    for fname, names in FILES.items():
        for name in names:
            entries = tables.get(name)
            where = f"{fname}.toml [[{name}]]"
            if not isinstance(entries, list):
                problems.append(f"{where}: missing")
                continue
            problems += table_problems(entries, SCHEMAS[name], where)
            key = FILES[fname][name]
            for i, e in enumerate(entries):
                if isinstance(e, dict):
                    label = repr(e[key]) if key is not None and key in e else f"#{i + 1}"
                    problems += missing_problems(e, DECLARED[name], f"{where} entry {label}")
                if isinstance(e, dict) and not has_provenance(e):
                    problems.append(f"{where}: entry {e.get('id', e.get('kind', e.get('roll', f'#{i + 1}')))!r} "
                                    f"has no provenance (rule, reconstructed, ruling or source)")
    if problems:
        return problems  # the reference checks below need well-typed tables
    powers = {e["id"]: e for e in tables["power"]}
    provinces = {e["id"]: e for e in tables["province"]}
    cards = {e["id"]: e for e in tables["card"]}
    seas = {e["id"]: e for e in tables["sea"]}
    for name, key in (("power", "id"), ("province", "id"), ("card", "id"), ("sea", "id"),
                      ("powers_roll", "roll"), ("action_card", "kind"), ("constant", "id")):
        seen: set[Any] = set()
        for e in tables[name]:
            if e[key] in seen:
                problems.append(f"[[{name}]]: {key} {e[key]!r} appears twice")
            seen.add(e[key])
    for p in powers.values():
        if isinstance(p.get("navy"), str) and p["navy"] != "no":
            problems.append(f"power {p['id']!r}: navy must be a whole number or \"no\" (10.1), not {p['navy']!r}")
        missing = {"religion", "start", "army", "navy", "ruler"} - set(p.get("tags", {}))
        if missing:
            problems.append(f"power {p['id']!r}: no provenance tag for {', '.join(sorted(missing))}")
        if not any(v.get("power") == p["id"] for v in provinces.values()):
            problems.append(f"power {p['id']!r}: has no province")
    if len(powers) != 27:
        problems.append(f"there must be 27 Powers (4.1), not {len(powers)}")
    late = sorted(k for k, p in powers.items() if p.get("draft", True) is False)
    if late != sorted(LATE_POWERS):
        problems.append(f"the Powers not selectable at start must be the six of 2.2, not {late}")
    for k, v in provinces.items():
        if v.get("power") and v["power"] not in powers:
            problems.append(f"province {k!r}: unknown power {v['power']!r}")
        if v.get("home_at_start") and v["home_at_start"] not in powers:
            problems.append(f"province {k!r}: unknown home_at_start power {v['home_at_start']!r}")
    for e in tables["border"]:
        for end in ("a", "b"):
            if e.get(end) not in provinces:
                problems.append(f"border {e.get('a')!r}-{e.get('b')!r}: unknown province {e.get(end)!r}")
        if e.get("a") == e.get("b"):
            problems.append(f"border {e.get('a')!r}: a province cannot border itself")
    if sorted(cards) != sorted(MAP_CARDS):
        problems.append(f"the map cards must be the 19 of 1.2, not {sorted(cards)}")
    starts = sorted(k for k, c in cards.items() if c.get("start"))
    if starts != sorted(START_CARDS):
        problems.append(f"the cards displayed at start must be those of 2.1, not {starts}")
    for k, c in cards.items():
        if c["x1"] <= c["x0"] or c["y1"] <= c["y0"]:
            problems.append(f"card {k!r}: an empty rectangle")
        if (k[1] in "AB") and "mdr" in c:
            problems.append(f"card {k!r}: A and B cards are Mongol-proof (5.2) and have no MDR")
    for k, s in seas.items():
        for p in s.get("coasts", []):
            if p not in provinces:
                problems.append(f"sea {k!r}: unknown coastal province {p!r}")
            elif provinces[p].get("card") != s.get("card"):
                problems.append(f"sea {k!r}: coastal province {p!r} is on card {provinces[p].get('card')}, "
                                f"not {s.get('card')}")
    for e in tables["sea_link"]:
        for end in ("a", "b"):
            if e.get(end) not in seas:
                problems.append(f"sea link {e.get('a')!r}-{e.get('b')!r}: unknown sea {e.get(end)!r}")
    rolls = sorted(e["roll"] for e in tables["powers_roll"])
    want = sorted(10 * r + w for r in range(1, 7) for w in range(1, 7))
    if rolls != want:
        problems.append("the Powers Table must have one entry for each of 11..66 read red then white (1.6)")
    for e in tables["powers_roll"]:
        if e["power"] not in powers:
            problems.append(f"Powers Table {e['roll']}: unknown power {e['power']!r}")
    faces = sorted(f for e in tables["leader_roll"] for f in range(e["lo"], e["hi"] + 1))
    if faces != [1, 2, 3, 4, 5, 6]:
        problems.append(f"the Leader Table must cover each face 1-6 once (4.5), not {faces}")
    total = 0
    for e in tables["action_card"]:
        total += e.get("count", 0)
        if "names" in e and len(e["names"]) != e.get("count"):
            problems.append(f"action card {e['kind']!r}: {len(e['names'])} names for {e.get('count')} cards")
    if total != 64:
        problems.append(f"the additional Action Cards must number 64 (1.0), not {total}")
    kinds = {e["kind"]: e for e in tables["action_card"]}
    if kinds.get("pope", {}).get("count") != 12:
        problems.append("there are 12 Pope cards (6.1)")
    if kinds.get("mongols", {}).get("count") != 7:
        problems.append("there are 7 Mongol cards (3.5)")
    for e in tables["constant"]:
        if e["id"] not in CONSTANTS:
            problems.append(f"constant {e['id']!r}: unknown (known: {', '.join(CONSTANTS)})")
    missing_c = set(CONSTANTS) - {e["id"] for e in tables["constant"]}
    if missing_c:
        problems.append(f"constants missing: {', '.join(sorted(missing_c))}")
    return problems


def build(tables: Mapping[str, Any], label: str = "shipped data") -> GameData:
    """Freeze validated raw tables into ``GameData``."""
    powers = {e["id"]: build_checked(Power, e, id=e["id"]) for e in tables["power"]}
    provinces = {e["id"]: build_checked(Province, e, id=e["id"]) for e in tables["province"]}
    borders: dict[str, set[str]] = {p: set() for p in provinces}
    for e in tables["border"]:
        borders[e["a"]].add(e["b"])
        borders[e["b"]].add(e["a"])
    cards = {e["id"]: build_checked(MapCard, e, id=e["id"]) for e in tables["card"]}
    seas = {e["id"]: build_checked(Sea, e, id=e["id"]) for e in tables["sea"]}
    links: dict[str, set[str]] = {s: set() for s in seas}
    for e in tables["sea_link"]:
        links[e["a"]].add(e["b"])
        links[e["b"]].add(e["a"])
    action_cards: dict[str, str] = {}
    for e in tables["action_card"]:
        names = e.get("names") or [str(i) for i in range(1, e["count"] + 1)]
        for n in names:
            action_cards[f"{e['kind']}-{n}"] = e["kind"]
    leader = {f: e["ruler"] for e in tables["leader_roll"] for f in range(e["lo"], e["hi"] + 1)}
    return GameData(
        powers=MappingProxyType(powers), provinces=MappingProxyType(provinces),
        borders=MappingProxyType({k: frozenset(v) for k, v in borders.items()}),
        cards=MappingProxyType(cards), seas=MappingProxyType(seas),
        sea_links=MappingProxyType({k: frozenset(v) for k, v in links.items()}),
        powers_table=MappingProxyType({e["roll"]: e["power"] for e in tables["powers_roll"]}),
        leader_table=MappingProxyType(leader), action_cards=MappingProxyType(action_cards),
        mandatory_kinds=frozenset(e["kind"] for e in tables["action_card"] if e.get("mandatory")),
        constants=MappingProxyType({e["id"]: e["value"] for e in tables["constant"]}), label=label,
    )


_CACHE: dict[str, GameData] = {}


def load_game_data(override: str | Path | None = None) -> GameData:
    """The shipped data, optionally patched by a user override file; ``DataError`` lists every problem."""
    key = "" if override is None else str(Path(override).resolve())
    if key in _CACHE and override is None:
        return _CACHE[key]
    tables = read_files()
    label = "shipped data"
    if override is not None:
        tables = merge_override(tables, override)
        label = f"shipped data patched by {override}"
    problems = validate(tables)
    if problems:
        raise DataError(problems, label)
    data = build(tables, label)
    if override is None:
        _CACHE[key] = data
    return data
