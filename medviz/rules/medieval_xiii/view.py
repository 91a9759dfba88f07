"""What the map shows of a game of Medieval, as plain data: the contract between the rules and ``portrayal.py``.

A *view* is a JSON-ready dict (no plotly, no geometry):

```
{
  "game": "medieval-xiii", "scenario": "four-players", "title": str,
  "round": 3, "phase": "actions" | None, "player": "C" | None,      # whose Player Turn it is
  "seen_by": None | "A",                 # None: everything; a seat: what that seat may see (Ruleset.observe)
  "seats": {seat: {"name": "Player A", "colour": "#rrggbb", "florins": n, "vp": n,
                   "powers": [power name, ...], "hand": [card words, ...] | n}},   # n: a hidden hand's size
  "control": {province id: seat},
  "cards": {map card id: "play" | "face-down" | "destroyed" | "out"},            # 2.1, 3.3, 5.3
  "markers": {province id: ["knights" | "heresy" | "civil-war" | "disaster" | "excommunicated"]},
  "decks": {"action": n, "map": n, "mongols_no_event": n, "mongols_resolved": n},
  "provinces": {province id: {"name": str, "card": id, "income": n, "power": power name}},  # the game's data
  "overlays": [{"kind": "battle", "target": id, "attacker": seat, "defender": seat | None, "power": name,
                "attack": n, "defence": n, "winner": "attacker" | "defender", "roll": id},
               {"kind": "mongols", "card": id, "mongols": n, "defence": n, "won": bool, "roll": id},
               {"kind": "map-card", "card": id, "status": "play" | "destroyed" | "out"},
               {"kind": "crusade", "won": bool, "strength": n, "infidels": n | None, "roll": id | None}],
}
```

``provinces`` is the same dict for every view of one game's data (``province_info``): read-only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from medviz.engine.events import ChangeEvent, Event, ReportEvent, RollEvent, current_phase
from medviz.rules.medieval_xiii.gamedata import GameData, card_power

GAME = "medieval-xiii"
#: What a seat sees of a card it may not see (``Ruleset.observe``).
HIDDEN = "hidden"
#: The seats' colours on screen.
COLOURS = {"A": "#d62728", "B": "#1f77b4", "C": "#2ca02c", "D": "#ff7f0e", "E": "#9467bd"}
#: Action card kinds in words (1.4).
KIND_WORDS = {"pope": "Pope", "mongols": "Mongols", "knights_of_christ": "Knights of Christ", "spies": "Spies",
              "assassin": "Assassin", "civil_war": "Civil War", "jihad": "Jihad", "heresy": "Heresy",
              "disaster": "Disaster", "change_of_ruler": "Change of Ruler", "deus_ex_machina": "Deus ex Machina"}


def card_words(data: GameData, card: str) -> str:
    """An action or Power card in words: ``Pope Gregory IX``, ``Spies``, ``Power: France``; a hidden card ``?``."""
    if card == HIDDEN:
        return "?"
    power = card_power(card)
    if power:
        return f"Power: {data.powers[power].name}"
    kind = data.action_cards.get(card, "")
    if kind == "pope":
        return "Pope " + " ".join(w.upper() if set(w) <= set("ivxl") else w.title()
                                  for w in card.partition("-")[2].split("_"))
    return KIND_WORDS.get(kind, card)


#: Province facts by game data (kept with the data, so its id stays unique).
_INFO: dict[int, tuple[GameData, dict[str, dict[str, Any]]]] = {}


def province_info(data: GameData) -> dict[str, dict[str, Any]]:
    """Each province's name, card, income and Power (by name), one dict per game data: do not change it."""
    hit = _INFO.get(id(data))
    if hit is not None and hit[0] is data:
        return hit[1]
    if len(_INFO) >= 8:
        _INFO.pop(next(iter(_INFO)))
    info = {pid: {"name": p.name, "card": p.card, "income": p.income,
                  "power": data.powers[p.power].name if p.power in data.powers else ""}
            for pid, p in data.provinces.items()}
    _INFO[id(data)] = (data, info)
    return info


def card_status(state: Any, events: Sequence[Event]) -> dict[str, str]:
    """Every map card's status: in play, face down (not yet drawn), destroyed by the Mongols, or out (5.3)."""
    gone = {e.data["card"]: e.data["status"] for e in events
            if isinstance(e, ChangeEvent) and e.change == "map_card" and e.data["status"] != "play"}
    out = {}
    for card in state.data.cards:
        if card in state.map_in_play:
            out[card] = "play"
        elif card in state.map_gone:
            out[card] = gone.get(card, "destroyed")
        else:
            out[card] = "face-down"
    return out


def step_overlays(events: Sequence[Event]) -> list[dict[str, Any]]:
    """What the current step shows: the battles, Mongol attacks, map cards and crusades of the phase so far."""
    out: list[dict[str, Any]] = []
    attack: dict[str, Any] | None = None
    rolls: list[str] = []
    for e in current_phase(events):
        if isinstance(e, RollEvent):
            rolls.append(e.roll)
        elif isinstance(e, ReportEvent):
            d = e.data
            if e.report == "attack":
                attack = {"attacker": e.actor, "power": d["power"], "target": d["target"]}
            elif e.report == "battle":
                who = attack or {"attacker": e.actor, "power": "", "target": d["target"]}
                roll = next((r for r in reversed(rolls) if r.endswith("/attacker")), None)
                out.append({"kind": "battle", "target": d["target"], "attacker": who["attacker"],
                            "power": who["power"], "attack": d["attacker_total"], "defence": d["defender_total"],
                            "winner": d["winner"], "roll": roll})
                attack = None
            elif e.report == "mongol-battle":
                roll = next((r for r in reversed(rolls) if r.endswith("/mongols")), None)
                out.append({"kind": "mongols", "card": d["card"], "mongols": d["mongols"], "defence": d["defence"],
                            "won": d["winner"] == "mongols", "roll": roll})
            elif e.report == "crusade":
                roll = next((r for r in reversed(rolls) if r.endswith("/crusade/infidels")), None)
                out.append({"kind": "crusade", "won": bool(d["won"]), "strength": d["strength"],
                            "infidels": d["infidels"], "roll": roll if d["infidels"] is not None else None})
        elif isinstance(e, ChangeEvent) and e.change == "map_card":
            out.append({"kind": "map-card", "card": e.data["card"], "status": e.data["status"]})
    return out


def state_view(state: Any, events: Sequence[Event], seat: str | None = None, *, phase: str | None = None,
               observe: Any = None) -> dict[str, Any]:
    """The view of ``state`` after ``events``; with ``seat`` (or an observed state), only what that seat may see."""
    from medviz.rules.medieval_xiii.turn import victory_points

    seen = observe(state, seat) if seat is not None and observe is not None else state
    seat = seat if seat is not None else state.seen_by  # an observed state knows its seat
    data = state.data
    vp = victory_points(state)
    seats: dict[str, Any] = {}
    for s in state.seats:
        hand = seen.hands[s]
        hidden = bool(hand) and all(c == HIDDEN for c in hand)
        seats[s] = {"name": f"Player {s}", "colour": COLOURS.get(s, "#777777"), "florins": state.florins[s], "vp": vp[s],
                    "powers": [data.powers[p].name for p in state.powers_of(s)],
                    "hand": len(hand) if hidden else [card_words(data, c) for c in hand]}
    markers: dict[str, list[str]] = {}
    for prov in state.koc:
        markers.setdefault(prov, []).append("knights")
    for prov in state.heresy:
        markers.setdefault(prov, []).append("heresy")
    for what, powers in (("civil-war", state.civil_war), ("disaster", state.disaster),
                         ("excommunicated", state.excommunicated)):
        for power in powers:
            for prov in state.home_provinces(power):
                markers.setdefault(prov, []).append(what)
    n = len(state.seats)
    player = state.turn.get("seat") if state.turn else None
    phase = phase or next((e.phase for e in reversed(events) if e.phase), None)
    if state.round:
        title = f"round {state.round}" + (f", Player {player}'s turn" if player else "")
    else:
        title = "set-up (2.0)"
    return {
        "game": GAME, "scenario": state.scenario, "title": f"Medieval, {n} players — {title}",
        "round": state.round, "phase": phase, "player": player, "seen_by": seat,
        "seats": seats,
        "control": {p: s for p, s in sorted(state.control.items()) if state.in_play(p)},
        "cards": card_status(state, events),
        "markers": {p: sorted(set(m)) for p, m in sorted(markers.items())},
        "decks": {"action": len(state.action_deck), "map": len(state.map_deck),
                  "mongols_no_event": state.mongols_no_event, "mongols_resolved": state.mongols_resolved},
        "provinces": province_info(data),
        "overlays": [{**o, "power": _power_name(data, o["power"])} if "power" in o else o
                     for o in step_overlays(events)],
        "over": state.over,
    }


def _power_name(data: GameData, power: str) -> str:
    """A Power's name; the Knights of Christ (7.1) are not a Power card."""
    return data.powers[power].name if power in data.powers else power.replace("_", " ").title().replace(" Of ", " of ")


def history_view(history: Any, seq: int, seat: str | None = None) -> dict[str, Any]:
    """The view just after event ``seq`` of ``history`` (-1: before the first), for everyone or for ``seat``."""
    events = history.events[: seq + 1]
    return state_view(history.state_at(seq), events, seat,
                      phase=events[-1].phase if events else None, observe=history.ruleset.observe)

