"""Rulesets are plug-ins found by id (issue 11): the entry-point group and the in-process registry."""

from __future__ import annotations

from typing import Any

import pytest

from medviz.engine import (
    Context,
    FirstOptionPolicy,
    History,
    MalformedInput,
    Ruleset,
    Seat,
    Task,
    UnknownReference,
    get_ruleset,
    play,
    register_ruleset,
    ruleset_ids,
)
from medviz.engine.registry import unregister_ruleset


class Coin(Ruleset):
    """A one-seat toy: call heads or tails three times; a coin says whether you were right."""

    game = "coin-toy"
    title = "Coin toy"

    def scenarios(self) -> tuple[str, ...]:
        return ("three",)

    def seats(self, scenario: str) -> tuple[Seat, ...]:
        return (Seat("P", "Player", "#1f77b4"),)

    def setup(self, scenario: str, options: Any) -> tuple[dict[str, list[int]], list[Task]]:
        return {"right": []}, [Task.of("call", n=n, checkpoint=True) for n in (1, 2, 3)]

    def run_task(self, task: Task, state: Any, ctx: Context) -> None:
        n = task.args["n"]
        call = ctx.decide(f"call-{n}", "P", ["heads", "tails"])
        toss = ctx.roll(f"toss-{n}", "1d2", actor="P")
        if (toss == 1) == (call == "heads"):
            ctx.change("right", actor="P", n=n)

    def apply(self, state: Any, event: Any) -> None:
        state["right"].append(event.data["n"])

    def outcome(self, state: Any) -> dict[str, Any]:
        return {"winner": "P" if len(state["right"]) >= 2 else None, "reason": f"{len(state['right'])} right"}


@pytest.fixture
def coin() -> Any:
    register_ruleset("coin-toy", Coin())
    yield get_ruleset("coin-toy")
    unregister_ruleset("coin-toy")


def test_the_shipped_game_is_found_through_its_entry_point() -> None:
    assert "medempires" in ruleset_ids()
    rs = get_ruleset("medempires")
    assert isinstance(rs, Ruleset) and rs.game == "medempires" and "vespers-1282" in rs.scenarios()


def test_an_unknown_game_names_the_near_miss() -> None:
    with pytest.raises(UnknownReference, match="did you mean 'medempires'"):
        get_ruleset("medempire")


def test_a_registered_ruleset_plays_saves_and_loads_by_id(coin: Any) -> None:
    assert "coin-toy" in ruleset_ids()
    h = play(coin, "three", {}, seed=5, players={"P": FirstOptionPolicy()})
    back = History.from_json(h.to_json())  # found again by its id, through the registry
    assert back.ruleset is coin and back.to_json() == h.to_json()
    # defaults of the declared seam: seats give actors, words, copies, open information
    assert coin.actors("three") == ("P",) and coin.observe({"right": [1]}, "P") == {"right": [1]}
    state = {"right": [1]}
    assert coin.copy_state(state) == state and coin.copy_state(state)["right"] is not state["right"]
    assert "toss-1" in back.describe(back.rolls()[0])


def test_something_that_is_not_a_ruleset_is_refused() -> None:
    register_ruleset("not-a-game", "medviz.engine.dice:parse_dice")
    try:
        with pytest.raises(MalformedInput, match="not a medviz Ruleset"):
            get_ruleset("not-a-game")
    finally:
        unregister_ruleset("not-a-game")


def test_a_ruleset_must_name_its_seats() -> None:
    class Seatless(Coin):
        seats = Ruleset.seats  # type: ignore[assignment]

    with pytest.raises(TypeError, match="seats\\(\\) or actors\\(\\)"):
        Seatless().actors("three")
