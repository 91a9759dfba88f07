"""Battles inside a whole game: open a combat.py battle on the map, then settle its aftermath.

Every field battle, naval battle and interception reuses the battle slice (combat.py, 10.3, 11.3);
this module builds the two sides from the units in the area and, when the battle ends, draws the
DV+S stratagem marker, drops cargo the surviving fleets cannot carry and buries lonely Kings (8.1).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from medviz.engine.game import Context, Task
from medviz.rules.medempires.combat import BattleState, Side
from medviz.rules.medempires.game.state import (
    BATTLE_MARKERS,
    PLAYER_POWERS,
    GameState,
    Key,
    other_side,
)


def _units_list(units: Mapping[Key, int]) -> list[list[Any]]:
    return [[p, c, n] for (p, c), n in sorted(units.items()) if n > 0]


def battle_markers(state: GameState, side: str) -> dict[str, int]:
    """The battle stratagem markers a side holds, as combat.py codes."""
    return {code: state.hands[side].get(m, 0) for m, code in BATTLE_MARKERS.items() if state.hands[side].get(m, 0)}


def best_king(state: GameState, kings: list[str]) -> str | None:
    """The King with the highest military value among ``kings`` (one King counts per side)."""
    data = state.data
    if not kings:
        return None
    return sorted(kings, key=lambda k: (-data.kings[k].military, k))[0]


def open_battle(state: GameState, ctx: Context, prefix: str, area: str, attacker: str,
                attacker_units: Mapping[Key, int], defender_units: Mapping[Key, int],
                attacker_kings: list[str], defender_kings: list[str], force_side: str | None,
                interception: bool, ops: int = 0, then: tuple[Task, ...] = ()) -> None:
    """Record a battle opening and schedule it, then ``then`` (interceptions skip avoid and initiative, rulings C)."""
    kind = state.map.areas[area].kind
    players = {"attacker": attacker, "defender": other_side(attacker)}
    kings = {"attacker": best_king(state, attacker_kings) if kind == "land" else None,
             "defender": best_king(state, defender_kings) if kind == "land" else None}
    data = state.data
    # 8.1 (1): friendly land units in the area that stay out of the battle keep its King alive
    cover = {s: sum(state.side_units(area, p).values()) - sum(u.values()) if kind == "land" else 0
             for s, p, u in (("attacker", attacker, attacker_units), ("defender", other_side(attacker), defender_units))}
    ctx.change("battle-opened", actor=attacker, prefix=prefix, area=area, kind=kind,
               city=bool(state.map.areas[area].city) and kind == "land",
               attacker=_units_list(attacker_units), defender=_units_list(defender_units),
               kings=kings, king_values={s: data.kings[k].military if k else 0 for s, k in kings.items()},
               players=players, markers={s: battle_markers(state, p) for s, p in players.items()},
               force_side=force_side, ops=ops, may_avoid=not interception,
               cover={s: n for s, n in cover.items() if n > 0})
    if interception:
        ctx.schedule(Task.of("battle.round", checkpoint=True, table="field", roller="attacker"),
                     Task.of("game.after-battle"), *then)
    else:
        ctx.schedule(Task.of("battle.combat", checkpoint=True), Task.of("game.after-battle"), *then)


def build_battle(state: GameState, d: Mapping[str, Any]) -> BattleState:
    """The BattleState described by a ``battle-opened`` change."""
    sides = {}
    for s in ("attacker", "defender"):
        units = {(p, c): int(n) for p, c, n in d[s]}
        king_id = d["kings"].get(s)
        king = (state.data.kings[king_id].power, int(d["king_values"][s])) if king_id else None
        sides[s] = Side(d["players"][s], units, king, dict(d["markers"][s]))
    b = BattleState(d["prefix"], d["kind"], bool(d["city"]), sides, ops=int(d["ops"]),
                    may_avoid=bool(d["may_avoid"]))
    b.initial = {s: dict(sides[s].units) for s in sides}
    b.cover = {s: int(n) for s, n in d.get("cover", {}).items()}
    return b


def task_after_battle(state: GameState, ctx: Context) -> None:
    """The aftermath of a battle: stratagem draws, cargo, lonely Kings, the Pope, the chronicle."""
    b = state.battle
    assert b is not None
    info = state.battle_info
    area = info["area"]
    for i, player in enumerate(info["stratagem"]):
        draw_marker(state, ctx, player, f"{b.prefix}/stratagem-{i + 1}", "DV+S result")
    fought_mercs = sum(n for (p, c), n in b.initial["attacker"].items() if c == "M") + \
        sum(n for (p, c), n in b.initial["defender"].items() if c == "M")
    summary = {"turn": state.turn, "area": area, "kind": b.kind, "winner": _winner_player(b),
               "results": list(b.results), "attacker": b.sides["attacker"].player,
               "interception": not b.may_avoid, "mercenaries": fought_mercs,
               "left": {"attacker": b.sides["attacker"].count(), "defender": b.sides["defender"].count()}}
    ctx.change("battle-closed", automatic=True, summary=summary)
    settle_cargo(state, ctx, b.prefix)
    bury_lonely_kings(state, ctx, area)
    check_pope(state, ctx)


def _winner_player(b: BattleState) -> str | None:
    a, d = b.sides["attacker"].count(), b.sides["defender"].count()
    if a and not d:
        return b.sides["attacker"].player
    if d and not a:
        return b.sides["defender"].player
    return None


def draw_marker(state: GameState, ctx: Context, side: str, draw_id: str, purpose: str) -> str | None:
    """Draw one stratagem marker from the cup for ``side`` (9.0); None if the cup is empty."""
    pool = [m for m, n in sorted(state.cup.items()) for _ in range(n)]
    if not pool:
        ctx.report("cup-empty", actor=side, purpose=purpose)
        return None
    m = ctx.draw(draw_id, pool, actor=side, purpose=purpose)
    ctx.change("marker-drawn", actor=side, side=side, marker=m)
    return m


def settle_cargo(state: GameState, ctx: Context, prefix: str) -> None:
    """Land units beyond what the surviving fleets can carry are lost with the fleets (ruling, 11.2).

    A King aboard dies only when the last fleet carrying him is sunk: every friendly unit stacked
    with him was eliminated in combat (8.1 (1)).
    """
    f = state.force
    if f is None or f.kind != "sea" or not (f.cargo or f.cargo_kings):
        return
    cap = 2 * f.count()
    carried = sum(f.cargo.values())
    i = 0
    while carried > cap:
        key = sorted(f.cargo)[0]
        i += 1
        ctx.change("cargo-lost", actor=f.side, power=key[0], unit=key[1])
        carried -= 1
    if f.count() == 0:  # 8.1 (1): every friendly unit stacked with him, fleets and cargo, fell in combat
        for k in list(f.cargo_kings):
            ctx.change("king-died", actor=f.side, king=k, power=state.data.kings[k].power, cause="battle")


def bury_lonely_kings(state: GameState, ctx: Context, area: str) -> None:
    """A King whose side has no land unit left in his area dies (8.1 case 1)."""
    if state.map.areas[area].kind != "land":
        return
    carried = set(state.force.cargo_kings) if state.force else set()
    for k, where in sorted(state.kings.items()):
        if where != area or k in carried:
            continue
        side = PLAYER_POWERS[state.data.kings[k].power]
        if not state.has_side_units(area, side):
            ctx.change("king-died", actor=side, king=k, power=state.data.kings[k].power, cause="battle")


def check_pope(state: GameState, ctx: Context) -> None:
    """The Pope leaves Rome when his side loses total control of it (12.0 Pope)."""
    if state.pope is not None and state.ctl.get("papal_states") != state.pope:
        ctx.change("pope", actor=state.pope, side=None, reason="Rome lost")
