"""medviz: historical board wargames as replayable, branchable lessons in Jupyter."""

from __future__ import annotations

__version__ = "0.1.0"
