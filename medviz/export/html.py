"""One standalone HTML page per history: map (or battle forces), slider, play, log, annotations.

The page needs no Python and no network. plotly.js comes from the installed plotly package and
is inlined gzip-compressed (base64), unpacked in the browser with ``DecompressionStream``:
plotly.js alone is 4.8 MB, 1.9 MB packed, which is what keeps a whole replay under 3 MB.

The map is ``medviz.viz.state_map`` of the first view, stepped with ``update_state_map`` (as the
apps step theirs). Geometry is sent ONCE, in the first figure. Every step of the slider (one per event) carries only
what changed since the step before, as *channels*: one channel is one plotly attribute of one
trace (``fillcolor`` of an area, ``text`` of the unit badges, ``x``/``y`` of an overlay), a layout
attribute, or the page's side panel. Values are stored once in a table and referred to by index.
The page's own small script (``page.js``) applies a step with ``Plotly.restyle``/``relayout``.

A Content-Security-Policy in the page forbids every network load (``connect-src 'none'``,
no remote scripts, images or fonts) and runs only the page's own nonce-carrying scripts, so even
a note that slipped past the sanitizer could neither run an inline handler nor phone home.
"""

from __future__ import annotations

import base64
import html
import copy
import functools
import gzip
import json
import math
import os
import re
import secrets
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from medviz.engine.errors import MalformedInput
from medviz.engine.files import write_atomic
from medviz.export.annotations import Annotations
from medviz.export.tree import tree_data, tree_parts
from medviz.viz.state_map import KEY_GAP, place_at_scale, shown_portrayal, state_map, update_state_map
from medviz.viz.text import plain

__all__ = ["PAGE_SCREEN", "PageData", "Timeline", "ViewAt", "build_page", "export_html", "page_data", "page_map_scale", "view_at_for"]

#: A function giving the game's map view (``Ruleset.view_at``; a ``Portrayal`` will do) after event ``seq``.
ViewAt = Callable[[int], Mapping[str, Any]]

#: Channel "trace" numbers that are not plotly traces.
LAYOUT, PANEL = -1, -2


# -- the step encoder -------------------------------------------------------------------------
@dataclass
class Timeline:
    """A figure sent once, plus per-step changes of its channels (deltas against the step before).

    ``steps[s]`` is a flat list of integers. ``ch, v`` sets channel ``ch`` to ``values[v]``;
    a list channel with few changed elements is patched instead: ``-ch-1, k`` then ``k``
    splices ``at, deleted, n, v1 .. vn`` (applied last first, so ``at`` counts in the old list).
    """

    figure: dict[str, Any] | None
    channels: list[tuple[int, str]] = field(default_factory=list)
    values: list[Any] = field(default_factory=list)
    init: list[int] = field(default_factory=list)
    steps: list[list[int]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """Page data: ``figure``, ``channels`` [[trace, path]], ``values``, ``init`` and ``steps``."""
        return {"figure": self.figure, "channels": [list(c) for c in self.channels], "values": self.values,
                "init": self.init, "steps": self.steps}

    def state(self, step: int) -> dict[tuple[int, str], Any]:
        """Every channel's value at ``step``, decoded as the page's script does (for tests and tools)."""
        cur = [self.values[v] for v in self.init]
        for d in self.steps[: step + 1]:
            p = 0
            while p < len(d):
                ch = d[p]
                if ch >= 0:
                    cur[ch] = self.values[d[p + 1]]
                    p += 2
                    continue
                ch, k = -ch - 1, d[p + 1]
                p += 2
                ops = []
                for _ in range(k):
                    at, deleted, n = d[p], d[p + 1], d[p + 2]
                    ops.append((at, deleted, [self.values[x] for x in d[p + 3: p + 3 + n]]))
                    p += 3 + n
                arr = list(cur[ch])
                for at, deleted, items in reversed(ops):
                    arr[at: at + deleted] = items
                cur[ch] = arr
        return dict(zip(self.channels, cur))


def encode_timeline(figure: dict[str, Any] | None, init: Mapping[tuple[int, str], Any],
                    states: Iterable[Mapping[tuple[int, str], Any]]) -> Timeline:
    """Encode full per-step channel states as deltas; ``init`` is what ``figure`` already shows.

    A channel missing from a step keeps its ``init`` value in that step. Values are stored once
    (a table); a long list with a few changed elements is sent as a patch.
    """
    values: list[Any] = []
    index: dict[str, int] = {}

    def vid(v: Any) -> int:
        key = json.dumps(v, sort_keys=True, separators=(",", ":"), default=_json_default)
        if key not in index:
            index[key] = len(values)
            values.append(v)
        return index[key]

    channels = list(init)
    pos = {ch: i for i, ch in enumerate(channels)}
    cur: list[Any] = [init[ch] for ch in channels]
    steps: list[list[int]] = []
    touched: set[int] = set()
    for st in states:
        delta: list[int] = []
        unknown = [ch for ch in st if ch not in pos]
        if unknown:
            raise ValueError(f"channel {unknown[0]} has no initial value")
        for i, ch in enumerate(channels):
            v = st.get(ch, init[ch])
            old = cur[i]
            if old == v:
                continue
            touched.add(i)
            if isinstance(v, list) and isinstance(old, list) and len(v) > 3 and old:
                patch = _splices([vid(x) for x in old], [vid(x) for x in v])
                if len(patch) + 2 < len(v):
                    delta += [-i - 1, *patch]
                    cur[i] = v
                    continue
            delta += [i, vid(v)]
            cur[i] = v
        steps.append(delta)
    # Drop channels that never change (the figure already shows them).
    keep = sorted(touched | {i for i, ch in enumerate(channels) if ch[0] == PANEL})  # the page draws the panel
    remap = {old: new for new, old in enumerate(keep)}
    out_steps: list[list[int]] = []
    for d in steps:
        e: list[int] = []
        p = 0
        while p < len(d):
            if d[p] >= 0:
                e += [remap[d[p]], d[p + 1]]
                p += 2
            else:
                q, k = p + 2, d[p + 1]
                for _ in range(k):
                    q += 3 + d[q + 2]
                e += [-remap[-d[p] - 1] - 1, *d[p + 1: q]]
                p = q
        out_steps.append(e)
    return Timeline(figure, [channels[i] for i in keep], values, [vid(cur_init) for cur_init in
                                                                   (init[channels[i]] for i in keep)], out_steps)


def _splices(old: list[int], new: list[int]) -> list[int]:
    """``k`` then ``k`` splices ``at, deleted, n, items..`` turning ``old`` into ``new``."""
    import difflib

    ops = [op for op in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes() if op[0] != "equal"]
    out = [len(ops)]
    for _, i1, i2, j1, j2 in ops:
        out += [i1, i2 - i1, j2 - j1, *new[j1:j2]]
    return out


# -- map mode ---------------------------------------------------------------------------------
def view_at_for(history: Any) -> ViewAt | None:
    """The map views of a history's own game (``Ruleset.view_at``); None when the game draws no map of it."""
    rs = getattr(history, "ruleset", None)
    if rs is None or rs.view_at(history, -1) is None:
        return None
    return lambda seq: rs.view_at(history, seq)


_MISSING = object()


#: The size (pixels) the exported page's map figure is made at (its title and side panel become page text; the
#: page sizes the map itself, ``page.js`` fitScreen); its names and badges are placed for the smallest map of ``PAGE_SCREENS``.
PAGE_MAP_SIZE = (1280, 800)
#: The screen the page is planned for, a projector's: map, controls and this step's words on one screen there.
PAGE_SCREEN = (1280, 720)
#: The windows the page's names and badges are placed for: each window's map as the page draws it there
#: (``page_map_scale``); they are placed for the smallest of them, so they stay apart, and inside the map, on it
#: and on every larger map (a text keeps its pixel size while the map grows). A 1024 px wide window (an older
#: projector, a small laptop) draws the map smallest: about 22 px per degree of longitude, 25 at 1280x720 over the
#: win-probability strip. Only a window narrower than 1024 px (or a phone's, where the side column goes under the
#: map) draws it smaller still.
PAGE_SCREENS = ((1024, 768), PAGE_SCREEN)
#: What the page's layout (page.html, page.js fitScreen) takes at ``PAGE_SCREEN``, in pixels measured in
#: chromium: the header's line and the controls' row above the map (69.2), the page's side paddings and the
#: gap between the map and the side column (1rem, 1rem, 0.8rem).
PAGE_TOP_PX = 70.0
PAGE_PADDING_PX = 16.0 + 16.0 + 12.8
#: A share kept in hand: the names are placed for a map this much smaller than the layout's estimate.
PAGE_SCALE_SPARE = 0.98


def page_map_scale(layout: Mapping[str, Any], strip: bool, screen: tuple[int, int] | None = None) -> float:
    """Pixels per unit of longitude of the page's map on a ``screen`` (width, height) window, as page.js
    ``fitScreen`` sizes it (``strip``: the win-probability strip under it), times ``PAGE_SCALE_SPARE``; without a
    ``screen``, the least of those on ``PAGE_SCREENS`` (the scale the page's names and badges are placed for).

    ``layout``: the map figure's (its ranges, scale ratio, y domain and margins; the page keeps a 6 px top margin
    and gives the map the figure's whole width).
    """
    if screen is None:
        return min(page_map_scale(layout, strip, s) for s in PAGE_SCREENS)
    width, height = screen
    xa, ya, m = layout.get("xaxis") or {}, layout.get("yaxis") or {}, layout.get("margin") or {}
    (x0, x1), (y0, y1) = (float(v) for v in xa["range"]), (float(v) for v in ya["range"])
    yd0, yd1 = (float(v) for v in ya.get("domain") or (0.0, 1.0))
    ratio = float(ya.get("scaleratio") or 1.0)
    aspect = abs(x1 - x0) / (abs(y1 - y0) * ratio)
    left, right, bottom = (float(m.get(k, 0)) for k in ("l", "r", "b"))
    top = 6.0  # page.js splitFigure: the title is page text
    strip_h = round(max(96, min(150, height * 0.14))) + 4 if strip else 0
    h = round(max(300.0, height - PAGE_TOP_PX - strip_h - 8))
    want = math.ceil((h - top - bottom) * (yd1 - yd0) * aspect + left + right + 4)
    avail = width - PAGE_PADDING_PX
    w = max(300.0, min(want, avail - min(avail * 0.3, 20 * 16)))
    if w < want:  # as wide as the page lets it: only as tall as its shape needs
        need = (w - left - right - 4) / aspect / (yd1 - yd0) + top + bottom + 2
        h = round(max(300.0, min(h, need)))
    plot_w, plot_h = w - left - right, (h - top - bottom) * (yd1 - yd0)
    return min(plot_w / abs(x1 - x0), plot_h / (abs(y1 - y0) * ratio)) * PAGE_SCALE_SPARE


class _MapChannels:
    """Draws the map once with ``state_map`` and turns each view into channel values (never geometry).

    The figure is ``state_map(first view)``; each later view is reached with ``update_state_map``
    (the apps' own step function), and a channel is any trace or layout attribute that differs
    from the first figure.
    """

    def __init__(self, first_view: Any, ruleset: Any = None, strip: bool = False) -> None:
        self.fig = state_map(first_view, ruleset=ruleset, width=PAGE_MAP_SIZE[0], height=PAGE_MAP_SIZE[1])
        # names and badges placed for the map the page draws on its smallest screen (``strip``: under a strip)
        place_at_scale(self.fig, page_map_scale(self.fig.layout.to_plotly_json(), strip))
        self.ruleset = ruleset
        self._prev: Any = first_view
        self.base_flat = copy.deepcopy(_flatten_figure(_raw_figure(self.fig)))
        self.figure = self.fig.to_dict()

    def panel(self) -> dict[str, Any]:
        """The page's panel for the view the figure shows now: the step's overlays in words."""
        p = shown_portrayal(self.fig)
        return {"title": p.step_title if p else "", "lines": list(p.step_lines) if p else []}

    def channels(self, view: Any) -> dict[tuple[int, str], Any]:
        """Channel values of one view: only those differing from the first figure."""
        update_state_map(self.fig, self._prev, view, ruleset=self.ruleset)
        self._prev = view
        flat = _flatten_figure(_raw_figure(self.fig))
        diff = {k: copy.deepcopy(v) for k, v in flat.items() if self.base_flat.get(k, _MISSING) != v}
        for k in self.base_flat.keys() - flat.keys():
            diff[k] = None  # gone in this step: plotly resets it to its default
        return diff

    def finish(self, steps: list[dict[tuple[int, str], Any]]) -> tuple[dict[str, Any], dict[tuple[int, str], Any]]:
        """The figure to send once (with spare annotation slots if a step needs more) and channel init values."""
        figure = json.loads(json.dumps(self.figure, default=_json_default))
        layout = figure.setdefault("layout", {})
        layout.pop("width", None)  # the page sizes the map (16:10, responsive)
        layout.pop("height", None)
        layout["autosize"] = True
        for ann in layout.get("annotations") or []:  # the key under the map: one part a line, inside the map's width
            if ann.get("name") == "panel-key" and isinstance(ann.get("text"), str):
                ann["text"] = ann["text"].replace(KEY_GAP, "<br>")
        most = max([int(k[1][12:k[1].index("]")]) + 1 for st in steps for k in st
                    if k[0] == LAYOUT and k[1].startswith("annotations[")] + [0])
        anns = layout.setdefault("annotations", [])
        while len(anns) < most:
            anns.append({"visible": False, "text": "", "showarrow": False, "x": 0, "y": 0,
                         "xref": "x", "yref": "y", "name": "badge:free"})
        base = _flatten_figure(figure)
        keys = {k for st in steps for k in st}
        return figure, {k: base.get(k) for k in sorted(keys, key=lambda k: (k[0] < 0, k[0], k[1]))}


def _raw_figure(fig: Any) -> Mapping[str, Any]:
    """A figure's data and layout as plain dicts, without plotly's deep copy where it allows."""
    data, layout = getattr(fig, "_data", None), getattr(fig, "_layout", None)
    if isinstance(data, list) and isinstance(layout, dict):
        return {"data": data, "layout": layout}
    return fig.to_dict()  # type: ignore[no-any-return]


def _json_default(v: Any) -> Any:
    if hasattr(v, "tolist"):
        return v.tolist()
    raise TypeError(f"cannot put {type(v).__name__} into the page")


def _flatten_figure(fig: Mapping[str, Any]) -> dict[tuple[int, str], Any]:
    """Every leaf attribute of a figure dict as {(trace index or LAYOUT, "a.b" path): value}.

    Layout annotations are flattened per slot (``annotations[3].text``), so a changed badge costs
    its own text, not the whole list. The layout template is skipped (it never changes).
    """
    out: dict[tuple[int, str], Any] = {}
    for i, trace in enumerate(fig.get("data", [])):
        _flat(trace, "", _putter(out, i))
    layout = {k: v for k, v in (fig.get("layout") or {}).items() if k != "template"}
    for j, ann in enumerate(layout.pop("annotations", None) or []):
        _flat(ann, f"annotations[{j}].", lambda path, v: out.__setitem__((LAYOUT, path), v))
    _flat(layout, "", lambda path, v: out.__setitem__((LAYOUT, path), v))
    return out


def _putter(out: dict[tuple[int, str], Any], trace: int) -> Callable[[str, Any], None]:
    def put(path: str, value: Any) -> None:
        out[(trace, path)] = value
    return put


def _flat(obj: Mapping[str, Any], prefix: str, put: Callable[[str, Any], None]) -> None:
    for k, v in obj.items():
        path = f"{prefix}{k}"
        if isinstance(v, Mapping):
            _flat(v, path + ".", put)
        elif hasattr(v, "tolist"):
            put(path, v.tolist())
        else:
            put(path, v)


# -- battle mode ------------------------------------------------------------------------------
def _battle_timeline(history: Any) -> Timeline | None:
    """A bar chart of each side's units, step by step, for a one-battle history."""
    import plotly.graph_objects as go

    try:
        first = history.state_at(-1)
    except Exception:
        return None
    battle = getattr(first, "battle", None)
    if battle is None or not hasattr(battle, "sides"):
        return None
    initial = getattr(battle, "initial", None) or {s: dict(side.units) for s, side in battle.sides.items()}
    keys = sorted({k for units in initial.values() for k in units})
    labels = [plain(f"{p} {c}") for p, c in keys]  # plotly draws markup: ids are plain text
    fig = go.Figure()
    colours = {"attacker": "#B2182B", "defender": "#1F3F8F"}
    for side in ("attacker", "defender"):
        fig.add_trace(go.Bar(x=labels, y=[initial.get(side, {}).get(k, 0) for k in keys], name=side, uid=side,
                             marker={"color": colours[side]}, text=[], textposition="outside"))
    top = max([n for units in initial.values() for n in units.values()] + [1])
    fig.update_layout(barmode="group", autosize=True, title={"text": "Units left on each side", "x": 0.5},
                      yaxis={"title": {"text": "units"}, "range": [0, top + 1], "dtick": 1, "fixedrange": True},
                      xaxis={"fixedrange": True}, margin={"l": 50, "r": 20, "t": 50, "b": 60},
                      legend={"orientation": "h", "y": -0.2}, font={"family": "Liberation Sans, Arial, sans-serif"})
    figure = json.loads(fig.to_json())

    def channels(state: Any) -> dict[tuple[int, str], Any]:
        b = state.battle
        out: dict[tuple[int, str], Any] = {}
        for i, side in enumerate(("attacker", "defender")):
            units = b.sides[side].units if side in b.sides else {}
            out[(i, "y")] = [units.get(k, 0) for k in keys]
        results = list(getattr(b, "results", []) or [])
        lines = [f"{side}: " + (", ".join(f"{n} {p} {c}" for (p, c), n in sorted(b.sides[side].units.items()) if n) or "no units")
                 + (f"; King ({b.sides[side].king[0]}, value {b.sides[side].king[1]})" if getattr(b.sides[side], "king", None) else "")
                 for side in ("attacker", "defender") if side in b.sides]
        lines.append(f"combats {getattr(b, 'combats', 0)}, rounds {getattr(b, 'rounds', 0)}; results: {', '.join(results) or 'none yet'}")
        killed = list(getattr(b, "kings_killed", []) or [])
        if killed:
            lines.append("King killed: " + ", ".join(killed) + " (8.1)")
        out[(PANEL, "panel")] = {"title": f"Battle: {getattr(b, 'kind', '')} battle" + (" in a city area" if getattr(b, "city", False) else ""),
                                 "lines": lines}
        return out

    init = channels(first)
    states = (channels(history.state_at(seq)) for seq in range(len(history.events)))
    return encode_timeline(figure, init, states)


# -- the page ---------------------------------------------------------------------------------
@dataclass
class PageData:
    """Everything the page shows, as JSON-ready data."""

    title: str
    mode: str  # "map" | "battle" | "log"
    timeline: Timeline
    log: list[str]
    automatic: list[int]
    phases: list[dict[str, Any]]
    notes: list[dict[str, Any]]
    about: list[str]
    winprob: dict[str, Any] | None = None  # the win-probability strip: its figure and pivotal flags

    def to_json(self) -> dict[str, Any]:
        """The data embedded in the page."""
        out = {"title": self.title, "mode": self.mode, "timeline": self.timeline.to_json(), "log": self.log,
               "automatic": self.automatic, "phases": self.phases, "notes": self.notes, "about": self.about}
        if self.winprob is not None:
            out["winprob"] = self.winprob
        return out


def winprob_strip(history: Any, chart: Any, pivotal: Iterable[tuple[int, str, str]] = ()) -> dict[str, Any]:
    """The page's win-probability strip: the chart (``medviz.viz.winprob``) with its current-event line
    at the first event, and the pivotal rolls flagged ((event, roll id, words))."""
    from medviz.viz.winprob import win_probability_figure

    flags = [(seq, key, words) for seq, key, words in pivotal]
    fig = win_probability_figure(chart, history, current=1, flagged=[(seq + 1, w) for seq, _k, w in flags],
                                 height=240)
    figure = json.loads(fig.to_json())
    figure["layout"].pop("width", None)
    figure["layout"]["autosize"] = True
    return {"figure": figure, "games": chart.points[0]["games"] if chart.points else 0,
            "flags": [{"seq": seq, "x": seq + 1, "roll": key, "words": words} for seq, key, words in flags]}


def page_data(history: Any, annotations: Annotations | None = None, view_at: ViewAt | None = None,
              seat: str | None = None, *, win_probability: Any = None,
              pivotal: Iterable[tuple[int, str, str]] = ()) -> PageData:
    """Build the page's data: the figure once, channel deltas per event, the log and the notes
    (``win_probability``: a ``WinProbability`` of this history, drawn as a strip under the map)."""
    events = list(history.events)
    if not events:
        raise MalformedInput("history has no events: nothing to replay")
    if annotations is not None and not annotations.bound:
        annotations = annotations.bind(history)
    view_at = view_at or view_at_for(history)
    title = _title(history)
    if view_at is not None:
        first = view_at(-1) if _accepts_minus_one(view_at) else view_at(0)
        drawer = _MapChannels(first, getattr(history, "ruleset", None), strip=win_probability is not None)
        first_panel = drawer.panel()
        steps: list[dict[tuple[int, str], Any]] = []
        last_key, last = None, None
        seen_powers: Any = _MISSING
        powers_key = ""
        for seq in range(len(events)):
            view = view_at(seq)
            if isinstance(view, Mapping) and view.get("powers") is not seen_powers:
                seen_powers = view.get("powers")  # one dict for every view of a game: written once
                powers_key = json.dumps(seen_powers, sort_keys=True, default=str)
            key = _view_key(view, powers_key)
            if key != last_key:  # views repeat between state changes: draw each once
                last = {**drawer.channels(view), (PANEL, "panel"): drawer.panel()}
                last_key = key
            assert last is not None
            steps.append(last)
        figure, init = drawer.finish(steps)
        init[(PANEL, "panel")] = first_panel
        timeline = encode_timeline(figure, init, steps)
        mode = "map"
        # The scenario's name, without the step part ("… — turn 1, setup", "…: set-up").
        if isinstance(first, Mapping) and first.get("title"):
            shown = str(first["title"])
        else:  # the portrayal's title is markup: the page wants its plain words
            drawn = shown_portrayal(drawer.fig)
            shown = html.unescape(re.sub(r"<[^>]*>", "", drawn.title)) if drawn is not None else ""
        shown = shown or title
        title = re.split(r" — |: set-up", shown)[0].strip() or title
    else:
        battle = _battle_timeline(history)
        timeline, mode = (battle, "battle") if battle is not None else (Timeline(None), "log")
    log = [history.describe(e) if seat is None else history.describe(e, seat) for e in events]
    automatic = [e.seq for e in events if getattr(e, "automatic", False)]
    from medviz.apps.model import moment_words  # here, not at the top: the apps package loads ipywidgets

    phases = [{"turn": p.turn, "phase": p.phase, "start": p.start, "end": p.end,
               "words": moment_words(history, p.turn, p.phase)} for p in history.phases()]
    notes = [n.to_json() for n in annotations] if annotations is not None else []
    strip = winprob_strip(history, win_probability, pivotal) if win_probability is not None else None
    return PageData(title, mode, timeline, log, automatic, phases, notes, _about(history, annotations), strip)


def _view_key(view: Any, powers_key: str) -> Any:
    """A key equal for equal views (a view's ``powers``, shared by all of a game's views, written once)."""
    if not isinstance(view, Mapping):
        return view  # a Portrayal: frozen data, compared by value
    rest = {k: v for k, v in view.items() if k != "powers"}
    return json.dumps(rest, sort_keys=True, default=str) + powers_key


def _accepts_minus_one(view_at: ViewAt) -> bool:
    try:
        view_at(-1)
        return True
    except Exception:
        return False


def _title(history: Any) -> str:
    scenario = getattr(history, "scenario", "replay")
    if scenario == "battle":
        opts = getattr(getattr(history, "spec", None), "options", {}) or {}
        if opts.get("attacker") and opts.get("defender"):
            return f"Battle: {opts['attacker']} attacks {opts['defender']}"
    return f"{getattr(history, 'game', 'medviz')}: {scenario}"


def _about(history: Any, annotations: Annotations | None) -> list[str]:
    out = [f"game {getattr(history, 'game', '?')}, scenario {getattr(history, 'scenario', '?')}, "
           f"seed {getattr(history, 'seed', '?')}, {len(history.events)} events"]
    override = getattr(history, "override", None)
    if override:
        out.append(f"a branch: roll {override[0]} forced to {override[1]}")
    outcome = getattr(history, "outcome", None)
    if isinstance(outcome, Mapping) and outcome.get("winner") is not None:
        out.append(f"winner: {outcome['winner']}")
    if annotations is not None:
        out.append(f"{len(annotations)} note(s) from {Path(annotations.source).name}")
    return out


def _finite(v: Any) -> Any:
    """NaN and infinities become null (what plotly.js reads as a gap); JSON has no NaN."""
    if isinstance(v, float):
        return v if math.isfinite(v) else None
    if isinstance(v, dict):
        return {k: _finite(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_finite(x) for x in v]
    return v


def _script_json(data: Any) -> str:
    """JSON safe inside ``<script type="application/json">`` (no ``</script>``, no ``<!--``)."""
    text = json.dumps(_finite(data), ensure_ascii=False, separators=(",", ":"), allow_nan=False,
                      default=_json_default)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _asset(name: str) -> str:
    return (resources.files("medviz.export") / name).read_text(encoding="utf-8")


def plotly_js() -> str:
    """plotly.js of the installed plotly package (never a CDN)."""
    from plotly.offline import get_plotlyjs

    return str(get_plotlyjs())


@functools.cache
def _plotly_js_packed() -> str:
    """plotly.js gzipped (level 9, no time stamp) in base64: the same bytes for every page, so packed once per process."""
    return base64.b64encode(gzip.compress(plotly_js().encode("utf-8"), compresslevel=9, mtime=0)).decode("ascii")


def build_page(history: Any, annotations: Annotations | None = None, view_at: ViewAt | None = None,
               *, compress_plotlyjs: bool = True, seat: str | None = None,
               view_for: Callable[[Any], ViewAt | None] | None = None, win_probability: Any = None,
               pivotal: Iterable[tuple[int, str, str]] = ()) -> str:
    """The whole standalone page as text (``seat``: the log as that seat may read it;
    ``win_probability``/``pivotal``: the win-probability strip under the map, see ``page_data``).

    A history from a tree file brings its whole tree: every branch, switchable on the page
    (``medviz.export.tree``); ``view_for(branch)`` gives a branch's views (default: the game's).
    """
    data = page_data(history, annotations, view_at, seat, win_probability=win_probability, pivotal=pivotal)
    tree = tree_data(history, lambda h, notes: data.to_json() if h is history else page_data(
        h, notes, view_for(h) if view_for is not None else None, seat).to_json(), annotations)
    nonce = secrets.token_urlsafe(18)
    if compress_plotlyjs:
        plotly_tag = f'<script id="plotly-gz" type="application/octet-stream">{_plotly_js_packed()}</script>'
    else:
        inline = plotly_js().replace("</script", "<\\/script")
        plotly_tag = f'<script nonce="{nonce}">{inline}</script>'
    from medviz.export.sanitize import escape_text

    parts = {"TITLE": escape_text(data.title), "PLOTLY": plotly_tag,
             "DATA": _script_json(data.to_json()), "SCRIPT": _asset("page.js"), "NONCE": nonce,
             "TREE": tree_parts(tree, _script_json, nonce)}
    # One pass over the template only: nothing inside the data is ever substituted.
    return re.sub(r"\{\{([A-Z]+)\}\}", lambda m: parts[m.group(1)], _asset("page.html"))


def export_html(history: Any, out: str | Path, annotations: Annotations | None = None,
                view_at: ViewAt | None = None, *, compress_plotlyjs: bool = True, seat: str | None = None,
                view_for: Callable[[Any], ViewAt | None] | None = None, win_probability: Any = None,
                pivotal: Iterable[tuple[int, str, str]] = ()) -> Path:
    """Write the standalone page for ``history`` (its whole tree, if it has one) to ``out`` atomically."""
    text = build_page(history, annotations, view_at, compress_plotlyjs=compress_plotlyjs, seat=seat,
                      view_for=view_for, win_probability=win_probability, pivotal=pivotal)
    write_atomic(out, text)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(out, 0o666 & ~umask)  # a page to publish: readable like any file the user writes
    return Path(out)

