"""The Variant Middle Sea ruleset: its one definition (scenarios, tasks, reducers) and its odds.

Scenarios: ``battle`` (one land or sea battle, any mix of classes, postures and leaders),
``spy-attempt`` (a spy ring against a leader) and ``play-order`` (the season's order of play).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from medviz.engine.definition import DefinedRuleset, GameDefinition, ScenarioDefinition
from medviz.engine.events import ChangeEvent, DecisionEvent, Event, RollEvent
from medviz.engine.game import Seat, Task
from medviz.rules.variant_middle_sea import combat, order, spies
from medviz.rules.variant_middle_sea.combat import BattleGame
from medviz.rules.variant_middle_sea.data import Rules, load_rules
from medviz.rules.variant_middle_sea.odds import battle_odds

#: The game turn's sequence of play, in order (Sequence of play (1)-(8)).
PHASES = {
    "spy-recruiting": "(1) Recruiting spies", "devastation": "(2) Devastation",
    "loading": "(3) Loading armies on ships", "sea-combat": "(4) Sea move, combat, raids",
    "land-move": "(5) Land move, debarkation", "battles": "(6) Battles and retreats",
    "assaults": "(7) Assaults and blockades", "spy-activity": "(8) Spy activity",
    "order-of-play": "Order of play for the season",
}

SPEC_HELP = """\
A force is groups separated by commas: COUNT CLASS [@LEADER] [+fort] [+manned].
CLASS: INF, CAV (land) or GAL, SHIP (sea); a battle is all land or all sea.
LEADER: x, xx, xxx, xxxx (ranks), bulgar (land), venice (galleys), tripoli (sea); one per group.
+fort: a land defender in a walled town or keep; +manned: ships manned with troops (+1).
Losses come off the last group first. Option rounds=N (default 1) or rounds=all.
Example: --attacker 6INF@x,2CAV --defender 4INF@xx+fort --option rounds=all"""


class VariantMiddleSea(DefinedRuleset):
    """Variant Middle Sea (Wilf Backhaus, 1996/1999) on the medviz engine."""

    game = "variant_middle_sea"
    title = "Variant Middle Sea"
    spec_help = SPEC_HELP
    #: The rules read the state (a battle's next round, the battle's state) and their own rolls; the
    #: players see only the decision point (tests/test_reads_past_events.py).
    reads_past_events = False

    def __init__(self, data: str | Path | Mapping[str, Any] | None = None) -> None:
        self.rules: Rules = load_rules(data)

    def define(self) -> GameDefinition:
        rules = self.rules
        sides = (Seat("attacker", "Attacker (moving player)", "#1f5fa8"), Seat("defender", "Defender", "#b8322a"))

        def battle_setup(options: Mapping[str, Any]) -> tuple[BattleGame, list[Task]]:
            return BattleGame("battle", combat.new_battle(options, rules)), [Task.of("vms.battle", checkpoint=True)]

        def spy_setup(options: Mapping[str, Any]) -> tuple[spies.SpyAttempt, list[Task]]:
            return spies.new_attempt(options, rules.spy), [Task.of("vms.spy", checkpoint=True)]

        def order_setup(options: Mapping[str, Any]) -> tuple[order.SeasonOrder, list[Task]]:
            return order.SeasonOrder("play-order"), [Task.of("vms.order", checkpoint=True)]

        scenarios = {
            "battle": ScenarioDefinition("battle", battle_setup, lambda s: combat.outcome(s.battle), sides,
                                         "One battle (Combat, Leaders)"),
            "spy-attempt": ScenarioDefinition("spy-attempt", spy_setup, spies.outcome,
                                              (Seat("spy", "Spy ring", "#555555"),), "A spy ring's attempt (Spies)"),
            "play-order": ScenarioDefinition("play-order", order_setup, order.outcome,
                                             tuple(Seat(p, f"Player {p[1]}") for p in order.PLAYERS),
                                             "Order of play for a season"),
        }
        reducers: dict[str, Any] = {name: combat.reducer(name) for name in combat.CHANGES}
        reducers["spy-result"] = spies.apply_result
        reducers["season-order"] = order.apply_order
        tasks = {
            "vms.battle": lambda s, ctx: combat.task_battle(s.battle, ctx),
            "vms.round": lambda s, ctx: combat.task_round(s.battle, ctx),
            "vms.spy": spies.task_attempt,
            "vms.order": order.task_order,
        }
        return GameDefinition(scenarios=scenarios, tasks=tasks, reducers=reducers, phases=PHASES)

    def options(self, scenario: str) -> Mapping[str, Any]:
        """The scenario's options and defaults."""
        self.definition.scenario(scenario)
        known: dict[str, dict[str, Any]] = {"battle": {"attacker": None, "defender": None, "rounds": 1},
                                            "spy-attempt": {"dice": 1, "bonuses": "", "minus": 0}}
        return known.get(scenario, {})

    def battle_odds(self, attacker: str, defender: str, options: Mapping[str, str]) -> dict[str, Any]:
        """Exact battle odds as JSON-ready data (floats and exact fractions as text); see ``spec_help``."""
        return battle_odds(attacker, defender, options, self.rules)

    def describe(self, event: Event) -> str:
        """The event in plain words."""
        if isinstance(event, RollEvent):
            words = str(event.effects.get(str(event.value), "")) if event.effects else ""
            return f"{event.roll}: {event.value}" + (f" ({words})" if words else "")
        if isinstance(event, DecisionEvent):
            return f"{event.actor} chooses {event.choice!r} at {event.decision}"
        if isinstance(event, ChangeEvent):
            return f"{event.change}: " + ", ".join(f"{k}={v}" for k, v in event.data.items())
        return super().describe(event)

    def roll_tags(self, event: Any) -> frozenset[str]:
        """Every die of a battle or spy attempt can settle a kill: they are all ``decisive``."""
        return frozenset({"decisive"}) if isinstance(event, RollEvent) and event.effects else frozenset()


#: The shipped ruleset (the entry point's target: ``medviz.rules.variant_middle_sea.ruleset:RULESET``).
RULESET = VariantMiddleSea()
