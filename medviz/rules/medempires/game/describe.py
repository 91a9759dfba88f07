"""Whole-game change events in plain words (for logs, notebooks and exported replays).

``describe_change(change, data)`` returns a sentence, or None for changes it does not know
(the ruleset's own ``describe`` keeps the battle changes). Names come from the data passed as
``pair`` (a game played with override files passes its own, ``GameState.data_pair``); without
one, from the shipped data, where an id the shipped data lacks is shown as the id.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from medviz.rules.medempires.combat import MARKER_NAMES, UNIT_NAMES
from medviz.rules.medempires.game.datapair import DataPair, shipped_data


def _area(w: DataPair, a: Any) -> str:
    area = w.game_map.areas.get(str(a))
    return area.name if area else str(a)


def _unit(w: DataPair, d: Mapping[str, Any]) -> str:
    power = w.game_data.powers.get(str(d.get("power")))
    n = int(d.get("n", 1))
    pname = power.name if power else str(d.get("power"))
    article = "an" if pname[:1] in "AEIOU" else "a"
    return f"{n if n > 1 else article} {pname} {unit_name(str(d.get('unit')), n)}"


_PLURAL = {"field army": "field armies", "levy": "levies", "fleet": "fleets"}
_SINGULAR = {"raiders": "raider", "mercenaries": "mercenary"}


def unit_name(code: str, n: int = 1) -> str:
    """A unit type's name for ``n`` counters: 'field army', '3 field armies', 'raider', 'raiders'."""
    name = UNIT_NAMES.get(code, code)
    return _PLURAL.get(name, name) if n > 1 else _SINGULAR.get(name, name)


def phase_words(phase: str) -> str:
    """A phase id in words: 'operations-A' -> "Player A's operations", 'end-of-turn' -> 'end of turn'."""
    if phase.startswith("operations-") and phase[-1] in "AB":
        return f"Player {phase[-1]}'s operations"
    return phase.replace("-", " ")


def marker_phrase(w: DataPair, m: Any, definite: bool = False) -> str:
    """'a Military Advantage marker', 'an Ambush marker', 'the Pope marker' (names that carry their own article)."""
    name = _marker(w, m)
    if name.lower().startswith("the "):
        return f"the {name[4:]} marker"
    if definite:
        return f"the {name} marker"
    return f"{'an' if name[:1] in 'AEIOU' else 'a'} {name} marker"


def drawn_words(value: Any, pair: DataPair | None = None) -> str:
    """What a draw produced, in words: a stratagem marker or a King by name (``pair``'s names, else shipped)."""
    w = pair if pair is not None else shipped_data()
    if str(value) in w.game_data.stratagems:
        return marker_phrase(w, value)
    return _name(w, str(value))


def _verb(d: Mapping[str, Any], one: str, many: str) -> str:
    return many if int(d.get("n", 1)) > 1 else one


def _king(w: DataPair, k: Any) -> str:
    king = w.game_data.kings.get(str(k))
    return king.name if king else str(k)


def describe_change(change: str, d: Mapping[str, Any], pair: DataPair | None = None) -> str | None:
    """One whole-game change in plain words (``pair``'s names, else the shipped ones), or None."""
    w = pair if pair is not None else shipped_data()
    if change == "unit-placed":
        if d.get("setup"):
            return f"{_unit(w, d)} {_verb(d, 'sets', 'set')} up in {_area(w, d['area'])}"
        return f"{_unit(w, d)} {'recruited' if d.get('recruited') else 'placed'} in {_area(w, d['area'])}"
    if change == "unit-removed":
        why = d.get("reason") or ("set aside for the Crusade" if d.get("to") == "crusade" else "")
        return f"{_unit(w, d)} removed from {_area(w, d['area'])}" + (f" ({why})" if why else "")
    if change == "unit-moved":
        return f"{_unit(w, d)} {_verb(d, 'moves', 'move')} from {_area(w, d['source'])} to {_area(w, d['to'])}" + (f" ({d['why']})" if d.get("why") else "")
    if change == "force-formed":
        units = ", ".join(f"{n} {unit_name(c, int(n))}" for _, c, n in d["units"])
        kings = f" with {', '.join(_king(w, k) for k in d.get('kings', ()))}" if d.get("kings") else ""
        power = _power(w, d["power"])
        return f"a force of {power} ({units}){kings} is activated in {_area(w, d['area'])}"
    if change == "force-ops":
        return f"the force has {d['ops']} OPs" + (" (capped at 15)" if d.get("cap") else "")
    if change == "force-spends":
        why = str(d.get("why", ""))
        if why.startswith("move to "):
            why = f"move to {_area(w, why[8:])}"
        return f"the force spends {d['ops']} OP{'s' if int(d['ops']) != 1 else ''}: {why}"
    if change == "force-moved":
        return f"the force moves to {_area(w, d['to'])}"
    if change == "force-ends":
        return "the force ends its action"
    if change == "embarked":
        what = _king(w, d["king"]) if d.get("king") else _unit(w, d)
        return f"{what} embarks from {_area(w, d['source'])}"
    if change == "debarked":
        what = _king(w, d["king"]) if d.get("king") else _unit(w, d)
        return f"{what} lands in {_area(w, d['to'])}"
    if change == "cargo-lost":
        return f"{_unit(w, d)} {_verb(d, 'is', 'are')} lost at sea"
    if change == "status":
        power = _power(w, d["power"])
        st = str(d["status"])
        words = {"neutral": "neutral"}.get(st, st.replace("ally:", "allied to Player ").replace("vassal:", "a vassal of Player "))
        return f"{power} becomes {words}" + (f" ({d['why']})" if d.get("why") else "")
    if change == "treasury":
        why = str(d.get("why", ""))
        if why == "collection (6.1)" and "cities" in d:
            bits = [f"{d['cities']} from cities"] + [f"{int(d[k]):+d} {label}" for k, label in (
                ("vassals", "from vassals"), ("gold", "Gold"), ("trade", "Trade Concession"), ("piracy", "Piracy"))
                if int(d.get(k) or 0)]
            lost = int(d.get("forfeited") or 0)
            return (f"Player {d['side']} collects treasury ({', '.join(bits)}) and now has {d['tp']} TP"
                    + (f"; {lost} TP over the cap of {w.game_data.operations.treasury['tp_cap']} are lost (6.1)"
                       if lost > 0 else " (6.1)"))
        parts = why.split(" ")
        if len(parts) == 4 and parts[0] == "recruit":  # "recruit N POWER CODE"
            why = "recruits " + _unit(w, {"n": parts[1], "power": parts[2], "unit": parts[3]})
        return f"Player {d['side']} now has {d['tp']} TP ({why})"
    if change == "king-placed" and d.get("setup"):
        return f"{_king(w, d['king'])} sets up in {_area(w, d['area'])}"
    if change == "king-placed":
        return f"{_king(w, d['king'])} takes the throne in {_area(w, d['area'])}"
    if change == "king-died":
        if d.get("cause") == "no friendly units left":
            return f"{_king(w, d['king'])} leaves the map: no area of his side holds his own units (8.1 ruling)"
        return f"{_king(w, d['king'])} dies ({d.get('cause', '')})"
    if change == "king-moved":
        return f"{_king(w, d['king'])} moves to {_area(w, d['to'])}" + (f" ({d['why']})" if d.get("why") else "")
    if change == "marker-drawn":
        return f"Player {d['side']} takes {marker_phrase(w, d['marker'])}"
    if change == "marker-spent":
        if d.get("to") == "aside":  # 12.0: the Pope without Rome, the Crusade without the Pope
            return f"Player {d['side']} returns {marker_phrase(w, d['marker'], definite=True)} unplayed (12.0)"
        return f"Player {d['side']} plays {_marker(w, d['marker'])}" + (
            f" ({d['use']})" if d.get("use") else "")
    if change == "pope":
        if d.get("side"):
            return f"the Pope sits in Rome for Player {d['side']}"
        return "the Pope dies" if d.get("died") else "the Pope leaves Rome"
    if change == "plague":
        return "plague: every OP cost is doubled this turn" if d.get("on") else "the plague ends"
    if change == "battle-opened":
        return f"battle in {_area(w, d['area'])}: Player {d['players']['attacker']} attacks" + (
            " (interception)" if not d.get("may_avoid", True) else "")
    if change == "battle-closed":
        s = d["summary"]
        if s.get("winner"):
            end = f"Player {s['winner']} holds the field"
        elif s.get("left") and not any(s["left"].values()):
            end = "both sides are destroyed"
        else:
            end = "both sides remain"
        return f"the battle in {_area(w, s['area'])} ends: {end}"
    if change == "area-ceded":
        return f"{_area(w, d['area'])} is ceded to Castile (14.3)"
    bookkeeping = _BOOKKEEPING.get(change)
    if bookkeeping is not None:
        return bookkeeping(w, d)
    if change in ("king-leaves-force", "concession"):
        return change.replace("-", " ") + (f": {dict(d)}" if d else "")
    return None


def _side(side: Any) -> str:
    return {"A": "Player A", "B": "Player B"}.get(str(side), str(side))


def _marker(w: DataPair, m: Any) -> str:
    marker = w.game_data.stratagems.get(str(m))
    return marker.name if marker else str(m)


def _power(w: DataPair, p: Any) -> str:
    power = w.game_data.powers.get(str(p))
    return power.name if power else str(p)


#: Bookkeeping changes: the turn and phase flow, pick-ups, once-per-turn flags.
_BOOKKEEPING: dict[str, Callable[[DataPair, Mapping[str, Any]], str]] = {
    "turn-begins": lambda w, d: f"Game turn {d['turn']} begins",
    "phase-begins": lambda w, d: f"{phase_words(str(d['phase']))[:1].upper()}{phase_words(str(d['phase']))[1:]} phase begins",
    "ops-phase-begins": lambda w, d: (f"{_side(d['side'])} begins operations" if d["side"] in ("A", "B")
                                   else "redistribution begins"),
    "political-kinds": lambda w, d: (f"{_side(d['side'])} may still attempt: {', '.join(d['left']) or 'nothing'}"
                                  + (f" (forfeits {d['forfeited']})" if d.get("forfeited") else "")),
    "units-done": lambda w, d: f"{_unit(w, d)} in {_area(w, d['area'])} {'have' if int(d.get('n', 1)) > 1 else 'has'} finished for this turn",
    "markers-return": lambda w, d: "stratagem markers go back to the cup",
    "game-ends": lambda w, d: "the game ends",
    "setup-done": lambda w, d: "every counter is placed: the set-up is complete (3.0)",
    "must-leave": lambda w, d: (f"{' and '.join(_side(x) for x in d['sides'])} must move out of {_area(w, d['area'])} (7.1.3)"
                             if d["sides"] else f"{_area(w, d['area'])} is left to its neutral owner (7.1.3)"),
    "force-picks-up": lambda w, d: f"the force picks up {_unit(w, d)}",
    "force-drops": lambda w, d: f"the force drops off {_unit(w, d)}",
    "king-joins": lambda w, d: f"{_king(w, d['king'])} joins the force",
    "king-diplomacy-used": lambda w, d: f"{_king(w, d['king'])}'s diplomacy is used for this turn (7.0)",
    "pope-used": lambda w, d: "the Pope's help is used for this turn (7.0)",
    "allied-recruit": lambda w, d: f"one {_power(w, d['power'])} unit recruited as an ally (6.2)",
    "crusade-fleet-due": lambda w, d: (f"{_side(d['side'])} must recruit a fleet first (Crusade, 12.0)" if d.get("due")
                                    else f"{_side(d['side'])}'s duty to recruit a fleet first ends with the Recruitment Phase (12.0)"
                                    if d.get("why") == "phase over" else f"{_side(d['side'])} has replaced its Crusade fleet"),
    "crusade-return": lambda w, d: f"{_unit(w, d)} back from the Crusade in {_area(w, d['area'])}",
}

#: The whole game's reports (results that change nothing by themselves).
_REPORTS: dict[str, Callable[[DataPair, Any, Mapping[str, Any]], str]] = {
    "political-result": lambda w, a, d: (f"{_side(a)} attempts {d['kind']} with {_power(w, str(d['target']).split('@')[0])}: "
                                      f"{d['roll']}{int(d['drm']):+d} → "
                                      + ("no effect" if d["result"] == "NE" else f"{str(d['result']).lower()}: it succeeds")),
    "thwart": lambda w, a, d: f"{_side(a)} tries to thwart: {d['thwart']} against {d['attempt']}, {d['result']}",
    "interception": lambda w, a, d: f"{_side(a)} tries to intercept: {d['roll']}{int(d['drm']):+d}, {d['result']}",
    "invasion": lambda w, a, d: f"{_side(a)} invades {_area(w, d['area'])}: {_power(w, d['power'])} joins the other side (10.1)",
    "recruitment-initiative": lambda w, a, d: f"recruitment order: A rolls {d['A']}, B rolls {d['B']}; {_side(d['winner'])} chooses",
    "victory": lambda w, a, d: f"victory: {_side(d['winner']) if d['winner'] != 'draw' else 'a draw'} — {d['reason']}",
    "move-cancelled": lambda w, a, d: f"move cancelled: {d['reason']}",
    "no-place-for-king": lambda w, a, d: f"no place for a new {_power(w, d['power'])} King this turn (8.1)",
    "no-heir-yet": lambda w, a, d: (f"no new {_power(w, d['power'])} King this turn: "
                                    + (f"the next in line, {_king(w, d['king'])}, does not reign yet" if d.get("king")
                                       else "no one left in line reigns in these years")
                                    + " (8.1, succession ruling)"),
    "no-king-left": lambda w, a, d: f"no {_power(w, d['power'])} King is left in the pool: none comes (8.1, dead Kings stay dead)",
    "cup-empty": lambda w, a, d: "the stratagem cup is empty",
}


def describe_report(report: str, actor: Any, d: Mapping[str, Any], pair: DataPair | None = None) -> str | None:
    """One whole-game report in plain words (``pair``'s names, else the shipped ones), or None."""
    w = pair if pair is not None else shipped_data()
    words = _REPORTS.get(report)
    return words(w, actor, d) if words is not None else None


# --------------------------------------------------------------------------------------------
# Words for options (game/options.py words each typed option by its fields with these)
# --------------------------------------------------------------------------------------------
_TWO = {"2L": "two levies"}


def unit_word(code: str) -> str:
    """A unit code as the log words an option's unit: ``FA`` -> 'field army', ``2L`` -> 'two levies'."""
    return _TWO.get(code) or UNIT_NAMES.get(code) or code


def short_power(w: DataPair, p: str) -> str:
    """A power's name without its note: 'Kingdom of Sicily (Anjou)' -> 'Kingdom of Sicily'."""
    return _power(w, p).split(" (")[0]


def area_name(w: DataPair, a: str) -> str:
    """An area id as its name in ``w``'s map (an unknown id as itself)."""
    return _area(w, a)


def king_name(w: DataPair, k: str) -> str:
    """A King id as his name in ``w``'s data (an unknown id as itself)."""
    return _king(w, k)


def _name(w: DataPair, token: str) -> str:
    """An area or power id as its name; anything else unchanged."""
    if token in w.game_map.areas:
        return _area(w, token)
    if token in w.game_data.powers:
        return short_power(w, token)
    if token in w.game_data.kings:
        return _king(w, token)
    return token


def token_words(w: DataPair, token: str) -> str:
    """One plain word of an option: a unit code, a battle marker, an area, power or King id, or itself."""
    if token in UNIT_NAMES or token in _TWO:
        return unit_word(token)
    if token in MARKER_NAMES:
        return MARKER_NAMES[token]
    return _name(w, token)
