"""The branch tree on an exported page: every branch of a saved tree, switchable offline.

A history loaded from a tree file (``History.save_tree``, format version 2) knows its whole
tree. ``tree_data`` lists every branch depth first (the root game first) with its what-if in
words, its parent and its outcome, and builds each branch's own replay data (``page_data``).
``tree_parts`` turns that into the page's tree section: one JSON block per branch and a small
script (``tree.js``) that, before the replay script starts, puts the chosen branch's data in
place and draws the list of branches. Choosing another branch re-opens the same file at that
branch (``#branch-N`` in the address, the current event kept): no request leaves the page.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from importlib import resources
from typing import Any

from medviz.engine.errors import MedvizError
from medviz.export.annotations import _resolve

__all__ = ["BranchEntry", "TreeData", "describe_outcome", "describe_what_if", "tree_data", "tree_parts"]

#: Written in place of a branch's figure when it is the root's own (branches share the start).
SAME_FIGURE = "same-as-root"


@dataclass(frozen=True)
class BranchEntry:
    """One branch of the tree as the page lists it."""

    index: int  # place in the depth-first list (0: the game as played)
    parent: int | None  # index of the branch it was made from (None for the root)
    depth: int
    what_if: str  # the change in words ("the game as recorded" for the root)
    outcome: str  # the result in words
    page: dict[str, Any]  # this branch's replay data (``PageData.to_json()``)

    def to_json(self) -> dict[str, Any]:
        """The branch's entry in the page's tree list (its replay data travels separately)."""
        return {"index": self.index, "parent": self.parent, "depth": self.depth, "what_if": self.what_if,
                "outcome": self.outcome, "title": branch_title(self)}


@dataclass(frozen=True)
class TreeData:
    """Every branch of a tree, and which one the file was saved at."""

    branches: tuple[BranchEntry, ...]
    current: int

    def to_json(self) -> dict[str, Any]:
        """The tree list embedded in the page (without the branches' replay data)."""
        return {"current": self.current, "branches": [b.to_json() for b in self.branches]}


def branch_title(entry: BranchEntry) -> str:
    """A short name for a branch: "As played" or "Branch 2 (of branch 1)"."""
    if entry.parent is None:
        return "As played"
    return f"Branch {entry.index}" + (f" (of branch {entry.parent})" if entry.parent else "")


def describe_what_if(history: Any) -> str:
    """A branch's change in words: the changed roll or draw as the branch's log words it."""
    override = getattr(history, "override", None)
    if override is None:
        return "the game as recorded"
    key, value = override
    for event in history.events:
        if getattr(event, "roll", None) == key or getattr(event, "draw", None) == key:
            return f"What if {history.describe(event)}?"
    return f"What if {key} were {value}?"


def describe_outcome(history: Any) -> str:
    """A branch's outcome in words: its winner and why, when the game says."""
    outcome = getattr(history, "outcome", None)
    if not isinstance(outcome, Mapping) or not outcome:
        return "unfinished"
    winner = outcome.get("winner")
    words = f"winner: {winner}" if winner is not None else "no winner"
    reason = outcome.get("reason")
    if isinstance(reason, str) and reason.strip():
        words += f" ({reason.strip()})"
    return words


def tree_data(history: Any, build: Callable[[Any, Any], dict[str, Any]], annotations: Any = None) -> TreeData | None:
    """The tree of ``history`` (None when it has no branches); ``build(h, notes)`` gives a branch's page data.

    Notes are bound to each branch; a note whose anchor never happens in a branch is left out there.
    """
    root = getattr(history, "root", history)
    if not getattr(root, "children", None):
        return None
    entries: list[BranchEntry] = []
    current = 0
    root_figure: Any = None

    def walk(h: Any, parent: int | None, depth: int) -> None:
        nonlocal current, root_figure
        index = len(entries)
        notes = annotations
        if annotations is not None and h is not history:
            notes = _bind_where_anchored(annotations, h)
        page = build(h, notes)
        figure = page["timeline"].get("figure")
        if index == 0:
            root_figure = json.dumps(figure, sort_keys=True, default=str)
        elif figure is not None and json.dumps(figure, sort_keys=True, default=str) == root_figure:
            page = {**page, "timeline": {**page["timeline"], "figure": SAME_FIGURE}}
        if h is history:
            current = index
        entries.append(BranchEntry(index, parent, depth, describe_what_if(h), describe_outcome(h), page))
        for child in h.children:
            walk(child, index, depth + 1)

    walk(root, None, 0)
    return TreeData(tuple(entries), current)


def _bind_where_anchored(annotations: Any, history: Any) -> Any:
    """The notes bound to ``history``, leaving out those whose anchor never happens there (None if none is left)."""
    try:
        return annotations.bind(history)
    except MedvizError:
        keep = tuple(n for n in annotations.notes if not _problems_of(n, history))
        return replace(annotations, notes=keep).bind(history) if keep else None


def _problems_of(note: Any, history: Any) -> list[str]:
    problems: list[str] = []
    _resolve([note], history, problems)
    return problems


def tree_parts(tree: TreeData | None, script_json: Callable[[Any], str], nonce: str) -> str:
    """The page's tree section: the tree list, each branch's data, and the script that shows them."""
    if tree is None:
        return ""
    blocks = [f'<script id="medviz-tree" type="application/json">{script_json(tree.to_json())}</script>']
    # The saved-at branch's data is the page's own (#medviz-data): its block stays empty.
    blocks += [f'<script id="medviz-branch-{b.index}" type="application/json">'
               f'{script_json(b.page) if b.index != tree.current else "null"}</script>' for b in tree.branches]
    script = (resources.files("medviz.export") / "tree.js").read_text(encoding="utf-8")
    blocks.append(f'<script nonce="{nonce}">{script}</script>')
    return "\n".join(blocks)
