"""Exact odds: they sum to one, conserve units, and agree with sampled battles."""

from __future__ import annotations

import math
import os
from collections import Counter
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from medviz.engine import play
from medviz.rules.medempires.odds import Doctrine, battle_odds, outcome_key, table_roll_odds
from medviz.rules.medempires.ruleset import RULESET, new_battle


def test_one_table_roll() -> None:
    assert table_roll_odds("field", 3) == {"CA": Fraction(1, 3), "NE": Fraction(1, 6), "BB": Fraction(1, 3),
                                           "DV": Fraction(1, 6)}
    # Raid table, 8-10 column, rolls 4..9: BB, DV, DV, then 7+ three times.
    assert table_roll_odds("raid", 8, drm=3) == {"BB": Fraction(1, 6), "DV": Fraction(1, 3),
                                                 "DV+S": Fraction(1, 2)}
    assert sum(table_roll_odds("field", 12, drm=-7).values()) == 1


LAND = ["FA", "L", "R"]


@st.composite
def forces(draw: st.DrawFn) -> dict[str, object]:
    def spec(power: str, allow_m: bool) -> str:
        codes = LAND + (["M"] if allow_m else [])
        items = draw(st.dictionaries(st.sampled_from(codes), st.integers(1, 2), min_size=1, max_size=3))
        parts = [f"{n}{c}" for c, n in sorted(items.items())]
        if draw(st.booleans()):
            parts.append(f"K{draw(st.integers(0, 2))}")
        if draw(st.booleans()):
            parts.append("1MA")
        return f"{power}:" + ",".join(parts)

    return {"attacker": spec("aragon", True), "defender": spec("anjou", False),
            "city": draw(st.booleans()), "ops": draw(st.sampled_from([0, 2]))}


DOCTRINES = st.sampled_from([Doctrine(), Doctrine(avoid=True), Doctrine(table="raid", counterattack=False)])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(forces(), DOCTRINES)
def test_exact_odds_sum_to_one_and_conserve_units(opts: dict[str, object], doctrine: Doctrine) -> None:
    b = new_battle(opts)
    odds = battle_odds(b, doctrine)
    assert sum(odds.distribution.values()) == 1
    start = {s: sum(b.sides[s].units.values()) for s in ("attacker", "defender")}
    for att, dfd, _kings, _avoided in odds.distribution:
        assert 0 <= sum(n for _, n in att) <= start["attacker"]
        assert 0 <= sum(n for _, n in dfd) <= start["defender"]
    s = odds.summary()
    assert math.isclose(s["attacker_wins"] + s["defender_wins"] + s["both_stand"] + s["both_destroyed"], 1, abs_tol=1e-3)


@settings(max_examples=40, deadline=None)
@given(forces(), st.integers(0, 10_000))
def test_sampled_battles_conserve_units(opts: dict[str, object], seed: int) -> None:
    d = Doctrine()
    h = play(RULESET, "battle", opts, seed=seed, players={"attacker": d, "defender": d})
    b = h.final_state.battle
    for side in ("attacker", "defender"):
        initial = sum(b.initial[side].values())
        assert sum(b.sides[side].units.values()) + sum(b.eliminated[side].values()) == initial


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(forces(), DOCTRINES)
def test_exact_odds_agree_with_sampled_battles(opts: dict[str, object], doctrine: Doctrine) -> None:
    n = 20_000 if os.environ.get("MEDVIZ_SLOW") else 5_000  # within 4 standard errors at either size
    exact = battle_odds(new_battle(opts), doctrine).distribution
    seen: Counter[object] = Counter()
    for seed in range(n):
        h = play(RULESET, "battle", opts, seed=seed, players={"attacker": doctrine, "defender": doctrine})
        seen[outcome_key(h.final_state.battle)] += 1
    assert set(seen) <= set(exact)
    for key, p in exact.items():
        pf = float(p)
        se = math.sqrt(pf * (1 - pf) / n)
        assert abs(seen[key] / n - pf) <= 4 * se + 1e-9, (key, seen[key] / n, pf)
