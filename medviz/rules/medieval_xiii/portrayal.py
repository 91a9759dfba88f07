"""How the map portrays a view of Medieval (view.py): provinces, map cards, battles and the players' panel.

``portray(view, places, shades)`` turns a view into a ``medviz.engine.portrayal.Portrayal``. How the map reads:

- A province on a map card in play takes the colour of the seat whose control marker is on it
  (4.2); a province nobody controls is paper. The Papal States are never controlled (6.5).
- A map card not yet drawn is face down: its provinces are card-back brown, striped (2.1, 3.3).
  A card the Mongols destroyed is dark with a red cross-hatch; a card put out of play because it
  lies east of a destroyed one is grey, cross-hatched (5.3). Each card's id sits at its corner.
- Markers under a province's name: ✠ Knights of Christ (7.2), Heresy (8.5), Civil War (8.3),
  Disaster (8.7), excommunicated (6.3).
- The step's battles are stars, gold where the attacker took the province and grey where it held
  (a click picks the battle's die in the dice lab); a Mongol attack is a red star on its map card.
  A face-down card's names are faint: its provinces are not yet in the game.
- The panel: the round and whose turn, then one box per seat with its VP (12.0), florins, cards
  in hand and Powers; a seat's own view adds its hand; then the decks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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

__all__ = ["CARD_LOOK", "MAP", "portray", "step_lines", "wrap_words"]

#: The geodata the game is drawn on (``geodata/medieval-xiii.geojson``).
MAP = "medieval-xiii"
TITLE = "Medieval: The XIIIth Century in Europe"
#: How the provinces of a map card that is not in play look: colour, pattern, pattern colour, legend label.
CARD_LOOK: Mapping[str, tuple[str, str, str, str]] = {
    "face-down": ("#7a6650", "/", "#94806a", "map card face down (not yet drawn)"),
    "destroyed": ("#3d3733", "x", "#b2182b", "map card destroyed by the Mongols"),
    "out": ("#a8a29a", "x", "#7b746c", "map card out of play (east of a destroyed one)"),
}
CARD_WORDS = {"play": "in play", "face-down": "face down", "destroyed": "destroyed", "out": "out of play"}
MARKER_WORDS = {"knights": "✠ Knights", "heresy": "Heresy", "civil-war": "Civil War", "disaster": "Disaster",
                "excommunicated": "excommunicated"}
PAPAL = "papal_states"
MONGOL = "#c0392b"
#: A battle's star: gold where the attacker took the province, grey where the defender held it (9.6).
TAKEN, HELD = "#f2b705", "#8a8a8a"
#: Characters of a panel line at the design width (1200 px): longer texts are wrapped.
PANEL_CHARS = 24


def wrap_words(words: list[str], width: int = PANEL_CHARS) -> list[str]:
    """``words`` joined by commas into lines of at most ``width`` characters (a word longer stays whole)."""
    lines: list[str] = []
    for w in words:
        if lines and len(lines[-1]) + 2 + len(w) <= width:
            lines[-1] += ", " + w
        else:
            if lines:
                lines[-1] += ","
            lines.append(w)
    return lines


def _fill(pid: str, view: Mapping[str, Any], places: Mapping[str, Place], shades: Shades) -> AreaFill:
    """One province's paint and hover text."""
    info = view["provinces"].get(pid, {})
    card = info.get("card", "")
    status = view["cards"].get(card, "play")
    head = f"<b>{plain(places[pid].name)}</b>"
    what = f"{plain(info['power'])} · " if info.get("power") else ""
    lines = [head, f"{what}income {info.get('income', 0)} Fl · map card {plain(card)}"]
    if status != "play":
        colour, pattern, fg, label = CARD_LOOK[status]
        lines.append(label)
        return AreaFill(colour, pattern, fg, label_colour=blend(contrast_text(colour), colour, 0.45),
                        hover="<br>".join(lines))
    holder = view["control"].get(pid)
    if holder is not None:
        seat = view["seats"][holder]
        colour = blend(seat["colour"], shades.paper, shades.light)
        lines.append(f"held by {plain(seat['name'])}")
    else:
        colour = "#fffbea" if pid == PAPAL else shades.uncontrolled
        lines.append("never controlled (6.5)" if pid == PAPAL else "nobody's")
    marks = view["markers"].get(pid, [])
    if marks:
        lines.append(", ".join(MARKER_WORDS[m] for m in marks))
    return AreaFill(colour, label_colour=contrast_text(colour), hover="<br>".join(lines))


def _battle_marks(view: Mapping[str, Any], places: Mapping[str, Place]) -> tuple[Mark, ...]:
    """The step's battles and Mongol attacks as stars (their ``roll``: the die a click picks)."""
    out = []
    for o in view["overlays"]:
        if o["kind"] == "battle" and o["target"] in places:
            seats = view["seats"]
            won = o["winner"] == "attacker"
            attacker = seats.get(o["attacker"], {})
            who = plain(attacker.get("name", o["attacker"]))
            hover = (f"{who} attacks {plain(places[o['target']].name)} with {plain(o['power'])}: "
                     f"{o['attack']} against {o['defence']} — {'taken' if won else 'held'} (9.6)")
            out.append(Mark(o["target"], f"{o['attack']}:{o['defence']}", hover, colour=TAKEN if won else HELD, dy=8,
                            roll=o.get("roll")))
        elif o["kind"] == "mongols" and o["card"] in places:
            hover = (f"The Mongols ({o['mongols']}) attack map card {plain(o['card'])} ({o['defence']}): "
                     f"{'destroyed' if o['won'] else 'it holds'} (5.3)")
            out.append(Mark(o["card"], f"Mongols {o['mongols']}:{o['defence']}", hover, colour=MONGOL, dy=-8,
                            roll=o.get("roll")))
    return tuple(out)


def _card_marks(view: Mapping[str, Any], places: Mapping[str, Place]) -> tuple[Mark, ...]:
    """Each map card's id at its corner, with its status when it is not in play."""
    out = []
    for card, status in sorted(view["cards"].items()):
        if card not in places:
            continue
        colour = CARD_LOOK[status][0] if status in CARD_LOOK else "#5b4d3c"
        text = f"<b>{plain(card)}</b>" + ("" if status == "play" else f" {CARD_WORDS[status]}")
        out.append(Mark(card, text, f"map card {plain(card)}: {CARD_WORDS[status]}", colour=colour))
    return tuple(out)


def step_lines(view: Mapping[str, Any], places: Mapping[str, Place]) -> list[str]:
    """The step's overlays in plain words."""
    out = []
    seats = view["seats"]
    for o in view["overlays"]:
        if o["kind"] == "battle":
            name = places[o["target"]].name if o["target"] in places else o["target"]
            who = seats.get(o["attacker"], {}).get("name", o["attacker"])
            out.append(f"{who} attacks {name} with {o['power']}: {o['attack']} against {o['defence']}, "
                       f"{'taken' if o['winner'] == 'attacker' else 'held'}")
        elif o["kind"] == "mongols":
            out.append(f"The Mongols attack map card {o['card']}: {o['mongols']} against {o['defence']}, "
                       f"{'destroyed' if o['won'] else 'it holds'}")
        elif o["kind"] == "map-card":
            out.append(f"Map card {o['card']}: {CARD_WORDS.get(o['status'], o['status'])}")
        elif o["kind"] == "crusade":
            out.append(f"A Crusade ({o['strength']} against {o['infidels']}): "
                       f"{'the infidels are beaten' if o['won'] else 'it fails'}")
    return out


def _panel(view: Mapping[str, Any]) -> tuple[PanelBox, ...]:
    """The round, one box per seat (VP, florins, hand, Powers), a seat's own hand, the decks."""
    seats = view["seats"]
    who = f"Player {view['player']}'s turn" if view.get("player") else "set-up"
    seen = view.get("seen_by")
    eye = f"seen by {plain(seats[seen]['name'])}" if seen else "all cards shown"
    head = f"<b>Round {view['round']}</b>" if view["round"] else "<b>Set-up</b>"
    boxes = [PanelBox("panel-round", f"{head}<br>{plain(who)}<br><i>{eye}</i>", lines=3, size=1, gap=6)]
    for s, info in seats.items():
        hand = info["hand"]
        n = hand if isinstance(hand, int) else len(hand)
        powers = wrap_words([plain(p) for p in info["powers"]]) or ["no Power"]
        text = (f"<b>{plain(info['name'])}</b>  {info['vp']} VP<br>{info['florins']} Fl · {n} card"
                f"{'' if n == 1 else 's'} in hand<br>" + "<br>".join(powers))
        boxes.append(PanelBox(f"panel-seat-{s}", text, lines=2 + len(powers), colour=info["colour"], gap=4))
    if seen and isinstance(seats[seen]["hand"], list):
        # Cards run on in lines of the panel's width, like the Powers: a hand of seven takes three lines.
        cards = wrap_words([plain(c) for c in seats[seen]["hand"]]) or ["no card"]
        boxes.append(PanelBox("panel-hand", f"<b>Hand of {plain(seats[seen]['name'])}</b><br>" + "<br>".join(cards),
                              lines=1 + len(cards), gap=6))
    d = view["decks"]
    boxes.append(PanelBox("panel-decks", f"Action deck {d['action']} · map deck {d['map']}<br>"
                                         f"Mongols: {d['mongols_no_event']} no event, {d['mongols_resolved']} "
                                         f"attack{'' if d['mongols_resolved'] == 1 else 's'}", lines=2))
    return tuple(boxes)


def portray(view: Mapping[str, Any], places: Mapping[str, Place], shades: Shades) -> Portrayal:
    """A Medieval view as the map shows it."""
    fills = {pid: _fill(pid, view, places, shades) for pid in view["provinces"]
             if pid in places and places[pid].kind == "land"}
    markers = tuple(Badge(pid, " ".join(MARKER_WORDS[m] for m in ms), ", ".join(MARKER_WORDS[m] for m in ms))
                    for pid, ms in view["markers"].items() if pid in places and ms)
    badges = (BadgeGroup("markers", "#f6f1e6", markers, text_colour="#3b2f22"),)
    marks = (MarkLayer("cards", "square", 9, "#5b4d3c", "#3b2f22", "middle right", 1.0,
                       _card_marks(view, places), own_colours=True),
             MarkLayer("battles", "star", 20, "#6b5b45", "#1b1b1b", "top center", 1.5,
                       _battle_marks(view, places), own_colours=True, clickable=True))
    legend = (LegendEntry("nobody's province", shades.uncontrolled),
              *(LegendEntry(label, colour, pattern, fg) for colour, pattern, fg, label in CARD_LOOK.values()))
    bits = [f"{len(view['seats'])} players"]
    if view["round"]:
        bits.append(f"round {view['round']}")
    if view.get("player"):
        bits.append(f"Player {plain(view['player'])}'s turn")
    if view.get("phase"):
        bits.append(plain(view["phase"]))
    if view.get("over"):
        bits.append("game over")
    lines = step_lines(view, places)
    return Portrayal(map=MAP, title=TITLE, subtitle=" · ".join(bits), fills=fills, badges=badges, marks=marks,
                     panel=_panel(view), legend=legend, legend_title="Map cards",
                     key=("provinces in the colour of the seat that holds them",
                          "★ a battle this step: gold taken, grey held (click: its die)", "■ a map card's id"),
                     step_title="This step" if lines else "", step_lines=tuple(lines))
