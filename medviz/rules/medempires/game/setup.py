"""Setting up a game (3.0-3.3.1) from the game data's default deployment of the scenario."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from medviz.engine.errors import MalformedInput
from medviz.engine.game import Task
from medviz.rules.medempires.game.state import PLAYER_POWERS, GameState, game_data, game_map, refresh_control


def parse_options(scenario: str, options: Mapping[str, Any]) -> dict[str, bool]:
    """Optional rules (14.x) and reading switches: names from scenarios.toml, values true/false."""
    data = game_data()
    out = {o.id: o.default for o in data.options.values()}
    for name, value in dict(options or {}).items():
        if name not in data.options:
            raise MalformedInput(f"{scenario}: unknown option {name!r}; known: {', '.join(sorted(data.options))}")
        if not isinstance(value, bool):
            raise MalformedInput(f"{scenario}: option {name!r} must be true or false, not {value!r}")
        out[name] = value
    return out


def initial_state(scenario: str, options: Mapping[str, Any]) -> GameState:
    """The state after set-up (3.1 Player A, 3.2 Player B, 3.3.1 the other powers)."""
    data = game_data()
    m = game_map()
    sc = data.scenarios.get(scenario)
    if sc is None:
        raise MalformedInput(f"unknown scenario {scenario!r}; known: {', '.join(sorted(data.scenarios))}")
    dep = data.deployments[scenario]
    s = GameState(scenario=scenario, last_turn=sc.game_turns, options=parse_options(scenario, options))
    for pw in data.powers.values():
        st = pw.status_at_start
        s.status[pw.id] = "player" if st == "player" else ("neutral" if st == "neutral" else f"{st}:{pw.faction_at_start}")
    for a in m.land_ids():
        s.owner[a] = None
        s.ctl[a] = None
    for pw in data.powers.values():
        for a in pw.controlled_at_start:
            s.owner[a] = PLAYER_POWERS.get(pw.id, pw.id)
    for power, code, where in dep.placements():
        if where is None:
            raise MalformedInput(f"{scenario}: a {power} {code} has no area in the default deployment")
        if code == "K":
            king = data.starting_king(power)
            assert king is not None
            s.kings[king.id] = where
            continue
        u = s.units.setdefault(where, {})
        u[(power, code)] = u.get((power, code), 0) + 1
    refresh_control(s)
    s.start_ctl = dict(s.ctl)
    s.tp = {"A": sc.starting_tp["A"], "B": sc.starting_tp["B"]}
    s.king_pools = {p: list(ks) for p, ks in data.king_pools.items()}
    s.king_due = {p: False for p in PLAYER_POWERS}
    s.cup = {m_.id: m_.count for m_ in data.stratagems.values()}
    return s


def setup(scenario: str, options: Mapping[str, Any]) -> tuple[GameState, list[Task]]:
    """Initial state and agenda: the first game turn."""
    return initial_state(scenario, options), [Task.of("game.turn", checkpoint=True, turn=1)]
