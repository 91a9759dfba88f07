"""Cards played out of turn: Deus ex Machina cancels a card (8.6), an Assassin cancels Spies (8.2)."""

from __future__ import annotations

from medviz.engine import Context
from medviz.rules.medieval_xiii.decisions import Decision
from medviz.rules.medieval_xiii.state import MedievalState

#: Kinds Deus ex Machina may cancel (8.6 names Pope, Mongol and Knights of Christ as immune; a
#: ruling keeps Power cards out too: they are not events, and 3.2 never lets one leave the game).
CANCELLABLE = frozenset({"spies", "assassin", "civil_war", "jihad", "heresy", "disaster", "change_of_ruler"})


def kind_of(s: MedievalState, card: str) -> str:
    """A card's kind: ``power`` for Power cards, else its Action Card kind."""
    return "power" if card.startswith("power-") else s.data.action_cards[card]


def holding(s: MedievalState, seat: str, kind: str) -> str | None:
    """The first card of ``kind`` in ``seat``'s hand, else None."""
    for c in s.hands[seat]:
        if not c.startswith("power-") and s.data.action_cards[c] == kind:
            return c
    return None


def seats_after(s: MedievalState, seat: str) -> list[str]:
    """The other seats in player order, starting at ``seat``'s left."""
    order = s.order or list(s.seats)
    i = order.index(seat)
    return order[i + 1:] + order[:i]


def left_of(s: MedievalState, seat: str) -> str:
    """The seat to ``seat``'s left (rolls for the Mongols' target, 5.2, and for defenders nobody holds)."""
    return seats_after(s, seat)[0]


def _offer_cancel(s: MedievalState, ctx: Context, seats: list[str], kind: str, step: str, rid: str, card: str,
                  prompt: str, why: str, rule: str) -> bool:
    """Offer each of ``seats`` holding a ``kind`` card, in turn, to cancel ``card`` with it; True if one does."""
    for seat in seats:
        held = holding(s, seat, kind)
        if held is None:
            continue
        choice = ctx.decide(f"{rid}/{step}/{seat}", seat,
                            [{"do": "let-it-be"}, {"do": "cancel", "card": held, "against": card}], prompt=prompt,
                            kind=Decision(step))
        if choice["do"] == "cancel":
            ctx.change("move_card", actor=seat, card=held, to="discard", why=why)
            ctx.report("cancelled", actor=seat, card=card, by=held, rule=rule)
            return True
    return False


def cancelled(s: MedievalState, ctx: Context, rid: str, card: str, player: str, words: str) -> bool:
    """Offer every other holder of Deus ex Machina the chance to cancel ``card`` (8.6); True if one does."""
    if kind_of(s, card) not in CANCELLABLE:
        return False
    return _offer_cancel(s, ctx, seats_after(s, player), "deus_ex_machina", "deus-ex-machina", rid, card,
                         f"Cancel {player}'s {words} with Deus ex Machina (8.6)?", "8.6: Deus ex Machina played", "8.6")


def spies_stopped(s: MedievalState, ctx: Context, rid: str, spies: str, player: str, against: str | None) -> bool:
    """Offer an Assassin (8.2) to the Spies' target first, then to the others; or Deus ex Machina (8.6)."""
    others = seats_after(s, player)
    if against is not None and against in others:
        others.remove(against)
        others.insert(0, against)
    return _offer_cancel(s, ctx, others, "assassin", "assassin-counter", rid, spies,
                         f"Cancel {player}'s Spies with an Assassin (8.2)?", "8.2: Assassin cancels Spies", "8.2") \
        or cancelled(s, ctx, rid, spies, player, "Spies")
