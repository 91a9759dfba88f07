"""A strip under a replay: the win-probability chart, its current-event line following the viewer."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go

from medviz.analysis.winprob import WinProbability, history_hash
from medviz.engine.errors import MalformedInput
from medviz.engine.history import History
from medviz.viz.winprob import mark_current, win_probability_figure


class WinProbabilityStrip(widgets.VBox):  # type: ignore[misc]  # ipywidgets has no type hints
    """The win-probability chart of ``history`` as a widget; with ``model`` (a ``ReplayModel``, e.g.
    ``viewer.model``) its line follows the replay's cursor. Add it under a viewer:
    ``widgets.VBox([viewer, WinProbabilityStrip(history, chart, model=viewer.model)])``.

    ``pivotal``: (event, roll id, words) of rolls to flag; with ``dicelab`` (a ``DiceLab``), clicking a
    flag selects that roll there, and moves the replay's cursor to it.

    The chart's x axis counts events played: the replay at event ``seq`` is marked at ``seq + 1``."""

    def __init__(self, history: History, chart: WinProbability, *, model: Any = None,
                 pivotal: Sequence[tuple[int, str, str]] = (), dicelab: Any = None, height: int = 240,
                 width: int | None = None) -> None:
        if not isinstance(chart, WinProbability):
            raise MalformedInput(f"win_probability: expected a WinProbability, got {type(chart).__name__}")
        if chart.data.get("history") != history_hash(history):
            raise MalformedInput("win_probability: this analysis is of another history")
        cursor = int(model.cursor) + 1 if model is not None else None
        flagged = [(seq + 1, words) for seq, _key, words in pivotal]
        self.figure = go.FigureWidget(win_probability_figure(chart, history, current=cursor, flagged=flagged,
                                                             height=height, width=width))
        super().__init__([self.figure])
        self.model = model
        self.dicelab = dicelab
        self._rolls = {seq: key for seq, key, _words in pivotal}
        if model is not None:
            model.observe(self._on_cursor, names="cursor")
        for trace in self.figure.data:
            if trace.name == "pivotal rolls":
                trace.on_click(self._on_flag)

    def open_roll(self, seq: int) -> None:
        """Show the pivotal roll at event ``seq``: selected in the DiceLab, the replay's cursor on it."""
        key = self._rolls.get(seq)
        if key is None:
            return
        if self.dicelab is not None:
            self.dicelab.model.selected_roll = key
        if self.model is not None:
            self.model.cursor = seq

    def _on_flag(self, _trace: Any, points: Any, _state: Any) -> None:
        for x in getattr(points, "xs", []) or []:
            self.open_roll(int(x) - 1)

    def _on_cursor(self, change: Mapping[str, Any]) -> None:
        with self.figure.batch_update():
            mark_current(self.figure, int(change["new"]) + 1)
