"""What a map shows of a game state, as plain data: the contract between rules and ``viz``.

A *view* is a JSON-ready dict (no plotly, no geometry), so the same view feeds a plotly figure,
an ipywidgets app and a standalone HTML export:

```
{
  "turn": 1 | None, "phase": "politics" | None, "years": "1282–1290" | None, "title": str,
  "control": {area id: "A" | "B" | "partial" | power id | None},   # 3.4; power id = neutral/vassal holder
  "units":   {area id: {power id: {unit code: count}}},              # FA L R M F; fleets in sea areas
  "kings":   {area id: [power id, ...]},
  "pope":    area id | None,
  "tp":      {"A": n, "B": n},  "vp": {"A": n, "B": n},
  "status":  {power id: "player-A" | "player-B" | "ally-A" | "ally-B" | "vassal-A" | "vassal-B" | "neutral"},
  "overlays": [ {"kind": "move", "side": "A", "power": id, "path": [area, ...]},
                {"kind": "battle", "area": id, "result": "DV", "winner": "attacker"},
                {"kind": "interception", "area": id, "success": bool},
                {"kind": "politics", "power": id, "attempt": "alliance", "result": "NE"} ],
}
```
"""

from __future__ import annotations

from typing import Any

from medviz.rules.medempires.gamedata import GameData, load_game_data
from medviz.rules.medempires.mapdata import GameMap, load_map

UNIT_CODES = ("FA", "L", "R", "M", "F")


def empty_view(title: str = "") -> dict[str, Any]:
    """A view with nothing on the map."""
    return {"turn": None, "phase": None, "years": None, "title": title, "control": {}, "units": {},
            "kings": {}, "pope": None, "tp": {"A": 0, "B": 0}, "vp": {"A": 0, "B": 0}, "status": {},
            "overlays": []}


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
    """The view of a scenario at set-up, from the default deployment (3.1–3.3)."""
    data = data or load_game_data()
    game_map = game_map or load_map()
    sc = data.scenarios[scenario]
    dep = data.deployments[scenario]
    status = _status_at_start(data)
    v = empty_view(f"{sc.name}: set-up")
    v["years"] = "–".join(map(str, sc.turn_years[0])) if sc.turn_years else None
    v["status"] = status
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
