"""Taxation, plunder (16.1-16.23) and partial conquest (10.3-10.38) as exact, pure rules.

The Unrest & Rebellion Table is the user's (``Cards.rebellion_row``); the base rebellion value
of an area is 17.2, outside this fragment, so callers give it and this module adds what the
fragment states: +1 per gold asked (16.16), -2 for the owner's tie and +2 for opponents' ties
(12.42), minus fortification strength (14.32), +5 for unrest and 3 gold assumed when plundering
an area in unrest (16.23.1).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from medviz.engine.errors import IllegalAction
from medviz.rules.empires_middle_ages.data import Cards, Rules


def two_dice() -> dict[int, Fraction]:
    """The distribution of a 2d6 total."""
    return {t: Fraction(6 - abs(t - 7), 36) for t in range(2, 13)}


def rebellion_value(rules: Rules, base: int, gold: int, *, own_tie: bool = False, opponent_ties: bool = False,
                    fort: int = 0, unrest: bool = False) -> int:
    """The rebellion value of an area being taxed for ``gold`` (16.16, 12.42, 14.32, 16.23.1)."""
    m = rules.modifiers
    return (base + gold * m["rebellion-per-gold-taxed"] + (m["rebellion-own-tie"] if own_tie else 0)
            + (m["rebellion-opponent-ties"] if opponent_ties else 0) - fort + (m["rebellion-unrest"] if unrest else 0))


def tax_odds(rules: Rules, cards: Cards, social: int, gold: int, rebellion: int, court: bool = False) -> dict[str, Fraction]:
    """Exact chances of a tax attempt: ``taxed`` (no result or unrest), ``unrest``, ``rebellion`` (16.1)."""
    if not 1 <= gold <= social:
        raise IllegalAction(f"an area at social state {social} can be taxed for 1..{max(social, 0)} gold", "16.11")
    if court:
        return {"taxed": Fraction(1), "unrest": Fraction(0), "rebellion": Fraction(0)}  # 16.17
    unrest, rebel = cards.rebellion_row(rebellion)
    d = two_dice()
    p_reb = sum((d[t] for t in rebel), Fraction(0))
    return {"taxed": 1 - p_reb, "unrest": sum((d[t] for t in unrest), Fraction(0)), "rebellion": p_reb}


def plunder_odds(rules: Rules, cards: Cards, social: int, unrest: bool, rebellion_base: int, **ties: bool
                 ) -> dict[str, Fraction]:
    """Exact chances of a plunder (16.2): rebellion, and the expected gold from the 11.3 table."""
    if social <= rules.constants["social-state-min"]:
        raise IllegalAction(f"an area at social state {social} cannot be plundered", "16.22")
    mean_gold = Fraction(sum(rules.plunder_gold.values()), 6)
    if not unrest:
        return {"rebellion": Fraction(0), "expected_gold": mean_gold}
    rv = rebellion_value(rules, rebellion_base, rules.modifiers["plunder-assumed-gold"], unrest=True, **ties)
    _, rebel = cards.rebellion_row(rv)
    p = sum((two_dice()[t] for t in rebel), Fraction(0))
    return {"rebellion": p, "expected_gold": (1 - p) * mean_gold}


@dataclass
class PartialConquest:
    """C results against one area, registered per attacking player and base area (10.3-10.38)."""

    population: int
    owner: str
    markers: dict[tuple[str, str], int] = field(default_factory=dict)  # (player, base area) -> C results

    def against_owner(self) -> int:
        """C results standing against the area: the owner's rating falls by this much (10.33)."""
        return sum(self.markers.values())

    def add(self, player: str, base: str) -> str | None:
        """Register a C result; returns the new owner when a player reaches the population (10.3, 10.38)."""
        if player == self.owner:
            raise IllegalAction("a player does not conquer their own area", "10.35")
        self.markers[(player, base)] = self.markers.get((player, base), 0) + 1
        if sum(n for (p, _), n in self.markers.items() if p == player) >= self.population:
            self.owner, self.markers = player, {}  # others' markers removed (10.38)
            return player
        return None

    def counter(self, base: str) -> bool:
        """The owner's C result against ``base``: one enemy C from that base is removed (10.36)."""
        for key in sorted(self.markers):
            if key[1] == base:
                self.markers[key] -= 1
                if not self.markers[key]:
                    del self.markers[key]
                return True
        return False

    def base_conquered(self, base: str) -> None:
        """A base area that inflicted C results was conquered: its results are removed (10.37)."""
        self.markers = {k: n for k, n in self.markers.items() if k[1] != base}

    def may_attack_from(self, base: str) -> bool:
        """The owner may use the area against ``base`` once no C result from it remains (10.36)."""
        return not any(k[1] == base for k in self.markers)
