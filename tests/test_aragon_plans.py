"""Plans of Aragon's war in the Vespers (``plans.ARAGON_PLANS``): each does what it says on seeded games,
and the task's own plan is Aragon's task, byte for byte (issue 10)."""

from __future__ import annotations

from typing import Any

import pytest

from medviz.engine import play
from medviz.engine.events import ChangeEvent, DecisionEvent
from medviz.rules.medempires.game.plans import ARAGON_PLANS, PLANS, Plan, Planned
from medviz.rules.medempires.game.players import Heuristic
from medviz.rules.medempires.ruleset import RULESET

GUARDED = ("upper_aragon", "rossello", "catalan_counties", "urgell")
SICILY = ("sicily_west", "sicily_east")


def _vespers(seed: int, plan: Plan) -> Any:
    return play(RULESET, "vespers-1282", {}, seed=seed, players={"A": Heuristic(), "B": Planned(plan=plan)})


def _b_choices(h: Any) -> list[str]:
    return [str(e.choice) for e in h.events if isinstance(e, DecisionEvent) and e.actor == "B"]


def _changes(h: Any, change: str, **where: Any) -> list[ChangeEvent]:
    return [e for e in h.events if isinstance(e, ChangeEvent) and e.change == change
            and all(getattr(e, k, None) == v or e.data.get(k) == v for k, v in where.items())]


@pytest.fixture(scope="module")
def task_games() -> dict[int, Any]:
    return {seed: _vespers(seed, Plan()) for seed in (0, 1, 2, 3)}


def test_the_task_plan_is_aragons_task_and_the_old_plans_leave_aragon_alone(task_games: dict[int, Any]) -> None:
    plain = play(RULESET, "vespers-1282", {}, seed=0, players={"A": Heuristic(), "B": Heuristic()})
    assert [e.to_dict() for e in task_games[0].events] == [e.to_dict() for e in plain.events]
    assert ARAGON_PLANS["task"] == Plan() and not Plan().aragon()
    # the heuristic's postures (PLANS) are read at the heuristic's decision points, which Aragon's task
    # does not use: Aragon under any of them plays the task's game, choice for choice
    for name, plan in PLANS.items():
        assert not plan.aragon(), name
        assert _b_choices(_vespers(1, plan)) == _b_choices(task_games[1]), name


def test_aragons_knobs_leave_the_standard_game_alone_and_court_does_not() -> None:
    plain = play(RULESET, "standard", {}, seed=2, players={"A": Heuristic(), "B": Heuristic()})
    war = Plan(malta=False, sicily_first=False, alarm=-99, intercept=0, stand=True, sea_watch=True, avoid=0,
               hunt=True, counter=-2)
    planned = play(RULESET, "standard", {}, seed=2, players={"A": Heuristic(), "B": Planned(plan=war)})
    assert [e.to_dict() for e in planned.events] == [e.to_dict() for e in plain.events]

    def attempts(h: Any, side: str) -> list[str]:
        return [str(e.choice) for e in h.events if isinstance(e, DecisionEvent) and e.actor == side
                and e.phase == "politics" and str(e.choice).startswith(("diplomacy:", "vassalage:"))]

    venice = play(RULESET, "standard", {}, seed=2, players={"A": Planned(plan=Plan(court=("venice",))), "B": Heuristic()})
    assert attempts(venice, "A")[0].endswith("venice") and not attempts(plain, "A")[0].endswith("venice")


def test_every_aragon_plan_changes_aragons_play_somewhere(task_games: dict[int, Any]) -> None:
    for name, plan in ARAGON_PLANS.items():
        if plan == Plan():
            continue
        assert plan.aragon(), name
        assert any(_b_choices(_vespers(seed, plan)) != _b_choices(task_games[seed]) for seed in task_games), name


def _gt1_recruits(h: Any) -> list[str]:
    return [e.data["area"] for e in _changes(h, "unit-placed", turn=1, power="aragon")
            if e.phase.startswith("recruit")]


def test_home_sends_gt1s_recruits_to_the_frontier_not_sicily(task_games: dict[int, Any]) -> None:
    task, home = _gt1_recruits(task_games[0]), _gt1_recruits(_vespers(0, ARAGON_PLANS["home"]))
    assert task and all(a in SICILY for a in task if a in SICILY + GUARDED)
    assert home and any(a in GUARDED for a in home) and not any(a in SICILY for a in home)


def test_no_malta_never_lands_on_malta_in_gt1(task_games: dict[int, Any]) -> None:
    def landed(h: Any) -> bool:
        return any(e.data.get("power") == "aragon" for e in _changes(h, "debarked", turn=1, to="malta"))

    assert any(landed(h) for h in task_games.values())
    assert not any(landed(_vespers(seed, ARAGON_PLANS["no-malta"])) for seed in task_games)


def _avoided_in(h: Any) -> list[str]:
    """The areas of the battles in which Aragon tried to avoid combat (10.3.1), one per try."""
    area, out = "", []
    for e in h.events:
        if isinstance(e, ChangeEvent) and e.change == "battle-opened":
            area = e.data["area"]
        elif isinstance(e, DecisionEvent) and e.actor == "B" and e.choice == "try to avoid":
            out.append(area)
    return out


def test_stand_never_avoids_a_battle_in_a_guarded_area(task_games: dict[int, Any]) -> None:
    assert any(a in GUARDED for h in task_games.values() for a in _avoided_in(h))
    for seed in task_games:
        assert not any(a in GUARDED for a in _avoided_in(_vespers(seed, ARAGON_PLANS["stand"])))


def test_hunt_sends_aragons_fleets_against_the_enemys(task_games: dict[int, Any]) -> None:
    def sea_attacks(h: Any) -> int:
        return sum(1 for e in _changes(h, "battle-opened", kind="sea")
                   if e.data["players"]["attacker"] == "B" and "intercept" not in e.data["prefix"])

    hunt = sum(sea_attacks(_vespers(seed, ARAGON_PLANS["hunt"])) for seed in task_games)
    assert hunt > sum(sea_attacks(h) for h in task_games.values())


def test_court_tries_the_frontiers_neighbours_first() -> None:
    def attempts(h: Any) -> list[str]:
        return [str(e.choice) for e in h.events if isinstance(e, DecisionEvent) and e.actor == "B"
                and e.phase == "politics" and str(e.choice).startswith(("diplomacy:", "vassalage:"))]

    court = ARAGON_PLANS["court"].court
    tried = [a for seed in (0, 1, 2, 3) for a in attempts(_vespers(seed, ARAGON_PLANS["court"]))]
    task = [a for seed in (0, 1, 2, 3) for a in attempts(_vespers(seed, Plan()))]
    assert any(a.endswith(court) for a in tried) and not any(a.endswith(court) for a in task)


def test_the_expert_aragon_rolls_out_no_plan_that_plays_aragons_task_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """``PLANS`` leave Aragon's task alone, so the expert's plan search rolls none of them out for Aragon
    (the same choices, without the rollouts); France's plans are rolled out as before."""
    from medviz.rules.medempires.game.expert import Expert

    calls: list[str] = []
    branch = Expert._plan_branch  # every plan rollout starts there

    def counted(self: Expert, game: Any, me: str, turn: int, first: int, plan: Plan, k: int) -> Any:
        calls.append(me)
        return branch(self, game, me, turn, first, plan, k)

    monkeypatch.setattr(Expert, "_plan_branch", counted)
    plain = play(RULESET, "vespers-1282", {}, seed=0, players={"A": Heuristic(), "B": Heuristic()})
    aragon = play(RULESET, "vespers-1282", {}, seed=0, players={"A": Heuristic(), "B": Expert(budget=0)})
    assert calls == [] and [e.to_dict() for e in aragon.events] == [e.to_dict() for e in plain.events]
    play(RULESET, "vespers-1282", {}, seed=0, players={"A": Expert(budget=0), "B": Heuristic()})
    assert calls and set(calls) == {"A"}
