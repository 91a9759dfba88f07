"""The map of one moment of a game: any game's ``Portrayal`` drawn over its base map.

``state_map(view)`` draws a game's view of a moment: the game's ruleset portrays it
(``Ruleset.portray`` -> ``medviz.engine.portrayal.Portrayal``: area fills, badges, paths and marks,
side panel, legend, key, title) and this module draws the portrayal over the base map of
``medviz.viz.basemap``. A view may also be a ``Portrayal`` itself. Which game a view belongs to:
the ``ruleset`` argument, else the view's ``"game"`` id. ``update_state_map(fig, old, new)`` moves
a figure from one view to the next by changing only colours, badge texts and overlay markers —
never the area outlines, which are sent once. Both go through one planner (``plan_view``), so a
figure built for a view and a figure updated to it hold the same data.

The figure's parts that are the same for every moment of a game (the legend, the badge groups'
and layers' colours, the panel's boxes) come from the first view; later views change their
contents. See docs/viz.md.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import weakref
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import plotly.graph_objects as go

from medviz.engine.errors import MalformedInput, UnknownReference
from medviz.engine.portrayal import AreaFill, Mark, MarkLayer, Place, Portrayal, Shades
from medviz.viz import basemap
from medviz.viz import palette
from medviz.viz.basemap import TRUE_SCALE_LAT, MapStyle, area_traces, base_map
from medviz.viz.placement import (
    BADGE_OUTLINE,
    LINE_BOX,
    LINE_SPACING,
    Box,
    Cluster,
    MapFrame,
    MapSpace,
    Placed,
    badge_top,
    frame_of_figure,
    carried,
    marker_box,
    marker_for_top,
    place_clusters,
    placed_boxes,
    point_text_box,
    segment_boxes,
    text_size,
)
from medviz.viz.text import plain

if TYPE_CHECKING:
    from medviz.engine.game import Ruleset

contrast_text = functools.lru_cache(maxsize=4096)(palette.contrast_text)

__all__ = ["CHANGED_OUTLINE", "DEFAULT_STATE_STYLE", "Fill", "KEY_GAP", "MapFigure", "Place", "Plan", "StateStyle", "changed_areas",
           "city_boxes", "fitted_height", "mark_areas", "panel_box_width", "place_at_scale", "placed_text_boxes", "places_of_map", "plan_view", "portrayal_of", "shown_portrayal", "state_map",
           "update_state_map"]

#: How one land area is painted (the portrayal's ``AreaFill``).
Fill = AreaFill


@dataclass(frozen=True)
class StateStyle:
    """Colours and sizes of the state map (style as data)."""

    width: int = 1600
    height: int = 1000
    map_domain: float = 0.86  # share of the width the map takes; the panel has the rest
    uncontrolled: str = "#f3ecdc"  # a land area nobody controls
    paper: str = "#f6f1e6"  # what neutral tints fade towards
    sea_fills: tuple[str, ...] = ("#d3e4ef", "#dbe9f2", "#cddfeb")
    background: str = "#d3e4ef"
    panel_background: str = "#fbf8f1"
    player_tint: float = 0.92
    ally_tint: float = 0.85
    neutral_tint: float = 0.45
    land_border: str = "#5b4d3c"
    font_family: str = "Liberation Sans, DejaVu Sans, Arial, sans-serif"
    title_size: int = 22
    subtitle_size: int = 15
    badge_size: int = 12
    label_size: int = 12
    panel_size: int = 13
    move_width: float = 3.5
    pattern_size: int = 10

    def __post_init__(self) -> None:
        if not 0.5 <= self.map_domain <= 1.0:
            raise ValueError("StateStyle.map_domain must be between 0.5 and 1")
        for name in ("player_tint", "ally_tint", "neutral_tint"):
            if not 0.0 < getattr(self, name) <= 1.0:
                raise ValueError(f"StateStyle.{name} must be in (0, 1]")

    @property
    def shades(self) -> Shades:
        """The tints a game's portrayal uses (the paper, and how strong a player's, ally's, neutral's colour is)."""
        return Shades(self.paper, self.uncontrolled, self.player_tint, self.ally_tint, self.neutral_tint)


DEFAULT_STATE_STYLE = StateStyle()


# ------------------------------------------------------------------------------------------
# Which game draws a view, on which map
# ------------------------------------------------------------------------------------------
def _ruleset_for(view: Any, ruleset: Ruleset | None, fallback: str | None = None) -> Ruleset | None:
    """The ruleset that portrays ``view``: the one given, else the view's ``game`` id (None: a Portrayal)."""
    if ruleset is not None:
        return ruleset
    if isinstance(view, Portrayal):
        return None
    game = view.get("game") if isinstance(view, Mapping) else None
    game = game if isinstance(game, str) and game else fallback
    if not game:
        raise MalformedInput(f"cannot tell which game this view ({type(view).__name__}) is of: give ruleset=, "
                             f"a view with a 'game' id, or a medviz.engine.portrayal.Portrayal")
    from medviz.engine.registry import get_ruleset

    return get_ruleset(game)


def _map_of(view: Any, ruleset: Ruleset | None) -> str:
    return view.map if isinstance(view, Portrayal) or ruleset is None else ruleset.map_name(view)


@functools.lru_cache(maxsize=4)
def _geo(name: str) -> Any:
    from medviz.geo import load

    return load(name)


def _label_lines(text: str) -> int:
    wrap = getattr(basemap, "_wrap", None)
    shown = wrap(text) if callable(wrap) else text
    return shown.count("<br>") + 1


def places_of_map(geo: Any) -> dict[str, Place]:
    """The areas of a map (a GeoDataFrame or rows) as the portrayals see them: label points, kinds, names."""
    rows = [dict(r) for _, r in geo.iterrows()] if hasattr(geo, "iterrows") else [dict(r) for r in geo]
    out = {}
    for r in rows:
        label = r.get("label")
        label = label if isinstance(label, str) and label else r["name"]
        wrap = getattr(basemap, "_wrap", None)
        shown = wrap(plain(label)) if callable(wrap) else plain(label)
        out[str(r["id"])] = Place(round(float(r["label_lon"]), 4), round(float(r["label_lat"]), 4),
                                  str(r["kind"]), _label_lines(label), str(r["name"]), shown)
    return out


_places_from_geo = places_of_map


def portrayal_of(view: Any, places: Mapping[str, Place], style: StateStyle = DEFAULT_STATE_STYLE,
                 ruleset: Ruleset | None = None) -> Portrayal:
    """The portrayal of ``view`` on ``places``: ``view`` itself if it is one, else its game's ``portray``."""
    rs = _ruleset_for(view, ruleset)
    if rs is None:
        return view  # type: ignore[no-any-return]
    out = rs.portray(view, places, style.shades)
    if not isinstance(out, Portrayal):
        raise MalformedInput(f"ruleset {rs.game!r}: portray() gave a {type(out).__name__}, not a Portrayal")
    return out


# ------------------------------------------------------------------------------------------
# What update_state_map remembers of a figure
# ------------------------------------------------------------------------------------------
@dataclass
class _FigureFacts:
    """What ``update_state_map`` remembers of a figure: places, trace indexes, the last plan."""

    places: dict[str, Place]
    map_domain: float = 0.86
    game: str | None = None
    ruleset: Any = None
    areas: dict[str, int] = field(default_factory=dict)
    fixed_areas: dict[str, tuple[int, int, int]] = field(default_factory=dict)  # area -> (trace, start, stop)
    annotations: dict[str, int] = field(default_factory=dict)
    traces: dict[str, int] = field(default_factory=dict)
    last_view: Any = None
    last_plan: Any = None
    space: MapSpace | None = None
    #: Pixels per unit of longitude the names and badges are placed for, when not the figure's own (``place_at_scale``).
    placed_px: float | None = None
    #: The latest views drawn (``PLAN_KEEP``), by id: (view, ruleset, style, portrayal, space, plan) -- a view
    #: shown again (a step back, a jump or the slider back to a moment seen) takes its portrayal and plan again.
    plans: OrderedDict[int, tuple[Any, Any, StateStyle, Portrayal, MapSpace | None, Plan]] = field(default_factory=OrderedDict)
    #: Land names spilling off their areas (``_spilling_names``, shapely: ~50 ms) by (map, frame, style): a title
    #: wrapped onto another number of lines moves the map to a frame it had before.
    spills: dict[tuple[str, MapFrame, StateStyle], frozenset[str]] = field(default_factory=dict)


#: How many views a figure remembers the portrayal and plan of (``_FigureFacts.plans``; 0: none).
PLAN_KEEP = 32


def _remembered(facts: _FigureFacts, view: Any, rs: Any, style: StateStyle) -> tuple[Portrayal, MapSpace | None, Plan] | None:
    """The portrayal of ``view`` drawn on this figure before (the same object, ruleset and style), with the
    space its plan was made for and the plan; None if it is not remembered."""
    hit = facts.plans.get(id(view))
    if hit is None or hit[0] is not view or hit[1] is not rs or hit[2] != style:
        return None
    facts.plans.move_to_end(id(view))
    return hit[3], hit[4], hit[5]


def _remember(facts: _FigureFacts, view: Any, rs: Any, style: StateStyle, portrayal: Portrayal,
              space: MapSpace | None, plan: Plan) -> None:
    if PLAN_KEEP <= 0:
        return
    facts.plans[id(view)] = (view, rs, style, portrayal, space, plan)  # holding the view: its id names no other
    facts.plans.move_to_end(id(view))
    while len(facts.plans) > PLAN_KEEP:
        facts.plans.popitem(last=False)


#: Facts by figure (figures are unhashable: keyed by id, checked through a weak reference).
_FACTS: dict[int, tuple[weakref.ref[Any], _FigureFacts]] = {}


def _facts_of(fig: Any) -> _FigureFacts:
    """The facts of a state map (from ``layout.meta`` and its traces, read once per figure)."""
    key = id(fig)
    cached = _FACTS.get(key)
    if cached is not None and cached[0]() is fig:
        return cached[1]
    meta = fig.layout.meta or {}
    raw = meta.get("places") if isinstance(meta, Mapping) else None
    if not raw:
        raise UnknownReference("this figure was not drawn by state_map (no places in layout.meta)")
    places = {a: Place(float(p[0]), float(p[1]), str(p[2]), int(p[3]), str(p[4]), str(p[5]) if len(p) > 5 else "")
              for a, p in raw.items()}
    frame = meta.get("frame")
    facts = _FigureFacts(places, map_domain=float(meta.get("map_domain") or DEFAULT_STATE_STYLE.map_domain),
                         game=meta.get("game") or None, placed_px=float(meta["placed_px"]) if meta.get("placed_px") else None)
    base: dict[str, int] = {}
    layers: dict[str, int] = {}
    for i, tr in enumerate(fig.data):
        m = tr.meta
        if isinstance(m, Mapping) and "area" in m:
            facts.areas[str(m["area"])] = i
        elif isinstance(m, Mapping) and isinstance(m.get("areas"), Mapping):
            for a, (start, stop) in m["areas"].items():
                facts.fixed_areas[str(a)] = (i, int(start), int(stop))
        elif isinstance(m, Mapping) and "layer" in m:
            layers[str(m["layer"])] = i
        elif tr.name:
            base[str(tr.name)] = i
    facts.traces = {**base, **layers}  # a portrayal's layer named like a base map trace is the layer
    if frame:
        mf = MapFrame(*(float(v) for v in frame))
        cities = city_boxes(fig.data[base["cities"]].to_plotly_json(), mf) if "cities" in base else ()
        facts.space = MapSpace(mf, cities, frozenset(meta.get("spills") or ()))
    _FACTS[key] = (weakref.ref(fig, lambda _r: _FACTS.pop(key, None)), facts)
    return facts


def _places_of(fig: Any) -> dict[str, Place]:
    """The places a state map was drawn with (kept in ``layout.meta``)."""
    return _facts_of(fig).places


# ------------------------------------------------------------------------------------------
# Planning: a portrayal -> what every changing part of the figure shows
# ------------------------------------------------------------------------------------------
@dataclass
class Plan:
    """Everything of a state map that changes from view to view (and the portrayal it comes from)."""

    fills: dict[str, AreaFill] = field(default_factory=dict)
    badges: dict[str, dict[str, Any]] = field(default_factory=dict)  # badge trace name -> props
    overlays: dict[str, dict[str, Any]] = field(default_factory=dict)  # overlay trace uid -> props
    panel: dict[str, str] = field(default_factory=dict)  # panel annotation name -> text
    title: str = ""
    subtitle: str = ""
    portrayal: Portrayal | None = None


def _place(area: str, places: Mapping[str, Place], what: str) -> Place:
    if area not in places:
        raise UnknownReference(f"the portrayal's {what} names an area not on the map: {area}")
    return places[area]


#: Font size of the names of each kind of area (``basemap.MapStyle``: seas 12, context one less than land).
def _label_size(kind: str, style: StateStyle) -> int:
    return {"sea": MapStyle.sea_label_size, "context": style.label_size - 1}.get(kind, style.label_size)


LABELLED_KINDS = ("sea", "context", "land")
#: Kinds of area whose names the base map writes in italics.
ITALIC_KINDS = ("sea", "context")


def _badge_rows(p: Portrayal, places: Mapping[str, Place]) -> dict[tuple[int, int], int]:
    """The row under its area's name of every badge (by group and badge index): slots first, no two in one row."""
    per_area: dict[str, list[tuple[int, int, int]]] = {}
    for gi, group in enumerate(p.badges):
        for bi, badge in enumerate(group.badges):
            _place(badge.area, places, f"badge group {group.id!r}")
            per_area.setdefault(badge.area, []).append((badge.slot, gi, bi))
    rows = {}
    for items in per_area.values():
        for row, (_, gi, bi) in enumerate(sorted(items)):
            rows[(gi, bi)] = row
    return rows


def default_frame(places: Mapping[str, Place], style: StateStyle) -> MapFrame:
    """An approximate frame from the label points (for a plan made without a figure)."""
    lons = [p.lon for p in places.values()] or [0.0]
    lats = [p.lat for p in places.values()] or [0.0]
    x0, x1, y0, y1 = min(lons) - 2, max(lons) + 2, min(lats) - 1.5, max(lats) + 1.5
    ratio = 1 / math.cos(math.radians(TRUE_SCALE_LAT))
    scale = min((style.width - 12) * style.map_domain / (x1 - x0), (style.height - 50) * 0.95 / ((y1 - y0) * ratio))
    return MapFrame(x0, x1, y0, y1, scale, scale * ratio)


def city_boxes(cities: Mapping[str, Any], frame: MapFrame) -> tuple[Box, ...]:
    """The boxes (pixels of ``frame``) of a base map's city markers and names (its ``cities`` trace as a dict)."""
    font = (cities.get("textfont") or {}).get("size") or 10
    msize = float((cities.get("marker") or {}).get("size") or 0)
    positions = cities.get("textposition") or "top center"
    out = []
    for i, (x, y, text) in enumerate(zip(cities.get("x") or (), cities.get("y") or (), cities.get("text") or ())):
        pos = positions if isinstance(positions, str) else positions[i]
        px, py = frame.to_px(float(x), float(y))
        if text:
            out.append(point_text_box(str(text), float(font), str(pos), msize).moved(px, py))
        out.append(Box(px - msize / 2, py - msize / 2, px + msize / 2, py + msize / 2))
    return tuple(out)


def _spilling_names(geo: Any, places: Mapping[str, Place], frame: MapFrame, style: StateStyle) -> frozenset[str]:
    """Land areas whose name, at the label point, lies for more than a quarter outside the area's own shape."""
    from shapely.geometry import box as shape_box

    rows = [dict(r) for _, r in geo.iterrows()] if hasattr(geo, "iterrows") else [dict(r) for r in geo]
    out = set()
    for r in rows:
        a = str(r["id"])
        pl = places.get(a)
        geometry = r.get("geometry")
        if pl is None or pl.kind != "land" or geometry is None:
            continue
        size = _label_size(pl.kind, style)
        b = point_text_box(pl.label or plain(pl.name), size)
        x0, y1 = pl.lon + b.left / frame.px_x, pl.lat - b.top / frame.px_y
        x1, y0 = pl.lon + b.right / frame.px_x, pl.lat - b.bottom / frame.px_y
        label = shape_box(x0, y0, x1, y1)
        if label.area > 0 and geometry.intersection(label).area < 0.75 * label.area:
            out.add(a)
    return frozenset(out)


#: Pixels across a move's arrowheads and start circles, and their white outline.
PATH_MARKER = 16
PATH_MARKER_OUTLINE = 1.5
#: Pixels of a mark's text halo (``HALO``) around its glyphs.
MARK_HALO = 1.0


#: How far back along its move (a share of the leg) an arrowhead or start circle may go to clear a name.
MOVE_END_BACK = 0.7
#: Pixels an arrowhead steps back at a time while it sits on a name or badge.
MOVE_END_STEP = 2.0
#: Where no spot back along its leg is free, the nearest free spot this many pixels around its point or closer.
MOVE_END_AROUND = 48

#: Move points drawn away from their label points: pixels of the frame, by layer, path and point.
MoveEnds = dict[tuple[int, int, int], tuple[float, float]]


def _move_ends(p: Portrayal, places: Mapping[str, Place], frame: MapFrame, taken: tuple[Box, ...]) -> MoveEnds:
    """Where each point of each move is drawn (pixels of ``frame``, by layer, path and point): at its area's
    label point, or, where its arrowhead (its start circle) would sit on a name or badge placed there, drawn
    back along the leg it ends (toward the leg's other end) to the nearest spot off them, at most
    ``MOVE_END_BACK`` of the way, else to the nearest free spot around it (the line bends to it) (names and badges do not step aside for the moves: an arrow starts and
    ends at label points, and every move would push names about)."""
    marker = marker_box(PATH_MARKER, PATH_MARKER_OUTLINE)
    reach = marker.right + 2
    width, height = frame.size_px
    out: MoveEnds = {}
    for li, layer in enumerate(p.paths):
        for pi, path in enumerate(layer.paths):
            pts = [frame.to_px(pl.lon, pl.lat) for pl in (_place(a, places, f"path layer {layer.id!r}") for a in path.areas)]
            for j, (x, y) in enumerate(pts):
                if len(pts) < 2:
                    continue
                tx, ty = pts[j - 1] if j > 0 else pts[1]
                length = math.hypot(tx - x, ty - y)
                if length == 0:
                    continue
                near = [b for b in taken if b.left - reach < x + length and x - length < b.right + reach
                        and b.top - reach < y + length and y - length < b.bottom + reach]
                t = MOVE_END_STEP
                if not any(marker.moved(x, y).intersects(b) for b in near):
                    continue
                spots = []
                while t <= MOVE_END_BACK * length:
                    spots.append((x + (tx - x) * t / length, y + (ty - y) * t / length))
                    t += MOVE_END_STEP
                spots += [(x + r * math.cos(a), y + r * math.sin(a)) for r in range(4, MOVE_END_AROUND + 1, 4)
                          for a in (2 * math.pi * k / 24 for k in range(24))]
                near = [b for b in taken if b.left - reach < x + length + MOVE_END_AROUND and x - length - MOVE_END_AROUND < b.right + reach
                        and b.top - reach < y + length + MOVE_END_AROUND and y - length - MOVE_END_AROUND < b.bottom + reach]
                for cx, cy in spots:
                    if 0 <= cx <= width and 0 <= cy <= height and not any(marker.moved(cx, cy).intersects(b) for b in near):
                        out[(li, pi, j)] = (cx, cy)
                        break
    return out


def _path_obstacles(p: Portrayal, places: Mapping[str, Place], ends: MoveEnds, style: StateStyle,
                    frame: MapFrame) -> tuple[Box, ...]:
    """The boxes (pixels) of the moves drawn over the map: their arrowheads, start circles and lines with the
    white halo (the step's marks keep off them)."""
    out: list[Box] = []
    half = (style.move_width + 4) / 2  # the halo trace is 4 px wider than the line
    marker = marker_box(PATH_MARKER, PATH_MARKER_OUTLINE)
    for li, layer in enumerate(p.paths):
        for pi, path in enumerate(layer.paths):
            pts = [ends.get((li, pi, j)) or frame.to_px(places[a].lon, places[a].lat) for j, a in enumerate(path.areas)]
            out += [marker.moved(x, y) for x, y in pts]
            for (ax, ay), (bx, by) in zip(pts, pts[1:]):
                out += segment_boxes(ax, ay, bx, by, half)
    return tuple(out)


def _mark_parts(ml: MarkLayer, mark: Mark, style: StateStyle) -> list[Box]:
    """A mark's marker and its text (with the halo) as boxes in pixels around the marker's centre."""
    out = [marker_box(ml.size, ml.outline, mark.symbol or ml.symbol)]
    if mark.text:
        b = point_text_box(mark.text, style.badge_size + 2, ml.text_position, ml.size)
        out.append(Box(b.left - MARK_HALO, b.top - MARK_HALO, b.right + MARK_HALO, b.bottom + MARK_HALO))
    return out


def _mark_offsets(p: Portrayal, places: Mapping[str, Place], style: StateStyle,
                  stacks: Mapping[str, list[Box]]) -> tuple[dict[tuple[int, int], tuple[float, float]], dict[str, list[Box]]]:
    """Where each mark sits (pixels from its area's label point, y down) and the boxes it adds to its area.

    A mark with ``dy == 0`` sits at the label point (``dx`` px aside); ``dy > 0`` puts it above
    everything already at the area (its name, badges and earlier marks) that it would otherwise
    meet side to side, ``dy < 0`` below it all: its marker's centre ``|dy|`` px past that edge, and
    never closer than 1 px to it. Several marks at one area stack in turn.
    """
    offsets: dict[tuple[int, int], tuple[float, float]] = {}
    boxes: dict[str, list[Box]] = {}
    per_area: dict[str, list[tuple[int, int, MarkLayer, Mark]]] = {}
    for li, ml in enumerate(p.marks):
        for mi, mark in enumerate(ml.marks):
            _place(mark.area, places, f"mark layer {ml.id!r}")
            per_area.setdefault(mark.area, []).append((li, mi, ml, mark))
    for area, items in per_area.items():
        at_area = list(stacks.get(area, ()))
        added: list[Box] = []
        for li, mi, ml, mark in sorted(items, key=lambda t: t[3].dy != 0):
            parts = _mark_parts(ml, mark, style)
            if mark.dy == 0:
                oy = 0.0
            else:
                r = parts[0].bottom
                left, right = mark.dx + min(b.left for b in parts), mark.dx + max(b.right for b in parts)
                under = [b for b in at_area if b.left < right and left < b.right]  # what it would stand on
                top = min((b.top for b in under), default=0.0)
                bottom = max((b.bottom for b in under), default=0.0)
                gap = max(abs(mark.dy), r + 1)
                if mark.dy > 0:  # above: clear every part of the mark (its text may stand above the marker)
                    oy = top - gap - max(0.0, max(b.bottom for b in parts) - r)
                else:
                    oy = bottom + gap + max(0.0, -min(b.top for b in parts) - r)
            offsets[(li, mi)] = (mark.dx, oy)
            moved = [b.moved(mark.dx, oy) for b in parts]
            at_area += moved
            added += moved
        boxes[area] = added
    return offsets, boxes


#: Pixels a step's marks with a text over them keep below the map's top edge (their boxes' tops), where plotly
#: clips their text. At the size the map was laid out for their boxes are where plotly.js draws them (none
#: needed); but a page or a notebook may draw the figure smaller (the exported page at 1280x720 at about 0.6
#: of the size it was laid out for), while a text over its marker keeps its size in pixels: a fight's odds
#: over its star reach 28.6 px above the star's centre (``point_text_box``), inside the map at 0.6 when the
#: star sits 48 px below its edge there, its text's top 19 px.
MARK_TOP_ROOM = 19.0


#: Above this share of the map's pixels covered by its full names (a small figure of a map with many long
#: names: Medieval's at 1500x750 is 0.42, at its 1600x1000 default 0.26, Vespers' at 1200x560 0.20), names
#: are written short: without their bracketed part ("England (South-East)" -> "England").
SHORT_NAMES_ABOVE = 0.3
#: Names of each kind, in the order they are placed (land first: at a small size seas lose theirs first).
_RANK = {"land": 0, "sea": 1, "context": 2}


def _short_name(place: Place) -> str:
    """An area's name without its bracketed part, wrapped as the map writes names ("" if it has none)."""
    name = place.name
    if "(" not in name or not name.split("(")[0].strip():
        return ""
    wrap = getattr(basemap, "_wrap", None)
    head = plain(name.split("(")[0].strip())
    return wrap(head) if callable(wrap) else head


def _name_variants(places: Mapping[str, Place], style: StateStyle, frame: MapFrame) -> dict[str, tuple[str, ...]]:
    """The names each labelled area may carry, in the order the placement tries them: its name as the map
    writes it (or short, on a crowded small map), its short name, none ("")."""
    full = {a: pl.label or plain(pl.name) for a, pl in places.items() if pl.kind in LABELLED_KINDS}
    w, h = frame.size_px
    cover = sum(math.prod(text_size(t, _label_size(places[a].kind, style))) for a, t in full.items())
    short_first = w > 0 and h > 0 and cover / (w * h) > SHORT_NAMES_ABOVE
    out = {}
    for a, text in full.items():
        short = _short_name(places[a])
        first = short if short_first and short else text
        out[a] = tuple(dict.fromkeys((first, short or first, "")))
    return out


def _clusters(p: Portrayal, places: Mapping[str, Place], style: StateStyle, rows: Mapping[tuple[int, int], int],
              names: Mapping[str, tuple[str, ...]]) -> list[Cluster]:
    """Each named or badged area's name (and the shorter ones it may carry) with its badges stacked under it."""
    badges: dict[str, list[tuple[int, str]]] = {}
    for gi, group in enumerate(p.badges):
        for bi, badge in enumerate(group.badges):
            badges.setdefault(badge.area, []).append((rows[(gi, bi)], badge.text))
    clusters = []
    for a, pl in places.items():
        drawn = a in names
        if not drawn and a not in badges:
            continue
        size = _label_size(pl.kind, style)
        variants = [(*text_size(t, size), t.count("<br>") + 1) if t else (0.0, 0.0, 0) for t in names.get(a, ())]
        w, h, lines = variants[0] if variants else (0.0, 0.0, 0)
        stack = tuple(text_size(t, style.badge_size) for _, t in sorted(badges.get(a, [])))
        clusters.append(Cluster(a, pl.lon, pl.lat, (w, h), lines, size, stack,
                                fallbacks=tuple(variants[1:]), rank=_RANK.get(pl.kind, 3)))
    return clusters


def _placement(p: Portrayal, places: Mapping[str, Place], style: StateStyle, frame: MapFrame,
               rows: Mapping[tuple[int, int], int], fixed: tuple[Box, ...] = (),
               names: Mapping[str, tuple[str, ...]] | None = None
               ) -> tuple[dict[str, Placed], dict[str, Placed], dict[tuple[int, int], tuple[float, float]], MoveEnds]:
    """Where each area's name and badges go so that none overlaps another (``medviz.viz.placement``), which
    of its ``names`` each area carries (``Placed.label``); where the moves' ends are drawn (off the names and
    badges, ``_move_ends``); where the marks of each area go (then, around them and off the moves' arrows:
    a step's marks never move a name); and where each mark sits in its area's marks, in pixels from their
    point."""
    names = names if names is not None else _name_variants(places, style, frame)
    clusters = _clusters(p, places, style, rows, names)
    # Names and badges do not step aside for the moves (an arrow starts and ends at label points: every
    # move would push names about, and the exported page would carry each layout, 3.1-3.7 MB instead
    # of 2.7 MB for a whole game); the step's marks keep off them.
    placed = place_clusters(clusters, frame, style.badge_size, fixed)
    taken = tuple(b for c in clusters for b in placed_boxes(c, placed[c.area], frame, style.badge_size)) \
        if p.paths or p.marks else ()
    ends = _move_ends(p, places, frame, taken) if p.paths else {}
    if p.paths:
        fixed = fixed + _path_obstacles(p, places, ends, style, frame)
    offsets: dict[tuple[int, int], tuple[float, float]] = {}
    marks_at: dict[str, Placed] = {}
    if p.marks:
        # Marks come and go with the steps: placed after the names and badges, which they never move.
        stacks = {c.area: carried(c, placed[c.area].label).boxes(style.badge_size) for c in clusters}
        offsets, mark_boxes = _mark_offsets(p, places, style, stacks)
        text_above = {m.area for ml in p.marks if "top" in ml.text_position for m in ml.marks if m.text}
        groups = []
        for a, extra in mark_boxes.items():
            at = placed.get(a)
            x, y = (at.x, at.y) if at is not None else (places[a].lon, places[a].lat)
            room = MARK_TOP_ROOM if a in text_above else 0.0
            groups.append(Cluster(a, x, y, (0.0, 0.0), 0, _label_size(places[a].kind, style), (), tuple(extra),
                                  top_room=room))
        marks_at = place_clusters(groups, frame, style.badge_size, fixed + taken)
        marks_at = _marks_over_names(clusters, placed, groups, marks_at, frame, style, fixed)
        placed = _names_under_marks_left_out(clusters, placed, groups, marks_at, frame, style)
    return placed, marks_at, offsets, ends


def _droppable(c: Cluster) -> bool:
    """A name alone that may be left out (its last fallback is no name): the step's marks may cover it."""
    return not c.badges and bool(c.fallbacks) and c.fallbacks[-1][0] <= 0


def _marks_over_names(clusters: list[Cluster], placed: Mapping[str, Placed], groups: list[Cluster],
                      marks_at: dict[str, Placed], frame: MapFrame, style: StateStyle, fixed: tuple[Box, ...]) -> dict[str, Placed]:
    """The marks that found no free spot (``Placed.crowded``) placed again over names alone, which are then left
    out (``_names_under_marks_left_out``), rather than sitting on a city, a badge, a move or another mark."""
    stuck = [g for g in groups if marks_at[g.area].crowded]
    if not stuck:
        return marks_at
    bs = style.badge_size
    kept = tuple(b for c in clusters if not _droppable(c) for b in placed_boxes(c, placed[c.area], frame, bs))
    others = tuple(b for g in groups if g not in stuck for b in placed_boxes(g, marks_at[g.area], frame, bs))
    again = place_clusters(stuck, frame, bs, fixed + kept + others)
    # where even so none is free, the first placement (names kept) stands
    return {**marks_at, **{a: at for a, at in again.items() if not at.crowded}}


def _names_under_marks_left_out(clusters: list[Cluster], placed: dict[str, Placed], groups: list[Cluster],
                                marks_at: Mapping[str, Placed], frame: MapFrame, style: StateStyle) -> dict[str, Placed]:
    """Where a step's marks found no free spot (a small, crowded map), the names alone under them are left out:
    the step's news comes before a name (whose area's hover still says it)."""
    marked = [b for g in groups for b in placed_boxes(g, marks_at[g.area], frame, style.badge_size)]
    out = placed
    for c in clusters:
        at = placed[c.area]
        if c.badges or not c.fallbacks or c.fallbacks[-1][0] > 0 or at.label == len(c.fallbacks):
            continue
        if any(b.intersects(m) for b in placed_boxes(c, at, frame, style.badge_size) for m in marked):
            out = dict(out) if out is placed else out
            out[c.area] = dataclasses.replace(at, label=len(c.fallbacks), leader=None)
    return out


def _plan_badges(p: Portrayal, places: Mapping[str, Place], style: StateStyle, placed: Mapping[str, Placed],
                 rows: Mapping[tuple[int, int], int], names: Mapping[str, tuple[str, ...]]) -> dict[str, dict[str, Any]]:
    out = {}
    for gi, group in enumerate(p.badges):
        b: dict[str, list[Any]] = {"x": [], "y": [], "text": [], "marker.size": [], "hovertext": []}
        for bi, badge in enumerate(group.badges):
            place = places[badge.area]
            at = placed[badge.area]
            b["x"].append(round(at.x, 4))
            b["y"].append(round(at.y, 4))
            b["text"].append(badge.text)
            name = names[badge.area][at.label] if badge.area in names else ""
            lines = name.count("<br>") + 1 if name else 0
            top = badge_top(lines, _label_size(place.kind, style), style.badge_size, rows[(gi, bi)])
            b["marker.size"].append(round(marker_for_top(top, style.badge_size), 2))
            b["hovertext"].append(badge.hover)
        out[group.id] = {**b, "visible": bool(b["x"])}
    return out


#: The ink of a land area's name moved off its own fill (onto the sea or a neighbour).
AWAY_INK = "#2b2118"


def _plan_labels(places: Mapping[str, Place], placed: Mapping[str, Placed], fills: Mapping[str, AreaFill],
                 spills: frozenset[str], names: Mapping[str, tuple[str, ...]],
                 marks_at: Mapping[str, Placed]) -> dict[str, dict[str, Any]]:
    """The names' texts and positions (one trace per kind of area), land names' colours, and the leader
    lines (to names and badges, then to marks)."""
    out: dict[str, dict[str, Any]] = {}
    for kind in LABELLED_KINDS:
        xs, ys, inks, texts = [], [], [], []
        italic = kind in ITALIC_KINDS
        for a, pl in places.items():
            if pl.kind == kind:
                at = placed.get(a)
                xs.append(round(at.x, 4) if at else pl.lon)
                ys.append(round(at.y, 4) if at else pl.lat)
                name = names[a][at.label if at else 0]
                texts.append(f"<i>{name}</i>" if italic and name else name)
                if kind == "land":
                    away = a in spills or (at is not None and at.away)
                    inks.append(AWAY_INK if away else fills[a].label_colour)
        if xs:
            if kind != "land":  # the base map's colour (sent with the rest, so the three traces share one message)
                inks = [MapStyle.sea_label if kind == "sea" else MapStyle.context_label] * len(xs)
            out[f"labels:{kind}"] = {"x": xs, "y": ys, "text": texts, "textfont.color": inks}
    lx: list[float | None] = []
    ly: list[float | None] = []
    for at in [*(placed.get(a) for a in places), *(marks_at.get(a) for a in places)]:
        if at is not None and at.leader is not None:
            x0, y0, x1, y1 = at.leader
            lx += [round(x0, 4), round(x1, 4), None]
            ly += [round(y0, 4), round(y1, 4), None]
    out["leaders"] = {"x": lx, "y": ly, "visible": bool(lx)}
    return out


def _plan_overlays(p: Portrayal, places: Mapping[str, Place], style: StateStyle, frame: MapFrame,
                   placed: Mapping[str, Placed], offsets: Mapping[tuple[int, int], tuple[float, float]],
                   ends: MoveEnds) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    halo: dict[str, list[Any]] = {"x": [], "y": []}
    for li, layer in enumerate(p.paths):
        m: dict[str, list[Any]] = {"x": [], "y": [], "symbol": [], "hover": []}
        for pi, path in enumerate(layer.paths):
            for j, a in enumerate(path.areas):
                place = _place(a, places, f"path layer {layer.id!r}")
                end = ends.get((li, pi, j))  # drawn back off a name, or at the label point
                x, y = (round(v, 4) for v in frame.to_data(*end)) if end is not None else (place.lon, place.lat)
                m["x"].append(x)
                m["y"].append(y)
                m["symbol"].append("circle" if j == 0 else "arrow")
                m["hover"].append(path.hover)
            m["x"].append(None)
            m["y"].append(None)
            m["symbol"].append("circle")
            m["hover"].append("")
        halo["x"] += m["x"]
        halo["y"] += m["y"]
        out[layer.id] = {"x": m["x"], "y": m["y"], "marker.symbol": m["symbol"], "hovertext": m["hover"],
                         "visible": bool(m["x"])}
    if p.paths:
        out["moves-halo"] = {"x": halo["x"], "y": halo["y"], "visible": bool(halo["x"])}
    dx, dy = 1 / frame.px_x, 1 / frame.px_y  # data units per pixel
    for li, ml in enumerate(p.marks):
        props: dict[str, list[Any]] = {"x": [], "y": [], "text": [], "hovertext": []}
        if ml.own_colours:
            props["marker.color"] = []
        if ml.own_symbols:
            props["marker.symbol"] = []
        if ml.clickable:
            props["customdata"] = []
        for n, mark in enumerate(ml.marks):
            place = _place(mark.area, places, f"mark layer {ml.id!r}")
            # a mark goes where the placement put its area's marks (by its name and badges), at its place among them
            at = placed.get(mark.area)
            x0, y0 = (at.x, at.y) if at is not None else (place.lon, place.lat)
            ox, oy = offsets.get((li, n), (mark.dx, 0.0))
            props["x"].append(round(x0 + ox * dx, 4))
            props["y"].append(round(y0 - oy * dy, 4))
            props["text"].append(mark.text)
            props["hovertext"].append(mark.hover)
            if ml.own_colours:
                props["marker.color"].append(mark.colour or ml.colour)
            if ml.own_symbols:
                props["marker.symbol"].append(mark.symbol or ml.symbol)
            if ml.clickable:
                props["customdata"].append([n if mark.ref is None else mark.ref, mark.area, mark.roll or ""])
        out[ml.id] = {**props, "visible": bool(props["x"])}
    return out


def plan_view(view: Any, places: Mapping[str, Place], style: StateStyle = DEFAULT_STATE_STYLE,
              ruleset: Ruleset | None = None, space: MapSpace | None = None) -> Plan:
    """What every changing part of a state map shows for ``view`` (pure; no figure needed).

    ``space`` is how the figure's map falls on its pixels, with the boxes names and badges must
    keep off (city names) — where they are placed so that none overlaps another; default: an
    estimate from the label points and ``style``'s size.
    """
    return _plan_portrayal(portrayal_of(view, places, style, ruleset), places, style, space)


def _check_layer_ids(p: Portrayal) -> None:
    """Each of a portrayal's layers (badge groups, paths, marks) has an id of its own, none of the drawer's."""
    seen: set[str] = set()
    for what, ids in (("badge group", [g.id for g in p.badges]), ("path layer", [layer.id for layer in p.paths]),
                      ("mark layer", [ml.id for ml in p.marks])):
        for i in ids:
            if i in RESERVED_LAYERS:
                raise MalformedInput(f"the portrayal's {what} {i!r} takes a name the state map uses for its own "
                                     f"traces ({', '.join(sorted(RESERVED_LAYERS))}): rename the layer")
            if i in seen:
                raise MalformedInput(f"the portrayal has two layers named {i!r} (badge groups, paths and marks "
                                     f"need ids of their own)")
            seen.add(i)


def _plan_portrayal(p: Portrayal, places: Mapping[str, Place], style: StateStyle, space: MapSpace | None) -> Plan:
    fills = {}
    for a, pl in places.items():
        if pl.kind == "land":
            fills[a] = p.fills.get(a) or AreaFill(style.uncontrolled, hover=plain(pl.name))
    unknown = sorted(a for a in p.fills if a not in places)
    if unknown:
        raise UnknownReference(f"the portrayal fills areas not on the map: {', '.join(unknown)}")
    _check_layer_ids(p)
    rows = _badge_rows(p, places)
    space = space or MapSpace(default_frame(places, style))
    names = _name_variants(places, style, space.frame)
    placed, marks_at, offsets, ends = _placement(p, places, style, space.frame, rows, space.fixed, names)
    overlays = {**_plan_labels(places, placed, fills, space.spills, names, marks_at),
                **_plan_overlays(p, places, style, space.frame, marks_at, offsets, ends)}
    return Plan(fills, _plan_badges(p, places, style, placed, rows, names), overlays,
                {box.id: box.text for box in p.panel}, p.title, p.subtitle, p)


# ------------------------------------------------------------------------------------------
# Drawing
# ------------------------------------------------------------------------------------------
#: A white outline around dark text, so it reads on any fill.
HALO = "1px 1px 1px #ffffff, -1px -1px 1px #ffffff, 1px -1px 1px #ffffff, -1px 1px 1px #ffffff"


def _outline(colour: str, width: int = 2) -> str:
    """A CSS text-shadow that draws a solid ``colour`` outline ``width`` px around the glyphs."""
    steps = [(dx, dy) for dx in range(-width, width + 1) for dy in range(-width, width + 1) if (dx, dy) != (0, 0)]
    return ", ".join(f"{dx}px {dy}px 0 {colour}" for dx, dy in steps)


def _badge_traces(p: Portrayal, style: StateStyle) -> list[go.Scatter]:
    """One text trace per badge group (white or dark text on a solid outline in the group's colour)."""
    out = []
    for g in p.badges:
        text_colour = g.text_colour or contrast_text(g.colour, "#1b1b1b")
        out.append(go.Scatter(
            x=[], y=[], mode="markers+text", name=g.id, uid=g.id, showlegend=False, meta={"layer": g.id},
            marker={"size": [], "color": "rgba(0,0,0,0)", "opacity": 0, "line": {"width": 0}},
            text=[], textposition="bottom center", hovertext=[], hoverinfo="text",
            textfont={"family": style.font_family, "size": style.badge_size, "color": text_colour,
                      "shadow": _outline(g.colour, 3) + (f", 0 0 1px {g.accent}" if g.accent else "")}))
    return out


def _path_traces(p: Portrayal, style: StateStyle) -> list[go.Scatter]:
    if not p.paths:
        return []
    traces = [go.Scatter(x=[], y=[], mode="lines", uid="moves-halo", name="moves-halo", showlegend=False, meta={"layer": "moves-halo"},
                         line={"color": "rgba(255,255,255,0.85)", "width": style.move_width + 4}, hoverinfo="skip")]
    for layer in p.paths:
        traces.append(go.Scatter(
            x=[], y=[], mode="lines+markers", uid=layer.id, name=layer.id, showlegend=False, meta={"layer": layer.id},
            line={"width": style.move_width, "color": layer.colour},
            marker={"symbol": [], "size": PATH_MARKER, "angleref": "previous", "color": layer.colour,
                    "line": {"color": "#ffffff", "width": PATH_MARKER_OUTLINE}},
            hovertext=[], hoverinfo="text"))
    return traces


def _mark_traces(p: Portrayal, style: StateStyle) -> list[go.Scatter]:
    font = {"family": style.font_family, "size": style.badge_size + 2}
    out = []
    for ml in p.marks:
        extra: dict[str, Any] = {"customdata": []} if ml.clickable else {}
        out.append(go.Scatter(
            x=[], y=[], mode="markers+text", uid=ml.id, name=ml.id, showlegend=False, meta={"layer": ml.id},
            marker={"symbol": [] if ml.own_symbols else ml.symbol, "size": ml.size,
                    "color": [] if ml.own_colours else ml.colour, "line": {"color": "#ffffff", "width": ml.outline}},
            text=[], textposition=ml.text_position, textfont={**font, "color": ml.text_colour, "shadow": HALO},
            hovertext=[], hoverinfo="text", **extra))
    return out


def _legend_traces(p: Portrayal, style: StateStyle) -> list[go.Scatter]:
    """The portrayal's legend entries as swatches (the same for every view of a game)."""
    out: list[go.Scatter] = []
    for e in p.legend:
        shape = e.pattern
        out.append(go.Scatter(
            x=[None], y=[None], mode="lines", fill="toself", fillcolor=e.colour, name=e.label,
            line={"color": style.land_border, "width": 1},
            fillpattern={"shape": shape, "fgcolor": e.pattern_colour, "bgcolor": e.colour, "size": 6,
                         "solidity": 0.5 if shape == "/" else 0.3} if shape else None,
            showlegend=True, hoverinfo="skip", legendgroup="control", uid=f"legend-{len(out)}"))
    return out


#: The base map's traces a plan moves (its names); every other changing trace is a layer (``meta["layer"]``).
BASE_OVERLAYS = frozenset(f"labels:{kind}" for kind in LABELLED_KINDS)
#: Plan keys of the drawer's own traces: no portrayal layer may take them.
RESERVED_LAYERS = BASE_OVERLAYS | {"leaders", "moves-halo"}


def _moves_under_names(fig: go.Figure, layers: set[str]) -> None:
    """Draw the moves under the names, cities and badges (their arrowheads stop short of the names,
    ``_move_ends``; a line that crosses a name runs under its letters)."""
    data = list(fig.data)
    moves = [tr for tr in data if isinstance(tr.meta, Mapping) and tr.meta.get("layer") in layers]
    first = next((i for i, tr in enumerate(data) if tr.name in BASE_OVERLAYS), None)
    if not moves or first is None:
        return
    ids = {id(tr) for tr in moves}
    rest = [tr for tr in data if id(tr) not in ids]
    fig.data = (*rest[:first], *moves, *rest[first:])


def _own_uids(fig: go.Figure) -> None:
    """Give each layer trace a uid no other trace has: a layer is found by its ``meta["layer"]``, and a
    layer named like a base map trace (Empire's Revolt's city marks, "cities") must not take the base
    trace's uid (plotly.js and the widget tell traces apart by uid)."""
    taken = {str(tr.uid) for tr in fig.data if tr.uid and not (isinstance(tr.meta, Mapping) and "layer" in tr.meta)}
    for tr in fig.data:
        if isinstance(tr.meta, Mapping) and "layer" in tr.meta:
            uid, n = str(tr.uid), 1
            while uid in taken:
                n += 1
                uid = f"layer-{tr.meta['layer']}" + (f"-{n}" if n > 2 else "")
            tr.uid = uid
            taken.add(uid)


def _apply_overlay(trace: Any, props: Mapping[str, Any]) -> None:
    for key, value in props.items():
        if key == "marker.symbol":
            trace.marker.symbol = value
        elif key == "marker.size":
            trace.marker.size = value
        elif key == "marker.color":
            trace.marker.color = value
        elif key == "textfont.color":
            trace.textfont.color = value
        else:
            trace[key] = value


def _fill_props(f: AreaFill, style: StateStyle) -> dict[str, Any]:
    return {"fillcolor": f.colour,
            "fillpattern": {"shape": f.pattern, "fgcolor": f.pattern_colour or f.colour, "bgcolor": f.colour,
                            "size": style.pattern_size, "solidity": 0.5 if f.pattern == "/" else 0.18}}


def state_map(view: Any, geo: Any = None, *, style: StateStyle = DEFAULT_STATE_STYLE,
              width: int | None = None, height: int | None = None, ruleset: Ruleset | None = None,
              fit_height: bool = False) -> go.Figure:
    """Draw a game's view (or a ``Portrayal``) over its base map: fills, badges, overlays, panel, legend.

    ``ruleset`` portrays the view (default: the ruleset named by the view's ``game``); ``geo`` is
    the map (default: the one the portrayal names, ``medviz.geo.load``). ``fit_height``: ``height``
    is the most the figure takes; a map wide for its height (Empire's Revolt's Mediterranean) gets a
    figure only as tall as the map at its width, the key under it and the side panel need, no blank
    band under the map. In a notebook the figure shows without plotly's mode bar (``MapFigure``).
    """
    if fit_height:
        fig = state_map(view, geo, style=style, width=width, height=height, ruleset=ruleset)
        need = fitted_height(fig, style)
        if need < (height or style.height) - 4:
            fig = state_map(view, geo, style=style, width=width, height=need, ruleset=ruleset)
        return fig
    rs = _ruleset_for(view, ruleset)
    geo = _geo(_map_of(view, rs)) if geo is None else geo
    places = places_of_map(geo)
    w, h = width or style.width, height or style.height
    style = dataclasses.replace(style, map_domain=_map_share(geo, w, h, style))
    p = portrayal_of(view, places, style, rs)
    style = dataclasses.replace(style, map_domain=_panel_share(p, w, style))
    map_style = MapStyle(sea_palette=style.sea_fills, background=style.background, land_border=style.land_border,
                         font_family=style.font_family, land_label_size=style.label_size)
    fig = base_map(geo, style=map_style, width=w, height=h, merge_fixed=True)
    # The title first: on two lines it takes a taller top margin, which the map's frame (placement) must know.
    fit = _title_fit(p, w, dataclasses.replace(style, width=w, height=h))
    fig.update_layout(margin={**MARGIN, "t": fit["margin"]})
    fig.update_xaxes(domain=[0, style.map_domain])
    bottom = _map_bottom(fig, w, h, style, p)
    fig.update_yaxes(domain=[bottom, 1.0], constraintoward="top")
    # A map held by the height (a figure wide for its height: an app at 1920x1080 under its controls) takes only the
    # width it is drawn at, from the left; the side panel starts right of it (plotly.js centred the map in its share,
    # leaving a blank band on each side).
    style = dataclasses.replace(style, map_domain=_drawn_share(fig, w, h, style, bottom))
    fig.update_xaxes(domain=[0, style.map_domain], constraintoward="left")
    legend = {"x": style.map_domain + 0.01, "y": _panel_layout(p, style, h)["legend"], "xanchor": "left",
              "maxheight": legend_room_px(p, style, h), "yanchor": "top", "bgcolor": "rgba(0,0,0,0)",
              "font": {"size": style.panel_size - 1, "family": style.font_family},
              "title": {"text": p.legend_title}, "itemclick": False, "itemdoubleclick": False,
              "tracegroupgap": 2}
    frame = frame_of_figure({"layout": {**fig.layout.to_plotly_json(), "showlegend": legend_fits(p, style, h), "legend": legend},
                             "data": [{"name": e.label, "showlegend": True} for e in p.legend]})
    cities = next((tr for tr in fig.data if tr.name == "cities"), None)
    space = MapSpace(frame, city_boxes(cities.to_plotly_json(), frame) if cities is not None else (),
                     _spilling_names(geo, places, frame, style))
    plan = _plan_portrayal(p, places, style, space)
    idx = area_traces(fig)
    land = [a for a, pl in places.items() if pl.kind == "land"]
    for a in land:
        tr = fig.data[idx[a]]
        tr.update(_fill_props(plan.fills[a], style))
        tr.text = plan.fills[a].hover
        tr.line.width = 1.0
    labels = _label_trace(fig)
    if labels is not None:
        labels.textfont.shadow = "none"
    for tr in fig.data:
        if getattr(tr, "name", None) == "cities":
            tr.textfont.shadow = HALO
    fig.add_traces(_legend_traces(p, style))
    fig.add_traces(_path_traces(p, style))
    fig.add_trace(go.Scatter(x=[], y=[], mode="lines", name="leaders", uid="leaders", showlegend=False, meta={"layer": "leaders"},
                             line={"color": "#3b2f22", "width": 1}, hoverinfo="skip"))
    fig.add_traces(_badge_traces(p, style))
    fig.add_traces(_mark_traces(p, style))
    _moves_under_names(fig, {"moves-halo", *(layer.id for layer in p.paths)})
    _own_uids(fig)
    for tr in fig.data:
        m = tr.meta
        key = m.get("layer") if isinstance(m, Mapping) and "layer" in m else tr.name if tr.name in BASE_OVERLAYS else None
        props = plan.overlays.get(key) or plan.badges.get(key) if key is not None else None
        if props is not None:
            _apply_overlay(tr, props)
    fig.update_layout(
        title={"text": fit["text"], "x": TITLE_X, "xanchor": "left", "y": fit["y"], "yanchor": "top",
               "font": {"size": fit["size"], "color": "#2b2118", "family": style.font_family}},
        margin={**MARGIN, "t": fit["margin"]},
        paper_bgcolor=style.panel_background,
        annotations=_panel_annotations(p, style, w, h),
        showlegend=legend_fits(p, style, h),
        legend=legend,
        meta={"medviz": "state_map", "map_domain": style.map_domain, "width": w, "panel_px": panel_tops_px(style, p),
              "vertical_margin": VERTICAL_MARGIN, "game": rs.game if rs is not None else None,
              "clickable": [ml.id for ml in p.marks if ml.clickable],
              "frame": [frame.x0, frame.x1, frame.y0, frame.y1, frame.px_x, frame.px_y],
              "spills": sorted(space.spills),
              "places": {a: [pl.lon, pl.lat, pl.kind, pl.lines, pl.name, pl.label] for a, pl in places.items()}},
    )
    for ann in fig.layout.annotations:
        if ann.name == "panel-key":
            ann.y = bottom - 0.008
    facts = _facts_of(fig)
    facts.ruleset = rs
    facts.last_view, facts.last_plan = view, plan
    facts.space = space
    fig.__class__ = MapFigure  # (the same figure: only how a notebook shows it differs)
    return fig


class MapFigure(go.Figure):  # type: ignore[misc]  # plotly has no type hints
    """A state map's figure: a notebook shows it without plotly's mode bar, which would sit over the map's title
    (as the apps' maps and the exported page have none). Everything else is ``go.Figure``'s."""

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None, validate: bool = True, **kwargs: Any) -> Any:
        config = {"displayModeBar": False, "displaylogo": False, **(kwargs.pop("config", None) or {})}
        return super()._repr_mimebundle_(include, exclude, validate, config=config, **kwargs)

    def _ipython_display_(self) -> None:
        import plotly.io as pio

        if pio.renderers.render_on_display and pio.renderers.default:
            pio.show(self, config={"displayModeBar": False, "displaylogo": False})
        else:
            print(repr(self))


def fitted_height(fig: Any, style: StateStyle = DEFAULT_STATE_STYLE) -> int:
    """The height (px) a state map needs at its width: its title, the map (as wide as its share of the width
    allows), the key under it, and the side panel with its legend, whichever is taller."""
    facts = _facts_of(fig)
    plan = facts.last_plan
    if facts.space is None or plan is None or plan.portrayal is None:
        return int(fig.layout.height or style.height)
    p = plan.portrayal
    width = int(fig.layout.width or (fig.layout.meta or {}).get("width") or style.width)
    frame = facts.space.frame
    key = _key_lines(width, p) * (style.panel_size * 1.35) + 10
    top, bottom = float(fig.layout.margin.t or 0), float(fig.layout.margin.b or 0)
    by_map = top + bottom + (frame.y1 - frame.y0) * frame.px_y + key
    legend = (len(p.legend) + (1 if p.legend_title else 0)) * LEGEND_ROW_PX + 10 if p.legend else 0
    by_panel = VERTICAL_MARGIN + panel_tops_px(style, p)["legend"] + legend
    return math.ceil(max(by_map, by_panel, 250))


def shown_portrayal(fig: Any) -> Portrayal | None:
    """The portrayal a state map shows now (after ``state_map`` or its last ``update_state_map``)."""
    plan = _facts_of(fig).last_plan
    return plan.portrayal if plan is not None else None


def placed_text_boxes(fig: Any, style: StateStyle = DEFAULT_STATE_STYLE) -> dict[tuple[str, int], Box]:
    """Where the placement expects plotly.js to draw each name and badge the figure shows now: the box of
    the text of point ``i`` of trace ``name`` (``labels:land``, a badge group), in pixels from the map's top
    left corner (a badge's glyphs, without their outline). ``style``: the one the figure was drawn with."""
    facts = _facts_of(fig)
    plan, space, places = facts.last_plan, facts.space, facts.places
    if plan is None or plan.portrayal is None or space is None:
        return {}
    p = plan.portrayal
    style = dataclasses.replace(style, map_domain=facts.map_domain)
    rows = _badge_rows(p, places)
    names = _name_variants(places, style, space.frame)
    placed = _placement(p, places, style, space.frame, rows, space.fixed, names)[0]
    stacks = {}
    for c in _clusters(p, places, style, rows, names):
        at = placed[c.area]
        shown = carried(c, at.label)
        boxes = placed_boxes(c, at, space.frame, style.badge_size)
        stacks[c.area] = (boxes[0] if shown.label[0] > 0 else None, boxes[1 if shown.label[0] > 0 else 0:])
    out: dict[tuple[str, int], Box] = {}
    for kind in LABELLED_KINDS:
        for i, a in enumerate(a for a, pl in places.items() if pl.kind == kind):
            name = stacks[a][0] if a in stacks else None
            if name is not None:
                out[(f"labels:{kind}", i)] = name
    o = BADGE_OUTLINE
    for gi, group in enumerate(p.badges):
        for bi, badge in enumerate(group.badges):
            b = stacks[badge.area][1][rows[(gi, bi)]]
            out[(group.id, bi)] = Box(b.left + o, b.top + o, b.right - o, b.bottom - o)
    return out


def _map_share(geo: Any, width: int, height: int, style: StateStyle) -> float:
    """The share of the width the map takes: enough to fill the height, at most ``style.map_domain``."""
    try:
        x0, y0, x1, y1 = (float(v) for v in geo.total_bounds)
    except (AttributeError, TypeError, ValueError):
        return style.map_domain
    ratio = (y1 - y0) / math.cos(math.radians(TRUE_SCALE_LAT)) / (x1 - x0)
    ideal = (height - 50) * 0.955 / ratio / (width - 12)
    return round(max(min(0.78, style.map_domain), min(style.map_domain, ideal)), 3)


def _panel_share(p: Portrayal, width: int, style: StateStyle) -> float:
    """The map's share of the width, made smaller where the side panel's widest boxed line would not fit
    its box (the box's words were cut at its edge: Empire's Revolt's stocks on a map 1,100 px wide)."""
    need = max((text_size(box.text, style.panel_size + box.size)[0] for box in p.panel if box.colour), default=0.0)
    if not need:
        return style.map_domain
    room = panel_share_for(width, need - PANEL_TEXT_SLACK)
    return max(0.5, min(style.map_domain, room))


#: Pixels ``text_size`` estimates a boxed panel line's short words too wide (Vespers' boxes fit at 1,200 px as drawn).
PANEL_TEXT_SLACK = 8.0
#: Pixels between a boxed panel line's border and the figure's right edge (a responsive map drawn up to
#: ``apps.common.WIDTH_STEP`` px narrower than planned moves it a fifth of that nearer the edge).
PANEL_RIGHT_PX = 10.0
#: A boxed panel line's padding and border (pixels on each side: its ``borderpad`` and ``borderwidth``).
PANEL_BOX_PAD, PANEL_BOX_BORDER = 6, 2
#: The panel starts this share of the figure's width right of the map's.
PANEL_GAP = 0.012


def panel_box_width(width: float, map_domain: float) -> int:
    """The width (px, plotly's annotation ``width``) of a boxed panel line in a figure ``width`` px wide whose
    map takes ``map_domain`` of it: with its padding and border the box ends ``PANEL_RIGHT_PX`` inside the
    figure's right edge, at any width (it was 36 px less than the panel's share: at 1,920 px, 2 px from the edge)."""
    inner = width - MARGIN["l"] - MARGIN["r"]
    left = MARGIN["l"] + inner * (map_domain + PANEL_GAP)
    return int(width - PANEL_RIGHT_PX - left - 2 * (PANEL_BOX_PAD + PANEL_BOX_BORDER))


def panel_share_for(width: float, text_px: float) -> float:
    """The largest map share (to 0.001) that leaves a boxed panel line ``text_px`` px of words (``panel_box_width``)."""
    inner = width - MARGIN["l"] - MARGIN["r"]
    room = (width - PANEL_RIGHT_PX - MARGIN["l"] - 2 * (PANEL_BOX_PAD + PANEL_BOX_BORDER) - text_px) / max(1.0, inner) - PANEL_GAP
    return math.floor(room * 1000) / 1000


def _map_bottom(fig: go.Figure, width: int, height: int, style: StateStyle, p: Portrayal, top: float | None = None) -> float:
    """Where the map's y domain starts so that it ends just below the drawn map (room for the key); ``top``:
    the top margin, if not the figure's."""
    plot_h0 = max(200, height - 50)
    key_room = (_key_lines(width, p) * (style.panel_size * 1.35) + 10) / plot_h0
    try:
        x0, x1 = fig.layout.xaxis.range
        y0, y1 = fig.layout.yaxis.range
        ratio = float(fig.layout.yaxis.scaleratio or 1)
    except (TypeError, ValueError):
        return key_room
    margin = fig.layout.margin
    plot_w = (width - (margin.l or 0) - (margin.r or 0)) * style.map_domain
    plot_h = height - (margin.t or 0 if top is None else top) - (margin.b or 0)
    map_h = plot_w * (y1 - y0) * ratio / (x1 - x0)
    share = map_h / plot_h if plot_h > 0 else 1.0
    return max(key_room, min(0.5, 1.0 - share))


#: Pixels a responsive figure may be drawn narrower than it was planned for (an app lays it out again beyond
#: ``apps.common.WIDTH_STEP``): a map held by the height keeps that much spare in its share of the width, so drawn
#: that much narrower it keeps the size its names and badges were placed for.
NARROWER_SPARE_PX = 40


def _drawn_share(fig: go.Figure, width: int, height: int, style: StateStyle, bottom: float) -> float:
    """The map's share of the width: ``style.map_domain``, or less where the map, held by the height of its y domain
    (from ``bottom`` up), is drawn narrower than that (with ``NARROWER_SPARE_PX`` to spare; never under half the
    width: the side panel's boxes stay boxes)."""
    try:
        x0, x1 = fig.layout.xaxis.range
        y0, y1 = fig.layout.yaxis.range
        ratio = float(fig.layout.yaxis.scaleratio or 1)
    except (TypeError, ValueError):
        return style.map_domain
    margin = fig.layout.margin
    inner = float(width - (margin.l or 0) - (margin.r or 0))
    plot_h = float(height - (margin.t or 0) - (margin.b or 0)) * (1.0 - bottom)
    if inner <= 0 or plot_h <= 0:
        return style.map_domain
    drawn = plot_h * float(x1 - x0) / (float(y1 - y0) * ratio) / max(1.0, inner - NARROWER_SPARE_PX)
    return max(0.5, min(style.map_domain, math.ceil(drawn * 1000) / 1000))


def _title_text(plan: Plan | Portrayal) -> str:
    """Title line: the title in bold, then the subtitle (turn, years, phase)."""
    return f"<b>{plan.title}</b>" + (f"   <span style='color:#5b4d3c'>{plan.subtitle}</span>" if plan.subtitle else "")


#: Where the title starts (a share of the figure's width) and how far from the figure's top (one line: a
#: share of its height; two lines: pixels, so both fit above the map, in the top margin).
TITLE_X = 0.008
TITLE_Y = 0.988
TITLE_TOP_PX = 3.0
#: Pixels kept free between the title's end and the figure's right edge.
TITLE_END_PX = 10.0
#: Pixels kept free between a two-line title's last line and the map under it (the top margin grows).
TITLE_GAP_PX = 10.0


def title_room(width: float) -> float:
    """Pixels a title line may take on a state map ``width`` px wide."""
    return width * (1 - TITLE_X) - TITLE_END_PX


def _break_line(words: list[str], size: int, room: float) -> tuple[str, list[str]]:
    """As many of ``words`` as fit on a bold line ``room`` px wide at ``size`` px (at least one), and the
    rest; the line ends after a colon, semicolon or full stop instead where that leaves it half full or more."""
    n = 1
    while n < len(words) and text_size("<b>" + " ".join(words[:n + 1]) + "</b>", size)[0] <= room:
        n += 1
    if n < len(words):
        for k in range(n, 0, -1):
            if words[k - 1][-1:] in ":;." and text_size("<b>" + " ".join(words[:k]) + "</b>", size)[0] >= room / 2:
                n = k
                break
    return " ".join(words[:n]), words[n:]


def _title_fit(plan: Plan | Portrayal, width: float, style: StateStyle) -> dict[str, Any]:
    """The title as it fits the figure's width: ``text``, font ``size``, ``y`` (plotly's ``layout.title``).

    On one line at the title's size if it fits, else at a smaller size down to the subtitle's; else on
    two lines at the subtitle's size (the title, then the subtitle; a title alone broken between words),
    the second line shortened with "…" only where even that does not fit. Sizes are estimated with
    the placement's text measure (``medviz.viz.placement.text_size``).
    """
    room = title_room(width)
    text = _title_text(plan)
    for size in range(style.title_size, style.subtitle_size - 1, -1):
        if text_size(text, size)[0] <= room:
            return {"text": text, "size": size, "y": TITLE_Y, "margin": MARGIN["t"]}
    size = style.subtitle_size
    first, rest = _break_line(plan.title.split(" "), size, room)
    lines = [f"<b>{first}</b>"]
    second = " ".join(rest)
    if plan.subtitle:
        second = f"<b>{second}</b>   {plan.subtitle}" if second else plan.subtitle
    elif second:
        second = f"<b>{second}</b>"
    if second:
        if text_size(second, size)[0] > room:  # still too long: cut between words, marked
            words = second.split(" ")
            while len(words) > 1 and text_size(" ".join(words) + " …", size)[0] > room:
                words.pop()
            second = " ".join(words) + " …"
            if second.count("<b>") > second.count("</b>"):
                second += "</b>"
        if plan.subtitle and "<span" not in second and plan.subtitle in second:
            second = second.replace(plan.subtitle, f"<span style='color:#5b4d3c'>{plan.subtitle}</span>")
        lines.append(second)
    # plotly.js anchors a title's first line where a one-line title would be and puts the others under
    # it: "top" of two lines is one line spacing lower than the text's top.
    y = 1 - (TITLE_TOP_PX + LINE_SPACING * size * (len(lines) - 1)) / max(1.0, float(style.height))
    # Two lines take more than the top margin holds: it grows, so the second line keeps clear of the map.
    below = math.ceil(TITLE_TOP_PX + size * (LINE_BOX + LINE_SPACING * (len(lines) - 1)) + TITLE_GAP_PX)
    return {"text": "<br>".join(lines), "size": size, "y": round(y, 5) if len(lines) > 1 else TITLE_Y,
            "margin": max(MARGIN["t"], below) if len(lines) > 1 else MARGIN["t"]}


def _label_trace(fig: Any) -> Any:
    for tr in fig.data:
        if getattr(tr, "name", None) == "labels:land":
            return tr
    return None


def _key_lines(width: int, p: Portrayal) -> int:
    """The key under the map takes one line on wide figures, one per part on narrower ones."""
    if not p.key:
        return 0
    return 1 if width >= 1400 else len(p.key)


#: What parts of the key under the map are joined with on one line (a page may break the line there).
KEY_GAP = "      "

#: The figure's margins in pixels; the side panel is stacked within the height left by top and bottom.
#: A legend wider than the panel widens the right margin (plotly's automargin; the placement's frame
#: estimates it); it never runs below the plot (``maxheight``, or hidden without room for one row).
MARGIN = {"l": 6, "r": 6, "t": 44, "b": 6}
#: Pixels a legend row takes (its title, an entry): a legend with no room for two under the panel is hidden.
LEGEND_ROW_PX = 19
VERTICAL_MARGIN = MARGIN["t"] + MARGIN["b"]


def panel_tops_px(style: StateStyle, p: Portrayal) -> dict[str, float]:
    """Top of each panel box (and of the legend) in pixels below the top of the plot area."""
    y = 6.0
    out = {}
    for box in p.panel:
        out[box.id] = y
        y += box.lines * (style.panel_size + box.size) * 1.35 + (14 if box.colour else 0) + box.gap
    out["legend"] = y
    return out


def legend_fits(p: Portrayal, style: StateStyle, height: int) -> bool:
    """The legend has room under the stacked panel for its title and an entry (else it is hidden: the
    panel's boxes come first; a legend taller than its room scrolls, the margins never grow)."""
    if not p.legend:
        return False
    plot_h = max(200, height - VERTICAL_MARGIN)
    return panel_tops_px(style, p)["legend"] + 2 * LEGEND_ROW_PX <= plot_h


def legend_room_px(p: Portrayal, style: StateStyle, height: int) -> float:
    """Pixels from the legend's top to the bottom of the plot: its ``maxheight`` (a taller legend scrolls)."""
    return max(2 * LEGEND_ROW_PX, max(200, height - VERTICAL_MARGIN) - panel_tops_px(style, p)["legend"])


def _panel_layout(p: Portrayal, style: StateStyle, height: int) -> dict[str, float]:
    """Top of each panel box (and of the legend) in paper coordinates, stacked in pixels.

    The pixel tops are also kept in ``layout.meta["panel_px"]`` so a page that draws the figure at
    another size (the HTML export) can restack the panel without overlaps.
    """
    plot_h = max(200, height - VERTICAL_MARGIN)
    return {name: 1 - px / plot_h for name, px in panel_tops_px(style, p).items()}


def _panel_annotations(p: Portrayal, style: StateStyle, width: int, height: int) -> list[dict[str, Any]]:
    x0 = style.map_domain + PANEL_GAP
    ys = _panel_layout(p, style, height)
    common = {"xref": "paper", "yref": "paper", "x": x0, "xanchor": "left", "yanchor": "top",
              "showarrow": False, "align": "left"}
    out = []
    for box in p.panel:
        ann = {**common, "name": box.id, "y": ys[box.id], "text": box.text}
        if box.colour:
            ann.update({"bgcolor": box.colour, "bordercolor": box.border or "#ffffff", "borderwidth": PANEL_BOX_BORDER,
                        "borderpad": PANEL_BOX_PAD, "width": panel_box_width(width, style.map_domain)})
        colour = box.text_colour or (contrast_text(box.colour) if box.colour else "#2b2118")
        ann["font"] = {"size": style.panel_size + box.size, "color": colour, "family": style.font_family}
        out.append(ann)
    if p.key:
        gap = KEY_GAP if _key_lines(width, p) == 1 else "<br>"
        out.append({**common, "name": "panel-key", "x": 0.005, "y": 0.035, "text": gap.join(p.key),
                    "font": {"size": style.panel_size, "color": "#3b2f22", "family": style.font_family}})
    return out


# ------------------------------------------------------------------------------------------
# Updating: one step, only what changed
# ------------------------------------------------------------------------------------------
def _fill_paths(f: AreaFill, style: StateStyle) -> dict[str, Any]:
    """The fill of an area as restyle paths (``fillpattern.shape`` ...)."""
    return {"fillcolor": f.colour, "fillpattern.shape": f.pattern,
            "fillpattern.fgcolor": f.pattern_colour or f.colour, "fillpattern.bgcolor": f.colour,
            "fillpattern.size": style.pattern_size, "fillpattern.solidity": 0.5 if f.pattern == "/" else 0.18,
            "text": f.hover}


def update_state_map(fig: Any, old_view: Any, new_view: Any, *, style: StateStyle = DEFAULT_STATE_STYLE,
                     ruleset: Ruleset | None = None) -> int:
    """Move a state map from ``old_view`` to ``new_view``; returns how many parts changed.

    Only fill colours and patterns, area hover texts, label colours, badge and overlay traces,
    the title and the panel are touched — never an area outline. Changes go out through
    ``plotly_update`` (what ``batch_update()`` sends when it closes), one call per group of traces
    changing the same properties — a few messages per step on a ``go.FigureWidget``. Values come
    from the planner, which ``state_map`` passes through plotly's validators. ``old_view=None``
    sets everything. ``ruleset`` portrays the views (default: the one the figure was drawn with).
    """
    facts = _facts_of(fig)
    places = facts.places
    style = dataclasses.replace(style, map_domain=facts.map_domain)
    space = facts.space
    if ruleset is None and facts.ruleset is None and not isinstance(new_view, Portrayal):
        facts.ruleset = _ruleset_for(new_view, None, facts.game)
    rs = ruleset or facts.ruleset
    if old_view is None:
        old = Plan()
    elif old_view is facts.last_view and facts.last_plan is not None:
        old = facts.last_plan
    elif (seen := _remembered(facts, old_view, rs, style)) is not None and seen[1] == space:
        old = seen[2]
    else:
        old = plan_view(old_view, places, style, None if isinstance(old_view, Portrayal) else rs, space)
    seen = _remembered(facts, new_view, rs, style)
    portrayal = seen[0] if seen is not None else portrayal_of(new_view, places, style,
                                                              None if isinstance(new_view, Portrayal) else rs)
    relayout: dict[str, Any] = {}
    retitled = (portrayal.title, portrayal.subtitle) != (old.title, old.subtitle)
    if retitled:
        width = fig.layout.width or (meta_w if isinstance(meta_w := (fig.layout.meta or {}).get("width"), (int, float)) else style.width)
        height = fig.layout.height or style.height
        fit = _title_fit(portrayal, width, dataclasses.replace(style, width=int(width), height=int(height)))
        relayout["title.text"] = fit["text"]
        if fig.layout.title.font.size != fit["size"]:
            relayout["title.font.size"] = fit["size"]
        if fig.layout.title.y != fit["y"]:
            relayout["title.y"] = fit["y"]
        if fig.layout.margin.t != fit["margin"]:
            relayout["margin.t"] = fit["margin"]
            if space is not None:  # a title on two lines (or back on one): the map moves, its names are placed again
                space = facts.space = _reframe(fig, facts, portrayal, _map_of(new_view, rs), style, int(width), int(height),
                                               fit["margin"], relayout)
    # A view drawn before in the same space: its plan again (placement is a function of the portrayal and space).
    new = seen[2] if seen is not None and seen[1] == space else _plan_portrayal(portrayal, places, style, space)
    _remember(facts, new_view, rs, style, portrayal, space, new)
    facts.last_view, facts.last_plan = new_view, new
    per_trace: dict[int, dict[str, Any]] = {}
    changed = 0
    fill_changed = [a for a, f in new.fills.items() if old.fills.get(a) != f]
    for a in fill_changed:
        per_trace[facts.areas[a]] = _fill_paths(new.fills[a], style)
        changed += 1
    for new_part, old_part in ((new.overlays, old.overlays), (new.badges, old.badges)):
        for uid, props in new_part.items():
            if props != old_part.get(uid) and uid in facts.traces:
                per_trace[facts.traces[uid]] = dict(props)  # every key, so traces of a kind share a key set
                changed += 1
    if retitled:
        changed += 1
    if new.panel != old.panel:
        if not facts.annotations:
            facts.annotations = {a.name: i for i, a in enumerate(fig.layout.annotations) if a.name}
        for name, text in new.panel.items():
            if text != old.panel.get(name) and name in facts.annotations:
                relayout[f"annotations[{facts.annotations[name]}].text"] = text
                changed += 1
        changed += _restack_panel(fig, facts, new, style, relayout)
    # One plotly_update per set of traces that change the same properties: a message never carries
    # "leave this trace alone" markers, which a FigureWidget's browser model (before a view is
    # shown, or for the next view) would store as the string "_undefined_" (plotly 6/7).
    groups: dict[tuple[str, ...], list[int]] = {}
    for i in sorted(per_trace):
        groups.setdefault(tuple(sorted(per_trace[i])), []).append(i)
    for keys, indexes in groups.items():
        restyle = {k: [per_trace[i][k] for i in indexes] for k in keys}
        fig.plotly_update(restyle_data=restyle, relayout_data=relayout, trace_indexes=indexes)
        relayout = {}
    if relayout:
        fig.plotly_update(restyle_data={}, relayout_data=relayout)
    return changed


def _at_scale(frame: MapFrame, px_x: float) -> MapFrame:
    """``frame``'s map (the same ranges) drawn at ``px_x`` pixels per unit of longitude."""
    return MapFrame(frame.x0, frame.x1, frame.y0, frame.y1, px_x, frame.px_y * px_x / frame.px_x)


def place_at_scale(fig: Any, px_x: float, geo: Any = None) -> None:
    """Place a state map's names, badges and marks again for its map drawn at ``px_x`` pixels per unit of
    longitude, not at the figure's own size (here and in every later ``update_state_map``).

    Where a page draws one figure at several sizes (``medviz.export``: smaller on a projector's 1280x720 than on
    1920x1080), its names and badges are placed for the smallest: a text keeps its size in pixels while the
    distances between the points it hangs from grow with the map, so boxes apart at the smallest scale stay
    apart, and inside the map's edges, at every larger one. ``geo``: the map the figure was drawn from, if
    ``state_map`` was given one. The scale is kept in ``layout.meta`` (``placed_px``, and ``frame``).
    """
    if not px_x > 0:
        raise ValueError(f"place_at_scale needs a positive scale, not {px_x!r} px per unit")
    facts = _facts_of(fig)
    if facts.space is None or facts.last_plan is None:
        raise UnknownReference("this figure has no frame to place its names in (draw it with state_map)")
    style = dataclasses.replace(DEFAULT_STATE_STYLE, map_domain=facts.map_domain)
    frame = _at_scale(facts.space.frame, px_x)
    cities = facts.traces.get("cities")
    geo = _geo(_map_of(facts.last_view, facts.ruleset)) if geo is None else geo
    facts.space = MapSpace(frame, city_boxes(fig.data[cities].to_plotly_json(), frame) if cities is not None else (),
                           _spilling_names(geo, facts.places, frame, style))
    facts.placed_px = px_x
    fig.layout.meta = {**fig.layout.meta, "placed_px": px_x, "frame": [frame.x0, frame.x1, frame.y0, frame.y1, frame.px_x, frame.px_y],
                       "spills": sorted(facts.space.spills)}
    view = facts.last_view
    update_state_map(fig, None, view, ruleset=facts.ruleset)


def _reframe(fig: Any, facts: _FigureFacts, p: Portrayal, map_name: str, style: StateStyle, width: int, height: int,
             top: float, relayout: dict[str, Any]) -> MapSpace:
    """The map's frame, city boxes and spilling names under a top margin of ``top`` px, the map's y domain
    (and the key under it) fitted to it as ``state_map`` fits them; adds those moves to ``relayout``."""
    layout = fig.layout
    bottom = _map_bottom(fig, width, height, style, p, top=top)
    domain = [bottom, 1.0]
    if list(layout.yaxis.domain or ()) != domain:
        relayout["yaxis.domain"] = domain
    for i, ann in enumerate(layout.annotations):
        if ann.name == "panel-key" and ann.y != bottom - 0.008:
            relayout[f"annotations[{i}].y"] = bottom - 0.008
    margin = {k: layout.margin[k] for k in ("l", "r", "t", "b") if layout.margin[k] is not None}
    legend = layout.legend.to_plotly_json()
    frame = frame_of_figure({
        "layout": {"width": width, "height": height, "margin": {**margin, "t": top}, "showlegend": legend_fits(p, style, height),
                   "legend": legend, "xaxis": {"range": list(layout.xaxis.range), "domain": list(layout.xaxis.domain or (0, 1))},
                   "yaxis": {"range": list(layout.yaxis.range), "domain": domain, "scaleratio": layout.yaxis.scaleratio}},
        "data": [{"name": e.label, "showlegend": True} for e in p.legend]})
    if facts.placed_px is not None:  # placed for another drawing of the map (place_at_scale): it keeps that scale
        frame = _at_scale(frame, facts.placed_px)
    cities = facts.traces.get("cities")
    key = (map_name, frame, style)
    if key not in facts.spills:
        if len(facts.spills) >= 16:
            facts.spills.clear()
        facts.spills[key] = _spilling_names(_geo(map_name), facts.places, frame, style)
    return MapSpace(frame, city_boxes(fig.data[cities].to_plotly_json(), frame) if cities is not None else (),
                    facts.spills[key])


def _restack_panel(fig: Any, facts: _FigureFacts, new: Plan, style: StateStyle, relayout: dict[str, Any]) -> int:
    """Move the panel's boxes and the legend to the tops ``new``'s boxes need (a box that gained lines,
    a seat's hand that grew, pushes the ones below it down); adds to ``relayout``, returns how many moved."""
    if new.portrayal is None:
        return 0
    height = fig.layout.height or style.height
    ys = _panel_layout(new.portrayal, style, height)
    moved = 0
    anns = fig.layout.annotations
    for name, i in facts.annotations.items():
        if name in ys and anns[i].y is not None and abs(anns[i].y - ys[name]) > 1e-9:
            relayout[f"annotations[{i}].y"] = ys[name]
            moved += 1
    if fig.layout.legend.y is not None and abs(fig.layout.legend.y - ys["legend"]) > 1e-9:
        relayout["legend.y"] = ys["legend"]
        moved += 1
    room = legend_room_px(new.portrayal, style, height)
    if fig.layout.legend.maxheight is not None and abs(fig.layout.legend.maxheight - room) > 1e-9:
        relayout["legend.maxheight"] = room
        moved += 1
    fits = legend_fits(new.portrayal, style, height)
    if fig.layout.showlegend is not None and bool(fig.layout.showlegend) != fits:
        relayout["showlegend"] = fits
        moved += 1
    meta = fig.layout.meta
    if moved and isinstance(meta, Mapping) and "panel_px" in meta:  # the export page restacks from these
        relayout["meta"] = {**meta, "panel_px": panel_tops_px(style, new.portrayal)}
    return moved


# ------------------------------------------------------------------------------------------
# Two moments side by side: which areas differ, and a mark around them
# ------------------------------------------------------------------------------------------
#: The colour of the outline around areas that differ between two maps (a branch and its parent).
CHANGED_OUTLINE = "#d4007a"


def _area_contents(p: Portrayal) -> dict[str, tuple[Any, ...]]:
    """What a portrayal shows in each area: its fill and the badges and marks there."""
    out: dict[str, list[Any]] = {}
    for a, f in p.fills.items():
        out.setdefault(a, []).append(("fill", f.colour, f.pattern, f.pattern_colour))
    for g in p.badges:
        for b in g.badges:
            out.setdefault(b.area, []).append(("badge", g.id, b.text, b.slot))
    for ml in p.marks:
        for m in ml.marks:
            out.setdefault(m.area, []).append(("mark", ml.id, m.text))
    return {a: tuple(sorted(map(str, v))) for a, v in out.items()}


def changed_areas(view_a: Any, view_b: Any, *, ruleset: Ruleset | None = None,
                  style: StateStyle = DEFAULT_STATE_STYLE) -> list[str]:
    """The areas whose fill, badges or marks differ between two views of one game (sorted ids)."""
    rs = _ruleset_for(view_a, ruleset)
    places = places_of_map(_geo(_map_of(view_a, rs)))
    a = _area_contents(portrayal_of(view_a, places, style, rs))
    b = _area_contents(portrayal_of(view_b, places, style, rs))
    return sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k) and k in places)


def mark_areas(fig: Any, areas: list[str], colour: str = CHANGED_OUTLINE) -> None:
    """Outline ``areas`` of a state map in ``colour`` (a trace named ``marked-areas``, on top; [] clears it).

    The outlines are the areas' own drawn rings, so a mark costs only the marked areas' points.
    """
    facts = _facts_of(fig)
    xs: list[Any] = []
    ys: list[Any] = []
    for a in areas:
        i = facts.areas.get(a)
        if i is not None:
            xs += [*list(fig.data[i].x or ()), None]
            ys += [*list(fig.data[i].y or ()), None]
        elif a in facts.fixed_areas:  # a sea or context area: its rings within its kind's merged trace
            i, start, stop = facts.fixed_areas[a]
            xs += [*list(fig.data[i].x or ())[start:stop], None]
            ys += [*list(fig.data[i].y or ())[start:stop], None]
    if "marked-areas" not in facts.traces:
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", name="marked-areas", uid="marked-areas", showlegend=False,
                                 line={"color": colour, "width": 4}, hoverinfo="skip", meta={"marked": list(areas)}))
        facts.traces["marked-areas"] = len(fig.data) - 1
        return
    tr = fig.data[facts.traces["marked-areas"]]
    with fig.batch_update():
        tr.x, tr.y, tr.meta = xs, ys, {"marked": list(areas)}
