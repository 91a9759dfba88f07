"""Rule behaviour the mutation run found untested (docs/mutation.md): one test per rule, rule numbers in the names."""

from __future__ import annotations

from test_game_helpers import changes, decision, put, run_tasks
from medviz.engine.game import Task
from medviz.rules.medempires.game.deploy import set_up_state
from medviz.rules.medempires.game.invariants import violations
from medviz.rules.medempires.game.state import GameState, refresh_control


# -- 7.1.3 ----------------------------------------------------------------------------------------
def _papal_home_with_anjou_and_charles() -> GameState:
    """Charles I and two Angevin units stand in the Papal States' home area when it must be left (7.1.3)."""
    s = set_up_state("standard", {})
    del s.units["papal_states"]
    put(s, "papal_states", "anjou", "FA")
    put(s, "papal_states", "anjou", "L")
    s.kings["charles_i"] = "papal_states"
    s.must_leave = {"papal_states": ["A"]}
    return s


def test_7_1_3_a_king_whose_units_leave_for_two_areas_goes_where_his_player_says() -> None:
    s = _papal_home_with_anjou_and_charles()
    leave = "GT1/ops-A/leave/papal_states"
    r = run_tasks(s, [Task.of("game.operations", side="A")],
                  {f"{leave}/anjou-FA": "abruzzi", f"{leave}/anjou-L": "naples",
                   f"{leave}/king-charles_i": "naples", "GT1/ops-A/force-1": "end phase"})
    king = decision(r.events, f"{leave}/king-charles_i")
    assert king.options == ("abruzzi", "naples")  # the areas his units went to, and only those
    assert r.state.kings["charles_i"] == "naples"
    assert r.state.units["abruzzi"][("anjou", "FA")] == 1 and r.state.units["naples"][("anjou", "L")] == 1
    assert "papal_states" not in r.state.must_leave and violations(r.state) == []


def test_7_1_3_a_king_whose_units_all_go_one_way_follows_them_unasked() -> None:
    s = _papal_home_with_anjou_and_charles()
    leave = "GT1/ops-A/leave/papal_states"
    r = run_tasks(s, [Task.of("game.operations", side="A")],
                  {f"{leave}/anjou-FA": "naples", f"{leave}/anjou-L": "naples", "GT1/ops-A/force-1": "end phase"})
    assert r.state.kings["charles_i"] == "naples"
    assert not any(getattr(e, "decision", "") == f"{leave}/king-charles_i" for e in r.events)
    moved = changes(r.events, "king-moved")
    assert [(e.data["king"], e.data["to"]) for e in moved] == [("charles_i", "naples")]


# -- 14.3 -----------------------------------------------------------------------------------------
def test_14_3_a_king_in_a_ceded_area_leaves_with_his_units_before_castile_takes_it() -> None:
    s = set_up_state("standard", {"territorial_concessions": True})
    s.kings["peter_iii"] = "murcia"  # with Murcia's Aragonese levy and raiders
    s.hands = {"A": {}, "B": {}}
    s.political = {"A": [], "B": ["diplomacy"]}
    rid = "GT1/politics/round-1/B"
    r = run_tasks(s, [Task.of("game.political-turn", round=1, side="B")], {rid: "cede:murcia"})
    seq = [(e.change, e.data.get("king") or e.data.get("unit")) for e in r.events
           if getattr(e, "change", "") in ("unit-moved", "king-moved", "area-ceded")]
    # the units go to Valencia, the one adjacent area in Aragon's total control; the King goes with them
    assert seq == [("unit-moved", "L"), ("unit-moved", "R"), ("king-moved", "peter_iii"), ("area-ceded", None)]
    assert r.state.kings["peter_iii"] == "valencia" and r.state.owner["murcia"] == "castile"
    assert not changes(r.events, "king-died") and violations(r.state) == []


def test_14_3_a_king_left_in_a_ceded_area_with_no_friendly_units_near_rejoins_his_power() -> None:
    s = set_up_state("standard", {"territorial_concessions": True})
    s.kings["peter_iii"] = "murcia"
    put(s, "valencia", "france", "L")  # Valencia contested: no adjacent area in Aragon's total control
    refresh_control(s, ["valencia"])
    assert s.ctl["valencia"] == "partial"
    s.hands = {"A": {}, "B": {}}
    s.political = {"A": [], "B": ["diplomacy"]}
    rid = "GT1/politics/round-1/B"
    r = run_tasks(s, [Task.of("game.political-turn", round=1, side="B")], {rid: "cede:murcia"})
    assert [e.data["reason"] for e in changes(r.events, "unit-removed")] == ["ceded (14.3)"] * 2
    where = r.state.kings["peter_iii"]  # 8.1 ruling: he rejoins Aragonese units, never stays in Castile's area
    assert where != "murcia" and any(p == "aragon" for (p, _c) in r.state.units[where])
    assert not changes(r.events, "king-died")


# -- 12.0 Crusade ---------------------------------------------------------------------------------
def test_12_crusade_a_fleet_with_no_friendly_port_waits_and_comes_back_to_a_port_sea() -> None:
    from test_rules_issue10 import _ctx
    from medviz.rules.medempires.game.recruitment import crusaders_return

    s = set_up_state("standard", {})
    s.phase = "recruitment"
    s.crusade["B"] = {("aragon", "F"): 1}
    cities = sorted(a for a, c in s.ctl.items() if c == "B" and s.map.areas[a].city)
    for a in cities:  # French levies contest every Aragonese city: no sea on a friendly city's coast
        put(s, a, "france", "L")
    ctx = _ctx(s)
    crusaders_return(s, ctx, "B")
    assert s.crusade["B"] == {("aragon", "F"): 1} and ctx.events == []  # it waits, nothing asked
    s.units["valencia"].pop(("france", "L"))
    refresh_control(s, ["valencia"])
    crusaders_return(s, ctx, "B")
    back = changes(ctx.events, "crusade-return")
    assert len(back) == 1 and s.crusade["B"] == {}
    sea = back[0].data["area"]
    assert s.map.areas[sea].kind == "sea" and sea in s.map.areas["valencia"].ports
    assert s.units[sea][("aragon", "F")] >= 1


def test_12_crusaders_come_back_only_in_a_recruitment_phase_each_to_a_friendly_land_area() -> None:
    from test_rules_issue10 import _ctx
    from medviz.rules.medempires.game.recruitment import crusaders_return

    s = set_up_state("standard", {})
    s.crusade["B"] = {("aragon", "FA"): 2}
    s.phase = "operations"  # 12.0: they come back only in a Recruitment Phase
    ctx = _ctx(s)
    crusaders_return(s, ctx, "B")
    assert s.crusade["B"] == {("aragon", "FA"): 2} and ctx.events == []
    s.phase = "recruitment"
    before = {a: n.get(("aragon", "FA"), 0) for a, n in s.units.items()}
    crusaders_return(s, ctx, "B")
    back = [e.data["area"] for e in changes(ctx.events, "crusade-return")]
    assert len(back) == 2 and s.crusade["B"] == {}
    # each unit's landing is its own numbered decision: a recorded game or a branch addresses it by id
    asked = [e.decision for e in ctx.events if getattr(e, "kind", "") == "decision"]
    assert asked == ["GT1/recruit/crusade-return/B-1", "GT1/recruit/crusade-return/B-2"]
    for a in set(back):  # each lands in a land area of Aragon's total control, one unit per return
        assert s.ctl[a] == "B" and s.map.areas[a].kind == "land"
        assert s.units[a][("aragon", "FA")] == before.get(a, 0) + back.count(a)


# -- 8.2, 12.0 Pope -------------------------------------------------------------------------------
def test_12_a_pope_leaving_rome_puts_his_one_marker_back_in_the_cup() -> None:
    from test_rules_issue10 import _ctx

    s = set_up_state("standard", {})
    assert s.pope is None and s.cup["pope"] == 1  # the set-up: the one Pope marker in the cup
    s.cup.pop("pope")
    s.pope, s.pope_holder = "A", "A"  # drawn and placed in Rome
    ctx = _ctx(s)
    ctx.change("pope", actor="A", side=None)
    assert s.pope is None and s.cup["pope"] == 1 and s.pope_holder == "A"  # 8.2: the last holder still rolls
    ctx.change("pope", actor="B", side="B")
    assert s.pope == "B" and s.pope_holder == "B" and s.cup["pope"] == 1  # placed from a hand: the cup keeps its own


# -- 10.3 force SPECs -----------------------------------------------------------------------------
def test_a_blank_force_spec_is_refused_as_empty() -> None:
    import pytest

    from medviz.engine import MalformedInput
    from medviz.rules.medempires.combat import parse_force

    for spec in ("", "   "):
        with pytest.raises(MalformedInput, match=r"^--attacker: empty force; expected e\.g\. 'aragon:2FA,1L,1M,K2'$"):
            parse_force(spec, "attacker", ["aragon"], "--attacker")


# -- 7.0 step 3 -----------------------------------------------------------------------------------
def test_7_0_the_pope_adds_one_to_his_sides_diplomacy_and_is_then_used_for_the_turn() -> None:
    from medviz.engine.events import ReportEvent

    s = set_up_state("standard", {})
    s.cup.pop("pope", None)
    s.pope = s.pope_holder = "B"  # in Rome, Aragon's
    s.hands = {"A": {}, "B": {"diplomacy": 1}}
    s.political = {"A": [], "B": ["diplomacy"]}
    rid = "GT1/politics/round-1/B"
    r = run_tasks(s, [Task.of("game.political-turn", round=1, side="B")],
                  {rid: "diplomacy:castile", f"{rid}/attempt/king": "none", f"{rid}/attempt/pope": "yes",
                   f"{rid}/attempt/tp": "no"}, overrides={f"{rid}/attempt": 1})
    result = next(e for e in r.events if isinstance(e, ReportEvent) and e.report == "political-result")
    assert (result.data["roll"], result.data["drm"]) == (1, 1)
    assert r.state.pope_used and r.state.pope == "B"


# -- 8.1 ruling: where a King left alone goes -----------------------------------------------------
def test_8_1_a_king_left_alone_may_rejoin_only_his_own_powers_land_units_in_his_sides_areas_nearest_first() -> None:
    from medviz.rules.medempires.game.turn import king_refuges

    s = set_up_state("standard", {})
    assert s.ctl["sicily_west"] == s.ctl["sicily_east"] == "B"  # Aragon's side, but Sicilian units
    assert king_refuges(s, "aragon", "murcia") == ["murcia", "valencia", "catalan_counties", "lower_aragon",
                                                   "rossello", "upper_aragon", "urgell", "majorca"]  # Majorca: by sea
    assert king_refuges(s, "anjou", "naples") == ["naples", "abruzzi", "apulia", "calabria", "malta"]


# -- 5.2 ------------------------------------------------------------------------------------------
def test_5_2_fleets_redistribute_between_two_seas_of_total_control() -> None:
    from test_game_helpers import empty_position
    from medviz.rules.medempires.game.redistribution import movable, total_areas

    s = empty_position()
    put(s, "tyrrhenian_south", "aragon", "F")
    assert total_areas(s, "B", "sea") == ["tyrrhenian_south"]
    assert not [o for o in movable(s, "B") if o.code == "F"]  # one sea: nowhere else to go
    put(s, "balearic_sea", "aragon", "F")
    assert total_areas(s, "B", "sea") == ["balearic_sea", "tyrrhenian_south"]
    assert [o.key for o in movable(s, "B") if o.code == "F"] == ["balearic_sea|aragon|F", "tyrrhenian_south|aragon|F"]


# -- 14.1 -----------------------------------------------------------------------------------------
def test_14_1_a_mutiny_roll_shows_one_to_four_as_mutiny() -> None:
    from test_rules_issue10 import _ctx
    from medviz.engine.events import RollEvent
    from medviz.rules.medempires.game.turn import mutiny

    s = set_up_state("standard", {})
    s.units = {"valencia": {("aragon", "M"): 2}}
    ctx = _ctx(s, overrides={"GT1/end/mutiny/valencia/aragon-1": 4, "GT1/end/mutiny/valencia/aragon-2": 5})
    mutiny(s, ctx)
    rolls = [e for e in ctx.events if isinstance(e, RollEvent)]
    assert [r.roll for r in rolls] == ["GT1/end/mutiny/valencia/aragon-1", "GT1/end/mutiny/valencia/aragon-2"]
    assert all(dict(r.effects) == {"1": "mutiny", "2": "mutiny", "3": "mutiny", "4": "mutiny", "5": "loyal",
                                   "6": "loyal"} for r in rolls)
    assert s.units["valencia"] == {("aragon", "M"): 1}  # the 4 mutinied, the 5 stayed


# -- 3.4 b ruling ---------------------------------------------------------------------------------
def test_3_4_an_allys_own_area_stays_the_allys_with_a_neutrals_units_in_it_but_not_with_a_players() -> None:
    from medviz.rules.medempires.game.state import _holder

    s = set_up_state("standard", {})
    assert s.status["sicily"] == "ally:B" and s.ctl["sicily_west"] == "B"
    assert _holder(s, "sicily_west", "B") == "sicily"  # held by Sicily's own units alone
    put(s, "sicily_west", "granada", "L")  # a neutral's units do not stop control (3.4 a) nor make it Aragon's
    assert s.ctl["sicily_west"] == "B" and _holder(s, "sicily_west", "B") == "sicily"
    put(s, "sicily_west", "aragon", "L")  # a player power's units there: the side's own
    assert _holder(s, "sicily_west", "B") == "B"
