"""The Empire's Revolt ruleset: the ``battle`` scenario (dice-offs) and its exact odds."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from medviz.engine.definition import DefinedRuleset, GameDefinition, ScenarioDefinition
from medviz.engine.events import ChangeEvent, Event, ReportEvent, RollEvent
from medviz.engine.game import Seat, Task
from medviz.rules.empires_revolt import combat
from medviz.rules.empires_revolt.combat import BattleGame
from medviz.rules.empires_revolt.data import Rules, load_rules
from medviz.rules.empires_revolt.odds import battle_odds

#: A player's turn (rules 62-65).
PHASES = {"collect": "Collect resources (rule 63)", "upkeep": "Pay upkeep (rule 64)",
          "troop-actions": "Troop actions (rule 65)"}

SPEC_HELP = """\
Attacker: [Nx]A<dice>[+convoy][+support<n>][+capital], or [Nx]ship.
  A<dice>: the A number of the capital card (rule 3); +convoy: landing from a ship, +1 die (rule 28);
  +support<n>: n ships on the coast, +1 die each (rule 29); +capital: attacking from the capital,
  defeated armies survive (rule 8); Nx: N armies fighting one after another.
Defender: [Nx]army:D<dice> (rule 24), [Nx]ship (rule 32), or a territory: own-revolt, other-revolt,
  blank, held@D<d>, vacated, illyria (each +city where it has cities), settled@D<d>[+fort].
Option city_rule=50 (a player's city rolls D+1, default) or 21 (three dice).
Example: --attacker 3xA2+support1 --defender blank+city"""


class EmpiresRevolt(DefinedRuleset):
    """Empire's Revolt (Ian Hacker, 2018) on the medviz engine."""

    game = "empires_revolt"
    title = "Empire's Revolt"
    spec_help = SPEC_HELP

    def __init__(self, data: str | Path | Mapping[str, Any] | None = None) -> None:
        self.rules: Rules = load_rules(data)

    def define(self) -> GameDefinition:
        rules = self.rules

        def setup(options: Mapping[str, Any]) -> tuple[BattleGame, list[Task]]:
            return BattleGame("battle", combat.new_battle(options, rules)), [Task.of("er.battle", checkpoint=True)]

        seats = (Seat("attacker", "Attacker", "#1f5fa8"), Seat("defender", "Defender", "#b8322a"))
        return GameDefinition(
            scenarios={"battle": ScenarioDefinition("battle", setup, lambda s: combat.outcome(s.battle), seats,
                                                    "A fight: dice-offs, ties rerolled (rules 17-32)")},
            tasks={"er.battle": lambda s, ctx: combat.task_battle(s.battle, ctx),
                   "er.fight": lambda s, ctx: combat.task_fight(s.battle, ctx)},
            reducers={name: combat.reducer(name) for name in combat.CHANGES}, phases=PHASES)

    def options(self, scenario: str) -> Mapping[str, Any]:
        """The scenario's options and defaults."""
        self.definition.scenario(scenario)
        return {"attacker": None, "defender": None, "city_rule": "50"}

    def battle_odds(self, attacker: str, defender: str, options: Mapping[str, str]) -> dict[str, Any]:
        """Exact odds as JSON-ready data; see ``spec_help``."""
        return battle_odds(attacker, defender, options, self.rules)

    def describe(self, event: Event) -> str:
        """The event in plain words."""
        if isinstance(event, RollEvent):
            return f"{event.roll}: {event.value}"
        if isinstance(event, ReportEvent) and event.report == "er-tie":
            return f"fight {event.data['fight']}: tie at {event.data['high']} on throw {event.data['throw']}, roll again"
        if isinstance(event, ChangeEvent) and event.change == "er-fight":
            d = event.data
            return f"fight {d['fight']}: the {d['winner']} wins after {d['throws']} throw(s); the {d['loser']} loses {d['lost']}"
        return super().describe(event)


#: The shipped ruleset (entry point ``medviz.rules.empires_revolt.ruleset:RULESET``).
RULESET = EmpiresRevolt()
