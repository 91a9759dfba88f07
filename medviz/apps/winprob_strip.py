"""A strip under a replay: the win-probability chart, its current-event line following the viewer."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go

from medviz.analysis.winprob import WinProbability
from medviz.engine.history import History
from medviz.viz.winprob import mark_current, win_probability_figure


class WinProbabilityStrip(widgets.VBox):  # type: ignore[misc]  # ipywidgets has no type hints
    """The win-probability chart of ``history`` as a widget; with ``model`` (a ``ReplayModel``, e.g.
    ``viewer.model``) its line follows the replay's cursor. Add it under a viewer:
    ``widgets.VBox([viewer, WinProbabilityStrip(history, chart, model=viewer.model)])``."""

    def __init__(self, history: History, chart: WinProbability, *, model: Any = None,
                 flagged: Sequence[tuple[int, str]] = (), height: int = 240, width: int | None = None) -> None:
        cursor = int(model.cursor) if model is not None else None
        self.figure = go.FigureWidget(win_probability_figure(chart, history, current=cursor, flagged=flagged,
                                                             height=height, width=width))
        super().__init__([self.figure])
        self.model = model
        if model is not None:
            model.observe(self._on_cursor, names="cursor")

    def _on_cursor(self, change: Mapping[str, Any]) -> None:
        with self.figure.batch_update():
            mark_current(self.figure, int(change["new"]))
