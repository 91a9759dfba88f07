"""The state map: control colours, stack badges, overlays, the panel, and one-step updates."""

from __future__ import annotations

import copy
import json
from typing import Any

import plotly.graph_objects as go
from plotly.basedatatypes import Undefined
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from medviz.engine.errors import UnknownReference
from medviz.rules.medempires.gamedata import load_game_data
from medviz.rules.medempires.view import setup_view
from medviz.viz.palette import cvd_pairs, delta_e, hex_to_rgb, simulate
from medviz.rules.medempires.portrayal import badge_text
from medviz.viz.state_map import DEFAULT_STATE_STYLE, state_map, update_state_map


@pytest.fixture(scope="module")
def setup() -> dict[str, Any]:
    return setup_view()


@pytest.fixture(scope="module")
def step(setup: dict[str, Any]) -> dict[str, Any]:
    """Turn 2: Anjou lands in eastern Sicily (partial control), Aragon takes Malta, overlays."""
    v = copy.deepcopy(setup)
    v.update(turn=2, phase="operations", years="1291–1300", title="The War of the Sicilian Vespers")
    v["control"]["sicily_east"] = "partial"
    v["control"]["malta"] = "B"
    v["units"]["sicily_east"]["anjou"] = {"FA": 2}
    del v["units"]["calabria"]
    v["kings"] = {"sicily_east": ["anjou"], "catalan_counties": ["aragon"], "county_of_toulouse": ["france"]}
    v["pope"] = "papal_states"
    v["tp"], v["vp"] = {"A": 5, "B": 6}, {"A": 1, "B": 2}
    v["overlays"] = [
        {"kind": "move", "side": "A", "power": "anjou", "path": ["calabria", "sicily_east"]},
        {"kind": "battle", "area": "sicily_east", "result": "DV", "winner": "defender", "winner_side": "B"},
        {"kind": "interception", "area": "strait_of_sicily", "success": True},
        {"kind": "politics", "power": "genoa", "attempt": "alliance", "result": "NE"},
    ]
    return v


@pytest.fixture(scope="module")
def fig(setup: dict[str, Any]) -> go.Figure:
    return state_map(setup)


def _area(fig: Any, area: str) -> Any:
    return next(t for t in fig.data if isinstance(t.meta, dict) and t.meta.get("area") == area)


def _trace(fig: Any, name: str) -> Any:
    return next(t for t in fig.data if t.name == name)


def _tint(colour: str) -> str:
    from medviz.viz.palette import blend

    return blend(colour, DEFAULT_STATE_STYLE.paper, DEFAULT_STATE_STYLE.neutral_tint)


def _rgb(colour: str) -> tuple[float, float, float]:
    return hex_to_rgb(colour)


def test_areas_are_coloured_by_their_controller(fig: go.Figure, setup: dict[str, Any]) -> None:
    powers = load_game_data().powers
    for area, control in setup["control"].items():
        fill = _area(fig, area).fillcolor
        if control == "A":  # Player A: French and Angevin blues
            r, g, b = _rgb(fill)
            assert b > r, (area, fill)
        elif control == "B" and area not in powers["sicily"].home_areas:  # Aragon's red
            r, g, b = _rgb(fill)
            assert r > b and r > g, (area, fill)
        elif control in powers and not _area(fig, area).fillpattern.shape:
            # a neutral's own colour (paler): closer to its tint than to any other power's tint
            nearest = min(powers, key=lambda p: delta_e(_tint(powers[p].display_colour), fill))
            assert nearest == control, (area, control, nearest)
    # France and Anjou are told apart
    assert delta_e(_area(fig, "provence").fillcolor, _area(fig, "naples").fillcolor) > 20


def test_allies_vassals_and_partial_control_are_marked(fig: go.Figure, step: dict[str, Any]) -> None:
    assert _area(fig, "sicily_west").fillpattern.shape == "."  # Sicily, ally of B
    assert _area(fig, "tunis").fillpattern.shape == "x"  # Tunis, vassal of B
    assert _area(fig, "provence").fillpattern.shape in ("", None)
    stepped = state_map(step)
    assert _area(stepped, "sicily_east").fillpattern.shape == "/"
    legend = [t.name for t in stepped.data if t.showlegend]
    assert any("Partial control" in n for n in legend)
    assert any(n.startswith("Vassal of B") for n in legend) and any(n.startswith("Ally of A") for n in legend)


def test_badges_count_units_by_type_with_kings(fig: go.Figure) -> None:
    assert badge_text({"FA": 2, "M": 2}, king=True) == "♛·2FA·2M"
    assert badge_text({"L": 1, "FA": 1, "R": 1}) == "1FA·1L·1R"
    aragon = _trace(fig, "units-aragon")
    texts = dict(zip(zip(aragon.x, aragon.y), aragon.text))
    assert "<b>♛·2FA·2M</b>" in texts.values()  # Catalan counties: King, 2 field armies, 2 mercenaries
    assert "<b>4F</b>" in texts.values()  # fleets in the Balearic Sea
    france = _trace(fig, "units-france")
    assert "<b>4F</b>" in france.text
    # two powers in one sea: stacked badges at different pixel offsets
    geo_sizes = [s for x, s in zip(_trace(fig, "units-pisa").x, _trace(fig, "units-pisa").marker.size)]
    assert geo_sizes


def test_overlays_title_and_panel(step: dict[str, Any]) -> None:
    f = state_map(step)
    battles = _trace(f, "battles")
    assert len(battles.x) == 1 and "DV" in battles.text[0]
    assert list(battles.customdata[0])[:2] == [1, "sicily_east"]
    moves = _trace(f, "moves-A")
    assert sum(x is not None for x in moves.x) == 2 and moves.marker.symbol[1] == "arrow"
    assert len(_trace(f, "interceptions").x) == 1 and len(_trace(f, "politics").x) == 1
    assert "Turn 2" in f.layout.title.text and "operations" in f.layout.title.text and "1291" in f.layout.title.text
    panel = {a.name: a.text for a in f.layout.annotations}
    assert "Treasury <b>5</b>" in panel["panel-A"] and "Victory <b>2</b>" in panel["panel-B"]
    assert "1 ally · 1 vassal" in panel["panel-B"]
    assert "Pope" in panel["panel-pope"] and "Papal States" in panel["panel-pope"]
    assert _trace(f, "pope").text == ("<b>✝ Pope</b>",)


def test_figure_is_offline_cartesian_and_json_ready(fig: go.Figure) -> None:
    spec = fig.to_plotly_json()
    assert {t["type"] for t in spec["data"]} == {"scatter"}
    assert not any(k.startswith(("geo", "map", "mapbox")) for k in spec["layout"])
    text = json.dumps(spec, default=str)
    assert "http://" not in text and "https://" not in text and "//cdn" not in text


def test_unknown_areas_are_refused(setup: dict[str, Any]) -> None:
    bad = copy.deepcopy(setup)
    bad["units"]["atlantis"] = {"aragon": {"FA": 1}}
    with pytest.raises(UnknownReference, match="atlantis"):
        state_map(bad)


def _state(fig: Any) -> dict[str, Any]:
    """The parts of a state map that change from view to view."""
    out: dict[str, Any] = {}
    for t in fig.data:
        if isinstance(t.meta, dict) and "area" in t.meta:
            out[t.meta["area"]] = (t.fillcolor, t.fillpattern.shape, t.text)
        elif t.name and (t.name.startswith(("units-", "moves-", "labels:land")) or t.name in
                         ("battles", "interceptions", "politics", "pope")):
            out[t.name] = (t.x, t.y, t.text, t.marker.size if t.mode and "markers" in t.mode else None,
                           t.textfont.color)
    out["title"] = fig.layout.title.text
    out["panel"] = {a.name: a.text for a in fig.layout.annotations}
    return out


def test_update_reaches_the_same_figure_as_drawing_afresh(setup: dict[str, Any], step: dict[str, Any]) -> None:
    f = state_map(setup)
    geometry = [(t.x, t.y) for t in f.data if isinstance(t.meta, dict) and "area" in t.meta]
    assert update_state_map(f, setup, step) > 0
    assert _state(f) == _state(state_map(step))
    assert [(t.x, t.y) for t in f.data if isinstance(t.meta, dict) and "area" in t.meta] == geometry
    update_state_map(f, step, setup)  # and back again
    assert _state(f) == _state(state_map(setup))
    assert update_state_map(f, setup, setup) == 0


def test_widget_step_sends_no_geometry(setup: dict[str, Any], step: dict[str, Any]) -> None:
    fw = go.FigureWidget(state_map(setup))
    area_idx = {i for i, t in enumerate(fw.data) if isinstance(t.meta, dict) and "area" in t.meta}
    sent: list[tuple[dict[str, Any], Any]] = []
    original = fw._send_update_msg

    def spy(**kw: Any) -> None:
        sent.append((kw["restyle_data"], kw["trace_indexes"]))
        original(**kw)

    fw._send_update_msg = spy  # type: ignore[method-assign]
    update_state_map(fw, setup, step)
    assert 1 <= len(sent) <= 8  # a few messages, one per group of traces changing the same properties
    touched: set[int] = set()
    for restyle, indexes in sent:
        touched |= set(indexes)
        for key, values in restyle.items():
            assert len(values) == len(indexes)
            # no "leave alone" markers (a widget's browser model would store them as text)
            assert not any(v is Undefined for v in values), key
            if set(indexes) & area_idx:
                assert key not in ("x", "y"), key  # no outline goes out again
    assert touched & area_idx
    assert _area(fw, "malta").fillcolor == _area(state_map(step), "malta").fillcolor


def test_palette_stays_apart_for_colour_blind_viewers() -> None:
    powers = load_game_data().powers
    style = DEFAULT_STATE_STYLE
    from medviz.viz.palette import blend

    key = {p: blend(powers[p].display_colour, style.paper, style.player_tint) for p in ("france", "anjou", "aragon")}
    key["sicily"] = blend(powers["sicily"].display_colour, style.paper, style.ally_tint)
    key["sea"] = style.sea_fills[0]
    pairs = [("france", "aragon"), ("anjou", "aragon"), ("france", "anjou"), ("anjou", "sea"), ("aragon", "sicily")]
    checks = {(c.a, c.b): c for c in cvd_pairs(key, pairs)}
    for (a, b), c in checks.items():
        assert c.worst_delta_e >= 15, c  # plainly distinct under protanopia, deuteranopia, tritanopia
    assert simulate("#808080", "deuteranopia") in ("#808080", "#7f7f7f", "#818181")


_BASE = state_map(setup_view())
_LAND = sorted(a for a, c in setup_view()["control"].items())


@st.composite
def _views(draw: Any) -> dict[str, Any]:
    """A view derived from the set-up: some areas change hands, a stack moves, overlays appear."""
    v = copy.deepcopy(setup_view())
    for area in draw(st.lists(st.sampled_from(_LAND), max_size=6, unique=True)):
        v["control"][area] = draw(st.sampled_from(["A", "B", "partial", None, "genoa", "tunis"]))
    src = draw(st.sampled_from(sorted(v["units"])))
    dst = draw(st.sampled_from(_LAND))
    moved = v["units"].pop(src)
    v["units"].setdefault(dst, {}).update(moved)
    v["tp"] = {"A": draw(st.integers(0, 20)), "B": draw(st.integers(0, 20))}
    v["turn"], v["phase"] = draw(st.integers(1, 3)), draw(st.sampled_from(["politics", "operations-A"]))
    if draw(st.booleans()):
        v["overlays"] = [{"kind": "move", "side": "A", "power": "anjou", "path": [src, dst]} if src != dst else
                         {"kind": "battle", "area": dst, "result": "DV", "winner": "attacker", "winner_side": "B"}]
    v["pope"] = draw(st.sampled_from([None, "papal_states", "A"]))
    return v


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(first=_views(), second=_views())
def test_any_two_steps_reach_what_a_fresh_drawing_shows(first: dict[str, Any], second: dict[str, Any]) -> None:
    fig = go.Figure(_BASE)
    start = setup_view()
    update_state_map(fig, start, first)
    update_state_map(fig, first, second)
    assert _state(fig) == _state(state_map(second))


def test_the_set_up_is_named_as_such_not_turn_0() -> None:
    from medviz.engine import RandomPolicy, play
    from medviz.rules.medempires.ruleset import RULESET
    from medviz.rules.medempires.view import history_view

    h = play(RULESET, "vespers-1282", {}, seed=7, players={"A": RandomPolicy(3), "B": RandomPolicy(4)})
    fig = state_map(history_view(h, 60))
    texts = [a.text for a in fig.layout.annotations if a.name == "panel-turn"] + [fig.layout.title.text]
    assert "Set-up" in texts[0] and "Turn 0" not in " ".join(texts), texts
    meta = fig.layout.meta
    tops = meta["panel_px"]
    assert tops["panel-turn"] < tops["panel-A"] < tops["panel-B"] < tops["panel-pope"] < tops["legend"]
    assert meta["vertical_margin"] == fig.layout.margin.t + fig.layout.margin.b


def test_seas_drawn_merged_keep_their_own_outlines(fig: go.Figure) -> None:
    """Seas and context lands are one trace per kind and colour (their fill never changes; fewer traces for
    plotly.js to lay out at each step), every area drawn once; ``mark_areas`` still outlines a sea alone."""
    from medviz.viz.state_map import mark_areas

    data = fig.to_plotly_json()["data"]
    merged = [t for t in data if isinstance(t.get("meta"), dict) and "areas" in t["meta"]]
    land = [t for t in data if isinstance(t.get("meta"), dict) and t["meta"].get("kind") == "land" and "area" in t["meta"]]
    seas = {a for t in merged for a in t["meta"]["areas"]}
    assert 1 <= len(merged) <= 6 and "balearic_sea" in seas and len(seas) > 3 * len(merged)
    assert not seas & {t["meta"]["area"] for t in land}
    t = next(t for t in merged if "balearic_sea" in t["meta"]["areas"])
    start, stop = t["meta"]["areas"]["balearic_sea"]
    mark_areas(fig, ["balearic_sea"])
    marked = next(tr for tr in fig.data if tr.name == "marked-areas")
    assert list(marked.x) == [*t["x"][start:stop], None] and None not in t["x"][start:start + 3]


@pytest.mark.parametrize("size", [(1488, 738), (1372, 560)])
def test_a_map_held_by_the_height_leaves_no_band_beside_it(setup: dict[str, Any], size: tuple[int, int]) -> None:
    """A figure wide for its height (an app at 1920x1080 in JupyterLab under its controls and words: 1488x738; at
    1280x720, laid out 560 px tall and scaled: 1372x560) draws its map from its left edge and the side panel right
    after it: before, the map sat in the middle of 78% of the width, a blank band of 55 px (160 px) on each side."""
    from medviz.viz.placement import frame_of_figure
    from medviz.viz.state_map import MARGIN, NARROWER_SPARE_PX, PANEL_GAP

    width, height = size
    fig = state_map(setup, width=width, height=height)
    frame = frame_of_figure(fig.to_plotly_json())
    drawn = frame.px_x * (frame.x1 - frame.x0)  # the map's width as plotly.js draws it (held by the height)
    share = fig.layout.xaxis.domain[1]
    inner = width - MARGIN["l"] - MARGIN["r"]
    assert fig.layout.xaxis.domain[0] == 0 and fig.layout.xaxis.constraintoward == "left"
    assert drawn <= share * inner <= drawn + NARROWER_SPARE_PX + 2
    assert fig.layout.meta["map_domain"] == share
    panel = [a.x for a in fig.layout.annotations if a.xref == "paper" and a.x > share]
    assert panel and min(panel) == pytest.approx(share + PANEL_GAP)
    assert fig.layout.legend.x == pytest.approx(share + 0.01)
