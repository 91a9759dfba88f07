"""Helpers for the whole-game tests (no tests here): run rule tasks from a hand-made position."""

from __future__ import annotations

from typing import Any

from medviz.engine.events import ChangeEvent, DecisionEvent, Event
from medviz.engine.game import GameSpec, RunResult, Snapshot, Task, run
from medviz.engine.policy import FirstOptionPolicy, ScriptedPolicy
from medviz.rules.medempires.game.deploy import set_up_state
from medviz.rules.medempires.game.state import GameState, refresh_control
from medviz.rules.medempires.ruleset import RULESET


def empty_position(scenario: str = "standard") -> GameState:
    """The standard set-up with every unit and King taken off the map (control kept as 'last holder')."""
    s = set_up_state(scenario, {})
    s.units = {}
    s.kings = {}
    refresh_control(s)
    return s


def put(s: GameState, area: str, power: str, code: str, n: int = 1) -> None:
    """Place units directly (test set-up only) and refresh control."""
    u = s.units.setdefault(area, {})
    u[(power, code)] = u.get((power, code), 0) + n
    refresh_control(s, (area,))


def run_tasks(state: GameState, tasks: list[Task], choices: dict[str, Any] | None = None,
              overrides: dict[str, Any] | None = None, seed: int = 0) -> RunResult:
    """Run ``tasks`` from ``state`` with scripted choices (first legal option otherwise)."""
    pol = ScriptedPolicy(choices or {}, FirstOptionPolicy())
    spec = GameSpec(RULESET, state.scenario, {}, seed, {"A": pol, "B": pol}, dict(overrides or {}))
    snap = Snapshot(0, state, tuple(reversed(tasks)), state.turn, None)
    return run(spec, snap, ())


def changes(events: list[Event], name: str) -> list[ChangeEvent]:
    """The change events called ``name``."""
    return [e for e in events if isinstance(e, ChangeEvent) and e.change == name]


def decision(events: list[Event], decision_id: str) -> DecisionEvent:
    """The decision with this id."""
    for e in events:
        if isinstance(e, DecisionEvent) and e.decision == decision_id:
            return e
    raise KeyError(decision_id)
