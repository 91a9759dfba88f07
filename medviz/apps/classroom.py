"""A classroom page of several apps, one shown at a time, each built the first time it is asked for."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import ipywidgets as widgets

from medviz.engine.errors import MedvizError

__all__ = ["Classroom"]


class Classroom(widgets.VBox):  # type: ignore[misc]  # ipywidgets has no type hints
    """Buttons naming the apps, and the chosen app below them (``make classroom`` serves one).

    ``apps`` maps a title to a function that builds the app. Only the first app is built at once; the
    others when a student first picks them (a page opens faster), and each then keeps its state when
    the class switches back and forth. The chosen app is the only one on the page, so its map is drawn
    in a visible area at its full width (a map drawn inside a hidden tab is laid out at 0 px).
    """

    def __init__(self, apps: Mapping[str, Callable[[], Any]], *, first: str | None = None) -> None:
        if not apps:
            raise MedvizError("a classroom needs at least one app")
        self.factories = dict(apps)
        start = first if first is not None else next(iter(self.factories))
        if start not in self.factories:
            raise MedvizError(f"classroom: no app called {start!r}; the apps are {', '.join(self.factories)}")
        self.built: dict[str, Any] = {}
        self.menu = widgets.ToggleButtons(options=list(self.factories), value=start,
                                          style={"button_width": "auto"})
        self.menu.add_class("medviz-classroom-menu")
        self.stage = widgets.Box(layout=widgets.Layout(width="100%"))
        self.stage.add_class("medviz-classroom-stage")
        super().__init__([self.menu, self.stage])
        self.add_class("medviz-classroom")
        self.menu.observe(lambda change: self.show(change["new"]), names="value")
        self.show(start)

    def app(self, title: str) -> Any:
        """The app called ``title``, built now if this is the first time it is asked for."""
        if title not in self.factories:
            raise MedvizError(f"classroom: no app called {title!r}; the apps are {', '.join(self.factories)}")
        if title not in self.built:
            self.built[title] = self.factories[title]()
        return self.built[title]

    def show(self, title: str) -> Any:
        """Put the app called ``title`` on the page (and its button down); returns the app."""
        app = self.app(title)
        if self.menu.value != title:
            self.menu.value = title  # observed: comes back here, with the same app
        self.stage.children = [app]
        return app
