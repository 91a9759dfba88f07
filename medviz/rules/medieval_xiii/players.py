"""Players for Medieval: a heuristic for every seat (see ``HeuristicPolicy``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from medviz.engine import DecisionPoint
from medviz.engine.dice import natural_index


@dataclass
class HeuristicPolicy:
    """A sensible player: placeholder-free first version chooses the first option."""

    seed: int = 0

    @classmethod
    def from_spec(cls, arg: str = "0") -> HeuristicPolicy:
        """Build from the spec argument (``heuristic:SEED``)."""
        return cls(int(arg or 0))

    @property
    def spec(self) -> str:
        return f"heuristic:{self.seed}"

    def choose(self, point: DecisionPoint) -> Any:
        return point.options[natural_index(self.seed, "h/" + point.decision, len(point.options))]
