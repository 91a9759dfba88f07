"""The map of a game state: control, unit stacks, Kings, the Pope, TP/VP, and the step's overlays.

``state_map(view)`` draws a *view* (the plain-data contract of ``medviz.rules.medempires.view``)
over the base map of ``medviz.viz.basemap``. ``update_state_map(fig, old, new)`` moves a figure
from one view to the next by changing only colours, badge texts and overlay markers — never the
area outlines, which are sent once. Both go through one planner (``plan_view``), so a figure
built for a view and a figure updated to it hold the same data.

How the map reads (see docs/viz.md):

- Land areas take the colour of their controller (3.4): Player A's powers in France's dark blue
  and Anjou's sky blue, Player B's in Aragon's red, neutral powers in their own colours (2.2.2),
  paler so the two sides stand out. An ally's area is dotted, a vassal's cross-hatched, in the
  colour of the side it serves; an area in partial control is striped in both sides' colours.
- A unit stack is a badge in its power's colour under the area's name: ``♛ 2FA 1L`` is a King
  with two field armies and a levy. Fleets sit in their sea areas. ``✝ Pope`` marks Rome while
  the Pope is there.
- The step's overlays: movement paths as arrows, battles as stars (in the winner's colour) with
  their result, interceptions, and political results.
- Power names and colours are those of the data the game is played with: the view's ``powers``
  (a teacher's override file may rename or recolour a power); a view without them gets the shipped ones.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
import weakref
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import plotly.graph_objects as go

from medviz.engine.errors import MalformedInput, UnknownReference
from medviz.viz import basemap
from medviz.viz.basemap import TRUE_SCALE_LAT, MapStyle, area_traces, base_map
from medviz.viz import palette
from medviz.viz.text import plain

blend = functools.lru_cache(maxsize=4096)(palette.blend)
contrast_text = functools.lru_cache(maxsize=4096)(palette.contrast_text)

__all__ = ["StateStyle", "DEFAULT_STATE_STYLE", "UNIT_ORDER", "UNIT_NAMES", "badge_text",
           "plan_view", "powers_of", "side_colour", "state_map", "update_state_map"]

#: Unit codes in badge order, and their names (2.1).
UNIT_ORDER = ("FA", "L", "R", "M", "F")
UNIT_NAMES = {"FA": "field army", "L": "levy", "R": "raiders", "M": "mercenaries", "F": "fleet"}
CROWN = "♛"
CROSS = "✝"
SWORDS = "⚔"
_HEX = re.compile(r"#[0-9A-Fa-f]{6}")


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


DEFAULT_STATE_STYLE = StateStyle()

SIDES = ("A", "B")
#: Uids of the overlay traces, in drawing order (the halo lies under the arrows).
OVERLAY_UIDS = ("moves-halo", "moves-A", "moves-B", "moves-other", "battles", "interceptions", "politics")
PANEL_NAMES = ("panel-turn", "panel-A", "panel-B", "panel-pope", "panel-key")


# ------------------------------------------------------------------------------------------
# Game data: powers and their colours
# ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PowerInfo:
    """What the map needs of a power (2.2.2): the view's ``powers`` (the game's own data), else the shipped data."""

    id: str
    name: str
    colour: str
    accent: str | None
    home: tuple[str, ...]
    start: tuple[str, ...]


Powers = Mapping[str, PowerInfo]


@functools.lru_cache(maxsize=1)
def _powers() -> dict[str, PowerInfo]:
    """The shipped powers (a view without ``powers`` is drawn with them)."""
    from medviz.rules.medempires.gamedata import default_game_data

    data = default_game_data()
    return {pid: PowerInfo(pid, p.name, p.display_colour, p.display_accent, tuple(p.home_areas),
                           tuple(p.controlled_at_start))
            for pid, p in data.powers.items()}


#: The powers of recent views' ``powers`` dicts, by identity (every view of one game's data shares
#: one dict, ``medviz.rules.medempires.view.power_view``); the dict is kept so its id stays unique.
_POWERS_BY_OBJECT: dict[int, tuple[Any, dict[str, PowerInfo]]] = {}


def powers_of(view: Mapping[str, Any]) -> Powers:
    """What the map draws of each power in ``view``: its ``powers`` (the game's own data), else the shipped ones."""
    raw = view.get("powers")
    if not raw:
        return _powers()
    hit = _POWERS_BY_OBJECT.get(id(raw))
    if hit is not None and hit[0] is raw:
        return hit[1]
    info = _powers_from(_powers_key(raw))
    if len(_POWERS_BY_OBJECT) >= 16:
        _POWERS_BY_OBJECT.pop(next(iter(_POWERS_BY_OBJECT)))
    _POWERS_BY_OBJECT[id(raw)] = (raw, info)
    return info


_PowersKey = tuple[tuple[str, str, str, str | None, tuple[str, ...], tuple[str, ...]], ...]


def _powers_key(raw: Any) -> _PowersKey:
    """A view's ``powers`` as a hashable key, checked: a bad entry is named (MalformedInput)."""
    if not isinstance(raw, Mapping):
        raise MalformedInput(f"the view's powers must map power ids to their names and colours, "
                             f"not {type(raw).__name__}")
    out = []
    for pid, p in raw.items():
        where = f"the view's powers[{pid!r}]"
        if not isinstance(p, Mapping):
            raise MalformedInput(f"{where} must be a mapping with name and colour, not {type(p).__name__}")
        name, colour, accent = p.get("name"), p.get("colour"), p.get("accent")
        if not isinstance(name, str) or not name:
            raise MalformedInput(f"{where}: name must be a non-empty text, not {name!r}")
        for what, c in (("colour", colour), ("accent", accent)):
            if (c is not None or what == "colour") and not (isinstance(c, str) and _HEX.fullmatch(c)):
                raise MalformedInput(f"{where}: {what} must be #RRGGBB, not {c!r}")
        areas = []
        for what in ("home", "start"):
            value = p.get(what) or ()
            if isinstance(value, str) or not all(isinstance(a, str) for a in value):
                raise MalformedInput(f"{where}: {what} must be a list of area ids, not {value!r}")
            areas.append(tuple(value))
        out.append((str(pid), name, str(colour), accent, areas[0], areas[1]))
    return tuple(out)


@functools.lru_cache(maxsize=16)
def _powers_from(key: _PowersKey) -> dict[str, PowerInfo]:
    return {pid: PowerInfo(pid, name, colour, accent, home, start)
            for pid, name, colour, accent, home, start in key}


def _side_powers(status: Mapping[str, str], side: str, powers: Powers | None = None) -> list[str]:
    """The player powers of a side, in game-data order."""
    return [p for p in (_powers() if powers is None else powers) if status.get(p) == f"player-{side}"]


def side_colour(side: str, status: Mapping[str, str] | None = None, powers: Powers | None = None) -> str:
    """The main colour of a side: its first player power's display colour (France, Aragon).

    ``powers`` are the game's (``powers_of(view)``); the shipped ones by default.
    """
    powers = _powers() if powers is None else powers
    names = _side_powers(status or {}, side, powers) or (["france"] if side == "A" else ["aragon"])
    return powers[names[0]].colour if names[0] in powers else ("#1F3F8F" if side == "A" else "#B2182B")


# ------------------------------------------------------------------------------------------
# Places: where things go on the map
# ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Place:
    """An area's label point and how many lines its name takes."""

    lon: float
    lat: float
    kind: str
    lines: int
    name: str


def _label_lines(text: str) -> int:
    wrap = getattr(basemap, "_wrap", None)
    shown = wrap(text) if callable(wrap) else text
    return shown.count("<br>") + 1


def _places_from_geo(geo: Any) -> dict[str, Place]:
    rows = [dict(r) for _, r in geo.iterrows()] if hasattr(geo, "iterrows") else [dict(r) for r in geo]
    out = {}
    for r in rows:
        label = r.get("label")
        label = label if isinstance(label, str) and label else r["name"]
        out[str(r["id"])] = Place(round(float(r["label_lon"]), 4), round(float(r["label_lat"]), 4),
                                  str(r["kind"]), _label_lines(label), str(r["name"]))
    return out


@dataclass
class _FigureFacts:
    """What ``update_state_map`` remembers of a figure: places, trace indexes, the last plan."""

    places: dict[str, Place]
    map_domain: float = 0.86
    areas: dict[str, int] = field(default_factory=dict)
    annotations: dict[str, int] = field(default_factory=dict)
    traces: dict[str, int] = field(default_factory=dict)
    last_view: Any = None
    last_plan: Any = None


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
    places = {a: Place(float(p[0]), float(p[1]), str(p[2]), int(p[3]), str(p[4])) for a, p in raw.items()}
    facts = _FigureFacts(places, map_domain=float(meta.get("map_domain") or DEFAULT_STATE_STYLE.map_domain))
    for i, tr in enumerate(fig.data):
        m = tr.meta
        if isinstance(m, Mapping) and "area" in m:
            facts.areas[str(m["area"])] = i
        elif tr.name:
            facts.traces[str(tr.name)] = i
    _FACTS[key] = (weakref.ref(fig, lambda _r: _FACTS.pop(key, None)), facts)
    return facts


def _places_of(fig: Any) -> dict[str, Place]:
    """The places a state map was drawn with (kept in ``layout.meta``)."""
    return _facts_of(fig).places


@functools.lru_cache(maxsize=2)
def _default_geo() -> Any:
    from medviz.geo import load

    return load("medempires")


# ------------------------------------------------------------------------------------------
# Planning: a view -> what every recolourable part of the figure shows
# ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Fill:
    """How one land area is painted."""

    colour: str
    pattern: str = ""  # plotly fillpattern shape: "" none, "." ally, "x" vassal, "/" partial
    pattern_colour: str = ""
    label_colour: str = "#2b2118"
    hover: str = ""


@dataclass
class Plan:
    """Everything of a state map that changes from view to view."""

    fills: dict[str, Fill] = field(default_factory=dict)
    badges: dict[str, dict[str, Any]] = field(default_factory=dict)  # annotation name -> props
    overlays: dict[str, dict[str, Any]] = field(default_factory=dict)  # trace uid -> props
    panel: dict[str, str] = field(default_factory=dict)  # panel annotation name -> text
    title: str = ""
    subtitle: str = ""


def badge_text(stack: Mapping[str, int], king: bool = False) -> str:
    """The text of a unit stack's badge, e.g. ``♛ 2FA 1L`` (units in the order FA L R M F)."""
    parts = [f"{n}{code}" for code in UNIT_ORDER if (n := int(stack.get(code, 0))) > 0]
    parts += [f"{n}{plain(code)}" for code, n in sorted(stack.items()) if code not in UNIT_ORDER and n > 0]
    return "·".join(([CROWN] if king else []) + parts)


def _stack_words(stack: Mapping[str, int]) -> str:
    words = []
    for code in [*UNIT_ORDER, *sorted(c for c in stack if c not in UNIT_ORDER)]:
        n = int(stack.get(code, 0))
        if n > 0:
            name = UNIT_NAMES.get(code) or plain(code)
            words.append(f"{n} {name if n == 1 or name.endswith('s') else name + 's'}")
    return ", ".join(words)


def _friends(status: Mapping[str, str], side: str, powers: Powers) -> tuple[str, ...]:
    """A side's player powers and allies, in game-data order."""
    return tuple(p for p in powers if str(status.get(p, "")) in (f"player-{side}", f"ally-{side}"))


def _owner_of(area: str, side: str, view: Mapping[str, Any], places: Mapping[str, Place], powers: Powers,
              mine: tuple[str, ...]) -> str | None:
    """Which of ``mine`` (a side's players and allies) paints an area the side controls (home, troops, nearest)."""
    status = view.get("status") or {}
    for p in mine:
        if area in powers[p].home or area in powers[p].start:
            return p
    here = (view.get("units") or {}).get(area) or {}
    troops = sorted(((sum(here[p].values()), p) for p in here if p in mine), reverse=True)
    if troops:
        return str(troops[0][1])
    players = [p for p in mine if status.get(p) == f"player-{side}"]
    if not players or area not in places:
        return players[0] if players else None
    at = places[area]

    def distance(p: str) -> float:
        pts = [places[a] for a in (*powers[p].home, *powers[p].start) if a in places]
        return min((math.hypot(q.lon - at.lon, q.lat - at.lat) for q in pts), default=1e9)

    return min(players, key=distance)


def _fill_for(area: str, control: Any, view: Mapping[str, Any], places: Mapping[str, Place],
              style: StateStyle, powers: Powers, friends: Mapping[str, tuple[str, ...]]) -> Fill:
    status = view.get("status") or {}
    name = plain(places[area].name if area in places else area)
    if control is None:
        return Fill(style.uncontrolled, hover=f"{name}<br>controlled by neither side")
    if control == "partial":
        a, b = side_colour("A", status, powers), side_colour("B", status, powers)
        bg = blend(a, style.paper, 0.75)
        return Fill(bg, "/", blend(b, style.paper, 0.9), contrast_text(blend(a, b, 0.5)),
                    f"{name}<br>partial control: both sides have land units here (3.4)")
    if control in SIDES:
        owner = _owner_of(area, control, view, places, powers, friends[control])
        held_by = powers.get(owner) if owner is not None else None
        colour = held_by.colour if held_by is not None else side_colour(control, status, powers)
        st = str(status.get(owner, "")) if owner else ""
        if st.startswith("ally-"):
            fill = blend(colour, style.paper, style.ally_tint)
            return Fill(fill, ".", side_colour(control, status, powers), contrast_text(fill),
                        f"{name}<br>Player {control} (through its ally {plain(powers[str(owner)].name)})")
        fill = blend(colour, style.paper, style.player_tint)
        who = f" ({plain(held_by.name)})" if held_by is not None else ""
        return Fill(fill, label_colour=contrast_text(fill), hover=f"{name}<br>Player {control}{who}")
    power = powers.get(str(control))
    colour = power.colour if power else "#9a9a9a"
    pname = plain(power.name if power else control)
    st = str(status.get(str(control), "neutral"))
    if st.startswith("vassal-"):
        side = st[-1]
        fill = blend(colour, style.paper, style.ally_tint)
        return Fill(fill, "x", side_colour(side, status, powers), contrast_text(fill),
                    f"{name}<br>{pname}, vassal of Player {side} (controlled by neither side, 3.4)")
    if st.startswith("ally-"):
        side = st[-1]
        fill = blend(colour, style.paper, style.ally_tint)
        return Fill(fill, ".", side_colour(side, status, powers), contrast_text(fill),
                    f"{name}<br>{pname}, ally of Player {side}")
    fill = blend(colour, style.paper, style.neutral_tint)
    return Fill(fill, label_colour=contrast_text(fill), hover=f"{name}<br>{pname} (neutral)")


def _px_to_data(style: StateStyle, places: Mapping[str, Place]) -> tuple[float, float]:
    """Degrees of longitude and latitude per pixel at the default figure size (approximate)."""
    lons = [p.lon for p in places.values()] or [0.0]
    span_x = max(30.0, max(lons) - min(lons) + 4)
    per_px = span_x / (style.width * style.map_domain)
    return per_px, per_px * math.cos(math.radians(TRUE_SCALE_LAT))


def _badge_shift(place: Place, style: StateStyle, k: int) -> float:
    """Pixels below the label point for the k-th badge of an area (clear of the area name)."""
    half = place.lines * (style.label_size + 2) / 2
    return -(half + 9 + k * (style.badge_size + 9))


def _outline(colour: str, width: int = 2) -> str:
    """A CSS text-shadow that draws a solid ``colour`` outline ``width`` px around the glyphs."""
    steps = [(dx, dy) for dx in range(-width, width + 1) for dy in range(-width, width + 1) if (dx, dy) != (0, 0)]
    return ", ".join(f"{dx}px {dy}px 0 {colour}" for dx, dy in steps)


def _badge_gap(place: Place, style: StateStyle, k: int) -> float:
    """Marker size (px) whose lower edge sits under the area name, for the k-th stack there.

    The badge is the text of an invisible marker placed at the label point with
    ``textposition="bottom center"``: the text starts half a marker below the point, so the
    marker size sets a pixel offset that does not change with zoom.
    """
    half = place.lines * (style.label_size + 2) / 2
    return 2 * (half + 3 + k * (style.badge_size + 8))


def _empty_badges() -> dict[str, list[Any]]:
    return {"x": [], "y": [], "text": [], "marker.size": [], "hovertext": []}


def _badges(view: Mapping[str, Any], places: Mapping[str, Place], style: StateStyle,
            powers: Powers) -> dict[str, dict[str, list[Any]]]:
    """Unit-stack badges grouped by power (one text trace per power), plus the Pope's."""
    units = view.get("units") or {}
    kings = view.get("kings") or {}
    areas = sorted(set(units) | set(kings))
    unknown = [a for a in areas if a not in places]
    if unknown:
        raise UnknownReference(f"the view places units or Kings in areas not on the map: {', '.join(unknown)}")
    order_of = {p: i for i, p in enumerate(powers)}
    out: dict[str, dict[str, list[Any]]] = {f"units-{p}": _empty_badges() for p in powers}
    out["units-other"] = _empty_badges()
    for area in areas:
        by_power = units.get(area) or {}
        with_king = set(kings.get(area) or [])
        stack_powers = [p for p in by_power if any(int(n) > 0 for n in by_power[p].values())]
        order = sorted(set(stack_powers) | with_king, key=lambda p: (order_of.get(p, 99), p))
        place = places[area]
        for k, p in enumerate(order):
            stack = by_power.get(p) or {}
            pname = plain(powers[p].name if p in powers else p)
            hover = f"{pname} in {plain(place.name)}: {_stack_words(stack) or 'no units'}"
            if p in with_king:
                hover += f"; the {pname} King"
            b = out[f"units-{p}" if p in powers else "units-other"]
            b["x"].append(place.lon)
            b["y"].append(place.lat)
            b["text"].append(f"<b>{badge_text(stack, king=p in with_king)}</b>")
            b["marker.size"].append(_badge_gap(place, style, k))
            b["hovertext"].append(hover)
    pope = view.get("pope")
    b = out["pope"] = _empty_badges()
    if pope and pope in places:
        place = places[pope]
        b["x"].append(place.lon)
        b["y"].append(place.lat)
        b["text"].append(f"<b>{CROSS} Pope</b>")
        b["marker.size"].append(2 * (place.lines * (style.label_size + 2) / 2 + 3))
        b["hovertext"].append(f"The Pope is in {plain(place.name)}")
    return out


def _overlays(view: Mapping[str, Any], places: Mapping[str, Place], style: StateStyle,
              powers: Powers) -> dict[str, dict[str, Any]]:
    status = view.get("status") or {}
    dx, dy = _px_to_data(style, places)
    moves: dict[str, dict[str, list[Any]]] = {uid: {"x": [], "y": [], "symbol": [], "hover": []}
                                               for uid in ("moves-A", "moves-B", "moves-other")}
    battles: dict[str, list[Any]] = {"x": [], "y": [], "text": [], "color": [], "hover": [], "custom": []}
    inter: dict[str, list[Any]] = {"x": [], "y": [], "text": [], "symbol": [], "hover": []}
    politics: dict[str, list[Any]] = {"x": [], "y": [], "text": [], "hover": []}
    missing = []
    for i, o in enumerate(view.get("overlays") or []):
        kind = o.get("kind")
        if kind == "move":
            path = [a for a in o.get("path") or [] if a in places]
            missing += [a for a in o.get("path") or [] if a not in places]
            if len(path) < 2:
                continue
            side = o.get("side") or str(status.get(o.get("power"), ""))[-1:]
            uid = f"moves-{side}" if side in SIDES else "moves-other"
            m = moves[uid]
            who = powers[o["power"]].name if o.get("power") in powers else (o.get("power") or "units")
            words = f"{plain(who)}: " + " → ".join(plain(places[a].name) for a in path)
            for j, a in enumerate(path):
                m["x"].append(places[a].lon)
                m["y"].append(places[a].lat)
                m["symbol"].append("circle" if j == 0 else "arrow")
                m["hover"].append(words)
            m["x"].append(None)
            m["y"].append(None)
            m["symbol"].append("circle")
            m["hover"].append("")
        elif kind == "battle":
            area = o.get("area")
            if area not in places:
                missing.append(str(area))
                continue
            place = places[area]
            winner = o.get("winner")
            wside = o.get("winner_side") or (o.get("sides") or {}).get(winner) if winner else None
            colour = side_colour(wside, status, powers) if wside in SIDES else "#4a4a4a"
            result = plain(o.get("result") or "")
            battles["x"].append(place.lon)
            battles["y"].append(place.lat + (place.lines * (style.label_size + 2) / 2 + 14) * dy)
            battles["text"].append(f"<b>{SWORDS} {result}</b>".strip())
            battles["color"].append(colour)
            who = f"{plain(winner)} wins" if winner else "no winner"
            if wside in SIDES:
                who += f" (Player {wside})"
            battles["hover"].append(f"Battle in {plain(place.name)}: {result or 'fought'}; {who}")
            battles["custom"].append([i, area, o.get("roll") or ""])
        elif kind == "interception":
            area = o.get("area")
            if area not in places:
                missing.append(str(area))
                continue
            place = places[area]
            ok = bool(o.get("success"))
            inter["x"].append(place.lon - 30 * dx)
            inter["y"].append(place.lat + (place.lines * (style.label_size + 2) / 2 + 12) * dy)
            inter["text"].append("intercepted" if ok else "evaded")
            inter["symbol"].append("x-thin-open" if not ok else "x")
            inter["hover"].append(f"Interception in {plain(place.name)}: {'succeeded' if ok else 'failed'}")
        elif kind == "politics":
            pid = o.get("power")
            home = o.get("area") or (powers[pid].home[0] if pid in powers and powers[pid].home else None)
            if home not in places:
                missing.append(str(home))
                continue
            place = places[str(home)]
            attempt = plain(o.get("attempt") or "diplomacy")
            result = plain(o.get("result") or "")
            pname = powers[pid].name if pid in powers else str(pid)
            politics["x"].append(place.lon)
            politics["y"].append(place.lat - (place.lines * (style.label_size + 2) / 2 + 8) * dy)
            politics["text"].append(f"<b>{_politics_words(plain(_short(pname)), attempt, result)}</b>")
            politics["hover"].append(f"{plain(pname)}: {attempt} — {result or 'attempted'}")
    if missing:
        raise UnknownReference(f"overlays name areas not on the map: {', '.join(sorted(set(missing)))}")
    out: dict[str, dict[str, Any]] = {}
    halo: dict[str, list[Any]] = {"x": [], "y": []}
    for uid, m in moves.items():
        halo["x"] += m["x"]
        halo["y"] += m["y"]
        out[uid] = {"x": m["x"], "y": m["y"], "marker.symbol": m["symbol"], "hovertext": m["hover"]}
    out["moves-halo"] = {"x": halo["x"], "y": halo["y"]}
    out["battles"] = {"x": battles["x"], "y": battles["y"], "text": battles["text"],
                      "marker.color": battles["color"], "hovertext": battles["hover"],
                      "customdata": battles["custom"]}
    out["interceptions"] = {"x": inter["x"], "y": inter["y"], "text": inter["text"],
                            "marker.symbol": inter["symbol"], "hovertext": inter["hover"]}
    out["politics"] = {"x": politics["x"], "y": politics["y"], "text": politics["text"],
                       "hovertext": politics["hover"]}
    return out


def _politics_words(power: str, attempt: str, result: str) -> str:
    """``Genoa: alliance fails (NE)``, ``Ravenna: vassalage ✓``, ``Genoa: alliance → war``."""
    if not result:
        return f"{power}: {attempt}"
    if result == attempt:
        return f"{power}: {attempt} ✓"
    if result.upper() in ("NE", "NO EFFECT", "FAILS", "FAILED"):
        return f"{power}: {attempt} fails ({result})"
    return f"{power}: {attempt} → {result}"


def _panel(view: Mapping[str, Any], places: Mapping[str, Place], powers: Powers) -> dict[str, str]:
    status = view.get("status") or {}
    tp = view.get("tp") or {}
    vp = view.get("vp") or {}
    turn = view.get("turn")
    head = f"<b>Turn {plain(turn)}</b>" if turn else "<b>Set-up</b>"  # turn 0: the set-up (3.0)
    if view.get("years") and turn:
        head += f"  ·  {plain(view['years'])}"
    phase = view.get("phase")
    words = plain(_phase_words(phase))
    head += f"<br>{words[:1].upper()}{words[1:]} phase" if phase and turn else "<br>before the first turn"
    out = {"panel-turn": head}
    for side in SIDES:
        names = [plain(powers[p].name.split(" (")[0]) for p in _side_powers(status, side, powers)]
        allies = sum(1 for p in powers if status.get(p) == f"ally-{side}")
        vassals = sum(1 for p in powers if status.get(p) == f"vassal-{side}")
        lines = [f"<b>PLAYER {side}</b>", " · ".join(names),
                 f"Treasury <b>{plain(tp.get(side, 0))}</b> TP", f"Victory <b>{plain(vp.get(side, 0))}</b> VP",
                 f"{allies} all{'y' if allies == 1 else 'ies'} · {vassals} vassal{'' if vassals == 1 else 's'}"]
        out[f"panel-{side}"] = "<br>".join(lines)
    pope = view.get("pope")
    if pope in SIDES:
        out["panel-pope"] = f"{CROSS} The Pope is with Player {pope}"
    elif pope in places:
        out["panel-pope"] = f"{CROSS} The Pope is in {plain(places[str(pope)].name)}"
    else:
        out["panel-pope"] = f"{CROSS} No Pope on the map"
    return out


def _short(name: str) -> str:
    """A power's name without its style: "Kingdom of Sicily" -> "Sicily"."""
    name = name.split(" (")[0]
    for prefix in ("Kingdom of ", "Caliphate of ", "Sultanate of ", "Duchy of "):
        if name.startswith(prefix):
            return name[len(prefix):]
    return name


def _phase_words(phase: Any) -> str:
    """``operations-A`` -> ``operations A``."""
    return str(phase).replace("_", " ").replace("-", " ")


def _title(view: Mapping[str, Any]) -> tuple[str, str]:
    """The title and the turn · years · phase line (left out when the title already says it), escaped."""
    raw = str(view.get("title") or "Mediterranean Empires")
    title = plain(raw)
    if view.get("turn") is not None and f"turn {view['turn']}" in raw.lower():
        return title, ""
    if view.get("turn") == 0:  # the set-up (3.0)
        return title, "" if "set-up" in raw.lower() else "set-up, before the first turn"
    bits = []
    if view.get("turn") is not None:
        bits.append(f"Turn {plain(view['turn'])}")
    if view.get("years"):
        bits.append(plain(view["years"]))
    if view.get("phase"):
        bits.append(f"{plain(_phase_words(view['phase']))} phase")
    return title, "  ·  ".join(bits)


def plan_view(view: Mapping[str, Any], places: Mapping[str, Place], style: StateStyle = DEFAULT_STATE_STYLE) -> Plan:
    """What every changing part of a state map shows for ``view`` (pure; no figure needed)."""
    control = view.get("control") or {}
    unknown = sorted(a for a in control if a not in places)
    if unknown:
        raise UnknownReference(f"the view's control names areas not on the map: {', '.join(unknown)}")
    powers = powers_of(view)
    status = view.get("status") or {}
    friends = {side: _friends(status, side, powers) for side in SIDES}
    fills = {a: _fill_for(a, control.get(a), view, places, style, powers, friends)
             for a, p in places.items() if p.kind == "land"}
    title, subtitle = _title(view)
    return Plan(fills, _badges(view, places, style, powers), _overlays(view, places, style, powers),
                _panel(view, places, powers), title, subtitle)


# ------------------------------------------------------------------------------------------
# Drawing
# ------------------------------------------------------------------------------------------
def _badge_traces(style: StateStyle, powers: Powers) -> list[go.Scatter]:
    """One text trace per power for its unit-stack badges (white or dark text on a solid outline)."""
    specs = [(f"units-{p}", info.colour, info.accent) for p, info in powers.items()]
    specs += [("units-other", "#666666", None), ("pope", "#ffffff", "#b8860b")]
    out = []
    for name, colour, accent in specs:
        text_colour = "#5a3d00" if name == "pope" else contrast_text(colour, "#1b1b1b")
        out.append(go.Scatter(
            x=[], y=[], mode="markers+text", name=name, uid=name, showlegend=False,
            marker={"size": [], "color": "rgba(0,0,0,0)", "opacity": 0, "line": {"width": 0}},
            text=[], textposition="bottom center", hovertext=[], hoverinfo="text",
            textfont={"family": style.font_family, "size": style.badge_size, "color": text_colour,
                      "shadow": _outline(colour, 3) + (f", 0 0 1px {accent}" if accent else "")}))
    return out


#: Lines in each panel box (fixed, so the boxes never overlap as the game goes on).
PANEL_LINES = {"panel-turn": 2, "panel-A": 5, "panel-B": 5, "panel-pope": 1}


def _key_lines(width: int) -> int:
    """The key under the map takes one line on wide figures, two on narrower ones."""
    return 1 if width >= 1400 else 2


#: The figure's margins in pixels; the side panel is stacked within the height left by top and bottom.
MARGIN = {"l": 6, "r": 6, "t": 44, "b": 6}
VERTICAL_MARGIN = MARGIN["t"] + MARGIN["b"]


def panel_tops_px(style: StateStyle) -> dict[str, float]:
    """Top of each panel part (and of the legend) in pixels below the top of the plot area."""
    y = 6.0
    out = {}
    for name, extra, gap in (("panel-turn", 0, 10), ("panel-A", 14, 10), ("panel-B", 14, 14), ("panel-pope", 0, 14)):
        out[name] = y
        size = (style.panel_size + 5) if name == "panel-turn" else style.panel_size
        y += PANEL_LINES[name] * size * 1.35 + extra + gap
    out["legend"] = y
    return out


def _panel_layout(style: StateStyle, height: int) -> dict[str, float]:
    """Top of each panel part (and of the legend) in paper coordinates, stacked in pixels.

    The pixel tops are also kept in ``layout.meta["panel_px"]`` so a page that draws the figure at
    another size (the HTML export) can restack the panel without overlaps.
    """
    plot_h = max(200, height - VERTICAL_MARGIN)
    return {name: 1 - px / plot_h for name, px in panel_tops_px(style).items()}


def _panel_annotations(plan: Plan, style: StateStyle, status: Mapping[str, str], width: int,
                       height: int, powers: Powers) -> list[dict[str, Any]]:
    x0 = style.map_domain + 0.012
    ys = _panel_layout(style, height)
    common = {"xref": "paper", "yref": "paper", "x": x0, "xanchor": "left", "yanchor": "top",
              "showarrow": False, "align": "left"}
    out = [{**common, "name": "panel-turn", "y": ys["panel-turn"], "text": plan.panel["panel-turn"],
            "font": {"size": style.panel_size + 5, "color": "#2b2118", "family": style.font_family}}]
    for side in SIDES:
        colour = side_colour(side, status, powers)
        out.append({**common, "name": f"panel-{side}", "y": ys[f"panel-{side}"], "text": plan.panel[f"panel-{side}"],
                    "bgcolor": colour, "bordercolor": _side_accent(side, status, powers),
                    "borderwidth": 2, "borderpad": 6, "width": int(width * (1 - style.map_domain) - 36),
                    "font": {"size": style.panel_size, "color": contrast_text(colour), "family": style.font_family}})
    out.append({**common, "name": "panel-pope", "y": ys["panel-pope"], "text": plan.panel["panel-pope"],
                "font": {"size": style.panel_size, "color": "#5a3d00", "family": style.font_family}})
    gap = "      " if _key_lines(width) == 1 else "<br>"
    key = (f"<b>Units</b>  FA field army · L levy · R raiders · M mercenaries · F fleet (in sea areas) · "
           f"{CROWN} King · {CROSS} Pope{gap}<b>This step</b>  ➜ moves · ★ battle, in the winner's colour · "
           f"✕ interception · ◆ politics")
    out.append({**common, "name": "panel-key", "x": 0.005, "y": 0.035, "text": key,
                "font": {"size": style.panel_size, "color": "#3b2f22", "family": style.font_family}})
    return out


def _side_accent(side: str, status: Mapping[str, str], powers: Powers) -> str:
    """A side's accent (Aragon's gold for B) for panel borders; white when it has none."""
    for p in _side_powers(status, side, powers):
        if powers[p].accent:
            return powers[p].accent  # type: ignore[return-value]
    return "#ffffff"


def _legend_traces(status: Mapping[str, str], style: StateStyle, powers: Powers) -> list[go.Scatter]:
    """Legend entries for control; the same for every view of a game (statuses change, entries don't)."""
    entries: list[tuple[str, str, str, str]] = []
    for side in SIDES:
        for p in _side_powers(status, side, powers):
            entries.append((f"Player {side}: {plain(powers[p].name.split(' (')[0])}",
                            blend(powers[p].colour, style.paper, style.player_tint), "", ""))
    ground = blend("#b9ad96", style.paper, 0.6)
    for side in SIDES:
        entries.append((f"Ally of {side}: dotted in {side}'s colour", ground, ".", side_colour(side, status, powers)))
    for side in SIDES:
        entries.append((f"Vassal of {side}: cross-hatched", ground, "x", side_colour(side, status, powers)))
    entries.append(("Partial control: striped", blend(side_colour("A", status, powers), style.paper, 0.75), "/",
                    blend(side_colour("B", status, powers), style.paper, 0.9)))
    entries.append(("Neutral power: its own colour, paler", blend("#CC6677", style.paper, style.neutral_tint), "", ""))
    entries.append(("Nobody", style.uncontrolled, "", ""))
    out: list[go.Scatter] = []
    for name, colour, shape, fg in entries:
        out.append(go.Scatter(
            x=[None], y=[None], mode="lines", fill="toself", fillcolor=colour, name=name,
            line={"color": style.land_border, "width": 1},
            fillpattern={"shape": shape, "fgcolor": fg, "bgcolor": colour, "size": 6,
                         "solidity": 0.5 if shape == "/" else 0.3} if shape else None,
            showlegend=True, hoverinfo="skip", legendgroup="control", uid=f"legend-{len(out)}"))
    return out


#: A white outline around dark text, so it reads on any fill.
HALO = "1px 1px 1px #ffffff, -1px -1px 1px #ffffff, 1px -1px 1px #ffffff, -1px 1px 1px #ffffff"


def _overlay_traces(style: StateStyle, status: Mapping[str, str], powers: Powers) -> list[go.Scatter]:
    font = {"family": style.font_family, "size": style.badge_size + 2}
    line = {"width": style.move_width}
    traces = [go.Scatter(x=[], y=[], mode="lines", uid="moves-halo", name="moves-halo", showlegend=False,
                         line={"color": "rgba(255,255,255,0.85)", "width": style.move_width + 4}, hoverinfo="skip")]
    for uid, colour in (("moves-A", side_colour("A", status, powers)), ("moves-B", side_colour("B", status, powers)),
                        ("moves-other", "#4a4a4a")):
        traces.append(go.Scatter(
            x=[], y=[], mode="lines+markers", uid=uid, name=uid, showlegend=False,
            line={**line, "color": colour},
            marker={"symbol": [], "size": 16, "angleref": "previous", "color": colour,
                    "line": {"color": "#ffffff", "width": 1.5}},
            hovertext=[], hoverinfo="text"))
    traces.append(go.Scatter(
        x=[], y=[], mode="markers+text", uid="battles", name="battles", showlegend=False,
        marker={"symbol": "star", "size": 26, "color": [], "line": {"color": "#ffffff", "width": 2}},
        text=[], textposition="middle right", textfont={**font, "color": "#1b1b1b", "shadow": HALO},
        hovertext=[], hoverinfo="text", customdata=[]))
    traces.append(go.Scatter(
        x=[], y=[], mode="markers+text", uid="interceptions", name="interceptions", showlegend=False,
        marker={"symbol": [], "size": 16, "color": "#1b1b1b", "line": {"color": "#ffffff", "width": 1.5}},
        text=[], textposition="middle left", textfont={**font, "color": "#1b1b1b", "shadow": HALO},
        hovertext=[], hoverinfo="text"))
    traces.append(go.Scatter(
        x=[], y=[], mode="markers+text", uid="politics", name="politics", showlegend=False,
        marker={"symbol": "diamond", "size": 14, "color": "#5a3d00", "line": {"color": "#ffffff", "width": 1.5}},
        text=[], textposition="middle right", textfont={**font, "color": "#3b2300", "shadow": HALO},
        hovertext=[], hoverinfo="text"))
    return traces


def _apply_overlay(trace: Any, props: Mapping[str, Any]) -> None:
    for key, value in props.items():
        if key == "marker.symbol":
            trace.marker.symbol = value
        elif key == "marker.size":
            trace.marker.size = value
        elif key == "marker.color":
            trace.marker.color = value
        else:
            trace[key] = value


def _fill_props(f: Fill, style: StateStyle) -> dict[str, Any]:
    return {"fillcolor": f.colour,
            "fillpattern": {"shape": f.pattern, "fgcolor": f.pattern_colour or f.colour, "bgcolor": f.colour,
                            "size": style.pattern_size, "solidity": 0.5 if f.pattern == "/" else 0.18}}


def state_map(view: Mapping[str, Any], geo: Any = None, *, style: StateStyle = DEFAULT_STATE_STYLE,
              width: int | None = None, height: int | None = None) -> go.Figure:
    """Draw a game view over the base map: control, stacks, Kings, the Pope, TP/VP and overlays."""
    geo = _default_geo() if geo is None else geo
    places = _places_from_geo(geo)
    w, h = width or style.width, height or style.height
    style = dataclasses.replace(style, map_domain=_map_share(geo, w, h, style))
    plan = plan_view(view, places, style)
    status = view.get("status") or {}
    map_style = MapStyle(sea_palette=style.sea_fills, background=style.background, land_border=style.land_border,
                         font_family=style.font_family, land_label_size=style.label_size)
    fig = base_map(geo, style=map_style, width=w, height=h)
    idx = area_traces(fig)
    land = [a for a, p in places.items() if p.kind == "land"]
    for a in land:
        tr = fig.data[idx[a]]
        tr.update(_fill_props(plan.fills[a], style))
        tr.text = plan.fills[a].hover
        tr.line.width = 1.0
    labels = _label_trace(fig)
    if labels is not None:
        order = [a for a, p in places.items() if p.kind == "land"]
        labels.textfont.color = [plan.fills[a].label_colour for a in order]
        labels.textfont.shadow = "none"
    for tr in fig.data:
        if getattr(tr, "name", None) == "cities":
            tr.textfont.shadow = HALO
    powers = powers_of(view)
    fig.add_traces(_legend_traces(status, style, powers))
    overlay_traces = _overlay_traces(style, status, powers)
    fig.add_traces(overlay_traces[:4])
    fig.add_traces(_badge_traces(style, powers))
    fig.add_traces(overlay_traces[4:])
    for tr in fig.data:
        props = plan.overlays.get(tr.name) or plan.badges.get(tr.name)
        if props is not None:
            _apply_overlay(tr, props)
    fig.update_layout(
        title={"text": _title_text(plan), "x": 0.008, "xanchor": "left", "y": 0.988, "yanchor": "top",
               "font": {"size": style.title_size, "color": "#2b2118", "family": style.font_family}},
        margin=dict(MARGIN),
        paper_bgcolor=style.panel_background,
        annotations=_panel_annotations(plan, style, status, w, h, powers),
        showlegend=True,
        legend={"x": style.map_domain + 0.01, "y": _panel_layout(style, h)["legend"], "xanchor": "left", "yanchor": "top",
                "bgcolor": "rgba(0,0,0,0)", "font": {"size": style.panel_size - 1, "family": style.font_family},
                "title": {"text": "<b>Who controls an area</b>"}, "itemclick": False, "itemdoubleclick": False,
                "tracegroupgap": 2},
        meta={"medviz": "state_map", "map_domain": style.map_domain, "panel_px": panel_tops_px(style),
              "vertical_margin": VERTICAL_MARGIN,
              "places": {a: [p.lon, p.lat, p.kind, p.lines, p.name] for a, p in places.items()}},
    )
    fig.update_xaxes(domain=[0, style.map_domain])
    bottom = _map_bottom(fig, w, h, style)
    fig.update_yaxes(domain=[bottom, 1.0], constraintoward="top")
    for ann in fig.layout.annotations:
        if ann.name == "panel-key":
            ann.y = bottom - 0.008
    return fig


def _map_share(geo: Any, width: int, height: int, style: StateStyle) -> float:
    """The share of the width the map takes: enough to fill the height, at most ``style.map_domain``."""
    try:
        x0, y0, x1, y1 = (float(v) for v in geo.total_bounds)
    except (AttributeError, TypeError, ValueError):
        return style.map_domain
    ratio = (y1 - y0) / math.cos(math.radians(TRUE_SCALE_LAT)) / (x1 - x0)
    ideal = (height - 50) * 0.955 / ratio / (width - 12)
    return round(max(0.78, min(style.map_domain, ideal)), 3)


def _map_bottom(fig: go.Figure, width: int, height: int, style: StateStyle) -> float:
    """Where the map's y domain starts so that it ends just below the drawn map (room for the key)."""
    plot_h0 = max(200, height - 50)
    key_room = (_key_lines(width) * (style.panel_size * 1.35) + 10) / plot_h0
    try:
        x0, x1 = fig.layout.xaxis.range
        y0, y1 = fig.layout.yaxis.range
        ratio = float(fig.layout.yaxis.scaleratio or 1)
    except (TypeError, ValueError):
        return key_room
    margin = fig.layout.margin
    plot_w = (width - (margin.l or 0) - (margin.r or 0)) * style.map_domain
    plot_h = height - (margin.t or 0) - (margin.b or 0)
    map_h = plot_w * (y1 - y0) * ratio / (x1 - x0)
    share = map_h / plot_h if plot_h > 0 else 1.0
    return max(key_room, min(0.5, 1.0 - share))


def _title_text(plan: Plan) -> str:
    """Title line: the scenario in bold, then turn, years and phase."""
    return f"<b>{plan.title}</b>" + (f"   <span style='color:#5b4d3c'>{plan.subtitle}</span>" if plan.subtitle else "")


def _label_trace(fig: Any) -> Any:
    for tr in fig.data:
        if getattr(tr, "name", None) == "labels:land":
            return tr
    return None


# ------------------------------------------------------------------------------------------
# Updating: one step, only what changed
# ------------------------------------------------------------------------------------------
def _fill_paths(f: Fill, style: StateStyle) -> dict[str, Any]:
    """The fill of an area as restyle paths (``fillpattern.shape`` ...)."""
    return {"fillcolor": f.colour, "fillpattern.shape": f.pattern,
            "fillpattern.fgcolor": f.pattern_colour or f.colour, "fillpattern.bgcolor": f.colour,
            "fillpattern.size": style.pattern_size, "fillpattern.solidity": 0.5 if f.pattern == "/" else 0.18,
            "text": f.hover}


def update_state_map(fig: Any, old_view: Mapping[str, Any] | None, new_view: Mapping[str, Any], *,
                     style: StateStyle = DEFAULT_STATE_STYLE) -> int:
    """Move a state map from ``old_view`` to ``new_view``; returns how many parts changed.

    Only fill colours and patterns, area hover texts, label colours, badge and overlay traces,
    the title and the panel are touched — never an area outline. Changes go out through
    ``plotly_update`` (what ``batch_update()`` sends when it closes), one call per group of traces
    changing the same properties — a few messages per step on a ``go.FigureWidget``. Values come
    from the planner, which ``state_map`` passes through plotly's validators. ``old_view=None``
    sets everything.
    """
    facts = _facts_of(fig)
    places = facts.places
    style = dataclasses.replace(style, map_domain=facts.map_domain)
    if old_view is None:
        old = Plan()
    elif old_view is facts.last_view and facts.last_plan is not None:
        old = facts.last_plan
    else:
        old = plan_view(old_view, places, style)
    new = plan_view(new_view, places, style)
    facts.last_view, facts.last_plan = new_view, new
    per_trace: dict[int, dict[str, Any]] = {}
    changed = 0
    fill_changed = [a for a, f in new.fills.items() if old.fills.get(a) != f]
    for a in fill_changed:
        per_trace[facts.areas[a]] = _fill_paths(new.fills[a], style)
        changed += 1
    if any((old.fills.get(a) or Fill("")).label_colour != new.fills[a].label_colour for a in fill_changed):
        if "labels:land" in facts.traces:
            per_trace[facts.traces["labels:land"]] = {
                "textfont.color": [new.fills[a].label_colour for a, p in places.items() if p.kind == "land"]}
    for new_part, old_part in ((new.overlays, old.overlays), (new.badges, old.badges)):
        for uid, props in new_part.items():
            if props != old_part.get(uid) and uid in facts.traces:
                per_trace[facts.traces[uid]] = dict(props)  # every key, so traces of a kind share a key set
                changed += 1
    relayout: dict[str, Any] = {}
    if (new.title, new.subtitle) != (old.title, old.subtitle):
        relayout["title.text"] = _title_text(new)
        changed += 1
    if new.panel != old.panel:
        if not facts.annotations:
            facts.annotations = {a.name: i for i, a in enumerate(fig.layout.annotations) if a.name}
        for name, text in new.panel.items():
            if text != old.panel.get(name) and name in facts.annotations:
                relayout[f"annotations[{facts.annotations[name]}].text"] = text
                changed += 1
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
