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
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from medviz.rules.medempires.choices import Decision
from medviz.rules.medempires.game.options import Attempt
from medviz.rules.medempires.game.players import Heuristic, enemy_strength, strength
from medviz.rules.medempires.game.state import PLAYER_POWERS, GameState, other_side


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

    def describe(self) -> str:
        """The knobs that differ from the heuristic's, ``key=value`` joined by commas (``heuristic`` if none)."""
        base = Plan()
        diff = [f"{f.name}={getattr(self, f.name)}" for f in fields(self) if getattr(self, f.name) != getattr(base, f.name)]
        return ",".join(diff) or "heuristic"


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


@dataclass(frozen=True)
class Planned(Heuristic):
    """The heuristic under a ``Plan``: with the default plan it is the heuristic, decision for decision."""

    plan: Plan = field(default=Plan(), kw_only=True)

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



def planned(plan: Plan | str) -> Planned:
    """The heuristic under ``plan`` (a ``Plan`` or a name in ``PLANS``)."""
    return Planned(plan=PLANS[plan] if isinstance(plan, str) else plan)


__all__ = ["PLANS", "Plan", "Planned", "planned"]
