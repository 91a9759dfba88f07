"""The state of a game of Medieval and the reducers that change it (one per change event).

The state is plain data (dicts, lists, atoms) plus the game's ``GameData`` (immutable, shared by
every copy). Rule code never writes to it: it calls ``ctx.change(name, **data)`` and the reducer
of that name applies the change, so the state is always the fold of the change events.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from medviz.engine.copying import independent_copy
from medviz.engine.events import ChangeEvent, thaw
from medviz.rules.medieval_xiii.gamedata import GameData


@dataclass
class MedievalState:
    """Everything on the table: money, hands, decks, map, control markers, markers on Power cards."""

    scenario: str
    data: GameData
    #: Seats in their places round the table (clockwise).
    seats: tuple[str, ...]
    florins: dict[str, int]
    hands: dict[str, list[str]]
    #: Power cards face up in front of each player: the Powers he controls (4.3).
    front: dict[str, list[str]]
    #: Power cards face up on the table, controlled by nobody (4.3 C).
    table: list[str] = field(default_factory=list)
    action_deck: list[str] = field(default_factory=list)
    #: Played and discarded Action Cards: out of the game (3.2).
    discard: list[str] = field(default_factory=list)
    #: Cards set aside: late Powers during the draft (2.2), the first Mongols (5.1), dead Powers (5.3).
    aside: list[str] = field(default_factory=list)
    map_deck: list[str] = field(default_factory=list)
    map_in_play: list[str] = field(default_factory=list)
    #: Map cards destroyed by the Mongols or put out of play east of one (5.3).
    map_gone: list[str] = field(default_factory=list)
    #: Province -> the seat whose control marker is on it.
    control: dict[str, str] = field(default_factory=dict)
    #: Province -> the Power it counts as a home province of (4.1 clarifications; 7.2).
    home: dict[str, str] = field(default_factory=dict)
    #: Knights of Christ provinces (7.2).
    koc: list[str] = field(default_factory=list)
    heresy: list[str] = field(default_factory=list)
    #: Power -> its ruler now (good / normal / bad, 4.5).
    ruler: dict[str, str] = field(default_factory=dict)
    disaster: list[str] = field(default_factory=list)
    civil_war: list[str] = field(default_factory=list)
    excommunicated: list[str] = field(default_factory=list)
    #: Marriages (6.4): sorted pairs of Powers.
    marriages: list[list[str]] = field(default_factory=list)
    #: Powers whose Start Fl have been paid (4.4: only the first time).
    started: list[str] = field(default_factory=list)
    #: Player order (2.7); empty until drawn.
    order: list[str] = field(default_factory=list)
    mongols_no_event: int = 0
    mongols_resolved: int = 0
    #: Flags of the current player turn (attacks launched, map card drawn, ...).
    turn: dict[str, Any] = field(default_factory=dict)
    #: What each seat has seen by Spies (8.1): its own notes, hidden from the others.
    peeks: dict[str, list[Any]] = field(default_factory=dict)
    round: int = 0
    #: The game stops after this round even if the Mongols have not ended it (option ``max_rounds``;
    #: a ruling for players who never draw: the rules end the game only through the deck, 3.5).
    max_rounds: int = 60
    #: Trading and Giving (13.1, a tournament rule) is in play (option ``trading``).
    trading: bool = False
    #: Why the game ended ("" while it goes on).
    over: str = ""
    #: The seat an observed copy is seen by (``Ruleset.observe``); None: the whole table.
    seen_by: str | None = None

    # -- reading ---------------------------------------------------------------------------
    def holder(self, power: str) -> str | None:
        """The seat with ``power``'s card in front of him (4.3), else None."""
        card = f"power-{power}"
        for seat, cards in self.front.items():
            if card in cards:
                return seat
        return None

    def powers_of(self, seat: str) -> list[str]:
        """The Powers ``seat`` controls (cards in front of him), in card order."""
        return [c[6:] for c in self.front[seat] if c.startswith("power-")]  # card_power, inlined

    def in_play(self, province: str) -> bool:
        """The province's map card is displayed."""
        return self.data.provinces[province].card in self.map_in_play

    def home_provinces(self, power: str) -> list[str]:
        """The in-play provinces that count as ``power``'s home provinces now."""
        provinces, cards = self.data.provinces, self.map_in_play
        return [p for p, h in self.home.items() if h == power and provinces[p].card in cards]

    def home_provinces_by_power(self) -> dict[str, list[str]]:
        """``home_provinces`` of every Power at once (one pass over ``home``; a Power with none is absent)."""
        provinces, cards = self.data.provinces, self.map_in_play
        out: dict[str, list[str]] = {}
        for p, h in self.home.items():
            if provinces[p].card in cards:
                if h in out:
                    out[h].append(p)
                else:
                    out[h] = [p]
        return out

    def religion_of(self, province: str) -> str:
        """A province's religion: its Power card's, Catholic for Knights of Christ (4.6), "" for none."""
        if province in self.koc:
            return "catholic"
        pw = self.home.get(province) or self.data.provinces[province].power
        return self.data.powers[pw].religion if pw else ""


# -- copying ---------------------------------------------------------------------------------

#: Fields that are lists of card, map card, province or Power ids (atoms), and dicts of atoms.
_ATOM_LISTS = frozenset({"table", "action_deck", "discard", "aside", "map_deck", "map_in_play", "map_gone", "koc",
                         "heresy", "disaster", "civil_war", "excommunicated", "started", "order"})
_ATOM_DICTS = frozenset({"florins", "control", "home", "ruler"})
_LIST_DICTS = frozenset({"hands", "front"})  # seat -> a list of card ids


def copy_state(s: MedievalState) -> MedievalState:
    """An independent copy of ``s`` (the engine's snapshots): the fields of known shape copied flat
    with the containers' own ``copy``, ``marriages`` pair by pair, the game data shared (immutable),
    and every other field through ``independent_copy``."""
    new = object.__new__(MedievalState)
    d = new.__dict__
    for k, v in s.__dict__.items():
        if k in _ATOM_LISTS or k in _ATOM_DICTS:
            d[k] = v.copy()
        elif k in _LIST_DICTS:
            d[k] = {seat: cards.copy() for seat, cards in v.items()}
        elif k == "marriages":
            d[k] = [pair.copy() for pair in v]
        elif k == "data":
            d[k] = v
        else:
            d[k] = independent_copy(v)
    return new


# -- reducers --------------------------------------------------------------------------------

def _remove_card(s: MedievalState, card: str) -> None:
    for pile in (s.table, s.action_deck, s.discard, s.aside, *s.hands.values(), *s.front.values()):
        if card in pile:
            pile.remove(card)
            return
    raise ValueError(f"card {card!r} is nowhere")


def _move_card(s: MedievalState, e: ChangeEvent) -> None:
    card, to = e.data["card"], e.data["to"]
    _remove_card(s, card)
    kind, _, seat = to.partition(":")
    pile = {"table": s.table, "discard": s.discard, "aside": s.aside, "deck": s.action_deck}.get(kind)
    if kind == "hand":
        s.hands[seat].append(card)
    elif kind == "front":
        s.front[seat].append(card)
    elif pile is not None:
        pile.append(card)
    else:
        raise ValueError(f"unknown place {to!r}")


def _draw_card(s: MedievalState, e: ChangeEvent) -> None:
    card = s.action_deck.pop(0)
    if card != e.data["card"]:
        raise ValueError(f"drew {card!r}, the event says {e.data['card']!r}")
    s.hands[e.data["seat"]].append(card)


def _action_deck(s: MedievalState, e: ChangeEvent) -> None:
    for c in e.data.get("taken", ()):  # cards gathered into the new deck from the table or set aside
        _remove_card(s, c)
    s.action_deck = list(e.data["order"])


def _map_deck(s: MedievalState, e: ChangeEvent) -> None:
    s.map_deck = list(e.data["order"])


def _map_card(s: MedievalState, e: ChangeEvent) -> None:
    card, status = e.data["card"], e.data["status"]
    if card in s.map_deck:
        s.map_deck.remove(card)
    if status == "play":
        s.map_in_play.append(card)
    else:
        if card in s.map_in_play:
            s.map_in_play.remove(card)
        s.map_gone.append(card)


def _florins(s: MedievalState, e: ChangeEvent) -> None:
    s.florins[e.data["seat"]] += e.data["delta"]


def _control(s: MedievalState, e: ChangeEvent) -> None:
    prov, seat = e.data["province"], e.data["seat"]
    if seat is None:
        s.control.pop(prov, None)
    else:
        s.control[prov] = seat


def _home(s: MedievalState, e: ChangeEvent) -> None:
    if e.data["power"]:
        s.home[e.data["province"]] = e.data["power"]
    else:
        s.home.pop(e.data["province"], None)


def _toggle(name: str) -> Callable[[MedievalState, ChangeEvent], None]:
    def reducer(s: MedievalState, e: ChangeEvent) -> None:
        items: list[str] = getattr(s, name)
        key = e.data["power"] if "power" in e.data else e.data["province"]
        if e.data["on"] and key not in items:
            items.append(key)
        elif not e.data["on"] and key in items:
            items.remove(key)
    return reducer


def _ruler(s: MedievalState, e: ChangeEvent) -> None:
    s.ruler[e.data["power"]] = e.data["ruler"]


def _marriage(s: MedievalState, e: ChangeEvent) -> None:
    pair = sorted(e.data["powers"])
    if e.data["on"]:
        s.marriages.append(pair)
    else:
        s.marriages.remove(pair)


def _started(s: MedievalState, e: ChangeEvent) -> None:
    s.started.append(e.data["power"])


def _order(s: MedievalState, e: ChangeEvent) -> None:
    s.order = list(e.data["order"])


def _mongols(s: MedievalState, e: ChangeEvent) -> None:
    s.mongols_no_event += e.data.get("no_event", 0)
    s.mongols_resolved += e.data.get("resolved", 0)


def _begin_turn(s: MedievalState, e: ChangeEvent) -> None:
    s.round = e.data["round"]
    s.turn = dict(thaw(e.data["turn"]))


def _turn_flag(s: MedievalState, e: ChangeEvent) -> None:
    value = thaw(e.data["value"])
    if e.data.get("append"):
        s.turn.setdefault(e.data["key"], []).append(value)
    else:
        s.turn[e.data["key"]] = value


def _peek(s: MedievalState, e: ChangeEvent) -> None:
    s.peeks.setdefault(e.data["seat"], []).append(thaw(e.data["seen"]))


def _game_over(s: MedievalState, e: ChangeEvent) -> None:
    s.over = e.data["reason"]


REDUCERS: Mapping[str, Callable[[MedievalState, ChangeEvent], None]] = {
    "move_card": _move_card,
    "draw_card": _draw_card,
    "action_deck": _action_deck,
    "map_deck": _map_deck,
    "map_card": _map_card,
    "florins": _florins,
    "control": _control,
    "home": _home,
    "koc": _toggle("koc"),
    "heresy": _toggle("heresy"),
    "disaster": _toggle("disaster"),
    "civil_war": _toggle("civil_war"),
    "excommunicated": _toggle("excommunicated"),
    "ruler": _ruler,
    "marriage": _marriage,
    "started": _started,
    "order": _order,
    "mongols": _mongols,
    "begin_turn": _begin_turn,
    "turn_flag": _turn_flag,
    "peek": _peek,
    "game_over": _game_over,
}
