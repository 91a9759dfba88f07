"""Redistribution of units and the stacking limits of the End of Turn Phase (5.2)."""

from __future__ import annotations

from typing import Any

from medviz.engine.game import Context
from medviz.rules.medempires.choices import Decision
from medviz.rules.medempires.game.options import Place, StackUnit, UnitIn, shared
from medviz.rules.medempires.game.state import (
    PLAYER_POWERS,
    SIDES,
    GameState,
    other_side,
    sea_control,
    sea_ids,
)


def _gt(state: GameState) -> str:
    return f"GT{state.turn}"


def total_areas(state: GameState, side: str, kind: str) -> list[str]:
    """Land (or sea) areas under ``side``'s total control (3.4; seas: ruling)."""
    if kind == "land":
        return sorted(a for a, c in state.ctl.items() if c == side)
    return [a for a in sea_ids(state.map) if sea_control(state, a) == side]  # sorted, as sea_ids are


def movable(state: GameState, side: str) -> list[UnitIn]:
    """Units in total-controlled areas not yet redistributed (``2L``: two levies at once)."""
    out: list[UnitIn] = []
    sides = state.sides()
    for kind in ("land", "sea"):
        areas = total_areas(state, side, kind)
        if len(areas) < 2:
            continue  # nowhere else to go
        for a in areas:
            for (p, c), n in sorted(state.units.get(a, {}).items()):
                if sides.get(p) != side:
                    continue
                free = n - state.done.get(a, {}).get((p, c), 0)
                if free > 0:
                    out.append(shared(UnitIn, a, p, c))
                if c == "L" and free >= 2:
                    out.append(shared(UnitIn, a, p, "2L"))
    return out


def redistribute(state: GameState, ctx: Context) -> None:
    """5.2: an initiative roll (A wins ties), then alternate moves of one unit or two levies; then limits."""
    ctx.change("ops-phase-begins", automatic=True, side="redistribution")
    rolls = {s: ctx.roll(f"{_gt(state)}/end/redistribution/initiative/{s}", actor=s,
                         purpose="redistribution order (5.2)") for s in SIDES}
    winner = "A" if rolls["A"] >= rolls["B"] else "B"
    order = ctx.decide(f"{_gt(state)}/end/redistribution/order", winner, ["first", "second"],
                       prompt="Redistribute first or second? (5.2)", kind=Decision.ORDER)
    side = winner if order == "first" else other_side(winner)
    done: set[str] = set()
    pick = 0
    while len(done) < 2:
        if side not in done:
            pick += 1
            opts = movable(state, side)
            rid = f"{_gt(state)}/end/redistribution/{side}/pick-{pick}"
            choice: Any = ctx.decide(rid, side, ["done", *opts], prompt="Redistribute a unit (5.2)",
                                kind=Decision.REDISTRIBUTE) if opts else "done"
            if choice == "done":
                done.add(side)
            else:
                src, power, code = choice.area, choice.power, choice.code
                n = 2 if code == "2L" else 1
                code = "L" if code == "2L" else code
                kind = state.map.areas[src].kind
                dests = [a for a in total_areas(state, side, kind) if a != src]
                if dests:  # always true: movable() offers only units with somewhere to go
                    dst = ctx.decide(f"{rid}/to", side, [shared(Place, a) for a in dests], prompt="To which area?",
                                     kind=Decision.REDISTRIBUTE_TO).area
                    ctx.change("unit-moved", actor=side, source=src, to=dst, power=power, unit=code, n=n,
                               done=True, why="redistribution (5.2)")
                    _kings_follow(state, ctx, src, dst, side)
        other = other_side(side)
        side = other if other not in done else side
    for s in SIDES:
        enforce_limits(state, ctx, s)


def _kings_follow(state: GameState, ctx: Context, src: str, dst: str, side: str) -> None:
    """Ruling: a King goes with the last friendly land unit redistributed out of his area."""
    if state.map.areas[src].kind != "land" or state.has_side_units(src, side):
        return
    for k in sorted(kk for kk, a in state.kings.items() if a == src and PLAYER_POWERS[state.data.kings[kk].power] == side):
        ctx.change("king-moved", actor=side, king=k, to=dst)


def stack_limit(state: GameState, area: str) -> int:
    """5.2: five units where there is a city, otherwise three (sea areas have no city)."""
    t = state.data.operations.treasury
    return t["stack_with_city"] if state.map.areas[area].city else t["stack_without_city"]


def enforce_limits(state: GameState, ctx: Context, side: str) -> None:
    """5.2: after redistribution, units above the limit in a side's total-controlled areas are eliminated."""
    for kind in ("land", "sea"):
        for a in total_areas(state, side, kind):
            units = state.side_units(a, side)
            over = sum(units.values()) - stack_limit(state, a)
            i = 0
            while over > 0:
                i += 1
                units = state.side_units(a, side)
                opts = [StackUnit(p, c) for (p, c) in sorted(units)]
                pick = ctx.decide(f"{_gt(state)}/end/stacking/{a}/{i}", side, opts, kind=Decision.STACKING,
                                  prompt=f"Too many units in {state.map.areas[a].name} (5.2): eliminate one")
                p, c = pick.power, pick.code
                ctx.change("unit-removed", actor=side, area=a, power=p, unit=c, reason="stacking limit (5.2)")
                over -= 1
