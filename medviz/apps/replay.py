"""``ReplayViewer``: play, step and jump through a history with its map, log and notes in sync."""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import ipywidgets as widgets
import traitlets

from medviz.apps.common import MapPane, battle_table, current_line, event_log, html_box, notes_html
from medviz.apps.fit import ScreenFit, follow, layout_width
from medviz.apps.model import (SPEEDS, ReplayModel, ViewCache, default_view_at, normalise_view_at, observes,
                               portrayal_changes, seat_view_at)
from medviz.apps.winprob_strip import WinProbabilityStrip
from medviz.engine.errors import MalformedInput
from medviz.engine.history import History

__all__ = ["ReplayViewer"]

#: The slider's least width (it grows with the room it has) and its inner padding (px).
TRACK_PX = 300
TRACK_PAD = 8


def _track_left(share: float) -> str:
    """Where a tick at ``share`` of the history sits under a slider of any width (CSS)."""
    return f"calc({TRACK_PAD}px + (100% - {2 * TRACK_PAD}px) * {share:.4f})"


class ReplayViewer(widgets.VBox):  # type: ignore[misc]  # ipywidgets has no type hints
    """A replay of one history: play/pause with speeds, step buttons, an event slider with phase ticks,
    a jump menu (phases in the game's words and the annotated moments), the map (when a view function
    is known), the event log and the step's notes.

    Play skips steps that change nothing on the map unless "show every event" is ticked; pause
    keeps the place (``interval_ms``: the starting speed, ms between steps).

    For a game that hides something from its seats (it overrides ``Ruleset.observe``), a "seen by"
    menu shows the map as one seat may see it (``seat``: the seat to start with; None: everything).

    ``win_probability`` (a ``WinProbability`` of this history) puts its chart under the map, the current
    step marked; ``pivotal`` ((event, roll id, words)) flags rolls there, a click opening one in ``dicelab``.
    """

    def __init__(self, history: History, view_at: Callable[..., Any] | None = None, *,
                 annotations: Any = None, interval_ms: int = 700,
                 map_size: tuple[int | None, int] = (None, 750), start: int = 0, seat: str | None = None,
                 win_probability: Any = None, pivotal: Sequence[tuple[int, str, str]] = (),
                 dicelab: Any = None) -> None:
        if not isinstance(history, History):
            raise MalformedInput(f"ReplayViewer needs a History, got {type(history).__name__}")
        if not 0 <= start < len(history):
            raise MalformedInput(f"start {start} is not an event of this history (0..{len(history) - 1})")
        self.history = history
        self.annotations = annotations
        fn = normalise_view_at(view_at, history) if view_at is not None else default_view_at(history)
        fn = ViewCache(fn) if fn is not None else None  # a moment shown again is drawn from what its map remembers
        self._full_view_at = fn
        seats = [s.id for s in history.ruleset.seats(history.scenario)] if observes(history) else []
        if seat is not None and seat not in seats:
            raise MalformedInput(f"seat {seat!r}: this game shows no seat's own view"
                                 + (f" (its seats: {', '.join(seats)})" if seats else ""))
        self.view_at = ViewCache(seat_view_at(history, seat)) if seat is not None and fn is not None else fn
        self.model = ReplayModel(history, shown=portrayal_changes(history, fn, annotations))
        self.seat = widgets.Dropdown(
            options=[("everything", ""), *((history.ruleset.seat_title(s, history.scenario), s) for s in seats)],
            value=seat or "", description="seen by", layout=widgets.Layout(width="260px"))
        self.seat.observe(self._on_seat, names="value")
        last = self.model.last
        # The timer: a hidden Play ticks in the browser; each tick advances the model to its next shown
        # step. Its own stop button (which jumps back to the start) is never shown: ▶/❚❚ pauses in place.
        self.play = widgets.Play(value=0, min=0, max=last, step=1, interval=interval_ms,
                                 layout=widgets.Layout(display="none"))
        self.toggle = widgets.ToggleButton(value=False, description="▶ play", tooltip="play / pause where it is",
                                           layout=widgets.Layout(width="90px"))
        speeds = [*SPEEDS.items()] + ([] if interval_ms in SPEEDS.values() else [(f"{interval_ms} ms", interval_ms)])
        self.speed = widgets.Dropdown(options=speeds, value=interval_ms, description="speed",
                                      layout=widgets.Layout(width="150px"), style={"description_width": "44px"})
        self.every = widgets.Checkbox(value=False, description="show every event", indent=False,
                                      layout=widgets.Layout(width="140px"))
        self.back = widgets.Button(description="◀ step", layout=widgets.Layout(width="80px"),
                                   tooltip="one event back")
        self.forward = widgets.Button(description="step ▶", layout=widgets.Layout(width="80px"),
                                      tooltip="one event forward")
        self.slider = widgets.IntSlider(value=0, min=0, max=last, step=1, readout=False,
                                        continuous_update=True, layout=widgets.Layout(width="100%"))
        stops = self.model.stops()
        marks = self.model.bookmarks(annotations)
        self.jump = widgets.Dropdown(options=[("jump to …", -1), *sorted([*stops, *marks], key=lambda o: o[1])],
                                     value=-1, layout=widgets.Layout(width="260px"))
        self.ticks = html_box(self._ticks_html(self.model, last), width="100%")
        self.where = html_box(width="auto")
        self.events = html_box(width="auto")
        self.current = html_box(width="auto", height="2.6em", overflow="auto")  # the step's line of the log
        # Fixed heights, so the map below stays in place from step to step (a long note scrolls).
        self.notes = html_box(width="auto", height="6.6em", overflow="auto",
                              display=None if annotations is not None else "none")
        self.where.add_class("medviz-where")
        self.current.add_class("medviz-now")
        self.jump.add_class("medviz-jump")
        self.notes.add_class("medviz-now-notes")
        self.fit = ScreenFit()
        traitlets.link((self.model, "cursor"), (self.slider, "value"))
        traitlets.link((self.model, "playing"), (self.play, "playing"))
        traitlets.link((self.model, "playing"), (self.toggle, "value"))
        traitlets.link((self.model, "every"), (self.every, "value"))
        traitlets.link((self.speed, "value"), (self.play, "interval"))
        self._ticking = False
        self.play.observe(self._on_tick, names="value")
        self.toggle.observe(self._on_toggle, names="value")
        self.back.on_click(lambda _b: self.model.step(-1))
        self.forward.on_click(lambda _b: self.model.step(1))
        self.jump.observe(self._on_jump, names="value")
        self.map: MapPane | None = None
        self._map_size = map_size
        self.battle = html_box(width="640px")
        if self.view_at is not None:
            self.map = MapPane(self.view_at(history, start), *map_size, ruleset=history.ruleset)
            stage: widgets.Widget = self.map.figure
        else:
            stage = self.battle
        self.model.observe(self._on_cursor, names="cursor")
        extra = [self.seat] if seats and self.map is not None else []
        track = widgets.VBox([self.slider, self.ticks], layout=widgets.Layout(flex=f"1 1 {TRACK_PX}px",
                                                                             min_width=f"{TRACK_PX}px"))
        self.where.layout.flex = "1 1 auto"
        top = widgets.HBox([self.where, *([self.fit] if self.map is not None else [])],
                           layout=widgets.Layout(align_items="center"))
        controls = widgets.HBox([self.play, self.toggle, self.back, self.forward, track, self.jump, self.speed,
                                 self.every, *extra], layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        log = widgets.VBox([widgets.HTML("<b>What happens</b>"), self.events], layout=widgets.Layout(width="100%"))
        self.strip: WinProbabilityStrip | None = None
        if win_probability is not None:
            self.strip = WinProbabilityStrip(history, win_probability, model=self.model, pivotal=pivotal,
                                             dicelab=dicelab, width=map_size[0])
        # One screen: the place, the controls and the step's words above the map; the map as tall as the
        # screen has room for (ScreenFit measures it in the browser); the log around the step below.
        super().__init__([top, controls, self.current, self.notes, stage,
                          *([self.strip] if self.strip else []), log],
                         layout=widgets.Layout(width="100%"))
        self.add_class("medviz-app")
        if self.map is not None:
            follow(self.fit, self._resize_map, map_size[1], laid_out=lambda: self.map and self.map.figure.layout.height)
        if start:
            self.model.cursor = start  # renders it (e.g. the first event after the set-up)
        else:
            self._render(0)

    @staticmethod
    def _ticks_html(model: ReplayModel, last: int) -> str:
        """Ticks under the slider: a labelled one where each turn begins, small ones at phases."""
        history = model.history
        if last <= 0:
            return ""
        marks = []
        seen_turns: set[Any] = set()
        for span in history.phases():
            left = _track_left(span.start / last)
            title = html.escape(model.label(span.turn, span.phase))
            if span.turn is not None and span.turn not in seen_turns:
                seen_turns.add(span.turn)
                marks.append(f"<span title='{title}' style='position:absolute;left:{left};top:0;"
                             f"border-left:2px solid #5b4d3c;height:14px;padding-left:3px;font-size:11px;"
                             f"color:#5b4d3c;line-height:14px'>{'set-up' if span.turn == 0 else f'T{span.turn}'}</span>")
            else:
                marks.append(f"<span title='{title}' style='position:absolute;left:{left};top:0;"
                             f"border-left:1px solid #b9ad96;height:7px'></span>")
        if not marks:
            for r in history.rolls():
                left = _track_left(r.seq / last)
                marks.append(f"<span title='{html.escape(str(getattr(r, 'roll', '')))}' style='position:absolute;"
                             f"left:{left};top:0;font-size:11px;color:#b2182b'>⚄</span>")
        return f"<div style='position:relative;height:16px'>{''.join(marks)}</div>"

    def _on_tick(self, change: Mapping[str, Any]) -> None:
        """A tick of the play timer: on to the next shown step, and the timer to the place reached."""
        if self._ticking:
            return
        if self.model.playing:
            self.model.advance()
        self._sync_play()

    def _sync_play(self) -> None:
        self._ticking = True
        try:
            self.play.value = self.model.cursor
        finally:
            self._ticking = False

    def _on_toggle(self, change: Mapping[str, Any]) -> None:
        self.toggle.description = "❚❚ pause" if change["new"] else "▶ play"
        self._sync_play()

    def _on_jump(self, change: Mapping[str, Any]) -> None:
        if change["new"] is not None and change["new"] >= 0:
            self.model.cursor = change["new"]
            self.jump.value = -1  # back to "jump to …", so the same stop can be chosen again

    def _on_seat(self, change: Mapping[str, Any]) -> None:
        """Show the map as the seat picked may see it (``Ruleset.observe``), or everything."""
        seat = change["new"]
        full = self._full_view_at
        self.view_at = ViewCache(seat_view_at(self.history, seat)) if seat and full is not None else full
        if self.map is not None and self.view_at is not None:
            # A new figure: a seat's view may have panel boxes the other lacks (its hand).
            old, height = self.map.figure, self.map.height
            self.map = MapPane(self.view_at(self.history, self.model.cursor), self._map_size[0], height,
                               ruleset=self.history.ruleset)
            if (width := layout_width(self.fit)) is not None:
                self.map.resize(height, width)  # laid out for the width it is drawn at, as the last one was
            self.children = tuple(self.map.figure if c is old else c for c in getattr(self, "children"))
        self._render(self.model.cursor)

    def _resize_map(self, height: int, width: int | None = None) -> None:
        """Draw the map ``height`` px tall (the room the browser measured under the controls and words), laid
        out for the ``width`` the app has."""
        if self.map is not None:
            self.map.resize(height, width)

    def _on_cursor(self, change: Mapping[str, Any]) -> None:
        self._sync_play()  # the timer goes on from wherever the slider, a step or a jump put the cursor
        self._render(change["new"])

    def _render(self, seq: int) -> None:
        # The map first: its update is the browser's longest work, which it starts while the words
        # below are still being written here (measured in benchmarks/bench_click.py).
        if self.map is not None and self.view_at is not None:
            self.map.show(self.view_at(self.history, seq))
        else:
            self.battle.value = battle_table(self.history, seq)
        self.where.value = f"<span style='font-size:16px'><b>{html.escape(self.model.where())}</b></span>"
        self.current.value = current_line(self.history, seq, seat=self.seat.value or None)
        self.notes.value = notes_html(self.annotations, seq) or "<i style='color:#8a7a66'>no note for this step</i>"
        self.events.value = event_log(self.history, seq, seat=self.seat.value or None)
