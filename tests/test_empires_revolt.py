"""Empire's Revolt (issue 13): data, dice-offs with ties rerolled, exact odds, economy, branching histories."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import product
from typing import Any

import pytest

from medviz.engine import FirstOptionPolicy, History, IllegalAction, MalformedInput, diff, play, register_ruleset
from medviz.engine.errors import DataError
from medviz.engine.registry import unregister_ruleset
from medviz.rules.empires_revolt import combat, economy, odds
from medviz.rules.empires_revolt.data import load_rules, shipped_rules
from medviz.rules.empires_revolt.ruleset import RULESET

R = shipped_rules()


@pytest.fixture(autouse=True)
def registered() -> Any:
    register_ruleset("empires_revolt", RULESET)
    yield
    unregister_ruleset("empires_revolt")


def test_shipped_data_validates_and_overrides_report_every_problem() -> None:
    assert R.capitals["alexandria"].supports_army is False and R.victory[4] == {"food": 5, "gold": 4, "wood": 4}
    r = load_rules({"capital": [{"id": "rome", "attack": 4}]})
    assert r.capitals["rome"].attack == 4 and r.capitals["rome"].defence == 2
    with pytest.raises(DataError) as err:
        load_rules({"capital": [{"id": "rome", "attack": 0}], "victory": [{"id": "9", "food": 1}]})
    assert len(err.value.problems) >= 3


def test_dice_off_by_brute_force_enumeration() -> None:
    for a, d in ((1, 1), (2, 1), (1, 3), (3, 2)):
        w = lo = 0
        for faces in product(range(1, 7), repeat=a + d):
            r = combat.higher_wins(list(faces[:a]), list(faces[a:]))
            w += r == "attacker"
            lo += r == "defender"
        got = odds.dice_off(a, d)
        assert got.attacker == Fraction(w, w + lo) and got.throw_tie == 1 - Fraction(w + lo, 6 ** (a + d))
    assert odds.dice_off(1, 1).attacker == Fraction(1, 2) and odds.dice_off(1, 1).expected_throws == Fraction(6, 5)


@pytest.mark.parametrize("spec, dice", [("own-revolt", 1), ("own-revolt+city", 2), ("blank", 2), ("blank+city", 3),
                                        ("other-revolt+city", 3), ("held", 1), ("held@D2+city", 3),
                                        ("held@D3+city", 4), ("settled@D2", 2), ("settled@D2+fort", 3),
                                        ("vacated", 1), ("illyria", 2), ("army:D3", 3)])
def test_defence_dice_of_territories(spec: str, dice: int) -> None:
    assert combat.defence_dice(spec, R)[1] == dice


def test_rule_21_reading_of_a_players_city_is_an_option() -> None:
    assert combat.defence_dice("held@D1+city", R, city_rule="21")[1] == 3
    assert combat.defence_dice("held@D1+city", R)[1] == 2


@pytest.mark.parametrize("att, dfd, rule", [("A2", "settled@D2+city", "35"), ("A2", "blank+fort", "41"),
                                            ("A2", "ship", "24"), ("ship+convoy", "ship", "32"),
                                            ("A2+convoy2", "blank", "28"), ("A2", "3xblank", "17"),
                                            ("A2", "vacated+city", "18-21")])
def test_what_the_rules_forbid_is_refused(att: str, dfd: str, rule: str) -> None:
    with pytest.raises(IllegalAction, match=rule):
        combat.new_battle({"attacker": att, "defender": dfd}, R)


def test_ships_add_attack_dice_and_the_capital_keeps_its_armies() -> None:
    assert combat.attack_dice("A2+convoy+support2") == (1, 5, "armies", False)
    b = combat.new_battle({"attacker": "2xA1+capital", "defender": "3xarmy:D3"}, R)
    assert odds.fight_odds_of(b).distribution == {(2, 0): 1}
    with pytest.raises(MalformedInput):
        combat.new_battle({"attacker": "B2", "defender": "blank"}, R)


def test_a_run_of_fights_by_hand() -> None:
    b = combat.new_battle({"attacker": "2xA1", "defender": "army:D1"}, R)
    o = odds.fight_odds_of(b)  # each fight 1/2: the attacker fails only if both its armies lose
    assert o.distribution == {(2, 0): Fraction(1, 2), (1, 0): Fraction(1, 4), (0, 1): Fraction(1, 4)}


def _agree(p: float, k: int, n: int) -> None:
    assert abs(k / n - p) <= 4 * math.sqrt(p * (1 - p) / n), (k / n, p)


@pytest.mark.parametrize("att, dfd", [("A2", "held@D2+city"), ("3xA2+support1", "2xarmy:D3")])
def test_exact_odds_agree_with_seeded_games(att: str, dfd: str) -> None:
    b = combat.new_battle({"attacker": att, "defender": dfd}, R)
    exact = float(odds.fight_odds_of(b).summary()["summary"]["attacker_wins"])
    n = 1200
    wins = sum(play(RULESET, "battle", {"attacker": att, "defender": dfd}, seed=s, players={}).outcome["winner"]
               == "attacker" for s in range(n))
    _agree(exact, wins, n)
    throws = [e for s in range(300) for e in play(RULESET, "battle", {"attacker": "A1", "defender": "army:D1"},
                                                  seed=s, players={}).events if e.kind == "change" and e.change == "er-fight"]
    mean = sum(e.data["throws"] for e in throws) / len(throws)
    t = float(odds.dice_off(1, 1).throw_tie)
    sd = math.sqrt(t) / (1 - t)  # geometric number of throws
    assert abs(mean - 1.2) <= 4 * sd / math.sqrt(len(throws))


def test_a_tie_branch_rolls_again_and_round_trips() -> None:
    seats = {"attacker": FirstOptionPolicy(), "defender": FirstOptionPolicy()}
    h = play(RULESET, "battle", {"attacker": "A1", "defender": "army:D1"}, seed=4, players=seats)
    d = h.roll("fight-1/throw-1/defender/die-1").value
    tie = h.branch("fight-1/throw-1/attacker/die-1", d)
    assert any(r.roll == "fight-1/throw-2/attacker/die-1" for r in tie.rolls())
    assert diff(h, tie).first_divergence is not None
    assert diff(h, h.branch("fight-1/throw-1/attacker/die-1", h.roll("fight-1/throw-1/attacker/die-1").value)).identical
    back = History.from_json(tie.to_json())
    assert back.to_json() == tie.to_json() and back.outcome == tie.outcome


def test_battle_odds_summary_shape() -> None:
    out = RULESET.battle_odds("20xA3", "20xarmy:D2", {})
    assert Fraction(out["exact"]["attacker_wins"]) + Fraction(out["exact"]["defender_wins"]) == 1
    assert out["summary"]["dice_off_attacker"] == round(float(odds.dice_off(3, 2).attacker), 4)
    assert "+convoy" in RULESET.spec_help


# -- economy ----------------------------------------------------------------------------------------
def test_upkeep_support_and_victory() -> None:
    assert economy.upkeep(R, economy.Holdings(ships=4, settlements=7, fortifications=3, mercenaries=2)) == {
        "food": 1, "gold": 2, "wood": 2}
    stock, kept = economy.pay_upkeep(R, {"food": 0, "gold": 1, "wood": 5}, economy.Holdings(ships=3, mercenaries=2))
    assert stock == {"food": 0, "gold": 0, "wood": 4} and kept.mercenaries == 1 and kept.ships == 3
    assert economy.army_support(R, "alexandria", cities=2, regions=7) == 4
    assert economy.army_support(R, "rome", cities=0, regions=2) == 1
    assert economy.armies_to_destroy(R, "rome", 0, 2, armies=3) == 2
    assert economy.resource_victory(R, 2, {"food": 3, "gold": 3, "wood": 3})
    assert not economy.resource_victory(R, 4, {"food": 4, "gold": 4, "wood": 4})
    assert economy.trade_victory(R, 6) and not economy.trade_victory(R, 5)
    assert economy.pay({"food": 3, "gold": 0, "wood": 0}, economy.cost(R, "army"), "army") == {
        "food": 0, "gold": 0, "wood": 0}
    with pytest.raises(IllegalAction, match="short of gold"):
        economy.pay({"food": 1, "gold": 0, "wood": 1}, economy.cost(R, "settlement"), "settlement")
    with pytest.raises(IllegalAction):
        economy.resource_victory(R, 7, {})
