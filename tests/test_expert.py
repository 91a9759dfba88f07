"""The ``expert`` player: legal, deterministic, looking ahead through the real rules (small budget, one game)."""

from __future__ import annotations

import pytest

from medviz.engine import MalformedInput, play
from medviz.engine.events import ChangeEvent, DecisionEvent
from medviz.engine.policy import parse_policy
from medviz.rules.medempires.game.expert import Expert, expert_factory, searched
from medviz.rules.medempires.game.invariants import replay_states, violations
from medviz.rules.medempires.game.players import Heuristic
from medviz.rules.medempires.ruleset import RULESET


def _game(seed: int, player: object) -> object:
    return play(RULESET, "vespers-1282", {}, seed=seed, players={"A": Heuristic(), "B": player})  # type: ignore[dict-item]


@pytest.fixture(scope="module")
def expert_games() -> tuple[object, object, object]:
    small = Expert(budget=2, width=2)
    return _game(7, small), _game(7, Expert(budget=2, width=2)), _game(7, Heuristic())


def test_expert_is_deterministic_for_a_seed(expert_games: tuple) -> None:
    a, b, _ = expert_games
    assert [e.to_dict() for e in a.events] == [e.to_dict() for e in b.events]


def test_expert_chooses_only_legal_options_and_keeps_every_invariant(expert_games: tuple) -> None:
    h = expert_games[0]
    mine = [e for e in h.events if isinstance(e, DecisionEvent) and e.actor == "B" and e.source == "policy"]
    assert mine and all(e.choice in e.options for e in mine)
    for e, s in replay_states("vespers-1282", {}, h.events):
        if isinstance(e, ChangeEvent):
            assert not violations(s, stacking=e.change == "game-ends"), e.seq
    assert h.final_state.finished


def test_expert_departs_from_the_heuristic_after_looking_ahead(expert_games: tuple) -> None:
    h, _, plain = expert_games
    mine = {e.decision: e.choice for e in h.events if isinstance(e, DecisionEvent) and e.actor == "B"}
    theirs = {e.decision: e.choice for e in plain.events if isinstance(e, DecisionEvent) and e.actor == "B"}
    assert any(theirs.get(d, c) != c for d, c in mine.items())


def test_outside_a_running_game_the_expert_plays_the_heuristic() -> None:
    h = _game(3, Heuristic())
    e = next(e for e in h.events if isinstance(e, DecisionEvent) and e.source == "policy" and e.actor == "B")
    from medviz.engine.policy import DecisionPoint

    point = DecisionPoint(e.decision, "B", e.options, RULESET.copy_state(h.final_state))
    assert Expert().choose(point) == Heuristic().choose(point)


def test_searched_decisions_are_the_ones_that_shape_the_war() -> None:
    from medviz.engine.policy import DecisionPoint
    from medviz.rules.medempires.choices import Decision
    from medviz.rules.medempires.game.options import Action, Attempt, ForcePick, Place

    def point(kind: str, *options: object) -> DecisionPoint:
        return DecisionPoint("GT1/some/decision", "B", tuple(options), kind=kind)

    assert searched(point(Decision.FORCE, "end phase", ForcePick("catalonia", "aragon", "all")))
    assert searched(point(Decision.RECRUIT_PLACE, Place("valencia"), Place("majorca")))
    assert searched(point(Decision.ATTEMPT, "pass", Attempt("diplomacy", "genoa")))
    assert searched(point(Decision.ACTION, Action("end"), Action("land", "malta")))
    assert not searched(point(Decision.ACTION, Action("end"), Action("move", "gulf_of_lion")))
    assert not searched(point(Decision.TABLE, "a", "b"))  # a battle's table choice: the doctrine decides


def test_expert_spec_and_settings() -> None:
    assert Expert().spec == "expert"
    assert expert_factory("budget=30,seed=2") == Expert(budget=30, seed=2)
    assert Expert(budget=30, seed=2).spec == "expert:budget=30,seed=2"
    assert isinstance(parse_policy("expert:width=3", RULESET.policies), Expert)
    for bad in ("budget", "depth=3", "budget=x", "budget=1,budget=2"):
        with pytest.raises(MalformedInput, match="expert"):
            parse_policy(f"expert:{bad}", RULESET.policies)


def test_medviz_play_names_a_bad_expert_setting(capsys: pytest.CaptureFixture[str]) -> None:
    from medviz.cli import main

    assert main(["play", "vespers-1282", "--player-b", "expert:depth=3"]) == 2
    err = capsys.readouterr().err
    assert "expert:depth=3" in err and "budget=N" in err and "Traceback" not in err
