"""What the map shows of a conquest game: a plain-data view, and how the map portrays it.

A *view* is a JSON-ready dict (no plotly, no geometry)::

    {"game": "empires_revolt", "scenario": "conquest-3", "round": 4, "player": "B", "phase": str | None,
     "seats": {seat: {"name": "Player A", "colour": "#rrggbb", "capital": "Rome", "stock": {food, gold, wood},
                      "regions": n, "have": {food, gold, wood}, "need": {food, gold, wood}, "cities": n,
                      "defeated": bool}},
     "owner": {region: seat}, "armies": {area: {seat: n}}, "ships": {sea: {seat: n}},
     "settlements": [region], "forts": [region],
     "areas": {id: {"name", "kind", "resource", "city", "capital"}},
     "fights": [{"target": area, "attacker": seat, "attack": n, "defence": n, "winner": side, "roll": id}],
     "over": bool, "winner": seat | [seats] | None, "reason": str}

``portray`` paints each land region in the colour of the seat that holds it (rule 45), puts each
seat's armies (⚔) and ships (⚓) under the area names, settlements (⌂) and fortifications (▲),
the step's fights as stars (a click picks the fight's first die) and one panel box per seat.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from medviz.engine.events import ChangeEvent, Event, RollEvent, current_phase
from medviz.engine.portrayal import (
    AreaFill,
    Badge,
    BadgeGroup,
    LegendEntry,
    Mark,
    MarkLayer,
    PanelBox,
    Place,
    Portrayal,
    Shades,
    blend,
    contrast_text,
    plain,
)
from medviz.rules.empires_revolt.conquest import COLOURS, ConquestState
from medviz.rules.empires_revolt.data import RESOURCES

#: The geodata the conquest is drawn on (``geodata/empires-revolt-300bce.geojson``).
MAP = "empires-revolt-300bce"
TITLE = "Empire's Revolt — the Mediterranean, 300 BCE (reconstructed map)"
TAKEN, HELD = "#f2b705", "#8a8a8a"


def state_view(state: ConquestState, events: Sequence[Event], phase: str | None = None) -> dict[str, Any]:
    """The view of ``state`` after ``events``."""
    m = state.map
    need = state.rules.victory[len(state.seats)]
    seats: dict[str, Any] = {}
    for s in state.seats:
        cap = state.capital_of.get(s)
        seats[s] = {"name": f"Player {s}", "colour": COLOURS[s],
                    "capital": state.rules.capitals[cap].name if cap else "",
                    "stock": dict(state.stock.get(s, {r: 0 for r in RESOURCES})),
                    "regions": len(state.held(s)), "have": state.by_resource(s), "need": dict(need),
                    "cities": len(state.cities(s)), "defeated": s in state.defeated}
    armies: dict[str, dict[str, int]] = {}
    for x in state.armies.values():
        where = state.ships[x["ship"]]["sea"] if x["ship"] else x["area"]
        if not x["ship"]:
            armies.setdefault(where, {}).setdefault(x["seat"], 0)
            armies[where][x["seat"]] += 1
    ships: dict[str, dict[str, int]] = {}
    for x in state.ships.values():
        ships.setdefault(x["sea"], {}).setdefault(x["seat"], 0)
        ships[x["sea"]][x["seat"]] += 1
    areas = {a: {"name": x.name, "kind": x.kind, "resource": x.resource, "city": x.city,
                 "capital": state.rules.capitals[x.capital].name if x.capital else ""} for a, x in m.areas.items()}
    return {"game": "empires_revolt", "scenario": state.scenario, "round": state.round, "player": state.player,
            "phase": phase, "seats": seats, "owner": dict(sorted(state.owner.items())),
            "armies": {a: dict(sorted(v.items())) for a, v in sorted(armies.items())},
            "ships": {a: dict(sorted(v.items())) for a, v in sorted(ships.items())},
            "settlements": sorted(state.settlements), "forts": sorted(state.forts), "areas": areas,
            "fights": step_fights(events), "over": state.over, "winner": state.winner, "reason": state.reason}


def step_fights(events: Sequence[Event]) -> list[dict[str, Any]]:
    """The fights of the current phase so far, each with the id of its first attack die."""
    out: list[dict[str, Any]] = []
    first: str | None = None
    for e in current_phase(events):
        if isinstance(e, RollEvent) and first is None:
            first = e.roll
        elif isinstance(e, ChangeEvent) and e.change in ("er-attack", "er-sea-fight"):
            d = e.data
            out.append({"target": d["target"] if e.change == "er-attack" else d["sea"], "attacker": d["seat"],
                        "attack": d.get("attack", 1), "defence": d.get("defence", 1), "winner": d["winner"],
                        "roll": first})
            first = None
    return out


def history_view(history: Any, seq: int) -> dict[str, Any] | None:
    """The view just after event ``seq`` of a conquest ``history`` (-1: before the first); None for a battle."""
    state = history.state_at(seq)
    if not isinstance(state, ConquestState):
        return None
    events = history.events[: seq + 1]
    return state_view(state, events, events[-1].phase if events else None)


def _fill(a: str, view: Mapping[str, Any], shades: Shades) -> AreaFill:
    info = view["areas"][a]
    holder = view["owner"].get(a)
    lines = [f"<b>{plain(info['name'])}</b>", f"produces {info['resource']}"
             + (f" · city of {plain(info['city'])}" if info["city"] else "")
             + (f" · capital of {plain(info['capital'])}" if info["capital"] else "")]
    if holder:
        seat = view["seats"][holder]
        colour = blend(seat["colour"], shades.paper, shades.light)
        lines.append(f"held by {plain(seat['name'])} ({plain(seat['capital'])})")
    else:
        colour = shades.uncontrolled
        lines.append("nobody's (in revolt)")
    if a in view["settlements"]:
        lines.append("settled" + (", fortified" if a in view["forts"] else ""))
    for seat, n in view["armies"].get(a, {}).items():
        lines.append(f"{n} arm{'y' if n == 1 else 'ies'} of Player {plain(seat)}")
    return AreaFill(colour, label_colour=contrast_text(colour), hover="<br>".join(lines))


def portray(view: Mapping[str, Any], places: Mapping[str, Place], shades: Shades) -> Portrayal:
    """A conquest view as the map shows it."""
    fills = {a: _fill(a, view, shades) for a, info in view["areas"].items()
             if info["kind"] == "land" and a in places}
    groups = []
    for seat, info in view["seats"].items():
        badges = []
        for a, by in view["armies"].items():
            if seat in by and a in places:
                badges.append(Badge(a, f"⚔{by[seat]}", f"{by[seat]} arm{'y' if by[seat] == 1 else 'ies'} of "
                                                       f"{plain(info['name'])}"))
        for a, by in view["ships"].items():
            if seat in by and a in places:
                badges.append(Badge(a, f"⚓{by[seat]}", f"{by[seat]} ship{'' if by[seat] == 1 else 's'} of "
                                                       f"{plain(info['name'])}"))
        groups.append(BadgeGroup(f"seat-{seat}", info["colour"], tuple(badges)))
    works = [Badge(a, ("▲" if a in view["forts"] else "⌂"), "fortified settlement" if a in view["forts"]
                   else "settlement", slot=1) for a in view["settlements"] if a in places]
    groups.append(BadgeGroup("works", "#f6f1e6", tuple(works), text_colour="#3b2f22"))
    cities = tuple(Mark(a, "", f"{plain(info['city'])} ({info['resource']})" + (" · a capital" if info["capital"] else ""),
                        symbol="star-diamond" if info["capital"] else "circle", dy=11)
                   for a, info in view["areas"].items() if info["city"] and a in places)
    fights = tuple(Mark(f["target"], f"{f['attack']}:{f['defence']}",
                        f"Player {plain(f['attacker'])} attacks {plain(view['areas'][f['target']]['name'])}: "
                        f"{f['attack']} dice against {f['defence']}, "
                        f"{'the attacker wins' if f['winner'] == 'attacker' else 'the defence holds'} (rule 22)",
                        colour=TAKEN if f["winner"] == "attacker" else HELD, dy=10, roll=f["roll"])
                   for f in view["fights"] if f["target"] in places)
    marks = (MarkLayer("cities", "circle", 8, "#1b1b1b", "#3b2f22", "middle right", 1.0, cities, own_symbols=True),
             MarkLayer("fights", "star", 18, "#6b5b45", "#1b1b1b", "top center", 1.5, fights, own_colours=True,
                       clickable=True))
    panel = [PanelBox("panel-round", f"<b>Round {view['round']}</b><br>"
                      + (f"Player {plain(view['player'])}'s turn" if view["player"] else "set-up"), lines=2, size=1)]
    for seat, info in view["seats"].items():
        st, have, need = info["stock"], info["have"], info["need"]
        state = "defeated" if info["defeated"] else f"{info['cities']} cities"
        panel.append(PanelBox(
            f"panel-seat-{seat}",
            f"<b>{plain(info['name'])}</b> · {state}<br>{plain(info['capital'])}<br>"
            f"stock {st['food']}F {st['gold']}G {st['wood']}W<br>"
            f"held {have['food']}/{need['food']}F {have['gold']}/{need['gold']}G {have['wood']}/{need['wood']}W",
            lines=4, colour=info["colour"], gap=4))
    if view["over"]:
        panel.append(PanelBox("panel-over", f"<b>Game over</b><br>{plain(view['reason'])}", lines=4))
    legend = (LegendEntry("nobody's region (in revolt)", shades.uncontrolled),
              *(LegendEntry(f"Player {s} ({plain(i['capital'])})", blend(i["colour"], shades.paper, shades.light))
                for s, i in view["seats"].items()))
    lines = tuple(f"Player {f['attacker']} attacks {view['areas'][f['target']]['name']}: {f['attack']} against "
                  f"{f['defence']}, {'taken' if f['winner'] == 'attacker' else 'held'}" for f in view["fights"])
    bits = [f"{len(view['seats'])} players", f"round {view['round']}"]
    if view["player"]:
        bits.append(f"Player {plain(view['player'])}'s turn")
    if view["over"]:
        bits.append("game over")
    return Portrayal(map=MAP, title=TITLE, subtitle=" · ".join(bits), fills=fills, badges=tuple(groups), marks=marks,
                     panel=tuple(panel), legend=legend, legend_title="Who holds what",
                     key=("regions in the colour of the player who holds them (rule 45)",
                          "⚔ armies · ⚓ ships · ⌂ settlement · ▲ fortified",
                          "● a city, ◆ a capital (above the name) · F/G/W: food, gold, wood · ★ a fight (click: its die)"),
                     step_title="This step" if lines else "", step_lines=lines)
