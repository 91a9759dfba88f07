"""A simple heuristic player for Empire's Revolt's conquest: it weighs each legal action and takes the best.

What it values, in order: raising armies while food allows (rules 10-12); attacks whose exact odds
(``odds.dice_off``) are at least 40% (25% out of its capital, where a defeat costs nothing, rule 8),
weighted by what the region gives toward the resource target of the player count (rules 71-73), a
city (76) or an enemy capital (70); mercenaries (52-56); settlements on the regions it holds
(34-36); a first ship or two (26-30); and marching, boarding or sailing toward regions it does not hold. It ends the turn when nothing is worth doing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from medviz.engine.policy import DecisionPoint
from medviz.rules.empires_revolt import conquest
from medviz.rules.empires_revolt.odds import dice_off


@dataclass
class HeuristicPolicy:
    """Scores every action of a turn and takes the best one (the first on a tie); ends when none scores."""

    spec: str = "heuristic"

    @classmethod
    def from_spec(cls, arg: str | None = None) -> HeuristicPolicy:
        """``heuristic`` (no argument)."""
        return cls()

    def choose(self, point: DecisionPoint) -> Any:
        """The action with the highest score."""
        state = point.state
        if point.kind != "action" or not isinstance(state, conquest.ConquestState):
            return point.options[0]
        seat = point.actor
        best, best_score = point.options[0], 0.0
        for option in point.options:
            score = self.score(state, seat, option)
            if score > best_score:
                best, best_score = option, score
        return best

    def score(self, s: conquest.ConquestState, seat: str, o: Mapping[str, str]) -> float:
        """How much an action is worth to ``seat`` now (0 or less: not worth a turn's end)."""
        do = o["do"]
        stock = s.stock[seat]
        if do == "army":
            return 6.0
        if do == "settle":
            return 3.0 + self._need(s, seat, o["area"])
        if do == "fortify":
            return 1.0 if stock["gold"] >= 3 else 0.0
        if do == "ship":
            if len(s.ships_of(seat)) >= 2:
                return 0.0
            return 2.5 if self._cut_off(s, seat) else 1.2
        if do == "hire":
            return 2.5
        if do in ("march", "land"):
            return self._enter_score(s, seat, o["army"], o["to"])
        if do == "embark":
            here = s.armies[o["army"]]["area"]
            good = any(self._enter_score(s, seat, o["army"], n) > 1.0 for n in s.map.land_moves(here)
                       if s.owner.get(n) != seat)
            return 0.0 if good else 0.8
        if do == "sail":
            cargo = s.cargo(o["ship"])
            targets = [a for a in s.map.areas[o["to"]].coasts if s.owner.get(a) != seat]
            return (1.0 if cargo else 0.2) if targets else 0.0
        return 0.0

    def _need(self, s: conquest.ConquestState, seat: str, area: str) -> float:
        """1 when ``area``'s resource is still short of the player count's target (rules 71-73), else 0."""
        need = s.rules.victory[len(s.seats)]
        r = s.map.areas[area].resource
        return 1.0 if s.by_resource(seat)[r] < need[r] else 0.0

    def _hostile_near(self, s: conquest.ConquestState, seat: str, area: str) -> bool:
        return any(s.owner.get(n) != seat for n in s.map.land_moves(area))

    def _cut_off(self, s: conquest.ConquestState, seat: str) -> bool:
        """True when no army of ``seat`` has a region it does not hold next to it by land."""
        return not any(self._hostile_near(s, seat, s.armies[i]["area"]) for i in s.armies_of(seat)
                       if not s.armies[i]["ship"])

    def _enter_score(self, s: conquest.ConquestState, seat: str, army: str, to: str) -> float:
        carrier = s.armies[army]["ship"]
        enemies = conquest.enemy_armies(s, seat, to)
        if not enemies and s.owner.get(to) == seat:  # a march at home: toward the frontier
            here = s.armies[army]["area"]
            if carrier:
                return 0.6
            return 0.5 if self._hostile_near(s, seat, to) and not self._hostile_near(s, seat, here) else 0.0
        a, d = conquest.fight_dice(s, seat, to, carrier)
        p = float(dice_off(a, d).attacker)
        here = "" if carrier else s.armies[army]["area"]
        from_capital = here == s.capital_area(seat)  # rule 8: a defeat there costs nothing
        if p < (0.25 if from_capital else 0.4):
            return 0.0
        area = s.map.areas[to]
        holder = s.owner.get(to)
        value = 1.0 + 2.0 * self._need(s, seat, to) + (3.0 if area.city else 0.0)
        if holder and holder != seat and area.capital == s.capital_of.get(holder):
            value += 4.0
        if enemies:
            value = 1.5 + (2.0 if holder != seat and area.capital == s.capital_of.get(holder or "") else 0.0)
        return p * value - (0.0 if from_capital else (1 - p) * 1.5) + 0.5
