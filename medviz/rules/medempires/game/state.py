"""The state of a whole game of Mediterranean Empires, area control (3.4) and a fast copy.

Units are counted per area as ``{(power, code): n}``; a land unit carried by a fleet is held in
the active force's cargo, never in a sea area. Control is derived from occupancy after every
change (3.4) and kept in ``ctl``; ``owner`` remembers the last holder of total control (3.4 b).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Generic, TypeVar

from medviz.engine.copying import independent_copy
from medviz.rules.medempires.combat import BattleState
from medviz.rules.medempires.game.datapair import DataPair as DataPair  # re-exported
from medviz.rules.medempires.game.datapair import shipped_data as shipped_data  # re-exported
from medviz.rules.medempires.gamedata import GameData
from medviz.rules.medempires.mapdata import GameMap

Key = tuple[str, str]  # (power, unit code)
SIDES = ("A", "B")
PLAYER_POWERS = {"france": "A", "anjou": "A", "aragon": "B"}
#: Battle stratagem markers: our ids -> combat.py codes (12.0).
BATTLE_MARKERS = {"military_advantage": "MA", "ambush": "AMB", "siege_train": "ST", "coup_de_main": "CDM"}
MARKER_IDS = {v: k for k, v in BATTLE_MARKERS.items()}
LAND_CODES = ("FA", "L", "R", "M")
_V = TypeVar("_V")


_VASSAL_SIDE = {"vassal:A": "A", "vassal:B": "B"}
_NOT_VASSAL = frozenset({"neutral", "player", "ally:A", "ally:B"})

#: The side an allied power's units serve, by its status (3.3).
ALLY_SIDE = {"ally:A": "A", "ally:B": "B"}


def other_side(side: str) -> str:
    """The opposing faction."""
    return "B" if side == "A" else "A"


class Same:
    """A cache key that is the object itself (by identity), for unhashable map and game data."""

    __slots__ = ("obj",)

    def __init__(self, obj: Any) -> None:
        self.obj = obj

    def __hash__(self) -> int:
        return id(self.obj)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Same) and other.obj is self.obj


class _PerMap(Generic[_V]):
    """Values worked out once per map and area (maps never change), found by the map's identity.

    Each map is kept with its values, so its id cannot pass to another map while they are kept; an
    override map has values of its own.
    """

    __slots__ = ("_compute", "_maps")

    def __init__(self, compute: Callable[[GameMap, str], _V]) -> None:
        self._compute = compute
        self._maps: dict[int, tuple[GameMap, dict[str, _V]]] = {}

    def get(self, gm: GameMap, area: str) -> _V:
        """The value for ``area`` on map ``gm`` (shared: read it, never change it)."""
        hit = self._maps.get(id(gm))
        if hit is None or hit[0] is not gm:
            if len(self._maps) >= 64:  # many override maps in one process: start again rather than grow
                self._maps.clear()
            hit = self._maps[id(gm)] = (gm, {})
        value = hit[1].get(area)
        if value is None:
            value = hit[1][area] = self._compute(gm, area)
        return value


def _distances(gm: GameMap, start: str) -> dict[str, int]:
    """Breadth-first move counts over the map's neighbours."""
    m = gm.areas
    dist = {start: 0}
    q = deque([start])
    while q:
        a = q.popleft()
        for b in sorted(m[a].neighbours):
            if b not in dist:
                dist[b] = dist[a] + 1
                q.append(b)
    return dist


def _coast_distances(gm: GameMap, sea: str) -> dict[str, int]:
    dist = _MOVES.get(gm, sea)
    return {a: min(dist.get(x, 99) for x in area.coasts) for a, area in gm.areas.items() if area.coasts}


_MOVES = _PerMap(_distances)
_COASTS = _PerMap(_coast_distances)


def land_distances(gm: GameMap, start: str) -> dict[str, int]:
    """Fewest land moves on map ``gm`` from ``start`` to every land area (straits need a fleet, 10.1)."""
    return _MOVES.get(gm, start)


def sea_distances(gm: GameMap, start: str) -> dict[str, int]:
    """Fewest naval moves on map ``gm`` from sea ``start`` to every sea area."""
    return _MOVES.get(gm, start)


def coast_distances(gm: GameMap, sea: str) -> dict[str, int]:
    """Fewest naval moves on map ``gm`` from sea ``sea`` to each area's nearest coast (99: none in reach).

    Areas with no coast are left out; read it with ``.get(area, 99)``. The dict is shared: never change it.
    """
    return _COASTS.get(gm, sea)


def sea_ids(gm: GameMap) -> tuple[str, ...]:
    """The sea areas of map ``gm``, sorted (``GameMap.sea_ids``, once per map)."""
    return _sea_ids(Same(gm))


@lru_cache(maxsize=64)
def _sea_ids(gm: Same) -> tuple[str, ...]:
    return tuple(gm.obj.sea_ids())




@dataclass
class Force:
    """The force being activated (10.0): one power's units in one area, its OPs and its cargo."""

    id: str
    side: str
    power: str
    kind: str                      # land | sea
    area: str
    start: str
    units: dict[Key, int]
    ops: int = 0
    kings: list[str] = field(default_factory=list)
    cargo: dict[Key, int] = field(default_factory=dict)
    cargo_kings: list[str] = field(default_factory=list)
    restricted: bool = False       # 11.1: must first reach a sea next to a friendly city
    steps: int = 0
    moved: bool = False            # left the initial area (pick-ups there end, 10.1)
    landing_parent: str | None = None
    fought: dict[Key, int] = field(default_factory=dict)        # 14.1: mercenaries in the force that fought
    cargo_fought: dict[Key, int] = field(default_factory=dict)  # 14.1: mercenaries aboard that fought

    def copy(self) -> Force:
        """An independent copy."""
        return Force(self.id, self.side, self.power, self.kind, self.area, self.start, dict(self.units),
                     self.ops, list(self.kings), dict(self.cargo), list(self.cargo_kings), self.restricted,
                     self.steps, self.moved, self.landing_parent, dict(self.fought), dict(self.cargo_fought))

    def count(self) -> int:
        """Units in the force (Kings and cargo not counted)."""
        return sum(self.units.values())


@dataclass
class GameState:
    """Everything on the table: units, control, treasuries, Kings, markers, turn and phase."""

    scenario: str
    last_turn: int
    options: dict[str, bool]
    turn: int = 1
    phase: str = "setup"
    units: dict[str, dict[Key, int]] = field(default_factory=dict)
    done: dict[str, dict[Key, int]] = field(default_factory=dict)
    owner: dict[str, str | None] = field(default_factory=dict)
    ctl: dict[str, str | None] = field(default_factory=dict)
    start_ctl: dict[str, str | None] = field(default_factory=dict)
    status: dict[str, str] = field(default_factory=dict)        # power -> player|ally:X|vassal:X|neutral
    tp: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})
    kings: dict[str, str] = field(default_factory=dict)         # King on the map -> area
    king_pools: dict[str, list[str]] = field(default_factory=dict)  # power -> Kings in its pool
    king_due: dict[str, bool] = field(default_factory=dict)     # power -> a new King is due (8.1)
    hands: dict[str, dict[str, int]] = field(default_factory=lambda: {"A": {}, "B": {}})
    cup: dict[str, int] = field(default_factory=dict)
    aside: dict[str, int] = field(default_factory=dict)         # out of the cup until a phase ends
    in_play: dict[str, int] = field(default_factory=dict)       # played this turn, back at end of turn
    pope: str | None = None                                     # side whose Pope is in Rome
    pope_holder: str | None = None                              # last side that held the Pope (8.2)
    plague: bool = False
    crusade: dict[str, dict[Key, int]] = field(default_factory=lambda: {"A": {}, "B": {}})
    crusade_fleet_due: dict[str, bool] = field(default_factory=lambda: {"A": False, "B": False})
    political: dict[str, list[str]] = field(default_factory=lambda: {"A": [], "B": []})  # kinds left
    kings_used: list[str] = field(default_factory=list)          # Kings' diplomacy used this turn
    pope_used: bool = False
    concession: dict[str, bool] = field(default_factory=lambda: {"A": False, "B": False})
    force: Force | None = None
    forces: int = 0
    battle: BattleState | None = None
    battle_info: dict[str, Any] = field(default_factory=dict)
    taken: list[str] = field(default_factory=list)               # 13.0: Aragonese areas A took
    fought: dict[str, dict[Key, int]] = field(default_factory=dict)  # 14.1: mercenaries per area that fought
    recruited_here: dict[str, dict[str, int]] = field(default_factory=dict)  # 6.2: side -> area -> recruits
    allied_recruits: list[str] = field(default_factory=list)      # 6.2: allied powers recruited from
    #: What happened, for the summary; entries are frozen (``FrozenDict``), so snapshots share them.
    chronicle: dict[str, list[Any]] = field(default_factory=lambda: {
        "battles": [], "kings_died": [], "popes_died": [], "control_changes": []})
    finished: bool = False
    data_pair: DataPair | None = None                             # the game's own map/data; None: shipped
    must_leave: dict[str, list[str]] = field(default_factory=dict)  # 7.1.3: neutral home area -> sides to leave

    # -- the map and data it is played with ---------------------------------------------------
    @property
    def map(self) -> GameMap:
        """The map this game is played with: its override's (``data_pair``), else the shipped map."""
        p = self.data_pair
        return (p if p is not None else shipped_data()).game_map

    @property
    def data(self) -> GameData:
        """The game data this game is played with: its override's (``data_pair``), else the shipped data."""
        p = self.data_pair
        return (p if p is not None else shipped_data()).game_data

    # -- copying ----------------------------------------------------------------------------
    def copy(self) -> GameState:
        """An independent copy, deep by construction (``medviz.engine.copying``): snapshots rely on it."""
        return independent_copy(self)

    # -- who is whose -----------------------------------------------------------------------
    def side_of(self, power: str) -> str | None:
        """The faction a power's units serve, or None for neutrals and vassals (3.3, 3.4)."""
        s = PLAYER_POWERS.get(power)
        if s:
            return s
        return ALLY_SIDE.get(self.status.get(power, "neutral"))

    def sides(self) -> dict[str, str | None]:
        """``side_of`` of every power at once (the player powers and every power with a status; any other
        power serves no side), for loops over many units."""
        out: dict[str, str | None] = dict(PLAYER_POWERS)  # side_of, inline: a player power serves its own side
        ally = ALLY_SIDE.get
        for p, st in self.status.items():
            if p not in out:
                out[p] = ally(st)
        return out

    def vassal_of(self, power: str) -> str | None:
        """The side a vassal power serves, or None."""
        st = self.status.get(power, "neutral")
        v = _VASSAL_SIDE.get(st)  # the usual statuses at one look-up
        return v if v is not None or st in _NOT_VASSAL else st[7:] if st.startswith("vassal:") else None

    # -- counting ---------------------------------------------------------------------------
    def side_units(self, area: str, side: str) -> dict[Key, int]:
        """Units of ``side`` (its powers and allies) in ``area``."""
        units = self.units.get(area)
        if not units:
            return {}
        player, status = PLAYER_POWERS.get, self.status.get  # side_of, inline (a hot loop)
        return {k: n for k, n in units.items()
                if n > 0 and (player(k[0]) or ALLY_SIDE.get(status(k[0], "neutral"))) == side}

    def has_side_units(self, area: str, side: str) -> bool:
        """True when ``side`` has any unit in ``area``."""
        units = self.units.get(area)
        if not units:
            return False
        player, status = PLAYER_POWERS.get, self.status.get  # side_of, inline
        for (p, _c), n in units.items():
            if n > 0 and (player(p) or ALLY_SIDE.get(status(p, "neutral"))) == side:
                return True
        return False

    def on_map(self, power: str, code: str) -> int:
        """Counters of a kind on the map, in a moving force's cargo and set aside for the Crusade."""
        n = sum(u.get((power, code), 0) for u in self.units.values())
        if self.force:
            n += self.force.cargo.get((power, code), 0)
        for s in SIDES:
            n += self.crusade[s].get((power, code), 0)
        return n

    def counters(self) -> dict[Key, int]:
        """``on_map`` for every kind at once: counters on the map, in cargo and with the Crusade."""
        out: dict[Key, int] = {}
        get = out.get
        for u in self.units.values():
            for k, n in u.items():
                out[k] = get(k, 0) + n
        extra = [self.crusade[s] for s in SIDES]
        if self.force:
            extra.append(self.force.cargo)
        for u in extra:
            for k, n in u.items():
                out[k] = get(k, 0) + n
        return out

    def land_units_on_map(self, power: str) -> int:
        """Ground units of ``power`` on the map (7.3)."""
        m = self.map.areas
        return sum(n for a, u in self.units.items() if m[a].kind == "land"
                   for (p, c), n in u.items() if p == power and c != "F") + (
            sum(n for (p, c), n in self.force.cargo.items() if p == power) if self.force else 0)

    def available(self, area: str, key: Key) -> int:
        """Units of a kind in ``area`` that have not acted this Operations Phase."""
        units = self.units.get(area)
        n = units.get(key, 0) if units else 0
        done = self.done.get(area)
        if done:
            n -= done.get(key, 0)
        f = self.force
        if f is not None and f.area == area:
            n -= f.units.get(key, 0)
        return n if n > 0 else 0

    def city_count(self, side: str) -> int:
        """Cities in land areas under ``side``'s total control (6.1)."""
        m = self.map.areas
        return sum(1 for a, c in self.ctl.items() if c == side and m[a].city)


# --------------------------------------------------------------------------------------------
# Area control (3.4)
# --------------------------------------------------------------------------------------------
def compute_control(state: GameState, area: str) -> str | None:
    """``A``/``B`` (total), ``partial``, a neutral or vassal power id, or None (3.4).

    Ruling: units of a side's own vassal keep their area the vassal's (3.4: areas under vassalage
    are controlled by neither side); an empty area keeps its last total controller (3.4 b), read
    through alliances (an allied power's area counts for its side).
    """
    units = state.units.get(area)
    sides: set[str] = set()
    others: list[str] = []
    if units:
        for (power, code), n in units.items():
            if n <= 0 or code == "F":
                continue
            s = state.side_of(power)
            if s:
                sides.add(s)
            else:
                others.append(power)
    if len(sides) == 2:
        return "partial"
    if len(sides) == 1:
        side = next(iter(sides))
        vassals = sorted(p for p in others if state.vassal_of(p) == side)
        return vassals[0] if vassals else side
    if others:
        return sorted(others)[0]
    o = state.owner.get(area)
    if o is None or o in SIDES:
        return o
    return state.side_of(o) or o


def _holder(state: GameState, area: str, c: str) -> str:
    """Who holds ``area`` for 3.4 b: the side, or the allied power whose own area its units alone hold.

    Ruling: one of an ally's own areas (home or held at the start) held only by that ally's land
    units is remembered as the power's, so when the alliance ends (7.1.3) or changes, the empty
    area is the neutral's again (3.4: inactive neutrals' areas are controlled by neither side).
    Any other area is remembered as the side's: an ally never carries off land it did not own.
    """
    if c not in SIDES:
        return c
    allies = set()
    for (power, code), n in state.units[area].items():
        if n <= 0 or code == "F" or state.side_of(power) != c:
            continue
        if power in PLAYER_POWERS:
            return c
        allies.add(power)
    if len(allies) != 1:
        return c
    ally = allies.pop()
    pw = state.data.powers.get(ally)
    return ally if pw is not None and (area in pw.home_areas or area in pw.controlled_at_start) else c


def refresh_control(state: GameState, areas: Any = None) -> None:
    """Recompute control of ``areas`` (all land areas if None); track 3.4 b and 13.0 'taken'."""
    m = state.map.areas
    guarded = None  # 13.0: the areas A must not take, looked up when A holds an area
    for a in (areas if areas is not None else state.ctl.keys()):
        if m[a].kind != "land":
            continue
        c = compute_control(state, a)
        state.ctl[a] = c
        if c is not None and c != "partial" and state.units.get(a):
            state.owner[a] = _holder(state, a, c)  # 3.4 b: remember who last held it by occupation
        if c == "A" and a not in state.taken:
            if guarded is None:
                sc = state.data.scenarios.get(state.scenario)
                guarded = sc.victory.get("a_must_not_take", ()) if sc is not None else ()
            if a in guarded:
                state.taken.append(a)


def sea_control(state: GameState, sea: str) -> str | None:
    """A side totally controls a sea area where it has fleets and the other side has none (ruling)."""
    sides = {state.side_of(p) for (p, c), n in state.units.get(sea, {}).items() if n > 0}
    sides.discard(None)
    return next(iter(sides)) if len(sides) == 1 else None


def friendly_port_seas(state: GameState, side: str) -> set[str]:
    """Sea areas on whose coast lies a city of a land area under ``side``'s total control (11.1, 6.2)."""
    m = state.map.areas
    out: set[str] = set()
    for a, c in state.ctl.items():
        if c == side and m[a].city:
            out |= m[a].ports
    return out


def cost(state: GameState, what: str) -> int:
    """An Operation Point Cost Table entry, doubled in a Plague turn (12.0 Plague)."""
    c = state.data.operations.costs[what]
    return c * 2 if state.plague else c


# --------------------------------------------------------------------------------------------
# Which data a game is played with (user override files, docs/data-provenance.md, datapair.py)
# --------------------------------------------------------------------------------------------
def data_of(subject: Any) -> DataPair | None:
    """The data a game state, history or pair is played with; None for the shipped data."""
    if subject is None or isinstance(subject, DataPair):
        return subject
    if isinstance(subject, GameState):
        return subject.data_pair
    final = getattr(subject, "final_state", None)  # a History
    if final is not None:
        return getattr(final, "data_pair", None)
    return getattr(subject, "data_pair", None)


def pair_of(subject: Any) -> DataPair:
    """The map and data a game state, history or pair is played with (the shipped ones for None)."""
    return data_of(subject) or shipped_data()
