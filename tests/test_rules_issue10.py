"""Issue 10: rule errors in the whole game (6.2, 8.1, 8.2, 11.2, 14.1, 12.0 Crusade), one test each."""

from __future__ import annotations

from typing import Any

from test_game_helpers import changes, decision, empty_position, put, run_tasks
from medviz.engine.events import RollEvent
from medviz.engine.game import Context, GameSpec, Task
from medviz.engine.policy import FirstOptionPolicy, ScriptedPolicy
from medviz.rules.medempires.game.deploy import set_up_state
from medviz.rules.medempires.game.state import GameState
from medviz.rules.medempires.ruleset import RULESET


def _ctx(s: GameState, choices: dict[str, Any] | None = None, overrides: dict[str, Any] | None = None) -> Context:
    """A context over ``s`` with scripted choices and dice (first legal option otherwise)."""
    pol = ScriptedPolicy(choices or {}, FirstOptionPolicy())
    return Context(GameSpec(RULESET, "standard", {}, 0, {"A": pol, "B": pol}, dict(overrides or {})), s, [], [])


def _rolls(ctx: Context) -> list[str]:
    """The ids of the dice rolled in ``ctx``."""
    return [e.roll for e in ctx.events if isinstance(e, RollEvent)]


# -- 6.2 ------------------------------------------------------------------------------------------
def test_6_2_the_three_recruits_limit_is_each_players_own() -> None:
    s = set_up_state("standard", {})
    s.tp = {"A": 10, "B": 10}
    s.phase = "recruitment"
    for u in s.units.values():  # free the fleet counters of both sides
        for key in [k for k in u if k[1] == "F"]:
            del u[key]
    sea = "tyrrhenian_south"  # on the coast of cities of both sides
    ch: dict[str, Any] = {}
    for i, side in enumerate("ABABAB", start=1):
        ch[f"GT1/recruit/{side}/pick-{i}"] = "france:F" if side == "A" else "aragon:F"
        ch[f"GT1/recruit/{side}/pick-{i}/area"] = sea
    ch["GT1/recruit/A/pick-7"] = ch["GT1/recruit/B/pick-8"] = "done"
    r = run_tasks(s, [Task.of("game.recruit-pick", side="A", pick=1, done=())], ch)
    assert sea in decision(r.events, "GT1/recruit/B/pick-6/area").options  # A's three do not count for B
    assert r.state.recruited_here["A"][sea] == 3


# -- 8.2 ------------------------------------------------------------------------------------------
def test_8_2_the_last_holder_rolls_for_the_pope_even_when_he_is_not_in_rome() -> None:
    from medviz.rules.medempires.game.turn import pope_death

    s = empty_position()
    s.cup = {"pope": 1}
    ctx = _ctx(s)
    ctx.change("marker-drawn", actor="B", side="B", marker="pope")  # drawn without Rome: back to the cup
    ctx.change("marker-spent", actor="B", side="B", marker="pope", to="aside")
    assert s.pope is None
    ctx = _ctx(s, overrides={"GT1/end/pope-death": 6})
    pope_death(s, ctx)
    assert _rolls(ctx) == ["GT1/end/pope-death"]
    assert [e.actor for e in ctx.events if isinstance(e, RollEvent)] == ["B"]
    assert s.chronicle["popes_died"] == [{"turn": 1}]


def test_8_2_a_pope_held_in_a_hand_goes_back_to_the_cup_when_he_dies() -> None:
    from medviz.rules.medempires.game.turn import pope_death

    s = empty_position()
    s.cup = {"pope": 1}
    _ctx(s).change("marker-drawn", actor="A", side="A", marker="pope")  # e.g. after a DV+S result
    pope_death(s, _ctx(s, overrides={"GT1/end/pope-death": 6}))
    assert s.hands["A"].get("pope", 0) == 0 and s.cup["pope"] == 1


# -- 8.1 (1) --------------------------------------------------------------------------------------
def test_8_1_a_king_lives_while_friendly_units_outside_the_battle_stay_with_him() -> None:
    from medviz.rules.medempires import combat
    from medviz.rules.medempires.game.battles import bury_lonely_kings, open_battle

    s = empty_position()
    put(s, "sicily_east", "aragon", "L")
    put(s, "sicily_east", "aragon", "FA")   # stays out of the battle
    put(s, "sicily_east", "anjou", "FA", 3)
    s.kings["peter_iii"] = "sicily_east"
    ctx = _ctx(s)
    open_battle(s, ctx, "x", "sicily_east", "B", {("aragon", "L"): 1}, {("anjou", "FA"): 3}, ["peter_iii"], [],
                None, True)
    ctx.change("battle-eliminate", actor="B", side="attacker", power="aragon", unit="L")
    combat._check_kings(s.battle, ctx)  # type: ignore[arg-type]
    bury_lonely_kings(s, ctx, "sicily_east")
    assert changes(ctx.events, "battle-king-killed") == [] and changes(ctx.events, "king-died") == []
    assert s.kings["peter_iii"] == "sicily_east"
    # with nobody else in the area the King dies with his last unit
    s2 = empty_position()
    put(s2, "sicily_east", "aragon", "L")
    put(s2, "sicily_east", "anjou", "FA", 3)
    s2.kings["peter_iii"] = "sicily_east"
    ctx = _ctx(s2)
    open_battle(s2, ctx, "x", "sicily_east", "B", {("aragon", "L"): 1}, {("anjou", "FA"): 3}, ["peter_iii"], [],
                None, True)
    ctx.change("battle-eliminate", actor="B", side="attacker", power="aragon", unit="L")
    combat._check_kings(s2.battle, ctx)  # type: ignore[arg-type]
    assert len(changes(ctx.events, "battle-king-killed")) == 1 and "peter_iii" not in s2.kings


# -- 11.2 / 8.1: no King is lost at sea -----------------------------------------------------------
def _fleet_with_king(s: GameState) -> None:
    """An Aragonese fleet in the Balearic Sea carrying only King Peter III, 4 OPs left."""
    from medviz.rules.medempires.game.state import Force

    put(s, "balearic_sea", "aragon", "F")
    s.force = Force("GT1/ops-B/force-1", "B", "aragon", "sea", "balearic_sea", "balearic_sea",
                    {("aragon", "F"): 1}, ops=4, cargo_kings=["peter_iii"], moved=True)
    s.kings["peter_iii"] = "balearic_sea"


def test_11_2_a_fleet_carrying_only_a_king_may_set_him_ashore_and_end_its_action() -> None:
    from medviz.rules.medempires.game.operations import step_options

    s = empty_position()
    put(s, "catalan_counties", "aragon", "FA")
    _fleet_with_king(s)
    opts = [o.key for o in step_options(s, s.force)]  # type: ignore[arg-type]
    assert "end" in opts and "debark-king:catalan_counties:peter_iii" in opts
    r = run_tasks(s, [Task.of("game.force-step", side="B", n=1, k=1)],
                  {"GT1/ops-B/force-1/action-1": "debark-king:catalan_counties:peter_iii"})
    assert r.state.kings["peter_iii"] == "catalan_counties" and changes(r.events, "king-died") == []


def test_11_2_a_king_still_aboard_when_the_fleet_ends_goes_ashore_never_lost_at_sea() -> None:
    s = empty_position()
    put(s, "catalan_counties", "aragon", "FA")
    _fleet_with_king(s)
    r = run_tasks(s, [Task.of("game.force-step", side="B", n=1, k=1)], {"GT1/ops-B/force-1/action-1": "end"})
    assert changes(r.events, "king-died") == []
    assert r.state.kings["peter_iii"] == "catalan_counties" and r.state.force is None


# -- 14.1: mutiny is tracked per unit ---------------------------------------------------------------
def _battle(s: GameState, ctx: Context, area: str, mine: int, *, fight: bool = True, lose: int = 0,
            force: bool = False) -> None:
    """A battle in ``area``: ``mine`` Aragonese mercenaries defend against three Angevin field armies."""
    from medviz.rules.medempires.game.battles import open_battle

    open_battle(s, ctx, f"b{len(s.chronicle['battles'])}", area, "A", {("anjou", "FA"): 3},
                {("aragon", "M"): mine}, [], [], "defender" if force else None, True)
    if fight:
        ctx.change("battle-round-begins", automatic=True)
    else:
        ctx.change("battle-avoided", actor="B")
    for _ in range(lose):
        ctx.change("battle-eliminate", actor="B", side="defender", power="aragon", unit="M")
    ctx.change("battle-closed", automatic=True, summary={"area": area})


def _mutiny_rolls(s: GameState) -> list[str]:
    """The mutiny dice rolled at the end of the turn (each comes up 6: nobody mutinies)."""
    from medviz.rules.medempires.game.turn import mutiny

    ctx = _ctx(s, overrides={f"GT1/end/mutiny/{a}/aragon-{j}": 6 for a in s.units for j in range(1, 4)})
    mutiny(s, ctx)
    return _rolls(ctx)


def _mercs(*areas: str) -> GameState:
    s = empty_position()
    for a in areas:
        put(s, a, "aragon", "M")
    put(s, "sicily_west", "anjou", "FA", 3)
    return s


def test_14_1_a_mercenary_that_fell_in_battle_does_not_spare_an_idle_one() -> None:
    s = _mercs("sicily_west", "valencia")
    ctx = _ctx(s)
    _battle(s, ctx, "sicily_west", 1, lose=1)
    assert _mutiny_rolls(s) == ["GT1/end/mutiny/valencia/aragon-1"]


def test_14_1_an_avoided_battle_is_no_combat() -> None:
    s = _mercs("sicily_west", "valencia")
    _battle(s, _ctx(s), "sicily_west", 1, fight=False)
    assert _mutiny_rolls(s) == ["GT1/end/mutiny/sicily_west/aragon-1", "GT1/end/mutiny/valencia/aragon-1"]


def test_14_1_one_unit_in_two_battles_covers_only_itself() -> None:
    s = _mercs("sicily_west", "valencia")
    ctx = _ctx(s)
    _battle(s, ctx, "sicily_west", 1)
    _battle(s, ctx, "sicily_west", 1)
    assert _mutiny_rolls(s) == ["GT1/end/mutiny/valencia/aragon-1"]


def test_14_1_a_mercenary_that_fought_keeps_its_record_when_it_moves_and_the_owner_never_picks() -> None:
    s = _mercs("sicily_west", "valencia", "valencia")
    ctx = _ctx(s)
    _battle(s, ctx, "sicily_west", 1)
    ctx.change("unit-moved", actor="B", power="aragon", unit="M", source="sicily_west", to="valencia")
    assert _mutiny_rolls(s) == ["GT1/end/mutiny/valencia/aragon-1", "GT1/end/mutiny/valencia/aragon-2"]
    from medviz.rules.medempires.game.turn import mutiny

    ctx = _ctx(s, overrides={"GT1/end/mutiny/valencia/aragon-1": 2, "GT1/end/mutiny/valencia/aragon-2": 6})
    mutiny(s, ctx)
    assert [e for e in ctx.events if type(e).__name__ == "DecisionEvent"] == []  # no "which one mutinies?"
    assert s.units["valencia"][("aragon", "M")] == 2 and s.fought["valencia"][("aragon", "M")] == 1


def test_14_1_a_force_carries_its_mercenaries_record_and_takes_idle_ones_first() -> None:
    s = _mercs("sicily_west", "sicily_west")
    ctx = _ctx(s)
    s.fought = {"sicily_west": {("aragon", "M"): 1}}  # one of the two fought already
    ctx.change("force-formed", actor="B", id="f", side="B", power="aragon", kind="land", area="sicily_west",
               units=[["aragon", "M", 1]])
    assert s.force is not None and s.force.fought == {}  # the idle one marches
    _battle(s, ctx, "sicily_west", 1, force=True)
    assert s.force.fought == {("aragon", "M"): 1}
    ctx.change("force-moved", actor="B", to="sicily_east")
    assert s.fought == {"sicily_west": {("aragon", "M"): 1}, "sicily_east": {("aragon", "M"): 1}}
    ctx.change("force-ends", actor="B")
    assert _mutiny_rolls(s) == []


# -- 12.0 Crusade ---------------------------------------------------------------------------------
def test_12_crusaders_return_at_the_first_recruitment_phase_with_an_eligible_area_even_the_same_turn() -> None:
    from medviz.rules.medempires.game.recruitment import crusaders_return

    s = set_up_state("standard", {})
    s.phase = "recruitment"
    ctx = _ctx(s)
    ctx.change("unit-removed", actor="B", area="valencia", power="aragon", unit="FA", to="crusade", side="B")
    crusaders_return(s, ctx, "B")  # GT1: they left in this turn's Stratagem Markers Phase
    assert s.crusade["B"] == {} and len(changes(ctx.events, "crusade-return")) == 1
