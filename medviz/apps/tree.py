"""``BranchTree``: every history explored from one root, with its outcome, selectable."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import ipywidgets as widgets

from medviz.apps.model import DiceLabModel, branch_nodes
from medviz.engine.history import History

__all__ = ["BranchTree", "branch_tree"]

#: Width of the branch list's box (px), and a generous width of one character of its entries.
LIST_PX = 460
CHAR_PX = 7.0


class BranchTree(widgets.VBox):  # type: ignore[misc]  # ipywidgets has no type hints
    """A list of the branch tree (indented by depth); selecting an entry shows that branch."""

    def __init__(self, model: DiceLabModel) -> None:
        self.model = model
        # A list box cannot wrap its lines: it is made as wide as its longest entry, inside a box (at
        # least LIST_PX, at most the width there is) that scrolls sideways when the entry is wider.
        self.select = widgets.Select(options=[], rows=6, layout=widgets.Layout(width=f"{LIST_PX}px", flex="0 0 auto"))
        self.select.add_class("medviz-branch-list")
        self._nodes: list[History] = []
        self._refresh()
        self.select.observe(self._on_select, names="value")
        model.observe(lambda _c: self._refresh(), names=["tree_version", "current"])
        self.scroller = widgets.Box([self.select], layout=widgets.Layout(min_width=f"{LIST_PX}px", max_width="100%",
                                                                         overflow="auto"))
        super().__init__([widgets.HTML("<b>Branches explored</b>"), self.scroller])

    def _refresh(self) -> None:
        nodes = branch_nodes(self.model.root)
        self._nodes = [n.history for n in nodes]
        options = [(("    " * n.depth) + ("└ " if n.depth else "") + n.label, i) for i, n in enumerate(nodes)]
        current = next(i for i, h in enumerate(self._nodes) if h is self.model.current) \
            if any(h is self.model.current for h in self._nodes) else 0
        longest = max((len(label) for label, _ in options), default=0)
        self._updating = True
        try:
            self.select.layout.width = f"{max(LIST_PX, math.ceil(longest * CHAR_PX) + 24)}px"
            with self.select.hold_sync():  # the entries and the pick in one message
                self.select.options = options
                self.select.value = current
        finally:
            self._updating = False

    def _on_select(self, change: Mapping[str, Any]) -> None:
        if getattr(self, "_updating", False) or change["new"] is None:
            return
        chosen = self._nodes[change["new"]]
        if chosen is not self.model.current:
            self.model.switch(chosen)

    @property
    def labels(self) -> list[str]:
        """The entries as shown."""
        return [label for label, _ in self.select.options]


def branch_tree(history: History, model: DiceLabModel | None = None) -> BranchTree:
    """A branch tree widget for ``history``'s tree (a new model unless one is given)."""
    return BranchTree(model or DiceLabModel(history))
