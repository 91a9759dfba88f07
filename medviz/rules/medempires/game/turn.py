"""The turn sequence (5.1): stratagems (9.0, 12.0), end of turn (5.2, 8.1, 8.2) and victory (4.0, 13.0).

Each phase is a checkpoint task that begins with ``ctx.begin_phase`` and a ``phase-begins``
change; politics, recruitment and operations live in their own modules.
"""

from __future__ import annotations

from typing import Any

from medviz.engine.events import DecisionEvent
from medviz.engine.game import Context, Task
from medviz.rules.medempires.choices import Decision
from medviz.rules.medempires.game.options import Place, UnitIn
from medviz.rules.medempires.game.battles import check_pope, draw_marker
from medviz.rules.medempires.game.state import (
    PLAYER_POWERS,
    SIDES,
    GameState,
    land_distances,
    other_side,
)

PHASES = ("stratagems", "politics", "recruitment", "operations-A", "operations-B", "end-of-turn")


def gt(state: GameState) -> str:
    """The id prefix of the current game turn."""
    return f"GT{state.turn}"


def begin(state: GameState, ctx: Context, phase: str) -> None:
    """Every phase begins with a phase event and a state change naming it."""
    ctx.begin_phase(phase, turn=state.turn)
    ctx.change("phase-begins", automatic=True, phase=phase)


def task_turn(state: GameState, ctx: Context, turn: int) -> None:
    """One game turn: the six phases of 5.1 in order."""
    ctx.begin_phase("game turn", turn=turn)
    ctx.change("turn-begins", automatic=True, turn=turn)
    ctx.schedule(
        Task.of("game.stratagems", checkpoint=True),
        Task.of("game.politics", checkpoint=True),
        Task.of("game.recruitment", checkpoint=True),
        Task.of("game.operations", checkpoint=True, side="A"),
        Task.of("game.operations", checkpoint=True, side="B"),
        Task.of("game.end-of-turn", checkpoint=True),
    )


# --------------------------------------------------------------------------------------------
# Joint Stratagem Markers Phase (5.1, 9.0, 12.0)
# --------------------------------------------------------------------------------------------
#: Markers that act during the Joint Stratagem Markers Phase (12.0): drawn then, they act at once.
PHASE_MARKERS = ("pope", "plague", "crusade")


def task_stratagems(state: GameState, ctx: Context) -> None:
    """A then B draw in turn until each has drawn four or the cup is empty; drawn effects at once."""
    begin(state, ctx, "stratagems")
    # Ruling: Plague, the Pope and the Crusade act only in this phase (12.0); one drawn after a
    # DV+S result waits in its drawer's hand and acts now, before the new draws.
    for marker in PHASE_MARKERS:  # the Pope first: a held Crusade then finds him in Rome
        for side in SIDES:
            for j in range(1, state.hands[side].get(marker, 0) + 1):
                resolve_drawn(state, ctx, side, marker, f"{gt(state)}/stratagems/held-{marker}-{j}/{side}")
    for i in range(1, 5):
        if not state.cup:
            break
        for side in SIDES:
            drawn = draw_marker(state, ctx, side, f"{gt(state)}/stratagems/draw-{i}/{side}",
                                "stratagem pick (9.0)")
            if drawn is None:
                break  # the cup is empty (9.0)
            resolve_drawn(state, ctx, side, drawn, f"{gt(state)}/stratagems/draw-{i}/{side}")
    if state.aside:
        ctx.change("markers-return", automatic=True, piles=["aside"])


def resolve_drawn(state: GameState, ctx: Context, side: str, marker: str, rid: str) -> None:
    """Markers that act when drawn: Plague, the Pope, the Crusade (12.0)."""
    if marker == "plague":
        ctx.change("marker-spent", actor=side, side=side, marker=marker, to="in_play")
        die = ctx.roll(f"{rid}/plague", actor=side, purpose="Plague (12.0)",
                       effects={f: ("plague: OP costs doubled" if f <= 3 else "no plague") for f in range(1, 7)})
        if die <= 3:
            ctx.change("plague", actor=side, on=True)
    elif marker == "pope":
        # Ruling: a returned Pope counts as the pick and stays out of the cup until the phase ends.
        if state.ctl.get("papal_states") == side and state.pope is None:
            ctx.change("marker-spent", actor=side, side=side, marker=marker, to="map")
            ctx.change("pope", actor=side, side=side)
        else:
            ctx.change("marker-spent", actor=side, side=side, marker=marker, to="aside")
    elif marker == "crusade":
        if state.pope is None:
            ctx.change("marker-spent", actor=side, side=side, marker=marker, to="aside")
            return
        ctx.change("marker-spent", actor=side, side=side, marker=marker, to="in_play")
        crusade(state, ctx, side, rid)


def _crusade_candidates(state: GameState, side: str, fleets: bool) -> list[UnitIn]:
    out = []
    m = state.map.areas
    for area in sorted(state.units):
        for (p, c), n in sorted(state.units[area].items()):
            if n <= 0 or state.side_of(p) != side:
                continue
            if fleets and c == "F" and m[area].kind == "sea":
                out.append(UnitIn(area, p, "F"))
            if not fleets and c in ("FA", "L", "M"):
                out.append(UnitIn(area, p, c))
    return out


def crusade(state: GameState, ctx: Context, side: str, rid: str) -> None:
    """Withdraw one fleet and two other units except raiders (12.0 Crusade; ruling: 'other' = not fleets)."""
    fleets = _crusade_candidates(state, side, True)
    if fleets:
        pick = ctx.decide(f"{rid}/crusade/fleet", side, fleets, prompt="Which fleet sails on the Crusade?",
                          kind=Decision.CRUSADE_UNIT)
        area, p, c = pick.area, pick.power, pick.code
        ctx.change("unit-removed", actor=side, area=area, power=p, unit=c, to="crusade", side=side)
    else:
        ctx.change("crusade-fleet-due", actor=side, side=side, due=True)
    for j in (1, 2):
        others = _crusade_candidates(state, side, False)
        if not others:
            break
        pick = ctx.decide(f"{rid}/crusade/unit-{j}", side, others, prompt="Which unit goes on the Crusade?",
                          kind=Decision.CRUSADE_UNIT)
        area, p, c = pick.area, pick.power, pick.code
        ctx.change("unit-removed", actor=side, area=area, power=p, unit=c, to="crusade", side=side)
    bury_kings_alone(state, ctx)
    check_pope(state, ctx)


def bury_kings_alone(state: GameState, ctx: Context) -> None:
    """A King left with no friendly land unit outside combat rejoins his own power's units (ruling, 8.1).

    8.1 kills a King only in combat or on the end-of-turn roll, and a King cannot move alone: one
    whose units marched off, mutinied (14.1), left on the Crusade or were removed by politics goes
    to an area in his side's total control held by his own power's units, as a new King is placed
    (8.1), nearest first (his player chooses). With no such area he leaves the map for the pool.
    """
    carried = set(state.force.cargo_kings) if state.force else set()
    data, m = state.data, state.map.areas
    for k, area in sorted(state.kings.items()):
        if k in carried or m[area].kind != "land":
            continue
        power = data.kings[k].power
        side = PLAYER_POWERS[power]
        if state.has_side_units(area, side):
            continue
        refuges = king_refuges(state, power, area)
        if not refuges:
            ctx.change("king-died", actor=side, king=k, power=power, cause="no friendly units left")
            continue
        rid = f"{gt(state)}/kings/{k}/rejoins"  # a King may be left alone more than once a turn: number them
        n = 1 + sum(1 for e in ctx.events if isinstance(e, DecisionEvent) and e.decision.startswith(rid))
        to = ctx.decide(f"{rid}-{n}", side, [Place(a) for a in refuges], kind=Decision.KING_REFUGE,
                        prompt=f"{data.kings[k].name} has no units left in {m[area].name}: where does he go? (8.1)").area
        ctx.change("king-moved", actor=side, king=k, to=to, why="rejoins his units (8.1 ruling)")


def king_refuges(state: GameState, power: str, start: str) -> list[str]:
    """Areas in the side's total control holding ``power``'s own land units, nearest to ``start`` first."""
    m = state.map.areas
    side = PLAYER_POWERS[power]
    dist = land_distances(state.map, start)  # moves over land; islands beyond a strait come last
    places = [a for a, c in state.ctl.items() if c == side and m[a].kind == "land"
              and any(p == power and code != "F" and n > 0 for (p, code), n in state.units.get(a, {}).items())]
    return sorted(places, key=lambda a: (dist.get(a, 99), a))


# --------------------------------------------------------------------------------------------
# Joint End of Turn Phase (5.1, 5.2, 8.1, 8.2)
# --------------------------------------------------------------------------------------------
def task_end_of_turn(state: GameState, ctx: Context) -> None:
    """Redistribution, stacking limits, Kings' and the Pope's deaths, markers back, next turn."""
    begin(state, ctx, "end-of-turn")
    from medviz.rules.medempires.game.redistribution import redistribute

    redistribute(state, ctx)
    if state.options.get("mercenaries"):
        mutiny(state, ctx)
    for k in sorted(state.kings):
        power = state.data.kings[k].power
        side = PLAYER_POWERS[power]
        die = ctx.roll(f"{gt(state)}/end/king-death/{k}", actor=side, purpose=f"death of {state.data.kings[k].name} (8.1)",
                       effects={f: ("dies" if f >= 5 else "lives") for f in range(1, 7)})
        if die >= 5:
            ctx.change("king-died", actor=side, king=k, power=power, cause="disease or natural causes")
    pope_death(state, ctx)
    back = [b for b in ("in_play",) if state.in_play]
    if back:
        ctx.change("markers-return", automatic=True, piles=back)
    if state.plague:
        ctx.change("plague", automatic=True, on=False)
    if state.turn >= state.last_turn:
        ctx.schedule(Task.of("game.victory"))
    else:
        ctx.schedule(Task.of("game.turn", checkpoint=True, turn=state.turn + 1))


def pope_death(state: GameState, ctx: Context) -> None:
    """8.2: the last side to hold the Pope marker rolls, in Rome or not; a 6 kills him (14.2 Poison: +1).

    Ruling: drawing the marker is holding it, so the roll is made every turn once the marker has
    been drawn; a Pope who dies outside Rome only enters the chronicle (a held marker goes back to
    the cup). Poison (14.2) needs a Pope in Rome.
    """
    holder = state.pope or state.pope_holder
    if holder is None:
        return
    drm = 0
    rival = other_side(holder)
    if state.pope is not None and state.options.get("poison") and state.tp[rival] >= 1:
        use = ctx.decide(f"{gt(state)}/end/poison", rival, ["no", "spend 1 TP"], prompt="Poison the Pope? (14.2)",
                         kind=Decision.POISON)
        if use == "spend 1 TP":
            ctx.change("treasury", actor=rival, side=rival, tp=state.tp[rival] - 1, why="poison (14.2)")
            drm = 1
    die = ctx.roll(f"{gt(state)}/end/pope-death", actor=holder, purpose="death of the Pope (8.2)",
                   effects={f: ("dies" if f + drm >= 6 else "lives") for f in range(1, 7)})
    if die + drm >= 6:
        for side in SIDES:  # 8.2: a held marker goes back to the cup
            for _ in range(state.hands[side].get("pope", 0)):
                ctx.change("marker-spent", actor=side, side=side, marker="pope", to="cup", use="the Pope died")
        ctx.change("pope", actor=holder, side=None, died=True)


def mutiny(state: GameState, ctx: Context) -> None:
    """14.1: every mercenary unit that took part in no combat this turn rolls; on 1-4 it mutinies (-1 TP).

    Each unit rolls for itself (``GTn/end/mutiny/AREA/POWER-j``) and the unit that rolls the
    mutiny is the one removed: its owner does not choose. Which units fought is tracked per unit
    (``GameState.fought``), so a fallen mercenary, an avoided battle or two battles of one unit
    never spare another unit its roll.
    """
    for area in sorted(state.units):
        for (p, c), n in sorted(state.units[area].items()):
            if c != "M" or n <= 0:
                continue
            side = state.side_of(p) or PLAYER_POWERS.get(p, "B")
            idle = n - state.fought.get(area, {}).get((p, c), 0)
            for j in range(1, idle + 1):
                die = ctx.roll(f"{gt(state)}/end/mutiny/{area}/{p}-{j}", actor=side, purpose="mercenary mutiny (14.1)",
                               effects={f: ("mutiny" if f <= 4 else "loyal") for f in range(1, 7)})
                if die <= 4:
                    ctx.change("unit-removed", actor=side, area=area, power=p, unit="M", reason="mutiny")
                    ctx.change("treasury", actor=side, side=side, tp=max(0, state.tp[side] - 1), why="mutiny (14.1)")
    bury_kings_alone(state, ctx)


# --------------------------------------------------------------------------------------------
# Victory (4.0, 4.1, 13.0)
# --------------------------------------------------------------------------------------------
def victory_points(state: GameState) -> dict[str, int]:
    """4.1: one VP per city under a side's total control that it did not control at the start."""
    m = state.map.areas
    vp = {"A": 0, "B": 0}
    for a, c in state.ctl.items():
        if c in SIDES and m[a].city and state.start_ctl.get(a) != c:
            vp[c] += 1
    return vp


def _side_names(data: Any, side: str) -> str:
    """The player powers of a side by their names in the game's data ("France and Anjou")."""
    return " and ".join(p.name.split(" (")[0] for pid, p in data.powers.items() if PLAYER_POWERS.get(pid) == side)


def judge(state: GameState) -> dict[str, Any]:
    """The outcome contract: winner, vp, control of every land area, and why."""
    data = state.data
    sc = data.scenarios[state.scenario]
    control = dict(sorted(state.ctl.items()))
    vp = victory_points(state)
    if sc.victory.get("kind") == "vespers":
        need = list(sc.victory["b_must_control"])
        guarded = list(sc.victory["a_must_not_take"])
        held = [a for a in need if state.ctl.get(a) == "B"]
        if state.options.get(str(sc.victory.get("taken_option", ""))):
            taken = [a for a in guarded if state.ctl.get(a) == "A"]
        else:
            taken = [a for a in guarded if a in state.taken]
        b_wins = len(held) == len(need) and not taken
        vp = {"A": len(taken), "B": len(held)}
        m = state.map.areas
        def names(areas: list[str]) -> str:
            return ", ".join(m[a].name for a in areas) or "none"

        side_a, side_b = _side_names(data, "A"), _side_names(data, "B")
        why = (f"13.0: vp counts for Player B the key areas it holds ({len(held)} of {len(need)}: {names(held)}), "
               f"for Player A the guarded areas of Player B it took ({names(taken)}). ")
        if b_wins:
            why += f"{side_b} holds all of them and {side_a} took none of the guarded areas: Player B wins."
        else:
            lacks = [a for a in need if a not in held]
            why += (f"Player A ({side_a}) wins: " + "; ".join(filter(None, [
                f"{side_b} does not hold {names(lacks)}" if lacks else "",
                f"{side_a} took {names(taken)}" if taken else ""])) + ".")
        return {"winner": "B" if b_wins else "A", "vp": vp, "control": control, "reason": why}
    lead = vp["A"] - vp["B"]
    a_by = int(sc.victory.get("a_wins_by", 3))
    if lead >= a_by:
        winner, why = "A", f"4.0: Player A leads by {lead} VP (3 or more): Player A wins."
    elif lead >= 1:
        winner, why = "draw", f"4.0: Player A leads by {lead} VP (one or two): a draw."
    else:
        winner = "B"
        why = ("4.0: the VP totals are equal: Player B wins." if lead == 0
               else f"4.0: Player B has more VP ({vp['B']} to {vp['A']}): Player B wins.")
    return {"winner": winner, "vp": vp, "control": control, "reason": why}


def task_victory(state: GameState, ctx: Context) -> None:
    """Determine victory at the end of the last game turn."""
    ctx.begin_phase("victory", turn=state.turn)
    o = judge(state)
    ctx.report("victory", winner=o["winner"], vp=o["vp"], reason=o["reason"])
    ctx.change("game-ends", automatic=True)


__all__ = ["PHASES", "judge", "task_end_of_turn", "task_stratagems", "task_turn", "task_victory",
           "victory_points"]
