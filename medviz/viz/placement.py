"""Where area names and their badges go so that no two of them overlap (a placement pass).

Any game's portrayal puts an area's badges under its name, at the area's label point. Where areas
are small and crowded (Catalonia, Valencia, Majorca, Sardinia, Sicily, Malta) those stacks run into
each other. This pass moves each area's *cluster* — its name with its badges stacked under it —
the shortest distance that clears every cluster already placed, and draws a leader line from the
label point to a cluster that had to move away from it.

Everything is arithmetic on estimated text boxes, in pixels of the figure at the size it is drawn
(``MapFrame``: the projection of the map's data units onto the figure's pixels), so the result
is deterministic and needs no browser. Text widths come from the font size and the characters
(Liberation Sans / Arial advance widths, grouped in a few classes).
"""

from __future__ import annotations

import bisect
import dataclasses
import functools
import html
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["BADGE_OUTLINE", "REACH", "SYMBOL_REACH", "Box", "Cluster", "MapFrame", "MapSpace", "Placed", "badge_top", "carried", "frame_of_figure", "label_bottom",
           "marker_box", "marker_for_top", "place_clusters", "placed_boxes", "point_text_box", "segment_boxes", "text_size", "text_top"]

#: Pixels of solid outline drawn around a badge's glyphs (``state_map._outline(colour, 3)``).
BADGE_OUTLINE = 3.0
#: Distance between two lines of plotly's text, and the height of one line's box, as shares of the font size.
LINE_SPACING = 1.3
LINE_BOX = 1.17
#: Where plotly.js puts a point's first baseline below its point, as a share of the font size (before the
#: offsets for the text position), and how far a line's box reaches above its baseline: Liberation Sans'
#: ascent (0.905), which chromium rounds to whole pixels (11 px at 12 px: its text boxes measured).
BASELINE = 0.75
ASCENT = 0.91
#: Pixels between a name and the badge under it, and between two badges.
BADGE_GAP = 1.0
ROW_GAP = 2.0
#: A cluster moved further than this (pixels) from its label point gets a leader line.
LEADER_AFTER = 9.0
#: Pixels a legend entry takes besides its text (swatch, gaps, padding), measured in chromium.
LEGEND_SWATCH = 45.5
#: Pixels kept free between two boxes.
CLEARANCE = 1.0

_TAG = re.compile(r"<[^>]*>")
# Advance widths (em) of Liberation Sans / Arial, by class; bold adds about 8 %.
_NARROW = set("iljtfrI.,:;'!|·()[] ")
_WIDE = set("mwMWÆŒ@%")
_CAPS = set("ABCDEFGHJKLNOPQRSTUVXYZ&")


def _char_em(c: str) -> float:
    if c in _NARROW:
        return 0.3
    if c in _WIDE:
        return 0.86
    if c in _CAPS:
        return 0.69
    if c.isdigit():
        return 0.56
    if ord(c) > 0x2000:  # symbols (crown, cross, swords) come from a fallback font
        return 1.0
    return 0.53


@functools.lru_cache(maxsize=8192)
def text_size(text: str, size: float) -> tuple[float, float]:
    """Estimated (width, height) in pixels of a plotly text in Liberation Sans at ``size`` px (markup aware)."""
    bold = "<b>" in text
    lines = [html.unescape(_TAG.sub("", part)) for part in re.split(r"<br\s*/?>", text)]
    widest = max((sum(_char_em(c) for c in line) for line in lines), default=0.0)
    return widest * size * (1.08 if bold else 1.0) + 2.0, size * (LINE_BOX + LINE_SPACING * (len(lines) - 1))


def _past_marker(marker_size: float) -> float:
    """Pixels plotly.js moves a text past its point's marker (``marker_size`` px across; none for size 0)."""
    return marker_size / 1.6 + 1 if marker_size > 0 else 0.0


def text_top(size: float, lines: int, marker_size: float = 0.0, below: bool = False) -> float:
    """Pixels from a point down to the top of its text's box, as plotly.js places a text point (negative: above it).

    plotly.js ``Drawing.textPointPosition`` puts the first baseline ``0.75 size`` below the point, plus
    ``size/1.6 + 1`` px past a marker for ``below`` (``textposition="bottom center"``; a marker of size
    0 adds nothing), minus half the lines' height for ``"middle center"``; the box starts one ascent
    (``ASCENT``) above that baseline. Checked against chromium's boxes (tests/browser/test_map_text_boxes.py).
    """
    if below:
        return (BASELINE - ASCENT) * size + _past_marker(marker_size)
    return (BASELINE - ASCENT) * size - (1 + LINE_SPACING * (lines - 1)) * size / 2


def point_text_box(text: str, size: float, position: str = "middle center", marker_size: float = 0.0) -> Box:
    """The box (pixels, relative to its point, y down) of a scatter point's text at plotly ``textposition``.

    plotly.js ``Drawing.textPointPosition``: past a marker by ``size/1.6 + 1`` px on the sides the
    position names; the first baseline ``0.75 size`` below the point, less the lines' height for
    ``top``, less half of it for ``middle``; the box one ascent above the baseline (``text_top``).
    """
    w, h = text_size(text, size)
    lines = len(re.split(r"<br\s*/?>", text))
    r = _past_marker(marker_size)
    sign_v = -1 if "top" in position else 1 if "bottom" in position else 0
    top = (BASELINE - ASCENT) * size + sign_v * r + (sign_v - 1) * (1 + LINE_SPACING * (lines - 1)) * size / 2
    if "left" in position:
        left = -r - w
    elif "right" in position:
        left = r
    else:
        left = -w / 2
    return Box(left, top, left + w, top + h)


#: How far a plotly.js marker symbol reaches from its point, in half its ``size`` (plotly.js
#: ``symbol_defs``: a star's points 1.4, a diamond's 1.3, an x's arms 1.13; a circle or square 1).
SYMBOL_REACH = {"star": 1.4, "star-diamond": 1.4, "diamond": 1.3, "x": 1.15}


def marker_box(size: float, outline: float = 0.0, symbol: str = "circle") -> Box:
    """The box (pixels, relative to its point) of a plotly marker ``size`` px across with an ``outline`` px line."""
    r = SYMBOL_REACH.get(symbol, 1.0) * size / 2 + outline / 2
    return Box(-r, -r, r, r)


def segment_boxes(x0: float, y0: float, x1: float, y1: float, half_width: float, step: float = 8.0) -> list[Box]:
    """Boxes (pixels) that together cover a line from (x0, y0) to (x1, y1) drawn ``2 * half_width`` px wide.

    The line is cut into pieces at most ``step`` px long, each covered by its bounding box grown by
    ``half_width``: a little more than the line (at most ``step`` px more across a diagonal piece).
    """
    n = max(1, math.ceil(math.hypot(x1 - x0, y1 - y0) / step))
    out = []
    for k in range(n):
        ax, ay = x0 + (x1 - x0) * k / n, y0 + (y1 - y0) * k / n
        bx, by = x0 + (x1 - x0) * (k + 1) / n, y0 + (y1 - y0) * (k + 1) / n
        out.append(Box(min(ax, bx) - half_width, min(ay, by) - half_width, max(ax, bx) + half_width, max(ay, by) + half_width))
    return out


def marker_for_top(top: float, size: float) -> float:
    """The (invisible) marker size that puts a ``bottom center`` text's top ``top`` px below its point.

    (plotly.js moves such a text ``marker/1.6 + 1`` px down past a marker, nothing past one of size 0:
    a top less than 1 px below the text's own is reached with no marker.)
    """
    past = top - (BASELINE - ASCENT) * size
    return max(0.0, (past - 1) * 1.6) if past >= 1 else 0.0


@dataclass(frozen=True)
class MapFrame:
    """How the map's data units fall on the figure's pixels: the shown ranges and pixels per unit."""

    x0: float
    x1: float
    y0: float
    y1: float
    px_x: float  # pixels per unit of longitude
    px_y: float  # pixels per unit of (stretched) latitude

    def to_px(self, x: float, y: float) -> tuple[float, float]:
        """Pixel position (right, down) of a data point, from the map's top left corner."""
        return (x - self.x0) * self.px_x, (self.y1 - y) * self.px_y

    def to_data(self, px: float, py: float) -> tuple[float, float]:
        """The data point at a pixel position (right, down) from the map's top left corner."""
        return self.x0 + px / self.px_x, self.y1 - py / self.px_y

    @property
    def size_px(self) -> tuple[float, float]:
        """Width and height of the shown map in pixels."""
        return (self.x1 - self.x0) * self.px_x, (self.y1 - self.y0) * self.px_y


def frame_of_figure(figure: Mapping[str, Any]) -> MapFrame:
    """The frame of a cartesian map figure from its dict (size, margins, domains, ranges, scale ratio, legend).

    Both axes are constrained to their domain with a fixed scale ratio (``basemap.base_map``):
    the axis with room to spare shrinks, so one pixel scale holds for both. A legend that would
    run past the figure's right edge widens the right margin (plotly's automargin, unless the margin
    says ``autoexpand: false``): estimated here.
    """
    data, layout = figure.get("data") or [], figure.get("layout") or {}
    width, height = float(layout.get("width") or 1600), float(layout.get("height") or 1000)
    margin = layout.get("margin") or {}
    xa, ya = layout.get("xaxis") or {}, layout.get("yaxis") or {}
    x0, x1 = (float(v) for v in xa["range"])
    y0, y1 = (float(v) for v in ya["range"])
    dx0, dx1 = xa.get("domain") or (0.0, 1.0)
    dy0, dy1 = ya.get("domain") or (0.0, 1.0)
    left = float(margin.get("l", 80))
    full_w = width - left - float(margin.get("r", 80))
    legend = layout.get("legend") or {}
    entries = [t.get("name") or "" for t in data if t.get("showlegend")]
    grows = margin.get("autoexpand", True) is not False
    if grows and layout.get("showlegend") and entries and legend.get("xanchor") == "left" and legend.get("x"):
        size = float((legend.get("font") or {}).get("size") or 12)
        legend_w = max(text_size(e, size)[0] for e in entries) + LEGEND_SWATCH
        full_w = min(full_w, (width - left - legend_w) / float(legend["x"]))
    plot_w = full_w * (dx1 - dx0)
    plot_h = (height - float(margin.get("t", 100)) - float(margin.get("b", 80))) * (dy1 - dy0)
    ratio = float(ya.get("scaleratio") or 1.0)
    scale = min(plot_w / (x1 - x0), plot_h / ((y1 - y0) * ratio))
    return MapFrame(x0, x1, y0, y1, scale, scale * ratio)


@dataclass(frozen=True)
class MapSpace:
    """What the placement knows of a drawn map: its frame, fixed boxes (city names), names wider than their area."""

    frame: MapFrame
    fixed: tuple[Box, ...] = ()
    #: Land areas whose name spills off their own fill even at the label point (drawn in dark ink).
    spills: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Box:
    """An axis-aligned box in pixels (right, down) from the map's top left corner."""

    left: float
    top: float
    right: float
    bottom: float

    def intersects(self, other: Box, clearance: float = 0.0) -> bool:
        """True when the two boxes overlap (or come closer than ``clearance`` pixels)."""
        return (self.left < other.right + clearance and other.left < self.right + clearance
                and self.top < other.bottom + clearance and other.top < self.bottom + clearance)

    def moved(self, dx: float, dy: float) -> Box:
        """The box shifted by (dx, dy) pixels."""
        return Box(self.left + dx, self.top + dy, self.right + dx, self.bottom + dy)


def label_bottom(label_lines: int, label_size: float) -> float:
    """Pixels from a label point down to the bottom of its name (0: no name)."""
    if label_lines <= 0:
        return 0.0
    return text_top(label_size, label_lines) + label_size * (LINE_BOX + LINE_SPACING * (label_lines - 1))


def badge_top(label_lines: int, label_size: float, badge_size: float, row: int) -> float:
    """Pixels from the label point down to the top of the ``row``-th badge's text under an area name."""
    row_h = badge_size * LINE_BOX + 2 * BADGE_OUTLINE + ROW_GAP
    # plotly.js puts a "bottom center" text at least this far below its point (an invisible marker of size 0)
    first = max(label_bottom(label_lines, label_size) + BADGE_GAP + BADGE_OUTLINE, text_top(badge_size, 1, 0.0, below=True))
    return first + row * row_h


@dataclass(frozen=True)
class Cluster:
    """One area's name and the badges under it, as (width, height) boxes relative to the label point."""

    area: str
    x: float  # label point, data units
    y: float
    label: tuple[float, float]  # width, height (0, 0: no name drawn)
    label_lines: int
    label_size: float
    badges: tuple[tuple[float, float], ...] = ()  # one per row, top to bottom
    #: Further boxes that move with the name (a battle's star and its text), pixels relative to the label point.
    marks: tuple[Box, ...] = ()
    #: Names to carry instead, in turn, where the cluster finds no free spot within reach: (width, height,
    #: lines) of a shorter name, (0, 0, 0) for none (the area's hover still names it).
    fallbacks: tuple[tuple[float, float, int], ...] = ()
    #: Among clusters of names alone, lower ranks are placed first (land names before seas').
    rank: int = 0
    #: Pixels the cluster keeps below the map's top edge (a text over a marker: ``state_map.MARK_TOP_ROOM``).
    top_room: float = 0.0

    def boxes(self, badge_size: float) -> list[Box]:
        """The cluster's boxes in pixels relative to its label point (y down)."""
        out = list(self.marks)
        w, h = self.label
        if w > 0:
            top = text_top(self.label_size, self.label_lines)
            out.append(Box(-w / 2, top, w / 2, top + h))
        for row, (bw, bh) in enumerate(self.badges):
            top = badge_top(self.label_lines, self.label_size, badge_size, row) - BADGE_OUTLINE
            out.append(Box(-bw / 2 - BADGE_OUTLINE, top, bw / 2 + BADGE_OUTLINE, top + bh + 2 * BADGE_OUTLINE))
        return out


@dataclass(frozen=True)
class Placed:
    """Where a cluster went: its new point (data units) and whether it needs a leader line."""

    x: float
    y: float
    leader: tuple[float, float, float, float] | None  # from the label point to the cluster's edge
    moved: float = 0.0  # pixels from the label point
    #: Which name it carries: 0 the cluster's own, k its ``fallbacks[k - 1]`` (a shorter name, or none).
    label: int = 0
    #: True when no free spot was found: it stays where the fewest of its boxes meet others.
    crowded: bool = False

    @property
    def away(self) -> bool:
        """True when the cluster was moved far enough to sit off its own area's fill (drawn in dark ink)."""
        return self.moved > LEADER_AFTER


def _offsets(step: float, reach: float, spacing: float = 4.0, near: float = 48.0) -> list[tuple[float, float]]:
    """Candidate moves (pixels), nearest first; at equal distance sideways, then down, then up.

    Rings ``step`` px apart with a candidate every ``spacing`` px of each, up to ``near`` px; further
    out (where a cluster goes only when nothing nearer is free) twice as far apart both ways, and
    beyond three times ``near`` four times.
    """
    out = [(0.0, 0.0)]
    r = step
    while r <= reach:
        coarse = 1 if r <= near else 2 if r <= 3 * near else 4
        n = max(8, int(2 * math.pi * r / (spacing * coarse)))
        for k in range(n):
            a = 2 * math.pi * k / n
            out.append((round(r * math.cos(a), 3), round(r * math.sin(a), 3)))
        r += step * coarse
    return sorted(out, key=lambda o: (round(math.hypot(*o), 3), abs(o[1]) > abs(o[0]), o[1] < 0, o))


#: How far a cluster may move from its label point, as a share of the map's width in pixels (240 px
#: on a 1340 px map, 86 px on a 480 px thumbnail): further, a name would be read as a neighbour's.
#: On a map too small for every name some stay overlapping.
REACH = 0.18
#: How much further than ``REACH`` badges and marks may go when no spot within reach is free (names are
#: dropped instead: the area's hover still names it).
FURTHER = 3.0
_OFFSETS = _offsets(3.0, 600.0)
_DISTANCES = [math.hypot(dx, dy) for dx, dy in _OFFSETS]


class _Grid:
    """Placed boxes in buckets of ``cell`` pixels, for quick overlap tests (boxes kept as plain tuples)."""

    def __init__(self, cell: float = 48.0) -> None:
        self.cell = cell
        self.cells: dict[tuple[int, int], list[tuple[float, float, float, float]]] = {}

    def add(self, b: Box) -> None:
        c, t = self.cell, (b.left, b.top, b.right, b.bottom)
        for i in range(math.floor(b.left / c), math.floor(b.right / c) + 1):
            for j in range(math.floor(b.top / c), math.floor(b.bottom / c) + 1):
                self.cells.setdefault((i, j), []).append(t)

    def hit(self, left: float, top: float, right: float, bottom: float) -> tuple[float, float, float, float] | None:
        """A placed box (as a tuple) that the box (left, top, right, bottom) meets, or None (``hits``)."""
        c, cells, cl, floor = self.cell, self.cells, CLEARANCE, math.floor
        for i in range(floor(left / c), floor(right / c) + 1):
            for j in range(floor(top / c), floor(bottom / c) + 1):
                for o in cells.get((i, j), ()):
                    if left < o[2] + cl and o[0] < right + cl and top < o[3] + cl and o[1] < bottom + cl:
                        return o
        return None

    def hits(self, left: float, top: float, right: float, bottom: float) -> bool:
        """True when the box (left, top, right, bottom) meets a placed one (``Box.intersects`` with CLEARANCE)."""
        c, cells, cl, floor = self.cell, self.cells, CLEARANCE, math.floor
        for i in range(floor(left / c), floor(right / c) + 1):
            for j in range(floor(top / c), floor(bottom / c) + 1):
                for ol, ot, orr, ob in cells.get((i, j), ()):
                    if left < orr + cl and ol < right + cl and top < ob + cl and ot < bottom + cl:
                        return True
        return False


def carried(cluster: Cluster, label: int) -> Cluster:
    """The cluster with the name it carries (``Placed.label``: 0 its own, k its ``fallbacks[k - 1]``)."""
    if label == 0:
        return cluster
    w, h, n = cluster.fallbacks[label - 1]
    return dataclasses.replace(cluster, label=(w, h), label_lines=n)


def placed_boxes(cluster: Cluster, at: Placed, frame: MapFrame, badge_size: float) -> list[Box]:
    """The boxes (pixels of ``frame``) of a cluster where the placement put it, with the name it carries."""
    px, py = frame.to_px(at.x, at.y)
    return [b.moved(px, py) for b in carried(cluster, at.label).boxes(badge_size)]


def place_clusters(clusters: Sequence[Cluster], frame: MapFrame, badge_size: float,
                   fixed: Sequence[Box] = ()) -> dict[str, Placed]:
    """Place every cluster where none of its boxes meets another's (nearest free spot to its label point).

    Clusters with badges or marks go first (largest first), then names alone (by ``rank``); each takes
    the nearest candidate position, inside the map, that meets no box already placed nor a ``fixed``
    one (city names, moves: pixels of ``frame``), and its ``top_room`` px or more below the map's top. A cluster that finds none within reach (``REACH``
    of the map's width) tries its ``fallbacks`` names in turn (``Placed.label`` says which it took);
    badges and marks with the last of them may go ``FURTHER``; with none left a cluster stays where its
    fewest boxes collide, nearest first.
    """
    return _place(tuple(clusters), frame, float(badge_size), tuple(fixed))


@dataclass(frozen=True)
class _Spot:
    """Where a placement put one cluster, and what change of the boxes placed before it could move it."""

    placed: Placed
    taken: tuple[Box, ...]  # the boxes it put in the grid (pixels)
    #: Every candidate it tried lies in this box (pixels): a box that left the grid elsewhere freed none of them.
    region: Box | None
    #: It took the last resort (where the fewest of its boxes collide): any box coming into ``region`` counts,
    #: not only one meeting its spot.
    counted: bool = False


#: The last placement on each (frame, badge size, fixed boxes): its clusters in the order placed and their
#: spots. A cluster's spot depends only on the boxes placed before it (the fixed ones and the clusters
#: earlier in the order): the first free candidate, nearest first. The next placement on that frame takes
#: an unchanged cluster's spot again when none of the boxes placed before it then and not now lies where it
#: tried (a nearer candidate might be free now) and none placed before it now and not then meets that spot
#: -- the same result as a search, without the search (a step changes a few areas' badges).
_RESUME: dict[tuple[MapFrame, float, tuple[Box, ...]], tuple[list[Cluster], list[_Spot]]] = {}
#: How many (frame, badge size, fixed boxes) ``_RESUME`` keeps (an app's map and its marks, the export's).
RESUME_KEEP = 8


def forget_placements() -> None:
    """Forget every placement made (``place_clusters`` then searches every cluster afresh; for tests and benchmarks)."""
    _RESUME.clear()
    _place.cache_clear()


def _still_there(spot: _Spot, removed: list[Box], added: list[Box]) -> bool:
    """True when a search would put the cluster at ``spot`` again after ``removed`` left the grid and ``added``
    came into it."""
    if spot.region is None:
        return True
    cl, region = CLEARANCE, spot.region
    if any(b.intersects(region, cl) for b in removed):
        return False
    if spot.counted:
        return not any(b.intersects(region, cl) for b in added)
    return not any(b.intersects(t, cl) for b in added for t in spot.taken)


def _grown(left: float, top: float, right: float, bottom: float, by: float, into: Box | None) -> Box:
    """The box grown ``by`` pixels on every side, joined with ``into`` (their bounds)."""
    b = Box(left - by, top - by, right + by, bottom + by)
    if into is None:
        return b
    return Box(min(b.left, into.left), min(b.top, into.top), max(b.right, into.right), max(b.bottom, into.bottom))


#: How many placements ``_place`` keeps (about 26 kB each): more than a whole Vespers replay's export makes (521), so a
#: second export of a history in one process, or an app's walk back over it, searches none again (at 512 a
#: replay's pass evicted each placement before it came round again and a second export found none).
PLACE_KEEP = 1024


@functools.lru_cache(maxsize=PLACE_KEEP)
def _place(clusters: tuple[Cluster, ...], frame: MapFrame, badge_size: float,
           fixed: tuple[Box, ...]) -> dict[str, Placed]:
    width, height = frame.size_px
    order = sorted(clusters, key=lambda c: (not (c.badges or c.marks), c.rank, -len(c.badges) - len(c.marks), c.area))
    grid = _Grid()
    for b in fixed:
        grid.add(b)
    key = (frame, badge_size, fixed)
    old_order, old_spots = _RESUME.pop(key, ([], []))
    old_at = {c.area: i for i, c in enumerate(old_order)}
    spots: list[_Spot] = []
    now: dict[str, _Spot] = {}  # the areas placed so far in this placement
    reach = REACH * width
    within = _OFFSETS[:bisect.bisect_right(_DISTANCES, reach)]
    further = _OFFSETS[:bisect.bisect_right(_DISTANCES, FURTHER * reach)]
    hits, hit = grid.hits, grid.hit
    out: dict[str, Placed] = {}
    for c in order:
        i = old_at.get(c.area)
        if i is not None and old_order[i] == c:
            # The boxes placed before it then and not now (or elsewhere now), and now and not then.
            removed = [b for a in old_order[:i] if a.area not in now or now[a.area] is not old_spots[old_at[a.area]]
                       for b in old_spots[old_at[a.area]].taken]
            added = [b for a, sp in now.items() if old_at.get(a, i) >= i or sp is not old_spots[old_at[a]] for b in sp.taken]
            if _still_there(old_spots[i], removed, added):
                spot = old_spots[i]
                for b in spot.taken:
                    grid.add(b)
                out[c.area] = spot.placed
                spots.append(spot)
                now[c.area] = spot
                continue
        px, py = frame.to_px(c.x, c.y)
        variants = [carried(c, k) for k in range(len(c.fallbacks) + 1)]
        region: Box | None = None  # where the candidates tried lie
        counted = False
        for k, v in enumerate(variants):
            last = k == len(variants) - 1
            boxes = [b.moved(px, py) for b in v.boxes(badge_size)]
            if not boxes:
                break
            parts = [(b.left, b.top, b.right, b.bottom) for b in boxes]
            hl, ht = min(b[0] for b in parts), min(b[1] for b in parts)
            hr, hb = max(b[2] for b in parts), max(b[3] for b in parts)
            single = len(parts) == 1
            free = None
            # a last resort for badges and marks (which are never dropped): further, with a leader line
            candidates = within if not last or not (v.badges or v.marks) else further
            # The part that met a placed box at the last candidate, and that box: the next candidate (a few
            # pixels on) most often meets it again, which one comparison tells without the grid.
            blocker, (wl, wt, wr, wb) = parts[0], (math.inf, math.inf, -math.inf, -math.inf)
            cl = CLEARANCE
            for dx, dy in candidates:
                left, top, right, bottom = hl + dx, ht + dy, hr + dx, hb + dy
                if left < 0 or top < c.top_room or right > width or bottom > height:  # inside the map (plotly clips at its edge)
                    continue
                pl, pt, pr, pb = blocker
                if pl + dx < wr + cl and wl < pr + dx + cl and pt + dy < wb + cl and wt < pb + dy + cl:
                    continue
                o = hit(left, top, right, bottom)
                if o is None:
                    free = (dx, dy)
                    break
                if single:
                    wl, wt, wr, wb = o
                    continue
                for part in (blocker, *parts):
                    pl, pt, pr, pb = part
                    o = hit(pl + dx, pt + dy, pr + dx, pb + dy)
                    if o is not None:
                        blocker, (wl, wt, wr, wb) = part, o
                        break
                else:
                    free = (dx, dy)
                    break
            if free is not None:
                region = _grown(hl, ht, hr, hb, math.hypot(*free) + 1.0, region)
            else:
                region = _grown(hl, ht, hr, hb, (FURTHER if candidates is further else 1.0) * reach + 1.0, region)
            crowded = free is None and last
            if crowded:  # nowhere free within reach: where the fewest of its boxes collide
                tries = [(sum(hits(a + dx, b + dy, r + dx, d + dy) for a, b, r, d in parts), math.hypot(dx, dy), dx, dy)
                         for dx, dy in within]
                free = min(tries)[2:]
                counted = True
                region = _grown(hl, ht, hr, hb, reach + 1.0, region)
            if free is not None:
                break
        if not boxes:
            out[c.area] = Placed(c.x, c.y, None, label=k)
            spot = _Spot(out[c.area], (), region)
            spot = old_spots[i] if i is not None and old_spots[i] == spot else spot
            spots.append(spot)
            now[c.area] = spot
            continue
        assert free is not None
        dx, dy = free
        taken = tuple(b.moved(dx, dy) for b in boxes)
        for b in taken:
            grid.add(b)
        x, y = frame.to_data(px + dx, py + dy)
        leader = None
        ex, ey = min(max(px, hl + dx), hr + dx), min(max(py, ht + dy), hb + dy)
        if math.hypot(dx, dy) > LEADER_AFTER and math.hypot(ex - px, ey - py) > 2:
            end = frame.to_data(ex, ey)
            leader = (c.x, c.y, end[0], end[1])
        out[c.area] = Placed(x, y, leader, round(math.hypot(dx, dy), 3), k, crowded)
        spot = _Spot(out[c.area], taken, region, counted)
        if i is not None and old_spots[i] == spot:
            spot = old_spots[i]  # where it was: the clusters after it see no change here
        spots.append(spot)
        now[c.area] = spot
    _RESUME[key] = (order, spots)
    while len(_RESUME) > RESUME_KEEP:
        del _RESUME[next(iter(_RESUME))]
    return out
