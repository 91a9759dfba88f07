"""``BranchCompare``: a branch beside its parent, at the changed roll's phase or at the end, changed areas marked."""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from medviz.apps.common import MapPane, html_box
from medviz.apps.fit import ScreenFit
from medviz.apps.model import ViewCache, default_view_at, normalise_view_at
from medviz.engine.errors import MalformedInput, UnknownReference
from medviz.engine.events import ShuffleEvent
from medviz.engine.history import History

__all__ = ["BranchCompare", "phase_end_of"]

#: The least width (px) of a map beside the other: where the app is narrower than two of them (and the
#: gap), the maps stand one above the other, each as wide as the app. Seen in JupyterLab with its side bar
#: open: maps ~420 px wide (a 1280 px window) cut their panels' words; ~580 px (1600 px) run their keys
#: into their panels; ~740 px (1920 px) show everything.
COLUMN_PX = 700
GAP_PX = 12
#: A map as wide as the app is drawn this share of its width tall (at least ``map_height``), at most 750 px.
STACKED_RATIO = 0.6
STACKED_MOST_PX = 750


def phase_end_of(history: History, roll_id: str | None) -> int:
    """The last event of the phase in which ``roll_id`` falls in ``history`` (the end when unknown)."""
    if not roll_id:
        return len(history) - 1
    try:
        seq = history.roll(roll_id).seq
    except UnknownReference:
        return len(history) - 1
    for span in history.phases():
        if span.start <= seq < span.end:
            return span.end - 1
    return len(history) - 1


class BranchCompare(widgets.VBox):  # type: ignore[misc]  # ipywidgets has no type hints
    """The history as played and a branch of it, side by side (or one at a time, full width), at the end
    of the changed roll's phase or at the end of the game; areas that differ are outlined on both maps,
    and the words under them say what changed."""

    def __init__(self, branch: History, view_at: Callable[..., Any] | None = None, *,
                 parent: History | None = None, map_height: int = 520) -> None:
        if not isinstance(branch, History):
            raise MalformedInput(f"BranchCompare needs a History, got {type(branch).__name__}")
        other = parent if parent is not None else branch.parent
        if other is None:
            raise MalformedInput("BranchCompare needs a branch (history.branch(roll, value)) or parent=")
        self.branch, self.parent = branch, other
        self.map_height = map_height
        fn = normalise_view_at(view_at, branch) if view_at is not None else default_view_at(branch)
        if fn is None:
            raise MalformedInput(f"{branch.ruleset.game}: this game draws no map to compare")
        self.view_at = ViewCache(fn, keep=16)  # each map's moments toggled again are drawn from what the map remembers
        self.roll_id = str(branch.override[0]) if branch.override else None
        rs = branch.ruleset
        self.when = widgets.ToggleButtons(options=[("at the roll's phase", "phase"), ("at the end", "end")],
                                          value="phase", description="map", style={"button_width": "150px"})
        self.show = widgets.ToggleButtons(options=[("side by side", "both"), ("as played", "parent"),
                                                   ("what if", "branch")], value="both", description="show",
                                          style={"button_width": "110px"})
        self.panes = [MapPane(self.view_at(h, self._seq(h)), None, map_height, ruleset=rs, design_width=700, marks=True)
                      for h in (other, branch)]
        face = f" the die shows {branch.override[1]}" if branch.override else ""
        heads = ["<b style='font-size:15px'>As played</b>", f"<b style='font-size:15px'>What if{html.escape(face)}</b>"]
        self.heads = [html_box(h, width="auto") for h in heads]
        self.columns = [widgets.VBox([head, pane.figure], layout=widgets.Layout(flex="1 1 0", min_width="0"))
                        for head, pane in zip(self.heads, self.panes)]
        for col in self.columns:
            col.add_class("medviz-compare-column")
        self.words = html_box(width="auto")
        self.words.add_class("medviz-compare-words")
        self.changed: list[str] = []
        self.when.observe(lambda _c: self._show(), names="value")
        self.show.observe(lambda _c: self._layout(), names="value")
        self.row = widgets.HBox(self.columns, layout=widgets.Layout(width="100%", align_items="flex-start",
                                                                    grid_gap=f"{GAP_PX}px"))
        # The width the app has, measured in the browser: the maps are laid out for it (side by side, or one
        # above the other where two would be too narrow). Its height is not followed (least=1: never scaled).
        self.fit = ScreenFit(least=1)
        self.fit.observe(lambda _c: self._layout(), names="width")
        top = widgets.HBox([self.when, self.show], layout=widgets.Layout(flex_flow="row wrap", flex="1 1 auto"))
        super().__init__([widgets.HBox([top, self.fit], layout=widgets.Layout(align_items="flex-start")),
                          self.words, self.row], layout=widgets.Layout(width="100%"))
        self.add_class("medviz-compare")
        self.add_class("medviz-app")
        self._show()

    def _seq(self, h: History) -> int:
        return phase_end_of(h, self.roll_id) if self.when.value == "phase" else len(h) - 1

    def _override_words(self) -> str:
        if not self.branch.override:
            return ""
        rid, value = self.branch.override
        try:
            roll = self.branch.roll(str(rid))
        except UnknownReference:
            return f"{rid} = {value}"
        if isinstance(roll, ShuffleEvent):
            return f"card place {rid} holds {value}"
        return f"{self.branch.ruleset.describe_roll(self.branch, roll)} shows {value}"

    @staticmethod
    def _outcome(h: History) -> str:
        return h.ruleset.describe_outcome(h)

    def _show(self) -> None:
        """Put both maps on the moment chosen and outline the areas that differ."""
        from medviz.viz.state_map import changed_areas

        views = [self.view_at(h, self._seq(h)) for h in (self.parent, self.branch)]
        rs = self.branch.ruleset
        self.changed = changed_areas(views[0], views[1], ruleset=rs)
        for pane, view in zip(self.panes, views):
            pane.show(view, marked=self.changed)  # the new moment and its outlines: one message per map
        when = "at the end of the roll's phase" if self.when.value == "phase" else "at the end of the game"
        lines = rs.compare_views(views[0], views[1])
        names = rs.area_names(self.changed)
        marked = (f"Outlined {when}: {', '.join(names)} — the areas that look different in the two wars."
                  if self.changed else f"The two maps look the same {when}.")
        said = [f"The die changed: {self._override_words()}.", f"As played: {self._outcome(self.parent)}.",
                f"What if: {self._outcome(self.branch)}."]
        self.words.value = ("<div style='font-size:14px;line-height:1.4'>" + "<br>".join(map(html.escape, said))
                            + "<br><span style='color:#d4007a'>▢</span> " + html.escape(marked) + "".join(
            f"<br>{html.escape(line)}" for line in lines) + "</div>")

    def _layout(self) -> None:
        """Side by side (one above the other where the app is too narrow for two), or one map at the full
        width; each map laid out for the width it has."""
        which = self.show.value
        for col, name in zip(self.columns, ("parent", "branch")):
            col.layout.display = None if which in ("both", name) else "none"
        width = int(self.fit.width)
        stacked = which == "both" and 0 < width < 2 * COLUMN_PX + GAP_PX
        self.row.layout.flex_flow = "column" if stacked else "row"
        for col in self.columns:
            col.layout.flex = "0 0 auto" if stacked else "1 1 0"
            col.layout.width = "100%" if stacked else None
        each = (width - GAP_PX) // 2 if which == "both" and not stacked else width
        # A map as wide as the app is drawn taller (the map fills its width, not a strip of it), up to 750 px.
        height = self.map_height if which == "both" and not stacked else max(
            self.map_height, min(STACKED_MOST_PX, round(each * STACKED_RATIO)))
        for pane in self.panes:
            if not (each and pane.resize(height, each)):
                pane.refit()
