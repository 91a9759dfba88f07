"""Whole-game change events in plain words (for logs, notebooks and exported replays).

``describe_change(change, data)`` returns a sentence, or None for changes it does not know
(the ruleset's own ``describe`` keeps the battle changes).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from medviz.rules.medempires.combat import UNIT_NAMES
from medviz.rules.medempires.game.state import game_data, game_map


def _area(a: Any) -> str:
    area = game_map().areas.get(str(a))
    return area.name if area else str(a)


def _unit(d: Mapping[str, Any]) -> str:
    power = game_data().powers.get(str(d.get("power")))
    n = int(d.get("n", 1))
    name = UNIT_NAMES.get(str(d.get("unit")), str(d.get("unit")))
    pname = power.name if power else str(d.get("power"))
    article = "an" if pname[:1] in "AEIOU" else "a"
    return f"{n if n > 1 else article} {pname} {name}{'s' if n > 1 else ''}"


def _king(k: Any) -> str:
    king = game_data().kings.get(str(k))
    return king.name if king else str(k)


def describe_change(change: str, d: Mapping[str, Any]) -> str | None:
    """One whole-game change in plain words, or None."""
    if change == "unit-placed":
        return f"{_unit(d)} {'recruited' if d.get('recruited') else 'placed'} in {_area(d['area'])}"
    if change == "unit-removed":
        why = d.get("reason") or ("set aside for the Crusade" if d.get("to") == "crusade" else "")
        return f"{_unit(d)} removed from {_area(d['area'])}" + (f" ({why})" if why else "")
    if change == "unit-moved":
        return f"{_unit(d)} moves from {_area(d['source'])} to {_area(d['to'])}" + (f" ({d['why']})" if d.get("why") else "")
    if change == "force-formed":
        units = ", ".join(f"{n} {UNIT_NAMES.get(c, c)}" for _, c, n in d["units"])
        kings = f" with {', '.join(_king(k) for k in d.get('kings', ()))}" if d.get("kings") else ""
        power = game_data().powers[str(d["power"])].name
        return f"a force of {power} ({units}){kings} is activated in {_area(d['area'])}"
    if change == "force-ops":
        return f"the force has {d['ops']} OPs" + (" (capped at 15)" if d.get("cap") else "")
    if change == "force-spends":
        return f"the force spends {d['ops']} OP(s): {d.get('why', '')}"
    if change == "force-moved":
        return f"the force moves to {_area(d['to'])}"
    if change == "force-ends":
        return "the force ends its action"
    if change == "embarked":
        what = _king(d["king"]) if d.get("king") else _unit(d)
        return f"{what} embarks from {_area(d['source'])}"
    if change == "debarked":
        what = _king(d["king"]) if d.get("king") else _unit(d)
        return f"{what} lands in {_area(d['to'])}"
    if change == "cargo-lost":
        return f"{_unit(d)} is lost at sea"
    if change == "status":
        power = game_data().powers[str(d["power"])].name
        st = str(d["status"])
        words = {"neutral": "neutral"}.get(st, st.replace("ally:", "allied to Player ").replace("vassal:", "a vassal of Player "))
        return f"{power} becomes {words}" + (f" ({d['why']})" if d.get("why") else "")
    if change == "treasury":
        return f"Player {d['side']} now has {d['tp']} TP ({d.get('why', '')})"
    if change == "king-placed":
        return f"{_king(d['king'])} takes the throne in {_area(d['area'])}"
    if change == "king-died":
        return f"{_king(d['king'])} dies ({d.get('cause', '')})"
    if change == "king-moved":
        return f"{_king(d['king'])} moves to {_area(d['to'])}"
    if change == "marker-drawn":
        return f"Player {d['side']} takes a {game_data().stratagems[str(d['marker'])].name} marker"
    if change == "marker-spent":
        return f"Player {d['side']} plays {game_data().stratagems[str(d['marker'])].name}" + (
            f" ({d['use']})" if d.get("use") else "")
    if change == "pope":
        if d.get("side"):
            return f"the Pope sits in Rome for Player {d['side']}"
        return "the Pope dies" if d.get("died") else "the Pope leaves Rome"
    if change == "plague":
        return "plague: every OP cost is doubled this turn" if d.get("on") else "the plague ends"
    if change == "battle-opened":
        return f"battle in {_area(d['area'])}: Player {d['players']['attacker']} attacks" + (
            " (interception)" if not d.get("may_avoid", True) else "")
    if change == "battle-closed":
        s = d["summary"]
        return f"the battle in {_area(s['area'])} ends: " + (f"Player {s['winner']} holds the field" if s.get("winner") else "both sides remain")
    if change == "area-ceded":
        return f"{_area(d['area'])} is ceded to Castile (14.3)"
    if change in ("turn-begins", "phase-begins", "ops-phase-begins", "political-kinds", "units-done",
                  "markers-return", "game-ends", "force-picks-up", "force-drops", "king-joins",
                  "king-leaves-force", "king-diplomacy-used", "pope-used", "concession", "allied-recruit",
                  "crusade-fleet-due", "crusade-return"):
        return change.replace("-", " ") + (f": {dict(d)}" if d else "")
    return None
