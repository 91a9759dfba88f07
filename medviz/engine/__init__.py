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
from medviz.engine.game import Context, GameSpec, Ruleset, Seat, Snapshot, Task
from medviz.engine.files import read_text, write_atomic
from medviz.engine.history import FORMAT, VERSION, History, HistoryDiff, diff, play
from medviz.engine.policy import (
    AwaitingDecision,
    DecisionPoint,
    FirstOptionPolicy,
    Option,
    Policy,
    RandomPolicy,
    ScriptedPolicy,
    option_key,
    option_words,
    parse_policy,
)
from medviz.engine.policy import HumanSeat
from medviz.engine.registry import get_ruleset, register_ruleset, ruleset_ids
from medviz.engine.table import Table, TableStep

__all__ = [
    "FORMAT", "VERSION", "AwaitingDecision", "ChangeEvent", "Context", "DataError", "DecisionEvent", "DecisionPoint",
    "DrawEvent", "Event", "FirstOptionPolicy", "GameSpec", "History", "HistoryDiff", "HumanSeat", "IllegalAction",
    "MalformedInput", "MedvizError", "Option", "PhaseEvent", "Policy", "RandomPolicy", "ReportEvent",
    "RollEvent", "Ruleset", "ScriptedPolicy", "Seat", "Snapshot", "Table", "TableStep", "Task", "UnknownReference", "diff",
    "get_ruleset", "option_key", "option_words", "parse_policy", "register_ruleset", "ruleset_ids", "play", "read_text", "write_atomic",
]
