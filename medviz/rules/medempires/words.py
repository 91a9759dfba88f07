"""Words a class reads: rolls named by what they decide, combat results with their key, outcomes and changes.

These back the ``Ruleset`` word hooks (``describe_roll``, ``result_key``, ``describe_outcome``,
``area_names``, ``compare_views``) that the generic apps call; nothing here draws.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from medviz.engine.events import ChangeEvent, DrawEvent, RollEvent
from medviz.rules.medempires.game.state import PLAYER_POWERS, GameState

__all__ = ["area_names", "compare_words", "outcome_sentence", "outcome_words", "result_key", "roll_words", "turn_years"]


@lru_cache(maxsize=1)
def _results() -> dict[str, tuple[str, str]]:
    """Combat result codes -> (name, summary), from data/tables.toml (Combat Results)."""
    from medviz.rules.datafiles import load_toml
    from medviz.rules.medempires import combat

    return {r["id"]: (r["name"], r["summary"]) for r in load_toml(combat.DATA / "tables.toml")["result"]}


def _state(history: Any) -> GameState | None:
    s = history.final_state
    return s if isinstance(s, GameState) else None


def _area_name(state: GameState | None, area: str) -> str:
    if state is not None and area in state.map.areas:
        return str(state.map.areas[area].name)
    names = _shipped_area_names()
    return names[area] if area in names else area.replace("_", " ")


@lru_cache(maxsize=1)
def _shipped_area_names() -> dict[str, str]:
    """The shipped map's area names by id, loaded once (a load takes ~25 ms; a branch's map asked 11 times)."""
    from medviz.rules.medempires.mapdata import load_map

    return {a: str(area.name) for a, area in load_map().areas.items()}


def _power_name(state: GameState | None, power: str) -> str:
    if state is not None and power in state.data.powers:
        return str(state.data.powers[power].name).split(" (")[0]
    return power.replace("_", " ").title()


def turn_years(history: Any, turn: int | None) -> str:
    """The years of game turn ``turn`` in the history's scenario (``1282–1290``), '' when unknown."""
    state = _state(history)
    if state is None or not turn:
        return ""
    sc = state.data.scenarios.get(history.scenario) if hasattr(state.data.scenarios, "get") else None
    if sc is None or turn > len(sc.turn_years):
        return ""
    a, b = sc.turn_years[turn - 1]
    return f"{a}–{b}"


#: Each recent history's battle-opened events by their prefix (the latest of each, with its place in the
#: events), keyed by the id of its events tuple, which the entry holds (so the id names no other tuple).
#: A dice lab names every roll of a branch in its menu: one pass over the events, not one per roll.
_BATTLES: dict[int, tuple[tuple[Any, ...], dict[str, tuple[int, ChangeEvent]]]] = {}
BATTLES_KEEP = 16


def _battles(history: Any) -> dict[str, tuple[int, ChangeEvent]]:
    """The history's battle-opened events by prefix: (place in the events, event), the latest of each prefix."""
    events = history.events
    hit = _BATTLES.get(id(events))
    if hit is not None and hit[0] is events:
        return hit[1]
    index: dict[str, tuple[int, ChangeEvent]] = {}
    for i, e in enumerate(events):
        if isinstance(e, ChangeEvent) and e.change == "battle-opened":
            index[str(e.data["prefix"])] = (i, e)
    if isinstance(events, tuple):  # a list could change under its id: indexed afresh each time
        _BATTLES[id(events)] = (events, index)
    while len(_BATTLES) > BATTLES_KEEP:
        del _BATTLES[next(iter(_BATTLES))]
    return index


def _battle_of(history: Any, roll_id: str) -> ChangeEvent | None:
    """The battle-opened event whose prefix the roll id starts with (the latest such)."""
    index = _battles(history)
    found: tuple[int, ChangeEvent] | None = None
    at = roll_id.find("/")
    while at != -1:  # each prefix the id starts with, then "/"
        got = index.get(roll_id[:at])
        if got is not None and (found is None or got[0] > found[0]):
            found = got
        at = roll_id.find("/", at + 1)
    return found[1] if found is not None else None


def roll_words(history: Any, event: RollEvent | DrawEvent) -> str:
    """``Aragon's attack roll in the sea battle in the Strait of Sicily, game turn 3 (1302–1310)``."""
    state = _state(history)
    rid = str(getattr(event, "roll", None) or getattr(event, "draw", ""))
    when = f"game turn {event.turn}" if event.turn else ("the set-up" if event.turn == 0 else "")
    years = turn_years(history, event.turn)
    when += f" ({years})" if years else ""
    tail = f", {when}" if when else ""
    battle = _battle_of(history, rid) if isinstance(event, RollEvent) else None
    if battle is not None and "/round-" in rid:
        side = rid.rsplit("/", 1)[-1]
        d = battle.data
        units = d.get(side) or ()
        power = _power_name(state, str(units[0][0])) if units else f"the {side}"
        role = "attack" if side == "attacker" else "defence"
        if "/ca-" in rid or "counter" in rid:
            role = "counterattack"
        where = _area_name(state, str(d["area"]))
        kind = "sea battle" if d.get("kind") == "sea" else "battle"
        return f"{power}'s {role} roll in the {kind} in {where}{tail}"
    who = event.actor or ""
    who = f"Player {who}" if who in ("A", "B") else who
    what = str(getattr(event, "purpose", "") or rid)
    if battle is not None:
        what += f" (battle in {_area_name(state, str(battle.data['area']))})"
    return f"{who + ': ' if who else ''}{what}{tail}"


def result_key(event: RollEvent | DrawEvent) -> list[tuple[str, str]]:
    """The combat results a roll's faces may mean, with their names and what they do (Combat Results)."""
    effects = getattr(event, "effects", None) or {}
    codes = []
    for v in effects.values():
        if v not in codes:
            codes.append(v)
    out = []
    for code in sorted(codes, key=lambda c: list(_results()).index(c) if c in _results() else 99):
        if code in _results():
            name, summary = _results()[code]
            out.append((str(code), f"{name}: {summary}"))
    return out


def outcome_sentence(outcome: Mapping[str, Any], seat_title: str = "") -> str:
    """``Player A (France and Anjou) wins: France and Anjou took Rosselló (13.0)`` from an outcome's reason."""
    winner = outcome.get("winner")
    if winner in (None, "", "none"):
        return "no winner"
    reason = str(outcome.get("reason") or "")
    cut = reason.find(" wins:")
    if cut >= 0:
        start = reason.rfind(". ", 0, cut)
        said = reason[start + 2 if start >= 0 else 0:].strip()
        return said.rstrip(".") + (f" ({reason.split(':', 1)[0]})" if reason[:2].isdigit() else "")
    if winner == "draw":
        return "a draw" + (f": {reason}" if reason else "")
    last = reason.rstrip(".").rsplit(": ", 1)[-1] if reason else ""
    return last or f"{seat_title or winner} wins"


def outcome_words(history: Any) -> str:
    """``Player A (France and Anjou) wins: France and Anjou took Rosselló (13.0)`` — one sentence, one reason."""
    o = history.outcome if isinstance(history.outcome, Mapping) else {}
    winner = o.get("winner")
    title = history.ruleset.seat_title(str(winner), history.scenario, _state(history)) if winner else ""
    return outcome_sentence(o, title)


def area_names(history_or_state: Any, areas: Sequence[str]) -> list[str]:
    """Area names for ids (the game's own map when known)."""
    state = history_or_state if isinstance(history_or_state, GameState) else None
    return [_area_name(state, a) for a in areas]


def _holder(code: Any) -> str:
    """Who a control code names, in words (``A`` -> France and Anjou, ``partial`` -> nobody in full)."""
    if code in (None, "", "none"):
        return "nobody"
    if code == "partial":
        return "nobody in full control"
    if code in ("A", "B"):
        powers = [_power_name(None, p) for p, s in PLAYER_POWERS.items() if s == code]
        return f"{' and '.join(powers)} (Player {code})"
    return _power_name(None, str(code))


def compare_words(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """What differs between two views, as sentences: areas in other hands, then victory points (4.0)."""
    ca, cb = before.get("control") or {}, after.get("control") or {}
    moved = sorted(a for a in set(ca) | set(cb) if ca.get(a) != cb.get(a))
    lines = [f"{_area_name(None, a)}: held by {_holder(ca.get(a))} as played, by {_holder(cb.get(a))} in the what-if."
             for a in moved] or ["No area ends in other hands."]
    va, vb = before.get("vp") or {}, after.get("vp") or {}
    if va != vb:
        lines.append("Victory points (4.0): " + ", ".join(
            f"Player {s} {va.get(s, 0)} → {vb.get(s, 0)}" for s in sorted(set(va) | set(vb))) + ".")
    return lines
