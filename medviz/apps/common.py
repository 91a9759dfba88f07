"""Pieces the app views share: the map widget, a battle table, the event log and notes as HTML."""

from __future__ import annotations

import functools
import html
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go
import traitlets
from plotly.basewidget import BaseFigureWidget
from plotly.serializers import custom_serializers

from medviz.engine.errors import MalformedInput
from medviz.engine.history import History

__all__ = ["MapFigureWidget", "MapPane", "quiet_widget_esm", "battle_table", "current_line", "event_log", "notes_html"]


@functools.lru_cache(maxsize=2)
def quiet_widget_esm(step_redraw: bool = False) -> str | None:
    """plotly's FigureWidget browser code with its view's reports of computed defaults turned off, and with
    ``step_redraw`` a step drawn by redrawing only the traces it changes.

    After every update plotly.js's widget view compares every trace's full data with what it was
    given and sends the difference to the kernel (10-20 ms of the browser's redraw, 120 kB, and
    25-450 ms of kernel time for each step on a loaded machine, while the next click waits). A map
    pane never reads those defaults. The bundle's exported ``FigureView`` class gets no-op
    ``_sendTraceDeltas``/``_sendLayoutDelta`` methods; None when the bundle is not the shape this
    expects (another plotly), and the widget then keeps plotly's own code.

    With ``step_redraw`` its ``do_update`` (a ``plotly_update`` message from the kernel) goes through ``map_redraw.js``: a
    step that changes only some traces' data and the panel's words redraws those traces alone (plotly.js's
    ``Plotly.update`` lays out and draws all ~96 of the map's traces), anything else takes ``Plotly.update``
    as before; messages are drawn one after another. Where ``do_update`` is not the shape this expects,
    plotly's own stays (the reports are still turned off). ``MapFigureWidget`` turns it on by default; the
    environment variable ``MEDVIZ_STEP_REDRAW=0`` turns it off. A one-line title is drawn alone as well, so a
    jump (most traces and the title) is one pass over the figure, not relayout and then the traces. Measured
    side by side against plotly's whole redraw in JupyterLab by ``benchmarks/bench_click.py --against``.
    """
    import re

    import plotly

    try:
        text = (Path(plotly.__file__).parent / "package_data" / "widgetbundle.js").read_text(encoding="utf-8")
    except OSError:
        return None
    found = list(re.finditer(r"export\{[\w$]+ as FigureModel,([\w$]+) as FigureView,", text))
    if len(found) != 1 or "_sendTraceDeltas(" not in text or "_sendLayoutDelta(" not in text:
        return None
    view, at = found[0].group(1), found[0].start()
    patch = (f";{view}.prototype._sendTraceDeltas=function(){{}};"
             f"{view}.prototype._sendLayoutDelta=function(){{}};\n")
    plotly_js = _widget_plotly(text) if step_redraw else None
    if plotly_js is not None:
        patch += _step_redraw_patch(view, plotly_js)
    return text[:at] + patch + text[at:]


def _widget_plotly(bundle: str) -> str | None:
    """The expression by which the widget bundle's view reaches plotly.js (``Md.default``) in its ``do_update``,
    if that method is the shape ``_step_redraw_patch`` replaces (plotly.py 6-7's); else None."""
    import re

    found = re.findall(r'do_update\(\)\{var ([\w$]+)=this\.model\.get\("_py2js_update"\);if\(\1!==null\)\{'
                       r'var ([\w$]+)=\1\.style_data\|\|\{\},[\w$]+=\1\.layout_data\|\|\{\},[\w$]+=this\.model\.'
                       r'_normalize_trace_indexes\(\1\.style_traces\);\2\._doNotReportToPy=!0,([\w$]+)\.default\.update\('
                       r'this\.el,', bundle)
    return f"{found[0][2]}.default" if len(found) == 1 else None


def _step_redraw_patch(view: str, plotly_js: str) -> str:
    """The view's ``do_update`` replaced by one that draws each message with ``map_redraw.js``, in order (what
    plotly's does, less the reports of defaults: ``style_data`` marked not to be reported back, then drawn)."""
    step = (Path(__file__).parent / "map_redraw.js").read_text(encoding="utf-8")
    return (f";(function(V,P){{var step=({step.strip()})(P);"
            "V.prototype.do_update=function(){var m=this.model.get(\"_py2js_update\");if(m===null)return;"
            "var el=this.el,style=m.style_data||{},layout=m.layout_data||{},"
            "traces=this.model._normalize_trace_indexes(m.style_traces);style._doNotReportToPy=!0;"
            "var run=function(){try{return step(el,style,layout,traces)}"
            "catch(e){console.error(e);return P.update(el,style,layout,traces)}};"
            "this._medvizDrawn=(this._medvizDrawn||Promise.resolve()).then(run,run)};"
            f"}})({view},{plotly_js});\n")


def _step_redraw_wanted(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether map widgets draw steps with ``map_redraw.js``: yes unless ``MEDVIZ_STEP_REDRAW`` is ``0``."""
    return environ.get("MEDVIZ_STEP_REDRAW", "").strip() != "0"


class MapFigureWidget(go.FigureWidget):  # type: ignore[misc]  # plotly has no type hints
    """A ``go.FigureWidget`` whose browser does not report computed defaults back after each update.

    Its browser code is ``quiet_widget_esm()`` (plotly's, the reports turned off), so a step costs the
    browser one redraw and the kernel nothing afterwards; Python-side reads of a property nobody set
    give None rather than plotly.js's default. Where plotly's bundle cannot be changed so, the reports
    still come, and are handled here through one uid index and not echoed (plotly's own handler
    reads every trace's uid for each trace: 130-450 ms a step on a loaded machine; ipywidgets echoes
    the 130 kB report back). Measured in benchmarks/bench_click.py.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        cls = type(self)
        if not getattr(cls, "_medviz_esm", False):
            esm = quiet_widget_esm(_step_redraw_wanted())  # read once, when the first map is made
            if esm is not None:
                cls._esm = esm
            cls._medviz_esm = True
        super().__init__(*args, **kwargs)

    _js2py_traceDeltas = traitlets.Dict(allow_none=True).tag(sync=True, echo_update=False, **custom_serializers)

    @traitlets.observe("_js2py_traceDeltas")
    def _handler_js2py_traceDeltas(self, change: Mapping[str, Any]) -> None:
        """plotly's handler of the browser's trace defaults (``BaseFigureWidget``), with a uid index."""
        msg = change["new"]
        if not msg:
            return
        if msg["trace_edit_id"] == self._last_trace_edit_id:
            data = self.data
            index = {trace.uid: i for i, trace in enumerate(data)}
            for delta in msg["trace_deltas"]:
                i = index.get(delta["uid"])
                if i is None:
                    continue
                trace = data[i]
                transformed = BaseFigureWidget._transform_data(trace._prop_defaults, delta)
                removed = self._remove_overlapping_props(trace._props, trace._prop_defaults)
                if removed:
                    self._py2js_removeTraceProps = {"remove_trace": i, "remove_props": removed}
                    self._py2js_removeTraceProps = None  # type: ignore[assignment]  # plotly clears it so
                self._dispatch_trace_change_callbacks(transformed, [i])
            self._trace_edit_in_process = False
            if not self._layout_edit_in_process:
                while self._waiting_edit_callbacks:
                    self._waiting_edit_callbacks.pop()()
        # The report stays as it came (plotly clears it, and ipywidgets then compares the 130 kB it held
        # with None before sending that back: 30 ms); the next report replaces it.


#: The width (px) a responsive map is laid out for: panel boxes and the map's share of the width are
#: computed for it; the browser then fits the figure to the width it has (wider or narrower).
DESIGN_WIDTH = 1200


#: A map is laid out again for the width it really has when that differs by this much (px) from the one
#: it was laid out for; never for less than ``MIN_PLAN_WIDTH`` (the browser scales it down from there).
WIDTH_STEP = 40
MIN_PLAN_WIDTH = 380


def style_for(width: int) -> Any:
    """The state map's style for a map ``width`` px wide: under 1,000 px smaller title and panel type and a
    wider share for the side panel (its boxes' words and its legend stay inside the figure)."""
    from medviz.viz.state_map import DEFAULT_STATE_STYLE, StateStyle

    if width >= 1000:
        return DEFAULT_STATE_STYLE
    return StateStyle(title_size=15 if width >= 760 else 14, subtitle_size=12, panel_size=11,
                      map_domain=0.76 if width >= 760 else 0.7)


class MapPane:
    """A FigureWidget state map that steps from view to view (geometry sent once); ``ruleset`` portrays them.

    With ``width=None`` (the default) the map follows the width of the notebook's output area:
    the figure has no fixed width, and once the browser has drawn it (plotly.js can only measure
    an output area that is on the page) it is told to fit that width, as it does again whenever
    the browser window resizes. Panel boxes are laid out for ``DESIGN_WIDTH``.

    ``height`` is the most the figure takes (``self.height``: the room asked for): a map wide for its height
    (Empire's Revolt's Mediterranean) is drawn only as tall as it, its key and the side panel need at the
    width it is laid out for (``state_map(..., fit_height=True)``), with no blank band under it.
    """

    def __init__(self, view: Any, width: int | None = None, height: int = 750, *, ruleset: Any = None,
                 design_width: int = DESIGN_WIDTH, marks: bool = False) -> None:
        from medviz.viz.state_map import mark_areas, state_map

        style = style_for(width or design_width)
        figure = state_map(view, width=width or design_width, height=height, ruleset=ruleset, style=style, fit_height=True)
        self._make = (width or design_width, style)
        self.height = height
        if width is None:
            figure.update_layout(width=None, autosize=True)
        self.marks = marks
        if marks:
            mark_areas(figure, [])  # the outline trace is drawn with the map: marking then restyles it in a step
        self.figure = MapFigureWidget(figure)
        # No plotly mode bar: it would sit over the map's title (the widget's config has no public setter;
        # ``_config`` is what the widget hands to ``Plotly.newPlot``).
        self.figure._config = {**(self.figure._config or {}), "displayModeBar": False}
        self.view: Any = view
        self.ruleset = ruleset
        if width is None:
            # plotly.js refits a responsive figure when the window resizes (the widget's config
            # has no public setter; ``_config`` is what the widget hands to ``Plotly.newPlot``).
            self.figure._config = {**(self.figure._config or {}), "responsive": True}
            self.figure.observe(self._fit_when_drawn, names="_view_count")

    def _fit_when_drawn(self, change: Mapping[str, Any]) -> None:
        """A view of the figure appeared in the browser: have plotly.js fit it to the output area's width."""
        if (change["new"] or 0) > (change["old"] or 0):
            # Any update makes plotly.js lay the figure out again, measuring the output area now that
            # it is on the page (when the view was first drawn it may not have been: 700 px then).
            self.figure.plotly_update(restyle_data={}, relayout_data={"uirevision": f"medviz-{change['new']}"})

    def refit(self) -> None:
        """Have plotly.js lay the figure out again for the width its container has now."""
        self._refits = getattr(self, "_refits", 0) + 1
        self.figure.plotly_update(restyle_data={}, relayout_data={"uirevision": f"medviz-refit-{self._refits}"})

    @property
    def planned_width(self) -> int:
        """The width (px) the map's names, badges, title and panel are placed for."""
        return int(self._make[0])

    def resize(self, height: int, width: int | None = None) -> bool:
        """Draw the map ``height`` px tall and, given the ``width`` (px) it really has (``ScreenFit.width``), with
        its names, badges, title and side panel placed for that width; True if it changed.

        A responsive map is refitted to its width either way (the room was measured again because the
        window, JupyterLab's side bar or full screen changed). Another height is laid out as another width is
        (``_replan``: the axes sent by their parts, the names and badges placed for the map's new frame).
        """
        responsive = self.figure.layout.width is None
        new_width = int(width) if width and responsive and abs(width - self._make[0]) >= WIDTH_STEP else None
        if abs(height - self.height) < 6 and new_width is None:
            if responsive:
                self.refit()  # the same height, another width (or scale): plotly.js fits the figure again
            return False
        # another height: the map's frame changes with it, so its names and badges are placed again as for a width
        self._replan(max(MIN_PLAN_WIDTH, new_width) if new_width is not None else int(self._make[0]), height)
        return True

    def _replan(self, width: int, height: int) -> None:
        """Lay the map out again for ``width`` x ``height`` px: the style for that width, the names and badges
        placed again (their traces), the title fitted, the panel and legend, in one message."""
        from medviz.viz.state_map import _facts_of, mark_areas, state_map

        style = style_for(width)
        # the room asked for stays ``self.height`` (a resize to the same room changes nothing), the figure only as tall
        # as the map needs at this width
        fresh = state_map(self.view, width=width, height=height, ruleset=self.ruleset, style=style, fit_height=True)
        if self.marks:
            mark_areas(fresh, [])
        fig = self.figure
        layout = fresh.layout.to_plotly_json()
        changes = {k: layout[k] for k in ("annotations", "meta", "height", "margin", "title") if k in layout}
        # The axes and legend by their parts: plotly.js merges an axis given whole into the one it has (the
        # map's domain for the old width stayed: the map was drawn in part of its room).
        changes.update({f"{k}.{part}": v for k in ("xaxis", "yaxis", "legend") for part, v in layout.get(k, {}).items()})
        # plotly.js turns autosize off when it is given a height: off here and on again below (a message of its own),
        # so a responsive figure fits the width it has again
        responsive = fig.layout.width is None
        calls: list[tuple[dict[str, Any], dict[str, Any], list[int] | None]] = [
            ({}, {**changes, **({"autosize": False} if responsive else {})}, None)]
        for i, (mine, new) in enumerate(zip(fig.data, fresh.data)):
            if isinstance(mine.meta, Mapping) and "area" in mine.meta or mine.name == "marked-areas":
                continue  # outlines and fills do not depend on the width
            theirs, own = new.to_plotly_json(), mine.to_plotly_json()
            restyle = {k: theirs[k] for k in ("x", "y", "text", "textposition", "marker", "textfont")
                       if k in theirs and theirs[k] != own.get(k)}
            if restyle:
                calls.append(({k: [v] for k, v in restyle.items()}, {}, [i]))
        self._send(calls)
        if responsive:
            fig.update_layout(autosize=True, uirevision=f"medviz-w{width}h{height}")
        # The figure's facts (its frame, map share and last plan) are now those of the fresh layout.
        facts, made = _facts_of(fig), _facts_of(fresh)
        facts.map_domain, facts.space, facts.annotations = made.map_domain, made.space, {}
        facts.last_view, facts.last_plan = made.last_view, made.last_plan
        self._make, self.height = (width, style), height

    def _send(self, calls: list[tuple[dict[str, Any], dict[str, Any], list[int] | None]]) -> None:
        """Send ``calls`` (plotly_update arguments) to the browser merged into one message, then have the
        figure here take them without sending them again."""
        fig = self.figure
        for restyle, relayout, indexes in merged_updates(fig, calls):
            fig._send_update_msg(restyle_data=restyle, relayout_data=relayout, trace_indexes=indexes)
        fig._send_update_msg = lambda *_a, **_kw: None
        try:
            for restyle, relayout, indexes in calls:
                if restyle and indexes is not None and not _listened(fig):
                    _take_restyle(fig, restyle, indexes)  # the traces' data as plotly_update sets it, in less time
                    restyle = {}
                if restyle or relayout:
                    fig.plotly_update(restyle_data=restyle, relayout_data=relayout, trace_indexes=indexes)
        finally:
            del fig._send_update_msg

    def clickable(self) -> list[Any]:
        """The figure's traces whose marks pick a roll when clicked (the portrayal's clickable mark layers)."""
        meta = self.figure.layout.meta
        names = set(meta.get("clickable") or []) if isinstance(meta, Mapping) else set()
        return [t for t in self.figure.data if isinstance(t.meta, Mapping) and t.meta.get("layer") in names]

    def show(self, view: Any, marked: list[str] | None = None) -> int:
        """Move the map to ``view``, outlining the areas ``marked`` (a pane made with ``marks=True``; None
        leaves the outlines as they are), in one message to the browser; returns how many parts changed."""
        from medviz.viz.state_map import mark_areas, update_state_map

        if marked is not None and not self.marks:
            raise MalformedInput("MapPane.show: marked= needs a pane made with marks=True")
        if view is self.view and marked is None:
            return 0
        fig = self.figure
        calls: list[tuple[dict[str, Any], dict[str, Any], list[int] | None]] = []

        def collect(restyle_data: Any = None, relayout_data: Any = None, trace_indexes: Any = None,
                    **_kw: Any) -> None:
            calls.append((dict(restyle_data or {}), dict(relayout_data or {}), trace_indexes))

        # The step's changes are gathered first (an instance attribute over the method), sent to the
        # browser merged, and only then taken by the figure here (plotly's bookkeeping of every value: 10-20
        # ms the browser need not wait for); a property a step leaves alone reads the same before and after.
        fig.plotly_update = collect
        try:
            n = 0 if view is self.view else update_state_map(fig, self.view, view, ruleset=self.ruleset,
                                                             style=self._make[1])
            if marked is not None:
                mark_areas(fig, marked)
        finally:
            del fig.plotly_update
        self._send(calls)
        self.view = view
        return n


#: Trace classes and property paths plotly has said a restyle may set (``BaseFigure._is_key_path_compatible``).
_SETTABLE: set[tuple[type, str]] = set()


def _listened(fig: Any) -> bool:
    """Whether a trace of the figure, or a part of one (its marker, line, ...), has change callbacks (``on_change``)."""
    for trace in fig.data:
        if trace._change_callbacks or any(getattr(part, "_change_callbacks", None)
                                          for part in trace._compound_props.values()):
            return True
    return False


def _take_restyle(fig: Any, restyle: Mapping[str, Any], indexes: list[int]) -> None:
    """Set ``restyle`` (plotly_update's restyle data, values per trace of ``indexes``) in the figure's own trace data,
    as plotly's ``_perform_plotly_restyle`` does, each (trace class, path) checked by plotly once per session
    rather than at each step (its check walks the trace's validators: a third of a jump's Python). A figure
    with change callbacks takes the update through plotly (they are called)."""
    from plotly.basedatatypes import BaseFigure, Undefined

    data, raw = fig.data, fig._data
    for key, values in restyle.items():
        for j, i in enumerate(indexes):
            value = values[j % len(values)] if isinstance(values, list) else values
            if value is Undefined:  # plotly's "leave this trace alone"
                continue
            if (type(data[i]), key) not in _SETTABLE:
                if not BaseFigure._is_key_path_compatible(key, data[i]):
                    raise MalformedInput(f"map update: {key!r} is no property of trace {i} ({type(data[i]).__name__})")
                _SETTABLE.add((type(data[i]), key))
            BaseFigure._set_in(raw[i], key, value)


def merged_updates(fig: Any, calls: list[tuple[dict[str, Any], dict[str, Any], list[int] | None]]
                   ) -> list[tuple[dict[str, Any], dict[str, Any], list[int] | None]]:
    """A step's messages to the browser merged into one (one redraw there).

    Each trace in it carries every property any trace changes: a property a trace does not change
    carries its value as it is (an area whose fill changes in a step where badges move sends its
    outline again: a few kB; a redraw costs the browser 80-130 ms). A message never holds "leave this
    trace alone" markers (a FigureWidget's browser model would store them as the string "_undefined_").
    Measured in benchmarks/bench_click.py: a jump was two redraws (areas, then the rest), before that
    one per group of properties.
    """
    per_trace: dict[int, dict[str, Any]] = {}
    relayout: dict[str, Any] = {}
    for restyle, layout, indexes in calls:
        relayout.update(layout)
        for j, i in enumerate(indexes or []):
            for key, values in restyle.items():
                per_trace.setdefault(i, {})[key] = values[j % len(values)] if isinstance(values, list) else values
    if any(indexes is None and restyle for restyle, _l, indexes in calls):
        return calls  # a change to every trace: as it comes
    group = sorted(per_trace)
    if not group:
        return [({}, relayout, None)] if relayout else []
    keys = sorted({k for i in group for k in per_trace[i]})
    raw = fig._data  # the traces' own properties as plain dicts (plotly's path lookups cost 17 ms a jump)
    restyle = {k: [per_trace[i][k] if k in per_trace[i] else _own_value(raw[i], k) for i in group] for k in keys}
    return [(restyle, relayout, group)]


def _own_value(props: Mapping[str, Any], path: str) -> Any:
    """The value a trace's own properties hold at a dotted path (``marker.size``); None where unset
    (sent as None, plotly.js leaves it unset: the same)."""
    value: Any = props
    for part in path.split("."):
        if not isinstance(value, Mapping) or part not in value:
            return None
        value = value[part]
    return value


def battle_table(history: History, seq: int | None = None) -> str:
    """The forces of a battle history's sides (at ``seq``, or at the end) and its outcome, as HTML."""
    state = history.state_at(seq) if seq is not None else history.final_state
    battle = getattr(state, "battle", None)
    rows = []
    sides = getattr(battle, "sides", None) or {}
    initial = getattr(battle, "initial", None) or {}
    for name, side in sides.items():
        now = getattr(side, "units", {}) or {}
        start = initial.get(name, {}) if isinstance(initial, Mapping) else {}
        if isinstance(side, list):  # a side held as groups with an id and a count (Variant Middle Sea)
            now = {(getattr(g, "id", str(i)),): getattr(g, "count", 0) for i, g in enumerate(side)}
            start = dict(zip(now, start)) if isinstance(start, list) else {}
        if not isinstance(now, Mapping) or not isinstance(start, Mapping):
            now, start = {}, {}
        keys = sorted(set(now) | set(start), key=str)
        cells = ", ".join(f"{html.escape(' '.join(map(str, k)))} {now.get(k, 0)}/{start.get(k, now.get(k, 0))}"
                          for k in keys) or "none left"
        king = getattr(side, "king", None)
        rows.append(f"<tr><th style='text-align:left;padding-right:1em'>{html.escape(str(name))}</th>"
                    f"<td>{cells}{' · ♛ King' if king else ''}</td></tr>")
    outcome = history.outcome if isinstance(history.outcome, Mapping) else {}
    result = ", ".join(map(str, outcome.get("results") or [])) or "—"
    foot = (f"<p><b>Winner:</b> {html.escape(str(outcome.get('winner')))} &nbsp; <b>Results:</b> "
            f"{html.escape(result)}</p>") if outcome else ""
    return ("<table class='medviz-battle' style='border-collapse:collapse'><caption style='text-align:left'>"
            "<b>Forces</b> (units left / at the start)</caption>" + "".join(rows) + "</table>" + foot)


def event_log(history: History, cursor: int, before: int = 6, after: int = 5, seat: str | None = None) -> str:
    """The events around ``cursor`` in plain words, the current one in bold (as ``seat`` may read them)."""
    lo, hi = max(0, cursor - before), min(len(history), cursor + after + 1)
    items = []
    for seq in range(lo, hi):
        words = html.escape(history.describe(seq) if seat is None else history.describe(seq, seat))
        e = history[seq]
        when = ("set-up " if e.turn == 0 else f"T{e.turn} ") if e.turn is not None else ""
        line = f"<span style='color:#8a7a66'>{when}{seq}</span> {words}"
        if seq == cursor:
            line = f"<div class='medviz-current' style='background:#fff3c4;font-weight:bold'>▶ {line}</div>"
        elif seq > cursor:
            line = f"<div style='color:#9b9b9b'>{line}</div>"
        else:
            line = f"<div>{line}</div>"
        items.append(line)
    return "<div class='medviz-log' style='font-size:13px;line-height:1.45'>" + "".join(items) + "</div>"


def current_line(history: History, seq: int, seat: str | None = None) -> str:
    """The step's own line of the log (its event number and words), for the top of an app."""
    words = html.escape(history.describe(seq) if seat is None else history.describe(seq, seat))
    e = history[seq]
    when = ("set-up " if e.turn == 0 else f"T{e.turn} ") if e.turn is not None else ""
    return (f"<div class='medviz-now-event' style='background:#fff3c4;font-size:14px;padding:2px 6px'>"
            f"▶ <span style='color:#8a7a66'>{when}{seq}</span> {words}</div>")


def notes_html(annotations: Any, seq: int) -> str:
    """The notes anchored to event ``seq`` (``annotations.for_event(seq)`` -> notes with .title/.html).

    Note bodies are shown as given: the annotation module sanitizes them when it loads a file.
    """
    if annotations is None:
        return ""
    notes = list(annotations.for_event(seq) or [])
    parts = []
    for n in notes:
        title = html.escape(str(getattr(n, "title", "") or ""))
        body = str(getattr(n, "html", "") or "")
        parts.append(f"<div class='medviz-note' style='border-left:3px solid #b8860b;padding-left:8px;margin:4px 0'>"
                     f"{'<b>' + title + '</b>' if title else ''}{body}</div>")
    # Lines as tall as the words (a widget's HTML takes a 28 px line height, and paragraphs a line's margin:
    # in a box a few lines tall only a note's first line showed, its sentence cut off at the edge).
    style = ("<style>.medviz-notes{line-height:1.35;white-space:normal;overflow-wrap:anywhere}"
             ".medviz-notes p{margin:0.15em 0 0.35em}</style>")
    return style + "<div class='medviz-notes'>" + "".join(parts) + "</div>" if parts else ""


def html_box(value: str = "", **layout: Any) -> widgets.HTML:
    """An HTML widget with a layout."""
    return widgets.HTML(value=value, layout=widgets.Layout(**layout))
