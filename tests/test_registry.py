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


def test_medviz_rulesets_lists_games_scenarios_seats_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from medviz.cli import main

    assert main(["rulesets", "--json"]) == 0
    rows = {r["id"]: r for r in json.loads(capsys.readouterr().out)}
    me = {s["id"]: s for s in rows["medempires"]["scenarios"]}
    assert [s["id"] for s in me["vespers-1282"]["seats"]] == ["A", "B"]
    assert me["vespers-1282"]["options"]["mercenaries"] is False and "attacker" in me["battle"]["options"]


def test_medviz_play_plays_any_registered_game_with_generic_flags(coin: Any, capsys: pytest.CaptureFixture[str],
                                                                  tmp_path: Any) -> None:
    import json

    from medviz.cli import main

    out = tmp_path / "coin.json"
    assert main(["play", "coin-toy", "--seed", "4", "--player", "P=first", "--out", str(out), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["players"] == {"P": "first"} and info["seed"] == 4
    h = History.load(out)
    assert h.outcome == info["outcome"] and info["events"] == len(h.events)
    assert len(h.decisions()) == len(h.rolls()) == 3  # three calls, three tosses and [d.choice for d in h.decisions()] == ["heads"] * 3
    assert main(["play", "three", "--player", "Q=first"]) == 2  # a scenario id finds its game; a bad seat is one line
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "SEAT one of P" in err


def test_medviz_odds_routes_to_the_chosen_game_and_keeps_fractions_exact(capsys: pytest.CaptureFixture[str]) -> None:
    import json
    from fractions import Fraction

    from medviz.cli import main

    assert main(["odds", "battle", "--game", "empires_revolt", "--attacker", "3xA2+support1",
                 "--defender", "blank+city", "--json"]) == 0
    er = json.loads(capsys.readouterr().out)
    assert Fraction(er["exact"]["attacker_wins"]) + Fraction(er["exact"]["defender_wins"]) == 1
    assert main(["odds", "battle", "--attacker", "aragon:2FA,1L,K2", "--defender", "anjou:3FA", "--json"]) == 0
    me = json.loads(capsys.readouterr().out)  # the default game keeps its own flags and answers
    assert me["exact"]["attacker_wins"] == "1/2" and me["summary"]["attacker_expected_losses"] == 49 / 108
    assert main(["odds", "battle", "--game", "nope", "--attacker", "x", "--defender", "y"]) == 2
    assert "unknown game 'nope'" in capsys.readouterr().err
    assert main(["play", "battle"]) == 2  # several games have one: the line names each GAME/SCENARIO
    assert "medempires/battle" in capsys.readouterr().err


def test_the_adding_a_game_example_in_the_docs_runs() -> None:
    """docs/engine.md's worked example is real code: it plays, branches and round-trips."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "engine.md").read_text(encoding="utf-8")
    block = re.search(r"## Adding a game.*?```python\n(.*?)```", text, re.S)
    assert block is not None
    scope: dict[str, Any] = {}
    exec(compile(block.group(1), "docs/engine.md", "exec"), scope)  # noqa: S102 - our own docs
    rs = scope["RULESET"]
    register_ruleset(rs.game, rs)
    try:
        h = play(rs, "three", {}, seed=2, players={"P": FirstOptionPolicy()})
        toss = h.rolls()[0]
        child = h.branch(toss.roll, 3 - toss.value)
        assert child.outcome != h.outcome or child.events != h.events
        assert History.from_json(child.to_json()).to_json() == child.to_json()
    finally:
        unregister_ruleset(rs.game)


def test_a_broken_plug_in_does_not_take_the_others_down(capsys: pytest.CaptureFixture[str]) -> None:
    from medviz.cli import main

    register_ruleset("gone-game", "medviz.rules.no_such_package.ruleset:RULESET")
    try:
        with pytest.raises(UnknownReference, match="'gone-game' is installed .* but cannot be loaded: ModuleNotFound"):
            get_ruleset("gone-game")
        assert main(["rulesets"]) == 0
        out = capsys.readouterr()
        assert "medempires" in out.out and "gone-game" in out.err and "Traceback" not in out.err
        assert main(["play", "coin-free-target-that-does-not-exist"]) == 2
    finally:
        unregister_ruleset("gone-game")


def test_a_commands_target_names_a_game_and_scenario_or_is_refused_in_one_line() -> None:
    from medviz.engine.errors import MalformedInput
    from medviz.engine.registry import resolve_target

    rs, scenario = resolve_target("medempires/vespers-1282", "play")
    assert (rs.game, scenario) == ("medempires", "vespers-1282")
    rs, scenario = resolve_target("vespers-1282", "play")  # a scenario one game has
    assert (rs.game, scenario) == ("medempires", "vespers-1282")
    rs, scenario = resolve_target("medempires", "play")  # a game: its first scenario
    assert scenario == rs.scenarios()[0]
    assert resolve_target("medempires", "record", table=True)[1] == rs.table_scenarios()[0]
    for target, words in (("atlantis/vespers-1282", "simulate: no game 'atlantis' (installed: "),
                          ("medempires/atlantis", "simulate: medempires has no scenario 'atlantis' (it has "),
                          ("vespers", "simulate: no game or scenario 'vespers'; did you mean")):
        with pytest.raises(MalformedInput) as exc:
            resolve_target(target, "simulate")
        assert str(exc.value).startswith(words) and "\n" not in str(exc.value)
