"""Trading and Giving (13.1, a tournament rule; option ``trading``): the parts of the table talk
that can be written down as offers a player makes and the other player accepts or refuses.

Modelled (ruling T1, docs/rules-coverage-medieval.md): in his Action Phase, after the hand was
refilled (13.1 E), the active player (13.1 E: one side of every trade) may offer another player

- florins for a card of a named kind from that player's hand ("5 Fl for a Spies card", the text's
  example); he cannot name a card he has not seen;
- one of his own un-played, non-Mandatory cards for florins (13.1 A).

The other player's policy accepts or refuses; an accepted trade is done at once and cannot be
taken back (13.1 F). At most one card changes hands in a Player Turn (13.1 C), which also keeps
a card from going back to its giver before the receiver's next turn. Each offer (same player,
same card or kind) is made at most once a turn, so a turn of refused offers still ends. Not
modelled: gifts, trading provinces or Permission (Permission stays a yes/no, 9.5) and promises,
which the rules do not enforce anyway (13.1 F).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from medviz.engine import Context
from medviz.rules.medieval_xiii.decisions import Decision
from medviz.rules.medieval_xiii.interrupts import holding
from medviz.rules.medieval_xiii.state import MedievalState
from medviz.rules.medieval_xiii.words import card as card_words
from medviz.rules.medieval_xiii.words import kind_words

#: The prices (Fl) an offer may name: a short ladder keeps the options few (a ruling).
PRICES = (1, 2, 3, 5, 8)


def tradeable(s: MedievalState, card: str) -> bool:
    """An un-played card that is not Mandatory may be traded (13.1 A); Power cards in hand too."""
    return card.startswith("power-") or s.data.action_cards[card] not in s.data.mandatory_kinds


def _kinds(s: MedievalState) -> list[str]:
    return sorted({k for k in s.data.action_cards.values() if k not in s.data.mandatory_kinds})


def offer_options(s: MedievalState, seat: str) -> list[dict[str, Any]]:
    """The offers ``seat`` may still make this turn (13.1 A, C, E)."""
    if s.turn.get("traded"):
        return []
    made = {(o[0], o[1]) for o in s.turn.get("offers", [])}
    out: list[dict[str, Any]] = []
    for other in s.seats:
        if other == seat:
            continue
        for kind in _kinds(s):
            if (other, kind) not in made:
                out += [{"do": "offer", "to": other, "buy": kind, "price": p} for p in PRICES if p <= s.florins[seat]]
        for card in sorted(set(s.hands[seat])):
            if tradeable(s, card) and (other, card) not in made:
                out += [{"do": "offer", "to": other, "sell": card, "price": p} for p in PRICES]
    return out


def make_offer(s: MedievalState, ctx: Context, rid: str, seat: str, offer: Mapping[str, Any]) -> None:
    """``seat`` makes ``offer``; the other player accepts or refuses (13.1); an accepted trade is done."""
    other, price = offer["to"], offer["price"]
    what = offer.get("buy") or offer["sell"]
    ctx.change("turn_flag", key="offers", value=[other, what], append=True)
    if "buy" in offer:
        card = holding(s, other, offer["buy"])
        able = card is not None
        buyer, seller = seat, other
    else:
        card = offer["sell"]
        able = s.florins[other] >= price
        buyer, seller = other, seat
    opts: list[dict[str, Any]] = [{"do": "refuse"}] + ([{"do": "accept"}] if able else [])
    thing = f"a {kind_words(what)} card of yours" if "buy" in offer else card_words(s.data, what)
    answer = ctx.decide(f"{rid}/trade/{other}", other, opts, kind=Decision.TRADE,
                        prompt=f"Player {seat} offers {price} Fl for {thing}: accept (13.1)?" if "buy" in offer
                        else f"Player {seat} offers you {thing} for {price} Fl: accept (13.1)?")
    if answer["do"] != "accept":
        ctx.report("trade", actor=other, buyer=buyer, seller=seller, price=price, done=False, rule="13.1")
        return
    assert card is not None
    ctx.change("florins", actor=buyer, seat=buyer, delta=-price, why="13.1: a trade")
    ctx.change("florins", actor=seller, seat=seller, delta=price, why="13.1: a trade")
    ctx.change("move_card", actor=seller, card=card, to=f"hand:{buyer}", why="13.1: a trade")
    ctx.change("turn_flag", key="traded", value=True)
    ctx.report("trade", actor=other, buyer=buyer, seller=seller, price=price, card=card, done=True, rule="13.1")
