"""Issue 10: rule errors in the whole game (6.2, 8.1, 8.2, 11.2, 14.1, 12.0 Crusade), one test each."""

from __future__ import annotations

from typing import Any

from test_game_helpers import changes, decision, empty_position, put, run_tasks
from medviz.engine.events import RollEvent
from medviz.engine.game import Context, GameSpec, Task
from medviz.engine.policy import FirstOptionPolicy, ScriptedPolicy
from medviz.rules.medempires.game.deploy import set_up_state
from medviz.rules.medempires.game.state import GameState
from medviz.rules.medempires.ruleset import RULESET


def _ctx(s: GameState, choices: dict[str, Any] | None = None, overrides: dict[str, Any] | None = None) -> Context:
    """A context over ``s`` with scripted choices and dice (first legal option otherwise)."""
    pol = ScriptedPolicy(choices or {}, FirstOptionPolicy())
    return Context(GameSpec(RULESET, "standard", {}, 0, {"A": pol, "B": pol}, dict(overrides or {})), s, [], [])


def _rolls(ctx: Context) -> list[str]:
    """The ids of the dice rolled in ``ctx``."""
    return [e.roll for e in ctx.events if isinstance(e, RollEvent)]


# -- 6.2 ------------------------------------------------------------------------------------------
def test_6_2_the_three_recruits_limit_is_each_players_own() -> None:
    s = set_up_state("standard", {})
    s.tp = {"A": 10, "B": 10}
    s.phase = "recruitment"
    for u in s.units.values():  # free the fleet counters of both sides
        for key in [k for k in u if k[1] == "F"]:
            del u[key]
    sea = "tyrrhenian_south"  # on the coast of cities of both sides
    ch: dict[str, Any] = {}
    for i, side in enumerate("ABABAB", start=1):
        ch[f"GT1/recruit/{side}/pick-{i}"] = "france:F" if side == "A" else "aragon:F"
        ch[f"GT1/recruit/{side}/pick-{i}/area"] = sea
    ch["GT1/recruit/A/pick-7"] = ch["GT1/recruit/B/pick-8"] = "done"
    r = run_tasks(s, [Task.of("game.recruit-pick", side="A", pick=1, done=())], ch)
    assert sea in decision(r.events, "GT1/recruit/B/pick-6/area").options  # A's three do not count for B
    assert r.state.recruited_here["A"][sea] == 3
