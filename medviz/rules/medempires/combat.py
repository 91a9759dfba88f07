"""Combat in Mediterranean Empires: avoid-combat, initiative, the two tables, results (10.3, 11.3).

The rule flow is split in engine tasks (``combat``, ``round``, ``end``) so that every table roll
starts at a snapshot: branching the last die of a battle re-runs one round, not the battle.

Readings of ambiguous rules are marked "ruling" and listed in docs/rulings.md.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from medviz.engine.errors import IllegalAction, MalformedInput, UnknownReference
from medviz.engine.game import Context, SecretAsk, Task
from medviz.rules.medempires.choices import BattleUnit, Decision
from medviz.rules.datafiles import load_toml

DATA = Path(__file__).parent / "data"

UNIT_NAMES = {"FA": "field army", "L": "levy", "R": "raiders", "M": "mercenaries", "F": "fleet"}
#: Stratagem markers that act in battle, by spec code (12.0).
MARKER_NAMES = {"MA": "military advantage", "AMB": "ambush", "ST": "siege train", "CDM": "coup de main"}
SIDES = ("attacker", "defender")

UnitKey = tuple[str, str]  # (power, unit code)


# --------------------------------------------------------------------------------------------
# Tables as data
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CombatTable:
    """One combat table: cells by row (die 1..6, 7+) and column (attacking units)."""

    id: str
    name: str
    rule: str
    counts_double: frozenset[str]
    fleets_count_double: frozenset[str]
    cells: tuple[tuple[str, ...], ...]
    column_limits: tuple[int, ...]
    columns: tuple[str, ...]

    def column(self, count: int) -> int:
        """Column index for ``count`` attacking units; above 10 uses the 8–10 column (10.3.2)."""
        if count < 1:
            raise IllegalAction("a combat needs at least one attacking unit", "10.3.2")
        for i, limit in enumerate(self.column_limits):
            if count <= limit:
                return i
        return len(self.column_limits) - 1

    def result(self, modified: int, count: int) -> str:
        """The result for a modified roll; below 1 reads row 1 (ruling), 7 or more reads 7+."""
        row = min(max(modified, 1), 7) - 1
        return self.cells[row][self.column(count)]


@lru_cache(maxsize=1)
def tables() -> dict[str, CombatTable]:
    """The Field/Naval and Raid tables from data/tables.toml."""
    raw = load_toml(DATA / "tables.toml")
    out = {}
    for t in raw["table"]:
        out[t["id"]] = CombatTable(
            t["id"], t["name"], t["rule"], frozenset(t["counts_double"]),
            frozenset(t["fleets_count_double"]), tuple(tuple(r) for r in t["cells"]),
            tuple(raw["column_limits"]), tuple(raw["columns"]),
        )
    return out


def validate_tables() -> list[str]:
    """Every problem in data/tables.toml (shape, result codes, provenance)."""
    problems: list[str] = []
    raw = load_toml(DATA / "tables.toml")
    results = {r["id"] for r in raw.get("result", [])}
    for t in raw.get("table", []):
        if len(t.get("cells", [])) != len(raw["rows"]):
            problems.append(f"table {t.get('id')}: {len(t.get('cells', []))} rows, expected {len(raw['rows'])}")
        for i, row in enumerate(t.get("cells", [])):
            if len(row) != len(raw["columns"]):
                problems.append(f"table {t.get('id')} row {raw['rows'][i]}: {len(row)} cells, expected {len(raw['columns'])}")
            for cell in row:
                if cell not in results:
                    problems.append(f"table {t.get('id')} row {raw['rows'][i]}: unknown result {cell!r}")
        if not t.get("rule"):
            problems.append(f"table {t.get('id')}: no rule citation")
    for section in ("result", "modifier"):
        for r in raw.get(section, []):
            if not r.get("rule"):
                problems.append(f"{section} {r.get('id')}: no rule citation")
    return problems


# --------------------------------------------------------------------------------------------
# Forces
# --------------------------------------------------------------------------------------------
@dataclass
class Side:
    """One side of a battle: units by (power, code), an optional King, battle stratagem markers."""

    player: str
    units: dict[UnitKey, int] = field(default_factory=dict)
    king: tuple[str, int] | None = None  # (power, military value)
    markers: dict[str, int] = field(default_factory=dict)

    def count(self) -> int:
        """Number of units (Kings are not units)."""
        return sum(self.units.values())

    def keys(self) -> list[UnitKey]:
        """Distinct unit kinds present, in a stable order."""
        return sorted(k for k, n in self.units.items() if n > 0)

    def powers(self) -> set[str]:
        """Powers with units (or a King) on this side."""
        return {p for (p, _), n in self.units.items() if n > 0} | ({self.king[0]} if self.king else set())


def weight(key: UnitKey, table: str) -> int:
    """How many units ``key`` counts for on ``table`` (and in losses: BB/DV count it the same)."""
    power, code = key
    t = tables()[table]
    if code == "F":
        return 2 if power in t.fleets_count_double else 1
    return 2 if code in t.counts_double else 1


def table_count(units: Mapping[UnitKey, int], table: str) -> int:
    """Attacking units counted on ``table`` (10.3.2 step 4; doubles per the table note)."""
    return sum(weight(k, table) * n for k, n in units.items() if n > 0)


_ITEM_RE = re.compile(r"^(?:([0-9]+)(FA|L|R|M|F|MA|AMB|ST|CDM)|K([0-9]+))$")

#: The most OPs a force has (operations.toml ``ops_cap``, 10.0): a battle's OPs left are at most this.
OPS_MAX = 15
#: A King is rated 0-3 (8.0: the rating is added to OPs and to combat rolls).
KING_RATING_MAX = 3
#: Battle stratagem markers by spec code: their stratagem kind in stratagems.toml (12.0).
MARKER_KINDS = {"MA": "military_advantage", "AMB": "ambush", "ST": "siege_train", "CDM": "coup_de_main"}


def spec_limits() -> dict[str, int]:
    """The most a force SPEC may name of each code: counters that exist in the active game data.

    A unit count per power is at most the largest counter mix of that code (units.toml: no power
    has more counters of a kind), a marker count at most the markers of that kind in the cup
    (stratagems.toml), a King's rating at most ``KING_RATING_MAX``.
    """
    from medviz.rules.medempires.gamedata import default_game_data

    data = default_game_data()  # a SPEC names a one-battle game's forces, always of the shipped data
    limits = {code: max((mix.get(code, 0) for mix in data.counter_limits.values()), default=0)
              for code in UNIT_NAMES}
    for code, kind in MARKER_KINDS.items():
        s = data.stratagems.get(kind)
        limits[code] = s.count if s is not None else 0
    limits["K"] = KING_RATING_MAX
    return limits


def _count(text: str, raw: str, where: str) -> int:
    if len(text) > 6:
        raise MalformedInput(f"{where}: count in {raw.strip()[:40]!r} has {len(text)} digits; far too many")
    return int(text)


def parse_force(spec: str, player: str, known_powers: Iterable[str], where: str = "force") -> Side:
    """Parse ``POWER:COUNT CODE,...`` (several powers joined by ``+``) into a ``Side``.

    Codes: FA field army, L levy, R raiders, M mercenaries, F fleet, ``K<n>`` a King of military
    value n; battle stratagem markers MA, AMB, ST, CDM may follow a count (``1MA``). Counts are
    bounded by the counters that exist (``spec_limits``); more is ``MalformedInput`` at once.
    """
    powers = set(known_powers)
    side = Side(player)
    if not spec or not spec.strip():
        raise MalformedInput(f"{where}: empty force; expected e.g. 'aragon:2FA,1L,1M,K2'")
    if len(spec) > 1000:
        raise MalformedInput(f"{where}: force SPEC of {len(spec)} characters is too long (at most 1000)")
    limits = spec_limits()
    for part in spec.split("+"):
        power, sep, items = part.strip().partition(":")
        power = power.strip().lower()
        if not sep or not items.strip():
            raise MalformedInput(f"{where}: {part.strip()[:60]!r} is not POWER:ITEMS (e.g. 'aragon:2FA,1L')")
        if power not in powers:
            raise UnknownReference(f"{where}: unknown power {power[:60]!r}; known: {', '.join(sorted(powers))}")
        for raw in items.split(","):
            item = raw.strip().upper()
            if item.startswith("-"):
                raise MalformedInput(f"{where}: negative count in {raw.strip()[:40]!r}")
            m = _ITEM_RE.match(item)
            if not m:
                raise MalformedInput(
                    f"{where}: cannot read {raw.strip()[:40]!r}; use a count and a code "
                    f"(FA, L, R, M, F, or markers MA, AMB, ST, CDM) or K<n> for a King"
                )
            if m.group(3) is not None:
                if side.king is not None:
                    raise IllegalAction(f"{where}: only one King's military value counts per side", "10.3.2 step 5")
                rating = _count(m.group(3), raw, where)
                if rating > limits["K"]:
                    raise MalformedInput(f"{where}: King K{rating}: a King is rated 0-{limits['K']} (8.0)")
                side.king = (power, rating)
                continue
            n, code = _count(m.group(1), raw, where), m.group(2)
            if code in MARKER_NAMES:
                side.markers[code] = total = side.markers.get(code, 0) + n
                if total > limits[code]:
                    raise MalformedInput(f"{where}: {total} {MARKER_NAMES[code]} markers; the cup holds "
                                         f"{limits[code]} (stratagems.toml)")
            elif n > 0:
                side.units[(power, code)] = total = side.units.get((power, code), 0) + n
                if total > limits[code]:
                    raise MalformedInput(f"{where}: {total} {power} {code}; no power has more than "
                                         f"{limits[code]} {UNIT_NAMES[code]} counters (units.toml counter mix)")
    if side.count() == 0:
        raise MalformedInput(f"{where}: the force has no units (Kings alone do not fight)")
    if any(code == "M" and p != "aragon" for p, code in side.units):
        raise IllegalAction(f"{where}: only Aragon has mercenaries", "2.2.1")
    return side


def battle_kind(attacker: Side, defender: Side) -> str:
    """``sea`` when both sides are fleets, ``land`` when neither has fleets; mixing is illegal (11.3)."""
    fleets = [any(c == "F" for _, c in s.units) for s in (attacker, defender)]
    lands = [any(c != "F" for _, c in s.units) for s in (attacker, defender)]
    if any(f and l for f, l in zip(fleets, lands)) or (any(fleets) and any(lands)):
        raise IllegalAction("fleets fight only fleets and land units only land units", "11.3")
    return "sea" if all(fleets) else "land"


# --------------------------------------------------------------------------------------------
# Battle state
# --------------------------------------------------------------------------------------------
@dataclass
class BattleState:
    """A battle in one area: the two sides and what has happened so far."""

    prefix: str
    kind: str                       # land | sea
    city: bool
    sides: dict[str, Side]
    ops: int = 0                    # OPs left for further combats after a NE (10.3.2 NE)
    may_avoid: bool = True          # False after an interception (10.2)
    raiders_only: bool = False      # the current combat is fought by the attacker's raiders only
    avoided: str | None = None      # None | "all"
    results: list[str] = field(default_factory=list)
    eliminated: dict[str, dict[UnitKey, int]] = field(default_factory=lambda: {"attacker": {}, "defender": {}})
    kings_killed: list[str] = field(default_factory=list)
    combats: int = 0
    rounds: int = 0
    finished: bool = False
    initial: dict[str, dict[UnitKey, int]] = field(default_factory=dict)
    cover: dict[str, int] = field(default_factory=dict)  # friendly units stacked with the King outside the battle

    def engaged(self, side: str) -> dict[UnitKey, int]:
        """Units of ``side`` fighting the current combat (raiders only after a modified 5 avoid)."""
        units = self.sides[side].units
        if side == "attacker" and self.raiders_only:
            return {k: n for k, n in units.items() if k[1] == "R" and n > 0}
        return {k: n for k, n in units.items() if n > 0}

    def copy(self) -> BattleState:
        """An independent copy (hand-written: the odds solver copies states often)."""
        sides = {k: Side(v.player, dict(v.units), v.king, dict(v.markers)) for k, v in self.sides.items()}
        return BattleState(
            self.prefix, self.kind, self.city, sides, self.ops, self.may_avoid, self.raiders_only,
            self.avoided, list(self.results), {k: dict(v) for k, v in self.eliminated.items()},
            list(self.kings_killed), self.combats, self.rounds, self.finished,
            {k: dict(v) for k, v in self.initial.items()}, dict(self.cover),
        )


def other(side: str) -> str:
    """The opposing side's label."""
    return "defender" if side == "attacker" else "attacker"


def combat_drm(b: BattleState, roller: str, roller_marker: str | None, other_marker: str | None) -> int:
    """Modifier of a table roll by ``roller`` (10.3.2 step 5, in the order given there)."""
    r, o = b.sides[roller], b.sides[other(roller)]
    drm = 0
    if r.king:
        drm += r.king[1]
    if o.king:
        drm -= o.king[1]
    if any(c == "M" for (_, c) in b.engaged(roller)):
        drm += 1
    if any(c == "M" for (_, c) in b.engaged(other(roller))):
        drm -= 1
    if roller_marker:
        drm += 1
    if other_marker:
        drm -= 1
    return drm


def roller_markers(b: BattleState, roller: str, table: str) -> list[str]:
    """Markers the rolling side may expend on this roll (12.0; one per side per roll)."""
    m = b.sides[roller].markers
    out = []
    if m.get("MA"):
        out.append("MA")
    if table == "raid" and m.get("AMB"):
        out.append("AMB")
    # Ruling: siege train / coup de main serve the phasing attacker only, in a field battle in a
    # city area (12.0 "attacker only"); the defender's counterattack cannot use them.
    if table == "field" and b.kind == "land" and b.city and roller == "attacker":
        out += [k for k in ("ST", "CDM") if m.get(k)]
    return out


def opposing_markers(b: BattleState, opposer: str, table: str) -> list[str]:
    """Markers the side receiving the roll may expend for -1 (12.0)."""
    m = b.sides[opposer].markers
    out = []
    if m.get("MA"):
        out.append("MA")
    if table == "raid" and m.get("AMB"):
        out.append("AMB")
    return out


def avoid_modifier(b: BattleState) -> int:
    """Modifier of the defender's avoid-combat roll (10.3.1)."""
    drm = 0
    if all(c == "R" for (_, c) in b.engaged("attacker")):
        drm -= 1
    if b.sides["defender"].king:
        drm += b.sides["defender"].king[1]
    return drm


def avoid_result(modified: int) -> str:
    """``fails``, ``raiders-only`` (modified 5) or ``all`` (6 or more) — 10.3.1."""
    if modified >= 6:
        return "all"
    if modified == 5:
        return "raiders-only"
    return "fails"


def tables_open(b: BattleState) -> list[str]:
    """Tables the initiative winner may choose: fleets only the Field/Naval table (11.3)."""
    return ["field"] if b.kind == "sea" else ["field", "raid"]


def initiative_markers(b: BattleState, side: str) -> int:
    """Markers that may add +1 to initiative: military advantage and ambush (10.3.2 step 2, 12.0)."""
    m = b.sides[side].markers
    return m.get("MA", 0) + m.get("AMB", 0)


# --------------------------------------------------------------------------------------------
# Engine tasks
# --------------------------------------------------------------------------------------------
def _rid(b: BattleState, *parts: object) -> str:
    return "/".join([b.prefix, f"combat-{b.combats}", *map(str, parts)])


def _unit_label(key: UnitKey) -> str:
    return f"{key[0]} {key[1]}"


def _unit(key: UnitKey) -> BattleUnit:
    return BattleUnit(key[0], key[1])


def task_combat(b: BattleState, ctx: Context) -> None:
    """Declaration, avoid-combat, initiative and the choice of table (10.3.1, 10.3.2 steps 1–3)."""
    ctx.change("battle-combat-begins", automatic=True)
    att, dfd = b.sides["attacker"], b.sides["defender"]
    ctx.report("combat-declared", actor=att.player, attacker=att.count(), defender=dfd.count())
    if b.may_avoid:
        choice = ctx.decide(_rid(b, "avoid-attempt"), dfd.player, ["stand", "try to avoid"],
                            prompt="Try to avoid combat? (10.3.1)", kind=Decision.AVOID)
        if choice == "try to avoid":
            drm = avoid_modifier(b)
            effects = {f: avoid_result(f + drm) for f in range(1, 7)}
            die = ctx.roll(_rid(b, "avoid"), actor=dfd.player, purpose="avoid combat (10.3.1)", effects=effects)
            outcome = avoid_result(die + drm)
            ctx.report("avoid-result", actor=dfd.player, roll=die, drm=drm, modified=die + drm, result=outcome)
            if outcome == "all" or (outcome == "raiders-only" and not any(c == "R" for _, c in att.units)):
                ctx.change("battle-avoided", actor=dfd.player)
                ctx.schedule(Task.of("battle.end"))
                return
            if outcome == "raiders-only":
                go = ctx.decide(_rid(b, "raiders-only"), att.player, ["attack with raiders", "break off"],
                                prompt="Only raiders may attack (10.3.1 result 5)", kind=Decision.RAIDERS_ONLY)
                if go == "break off":
                    ctx.change("battle-avoided", actor=dfd.player)
                    ctx.schedule(Task.of("battle.end"))
                    return
                ctx.change("battle-raiders-only", actor=att.player)
    # Initiative (10.3.2 step 2): both sides commit markers secretly, before either die is rolled.
    committed = ctx.decide_secretly([
        SecretAsk(_rid(b, "initiative-markers", side), b.sides[side].player,
                  list(range(initiative_markers(b, side) + 1)), "Markers to expend on initiative (+1 each)",
                  Decision.INITIATIVE)
        for side in SIDES])
    for side, n in zip(SIDES, committed):
        s = b.sides[side]
        for _ in range(n):
            # Ruling: ambush markers go first, as military advantage also serves on both tables.
            kind = "AMB" if s.markers.get("AMB") else "MA"
            ctx.change("battle-marker-spent", actor=s.player, side=side, marker=kind, use="initiative")
    totals = {}
    for side, n in zip(SIDES, committed):
        s = b.sides[side]
        die = ctx.roll(_rid(b, "initiative", side), actor=s.player, purpose="initiative (10.3.2 step 2)")
        totals[side] = die + (s.king[1] if s.king else 0) + n
    winner = "attacker" if totals["attacker"] > totals["defender"] else "defender"
    ctx.report("initiative", actor=b.sides[winner].player, winner=winner, attacker=totals["attacker"],
               defender=totals["defender"])
    table = ctx.decide(_rid(b, "table"), b.sides[winner].player, tables_open(b),
                       prompt="Which combat table? (10.3.2 step 3)", kind=Decision.TABLE)
    ctx.schedule(Task.of("battle.round", checkpoint=True, table=table, roller="attacker"))


def task_round(b: BattleState, ctx: Context, table: str, roller: str) -> None:
    """One table roll and its result (10.3.2 steps 4–6 and the Combat Results)."""
    ctx.change("battle-round-begins", automatic=True)
    opp = other(roller)
    r, o = b.sides[roller], b.sides[opp]
    k = b.rounds
    count = table_count(b.engaged(roller), table)
    mine = roller_markers(b, roller, table)
    pick = ctx.decide(_rid(b, f"round-{k}", f"{roller}-marker"), r.player, ["none", *mine],
                      prompt="Expend a stratagem marker for +1? (attacker declares first)", kind=Decision.MARKER)
    theirs = opposing_markers(b, opp, table)
    counter = ctx.decide(_rid(b, f"round-{k}", f"{opp}-marker"), o.player, ["none", *theirs],
                         prompt="Expend a stratagem marker for -1?", kind=Decision.MARKER)
    for side, marker in ((roller, pick), (opp, counter)):
        if marker != "none":
            ctx.change("battle-marker-spent", actor=b.sides[side].player, side=side, marker=marker, use="combat")
    drm = combat_drm(b, roller, None if pick == "none" else pick, None if counter == "none" else counter)
    t = tables()[table]
    effects = {f: t.result(f + drm, count) for f in range(1, 7)}
    die = ctx.roll(_rid(b, f"round-{k}", roller), actor=r.player,
                   purpose=f"{t.name}, {count} attacking unit(s), DRM {drm:+d}", effects=effects)
    result = t.result(die + drm, count)
    ctx.change("battle-result", actor=r.player, roller=roller, table=table, roll=die, drm=drm,
               modified=die + drm, count=count, column=t.columns[t.column(count)], result=result)
    if result == "CA":
        for side in (roller, opp):
            _eliminate_one(b, ctx, side, f"round-{k}/ca-loss/{side}")
        _check_kings(b, ctx)
        if b.engaged(opp) and b.engaged(roller):
            go = ctx.decide(_rid(b, f"round-{k}", "counterattack"), o.player, ["counterattack", "stop"],
                            prompt="Counterattack on the same table? (CA)", kind=Decision.COUNTERATTACK)
            if go == "counterattack":
                ctx.schedule(Task.of("battle.round", checkpoint=True, table=table, roller=opp))
                return
    elif result == "BB":
        lost = _eliminate_one(b, ctx, roller, f"round-{k}/bb-loss-1", table=table)
        i = 2
        while b.engaged(roller):
            options: list[Any] = ["stop", *[_unit(x) for x in sorted(b.engaged(roller))]]
            more = ctx.decide(_rid(b, f"round-{k}", f"bb-loss-{i}"), r.player, options,
                              prompt="Bloodbath: eliminate another of your units?", kind=Decision.BLOODBATH_MORE)
            if more == "stop":
                break
            key = (more.power, more.code)
            ctx.change("battle-eliminate", actor=r.player, side=roller, power=key[0], unit=key[1])
            lost += weight(key, table)
            i += 1
        # The defender must lose as much; it cannot fall short (ruling: "at least").
        _eliminate_points(b, ctx, opp, lost, table, f"round-{k}/bb-defender-loss", at_least=True)
        _check_kings(b, ctx)
    elif result == "NE":
        if b.ops >= 2 and b.engaged("attacker") and b.engaged("defender"):
            again = ctx.decide(_rid(b, f"round-{k}", "attack-again"), b.sides["attacker"].player,
                               ["stop", "attack again"], prompt="Start another combat for 2 OPs? (NE)",
                               kind=Decision.ATTACK_AGAIN)
            if again == "attack again":
                ctx.change("battle-ops-spent", actor=b.sides["attacker"].player, ops=2)
                ctx.schedule(Task.of("battle.combat", checkpoint=True))
                return
    elif result == "DV":
        # Ruling: "up to" the attacking count: losses never exceed it.
        _eliminate_points(b, ctx, opp, count, table, f"round-{k}/dv-loss", at_least=False)
        if b.engaged(roller):
            _eliminate_one(b, ctx, roller, f"round-{k}/dv-attacker-loss")
        _check_kings(b, ctx)
    elif result == "DV+S":
        for key, n in sorted(b.engaged(opp).items()):
            for _ in range(n):
                ctx.change("battle-eliminate", actor=o.player, side=opp, power=key[0], unit=key[1])
        ctx.report("stratagem-earned", actor=r.player, side=roller)
        _check_kings(b, ctx)
    ctx.schedule(Task.of("battle.end"))


def task_end(b: BattleState, ctx: Context) -> None:
    """The battle is over."""
    ctx.change("battle-ends", automatic=True, winner=battle_winner(b))


def _eliminate_one(b: BattleState, ctx: Context, side: str, what: str, table: str | None = None) -> int:
    units = b.engaged(side)
    if not units:
        return 0
    options = [_unit(x) for x in sorted(units)]
    pick = ctx.decide(_rid(b, what), b.sides[side].player, options, prompt="Which unit is eliminated?",
                      kind=Decision.LOSS)
    key = (pick.power, pick.code)
    ctx.change("battle-eliminate", actor=b.sides[side].player, side=side, power=key[0], unit=key[1])
    return weight(key, table) if table else 1


def _eliminate_points(b: BattleState, ctx: Context, side: str, points: int, table: str, what: str,
                      at_least: bool) -> None:
    """Remove units worth ``points`` (doubles count two); ``at_least`` lets the last unit overshoot."""
    i = 1
    while points > 0 and b.engaged(side):
        fits = [x for x in sorted(b.engaged(side)) if at_least or weight(x, table) <= points]
        if not fits:
            break
        pick = ctx.decide(_rid(b, f"{what}-{i}"), b.sides[side].player, [_unit(x) for x in fits],
                          prompt=f"Eliminate units worth {points} more", kind=Decision.LOSS)
        key = (pick.power, pick.code)
        ctx.change("battle-eliminate", actor=b.sides[side].player, side=side, power=key[0], unit=key[1])
        points -= weight(key, table)
        i += 1


def _check_kings(b: BattleState, ctx: Context) -> None:
    """A King dies when every friendly unit stacked with him is eliminated (8.1): those outside the battle too."""
    for side in SIDES:
        s = b.sides[side]
        if s.king and s.count() == 0 and not b.cover.get(side) and side not in b.kings_killed:
            ctx.change("battle-king-killed", actor=s.player, side=side, power=s.king[0])


def battle_winner(b: BattleState) -> str:
    """``attacker``/``defender`` when the other side is destroyed; ``none`` if both stand."""
    a, d = b.sides["attacker"].count(), b.sides["defender"].count()
    if d == 0 and a > 0:
        return "attacker"
    if a == 0 and d > 0:
        return "defender"
    if a == 0 and d == 0:
        return "both destroyed"
    return "none"


def apply_battle_change(b: BattleState, change: str, data: Mapping[str, Any]) -> None:
    """Reducer for battle change events."""
    if change == "battle-eliminate":
        key = (data["power"], data["unit"])
        side = data["side"]
        units = b.sides[side].units
        units[key] -= 1
        if units[key] == 0:
            del units[key]
        elim = b.eliminated[side]
        elim[key] = elim.get(key, 0) + 1
    elif change == "battle-marker-spent":
        m = b.sides[data["side"]].markers
        m[data["marker"]] -= 1
        if data["marker"] in ("ST", "CDM"):  # 12.0: never both in one battle, even in later rounds
            m.pop("CDM" if data["marker"] == "ST" else "ST", None)
    elif change == "battle-result":
        b.results.append(data["result"])
    elif change == "battle-king-killed":
        b.kings_killed.append(data["side"])
    elif change == "battle-avoided":
        b.avoided = "all"
    elif change == "battle-raiders-only":
        b.raiders_only = True
    elif change == "battle-ops-spent":
        b.ops -= int(data["ops"])
    elif change == "battle-combat-begins":
        b.combats += 1
        b.raiders_only = False
    elif change == "battle-round-begins":
        b.rounds += 1
    elif change == "battle-ends":
        b.finished = True
    else:
        raise KeyError(change)


def units_summary(units: Mapping[UnitKey, int]) -> dict[str, int]:
    """``{"aragon FA": 2, ...}`` for outcomes and reports."""
    return {_unit_label(k): n for k, n in sorted(units.items()) if n > 0}


def battle_outcome(b: BattleState) -> dict[str, Any]:
    """The outcome of a battle as plain data."""
    return {
        "winner": battle_winner(b),
        "avoided": b.avoided is not None,
        "last_result": b.results[-1] if b.results else None,
        "results": list(b.results),
        "survivors": {s: units_summary(b.sides[s].units) for s in SIDES},
        "eliminated": {s: units_summary(b.eliminated[s]) for s in SIDES},
        "kings_killed": list(b.kings_killed),
        "combats": b.combats,
        "rounds": b.rounds,
    }
