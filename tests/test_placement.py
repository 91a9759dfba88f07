"""Names, badges and marks on the map never overlap one another, and marks never sit on a move's arrow:
every box, computed from the figure as data (``fig.to_plotly_json()``) at the default size and at the
sizes the apps draw."""

from __future__ import annotations

import functools
import gzip
import itertools
from pathlib import Path
from typing import Any

import pytest

from medviz.engine import History
from medviz.viz.placement import (
    Box,
    MapFrame,
    MapSpace,
    badge_top,
    frame_of_figure,
    marker_box,
    point_text_box,
    text_size,
    text_top,
)
from medviz.viz.state_map import city_boxes, shown_portrayal, state_map, update_state_map

GOLDEN = Path(__file__).parent / "golden"
OUTLINE = 3.0  # the badge's outline (state_map draws a 3 px solid text-shadow)


def _boxes(fig_json: dict[str, Any]) -> list[tuple[str, Box]]:
    """Every area name, badge and mark of a state map as a pixel box, read from ``fig.to_plotly_json()`` alone.

    Names are centred on their point (``textposition="middle center"``); a badge's text hangs under
    its invisible marker (``"bottom center"``), outlined 3 px; ``text_top`` is where plotly.js puts
    a text's top (checked against chromium's boxes in tests/browser/test_map_placement.py). A mark
    (a battle's star, an interception's cross, a card's square) is its marker (size and outline) and
    its text beside it (``point_text_box`` at the trace's ``textposition``, 1 px of halo).
    """
    frame = frame_of_figure(fig_json)
    out = []
    for tr in fig_json["data"]:
        name = tr.get("name") or ""
        if name.startswith("labels:"):
            size = float(tr["textfont"]["size"])
            for x, y, text in zip(tr["x"], tr["y"], tr["text"]):
                if not text:  # a name left out (no room for it on a small map)
                    continue
                w, h = text_size(text, size)
                px, py = frame.to_px(x, y)
                top = py + text_top(size, text.count("<br>") + 1)
                out.append((f"{name} {text}", Box(px - w / 2, top, px + w / 2, top + h)))
        elif tr.get("mode") == "markers+text" and tr.get("textposition") == "bottom center" and tr.get("x"):
            size = float(tr["textfont"]["size"])
            for x, y, text, gap in zip(tr["x"], tr["y"], tr["text"], tr["marker"]["size"]):
                w, h = text_size(text, size)
                px, py = frame.to_px(x, y)
                top = py + text_top(size, 1, gap, below=True) - OUTLINE
                out.append((f"{name} {text}", Box(px - w / 2 - OUTLINE, top, px + w / 2 + OUTLINE, top + h + 2 * OUTLINE)))
        elif tr.get("mode") == "markers+text" and name != "cities" and tr.get("x"):
            size = float(tr["textfont"]["size"])
            msize = float(tr["marker"]["size"])
            outline = float((tr["marker"].get("line") or {}).get("width") or 0)
            symbols = tr["marker"].get("symbol") or "circle"
            for i, (x, y, text) in enumerate(zip(tr["x"], tr["y"], tr["text"])):
                px, py = frame.to_px(x, y)
                symbol = symbols if isinstance(symbols, str) else symbols[i]
                out.append((f"{name}#{i} marker {text}", marker_box(msize, outline, symbol).moved(px, py)))
                if text:
                    b = point_text_box(text, size, tr["textposition"], msize).moved(px, py)
                    out.append((f"{name}#{i} {text}", Box(b.left - 1, b.top - 1, b.right + 1, b.bottom + 1)))
    return out


def _moves(fig_json: dict[str, Any]) -> tuple[list[tuple[str, Box]], list[tuple[str, tuple[float, float, float, float], float]]]:
    """The moves drawn over the map: their arrowheads and start circles (boxes) and their lines with the
    white halo under them (segments in pixels, and half the halo's width)."""
    frame = frame_of_figure(fig_json)
    markers, segments = [], []
    for tr in fig_json["data"]:
        if tr.get("mode") == "lines+markers" and tr.get("x"):
            r = float(tr["marker"]["size"]) / 2 + float(tr["marker"]["line"]["width"]) / 2
            for x, y in zip(tr["x"], tr["y"]):
                if x is not None:
                    px, py = frame.to_px(x, y)
                    markers.append((f"{tr['name']} marker", Box(px - r, py - r, px + r, py + r)))
        elif tr.get("name") == "moves-halo" and tr.get("x"):
            half = float(tr["line"]["width"]) / 2
            pts = list(zip(tr["x"], tr["y"]))
            for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
                if x0 is not None and x1 is not None:
                    segments.append(("move line", (*frame.to_px(x0, y0), *frame.to_px(x1, y1)), half))
    return markers, segments


def _segment_meets(seg: tuple[float, float, float, float], half: float, box: Box) -> bool:
    """True when a line ``2 * half`` px wide from (x0, y0) to (x1, y1) passes over ``box`` (Liang-Barsky clipping)."""
    x0, y0, x1, y1 = seg
    left, top, right, bottom = box.left - half, box.top - half, box.right + half, box.bottom + half
    t0, t1 = 0.0, 1.0
    for p, q in ((-(x1 - x0), x0 - left), (x1 - x0, right - x0), (-(y1 - y0), y0 - top), (y1 - y0, bottom - y0)):
        if p == 0:
            if q < 0:
                return False
        else:
            t = q / p
            if p < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
            if t0 > t1:
                return False
    return True


def _city_boxes(fig_json: dict[str, Any]) -> list[tuple[str, Box]]:
    """The base map's city names and markers (fixed: the placement keeps names and badges off them)."""
    cities = next((t for t in fig_json["data"] if t.get("name") == "cities"), None)
    if cities is None:
        return []
    frame = frame_of_figure(fig_json)
    out = []
    for i, text in enumerate(cities["text"]):
        one = {**cities, "x": [cities["x"][i]], "y": [cities["y"][i]], "text": [text],
               "textposition": cities["textposition"] if isinstance(cities["textposition"], str) else [cities["textposition"][i]]}
        out += [(f"city {text}", b) for b in city_boxes(one, frame)]
    return out


def overlaps(fig: Any, cities: bool = True, moves: bool = True) -> list[tuple[str, str]]:
    """Pairs of name/badge/mark boxes that intersect, names, badges or marks over a city's name or marker,
    and marks over a move's arrowhead or line."""
    data = fig.to_plotly_json()
    boxes = _boxes(data)
    def one_mark(a: str, b: str) -> bool:  # a mark's marker and its own text touch where plotly.js puts the text
        return "#" in a.split(" ")[0] and a.split(" ")[0] == b.split(" ")[0]

    out = [(a, b) for (a, ba), (b, bb) in itertools.combinations(boxes, 2) if ba.intersects(bb) and not one_mark(a, b)]
    if cities:
        out += [(a, c) for a, ba in boxes for c, bc in _city_boxes(data) if ba.intersects(bc)]
    if moves:  # the step's marks keep off the moves (names and badges do not step aside for them)
        markers, segments = _moves(data)
        marks = [(a, ba) for a, ba in boxes if "#" in a.split(" ")[0]]
        out += [(a, m) for a, ba in marks for m, bm in markers if ba.intersects(bm)]
        out += [(a, m) for a, ba in marks for m, seg, half in segments if _segment_meets(seg, half, ba)]
    return out


@functools.cache
def _history(name: str) -> History:
    """A golden game (read once per run: the tests below only read it)."""
    import medviz.rules.medempires.game  # noqa: F401  (registers the whole-game scenarios)

    return History.from_json(gzip.decompress((GOLDEN / name).read_bytes()).decode("utf-8"), name)


@functools.cache
def _vespers_views() -> tuple[Any, ...]:
    """Moments of the Vespers golden game, worked out once (state_map and update_state_map never change a view)."""
    from medviz.rules.medempires.view import history_view, setup_view

    h = _history("vespers-1282-seed-1.json.gz")
    n = len(h.events)
    return (setup_view("vespers-1282"), *(history_view(h, seq) for seq in (n // 5, n // 3, n // 2, 2 * n // 3, n - 1)))


def test_text_boxes_grow_with_characters_lines_and_size() -> None:
    w1, h1 = text_size("Malta", 12)
    assert text_size("Malta Malta", 12)[0] > 1.8 * w1 > 0
    assert text_size("Kingdom of<br>Valencia", 12)[1] == pytest.approx(h1 + 1.3 * 12)  # plotly's line spacing
    assert text_size("Malta", 24)[0] > 1.9 * w1
    assert text_size("<b>1FA·1L</b>", 12)[0] > text_size("1FA·1L", 12)[0]  # bold is wider, tags are not text
    assert text_size("&lt;b&gt;", 12)[0] == pytest.approx(text_size("xbx", 12)[0])  # an entity is one character
    assert text_size("&lt;b&gt;", 12)[0] > text_size("", 12)[0]


def test_badges_hang_below_the_name() -> None:
    assert badge_top(2, 12, 12, 0) > badge_top(1, 12, 12, 0) > text_top(12, 1) + text_size("x", 12)[1]
    assert badge_top(1, 12, 12, 1) - badge_top(1, 12, 12, 0) > text_size("1FA", 12)[1] + 6  # rows clear their outlines


def test_the_checker_sees_the_overlaps_of_unplaced_stacks() -> None:
    """Drawn as the portrayal gives them (every stack at its label point), Vespers' crowded areas collide."""
    import importlib

    sm = importlib.import_module("medviz.viz.state_map")

    view = _vespers_views()[2]
    fig = state_map(view)
    places = sm._places_of(fig)
    for tr in fig.data:  # put every name and badge back on its area's label point
        if (tr.name or "").startswith("labels:"):
            kind = tr.name.split(":")[1]
            pts = [p for p in places.values() if p.kind == kind]
            tr.x, tr.y = [p.lon for p in pts], [p.lat for p in pts]
    plan = sm.plan_view(view, places, space=MapSpace(MapFrame(*fig.layout.meta["frame"])))
    for gid, props in plan.badges.items():
        tr = next(t for t in fig.data if t.name == gid)
        badges = next(g for g in plan.portrayal.badges if g.id == gid).badges
        tr.x, tr.y = [places[b.area].lon for b in badges], [places[b.area].lat for b in badges]
    clashes = overlaps(fig, cities=False)
    areas = " ".join(a + " " + b for a, b in clashes)
    assert len(clashes) >= 5, clashes
    assert any(w in areas for w in ("Catalan", "Valencia", "Majorca", "Sicily", "Malta", "Corsica")), clashes


@pytest.mark.parametrize("size", [None, (1920, 1080)])
def test_no_name_or_badge_overlaps_another_on_the_vespers_map(size: tuple[int, int] | None) -> None:
    views = _vespers_views()
    kw = {"width": size[0], "height": size[1]} if size else {}
    for i, view in enumerate(views if size is None else views[2:3]):
        fig = state_map(view, **kw)
        assert overlaps(fig) == [], (i, size)
    # a figure stepped through views (as the apps and the page do) is placed like a fresh one
    fig = state_map(views[0])
    for old, new in zip(views, views[1:]):
        update_state_map(fig, old, new)
        assert overlaps(fig) == []


@functools.cache
def _vespers_overlay_views() -> dict[str, Any]:
    """Moments of the Vespers golden game with the most drawn over the map: two political results at
    Sicily; a fleet's move with an interception and a battle; two battles in one area (Majorca). The moments'
    seqs follow the golden game (pinned again when the heuristic Aragon took up its 13.0 task)."""
    from medviz.rules.medempires.view import history_view

    h = _history("vespers-1282-seed-1.json.gz")
    out = {}
    for name, seq, kinds in (("politics", 275, {"politics"}), ("move-interception-battle", 427, {"move", "interception", "battle"}),
                             ("two battles", 1112, {"battle"})):
        view = history_view(h, seq)
        assert kinds <= {o["kind"] for o in view["overlays"]}, (name, view["overlays"])
        out[name] = view
    return out


@pytest.mark.parametrize("size", [None, (1920, 1080)])
def test_no_name_badge_or_mark_sits_on_another_and_no_mark_on_a_move(size: tuple[int, int] | None) -> None:
    """Battle stars, interception crosses, political diamonds (with their words) are placed by the names
    and badges of their area, off every other box and off the moves' arrows and lines."""
    kw = {"width": size[0], "height": size[1]} if size else {}
    for name, view in _vespers_overlay_views().items():
        fig = state_map(view, **kw)
        marks = [b for b, _ in _boxes(fig.to_plotly_json()) if " marker " in b]
        assert marks, name
        assert overlaps(fig) == [], name
    # the politics and a battle's moment, stepped to from the set-up as the apps do
    views = _vespers_views()
    fig = state_map(views[0])
    prev = views[0]
    for view in _vespers_overlay_views().values():
        update_state_map(fig, prev, view)
        assert overlaps(fig) == []
        prev = view


def test_marks_at_one_area_stack_apart_and_follow_their_moved_name() -> None:
    """Two battles in one area: the second star stands above the first; the stars sit above their area's name
    wherever the placement moved that name (marks are placed after names and badges, never moving them)."""
    fig = state_map(_vespers_overlay_views()["two battles"])
    data = fig.to_plotly_json()
    frame = frame_of_figure(data)
    battles = next(t for t in data["data"] if t.get("name") == "battles")
    assert len(battles["x"]) == 2
    (x0, y0), (x1, y1) = (frame.to_px(x, y) for x, y in zip(battles["x"], battles["y"]))
    assert abs(x0 - x1) < 0.5 and y0 - y1 >= battles["marker"]["size"]  # the second above the first, clear of it
    areas = [c[1] for c in battles["customdata"]]
    labels = next(t for t in data["data"] if t.get("name") == "labels:land")
    import importlib

    places = importlib.import_module("medviz.viz.state_map")._places_of(fig)
    land = [a for a, p in places.items() if p.kind == "land"]
    lx, ly = frame.to_px(labels["x"][land.index(areas[0])], labels["y"][land.index(areas[0])])
    from medviz.viz.placement import REACH

    assert ((lx - x0) ** 2 + (ly - y0) ** 2) ** 0.5 < REACH * frame.size_px[0]  # by the (placed) name, where there is room


#: The map figure's size as the apps lay it out (medviz.apps.fit.ScreenFit: 560 to 750 px tall, laid out
#: 1200 px wide and fitted by the browser to the column it has, the same or wider; below 560 px of room it is
#: laid out 560 tall and scaled down whole, which keeps its layout), in a browser window of:
APP_SIZES = {
    "1280x720, JupyterLab's side bar open": (1200, 560),
    "1280x720, full screen": (1256, 580),
    "1920x1080, JupyterLab's side bar open": (1500, 750),
}


@functools.lru_cache(maxsize=1)
def _maps_views() -> dict[str, tuple[Any, list[Any]]]:
    """Moments of the four maps the state map draws: Vespers (set-up, politics, a fleet's move with an
    interception and a battle, two battles, the end), the standard game, Medieval, Empire's Revolt."""
    from medviz.engine import get_ruleset, play
    from medviz.engine.policy import RandomPolicy
    from medviz.rules.empires_revolt.players import HeuristicPolicy as RevoltPlayer
    from medviz.rules.empires_revolt.ruleset import RULESET as REVOLT
    from medviz.rules.medempires.view import history_view
    from medviz.rules.medieval_xiii.players import HeuristicPolicy

    vespers = _vespers_views()
    standard = _history("standard-seed-1.json.gz")
    medieval = get_ruleset("medieval-xiii")
    game = play(medieval, "four-players", {}, seed=3,
                players={s: HeuristicPolicy.from_spec(str(i)) for i, s in enumerate("ABCD")})
    revolt = play(REVOLT, "conquest-3", {}, seed=4, players={"A": RevoltPlayer(), "B": RandomPolicy(41), "C": RevoltPlayer()})
    takes = [e.seq for e in revolt.events if getattr(e, "change", None) == "er-take"]
    return {
        "vespers": (None, [vespers[0], *_vespers_overlay_views().values(), vespers[-1]]),
        "standard": (None, [history_view(standard, seq) for seq in (len(standard.events) // 2, len(standard.events) - 1)]),
        "medieval": (medieval, [medieval.view_at(game, seq) for seq in (-1, 80, len(game) // 2, len(game) - 1)]),
        "empires-revolt": (REVOLT, [REVOLT.view_at(revolt, seq) for seq in (-1, takes[0], takes[len(takes) // 2], len(revolt) - 1)]),
    }


@pytest.mark.parametrize("window", list(APP_SIZES))
@pytest.mark.parametrize("game", ["vespers", "standard", "medieval", "empires-revolt"])
def test_no_name_badge_or_mark_overlaps_at_the_sizes_the_apps_draw(game: str, window: str) -> None:
    """Where the map is small (Medieval's 92 long names at 560 px) names are written short ("England" for
    "England (South-East)") or, with no room within reach, left out; badges and marks never are."""
    width, height = APP_SIZES[window]
    ruleset, views = _maps_views()[game]
    for i, view in enumerate(views):
        fig = state_map(view, width=width, height=height, ruleset=ruleset)
        assert overlaps(fig) == [], (game, window, i)
        data = fig.to_plotly_json()
        shown = [b for b, _ in _boxes(data)]
        portrayal = shown_portrayal(fig)
        assert portrayal is not None
        badges = sum(len(g.badges) for g in portrayal.badges)
        marks = sum(len(ml.marks) for ml in portrayal.marks if ml.id != "cities")  # (Empire's Revolt's cities: base map)
        assert sum(1 for b in shown if " marker " in b) == marks, (game, window, i)
        assert sum(1 for t in data["data"] if t.get("textposition") == "bottom center" for _ in t.get("x") or ()) == badges
        names = [x for t in data["data"] if (t.get("name") or "").startswith("labels:") for x in t["text"]]
        assert sum(1 for x in names if x) >= 0.8 * len(names), (game, window, i)  # few names left out (Medieval: 15 of 92)


@pytest.mark.parametrize("game", ["vespers", "medieval", "empires-revolt"])
def test_the_side_panels_boxes_sit_inside_the_figure_with_a_margin(game: str) -> None:
    """The player boxes of the side panel end 10 px inside the figure's right edge at every width the apps draw
    (at 1920x1080 they ran to 2 px of it: their width was the panel's share less 36 px, the gap to the map
    grows with the width), and their widest line still fits (as estimated, ``PANEL_TEXT_SLACK``)."""
    from medviz.apps.common import style_for
    from medviz.viz.state_map import MARGIN, PANEL_TEXT_SLACK

    ruleset, views = _maps_views()[game]
    for width, height in [*APP_SIZES.values(), (1896, 940), (1920, 1080), (900, 560)]:
        style = style_for(width)
        for view in views[:: max(1, len(views) - 1)]:
            fig = state_map(view, width=width, height=height, ruleset=ruleset, style=style)
            layout = fig.to_plotly_json()["layout"]
            inner = width - MARGIN["l"] - MARGIN["r"]
            boxes = [a for a in layout["annotations"] if a.get("bgcolor") and a.get("width")]
            assert boxes, (game, width)
            for a in boxes:
                outer = a["width"] + 2 * (a["borderpad"] + a["borderwidth"])
                right = MARGIN["l"] + a["x"] * inner + outer
                assert width - 11 <= right <= width - 10 + 1e-6, (game, width, a["name"], right)
                lines = [text_size(line, a["font"]["size"])[0] for line in a["text"].split("<br>")]
                assert max(lines) - PANEL_TEXT_SLACK <= a["width"], (game, width, a["name"], a["text"])


def test_short_names_on_a_crowded_small_map_and_full_names_at_the_default_size() -> None:
    medieval, views = _maps_views()["medieval"]
    small = state_map(views[2], width=1200, height=560, ruleset=medieval)
    default = state_map(views[2], ruleset=medieval)

    def land_names(fig: Any) -> list[str]:
        return list(next(t for t in fig.data if t.name == "labels:land").text)

    assert "England<br>(South-East)" in land_names(default)
    assert "England<br>(South-East)" not in land_names(small) and "England" in land_names(small)
    assert all("(" not in x for x in land_names(small))
    vespers = state_map(_vespers_views()[2], width=1200, height=560)  # a map with fewer, shorter names keeps them
    assert sum(1 for x in land_names(vespers) if "(" in x) >= 4


@pytest.mark.parametrize("planned,drawn", [((1200, 560), (1160, 560)), ((1200, 560), (1500, 560)), ((1200, 750), (1500, 750))])
def test_a_placement_holds_when_the_browser_draws_the_map_wider(planned: tuple[int, int], drawn: tuple[int, int]) -> None:
    """A responsive figure is planned for its layout size and drawn as wide as its column: no wider map
    brings two boxes together (positions spread, boxes keep their pixel size). A map held by the height keeps
    ``NARROWER_SPARE_PX`` of its share to spare, as much as an app draws it narrower before laying it out again
    (``WIDTH_STEP``); the rest of the width is the side panel's, no blank band beside the map. (Narrower than
    that, the map shrinks and they would: the app must plan for the column's width then.)"""
    from medviz.apps.common import WIDTH_STEP
    from medviz.viz.state_map import NARROWER_SPARE_PX

    assert WIDTH_STEP <= NARROWER_SPARE_PX
    ruleset, views = _maps_views()["medieval"]
    fig = state_map(views[2], width=planned[0], height=planned[1], ruleset=ruleset)
    data = fig.to_plotly_json()
    data["layout"]["width"] = drawn[0]
    assert frame_of_figure(data).px_x >= frame_of_figure(fig.to_plotly_json()).px_x - 1e-9
    wider = type(fig)(data)
    assert overlaps(wider) == []


def _drawn_at(fig: Any, px_x: float) -> Any:
    """The figure as a page draws its map alone at ``px_x`` pixels per degree (the map the whole figure, no legend)."""
    data = fig.to_plotly_json()
    layout = data["layout"]
    (x0, x1), (y0, y1) = layout["xaxis"]["range"], layout["yaxis"]["range"]
    ratio = layout["yaxis"].get("scaleratio") or 1.0
    layout.update(width=px_x * (x1 - x0) + 12, height=px_x * ratio * (y1 - y0) + 12, showlegend=False,
                  margin={"l": 6, "r": 6, "t": 6, "b": 6})
    layout["xaxis"]["domain"], layout["yaxis"]["domain"] = [0, 1], [0, 1]
    drawn = type(fig)(data)
    assert abs(frame_of_figure(drawn.to_plotly_json()).px_x - px_x) < 1e-6
    return drawn


def test_a_map_placed_for_a_smaller_drawing_stays_apart_there_and_larger() -> None:
    """``place_at_scale``: the exported page's figure (1280x800) is drawn smaller on a 1280x720 screen. Placed
    for its own frame its names and badges meet there; placed for that scale they meet neither there nor drawn
    larger (at 1920x1080), and later steps keep that scale (here the end, whose title takes two lines)."""
    from medviz.rules.medempires.view import history_view

    from medviz.viz.state_map import _facts_of, place_at_scale

    h = _history("vespers-1282-seed-1.json.gz")
    middle, end = history_view(h, len(h.events) // 2), history_view(h, len(h.events) - 1)
    small = 25.4  # px per degree: chromium's 1280x720 page over the win-probability strip
    fig = state_map(middle, width=1280, height=800)
    own = frame_of_figure(fig.to_plotly_json()).px_x
    assert own > 1.3 * small and overlaps(_drawn_at(fig, small), moves=False)
    place_at_scale(fig, small)
    assert fig.layout.meta["placed_px"] == small and fig.layout.meta["frame"][4] == small
    for scale in (small, 30.0, 40.6):
        assert overlaps(_drawn_at(fig, scale)) == [], scale
    top = fig.layout.margin.t
    update_state_map(fig, middle, end)
    assert fig.layout.margin.t > top  # the map's frame was made again under the taller title, at the placed scale
    space = _facts_of(fig).space
    assert space is not None and space.frame.px_x == small
    assert overlaps(_drawn_at(fig, small)) == [] and overlaps(_drawn_at(fig, 40.6)) == []
    with pytest.raises(ValueError, match="positive scale"):
        place_at_scale(fig, 0)


def test_no_name_or_badge_overlaps_another_on_the_standard_map() -> None:
    from medviz.rules.medempires.view import history_view

    h = _history("standard-seed-1.json.gz")
    for seq in (-1, len(h.events) // 2, len(h.events) - 1):
        assert overlaps(state_map(history_view(h, seq))) == [], seq


def test_no_name_or_badge_overlaps_another_on_medieval_maps() -> None:
    rs, views = _maps_views()["medieval"]  # four heuristic players, seed 3: the set-up, event 80, the middle, the end
    for view in views:
        fig = state_map(view, ruleset=rs)
        assert overlaps(fig) == []
        assert any(t.name.startswith("labels:") for t in fig.data)


@pytest.mark.parametrize("size", [(1200, 560), (1256, 580), (1500, 750), (1600, 1000), (1920, 1080), (900, 560)])
def test_the_title_fits_the_figure_width_and_the_top_margin(size: tuple[int, int]) -> None:
    """Every line of the title, estimated with the placement's text measure, ends inside the figure and stands
    above the map; a long title (the Vespers end: who won and why) is drawn smaller or on two lines, every
    word of it kept."""
    import html
    import re

    from medviz.viz.placement import LINE_SPACING

    width, height = size
    seen_two_lines = False
    for game, (ruleset, views) in _maps_views().items():
        fig = state_map(views[0], ruleset=ruleset, width=width, height=height)
        for old, view in ((None, views[0]), (views[0], views[-1])):
            if old is not None:  # stepped to the end as the apps do: the same title as a fresh drawing
                update_state_map(fig, old, view)
                fresh = state_map(view, ruleset=ruleset, width=width, height=height).layout.title
                assert (fig.layout.title.text, fig.layout.title.font.size, fig.layout.title.y) == (fresh.text, fresh.font.size, fresh.y)
            title = fig.layout.title
            lines = title.text.split("<br>")
            size_px = title.font.size
            assert len(lines) <= 2 and size_px >= 15, (game, title.text)
            for line in lines:
                assert title.x * width + text_size(line, size_px)[0] <= width, (game, size, line)
            top = (1 - title.y) * height - LINE_SPACING * size_px * (len(lines) - 1)
            assert 0 <= top and top + text_size(title.text, size_px)[1] <= fig.layout.margin.t + 2, (game, size, top)
            portrayal = shown_portrayal(fig)
            assert portrayal is not None
            words = html.unescape(re.sub(r"<[^>]*>", " ", title.text)).split()
            full = html.unescape(re.sub(r"<[^>]*>", " ", f"{portrayal.title} {portrayal.subtitle}")).split()
            assert words == full or (words[-1] == "…" and words[:-1] == full[:len(words) - 1]), (game, size)
            seen_two_lines |= len(lines) == 2
    if width <= 1200:
        assert seen_two_lines  # the Vespers end's title


@pytest.mark.parametrize("size", [(1200, 750), (1280, 720), (900, 600)])
def test_a_title_that_grows_to_two_lines_in_a_step_has_the_names_placed_for_the_map_under_it(size: tuple[int, int]) -> None:
    """Stepping to the Vespers end (its title on two lines: the top margin grows, the map under it moves and
    shrinks) places the names and badges for the new map in that same step: the step reaches what a fresh
    drawing of the end shows (names, badges, leader lines, the map's y domain), and the frame the next step
    plans on is the updated figure's."""
    from medviz.rules.medempires.view import history_view

    from medviz.viz.state_map import _facts_of

    width, height = size
    h = _history("vespers-1282-seed-1.json.gz")
    middle, end = history_view(h, len(h.events) // 2), history_view(h, len(h.events) - 1)
    fig = state_map(middle, width=width, height=height)
    before, domain = frame_of_figure(fig.to_plotly_json()), fig.layout.yaxis.domain
    fresh = state_map(end, width=width, height=height)
    assert fresh.layout.margin.t > fig.layout.margin.t and fresh.layout.title.text.count("<br>") == 1
    update_state_map(fig, middle, end)

    def placed(f: Any) -> dict[str, Any]:
        return {t.name: (t.x, t.y, t.text, t.marker.size) for t in f.data if t.name and t.name.startswith(("labels:", "units-", "leaders"))}

    assert fig.layout.margin.t == fresh.layout.margin.t
    assert fig.layout.yaxis.domain == fresh.layout.yaxis.domain
    assert placed(fig) == placed(fresh)
    after = frame_of_figure(fig.to_plotly_json())
    assert after != before or fig.layout.yaxis.domain != domain  # the map shrank, or its domain was fitted to it
    space = _facts_of(fig).space
    assert space is not None and space.frame == after == frame_of_figure(fresh.to_plotly_json())
    assert overlaps(fig) == []


def _move_heads_on_names(fig: Any) -> list[tuple[str, str]]:
    """Pairs (name or badge, move's arrowhead or start circle) whose boxes intersect."""
    data = fig.to_plotly_json()
    texts = [(a, b) for a, b in _boxes(data) if "#" not in a.split(" ")[0]]  # names and badges (not marks)
    markers, _segments = _moves(data)
    return [(a, m) for a, ba in texts for m, bm in markers if ba.intersects(bm)]


@pytest.mark.parametrize("size", [None, (1280, 720), (1920, 1080)])
def test_no_name_or_badge_sits_under_a_moves_arrowhead(size: tuple[int, int] | None) -> None:
    """A move's arrowheads and start circle stop short of the names and badges they point at (an arrow ran
    from label point to label point, its head over the name of the area it reached)."""
    from medviz.rules.medempires.view import history_view

    kw = {"width": size[0], "height": size[1]} if size else {}
    h = _history("vespers-1282-seed-1.json.gz")
    seqs = [e.seq for e in h.events if getattr(e, "change", None) == "force-moved"][::9][:8]
    drawn = 0
    for seq in [427, *seqs]:
        view = history_view(h, seq)
        fig = state_map(view, **kw)
        heads = [tr for tr in fig.data if tr.mode == "lines+markers" and tr.x]
        drawn += sum(1 for tr in heads for x in tr.x if x is not None)
        assert _move_heads_on_names(fig) == [], (seq, size)
    assert drawn >= 6


def test_empty_layers_are_hidden_and_shown_again_when_they_fill() -> None:
    """A layer with nothing to show this step (no moves, no battles, a power without units) is not drawn
    (``visible: false``: plotly.js neither computes nor draws it at each step); stepped to a moment with
    moves and battles, those layers show, as on a fresh figure."""
    from medviz.viz.state_map import update_state_map

    setup, busy = _vespers_views()[0], _vespers_overlay_views()["move-interception-battle"]

    def shown(data: dict[str, Any]) -> dict[str, bool]:
        return {t["meta"]["layer"]: t.get("visible", True) is not False for t in data["data"]
                if isinstance(t.get("meta"), dict) and "layer" in t["meta"]}

    def filled(data: dict[str, Any]) -> dict[str, bool]:
        return {t["meta"]["layer"]: bool(t.get("x")) for t in data["data"]
                if isinstance(t.get("meta"), dict) and "layer" in t["meta"]}

    fig = state_map(setup)
    first = fig.to_plotly_json()
    assert shown(first) == filled(first) and not all(shown(first).values())
    assert not shown(first)["moves-A"] and not shown(first)["battles"]
    update_state_map(fig, setup, busy)
    stepped, fresh = fig.to_plotly_json(), state_map(busy).to_plotly_json()
    assert shown(stepped) == filled(stepped) == shown(fresh)
    assert shown(stepped)["battles"] and any(shown(stepped)[k] for k in ("moves-A", "moves-B"))
