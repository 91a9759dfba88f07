"""``PlayTable``: play one side of Mediterranean Empires yourself, against a computer player.

The map of the live game, the pending decision in plain words with its legal options (never an
illegal one), buttons to choose, to let the computer choose, to set up as in the scenario's year,
to undo and to let the computer finish; what happened since your last move (dice included), the
treasury and victory points, and at the end the outcome. ``table.history`` then goes straight
into ``ReplayViewer`` or ``DiceLab``.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import ipywidgets as widgets

from medviz.apps.common import MapPane, html_box
from medviz.apps.fit import ScreenFit, follow
from medviz.apps.play_model import DEFAULT_GAME, PlayModel
from medviz.engine.errors import MedvizError
from medviz.engine.game import Ruleset
from medviz.engine.history import History
from medviz.engine.policy import DecisionPoint, Policy

__all__ = ["PlayTable"]


class PlayTable(widgets.VBox):  # type: ignore[misc]  # ipywidgets has no type hints
    """Play seat ``side`` of ``game``'s ``scenario`` against ``opponent`` (a player spec or policy)."""

    def __init__(self, scenario: str = "vespers-1282", side: str | Sequence[str] = "B",
                 opponent: str | Policy = "heuristic", *,
                 seed: int = 0, options: Mapping[str, Any] | None = None,
                 map_size: tuple[int | None, int] = (None, 750), game: str | Ruleset = DEFAULT_GAME) -> None:
        self.model = PlayModel(scenario, side, opponent, seed=seed, options=options, game=game)
        self.header = html_box(width="auto")
        first = self.model.view(anyway=True)
        self.map = MapPane(first, *map_size, ruleset=self.model.table.ruleset) if first is not None else None
        self.prompt = html_box(width="auto")
        self.choices = widgets.Select(options=[], rows=5, layout=widgets.Layout(width="98%"))
        self.fit = ScreenFit()
        self.choose_button = self._button("Choose", "take the selected option", "primary")
        self.auto_button = self._button("Let the computer choose", "the heuristic answers this decision only")
        shortcut = self.model.setup_label or "set up"
        self.setup_button = self._button(shortcut[:1].upper() + shortcut[1:],
                                         "place the rest of your counters as they stood (default deployment)")
        self.undo_button = self._button("Undo", "take back your last move")
        self.finish_button = self._button("Finish the game for me", "the heuristic plays your side to the end")
        self.reveal_button = self._button("Show my cards", "hot seat: only the player named above presses this",
                                          "success")
        self.reveal_button.on_click(self._acting(self.model.reveal))
        self.notice = html_box(width="auto")
        self.recent = html_box(width="auto", max_height="360px", overflow="auto")
        self.outcome = html_box(width="auto")
        for button, act in ((self.choose_button, self.model.choose), (self.auto_button, self.model.auto),
                            (self.setup_button, self.model.set_up_as_in_history),
                            (self.undo_button, self.model.undo), (self.finish_button, self.model.finish)):
            button.on_click(self._acting(act))
        self.choices.observe(self._on_select, names="value")
        self.model.observe(lambda _c: self._render(), names="version")
        self.model.observe(self._on_message, names="message")
        # One screen: the question, its options and the buttons above the map (the options beside the
        # buttons), the map as tall as the screen has room for (ScreenFit measures it), the log below.
        buttons = widgets.HBox([self.choose_button, self.auto_button, self.setup_button, self.undo_button,
                                self.finish_button, *([self.fit] if self.map is not None else [])],
                               layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        decide = widgets.VBox([self.prompt, self.reveal_button, self.choices, buttons, self.notice, self.outcome],
                              layout=widgets.Layout(width="100%"))
        self.log_box = widgets.VBox([widgets.HTML("<b>Since your last move</b>"), self.recent],
                                    layout=widgets.Layout(width="100%"))
        self.stage = widgets.VBox([self.map.figure] if self.map is not None else [])
        super().__init__([self.header, decide, self.stage, self.log_box], layout=widgets.Layout(width="100%"))
        self.add_class("medviz-app")
        if self.map is not None:
            follow(self.fit, self.map.resize, map_size[1], laid_out=lambda: self.map and self.map.figure.layout.height)
        # Stable class names for the page (the browser test finds the parts by them); no behaviour.
        self.add_class("medviz-play")
        for part, name in ((self.header, "header"), (self.prompt, "prompt"), (self.choices, "choices"),
                           (self.choose_button, "choose"), (self.auto_button, "auto"),
                           (self.setup_button, "setup"), (self.undo_button, "undo"),
                           (self.finish_button, "finish"), (self.notice, "notice"), (self.recent, "recent"),
                           (self.outcome, "outcome"), (self.reveal_button, "reveal")):
            part.add_class(f"medviz-play-{name}")
        self._render()

    # -- driving it from code ------------------------------------------------------------------
    @property
    def table(self) -> Any:
        """The engine ``Table`` underneath (``medviz.engine.table``)."""
        return self.model.table

    @property
    def pending(self) -> DecisionPoint | None:
        """The decision the game waits for (None once it is over)."""
        return self.model.pending

    @property
    def history(self) -> History:
        """The finished game: hand it to ``ReplayViewer`` or ``DiceLab``."""
        return self.model.history

    def choose(self, option: Any) -> bool:
        """Answer with ``option`` as if chosen in the list; a refusal is shown with its rule. True if taken."""
        return self._act(self.model.choose, option)

    def auto(self) -> bool:
        """As the button *Let the computer choose*."""
        return self._act(self.model.auto)

    def set_up(self) -> bool:
        """As the button *Set up as in 1282*: the rest of your counters as they stood (3.0)."""
        return self._act(self.model.set_up_as_in_history)

    def undo(self) -> bool:
        """As the button *Undo*."""
        return self._act(self.model.undo)

    def finish(self) -> bool:
        """As the button *Finish the game for me*."""
        return self._act(self.model.finish)

    def reveal(self) -> bool:
        """As the button *Show my cards* (hot seat: the waiting seat is at the screen)."""
        return self._act(self.model.reveal)

    def _act(self, fn: Callable[..., Any], *args: Any) -> bool:
        try:
            fn(*args)
        except MedvizError as exc:
            self.model.message = str(exc)
            return False
        return True

    def _acting(self, fn: Callable[..., Any]) -> Callable[[Any], None]:
        def clicked(_button: Any) -> None:
            self._act(fn)
        return clicked

    # -- drawing -------------------------------------------------------------------------------
    @staticmethod
    def _button(text: str, tip: str, style: str = "") -> widgets.Button:
        return widgets.Button(description=text, tooltip=tip, button_style=style,
                              layout=widgets.Layout(width="auto"))

    def _on_select(self, change: Mapping[str, Any]) -> None:
        if change["new"] is not None:
            self.model.selected = int(change["new"])

    def _on_message(self, change: Mapping[str, Any]) -> None:
        text = str(change["new"])
        self.notice.value = (f"<div style='color:#b2182b'><b>Refused:</b> {html.escape(text)}</div>" if text else "")

    def _render(self) -> None:
        m = self.model
        view = m.view()
        scores = "".join(
            f" &nbsp; <span title='{html.escape(meaning)}'>{html.escape(short)} "
            + " · ".join(f"{html.escape(str(seat))} {html.escape(str(n))}" for seat, n in by_seat.items()) + "</span>"
            for short, meaning, by_seat in m.score(view))
        who = "to play" if m.hot_seat else "you play"
        self.header.value = (
            f"<span style='font-size:16px'><b>{html.escape(m.where())}</b></span> &nbsp; "
            f"{who} <b>{html.escape(m.side_name())}</b>{scores}")
        if self.map is not None and view is not None:
            self.map.show(view)
        p = m.pending
        screened = bool(m.screen)
        for part in (self.stage, self.log_box):
            part.layout.display = "none" if screened else None
        self.reveal_button.layout.display = None if screened else "none"
        if p is None:
            self.prompt.value = "<b>The game is over.</b>"
        elif screened:
            name = m.side_name(m.screen)
            self.reveal_button.description = f"I am {name}: show my cards"
            self.prompt.value = (f"<div style='font-size:15px'><b>Pass the screen to {html.escape(name)}.</b><br>"
                                 f"Only {html.escape(name)} presses the button below.</div>")
        else:
            self.prompt.value = f"<div style='font-size:15px'><b>{html.escape(m.prompt)}</b></div>"
        self.choices.unobserve(self._on_select, names="value")
        self.choices.options = [(label, i) for i, label in enumerate(m.labels)]
        self.choices.value = 0 if m.labels else None
        self.choices.observe(self._on_select, names="value")
        self.choices.rows = 5  # a fixed height: the map below stays where it is from question to question
        playing = p is not None
        for b in (self.choose_button, self.auto_button, self.finish_button):
            b.disabled = not playing or screened
        self.choices.disabled = not playing
        self.setup_button.disabled = not (playing and p is not None and m.in_setup(p))
        self.undo_button.disabled = not m.table.steps
        self.recent.value = m.recent_html()
        self.outcome.value = m.outcome_html()
        self.fit.measure()  # the question's words may take another number of lines
