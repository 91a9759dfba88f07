"""Endeavours resolved by year cards at an effectiveness rating (9.33, 10.3x-15.3, 16.x).

The rating the card is read at: the leader's effectiveness plus what gold bought (9.33, not in
this fragment: given as rating points), less fortifications (14.31), less a defense endeavour's
combat stature plus the defender's gold (13.21), less the C results against a partially
conquered base (10.33); diplomacy subtracts an opponent's diplomatic stature (12.17), 3 against
independents (12.18), 5 against independent Venice (12.19) or a Magnate's area (12.20). A
defended endeavour whose rating falls below zero keeps only its harmful results (13.22).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from medviz.engine.errors import IllegalAction, MalformedInput
from medviz.engine.events import ChangeEvent
from medviz.engine.game import Context, Task
from medviz.rules.empires_middle_ages.data import ENDEAVOURS, Cards, Result, Rules

#: Results that help the active player, dropped when a defense pushes the rating below zero (13.22).
POSITIVE = {"C", "T", "T/C>", "G", "F", "+1>", "-1>"}
DIPLOMACY_TARGETS = ("player", "independent", "venice", "magnate")


@dataclass(frozen=True)
class Engagement:
    """One endeavour as set up: who, against what, and every number that changes the rating."""

    endeavour: str
    rating: int
    gold_bonus: int = 0
    fort: int = 0
    defend: int | None = None  # the defender's combat stature when a defense endeavour is made (13.0)
    defender_gold: int = 0
    base_partial: int = 0  # C results against the active player's base area (10.33)
    target: str = "player"  # diplomacy: player, independent, venice, magnate (12.17-12.20)
    opponent_stature: int = 0  # diplomacy against a player's area: their diplomatic stature (12.17)

    def effective_rating(self, rules: Rules) -> int:
        """The rating the year card is read at (see the module's note for the rules)."""
        r = self.rating + self.gold_bonus - self.base_partial
        if self.endeavour in ("conquest", "pillage"):
            r -= self.fort  # 14.31
            if self.defend is not None:
                r -= self.defend + self.defender_gold  # 13.21
        if self.endeavour == "diplomacy":
            r -= {"player": self.opponent_stature, "independent": -rules.modifiers["diplomacy-independent"],
                  "venice": -rules.modifiers["diplomacy-independent-venice"],
                  "magnate": -rules.modifiers["diplomacy-magnate"]}[self.target]
        return r


def effects_of(e: Engagement, results: tuple[Result, ...], rating: int) -> list[str]:
    """What a card's results do at ``rating``: ``conquest``, ``tie``, ``target-1``, ``base-1``,
    ``target+1``, ``fortify``, ``plunder-roll`` (11.2, 12.3, 14.2, 15.2; 13.22 when defended)."""
    out: list[str] = []
    for r in results:
        if e.defend is not None and rating < 0 and r.kind in POSITIVE:
            continue  # 13.22
        if r.kind == "C":
            out.append("conquest")
        elif r.kind == "T":
            out.append("tie")
        elif r.kind == "T/C>":
            out.append("conquest" if rating >= (r.bound or 0) else "tie")  # 12.3: only one result
        elif r.kind == "G":
            out.append("plunder-roll")
        elif r.kind == "F":
            out.append("fortify")
        elif r.applies(rating):
            out.append({"+1>": "target+1", "-1>": "target-1"}.get(r.kind, "base-1" if e.endeavour == "pillage"
                                                                 else "target-1"))
    return out


# --------------------------------------------------------------------------------------------
# The engagement scenario
# --------------------------------------------------------------------------------------------
@dataclass
class EngagementGame:
    """State of the ``endeavour`` scenario: the area's registers as the endeavour changes them."""

    scenario: str
    engagement: Engagement
    rating: int
    cards: dict[str, dict[str, list[str]]]
    population: int
    c_results: int
    target_social: int
    base_social: int
    fort: int
    unrest: bool
    gold: int = 0
    tie: bool = False
    conquered: bool = False
    effects: list[str] = field(default_factory=list)


def _int(options: Mapping[str, Any], key: str, default: int, lo: int, hi: int) -> int:
    v = options.get(key, default)
    if isinstance(v, str) and re.fullmatch(r"-?\d{1,3}", v):
        v = int(v)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise MalformedInput(f"endeavour options: {key} must be a whole number {lo}..{hi}, not {v!r}")
    return v


OPTIONS = ("endeavour", "rating", "gold_bonus", "fort", "defend", "defender_gold", "base_partial", "target",
           "opponent_stature", "population", "c_results", "target_social", "base_social", "unrest")


def new_engagement(options: Mapping[str, Any], rules: Rules, cards: Cards) -> EngagementGame:
    """An endeavour from its options (see ``OPTIONS``); refuses what the rules forbid, naming the rule."""
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise MalformedInput(f"endeavour options: unknown option(s) {unknown}; known: {', '.join(OPTIONS)}")
    end = options.get("endeavour", "conquest")
    if end not in ENDEAVOURS:
        raise MalformedInput(f"endeavour options: endeavour must be one of {', '.join(ENDEAVOURS)}, not {end!r}")
    lo, hi = rules.constants["social-state-min"], rules.constants["social-state-max"]
    fort = _int(options, "fort", 0, 0, rules.constants["fort-max-strength"])
    if fort == 1:
        raise IllegalAction("fortifications start at strength 2", "14.0")
    raw_defend = options.get("defend")
    defend = None if raw_defend in (None, "", "no") else _int(options, "defend", 0, 0, 20)
    target = options.get("target", "player")
    if target not in DIPLOMACY_TARGETS:
        raise MalformedInput(f"endeavour options: target must be one of {', '.join(DIPLOMACY_TARGETS)}")
    if defend is not None and end not in ("conquest", "pillage"):
        raise IllegalAction("a defense endeavour answers a conquest or pillage endeavour only", "13.0")
    e = Engagement(end, _int(options, "rating", 0, -20, 30), _int(options, "gold_bonus", 0, 0, 30), fort, defend,
                   _int(options, "defender_gold", 0, 0, 30), _int(options, "base_partial", 0, 0, 10), target,
                   _int(options, "opponent_stature", 0, 0, 20))
    ts = _int(options, "target_social", 0, lo, hi)
    if end == "pillage" and ts == lo:
        raise IllegalAction(f"no pillage against an area at social state {lo}", "11.0")
    population = _int(options, "population", 1, 1, 20)
    c = _int(options, "c_results", 0, 0, population - 1)
    unrest = str(options.get("unrest", "no")).lower() in ("1", "true", "yes")
    table = {cid: {k: [r.code for r in v] for k, v in res.items()} for cid, res in cards.cards.items()}
    return EngagementGame("endeavour", e, e.effective_rating(rules), table, population, c, ts,
                          _int(options, "base_social", 0, lo, hi), fort, unrest)


def task_endeavour(g: EngagementGame, ctx: Context, plunder_gold: Mapping[int, int], lo: int, hi: int) -> None:
    """Turn over the year card(s), apply the results at the rating, roll for gold on a G (11.2, 13.0)."""
    from medviz.rules.empires_middle_ages.data import parse_result

    ctx.begin_phase("endeavours")
    card = ctx.draw("endeavour-1/active/year-card", list(g.cards), actor="active",
                    purpose=f"year card for the {g.engagement.endeavour} endeavour at rating {g.rating}")
    if g.engagement.defend is not None:
        ctx.draw("endeavour-1/defender/year-card", list(g.cards), actor="defender",
                 purpose="year card for the defense endeavour (its results are ignored, 13.22)")
    results = tuple(parse_result(c) for c in g.cards[card][g.engagement.endeavour])
    effects = effects_of(g.engagement, results, g.rating)
    gold = 0
    if "plunder-roll" in effects:
        face = ctx.roll("endeavour-1/pillage-gold", "1d6", actor="active", purpose="Pillage/Plunder Table (11.3)",
                        effects={f: f"{plunder_gold[f]} gold" for f in range(1, 7)})
        gold = plunder_gold[face]
    ctx.change("eotma-results", card=card, effects=effects, gold=gold, lo=lo, hi=hi)


def apply_results(g: EngagementGame, e: ChangeEvent) -> None:
    """The reducer of ``eotma-results``: social states, C results, ties, forts, gold (10.3, 14.41, 15.3)."""
    lo, hi = e.data["lo"], e.data["hi"]
    g.effects = list(e.data["effects"])
    g.gold += e.data["gold"]
    for eff in g.effects:
        if eff == "conquest":
            if g.engagement.endeavour == "diplomacy":
                g.conquered = True  # 12.31: total, no unrest, forts kept (14.42)
            else:
                g.c_results += 1
                if g.c_results >= g.population:  # 10.3: the area changes hands, with unrest
                    g.conquered, g.unrest = True, True
                    g.fort = 0 if g.fort == 2 else min(g.fort, 2)  # 14.41
        elif eff == "tie":
            g.tie = True
        elif eff == "target-1":
            g.target_social = max(lo, g.target_social - 1)
        elif eff == "target+1":
            g.target_social = min(hi, g.target_social + 1)
        elif eff == "base-1":
            g.base_social = max(lo, g.base_social - 1)
        elif eff == "fortify":
            g.fort = min(3, max(2, g.fort + 1)) if g.fort else 2  # 14.0: strength 2, then 3
    if g.engagement.endeavour == "ruling" and "target-1" not in g.effects:
        g.unrest = False  # 15.3


def outcome(g: EngagementGame) -> dict[str, Any]:
    """The area's registers after the endeavour."""
    return {"winner": "active" if (g.conquered or g.tie or g.gold or "fortify" in g.effects or "target+1" in g.effects
                                   or (g.engagement.endeavour == "pillage" and "target-1" in g.effects))
            else None, "effects": list(g.effects), "rating": g.rating, "conquered": g.conquered,
            "c_results": g.c_results, "tie": g.tie, "gold": g.gold, "target_social": g.target_social,
            "base_social": g.base_social, "fort": g.fort, "unrest": g.unrest}


def schedule(rules: Rules) -> Task:
    """The scenario's one task."""
    return Task.of("eotma.endeavour", checkpoint=True)
