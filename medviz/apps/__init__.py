"""Jupyter apps over histories: a replay viewer, a dice lab, a branch tree, a table to play a side, and one to record a real game.

Models (``medviz.apps.model``) carry the state as traitlets and import no widgets; the views are
``ipywidgets.VBox`` subclasses that observe them. Constructors return widgets and never display.
"""

from __future__ import annotations

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

__all__ = ["BranchCompare", "BranchTree", "Classroom", "DiceLab", "DiceLabModel", "PlayModel", "PlayTable", "RecordModel",
           "RecordTable", "ReplayModel", "ReplayViewer",
           "branch_tree"]
