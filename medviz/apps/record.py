"""``RecordTable``: enter a game played on a real table, decision by decision and die by die.

A sibling of ``PlayTable``: every side is played at the table. It shows the map of the live game
and what the table must enter next: a decision with its legal options in words (never an illegal
one), or a roll with a button per value the dice may show (effects in words where the rules know
them), or a draw with the items in the cup. A box takes typed answers in the words of
``medviz record``. *Undo* takes back the last entry; with ``path`` the recording is saved after
every entry, and ``RecordTable.resume(path)`` continues it. At the end, ``history`` is an ordinary
history: hand it to ``ReplayViewer``, ``DiceLab`` or ``medviz export``.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from medviz.apps.common import MapPane, html_box
from medviz.apps.record_model import RecordModel, refused
from medviz.engine.game import Ruleset
from medviz.engine.history import History
from medviz.engine.policy import Policy

__all__ = ["RecordTable"]


class RecordTable(widgets.VBox):  # type: ignore[misc]  # ipywidgets has no type hints
    """Record a real game of ``game``'s ``scenario``; ``path``: save after every entry (and resume from it)."""

    def __init__(self, scenario: str = "vespers-1282", *, game: str | Ruleset = "medempires", seed: int = 0,
                 options: Mapping[str, Any] | None = None, stand_in: str | Policy | None = None,
                 path: str | Path | None = None, show_map: bool = True,
                 map_size: tuple[int | None, int] = (None, 650), model: RecordModel | None = None) -> None:
        self.model = model if model is not None else RecordModel(
            scenario, game=game, seed=seed, options=options, stand_in=stand_in, path=path)
        self.header = html_box(width="auto")
        first = self.model.view() if show_map else None
        self.map = MapPane(first, *map_size, ruleset=self.model.recorder.ruleset) if first is not None else None
        self.prompt = html_box(width="auto")
        self.choices = widgets.Select(options=[], rows=8, layout=widgets.Layout(width="98%"))
        self.dice = widgets.HBox([], layout=widgets.Layout(flex_flow="row wrap"))
        self.enter_button = self._button("Enter", "enter the selected option or value", "primary")
        self.auto_button = self._button("Let the computer choose", "the stand-in answers this decision only")
        self.setup_button = self._button("Set up", "the computer places the rest of the counters (default deployment)")
        self.undo_button = self._button("Undo", "take back the last entry")
        self.typed = widgets.Text(placeholder="or type: an option's number or words, a die (3+4), undo…",
                                  layout=widgets.Layout(width="70%"))
        self.type_button = self._button("Go", "carry out what was typed")
        self.notice = html_box(width="auto")
        self.recent = html_box(width="auto", max_height="360px", overflow="auto")
        self.outcome = html_box(width="auto")
        self.saved = html_box(width="auto")
        for button, act in ((self.enter_button, self.model.enter_selected), (self.auto_button, self.model.auto),
                            (self.setup_button, self.model.set_up), (self.undo_button, self.model.undo)):
            button.on_click(self._acting(act))
        self.type_button.on_click(lambda _b: self.type_answer(self.typed.value))
        self.choices.observe(self._on_select, names="value")
        self.model.observe(lambda _c: self._render(), names="version")
        self.model.observe(self._on_message, names="message")
        buttons = widgets.HBox([self.enter_button, self.auto_button, self.setup_button, self.undo_button],
                               layout=widgets.Layout(flex_flow="row wrap"))
        enter = widgets.VBox([self.prompt, self.dice, self.choices, buttons,
                              widgets.HBox([self.typed, self.type_button]), self.notice, self.outcome, self.saved],
                             layout=widgets.Layout(width="46%"))
        log = widgets.VBox([widgets.HTML("<b>Since the last entry</b>"), self.recent], layout=widgets.Layout(width="52%"))
        stage = [self.map.figure] if self.map is not None else []
        super().__init__([self.header, *stage, widgets.HBox([enter, log])], layout=widgets.Layout(width="100%"))
        # Stable class names for the page (the browser test finds the parts by them); no behaviour.
        self.add_class("medviz-record")
        for part, name in ((self.header, "header"), (self.prompt, "prompt"), (self.choices, "choices"),
                           (self.dice, "dice"), (self.enter_button, "enter"), (self.auto_button, "auto"),
                           (self.setup_button, "setup"), (self.undo_button, "undo"), (self.typed, "typed"),
                           (self.type_button, "go"), (self.notice, "notice"), (self.recent, "recent"),
                           (self.outcome, "outcome"), (self.saved, "saved")):
            part.add_class(f"medviz-record-{name}")
        self._render()

    @classmethod
    def resume(cls, path: str | Path, **kw: Any) -> RecordTable:
        """Continue the recording saved at ``path`` (entries keep being saved there)."""
        return cls(model=RecordModel.resume(path), **kw)

    # -- driving it from code ------------------------------------------------------------------
    @property
    def history(self) -> History:
        """The finished game as an ordinary history."""
        return self.model.history

    def choose(self, option: Any) -> bool:
        """Enter ``option`` at the pending decision; a refusal is shown with its rule. True if taken."""
        return refused(self.model, self.model.choose, option)

    def enter(self, value: Any) -> bool:
        """Enter what the real dice showed (or what was drawn); True if taken."""
        return refused(self.model, self.model.enter, value)

    def type_answer(self, text: str) -> bool:
        """As typing ``text`` in the box and pressing *Go* (the words of ``medviz record``)."""
        ok = refused(self.model, self.model.type_answer, text)
        if ok:
            self.typed.value = ""
        return ok

    def auto(self) -> bool:
        """As the button *Let the computer choose*."""
        return refused(self.model, self.model.auto)

    def set_up(self) -> bool:
        """As the button *Set up*."""
        return refused(self.model, self.model.set_up)

    def undo(self) -> bool:
        """As the button *Undo*."""
        return refused(self.model, self.model.undo)

    def _acting(self, fn: Callable[..., Any]) -> Callable[[Any], None]:
        def clicked(_button: Any) -> None:
            refused(self.model, fn)
        return clicked

    # -- drawing -------------------------------------------------------------------------------
    @staticmethod
    def _button(text: str, tip: str, style: str = "") -> widgets.Button:
        return widgets.Button(description=text, tooltip=tip, button_style=style, layout=widgets.Layout(width="auto"))

    def _on_select(self, change: Mapping[str, Any]) -> None:
        if change["new"] is not None:
            self.model.selected = int(change["new"])

    def _on_message(self, change: Mapping[str, Any]) -> None:
        text = str(change["new"])
        self.notice.value = f"<div style='color:#b2182b'><b>Refused:</b> {html.escape(text)}</div>" if text else ""

    def _die_button(self, index: int, label: str) -> widgets.Button:
        value = label.split(":", 1)[0]
        b = widgets.Button(description=value, tooltip=label, layout=widgets.Layout(width="44px"))
        b.add_class("medviz-record-die")
        b.on_click(lambda _b: refused(self.model, self.model.enter_index, index))
        return b

    def _render(self) -> None:
        m = self.model
        r = m.recorder
        self.header.value = (f"<span style='font-size:16px'><b>{html.escape(m.where())}</b></span> &nbsp; "
                             f"recording {html.escape(r.ruleset.title or r.ruleset.game)}, {html.escape(r.scenario)}"
                             f" &nbsp; <span style='color:#8a7a66'>{len(r.entries)} entries</span>")
        if self.map is not None:
            view = m.view()
            if view is not None:
                self.map.show(view)
        self.prompt.value = ("<b>The game is over.</b>" if m.finished else
                             f"<div style='font-size:15px'><b>{html.escape(m.prompt)}</b></div>")
        self.choices.unobserve(self._on_select, names="value")
        self.choices.options = [(label, i) for i, label in enumerate(m.labels)]
        self.choices.value = 0 if m.labels else None
        self.choices.observe(self._on_select, names="value")
        self.choices.rows = max(2, min(10, len(m.labels)))
        self.dice.children = [self._die_button(i, label) for i, label in enumerate(m.labels)] if m.kind == "roll" else []
        self.choices.layout.display = "none" if m.kind == "roll" else None
        playing = not m.finished
        self.enter_button.disabled = not playing or m.kind == "roll"
        self.choices.disabled = not playing
        self.auto_button.disabled = m.kind != "decision"
        self.setup_button.disabled = m.setup_label() is None
        if m.setup_label():
            label = str(m.setup_label())
            self.setup_button.description = label[:1].upper() + label[1:]
        self.undo_button.disabled = not r.moves
        self.recent.value = m.recent_html()
        self.outcome.value = m.outcome_html()
        self.saved.value = (f"<span style='color:#8a7a66'>saved to {html.escape(str(m.path))} after every entry</span>"
                            if m.path is not None else "")
