"""What a map shows of a game state, as plain data: the contract between rules and ``viz``.

A *view* is a JSON-ready dict (no plotly, no geometry), so the same view feeds a plotly figure,
an ipywidgets app and a standalone HTML export:

```
{
  "game": "medempires",                                               # which ruleset portrays it
  "turn": 1 | None, "phase": "politics" | None, "years": "1282–1290" | None, "title": str,
  "control": {area id: "A" | "B" | "partial" | power id | None},   # 3.4; power id = neutral/vassal holder
  "units":   {area id: {power id: {unit code: count}}},              # FA L R M F; fleets in sea areas
  "kings":   {area id: [power id, ...]},
  "pope":    area id | None,
  "tp":      {"A": n, "B": n},  "vp": {"A": n, "B": n},
  "status":  {power id: "player-A" | "player-B" | "ally-A" | "ally-B" | "vassal-A" | "vassal-B" | "neutral"},
  "powers":  {power id: {"name": str, "colour": "#RRGGBB", "accent": "#RRGGBB" | None,
                         "home": [area id, ...], "start": [area id, ...]}},   # 2.2.2, game-data order
  "overlays": [ {"kind": "move", "side": "A", "power": id, "path": [area, ...]},
                {"kind": "battle", "area": id, "result": "DV", "winner": "attacker",
                 "winner_side": "A" | "B" | None, "sides": {"attacker": "A", "defender": "B"},
                 "roll": "<id of the deciding table roll>"},
                {"kind": "interception", "area": id, "success": bool},
                {"kind": "politics", "power": id, "attempt": "alliance", "result": "NE"} ],
}
```

``powers`` is what the map draws of each power: the names and display colours of the data the
game is played with (a teacher's override file may rename a power or recolour it). Every view of
one game's data shares one ``powers`` dict (``power_view``): treat it as read-only. A view without
``powers`` (a hand-made one) is drawn with the shipped powers.
"""

from __future__ import annotations

import re
from functools import lru_cache
from types import SimpleNamespace
from typing import Any

from medviz.rules.medempires.gamedata import GameData
from medviz.rules.medempires.mapdata import GameMap

UNIT_CODES = ("FA", "L", "R", "M", "F")


def empty_view(title: str = "") -> dict[str, Any]:
    """A view with nothing on the map."""
    return {"game": "medempires", "turn": None, "phase": None, "years": None, "title": title, "control": {}, "units": {},
            "kings": {}, "pope": None, "tp": {"A": 0, "B": 0}, "vp": {"A": 0, "B": 0}, "status": {},
            "overlays": []}


def power_view(data: GameData | None = None) -> dict[str, dict[str, Any]]:
    """The ``powers`` of a view: each power's name, display colours and areas (2.2.2), in data order.

    ``data`` defaults to the shipped data (a game's own is ``state.data``). One dict per
    game data, made once and shared by every view of that data: do not change it.
    """
    from medviz.rules.medempires.game import state as _state

    return _power_view(_state.Same(data if data is not None else _state.shipped_data().game_data))


@lru_cache(maxsize=8)
def _power_view(data: Any) -> dict[str, dict[str, Any]]:  # data: state.Same (imported lazily)
    return {pid: {"name": p.name, "colour": p.display_colour, "accent": p.display_accent,
                  "home": list(p.home_areas), "start": list(p.controlled_at_start)}
            for pid, p in data.obj.powers.items()}


def _status_at_start(data: GameData) -> dict[str, str]:
    out = {}
    for pid, p in data.powers.items():
        st, fac = p.status_at_start, p.faction_at_start
        if st == "player":
            out[pid] = f"player-{fac}"
        elif st in ("ally", "vassal") and fac in ("A", "B"):
            out[pid] = f"{st}-{fac}"
        else:
            out[pid] = "neutral"
    return out


def setup_view(scenario: str = "vespers-1282", data: GameData | None = None,
               game_map: GameMap | None = None) -> dict[str, Any]:
    """The view of a scenario at set-up, from the default deployment (3.1–3.3).

    ``data``/``game_map`` default to the shipped ones (a game's own are ``state.data``/``state.map``).
    """
    from medviz.rules.medempires.game import state as _state

    data = data or _state.shipped_data().game_data
    game_map = game_map or _state.shipped_data().game_map
    sc = data.scenarios[scenario]
    dep = data.deployments[scenario]
    status = _status_at_start(data)
    v = empty_view(f"{sc.name}: set-up")
    v["years"] = "–".join(map(str, sc.turn_years[0])) if sc.turn_years else None
    v["status"] = status
    v["powers"] = power_view(data)
    v["tp"] = dict(sc.starting_tp)
    units: dict[str, dict[str, dict[str, int]]] = {}
    kings: dict[str, list[str]] = {}
    for power, code, area in dep.placements():
        if area is None:
            continue
        if code == "K":
            kings.setdefault(area, []).append(power)
            continue
        units.setdefault(area, {}).setdefault(power, {})
        units[area][power][code] = units[area][power].get(code, 0) + 1
    v["units"] = units
    control: dict[str, Any] = {a: None for a in game_map.land_ids()}
    for power, entry in data.setup.items():
        st = status.get(power, "neutral")
        for area in entry.controls:
            if st.startswith(("player-", "ally-")):
                control[area] = st[-1]
            else:
                control[area] = power
    # Occupation gives total control from the start (3.4a; ruling C: Abruzzi, Auvergne).
    for area, by_power in units.items():
        if area not in control:
            continue
        sides = {status.get(p, "neutral")[-1] for p in by_power if status.get(p, "").startswith(("player-", "ally-"))}
        if len(sides) == 1 and control.get(area) is None:
            control[area] = sides.pop()
    v["control"] = control
    v["kings"] = kings
    return v


# --------------------------------------------------------------------------------------------
# Views of whole-game states and histories
# --------------------------------------------------------------------------------------------
def _view_status(status: str) -> str:
    """``ally:A`` → ``ally-A``; ``player`` stays for the caller to resolve."""
    return status.replace(":", "-")


def state_view(state: Any, overlays: list[dict[str, Any]] | None = None, *,
               turn: int | None = None, phase: str | None = None) -> dict[str, Any]:
    """The view of a whole-game state (``medviz.rules.medempires.game``).

    ``turn``/``phase`` name the moment when it is not yet in the state (a phase's first event
    carries the new phase before the state's own phase change follows it). The view reads the
    map and data the game is played with (its override files, if any).
    """
    return _state_view(state, overlays, turn, phase)


def _state_view(state: Any, overlays: list[dict[str, Any]] | None, turn: int | None,
                phase: str | None) -> dict[str, Any]:
    from medviz.rules.medempires.game.state import PLAYER_POWERS
    from medviz.rules.medempires.game.turn import victory_points

    data = state.data
    sc = data.scenarios[state.scenario]
    v = empty_view()
    turn = turn if turn is not None else state.turn
    phase = phase if phase is not None else state.phase
    v["turn"], v["phase"] = turn, phase
    if 1 <= turn <= len(sc.turn_years):
        v["years"] = "–".join(map(str, sc.turn_years[turn - 1]))
    if turn == 0:  # the set-up (3.0) comes before game turn 1
        v["title"] = f"{sc.name} — set-up (3.0), before turn 1"
    else:
        v["title"] = f"{sc.name} — turn {turn}" + (f" ({v['years']})" if v["years"] else "") + \
            f", {str(phase).replace('-', ' ')}"
    status = {}
    for power, st in state.status.items():
        status[power] = f"player-{PLAYER_POWERS[power]}" if st == "player" else _view_status(st)
    v["status"] = status
    v["powers"] = power_view(data)
    v["control"] = {a: c for a, c in state.ctl.items()}
    units: dict[str, dict[str, dict[str, int]]] = {}

    def add(area: str, power: str, code: str, n: int) -> None:
        if n > 0:
            by = units.setdefault(area, {}).setdefault(power, {})
            by[code] = by.get(code, 0) + n

    for area, keys in state.units.items():
        for (power, code), n in keys.items():
            add(area, power, code, n)
    if state.force is not None:
        for (power, code), n in state.force.cargo.items():
            add(state.force.area, power, code, n)
    v["units"] = units
    kings: dict[str, list[str]] = {}
    for king, area in sorted(state.kings.items()):
        k = data.kings.get(king)
        kings.setdefault(area, []).append(k.power if k else king)
    v["kings"] = kings
    v["pope"] = "papal_states" if state.pope else None
    v["tp"] = dict(state.tp)
    v["vp"] = victory_points(state)
    if sc.victory.get("kind") == "vespers" or phase == "victory" or state.finished:
        from medviz.rules.medempires.game.turn import judge
        from medviz.rules.medempires.words import outcome_sentence

        judged = judge(state)
        if sc.victory.get("kind") == "vespers":  # 13.0 counts areas, not 4.1's cities
            need = len(sc.victory["b_must_control"])
            guarded = len(sc.victory["a_must_not_take"])
            # short enough for the panel's boxes: A counts B's guarded areas taken, B the key areas held
            v["standing"] = {"A": f"Taken: {judged['vp']['A']} of {guarded}", "B": f"Held: {judged['vp']['B']} of {need}"}
        if phase == "victory" or state.finished:
            v["winner"] = outcome_sentence(judged)
    v["overlays"] = overlays or []
    return v


def step_overlays(history: Any, seq: int) -> list[dict[str, Any]]:
    """What the current step shows: the active force's path, its battles and interceptions,
    or the political results of the phase so far."""
    events = history.events
    start = 0
    for i in range(seq, -1, -1):
        e = events[i]
        if e.kind == "phase" or (e.kind == "change" and e.change == "force-formed"):
            start = i
            break
    out: list[dict[str, Any]] = []
    move: dict[str, Any] | None = None
    battle: dict[str, Any] | None = None
    for e in events[start: seq + 1]:
        if e.kind == "change":
            d = e.data
            if e.change == "force-formed":
                move = {"kind": "move", "side": d["side"], "power": d["power"], "path": [d["area"]]}
                out.append(move)
            elif e.change == "force-moved" and move is not None:
                move["path"].append(d["to"])
            elif e.change == "battle-opened":
                players = dict(d.get("players") or {})
                battle = {"kind": "battle", "area": d["area"], "result": None, "winner": None,
                          "sides": players, "winner_side": None, "roll": None,
                          "prefix": d.get("prefix")}
                out.append(battle)
            elif e.change == "battle-result" and battle is not None:
                battle["result"] = d["result"]
            elif e.change == "battle-ends" and battle is not None:
                battle["winner"] = d["winner"]
                battle["winner_side"] = battle["sides"].get(d["winner"])
        elif e.kind == "roll" and battle is not None and is_table_roll(e.roll):
            battle["roll"] = e.roll  # the latest table roll: the one that decided the battle
        elif e.kind == "report":
            d = e.data
            if e.report == "interception":
                area = move["path"][-1] if move else None
                out.append({"kind": "interception", "area": area, "success": d["result"] == "success"})
            elif e.report == "political-result":
                out.append({"kind": "politics", "power": d["target"], "attempt": d["kind"],
                            "result": d["result"]})
    return out


_TABLE_ROLL = re.compile(r"(^|/)combat-\d+/round-\d+/")


def is_table_roll(roll_id: str) -> bool:
    """True for a roll on a combat results table (``.../combat-1/round-2/attacker``): the rolls that decide battles."""
    return _TABLE_ROLL.search(roll_id) is not None


def live_view(state: Any, events: Any, turn: int | None = None, phase: str | None = None) -> dict[str, Any] | None:
    """The view of a game being played: ``state`` after ``events``, with the current step's overlays."""
    if not hasattr(state, "ctl"):  # a one-battle game has no map
        return None
    overlays = step_overlays(SimpleNamespace(events=events), len(events) - 1) if events else []
    return state_view(state, overlays, turn=turn, phase=phase)


def history_view(history: Any, seq: int) -> dict[str, Any] | None:
    """The view just after event ``seq`` of a whole-game history (``None`` for a battle history).

    Cost: ``history.state_at`` (a snapshot copy plus the changes since) and one pass over the
    current step's events.
    """
    if history.scenario == "battle":
        return None
    if seq < 0:
        return state_view(history.state_at(-1))
    event = history.events[seq]
    return state_view(history.state_at(seq), step_overlays(history, seq), turn=event.turn, phase=event.phase)
