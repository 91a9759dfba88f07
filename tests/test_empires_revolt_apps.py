"""Empire's Revolt's conquest in the generic apps: the map coloured by owner, the replay viewer, the dice lab
(change a die, branch), diff and the exported page."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from medviz.engine import History, play, register_ruleset
from medviz.engine.events import ChangeEvent
from medviz.engine.policy import RandomPolicy
from medviz.engine.registry import unregister_ruleset
from medviz.rules.empires_revolt.conquest import COLOURS
from medviz.rules.empires_revolt.players import HeuristicPolicy
from medviz.rules.empires_revolt.ruleset import RULESET


@pytest.fixture(autouse=True, scope="module")
def _registered() -> Iterator[None]:
    register_ruleset("empires_revolt", RULESET)
    yield
    unregister_ruleset("empires_revolt")


@pytest.fixture(scope="module")
def game() -> History:
    """A three-player game (two heuristic players, one random) that runs to a winner."""
    return play(RULESET, "conquest-3", {}, seed=4,
                players={"A": HeuristicPolicy(), "B": RandomPolicy(41), "C": HeuristicPolicy()})


def _fills(fig: Any) -> dict[str, str]:
    return {t.meta["area"]: t.fillcolor for t in fig.data
            if isinstance(t.meta, Mapping) and t.meta.get("kind") == "land"}


def _take(game: History) -> ChangeEvent:
    return next(e for e in game.events if isinstance(e, ChangeEvent) and e.change == "er-take")


def test_the_map_colours_each_region_by_its_holder(game: History) -> None:
    import json

    from medviz.engine.portrayal import blend
    from medviz.viz import state_map
    from medviz.viz.state_map import DEFAULT_STATE_STYLE

    e = _take(game)
    view = RULESET.view_at(game, e.seq)
    json.dumps(view)
    assert view["owner"][e.data["area"]] == e.data["seat"]
    fig = state_map(view, ruleset=RULESET)
    fills = _fills(fig)
    shade = DEFAULT_STATE_STYLE.shades
    assert fills[e.data["area"]] == blend(COLOURS[e.data["seat"]], shade.paper, shade.light)
    nobody = next(a for a, x in view["areas"].items() if x["kind"] == "land" and a not in view["owner"])
    assert fills[nobody] == shade.uncontrolled
    names = {a.name: a.text for a in fig.layout.annotations}
    assert "Player A" in names["panel-seat-A"] and "held" in names["panel-seat-A"]
    assert RULESET.view_at(play(RULESET, "battle", {"attacker": "A2", "defender": "blank"}, seed=1,
                                players={"attacker": RandomPolicy(0), "defender": RandomPolicy(1)}), 2) is None


def test_the_replay_viewer_steps_the_game(game: History) -> None:
    from medviz.apps import ReplayViewer

    viewer = ReplayViewer(game)
    assert viewer.map is not None
    before = _fills(viewer.map.figure)
    viewer.model.cursor = len(game) - 1
    after = _fills(viewer.map.figure)
    assert before != after
    from medviz.engine.portrayal import blend
    from medviz.viz.state_map import DEFAULT_STATE_STYLE

    shade = DEFAULT_STATE_STYLE.shades
    for area, seat in game.final_state.owner.items():
        assert after[area] == blend(COLOURS[seat], shade.paper, shade.light)


def test_the_dice_lab_changes_a_fight_die_and_branches(game: History) -> None:
    from medviz.apps import DiceLab

    lab = DiceLab(game)
    assert lab.map is not None and "fights" in [t.name for t in lab.map.clickable()]
    e = _take(game)
    roll = next(r for r in reversed(game.rolls()) if r.seq < e.seq and "/attacker/die-1" in getattr(r, "roll", ""))
    lab.model.select(roll.roll)
    lab.model.value = 1 if roll.value != 1 else 2
    child = lab.branch()
    assert child is not None and child.parent is game and child.value_of(roll.roll) == lab.model.value
    words = lab.model.diff_words(lab.view_at)
    assert "The two histories part at event" in words
    assert "Regions that changed hands" in words or "No region ends in other hands" in words


def test_export_writes_a_page_with_the_map(tmp_path: Any) -> None:
    from medviz.cli import main

    short = play(RULESET, "conquest-2", {"max_rounds": 3}, seed=2, players={"A": HeuristicPolicy(), "B": HeuristicPolicy()})
    path = tmp_path / "game.json"
    short.save(path)
    out = tmp_path / "game.html"
    assert main(["export", str(path), "--html", str(out), "--no-compress"]) == 0
    text = out.read_text(encoding="utf-8")
    assert "Empire" in text and "Syria" in text and "held" in text


def test_a_fight_die_is_named_for_a_class(game: History) -> None:
    roll = next(r for r in game.rolls() if "/fight/throw-1/defender/die-1" in getattr(r, "roll", ""))
    words = RULESET.describe_roll(game, roll)
    seat = roll.roll.split("/")[1]
    fight = next(e for e in game.events[roll.seq:] if isinstance(e, ChangeEvent) and e.change == "er-attack")
    assert words.startswith(f"Player {seat}'s attack on {game.final_state.map.areas[fight.data['target']].name}")
    assert "the defender's die 1" in words and "throw 1" in words
    assert RULESET.turn_label("conquest-3", 4) == "round 4"


def test_the_city_marks_leave_the_base_maps_city_names_alone(game: History) -> None:
    """The city mark layer is called "cities", as is the base map's trace of city names: each keeps its
    own uid and its own points (the names used to vanish, overwritten by the marks' empty texts)."""
    from medviz.viz import state_map
    from medviz.viz.state_map import update_state_map

    e = _take(game)
    view = RULESET.view_at(game, e.seq)
    fig = state_map(view, ruleset=RULESET)
    update_state_map(fig, view, RULESET.view_at(game, e.seq + 1), ruleset=RULESET)
    data = fig.to_plotly_json()["data"]
    uids = [t.get("uid") for t in data if t.get("uid")]
    assert len(uids) == len(set(uids)), sorted(u for u in uids if uids.count(u) > 1)
    base = [t for t in data if t.get("name") == "cities" and "layer" not in (t.get("meta") or {})]
    assert len(base) == 1 and base[0]["uid"] == "cities"
    names = [n for n in base[0]["text"] if n]
    assert len(names) >= 10 and "Rome" in names, names
    marks = next(t for t in data if (t.get("meta") or {}).get("layer") == "cities")
    assert marks["uid"] != "cities" and len(marks["x"]) >= 10 and not any(marks["text"])


def test_a_layer_taking_a_drawers_own_name_is_refused() -> None:
    from medviz.engine.errors import MalformedInput
    from medviz.engine.portrayal import Mark, MarkLayer, Portrayal
    from medviz.viz import state_map

    view = RULESET.view_at(play(RULESET, "conquest-2", {"max_rounds": 1}, seed=2,
                                players={"A": HeuristicPolicy(), "B": HeuristicPolicy()}), 3)
    from medviz.viz.state_map import places_of_map, portrayal_of, _geo, _map_of

    p = portrayal_of(view, places_of_map(_geo(_map_of(view, RULESET))), ruleset=RULESET)
    area = p.marks[0].marks[0].area
    import dataclasses
    bad = dataclasses.replace(p, marks=(*p.marks, MarkLayer("leaders", "circle", 8, "#000", "#000", "top center", 1.0,
                                                             (Mark(area, "x", "x"),))))
    assert isinstance(bad, Portrayal)
    with pytest.raises(MalformedInput, match="'leaders'.*rename the layer"):
        state_map(bad)


def test_a_fights_odds_stay_inside_the_map_drawn_smaller(game: History) -> None:
    """A fight at Cisalpine Gaul, the map's top edge: its odds ("4:2") stand over the star where plotly.js
    draws a text above a marker (baseline ``0.75 size - (marker/1.6 + 1) - size``, ascent 0.92 size), and
    stay inside the map even when the page draws the figure at 0.6 of its laid-out size (plotly clips a
    text at the map's edge; the odds were cut off at the top)."""
    from medviz.viz import state_map
    from medviz.viz.placement import MapFrame

    fight = next(e for e in game.events if isinstance(e, ChangeEvent) and e.change == "er-attack"
                 and e.data.get("target") == "cisalpine_gaul")
    view = RULESET.view_at(game, fight.seq)
    assert any(f["target"] == "cisalpine_gaul" for f in view["fights"])
    data = state_map(view, ruleset=RULESET).to_plotly_json()
    frame = MapFrame(*data["layout"]["meta"]["frame"])
    marks = next(t for t in data["data"] if t.get("name") == "fights")
    size, marker = marks["textfont"]["size"], marks["marker"]["size"]
    assert marks["textposition"] == "top center"
    above = -(0.75 * size - (marker / 1.6 + 1) - size - 0.92 * size)  # px from the star's centre up to the text's top
    for x, y, text in zip(marks["x"], marks["y"], marks["text"]):
        _, py = frame.to_px(x, y)
        for scale in (1.0, 0.6):
            assert py * scale - above >= 0, (text, py, scale)
