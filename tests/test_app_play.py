"""PlayTable: the model without widgets, the view driven through its widgets."""

from __future__ import annotations

from typing import Any

import pytest

from medviz.engine.policy import option_key
from medviz.apps import DiceLab, PlayModel, PlayTable, ReplayViewer
from medviz.apps.play_model import new_table
from medviz.engine import DecisionEvent, History, IllegalAction, MalformedInput, UnknownReference
from medviz.rules.medempires.game.options import describe_choice
from medviz.rules.medempires.view import history_view

SEED = 5


@pytest.fixture()
def table() -> PlayTable:
    return PlayTable(seed=SEED, map_size=(900, 500))


def _area_units(view: Any, area: str) -> dict[str, int]:
    return dict((view["units"].get(area) or {}).get("aragon") or {})


# -- the model ----------------------------------------------------------------------------------
def test_the_model_words_the_pending_decision_and_its_legal_options() -> None:
    m = PlayModel(seed=SEED)
    p = m.pending
    assert p is not None and p.actor == "B" and m.prompt == p.prompt and "(3.2)" in m.prompt
    assert m.labels == [describe_choice(o) for o in p.options] and "Urgell" in m.labels
    assert m.where().startswith("Set-up") and not m.finished
    m.selected = m.labels.index("Urgell")
    version = m.version
    m.choose()
    placed = [e for e in m.table.events if isinstance(e, DecisionEvent) and e.decision == p.decision]
    assert placed and placed[0].choice == "urgell" and placed[0].source == "human" and m.version > version
    assert _area_units(m.view(), "urgell").get("FA", 0) >= 1
    assert m.recent()[0].startswith("Player B — Where does this Aragon field army start?")
    with pytest.raises(IllegalAction, match=r"rule 3\.2") as err:
        m.choose("sicily_east")
    assert err.value.rule == "3.2"
    with pytest.raises(MalformedInput, match="not one of 0"):
        m.choose_index(len(m.labels))


def test_set_up_as_in_1282_places_the_rest_then_undo_takes_it_back() -> None:
    m = PlayModel(seed=SEED)
    assert m.setup_label == "set up as in 1282"
    first = m.pending
    m.set_up_as_in_history()
    assert m.pending is not None and m.pending.phase != "set-up" and m.pending.turn == 1
    assert m.table.steps[-1].label == "set up as in 1282" and len(m.table.steps[-1].choices) > 10
    with pytest.raises(MalformedInput, match="set-up is over"):
        m.set_up_as_in_history()
    # Where the heuristic (the default deployment) puts Aragon's counters.
    made = {d: c for d, _a, c in m.table.steps[-1].choices}
    assert made["setup/aragon/FA-1"] == option_key(m.table.stand_in.choose(first))  # the table records keys
    m.undo()
    assert m.pending == first and m.table.steps == ()
    with pytest.raises(MalformedInput, match="nothing to undo"):
        m.undo()


def test_finishing_gives_the_outcome_and_a_history_for_the_other_apps() -> None:
    m = PlayModel(side="A", opponent="historical", seed=SEED)
    assert m.pending is not None and m.pending.actor == "A" and "(3.1)" in m.prompt
    m.auto()
    assert m.table.steps[-1].source == "policy"
    h = m.finish()
    assert m.finished and m.pending is None and m.prompt == "" and m.labels == []
    assert h.to_dict()["players"] == {"A": "human/heuristic", "B": "historical"}
    assert str(h.outcome["reason"]) in m.outcome_html() and ("You win" in m.outcome_html()) == (h.outcome["winner"] == "A")
    assert History.from_json(h.to_json()).to_json() == h.to_json()
    with pytest.raises(MalformedInput, match="the game is over"):
        m.choose(0)


@pytest.mark.parametrize("kwargs, error, words", [
    ({"side": "C"}, MalformedInput, "side 'C': choose 'A'"),
    ({"opponent": "grandmaster"}, MalformedInput, "opponent: unknown policy 'grandmaster'"),
    ({"opponent": 42}, MalformedInput, "opponent must be a player spec"),
    ({"scenario": "vespers-1283"}, UnknownReference, "unknown scenario 'vespers-1283'"),
    ({"scenario": "battle"}, UnknownReference, "a table plays one of"),
    ({"seed": -2}, MalformedInput, "seed -2"),
    ({"options": ["poison"]}, MalformedInput, "options must be a mapping"),
    ({"options": {"poisson": True}}, MalformedInput, "unknown option 'poisson'; known: .*poison"),
])
def test_bad_requests_are_refused_with_a_clear_message(kwargs: dict[str, Any], error: type[Exception],
                                                       words: str) -> None:
    with pytest.raises(error, match=words):
        new_table(**kwargs)
    with pytest.raises(error, match=words):
        PlayTable(**kwargs)


# -- the view -----------------------------------------------------------------------------------
def test_the_table_shows_the_prompt_the_options_the_map_and_the_score(table: PlayTable) -> None:
    p = table.pending
    assert p is not None
    assert "Where does this Aragon field army start?" in table.prompt.value
    assert [label for label, _ in table.choices.options] == [describe_choice(o) for o in p.options]
    assert "Player B (Aragon)" in table.header.value and "TP A 7 · B 4" in table.header.value
    assert "Set up as in 1282" == table.setup_button.description and not table.setup_button.disabled
    assert table.undo_button.disabled and not table.choose_button.disabled
    assert "Anjou (Kingdom of Naples) field army sets up in" in table.recent.value


def test_a_click_advances_the_game_and_moves_the_map(table: PlayTable) -> None:
    p = table.pending
    assert p is not None
    i = list(p.keys).index("majorca")
    before = _area_units(table.map.view, "majorca").get("FA", 0)
    table.choices.value = i
    table.choose_button.click()
    assert table.table.choices[p.decision] == "majorca" and table.pending != p
    assert _area_units(table.map.view, "majorca").get("FA", 0) == before + 1
    assert "sets up in Kingdom of Majorca" in table.recent.value and not table.undo_button.disabled
    # An illegal choice from code is refused in the widget, naming the rule; the game does not move.
    steps = table.table.steps
    assert table.choose("sicily_east") is False
    assert "Refused" in table.notice.value and "rule 3.2" in table.notice.value and table.table.steps == steps
    table.auto_button.click()  # a good move clears the refusal
    assert table.notice.value == "" and len(table.table.steps) == len(steps) + 1


def test_set_up_button_then_finish_then_hand_off_to_the_replay(table: PlayTable) -> None:
    table.setup_button.click()
    p = table.pending
    assert p is not None and p.turn == 1 and table.setup_button.disabled
    assert "Turn 1" in table.header.value
    assert "draws" in table.recent.value  # the stratagem cup (9.0): chance shown as it happens
    table.finish_button.click()
    assert table.pending is None and "The game is over" in table.prompt.value
    assert "wins" in table.outcome.value and table.choose_button.disabled and table.choices.options == ()
    assert "rolls" in table.recent.value  # the dice of the rest of the game
    h = table.history
    viewer = ReplayViewer(h, view_at=history_view, map_size=(900, 500), start=len(h) - 1)
    assert viewer.model.cursor == len(h) - 1
    assert DiceLab(h, view_at=history_view).model.current is h
    table.undo_button.click()  # take back the finish: the game is on again
    assert table.pending == p and not table.choose_button.disabled and table.outcome.value == ""
