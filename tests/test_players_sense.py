"""The computer players' naval and land play makes sense to someone watching a replay.

Regression tests for faults seen in replays (second audit, items 1-5): fleets that sailed in circles
until their cargo and Kings were lost at sea (11.2 ruling), armies embarked and put straight back
ashore, land forces pacing between two areas, Sicily's defenders carried off into a neutral's land
(10.1), and a heuristic Aragon that never went for Sicily or Malta in the Vespers scenario (13.0).
"""

from __future__ import annotations

import copy
import itertools
from typing import Any

import pytest

from medviz.engine import History, play
from medviz.engine.events import ChangeEvent, DecisionEvent, ReportEvent
from medviz.rules.medempires.game.operations import step_options
from medviz.rules.medempires.game.players import (
    SICILIAN_REALM,
    Heuristic,
    Historical,
)
from medviz.rules.medempires.game.state import cost, other_side, sea_distances, shipped_data
from medviz.rules.medempires.ruleset import RULESET

PLAYERS = {"heuristic": Heuristic, "historical": Historical}
GAMES = ([("vespers-1282", "historical", s) for s in range(10)]
         + [("vespers-1282", "heuristic", s) for s in range(10)]
         + [("standard", "heuristic", s) for s in range(6)])


@pytest.fixture(scope="module")
def games() -> dict[tuple[str, str, int], History]:
    out = {}
    for scenario, kind, seed in GAMES:
        p = PLAYERS[kind]
        out[(scenario, kind, seed)] = play(RULESET, scenario, {}, seed=seed, players={"A": p(), "B": p()})
    return out


def _lost_at_sea_by_choice(h: History) -> list[int]:
    """Seqs of cargo or Kings lost because a force ended its action with them aboard (not sunk in battle)."""
    out, before = [], None
    for e in h:
        lost = isinstance(e, ChangeEvent) and (
            e.change == "cargo-lost" or (e.change == "king-died" and e.data.get("cause") == "lost at sea"))
        if lost:
            if isinstance(before, DecisionEvent) and "/action-" in before.decision:
                out.append(e.seq)
            continue
        before = e
    return out


def _actions(h: History) -> dict[str, list[str]]:
    """Each force's action choices in order, keyed by the force's decision prefix."""
    out: dict[str, list[str]] = {}
    for d in h.decisions():
        if "/action-" in d.decision and "/action-" not in d.decision.rsplit("/action-", 1)[1]:
            prefix, _, rest = d.decision.rpartition("/action-")
            if rest.isdigit():
                out.setdefault(prefix, []).append(str(d.choice))
    return out


def test_the_action_helper_sees_force_steps(games: dict[tuple[str, str, int], History]) -> None:
    """The scan below looks at real force actions (guards the tests against a silent empty scan)."""
    acts = _actions(games[("vespers-1282", "historical", 0)])
    choices = [c for cs in acts.values() for c in cs]
    assert any(c.startswith("embark:") for c in choices)
    assert any(c.startswith("move:") for c in choices)


def test_no_land_unit_or_king_is_lost_at_sea_by_a_fleet_that_had_a_choice(
        games: dict[tuple[str, str, int], History]) -> None:
    """A fleet puts its cargo ashore before its OPs run out (11.2 ruling: cargo left aboard is lost)."""
    lost = {k: seqs for k, h in games.items() if (seqs := _lost_at_sea_by_choice(h))}
    assert not lost, lost


def test_no_unit_is_embarked_and_put_straight_back_ashore(games: dict[tuple[str, str, int], History]) -> None:
    """No embark of a unit followed at once by its debark into the area it came from."""
    shuttles: dict[Any, list[str]] = {}
    for k, h in games.items():
        for prefix, cs in _actions(h).items():
            for a, b in itertools.pairwise(cs):
                if a.startswith("embark:") and b.startswith("debark:") and a.split(":")[1:] == b.split(":")[1:]:
                    shuttles.setdefault(k, []).append(f"{prefix}: {a} then {b}")
    assert not shuttles, shuttles


def test_land_forces_do_not_pace_between_two_areas(games: dict[tuple[str, str, int], History]) -> None:
    """No land force goes A -> B -> A -> B within one activation."""
    m = shipped_data().game_map.areas
    pacing = []
    for k, h in games.items():
        for prefix, cs in _actions(h).items():
            path = [c[5:] for c in cs if c.startswith("move:")]
            if not path or m[path[0]].kind != "land":
                continue
            if any(path[i] == path[i + 2] and path[i + 1] == path[i + 3] for i in range(len(path) - 3)):
                pacing.append((k, prefix, path))
    assert not pacing, pacing


def test_fleets_never_put_troops_ashore_in_a_neutral_land(games: dict[tuple[str, str, int], History]) -> None:
    """A debark that invades a neutral (10.1) hands the enemy an ally: the players never do it."""
    bad = []
    for k, h in games.items():
        last: DecisionEvent | None = None
        for e in h:
            if isinstance(e, DecisionEvent):
                last = e
            elif isinstance(e, ReportEvent) and e.report == "invasion" and last is not None \
                    and str(last.choice).startswith("debark:"):
                bad.append((k, e.seq, last.choice))
    assert not bad, bad


def test_heuristic_aragon_goes_for_sicily_or_malta_in_the_vespers(
        games: dict[tuple[str, str, int], History]) -> None:
    """Aragon's victory lies in Sicily and Malta (13.0): it sails or lands toward them in most games."""
    m = shipped_data().game_map.areas
    seas = {x for a in SICILIAN_REALM for x in m[a].coasts}

    def toward(choice: str) -> bool:
        verb, _, rest = choice.partition(":")
        where = rest.split(":")[0]
        return (verb in ("land", "debark") and where in SICILIAN_REALM) or (verb == "move" and where in seas)

    went = [seed for (scenario, kind, seed), h in games.items() if scenario == "vespers-1282" and kind == "heuristic"
            and any(d.actor == "B" and "/ops-" in d.decision and toward(str(d.choice)) for d in h.decisions())]
    assert len(went) >= 8, went


def _fleet_about_to_load(h: History) -> tuple[Any, str, list[Any], tuple[str, int, str], int]:
    """(state, side, options, plan, seas to go) at the first fleet step planning a landing one sea away."""
    m = shipped_data().game_map.areas
    p = Heuristic()
    for d in h.decisions():
        if "/action-" not in d.decision or not str(d.choice).startswith("embark:"):
            continue
        s, side = copy.deepcopy(h.state_at(d.seq)), str(d.actor)
        opts: list[Any] = step_options(s, s.force)  # the typed options the player was offered
        assert [o.key for o in opts] == list(d.options)  # ... which the history records by key
        plan = p._landing_plan(s, side, s.force, opts, p._naval_targets(s, side, p._targets(s, side)))
        if plan is None or s.ctl.get(plan[0]) != other_side(side):
            continue
        dd = min(sea_distances(s.map, s.force.area).get(x, 99) for x in m[plan[0]].coasts)
        if dd == 1:
            return s, side, opts, plan, dd
    raise AssertionError("no fleet one sea from its landing in this game")


def test_reach_counts_op_costs_and_plague_doubles_them(games: dict[tuple[str, str, int], History]) -> None:
    """A landing one sea away costs a move and the landing (2 OPs), 4 under Plague (12.0): the plan knows."""
    s, side, opts, (target, _, _), dd = _fleet_about_to_load(games[("standard", "heuristic", 0)])
    p = Heuristic()
    tg = p._naval_targets(s, side, p._targets(s, side))
    s.force.ops = dd * cost(s, "naval_move") + cost(s, "amphibious_landing")
    plan = p._landing_plan(s, side, s.force, opts, tg)
    assert plan is not None and plan[0] == target, plan
    s.plague = True
    plan = p._landing_plan(s, side, s.force, opts, tg)
    assert plan is None or plan[0] != target, plan


def test_a_landing_plan_needs_cargo_of_one_power(games: dict[tuple[str, str, int], History]) -> None:
    """With two powers' units aboard no amphibious landing is planned (11.2 ruling); with one it is."""
    s, side, opts, (target, need, power), _ = _fleet_about_to_load(games[("standard", "heuristic", 0)])
    p = Heuristic()
    tg = p._naval_targets(s, side, p._targets(s, side))
    other = next(pw for pw in sorted(s.status) if pw != power and s.side_of(pw) == side)
    armies = (need + 1) // 2
    s.force.cargo = {(power, "FA"): armies}
    plan = p._landing_plan(s, side, s.force, opts, tg)
    assert plan is not None and plan[0] == target, plan
    s.force.cargo = {(power, "FA"): armies, (other, "FA"): 1}
    plan = p._landing_plan(s, side, s.force, opts, tg)
    assert plan is None or s.ctl.get(plan[0]) != other_side(side), plan
