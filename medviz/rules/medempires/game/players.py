"""Players of the whole game: a ``heuristic`` player that plays to the scenario's victory conditions.

It reads the live state (never changes it) and chooses among the legal options only. Battle
decisions go to the battle doctrine (odds.Doctrine). Its habits: hold what it has, take cities
(and the scenario's key areas) that are undefended or weaker than the force it can bring, carry
armies by fleet to places it cannot walk to, spend its treasury, play politics for allies and
thwart the opponent's attempts. Where a scenario is won by key areas alone (the Vespers, 13.0) it
hands Aragon's decisions to ``AragonTask``: Sicily kept, Malta taken, the frontier guarded.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar, TypeVar

from medviz.engine.policy import DecisionPoint
from medviz.rules.medempires.choices import (
    BATTLE_DECISIONS,
    END_DECISIONS,
    INTERCEPT_DECISIONS,
    OPS_DECISIONS,
    POLITICS_DECISIONS,
    RECRUIT_DECISIONS,
    Decision,
)
from medviz.rules.medempires.game.options import Action, Attempt, Cede, ForcePick, Purchase
from medviz.rules.medempires.game.state import (
    ALLY_SIDE,
    PLAYER_POWERS,
    GameState,
    Key,
    Same as _Same,
    coast_distances,
    cost,
    friendly_port_seas,
    land_distances,
    other_side,
    sea_distances,
    shipped_data,
)
from medviz.rules.medempires.gamedata import LAND_CODES, GameData
from medviz.rules.medempires.odds import Doctrine

_LAND_WEIGHT = {"FA": 2, "M": 2, "L": 1, "R": 1}
_LOSS = {"L": 0, "R": 1, "M": 2, "FA": 3, "F": 4}
DOCTRINE = Doctrine(table="field")

def _verb(opts: list[Any], verb: str) -> Any:
    """The force action ``verb`` among ``opts`` (``choices.Action``), or None."""
    return next((o for o in opts if o.verb == verb), None)


def _all(opts: list[Any], verb: str) -> list[Any]:
    """Every force action ``verb`` among ``opts``."""
    return [o for o in opts if o.verb == verb]


def _end_or_first(opts: list[Any]) -> Any:
    """The force's ``end`` when offered, else the first option."""
    end = _verb(opts, "end")
    return end if end is not None else opts[0]


def strength(data: GameData, units: dict[Key, int]) -> int:
    """A rough fighting value: field armies and mercenaries 2, others 1; doubled fleets 2 (``data``: 12.0)."""
    total = 0
    for (p, c), n in units.items():
        if c == "F":
            total += (2 if data.powers[p].fleets_count_double else 1) * n
        else:
            total += _LAND_WEIGHT.get(c, 1) * n
    return total


def scenario_values(state: GameState, side: str) -> dict[str, int]:
    """How much each land area is worth taking for ``side``: cities 1; the scenario's key areas more.

    The dict is shared (cached per map, data and scenario): read it, never change it.
    """
    if state.data_pair is None:  # the shipped map and data (loaded once per process): by scenario alone
        vals = _SHIPPED_VALUES.get(state.scenario)
        if vals is None:
            vals = _SHIPPED_VALUES[state.scenario] = _scenario_values(_Same(state.map), _Same(state.data), state.scenario)
        return vals
    gm, data = state.map, state.data
    key = (id(gm), id(data), state.scenario)
    hit = _VALUES.get(key)
    if hit is not None and hit[0] is gm and hit[1] is data:  # both are kept, so their ids cannot be reused
        return hit[2]
    vals = _scenario_values(_Same(gm), _Same(data), state.scenario)
    if len(_VALUES) >= 64:
        _VALUES.clear()
    _VALUES[key] = (gm, data, vals)
    return vals


#: ``scenario_values`` by (map, data, scenario) identity: a look-up without hashing the map and data
#: wrappers of the cache below (the heuristic asks some 500 times a game).
_VALUES: dict[tuple[int, int, str], tuple[Any, Any, dict[str, int]]] = {}
#: ``scenario_values`` of the shipped map and data, by scenario.
_SHIPPED_VALUES: dict[str, dict[str, int]] = {}


@lru_cache(maxsize=64)
def _scenario_values(gm: _Same, data: _Same, scenario: str) -> dict[str, int]:
    m = gm.obj.areas
    vals = {a: 1 for a in gm.obj.land_ids() if m[a].city}
    v = data.obj.scenarios[scenario].victory
    if v.get("kind") == "vespers":
        for a in v.get("b_must_control", ()):
            vals[a] = 4
        for a in v.get("a_must_not_take", ()):
            vals[a] = 3
    return vals


def default_placement(data: GameData, scenario: str, power: str) -> dict[str, str]:
    """Set-up decision tail (``FA-2``, ``king``, ``F-1``) -> area, from ``data``'s default deployment."""
    return _default_placement(_Same(data), scenario, power)


@lru_cache(maxsize=256)
def _default_placement(data: _Same, scenario: str, power: str) -> dict[str, str]:
    dep = data.obj.deployments[scenario].powers[power]
    out: dict[str, str] = {}
    seen: dict[str, int] = {}
    for code in LAND_CODES:
        for area, codes in dep.land.items():
            for c in codes:
                if c == code:
                    seen[code] = seen.get(code, 0) + 1
                    out[f"{code}-{seen[code]}"] = area
    for area, codes in dep.land.items():
        if "K" in codes:
            out["king"] = area
    for n, fleet in enumerate(dep.fleets, 1):
        if fleet.sea is not None:
            out[f"F-{n}"] = fleet.sea
    return out


def frontier_placement(data: GameData, scenario: str, power: str) -> dict[str, str]:
    """``default_placement`` with the land units it puts outside the areas Player A must not take (13.0)
    moved onto them, strongest first, each to the guarded area weakest so far (then by name); every other
    area keeps its cheapest unit (3.2: each must be occupied)."""
    return _frontier_placement(_Same(data), scenario, power)


@lru_cache(maxsize=64)
def _frontier_placement(data: _Same, scenario: str, power: str) -> dict[str, str]:
    out = dict(_default_placement(data, scenario, power))
    guarded = tuple(data.obj.scenarios[scenario].victory.get("a_must_not_take", ()))
    allowed = set(data.obj.setup[power].land_areas) if power in data.obj.setup else set()
    guarded = tuple(a for a in guarded if a in allowed)
    if not guarded:
        return out
    held = {a: 0 for a in guarded}
    land = [c for c in out if c.rsplit("-", 1)[0] in _LAND_WEIGHT]
    for counter in land:
        if out[counter] in held:
            held[out[counter]] += _LAND_WEIGHT[counter.rsplit("-", 1)[0]]
    weight = {c: _LAND_WEIGHT[c.rsplit("-", 1)[0]] for c in land}
    stay: dict[str, str] = {}  # each area outside the frontier keeps its cheapest unit (3.2: every Aragonese area occupied)
    for counter in sorted(land, key=lambda c: (weight[c], _LOSS.get(c.rsplit("-", 1)[0], 5), c)):
        stay.setdefault(out[counter], counter)
    for counter in sorted(land, key=lambda c: (-weight[c], c)):
        if out[counter] in held or stay.get(out[counter]) == counter:
            continue
        to = min(guarded, key=lambda a: (held[a], a))
        out[counter] = to
        held[to] += weight[counter]
    return out


def keys_only(state: GameState, side: str) -> bool:
    """The side wins by its scenario's key areas alone (Aragon in the Vespers, 13.0): other cities are no prize."""
    return side == "B" and state.data.scenarios[state.scenario].victory.get("kind") == "vespers"


def _per_decision(key: tuple[Any, ...], compute: Callable[..., _T], *args: Any) -> _T:
    """``compute(*args)``, kept under ``key`` for the rest of the decision being weighed (no memo: computed)."""
    memo = _MEMO.get()
    if memo is None:
        return compute(*args)
    if key not in memo:
        memo[key] = compute(*args)
    return memo[key]  # type: ignore[no-any-return]


def targets(state: GameState, side: str) -> dict[str, int]:
    """Areas worth attacking: held by the enemy (total or partial), with their value.

    Memoised within one decision: the dict may be shared, so read it, never change it.
    """
    return _per_decision((id(state), "targets", side), _targets_now, state, side)


def _ports(state: GameState, side: str) -> set[str]:
    """``friendly_port_seas`` memoised within one decision (a shared set: read it, never change it)."""
    return _per_decision((id(state), "ports", side), friendly_port_seas, state, side)


def _targets_now(state: GameState, side: str) -> dict[str, int]:
    foe = other_side(side)
    out = {}
    keys = keys_only(state, side)
    ctl = state.ctl
    for a, val in scenario_values(state, side).items():
        c = ctl.get(a)
        if c != foe and c != "partial":
            continue
        if keys and (val < 3 or _would_invade(state, side, a)):
            continue
        out[a] = val
    return out


#: Per-decision memo, live only inside ``Heuristic.choose`` (the state is fixed meanwhile); a ContextVar,
#: so threads and nested decisions each see their own.
_MEMO: ContextVar[dict[tuple[int, str, str], Any] | None] = ContextVar("medempires_player_memo", default=None)
_T = TypeVar("_T")


def enemy_strength(state: GameState, area: str, side: str) -> int:
    """``strength`` of the other side's land units in ``area`` (memoised within one decision)."""
    memo = _MEMO.get()
    if memo is None:
        return _land_strength(state, area, other_side(side))
    key = (id(state), area, side)
    v = memo.get(key)
    if v is None:
        v = memo[key] = _land_strength(state, area, other_side(side))
    return v


def _land_strength(state: GameState, area: str, side: str) -> int:
    """``strength`` of ``side``'s land units in ``area``, counted in one pass (no dicts built)."""
    units = state.units.get(area)
    if not units:
        return 0
    player, status = PLAYER_POWERS.get, state.status.get  # GameState.side_of, inline (a hot loop)
    total = 0
    for (p, c), n in units.items():
        if n > 0 and c != "F" and (player(p) or ALLY_SIDE.get(status(p, "neutral"))) == side:
            total += _LAND_WEIGHT.get(c, 1) * n
    return total


def _units_by_power(state: GameState) -> dict[str, int]:
    """Units on the map per power (memoised within one decision)."""
    memo = _MEMO.get()
    key = (id(state), "units-by-power", "")
    if memo is not None and key in memo:
        return memo[key]  # type: ignore[no-any-return]
    out: dict[str, int] = {}
    for u in state.units.values():
        for (p, _), n in u.items():
            out[p] = out.get(p, 0) + n
    if memo is not None:
        memo[key] = out
    return out


def _held_by(state: GameState) -> dict[str | None, list[str]]:
    """Areas by their last holder (``owner``, 3.4 b), in the owner table's order (memoised within one decision:
    a shared dict, read it, never change it)."""
    return _per_decision((id(state), "held-by", ""), _held_by_now, state)


def _held_by_now(state: GameState) -> dict[str | None, list[str]]:
    out: dict[str | None, list[str]] = {}
    for a, c in state.owner.items():
        out.setdefault(c, []).append(a)
    return out


def _key_kingdoms(state: GameState) -> tuple[str, ...]:
    """Powers (not France, Anjou or Aragon) with a home area among the areas Player B must hold (13.0: Sicily)."""
    v = state.data.scenarios[state.scenario].victory
    keys = set(v.get("b_must_control", ()))
    return tuple(sorted(p for p, pw in state.data.powers.items()
                        if p not in PLAYER_POWERS and keys & set(pw.home_areas)))


def _would_invade(state: GameState, side: str, area: str) -> bool:
    """Entering ``area`` would make a neutral, or the other side's vassal, the other side's ally (10.1)."""
    bad = ("neutral", f"vassal:{other_side(side)}")
    return any(n > 0 and state.status.get(p) in bad for (p, _), n in state.units.get(area, {}).items())


#: How far (land moves) Aragon looks for French armies that could take a guarded area (13.0).
THREAT_REACH = 2


def _near_threat(state: GameState, side: str, area: str) -> int:
    """The strongest enemy land stack within ``THREAT_REACH`` land moves of ``area``."""
    return max((enemy_strength(state, b, side) for b, d in land_distances(state.map, area).items()
                if 0 < d <= THREAT_REACH), default=0)


def enemy_land(state: GameState, area: str, side: str) -> dict[Key, int]:
    """The other side's land units in ``area``."""
    return {k: n for k, n in state.side_units(area, other_side(side)).items() if k[1] != "F"}


@dataclass(frozen=True)
class Heuristic:
    """A sensible player for either side of either scenario (see the module docstring)."""

    spec: str = "heuristic"
    #: Plays Aragon's own task where the scenario's victory is Aragon's key areas (13.0, ``keys_only``):
    #: Sicily kept out of France's politics, Malta taken, the frontier held, the last move spent on what is
    #: missing. The historical player steers by 1282-1310 instead and turns it off.
    ARAGON_TASK: ClassVar[bool] = True
    #: Aragon's decisions in such a scenario go to ``AragonTask`` (below), which adds Sicily's and Malta's play.
    DELEGATES_ARAGON: ClassVar[bool] = True

    def _aragon_task(self, s: GameState, side: str) -> bool:
        """This decision is Aragon's in a scenario won by key areas alone (13.0) and the player plays that task."""
        return self.ARAGON_TASK and keys_only(s, side)

    def choose(self, point: DecisionPoint) -> Any:
        """Pick one of ``point.options``."""
        token = _MEMO.set({})  # the state cannot change while we think: per-decision memo (see enemy_strength)
        try:
            return self._choose(point)
        finally:
            _MEMO.reset(token)

    def _choose(self, point: DecisionPoint) -> Any:
        k = point.kind
        opts = list(point.options)
        s: GameState = point.state
        side = point.actor
        if self.DELEGATES_ARAGON and isinstance(s, GameState) and keys_only(s, side):
            return ARAGON._choose(point)
        if k in BATTLE_DECISIONS:
            return self._battle(point)
        if k == Decision.SETUP:
            return self._setup(s, opts)
        if k == Decision.CRUSADE_UNIT:
            return min(opts, key=lambda o: (_LOSS.get(o.code, 5), o.key))
        if k in POLITICS_DECISIONS:
            return self._politics(s, side, k, opts)
        if k in RECRUIT_DECISIONS:
            return self._recruit(s, side, k, opts)
        if k in OPS_DECISIONS:
            return self._ops(s, side, k, opts)
        if k in END_DECISIONS:
            return self._end(s, side, k, opts)
        return opts[0]

    def _setup(self, s: GameState, opts: list[Any]) -> Any:
        """Place the counter where the scenario's default deployment puts it (3.x, deployment.toml).

        Aragon's task (13.0) moves the land units the deployment puts outside the four guarded areas onto
        them, each other area keeping its cheapest unit (``frontier_placement``).
        """
        power = opts[0].power
        if self.ARAGON_TASK and power in PLAYER_POWERS and keys_only(s, PLAYER_POWERS[power]):
            want = frontier_placement(s.data, s.scenario, power).get(opts[0].counter)
            if any(o.area == want for o in opts):
                return next(o for o in opts if o.area == want)
        want = default_placement(s.data, s.scenario, power).get(opts[0].counter)
        return next((o for o in opts if o.area == want), opts[0])

    def _place_option(self, s: GameState, side: str, opts: list[Any]) -> Any:
        """The option (a ``Place``) of the area ``_place`` picks."""
        by_area = {o.area: o for o in opts}
        return by_area[self._place(s, side, list(by_area))]

    def _targets(self, s: GameState, side: str) -> dict[str, int]:
        """Areas worth attacking and their value (a hook for the historical player)."""
        return targets(s, side)

    # -- battles ------------------------------------------------------------------------------
    def _battle(self, point: DecisionPoint) -> Any:
        if point.kind == Decision.AVOID:
            b = point.state.battle
            data = point.state.data if isinstance(point.state, GameState) else shipped_data().game_data
            mine = strength(data, b.sides["defender"].units)
            theirs = strength(data, b.sides["attacker"].units)
            return "try to avoid" if theirs > mine + 1 else "stand"
        return DOCTRINE.choose(point)

    # -- politics ------------------------------------------------------------------------------
    def _politics(self, s: GameState, side: str, k: str, opts: list[Any]) -> Any:
        if self._aragon_task(s, side):
            mine = self._aragon_politics(s, side, k, opts)
            if mine is not None:
                return mine
        if k == Decision.THWART:
            return "thwart"
        if k == Decision.ADD_KING:
            return max(opts, key=lambda k: (s.data.kings[k].diplomacy if k != "none" else -1, k))
        if k == Decision.ADD_POPE:
            return "yes"
        if k == Decision.ADD_TP:
            return "yes" if s.tp[side] >= 5 else "no"
        if k == Decision.FORFEIT:
            for kind in ("rebellion", "vassalage", "diplomacy"):
                if kind in opts:
                    return kind
        if k == Decision.POLITICS_UNIT:
            return min(opts, key=lambda c: (-_LAND_WEIGHT.get(c, 0), c))
        if k == Decision.CEDE_DESTINATION:
            return min(opts, key=lambda o: o.key)
        best: Any = "pass"
        best_v = 0.0
        for o in opts:
            if not isinstance(o, Attempt):
                continue  # a pass; the heuristic never cedes land (14.3)
            kind, power = o.kind, o.power
            v = self._power_value(s, side, power)
            if kind == "diplomacy" and s.status[power] == f"ally:{other_side(side)}":
                v += 2.0
            if kind == "vassalage":
                v *= 0.5
            if kind == "rebellion":
                v += 1.5
            v *= {"diplomacy": 0.33, "vassalage": 0.66, "rebellion": 0.33}[kind] + 0.5
            if v > best_v:
                best, best_v = o, v
        return best

    def _last_move(self, s: GameState, side: str) -> bool:
        """The side's operations phase is the game's last (5.1: Player B's follows Player A's in the last turn)."""
        return side == "B" and s.phase == "operations-B" and s.turn >= s.data.scenarios[s.scenario].game_turns

    def _aragon_politics(self, s: GameState, side: str, k: str, opts: list[Any]) -> Any:
        """Aragon keeps the kingdom whose areas it must hold (Sicily, 13.0) on its side; None: the heuristic's way.

        Its TP go into every roll (its counters, not its treasury, limit its recruits: 6.2); the King's
        diplomacy and a Diplomacy marker are kept to thwart France while that kingdom is Aragon's ally and
        France may still attempt diplomacy or vassalage this turn (7.0; France announces first in each
        round); once France has turned it, winning it back is Aragon's first attempt (7.1).
        """
        if k == Decision.ADD_TP:
            return "yes"
        if k != Decision.ATTEMPT:
            return None
        foe = other_side(side)
        kingdoms = _key_kingdoms(s)
        for power in kingdoms:
            if s.status.get(power) != f"ally:{side}" and Attempt("diplomacy", power) in opts:
                return Attempt("diplomacy", power)
        guarding = any(s.status.get(p) == f"ally:{side}" for p in kingdoms)
        if guarding and s.hands[side].get("diplomacy", 0) <= 1 and {"diplomacy", "vassalage"} & set(s.political[foe]):
            return "pass"
        return None

    def _power_value(self, s: GameState, side: str, power: str) -> float:
        m = s.map.areas
        areas = _held_by(s).get(power, []) + list(s.data.powers[power].home_areas)
        cities = len({a for a in areas if m[a].city})
        units = _units_by_power(s).get(power, 0)
        vals = scenario_values(s, side)
        key = sum(vals.get(a, 0) for a in set(areas) if vals.get(a, 0) > 1)
        return cities + 0.3 * units + key

    # -- recruitment --------------------------------------------------------------------------
    def _recruit(self, s: GameState, side: str, k: str, opts: list[Any]) -> Any:
        if k == Decision.ORDER:
            return "second"
        if k == Decision.RECRUIT_PLACE:
            return self._place_option(s, side, opts)
        if k == Decision.PURCHASE:
            sides = s.sides()
            fleets = 0  # the side's fleets on the map
            for u in s.units.values():
                for (p, c), n in u.items():
                    if c == "F" and sides.get(p) == side:
                        fleets += n
            prefs = []
            for o in opts:
                if o == "done":
                    continue
                power, code = o.power, o.code
                score = {"FA": 5.0, "M": 5.0, "2L": 4.0, "R": 3.0, "L": 1.0, "F": 2.0}[code]
                if code == "F" and fleets < 3:
                    score = 6.0
                if power not in PLAYER_POWERS:
                    score += 0.5
                prefs.append((-score, o.key, o))
            return min(prefs, key=lambda t: t[:2])[2] if prefs else "done"
        return opts[0]

    def _place(self, s: GameState, side: str, opts: list[Any]) -> Any:
        """The most threatened or most valuable friendly area among ``opts``."""
        m = s.map.areas
        ctl = s.ctl
        vals = scenario_values(s, side)
        foe = other_side(side)
        hostile = (foe, "partial")

        def score(a: str) -> tuple[float, str]:
            if m[a].kind == "sea":
                return (-1.0 * len([x for x in m[a].coasts if ctl.get(x) == foe]), a)
            threat = near = 0  # the enemy's land strength next door, and the neighbours it holds
            for b in m[a].neighbours:
                threat += enemy_strength(s, b, side)
                if ctl.get(b) in hostile:
                    near += 1
            own = _land_strength(s, a, side)
            return (-(threat + 2 * near + 2 * vals.get(a, 0) - 0.5 * own), a)

        return min(opts, key=score)

    # -- operations ---------------------------------------------------------------------------
    def _ops(self, s: GameState, side: str, k: str, opts: list[Any]) -> Any:
        if k == Decision.FORCE_UNITS:  # naming a force's units one kind at a time (10.0, 10.2): all of them
            return max(opts)
        if k == Decision.FORCE:
            return self._pick_force(s, side, opts)
        if k == Decision.LEAVE:  # 7.1.3: out of a neutral's home area, to the most threatened friendly area
            return self._place_option(s, side, opts)
        if k == Decision.KING_JOINS:
            return "with the King"
        if k == Decision.OPS_MARKERS:
            return 0
        if k in INTERCEPT_DECISIONS:
            return self._intercept(s, side, k, opts)
        if k == Decision.ACTION:
            return self._step(s, side, opts)
        return opts[0]

    def _pick_force(self, s: GameState, side: str, opts: list[Any]) -> Any:
        best: Any = "end phase"
        best_v = 0.0
        tg = self._targets(s, side)
        m = s.map.areas
        data = s.data
        for o in opts:
            if not isinstance(o, ForcePick) or o.what != "all":
                continue
            area, power = o.area, o.power
            units = {k: s.available(area, k) for k in s.units.get(area, {}) if k[0] == power}
            st = strength(data, units)
            if m[area].kind == "land" and self._must_hold(s, side, area):
                continue
            if m[area].kind == "land":
                v = self._land_plan_value(s, side, area, st, tg)
            else:
                v = self._naval_plan_value(s, side, area, units, tg)
            if v > best_v:
                best, best_v = o, v
        return best

    def _must_hold(self, s: GameState, side: str, area: str) -> bool:
        """A key area of the scenario that the side holds, with enemy land units next door: stay put."""
        if scenario_values(s, side).get(area, 0) < 3 or s.ctl.get(area) != side:
            return False
        if self._aragon_task(s, side) and self._last_move(s, side):
            return False  # nobody moves after this phase (13.0 is judged at the end)
        m = s.map.areas
        foe = other_side(side)
        if keys_only(s, side) and _near_threat(s, side, area):
            return True
        return any(enemy_strength(s, b, side) for b in m[area].neighbours) or any(
            s.has_side_units(x, foe) for x in m[area].coasts)

    def _land_plan_value(self, s: GameState, side: str, area: str, st: int, tg: dict[str, int]) -> float:
        best = 0.0
        dist = land_distances(s.map, area)
        for a, val in tg.items():
            dd = dist.get(a)
            if dd is None or dd > 4:
                continue
            enemy = enemy_strength(s, a, side)
            if st < enemy + 1:
                continue
            if dd == 0 and not enemy:
                continue
            best = max(best, val / (1 + dd))
        return best

    def _naval_targets(self, s: GameState, side: str, tg: dict[str, int]) -> dict[str, int]:
        m = s.map.areas
        return {a: v for a, v in tg.items() if m[a].coasts}

    def _naval_plan_value(self, s: GameState, side: str, sea: str, units: dict[Key, int],
                          tg: dict[str, int]) -> float:
        m = s.map.areas
        if sea not in _ports(s, side):
            return 0.0
        room = 2 * sum(units.values())
        loadable = 0
        for land in m[sea].coasts:
            if s.ctl.get(land) == side:
                loadable += sum(s.available(land, k) for k in s.side_units(land, side) if k[1] != "F")
        if loadable < 2:
            return 0.0
        carry = min(room, loadable)
        dist = coast_distances(s.map, sea)
        best = 0.0
        for a, val in self._naval_targets(s, side, tg).items():
            enemy = enemy_strength(s, a, side)
            if 2 * carry < enemy + 2:
                continue
            dd = dist.get(a, 99)
            if dd > 5:
                continue
            best = max(best, 0.9 * val / (1 + dd))
        return best

    def _intercept(self, s: GameState, side: str, k: str, opts: list[Any]) -> Any:
        if k in (Decision.INTERCEPT_ADVANTAGE, Decision.INTERCEPT_AGAINST):
            return "no"
        if k == Decision.INTERCEPT_AMBUSH:
            return "yes"
        f = s.force
        if f is None or "all" not in opts:
            return "no"
        if k == Decision.INTERCEPT_RAID:
            # As pinned by the golden games: the heuristic lets coastal raids pass (it used to weigh
            # its units in an area named by the raid's decision id, which never holds any).
            return "no"
        theirs = strength(s.data, f.units)
        where = f.area
        mine = strength(s.data, {k: n for k, n in s.side_units(where, side).items() if (k[1] == "F") == (f.kind == "sea")})
        return "all" if mine >= theirs + 1 else "no"

    def _step(self, s: GameState, side: str, opts: list[Any]) -> Any:
        f = s.force
        if f is None:
            return opts[0]
        if f.kind == "land":
            return self._land_step(s, side, f, opts)
        return self._sea_step(s, side, f, opts)

    def _land_step(self, s: GameState, side: str, f: Any, opts: list[Any]) -> Any:
        """Attack, or step toward the best target; stay put unless a move gets strictly closer to one."""
        st = strength(s.data, f.units)
        here_enemy = enemy_strength(s, f.area, side)
        attack = _verb(opts, "attack")
        if attack is not None and st >= here_enemy + 1:
            return attack
        if here_enemy and f.area in self._targets(s, side):
            return _end_or_first(opts)
        tg = {a: val for a, val in self._targets(s, side).items() if enemy_strength(s, a, side) + 1 <= st}

        def reach_value(where: str) -> float:
            dist = land_distances(s.map, where)
            return max((val / (1 + dist[a]) for a, val in tg.items() if dist.get(a, 99) <= 3), default=0.0)

        # Standing here is worth what the targets in reach are worth from here: a move must do better, so a
        # force never walks back and forth between two areas (the value strictly rises with every move).
        best, best_v = _verb(opts, "end"), reach_value(f.area)
        for o in opts:
            if o.verb != "move":
                continue
            b = o.area
            v = reach_value(b)
            if self._invades(s, b):
                v -= 1.0  # walking into a neutral makes it the enemy's ally (10.1)
            if v > best_v:
                best, best_v = o, v
        return best if best is not None else opts[0]

    def _invades(self, s: GameState, area: str) -> bool:
        """Entering ``area`` would invade a neutral (10.1): it becomes the other side's ally."""
        c = s.ctl.get(area)
        return c not in ("A", "B", "partial", None) and s.status.get(str(c)) == "neutral"

    def _garrison(self, s: GameState, side: str, land: str) -> int:
        """Strength a fleet must leave in ``land`` when it loads there: a held key area keeps a guard."""
        if scenario_values(s, side).get(land, 0) < 3 or s.ctl.get(land) != side:
            return 0
        if self._aragon_task(s, side) and self._last_move(s, side):
            return 0  # held, no enemy in it, and nobody moves after this phase: every unit may sail
        threat = max((enemy_strength(s, b, side) for b in s.map.areas[land].neighbours), default=0)
        if keys_only(s, side):
            threat = max(threat, _near_threat(s, side, land))
        return max(2, threat)

    def _loadable(self, s: GameState, side: str, opts: list[Any] | None, lands: Any = None) -> dict[str, list[int]]:
        """Per power, the weights of the units a fleet may still take aboard (garrisons stay), strongest first.

        With ``opts`` only what the embark options offer; with None every unit of the side in ``lands``.
        """
        if opts is None:
            offered = {(a, p) for a in lands for (p, c) in s.side_units(a, side) if c in LAND_CODES}
        else:
            offered = {(o.area, o.power) for o in opts if o.verb == "embark"}
        out: dict[str, list[int]] = {}
        for land in sorted({x for x, _ in offered}):
            if lands is not None and land not in lands:
                continue
            keep = self._garrison(s, side, land)
            for power in sorted({p for x, p in offered if x == land}):  # one power sails (11.2 ruling)
                left = _land_strength(s, land, side)
                units = sorted(((_LAND_WEIGHT.get(c, 1), c) for (p, c) in s.side_units(land, side)
                                if p == power and c in LAND_CODES), reverse=True)
                for w, c in units:
                    for _ in range(s.available(land, (power, c))):
                        if left - w < keep:
                            break
                        left -= w
                        out.setdefault(power, []).append(w)
        for ws in out.values():
            ws.sort(reverse=True)
        return out

    def _spare_embarks(self, s: GameState, side: str, opts: list[Any], power: str | None = None,
                       lands: Any = None) -> list[Action]:
        """Embark options that leave each key area its garrison, strongest units first."""
        out = []
        for o in opts:
            if o.verb != "embark":
                continue
            land, p, code = o.area, o.power, o.unit
            if (power is not None and p != power) or (lands is not None and land not in lands):
                continue
            if _land_strength(s, land, side) - _LAND_WEIGHT.get(code, 1) < self._garrison(s, side, land):
                continue
            out.append(o)
        return sorted(out, key=lambda o: (-_LAND_WEIGHT.get(o.unit, 1), -_LOSS.get(o.unit, 5), o.key))

    def _landing_plan(self, s: GameState, side: str, f: Any, opts: list[Any],
                      tg: dict[str, int]) -> tuple[str, int, str] | None:
        """(target, strength needed, power) for the best target this fleet can reach and carry enough to.

        Reach counts OPs, not moves: each naval move and the landing cost what the table says, doubled
        under Plague (12.0); a landing needs one power's cargo (11.2 ruling); more units are loaded only
        where the fleet starts, and never from a contested target (its units are fighting there).
        """
        m = s.map.areas
        foe = other_side(side)
        mv, ld = cost(s, "naval_move"), cost(s, "amphibious_landing")
        powers = sorted({p for p, _ in f.cargo})
        room = 2 * f.count() - sum(f.cargo.values())
        dist = coast_distances(s.map, f.area)
        loadable = self._loadable(s, side, opts, lands=set(m[f.area].coasts) - set(tg)) if not f.moved else {}
        carried = strength(s.data, f.cargo)
        best: tuple[str, int, str] | None = None
        best_v = 0.0
        for a, val in sorted(tg.items()):
            dd = dist.get(a, 99)
            foe_held = s.ctl.get(a) == foe
            if dd * mv + (ld if foe_held else 0) > f.ops:
                continue
            need = enemy_strength(s, a, side) + 1
            if len(powers) > 1:
                options = [] if foe_held else [(powers[0], carried)]
            elif powers:
                options = [(powers[0], carried + sum(loadable.get(powers[0], [])[:room]))]
            else:
                options = [(p, sum(ws[:room])) for p, ws in sorted(loadable.items())]
            for p, carry in options:
                if carry < need:
                    continue
                v = val / (1 + dd)
                if v > best_v:
                    best, best_v = (a, need, p), v
        return best

    def _sea_step(self, s: GameState, side: str, f: Any, opts: list[Any]) -> Any:
        """Load for a landing only when one is in reach, sail there, go ashore; never leave cargo to be lost."""
        m = s.map.areas
        if f.restricted:
            ports = _ports(s, side)
            moves = _all(opts, "move")
            if moves:
                return min(moves, key=lambda o: (min((sea_distances(s.map, o.area).get(p, 99) for p in ports), default=99), o.key))
            return _end_or_first(opts)
        tg = self._naval_targets(s, side, self._targets(s, side))
        attack = _verb(opts, "attack")
        if not f.cargo and not f.cargo_kings and attack is not None and strength(s.data, f.units) > strength(s.data,
                {k: n for k, n in s.side_units(f.area, other_side(side)).items() if k[1] == "F"}) + 1:
            return attack
        # a target next door that is not the enemy's alone: go ashore there when the cargo makes it ours
        for o in opts:
            if o.verb == "debark":
                a = o.area
                if a in tg and strength(s.data, f.cargo) + _land_strength(s, a, side) >= enemy_strength(s, a, side) + 1:
                    return o
        plan = self._landing_plan(s, side, f, opts, tg) if not f.restricted else None
        if plan is not None:
            a, need, p = plan
            carry = strength(s.data, f.cargo)
            if carry < need + 1 and not f.moved:
                spare = self._spare_embarks(s, side, opts, p, lands=set(m[f.area].coasts) - set(tg))
                if spare:
                    return spare[0]
            if carry >= need:
                landing = Action("land", a)
                if landing in opts:
                    return landing
                moves = _all(opts, "move")
                if moves and f.area not in m[a].coasts:
                    return min(moves, key=lambda o: (min(sea_distances(s.map, o.area).get(x, 99) for x in m[a].coasts), o.key))
        return self._go_ashore(s, side, f, opts)

    def _go_ashore(self, s: GameState, side: str, f: Any, opts: list[Any]) -> Any:
        """No landing in reach: put the cargo ashore on a friendly coast (0 OP) rather than lose it (11.2)."""
        if not f.cargo and not f.cargo_kings:
            return _end_or_first(opts)
        if not f.cargo:  # only Kings aboard: set them ashore with their units (11.2)
            kings = _all(opts, "debark-king")
            return kings[0] if kings else _end_or_first(opts)
        vals = scenario_values(s, side)

        def where(o: Action) -> tuple[int, int, str]:
            land = o.area
            rank = 0 if s.ctl.get(land) == side else 1 if s.ctl.get(land) == "partial" else 3 if self._invades(s, land) else 2
            return (rank, -vals.get(land, 0), o.key)

        debarks = _all(opts, "debark")
        if debarks:
            return min(debarks, key=where)
        moves = _all(opts, "move")
        if moves:  # the nearest sea with a coast to put the cargo ashore
            m = s.map.areas
            foe = other_side(side)
            shore = {a for a in m if m[a].kind == "sea" and any(s.ctl.get(x) != foe for x in m[a].coasts)}
            return min(moves, key=lambda o: (min((sea_distances(s.map, o.area).get(x, 99) for x in shore), default=99), o.key))
        lands = _all(opts, "land")
        if lands:
            return min(lands, key=lambda o: (enemy_strength(s, o.area, side), o.key))
        return opts[0]

    # -- end of turn --------------------------------------------------------------------------
    def _end(self, s: GameState, side: str, k: str, opts: list[Any]) -> Any:
        if k == Decision.ORDER:
            return "second"
        if k == Decision.POISON:
            return "no"
        if k == Decision.STACKING:
            return min(opts, key=lambda o: (_LOSS.get(o.code, 5), o.key))
        if k == Decision.REDISTRIBUTE:
            from medviz.rules.medempires.game.redistribution import stack_limit

            over: dict[str, bool] = {}  # area -> the side's units there exceed its limit (once per area)
            for o in opts:
                if o == "done":
                    continue
                area, c = o.area, o.code
                crowded = over.get(area)
                if crowded is None:
                    crowded = over[area] = sum(s.side_units(area, side).values()) > stack_limit(s, area)
                if crowded and c != "2L":
                    return o
            return "done"
        if k == Decision.REDISTRIBUTE_TO:
            from medviz.rules.medempires.game.redistribution import stack_limit

            def room(o: Any) -> tuple[int, str]:
                return (-(stack_limit(s, o.area) - sum(s.side_units(o.area, side).values())), o.key)

            return min(opts, key=room)
        return opts[0]


def heuristic_factory(arg: str = "") -> Heuristic:
    """``heuristic`` (no settings yet)."""
    return Heuristic()


#: Whole-game players by spec name (registered in ``MedEmpires.policies``).
PLAYERS: dict[str, Any] = {"heuristic": heuristic_factory}


# --------------------------------------------------------------------------------------------
# The historical player (Vespers, 1282-1310)
# --------------------------------------------------------------------------------------------
#: What each side did, game turn by game turn (gazetteer; 13.0 introduction): extra value of areas.
HISTORY_GOALS: dict[tuple[str, int], dict[str, int]] = {
    # 1282-1290: Peter III lands at Trapani and holds Sicily; Roger of Lauria's galleys win off Malta
    # (1283) and Naples (1284); Malta's castle falls to Aragon. Philip III invades Catalonia (1285).
    ("B", 1): {"malta": 6},
    ("A", 1): {"rossello": 5, "catalan_counties": 5},
    # 1291-1300: James II and Frederick III keep Sicily; Charles II's landings there fail.
    ("B", 2): {"malta": 5, "calabria": 3},
    ("A", 2): {"sicily_east": 4, "sicily_west": 3},
    # 1301-1310: Charles of Valois's Sicilian campaign ends in the Peace of Caltabellotta (1302).
    ("B", 3): {"malta": 5},
    ("A", 3): {"sicily_west": 4, "sicily_east": 4},
}
SICILY_LANDING = ("sicily_west", "sicily_east")
#: Aragon's Iberian realm: the four areas France must not take (13.0) and the lands behind them.
ARAGON_HOME = ("upper_aragon", "rossello", "catalan_counties", "urgell", "lower_aragon", "valencia")
#: The Sicilian kingdom Aragon must hold at the end (13.0).
SICILIAN_REALM = ("sicily_west", "sicily_east", "malta")
#: Peter III's expedition: the almogavars (mercenaries) sail with the King; the field armies stay
#: home against the French crusade (gazetteer section 3, rows 7 and 24).
EXPEDITION = ("M", "M")
#: New Aragonese units go to Sicily unless a frontier area faces French strength this much greater
#: than its own (tuned over seeds 0-39: Sicily held more often, the heartland no weaker).
HOME_ALARM = 4
#: Aragon keeps at least this much in each Sicilian area it holds (Messina and Palermo garrisoned
#: against Angevin landings, 1282-1302; one field army and a levy, the Sicilian set-up per area).
SICILY_GUARD = 3
#: Politics as the war was waged (gazetteer section 3): the Angevin side works through the Papacy
#: (Martin IV excommunicated Peter and preached the crusade of 1285) and Genoa, whose galleys sailed
#: with the French fleet in 1285 (row 25, Les Formigues); it
#: never won the Sicilians back (they rose against Anjou and in 1296 crowned Frederick III rather
#: than return), so the historical Player A makes no attempt on Sicily.
HISTORY_POLITICS: dict[str, tuple[str, ...]] = {"A": ("papal_states", "genoa")}
NEVER_COURTED: dict[str, tuple[str, ...]] = {"A": ("sicily",)}


def _sicily_landing_failed(s: GameState) -> bool:
    """Player A attacked in Sicily and failed: dice were rolled and A did not win the battle (chronicle)."""
    return any(b["kind"] == "land" and b["area"] in SICILY_LANDING and b["attacker"] == "A"
               and b["winner"] != "A" and b["results"] for b in s.chronicle["battles"])


def _malta_seas(s: GameState) -> dict[str, int]:
    """Each sea's distance in naval moves to the nearest sea on Malta's coast."""
    out: dict[str, int] = {}
    for x in s.map.areas["malta"].coasts:
        for sea, d in sea_distances(s.map, x).items():
            out[sea] = min(d, out.get(sea, 99))
    return out


@dataclass(frozen=True)
class Historical(Heuristic):
    """Steers toward the course of 1282-1310 where the dice allow; otherwise plays the heuristic.

    GT1: Aragon's King sails to Sicily with an army (Peter III at Trapani), Aragon's fleets seek
    the Angevin fleets and Malta; France marches on Rosselló and Catalonia (1285). Aragon's armies
    at home stay inside the Crown's lands to repel the French crusade, and those in Sicily stay on
    the island (Caltabellotta, 1302); Anjou tries to land in Sicily. Outside the Vespers scenario,
    or once a goal is out of reach (the King dead, no fleet left), the heuristic's choices stand.
    """

    spec: str = "historical"
    ARAGON_TASK: ClassVar[bool] = False
    DELEGATES_ARAGON: ClassVar[bool] = False

    def _vespers(self, s: GameState) -> bool:
        return s.scenario == "vespers-1282"

    def _targets(self, s: GameState, side: str) -> dict[str, int]:
        tg = dict(targets(s, side))
        if not self._vespers(s):
            return tg
        foe = other_side(side)
        for a, bonus in HISTORY_GOALS.get((side, s.turn), {}).items():
            if s.ctl.get(a) in (foe, "partial"):
                tg[a] = tg.get(a, 0) + bonus
        return tg

    def _politics(self, s: GameState, side: str, k: str, opts: list[Any]) -> Any:
        """Attempts the war saw (the Papacy, Genoa), none on Sicily for Anjou."""
        if not self._vespers(s) or k != Decision.ATTEMPT:
            return super()._politics(s, side, k, opts)

        def target(o: Any) -> str:
            return o.power if isinstance(o, Attempt) else o.area if isinstance(o, Cede) else ""

        opts = [o for o in opts if target(o) not in NEVER_COURTED.get(side, ())] or opts
        for power in HISTORY_POLITICS.get(side, ()):
            for kind in ("diplomacy", "vassalage"):
                if Attempt(kind, power) in opts:
                    return Attempt(kind, power)
        return super()._politics(s, side, k, opts)

    def _realm(self, s: GameState, side: str, area: str) -> tuple[str, ...] | None:
        """The Aragonese realm (home or Sicily) whose armies must not leave it, or None."""
        if side != "B" or not self._vespers(s):
            return None
        if area in ARAGON_HOME:
            return ARAGON_HOME
        if area in SICILIAN_REALM:
            return SICILIAN_REALM
        return None

    def _recruit(self, s: GameState, side: str, k: str, opts: list[Any]) -> Any:
        """Aragon buys Lauria's squadron for Sicily's waters in GT1 (the galleys of Messina, 1283)."""
        if side == "B" and self._vespers(s) and k == Decision.PURCHASE and s.turn == 1 \
                and not self._squadron_by_malta(s):
            galleys = Purchase("aragon", "F")
            if galleys in opts:
                return galleys
        return super()._recruit(s, side, k, opts)

    def _squadron_by_malta(self, s: GameState) -> bool:
        """An Aragonese fleet is within one naval move of Malta's waters."""
        return any(n > 0 and p == "aragon" and c == "F" for sea, d in _malta_seas(s).items() if d <= 1
                   for (p, c), n in s.units.get(sea, {}).items())

    def _place(self, s: GameState, side: str, opts: list[Any]) -> Any:
        """Aragon reinforces Sicily, or the frontier area France threatens most when it is in peril (1282-1285)."""
        if side != "B" or not self._vespers(s):
            return super()._place(s, side, opts)
        m = s.map.areas
        if all(m[a].kind == "sea" for a in opts):  # a fleet: Lauria's, as near Malta as a port allows (Messina)
            near = _malta_seas(s)
            return min(opts, key=lambda a: (near.get(a, 99), a))

        def own(a: str) -> int:
            return strength(s.data, {k: n for k, n in s.side_units(a, side).items() if k[1] != "F"})

        def danger(a: str) -> tuple[int, str]:
            threat = sum(enemy_strength(s, b, side) for b in m[a].neighbours)
            return (-(threat - own(a)), a)

        guard = [a for a in opts if a in ARAGON_HOME[:4] and s.ctl.get(a) == "B"]
        worst = max((-danger(a)[0] for a in guard), default=-99)
        sicily = [a for a in opts if a in SICILY_LANDING]
        if sicily and (s.turn == 1 or worst <= HOME_ALARM):  # the Vespers kingdom, where Anjou can land most:
            # all of GT1's recruits (the crusade against Aragon came in 1285; 1282-84 went to Sicily), later
            # while home is safe enough
            return min(sicily, key=lambda a: (own(a) - self._garrison(s, side, a), own(a), a))
        if guard and worst > 0:
            return min(guard, key=danger)
        return super()._place(s, side, opts)

    def _king_to_sicily(self, s: GameState) -> str | None:
        """Aragon's King, if he is still on the Spanish mainland in GT1 (Peter III's expedition)."""
        if not self._vespers(s) or s.turn != 1:
            return None
        for k, a in sorted(s.kings.items()):
            if s.data.kings[k].power == "aragon" and a not in SICILIAN_REALM:
                return k
        return None

    def _pick_force(self, s: GameState, side: str, opts: list[Any]) -> Any:
        king = self._king_to_sicily(s) if side == "B" else None
        if king is not None:
            m = s.map.areas
            where = s.kings[king]
            for o in opts:
                if isinstance(o, ForcePick) and o.power == "aragon" and o.what == "all" and m[o.area].kind == "sea" \
                        and where in m[o.area].coasts and o.area in friendly_port_seas(s, side):
                    return o
        malta = self._malta_fleet(s, side, opts)
        if malta is not None:
            return malta
        return super()._pick_force(s, side, opts)

    def _malta_power(self, s: GameState, side: str) -> int:
        """Land strength of one power in Sicily that could sail for Malta, garrisons kept (0 when Malta is no goal)."""
        if side != "B" or not self._vespers(s) or s.ctl.get("malta") == "B":
            return 0
        if s.turn == 1 and self._king_to_sicily(s) is not None:
            return 0  # GT1: the King's expedition sails first (Trapani, 1282), then Malta (1283)
        spare = self._loadable(s, side, None, [a for a in SICILY_LANDING if s.ctl.get(a) == "B"])
        return max((sum(ws) for ws in spare.values()), default=0)

    def _malta_ports(self, s: GameState) -> set[str]:
        """Seas off the Sicilian areas whose garrisons can spare troops for Malta."""
        m = s.map.areas
        return {x for a in SICILY_LANDING if s.ctl.get(a) == "B" and self._loadable(s, "B", None, [a])
                for x in m[a].coasts}

    def _malta_need(self, s: GameState) -> int:
        """Strength Aragon lands on Malta: one more than the garrison; in GT1 as much (the siege of 1283)."""
        return enemy_strength(s, "malta", "B") + (0 if s.turn == 1 else 1)

    def _malta_fleet(self, s: GameState, side: str, opts: list[Any]) -> Any:
        """Lauria's Malta (1283): a fleet off Sicily carries Sicily's spare troops to the island."""
        if self._malta_power(s, side) < self._malta_need(s):
            return None
        m = s.map.areas
        goal = self._malta_ports(s)
        best, best_d = None, 4
        ports = friendly_port_seas(s, side)
        for o in opts:
            if not isinstance(o, ForcePick):
                continue
            area = o.area
            # 11.1: a fleet off a hostile coast first sails to a friendly port sea; one move into Sicily's will do
            if o.power == "aragon" and o.what == "all" and m[area].kind == "sea" \
                    and (area in ports or m[area].neighbours & ports & goal):
                dd = min((sea_distances(s.map, area).get(x, 99) for x in goal), default=99)
                if dd < best_d:
                    best, best_d = o, dd
        return best

    def _land_plan_value(self, s: GameState, side: str, area: str, st: int, tg: dict[str, int]) -> float:
        realm = self._realm(s, side, area)
        if realm is not None:
            tg = {a: v for a, v in tg.items() if a in realm}
        return super()._land_plan_value(s, side, area, st, tg)

    def _land_step(self, s: GameState, side: str, f: Any, opts: list[Any]) -> Any:
        attack = _verb(opts, "attack")
        if side == "B" and self._vespers(s) and s.turn == 1 and f.area == "malta" and attack is not None \
                and strength(s.data, f.units) >= enemy_strength(s, "malta", side):
            return attack  # the siege of Malta's castle (1283): landed as strong as the garrison, Aragon attacks
        realm = self._realm(s, side, f.start if f.start else f.area)
        if realm is not None:
            opts = [o for o in opts if o.verb != "move" or o.area in realm] or opts
        return super()._land_step(s, side, f, opts)

    def _sea_step(self, s: GameState, side: str, f: Any, opts: list[Any]) -> Any:
        king = self._king_to_sicily(s) if side == "B" else None
        if side == "B" and f.power == "aragon" and not f.restricted and self._vespers(s) \
                and king is not None and king in f.cargo_kings:
            return self._expedition_step(s, f, opts)
        if side == "B" and king is None and f.power == "aragon" and not f.restricted and self._vespers(s) \
                and s.ctl.get("malta") != "B" and self._malta_power(s, side) + strength(s.data, f.cargo) > 0:
            step = self._malta_step(s, f, opts)
            if step is not None:
                return step
        if king is None or f.power != "aragon" or f.restricted:
            if side == "B" and self._vespers(s):
                opts = [o for o in opts if not (o.verb == "embark" and o.area in ARAGON_HOME)] or opts
            return super()._sea_step(s, side, f, opts)
        if not f.cargo and not self._sicily_in_reach(s, f):
            return super()._sea_step(s, side, f, opts)  # not this fleet, not with these OPs
        home = s.kings.get(king)
        loaded = [c for (p, c), n in f.cargo.items() for _ in range(n)]
        for code in EXPEDITION:
            if loaded.count(code) < EXPEDITION.count(code):
                pick = Action("embark", str(home), "aragon", code)
                if pick in opts:
                    return pick
        for o in opts:
            if o == Action("embark-king", str(home), king=king) and f.cargo:
                return o
        embarks = [o for o in opts if o.verb == "embark" and o.area == home]
        if embarks:
            return min(embarks, key=lambda o: (-_LOSS.get(o.unit, 5), o.key))
        return super()._sea_step(s, side, f, opts)

    def _garrison(self, s: GameState, side: str, land: str) -> int:
        """In GT1 Val di Mazara, across the island from Charles's army, keeps two; Malta's siege takes the rest (1283)."""
        if side == "B" and self._vespers(s) and s.turn == 1 and land == "sicily_west" \
                and not any(_land_strength(s, b, "A") for b in s.map.areas[land].neighbours):
            return 2
        keep = super()._garrison(s, side, land)
        if side == "B" and self._vespers(s) and land in SICILY_LANDING and s.ctl.get(land) == side:
            return max(keep, SICILY_GUARD, self._across_the_strait(s, land))
        return keep

    def _across_the_strait(self, s: GameState, land: str) -> int:
        """The strongest Angevin army on a coast that shares a sea with ``land`` (Calabria facing Messina)."""
        m = s.map.areas
        seas = m[land].coasts
        return max((_land_strength(s, b, "A") for b in m if b != land and m[b].kind == "land"
                    and m[b].coasts & seas and s.ctl.get(b) == "A"), default=0)

    def _naval_targets(self, s: GameState, side: str, tg: dict[str, int]) -> dict[str, int]:
        tg = super()._naval_targets(s, side, tg)
        if side == "A" and self._vespers(s) and (s.turn == 1 or _sicily_landing_failed(s)):
            # Charles I gave up Messina when Peter III landed (26 Sep 1282) and fought for Malta and
            # Naples at sea instead; the later landings (Augusta 1287, Trapani 1299, Sciacca 1302)
            # each failed and were not pressed again: Anjou lands in Sicily after GT1, until it fails.
            return {a: v for a, v in tg.items() if a not in SICILY_LANDING}
        if side == "B" and self._vespers(s):
            return {a: v for a, v in tg.items() if a in SICILIAN_REALM or a == "calabria"}
        return tg

    def _naval_plan_value(self, s: GameState, side: str, sea: str, units: dict[Key, int],
                          tg: dict[str, int]) -> float:
        if side == "B" and self._vespers(s):
            m = s.map.areas
            abroad = sum(s.available(land, k) for land in m[sea].coasts if s.ctl.get(land) == side
                         and land not in ARAGON_HOME for k in s.side_units(land, side) if k[1] != "F")
            if abroad < 2:
                return 0.0  # the home armies wait for the French crusade; only Sicily's troops sail
        return super()._naval_plan_value(s, side, sea, units, tg)

    def _malta_step(self, s: GameState, f: Any, opts: list[Any]) -> Any:
        """Load Sicily's spare troops and land on Malta; None when that is not on.

        One power's units sail (a landing needs one power's cargo, 11.2 ruling), each Sicilian area
        keeps its garrison, and the fleet sets out only if its OPs cover the voyage and the landing.
        """
        m = s.map.areas
        mv, ld = cost(s, "naval_move"), cost(s, "amphibious_landing")
        need = self._malta_need(s)
        aboard = sorted({p for p, _ in f.cargo})
        if len(aboard) > 1:
            return None
        carry = strength(s.data, f.cargo)

        def to_malta(sea: str) -> int:
            return min((sea_distances(s.map, sea).get(x, 99) for x in m["malta"].coasts), default=99)

        moves = _all(opts, "move")
        reach = to_malta(f.area) * mv + ld <= f.ops
        room = 2 * f.count() - sum(f.cargo.values())
        loadable = self._loadable(s, "B", opts, lands=SICILY_LANDING)
        powers = aboard or sorted(loadable, key=lambda p: (-sum(loadable[p][:room]), p != "aragon", p))
        if reach and powers and carry < need + 1 and carry + sum(loadable.get(powers[0], [])[:room]) >= need:
            embarks = self._spare_embarks(s, "B", opts, powers[0], lands=SICILY_LANDING)
            if embarks:
                return embarks[0]  # one unit more than the levies on Malta, where Sicily can spare it
        if carry >= need:
            landing = Action("land", "malta")
            if landing in opts:
                return landing
            if reach and moves:
                return min(moves, key=lambda o: (to_malta(o.area), o.key))
            return None
        if f.cargo or not moves:
            return None
        goal = self._malta_ports(s)
        if f.area in goal or self._malta_power(s, "B") < need:
            return None
        best = min(moves, key=lambda o: (min((sea_distances(s.map, o.area).get(x, 99) for x in goal), default=99), o.key))
        there = min((sea_distances(s.map, best.area).get(x, 99) for x in goal), default=99)
        if (1 + there) * mv + min(to_malta(x) for x in goal if sea_distances(s.map, best.area).get(x, 99) == there) * mv \
                + ld <= f.ops:
            return best
        return None

    def _expedition_step(self, s: GameState, f: Any, opts: list[Any]) -> Any:
        """Carry the expedition to Sicily: go ashore where Aragon holds or Anjou is weakest."""
        m = s.map.areas
        carry = strength(s.data, f.cargo)

        def ashore(o: Action) -> tuple[int, int, str]:
            land = o.area
            return (0 if s.ctl.get(land) == "B" else 1, enemy_strength(s, land, "B"), o.key)

        debarks = [o for o in opts if o.verb == "debark" and o.area in SICILY_LANDING]
        lands = [o for o in opts if o.verb == "land" and o.area in SICILY_LANDING
                 and enemy_strength(s, o.area, "B") < carry + 2]
        if debarks or lands:
            return min(debarks + lands, key=ashore)
        goal = {x for land in SICILY_LANDING for x in m[land].coasts}
        moves = _all(opts, "move")
        if moves and self._sicily_in_reach(s, f):
            return min(moves, key=lambda o: (min(sea_distances(s.map, o.area).get(x, 99) for x in goal), o.key))
        return self._go_ashore(s, "B", f, opts)

    def _sicily_in_reach(self, s: GameState, f: Any) -> bool:
        """The fleet's OPs cover the voyage to a Sicilian coast and, where Anjou holds it, the landing (11.2, 12.0)."""
        m = s.map.areas
        mv, ld = cost(s, "naval_move"), cost(s, "amphibious_landing")
        dist = sea_distances(s.map, f.area)
        return any(min((dist.get(x, 99) for x in m[a].coasts), default=99) * mv
                   + (ld if s.ctl.get(a) == "A" else 0) <= f.ops for a in SICILY_LANDING)


@dataclass(frozen=True)
class AragonTask(Historical):
    """The heuristic's Aragon where it wins by key areas alone (13.0: Sicily, Malta, the guarded frontier).

    Built on the historical player's Sicilian and Maltese play in GT1 (recruits to Sicily, a squadron
    bought for the port sea nearest Malta that carries Sicily's spare troops to the island, each Sicilian
    area keeping its guard; Sicily's armies stay on the island) with the heuristic's frontier (the King
    and the home armies stay home, where the heuristic sends them), its set-up with the field armies on
    the frontier, its politics for Sicily and, in the game's last operations phase, every unit free to
    take what 13.0 still lacks.
    """

    spec: str = "heuristic"
    ARAGON_TASK: ClassVar[bool] = True

    def _king_to_sicily(self, s: GameState) -> str | None:
        return None  # the King stays with the frontier armies (his military value defends them, 10.3.1)

    def _realm(self, s: GameState, side: str, area: str) -> tuple[str, ...] | None:
        realm = super()._realm(s, side, area)
        return realm if realm == SICILIAN_REALM else None

    def _garrison(self, s: GameState, side: str, land: str) -> int:
        if self._last_move(s, side):
            return Heuristic._garrison(self, s, side, land)
        return super()._garrison(s, side, land)


#: The player of Aragon's task, to which the heuristic hands Aragon's decisions (``Heuristic.DELEGATES_ARAGON``).
ARAGON = AragonTask()


def historical_factory(arg: str = "") -> Historical:
    """``historical`` (no settings)."""
    return Historical()


PLAYERS["historical"] = historical_factory
