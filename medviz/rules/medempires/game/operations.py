"""Operations Phases (10.0-10.3, 11.1-11.4): forces, OPs, movement, invasion, interception, combat,
naval movement with the 11.1 restriction, fleet transport, amphibious landings and coastal raids.

A force's action is a chain of small tasks (one decision each), so a battle (combat.py) or an
interception can be scheduled between two steps and the force goes on with its survivors.
"""

from __future__ import annotations

from typing import Any

from medviz.engine.game import Context, Task
from medviz.rules.medempires.choices import Decision
from medviz.rules.medempires.game.options import Action, ForcePick, OnlyPower, Place, shared
from medviz.rules.medempires.game.battles import best_king, bury_lonely_kings, check_pope, open_battle
from medviz.rules.medempires.game.state import (
    LAND_CODES,
    PLAYER_POWERS,
    Force,
    GameState,
    Key,
    cost,
    friendly_port_seas,
    other_side,
)
from medviz.rules.medempires.game.turn import begin, bury_kings_alone, gt


def task_operations(state: GameState, ctx: Context, side: str) -> None:
    """A player's Operations Phase: activate forces one at a time (10.0)."""
    begin(state, ctx, f"operations-{side}")
    ctx.change("ops-phase-begins", automatic=True, side=side)
    for area in sorted(a for a, sides in state.must_leave.items() if side in sides):
        leave_home_area(state, ctx, side, area)
    ctx.schedule(Task.of("game.activate", side=side, n=1))


def leave_destinations(state: GameState, side: str, area: str) -> list[str]:
    """Where units leaving a reverted neutral's home area may go: adjacent land areas in the side's total control."""
    m = state.map.areas
    return sorted(b for b in m[area].neighbours if m[b].kind == "land" and state.ctl.get(b) == side)


def leave_home_area(state: GameState, ctx: Context, side: str, area: str) -> None:
    """7.1.3: the side's land units (and Kings) leave the neutral's home area at the start of its phase.

    Ruling: they move free of OPs to an adjacent area in their side's total control and have then
    acted this phase; with no such area they are eliminated (back to the pool). Kings follow.
    """
    prefix = f"{gt(state)}/ops-{side}/leave/{area}"
    dests = leave_destinations(state, side, area)
    went: list[str] = []
    for (p, c), n in sorted(state.units.get(area, {}).items()):
        if n <= 0 or c == "F" or state.side_of(p) != side:
            continue
        if not dests:
            ctx.change("unit-removed", actor=side, area=area, power=p, unit=c, n=n, reason="7.1.3 nowhere to go")
            continue
        to = ctx.decide(f"{prefix}/{p}-{c}", side, [Place(a) for a in dests],
                        prompt=f"7.1.3: move your units out of {state.map.areas[area].name}", kind=Decision.LEAVE).area
        ctx.change("unit-moved", actor=side, power=p, unit=c, n=n, source=area, to=to, done=True, why="7.1.3")
        went.append(to)
    data = state.data
    for k, at in sorted(state.kings.items()):
        if at == area and PLAYER_POWERS[data.kings[k].power] == side and went:
            to = went[0] if len(set(went)) == 1 else ctx.decide(
                f"{prefix}/king-{k}", side, [Place(a) for a in sorted(set(went))],
                prompt="7.1.3: where does the King go?", kind=Decision.LEAVE).area
            ctx.change("king-moved", actor=side, king=k, to=to)
    left = [s for s in state.must_leave.get(area, []) if s != side]
    ctx.change("must-leave", actor=side, area=area, sides=left)
    bury_kings_alone(state, ctx)
    check_pope(state, ctx)


def force_options(state: GameState, side: str) -> list[ForcePick]:
    """All of a power's units in an area, one unit ``CODE``, or ``pick`` (named kind by kind), for every
    unit not yet activated (10.0)."""
    m = state.map.areas
    sides = state.sides()
    available = state.available
    found: dict[str, list[ForcePick]] = {}  # area -> its picks; each area alone, in order of area at the end
    for area, here in state.units.items():
        per_power: dict[str, dict[str, int]] | None = None
        land = m[area].kind == "land"
        for key in here:
            p, c = key
            if land != (c != "F") or sides.get(p) != side:
                continue
            avail = available(area, key)
            if avail > 0:
                if per_power is None:
                    per_power = {}
                per_power.setdefault(p, {})[c] = avail
        if per_power is None:
            continue
        out = found[area] = []
        for p in sorted(per_power):
            kinds = per_power[p]
            out.append(shared(ForcePick, area, p, "all"))
            if len(kinds) > 1 or sum(kinds.values()) > 1:
                out += [shared(ForcePick, area, p, c) for c in sorted(kinds)]
                out.append(shared(ForcePick, area, p, "pick"))  # 10.0: any number of the power's units, named one kind at a time
    return [pick for area in sorted(found) for pick in found[area]]


def pick_units(state: GameState, ctx: Context, rid: str, side: str, available: dict[Key, int], rule: str, area: str) -> dict[Key, int]:
    """Ask how many of each kind in ``area`` join (one decision per kind, ``rid/units/POWER-CODE``); at least one."""
    from medviz.rules.medempires.game.describe import unit_name

    units: dict[Key, int] = {}
    keys = sorted(k for k, n in available.items() if n > 0)
    for i, key in enumerate(keys):
        lo = 1 if i == len(keys) - 1 and not units else 0
        k = ctx.decide(f"{rid}/units/{key[0]}-{key[1]}", side, list(range(lo, available[key] + 1)),
                       prompt=f"How many {state.data.powers[key[0]].name} {unit_name(key[1], 2)} "
                              f"in {state.map.areas[area].name} go? ({rule})", kind=Decision.FORCE_UNITS)
        if k:
            units[key] = int(k)
    return units


def task_activate(state: GameState, ctx: Context, side: str, n: int) -> None:
    """Pick the next force, or end the phase."""
    opts = force_options(state, side)
    if not opts:
        return
    prefix = f"{gt(state)}/ops-{side}/force-{n}"
    choice = ctx.decide(prefix, side, ["end phase", *opts], prompt="Activate a force (10.0)", kind=Decision.FORCE)
    if choice == "end phase":
        return
    area, power, what = choice.area, choice.power, choice.what
    units: dict[Key, int] = {}
    for (p, c), _ in sorted(state.units[area].items()):
        if p == power and (what in ("all", "pick") or c == what):
            avail = state.available(area, (p, c))
            if avail > 0:
                units[(p, c)] = avail if what in ("all", "pick") else 1
    if what == "pick":
        units = pick_units(state, ctx, prefix, side, units, "10.0", area)
    kind = state.map.areas[area].kind
    kings: list[str] = []
    if kind == "land":
        # A King joins a force of his own power (10.0, ruling); one whose last friendly units march off
        # in another power's force goes with them rather than stay alone (8.1: Kings die only in combat
        # or of old age).
        left = sum(v for key, v in state.side_units(area, side).items()) - sum(units.values())
        mine = sorted(k for k, a in state.kings.items() if a == area and (
            state.data.kings[k].power == power or (left <= 0 and PLAYER_POWERS[state.data.kings[k].power] == side)))
        for k in mine:
            opts_k = ["with the King"] if left <= 0 else ["without the King", "with the King"]
            if ctx.decide(f"{prefix}/king-{k}", side, opts_k, prompt="Does the King join the force?",
                          kind=Decision.KING_JOINS) == "with the King":
                kings.append(k)
    restricted = kind == "sea" and area not in friendly_port_seas(state, side)
    form_force(state, ctx, prefix, side, power, kind, area, units, kings, restricted)
    ctx.schedule(Task.of("game.force-step", side=side, n=n, k=1), Task.of("game.activate", side=side, n=n + 1))


def form_force(state: GameState, ctx: Context, prefix: str, side: str, power: str, kind: str, area: str,
               units: dict[Key, int], kings: list[str], restricted: bool, landing_parent: str | None = None) -> None:
    """Record the force and roll its OPs: 2d6 + King's military value + up to two Military Advantage, max 15."""
    ctx.change("force-formed", actor=side, id=prefix, side=side, power=power, kind=kind, area=area,
               units=[[p, c, v] for (p, c), v in sorted(units.items())], kings=kings, restricted=restricted,
               landing_parent=landing_parent)
    die = ctx.roll(f"{prefix}/ops", "2d6", actor=side, purpose="Operation Points (10.0)")
    king = best_king(state, kings)
    total = die + (state.data.kings[king].military if king else 0)
    ma = state.hands[side].get("military_advantage", 0)
    limit = state.data.operations.thresholds["ops_max_military_advantage"]
    if ma:
        spend = ctx.decide(f"{prefix}/ops-markers", side, list(range(min(ma, limit) + 1)),
                           prompt="Military Advantage markers to add to the OPs (+1 each)", kind=Decision.OPS_MARKERS)
        for _ in range(int(spend)):
            ctx.change("marker-spent", actor=side, side=side, marker="military_advantage", to="cup", use="OPs")
        total += int(spend)
    ops = min(total, state.data.operations.thresholds["ops_cap"])
    ctx.change("force-ops", actor=side, ops=ops, roll=die, cap=total > ops)


# --------------------------------------------------------------------------------------------
# A force's steps
# --------------------------------------------------------------------------------------------
def _enemy_land(state: GameState, area: str, side: str) -> dict[Key, int]:
    return {k: n for k, n in state.side_units(area, other_side(side)).items() if k[1] != "F"}


def _enemy_fleets(state: GameState, area: str, side: str) -> dict[Key, int]:
    return {k: n for k, n in state.side_units(area, other_side(side)).items() if k[1] == "F"}


_END, _ATTACK = Action("end"), Action("attack")
#: A move to each neighbour, in order, by the neighbours (options never change, so steps share them).
_MOVES: dict[frozenset[str], list[Action]] = {}


def _moves_to(neighbours: frozenset[str]) -> list[Action]:
    """``Action("move", a)`` for each of ``neighbours``, sorted."""
    moves = _MOVES.get(neighbours)
    if moves is None:
        if len(_MOVES) >= 4096:
            _MOVES.clear()
        moves = _MOVES[neighbours] = [Action("move", a) for a in sorted(neighbours)]
    return moves


def step_options(state: GameState, f: Force) -> list[Action]:
    """Everything the force may do next (10.1-10.3, 11.1-11.4)."""
    m = state.map.areas
    side, foe = f.side, other_side(f.side)
    out: list[Action] = []
    end = _END
    here = m[f.area]
    if f.kind == "land":
        leave = cost(state, "ground_move") + (cost(state, "leave_enemy_area") if state.has_side_units(f.area, foe)
                                               and _enemy_land(state, f.area, side) else 0)
        if f.ops >= leave:
            out += _moves_to(here.neighbours)
        if _enemy_land(state, f.area, side) and f.ops >= cost(state, "combat"):
            out.append(_ATTACK)
        if f.area != f.start:
            for (p, c), _ in sorted(state.units.get(f.area, {}).items()):
                if p == f.power and c != "F" and state.available(f.area, (p, c)) > 0:
                    out.append(Action("pickup", unit=c))
        if f.count() > 1:
            out += [shared(Action, "drop", "", "", c) for (_, c) in sorted(f.units)]
        return [end, *out]
    # a fleet force
    if f.ops >= cost(state, "naval_move"):
        out += _moves_to(here.neighbours)
    if f.restricted:
        return [end, *out] if not f.cargo else out or [end]
    if _enemy_fleets(state, f.area, side) and not f.cargo and not f.cargo_kings and f.ops >= cost(state, "combat"):
        out.append(_ATTACK)
    if f.area != f.start:  # 10.1: a force picks up units that have not acted, outside its initial area
        if state.available(f.area, (f.power, "F")) > 0:
            out.append(Action("pickup", unit="F"))
    if f.count() > 1 and 2 * (f.count() - 1) >= sum(f.cargo.values()):  # 11.2: room for the cargo aboard
        out.append(Action("drop", unit="F"))
    room = 2 * f.count() - sum(f.cargo.values())
    debarks = []
    shores = king_shores(state, f) if f.cargo_kings else ()  # 11.2: where the Kings aboard may go ashore
    kings_ashore: dict[str, list[str]] = {}  # the Kings on this sea's coasts, by area (one look at every King)
    for kk, a in state.kings.items():
        if a in here.coasts:
            kings_ashore.setdefault(a, []).append(kk)
    data = state.data
    for land in sorted(here.coasts):
        holder = state.ctl.get(land)
        if holder == foe:
            if f.cargo and len({p for p, _ in f.cargo}) == 1 and f.ops >= cost(state, "amphibious_landing"):
                out.append(Action("land", land))
            if raids_allowed(state) and f.power == "aragon" and f.cargo.get(("aragon", "M")) \
                    and f.ops >= cost(state, "coastal_raid"):
                out.append(Action("raid", land))
            continue
        if room > 0:
            for (p, code), _ in sorted(state.units.get(land, {}).items()):
                if code in LAND_CODES and state.side_of(p) == side and state.available(land, (p, code)) > 0:
                    out.append(shared(Action, "embark", land, p, code))
        for k in sorted(kk for kk in kings_ashore.get(land, ()) if PLAYER_POWERS[data.kings[kk].power] == side):
            out.append(Action("embark-king", land, king=k))
        for (p, code) in sorted(f.cargo):
            debarks.append(shared(Action, "debark", land, p, code))
        if land in shores:
            out += [Action("debark-king", land, king=k) for k in sorted(f.cargo_kings)]
    out += debarks
    if not f.cargo:  # 11.2: Kings are no land units; a fleet carrying only Kings may end its action
        return [end, *out]
    if not debarks and not any(o.verb == "land" for o in out):
        # Ruling (11.2): cargo that can go ashore nowhere and cannot move on is lost with the action.
        return [end, *out] if not any(o.verb == "move" for o in out) else out
    return out


def king_shores(state: GameState, f: Force) -> list[str]:
    """Coasts of the fleet's sea where a carried King may go ashore (11.2; ruling: never alone, 8.1).

    The area must not be under enemy total control (11.2) and must hold land units of his side.
    """
    m = state.map.areas
    foe = other_side(f.side)
    return sorted(a for a in m[f.area].coasts if state.ctl.get(a) != foe
                  and any(c != "F" for (_, c) in state.side_units(a, f.side)))


def put_kings_ashore(state: GameState, ctx: Context, f: Force, prefix: str) -> None:
    """A fleet ending its action sets its Kings ashore (11.2, 8.1: no King is lost at sea).

    Ruling: each King goes to a coast of the fleet's sea holding his side's land units, his player
    choosing; with none, he rejoins his own power's units in the nearest area his side totally
    controls, as a King left alone does (8.1 ruling); with none at all he leaves for the pool.
    """
    from medviz.rules.medempires.game.state import land_distances
    from medviz.rules.medempires.game.turn import king_refuges

    m = state.map.areas
    for king in list(f.cargo_kings):
        power = state.data.kings[king].power
        shores = king_shores(state, f)
        if not shores:
            coasts = sorted(m[f.area].coasts)
            refuges = king_refuges(state, power, coasts[0]) if coasts else king_refuges(state, power, f.start)
            if coasts:
                near = {a: min(land_distances(state.map, c).get(a, 99) for c in coasts) for a in refuges}
                refuges = sorted(refuges, key=lambda a: (near[a], a))
            shores = refuges
        if not shores:
            ctx.change("king-died", actor=f.side, king=king, power=power, cause="no friendly units left")
            continue
        to = ctx.decide(f"{prefix}/ashore/{king}", f.side, [Place(a) for a in shores],
                        prompt=f"The fleet's action ends: where does {state.data.kings[king].name} go ashore? (11.2)",
                        kind=Decision.KING_ASHORE).area
        ctx.change("debarked", actor=f.side, king=king, to=to)


def raids_allowed(state: GameState) -> bool:
    """11.4 coastal raids; the reading switch ties them to optional rule 14.1."""
    if state.options.get("coastal_raids_need_mercenaries_rule"):
        return bool(state.options.get("mercenaries"))
    return True


def task_force_step(state: GameState, ctx: Context, side: str, n: int, k: int, prefix: str | None = None) -> None:
    """One step of the active force: a decision and its consequences."""
    f = state.force
    if f is None:
        return
    prefix = f.id
    if f.count() == 0:
        end_force(state, ctx, f, prefix)
        return
    opts = step_options(state, f)
    rid = f"{prefix}/action-{k}"
    choice: Action = ctx.decide(rid, side, opts, kind=Decision.ACTION,
                                prompt=f"Force in {state.map.areas[f.area].name} with {f.ops} OPs: next action")
    nxt = Task.of("game.force-step", side=side, n=n, k=k + 1)
    verb = choice.verb
    if verb == "end":
        end_force(state, ctx, f, prefix)
        return
    if verb == "move":
        tasks = []
        if f.kind == "land" and _enemy_land(state, f.area, side):
            tasks.append(Task.of("game.intercept", rid=f"{rid}/intercept-leave", area=f.area, mode="leave", target="force"))
        elif f.kind == "sea" and _enemy_fleets(state, f.area, side):
            tasks.append(Task.of("game.intercept", rid=f"{rid}/intercept-leave", area=f.area, mode="leave", target="force"))
        tasks.append(Task.of("game.move", rid=rid, to=choice.area))
        tasks.append(Task.of("game.intercept", rid=f"{rid}/intercept-enter", area=choice.area, mode="enter",
                             target="force"))
        ctx.schedule(*tasks, nxt)
        return
    if verb == "attack":
        ctx.change("force-spends", actor=side, ops=cost(state, "combat"), why="combat")
        foe = other_side(side)
        if f.kind == "land":
            defenders = _enemy_land(state, f.area, side)
            dkings = [kk for kk, a in state.kings.items() if a == f.area and PLAYER_POWERS[state.data.kings[kk].power] == foe]
        else:
            defenders, dkings = _enemy_fleets(state, f.area, side), []
        open_battle(state, ctx, f"{rid}/battle", f.area, side, f.units, defenders, list(f.kings), dkings,
                    "attacker", False, ops=f.ops // (2 if state.plague else 1), then=(nxt,))
        return
    if verb == "pickup":
        ctx.change("force-picks-up", actor=side, power=f.power, unit=choice.unit)
        if f.kind == "land":  # at sea a King is cargo already (11.2), never part of the fleet force
            _king_follows(state, ctx, f.area, side, into_force=True)
    elif verb == "drop":
        ctx.change("force-drops", actor=side, power=f.power, unit=choice.unit)
    elif verb == "embark":
        land = choice.area
        ctx.change("embarked", actor=side, source=land, power=choice.power, unit=choice.unit)
        _king_follows(state, ctx, land, side, into_force=False)
    elif verb == "embark-king":
        ctx.change("embarked", actor=side, king=choice.king, source=choice.area)
    elif verb == "debark-king":
        ctx.change("debarked", actor=side, king=choice.king, to=choice.area)
    elif verb == "debark":
        land, p, code = choice.area, choice.power, choice.unit
        before = state.ctl.get(land)
        ctx.change("debarked", actor=side, to=land, power=p, unit=code)
        if not f.cargo:
            for king in list(f.cargo_kings):
                ctx.change("debarked", actor=side, king=king, to=land)
        invade(state, ctx, side, land, before)
        check_pope(state, ctx)
    elif verb == "land":
        ctx.schedule(Task.of("game.landing", rid=rid, land=choice.area, n=n))
        return
    elif verb == "raid":
        ctx.schedule(Task.of("game.raid", rid=rid, land=choice.area), nxt)
        return
    ctx.schedule(nxt)


def _king_follows(state: GameState, ctx: Context, area: str, side: str, into_force: bool) -> None:
    """Ruling: a King never stays alone; he goes with the last friendly land unit that leaves his area."""
    if state.has_side_units(area, side) and not (into_force and state.force and state.force.area == area
                                                 and _only_force_left(state, area, side)):
        return
    for k in sorted(kk for kk, a in state.kings.items() if a == area and PLAYER_POWERS[state.data.kings[kk].power] == side):
        f = state.force
        assert f is not None
        if into_force:
            if k not in f.kings:
                ctx.change("king-joins", actor=side, king=k)
        else:
            ctx.change("embarked", actor=side, king=k, source=area)


def _only_force_left(state: GameState, area: str, side: str) -> bool:
    f = state.force
    assert f is not None
    mine = sum(n for key, n in state.side_units(area, side).items() if key[1] != "F")
    return mine <= f.count()


def task_move(state: GameState, ctx: Context, rid: str, to: str) -> None:
    """Pay and move (10.1, 11.1); entering a neutral's land area is an invasion."""
    f = state.force
    if f is None or f.count() == 0:
        return
    side = f.side
    if f.kind == "land":
        c = cost(state, "ground_move") + (cost(state, "leave_enemy_area") if _enemy_land(state, f.area, side) else 0)
    else:
        c = cost(state, "naval_move")
    if c > f.ops:
        ctx.report("move-cancelled", actor=side, reason="not enough OPs left after the interception")
        return
    ctx.change("force-spends", actor=side, ops=c, why=f"move to {to}")
    lifts = f.kind == "sea" and f.restricted and to in friendly_port_seas(state, side)
    before = state.ctl.get(to)
    ctx.change("force-moved", actor=side, to=to, lifts_restriction=lifts)
    if f.kind == "land":
        invade(state, ctx, side, to, before)
    bury_kings_alone(state, ctx)
    check_pope(state, ctx)


def invade(state: GameState, ctx: Context, side: str, area: str, before: str | None) -> None:
    """10.1: entering a neutral power's land area (or the other side's vassal's) makes it the other side's ally.

    ``before`` is the area's control just before the force came in.
    """
    foe = other_side(side)
    powers = {p for (p, c), n in state.units.get(area, {}).items() if n > 0}
    c = before
    if c is not None and c not in ("A", "B", "partial"):
        powers.add(c)
    for p in sorted(powers):
        st = state.status.get(p, "player")
        if st == "neutral" or st == f"vassal:{foe}":
            ctx.report("invasion", actor=side, power=p, area=area)
            ctx.change("status", actor=side, power=p, status=f"ally:{foe}", why="invasion (10.1)")


def task_intercept(state: GameState, ctx: Context, rid: str, area: str, mode: str, target: str) -> None:
    """10.2: the non-phasing player may intercept a force entering or leaving an area it occupies."""
    f = state.force
    if f is None:
        return
    side = f.side
    foe = other_side(side)
    if target == "force":
        if f.count() == 0 or f.area != area:
            return
        sea = f.kind == "sea"
        defenders = dict(f.units)
        dkings = list(f.kings) if not sea else []
        force_side: str | None = "defender"
    else:  # a coastal raid: the mercenary ashore
        sea = False
        if not state.units.get(area, {}).get(("aragon", "M")):
            return
        defenders = {("aragon", "M"): 1}
        dkings, force_side = [], None
    mine = {k: n for k, n in state.side_units(area, foe).items() if (k[1] == "F") == sea}
    if not mine:
        return
    powers = sorted({p for p, _ in mine})
    opts: list[Any] = ["no", "all"] + ([OnlyPower(p) for p in powers] if len(powers) > 1 else []) + (
        ["pick"] if sum(mine.values()) > 1 else [])
    pick = ctx.decide(rid, foe, opts, kind=Decision.INTERCEPT if target == "force" else Decision.INTERCEPT_RAID,
                      prompt=f"Intercept the force {'leaving' if mode == 'leave' else 'entering'} {state.map.areas[area].name}? (10.2)")
    if pick == "no":
        return
    if pick == "pick":  # 10.2: any number of the units there, of any powers
        units = pick_units(state, ctx, rid, foe, mine, "10.2", area)
    else:
        units = {k: n for k, n in mine.items() if k[0] == pick.power} if isinstance(pick, OnlyPower) else mine
    drm = (1 if mode == "leave" else 0) - (1 if len({p for p, _ in units}) > 1 else 0)
    if all(c == "R" for _, c in defenders):
        drm -= 1
    for marker in ("military_advantage", "ambush"):
        if state.hands[foe].get(marker):
            if ctx.decide(f"{rid}/{marker}", foe, ["no", "yes"], prompt=f"Expend {marker} for +1?",
                          kind=Decision.INTERCEPT_AMBUSH if marker == "ambush" else Decision.INTERCEPT_ADVANTAGE) == "yes":
                ctx.change("marker-spent", actor=foe, side=foe, marker=marker, to="cup", use="interception")
                drm += 1
    if state.hands[side].get("military_advantage"):
        if ctx.decide(f"{rid}/against", side, ["no", "yes"], prompt="Expend military advantage for -1?",
                      kind=Decision.INTERCEPT_AGAINST) == "yes":
            ctx.change("marker-spent", actor=side, side=side, marker="military_advantage", to="cup", use="interception")
            drm -= 1
    need = state.data.operations.thresholds["interception_success"]
    die = ctx.roll(f"{rid}/roll", actor=foe, purpose="interception (10.2)",
                   effects={v: ("intercepted" if v + drm >= need else "slips past") for v in range(1, 7)})
    ctx.report("interception", actor=foe, roll=die, drm=drm, result="success" if die + drm >= need else "failure")
    if die + drm < need:
        return
    akings = [] if sea else [kk for kk, a in state.kings.items() if a == area and PLAYER_POWERS[state.data.kings[kk].power] == foe]
    open_battle(state, ctx, f"{rid}/battle", area, foe, units, defenders, akings, dkings, force_side, True)


def end_force(state: GameState, ctx: Context, f: Force, prefix: str) -> None:
    """The force has finished (10.0); land units still aboard are lost (ruling, 11.2), Kings go ashore."""
    for key, v in sorted(f.cargo.items()):
        for _ in range(v):
            ctx.change("cargo-lost", actor=f.side, power=key[0], unit=key[1])
    put_kings_ashore(state, ctx, f, prefix)
    ctx.change("force-ends", actor=f.side)
    if state.map.areas[f.area].kind == "land":
        bury_lonely_kings(state, ctx, f.area)


def task_landing(state: GameState, ctx: Context, rid: str, land: str, n: int) -> None:
    """11.2: an amphibious landing (1 OP); the fleet's action ends; the landed units act at once."""
    f = state.force
    assert f is not None
    side = f.side
    ctx.change("force-spends", actor=side, ops=cost(state, "amphibious_landing"), why="amphibious landing")
    landed = dict(f.cargo)
    kings = list(f.cargo_kings)
    for (p, c), v in sorted(landed.items()):
        for _ in range(v):
            ctx.change("debarked", actor=side, to=land, power=p, unit=c, done=False)
    for king in kings:
        ctx.change("debarked", actor=side, king=king, to=land)
    ctx.change("force-ends", actor=side)
    check_pope(state, ctx)  # 12.0: a landing in Rome ends the Pope's side's total control at once
    power = next(iter(landed))[0]
    form_force(state, ctx, f"{f.id}/landing", side, power, "land", land, landed, kings, False, landing_parent=f.id)
    ctx.schedule(Task.of("game.intercept", rid=f"{rid}/intercept-landing", area=land, mode="enter", target="force"),
                 Task.of("game.force-step", side=side, n=n, k=1))


def task_raid(state: GameState, ctx: Context, rid: str, land: str) -> None:
    """11.4: an Aragonese fleet lands a mercenary on an enemy coast (1 OP): 4-6 earns 1 TP."""
    f = state.force
    assert f is not None
    ctx.change("force-spends", actor="B", ops=cost(state, "coastal_raid"), why="coastal raid")
    ctx.change("debarked", actor="B", to=land, power="aragon", unit="M", done=False)
    check_pope(state, ctx)
    ctx.schedule(Task.of("game.intercept", rid=f"{rid}/intercept-raid", area=land, mode="enter", target="raid"),
                 Task.of("game.raid-roll", rid=rid, land=land))


def task_raid_roll(state: GameState, ctx: Context, rid: str, land: str) -> None:
    """The raid's die, then the mercenary re-embarks (if it survived)."""
    f = state.force
    if not state.units.get(land, {}).get(("aragon", "M")) or f is None:
        return
    die = ctx.roll(f"{rid}/raid", actor="B", purpose="coastal raid (11.4)",
                   effects={v: ("+1 TP" if v >= 4 else "nothing") for v in range(1, 7)})
    if die >= 4:
        # 6.1's cap holds at all times: the game data's, so an override of the cap reaches raids too.
        tp = min(state.tp["B"] + 1, state.data.operations.treasury["tp_cap"])
        ctx.change("treasury", actor="B", side="B", tp=tp, why="coastal raid (11.4)")
    if f.count() > 0:
        ctx.change("embarked", actor="B", source=land, power="aragon", unit="M")
    else:
        ctx.change("units-done", actor="B", area=land, power="aragon", unit="M")


__all__ = ["cost", "force_options", "step_options", "task_activate", "task_force_step", "task_intercept",
           "task_landing", "task_move", "task_operations", "task_raid", "task_raid_roll"]
