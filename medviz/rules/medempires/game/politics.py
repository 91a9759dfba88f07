"""The Joint Political Phase (7.0-7.3): three rounds, thwarting, the Diplomacy Table and its effects."""

from __future__ import annotations

from typing import Any

from medviz.engine.game import Context, Task
from medviz.rules.medempires.choices import Decision
from medviz.rules.medempires.game.options import Attempt, Cede, Place
from medviz.rules.medempires.game.battles import check_pope
from medviz.rules.medempires.game.state import (
    PLAYER_POWERS,
    SIDES,
    GameState,
    other_side,
)
from medviz.rules.medempires.game.turn import begin, bury_kings_alone, gt

KINDS = ("diplomacy", "vassalage", "rebellion")
COLUMN = {"diplomacy": "diplomacy", "vassalage": "vassalage", "rebellion": "rebellion"}
SUCCESS = {"diplomacy": "alliance", "vassalage": "vassalage", "rebellion": "rebellion"}
GROUND = ("FA", "M", "R", "L")


def task_politics(state: GameState, ctx: Context) -> None:
    """Three rounds; in each Player A then Player B may make one attempt (7.0)."""
    begin(state, ctx, "politics")
    for side in SIDES:
        ctx.change("political-kinds", automatic=True, side=side, left=list(KINDS))
    tasks = [Task.of("game.political-turn", round=r, side=s) for r in (1, 2, 3) for s in SIDES]
    ctx.schedule(*tasks)


def rebellion_targets(state: GameState, side: str) -> list[tuple[str, str]]:
    """7.3: powers that began neutral, a home area totally held by the other side, no ground unit on the map."""
    data = state.data
    out = []
    foe = other_side(side)
    for pw in sorted(data.powers.values(), key=lambda p: p.id):
        held = [home for home in pw.home_areas if state.ctl.get(home) == foe]
        if not held or pw.status_at_start != "neutral" or state.land_units_on_map(pw.id):
            continue
        out += [(pw.id, home) for home in held]
    return out


def attempt_options(state: GameState, side: str) -> list[Attempt]:
    """Every attempt ``side`` may announce now: diplomacy or vassalage on a power, rebellion in a home area."""
    if not state.hands[side].get("diplomacy"):
        return []
    opts = []
    left = state.political[side]
    foe = other_side(side)
    for pw in sorted(state.data.powers):
        if pw in PLAYER_POWERS:
            continue  # 7.0: France, Anjou and Aragon cannot be changed by politics
        st = state.status[pw]
        if "diplomacy" in left and st in ("neutral", f"ally:{foe}", f"vassal:{foe}"):
            opts.append(Attempt("diplomacy", pw))
        if "vassalage" in left and st == "neutral":
            opts.append(Attempt("vassalage", pw))
    if "rebellion" in left:
        opts += [Attempt("rebellion", pw, home) for pw, home in rebellion_targets(state, side)]
    return opts


def concession_options(state: GameState, side: str) -> list[Cede]:
    """14.3: the areas the side totally holds next to a Castilian area (option on)."""
    if not state.options.get("territorial_concessions") or state.concession[side]:
        return []
    if state.status.get("castile") not in ("neutral", f"ally:{other_side(side)}"):
        return []
    m = state.map.areas
    castilian = {a for a, o in state.owner.items() if o == "castile"} | set(state.data.powers["castile"].home_areas)
    return [Cede(a) for a, c in sorted(state.ctl.items())
            if c == side and a not in castilian and m[a].neighbours & castilian]


def cede(state: GameState, ctx: Context, side: str, area: str, rid: str) -> None:
    """14.3 (ruling): the side's units leave the area for adjacent friendly areas (or are lost), Castile takes it,
    and the side's diplomacy attempts with Castile get +3 this turn. Ceding is the round's political action."""
    m = state.map.areas
    i = 0
    for (p, c), n in sorted(state.side_units(area, side).items()):
        for _ in range(n):
            i += 1
            dests = sorted(b for b in m[area].neighbours if state.ctl.get(b) == side)
            if dests:
                dst = ctx.decide(f"{rid}/cede/unit-{i}", side, [Place(a) for a in dests], kind=Decision.CEDE_DESTINATION,
                                 prompt="Where do the units leaving the ceded area go?").area
                ctx.change("unit-moved", actor=side, source=area, to=dst, power=p, unit=c, why="ceded (14.3)")
            else:
                ctx.change("unit-removed", actor=side, area=area, power=p, unit=c, reason="ceded (14.3)")
    for k, a in sorted(state.kings.items()):
        if a == area and PLAYER_POWERS[state.data.kings[k].power] == side:
            dests = sorted(b for b in m[area].neighbours if state.has_side_units(b, side))
            if dests:
                ctx.change("king-moved", actor=side, king=k, to=dests[0])
    ctx.change("area-ceded", actor=side, area=area, to="castile")
    ctx.change("concession", actor=side, side=side, on=True)
    bury_kings_alone(state, ctx)
    check_pope(state, ctx)


def task_political_turn(state: GameState, ctx: Context, round: int, side: str) -> None:
    """One player's turn in one round: an attempt or a pass (a pass forfeits one kind, 7.0)."""
    rid = f"{gt(state)}/politics/round-{round}/{side}"
    opts = attempt_options(state, side) + concession_options(state, side)
    choice: Any = ctx.decide(rid, side, ["pass", *opts], prompt="Political attempt (7.0)", kind=Decision.ATTEMPT) \
        if opts else "pass"
    if isinstance(choice, Cede):
        cede(state, ctx, side, choice.area, rid)
        return
    if choice == "pass":
        left = list(state.political[side])
        if left:
            lose = ctx.decide(f"{rid}/forfeit", side, left, prompt="A pass forfeits one attempt kind (7.0)",
                              kind=Decision.FORFEIT)
            left.remove(lose)
            ctx.change("political-kinds", actor=side, side=side, left=left, forfeited=lose)
        return
    kind, target = choice.kind, choice.target
    ctx.change("marker-spent", actor=side, side=side, marker="diplomacy", to="cup", use=kind)
    left = [k for k in state.political[side] if k != kind]
    ctx.change("political-kinds", actor=side, side=side, left=left, attempted=kind)
    foe = other_side(side)
    tp_spent = False  # 7.0 step 3c and the Diplomacy Table: one TP per attempt, thwart roll included
    if state.hands[foe].get("diplomacy"):
        thwart = ctx.decide(f"{rid}/thwart", foe, ["let it stand", "thwart"], prompt="Try to thwart? (7.0)",
                            kind=Decision.THWART)
        if thwart == "thwart":
            ctx.change("marker-spent", actor=foe, side=foe, marker="diplomacy", to="cup", use="thwart")
            rolls = {s: ctx.roll(f"{rid}/thwart/{s}", actor=s, purpose="thwart roll (7.0)") for s in (foe, side)}
            mods = {s: modifiers(state, ctx, s, f"{rid}/thwart/{s}") for s in (foe, side)}
            tp_spent = mods[side][1]
            a, t = rolls[side] + mods[side][0], rolls[foe] + mods[foe][0]
            ctx.report("thwart", actor=foe, attempt=a, thwart=t, result="thwarted" if t > a else "goes ahead")
            if t > a:
                return
    drm, _ = modifiers(state, ctx, side, f"{rid}/attempt", tp_allowed=not tp_spent)
    power = choice.power
    if kind == "diplomacy" and power == "castile" and state.concession[side]:
        drm += 3
    col = COLUMN[kind]
    table = state.data.politics
    die = ctx.roll(f"{rid}/attempt", actor=side, purpose=f"{kind} attempt on {state.data.powers[power].name} (Diplomacy Table)",
                   effects={f: table.result(col, f + drm) for f in range(1, 7)})
    result = table.result(col, die + drm)
    ctx.report("political-result", actor=side, kind=kind, target=target, roll=die, drm=drm, result=result)
    if result != SUCCESS[kind]:
        return
    apply_success(state, ctx, side, kind, choice.power, choice.home, rid)


def modifiers(state: GameState, ctx: Context, side: str, rid: str, tp_allowed: bool = True) -> tuple[int, bool]:
    """7.0 step 3: one King's diplomacy, the Pope, one TP; each King and the Pope once per turn.

    Returns the modifier and whether a TP was spent (only one TP per attempt, 7.0 step 3c).
    """
    data = state.data
    drm = 0
    kings = sorted(k for k in state.kings if PLAYER_POWERS[data.kings[k].power] == side
                   and k not in state.kings_used and data.kings[k].diplomacy > 0)
    if kings:
        k = ctx.decide(f"{rid}/king", side, ["none", *kings], prompt="Add a King's diplomacy rating?",
                       kind=Decision.ADD_KING)
        if k != "none":
            ctx.change("king-diplomacy-used", actor=side, king=k)
            drm += data.kings[k].diplomacy
    if state.pope == side and not state.pope_used:
        if ctx.decide(f"{rid}/pope", side, ["no", "yes"], prompt="Add the Pope (+1)?", kind=Decision.ADD_POPE) == "yes":
            ctx.change("pope-used", actor=side)
            drm += 1
    spent = False
    if tp_allowed and state.tp[side] >= 1:
        if ctx.decide(f"{rid}/tp", side, ["no", "yes"], prompt="Spend 1 TP for +1?", kind=Decision.ADD_TP) == "yes":
            ctx.change("treasury", actor=side, side=side, tp=state.tp[side] - 1, why="political +1")
            drm += 1
            spent = True
    return drm, spent


def remove_all_units(state: GameState, ctx: Context, side: str, power: str, fleets_only: bool = False) -> None:
    """Take every unit of ``power`` off the map (7.1.3, 7.3)."""
    for area in sorted(state.units):
        for (p, c), n in sorted(state.units[area].items()):
            if p == power and n > 0 and (c == "F" or not fleets_only):
                ctx.change("unit-removed", actor=side, area=area, power=p, unit=c, n=n, reason="politics")


def place_units(state: GameState, ctx: Context, side: str, power: str, area: str, count: int, rid: str) -> None:
    """The attempting player chooses ``count`` ground units of ``power`` (within its counter limit) for ``area``."""
    limits = state.data.counter_limits.get(power, {})
    for i in range(1, count + 1):
        codes = [c for c in GROUND if limits.get(c, 0) > state.on_map(power, c)]
        if not codes:
            break
        code = codes[0] if len(codes) == 1 else ctx.decide(f"{rid}/unit-{i}", side, codes, kind=Decision.POLITICS_UNIT,
                                                           prompt=f"Which {state.data.powers[power].name} unit?")
        ctx.change("unit-placed", actor=side, area=area, power=power, unit=code)


def apply_success(state: GameState, ctx: Context, side: str, kind: str, power: str, home: str, rid: str) -> None:
    """Carry out a successful attempt (7.1.1-7.1.3, 7.2, 7.3)."""
    foe = other_side(side)
    st = state.status[power]
    if kind == "vassalage":
        ctx.change("status", actor=side, power=power, status=f"vassal:{side}")
    elif kind == "diplomacy" and st == "neutral":
        ctx.change("status", actor=side, power=power, status=f"ally:{side}")
    elif kind == "diplomacy" and st == f"vassal:{foe}":
        ctx.change("status", actor=side, power=power, status="neutral")
    elif kind == "diplomacy" and st == f"ally:{foe}":
        remove_all_units(state, ctx, side, power)
        ctx.change("status", actor=side, power=power, status="neutral")
        die = ctx.roll(f"{rid}/revert-units", actor=side, purpose="units back face down (7.1.3), halved")
        home_area = state.data.powers[power].home_areas[0]
        place_units(state, ctx, side, power, home_area, (die + 1) // 2, f"{rid}/revert")
        occupants = sorted({s for s in (state.side_of(p) for (p, c), n in state.units.get(home_area, {}).items()
                                          if n > 0 and c != "F") if s})
        if occupants:  # 7.1.3: they must move out in the ensuing player phases (operations.leave_home_area)
            ctx.change("must-leave", actor=side, area=home_area, power=power, sides=occupants)
        bury_kings_alone(state, ctx)
    elif kind == "rebellion":
        remove_all_units(state, ctx, side, power, fleets_only=True)
        ctx.change("status", actor=side, power=power, status=f"ally:{side}")
        die = ctx.roll(f"{rid}/rebels", actor=side, purpose="rebel units (7.3)")
        place_units(state, ctx, side, power, home, die, f"{rid}/rebels")
    check_pope(state, ctx)


__all__ = ["attempt_options", "concession_options", "task_political_turn", "task_politics"]
