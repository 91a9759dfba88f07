"""What a map shows at one moment, as plain data: the contract between a game's rules and ``viz``.

A game *portrays* its own view of a moment (``Ruleset.portray``) as a ``Portrayal``: which map
to draw (a geodata name or a GeoJSON path), how each area is filled, the badges under area
names, paths and marks laid over the map, the boxes of the side panel, the legend, the key and
the title. ``medviz.viz.state_map`` draws any portrayal the same way, and steps a figure from one
portrayal to the next by changing only colours, texts and markers (the geometry is sent once).

Texts are plotly markup: the game adds ``<b>``, ``<br>`` and ``<span style>`` itself and escapes
every name that comes from data with :func:`plain`. Colours are ``#rrggbb``. Nothing here imports
a UI library; the colour helpers (``blend``, ``contrast_text``) are the standard library's arithmetic.

Positions are in pixels relative to an area's label point, so they hold at every zoom: a badge's
``slot`` stacks it under the area name, a mark's ``dy`` lifts it above the name (``dy > 0``) or
drops it below (``dy < 0``) and ``dx`` moves it sideways.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

__all__ = ["AreaFill", "Badge", "BadgeGroup", "LegendEntry", "Mark", "MarkLayer", "PanelBox", "Path", "PathLayer",
           "Place", "Portrayal", "Shades", "blend", "contrast_text", "hex_to_rgb", "plain", "relative_luminance",
           "rgb_to_hex"]


# ------------------------------------------------------------------------------------------
# What a game is told about the map (by the drawer) before it portrays a moment
# ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Place:
    """An area of the map as the drawer places it: label point, kind, lines of its name, its name."""

    lon: float
    lat: float
    kind: str  # "land" | "sea" | "context"
    lines: int
    name: str
    label: str = ""  # the name as the map writes it (markup, wrapped); "": the name


@dataclass(frozen=True)
class Shades:
    """How a portrayal tints its colours (set by the drawer's style): the paper and three strengths."""

    paper: str = "#f6f1e6"  # what tints fade towards
    uncontrolled: str = "#f3ecdc"  # an area that belongs to nobody
    strong: float = 0.92  # a player's own areas
    light: float = 0.85  # allies and vassals
    faint: float = 0.45  # neutral powers


# ------------------------------------------------------------------------------------------
# The portrayal
# ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class AreaFill:
    """How one land area is painted: colour, an optional pattern over it, its name's colour, hover text."""

    colour: str
    pattern: str = ""  # plotly fillpattern shape: "" none, "." dots, "x" cross-hatch, "/" stripes
    pattern_colour: str = ""
    label_colour: str = "#2b2118"
    hover: str = ""


@dataclass(frozen=True)
class Badge:
    """A text under an area's name (a unit stack, a marker); ``slot`` k stacks it k lines lower."""

    area: str
    text: str
    hover: str = ""
    slot: int = 0


@dataclass(frozen=True)
class BadgeGroup:
    """Badges drawn alike: text outlined in ``colour`` (and ``accent``), e.g. one power's stacks."""

    id: str
    colour: str
    badges: tuple[Badge, ...] = ()
    accent: str | None = None
    #: The text's colour; None: dark or white, whichever reads best on ``colour``.
    text_colour: str | None = None


@dataclass(frozen=True)
class Path:
    """A route through areas, drawn as arrows from label point to label point."""

    areas: tuple[str, ...]
    hover: str = ""


@dataclass(frozen=True)
class PathLayer:
    """Paths drawn in one colour (e.g. one side's moves); every path layer gets a white halo beneath."""

    id: str
    colour: str
    paths: tuple[Path, ...] = ()


@dataclass(frozen=True)
class Mark:
    """A marker with a text at an area; ``roll``: the id of the roll a click on it picks.

    A click on a mark of a clickable layer reports ``[ref, area, roll]`` (the trace's ``customdata``).
    """

    area: str
    text: str = ""
    hover: str = ""
    colour: str | None = None  # None: the layer's colour
    symbol: str | None = None  # None: the layer's symbol
    dx: float = 0.0  # pixels to the right of the label point
    dy: float = 0.0  # pixels above (> 0) or below (< 0) the area's name; 0: at the label point
    roll: str | None = None
    #: What a click reports first (the game's own number for the mark); None: its place in the layer.
    ref: int | None = None


@dataclass(frozen=True)
class MarkLayer:
    """Marks drawn alike (battles, interceptions...): a plotly marker symbol, size, colours, text place."""

    id: str
    symbol: str = "circle"
    size: int = 14
    colour: str = "#1b1b1b"
    text_colour: str = "#1b1b1b"
    text_position: str = "middle right"
    outline: float = 1.5
    marks: tuple[Mark, ...] = ()
    #: Marks of this layer set their own colour / symbol (else every mark takes the layer's).
    own_colours: bool = False
    own_symbols: bool = False
    #: A click on a mark picks its roll (the dice lab listens to clickable layers).
    clickable: bool = False


@dataclass(frozen=True)
class PanelBox:
    """One box of the side panel: its text and the lines it reserves (so boxes never overlap)."""

    id: str
    text: str
    lines: int = 1
    colour: str | None = None  # a filled box in this colour; None: text on the panel
    border: str | None = None
    text_colour: str | None = None  # None: dark on the panel, or what reads best on ``colour``
    size: int = 0  # points added to the panel's font size (a heading)
    gap: float = 10  # pixels below the box


@dataclass(frozen=True)
class LegendEntry:
    """One legend entry: a swatch (colour, optional pattern) and its label."""

    label: str
    colour: str
    pattern: str = ""
    pattern_colour: str = ""


def _frozen(mapping: Mapping[str, AreaFill]) -> Mapping[str, AreaFill]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class Portrayal:
    """Everything a map shows of one moment of a game (plain data; ``medviz.viz`` draws it)."""

    #: The map: a geodata name (``medviz.geo.load``) or the path of a GeoJSON file.
    map: str
    title: str = ""
    subtitle: str = ""
    fills: Mapping[str, AreaFill] = field(default_factory=dict)
    #: Badge groups and layers are the same from moment to moment of a game (their contents change).
    badges: tuple[BadgeGroup, ...] = ()
    paths: tuple[PathLayer, ...] = ()
    marks: tuple[MarkLayer, ...] = ()
    panel: tuple[PanelBox, ...] = ()
    legend: tuple[LegendEntry, ...] = ()
    legend_title: str = ""
    #: The key under the map (markup): its parts share one line on a wide figure, one line each otherwise.
    key: tuple[str, ...] = ()
    #: The moment's overlays in plain words (for readers without the map: an export's panel).
    step_title: str = ""
    step_lines: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "fills", _frozen(self.fills))
        for name in ("badges", "paths", "marks", "panel", "legend", "key", "step_lines"):
            object.__setattr__(self, name, tuple(getattr(self, name)))


def default_portrayal(view: Any, map_name: str, title: str = "") -> Portrayal:
    """A view that is already a ``Portrayal`` stays one; anything else: the bare map, titled."""
    if isinstance(view, Portrayal):
        return view
    return Portrayal(map=map_name, title=plain(title))


# ------------------------------------------------------------------------------------------
# Text and colour helpers for portrayals
# ------------------------------------------------------------------------------------------
def plain(value: object) -> str:
    """``value`` as text plotly draws literally (``&``, ``<``, ``>`` escaped; markup never passes)."""
    return html.escape(str(value), quote=False)


def hex_to_rgb(colour: str) -> tuple[float, float, float]:
    """``#rrggbb`` (or ``#rgb``) as sRGB floats in 0..1."""
    h = colour.strip().lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    if len(h) != 6:
        raise ValueError(f"not a hex colour: {colour!r}")
    return tuple(int(h[i:i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore[return-value]


def rgb_to_hex(rgb: Sequence[float]) -> str:
    """sRGB floats in 0..1 as ``#rrggbb`` (clipped)."""
    return "#" + "".join(f"{round(min(1.0, max(0.0, c)) * 255):02x}" for c in rgb)


def blend(colour: str, base: str, amount: float) -> str:
    """``amount`` of ``colour`` over ``base`` (1 = colour, 0 = base), mixed in sRGB."""
    a, b = hex_to_rgb(colour), hex_to_rgb(base)
    return rgb_to_hex([amount * x + (1 - amount) * y for x, y in zip(a, b)])


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def relative_luminance(colour: str) -> float:
    """WCAG relative luminance (0 black .. 1 white)."""
    r, g, b = (_linear(c) for c in hex_to_rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_text(fill: str, dark: str = "#2b2118", light: str = "#ffffff") -> str:
    """The text colour (dark or light) that reads best on ``fill`` (WCAG contrast ratio)."""
    lum = relative_luminance(fill)

    def ratio(other: str) -> float:
        hi, lo = sorted((lum, relative_luminance(other)), reverse=True)
        return (hi + 0.05) / (lo + 0.05)

    return dark if ratio(dark) >= ratio(light) else light
