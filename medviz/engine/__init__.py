"""Ruleset-agnostic core: dice by meaning, decisions, events, histories and branches.

Pure Python: never imports plotly, ipywidgets or geopandas.
"""

from __future__ import annotations

from medviz.engine.errors import DataError, IllegalAction, MalformedInput, MedvizError, UnknownReference
from medviz.engine.events import (
    ChangeEvent,
    DecisionEvent,
    DrawEvent,
    Event,
    PhaseEvent,
    ReportEvent,
    RollEvent,
)
from medviz.engine.game import AwaitingDecision, Context, GameSpec, Ruleset, Snapshot, Task
from medviz.engine.files import read_text, write_atomic
from medviz.engine.history import FORMAT, VERSION, History, HistoryDiff, diff, play
from medviz.engine.policy import (
    DecisionPoint,
    FirstOptionPolicy,
    Policy,
    RandomPolicy,
    ScriptedPolicy,
    parse_policy,
)
from medviz.engine.table import HumanSeat, Table, TableStep

__all__ = [
    "FORMAT", "VERSION", "AwaitingDecision", "ChangeEvent", "Context", "DataError", "DecisionEvent", "DecisionPoint",
    "DrawEvent", "Event", "FirstOptionPolicy", "GameSpec", "History", "HistoryDiff", "HumanSeat", "IllegalAction",
    "MalformedInput", "MedvizError", "PhaseEvent", "Policy", "RandomPolicy", "ReportEvent",
    "RollEvent", "Ruleset", "ScriptedPolicy", "Snapshot", "Table", "TableStep", "Task", "UnknownReference", "diff",
    "parse_policy", "play", "read_text", "write_atomic",
]
