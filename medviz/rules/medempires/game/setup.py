"""A game before its set-up: statuses, control, treasuries and pools; the players then place every
counter as decisions (3.0-3.3.1, ``game/deploy.py``, which also builds the set-up agenda).

Options may carry a user's map / game-data override files (``datapair.py``); the state built
here carries the map and data they make (``GameState.data_pair``, read as ``state.map`` and
``state.data``). The override helpers are re-exported here for callers that build options.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from medviz.engine.errors import MalformedInput
from medviz.rules.medempires.game.datapair import (
    DATA_OVERRIDE,
    MAP_OVERRIDE,
    OVERRIDE_KEYS,
    content_sha256,
    data_for_options,
    override_options,
    pair_from_key,
    read_override,
    shipped_data,
)
from medviz.rules.medempires.game.state import PLAYER_POWERS, GameState, refresh_control

__all__ = ["DATA_OVERRIDE", "MAP_OVERRIDE", "OVERRIDE_KEYS", "content_sha256", "data_for_options", "initial_state",
           "override_options", "pair_from_key", "parse_options", "read_override"]


def parse_options(scenario: str, options: Mapping[str, Any]) -> dict[str, bool]:
    """Optional rules (14.x) and reading switches: names from scenarios.toml, values true/false.

    The reserved names ``map_override``/``data_override`` carry override files' content; they
    are checked here (they must load) but are not switches, so they are not in the result.
    """
    pair = data_for_options(scenario, options)
    data = (pair if pair is not None else shipped_data()).game_data
    out = {o.id: o.default for o in data.options.values()}
    for name, value in dict(options or {}).items():
        if name in OVERRIDE_KEYS:
            continue
        if name not in data.options:
            raise MalformedInput(f"{scenario}: unknown option {name!r}; known: {', '.join(sorted(data.options))}")
        if not isinstance(value, bool):
            raise MalformedInput(f"{scenario}: option {name!r} must be true or false, not {value!r}")
        out[name] = value
    return out


def initial_state(scenario: str, options: Mapping[str, Any]) -> GameState:
    """The state before set-up: statuses, control, treasuries, pools; every counter still off the map.

    The players then place the counters (3.1 Player A, 3.2 Player B, 3.3.1 the others): ``game/deploy.py``.

    With override files in the options the state carries their map and data (``data_pair``).
    """
    pair = data_for_options(scenario, options)
    used = pair if pair is not None else shipped_data()
    data, m = used.game_data, used.game_map
    sc = data.scenarios.get(scenario)
    if sc is None:
        raise MalformedInput(f"unknown scenario {scenario!r}; known: {', '.join(sorted(data.scenarios))}")
    s = GameState(scenario=scenario, last_turn=sc.game_turns, options=parse_options(scenario, options), data_pair=pair)
    for pw in data.powers.values():
        st = pw.status_at_start
        s.status[pw.id] = "player" if st == "player" else ("neutral" if st == "neutral" else f"{st}:{pw.faction_at_start}")
    for a in m.land_ids():
        s.owner[a] = None
        s.ctl[a] = None
    for pw in data.powers.values():
        for a in pw.controlled_at_start:
            s.owner[a] = PLAYER_POWERS.get(pw.id, pw.id)
    refresh_control(s)
    s.start_ctl = dict(s.ctl)
    s.tp = {"A": sc.starting_tp["A"], "B": sc.starting_tp["B"]}
    s.king_pools = {p: list(ks) for p, ks in data.king_pools.items()}
    s.king_due = {p: False for p in PLAYER_POWERS}
    s.cup = {m_.id: m_.count for m_ in data.stratagems.values()}
    return s

