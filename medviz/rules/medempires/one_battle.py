"""The ``battle`` scenario: one battle between two forces in one area (the combat slice, 10.3, 11.3).

Its state is a ``BattleGame``; its tasks and reducers are combat.py's rule code, listed here as
data for the game's definition (``medviz.rules.medempires.definition``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from medviz.engine.errors import IllegalAction, MalformedInput
from medviz.engine.events import ChangeEvent
from medviz.engine.game import Seat, Task
from medviz.rules.datafiles import load_toml
from medviz.rules.medempires import combat
from medviz.rules.medempires.combat import BattleState

@lru_cache(maxsize=1)
def power_ids() -> tuple[str, ...]:
    """Ids of every power in data/powers.toml."""
    return tuple(p["id"] for p in load_toml(combat.DATA / "powers.toml")["power"])


# --------------------------------------------------------------------------------------------
# The battle scenario
# --------------------------------------------------------------------------------------------
@dataclass
class BattleGame:
    """State of the ``battle`` scenario: one battle."""

    battle: BattleState


BATTLE_OPTIONS = ("attacker", "defender", "city", "ops", "interception")


def new_battle(options: Mapping[str, Any], prefix: str = "battle-1") -> BattleState:
    """A battle from options ``attacker``/``defender`` (SPEC strings), ``city``, ``ops``, ``interception``."""
    unknown = sorted(set(options) - set(BATTLE_OPTIONS))
    if unknown:
        raise MalformedInput(f"battle options: unknown option(s) {unknown}; known: {list(BATTLE_OPTIONS)}")
    for need in ("attacker", "defender"):
        if not isinstance(options.get(need), str):
            raise MalformedInput(f"battle options: {need!r} must be a force SPEC such as 'aragon:2FA,1L,K2'")
    att = combat.parse_force(options["attacker"], "attacker", power_ids(), "attacker")
    dfd = combat.parse_force(options["defender"], "defender", power_ids(), "defender")
    if len({p for p, _ in att.units}) > 1:
        raise IllegalAction("attacker: a force cannot consist of units of different powers", "10.0")
    kind = combat.battle_kind(att, dfd)
    ops = options.get("ops", 0)
    if isinstance(ops, bool) or not isinstance(ops, int) or not 0 <= ops <= combat.OPS_MAX:
        raise MalformedInput(f"battle options: ops must be a whole number 0..{combat.OPS_MAX} (10.0), not {ops!r}")
    city = bool(options.get("city", False))
    if city and kind == "sea":
        raise MalformedInput("battle options: a naval battle is fought in a sea area, which has no city")
    b = BattleState(prefix, kind, city, {"attacker": att, "defender": dfd}, ops=ops,
                    may_avoid=not options.get("interception", False))
    b.initial = {s: dict(b.sides[s].units) for s in combat.SIDES}
    return b


def _battle_setup(options: Mapping[str, Any]) -> tuple[BattleGame, list[Task]]:
    return BattleGame(new_battle(options)), [Task.of("battle.combat", checkpoint=True)]


def _battle_copy(g: BattleGame) -> BattleGame:
    return BattleGame(g.battle.copy())


def _battle_outcome(g: BattleGame) -> dict[str, Any]:
    return combat.battle_outcome(g.battle)


def battle_setup(options: Mapping[str, Any]) -> tuple[BattleGame, list[Task]]:
    """The ``battle`` scenario's state and agenda."""
    return BattleGame(new_battle(options)), [Task.of("battle.combat", checkpoint=True)]


def battle_copy(g: BattleGame) -> BattleGame:
    """An independent copy (combat.py's hand-written ``BattleState.copy``, fast for the odds solver)."""
    return BattleGame(g.battle.copy())


def battle_outcome(g: BattleGame) -> dict[str, Any]:
    """Who won the battle and what is left (combat.py)."""
    return combat.battle_outcome(g.battle)


BATTLE_SEATS = (Seat("attacker", "Attacker", "#1f5fa8"), Seat("defender", "Defender", "#b8322a"))

#: The battle's tasks (the state has a ``battle``: a ``BattleGame`` or a whole game's state).
BATTLE_TASKS: dict[str, Callable[..., None]] = {
    "battle.combat": lambda s, ctx: combat.task_combat(s.battle, ctx),
    "battle.round": lambda s, ctx, table, roller: combat.task_round(s.battle, ctx, table, roller),
    "battle.end": lambda s, ctx: combat.task_end(s.battle, ctx),
}

#: The changes a battle makes (combat.py's ``apply_battle_change``).
BATTLE_CHANGES = ("battle-eliminate", "battle-marker-spent", "battle-result", "battle-king-killed",
                  "battle-avoided", "battle-raiders-only", "battle-ops-spent", "battle-combat-begins",
                  "battle-round-begins", "battle-ends")


def battle_reducer(name: str) -> Callable[[Any, ChangeEvent], None]:
    """The reducer of battle change ``name`` for a one-battle game."""
    def apply(s: Any, e: ChangeEvent) -> None:
        combat.apply_battle_change(s.battle, name, e.data)
    return apply
