"""Jupyter apps over histories: a replay viewer, a dice lab, a branch tree, a table to play a side, and one to record a real game.

Models (``medviz.apps.model``) carry the state as traitlets and import no widgets; the views are
``ipywidgets.VBox`` subclasses that observe them. Constructors return widgets and never display.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from medviz.apps.classroom import Classroom
    from medviz.apps.compare import BranchCompare
    from medviz.apps.dicelab import DiceLab
    from medviz.apps.model import DiceLabModel, ReplayModel
    from medviz.apps.play import PlayTable
    from medviz.apps.play_model import PlayModel
    from medviz.apps.record import RecordTable
    from medviz.apps.record_model import RecordModel
    from medviz.apps.replay import ReplayViewer
    from medviz.apps.tree import BranchTree, branch_tree

#: Where each app lives: imported on first use, so ``medviz.apps.model`` (which the exported page's phase words
#: use) loads without ipywidgets and plotly's widget, whose import brings nbformat and jsonschema (over a second).
_HOME = {"Classroom": "classroom", "BranchCompare": "compare", "DiceLab": "dicelab", "DiceLabModel": "model",
         "ReplayModel": "model", "PlayTable": "play", "PlayModel": "play_model", "RecordTable": "record",
         "RecordModel": "record_model", "ReplayViewer": "replay", "BranchTree": "tree", "branch_tree": "tree"}

__all__ = ["BranchCompare", "BranchTree", "Classroom", "DiceLab", "DiceLabModel", "PlayModel", "PlayTable", "RecordModel",
           "RecordTable", "ReplayModel", "ReplayViewer",
           "branch_tree"]


def __getattr__(name: str) -> Any:
    """An app by name, imported from its module the first time it is asked for."""
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'medviz.apps' has no attribute {name!r}")
    value = getattr(import_module(f"medviz.apps.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
