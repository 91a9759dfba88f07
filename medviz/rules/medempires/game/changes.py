"""Reducers: every change of a game's state, one function per change event.

The rule code only calls ``ctx.change(name, ...)``; the state is always the fold of these
changes, so ``History.state_at`` rebuilds any moment from a snapshot and the changes since.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from medviz.engine.events import ChangeEvent, FrozenDict, freeze
from medviz.rules.medempires import combat
from medviz.rules.medempires.game.state import (
    MARKER_IDS,
    Force,
    GameState,
    Key,
    refresh_control,
)

GAME_REDUCERS: dict[str, Callable[[GameState, Mapping[str, Any]], None]] = {}


def reducer(name: str) -> Callable[[Callable[[GameState, Mapping[str, Any]], None]], Callable[[GameState, Mapping[str, Any]], None]]:
    """Register a reducer for change ``name``."""
    def wrap(fn: Callable[[GameState, Mapping[str, Any]], None]) -> Callable[[GameState, Mapping[str, Any]], None]:
        GAME_REDUCERS[name] = fn
        return fn
    return wrap


def _add(bucket: dict[str, dict[Key, int]], area: str, key: Key, n: int) -> None:
    u = bucket.setdefault(area, {})
    v = u.get(key, 0) + n
    if v < 0:
        raise ValueError(f"negative unit count for {key} in {area}")
    if v:
        u[key] = v
    else:
        u.pop(key, None)


def _key(d: Mapping[str, Any]) -> Key:
    return (str(d["power"]), str(d["unit"]))


# -- 14.1: which mercenaries took part in a combat this turn ----------------------------------------
# Ruling: units of one kind are alike, so when some of them leave a group (move, embark, join a
# force, are removed) those that have not fought yet go first, the choice that spares their owner
# a mutiny roll; the counts below follow every move so each unit keeps its own record.
def _merc(key: Key) -> bool:
    return key[1] == "M"


def _had_fought(total: int, fought: int, k: int) -> int:
    """Of ``k`` units leaving a group of ``total`` of which ``fought`` fought, those that fought (idle go first)."""
    return max(0, k - (total - fought))


def _shift(bucket: dict[str, dict[Key, int]], area: str, key: Key, n: int) -> None:
    """Add ``n`` to the fought count of ``key`` in ``area`` (never below zero)."""
    u = bucket.setdefault(area, {})
    v = max(0, u.get(key, 0) + n)
    if v:
        u[key] = v
    else:
        u.pop(key, None)


def _fought_in(s: GameState, area: str, key: Key) -> int:
    return s.fought.get(area, {}).get(key, 0)


def _clamp_fought(s: GameState, area: str, key: Key) -> None:
    """Keep the fought count within the units there (idle units are taken away first)."""
    over = _fought_in(s, area, key) - s.units.get(area, {}).get(key, 0)
    if over > 0:
        _shift(s.fought, area, key, -over)


# -- units ----------------------------------------------------------------------------------------
@reducer("unit-placed")
def _placed(s: GameState, d: Mapping[str, Any]) -> None:
    _add(s.units, d["area"], _key(d), int(d.get("n", 1)))
    if d.get("recruited"):  # 6.2: the three-recruits limit is each player's own
        mine = s.recruited_here.setdefault(str(d.get("side") or s.side_of(d["power"])), {})
        mine[d["area"]] = mine.get(d["area"], 0) + int(d.get("n", 1))
    refresh_control(s, (d["area"],))


@reducer("unit-removed")
def _removed(s: GameState, d: Mapping[str, Any]) -> None:
    key, area, n = _key(d), d["area"], int(d.get("n", 1))
    _add(s.units, area, key, -n)
    if _merc(key):
        _clamp_fought(s, area, key)
    done = s.done.get(area, {})
    if done.get(key, 0) > s.units.get(area, {}).get(key, 0):
        done[key] = s.units.get(area, {}).get(key, 0)
    if d.get("to") == "crusade":
        side = d["side"]
        s.crusade[side][key] = s.crusade[side].get(key, 0) + n
    refresh_control(s, (area,))


@reducer("unit-moved")
def _moved(s: GameState, d: Mapping[str, Any]) -> None:
    key, n = _key(d), int(d.get("n", 1))
    if _merc(key):
        went = _had_fought(s.units.get(d["source"], {}).get(key, 0), _fought_in(s, d["source"], key), n)
        _shift(s.fought, d["source"], key, -went)
        _shift(s.fought, d["to"], key, went)
    _add(s.units, d["source"], key, -n)
    _add(s.units, d["to"], key, n)
    done = s.done.get(d["source"], {})
    if done.get(key, 0) > s.units.get(d["source"], {}).get(key, 0):
        done[key] = s.units.get(d["source"], {}).get(key, 0)
    if d.get("done"):
        _add(s.done, d["to"], key, n)
    refresh_control(s, (d["source"], d["to"]))


@reducer("crusade-return")
def _crusade_return(s: GameState, d: Mapping[str, Any]) -> None:
    key = _key(d)
    side = d["side"]
    s.crusade[side][key] -= 1
    if not s.crusade[side][key]:
        del s.crusade[side][key]
    _add(s.units, d["area"], key, 1)
    refresh_control(s, (d["area"],))


@reducer("units-done")
def _done(s: GameState, d: Mapping[str, Any]) -> None:
    _add(s.done, d["area"], _key(d), int(d.get("n", 1)))


@reducer("ops-phase-begins")
def _ops_begin(s: GameState, d: Mapping[str, Any]) -> None:
    s.done = {}


# -- force --------------------------------------------------------------------------------------
@reducer("force-formed")
def _force_formed(s: GameState, d: Mapping[str, Any]) -> None:
    units = {(p, c): int(n) for p, c, n in d["units"]}
    s.forces += 1
    s.force = Force(d["id"], d["side"], d["power"], d["kind"], d["area"], d["area"], units,
                    kings=list(d.get("kings", ())), restricted=bool(d.get("restricted", False)),
                    landing_parent=d.get("landing_parent"))
    for key, n in units.items():
        if _merc(key):
            had = _had_fought(s.units.get(d["area"], {}).get(key, 0), _fought_in(s, d["area"], key), n)
            if had:
                s.force.fought[key] = had


@reducer("force-ops")
def _force_ops(s: GameState, d: Mapping[str, Any]) -> None:
    assert s.force is not None
    s.force.ops = int(d["ops"])


@reducer("force-spends")
def _force_spends(s: GameState, d: Mapping[str, Any]) -> None:
    assert s.force is not None
    s.force.ops -= int(d["ops"])
    s.force.steps += 1


@reducer("force-moved")
def _force_moved(s: GameState, d: Mapping[str, Any]) -> None:
    f = s.force
    assert f is not None
    src, dst = f.area, d["to"]
    for key, n in f.units.items():
        _add(s.units, src, key, -n)
        _add(s.units, dst, key, n)
    for key, n in f.fought.items():
        _shift(s.fought, src, key, -n)
        _shift(s.fought, dst, key, n)
    for k in f.kings:
        s.kings[k] = dst
    for k in f.cargo_kings:
        s.kings[k] = dst
    f.area = dst
    f.moved = True
    if d.get("lifts_restriction"):
        f.restricted = False
    refresh_control(s, (src, dst))


@reducer("force-picks-up")
def _pick(s: GameState, d: Mapping[str, Any]) -> None:
    f = s.force
    assert f is not None
    key = _key(d)
    if _merc(key):
        others = s.units.get(f.area, {}).get(key, 0) - f.units.get(key, 0)
        f.fought[key] = f.fought.get(key, 0) + _had_fought(others, _fought_in(s, f.area, key) - f.fought.get(key, 0), 1)
    f.units[key] = f.units.get(key, 0) + 1


@reducer("king-joins")
def _king_joins(s: GameState, d: Mapping[str, Any]) -> None:
    assert s.force is not None
    s.force.kings.append(d["king"])


@reducer("force-drops")
def _drop(s: GameState, d: Mapping[str, Any]) -> None:
    f = s.force
    assert f is not None
    key = _key(d)
    if _merc(key) and _had_fought(f.units[key], f.fought.get(key, 0), 1):
        f.fought[key] -= 1
    f.units[key] -= 1
    if not f.units[key]:
        del f.units[key]
    _add(s.done, f.area, key, 1)


@reducer("king-leaves-force")
def _king_leaves(s: GameState, d: Mapping[str, Any]) -> None:
    assert s.force is not None
    s.force.kings.remove(d["king"])


@reducer("embarked")
def _embark(s: GameState, d: Mapping[str, Any]) -> None:
    f = s.force
    assert f is not None
    if d.get("king"):
        f.cargo_kings.append(d["king"])
        s.kings[d["king"]] = f.area
        return
    key = _key(d)
    if _merc(key) and _had_fought(s.units.get(d["source"], {}).get(key, 0), _fought_in(s, d["source"], key), 1):
        _shift(s.fought, d["source"], key, -1)
        f.cargo_fought[key] = f.cargo_fought.get(key, 0) + 1
    _add(s.units, d["source"], key, -1)
    f.cargo[key] = f.cargo.get(key, 0) + 1
    refresh_control(s, (d["source"],))


@reducer("debarked")
def _debark(s: GameState, d: Mapping[str, Any]) -> None:
    f = s.force
    assert f is not None
    if d.get("king"):
        f.cargo_kings.remove(d["king"])
        s.kings[d["king"]] = d["to"]
        return
    key = _key(d)
    if _merc(key) and _had_fought(f.cargo[key], f.cargo_fought.get(key, 0), 1):
        f.cargo_fought[key] -= 1
        _shift(s.fought, d["to"], key, 1)
    f.cargo[key] -= 1
    if not f.cargo[key]:
        del f.cargo[key]
    _add(s.units, d["to"], key, 1)
    if d.get("done", True):
        _add(s.done, d["to"], key, 1)
    refresh_control(s, (d["to"],))


@reducer("cargo-lost")
def _cargo_lost(s: GameState, d: Mapping[str, Any]) -> None:
    f = s.force
    assert f is not None
    key = _key(d)
    f.cargo[key] -= 1
    if f.cargo_fought.get(key, 0) > f.cargo[key]:
        f.cargo_fought[key] = f.cargo[key]
    if not f.cargo[key]:
        del f.cargo[key]


@reducer("force-ends")
def _force_ends(s: GameState, d: Mapping[str, Any]) -> None:
    f = s.force
    assert f is not None
    for key, n in f.units.items():
        _add(s.done, f.area, key, n)
    s.force = None


# -- status, treasury, Kings, markers ----------------------------------------------------------
@reducer("status")
def _status(s: GameState, d: Mapping[str, Any]) -> None:
    s.status[d["power"]] = d["status"]
    refresh_control(s)


@reducer("must-leave")
def _must_leave(s: GameState, d: Mapping[str, Any]) -> None:
    """7.1.3: the sides whose units must leave a reverted neutral's home area (none: the entry goes)."""
    if d["sides"]:
        s.must_leave[d["area"]] = list(d["sides"])
    else:
        s.must_leave.pop(d["area"], None)


@reducer("area-ceded")
def _ceded(s: GameState, d: Mapping[str, Any]) -> None:
    s.owner[d["area"]] = d["to"]
    refresh_control(s, (d["area"],))


@reducer("treasury")
def _treasury(s: GameState, d: Mapping[str, Any]) -> None:
    s.tp[d["side"]] = int(d["tp"])


@reducer("king-placed")
def _king_placed(s: GameState, d: Mapping[str, Any]) -> None:
    pool = s.king_pools.get(d["power"], [])
    if d["king"] in pool:
        pool.remove(d["king"])
    s.kings[d["king"]] = d["area"]
    s.king_due[d["power"]] = False


@reducer("king-moved")
def _king_moved(s: GameState, d: Mapping[str, Any]) -> None:
    s.kings[d["king"]] = d["to"]


def _back_to_pool(s: GameState, power: str, king: str) -> None:
    """8.1: a dead King goes back to his faction's pool, unless the house rule keeps him dead."""
    if not s.options.get("dead_kings_stay_dead"):
        s.king_pools.setdefault(power, []).append(king)


@reducer("king-died")
def _king_died(s: GameState, d: Mapping[str, Any]) -> None:
    """8.1: the King leaves the map for his faction's King pool (not with ``dead_kings_stay_dead``); a new one is due."""
    s.kings.pop(d["king"], None)
    s.king_due[d["power"]] = True
    _back_to_pool(s, d["power"], d["king"])
    if s.force is not None:
        if d["king"] in s.force.kings:
            s.force.kings.remove(d["king"])
        if d["king"] in s.force.cargo_kings:
            s.force.cargo_kings.remove(d["king"])
    s.chronicle["kings_died"].append(FrozenDict({"turn": s.turn, "king": d["king"], "cause": d["cause"]}))


@reducer("marker-drawn")
def _drawn(s: GameState, d: Mapping[str, Any]) -> None:
    m = d["marker"]
    s.cup[m] -= 1
    if not s.cup[m]:
        del s.cup[m]
    hand = s.hands[d["side"]]
    hand[m] = hand.get(m, 0) + 1
    if m == "pope":  # 8.2: drawing the marker is holding it
        s.pope_holder = d["side"]


@reducer("marker-spent")
def _spent(s: GameState, d: Mapping[str, Any]) -> None:
    """A marker leaves a hand: to the cup, set aside until the phase ends, or in play until end of turn."""
    m = d["marker"]
    hand = s.hands[d["side"]]
    hand[m] -= 1
    if not hand[m]:
        del hand[m]
    where = {"cup": s.cup, "aside": s.aside, "in_play": s.in_play}.get(d["to"])
    if where is not None:
        where[m] = where.get(m, 0) + 1


@reducer("markers-return")
def _markers_return(s: GameState, d: Mapping[str, Any]) -> None:
    for src in d["piles"]:
        bucket = s.aside if src == "aside" else s.in_play
        for m, n in bucket.items():
            s.cup[m] = s.cup.get(m, 0) + n
        bucket.clear()


@reducer("pope")
def _pope(s: GameState, d: Mapping[str, Any]) -> None:
    """The Pope marker enters Rome (from a hand) or leaves it for the cup (12.0, 8.2)."""
    if d["side"] is None and s.pope is not None:
        s.cup["pope"] = s.cup.get("pope", 0) + 1
    s.pope = d["side"]
    if d["side"] is not None:
        s.pope_holder = d["side"]
    if d.get("died"):
        s.chronicle["popes_died"].append(FrozenDict({"turn": s.turn}))


@reducer("plague")
def _plague(s: GameState, d: Mapping[str, Any]) -> None:
    s.plague = bool(d["on"])


@reducer("crusade-fleet-due")
def _fleet_due(s: GameState, d: Mapping[str, Any]) -> None:
    s.crusade_fleet_due[d["side"]] = bool(d["due"])


@reducer("political-kinds")
def _political(s: GameState, d: Mapping[str, Any]) -> None:
    s.political[d["side"]] = list(d["left"])


@reducer("king-diplomacy-used")
def _kdu(s: GameState, d: Mapping[str, Any]) -> None:
    s.kings_used.append(d["king"])


@reducer("pope-used")
def _pope_used(s: GameState, d: Mapping[str, Any]) -> None:
    s.pope_used = True


@reducer("concession")
def _concession(s: GameState, d: Mapping[str, Any]) -> None:
    s.concession[d["side"]] = bool(d["on"])


@reducer("turn-begins")
def _turn(s: GameState, d: Mapping[str, Any]) -> None:
    s.turn = int(d["turn"])
    s.done = {}
    s.kings_used = []
    s.pope_used = False
    s.fought = {}
    s.concession = {"A": False, "B": False}


@reducer("phase-begins")
def _phase(s: GameState, d: Mapping[str, Any]) -> None:
    s.phase = d["phase"]
    s.recruited_here = {}
    s.allied_recruits = []


@reducer("allied-recruit")
def _allied(s: GameState, d: Mapping[str, Any]) -> None:
    s.allied_recruits.append(d["power"])


@reducer("setup-done")
def _setup_done(s: GameState, d: Mapping[str, Any]) -> None:
    refresh_control(s)
    s.start_ctl = dict(s.ctl)


@reducer("game-ends")
def _ends(s: GameState, d: Mapping[str, Any]) -> None:
    s.finished = True


# -- battles in the whole game: wrap combat.py's reducer so the map follows the battle -----------
@reducer("battle-opened")
def _battle_opened(s: GameState, d: Mapping[str, Any]) -> None:
    from medviz.rules.medempires.game.battles import build_battle

    s.battle = build_battle(s, d)
    s.battle_info = {"area": d["area"], "force_side": d.get("force_side"), "kings": dict(d["kings"]),
                     "players": dict(d["players"]), "stratagem": [], "kind": d["kind"],
                     "mercs": _mercs_at_opening(s, d), "mercs_fought": []}


def _mercs_at_opening(s: GameState, d: Mapping[str, Any]) -> dict[str, dict[Key, tuple[int, int]]]:
    """14.1: per side and mercenary kind, (units in the area that had fought, of them in the battle)."""
    area, f = d["area"], s.force
    out: dict[str, dict[Key, tuple[int, int]]] = {}
    for side in ("attacker", "defender"):
        for p, c, n in d[side]:
            key = (p, c)
            if not _merc(key):
                continue
            had = _fought_in(s, area, key)
            if f is not None and d.get("force_side") == side:
                inside = f.fought.get(key, 0)
            else:
                inside = _had_fought(s.units.get(area, {}).get(key, 0), had, int(n))
            out.setdefault(side, {})[key] = (had, inside)
    return out


@reducer("battle-closed")
def _battle_closed(s: GameState, d: Mapping[str, Any]) -> None:
    s.chronicle["battles"].append(freeze(d["summary"]))
    info, b, f = s.battle_info, s.battle, s.force
    for side, kinds in info.get("mercs", {}).items():
        if side not in info["mercs_fought"] or b is None:
            continue  # 14.1: no combat round with them (avoided, or raiders only): they did not fight
        for key, (had, inside) in kinds.items():
            alive = b.sides[side].units.get(key, 0)
            _shift(s.fought, info["area"], key, alive + had - inside - _fought_in(s, info["area"], key))
            _clamp_fought(s, info["area"], key)
            if f is not None and info.get("force_side") == side:
                f.fought[key] = alive
    s.battle = None
    s.battle_info = {}


def battle_change(s: GameState, name: str, d: Mapping[str, Any]) -> None:
    """Apply a combat.py change to the battle and, in a whole game, to the map."""
    assert s.battle is not None
    combat.apply_battle_change(s.battle, name, d)
    info = s.battle_info
    if name == "battle-eliminate":
        key = (d["power"], d["unit"])
        area = info["area"]
        _add(s.units, area, key, -1)
        f = s.force
        if f is not None and d["side"] == info.get("force_side"):
            f.units[key] -= 1
            if f.fought.get(key, 0) > f.units[key]:
                f.fought[key] = f.units[key]
            if not f.units[key]:
                del f.units[key]
        if _merc(key):
            _clamp_fought(s, area, key)
        refresh_control(s, (area,))
    elif name == "battle-round-begins":  # 14.1: mercenaries engaged in a combat round took part in combat
        for side in ("attacker", "defender"):
            if side not in info["mercs_fought"] and any(_merc(k) for k in s.battle.engaged(side)):
                info["mercs_fought"].append(side)
    elif name == "battle-marker-spent":
        player = info["players"][d["side"]]
        marker = MARKER_IDS[d["marker"]]
        hand = s.hands[player]
        hand[marker] -= 1
        if not hand[marker]:
            del hand[marker]
        s.cup[marker] = s.cup.get(marker, 0) + 1
    elif name == "battle-king-killed":
        king = info["kings"].get(d["side"])
        if king:
            s.kings.pop(king, None)
            s.king_due[d["power"]] = True
            _back_to_pool(s, d["power"], king)
            if s.force is not None and king in s.force.kings:
                s.force.kings.remove(king)
            s.chronicle["kings_died"].append(FrozenDict({"turn": s.turn, "king": king, "cause": "battle"}))
    elif name == "battle-result":
        if d["result"] == "DV+S":
            info["stratagem"].append(info["players"][d["roller"]])
    elif name == "battle-ops-spent":
        if s.force is not None and info.get("force_side") == "attacker":
            s.force.ops -= int(d["ops"]) * (2 if s.plague else 1)


def apply_game_change(state: GameState, event: ChangeEvent) -> None:
    """The reducer of the whole-game scenarios."""
    GAME_REDUCERS[event.change](state, event.data)


def land_or_sea(state: GameState, area: str) -> str:
    """``land`` or ``sea``."""
    return state.map.areas[area].kind
