"""How the map portrays a Mediterranean Empires view (view.py): colours, badges, overlays, panel, legend.

``portray(view, places, shades)`` turns a view into a ``medviz.engine.portrayal.Portrayal`` (plain
data; ``medviz.viz.state_map`` draws any portrayal). How the map reads (see docs/viz.md):

- Land areas take the colour of their controller (3.4): Player A's powers in France's dark blue
  and Anjou's sky blue, Player B's in Aragon's red, neutral powers in their own colours (2.2.2),
  paler so the two sides stand out. An ally's area is dotted, a vassal's cross-hatched, in the
  colour of the side it serves; an area in partial control is striped in both sides' colours.
- A unit stack is a badge in its power's colour under the area's name: ``♛ 2FA 1L`` is a King
  with two field armies and a levy. Fleets sit in their sea areas. ``✝ Pope`` marks Rome while
  the Pope is there.
- The step's overlays: movement paths as arrows, battles as stars (in the winner's colour) with
  their result, interceptions, and political results.
- Power names and colours are those of the data the game is played with: the view's ``powers``
  (a teacher's override file may rename or recolour a power); a view without them gets the shipped ones.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from medviz.engine import portrayal as _p
from medviz.engine.errors import MalformedInput, UnknownReference
from medviz.engine.portrayal import (
    AreaFill,
    Badge,
    BadgeGroup,
    LegendEntry,
    Mark,
    MarkLayer,
    PanelBox,
    Path,
    PathLayer,
    Place,
    Portrayal,
    Shades,
    plain,
)

__all__ = ["CROSS", "CROWN", "MAP", "PowerInfo", "SWORDS", "UNIT_NAMES", "UNIT_ORDER", "badge_text", "portray",
           "powers_of", "side_colour", "step_lines"]

blend = functools.lru_cache(maxsize=4096)(_p.blend)
contrast_text = functools.lru_cache(maxsize=4096)(_p.contrast_text)

#: The geodata the game is drawn on (``geodata/medempires.geojson``).
MAP = "medempires"
#: Unit codes in badge order, and their names (2.1).
UNIT_ORDER = ("FA", "L", "R", "M", "F")
UNIT_NAMES = {"FA": "field army", "L": "levy", "R": "raiders", "M": "mercenaries", "F": "fleet"}
CROWN = "♛"
CROSS = "✝"
SWORDS = "⚔"
SIDES = ("A", "B")
_HEX = re.compile(r"#[0-9A-Fa-f]{6}")


# ------------------------------------------------------------------------------------------
# Powers and their colours
# ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PowerInfo:
    """What the map needs of a power (2.2.2): the view's ``powers`` (the game's own data), else the shipped data."""

    id: str
    name: str
    colour: str
    accent: str | None
    home: tuple[str, ...]
    start: tuple[str, ...]


Powers = Mapping[str, PowerInfo]


@functools.lru_cache(maxsize=1)
def _powers() -> dict[str, PowerInfo]:
    """The shipped powers (a view without ``powers`` is drawn with them)."""
    from medviz.rules.medempires.gamedata import default_game_data

    data = default_game_data()
    return {pid: PowerInfo(pid, p.name, p.display_colour, p.display_accent, tuple(p.home_areas),
                           tuple(p.controlled_at_start))
            for pid, p in data.powers.items()}


#: The powers of recent views' ``powers`` dicts, by identity (every view of one game's data shares
#: one dict, ``view.power_view``); the dict is kept so its id stays unique.
_POWERS_BY_OBJECT: dict[int, tuple[Any, dict[str, PowerInfo]]] = {}


def powers_of(view: Mapping[str, Any]) -> Powers:
    """What the map draws of each power in ``view``: its ``powers`` (the game's own data), else the shipped ones."""
    raw = view.get("powers")
    if not raw:
        return _powers()
    hit = _POWERS_BY_OBJECT.get(id(raw))
    if hit is not None and hit[0] is raw:
        return hit[1]
    info = _powers_from(_powers_key(raw))
    if len(_POWERS_BY_OBJECT) >= 16:
        _POWERS_BY_OBJECT.pop(next(iter(_POWERS_BY_OBJECT)))
    _POWERS_BY_OBJECT[id(raw)] = (raw, info)
    return info


_PowersKey = tuple[tuple[str, str, str, str | None, tuple[str, ...], tuple[str, ...]], ...]


def _powers_key(raw: Any) -> _PowersKey:
    """A view's ``powers`` as a hashable key, checked: a bad entry is named (MalformedInput)."""
    if not isinstance(raw, Mapping):
        raise MalformedInput(f"the view's powers must map power ids to their names and colours, "
                             f"not {type(raw).__name__}")
    out = []
    for pid, p in raw.items():
        where = f"the view's powers[{pid!r}]"
        if not isinstance(p, Mapping):
            raise MalformedInput(f"{where} must be a mapping with name and colour, not {type(p).__name__}")
        name, colour, accent = p.get("name"), p.get("colour"), p.get("accent")
        if not isinstance(name, str) or not name:
            raise MalformedInput(f"{where}: name must be a non-empty text, not {name!r}")
        for what, c in (("colour", colour), ("accent", accent)):
            if (c is not None or what == "colour") and not (isinstance(c, str) and _HEX.fullmatch(c)):
                raise MalformedInput(f"{where}: {what} must be #RRGGBB, not {c!r}")
        areas = []
        for what in ("home", "start"):
            value = p.get(what) or ()
            if isinstance(value, str) or not all(isinstance(a, str) for a in value):
                raise MalformedInput(f"{where}: {what} must be a list of area ids, not {value!r}")
            areas.append(tuple(value))
        out.append((str(pid), name, str(colour), accent, areas[0], areas[1]))
    return tuple(out)


@functools.lru_cache(maxsize=16)
def _powers_from(key: _PowersKey) -> dict[str, PowerInfo]:
    return {pid: PowerInfo(pid, name, colour, accent, home, start)
            for pid, name, colour, accent, home, start in key}


def _side_powers(status: Mapping[str, str], side: str, powers: Powers | None = None) -> list[str]:
    """The player powers of a side, in game-data order."""
    return [p for p in (_powers() if powers is None else powers) if status.get(p) == f"player-{side}"]


def side_colour(side: str, status: Mapping[str, str] | None = None, powers: Powers | None = None) -> str:
    """The main colour of a side: its first player power's display colour (France, Aragon).

    ``powers`` are the game's (``powers_of(view)``); the shipped ones by default.
    """
    powers = _powers() if powers is None else powers
    names = _side_powers(status or {}, side, powers) or (["france"] if side == "A" else ["aragon"])
    return powers[names[0]].colour if names[0] in powers else ("#1F3F8F" if side == "A" else "#B2182B")


def _side_accent(side: str, status: Mapping[str, str], powers: Powers) -> str:
    """A side's accent (Aragon's gold for B) for panel borders; white when it has none."""
    for p in _side_powers(status, side, powers):
        if powers[p].accent:
            return powers[p].accent  # type: ignore[return-value]
    return "#ffffff"


# ------------------------------------------------------------------------------------------
# Fills: who controls each land area
# ------------------------------------------------------------------------------------------
def badge_text(stack: Mapping[str, int], king: bool = False) -> str:
    """The text of a unit stack's badge, e.g. ``♛ 2FA 1L`` (units in the order FA L R M F)."""
    parts = [f"{n}{code}" for code in UNIT_ORDER if (n := int(stack.get(code, 0))) > 0]
    parts += [f"{n}{plain(code)}" for code, n in sorted(stack.items()) if code not in UNIT_ORDER and n > 0]
    return "·".join(([CROWN] if king else []) + parts)


def _stack_words(stack: Mapping[str, int]) -> str:
    words = []
    for code in [*UNIT_ORDER, *sorted(c for c in stack if c not in UNIT_ORDER)]:
        n = int(stack.get(code, 0))
        if n > 0:
            name = UNIT_NAMES.get(code) or plain(code)
            words.append(f"{n} {name if n == 1 or name.endswith('s') else name + 's'}")
    return ", ".join(words)


def _friends(status: Mapping[str, str], side: str, powers: Powers) -> tuple[str, ...]:
    """A side's player powers and allies, in game-data order."""
    return tuple(p for p in powers if str(status.get(p, "")) in (f"player-{side}", f"ally-{side}"))


def _owner_of(area: str, side: str, view: Mapping[str, Any], places: Mapping[str, Place], powers: Powers,
              mine: tuple[str, ...]) -> str | None:
    """Which of ``mine`` (a side's players and allies) paints an area the side controls (home, troops, nearest)."""
    status = view.get("status") or {}
    for p in mine:
        if area in powers[p].home or area in powers[p].start:
            return p
    here = (view.get("units") or {}).get(area) or {}
    troops = sorted(((sum(here[p].values()), p) for p in here if p in mine), reverse=True)
    if troops:
        return str(troops[0][1])
    players = [p for p in mine if status.get(p) == f"player-{side}"]
    if not players or area not in places:
        return players[0] if players else None
    at = places[area]

    def distance(p: str) -> float:
        pts = [places[a] for a in (*powers[p].home, *powers[p].start) if a in places]
        return min((math.hypot(q.lon - at.lon, q.lat - at.lat) for q in pts), default=1e9)

    return min(players, key=distance)


def _fill_for(area: str, control: Any, view: Mapping[str, Any], places: Mapping[str, Place],
              shades: Shades, powers: Powers, friends: Mapping[str, tuple[str, ...]]) -> AreaFill:
    status = view.get("status") or {}
    name = plain(places[area].name if area in places else area)
    if control is None:
        return AreaFill(shades.uncontrolled, hover=f"{name}<br>controlled by neither side")
    if control == "partial":
        a, b = side_colour("A", status, powers), side_colour("B", status, powers)
        bg = blend(a, shades.paper, 0.75)
        return AreaFill(bg, "/", blend(b, shades.paper, 0.9), contrast_text(blend(a, b, 0.5)),
                        f"{name}<br>partial control: both sides have land units here (3.4)")
    if control in SIDES:
        owner = _owner_of(area, control, view, places, powers, friends[control])
        held_by = powers.get(owner) if owner is not None else None
        colour = held_by.colour if held_by is not None else side_colour(control, status, powers)
        st = str(status.get(owner, "")) if owner else ""
        if st.startswith("ally-"):
            fill = blend(colour, shades.paper, shades.light)
            return AreaFill(fill, ".", side_colour(control, status, powers), contrast_text(fill),
                            f"{name}<br>Player {control} (through its ally {plain(powers[str(owner)].name)})")
        fill = blend(colour, shades.paper, shades.strong)
        who = f" ({plain(held_by.name)})" if held_by is not None else ""
        return AreaFill(fill, label_colour=contrast_text(fill), hover=f"{name}<br>Player {control}{who}")
    power = powers.get(str(control))
    colour = power.colour if power else "#9a9a9a"
    pname = plain(power.name if power else control)
    st = str(status.get(str(control), "neutral"))
    if st.startswith("vassal-"):
        side = st[-1]
        fill = blend(colour, shades.paper, shades.light)
        return AreaFill(fill, "x", side_colour(side, status, powers), contrast_text(fill),
                        f"{name}<br>{pname}, vassal of Player {side} (controlled by neither side, 3.4)")
    if st.startswith("ally-"):
        side = st[-1]
        fill = blend(colour, shades.paper, shades.light)
        return AreaFill(fill, ".", side_colour(side, status, powers), contrast_text(fill),
                        f"{name}<br>{pname}, ally of Player {side}")
    fill = blend(colour, shades.paper, shades.faint)
    return AreaFill(fill, label_colour=contrast_text(fill), hover=f"{name}<br>{pname} (neutral)")


# ------------------------------------------------------------------------------------------
# Badges: unit stacks, Kings and the Pope
# ------------------------------------------------------------------------------------------
def _badges(view: Mapping[str, Any], places: Mapping[str, Place], powers: Powers) -> tuple[BadgeGroup, ...]:
    """Unit-stack badges grouped by power (one group per power), plus the Pope's."""
    units = view.get("units") or {}
    kings = view.get("kings") or {}
    areas = sorted(set(units) | set(kings))
    unknown = [a for a in areas if a not in places]
    if unknown:
        raise UnknownReference(f"the view places units or Kings in areas not on the map: {', '.join(unknown)}")
    order_of = {p: i for i, p in enumerate(powers)}
    out: dict[str, list[Badge]] = {f"units-{p}": [] for p in powers}
    out["units-other"] = []
    for area in areas:
        by_power = units.get(area) or {}
        with_king = set(kings.get(area) or [])
        stack_powers = [p for p in by_power if any(int(n) > 0 for n in by_power[p].values())]
        order = sorted(set(stack_powers) | with_king, key=lambda p: (order_of.get(p, 99), p))
        place = places[area]
        for k, p in enumerate(order):
            stack = by_power.get(p) or {}
            pname = plain(powers[p].name if p in powers else p)
            hover = f"{pname} in {plain(place.name)}: {_stack_words(stack) or 'no units'}"
            if p in with_king:
                hover += f"; the {pname} King"
            out[f"units-{p}" if p in powers else "units-other"].append(
                Badge(area, f"<b>{badge_text(stack, king=p in with_king)}</b>", hover, k))
    groups = [BadgeGroup(f"units-{p}", info.colour, tuple(out[f"units-{p}"]), info.accent)
              for p, info in powers.items()]
    groups.append(BadgeGroup("units-other", "#666666", tuple(out["units-other"])))
    pope = view.get("pope")
    pope_badges: tuple[Badge, ...] = ()
    if pope and pope in places:
        pope_badges = (Badge(str(pope), f"<b>{CROSS} Pope</b>", f"The Pope is in {plain(places[str(pope)].name)}"),)
    groups.append(BadgeGroup("pope", "#ffffff", pope_badges, "#b8860b", text_colour="#5a3d00"))
    return tuple(groups)


# ------------------------------------------------------------------------------------------
# Overlays: the step's moves, battles, interceptions and politics
# ------------------------------------------------------------------------------------------
def _overlays(view: Mapping[str, Any], places: Mapping[str, Place],
              powers: Powers) -> tuple[tuple[PathLayer, ...], tuple[MarkLayer, ...]]:
    status = view.get("status") or {}
    moves: dict[str, list[Path]] = {"moves-A": [], "moves-B": [], "moves-other": []}
    battles: list[Mark] = []
    inter: list[Mark] = []
    politics: list[Mark] = []
    missing = []
    for i, o in enumerate(view.get("overlays") or []):
        kind = o.get("kind")
        if kind == "move":
            path = [a for a in o.get("path") or [] if a in places]
            missing += [a for a in o.get("path") or [] if a not in places]
            if len(path) < 2:
                continue
            side = o.get("side") or str(status.get(o.get("power"), ""))[-1:]
            who = powers[o["power"]].name if o.get("power") in powers else (o.get("power") or "units")
            words = f"{plain(who)}: " + " → ".join(plain(places[a].name) for a in path)
            moves[f"moves-{side}" if side in SIDES else "moves-other"].append(Path(tuple(path), words))
        elif kind == "battle":
            area = o.get("area")
            if area not in places:
                missing.append(str(area))
                continue
            place = places[area]
            winner = o.get("winner")
            wside = o.get("winner_side") or (o.get("sides") or {}).get(winner) if winner else None
            colour = side_colour(wside, status, powers) if wside in SIDES else "#4a4a4a"
            result = plain(o.get("result") or "")
            who = f"{plain(winner)} wins" if winner else "no winner"
            if wside in SIDES:
                who += f" (Player {wside})"
            battles.append(Mark(area, f"<b>{SWORDS} {result}</b>".strip(),
                                f"Battle in {plain(place.name)}: {result or 'fought'}; {who}",
                                colour=colour, dy=14, roll=o.get("roll") or "", ref=i))
        elif kind == "interception":
            area = o.get("area")
            if area not in places:
                missing.append(str(area))
                continue
            ok = bool(o.get("success"))
            inter.append(Mark(area, "intercepted" if ok else "evaded",
                              f"Interception in {plain(places[area].name)}: {'succeeded' if ok else 'failed'}",
                              symbol="x-thin-open" if not ok else "x", dx=-30, dy=12))
        elif kind == "politics":
            pid = o.get("power")
            home = o.get("area") or (powers[pid].home[0] if pid in powers and powers[pid].home else None)
            if home not in places:
                missing.append(str(home))
                continue
            attempt = plain(o.get("attempt") or "diplomacy")
            result = plain(o.get("result") or "")
            pname = powers[pid].name if pid in powers else str(pid)
            politics.append(Mark(str(home), f"<b>{_politics_words(plain(_short(pname)), attempt, result)}</b>",
                                 f"{plain(pname)}: {attempt} — {result or 'attempted'}", dy=-8))
    if missing:
        raise UnknownReference(f"overlays name areas not on the map: {', '.join(sorted(set(missing)))}")
    colours = {"moves-A": side_colour("A", status, powers), "moves-B": side_colour("B", status, powers),
               "moves-other": "#4a4a4a"}
    paths = tuple(PathLayer(uid, colours[uid], tuple(ps)) for uid, ps in moves.items())
    marks = (MarkLayer("battles", "star", 26, "#4a4a4a", "#1b1b1b", "middle right", 2, tuple(battles),
                       own_colours=True, clickable=True),
             MarkLayer("interceptions", "x", 16, "#1b1b1b", "#1b1b1b", "middle left", 1.5, tuple(inter),
                       own_symbols=True),
             MarkLayer("politics", "diamond", 14, "#5a3d00", "#3b2300", "middle right", 1.5, tuple(politics)))
    return paths, marks


def _politics_words(power: str, attempt: str, result: str) -> str:
    """``Genoa: alliance fails (NE)``, ``Ravenna: vassalage ✓``, ``Genoa: alliance → war``."""
    if not result:
        return f"{power}: {attempt}"
    if result == attempt:
        return f"{power}: {attempt} ✓"
    if result.upper() in ("NE", "NO EFFECT", "FAILS", "FAILED"):
        return f"{power}: {attempt} fails ({result})"
    return f"{power}: {attempt} → {result}"


def _short(name: str) -> str:
    """A power's name without its style: "Kingdom of Sicily" -> "Sicily"."""
    name = name.split(" (")[0]
    for prefix in ("Kingdom of ", "Caliphate of ", "Sultanate of ", "Duchy of "):
        if name.startswith(prefix):
            return name[len(prefix):]
    return name


def _area_words(area: Any) -> str:
    """An area id as its name on the shipped map (an unknown id with its underscores as spaces)."""
    from medviz.rules.medempires.words import area_names

    return area_names(None, [str(area)])[0] if area else "an unknown area"


def step_lines(view: Mapping[str, Any]) -> list[str]:
    """The step's overlays in plain words (powers by the names of the game's own data)."""
    lines: list[str] = []
    overlays = view.get("overlays") or []
    powers = powers_of(view) if overlays else {}

    def name(power: Any) -> Any:
        return powers[power].name.split(" (")[0] if power in powers else power  # "Anjou (Kingdom of Naples)"

    for ov in overlays:
        k = ov.get("kind")
        if k == "move":
            lines.append(f"move (Player {ov.get('side')}, {name(ov.get('power'))}): "
                         + " → ".join(_area_words(a) for a in ov.get("path", [])))
        elif k == "battle":
            result = ov.get("result") or "no combat"
            won = ov.get("winner") if ov.get("winner") not in (None, "none") else None
            lines.append(f"battle in {_area_words(ov.get('area'))}: {result}, " + (f"the {won} wins" if won else "nobody wins"))
        elif k == "interception":
            lines.append(f"interception in {_area_words(ov.get('area'))}: {'succeeds' if ov.get('success') else 'fails'}")
        elif k == "politics":
            lines.append(f"politics: {name(ov.get('power'))} {ov.get('attempt', '')} {ov.get('result', '')}".rstrip())
    return lines


# ------------------------------------------------------------------------------------------
# The panel, the legend, the key and the title
# ------------------------------------------------------------------------------------------
def _phase_words(phase: Any) -> str:
    """``operations-A`` -> ``operations A``."""
    return str(phase).replace("_", " ").replace("-", " ")


def _panel(view: Mapping[str, Any], places: Mapping[str, Place], powers: Powers) -> tuple[PanelBox, ...]:
    status = view.get("status") or {}
    tp = view.get("tp") or {}
    vp = view.get("vp") or {}
    standing = view.get("standing") or {}
    turn = view.get("turn")
    head = f"<b>Turn {plain(turn)}</b>" if turn else "<b>Set-up</b>"  # turn 0: the set-up (3.0)
    if view.get("years") and turn:
        head += f"  ·  {plain(view['years'])}"
    phase = view.get("phase")
    words = plain(_phase_words(phase))
    head += f"<br>{words[:1].upper()}{words[1:]} phase" if phase and turn else "<br>before the first turn"
    if view.get("winner"):
        who = str(view["winner"]).split(":")[0].split(" (")[0]  # "Player A"
        head = f"<b>Game over</b><br><b>{plain(who)}{'' if who.endswith('wins') else ' wins'}</b>"
    out = [PanelBox("panel-turn", head, lines=2, size=5, gap=10)]
    for side, gap in (("A", 10), ("B", 14)):
        names = [plain(powers[p].name.split(" (")[0]) for p in _side_powers(status, side, powers)]
        allies = sum(1 for p in powers if status.get(p) == f"ally-{side}")
        vassals = sum(1 for p in powers if status.get(p) == f"vassal-{side}")
        lines = [f"<b>PLAYER {side}</b>", " · ".join(names),
                 f"Treasury <b>{plain(tp.get(side, 0))}</b> TP",
                 plain(standing[side]) if side in standing else f"Victory <b>{plain(vp.get(side, 0))}</b> VP",
                 f"{allies} all{'y' if allies == 1 else 'ies'} · {vassals} vassal{'' if vassals == 1 else 's'}"]
        out.append(PanelBox(f"panel-{side}", "<br>".join(lines), lines=5, colour=side_colour(side, status, powers),
                            border=_side_accent(side, status, powers), gap=gap))
    pope = view.get("pope")
    if pope in SIDES:
        text = f"{CROSS} The Pope is with Player {pope}"
    elif pope in places:
        text = f"{CROSS} The Pope is in {plain(places[str(pope)].name)}"
    else:
        text = f"{CROSS} No Pope on the map"
    out.append(PanelBox("panel-pope", text, lines=1, text_colour="#5a3d00", gap=14))
    return tuple(out)


def _legend(status: Mapping[str, str], shades: Shades, powers: Powers) -> tuple[LegendEntry, ...]:
    """Legend entries for control; the same for every view of a game (statuses change, entries don't)."""
    entries: list[LegendEntry] = []
    for side in SIDES:
        for p in _side_powers(status, side, powers):
            entries.append(LegendEntry(f"Player {side}: {plain(powers[p].name.split(' (')[0])}",
                                       blend(powers[p].colour, shades.paper, shades.strong)))
    ground = blend("#b9ad96", shades.paper, 0.6)
    for side in SIDES:
        entries.append(LegendEntry(f"Ally of {side}: dotted in {side}'s colour", ground, ".",
                                   side_colour(side, status, powers)))
    for side in SIDES:
        entries.append(LegendEntry(f"Vassal of {side}: cross-hatched", ground, "x", side_colour(side, status, powers)))
    entries.append(LegendEntry("Partial control: striped", blend(side_colour("A", status, powers), shades.paper, 0.75),
                               "/", blend(side_colour("B", status, powers), shades.paper, 0.9)))
    entries.append(LegendEntry("Neutral power: its own colour, paler", blend("#CC6677", shades.paper, shades.faint)))
    entries.append(LegendEntry("Nobody", shades.uncontrolled))
    return tuple(entries)


KEY = (f"<b>Units</b>  FA field army · L levy · R raiders · M mercenaries · F fleet (in sea areas) · "
       f"{CROWN} King · {CROSS} Pope",
       "<b>This step</b>  ➜ moves · ★ battle, in the winner's colour · ✕ interception · ◆ politics")


def _title(view: Mapping[str, Any]) -> tuple[str, str]:
    """The title and the turn · years · phase line (left out when the title already says it), escaped;
    at the end of the game the line says who won and why (the winner's banner)."""
    raw = str(view.get("title") or "Mediterranean Empires")
    title = plain(raw)
    if view.get("winner"):
        return f"Game over. {plain(view['winner'])}", ""  # the winner's banner, in the title's place
    if view.get("turn") is not None and f"turn {view['turn']}" in raw.lower():
        return title, ""
    if view.get("turn") == 0:  # the set-up (3.0)
        return title, "" if "set-up" in raw.lower() else "set-up, before the first turn"
    bits = []
    if view.get("turn") is not None:
        bits.append(f"Turn {plain(view['turn'])}")
    if view.get("years"):
        bits.append(plain(view["years"]))
    if view.get("phase"):
        bits.append(f"{plain(_phase_words(view['phase']))} phase")
    return title, "  ·  ".join(bits)


def portray(view: Mapping[str, Any], places: Mapping[str, Place], shades: Shades = Shades()) -> Portrayal:
    """How the map shows ``view`` (a view of view.py) on the areas ``places`` (pure; no figure needed)."""
    control = view.get("control") or {}
    unknown = sorted(a for a in control if a not in places)
    if unknown:
        raise UnknownReference(f"the view's control names areas not on the map: {', '.join(unknown)}")
    powers = powers_of(view)
    status = view.get("status") or {}
    friends = {side: _friends(status, side, powers) for side in SIDES}
    fills = {a: _fill_for(a, control.get(a), view, places, shades, powers, friends)
             for a, p in places.items() if p.kind == "land"}
    title, subtitle = _title(view)
    paths, marks = _overlays(view, places, powers)
    return Portrayal(
        map=MAP, title=title, subtitle=subtitle, fills=fills, badges=_badges(view, places, powers),
        paths=paths, marks=marks, panel=_panel(view, places, powers), legend=_legend(status, shades, powers),
        legend_title="<b>Who controls an area</b>", key=KEY,
        step_title="This step" if view.get("overlays") else "", step_lines=tuple(step_lines(view)))
