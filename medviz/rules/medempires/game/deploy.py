"""Setting up the game (3.0-3.3.1) as decisions: every starting counter is placed by a player.

Player A sets up first (3.1), then Player B (3.2), then the inactive powers (3.3.1) in the order
of ``scenarios.toml`` ``[[setup]]``, each by the player the rules name; the powers "either player
may deploy" alternate, Player A first (ruling C). Within a power: land units one at a time (the
areas that must hold a land unit are filled first once the units left are just enough), then the
King in a listed area holding one of its land units (3.0), then each fleet in a sea next to one of
the set-up coasts (3.1). Forced choices (one legal area) are recorded as automatic decisions.

Decision ids: ``setup/<power>/<unit code>-<n>``, ``setup/<power>/king``; the heuristic and
historical players place each counter where the default deployment (``deployment.toml``) puts it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from medviz.engine.game import Context, GameSpec, Snapshot, Task, run
from medviz.engine.policy import Policy
from medviz.engine.registry import get_ruleset
from medviz.rules.medempires.choices import Decision
from medviz.rules.medempires.game.options import Place, shared
from medviz.rules.medempires.game.setup import initial_state
from medviz.rules.medempires.gamedata import LAND_CODES, GameData, SetupEntry
from medviz.rules.medempires.game.state import GameState

#: The phase every set-up event belongs to (before game turn 1).
SETUP_PHASE = "set-up"


def deployers(scenario: str, data: GameData) -> list[tuple[str, str]]:
    """(power, side that deploys it) in set-up order; 'either' powers alternate, A first (ruling C)."""
    out: list[tuple[str, str]] = []
    either = 0
    for power, st in data.setup.items():
        by = st.deployed_by
        if by == "either":
            by = "A" if either % 2 == 0 else "B"
            either += 1
        out.append((power, by))
    return out


def setup_tasks(scenario: str, data: GameData) -> list[Task]:
    """The set-up agenda: one task per power, then the task that closes the set-up."""
    tasks = [Task.of("game.setup", checkpoint=True)]
    tasks += [Task.of("game.deploy", power=p, side=s) for p, s in deployers(scenario, data)]
    tasks.append(Task.of("game.setup-done"))
    return tasks


def task_setup(state: GameState, ctx: Context) -> None:
    """The set-up begins (3.0): every counter starts off the map."""
    ctx.begin_phase(SETUP_PHASE, turn=0)


def setup_rule(st: SetupEntry) -> str:
    """The rule that sets up this power: 3.1 (Player A's), 3.2 (Player B's) or 3.3.1 (the others)."""
    return {"A": "3.1", "B": "3.2"}.get(st.side, "3.3.1")


def land_options(state: GameState, st: SetupEntry, left: int) -> list[str]:
    """Where the next land unit of ``st.power`` may go, with ``left`` land units still to place (3.x).

    Every ``must_occupy`` area needs a land unit of the power; once the units left are no more
    than the empty such areas, only those areas are legal.
    """
    units = state.units
    empty = [a for a in st.must_occupy
             if not any(n > 0 and p == st.power and c in LAND_CODES for (p, c), n in units.get(a, {}).items())]
    if empty and left <= len(empty):
        return empty
    return list(st.land_areas)


def king_options(state: GameState, st: SetupEntry) -> list[str]:
    """Listed King areas holding at least one of the power's land units (3.0)."""
    return [a for a in st.king_areas
            if any(n > 0 and p == st.power and c in LAND_CODES for (p, c), n in state.units.get(a, {}).items())]


def fleet_options(state: GameState, st: SetupEntry) -> list[str]:
    """Sea areas adjacent to one of the set-up fleet coasts (3.1; neutrals: their home, ruling C)."""
    m = state.map.areas
    return sorted({sea for a in st.fleet_coasts for sea in m[a].coasts})


def task_deploy(state: GameState, ctx: Context, power: str, side: str) -> None:
    """``side`` places every starting counter of ``power`` (3.1, 3.2, 3.3.1)."""
    data = state.data
    st = data.setup[power]
    name = data.powers[power].name
    rule = setup_rule(st)
    land = [c for c in LAND_CODES for _ in range(st.units.get(c, 0))]
    seen: dict[str, int] = {}
    for i, code in enumerate(land):
        seen[code] = seen.get(code, 0) + 1
        unit = data.unit_types[code].name if code in data.unit_types else code
        counter = f"{code}-{seen[code]}"
        area = ctx.decide(f"setup/{power}/{counter}", side,
                          [shared(Place, a, power, counter) for a in land_options(state, st, len(land) - i)],
                          prompt=f"Where does this {name} {unit.lower()} start? ({rule})", kind=Decision.SETUP).area
        ctx.change("unit-placed", actor=side, power=power, unit=code, area=area, setup=True)
    if st.units.get("K", 0):
        king = data.starting_king(power)
        if king is not None:
            area = ctx.decide(f"setup/{power}/king", side, [shared(Place, a, power, "king") for a in king_options(state, st)],
                              prompt=f"Where does {king.name} start? (3.0: with a land unit)", kind=Decision.SETUP).area
            ctx.change("king-placed", actor=side, king=king.id, power=power, area=area, setup=True)
    seas = fleet_options(state, st)
    for n in range(1, st.units.get("F", 0) + 1):
        sea = ctx.decide(f"setup/{power}/F-{n}", side, [shared(Place, a, power, f"F-{n}") for a in seas],
                         prompt=f"Which sea does this {name} fleet start in? ({rule})", kind=Decision.SETUP).area
        ctx.change("unit-placed", actor=side, power=power, unit="F", area=sea, setup=True)


def task_setup_done(state: GameState, ctx: Context) -> None:
    """Control at the end of the set-up is the start of the game (VP count from it, 4.0)."""
    ctx.change("setup-done", automatic=True)


def set_up_state(scenario: str, options: Mapping[str, Any] | None = None,
                 players: Mapping[str, Policy] | None = None) -> GameState:
    """The state once every counter is placed: by the default deployment unless ``players`` say otherwise."""
    from medviz.rules.medempires.game.players import Heuristic

    opts = dict(options or {})
    state = initial_state(scenario, opts)
    who: Mapping[str, Policy] = {"A": Heuristic(), "B": Heuristic(), **(players or {})}
    spec = GameSpec(get_ruleset("medempires"), scenario, opts, 0, who)
    tasks = setup_tasks(scenario, state.data)
    return run(spec, Snapshot(0, state, tuple(reversed(tasks)), None, None)).state  # type: ignore[no-any-return]


def setup(scenario: str, options: Mapping[str, Any]) -> tuple[GameState, list[Task]]:
    """Initial state and agenda: the set-up (3.x), then the first game turn."""
    state = initial_state(scenario, options)
    return state, [*setup_tasks(scenario, state.data), Task.of("game.turn", checkpoint=True, turn=1)]
