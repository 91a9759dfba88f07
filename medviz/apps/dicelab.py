"""``DiceLab``: pick a roll, see its odds and what each face would mean, change it, compare branches."""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from typing import Any

import ipywidgets as widgets

from medviz.apps.common import MapPane, battle_table, html_box
from medviz.apps.fit import ScreenFit, follow
from medviz.apps.model import (
    DiceLabModel,
    card_label,
    default_view_at,
    normalise_view_at,
    observes,
    roll_effects,
    roll_words,
    seat_view_at,
    ViewCache,
)
from medviz.apps.tree import BranchTree
from medviz.engine.errors import MalformedInput, MedvizError
from medviz.engine.history import History
from medviz.engine.policy import DecisionPoint

__all__ = ["DiceLab"]


class DiceLab(widgets.VBox):  # type: ignore[misc]  # ipywidgets has no type hints
    """Change one die or card and watch the branch: roll picker, faces (or cards), branch button, map or
    battle table, the branch tree and the diff in words. Card places of shuffled decks (``<shuffle>/<n>``)
    are listed after the rolls and draws; picking one offers the deck's cards instead of faces.

    ``seat``: for a game that hides something from its seats (``Ruleset.observe``), the lab as that
    seat may see it: the map from its view, the rolls in the words it may read, and no card places
    (a deck's order is face down to every seat)."""

    def __init__(self, history: History, view_at: Callable[..., Any] | None = None, *,
                 map_size: tuple[int | None, int] = (None, 750), seat: str | None = None,
                 roll: str | None = None) -> None:
        self.model = DiceLabModel(history, roll=roll)
        # Registered first: a new branch moves the map before the menus, the tree and the words are
        # redone (the map's update is the browser's longest work; measured in benchmarks/bench_click.py).
        self.model.observe(lambda _c: self._show_map(), names="current")
        self.seat_shown = seat
        if seat is not None:
            seats = [s.id for s in history.ruleset.seats(history.scenario)] if observes(history) else []
            if seat not in seats:
                raise MalformedInput(f"seat {seat!r}: this game shows no seat's own view"
                                     + (f" (its seats: {', '.join(seats)})" if seats else ""))
        fn = normalise_view_at(view_at, history) if view_at is not None else (
            seat_view_at(history, seat) if seat is not None else default_view_at(history))
        # A moment drawn again (the map toggled between the roll's phase and the end, the parent's end in
        # every "what changed") is the same view, which the map draws from what it remembers.
        self.view_at = ViewCache(fn, keep=32) if fn is not None else None
        self.rolls = widgets.Dropdown(description="roll", layout=widgets.Layout(width="auto", max_width="760px"))
        self.faces = widgets.ToggleButtons(options=[], description="try", style={"button_width": "36px"})
        self.cards = widgets.Dropdown(options=[], description="try card", layout=widgets.Layout(width="360px",
                                                                                                 display="none"))
        self.button = widgets.Button(description="Branch here", button_style="warning",
                                     tooltip="re-run the game with this die showing the chosen face")
        self.headline = html_box(width="auto")  # the picked roll in words and what it showed, above the map
        self.headline.add_class("medviz-roll-headline")
        self.info = html_box(width="520px")
        self.diff = widgets.HTML(layout=widgets.Layout(width="520px"))
        self.message = widgets.HTML()
        self.when = widgets.ToggleButtons(options=[("after the roll's phase", "phase"), ("at the end", "end")],
                                          value="phase", description="map", style={"button_width": "136px"})
        self.tree = BranchTree(self.model)
        self.battle = html_box(width="520px")
        self.map: MapPane | None = None
        self._shown: tuple[History, int] | None = None  # the branch and event the map shows
        if self.view_at is not None:
            h = self.model.current
            self.map = MapPane(self.view_at(h, self._map_seq(h)), *map_size, ruleset=h.ruleset)
            self._shown = (h, self._map_seq(h))
            for trace in self.map.clickable():
                trace.on_click(self._on_battle_click)
            stage: widgets.Widget = self.map.figure
        else:
            stage = self.battle
        self._syncing = False
        self._refresh_rolls()
        self.rolls.observe(self._on_roll, names="value")
        self.faces.observe(self._on_face, names="value")
        self.cards.observe(self._on_face, names="value")
        self.button.on_click(lambda _b: self.branch())
        self.model.observe(self._on_current, names="current")
        self.model.observe(self._on_pick, names="selected_roll")
        self.model.observe(lambda _c: self._show_roll(), names="value")
        self.when.observe(lambda _c: self._show_map(), names="value")
        self.fit = ScreenFit()
        # One screen: the roll, its faces, the branch button and the roll in words above the map, the map
        # as tall as the screen has room for (ScreenFit measures it); the faces' table, the key, the branch
        # tree and what changed below it.
        self.rolls.layout.flex, self.rolls.layout.min_width = "1 1 0%", "200px"
        pick = widgets.HBox([self.rolls, *([self.fit] if self.map is not None else [])],
                            layout=widgets.Layout(align_items="center"))
        self.message.add_class("medviz-branch-message")  # beside the buttons, at most two lines (fit.py's CSS)
        act = widgets.HBox([self.faces, self.cards, self.button, *([self.when] if self.map is not None else []), self.message],
                           layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        side = widgets.VBox([self.tree, widgets.HTML("<b>What changed</b>"), self.diff],
                            layout=widgets.Layout(margin="0 0 0 12px"))
        below = widgets.HBox([self.info, side], layout=widgets.Layout(flex_flow="row wrap"))
        super().__init__([pick, act, self.headline, stage, below], layout=widgets.Layout(width="100%"))
        self.add_class("medviz-app")
        if self.map is not None:
            map_pane = self.map
            follow(self.fit, map_pane.resize, map_size[1], laid_out=lambda: map_pane.figure.layout.height)
        self._show_roll()
        self._show_branch()

    # -- actions -------------------------------------------------------------------------------
    def branch(self) -> History | None:
        """Make the branch for the picked roll and face, and show it."""
        try:
            child = self.model.make_branch()
        except MedvizError as exc:
            self.message.value = f"<span style='color:#b2182b'>{html.escape(str(exc))}</span>"
            return None
        picked = self.model.selected_roll
        label = card_label(child, picked) if self.model.picks_card() else \
            f"{roll_words(child, picked)} — the die shows {child.value_of(picked)}"
        self.message.value = f"<span style='color:#117733'>Branch made: {html.escape(label)}.</span>"
        return child

    def _map_seq(self, h: History) -> int:
        """Which event the map shows: the end of the picked roll's phase, or the end of the game."""
        return self.model.phase_end(h) if self.when.value == "phase" else len(h) - 1

    # -- sync ----------------------------------------------------------------------------------
    def _refresh_rolls(self) -> None:
        self._syncing = True
        try:
            rolls = self.model.rolls()
            places = self.model.card_places() if self.seat_shown is None else []
            # The new entries and the pick go to the browser in one message (not the entries, the first
            # entry picked, then the pick); entries equal to those shown are not sent again (traitlets).
            with self.rolls.hold_sync():
                self.rolls.options = (
                    [(self._menu_label(r), DiceLabModel._id(r)) for r in rolls]
                    + [(f"{e.seq}: card {key.rpartition('/')[2]} of {e.purpose or e.shuffle}: "
                        f"{self._card(e.card_at(int(key.rpartition('/')[2])))}"[:110], key) for key, e in places])
                if self.model.selected_roll in {DiceLabModel._id(r) for r in rolls} | {k for k, _e in places}:
                    self.rolls.value = self.model.selected_roll
        finally:
            self._syncing = False

    def _words(self, event: Any) -> str:
        """An event in the words the lab's seat (or the teacher) may read."""
        h = self.model.current
        return str(h.describe(event) if self.seat_shown is None else h.describe(event, self.seat_shown))

    def _card(self, card: Any) -> str:
        """A card in the game's words (its ruleset's ``describe_option``: a card to try is an option)."""
        h = self.model.current
        return str(h.ruleset.describe_option(DecisionPoint("", "", (card,), h.final_state), card))

    def _roll_name(self, roll: Any) -> str:
        """What a roll is for, in the game's words (in a seat's lab: the words that seat may read)."""
        h = self.model.current
        return str(h.ruleset.describe_roll(h, roll)) if self.seat_shown is None else self._words(roll)

    def _menu_label(self, roll: Any) -> str:
        """A roll in the menu: what it is for in the game's words, and what it showed."""
        h = self.model.current
        if self.seat_shown is not None:
            return f"{roll.seq}: {self._words(roll)}"[:140]
        effects = getattr(roll, "effects", None) or {}
        meaning = effects.get(str(roll.value)) if isinstance(effects, Mapping) else None
        shown = h.ruleset.describe_value(roll, roll.value)
        return (f"{h.ruleset.describe_roll(h, roll)}: {shown}" + (f" → {meaning}" if meaning else ""))[:140]

    def _on_roll(self, change: Mapping[str, Any]) -> None:
        if not self._syncing and change["new"]:
            self.model.select(change["new"])

    def _on_face(self, change: Mapping[str, Any]) -> None:
        if not self._syncing and change["new"] is not None:
            self.model.value = change["new"]

    def _on_battle_click(self, trace: Any, points: Any, _state: Any) -> None:
        """A click on a clickable mark (a battle star) picks its roll, else the deciding roll at its area."""
        for i in getattr(points, "point_inds", []) or []:
            custom = trace.customdata[i] if trace.customdata is not None else None
            roll = custom[2] if custom is not None and len(custom) > 2 else ""
            area = custom[1] if custom is not None and len(custom) > 1 else None
            try:
                self.model.select(roll or self.model.decisive_roll_at(area))
            except MedvizError as exc:
                self.message.value = html.escape(str(exc))
            return

    def _on_pick(self, change: Mapping[str, Any]) -> None:
        """A roll was picked (menu, battle click or code): show it, and move the map to its phase at once."""
        self._show_roll()
        if change["new"] and self.when.value != "phase":
            self.when.value = "phase"  # its observer moves the map
        else:
            self._show_map()

    def _on_current(self, _change: Mapping[str, Any]) -> None:
        self._refresh_rolls()
        self._show_roll()
        self._show_branch()

    def _show_roll(self) -> None:
        if not self.model.selected_roll:
            self.info.value = self.headline.value = "<i>pick a roll</i>"
            return
        if self.model.picks_card():
            self._show_card()
            return
        self.faces.layout.display, self.cards.layout.display = None, "none"
        roll = self.model.roll()
        rows = roll_effects(roll)
        self._syncing = True
        try:
            if self.rolls.value != self.model.selected_roll:
                self.rolls.value = self.model.selected_roll
            faces = [int(f) if f.lstrip("-").isdigit() else f for f, _m, _s in rows]
            self.faces.options = [(str(f), f) for f in faces]
            self.faces.value = self.model.value if self.model.value in faces else None
        finally:
            self._syncing = False
        prob = roll.probability
        h = self.model.current
        key = h.ruleset.result_key(roll)
        body = "".join(
            f"<tr style='{'background:#fff3c4;font-weight:bold' if shown else ''}"
            f"{'outline:2px solid #b8860b' if str(face) == str(self.model.value) and not shown else ''}'>"
            f"<td style='padding:0 8px'>{html.escape(face)}</td><td>{html.escape(meaning) or '—'}</td></tr>"
            for face, meaning, shown in rows)
        legend = "".join(f"<div><b>{html.escape(code)}</b> — {html.escape(words)}</div>" for code, words in key)
        effects = getattr(roll, "effects", None) or {}
        rolled = effects.get(str(roll.value)) if isinstance(effects, Mapping) else None
        self.headline.value = (f"<div class='medviz-roll-name' style='font-size:14px'><b>{html.escape(self._roll_name(roll))}</b>"
                               f"<br>It showed <b>{roll.value}</b>{' → ' + html.escape(str(rolled)) if rolled else ''}; "
                               f"the chance of that face: {prob} ({float(prob):.1%}).</div>")
        self.info.value = (f"<table><tr><th>face</th><th>what it would mean</th></tr>{body}</table>"
                           + (f"<div class='medviz-key' style='font-size:12px;margin-top:6px'><b>Key</b>{legend}</div>"
                              if legend else ""))

    def _show_card(self) -> None:
        """A card place is picked: the deck's cards to try, the card there now and its chance."""
        key = self.model.selected_roll
        deck = self.model.roll()
        shown = self.model.current.value_of(key)
        self.faces.layout.display, self.cards.layout.display = "none", None
        self._syncing = True
        try:
            if self.rolls.value != key:
                self.rolls.value = key
            self.cards.options = [(self._card(c), c) for c in sorted(set(deck.cards))]
            self.cards.value = self.model.value if self.model.value in deck.cards else None
        finally:
            self._syncing = False
        prob = deck.probability(shown)
        self.headline.value = ""
        self.info.value = (f"<p><b>{html.escape(key)}</b>: place {html.escape(key.rpartition('/')[2])} of "
                           f"{len(deck.order)} (1 = the top card) of the deck <i>{html.escape(deck.purpose or deck.shuffle)}"
                           f"</i><br>holds <b>{html.escape(self._card(shown))}</b>, probability {prob} ({float(prob):.1%})"
                           f"<br>Another card put here swaps places with it; every other card stays.</p>")

    def _show_branch(self) -> None:
        h = self.model.current
        # Sentences, wrapped at spaces (a <pre> would break words where the box ends).
        self.diff.value = ("<div class='medviz-diff' style='white-space:pre-line;font-size:13px;line-height:1.45'>"
                           + html.escape(self.model.diff_words(self.view_at)) + "</div>")
        if self.map is not None:
            self._show_map()
        elif h.parent is not None:
            self.battle.value = ("<div style='display:flex;gap:32px'><div><h4>This branch</h4>" + battle_table(h)
                                 + "</div><div style='color:#6b5b45'><h4>Its parent</h4>" + battle_table(h.parent)
                                 + "</div></div>")
        else:
            self.battle.value = battle_table(h)

    def _show_map(self) -> None:
        """Put the map on the branch shown, at the picked roll's phase or at the end (unless it is there)."""
        pane: MapPane | None = getattr(self, "map", None)  # None too while the lab is being built
        if pane is None or self.view_at is None:
            return
        h = self.model.current
        seq = self._map_seq(h)
        if self._shown is not None and self._shown[0] is h and self._shown[1] == seq:
            return
        pane.show(self.view_at(h, seq))
        self._shown = (h, seq)
