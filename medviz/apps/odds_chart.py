"""Exact outcome distributions as plotly bar charts, an explorer that redraws one when its controls
change, and a quiz widget that checks an answer against an exact probability.

Generic: the caller computes the distribution (any game's exact odds); nothing here knows a rule.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go

from medviz.engine.errors import MedvizError

__all__ = ["OddsExplorer", "Quiz", "distribution_figure", "parse_probability", "percent", "side_by_side_figure"]

Probability = Fraction | float
Outcomes = Mapping[str, Probability]
#: Bar colours: one per bar in turn, or a function of the outcome's name.
Colours = Sequence[str] | Callable[[str], str]

#: Colours for outcomes, in order (first: the attacker's good news, second: the defender's, then grey shades).
PALETTE = ("#1f5fa8", "#b8322a", "#8c8c8c", "#4d4d4d", "#d08c2a", "#3c8d5a", "#7a4ea3", "#2a9bb8")


def percent(p: Probability, digits: int = 1) -> str:
    """``p`` as a percentage with ``digits`` decimals."""
    return f"{float(p) * 100:.{digits}f}%"


def _hover(name: str, p: Probability) -> str:
    exact = f" = {p.numerator}/{p.denominator}" if isinstance(p, Fraction) and p.denominator != 1 else ""
    return f"{html.escape(name)}: {percent(p, 2)}{exact}"


def _colours(names: Sequence[str], colors: Colours | None) -> list[str]:
    if callable(colors):
        return [colors(k) for k in names]
    cols = list(colors or PALETTE)
    return [cols[i % len(cols)] for i in range(len(names))]


def distribution_figure(dist: Outcomes, *, title: str = "", colors: Colours | None = None,
                        height: int = 360, width: int | None = 640, y_title: str = "chance") -> go.Figure:
    """A bar per outcome, labelled with its percentage; hovering shows the exact fraction."""
    names = list(dist)
    values = [float(dist[k]) for k in names]
    fig = go.Figure(go.Bar(
        x=names, y=values, text=[percent(dist[k]) for k in names], textposition="outside", cliponaxis=False,
        marker_color=_colours(names, colors),
        hovertext=[_hover(k, dist[k]) for k in names], hoverinfo="text"))
    top = max(values, default=0.0)
    fig.update_layout(title=title, height=height, width=width, margin={"l": 50, "r": 20, "t": 60, "b": 80},
                      yaxis={"title": y_title, "tickformat": ".0%", "range": [0, max(1.0, top * 1.15)]},
                      template="plotly_white", showlegend=False)
    return fig


def _bar_label(v: float) -> str:
    """A segment's label: whole percent, one decimal where rounding would say 100%; none for thin segments."""
    if v < 0.04:
        return ""
    return percent(v, 1) if v > 0.995 else percent(v, 0)


def side_by_side_figure(series: Mapping[str, Outcomes], *, title: str = "", colors: Mapping[str, str] | None = None,
                        height: int = 420, width: int | None = 900) -> go.Figure:
    """One horizontal 100% bar per system (row), split into its outcomes (one colour per outcome name)."""
    outcomes: list[str] = []
    for dist in series.values():
        outcomes += [k for k in dist if k not in outcomes]
    rows = list(series)[::-1]  # the first system on top
    fig = go.Figure()
    for i, name in enumerate(outcomes):
        values = [float(series[r].get(name, 0)) for r in rows]
        colour = (colors or {}).get(name, PALETTE[i % len(PALETTE)])
        fig.add_trace(go.Bar(
            y=rows, x=values, name=name, orientation="h", marker_color=colour,
            text=[_bar_label(v) for v in values], textposition="inside",
            insidetextanchor="middle", hovertext=[_hover(f"{r} — {name}", series[r].get(name, 0)) for r in rows],
            hoverinfo="text"))
    fig.update_layout(title=title, barmode="stack", height=height, width=width, template="plotly_white",
                      xaxis={"tickformat": ".0%", "range": [0, 1]},
                      legend={"orientation": "h", "y": -0.15, "x": 0},
                      margin={"l": 230, "r": 20, "t": 60, "b": 80})
    return fig


class OddsExplorer(widgets.VBox):  # type: ignore[misc]  # ipywidgets has no type hints
    """Controls beside a bar chart of the exact distribution ``compute(**values)`` returns, redrawn on change.

    ``compute`` receives the controls' values by name; a ``MedvizError`` it raises (a combination
    the rules refuse) is shown in words instead of a chart. ``describe(**values)`` (optional) gives
    the chart's title.
    """

    def __init__(self, controls: Mapping[str, widgets.ValueWidget], compute: Callable[..., Outcomes], *,
                 describe: Callable[..., str] | None = None, colors: Colours | None = None,
                 height: int = 380, width: int = 520) -> None:
        self.controls = dict(controls)
        self.compute = compute
        self.describe = describe
        self.colors = colors
        self.message = widgets.HTML()
        self.figure = go.FigureWidget(distribution_figure({}, height=height, width=width, colors=colors))
        self.current: Outcomes = {}
        self._holding = False
        for w in self.controls.values():
            w.observe(lambda _change: None if self._holding else self.redraw(), names="value")
            if isinstance(w, widgets.Checkbox):
                w.indent = False  # a checkbox's words start at the left edge instead of being cut off
                w.layout.width = "auto"
            else:
                w.layout.width = "330px"  # room for the words, the track and the value readout
                w.style.description_width = "100px"
        box = widgets.VBox(list(self.controls.values()), layout=widgets.Layout(width="340px", flex="0 0 340px"))
        # Side by side where there is room (a notebook beside JupyterLab's side bar at 1280 px);
        # the chart wraps below the controls in a narrower column.
        super().__init__([widgets.HBox([box, self.figure], layout=widgets.Layout(flex_flow="row wrap")), self.message])
        self.redraw()

    def values(self) -> dict[str, Any]:
        """The controls' current values by name."""
        return {k: w.value for k, w in self.controls.items()}

    def set(self, **values: Any) -> Outcomes:
        """Set several controls at once (one redraw) and return the new distribution."""
        self._holding = True
        try:
            for k, v in values.items():
                self.controls[k].value = v
        finally:
            self._holding = False
        return self.redraw()

    def redraw(self) -> Outcomes:
        """Recompute the distribution from the controls and redraw the chart; returns it."""
        values = self.values()
        try:
            dist = self.compute(**values)
        except MedvizError as exc:
            self.message.value = f"<span style='color:#b8322a'>{html.escape(str(exc))}</span>"
            return self.current
        self.current = dist
        self.message.value = ""
        new = distribution_figure(dist, title=self.describe(**values) if self.describe else "", colors=self.colors)
        with self.figure.batch_update():
            bar = self.figure.data[0]
            for key in ("x", "y", "text", "hovertext", "marker"):
                bar[key] = new.data[0][key]
            self.figure.layout.title = new.layout.title
            self.figure.layout.yaxis.range = new.layout.yaxis.range
        return dist


_FRACTION = re.compile(r"^\s*(-?\d+)\s*/\s*(\d+)\s*$")


def parse_probability(text: str) -> Fraction:
    """A probability written ``1/3``, ``0.333`` or ``33.3%``; ``ValueError`` if it is none of these."""
    raw = text.strip()
    m = _FRACTION.match(raw)
    if m:
        if int(m.group(2)) == 0:
            raise ValueError("a fraction needs a denominator above 0")
        return Fraction(int(m.group(1)), int(m.group(2)))
    if raw.endswith("%"):
        return Fraction(raw[:-1].strip()) / 100
    return Fraction(raw)


class Quiz(widgets.VBox):  # type: ignore[misc]  # ipywidgets has no type hints
    """A question whose right answer is an exact probability (or number): type it, press Check.

    An answer within ``tolerance`` of the exact value counts (so ``33.3%`` answers 1/3); the
    feedback then shows the exact value and ``explain``; a wrong one shows ``hint``.
    """

    def __init__(self, question: str, answer: Fraction | int, *, tolerance: Fraction = Fraction(1, 500),
                 explain: str = "", unit: str = "probability", hint: str = "") -> None:
        self.answer = Fraction(answer)
        self.tolerance = tolerance
        self.explain = explain
        self.unit = unit
        self.hint = hint
        self.box = widgets.Text(placeholder="e.g. 1/3, 0.333 or 33.3%" if unit == "probability" else "a number",
                                continuous_update=False, layout=widgets.Layout(width="220px"))
        self.button = widgets.Button(description="Check", button_style="info")
        self.feedback = widgets.HTML()
        self.button.on_click(lambda _b: self.check(self.box.value))
        self.box.observe(lambda change: self.check(change["new"]) if change["new"].strip() else None, names="value")
        super().__init__([widgets.HTML(f"<b>{html.escape(question)}</b>"),
                          widgets.HBox([self.box, self.button]), self.feedback])
        self.add_class("medviz-quiz")
        self.feedback.add_class("medviz-quiz-feedback")

    def _exact(self) -> str:
        a = self.answer
        words = f"{a.numerator}/{a.denominator}" if a.denominator != 1 else str(a.numerator)
        if self.unit == "probability":
            return f"{words} ≈ {percent(a, 2)}"
        return words if a.denominator == 1 else f"{words} ≈ {float(a):.4g}"

    def is_right(self, text: str) -> bool | None:
        """Whether ``text`` is the answer within the tolerance; ``None`` when it is not a number."""
        try:
            given = parse_probability(text)
        except (ValueError, ZeroDivisionError, ArithmeticError):
            return None
        return abs(given - self.answer) <= self.tolerance

    def check(self, text: str) -> bool:
        """Whether ``text`` is the answer (within the tolerance); the feedback says so."""
        ok = self.is_right(text)
        if ok is None:
            self.feedback.value = "<span style='color:#b8322a'>Write a fraction (1/3), a decimal or a percentage.</span>"
            return False
        verdict = ("<span style='color:#3c8d5a'>Right.</span>" if ok
                   else "<span style='color:#b8322a'>Not quite — try again.</span>"
                   + (f" {html.escape(self.hint)}" if self.hint else ""))
        detail = f" Exactly {self._exact()}. {html.escape(self.explain)}" if ok else ""
        self.feedback.value = verdict + detail
        return ok
