"""Empire's Revolt's conquest in plain words: actions (the table's buttons) and changes (logs, the apps)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from medviz.engine.events import ChangeEvent
from medviz.rules.empires_revolt.data import Rules


def _name(state: Any, area: str) -> str:
    return state.map.areas[area].name if state is not None and area in state.map.areas else area


def option_words(state: Any, o: Any) -> str:
    """An action of a turn in words: ``army-3 attacks Etruria and Umbria``."""
    if not isinstance(o, Mapping):
        return str(o)
    do = o.get("do")
    if do == "end":
        return "end the turn"
    if do == "army":
        return "raise an army in the capital (3 food, rules 10-11)"
    if do == "ship":
        return f"build a ship at {_name(state, o['at'])} in the {_name(state, o['sea'])} (2 wood, rule 26)"
    if do == "settle":
        return f"settle {_name(state, o['area'])} (1 food, gold and wood, rule 34)"
    if do == "fortify":
        return f"fortify the settlement in {_name(state, o['area'])} (1 food and gold, rule 41)"
    if do == "hire":
        where = _name(state, o["at"]) if "at" in o else f"{o['army']}'s region"
        return f"hire mercenaries in {where} (2 gold, rules 52-56)"
    if do in ("march", "land"):
        verb = "lands in" if do == "land" else "marches into"
        if state is not None and state.owner.get(o["to"]) != state.player:
            verb = "lands and attacks" if do == "land" else "attacks"
        return f"{o['army']} {verb} {_name(state, o['to'])}"
    if do == "embark":
        return f"{o['army']} boards {o['ship']} (rule 27)"
    if do == "sail":
        return f"{o['ship']} sails to the {_name(state, o['to'])} (rule 30)"
    return str(dict(o))


def _stock(d: Mapping[str, int]) -> str:
    return ", ".join(f"{n} {r}" for r, n in d.items() if n) or "nothing"


def change_words(rules: Rules, e: ChangeEvent) -> str:
    """A conquest change in words."""
    d = e.data
    c = e.change
    if c == "er-capital":
        army = "and one army" if d["army"] else "and no army (rules 5-6)"
        return f"Player {d['seat']} draws {rules.capitals[d['capital']].name}: holds its capital {army} (rules 2, 6, 7)"
    if c == "er-turn":
        return f"Round {d['round']}: Player {d['seat']}'s turn"
    if c == "er-collect":
        return f"Player {d['seat']} collects {_stock(d['gains'])} (rule 63)"
    if c == "er-upkeep":
        lost = ", ".join(f"{k} {w}" for k, w in d["lost"])
        return f"Player {d['seat']} pays upkeep: {_stock(d['paid'])}" + (f"; sacrifices {lost} (rule 64)" if lost else "")
    if c == "er-disband":
        return f"Player {d['seat']} destroys {', '.join(d['armies'])}: more armies than support (rule 13)"
    if c == "er-pay":
        return f"Player {d['seat']} pays {_stock(d['price'])} for a {d['item']}"
    if c == "er-raise":
        what = "mercenaries" if d["merc"] else "an army"
        return f"Player {d['seat']} raises {what} ({d['army']}) in {d['area']}"
    if c == "er-ship":
        return f"Player {d['seat']} builds {d['ship']} at {d['at']}, in the {d['sea']}"
    if c == "er-settle":
        return f"Player {d['seat']} settles {d['area']} (rule 34)"
    if c == "er-fortify":
        return f"Player {d['seat']} fortifies {d['area']} (rule 41)"
    if c == "er-acted":
        return f"{d['unit']} uses its action for the turn (rule 14)"
    if c == "er-crossing":
        return f"{d['army']} climbs into the {d['terrain']}s toward {d['to']}; it arrives next turn (rule 67)"
    if c == "er-move":
        return f"{d['army']} moves to {d['to']}"
    if c == "er-embark":
        return f"{d['army']} boards {d['ship']} (rule 27)"
    if c == "er-take":
        return f"Player {d['seat']} takes {d['area']} with {d['army']} (rules 23, 45)"
    if c == "er-attack":
        lost = ", ".join(d["lost"]) or "nobody"
        who = "the attacker" if d["winner"] == "attacker" else "the defender"
        return (f"Player {d['seat']} attacks {d['target']}: {d['attack']} dice against {d['defence']} ({d['rule']}); "
                f"{who} wins after {d['throws']} throw(s); lost: {lost}")
    if c == "er-sea-fight":
        return f"{d['ship']} meets {d['enemy']} in the {d['sea']}: {d['sunk']} is sunk (rules 31-32)"
    if c == "er-sail":
        return f"{d['ship']} sails to the {d['to']}"
    if c == "er-mark":
        return (f"Player {d['seat']} holds {rules.trade_cities} cities: it wins at its next turn if it still does "
                f"(rule 76)" if d["on"] else f"Player {d['seat']} no longer holds {rules.trade_cities} cities")
    if c == "er-defeated":
        return f"Player {d['seat']} did not retake its capital: defeated (rule 70)"
    if c == "er-over":
        return f"Game over: {d['reason']}"
    return c
