"""Medieval's events and options in plain words, for the log of the viewer, the dice lab, the play
table and exported pages: names of Powers, provinces and cards from the game's own data, never an
id ("the Pope card Innocent III", "France's province 2B", "Player A pays 1 Fl for an Attack").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from medviz.engine.events import (
    ChangeEvent,
    DecisionEvent,
    DrawEvent,
    Event,
    PhaseEvent,
    ReportEvent,
    RollEvent,
    ShuffleEvent,
)
from medviz.rules.medieval_xiii.gamedata import GameData

KINDS: Mapping[str, str] = {
    "pope": "Pope", "mongols": "Mongols", "knights_of_christ": "Knights of Christ", "spies": "Spies",
    "assassin": "Assassin", "civil_war": "Civil War", "jihad": "Jihad", "heresy": "Heresy",
    "disaster": "Disaster", "change_of_ruler": "Change of Ruler", "deus_ex_machina": "Deus ex Machina",
}
PHASES: Mapping[str, str] = {"set-up": "Set-up (2.0)", "draw": "A. Draw Action Cards", "map card": "B. Map Card",
                             "mandatory cards": "C. Mandatory Cards", "actions": "D. Action Phase"}
_ROMAN = {"i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x"}


def seat(who: Any) -> str:
    """``Player A``."""
    return f"Player {who}" if who else "the game"


def _title(word: str) -> str:
    return word.upper() if word in _ROMAN else word.capitalize()


def kind_words(kind: str) -> str:
    """An Action Card kind by its printed name (``Deus ex Machina``)."""
    return KINDS.get(kind, kind.replace("_", " "))


def card(data: GameData, card_id: Any) -> str:
    """A card by name: ``the Power card of France``, ``the Pope card Innocent III``, ``a Spies card``."""
    c = str(card_id)
    if c.startswith("power-"):
        pw = data.powers.get(c[6:])
        return f"the Power card of {pw.name if pw else c[6:].replace('_', ' ').title()}"
    kind = data.action_cards.get(c)
    if kind is None:
        return "a hidden card" if c == "?" else "a card"
    name = c[len(kind) + 1:]
    if name.isdigit():
        return f"{'an' if KINDS.get(kind, kind)[:1] in 'AEIOU' else 'a'} {kind_words(kind)} card"
    parts = [p for p in name.split("_") if not p.isdigit()]
    return f"the {kind_words(kind)} card {' '.join(_title(p) for p in parts)}"


def power(data: GameData, p: Any) -> str:
    """A Power by name (``the Knights of Christ`` for their attacks)."""
    if p == "knights_of_christ":
        return "the Knights of Christ"
    pw = data.powers.get(str(p))
    return pw.name if pw else str(p).replace("_", " ").title()


def province(data: GameData, p: Any) -> str:
    """A province by name."""
    prov = data.provinces.get(str(p))
    return prov.name if prov else str(p).replace("_", " ")


def _list(items: Sequence[str]) -> str:
    return ", ".join(items[:-1]) + (" and " if len(items) > 1 else "") + items[-1] if items else "nothing"


def _why(d: Mapping[str, Any]) -> str:
    why = d.get("why")
    return f" ({why})" if why else ""


def _place(to: str) -> str:
    kind, _, who = to.partition(":")
    return {"hand": f"{seat(who)}'s hand", "front": f"the table in front of {seat(who)}", "table": "the table",
            "discard": "the discards", "aside": "one side", "deck": "the Action Deck"}.get(kind, kind)


def change_words(data: GameData, e: ChangeEvent) -> str:
    """A state change in words."""
    d, c = e.data, e.change
    who = seat(e.actor)
    if c == "move_card":
        where = _place(str(d["to"]))
        verb = {"the discards": "goes to the discards", "one side": "is set aside"}.get(where, f"goes to {where}")
        return f"{card(data, d['card'])[:1].upper()}{card(data, d['card'])[1:]} {verb}{_why(d)}"
    if c == "draw_card":
        return f"{seat(d['seat'])} draws {card(data, d['card'])}{_why(d)}"
    if c == "action_deck":
        return f"The Action Deck is made up anew: {len(d['order'])} cards"
    if c == "map_deck":
        return f"The Map Deck is laid face down: {len(d['order'])} map cards"
    if c == "map_card":
        return (f"Map card {d['card']} is revealed and joins the map" if d["status"] == "play"
                else f"Map card {d['card']} is destroyed and leaves the game")
    if c == "florins":
        n = int(d["delta"])
        return f"{seat(d['seat'])} {'receives' if n > 0 else 'pays'} {abs(n)} Fl{_why(d)}"
    if c == "control":
        if d["seat"] is None:
            return f"Nobody controls {province(data, d['province'])} any more{_why(d)}"
        return f"{seat(d['seat'])} takes control of {province(data, d['province'])}{_why(d)}"
    if c == "home":
        if not d["power"]:
            return f"{province(data, d['province'])} is no longer part of any Power{_why(d)}"
        return f"{province(data, d['province'])} counts as a province of {power(data, d['power'])}{_why(d)}"
    markers = {"koc": "a Knights of Christ province", "heresy": "in Heresy", "disaster": "struck by Disaster",
               "civil_war": "in Civil War", "excommunicated": "Excommunicated"}
    if c in markers:
        what = power(data, d["power"]) if "power" in d else province(data, d["province"])
        return f"{what} {'is now' if d['on'] else 'is no longer'} {markers[c]}{_why(d)}"
    if c == "ruler":
        return f"{power(data, d['power'])} has a new ruler: {d['ruler'].capitalize()}{_why(d)}"
    if c == "marriage":
        pair = " and ".join(power(data, p) for p in d["powers"])
        return f"{'A Marriage joins' if d['on'] else 'The Marriage ends between'} {pair}{_why(d)}"
    if c == "started":
        return f"{power(data, d['power'])} has now paid its Start Fl (4.4: only once)"
    if c == "order":
        return f"Player order: {', '.join(str(s) for s in d['order'])}"
    if c == "mongols":
        if d.get("no_event"):
            return "One more Mongol card played as No Event (5.1)"
        return "One more Mongol card played as an attack (5.2)"
    if c == "begin_turn":
        return f"Round {d['round']}: {seat(e.actor)}'s Player Turn begins"
    if c == "turn_flag":
        return _flag_words(data, str(d["key"]), d["value"])
    if c == "peek":
        seen = d["seen"]
        what = seen.get("what")
        if what == "militia":
            return f"{seat(d['seat'])} sees with Spies that {seat(seen.get('of'))} bid +{seen.get('bid')} Militia (8.1)"
        cards = _list([card(data, x) for x in seen.get("cards", ())])
        where = {"hand": f"in {seat(seen.get('of'))}'s hand", "action-deck": "on top of the Action Deck",
                 "map-deck": "on top of the Map Deck"}.get(str(what), "")
        if what == "map-deck":
            cards = _list([f"map card {x}" for x in seen.get("cards", ())])
        return f"{seat(d['seat'])} sees with Spies {cards} {where} (8.1)".replace("  ", " ")
    if c == "game_over":
        return f"The game is over: {d['reason']}"
    return f"{who}: {c.replace('_', ' ')}"


def _flag_words(data: GameData, key: str, value: Any) -> str:
    if key == "attacks":
        return f"Attacks launched this turn: {value} (3.1 D)"
    if key == "attacked_with":
        return f"{power(data, value)} may not attack again this turn (9.4)"
    if key == "battle":
        return f"{power(data, value['power'])} goes to battle for {province(data, value['target'])}"
    if key == "map_drawn":
        return "A map card was drawn: no Pope card and one Attack this turn (3.3)"
    if key == "crusade":
        return "A Crusade has been called this turn (6.2: one a turn)"
    if key == "pope_passage":
        return "Catholic Powers may pass the Papal States this turn (6.5)"
    if key == "mercenaries_used":
        return "Mercenaries have fought this turn (11.0: one Attack a turn)"
    if key == "income":
        return "Income is collected this turn, and nothing else is done (3.1 D)"
    if key == "pope_played":
        return "A Pope card has been played this turn (6.1)"
    if key == "offers":
        return f"An offer has been made to {seat(value[0])} (13.1)"
    if key == "traded":
        return "A card has changed hands this turn (13.1 C: one a turn)"
    return f"This turn: {key.replace('_', ' ')}"


def report_words(data: GameData, e: ReportEvent) -> str:
    """A result in words."""
    d, r = e.data, e.report
    who = seat(e.actor)
    if r == "attack":
        how = {"land": "by land", "sea": "by sea", "permission": "with Permission to pass", "none": "without passage"}
        return (f"{who} attacks {province(data, d['target'])} with {power(data, d['power'])} "
                f"{how.get(str(d['route']), '')} (9.4)")
    if r == "battle":
        won = "the attacker wins" if d["winner"] == "attacker" else "the defender holds"
        return (f"Battle for {province(data, d['target'])}: attacker {d['attacker_die']} → {d['attacker_total']}, "
                f"defender {d['defender_die']} → {d['defender_total']}: {won} (9.6)")
    if r == "militia":
        return f"Militia revealed: attacker +{d['attacker']}, defender +{d['defender']} (9.6)"
    if r == "no-passage":
        if d.get("refused_by"):
            return f"{seat(d['refused_by'])} refuses passage: the Attack is lost, and its florin (9.4)"
        return "Passage denied at sea: the Attack is lost (10.3)"
    if r == "sea-battle":
        won = "the fleet sails on" if d["winner"] == "mover" else "the fleet is turned back"
        return (f"Sea battle on card {d['card']} against {power(data, d['interceptor'])}: "
                f"{d['mover_total']} to {d['interceptor_total']}, {won} (10.3)")
    if r == "mongol-battle":
        won = "the map card is destroyed" if d["winner"] == "mongols" else "the map card holds"
        return f"The Mongols attack map card {d['card']}: {d['mongols']} to {d['defence']}, {won} (5.3)"
    if r == "mongols-no-event":
        return f"Mongol card {d['count']} of the first three: No Event (5.1)"
    if r == "mongols-no-target":
        return "The Mongols find no map card to attack (5.2)"
    if r == "crusade":
        if d["infidels"] is None:
            return "Nobody goes on Crusade (6.2)"
        return (f"Crusade: the Crusaders' {d['strength']} against the infidels' {d['infidels']}: "
                f"{'the Crusaders win' if d['won'] else 'the Crusade fails'} (6.2)")
    if r == "income":
        return f"{who} collects {d['amount']} Fl of Income (3.4)"
    if r == "revealed":
        return f"{who} draws {card(data, d['card'])} after the last Mongol card (3.5)"
    if r == "powers-table":
        ok = "it counts" if d["eligible"] else "roll again"
        return f"Powers Table {d['roll']}: {power(data, d['power'])}, {ok}"
    if r == "cancelled":
        return f"{who} cancels {card(data, d['card'])} with {card(data, d['by'])} ({d['rule']})"
    if r == "trade":
        if not d["done"]:
            return f"{who} refuses the offer (13.1)"
        return (f"Trade: {seat(d['seller'])} gives {card(data, d['card'])} to {seat(d['buyer'])} "
                f"for {d['price']} Fl (13.1)")
    if r == "recorded-choice-illegal":
        return f"{who}'s recorded choice is not legal here; the player decides anew"
    return f"{who}: {r.replace('-', ' ').replace('_', ' ')}"


def option_words(data: GameData, o: Any) -> str:
    """One option of a decision in words (the play table's buttons, the log's choices)."""
    if isinstance(o, bool) or o is None:
        return "yes" if o else "no"
    if isinstance(o, int):
        return f"+{o}" if o >= 0 else "no"
    if isinstance(o, str):
        if o in data.powers:
            return power(data, o)
        if o in data.action_cards or o.startswith("power-"):
            return card(data, o)
        if o in data.provinces:
            return province(data, o)
        if o in data.cards:
            return f"map card {o}"
        return f"{seat(o)}" if len(o) == 1 and o.isupper() else o.replace("_", " ").replace("-", " ")
    if not isinstance(o, Mapping):
        return str(o)
    do = o.get("do") or o.get("use") or o.get("commit") or o.get("power")
    if "commit" in o:
        if o["commit"] == "none":
            return "commit nobody"
        if o["commit"] == "knights":
            return f"commit the Knights of Christ of {province(data, o['province'])}"
        return f"commit {power(data, o['commit'])}"
    if do == "play" or "use" in o:
        return _play_words(data, o)
    if do == "attack":
        how = {"land": "by land", "sea": "by sea", "permission": "asking Permission"}.get(str(o.get("route")), "")
        return f"attack {province(data, o['target'])} with {power(data, o['power'])} {how}".rstrip()
    if do == "knights-attack":
        return f"attack {province(data, o['target'])} with {card(data, o['card'])}"
    if do == "discard":
        return f"discard {card(data, o['card'])}"
    if do == "end-civil-war":
        return f"attack the Civil War in {power(data, o['power'])}"
    if do == "end-heresy":
        return f"drive out the Heretics of {province(data, o['province'])}"
    if do == "offer":
        if "buy" in o:
            return f"offer {seat(o['to'])} {o['price']} Fl for a {kind_words(str(o['buy']))} card"
        return f"offer {seat(o['to'])} {card(data, o['sell'])} for {o['price']} Fl"
    if do == "cancel":
        return f"cancel {card(data, o['against'])} with {card(data, o['card'])}" if "against" in o else "cancel it"
    if do in ("spies", "knights", "jihad"):
        return f"play {card(data, o['card'])}"
    if do == "hire":
        return f"hire {power(data, o['power'])} as Mercenaries"
    if "power" in o and len(o) == 1:
        return "nobody" if o["power"] == "none" else power(data, o["power"])
    return {"end": "end the Action Phase", "act": "act", "collect-income": "collect Income",
            "draw-map-card": "draw a map card", "no-map-card": "no map card", "refuse": "refuse", "grant": "grant",
            "accept": "accept", "let-it-be": "let it be", "none": "none"}.get(str(do), str(do).replace("-", " "))


def _play_words(data: GameData, o: Mapping[str, Any]) -> str:
    what = f"play {card(data, o['card'])}" if "card" in o else "play it"
    use = o.get("use")
    if use == "crusade":
        return f"{what}: call a Crusade"
    if use == "excommunicate":
        return f"{what}: excommunicate {power(data, o['power'])}"
    if use == "lift":
        return f"{what}: lift the Excommunication of {power(data, o['power'])} (3 Fl)"
    if use == "marriage":
        return f"{what}: marry {power(data, o['power'])} with {power(data, o['with'])}"
    if use == "papal-passage":
        return f"{what}: passage through the Papal States"
    if use == "hand":
        return f"{what}: look at {seat(o['seat'])}'s hand"
    if use == "deck":
        return f"{what}: look at the next two Action Cards"
    if use == "map":
        return f"{what}: look at the next map card"
    if "power" in o:
        return f"{what} on {power(data, o['power'])}"
    if "province" in o:
        return f"{what} in {province(data, o['province'])}"
    return what


def event_words(data: GameData, e: Event) -> str:
    """Any event of a game of Medieval in plain words (the all-seeing teacher's log)."""
    if isinstance(e, PhaseEvent):
        name = PHASES.get(e.name, e.name)
        return f"Round {e.turn}: {name}" if e.turn else name
    if isinstance(e, RollEvent):
        mark = f" (changed from {e.natural})" if e.overridden else ""
        meaning = f" → {e.effects[str(e.value)]}" if e.effects and str(e.value) in e.effects else ""
        return f"{seat(e.actor)} rolls {e.dice} for {e.purpose or 'the game'}: {e.value}{mark}{meaning}"
    if isinstance(e, DrawEvent):
        mark = f" (changed from {seat(e.natural)})" if e.overridden else ""
        return f"{seat(e.value)} is drawn{mark}: {e.purpose}"
    if isinstance(e, ShuffleEvent):
        mark = ", with changed cards" if e.overridden else ""
        top = card(data, e.order[0]) if e.shuffle != "map-deck" else f"map card {e.order[0]}"
        return f"{e.purpose or 'A deck is shuffled'}: {len(e.order)} cards{mark}, the top one {top}"
    if isinstance(e, DecisionEvent):
        how = {"forced": " (only choice)", "recorded": " (as recorded)"}.get(e.source, "")
        question = (e.prompt or "a choice").rstrip("?")
        return f"{seat(e.actor)} — {question}: {option_words(data, e.choice)}{how}"
    if isinstance(e, ChangeEvent):
        return change_words(data, e)
    if isinstance(e, ReportEvent):
        return report_words(data, e)
    return f"{seat(e.actor)}: {e.kind}"
