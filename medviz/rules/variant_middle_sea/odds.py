"""Exact odds of a Variant Middle Sea battle: any mix of classes, postures, leaders; no sampling.

A round's hits on each side are a sum of independent per-unit chances (``combat.kill_chance`` of
each group's modified kill face), so their distribution is a convolution of binomials. Losses
follow the doctrine the play's first-option player uses (the last group of the SPEC first), so
the rest of a side is a function of how many units it has left: the battle is a Markov chain on
(attacker units, defender units). With ``rounds=all`` a round in which nobody is hit repeats the
same state; its chance is divided out exactly (the chain is absorbing), so the infinite process
is solved without truncation. Probability mass flows from the start down the chain in order.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from medviz.rules.variant_middle_sea import combat
from medviz.rules.variant_middle_sea.combat import VmsBattle
from medviz.rules.variant_middle_sea.data import Rules, shipped_rules


def hits_distribution(groups: list[tuple[int, Fraction]]) -> list[Fraction]:
    """Exact distribution of the number of kills from ``(units, chance per unit)`` groups."""
    dist = [Fraction(1)]
    for count, p in groups:
        q = 1 - p
        for _ in range(count):
            nxt = [Fraction(0)] * (len(dist) + 1)
            for k, pk in enumerate(dist):
                if pk:
                    nxt[k] += pk * q
                    nxt[k + 1] += pk * p
            dist = nxt
    return dist


def counts_left(initial: list[int], left: int) -> list[int]:
    """Each group's units when ``left`` remain and losses came off the last group first."""
    out = list(initial)
    lose = sum(initial) - left
    for i in reversed(range(len(out))):
        take = min(out[i], lose)
        out[i] -= take
        lose -= take
    return out


@dataclass(frozen=True)
class BattleOdds:
    """Exact distribution of (attacker units left, defender units left) and its headline figures."""

    distribution: dict[tuple[int, int], Fraction]
    start: tuple[int, int]

    def probability(self, test: Any) -> Fraction:
        """Chance of the outcomes ``(a, d)`` for which ``test(a, d)`` holds."""
        return sum((p for (a, d), p in self.distribution.items() if test(a, d)), Fraction(0))

    @property
    def attacker_wins(self) -> Fraction:
        """The defender is destroyed, the attacker is not."""
        return self.probability(lambda a, d: a > 0 and d == 0)

    @property
    def defender_wins(self) -> Fraction:
        """The attacker is destroyed, the defender is not."""
        return self.probability(lambda a, d: d > 0 and a == 0)

    @property
    def both_stand(self) -> Fraction:
        """Both sides keep units (after the rounds asked for)."""
        return self.probability(lambda a, d: a > 0 and d > 0)

    @property
    def both_destroyed(self) -> Fraction:
        """Both sides lose every unit in the same exchange."""
        return self.probability(lambda a, d: a == 0 and d == 0)

    def expected_losses(self, side: str) -> Fraction:
        """Expected units ``side`` loses."""
        i = 0 if side == "attacker" else 1
        return sum((p * (self.start[i] - k[i]) for k, p in self.distribution.items()), Fraction(0))

    def summary(self) -> dict[str, Any]:
        """Headline figures: floats rounded to 4 places, and the exact fractions as text beside them."""
        exact = {"attacker_wins": self.attacker_wins, "defender_wins": self.defender_wins,
                 "both_stand": self.both_stand, "both_destroyed": self.both_destroyed,
                 "attacker_expected_losses": self.expected_losses("attacker"),
                 "defender_expected_losses": self.expected_losses("defender")}
        return {"summary": {k: round(float(v), 4) for k, v in exact.items()},
                "exact": {k: str(v) for k, v in exact.items()}}


def battle_odds_of(b: VmsBattle) -> BattleOdds:
    """Exact odds of the battle ``b`` (a fresh ``VmsBattle`` from ``combat.new_battle``)."""
    groups = {s: [(g.count, combat.kill_chance(g.kill_on)) for g in b.sides[s]] for s in combat.SIDES}
    initial = {s: [g.count for g in b.sides[s]] for s in combat.SIDES}

    @lru_cache(maxsize=None)
    def hits(side: str, left: int) -> tuple[Fraction, ...]:
        counts = counts_left(initial[side], left)
        return tuple(hits_distribution([(c, p) for c, (_, p) in zip(counts, groups[side])]))

    start = (b.alive("attacker"), b.alive("defender"))
    done: dict[tuple[int, int], Fraction] = {}

    def spread(state: tuple[int, int], m: Fraction, into: dict[tuple[int, int], Fraction], repeat: bool) -> None:
        """Send mass ``m`` of ``state`` through one exchange (``repeat``: nobody-hit divided out)."""
        a, d = state
        ha, hd = hits("attacker", a), hits("defender", d)
        scale = m / (1 - ha[0] * hd[0]) if repeat else m
        for kd, pa in enumerate(ha):  # the attacker's kills take defenders
            if not pa:
                continue
            sent = scale * pa
            for ka, pd in enumerate(hd):
                if not pd or (repeat and kd == 0 and ka == 0):
                    continue
                t = (max(a - ka, 0), max(d - kd, 0))
                target = done if (t[0] == 0 or t[1] == 0) else into
                target[t] = target.get(t, Fraction(0)) + sent * pd

    if b.rounds is None:
        mass: dict[tuple[int, int], Fraction] = {start: Fraction(1)}
        for total in range(sum(start), 1, -1):  # each exchange that hits lowers the total: an order
            for state in [s for s in mass if s[0] + s[1] == total]:
                spread(state, mass.pop(state), mass, repeat=True)
    else:
        mass = {start: Fraction(1)}
        for _ in range(b.rounds):
            nxt: dict[tuple[int, int], Fraction] = {}
            for state, m in mass.items():
                spread(state, m, nxt, repeat=False)
            mass = nxt
        for state, p in mass.items():
            done[state] = done.get(state, Fraction(0)) + p
    return BattleOdds(done, start)


def battle_odds(attacker: str, defender: str, options: Mapping[str, str] | None = None,
                rules: Rules | None = None) -> dict[str, Any]:
    """The odds summary the ``medviz odds battle --game variant_middle_sea`` command prints as JSON."""
    opts: dict[str, Any] = dict(options or {})
    b = combat.new_battle({"attacker": attacker, "defender": defender, **opts}, rules or shipped_rules())
    result = battle_odds_of(b)
    return {"game": "variant_middle_sea", "attacker": attacker, "defender": defender,
            "rounds": "all" if b.rounds is None else b.rounds, **result.summary(),
            "choices": ["losses: the owner removes units from the last group of its SPEC first",
                        "rounds: " + ("until one side has no units left" if b.rounds is None
                                      else f"{b.rounds} exchange(s) of fire")],
            "groups": {s: [{"group": g.id, "units": g.count, "leader": g.leader, "kills_on_natural": max(g.kill_on, 1),
                            "kill_chance": str(combat.kill_chance(g.kill_on))} for g in b.sides[s]]
                       for s in combat.SIDES}}
