"""A long synthetic replay for page-size tests and benchmarks: real battles laid end to end.

Not a game, and not part of the rules: a fixture for ``tests/test_export.py`` and
``benchmarks/bench_export.py`` that lives with the game whose battles it replays (it needs only the
engine and these rules). ``battle_marathon`` runs real one-battle histories (the engine's ``battle``
scenario) and lays their events end to end over turns and the six phases of 5.1, so the export
sees a history as long as a whole Vespers game. ``marathon_views`` gives it map views that
change as a game's would: every state change moves control of an area, a stack or the Pope, and
every roll shows a battle overlay where the fight is.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Iterator
from typing import Any

from medviz.engine.events import ChangeEvent, DecisionEvent, DrawEvent, Event, PhaseEvent, RollEvent
from medviz.engine.history import PhaseSpan

__all__ = ["BattleMarathon", "battle_marathon", "marathon_views"]

PHASES = ("stratagems", "politics", "recruitment", "operations-A", "operations-B", "end-of-turn")
FORCES = (
    ("aragon:2FA,1L,1M,K2", "anjou:3FA,2L,K1"),
    ("anjou:2FA,2L", "sicily:1FA,1L"),
    ("france:3FA,1L,K1", "aragon:2FA,1M"),
    ("aragon:1F,2F", "anjou:2F"),
)


@dataclasses.dataclass
class BattleMarathon:
    """Duck-typed like ``History`` (events, describe, phases, rolls, decisions) for the exporter."""

    events: tuple[Event, ...]
    describe_event: Callable[[Event], str]
    game: str = "medempires"
    scenario: str = "synthetic battle marathon"
    seed: int = 0
    override: tuple[str, Any] | None = None
    outcome: dict[str, Any] = dataclasses.field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.events)

    def __iter__(self) -> Iterator[Event]:
        return iter(self.events)

    def describe(self, event: Event | int) -> str:
        """One event in plain words."""
        return self.describe_event(self.events[event] if isinstance(event, int) else event)

    def phases(self) -> list[PhaseSpan]:
        """The phases in order, each with its event range."""
        starts = [e for e in self.events if isinstance(e, PhaseEvent)]
        return [PhaseSpan(e.turn, e.name, e.seq, starts[i + 1].seq if i + 1 < len(starts) else len(self.events))
                for i, e in enumerate(starts)]

    def rolls(self) -> list[RollEvent | DrawEvent]:
        """Every roll and draw."""
        return [e for e in self.events if isinstance(e, (RollEvent, DrawEvent))]

    def decisions(self) -> list[DecisionEvent]:
        """Every decision."""
        return [e for e in self.events if isinstance(e, DecisionEvent)]


def battle_marathon(battles: int = 100, turns: int = 3, seed: int = 0) -> BattleMarathon:
    """``battles`` real battle histories end to end, spread over ``turns`` x the six phases."""
    from medviz.engine import play
    from medviz.rules.medempires.odds import Doctrine
    from medviz.rules.medempires.ruleset import RULESET

    runs = []
    for i in range(battles):
        att, dfd = FORCES[i % len(FORCES)]
        h = play(RULESET, "battle", {"attacker": att, "defender": dfd}, seed=seed + i,
                 players={"attacker": Doctrine(), "defender": Doctrine()})
        runs.append((i, h))
    slots = [(t, p) for t in range(1, turns + 1) for p in PHASES]
    events: list[Event] = []
    current: tuple[int, str] | None = None
    for i, h in runs:
        turn, phase = slots[min(i * len(slots) // battles, len(slots) - 1)]
        if (turn, phase) != current:
            events.append(PhaseEvent(seq=len(events), turn=turn, phase=phase, name=phase, automatic=True))
            current = (turn, phase)
        for e in h.events:
            # Roll and decision ids stay unique: each battle gets its own prefix.
            extra: dict[str, Any] = {}
            if isinstance(e, RollEvent):
                extra["roll"] = f"GT{turn}/{phase}/b{i}/{e.roll}"
            elif isinstance(e, DecisionEvent):
                extra["decision"] = f"GT{turn}/{phase}/b{i}/{e.decision}"
            events.append(dataclasses.replace(e, seq=len(events), turn=turn, phase=phase, **extra))
    return BattleMarathon(tuple(events), RULESET.describe)


def marathon_views(replay: BattleMarathon, scenario: str = "vespers-1282") -> Callable[[int], dict[str, Any]]:
    """Map views for a marathon: each change event changes the map; each roll shows a battle."""
    from medviz.rules.medempires.mapdata import load_map
    from medviz.rules.medempires.view import setup_view

    start = setup_view(scenario)
    land = sorted(load_map().land_ids())
    holders = ("A", "B", "partial", "genoa", None)
    views: list[dict[str, Any]] = []
    v = copy.deepcopy(start)
    for e in replay.events:
        v = copy.deepcopy(v)
        v["overlays"] = []
        v["turn"], v["phase"] = e.turn, e.phase
        if isinstance(e, PhaseEvent):
            v["pope"] = land[(e.seq * 5) % len(land)] if e.seq % 2 else None
        if isinstance(e, ChangeEvent):
            area = land[(e.seq * 7) % len(land)]
            v["control"][area] = holders[e.seq % len(holders)]
            stack = v["units"].setdefault(area, {}).setdefault("aragon" if e.seq % 2 else "anjou", {})
            stack["FA"] = (stack.get("FA", 0) + 1) % 4
            v["tp"] = {"A": e.seq % 9, "B": (e.seq * 3) % 11}
        if isinstance(e, RollEvent):
            area = land[(e.seq * 3) % len(land)]
            v["overlays"] = [{"kind": "battle", "area": area, "result": "DV" if e.value > 3 else "NE",
                              "winner": "attacker" if e.value > 3 else None},
                             {"kind": "move", "side": "B" if e.seq % 2 else "A", "power": "aragon",
                              "path": [land[(e.seq * 11) % len(land)], area]}]
        views.append(v)
    base = copy.deepcopy(start)

    def view_at(seq: int) -> dict[str, Any]:
        return base if seq < 0 else views[seq]

    return view_at
