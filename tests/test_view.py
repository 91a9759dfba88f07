"""The view contract between rules and viz."""

from __future__ import annotations

import json

from medviz.rules.medempires.gamedata import load_game_data
from medviz.rules.medempires.mapdata import load_map
from medviz.rules.medempires.view import UNIT_CODES, setup_view


def test_vespers_setup_view_matches_the_setup_rules() -> None:
    v = setup_view("vespers-1282")
    json.dumps(v)  # plain JSON data
    m = load_map()
    assert set(v["control"]) == set(m.land_ids())
    # 3.1: Player A's list, plus Abruzzi and Auvergne by occupation (ruling C); 3.2 Aragon's list.
    for area in ("albi", "calabria", "county_of_toulouse", "apulia", "naples", "malta", "montpellier",
                 "provence", "vienne", "abruzzi", "auvergne"):
        assert v["control"][area] == "A", area
    for area in ("catalan_counties", "majorca", "murcia", "valencia", "lower_aragon", "rossello",
                 "upper_aragon", "urgell", "sicily_west", "sicily_east"):
        assert v["control"][area] == "B", area
    assert v["control"]["tunis"] == "tunis" and v["status"]["tunis"] == "vassal-B"
    assert v["control"]["genoa"] == "genoa" and v["status"]["genoa"] == "neutral"
    assert v["tp"] == {"A": 7, "B": 4}
    assert sorted(p for ps in v["kings"].values() for p in ps) == ["anjou", "aragon", "france"]


def test_setup_view_units_equal_the_deployment() -> None:
    data = load_game_data()
    v = setup_view("standard")
    m = load_map()
    total = sum(n for by_power in v["units"].values() for codes in by_power.values() for n in codes.values())
    expected = sum(1 for _, code, _ in data.deployments["standard"].placements() if code != "K")
    assert total == expected
    for area, by_power in v["units"].items():
        for codes in by_power.values():
            assert set(codes) <= set(UNIT_CODES)
            if "F" in codes:
                assert m.areas[area].kind == "sea", area
            else:
                assert m.areas[area].kind == "land", area


def test_history_view_follows_a_whole_game() -> None:
    from medviz.engine import ChangeEvent, RandomPolicy, play
    from medviz.rules.medempires.game.turn import victory_points
    from medviz.rules.medempires.ruleset import RULESET
    from medviz.rules.medempires.view import history_view

    h = play(RULESET, "vespers-1282", {}, seed=4, players={"A": RandomPolicy(1), "B": RandomPolicy(2)})
    first = history_view(h, 0)
    assert first is not None and first["turn"] == 0 and first["phase"] == "set-up"
    assert "set-up" in first["title"] and set(first["tp"]) == {"A", "B"}
    assert not first["units"], "every counter starts off the map (3.0)"
    done = next(e.seq for e in h.events if isinstance(e, ChangeEvent) and e.change == "setup-done")
    placed = history_view(h, done)
    assert placed is not None and placed["units"]
    turn1 = next(e.seq for e in h.events if e.turn == 1)
    assert history_view(h, turn1)["turn"] == 1  # type: ignore[index]
    moves = [e.seq for e in h.events if isinstance(e, ChangeEvent) and e.change == "force-moved"]
    assert moves, "a random game moves some force"
    v = history_view(h, moves[0])
    assert v is not None
    move = next(o for o in v["overlays"] if o["kind"] == "move")
    assert len(move["path"]) >= 2 and move["path"][-1] == h.events[moves[0]].data["to"]
    last = history_view(h, len(h) - 1)
    assert last is not None
    # The view counts 4.0's victory points; the Vespers scenario judges by its own conditions (13.0),
    # so its outcome's "vp" is another count: compare with 4.0 on the final state, and the map.
    assert last["vp"] == victory_points(h.final_state)
    assert last["control"] == h.outcome["control"] and last["tp"] == h.final_state.tp
    json.dumps(last)
    standard = play(RULESET, "standard", {}, seed=4, players={"A": RandomPolicy(1), "B": RandomPolicy(2)})
    end = history_view(standard, len(standard) - 1)
    assert end is not None and end["vp"] == standard.outcome["vp"]  # 4.0 judges the standard game
    battle = play(RULESET, "battle", {"attacker": "aragon:1FA", "defender": "anjou:1L"},
                  players={"attacker": RandomPolicy(1), "defender": RandomPolicy(2)})
    assert history_view(battle, 0) is None


def test_history_view_names_the_phase_of_the_event_itself() -> None:
    from medviz.engine import RandomPolicy, play
    from medviz.rules.medempires.ruleset import RULESET
    from medviz.rules.medempires.view import history_view

    h = play(RULESET, "vespers-1282", {}, seed=2, players={"A": RandomPolicy(3), "B": RandomPolicy(4)})
    for span in h.phases():
        v = history_view(h, span.start)
        assert v is not None and (v["turn"], v["phase"]) == (span.turn, span.phase), span
