"""One declarative definition per game: its scenarios, tasks and reducers, built in one place.

In the spirit of boardgame.io's game config: a game states what it is made of as data
(``GameDefinition``) and hands it to ``DefinedRuleset``, which carries out the engine's side of
the seam (set-up, running a task, applying a change, the outcome, copies) by looking things up
in it. Nothing is registered by importing a module: the definition is passed explicitly.
"""

from __future__ import annotations

import abc
import difflib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from medviz.engine.copying import independent_copy
from medviz.engine.errors import MalformedInput, UnknownReference
from medviz.engine.events import ChangeEvent
from medviz.engine.game import Context, Ruleset, Seat, Task

#: A task's rule code: ``(state, ctx, **task.args)``.
TaskRule = Callable[..., None]
#: A reducer: applies one change event to the state.
Reducer = Callable[[Any, ChangeEvent], None]


@dataclass(frozen=True)
class ScenarioDefinition:
    """One scenario: how it sets up, who sits at it, how it is judged (and copied, if special)."""

    name: str
    setup: Callable[[Mapping[str, Any]], tuple[Any, list[Task]]]
    outcome: Callable[[Any], dict[str, Any]]
    seats: tuple[Seat, ...]
    title: str = ""
    #: A faster copy for this scenario's state; it must be as independent as ``independent_copy``.
    copy_state: Callable[[Any], Any] = independent_copy


@dataclass(frozen=True)
class GameDefinition:
    """A game as data: scenarios, the rule code of every task, the reducer of every change."""

    scenarios: Mapping[str, ScenarioDefinition]
    tasks: Mapping[str, TaskRule]
    reducers: Mapping[str, Reducer]
    #: The phases of a game turn in order, with their names in words (for the apps' time line).
    phases: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in ("scenarios", "tasks", "reducers", "phases"):
            object.__setattr__(self, name, MappingProxyType(dict(getattr(self, name))))
        for key, sc in self.scenarios.items():
            if key != sc.name:
                raise ValueError(f"scenario {sc.name!r} is filed under {key!r}")

    def scenario(self, name: str) -> ScenarioDefinition:
        """The scenario called ``name``; ``UnknownReference`` naming the known ones."""
        sc = self.scenarios.get(name) if isinstance(name, str) else None
        if sc is None:
            close = difflib.get_close_matches(str(name), list(self.scenarios), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise UnknownReference(f"unknown scenario {name!r}{hint} (known: {', '.join(sorted(self.scenarios))})")
        return sc

    def run_task(self, task: Task, state: Any, ctx: Context) -> None:
        """Carry out ``task`` with its rule code."""
        rule = self.tasks.get(task.name)
        if rule is None:
            raise MalformedInput(f"task {task.name!r} is not part of this game")
        rule(state, ctx, **task.args)

    def apply(self, state: Any, event: ChangeEvent) -> None:
        """Apply ``event`` with its reducer."""
        reducer = self.reducers.get(event.change)
        if reducer is None:
            raise MalformedInput(f"event {event.seq}: change {event.change!r} is not part of this game")
        reducer(state, event)


class DefinedRuleset(Ruleset):
    """A ruleset whose engine side is read from a ``GameDefinition`` (built once, on first use)."""

    _definition: GameDefinition | None = None

    @abc.abstractmethod
    def define(self) -> GameDefinition:
        """Build the game's definition (called once per ruleset object)."""

    @property
    def definition(self) -> GameDefinition:
        """The game's definition."""
        if self._definition is None:
            self._definition = self.define()
        return self._definition

    def scenario_of(self, state: Any) -> str:
        """The scenario a state belongs to: its ``scenario`` attribute or key, else the game's only one."""
        name = state.get("scenario") if isinstance(state, Mapping) else getattr(state, "scenario", None)
        if isinstance(name, str):
            return name
        if len(self.definition.scenarios) == 1:
            return next(iter(self.definition.scenarios))
        raise MalformedInput(f"{self.game}: cannot tell the scenario of a {type(state).__name__} state; "
                             f"give it a 'scenario' field or override scenario_of")

    def scenarios(self) -> tuple[str, ...]:
        return tuple(self.definition.scenarios)

    def phase_names(self) -> Mapping[str, str]:
        """The definition's phases in words."""
        return self.definition.phases

    def seats(self, scenario: str) -> tuple[Seat, ...]:
        return self.definition.scenario(scenario).seats

    def setup(self, scenario: str, options: Mapping[str, Any]) -> tuple[Any, list[Task]]:
        return self.definition.scenario(scenario).setup(options)

    def run_task(self, task: Task, state: Any, ctx: Context) -> None:
        (self._definition or self.definition).run_task(task, state, ctx)  # built already, read without the property

    def apply(self, state: Any, event: ChangeEvent) -> None:
        (self._definition or self.definition).apply(state, event)

    def outcome(self, state: Any) -> dict[str, Any]:
        return self.definition.scenario(self.scenario_of(state)).outcome(state)

    def copy_state(self, state: Any) -> Any:
        return self.definition.scenario(self.scenario_of(state)).copy_state(state)
