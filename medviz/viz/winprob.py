"""The win-probability chart of a replay: P(each side wins) after every phase, with its 95% band."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import plotly.graph_objects as go

from medviz.analysis.winprob import WinProbability
from medviz.engine.history import History

#: Colours of outcomes that are not a seat (a draw).
OTHER_COLOURS = ("#555555", "#999999")


def _rgba(colour: str, alpha: float) -> str:
    """``#rrggbb`` as an rgba() colour with ``alpha``."""
    c = colour.lstrip("#")
    if len(c) != 6:
        return f"rgba(120,120,120,{alpha})"
    return f"rgba({int(c[0:2], 16)},{int(c[2:4], 16)},{int(c[4:6], 16)},{alpha})"


def win_probability_figure(chart: WinProbability, history: History, *, current: int | None = None,
                           flagged: Sequence[tuple[int, str]] = (), height: int = 260,
                           width: int | None = None) -> go.Figure:
    """P(each side wins) after each phase of ``history`` (x: events played), its Wilson 95% band shaded;
    ``current``: the replay's event, marked by a line; ``flagged``: (event, words) of pivotal rolls."""
    rs = history.ruleset
    seats = {s.id: s for s in rs.seats(history.scenario)}
    points = chart.points
    x = [p["after"] + 1 for p in points]
    labels = [p["label"] for p in points]
    fig = go.Figure()
    for i, side in enumerate(chart.sides):
        colour = seats[side].colour if side in seats else OTHER_COLOURS[i % 2]
        name = rs.seat_title(side, history.scenario) if side in seats else side
        odds = [p["odds"].get(side, {"share": 0.0, "low": 0.0, "high": 0.0}) for p in points]
        fig.add_trace(go.Scatter(x=x + x[::-1], y=[o["high"] for o in odds] + [o["low"] for o in odds][::-1],
                                 fill="toself", fillcolor=_rgba(colour, 0.18), line={"width": 0},
                                 hoverinfo="skip", showlegend=False, name=f"{name} 95% band"))
        fig.add_trace(go.Scatter(
            x=x, y=[o["share"] for o in odds], mode="lines+markers", name=name,
            line={"color": colour, "width": 2, "shape": "hv"}, marker={"size": 5},
            customdata=[[lab, o["low"], o["high"], p["games"]] for lab, o, p in zip(labels, odds, points)],
            hovertemplate=(f"{name}<br>%{{customdata[0]}}<br>wins %{{y:.0%}} "
                           "(95%: %{customdata[1]:.0%}-%{customdata[2]:.0%}, %{customdata[3]} games)<extra></extra>")))
    if flagged:
        fx = [seq for seq, _w in flagged]
        fig.add_trace(go.Scatter(x=fx, y=[1.04] * len(fx), mode="markers", name="pivotal rolls",
                                 marker={"symbol": "triangle-down", "size": 10, "color": "#c0392b"},
                                 customdata=[[w] for _s, w in flagged],
                                 hovertemplate="%{customdata[0]}<extra>event %{x}</extra>"))
    shapes = []
    if current is not None:
        shapes.append({"type": "line", "x0": current, "x1": current, "y0": 0, "y1": 1, "yref": "y",
                       "line": {"color": "#222", "width": 1, "dash": "dot"}, "name": "current"})
    fig.update_layout(
        height=height, width=width, margin={"l": 50, "r": 10, "t": 30, "b": 40}, shapes=shapes,
        title={"text": f"Who wins from here? ({points[0]['games'] if points else 0} continuations per point)",
               "font": {"size": 13}},
        xaxis={"title": "events played", "range": [0, len(history.events) + 1]},
        yaxis={"title": "P(wins)", "range": [0, 1.08], "tickformat": ".0%"},
        legend={"orientation": "h", "y": -0.3}, template="plotly_white")
    return fig


def mark_current(fig: Any, current: int) -> None:
    """Move the chart's current-event line to ``current`` (a Figure or FigureWidget)."""
    fig.update_layout(shapes=[{"type": "line", "x0": current, "x1": current, "y0": 0, "y1": 1, "yref": "y",
                               "line": {"color": "#222", "width": 1, "dash": "dot"}, "name": "current"}])
