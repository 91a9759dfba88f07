"""Exact odds of an endeavour: every year card equally likely, every face of the plunder die.

The chance of each result is counted over the user's year cards (a card turned over at random
from the deck) and, on a G, the six faces of the Pillage/Plunder Table (11.3); nothing sampled.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from medviz.engine.errors import MalformedInput
from medviz.rules.empires_middle_ages.data import Cards, Rules, load_cards, shipped_rules
from medviz.rules.empires_middle_ages.endeavours import Engagement, effects_of, new_engagement

EFFECTS = ("conquest", "tie", "target-1", "target+1", "base-1", "fortify", "plunder-roll")


def endeavour_odds(e: Engagement, rules: Rules, cards: Cards) -> dict[str, Fraction]:
    """Exact chance of each effect and the expected gold, at ``e``'s effective rating."""
    rating = e.effective_rating(rules)
    n = len(cards.cards)
    out = {k: Fraction(0) for k in EFFECTS}
    out["expected_gold"] = Fraction(0)
    out["nothing"] = Fraction(0)
    mean_gold = Fraction(sum(rules.plunder_gold.values()), 6)
    for res in cards.cards.values():
        effects = effects_of(e, res[e.endeavour], rating)
        for k in set(effects):
            out[k] += Fraction(1, n)
        if "plunder-roll" in effects:
            out["expected_gold"] += mean_gold / n
        if not effects:
            out["nothing"] += Fraction(1, n)
    return out


def rating_table(options: Mapping[str, Any], ratings: range, rules: Rules | None = None,
                 cards: Cards | None = None) -> dict[int, dict[str, Fraction]]:
    """``endeavour_odds`` for each leader rating in ``ratings`` (other options fixed)."""
    rules, cards = rules or shipped_rules(), cards or load_cards()
    return {r: endeavour_odds(new_engagement({**options, "rating": r}, rules, cards).engagement, rules, cards)
            for r in ratings}


def parse_spec(attacker: str, defender: str) -> dict[str, Any]:
    """Options from SPECs: attacker ``pillage:5+gold2``; defender ``fort2,defend3,dgold1`` or ``independent``."""
    head, _, rest = attacker.partition(":")
    opts: dict[str, Any] = {"endeavour": head}
    parts = rest.split("+")
    if not parts[0].lstrip("-").isdigit():
        raise MalformedInput(f"attacker: {attacker[:40]!r} is not ENDEAVOUR:RATING[+gold<n>], e.g. 'conquest:5+gold1'")
    opts["rating"] = int(parts[0])
    for p in parts[1:]:
        if not (p.startswith("gold") and p[4:].isdigit()):
            raise MalformedInput(f"attacker: unknown flag '+{p[:20]}' (known: +gold<n>)")
        opts["gold_bonus"] = int(p[4:])
    names = {"fort": "fort", "defend": "defend", "dgold": "defender_gold", "partial": "base_partial",
             "opponent": "opponent_stature", "social": "target_social", "population": "population"}
    for item in filter(None, (s.strip() for s in defender.split(","))):
        if item in ("player", "independent", "venice", "magnate"):
            opts["target"] = item
            continue
        key = next((k for k in names if item.startswith(k) and item[len(k):].lstrip("-").isdigit()), None)
        if key is None:
            raise MalformedInput(f"defender: unknown item {item[:30]!r} (known: {', '.join(k + '<n>' for k in names)}, "
                                 f"independent, venice, magnate)")
        opts[names[key]] = int(item[len(key):])
    return opts


def battle_odds(attacker: str, defender: str, options: Mapping[str, str] | None = None,
                rules: Rules | None = None) -> dict[str, Any]:
    """The summary ``medviz odds battle --game empires_middle_ages`` prints as JSON (option ``cards=FILE``)."""
    opts = dict(options or {})
    cards = load_cards(opts.pop("cards", None))
    rules = rules or shipped_rules()
    g = new_engagement({**parse_spec(attacker, defender), **opts}, rules, cards)
    exact = endeavour_odds(g.engagement, rules, cards)
    return {"game": "empires_middle_ages", "attacker": attacker, "defender": defender, "endeavour":
            g.engagement.endeavour, "effective_rating": g.rating,
            "summary": {k: round(float(v), 4) for k, v in exact.items()}, "exact": {k: str(v) for k, v in exact.items()},
            "cards": cards.origin, "illustrative_cards": cards.illustrative,
            "choices": ["the year card is one of the deck's cards, each equally likely"]}
