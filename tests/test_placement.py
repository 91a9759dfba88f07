"""Names and badges on the map never overlap: every box, computed from the figure as data at the default size."""

from __future__ import annotations

import gzip
import itertools
from pathlib import Path
from typing import Any

import pytest

from medviz.engine import History
from medviz.viz.placement import Box, MapFrame, MapSpace, badge_top, frame_of_figure, text_size, text_top
from medviz.viz.state_map import city_boxes, state_map, update_state_map

GOLDEN = Path(__file__).parent / "golden"
OUTLINE = 3.0  # the badge's outline (state_map draws a 3 px solid text-shadow)


def _boxes(fig_json: dict[str, Any]) -> list[tuple[str, Box]]:
    """Every area name and badge of a state map as a pixel box, read from ``fig.to_plotly_json()`` alone.

    Names are centred on their point (``textposition="middle center"``); a badge's text hangs under
    its invisible marker (``"bottom center"``), outlined 3 px; ``text_top`` is where plotly.js puts
    a text's top (checked against chromium's boxes in tests/browser/test_map_placement.py).
    """
    frame = frame_of_figure(fig_json)
    out = []
    for tr in fig_json["data"]:
        name = tr.get("name") or ""
        if name.startswith("labels:"):
            size = float(tr["textfont"]["size"])
            for x, y, text in zip(tr["x"], tr["y"], tr["text"]):
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
    return out


def _city_boxes(fig_json: dict[str, Any]) -> list[tuple[str, Box]]:
    """The base map's city names and markers (fixed: the placement keeps names and badges off them)."""
    cities = next((t for t in fig_json["data"] if t.get("name") == "cities"), None)
    if cities is None:
        return []
    boxes = city_boxes(cities, frame_of_figure(fig_json))
    return [(f"city {cities['text'][i // 2]}", b) for i, b in enumerate(boxes)]


def overlaps(fig: Any, cities: bool = True) -> list[tuple[str, str]]:
    """Pairs of name/badge boxes that intersect, and names or badges over a city's name or marker."""
    data = fig.to_plotly_json()
    boxes = _boxes(data)
    out = [(a, b) for (a, ba), (b, bb) in itertools.combinations(boxes, 2) if ba.intersects(bb)]
    if cities:
        out += [(a, c) for a, ba in boxes for c, bc in _city_boxes(data) if ba.intersects(bc)]
    return out


def _history(name: str) -> History:
    import medviz.rules.medempires.game  # noqa: F401  (registers the whole-game scenarios)

    return History.from_json(gzip.decompress((GOLDEN / name).read_bytes()).decode("utf-8"), name)


def _vespers_views() -> list[Any]:
    from medviz.rules.medempires.view import history_view, setup_view

    h = _history("vespers-1282-seed-1.json.gz")
    n = len(h.events)
    return [setup_view("vespers-1282"), *(history_view(h, seq) for seq in (n // 5, n // 3, n // 2, 2 * n // 3, n - 1))]


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


def test_a_small_map_keeps_names_near_their_areas_and_has_fewer_overlaps_than_unplaced() -> None:
    """At 1280x720 not every name fits within reach: none moves further than REACH, and fewer collide."""
    import importlib

    from medviz.viz.placement import REACH

    sm = importlib.import_module("medviz.viz.state_map")
    view = _vespers_views()[2]
    fig = state_map(view, width=1280, height=720)
    placed = sm._facts_of(fig).last_plan
    frame = sm._facts_of(fig).space.frame
    places = sm._places_of(fig)
    labels = next(t for t in fig.data if t.name == "labels:land")
    land = [a for a, p in places.items() if p.kind == "land"]
    for a, x, y in zip(land, labels.x, labels.y):
        dx, dy = (x - places[a].lon) * frame.px_x, (y - places[a].lat) * frame.px_y
        assert (dx * dx + dy * dy) ** 0.5 <= REACH * frame.size_px[0] + 0.5, a
    assert placed is not None
    crowded = overlaps(fig)
    for tr in fig.data:  # the same map with every name and badge back at its label point
        if (tr.name or "").startswith("labels:"):
            pts = [p for p in places.values() if p.kind == tr.name.split(":")[1]]
            tr.x, tr.y = [p.lon for p in pts], [p.lat for p in pts]
    for g in placed.portrayal.badges:
        tr = next(t for t in fig.data if t.name == g.id)
        tr.x, tr.y = [places[b.area].lon for b in g.badges], [places[b.area].lat for b in g.badges]
    assert len(crowded) < len(overlaps(fig)) / 3, (len(crowded), len(overlaps(fig)))


def test_no_name_or_badge_overlaps_another_on_the_standard_map() -> None:
    from medviz.rules.medempires.view import history_view

    h = _history("standard-seed-1.json.gz")
    for seq in (-1, len(h.events) // 2, len(h.events) - 1):
        assert overlaps(state_map(history_view(h, seq))) == [], seq


def test_no_name_or_badge_overlaps_another_on_medieval_maps() -> None:
    from medviz.engine import get_ruleset, play
    from medviz.rules.medieval_xiii.players import HeuristicPolicy

    rs = get_ruleset("medieval-xiii")
    game = play(rs, "four-players", {}, seed=3, players={s: HeuristicPolicy.from_spec(str(i)) for i, s in enumerate("ABCD")})
    views = [rs.view_at(game, seq) for seq in (-1, 80, len(game) // 2, len(game) - 1)]
    for view in views:
        fig = state_map(view, ruleset=rs)
        assert overlaps(fig) == []
        assert any(t.name.startswith("labels:") for t in fig.data)
