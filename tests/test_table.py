"""Playing a side at a ``Table``: the pause, choices, undo, refusals, the finished history."""

from __future__ import annotations

from typing import Any

import pytest

from medviz.engine.policy import option_key
from medviz.engine import (
    Context,
    DecisionEvent,
    FirstOptionPolicy,
    History,
    HumanSeat,
    IllegalAction,
    MalformedInput,
    MedvizError,
    ScriptedPolicy,
    Table,
    Task,
    UnknownReference,
    play,
)
from medviz.engine.game import GameSpec, Ruleset, run
from medviz.engine.policy import DecisionPoint, Policy
from medviz.rules.medempires.game.legality import HumanPlayer
from medviz.rules.medempires.ruleset import RULESET

SEED = 7


def heuristic() -> Policy:
    return RULESET.policies["heuristic"]()  # type: ignore[no-any-return]


def refusal(point: DecisionPoint, choice: Any) -> MedvizError:
    return HumanPlayer().refusal(point, choice)


def aragon_table(seed: int = SEED) -> Table:
    """Aragon (B) at the table against the heuristic France and Anjou (A)."""
    return Table(RULESET, "vespers-1282", seed=seed, humans="B", players={"A": heuristic()},
                 stand_in=heuristic(), refusal=refusal)


def in_setup(p: DecisionPoint) -> bool:
    return p.phase == "set-up"


def test_the_game_pauses_at_the_humans_first_decision_with_the_events_so_far() -> None:
    t = aragon_table()
    p = t.pending
    assert p is not None and p.actor == "B" and p.decision == "setup/aragon/FA-1" and p.phase == "set-up"
    assert len(p.options) > 1 and "(3.2)" in p.prompt
    # Pausing changes nothing before the pause: the same seed with the heuristic playing B too.
    full = play(RULESET, "vespers-1282", {}, seed=SEED, players={"A": heuristic(), "B": heuristic()})
    n = len(t.events)
    assert n > 0 and [e.to_dict() for e in t.events] == [e.to_dict() for e in full.events[:n]]
    nxt = full.events[n]
    assert isinstance(nxt, DecisionEvent) and nxt.decision == p.decision and nxt.actor == "B"
    # The live state is the state just before that decision.
    assert t.state.units == full.state_at(n - 1).units


def test_run_returns_the_pending_point_and_play_refuses_a_seat_nobody_fills() -> None:
    spec = GameSpec(RULESET, "vespers-1282", {}, SEED, {"A": heuristic(), "B": HumanSeat()})
    result = run(spec)
    assert result.pending is not None and result.pending.actor == "B"
    with pytest.raises(MedvizError, match=r"setup/aragon/FA-1.*awaits player B"):
        play(RULESET, "vespers-1282", {}, seed=SEED, players={"A": heuristic(), "B": HumanSeat()})


def test_choosing_at_the_table_equals_the_same_choices_played_by_a_human_player() -> None:
    t = aragon_table()
    first = t.pending
    assert first is not None
    t.choose(first.options[-1])  # not where the heuristic would put it
    t.choose(t.pending.options[1])  # type: ignore[union-attr]
    t.auto_while(in_setup, label="set-up")
    assert t.pending is not None and t.pending.phase != "set-up"
    human = 2
    for _ in range(12):
        p = t.pending
        assert p is not None
        t.choose(p.options[-1] if len(p.options) > 2 else p.options[0])
        human += 1
    history = t.finish_with()
    assert t.finished and t.pending is None
    # The same game with every one of those choices handed to a HumanPlayer (rules' scripted player).
    same = play(RULESET, "vespers-1282", {}, seed=SEED,
                players={"A": heuristic(), "B": HumanPlayer(choices=t.choices, fallback=heuristic())})
    mine = history.to_json()
    assert mine.count('"source":"human"') == human
    assert mine.replace('"source":"human"', '"source":"policy"') == same.to_json()  # byte for byte
    assert history.outcome == same.outcome
    assert history.to_dict()["players"] == {"A": "heuristic", "B": "human/heuristic"}


def test_a_choice_the_rules_forbid_is_refused_with_the_rule_and_changes_nothing() -> None:
    t = aragon_table()
    before = [e.to_dict() for e in t.events]
    with pytest.raises(IllegalAction, match=r"3\.2") as err:
        t.choose("sicily_east")
    assert err.value.rule == "3.2" and "Aragon sets up only in" in str(err.value)
    assert t.steps == () and [e.to_dict() for e in t.events] == before
    # A table given no refusal of its own asks the ruleset's declared hook, which names the rule.
    bare = Table(RULESET, "vespers-1282", seed=SEED, humans="B", players={"A": heuristic()})
    with pytest.raises(IllegalAction, match=r"3\.2"):
        bare.choose("sicily_east")


def test_undo_takes_back_the_last_move_and_the_game_returns_to_that_decision() -> None:
    t = aragon_table()
    p0 = t.pending
    assert p0 is not None
    start = [e.to_dict() for e in t.events]
    t.choose(p0.options[0])
    after_first = [e.to_dict() for e in t.events]
    t.auto_while(in_setup)
    assert t.pending is not None and t.pending.phase != "set-up" and len(t.steps) == 2
    t.undo()  # the whole computer set-up goes back at once
    assert len(t.steps) == 1 and [e.to_dict() for e in t.events] == after_first
    t.undo()
    assert t.steps == () and t.pending == p0 and [e.to_dict() for e in t.events] == start
    t.choose(p0.options[-1])
    placed = [e for e in t.events if isinstance(e, DecisionEvent) and e.decision == p0.decision]
    assert placed[0].choice == p0.keys[-1] and placed[0].source == "human"  # the history records the key
    with pytest.raises(MalformedInput, match="only 1 move"):
        t.undo(2)


def test_auto_answers_one_decision_as_the_stand_in_would() -> None:
    t = aragon_table()
    p = t.pending
    assert p is not None
    expected = option_key(heuristic().choose(p))  # the table records the option's key
    t.auto()
    assert len(t.steps) == 1 and t.steps[0].source == "policy"
    assert t.steps[0].choices == ((p.decision, "B", expected),)
    assert t.pending is not None and t.pending.decision != p.decision


def test_the_finished_game_keeps_the_outcome_contract_and_refuses_more_moves() -> None:
    t = aragon_table()
    with pytest.raises(MedvizError, match="not over"):
        _ = t.history
    h = t.finish_with()
    assert set(h.outcome) >= {"winner", "reason", "vp", "control"}
    assert h.outcome["winner"] in ("A", "B") and h.outcome["reason"]
    with pytest.raises(MalformedInput, match="the game is over"):
        t.choose("anything")
    with pytest.raises(MalformedInput, match="the game is over"):
        t.auto()
    assert t.finish_with() is h  # finishing again is the same history


def test_a_human_game_saves_loads_replays_and_branches() -> None:
    t = aragon_table()
    t.choose(t.pending.options[-1])  # type: ignore[union-attr]
    t.auto_while(in_setup)
    for _ in range(5):
        t.choose(t.pending.options[0])  # type: ignore[union-attr]
    h = t.finish_with()
    text = h.to_json()
    loaded = History.from_json(text)
    assert loaded.to_json() == text
    seat = loaded.spec.players["B"]
    assert isinstance(seat, HumanSeat) and seat.spec == "human/heuristic"
    roll = next(r for r in h.rolls() if getattr(r, "roll", "").startswith("GT1/") and r.dice == "1d6")
    face = 1 if roll.value != 1 else 6
    mine, theirs = h.branch(roll.roll, face), loaded.branch(roll.roll, face)
    assert mine.to_json() == theirs.to_json()
    assert mine.roll(roll.roll).value == face and mine.parent is h
    # The branch reuses the human's choices while they are legal, still labelled as the human's.
    made = {e.decision: e.choice for e in h.decisions() if e.source == "human"}
    kept = {e.decision: e.choice for e in mine.decisions() if e.source == "human"}
    assert len(made) == 6 and kept and all(made[d] == c for d, c in kept.items())
    assert any(e.source == "human" and e.seq > roll.seq for e in mine.decisions())


def test_a_history_of_the_rules_human_player_loads_back_too() -> None:
    h = play(RULESET, "vespers-1282", {}, seed=3,
             players={"A": heuristic(), "B": HumanPlayer(choices={"setup/aragon/FA-1": "urgell"},
                                                         fallback=heuristic())})
    assert h.to_dict()["players"]["B"] == "human/heuristic"
    assert History.from_json(h.to_json()).to_json() == h.to_json()


@pytest.mark.parametrize("kwargs, error, words", [
    ({"humans": "C"}, MalformedInput, "no side 'C'"),
    ({"humans": ()}, MalformedInput, "at least one human"),
    ({"humans": "B", "players": {}}, MalformedInput, "side 'A'.*neither"),
    ({"humans": "B", "players": {"A": None, "B": None}}, MalformedInput, "played at the table"),
    ({"humans": "B", "scenario": "vespers-1283"}, UnknownReference, "unknown scenario 'vespers-1283'"),
    ({"humans": "B", "seed": -1}, MalformedInput, "seed -1"),
])
def test_bad_table_requests_say_what_is_wrong(kwargs: dict[str, Any], error: type[Exception], words: str) -> None:
    args: dict[str, Any] = {"scenario": "vespers-1282", "players": {"A": heuristic()}, **kwargs}
    scenario = args.pop("scenario")
    with pytest.raises(error, match=words):
        Table(RULESET, scenario, **args)


# -- the engine alone: a toy ruleset, no Mediterranean Empires -----------------------------------
class Race(Ruleset):
    """Two runners take turns: each picks a stride (1-3), then a die says whether it counts."""

    game = "race"

    def scenarios(self) -> tuple[str, ...]:
        return ("track",)

    def actors(self, scenario: str) -> tuple[str, ...]:
        return ("A", "B")

    def setup(self, scenario: str, options: Any) -> tuple[dict[str, int], list[Task]]:
        return {"A": 0, "B": 0}, [Task.of("leg", n=n, side=s) for n in (1, 2) for s in ("A", "B")]

    def run_task(self, task: Task, state: Any, ctx: Context) -> None:
        side, n = task.args["side"], task.args["n"]
        stride = ctx.decide(f"leg-{n}/{side}", side, [1, 2, 3], prompt="How far?")
        if ctx.roll(f"leg-{n}/{side}/slip", actor=side) > 1:
            ctx.change("run", actor=side, side=side, by=stride)

    def apply(self, state: Any, event: Any) -> None:
        state[event.data["side"]] += event.data["by"]

    def copy_state(self, state: Any) -> Any:
        return dict(state)

    def outcome(self, state: Any) -> dict[str, Any]:
        return {"winner": max(sorted(state), key=state.__getitem__), "reason": "furthest", "distance": dict(state)}

    def describe(self, event: Any) -> str:
        return repr(event.to_dict())

    def refusal(self, point: DecisionPoint, choice: Any) -> MedvizError:
        return IllegalAction(f"{point.decision}: a stride is 1, 2 or 3, not {choice!r}", "R.1")


def test_the_table_is_ruleset_agnostic() -> None:
    t = Table(Race(), "track", seed=4, humans=("A", "B"), players={})
    assert t.pending is not None and t.pending.decision == "leg-1/A" and t.events == []
    with pytest.raises(IllegalAction, match=r"not 4 \(rule R\.1\)"):  # the ruleset's own refusal hook
        t.choose(4)
    t.choose(3)
    assert t.pending.decision == "leg-1/B" and len(t.events) == 3  # type: ignore[union-attr]
    t.auto()  # the default stand-in: the first option
    assert t.choices == {"leg-1/A": 3, "leg-1/B": 1}
    h = t.finish_with(FirstOptionPolicy())
    rolls = {r.roll: r.value for r in h.rolls()}  # type: ignore[union-attr]
    ran = {s: sum(stride for (leg, who), stride in {("1", "A"): 3, ("1", "B"): 1, ("2", "A"): 1, ("2", "B"): 1}.items()
                  if who == s and rolls[f"leg-{leg}/{s}/slip"] > 1) for s in "AB"}
    assert h.outcome["distance"] == ran
    assert [d.source for d in h.decisions()] == ["human", "policy", "policy", "policy"]
    assert h.to_dict()["players"] == {"A": "human/first", "B": "human/first"}


def test_histories_of_scripted_players_load_back_with_the_same_players() -> None:
    h = play(RULESET, "vespers-1282", {}, seed=3,
             players={"A": heuristic(), "B": ScriptedPolicy({"setup/aragon/FA-1": "urgell"}, heuristic())})
    assert h.to_dict()["players"]["B"] == "scripted/heuristic"
    assert History.from_json(h.to_json()).to_json() == h.to_json()
