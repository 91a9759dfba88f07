"""Exact odds of Empire's Revolt fights: the dice-off in closed form, a run of fights as a chain.

A dice-off of ``a`` attack dice against ``d`` defence dice is rolled again on a tie (rule 22), an
infinite process. With ``M(k) = P(max of n d6 <= k) = (k/6)**n``, one throw gives the attacker
``w = sum_k P(maxA = k) M_d(k-1)``, the defender ``l`` likewise, a tie ``t = 1 - w - l``; the
process ends with the attacker winning with chance ``w / (w + l)`` exactly (a geometric series),
after ``1 / (1 - t)`` throws on average. A run of fights (several armies, rule 24; an attack from
the capital that loses nothing, rule 8) is a Markov chain on the units left, solved with Fractions.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from medviz.rules.empires_revolt import combat
from medviz.rules.empires_revolt.combat import ErBattle
from medviz.rules.empires_revolt.data import Rules, shipped_rules


def _at_most(k: int, n: int) -> Fraction:
    return Fraction(k, 6) ** n


@dataclass(frozen=True)
class DiceOff:
    """Exact chances of one dice-off: each side's win (ties rerolled) and of one throw."""

    attacker: Fraction
    defender: Fraction
    throw_attacker: Fraction
    throw_defender: Fraction
    throw_tie: Fraction

    @property
    def expected_throws(self) -> Fraction:
        """Average number of throws until a side shows the highest die."""
        return 1 / (1 - self.throw_tie)


@lru_cache(maxsize=4096)
def dice_off(a: int, d: int) -> DiceOff:
    """Exact odds of ``a`` attack dice against ``d`` defence dice, ties rerolled (rule 22)."""
    w = sum(((_at_most(k, a) - _at_most(k - 1, a)) * _at_most(k - 1, d) for k in range(1, 7)), Fraction(0))
    lo = sum(((_at_most(k, d) - _at_most(k - 1, d)) * _at_most(k - 1, a) for k in range(1, 7)), Fraction(0))
    return DiceOff(w / (w + lo), lo / (w + lo), w, lo, 1 - w - lo)


@dataclass(frozen=True)
class FightOdds:
    """Exact distribution of (attacker units left, defender units left) after a run of fights."""

    distribution: dict[tuple[int, int], Fraction]
    start: tuple[int, int]
    single: DiceOff

    def expected_losses(self, i: int) -> Fraction:
        """Expected units lost by side ``i`` (0 attacker, 1 defender)."""
        return sum((p * (self.start[i] - k[i]) for k, p in self.distribution.items()), Fraction(0))

    def summary(self) -> dict[str, Any]:
        """Headline figures as floats (4 places) and exact fractions as text."""
        aw = sum((p for (a, d), p in self.distribution.items() if d == 0), Fraction(0))
        exact = {"attacker_wins": aw, "defender_wins": 1 - aw, "both_stand": Fraction(0),
                 "both_destroyed": Fraction(0), "attacker_expected_losses": self.expected_losses(0),
                 "defender_expected_losses": self.expected_losses(1),
                 "dice_off_attacker": self.single.attacker, "dice_off_tie_per_throw": self.single.throw_tie,
                 "dice_off_expected_throws": self.single.expected_throws}
        return {"summary": {k: round(float(v), 4) for k, v in exact.items()},
                "exact": {k: str(v) for k, v in exact.items()}}


def fight_odds_of(b: ErBattle) -> FightOdds:
    """Exact odds of the fight(s) of ``b``: each fight kills one unit of the loser (rules 8, 24)."""
    single = dice_off(b.attack_dice, b.defence_dice)
    p, q = single.attacker, single.defender
    start = (b.units["attacker"], b.units["defender"])
    out: dict[tuple[int, int], Fraction] = {}
    if b.from_capital:  # the attacker never loses an army: the defender falls, one fight at a time
        out[(start[0], 0)] = Fraction(1)
        return FightOdds(out, start, single)
    mass = {start: Fraction(1)}
    for total in range(sum(start), 1, -1):
        for (a, d) in [s for s in mass if s[0] + s[1] == total]:
            m = mass.pop((a, d))
            for t, pr in (((a, d - 1), p), ((a - 1, d), q)):
                into = out if (t[0] == 0 or t[1] == 0) else mass
                into[t] = into.get(t, Fraction(0)) + m * pr
    return FightOdds(out, start, single)


def battle_odds(attacker: str, defender: str, options: Mapping[str, str] | None = None,
                rules: Rules | None = None) -> dict[str, Any]:
    """The summary ``medviz odds battle --game empires_revolt`` prints as JSON."""
    b = combat.new_battle({"attacker": attacker, "defender": defender, **dict(options or {})},
                          rules or shipped_rules())
    return {"game": "empires_revolt", "attacker": attacker, "defender": defender, "kind": b.kind,
            "attack_dice": b.attack_dice, "defence_dice": b.defence_dice, **fight_odds_of(b).summary(),
            "choices": ["none: fights are settled by dice alone; ties are rolled again (rule 22)"]}
