"""The whole game of Mediterranean Empires: both scenarios, every phase of 5.1.

This package states its tasks and reducers as data (``TASKS``, ``REDUCERS``); the game's one
definition (``medviz.rules.medempires.definition``) puts them together with the battle's.
Importing it registers nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from medviz.engine.events import ChangeEvent
from medviz.rules.medempires import combat
from medviz.rules.medempires.game import battles, deploy, operations, politics, recruitment, turn
from medviz.rules.medempires.game.changes import GAME_REDUCERS, battle_change
from medviz.rules.medempires.game.deploy import setup
from medviz.rules.medempires.game.state import GameState
from medviz.rules.medempires.game.turn import judge
from medviz.rules.medempires.one_battle import BATTLE_CHANGES

SCENARIOS = ("standard", "vespers-1282")

#: The whole game's tasks by name (5.1): set-up, the turn and its phases, forces, battles' aftermath.
TASKS: dict[str, Callable[..., None]] = {
    "game.setup": deploy.task_setup,
    "game.deploy": deploy.task_deploy,
    "game.setup-done": deploy.task_setup_done,
    "game.turn": turn.task_turn,
    "game.stratagems": turn.task_stratagems,
    "game.politics": politics.task_politics,
    "game.political-turn": politics.task_political_turn,
    "game.recruitment": recruitment.task_recruitment,
    "game.recruit-pick": recruitment.task_recruit_pick,
    "game.operations": operations.task_operations,
    "game.activate": operations.task_activate,
    "game.force-step": operations.task_force_step,
    "game.move": operations.task_move,
    "game.intercept": operations.task_intercept,
    "game.landing": operations.task_landing,
    "game.raid": operations.task_raid,
    "game.raid-roll": operations.task_raid_roll,
    "game.after-battle": battles.task_after_battle,
    "game.end-of-turn": turn.task_end_of_turn,
    "game.victory": turn.task_victory,
}


def _game_reducer(red: Callable[[GameState, Any], None]) -> Callable[[Any, ChangeEvent], None]:
    def apply(s: Any, e: ChangeEvent) -> None:
        red(s, e.data)
    return apply


def _battle_reducer(name: str) -> Callable[[Any, ChangeEvent], None]:
    """A battle change in a whole game moves the map too; in a one-battle game only the battle."""
    def apply(s: Any, e: ChangeEvent) -> None:
        if isinstance(s, GameState):
            battle_change(s, name, e.data)
        else:
            combat.apply_battle_change(s.battle, name, e.data)
    return apply


#: Every change's reducer, for whole games and one-battle games alike.
REDUCERS: dict[str, Callable[[Any, ChangeEvent], None]] = {
    **{name: _game_reducer(red) for name, red in GAME_REDUCERS.items()},
    **{name: _battle_reducer(name) for name in BATTLE_CHANGES},
}


def setup_for(scenario: str) -> Callable[[Any], Any]:
    """The set-up function of a whole-game scenario."""
    def make(options: Any) -> Any:
        return setup(scenario, options)
    return make


__all__ = ["REDUCERS", "SCENARIOS", "TASKS", "GameState", "judge", "setup", "setup_for"]
