"""Set-up as decisions (3.0-3.3.1): who places what, where it may go, and refusals with the rule."""

from __future__ import annotations

from typing import Any

import pytest

from medviz.engine import RandomPolicy, play
from medviz.engine.errors import IllegalAction
from medviz.engine.events import ChangeEvent, DecisionEvent, RollEvent
from medviz.engine.policy import FirstOptionPolicy
from medviz.rules.medempires.game.deploy import SETUP_PHASE, deployers, set_up_state
from medviz.rules.medempires.game.invariants import setup_violations
from medviz.rules.medempires.game.legality import HumanPlayer
from medviz.rules.medempires.game.players import Heuristic
from medviz.rules.medempires.game.state import GameState, shipped_data
from medviz.rules.medempires.ruleset import RULESET

def placed_by_power(s: GameState) -> dict[str, dict[str, dict[str, int]]]:
    """power -> area -> unit code -> count."""
    out: dict[str, dict[str, dict[str, int]]] = {}
    for area, units in s.units.items():
        for (p, c), n in units.items():
            if n:
                out.setdefault(p, {}).setdefault(area, {})[c] = n
    return out


def test_heuristic_set_up_is_the_default_deployment() -> None:
    """Every counter where deployment.toml puts it, but Aragon's in the Vespers: ``frontier_placement``."""
    for scenario in ("standard", "vespers-1282"):
        s = set_up_state(scenario)
        dep = shipped_data().game_data.deployments[scenario]
        want: dict[str, dict[str, dict[str, int]]] = {}
        for power, code, where in dep.placements():
            if code == "K":
                king = shipped_data().game_data.starting_king(power)
                assert king is not None and s.kings[king.id] == where
                continue
            assert where is not None
            cell = want.setdefault(power, {}).setdefault(where, {})
            cell[code] = cell.get(code, 0) + 1
        if scenario == "vespers-1282":  # Aragon's task (13.0): the deployment's units outside the frontier move onto it
            from medviz.rules.medempires.game.players import frontier_placement

            m = shipped_data().game_map.areas
            aragon = {a: dict(c) for a, c in want["aragon"].items() if m[a].kind == "sea"}
            for counter, where in frontier_placement(shipped_data().game_data, scenario, "aragon").items():
                code = counter.rsplit("-", 1)[0]
                if code in ("FA", "L", "R", "M"):
                    aragon.setdefault(where, {})[code] = aragon.get(where, {}).get(code, 0) + 1
            assert aragon != want["aragon"]
            want["aragon"] = aragon
        assert placed_by_power(s) == want
        assert setup_violations(s) == []
        assert s.start_ctl == s.ctl and s.ctl["abruzzi"] == "A" and s.ctl["genoa"] == "genoa"


@pytest.mark.parametrize("scenario", ["standard", "vespers-1282"])
def test_random_set_ups_keep_every_set_up_rule(scenario: str) -> None:
    layouts = set()
    for seed in range(12):
        s = set_up_state(scenario, players={"A": RandomPolicy(seed), "B": RandomPolicy(seed + 100)})
        assert setup_violations(s) == [], seed
        assert s.start_ctl == s.ctl
        layouts.add(repr(sorted((a, sorted(u.items())) for a, u in s.units.items())))
    assert len(layouts) == 12, "random players choose their own set-ups"


def test_the_rules_name_who_deploys_each_power() -> None:
    who = dict(deployers("standard", shipped_data().game_data))
    assert who["anjou"] == who["france"] == "A" and who["aragon"] == "B"  # 3.1, 3.2
    assert who["pisa"] == who["castile"] == who["papal_states"] == "A"  # 3.3.1
    assert who["genoa"] == who["venice"] == who["england"] == who["sicily"] == "B"
    either = [p for p, st in shipped_data().game_data.setup.items() if st.deployed_by == "either"]
    assert [who[p] for p in either] == ["A", "B"] * (len(either) // 2) + ["A"] * (len(either) % 2)
    order = [p for p, _ in deployers("standard", shipped_data().game_data)]
    assert order.index("anjou") < order.index("aragon") < order.index("genoa")  # A first, then B, then neutrals

    h = play(RULESET, "standard", {}, seed=3, players={"A": RandomPolicy(1), "B": RandomPolicy(2)})
    setup_events = [e for e in h.events if e.phase == SETUP_PHASE]
    assert setup_events and all(e.turn == 0 for e in setup_events)
    for e in setup_events:
        if isinstance(e, DecisionEvent):
            assert e.actor == who[e.decision.split("/")[1]], e.decision
    done = [e for e in h.events if isinstance(e, ChangeEvent) and e.change == "setup-done"]
    assert len(done) == 1 and all(e.phase == SETUP_PHASE for e in h.events[: done[0].seq])


def test_the_last_units_must_fill_the_empty_areas() -> None:
    # Anjou has 6 land units for 5 areas (3.1): two in Naples leave exactly one for each other area.
    choices: dict[str, Any] = {"setup/anjou/FA-1": "naples", "setup/anjou/FA-2": "naples"}
    h = play(RULESET, "standard", {}, seed=0,
             players={"A": HumanPlayer(choices, FirstOptionPolicy()), "B": Heuristic()})
    done = next(e.seq for e in h.events if isinstance(e, ChangeEvent) and e.change == "setup-done")
    s = h.state_at(done)
    assert placed_by_power(s)["anjou"]["naples"] == {"FA": 2}
    assert setup_violations(s) == []
    later = {e.decision: e for e in h.events if isinstance(e, DecisionEvent) and e.decision.startswith("setup/anjou/")}
    assert later["setup/anjou/FA-2"].legal_options == 5
    assert [later[f"setup/anjou/{u}"].legal_options for u in ("FA-3", "L-1", "L-2", "L-3")] == [4, 3, 2, 1]
    assert later["setup/anjou/L-3"].source == "forced" and later["setup/anjou/L-3"].automatic


@pytest.mark.parametrize("choices, rule, words", [
    ({"setup/anjou/FA-1": "provence"}, "3.1", "sets up only in"),
    ({"setup/aragon/FA-1": "sicily_west"}, "3.2", "sets up only in"),
    ({"setup/anjou/FA-1": "naples", "setup/anjou/FA-2": "naples", "setup/anjou/FA-3": "naples"}, "3.1",
     "must hold a land unit"),
    ({"setup/anjou/king": "provence"}, "3.0", "holds one of its land units"),
    ({"setup/anjou/F-1": "balearic_sea"}, "3.1", "fleets start in a sea area next to"),
])
def test_illegal_set_up_choices_are_refused_with_the_rule(choices: dict[str, Any], rule: str, words: str) -> None:
    human = HumanPlayer(choices, Heuristic())
    with pytest.raises(IllegalAction) as err:
        set_up_state("standard", players={"A": human, "B": human})
    assert err.value.rule == rule and words in str(err.value)


def test_a_chosen_set_up_is_kept_when_a_later_die_is_branched() -> None:
    choices = {"setup/anjou/king": "naples"}
    h = play(RULESET, "vespers-1282", {}, seed=5, players={"A": HumanPlayer(choices, Heuristic()), "B": Heuristic()})
    king = shipped_data().game_data.starting_king("anjou")
    assert king is not None
    done = next(e.seq for e in h.events if isinstance(e, ChangeEvent) and e.change == "setup-done")
    assert h.state_at(done).kings[king.id] == "naples"
    roll = next(e for e in h.rolls() if e.seq > done and isinstance(e, RollEvent))
    b = h.branch(roll.roll, 1 if roll.value != 1 else 6)
    assert b.state_at(done).kings[king.id] == "naples"


def test_setup_violations_name_the_rule() -> None:
    s = set_up_state("standard")
    s.units["malta"] = {}
    s.units["provence"][("anjou", "L")] = 1
    s.units["balearic_sea"] = {("anjou", "F"): 1}
    problems = setup_violations(s)
    assert "3.1: no anjou land unit in malta" in problems
    assert any(p.startswith("3.1: anjou L set up in provence") for p in problems)
    assert any(p.startswith("3.1: anjou fleet set up in balearic_sea") for p in problems)
    s2 = set_up_state("standard")
    s2.kings["charles_i"] = "provence"
    assert any(p.startswith("3.0: charles_i set up in provence") for p in setup_violations(s2))
