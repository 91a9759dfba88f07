"""A game defined as data (engine/definition.py): its scenarios found by name or by the state alone."""

from __future__ import annotations

from typing import Any

import pytest

from medviz.engine import FirstOptionPolicy, MalformedInput, Seat, Task, play
from medviz.engine.definition import DefinedRuleset, GameDefinition, ScenarioDefinition
from medviz.engine.errors import UnknownReference


def _scenario(name: str) -> ScenarioDefinition:
    return ScenarioDefinition(name, lambda opts: ({"coins": []}, [Task.of("toss")]),
                              lambda s: {"winner": "P" if s["coins"] == [6] else None, "reason": "a six",
                                         "coins": list(s["coins"])},
                              (Seat("P", "Player"),))


class Toss(DefinedRuleset):
    """One die, one change: the smallest defined game; its state has no scenario field."""

    game = "toss-toy"

    def __init__(self, *names: str) -> None:
        self.names = names

    def define(self) -> GameDefinition:
        def toss(state: Any, ctx: Any) -> None:
            ctx.change("coin", face=ctx.roll("toss", purpose="a toss"))

        return GameDefinition({n: _scenario(n) for n in self.names}, {"toss": toss},
                              {"coin": lambda s, e: s["coins"].append(e.data["face"])})


def test_a_one_scenario_game_knows_its_scenario_without_being_told() -> None:
    g = Toss("only")
    assert g.scenario_of({"coins": []}) == "only" and g.scenario_of({"scenario": "named"}) == "named"
    h = play(g, "only", {}, seed=2, players={"P": FirstOptionPolicy()}, overrides={"toss": 6})
    assert h.outcome == {"winner": "P", "reason": "a six", "coins": [6]}
    assert g.copy_state({"coins": [1]}) == {"coins": [1]}


def test_a_game_of_several_scenarios_needs_the_states_scenario_field() -> None:
    g = Toss("east", "west")
    with pytest.raises(MalformedInput, match=r"^toss-toy: cannot tell the scenario of a dict state; give it a "):
        g.scenario_of({"coins": []})
    with pytest.raises(UnknownReference, match=r"unknown scenario 'wes'; did you mean 'west'\? \(known: east, west\)"):
        g.definition.scenario("wes")
    assert g.scenarios() == ("east", "west")


def test_a_fresh_ruleset_builds_its_definition_when_a_change_or_task_comes_first() -> None:
    """Reducers and rules are reached even when apply or run_task is the ruleset's first use (built once)."""
    from medviz.engine import ChangeEvent

    change = next(e for e in play(Toss("only"), "only", {}, seed=2, players={"P": FirstOptionPolicy()},
                                  overrides={"toss": 4}).events if isinstance(e, ChangeEvent))
    fresh, state = Toss("only"), {"coins": []}
    fresh.apply(state, change)
    assert state == {"coins": [4]}
    built = fresh.definition
    fresh.apply(state, change)
    assert state == {"coins": [4, 4]} and fresh.definition is built
    with pytest.raises(MalformedInput, match=r"task 'deal' is not part of this game"):
        Toss("only").run_task(Task.of("deal"), state, None)  # type: ignore[arg-type]
