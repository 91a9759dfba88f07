"""Many games on one engine: outcome distributions, continuations with what-ifs, pivotal rolls and
win probability, on local processes or a Dask cluster (generic: a game is reached through ``Ruleset``).

Never imports plotly or ipywidgets: a worker pays only for the engine and the game it plays.
"""

from __future__ import annotations

from medviz.analysis.simulate import Simulation, continue_history, simulate
from medviz.analysis.stats import wilson

__all__ = ["Simulation", "continue_history", "simulate", "wilson"]
