"""The Joint Recruitment Phase (5.1, 6.0-6.2, 8.1): treasury, new Kings, alternate purchases."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from medviz.engine.game import Context, Task
from medviz.rules.medempires.choices import Decision
from medviz.rules.medempires.game.options import Place, Purchase, shared
from medviz.rules.medempires.game.state import (
    PLAYER_POWERS,
    SIDES,
    GameState,
    Same,
    friendly_port_seas,
    other_side,
)
from medviz.rules.medempires.game.turn import begin, gt

OWN_POWERS = {"A": ("france", "anjou"), "B": ("aragon",)}
CODES = ("FA", "L", "R", "M", "F")


def cap(state: GameState, tp: int) -> int:
    """6.1: a faction never holds more than ten TP; the excess is forfeit."""
    return min(tp, state.data.operations.treasury["tp_cap"])


def task_recruitment(state: GameState, ctx: Context) -> None:
    """Collect TP, pick new Kings, bring back crusaders, roll for the order, then alternate purchases."""
    begin(state, ctx, "recruitment")
    collect_treasury(state, ctx)
    for power in ("france", "anjou", "aragon"):
        if state.king_due.get(power):
            new_king(state, ctx, power)
    for side in SIDES:
        crusaders_return(state, ctx, side)
    rolls = {s: ctx.roll(f"{gt(state)}/recruit/initiative/{s}", actor=s, purpose="recruitment order (5.1)")
             for s in SIDES}
    winner = "A" if rolls["A"] >= rolls["B"] else "B"
    ctx.report("recruitment-initiative", actor=winner, A=rolls["A"], B=rolls["B"], winner=winner)
    order = ctx.decide(f"{gt(state)}/recruit/order", winner, ["first", "second"], prompt="Recruit first or second?",
                       kind=Decision.ORDER)
    first = winner if order == "first" else other_side(winner)
    ctx.schedule(Task.of("game.recruit-pick", side=first, pick=1, done=[]))


def collect_treasury(state: GameState, ctx: Context) -> None:
    """6.1: cities, vassal rolls, Gold and Trade Concession, less the opponent's Piracy; cap 10."""
    data = state.data
    m = state.map.areas
    gains: dict[str, dict[str, int]] = {}
    for side in SIDES:
        g = {"cities": state.city_count(side), "vassals": 0, "gold": 0, "trade": 0, "piracy": 0}
        for pw in sorted(data.powers):
            if state.vassal_of(pw) != side:
                continue
            for area in sorted(a for a, c in state.ctl.items() if c == pw and m[a].city):
                die = ctx.roll(f"{gt(state)}/recruit/vassal/{pw}/{area}", actor=side,
                               purpose=f"vassal income from {m[area].city} (6.1)",
                               effects={f: ("+1 TP" if f <= 4 else "nothing") for f in range(1, 7)})
                if die <= 4:
                    g["vassals"] += 1
        for marker, key, worth in (("gold", "gold", 1), ("trade_concession", "trade", 2)):
            for _ in range(state.hands[side].get(marker, 0)):
                ctx.change("marker-spent", actor=side, side=side, marker=marker, to="in_play")
                g[key] += worth
        gains[side] = g
    for side in SIDES:
        for _ in range(state.hands[side].get("piracy", 0)):
            ctx.change("marker-spent", actor=side, side=side, marker="piracy", to="in_play")
            gains[other_side(side)]["piracy"] -= 2
    for side in SIDES:
        g = gains[side]
        gained = max(0, sum(g.values()))
        new = cap(state, state.tp[side] + gained)
        ctx.change("treasury", actor=side, side=side, tp=new, why="collection (6.1)", cities=g["cities"],
                   vassals=g["vassals"], gold=g["gold"], trade=g["trade"], piracy=g["piracy"],
                   forfeited=state.tp[side] + gained - new)


def new_king(state: GameState, ctx: Context, power: str) -> None:
    """8.1: a new King drawn from the pool, placed with units of his own power in a friendly area."""
    side = PLAYER_POWERS[power]
    m = state.map.areas
    areas = sorted(a for a, c in state.ctl.items() if c == side and m[a].kind == "land"
                   and any(p == power and n > 0 for (p, _), n in state.units.get(a, {}).items()))
    if not state.king_pools.get(power):
        ctx.report("no-king-left", actor=side, power=power)  # only with dead_kings_stay_dead
        return
    if state.options.get("dead_kings_stay_dead"):
        heir, reigns = next_in_line(state, power)
        if heir is None or not reigns:
            ctx.report("no-heir-yet", actor=side, power=power, king=heir or "")
            return
        candidates = [heir]
    else:
        candidates = sorted(state.king_pools[power])
    if not areas:
        ctx.report("no-place-for-king", actor=side, power=power)
        return
    king = ctx.draw(f"{gt(state)}/recruit/new-king/{power}", candidates, actor=side,
                    purpose=f"new King of {state.data.powers[power].name} (8.1)")
    area = ctx.decide(f"{gt(state)}/recruit/new-king/{power}/area", side, [Place(a) for a in areas],
                      prompt="Where does the new King appear?", kind=Decision.RECRUIT_PLACE).area
    ctx.change("king-placed", actor=side, king=king, power=power, area=area)


def next_in_line(state: GameState, power: str) -> tuple[str | None, bool]:
    """Succession ruling (8.1): the first King of the pool, in line, whose reign has not ended before this turn.

    Successors whose reign ended before the turn's first year are passed over (they reigned off the
    board). The flag says whether his reign has begun by the turn's last year; if not, no King comes yet.
    """
    pool = state.king_pools.get(power, [])
    sc = state.data.scenarios.get(state.scenario)
    if sc is None or not 1 <= state.turn <= len(sc.turn_years):
        return (pool[0], True) if pool else (None, False)
    first, last = sc.turn_years[state.turn - 1]
    for king in pool:
        years = state.data.kings[king].reign_years
        if years is None or years[1] >= first:
            return king, years is None or years[0] <= last
    return None, False


def land_places(state: GameState, side: str, power: str, need: int = 1) -> list[str]:
    """6.2, 7.2 a: where a land unit of ``power`` recruited by ``side`` may be placed."""
    m = state.map.areas
    limit = state.data.operations.treasury["recruits_per_area"] - need
    allied = power not in PLAYER_POWERS
    recruited = state.recruited_here.get(side, {})  # recruited_in, read once
    out = []
    for a, c in state.ctl.items():  # each area is judged alone: sorted at the end (fewer to sort)
        if recruited.get(a, 0) > limit:
            continue
        if c == side and (not allied or m[a].city):
            out.append(a)
        elif c is not None and c not in ("A", "B", "partial") and m[a].city and state.vassal_of(c) == side \
                and any(p == c and n > 0 and code != "F" for (p, code), n in state.units.get(a, {}).items()):
            out.append(a)  # 7.2 a: an area with a city occupied by the side's vassal's units
    out.sort()
    return out


def sea_places(state: GameState, side: str) -> list[str]:
    """6.2: fleets go to a sea on whose coast lies a city of a friendly total-controlled area."""
    limit = state.data.operations.treasury["recruits_per_area"]
    return sorted(s for s in friendly_port_seas(state, side) if recruited_in(state, side, s) < limit)


def recruited_in(state: GameState, side: str, area: str) -> int:
    """Units ``side`` has recruited in ``area`` this phase (6.2: the limit of three is per player)."""
    return state.recruited_here.get(side, {}).get(area, 0)


def recruit_powers(state: GameState, side: str) -> list[str]:
    """The side's own powers, and each ally whose home area it totally controls, once per phase (6.2)."""
    out = list(OWN_POWERS[side])
    for pw in _powers_by_id(Same(state.data)):
        if state.status[pw.id] == f"ally:{side}" and pw.id not in state.allied_recruits \
                and any(state.ctl.get(h) == side for h in pw.home_areas):
            out.append(pw.id)
    return out


@lru_cache(maxsize=16)
def _powers_by_id(data: Same) -> tuple[Any, ...]:
    """The powers of a game's data in order of id (the data never changes, so once per data)."""
    return tuple(sorted(data.obj.powers.values(), key=lambda p: p.id))


def purchase_options(state: GameState, side: str) -> list[Purchase]:
    """One unit of a power (``2L``: two levies at ½ TP each), each with somewhere to go."""
    data = state.data
    costs = data.operations.recruiting
    tp = state.tp[side]
    counters = state.counters()
    fleet_first = state.crusade_fleet_due[side] and not any(
        counters.get((p, "F"), 0) for p in OWN_POWERS[side])
    has_sea = bool(sea_places(state, side))
    places: dict[tuple[bool, int], bool] = {}  # (allied, need) -> somewhere to put it

    def can_place(power: str, need: int) -> bool:
        key = (power not in PLAYER_POWERS, need)
        if key not in places:
            places[key] = bool(land_places(state, side, power, need))
        return places[key]

    out = []
    for power in recruit_powers(state, side):
        limits = data.counter_limits.get(power, {})
        for code in CODES:
            if fleet_first and code != "F":
                continue
            free = limits.get(code, 0) - counters.get((power, code), 0)
            if free <= 0:
                continue
            single = data.operations.single_levy_cost if code == "L" else costs[code]
            if code == "F":
                if tp >= single and has_sea:
                    out.append(shared(Purchase, power, "F"))
                continue
            if tp >= single and can_place(power, 1):
                out.append(shared(Purchase, power, code))
            if code == "L" and free >= 2 and power in PLAYER_POWERS and tp >= 2 * costs["L"] \
                    and can_place(power, 2):
                out.append(shared(Purchase, power, "2L"))
    return out


def task_recruit_pick(state: GameState, ctx: Context, side: str, pick: int, done: tuple[str, ...]) -> None:
    """One purchase (one unit or two levies) or 'done'; players alternate until both are done (5.1)."""
    done_l = list(done)
    if side not in done_l:
        opts = purchase_options(state, side)
        rid = f"{gt(state)}/recruit/{side}/pick-{pick}"
        choice: Any = ctx.decide(rid, side, ["done", *opts], prompt="Recruit a unit (6.2)", kind=Decision.PURCHASE) \
            if opts else "done"
        if choice == "done":
            done_l.append(side)
        else:
            buy(state, ctx, side, choice, rid)
    nxt = other_side(side)
    if len(done_l) == 2:
        for s in ("A", "B"):  # 12.0 Crusade: the fleet-first duty binds this Recruitment Phase only
            if state.crusade_fleet_due[s]:
                ctx.change("crusade-fleet-due", actor=s, side=s, due=False, why="phase over")
        return
    if nxt in done_l:
        nxt = side
    ctx.schedule(Task.of("game.recruit-pick", side=nxt, pick=pick + 1, done=done_l))


def buy(state: GameState, ctx: Context, side: str, choice: Purchase, rid: str) -> None:
    """Pay and place one purchase."""
    data = state.data
    power, code = choice.power, choice.code
    n = 2 if code == "2L" else 1
    code = "L" if code == "2L" else code
    cost = data.operations.recruiting["L"] * 2 if n == 2 else (
        data.operations.single_levy_cost if code == "L" else data.operations.recruiting[code])
    places = sea_places(state, side) if code == "F" else land_places(state, side, power, n)
    area = ctx.decide(f"{rid}/area", side, [shared(Place, a) for a in places], prompt="Place it where? (6.2)",
                      kind=Decision.RECRUIT_PLACE).area
    ctx.change("treasury", actor=side, side=side, tp=state.tp[side] - int(cost), why=f"recruit {n} {power} {code}")
    ctx.change("unit-placed", actor=side, area=area, power=power, unit=code, n=n, recruited=True, side=side)
    if power not in PLAYER_POWERS:
        ctx.change("allied-recruit", actor=side, power=power)
    if code == "F" and state.crusade_fleet_due[side]:
        ctx.change("crusade-fleet-due", actor=side, side=side, due=False)


def crusaders_return(state: GameState, ctx: Context, side: str) -> None:
    """12.0 Crusade: units set aside come back in a Recruitment Phase, in friendly total-controlled areas.

    Ruling: they come back in the first Joint Recruitment Phase at which their side has an eligible
    area, the one of the turn they left included (12.0: the first game turn with such an area);
    they are placed like recruits but outside the three-recruits limit. Units with nowhere to go wait.
    """
    if not state.crusade[side] or state.phase != "recruitment":
        return
    m = state.map.areas
    i = 0
    for (power, code), n in sorted(state.crusade[side].items()):
        for _ in range(n):
            if code == "F":
                places = sorted(friendly_port_seas(state, side))
            else:
                places = sorted(a for a, c in state.ctl.items() if c == side and m[a].kind == "land")
            if not places:
                return
            i += 1
            area = ctx.decide(f"{gt(state)}/recruit/crusade-return/{side}-{i}", side, [Place(a) for a in places],
                              prompt="Where do the crusaders land?", kind=Decision.RECRUIT_PLACE).area
            ctx.change("crusade-return", actor=side, side=side, area=area, power=power, unit=code)
