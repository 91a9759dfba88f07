"""The one definition of Mediterranean Empires: every scenario, task and reducer, in one place."""

from __future__ import annotations

from medviz.engine.definition import GameDefinition, ScenarioDefinition
from medviz.engine.game import Seat
from medviz.rules.medempires import game
from medviz.rules.medempires.game.describe import phase_words
from medviz.rules.medempires.game.turn import PHASES
from medviz.rules.medempires.one_battle import (
    BATTLE_SEATS,
    BATTLE_TASKS,
    battle_copy,
    battle_outcome,
    battle_setup,
)

#: The two players (3.0): A (France and Anjou) and B (Aragon).
PLAYER_SEATS = (Seat("A", "Player A", "#1f5fa8"), Seat("B", "Player B", "#b8322a"))

_TITLES = {"standard": "The standard game, 1281–1350", "vespers-1282": "The Sicilian Vespers, 1282",
           "battle": "One battle (10.3, 11.3)"}


def build() -> GameDefinition:
    """Mediterranean Empires as data: the whole-game scenarios, the one-battle scenario, their rules."""
    scenarios = {
        name: ScenarioDefinition(name, game.setup_for(name), game.judge, PLAYER_SEATS, _TITLES[name],
                                 copy_state=game.GameState.copy)
        for name in game.SCENARIOS
    }
    scenarios["battle"] = ScenarioDefinition("battle", battle_setup, battle_outcome, BATTLE_SEATS,
                                             _TITLES["battle"], copy_state=battle_copy)
    return GameDefinition(scenarios=scenarios, tasks={**BATTLE_TASKS, **game.TASKS}, reducers=game.REDUCERS,
                          phases={p: phase_words(p) for p in PHASES})
