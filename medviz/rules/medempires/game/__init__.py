"""The whole game of Mediterranean Empires: both scenarios, every phase of 5.1, registered with the ruleset.

Importing this package registers the ``standard`` and ``vespers-1282`` scenarios, their tasks and
reducers in ``medviz.rules.medempires.ruleset`` (battle changes are wrapped so that the map follows
the battle).
"""

from __future__ import annotations

from typing import Any

from medviz.engine.events import ChangeEvent
from medviz.rules.medempires import combat, ruleset
from medviz.rules.medempires.game import battles, deploy, operations, politics, recruitment, turn
from medviz.rules.medempires.game.changes import GAME_REDUCERS, battle_change
from medviz.rules.medempires.game.setup import setup
from medviz.rules.medempires.game.state import GameState
from medviz.rules.medempires.game.turn import judge

SCENARIOS = ("standard", "vespers-1282")

_TASKS = {
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


def _register() -> None:
    for name, fn in _TASKS.items():
        ruleset.TASKS[name] = fn  # type: ignore[assignment]
    for name, red in GAME_REDUCERS.items():
        ruleset.REDUCERS[name] = _game_reducer(red)
    for name in ("battle-eliminate", "battle-marker-spent", "battle-result", "battle-king-killed",
                 "battle-avoided", "battle-raiders-only", "battle-ops-spent", "battle-combat-begins",
                 "battle-round-begins", "battle-ends"):
        ruleset.REDUCERS[name] = _battle_reducer(name)
    for sc in SCENARIOS:
        ruleset.register_scenario(ruleset.Scenario(sc, _setup_for(sc), GameState.copy, judge, ("A", "B")))


def _setup_for(scenario: str) -> Any:
    def make(options: Any) -> Any:
        return setup(scenario, options)
    return make


def _game_reducer(red: Any) -> Any:
    def apply(s: Any, e: ChangeEvent) -> None:
        red(s, e.data)
    return apply


def _battle_reducer(name: str) -> Any:
    def apply(s: Any, e: ChangeEvent) -> None:
        if isinstance(s, GameState):
            battle_change(s, name, e.data)
        else:
            combat.apply_battle_change(s.battle, name, e.data)
    return apply


_register()

__all__ = ["SCENARIOS", "GameState", "judge", "setup"]
