"""Plans for the whole game: named postures of the heuristic, which the expert chooses among turn by turn.

A ``Plan`` is a handful of knobs read at the heuristic's decision points; ``Planned`` is the
heuristic playing under one. Every knob's default is the heuristic's own habit, so the default
plan (``PLANS["heuristic"]``) plays exactly the heuristic's games (``tests/test_expert.py`` checks
that byte for byte). The knobs, in the game's own words:

- ``keep``: the land strength each city a side holds keeps when a fleet loads troops there
  (11.1 embarking). The heuristic keeps a guard only in a scenario's key areas; the standard
  game's Player A loses most of its games by cities it emptied to load fleets, retaken by landings
  (docs/rules-coverage.md).
- ``hold``: a force in a city the side holds stays there while enemy land units stand next door or
  enemy units are on a sea off its coast (what to keep; the heuristic holds only key areas).
- ``strike``: how much stronger than the defenders a land force must be to march on or attack an
  area (the heuristic: one point, ``strength``); more is a cautious plan.
- ``recover``: extra value of a city the side held at the start and has lost (4.1: it counts a VP
  for the side that now holds it); the heuristic weighs every enemy city alike.
- ``add_tp``: the treasury at which the side adds a TP to its political roll (7.0; the heuristic:
  5); lower spends more of the treasury on politics, higher keeps it for recruits (6.0).
- ``allies``: the bonus for a diplomacy attempt on the other side's ally (7.0, reverting it; the
  heuristic: 2); ``politics``: the weight of every attempt (0 never attempts; the heuristic: 1).
- ``fleets``: how many fleets the side wants on the map before it buys armies first (6.0; the
  heuristic: 3).

Aragon's task in the Vespers (13.0; the heuristic hands those decisions to ``players.AragonTask``,
which the knobs above do not reach) has knobs of its own, read by ``PlannedAragon``:

- ``malta``: Lauria's Malta, Sicily's spare troops carried to the island by a fleet (the task: on);
  off, the fleets and Sicily's troops stay with the heuristic's landings.
- ``sicily_first``: all of GT1's recruits go to Sicily (the task: on); off, GT1's go where the later
  turns' go.
- ``alarm``: later turns' recruits go to Sicily unless a guarded area faces French strength this
  much greater than its own (the task: ``players.HOME_ALARM``); lower keeps them on the frontier.
- ``intercept``: Aragon intercepts a force entering or leaving an area it occupies (10.2) when its
  own strength there is at least the force's plus this (the heuristic: 1); lower intercepts more.
- ``stand``: in a guarded area Aragon never tries to avoid a battle (10.3.1; the heuristic avoids
  when the attacker is two points stronger, which hands France the area under 13.0).
- ``sea_watch``: a guarded area's danger (where recruits go) counts the enemy land strength the
  enemy fleets on its coast's seas could carry ashore (11.1-11.2: two units a fleet), not only the
  enemy armies next door by land; the Catalan counties face the Gulf of Lion.
- ``avoid``: in a guarded area Aragon tries to avoid a battle (10.3.1) when the attacker is
  stronger by more than this (the heuristic: 1); avoiding units stay where they are, so a
  successful roll keeps France from taking the area that action. Lower tries more often.
- ``hunt``: Aragon's fleets (which count double, 11.3) seek out and attack the enemy fleets they
  outnumber before anything else, so France has fewer hulls to land troops on the frontier with.
- ``counter``: Aragon attacks an enemy force inside a guarded area (a landing or a march France
  made but could not finish, the area contested) with the force already there when its strength
  is at least the enemy's plus this (the heuristic: 1); lower strikes the lodgement before France
  attacks from it again next turn (France moves first, 5.1).
- ``court``: powers the side's political attempt goes to first (7.0), diplomacy where it can, else
  vassalage, while they are not its allies (for Aragon after Sicily's own; for either side in the
  standard game too): the neighbours France could turn against Aragon's frontier, or the allies
  whose cities count for a side (4.1).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from medviz.engine.policy import DecisionPoint
from medviz.rules.medempires.choices import Decision
from medviz.rules.medempires.game.options import Attempt, ForcePick
from medviz.rules.medempires.game.players import (
    ARAGON_HOME,
    HOME_ALARM,
    AragonTask,
    Heuristic,
    enemy_strength,
    keys_only,
    strength,
)
from medviz.rules.medempires.game.state import (
    PLAYER_POWERS,
    GameState,
    cost,
    friendly_port_seas,
    other_side,
    sea_distances,
)


@dataclass(frozen=True)
class Plan:
    """Posture knobs of the heuristic for the rest of the game (module docstring); defaults: the heuristic."""

    keep: int = 0
    hold: bool = False
    strike: int = 1
    recover: int = 0
    add_tp: int = 5
    allies: float = 2.0
    politics: float = 1.0
    fleets: int = 3
    malta: bool = True
    sicily_first: bool = True
    alarm: int = HOME_ALARM
    intercept: int = 1
    stand: bool = False
    sea_watch: bool = False
    avoid: int = 1
    hunt: bool = False
    counter: int = 1
    court: tuple[str, ...] = ()

    def aragon(self) -> bool:
        """Some knob of Aragon's task (``PlannedAragon``) differs from the task's own."""
        known = _ARAGON.get(self)  # asked at every decision a planned side takes: worked out once a plan
        if known is None:
            base = Plan()
            known = _ARAGON[self] = any(getattr(self, k) != getattr(base, k) for k in ARAGON_KNOBS)
        return known

    def describe(self) -> str:
        """The knobs that differ from the heuristic's, ``key=value`` joined by commas (``heuristic`` if none)."""
        base = Plan()
        diff = [f"{f.name}={'+'.join(v) if isinstance(v, tuple) else v}" for f in fields(self)
                if (v := getattr(self, f.name)) != getattr(base, f.name)]
        return ",".join(diff) or "heuristic"


#: ``Plan.aragon`` of each plan asked so far (plans are frozen values, so the answer never changes).
_ARAGON: dict[Plan, bool] = {}

#: The named plans the expert chooses among (``expert:plans=N``), the heuristic's own first.
#: Measured each fixed for a whole standard game as Player A against the heuristic (seeds 0-39, the
#: heuristic's own: 5 wins, mean VP margin -4.8): none wins more than 7 of 40 alone, so the expert
#: changes plan turn by turn where its rollouts show one clearly ahead (docs/rules-coverage.md).
PLANS: dict[str, Plan] = {
    "heuristic": Plan(),
    "retake": Plan(allies=0.0, recover=1),  # court neutrals, not the foe's allies; win back lost cities first
    "armies": Plan(fleets=0),  # buy armies before fleets
    "hold": Plan(hold=True),  # cities with the enemy at the door keep their forces
    "garrison": Plan(keep=1),  # a fleet loading in a held city leaves a unit's strength behind
    "cautious": Plan(strike=2),  # march only on areas two points weaker than the force
    "treasury": Plan(add_tp=99),  # no TP added to political rolls: the treasury goes to recruits
}


#: The knobs of Aragon's task in the Vespers (``PlannedAragon``); the others are the heuristic's.
ARAGON_KNOBS = ("malta", "sicily_first", "alarm", "intercept", "stand", "sea_watch", "avoid", "hunt", "counter", "court")

#: Plans that change Aragon's war in the Vespers (13.0) rather than the heuristic's habits, which
#: ``PLANS`` tunes and which Aragon's task does not read: where the recruits go (Sicily or the
#: frontier), whether Malta is sought, how the frontier is fought for (interceptions, avoiding,
#: striking a French lodgement), the fleets against France's hulls, and politics for the frontier's
#: neighbours. Each was measured fixed for a whole game against the heuristic France
#: (``tools/plan_rates.py --scenario vespers-1282 --side B --menu aragon --games 200``;
#: docs/rules-coverage.md, Balance): none reaches 65%, nor does the best per seed in hindsight.
ARAGON_PLANS: dict[str, Plan] = {
    "task": Plan(),  # Aragon's task as the heuristic plays it
    "home": Plan(sicily_first=False, alarm=-99),  # every turn's recruits to the frontier's most threatened area
    "home-later": Plan(alarm=-99),  # GT1's recruits to Sicily, later turns' to the frontier
    "sea-watch": Plan(sea_watch=True),  # the frontier's danger counts what France's fleets can land
    "frontier": Plan(sicily_first=False, alarm=-99, sea_watch=True, avoid=0),  # all for the frontier
    "no-malta": Plan(malta=False),  # no expedition to Malta: Sicily's troops stay home
    "intercept": Plan(intercept=0),  # intercept forces at even strength (10.2)
    "avoid": Plan(avoid=0),  # try to avoid any stronger attacker in a guarded area (10.3.1)
    "stand": Plan(stand=True),  # never avoid in a guarded area
    "counter": Plan(counter=-2),  # strike a French lodgement in a guarded area two points weaker
    "hunt": Plan(hunt=True),  # the fleets (double, 11.3) sink France's first
    "court": Plan(court=("navarre", "castile", "england")),  # the frontier's neighbours before France gets them
}

#: The heuristic's postures and plans for the allies politics wins (7.0; 4.1 counts an ally's cities):
#: each neutral courted first, fixed for a whole standard game as Player A against the heuristic
#: (``tools/plan_rates.py --menu courts --games 100``; the heuristic's own 15 wins, 6 draws, mean margin -3.5): Venice 21 wins,
#: 17 draws (-2.2), the Papal States 18, 16 (-3.3), every other power 5-15 wins. This menu, each fixed
#: (``--menu allies --games 200``): none above 43 of 200 (``retake``), 113 of 200 with hindsight.
ALLIES_PLANS: dict[str, Plan] = {
    **PLANS,
    "venice": Plan(court=("venice",)),
    "papacy": Plan(court=("papal_states",)),
    "venice-papacy": Plan(court=("venice", "papal_states")),
    "venice-armies": Plan(court=("venice",), fleets=0),
}

#: The menus of plans by name: the heuristic's postures, Aragon's war in the Vespers, the allies.
MENUS: dict[str, dict[str, Plan]] = {"heuristic": PLANS, "aragon": ARAGON_PLANS, "allies": ALLIES_PLANS}


@dataclass(frozen=True)
class Planned(Heuristic):
    """The heuristic under a ``Plan``: with the default plan it is the heuristic, decision for decision."""

    plan: Plan = field(default=Plan(), kw_only=True)

    def _choose(self, point: DecisionPoint) -> Any:
        s = point.state
        if self.plan.aragon() and isinstance(s, GameState) and keys_only(s, point.actor):
            return PlannedAragon(plan=self.plan)._choose(point)
        return super()._choose(point)

    # -- what to keep ------------------------------------------------------------------------------
    def _garrison(self, s: GameState, side: str, land: str) -> int:
        keep = super()._garrison(s, side, land)
        if self.plan.keep and s.map.areas[land].city and s.ctl.get(land) == side:
            return max(keep, self.plan.keep)
        return keep

    def _must_hold(self, s: GameState, side: str, area: str) -> bool:
        if super()._must_hold(s, side, area):
            return True
        if not self.plan.hold or not s.map.areas[area].city or s.ctl.get(area) != side:
            return False
        m = s.map.areas
        return any(enemy_strength(s, b, side) for b in m[area].neighbours) or any(
            s.has_side_units(x, other_side(side)) for x in m[area].coasts)

    # -- where to strike ---------------------------------------------------------------------------
    def _targets(self, s: GameState, side: str) -> dict[str, int]:
        tg = super()._targets(s, side)
        if not self.plan.recover:
            return tg
        return {a: v + (self.plan.recover if s.start_ctl.get(a) == side else 0) for a, v in tg.items()}

    def _land_plan_value(self, s: GameState, side: str, area: str, st: int, tg: dict[str, int]) -> float:
        if self.plan.strike > 1:
            tg = {a: v for a, v in tg.items() if st >= enemy_strength(s, a, side) + self.plan.strike}
        return super()._land_plan_value(s, side, area, st, tg)

    def _land_step(self, s: GameState, side: str, f: Any, opts: list[Any]) -> Any:
        if self.plan.strike > 1:
            if strength(s.data, f.units) < enemy_strength(s, f.area, side) + self.plan.strike:
                opts = [o for o in opts if o.verb != "attack"] or opts
        return super()._land_step(s, side, f, opts)

    # -- politics and the treasury -----------------------------------------------------------------
    def _politics(self, s: GameState, side: str, k: str, opts: list[Any]) -> Any:
        p, base = self.plan, Plan()
        if k == Decision.ADD_TP and p.add_tp != base.add_tp:
            return "yes" if s.tp[side] >= p.add_tp else "no"
        if k == Decision.ATTEMPT and (courted := _courted(p, s, side, opts)) is not None:
            return courted
        if k != Decision.ATTEMPT or (p.allies == base.allies and p.politics == base.politics):
            return super()._politics(s, side, k, opts)
        best: Any = "pass"
        best_v = 0.0
        for o in opts:
            if not isinstance(o, Attempt):
                continue
            v = self._power_value(s, side, o.power)
            if o.kind == "diplomacy" and s.status[o.power] == f"ally:{other_side(side)}":
                v += p.allies
            if o.kind == "vassalage":
                v *= 0.5
            if o.kind == "rebellion":
                v += 1.5
            v *= ({"diplomacy": 0.33, "vassalage": 0.66, "rebellion": 0.33}[o.kind] + 0.5) * p.politics
            if v > best_v:
                best, best_v = o, v
        return best

    def _recruit(self, s: GameState, side: str, k: str, opts: list[Any]) -> Any:
        if k != Decision.PURCHASE or self.plan.fleets == Plan().fleets:
            return super()._recruit(s, side, k, opts)
        sides = s.sides()
        fleets = sum(n for u in s.units.values() for (p, c), n in u.items() if c == "F" and sides.get(p) == side)
        prefs = []
        for o in opts:
            if o == "done":
                continue
            score = {"FA": 5.0, "M": 5.0, "2L": 4.0, "R": 3.0, "L": 1.0, "F": 2.0}[o.code]
            if o.code == "F" and fleets < self.plan.fleets:
                score = 6.0
            if o.power not in PLAYER_POWERS:
                score += 0.5
            prefs.append((-score, o.key, o))
        return min(prefs, key=lambda t: t[:2])[2] if prefs else "done"


@dataclass(frozen=True)
class PlannedAragon(AragonTask):
    """Aragon's task in the Vespers (13.0) under a ``Plan``'s Aragonese knobs (module docstring)."""

    plan: Plan = field(default=Plan(), kw_only=True)

    def _malta_power(self, s: GameState, side: str) -> int:
        return super()._malta_power(s, side) if self.plan.malta else 0

    def _place(self, s: GameState, side: str, opts: list[Any]) -> Any:
        p = self.plan
        m = s.map.areas
        if side != "B" or all(m[a].kind == "sea" for a in opts) or (
                p.sicily_first and p.alarm == HOME_ALARM and not p.sea_watch):
            return super()._place(s, side, opts)
        guard = [a for a in opts if a in ARAGON_HOME[:4] and s.ctl.get(a) == "B"]

        def own(a: str) -> int:
            return strength(s.data, {k: n for k, n in s.side_units(a, side).items() if k[1] != "F"})

        def danger(a: str) -> tuple[int, str]:
            land = sum(enemy_strength(s, b, side) for b in m[a].neighbours)
            return (-(land + (self._sea_threat(s, side, a) if p.sea_watch else 0) - own(a)), a)

        worst = max((-danger(a)[0] for a in guard), default=-99)
        sicily = [a for a in opts if a in ("sicily_west", "sicily_east")]
        if sicily and ((s.turn == 1 and p.sicily_first) or worst <= p.alarm):
            return min(sicily, key=lambda a: (own(a) - self._garrison(s, side, a), own(a), a))
        if guard and worst > 0:
            return min(guard, key=danger)
        return Heuristic._place(self, s, side, opts)

    def _sea_threat(self, s: GameState, side: str, land: str) -> int:
        """The most enemy land strength one sea on ``land``'s coast could put ashore: its enemy fleets carry
        two units each (11.1), the strongest on the enemy-held coasts of that sea."""
        m = s.map.areas
        foe = other_side(side)
        best = 0
        for sea in m[land].coasts:
            room = 2 * sum(n for (_, c), n in s.side_units(sea, foe).items() if c == "F")
            if not room:
                continue
            weights = sorted((w for b in m[sea].coasts if b != land and s.ctl.get(b) == foe
                              for k, n in s.side_units(b, foe).items() if k[1] != "F"
                              for w in [strength(s.data, {k: 1})] * n), reverse=True)
            best = max(best, sum(weights[:room]))
        return best

    def _intercept(self, s: GameState, side: str, k: str, opts: list[Any]) -> Any:
        f = s.force
        if k != Decision.INTERCEPT or f is None or "all" not in opts or self.plan.intercept == Plan().intercept:
            return super()._intercept(s, side, k, opts)
        mine = strength(s.data, {u: n for u, n in s.side_units(f.area, side).items() if (u[1] == "F") == (f.kind == "sea")})
        return "all" if mine >= strength(s.data, f.units) + self.plan.intercept else "no"

    def _battle(self, point: DecisionPoint) -> Any:
        s = point.state
        p = self.plan
        if point.kind == Decision.AVOID and isinstance(s, GameState) and s.battle is not None \
                and s.force is not None and s.force.area in ARAGON_HOME[:4]:  # the attacking force's area
            if p.stand:
                return "stand"
            if p.avoid != Plan().avoid:
                b = s.battle
                theirs, mine = strength(s.data, b.sides["attacker"].units), strength(s.data, b.sides["defender"].units)
                return "try to avoid" if theirs > mine + p.avoid else "stand"
        return super()._battle(point)

    # -- the hunt for the enemy's fleets ------------------------------------------------------
    def _prey(self, s: GameState, side: str, sea: str, mine: int, ops: int) -> str | None:
        """The nearest sea within ``ops`` naval moves of ``sea`` whose enemy fleets ``mine`` outnumbers."""
        foe = other_side(side)
        best: tuple[int, str] | None = None
        for x, d in sea_distances(s.map, sea).items():
            theirs = strength(s.data, {k: n for k, n in s.side_units(x, foe).items() if k[1] == "F"})
            if theirs and mine > theirs and d * cost(s, "naval_move") <= ops and (best is None or (d, x) < best):
                best = (d, x)
        return best[1] if best else None

    def _lodgement(self, s: GameState, side: str, area: str) -> bool:
        """``area`` is a guarded area with enemy land units in it that Aragon's units there may strike (``counter``)."""
        if self.plan.counter == Plan().counter or area not in ARAGON_HOME[:4] or not enemy_strength(s, area, side):
            return False
        mine = strength(s.data, {k: s.available(area, k) for k in s.side_units(area, side) if k[1] != "F"})
        return mine >= enemy_strength(s, area, side) + self.plan.counter

    def _land_step(self, s: GameState, side: str, f: Any, opts: list[Any]) -> Any:
        attack = next((o for o in opts if o.verb == "attack"), None)
        if attack is not None and self.plan.counter != Plan().counter and f.area in ARAGON_HOME[:4] \
                and strength(s.data, f.units) >= enemy_strength(s, f.area, side) + self.plan.counter:
            return attack
        return super()._land_step(s, side, f, opts)

    def _pick_force(self, s: GameState, side: str, opts: list[Any]) -> Any:
        for o in opts:
            if isinstance(o, ForcePick) and o.what == "all" and o.power == "aragon" and self._lodgement(s, side, o.area):
                return o
        if self.plan.hunt:
            ports = friendly_port_seas(s, side)
            hunters = [o for o in opts if isinstance(o, ForcePick) and o.what == "all" and o.area in ports
                       and s.map.areas[o.area].kind == "sea"]
            for o in sorted(hunters, key=lambda o: (-sum(s.available(o.area, k) for k in s.units.get(o.area, {})
                                                         if k[0] == o.power), o.key)):
                units = {k: s.available(o.area, k) for k in s.units.get(o.area, {}) if k[0] == o.power and k[1] == "F"}
                if self._prey(s, side, o.area, strength(s.data, units), 4) is not None:
                    return o
        return super()._pick_force(s, side, opts)

    def _sea_step(self, s: GameState, side: str, f: Any, opts: list[Any]) -> Any:
        if self.plan.hunt and not f.cargo and not f.cargo_kings and not f.restricted:
            mine = strength(s.data, f.units)
            attack = next((o for o in opts if o.verb == "attack"), None)
            foe_here = strength(s.data, {k: n for k, n in s.side_units(f.area, other_side(side)).items() if k[1] == "F"})
            if attack is not None and foe_here and mine > foe_here:
                return attack
            prey = self._prey(s, side, f.area, mine, f.ops)
            moves = [o for o in opts if o.verb == "move"]
            if prey is not None and prey != f.area and moves:
                return min(moves, key=lambda o: (sea_distances(s.map, o.area).get(prey, 99), o.key))
        return super()._sea_step(s, side, f, opts)

    def _politics(self, s: GameState, side: str, k: str, opts: list[Any]) -> Any:
        mine = self._aragon_politics(s, side, k, opts)
        if mine is not None or k != Decision.ATTEMPT:
            return super()._politics(s, side, k, opts)
        courted = _courted(self.plan, s, side, opts)
        return courted if courted is not None else super()._politics(s, side, k, opts)


def _courted(plan: Plan, s: GameState, side: str, opts: list[Any]) -> Attempt | None:
    """The plan's first courted power not yet the side's ally that an attempt can reach (diplomacy, else vassalage)."""
    for power in plan.court:
        if s.status.get(power) != f"ally:{side}":
            for kind in ("diplomacy", "vassalage"):
                if Attempt(kind, power) in opts:
                    return Attempt(kind, power)
    return None


def planned(plan: Plan | str) -> Planned:
    """The heuristic under ``plan`` (a ``Plan`` or a name in ``PLANS``)."""
    return Planned(plan=PLANS[plan] if isinstance(plan, str) else plan)


__all__ = ["ALLIES_PLANS", "ARAGON_KNOBS", "ARAGON_PLANS", "MENUS", "PLANS", "Plan", "Planned", "PlannedAragon", "planned"]
