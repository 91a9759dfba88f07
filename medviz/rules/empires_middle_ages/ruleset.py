"""The Empires of the Middle Ages ruleset (fragment 10.3x-16.2): the ``endeavour`` scenario and its odds."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from medviz.engine.definition import DefinedRuleset, GameDefinition, ScenarioDefinition
from medviz.engine.game import Seat, Task
from medviz.rules.empires_middle_ages import endeavours
from medviz.rules.empires_middle_ages.data import Cards, Rules, load_cards, load_rules
from medviz.rules.empires_middle_ages.odds import battle_odds

SPEC_HELP = """\
Attacker: ENDEAVOUR:RATING[+gold<n>], ENDEAVOUR one of conquest, pillage, diplomacy, fortification,
  ruling; RATING the leader's effectiveness; +gold<n> rating points bought with gold (9.33).
Defender: items separated by commas: fort<2|3> (14.31), defend<combat stature> and dgold<n> (13.21),
  partial<n> (C results against the active player's base, 10.33), opponent<diplomatic stature>
  (12.17), independent | venice | magnate (12.18-12.20), social<n>, population<n>.
Option cards=FILE: your year cards and Unrest & Rebellion Table (schema: data/sample_year_cards.toml;
  without it an ILLUSTRATIVE invented sample is used).
Example: --attacker pillage:5+gold1 --defender fort2,defend2"""


class EmpiresMiddleAges(DefinedRuleset):
    """Empires of the Middle Ages (collated rules, fragment 10.3x-16.2) on the medviz engine."""

    game = "empires_middle_ages"
    title = "Empires of the Middle Ages"
    spec_help = SPEC_HELP
    #: An endeavour is one task that reads the state and its own card and rolls: no later task reads
    #: its events (tests/test_reads_past_events.py).
    reads_past_events = False

    def __init__(self, data: str | Path | Mapping[str, Any] | None = None,
                 cards: str | Path | Mapping[str, Any] | None = None) -> None:
        self.rules: Rules = load_rules(data)
        self.cards: Cards = load_cards(cards)

    def define(self) -> GameDefinition:
        rules, cards = self.rules, self.cards
        lo, hi = rules.constants["social-state-min"], rules.constants["social-state-max"]

        def setup(options: Mapping[str, Any]) -> tuple[endeavours.EngagementGame, list[Task]]:
            return endeavours.new_engagement(options, rules, cards), [endeavours.schedule(rules)]

        seats = (Seat("active", "Active player", "#1f5fa8"), Seat("defender", "Area's owner", "#b8322a"))
        return GameDefinition(
            scenarios={"endeavour": ScenarioDefinition("endeavour", setup, endeavours.outcome, seats,
                                                       "One endeavour against an area (10.3-15.3)")},
            tasks={"eotma.endeavour": lambda s, ctx: endeavours.task_endeavour(s, ctx, rules.plunder_gold, lo, hi)},
            reducers={"eotma-results": endeavours.apply_results},
            phases={"endeavours": "Year cards and endeavours", "taxation": "Taxation segment (16.1)"})

    def options(self, scenario: str) -> Mapping[str, Any]:
        """The scenario's options (defaults in ``endeavours.new_engagement``)."""
        self.definition.scenario(scenario)
        return {k: None for k in endeavours.OPTIONS}

    def battle_odds(self, attacker: str, defender: str, options: Mapping[str, str]) -> dict[str, Any]:
        """Exact endeavour odds as JSON-ready data; see ``spec_help``."""
        return battle_odds(attacker, defender, options, self.rules)


#: The shipped ruleset (entry point ``medviz.rules.empires_middle_ages.ruleset:RULESET``).
RULESET = EmpiresMiddleAges()
