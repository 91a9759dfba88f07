"""The rules tutorials (notebooks/tutorials/): their agreement with the generator, and the quiz widgets."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import nbformat
import pytest

from helpers_sample import load_tool

from medviz.apps.odds_chart import Quiz
from medviz.apps.quiz import ChoiceQuiz
from medviz.engine.errors import MalformedInput

ROOT = Path(__file__).resolve().parent.parent


def _generator() -> Any:
    return load_tool("make_rules_tutorials")


def test_committed_tutorials_are_what_the_generator_writes_with_outputs_stripped() -> None:
    gen = _generator()
    assert {"battle-step-by-step", "moving-armies-and-fleets", "money-and-men", "politics", "kings-popes-stratagems"} <= set(gen.NOTEBOOKS_HERE)
    for name, (_prefix, cells) in gen.NOTEBOOKS_HERE.items():
        path = ROOT / "notebooks" / "tutorials" / f"{name}.ipynb"
        nb = nbformat.read(path, as_version=4)
        assert [c.source for c in nb.cells] == [c.source for c in cells()], f"{name}: run tools/make_rules_tutorials.py"
        assert all(not c.get("outputs") and not c.get("execution_count") for c in nb.cells if c.cell_type == "code")
        assert path.stat().st_size < 60_000
        text = "".join(c.source for c in nb.cells)
        assert text.count("Quiz(") >= 2, f"{name}: each lesson has 2-4 exercises"


def test_choice_quiz_confirms_the_answer_and_explains_a_wrong_one() -> None:
    q = ChoiceQuiz("Who wins ties?", ["attacker", "defender"], "defender", explain="10.3.2: the defender.",
                   why_not={"attacker": "Only a strictly higher roll."})
    assert q.is_right("defender") and q.is_right("attacker") is False and q.is_right("nobody") is None
    assert not q.check(None) and "Pick one" in q.feedback.value
    assert not q.check("attacker") and "Not quite" in q.feedback.value and "strictly higher" in q.feedback.value
    q.choices.value = "defender"
    q.button.click()
    assert "Right." in q.feedback.value and "10.3.2" in q.feedback.value
    assert "medviz-quiz" in q._dom_classes and "medviz-quiz-feedback" in q.feedback._dom_classes


@pytest.mark.parametrize(("options", "answer", "why_not"), [(["a"], "a", None), (["a", "a"], "a", None),
                                                            (["a", "b"], "c", None), (["a", "b"], "a", {"z": "?"})])
def test_choice_quiz_refuses_a_malformed_question(options: list[str], answer: str, why_not: Any) -> None:
    with pytest.raises(MalformedInput):
        ChoiceQuiz("q", options, answer, why_not=why_not)


def test_a_number_quiz_gives_its_hint_only_to_a_wrong_answer() -> None:
    q = Quiz("How many?", Fraction(8), unit="number", hint="Count the doubles.", explain="Eight.")
    assert not q.check("5") and "Count the doubles." in q.feedback.value
    assert q.check("8") and "Count the doubles." not in q.feedback.value and "Eight." in q.feedback.value
    assert "Exactly 8." in q.feedback.value  # a whole number is not written "8 ≈ 8"
