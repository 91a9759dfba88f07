"""Rules of the whole game, one by one: golden tests of the worked examples and rule checks.

Positions are built by hand (``game_helpers``) and the rule tasks run through the real engine
with scripted choices and forced dice, so every test exercises the recorded event flow.
"""

from __future__ import annotations

import pytest

from test_game_helpers import changes, decision, empty_position, put, run_tasks
from medviz.engine.errors import IllegalAction
from medviz.engine.events import ReportEvent, RollEvent
from medviz.engine.game import Task
from medviz.rules.medempires.game.invariants import violations
from medviz.rules.medempires.game.legality import HumanPlayer
from medviz.rules.medempires.game.deploy import set_up_state
from medviz.rules.medempires.game.state import compute_control, refresh_control, shipped_data
from medviz.rules.medempires.game.turn import judge, victory_points
from medviz.rules.medempires.ruleset import RULESET

P = "GT1/ops-A/force-1"


def _spent(events: list) -> int:
    return sum(e.data["ops"] for e in changes(events, "force-spends"))


# --------------------------------------------------------------------------------------------
# Golden tests: the worked examples of the rules text
# --------------------------------------------------------------------------------------------
def _example_11_1() -> object:
    s = empty_position()
    put(s, "sea_sw_sardinia", "anjou", "F")
    for a in ("caralis", "majorca", "arborea"):
        put(s, a, "anjou", "L")
    put(s, "bougie", "aragon", "R")
    put(s, "provence", "france", "L")
    return s


def test_golden_11_1_fleet_example_costs_three_ops() -> None:
    s = _example_11_1()
    assert (s.ctl["caralis"], s.ctl["bougie"], s.ctl["majorca"]) == ("A", "B", "A")
    ch = {P: "sea_sw_sardinia|anjou|all", f"{P}/action-1": "move:balearic_sea",
          f"{P}/action-2": "move:sardinian_sea", f"{P}/action-3": "embark:arborea:anjou:L",
          f"{P}/action-4": "move:gulf_of_lion", f"{P}/action-5": "debark:provence:anjou:L",
          f"{P}/action-6": "end", "GT1/ops-A/force-2": "end phase"}
    r = run_tasks(s, [Task.of("game.activate", side="A", n=1)], ch, overrides={f"{P}/ops": 7})
    assert _spent(r.events) == 3
    first = decision(r.events, f"{P}/action-1")
    # 11.1: Cagliari is not on this sea, so the fleet may only move until it reaches a friendly port.
    assert all(o == "end" or o.startswith("move:") for o in first.options)
    assert r.state.units["provence"][("anjou", "L")] == 1
    assert ("anjou", "L") not in r.state.units.get("arborea", {})


def test_11_1_embarking_is_refused_before_reaching_a_friendly_port() -> None:
    s = _example_11_1()
    human = HumanPlayer({P: "sea_sw_sardinia|anjou|all", f"{P}/action-1": "embark:caralis:anjou:L"})
    from medviz.engine.game import GameSpec, Snapshot, run
    from medviz.rules.medempires.ruleset import RULESET

    spec = GameSpec(RULESET, "standard", {}, 0, {"A": human, "B": human})
    with pytest.raises(IllegalAction) as err:
        run(spec, Snapshot(0, s, (Task.of("game.activate", side="A", n=1),), 1, None))
    assert err.value.rule == "11.1"


def test_10_1_strait_refused_with_rule() -> None:
    s = empty_position()
    put(s, "calabria", "anjou", "FA")
    human = HumanPlayer({P: "calabria|anjou|all", f"{P}/action-1": "move:sicily_east"})
    from medviz.engine.game import GameSpec, Snapshot, run
    from medviz.rules.medempires.ruleset import RULESET

    spec = GameSpec(RULESET, "standard", {}, 0, {"A": human, "B": human})
    with pytest.raises(IllegalAction) as err:
        run(spec, Snapshot(0, s, (Task.of("game.activate", side="A", n=1),), 1, None))
    assert err.value.rule == "10.1" and "Messina" in str(err.value)


def test_golden_6_1_tp_cap_example() -> None:
    s = set_up_state("standard", {})
    s.tp = {"A": 9, "B": 9}
    r = run_tasks(s, [Task.of("game.recruitment")])
    first = {e.data["side"]: e.data for e in changes(r.events, "treasury") if e.data.get("why") == "collection (6.1)"}
    # 3.1/3.2: A starts with 7 cities (Marseille, Montpellier, Naples, Reggio, Taranto, Toulouse,
    # Vienne), B with 9 (Barcelona, Huesca, Messina, Murcia, Palermo, Palma, Perpignan, Valencia,
    # Zaragoza), counted by hand from the set-up lists, not by the code under test.
    assert (first["A"]["cities"], first["A"]["tp"], first["A"]["forfeited"]) == (7, 10, 9 + 7 - 10)
    assert (first["B"]["cities"], first["B"]["tp"]) == (9, 10)
    assert first["B"]["forfeited"] == 9 + 9 + first["B"]["vassals"] - 10


def test_6_1_a_city_under_partial_control_earns_nobody_anything() -> None:
    s = set_up_state("standard", {})
    put(s, "naples", "aragon", "L")  # Naples now holds units of both sides (3.4)
    assert s.ctl["naples"] == "partial"
    s.tp = {"A": 0, "B": 0}
    r = run_tasks(s, [Task.of("game.recruitment")], overrides={"GT1/recruit/vassal/tunis/tunis": 5})
    col = {e.data["side"]: e.data for e in changes(r.events, "treasury") if e.data.get("why") == "collection (6.1)"}
    assert (col["A"]["cities"], col["A"]["tp"]) == (6, 6)
    assert (col["B"]["cities"], col["B"]["vassals"], col["B"]["tp"]) == (9, 0, 9)


def test_golden_4_0_tie_goes_to_player_b() -> None:
    s = set_up_state("standard", {})
    cities = [a for a in sorted(s.ctl) if shipped_data().game_map.areas[a].city]
    for a in cities[:8]:
        s.start_ctl[a], s.ctl[a] = "B", "A"
    for a in cities[8:16]:
        s.start_ctl[a], s.ctl[a] = "A", "B"
    for a in cities[16:]:
        s.start_ctl[a] = s.ctl[a]
    o = judge(s)
    assert o["vp"] == {"A": 8, "B": 8} and o["winner"] == "B"
    assert o["reason"] == "4.0: the VP totals are equal: Player B wins."
    s.ctl[cities[0]] = "B"  # one city A had taken is B's again
    behind = judge(s)
    assert behind["winner"] == "B" and behind["reason"].startswith("4.0: Player B has more VP (")
    assert behind["vp"]["B"] > behind["vp"]["A"]
    s.ctl[cities[0]] = "A"
    s.ctl[cities[16]], s.start_ctl[cities[16]] = "A", None
    assert judge(s)["winner"] == "draw"  # a lead of one
    s.ctl[cities[17]], s.start_ctl[cities[17]] = "A", None
    s.ctl[cities[18]], s.start_ctl[cities[18]] = "A", None
    assert judge(s)["winner"] == "A"  # a lead of three


# --------------------------------------------------------------------------------------------
# 3.x set-up and 3.4 control
# --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("scenario", ["standard", "vespers-1282"])
def test_setup_is_sound(scenario: str) -> None:
    s = set_up_state(scenario, {})
    assert violations(s) == []
    assert s.tp == {"A": 7, "B": 4}
    assert s.status["sicily"] == "ally:B" and s.status["tunis"] == "vassal:B"
    assert s.ctl["sicily_west"] == "B" and s.ctl["tunis"] == "tunis"  # 3.4: vassal areas are nobody's
    assert s.ctl["abruzzi"] == "A" and s.ctl["auvergne"] == "A"  # occupied at set-up
    assert s.ctl["genoa"] == "genoa"
    assert sorted(s.kings) == ["charles_i", "peter_iii", "philip_iii"]


def test_3_4_partial_and_last_holder() -> None:
    s = empty_position()
    put(s, "murcia", "aragon", "L")
    put(s, "murcia", "france", "L")
    assert compute_control(s, "murcia") == "partial"
    s.units["murcia"].pop(("aragon", "L"))
    assert compute_control(s, "murcia") == "A"
    s.units["murcia"] = {}
    s.owner["murcia"] = "A"
    assert compute_control(s, "murcia") == "A"  # 3.4 b: nobody there, the last holder keeps it


# --------------------------------------------------------------------------------------------
# 10.x operations
# --------------------------------------------------------------------------------------------
def test_10_1_leaving_an_enemy_area_costs_two_more_and_invasion_makes_an_ally() -> None:
    s = empty_position()
    put(s, "provence", "france", "FA", 2)
    put(s, "provence", "aragon", "L")
    ch = {P: "provence|france|all", f"{P}/action-1": "move:genoa", f"{P}/action-1/intercept-leave": "no",
          f"{P}/action-2": "end", "GT1/ops-A/force-2": "end phase"}
    r = run_tasks(s, [Task.of("game.activate", side="A", n=1)], ch, overrides={f"{P}/ops": 5})
    assert _spent(r.events) == 3
    assert r.state.status["genoa"] == "ally:B"  # 10.1: the invaded neutral joins the other side
    assert any(isinstance(e, ReportEvent) and e.report == "invasion" for e in r.events)


def test_10_0_ops_capped_at_15_with_king_and_markers() -> None:
    s = empty_position()
    put(s, "catalan_counties", "aragon", "FA")
    s.kings["peter_iii"] = "catalan_counties"
    s.hands["B"] = {"military_advantage": 2}
    Q = "GT1/ops-B/force-1"
    ch = {Q: "catalan_counties|aragon|all", f"{Q}/king-peter_iii": "with the King", f"{Q}/ops-markers": 2,
          f"{Q}/action-1": "end", "GT1/ops-B/force-2": "end phase"}
    r = run_tasks(s, [Task.of("game.activate", side="B", n=1)], ch, overrides={f"{Q}/ops": 12})
    ops = changes(r.events, "force-ops")[0].data
    assert ops["ops"] == 15 and ops["cap"] is True
    assert r.state.hands["B"] == {}


def test_10_2_interception_on_entering_fights_a_field_battle() -> None:
    s = empty_position()
    put(s, "rossello", "france", "FA", 2)
    put(s, "catalan_counties", "aragon", "FA", 2)
    ch = {P: "rossello|france|all", f"{P}/action-1": "move:catalan_counties",
          f"{P}/action-1/intercept-enter": "all", f"{P}/action-2": "end", "GT1/ops-A/force-2": "end phase"}
    s.ctl["rossello"] = "A"
    r = run_tasks(s, [Task.of("game.activate", side="A", n=1)], ch,
                  overrides={f"{P}/ops": 6, f"{P}/action-1/intercept-enter/roll": 4})
    rep = [e for e in r.events if isinstance(e, ReportEvent) and e.report == "interception"][0]
    assert rep.data["result"] == "success"
    opened = changes(r.events, "battle-opened")[0].data
    assert opened["may_avoid"] is False and opened["players"]["attacker"] == "B"
    assert r.state.battle is None and r.state.chronicle["battles"][0]["interception"] is True


def test_10_0_a_force_may_be_any_number_of_one_powers_units() -> None:
    s = empty_position()
    put(s, "catalan_counties", "aragon", "FA", 4)
    put(s, "catalan_counties", "aragon", "L")
    Q = "GT1/ops-B/force-1"
    ch = {Q: "catalan_counties|aragon|pick", f"{Q}/units/aragon-FA": 2, f"{Q}/units/aragon-L": 0,
          f"{Q}/action-1": "move:valencia", f"{Q}/action-2": "end", "GT1/ops-B/force-2": "end phase"}
    r = run_tasks(s, [Task.of("game.activate", side="B", n=1)], ch, overrides={f"{Q}/ops": 6})
    formed = changes(r.events, "force-formed")[0].data
    assert [tuple(u) for u in formed["units"]] == [("aragon", "FA", 2)]
    assert r.state.units["valencia"] == {("aragon", "FA"): 2}
    assert r.state.units["catalan_counties"] == {("aragon", "FA"): 2, ("aragon", "L"): 1}
    # The rest can still act as a second force this phase.
    assert "catalan_counties|aragon|all" in decision(r.events, "GT1/ops-B/force-2").options


def test_10_0_a_named_force_has_at_least_one_unit() -> None:
    s = empty_position()
    put(s, "catalan_counties", "aragon", "FA", 2)
    put(s, "catalan_counties", "aragon", "L")
    Q = "GT1/ops-B/force-1"
    ch = {Q: "catalan_counties|aragon|pick", f"{Q}/units/aragon-FA": 0, f"{Q}/action-1": "end",
          "GT1/ops-B/force-2": "end phase"}
    r = run_tasks(s, [Task.of("game.activate", side="B", n=1)], ch, overrides={f"{Q}/ops": 6})
    assert decision(r.events, f"{Q}/units/aragon-FA").options == (0, 1, 2)
    assert decision(r.events, f"{Q}/units/aragon-L").options == (1,)  # none named yet: at least this one


def test_10_1_a_fleet_force_picks_up_fleets_outside_its_first_area() -> None:
    s = empty_position()
    put(s, "balearic_sea", "aragon", "F")
    put(s, "gulf_of_lion", "aragon", "F")
    put(s, "catalan_counties", "aragon", "FA")
    Q = "GT1/ops-B/force-1"
    ch = {Q: "balearic_sea|aragon|all", f"{Q}/action-1": "move:gulf_of_lion", f"{Q}/action-2": "pickup:F",
          f"{Q}/action-3": "end", "GT1/ops-B/force-2": "end phase"}
    r = run_tasks(s, [Task.of("game.activate", side="B", n=1)], ch, overrides={f"{Q}/ops": 6})
    assert "pickup:F" not in decision(r.events, f"{Q}/action-1").options  # not in its initial area (10.0)
    assert "drop:F" in decision(r.events, f"{Q}/action-3").options
    assert r.state.units["gulf_of_lion"] == {("aragon", "F"): 2} and not r.state.units.get("balearic_sea")


def test_10_1_a_fleet_picking_up_a_fleet_keeps_its_king_as_cargo() -> None:
    s = empty_position()
    put(s, "balearic_sea", "aragon", "F")
    put(s, "gulf_of_lion", "aragon", "F")
    put(s, "catalan_counties", "aragon", "FA")
    s.kings["peter_iii"] = "catalan_counties"
    Q = "GT1/ops-B/force-1"
    ch = {Q: "balearic_sea|aragon|all", f"{Q}/action-1": "embark:catalan_counties:aragon:FA",
          f"{Q}/action-2": "move:gulf_of_lion", f"{Q}/action-3": "pickup:F",
          f"{Q}/action-4": "debark:rossello:aragon:FA", f"{Q}/action-5": "move:balearic_sea",
          f"{Q}/action-6": "end", "GT1/ops-B/force-2": "end phase"}
    r = run_tasks(s, [Task.of("game.activate", side="B", n=1)], ch, overrides={f"{Q}/ops": 6})
    assert not changes(r.events, "king-joins")  # at sea a King is cargo, never part of the fleet force
    assert r.state.kings["peter_iii"] == "rossello" and violations(r.state) == []


def test_10_2_the_interceptor_names_any_of_its_units() -> None:
    s = empty_position()
    put(s, "rossello", "france", "FA", 2)
    put(s, "catalan_counties", "aragon", "FA", 2)
    put(s, "catalan_counties", "aragon", "L")
    s.ctl["rossello"] = "A"
    ch = {P: "rossello|france|all", f"{P}/action-1": "move:catalan_counties",
          f"{P}/action-1/intercept-enter": "pick", f"{P}/action-1/intercept-enter/units/aragon-FA": 1,
          f"{P}/action-1/intercept-enter/units/aragon-L": 0, f"{P}/action-2": "end",
          "GT1/ops-A/force-2": "end phase"}
    r = run_tasks(s, [Task.of("game.activate", side="A", n=1)], ch,
                  overrides={f"{P}/ops": 6, f"{P}/action-1/intercept-enter/roll": 4})
    opened = changes(r.events, "battle-opened")[0].data
    assert "pick" in decision(r.events, f"{P}/action-1/intercept-enter").options
    assert [tuple(u) for u in opened["attacker"]] == [("aragon", "FA", 1)]  # the levy and one army stay out


def test_10_3_attack_costs_two_and_uses_the_battle_slice() -> None:
    s = empty_position()
    put(s, "murcia", "france", "FA", 3)
    put(s, "murcia", "aragon", "L")
    ch = {P: "murcia|france|all", f"{P}/action-1": "attack", f"{P}/action-2": "end",
          "GT1/ops-A/force-2": "end phase"}
    r = run_tasks(s, [Task.of("game.activate", side="A", n=1)], ch,
                  overrides={f"{P}/ops": 6, f"{P}/action-1/battle/combat-1/initiative/attacker": 6,
                             f"{P}/action-1/battle/combat-1/initiative/defender": 1,
                             f"{P}/action-1/battle/combat-1/round-0/attacker": 6})
    assert _spent(r.events) == 2
    assert r.state.ctl["murcia"] == "A"  # DV+S at 6 with 6 counted units: the levy is gone
    assert violations(r.state) == []


def test_11_2_amphibious_landing_ends_the_fleet_action_and_the_army_acts() -> None:
    s = empty_position()
    put(s, "balearic_sea", "aragon", "F")
    put(s, "catalan_counties", "aragon", "FA", 2)
    put(s, "valencia", "aragon", "L")
    put(s, "majorca", "france", "L")
    Q = "GT1/ops-B/force-1"
    ch = {Q: "balearic_sea|aragon|all", f"{Q}/action-1": "embark:catalan_counties:aragon:FA",
          f"{Q}/action-2": "embark:catalan_counties:aragon:FA", f"{Q}/action-3": "land:majorca",
          f"{Q}/action-3/intercept-landing": "no", f"{Q}/landing/action-1": "end",
          "GT1/ops-B/force-2": "end phase"}
    r = run_tasks(s, [Task.of("game.activate", side="B", n=1)], ch, overrides={f"{Q}/ops": 6})
    landing = [e for e in changes(r.events, "force-formed") if e.data.get("landing_parent")]
    assert landing and landing[0].data["area"] == "majorca"
    assert decision(r.events, f"{Q}/action-1").options.count("land:majorca") == 0  # no cargo yet
    assert r.state.units["majorca"][("aragon", "FA")] == 2
    assert r.state.ctl["majorca"] == "partial"
    assert r.state.units["balearic_sea"][("aragon", "F")] == 1  # the fleet stays where it landed them


def test_12_the_pope_leaves_rome_as_soon_as_a_landing_breaks_total_control() -> None:
    s = empty_position()
    put(s, "tyrrhenian_north", "aragon", "F")
    put(s, "tuscany", "aragon", "FA", 2)
    put(s, "corsica_south", "aragon", "L")  # Bonifacio: a friendly port on this sea (11.1)
    put(s, "papal_states", "anjou", "L")
    s.pope = "A"
    Q = "GT1/ops-B/force-1"
    ch = {Q: "tyrrhenian_north|aragon|all", f"{Q}/action-1": "embark:tuscany:aragon:FA",
          f"{Q}/action-2": "embark:tuscany:aragon:FA", f"{Q}/action-3": "land:papal_states",
          f"{Q}/action-3/intercept-landing": "no", f"{Q}/landing/action-1": "end",
          "GT1/ops-B/force-2": "end phase"}
    r = run_tasks(s, [Task.of("game.activate", side="B", n=1)], ch, overrides={f"{Q}/ops": 6})
    assert r.state.ctl["papal_states"] == "partial" and r.state.pope is None
    left = changes(r.events, "pope")[0]
    landed = [e for e in changes(r.events, "debarked") if e.data.get("to") == "papal_states"]
    assert landed[-1].seq < left.seq < changes(r.events, "force-formed")[-1].seq  # at once, before the army acts


def test_11_2_fleet_carries_two_land_units() -> None:
    s = empty_position()
    put(s, "balearic_sea", "aragon", "F")
    put(s, "catalan_counties", "aragon", "L", 4)
    Q = "GT1/ops-B/force-1"
    ch = {Q: "balearic_sea|aragon|all", f"{Q}/action-1": "embark:catalan_counties:aragon:L",
          f"{Q}/action-2": "embark:catalan_counties:aragon:L",
          f"{Q}/action-3": "debark:valencia:aragon:L", f"{Q}/action-4": "debark:valencia:aragon:L",
          f"{Q}/action-5": "end", "GT1/ops-B/force-2": "end phase"}
    r = run_tasks(s, [Task.of("game.activate", side="B", n=1)], ch, overrides={f"{Q}/ops": 4})
    third = decision(r.events, f"{Q}/action-3")
    assert not any(o.startswith("embark:") for o in third.options)
    assert r.state.units["valencia"][("aragon", "L")] == 2


def test_plague_doubles_costs() -> None:
    s = empty_position()
    s.plague = True
    put(s, "provence", "france", "FA")
    ch = {P: "provence|france|all", f"{P}/action-1": "move:montpellier", f"{P}/action-2": "end",
          "GT1/ops-A/force-2": "end phase"}
    r = run_tasks(s, [Task.of("game.activate", side="A", n=1)], ch, overrides={f"{P}/ops": 4})
    assert _spent(r.events) == 2


def test_plague_doubles_every_cost_not_adds_one() -> None:
    """12.0 Plague doubles costs above 1 OP too: leaving an enemy area is (1 + 2) x 2, an attack 2 x 2."""
    s = empty_position()
    s.plague = True
    put(s, "provence", "france", "FA", 2)
    put(s, "provence", "aragon", "L")
    ch = {P: "provence|france|all", f"{P}/action-1": "move:genoa", f"{P}/action-1/intercept-leave": "no",
          f"{P}/action-2": "end", "GT1/ops-A/force-2": "end phase"}
    r = run_tasks(s, [Task.of("game.activate", side="A", n=1)], ch, overrides={f"{P}/ops": 7})
    assert [e.data["ops"] for e in changes(r.events, "force-spends")] == [6]
    assert r.state.status["genoa"] == "ally:B"
    s = empty_position()
    s.plague = True
    put(s, "provence", "france", "FA", 2)
    put(s, "provence", "aragon", "L")
    short = run_tasks(s, [Task.of("game.activate", side="A", n=1)], {P: "provence|france|all"},
                      overrides={f"{P}/ops": 5})
    assert not any(o.startswith("move:") for o in decision(short.events, f"{P}/action-1").options)

    s = empty_position()
    s.plague = True
    put(s, "murcia", "france", "FA", 3)
    put(s, "murcia", "aragon", "L")
    ch = {P: "murcia|france|all", f"{P}/action-1": "attack", f"{P}/action-2": "end",
          "GT1/ops-A/force-2": "end phase"}
    r = run_tasks(s, [Task.of("game.activate", side="A", n=1)], ch,
                  overrides={f"{P}/ops": 6, f"{P}/action-1/battle/combat-1/initiative/attacker": 6,
                             f"{P}/action-1/battle/combat-1/initiative/defender": 1,
                             f"{P}/action-1/battle/combat-1/round-0/attacker": 6})
    assert [e.data["ops"] for e in changes(r.events, "force-spends")][0] == 4


# --------------------------------------------------------------------------------------------
# 6.x recruitment, 7.x politics, 8.x Kings, 9/12 stratagems, 5.2 redistribution
# --------------------------------------------------------------------------------------------
def test_6_2_single_levy_costs_one_and_two_levies_cost_one() -> None:
    s = set_up_state("standard", {})
    s.tp = {"A": 2, "B": 0}
    s.phase = "recruitment"
    ch = {"GT1/recruit/A/pick-1": "france:2L", "GT1/recruit/A/pick-1/area": "vienne",
          "GT1/recruit/A/pick-2": "anjou:L", "GT1/recruit/A/pick-2/area": "vienne"}
    r = run_tasks(s, [Task.of("game.recruit-pick", side="A", pick=1, done=["B"])], ch)
    assert r.state.tp["A"] == 0
    assert r.state.units["vienne"][("france", "L")] == 2 and r.state.units["vienne"][("anjou", "L")] == 1
    # the counter sheet is the limit: all seven French levies are now on the map
    assert "france:L" not in decision(r.events, "GT1/recruit/A/pick-2").options
    assert r.state.recruited_here["A"]["vienne"] == 3
    # 6.2: no more than three recruits in one area
    from medviz.rules.medempires.game.recruitment import land_places

    assert "vienne" not in land_places(r.state, "A", "france")


def test_7_2_a_recruits_go_to_a_vassal_city_only_while_its_units_occupy_it() -> None:
    from medviz.rules.medempires.game.recruitment import land_places

    s = set_up_state("standard", {})
    assert s.ctl["tunis"] == "tunis" and shipped_data().game_map.areas["tunis"].city
    assert "tunis" in land_places(s, "B", "aragon")
    s.units.pop("tunis")
    refresh_control(s, ("tunis",))
    assert s.ctl["tunis"] == "tunis" and "tunis" not in land_places(s, "B", "aragon")


def test_12_crusade_fleet_first_duty_ends_with_the_ensuing_recruitment_phase() -> None:
    s = set_up_state("standard", {})
    s.crusade_fleet_due["B"] = True
    s.tp = {"A": 0, "B": 0}  # nothing affordable: the duty cannot be met this phase
    r = run_tasks(s, [Task.of("game.recruit-pick", side="A", pick=1, done=())])
    assert r.state.crusade_fleet_due["B"] is False
    assert any("ends with the Recruitment Phase" in RULESET.describe(e) for e in changes(r.events, "crusade-fleet-due"))


def test_6_2_counter_limit_and_fleet_ports() -> None:
    from medviz.rules.medempires.game.recruitment import purchase_options, sea_places

    s = set_up_state("standard", {})
    s.tp["B"] = 10
    assert "aragon:F" in [o.key for o in purchase_options(s, "B")]
    assert set(sea_places(s, "B")) >= {"balearic_sea"}
    s.units.setdefault("balearic_sea", {})[("aragon", "F")] = 5  # all five counters in use
    assert "aragon:F" not in [o.key for o in purchase_options(s, "B")]


def test_7_politics_alliance_with_thwart_tie_favouring_the_attempt() -> None:
    s = set_up_state("standard", {})
    s.hands = {"A": {"diplomacy": 1}, "B": {"diplomacy": 1}}
    s.political = {"A": ["diplomacy", "vassalage", "rebellion"], "B": ["diplomacy", "vassalage", "rebellion"]}
    rid = "GT1/politics/round-1/A"
    ch = {rid: "diplomacy:genoa", f"{rid}/thwart": "thwart", f"{rid}/thwart/B/king": "none",
          f"{rid}/thwart/B/tp": "no", f"{rid}/thwart/A/king": "none", f"{rid}/thwart/A/tp": "no",
          f"{rid}/attempt/king": "philip_iii", f"{rid}/attempt/tp": "no"}
    r = run_tasks(s, [Task.of("game.political-turn", round=1, side="A")], ch,
                  overrides={f"{rid}/thwart/A": 3, f"{rid}/thwart/B": 3, f"{rid}/attempt": 4})
    assert r.state.status["genoa"] == "ally:A"  # 4 + Philip III's 1 = 5: Alliance
    assert r.state.hands == {"A": {}, "B": {}}
    assert r.state.political["A"] == ["vassalage", "rebellion"]
    assert r.state.ctl["genoa"] == "A"


def test_7_0_only_one_tp_per_attempt_across_the_thwart_and_the_table_roll() -> None:
    s = set_up_state("standard", {})
    s.hands = {"A": {"diplomacy": 1}, "B": {"diplomacy": 1}}
    s.political = {"A": ["diplomacy", "vassalage", "rebellion"], "B": ["diplomacy", "vassalage", "rebellion"]}
    s.tp = {"A": 5, "B": 5}
    rid = "GT1/politics/round-1/A"
    ch = {rid: "diplomacy:genoa", f"{rid}/thwart": "thwart", f"{rid}/thwart/B/king": "none",
          f"{rid}/thwart/B/tp": "no", f"{rid}/thwart/A/king": "none", f"{rid}/thwart/A/tp": "yes",
          f"{rid}/attempt/king": "none"}
    r = run_tasks(s, [Task.of("game.political-turn", round=1, side="A")], ch,
                  overrides={f"{rid}/thwart/A": 3, f"{rid}/thwart/B": 4, f"{rid}/attempt": 4})
    ids = {e.decision for e in r.events if hasattr(e, "decision")}
    assert f"{rid}/thwart/A/tp" in ids and f"{rid}/attempt/tp" not in ids  # the TP went on the thwart roll
    assert r.state.tp["A"] == 4 and r.state.status["genoa"] == "neutral"  # 4 with no TP: no effect
    # Without a TP on the thwart roll, the attempt may still buy its +1 on the table roll.
    ch[f"{rid}/thwart/A/tp"] = "no"
    ch[f"{rid}/attempt/tp"] = "yes"
    r = run_tasks(s, [Task.of("game.political-turn", round=1, side="A")], ch,
                  overrides={f"{rid}/thwart/A": 4, f"{rid}/thwart/B": 4, f"{rid}/attempt": 4})
    assert r.state.tp["A"] == 4 and r.state.status["genoa"] == "ally:A"


def test_7_pass_forfeits_a_kind() -> None:
    s = set_up_state("standard", {})
    s.hands["A"] = {"diplomacy": 1}
    s.political = {"A": ["diplomacy", "vassalage", "rebellion"], "B": []}
    rid = "GT1/politics/round-1/A"
    r = run_tasks(s, [Task.of("game.political-turn", round=1, side="A")], {rid: "pass", f"{rid}/forfeit": "vassalage"})
    assert r.state.political["A"] == ["diplomacy", "rebellion"]


def test_7_1_3_revert_sicily_to_neutrality() -> None:
    s = set_up_state("standard", {})
    s.hands = {"A": {"diplomacy": 1}, "B": {}}
    s.political = {"A": ["diplomacy"], "B": []}
    rid = "GT1/politics/round-1/A"
    r = run_tasks(s, [Task.of("game.political-turn", round=1, side="A")], {rid: "diplomacy:sicily"},
                  overrides={f"{rid}/attempt": 6, f"{rid}/revert-units": 3})
    st = r.state
    assert st.status["sicily"] == "neutral"
    assert sum(n for u in st.units.values() for (p, _), n in u.items() if p == "sicily") == 2  # 3 halved, up
    assert st.ctl["sicily_west"] == "sicily" and violations(st) == []
    # 3.4: an inactive neutral's areas belong to neither side, also the one its units left empty.
    assert not st.units.get("sicily_east") and st.ctl["sicily_east"] == "sicily"


def _revert_sicily_with_french_units_in_it(east_too: bool) -> object:
    s = set_up_state("standard", {})
    s.hands = {"A": {"diplomacy": 1}, "B": {}}
    s.political = {"A": ["diplomacy"], "B": []}
    put(s, "sicily_west", "france", "FA")
    if east_too:
        put(s, "sicily_east", "france", "L")
    rid = "GT1/politics/round-1/A"
    r = run_tasks(s, [Task.of("game.political-turn", round=1, side="A")], {rid: "diplomacy:sicily"},
                  overrides={f"{rid}/attempt": 6, f"{rid}/revert-units": 3})
    assert r.state.must_leave == {"sicily_west": ["A"]}  # 7.1.3: the French must move out
    return r.state


def test_7_1_3_units_in_the_neutrals_home_area_move_out_in_their_next_operations_phase() -> None:
    s = _revert_sicily_with_french_units_in_it(east_too=True)
    r = run_tasks(s, [Task.of("game.operations", side="A")], {"GT1/ops-A/force-1": "end phase"})
    st = r.state
    assert ("france", "FA") not in st.units.get("sicily_west", {})
    assert st.units["sicily_east"][("france", "FA")] == 1
    assert st.done["sicily_east"][("france", "FA")] == 1  # the move was its action this phase
    assert st.ctl["sicily_west"] == "sicily" and st.must_leave == {}
    words = [RULESET.describe(e) for e in r.events]
    assert any("moves from" in w and "7.1.3" in w for w in words)


def test_7_1_3_units_with_nowhere_to_go_are_eliminated() -> None:
    s = _revert_sicily_with_french_units_in_it(east_too=False)
    r = run_tasks(s, [Task.of("game.operations", side="A")], {"GT1/ops-A/force-1": "end phase"})
    assert not any(p == "france" for (p, _c) in r.state.units.get("sicily_west", {}))
    assert any(e.data.get("reason") == "7.1.3 nowhere to go" for e in changes(r.events, "unit-removed"))
    assert r.state.ctl["sicily_west"] == "sicily"


def test_8_1_a_king_goes_with_the_allied_force_that_takes_his_last_units() -> None:
    s = set_up_state("standard", {})
    s.kings["peter_iii"] = "sicily_east"  # with Sicilian (allied) units only
    p = "GT1/ops-B/force-1"
    r = run_tasks(s, [Task.of("game.activate", side="B", n=1)],
                  {p: "sicily_east|sicily|all", f"{p}/action-1": "end", "GT1/ops-B/force-2": "end phase"},
                  overrides={f"{p}/ops": 7})
    joined = decision(r.events, f"{p}/king-peter_iii")
    assert joined.options == ("with the King",)  # he cannot stay alone; before, he died "left alone"
    assert "peter_iii" in r.state.kings and not changes(r.events, "king-died")


def test_8_1_a_king_whose_units_are_removed_rejoins_his_own_powers_units() -> None:
    s = set_up_state("standard", {})
    s.kings["peter_iii"] = "sicily_east"
    s.hands = {"A": {"diplomacy": 1}, "B": {}}
    s.political = {"A": ["diplomacy"], "B": []}
    rid = "GT1/politics/round-1/A"
    r = run_tasks(s, [Task.of("game.political-turn", round=1, side="A")], {rid: "diplomacy:sicily"},
                  overrides={f"{rid}/attempt": 6, f"{rid}/revert-units": 3})
    # 7.1.3 took the Sicilians away: Peter III rejoins the nearest area holding Aragonese units (ruling).
    assert not changes(r.events, "king-died")
    where = r.state.kings["peter_iii"]
    assert r.state.ctl[where] == "B" and any(p == "aragon" for (p, _c) in r.state.units[where])
    rejoin = decision(r.events, "GT1/kings/peter_iii/rejoins-1")
    assert rejoin.choice == rejoin.options[0] == where or rejoin.automatic


def test_8_1_a_king_may_be_left_alone_twice_in_one_turn() -> None:
    from medviz.engine.game import Context, GameSpec
    from medviz.engine.policy import FirstOptionPolicy
    from medviz.rules.medempires.game.turn import bury_kings_alone

    s = set_up_state("standard", {})
    ctx = Context(GameSpec(RULESET, "standard", {}, 0, {"A": FirstOptionPolicy(), "B": FirstOptionPolicy()}), s, [], [])
    for _ in range(2):  # e.g. his units leave on the Crusade, then the ones he rejoined mutiny
        where = s.kings["peter_iii"]
        for key in [k for k in s.units[where] if k[0] == "aragon"]:
            ctx.change("unit-removed", area=where, power=key[0], unit=key[1], n=s.units[where][key])
        bury_kings_alone(s, ctx)
        assert s.kings["peter_iii"] != where
    ids = [e.decision for e in ctx.events if hasattr(e, "decision")]
    assert ids == ["GT1/kings/peter_iii/rejoins-1", "GT1/kings/peter_iii/rejoins-2"]


def test_3_4_an_area_held_by_an_ally_alone_follows_the_ally_when_it_turns_neutral() -> None:
    s = empty_position()
    s.status["genoa"] = "ally:A"
    put(s, "olbia", "genoa", "L")
    put(s, "corsica_north", "genoa", "L")
    put(s, "corsica_north", "france", "FA")
    assert (s.ctl["olbia"], s.ctl["corsica_north"]) == ("A", "A")
    del s.units["olbia"]
    del s.units["corsica_north"]
    refresh_control(s, ("olbia", "corsica_north"))
    assert (s.ctl["olbia"], s.ctl["corsica_north"]) == ("A", "A")  # 3.4 b: the last holder, through the ally
    s.status["genoa"] = "neutral"
    refresh_control(s)
    # Olbia was held by Genoa's units alone: it is an inactive neutral's area now; Corsica North was
    # held with France's own army, so it stays Player A's (3.4 b).
    assert (s.ctl["olbia"], s.ctl["corsica_north"]) == ("genoa", "A")
    s.status["genoa"] = "ally:B"
    refresh_control(s)
    assert s.ctl["olbia"] == "B"  # an allied power establishes control for its side (3.4)


def test_3_4_an_ally_never_carries_off_land_it_did_not_own() -> None:
    s = empty_position()
    s.status["genoa"] = "ally:A"
    put(s, "provence", "genoa", "L")  # France's own county, garrisoned by Genoese troops alone
    assert s.ctl["provence"] == "A"
    del s.units["provence"]
    s.status["genoa"] = "neutral"
    refresh_control(s)
    assert s.ctl["provence"] == "A"  # 3.4 b: the last side that held it, not neutral Genoa


def test_8_1_king_dies_on_five_or_six_and_a_new_king_is_drawn() -> None:
    s = set_up_state("standard", {"dead_kings_stay_dead": False})  # 8.1 as written
    s.last_turn = 1  # run this End of Turn Phase only (then victory)
    r = run_tasks(s, [Task.of("game.end-of-turn")], {"GT1/end/redistribution/order": "first"},
                  overrides={"GT1/end/king-death/peter_iii": 5, "GT1/end/king-death/philip_iii": 4,
                             "GT1/end/king-death/charles_i": 6})
    st = r.state
    assert "peter_iii" not in st.kings and "philip_iii" in st.kings and "charles_i" not in st.kings
    assert st.king_due["aragon"] and st.king_due["anjou"]
    st.turn, st.phase = 2, "recruitment"
    r2 = run_tasks(st, [Task.of("game.recruitment")], {}, overrides={"GT2/recruit/new-king/aragon": "james_ii"})
    assert r2.state.kings.get("james_ii") is not None
    assert "james_ii" not in r2.state.king_pools["aragon"]


def test_12_pope_placed_only_by_the_holder_of_rome() -> None:
    s = set_up_state("standard", {})
    s.cup = {"pope": 1}
    r = run_tasks(s, [Task.of("game.stratagems")])
    assert r.state.pope is None and r.state.cup == {"pope": 1}  # A does not hold Rome: back to the cup
    s2 = set_up_state("standard", {})
    s2.cup = {"pope": 1}
    s2.units["papal_states"] = {("france", "FA"): 1}
    s2.ctl["papal_states"] = compute_control(s2, "papal_states")
    r2 = run_tasks(s2, [Task.of("game.stratagems")])
    assert r2.state.pope == "A"


def test_12_markers_drawn_after_a_battle_act_at_the_next_stratagem_markers_phase() -> None:
    s = set_up_state("standard", {})
    # Drawn after DV+S results last turn: they wait in the hands until this phase (12.0: they act in it).
    s.hands = {"A": {"pope": 1}, "B": {"plague": 1}}
    s.cup.pop("pope", None)
    s.cup["plague"] -= 1
    s.ctl["papal_states"] = "A"
    r = run_tasks(s, [Task.of("game.stratagems")], overrides={"GT1/stratagems/held-plague-1/B/plague": 2})
    st = r.state
    assert st.pope == "A" and st.plague
    held = [e for e in r.events if isinstance(e, RollEvent) or getattr(e, "change", "") == "pope"]
    assert held[0].seq < next(e.seq for e in r.events if getattr(e, "draw", "").startswith("GT1/stratagems/draw-1"))
    assert all(not st.hands[side].get(m) for side in "AB" for m in ("pope", "plague", "crusade"))


def test_12_crusade_withdraws_a_fleet_and_two_units_when_the_pope_sits_in_rome() -> None:
    s = set_up_state("standard", {})
    s.pope = "A"
    s.cup = {"crusade": 1}
    r = run_tasks(s, [Task.of("game.stratagems")])
    assert sum(r.state.crusade["A"].values()) == 3
    assert any(c == "F" for (_, c) in r.state.crusade["A"])
    assert violations(r.state) == []


def test_5_2_stacking_limit_after_redistribution() -> None:
    s = set_up_state("standard", {})
    s.units["albi"][("france", "L")] = 5  # Albi has no city: three units at most
    s.last_turn = 1
    r = run_tasks(s, [Task.of("game.end-of-turn")],
                  {"GT1/end/redistribution/order": "first", "GT1/end/redistribution/A/pick-1": "done"},
                  overrides={"GT1/end/redistribution/initiative/A": 6, "GT1/end/redistribution/initiative/B": 1})
    assert sum(r.state.side_units("albi", "A").values()) == 3
    assert violations(r.state, stacking=True) == []


def test_vp_counts_only_new_cities() -> None:
    s = set_up_state("standard", {})
    assert victory_points(s) == {"A": 0, "B": 0}
    s.units["tunis"] = {("aragon", "FA"): 1}
    s.status["tunis"] = "neutral"
    s.ctl["tunis"] = compute_control(s, "tunis")
    assert victory_points(s) == {"A": 0, "B": 1}


def test_vespers_victory_conditions() -> None:
    s = set_up_state("vespers-1282", {})
    o = judge(s)
    assert o["winner"] == "A" and "Malta" in o["reason"]  # Aragon does not hold Malta at the start
    s.units["malta"] = {("aragon", "L"): 1}
    s.ctl["malta"] = "B"
    assert judge(s)["winner"] == "B"
    s.taken.append("urgell")
    assert judge(s)["winner"] == "A"


def test_14_3_territorial_concession_gives_plus_three_with_castile() -> None:
    s = set_up_state("standard", {"territorial_concessions": True})
    s.hands = {"A": {}, "B": {"diplomacy": 1}}
    s.political = {"A": [], "B": ["diplomacy", "vassalage", "rebellion"]}
    r1 = "GT1/politics/round-1/B"
    r2 = "GT1/politics/round-2/B"
    r = run_tasks(s, [Task.of("game.political-turn", round=1, side="B"),
                      Task.of("game.political-turn", round=2, side="B")],
                  {r1: "cede:murcia", r2: "diplomacy:castile", f"{r2}/attempt/king": "none", f"{r2}/attempt/tp": "no"},
                  overrides={f"{r2}/attempt": 2})
    assert changes(r.events, "area-ceded")[0].data["area"] == "murcia" and not r.state.side_units("murcia", "B")
    assert r.state.owner["murcia"] == "castile"
    res = [e for e in r.events if isinstance(e, ReportEvent) and e.report == "political-result"][0]
    assert res.data["drm"] == 3 and res.data["result"] == "alliance"
    assert r.state.status["castile"] == "ally:B"
    assert r.state.ctl["murcia"] == "B"  # Castile's area, and Castile is now Aragon's ally (3.4)
    assert violations(r.state) == []


def test_8_1_dead_kings_go_back_to_the_pool() -> None:
    s = set_up_state("standard", {"dead_kings_stay_dead": False})  # 8.1 as written
    s.last_turn = 1
    r = run_tasks(s, [Task.of("game.end-of-turn")], {}, overrides={"GT1/end/king-death/peter_iii": 6})
    assert "peter_iii" in r.state.king_pools["aragon"] and "peter_iii" not in r.state.kings


def test_8_1_house_rule_dead_kings_stay_dead() -> None:
    s = set_up_state("standard", {"dead_kings_stay_dead": True})
    assert s.options["dead_kings_stay_dead"]
    s.last_turn = 1
    r = run_tasks(s, [Task.of("game.end-of-turn")], {}, overrides={"GT1/end/king-death/peter_iii": 6})
    st = r.state
    assert "peter_iii" not in st.king_pools["aragon"] and "peter_iii" not in st.kings and st.king_due["aragon"]
    # with the pool empty, no King comes, and the log says why
    st.king_pools["aragon"] = []
    st.turn, st.phase = 2, "recruitment"
    r2 = run_tasks(st, [Task.of("game.recruitment")])
    assert not any(game_data_king(k) == "aragon" for k in r2.state.kings)
    assert any(isinstance(e, ReportEvent) and e.report == "no-king-left" for e in r2.events)


def test_8_1_house_rule_also_keeps_kings_killed_in_battle_dead() -> None:
    from medviz.engine import play
    from medviz.engine.events import ChangeEvent
    from medviz.rules.medempires.game.players import Heuristic
    from medviz.rules.medempires.ruleset import RULESET

    for seed in range(40):
        h = play(RULESET, "vespers-1282", {"dead_kings_stay_dead": True}, seed=seed,
                 players={"A": Heuristic(), "B": Heuristic()})
        killed = [e for e in h.events if isinstance(e, ChangeEvent) and e.change == "battle-king-killed"]
        if killed:
            break
    else:
        pytest.skip("no King fell in battle in 40 games")
    dead = {k["king"] for k in h.final_state.chronicle["kings_died"]}
    pools = {k for ks in h.final_state.king_pools.values() for k in ks}
    assert dead and not dead & pools, (dead, pools)
    assert len([k["king"] for k in h.final_state.chronicle["kings_died"]]) == len(dead)  # nobody died twice


def _reign_fits(king: str, years: tuple[int, int]) -> bool:
    reign = shipped_data().game_data.kings[king].reign_years
    assert reign is not None, king
    return reign[0] <= years[1] and reign[1] >= years[0]


def test_8_1_ruling_d_successor_comes_in_line_and_in_his_time() -> None:
    """Ruling D: the next in line whose reign reaches the turn; a dead King never comes back."""
    s = set_up_state("vespers-1282", {})
    s.last_turn = 1  # run this End of Turn Phase only
    r = run_tasks(s, [Task.of("game.end-of-turn")], {}, overrides={"GT1/end/king-death/philip_iii": 6})
    st = r.state
    assert "philip_iii" not in st.king_pools["france"] and st.king_due["france"]
    st.phase = "recruitment"
    st.turn = 2
    r2 = run_tasks(st, [Task.of("game.recruitment")])
    placed = [c.data["king"] for c in changes(r2.events, "king-placed")]
    assert placed == ["philip_iv"]  # 1291-1300: Philip IV (1285-1314), not Louis X or Philip III again
    # the realm's Kings die twice over in a later turn: passed over, or not yet reigning
    st2 = r2.state
    st2.kings.pop("philip_iv")
    assert "philip_iv" not in st2.king_pools["france"]
    st2.king_due["france"] = True
    st2.turn = 3  # 1301-1310: Louis X's reign (1314-1316) has not begun
    r3 = run_tasks(st2, [Task.of("game.recruitment")])
    assert not changes(r3.events, "king-placed") or all(
        c.data["power"] != "france" for c in changes(r3.events, "king-placed"))
    rep = [e for e in r3.events if isinstance(e, ReportEvent) and e.report == "no-heir-yet"]
    assert rep and rep[0].data["king"] == "louis_x"
    from medviz.rules.medempires.game.describe import describe_report

    assert describe_report("no-heir-yet", "A", rep[0].data) == (
        "no new France King this turn: the next in line, Louis X the Quarreller, does not reign yet "
        "(8.1, succession ruling)")


def test_8_1_ruling_d_passes_over_successors_whose_reign_has_ended() -> None:
    from medviz.rules.medempires.game.recruitment import next_in_line

    s = set_up_state("standard", {})
    s.turn = 5  # 1321-1330: Philip IV and Louis X reigned off the board; Philip V reigned to 1322
    assert next_in_line(s, "france") == ("philip_v", True)
    s.turn = 6  # 1331-1340: only Philip VI (1328-1350) reigns then
    assert next_in_line(s, "france") == ("philip_vi", True)
    s.turn = 3  # 1301-1310: Robert (1309-1343) follows Charles II (1285-1309) in line
    assert next_in_line(s, "anjou") == ("charles_ii", True)
    s.king_pools["anjou"].remove("charles_ii")
    assert next_in_line(s, "anjou") == ("robert", True)
    s.king_pools["anjou"].remove("robert")
    assert next_in_line(s, "anjou") == ("joanna_i", False)  # Queen from 1343: not in 1301-1310


def test_8_1_vespers_replay_no_king_dies_twice_and_each_reigns_in_his_turn() -> None:
    from medviz.engine import play
    from medviz.engine.events import ChangeEvent

    sc = shipped_data().game_data.scenarios["vespers-1282"]
    historical = RULESET.policies["historical"]()
    for seed in (1490, 1, 2, 3):
        h = play(RULESET, "vespers-1282", {}, seed=seed, players={"A": historical, "B": historical})
        dead = [k["king"] for k in h.final_state.chronicle["kings_died"]]
        assert len(dead) == len(set(dead)), (seed, dead)
        for e in h.events:
            if isinstance(e, ChangeEvent) and e.change == "king-placed" and not e.data.get("setup"):
                assert _reign_fits(e.data["king"], sc.turn_years[e.turn - 1]), (seed, e.turn, e.data)
        placed = [e.data["king"] for e in h.events if isinstance(e, ChangeEvent) and e.change == "king-placed"]
        assert len(placed) == len(set(placed)), (seed, placed)  # nobody comes back
        kings = shipped_data().game_data.kings
        for power in ("france", "anjou", "aragon"):
            line = [k for k in placed if kings[k].power == power and not kings[k].starting]
            order = list(shipped_data().game_data.king_pools[power])
            assert line == sorted(line, key=order.index), (seed, power, line)


def game_data_king(king: str) -> str:
    from medviz.rules.medempires.game.state import shipped_data

    return shipped_data().game_data.kings[king].power


def test_7_3_rebellion_in_a_conquered_home_area() -> None:
    s = set_up_state("standard", {})
    s.units["navarre"] = {("aragon", "FA"): 1}  # Aragon has conquered Navarre; no Navarrese unit is left
    s.status["navarre"] = "ally:A"
    s.ctl["navarre"] = compute_control(s, "navarre")
    assert s.ctl["navarre"] == "B"
    s.hands = {"A": {"diplomacy": 1}, "B": {}}
    s.political = {"A": ["rebellion"], "B": []}
    rid = "GT1/politics/round-1/A"
    from medviz.rules.medempires.game.politics import attempt_options

    assert "rebellion:navarre@navarre" in [o.key for o in attempt_options(s, "A")]
    r = run_tasks(s, [Task.of("game.political-turn", round=1, side="A")], {rid: "rebellion:navarre@navarre"},
                  overrides={f"{rid}/attempt": 5, f"{rid}/rebels": 6})
    st = r.state
    assert st.status["navarre"] == "ally:A"
    assert st.units["navarre"][("navarre", "FA")] == 1 and st.units["navarre"][("navarre", "L")] == 1  # counter limit 2
    assert st.ctl["navarre"] == "partial" and violations(st) == []


def test_7_1_revert_the_opponents_vassal() -> None:
    s = set_up_state("standard", {})
    s.hands = {"A": {"diplomacy": 1}, "B": {}}
    s.political = {"A": ["diplomacy", "vassalage"], "B": []}
    rid = "GT1/politics/round-1/A"
    from medviz.rules.medempires.game.politics import attempt_options

    opts = [o.key for o in attempt_options(s, "A")]
    assert "diplomacy:tunis" in opts and "vassalage:tunis" not in opts  # 7.2: not the other side's vassal
    r = run_tasks(s, [Task.of("game.political-turn", round=1, side="A")], {rid: "diplomacy:tunis"},
                  overrides={f"{rid}/attempt": 6})
    assert r.state.status["tunis"] == "neutral"


def test_12_piracy_takes_two_from_the_opponents_gain_and_vassal_income() -> None:
    s = set_up_state("standard", {})
    s.tp = {"A": 0, "B": 0}
    s.hands = {"A": {"piracy": 1, "gold": 1}, "B": {"trade_concession": 1}}
    r = run_tasks(s, [Task.of("game.recruitment")], {}, overrides={"GT1/recruit/vassal/tunis/tunis": 4})
    col = {e.data["side"]: e.data for e in changes(r.events, "treasury") if e.data.get("why") == "collection (6.1)"}
    assert col["A"]["gold"] == 1 and col["A"]["tp"] == col["A"]["cities"] + 1
    assert col["B"]["vassals"] == 1 and col["B"]["trade"] == 2 and col["B"]["piracy"] == -2
    assert col["B"]["tp"] == col["B"]["cities"] + 1 + 2 - 2
    assert r.state.in_play == {"piracy": 1, "gold": 1, "trade_concession": 1}  # back at end of turn


def test_11_4_coastal_raid_earns_a_tp() -> None:
    s = empty_position()
    put(s, "tyrrhenian_south", "aragon", "F")
    put(s, "sicily_west", "aragon", "M")
    put(s, "naples", "anjou", "L")
    s.tp["B"] = 3
    Q = "GT1/ops-B/force-1"
    ch = {Q: "tyrrhenian_south|aragon|all", f"{Q}/action-1": "embark:sicily_west:aragon:M",
          f"{Q}/action-2": "raid:naples", f"{Q}/action-2/intercept-raid": "no",
          f"{Q}/action-3": "debark:sicily_west:aragon:M", f"{Q}/action-4": "end", "GT1/ops-B/force-2": "end phase"}
    r = run_tasks(s, [Task.of("game.activate", side="B", n=1)], ch,
                  overrides={f"{Q}/ops": 5, f"{Q}/action-2/raid": 4})
    assert r.state.tp["B"] == 4
    assert _spent(r.events) == 1
    assert r.state.units["sicily_west"][("aragon", "M")] == 1 and r.state.ctl["naples"] == "A"


def _raid(s: object, tp: int, die: int) -> object:
    """Aragon's fleet at sea south of the Tyrrhenian raids Naples with a mercenary from Sicily (11.4)."""
    s.units, s.kings = {}, {}  # type: ignore[attr-defined]
    put(s, "tyrrhenian_south", "aragon", "F")
    put(s, "sicily_west", "aragon", "M")
    put(s, "naples", "anjou", "L")
    s.tp["B"] = tp  # type: ignore[attr-defined]
    Q = "GT1/ops-B/force-1"
    ch = {Q: "tyrrhenian_south|aragon|all", f"{Q}/action-1": "embark:sicily_west:aragon:M",
          f"{Q}/action-2": "raid:naples", f"{Q}/action-2/intercept-raid": "no",
          f"{Q}/action-3": "debark:sicily_west:aragon:M", f"{Q}/action-4": "end", "GT1/ops-B/force-2": "end phase"}
    return run_tasks(s, [Task.of("game.activate", side="B", n=1)], ch,
                     overrides={f"{Q}/ops": 5, f"{Q}/action-2/raid": die})


@pytest.mark.parametrize(("tp", "die", "after"), [(9, 4, 10), (10, 6, 10), (10, 3, 10), (0, 3, 0), (0, 6, 1)])
def test_11_4_a_raid_never_lifts_the_treasury_above_the_6_1_cap(tp: int, die: int, after: int) -> None:
    r = _raid(empty_position(), tp, die)
    assert r.state.tp["B"] == after  # type: ignore[attr-defined]
    raids = [e for e in changes(r.events, "treasury") if e.data["why"] == "coastal raid (11.4)"]
    assert [e.data["tp"] for e in raids] == ([after] if die >= 4 else [])
    roll = next(e for e in r.events if isinstance(e, RollEvent) and e.roll.endswith("/raid"))  # type: ignore[attr-defined]
    assert dict(roll.effects) == {"1": "nothing", "2": "nothing", "3": "nothing", "4": "+1 TP", "5": "+1 TP", "6": "+1 TP"}


def test_11_4_a_raid_obeys_a_tp_cap_set_by_a_data_override(tmp_path: object) -> None:
    from pathlib import Path

    from medviz.rules.medempires.game.setup import override_options

    f = Path(str(tmp_path)) / "rich.toml"
    f.write_text('[[operations.treasury]]\nid = "tp_cap"\nvalue = 12\nreconstructed = "a what-if for the class"\n',
                 encoding="utf-8")
    s = set_up_state("standard", override_options(data_file=f))
    assert _raid(s, 10, 4).state.tp["B"] == 11  # type: ignore[attr-defined]
    s = set_up_state("standard", override_options(data_file=f))
    assert _raid(s, 12, 6).state.tp["B"] == 12  # type: ignore[attr-defined]


def _refused(state: object, task: Task, choices: dict[str, object]) -> IllegalAction:
    from medviz.engine.game import GameSpec, Snapshot, run
    from medviz.rules.medempires.ruleset import RULESET

    human = HumanPlayer(choices)
    spec = GameSpec(RULESET, "standard", {}, 0, {"A": human, "B": human})
    with pytest.raises(IllegalAction) as err:
        run(spec, Snapshot(0, state, (task,), 1, None))
    return err.value


def test_illegal_political_and_recruitment_choices_name_their_rule() -> None:
    s = set_up_state("standard", {})
    s.hands["A"] = {"diplomacy": 1}
    s.political = {"A": ["vassalage"], "B": []}
    err = _refused(s, Task.of("game.political-turn", round=1, side="A"),
                   {"GT1/politics/round-1/A": "diplomacy:genoa"})
    assert err.rule == "7.0"  # the diplomacy attempt was already used or forfeited this turn
    err = _refused(s, Task.of("game.political-turn", round=1, side="A"),
                   {"GT1/politics/round-1/A": "vassalage:aragon"})
    assert err.rule == "7.0" and "France, Anjou or Aragon" in str(err)
    s2 = set_up_state("standard", {})
    s2.tp["A"] = 5
    s2.phase = "recruitment"
    err = _refused(s2, Task.of("game.recruit-pick", side="A", pick=1, done=["B"]),
                   {"GT1/recruit/A/pick-1": "france:FA", "GT1/recruit/A/pick-1/area": "murcia"})
    assert err.rule == "6.2"


def test_golden_5_1_political_example_vassalage_after_a_failed_alliance() -> None:
    """5.1 example: an alliance attempt fails; next round the same power may be made a vassal, not allied."""
    from medviz.rules.medempires.game.politics import attempt_options

    s = set_up_state("standard", {})
    s.hands = {"A": {"diplomacy": 2}, "B": {}}
    s.political = {"A": ["diplomacy", "vassalage", "rebellion"], "B": []}
    r1, r2 = "GT1/politics/round-1/A", "GT1/politics/round-2/A"
    r = run_tasks(s, [Task.of("game.political-turn", round=1, side="A"),
                      Task.of("game.political-turn", round=2, side="A")],
                  {r1: "diplomacy:genoa", f"{r1}/attempt/king": "none", f"{r1}/attempt/tp": "no",
                   r2: "vassalage:genoa", f"{r2}/attempt/king": "none", f"{r2}/attempt/tp": "no"},
                  overrides={f"{r1}/attempt": 2, f"{r2}/attempt": 4})
    second = decision(r.events, r2)
    assert "vassalage:genoa" in second.options and "diplomacy:genoa" not in second.options
    assert r.state.status["genoa"] == "vassal:A"
    assert r.state.ctl["genoa"] == "genoa"  # 3.4: a vassal's area is controlled by neither side
    assert "diplomacy:pisa" not in [o.key for o in attempt_options(r.state, "A")]


# --------------------------------------------------------------------------------------------
# Mutation-testing survivors (tools/mutation.py): rules no test had pinned
# --------------------------------------------------------------------------------------------
def _ctx(s: object, choices: dict[str, object] | None = None, overrides: dict[str, object] | None = None) -> object:
    from medviz.engine.game import Context, GameSpec
    from medviz.engine.policy import FirstOptionPolicy, ScriptedPolicy

    pol = ScriptedPolicy(choices or {}, FirstOptionPolicy())
    return Context(GameSpec(RULESET, "standard", {}, 0, {"A": pol, "B": pol}, dict(overrides or {})), s, [], [])


def test_14_1_idle_mercenaries_mutiny_on_one_to_four_and_cost_a_tp() -> None:
    from medviz.rules.medempires.game.turn import mutiny

    s = empty_position()
    put(s, "sicily_west", "aragon", "M")
    put(s, "valencia", "aragon", "M")
    s.tp["B"] = 5
    ctx = _ctx(s, overrides={"GT1/end/mutiny/sicily_west/aragon-1": 5, "GT1/end/mutiny/valencia/aragon-1": 4})
    mutiny(s, ctx)  # type: ignore[arg-type]
    assert s.tp["B"] == 4 and ("aragon", "M") not in s.units.get("valencia", {})
    assert s.units["sicily_west"][("aragon", "M")] == 1  # a 5 is loyal
    s.fought = {"sicily_west": {("aragon", "M"): 1}}  # the one left fought a combat: no roll
    ctx = _ctx(s, overrides={"GT1/end/mutiny/sicily_west/aragon-1": 1})
    mutiny(s, ctx)  # type: ignore[arg-type]
    assert [e.roll for e in ctx.events if isinstance(e, RollEvent)] == []  # type: ignore[attr-defined]


def test_11_2_cargo_beyond_the_surviving_fleets_is_lost_and_kings_drown_only_with_the_last_fleet() -> None:
    from medviz.rules.medempires.game.battles import settle_cargo
    from medviz.rules.medempires.game.state import Force

    s = empty_position()
    put(s, "balearic_sea", "aragon", "F")
    s.force = Force("f", "B", "aragon", "sea", "balearic_sea", "balearic_sea", {("aragon", "F"): 1},
                    cargo={("aragon", "L"): 3}, cargo_kings=["peter_iii"])
    ctx = _ctx(s)
    settle_cargo(s, ctx, "x")  # type: ignore[arg-type]
    assert s.force.cargo == {("aragon", "L"): 2} and s.force.cargo_kings == ["peter_iii"]
    assert [e.change for e in ctx.events] == ["cargo-lost"]  # type: ignore[attr-defined]
    s.force.units = {}
    ctx = _ctx(s)
    settle_cargo(s, ctx, "x")  # type: ignore[arg-type]
    assert [e.change for e in ctx.events] == ["cargo-lost", "cargo-lost", "king-died"]  # type: ignore[attr-defined]
    assert s.force.cargo == {} and s.force.cargo_kings == []


def test_6_1_a_side_whose_piracy_losses_exceed_its_income_gains_nothing() -> None:
    s = set_up_state("standard", {})
    for a in [a for a, c in s.ctl.items() if c == "A" and shipped_data().game_map.areas[a].city]:
        s.ctl[a] = "partial"  # A holds no city in total control
    s.tp = {"A": 3, "B": 0}
    s.hands = {"A": {}, "B": {"piracy": 1}}
    r = run_tasks(s, [Task.of("game.recruitment")], {}, overrides={"GT1/recruit/vassal/tunis/tunis": 5})
    col = {e.data["side"]: e.data for e in changes(r.events, "treasury") if e.data.get("why") == "collection (6.1)"}
    assert (col["A"]["cities"], col["A"]["piracy"], col["A"]["tp"]) == (0, -2, 3)  # never below what it had
