"""Invariants of a whole game, checked after every event by the tests (and usable in notebooks)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from medviz.engine.events import ChangeEvent
from medviz.rules.medempires.game.changes import GAME_REDUCERS, battle_change
from medviz.rules.medempires.game.deploy import setup_rule
from medviz.rules.medempires.game.redistribution import stack_limit
from medviz.rules.medempires.game.setup import initial_state
from medviz.rules.medempires.gamedata import LAND_CODES
from medviz.rules.medempires.game.state import SIDES, GameState, compute_control


def violations(s: GameState, *, stacking: bool = False) -> list[str]:
    """Every broken invariant of ``s`` (empty when sound)."""
    out: list[str] = []
    m = s.map.areas
    data = s.data
    for side in SIDES:
        if not 0 <= s.tp[side] <= data.operations.treasury["tp_cap"]:
            out.append(f"6.1: {side} has {s.tp[side]} TP")
    counts: dict[tuple[str, str], int] = {}
    for area, units in s.units.items():
        kind = m[area].kind
        for (p, c), n in units.items():
            if n <= 0:
                out.append(f"{area}: non-positive count {n} of {p} {c}")
            if (c == "F") != (kind == "sea"):
                out.append(f"10.1: {p} {c} in {kind} area {area}")
            counts[(p, c)] = counts.get((p, c), 0) + n
        for key, n in s.done.get(area, {}).items():
            if n > units.get(key, 0):
                out.append(f"{area}: {n} {key} marked done but only {units.get(key, 0)} there")
    for area, kinds in s.fought.items():
        for key, n in kinds.items():
            if n > s.units.get(area, {}).get(key, 0):
                out.append(f"14.1: {n} {key} recorded as having fought in {area}, only "
                           f"{s.units.get(area, {}).get(key, 0)} there")
    if s.force is not None:
        for key, n in s.force.cargo.items():
            counts[key] = counts.get(key, 0) + n
    for side in SIDES:
        for key, n in s.crusade[side].items():
            counts[key] = counts.get(key, 0) + n
    for (p, c), n in counts.items():
        limit = data.counter_limits.get(p, {}).get(c, 0)
        if n > limit:
            out.append(f"6.2: {n} {p} {c} on the map, counter limit {limit}")
    for a in m:
        if m[a].kind == "land" and s.ctl.get(a) != compute_control(s, a):
            out.append(f"3.4: control of {a} is {s.ctl.get(a)!r}, occupancy says {compute_control(s, a)!r}")
    for k, area in s.kings.items():
        carried = s.force is not None and k in s.force.cargo_kings
        if m[area].kind != "land" and not carried:
            out.append(f"8.0: King {k} alone at sea in {area}")
    if s.phase == "politics":
        for side in SIDES:
            for marker in ("plague", "pope", "crusade"):
                if s.hands[side].get(marker):
                    out.append(f"12.0: {side} still holds the {marker} marker after the stratagem markers phase")
    if stacking:
        for side in SIDES:
            for a in m:
                mine = sum(n for (p, _), n in s.units.get(a, {}).items() if s.side_of(p) == side)
                total = s.ctl.get(a) == side if m[a].kind == "land" else False
                if total and mine > stack_limit(s, a):
                    out.append(f"5.2: {side} has {mine} units in {a} after redistribution (limit {stack_limit(s, a)})")
    return out


def setup_violations(s: GameState) -> list[str]:
    """Every broken set-up rule (3.0-3.3.1) of a state whose set-up is complete (empty when sound)."""
    data, m = s.data, s.map.areas
    land = LAND_CODES
    out: list[str] = []
    where: dict[str, dict[str, dict[str, int]]] = {}
    for area, stack in s.units.items():
        for (p, c), n in stack.items():
            if n:
                where.setdefault(p, {}).setdefault(area, {})[c] = n
    for power, st in data.setup.items():
        rule = setup_rule(st)
        mine = where.get(power, {})
        counts: dict[str, int] = {}
        for area, units in mine.items():
            for c, n in units.items():
                counts[c] = counts.get(c, 0) + n
                if c in land and area not in st.land_areas:
                    out.append(f"{rule}: {power} {c} set up in {area}, not one of its areas")
                if c == "F" and not any(area in m[x].coasts for x in st.fleet_coasts):
                    out.append(f"{rule}: {power} fleet set up in {area}, next to none of {', '.join(st.fleet_coasts)}")
        for code, n in st.units.items():
            if code != "K" and counts.get(code, 0) != n:
                out.append(f"{rule}: {counts.get(code, 0)} {power} {code} set up, the set-up has {n}")
        for area in st.must_occupy:
            if not any(c in land for c in mine.get(area, {})):
                out.append(f"{rule}: no {power} land unit in {area}")
        king = data.starting_king(power)
        if king is not None and st.units.get("K", 0):
            at = s.kings.get(king.id)
            if at not in st.king_areas or not any(c in land for c in mine.get(at, {})):
                out.append(f"3.0: {king.id} set up in {at}, not a listed area holding a {power} land unit")
    return out


def replay_states(scenario: str, options: dict[str, Any], events: Any) -> Iterator[tuple[Any, GameState]]:
    """Yield (event, state after it) by folding the change events from set-up, like ``state_at``.

    The state carries the game's own map and data (override files), so checks run on each
    yielded state read the same data as the game did.
    """
    yield from _fold(initial_state(scenario, options), events)


def _fold(s: GameState, events: Any) -> Iterator[tuple[Any, GameState]]:
    for e in events:
        if isinstance(e, ChangeEvent):
            if e.change.startswith("battle-") and e.change not in ("battle-opened", "battle-closed"):
                battle_change(s, e.change, e.data)
            else:
                GAME_REDUCERS[e.change](s, e.data)
        yield e, s
