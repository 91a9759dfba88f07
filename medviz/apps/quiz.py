"""``ChoiceQuiz``: a multiple-choice exercise that checks itself and explains, for any tutorial.

Pick an answer and press *Check*: a right answer is confirmed with why it is right; a wrong one
says why it is wrong (``why_not``) and invites another try. Nothing leaves the notebook (no
grading server). For answers that are numbers or probabilities, ``medviz.apps.odds_chart.Quiz``.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import ipywidgets as widgets

from medviz.engine.errors import MalformedInput

__all__ = ["ChoiceQuiz"]


class ChoiceQuiz(widgets.VBox):  # type: ignore[misc]  # ipywidgets has no type hints
    """A question with ``options``, one of them ``answer``; ``explain`` says why it is right,
    ``why_not`` (option -> words) why another one is wrong."""

    def __init__(self, question: str, options: Sequence[str], answer: str, *, explain: str = "",
                 why_not: Mapping[str, str] | None = None) -> None:
        opts = [str(o) for o in options]
        if len(opts) < 2 or len(set(opts)) != len(opts):
            raise MalformedInput(f"a choice quiz needs two or more different options, got {opts!r}")
        if answer not in opts:
            raise MalformedInput(f"the answer {answer!r} is not one of the options {opts!r}")
        unknown = sorted(set(why_not or {}) - set(opts))
        if unknown:
            raise MalformedInput(f"why_not names {unknown!r}, which are not options")
        self.question = question
        self.options = opts
        self.answer = answer
        self.explain = explain
        self.why_not = dict(why_not or {})
        self.choices = widgets.RadioButtons(options=opts, value=None, layout=widgets.Layout(width="auto"))
        self.button = widgets.Button(description="Check", button_style="info")
        self.feedback = widgets.HTML()
        self.button.on_click(lambda _b: self.check(self.choices.value))
        super().__init__([widgets.HTML(f"<b>{html.escape(question)}</b>"), self.choices, self.button, self.feedback])
        self.add_class("medviz-quiz")
        self.feedback.add_class("medviz-quiz-feedback")

    def is_right(self, choice: str | None) -> bool | None:
        """Whether ``choice`` is the answer; None when it is not one of the options."""
        return None if choice not in self.options else choice == self.answer

    def check(self, choice: str | None) -> bool:
        """Whether ``choice`` is the answer; the feedback says so and explains."""
        ok = self.is_right(choice)
        if ok is None:
            self.feedback.value = "<span style='color:#b8322a'>Pick one of the answers first.</span>"
            return False
        if ok:
            self.feedback.value = (f"<span style='color:#3c8d5a'><b>Right.</b></span> {html.escape(self.explain)}")
        else:
            why = self.why_not.get(str(choice), "")
            self.feedback.value = (f"<span style='color:#b8322a'><b>Not quite.</b></span> {html.escape(why)}"
                                   f"{' ' if why else ''}Try again.")
        return ok
