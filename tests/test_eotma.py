"""Empires of the Middle Ages, fragment 10.3x-16.2 (issue 13): endeavours, ratings, odds, taxation, conquest."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import pytest

from medviz.engine import FirstOptionPolicy, History, IllegalAction, MalformedInput, diff, play, register_ruleset
from medviz.engine.errors import DataError
from medviz.engine.registry import unregister_ruleset
from medviz.rules.empires_middle_ages import endeavours, odds, realm
from medviz.rules.empires_middle_ages.data import load_cards, load_rules, parse_result, sample_cards, shipped_rules
from medviz.rules.empires_middle_ages.ruleset import RULESET

R, C = shipped_rules(), sample_cards()
SEATS = {"active": FirstOptionPolicy(), "defender": FirstOptionPolicy()}


@pytest.fixture(autouse=True)
def registered() -> Any:
    register_ruleset("empires_middle_ages", RULESET)
    yield
    unregister_ruleset("empires_middle_ages")


def test_shipped_numbers_and_the_sample_is_marked_illustrative() -> None:
    assert R.plunder_gold == {1: 0, 2: 1, 3: 1, 4: 2, 5: 2, 6: 3} and R.constants["starting-gold"] == 12
    assert C.illustrative and len(C.cards) == 5
    assert load_rules({"constant": [{"id": "starting-gold", "value": 10}]}).constants["starting-gold"] == 10


def test_a_users_card_file_is_validated_with_every_problem() -> None:
    with pytest.raises(DataError) as err:
        load_cards({"card": [{"id": "a", "source": "mine", "conquest": ["T"], "ruling": ["+1(x>)"]}],
                    "unrest_rebellion": [{"id": "r", "source": "mine", "rv_min": 3, "rv_max": 1}]})
    assert len(err.value.problems) == 3
    mine = load_cards({"card": [{"id": "a", "source": "mine", "conquest": ["C"]}],
                       "unrest_rebellion": [{"id": "r", "source": "mine", "rv_min": 0, "rv_max": 9, "rebellion": [12]}]})
    assert not mine.illustrative and mine.rebellion_row(5)[1] == {12}


def test_result_codes_and_their_rating_bounds() -> None:
    assert parse_result("-1(4>)").applies(4) and not parse_result("-1(4>)").applies(3)
    assert parse_result("-1(<2)").applies(2) and not parse_result("-1(<2)").applies(3)
    e = endeavours.Engagement("diplomacy", 5)
    assert endeavours.effects_of(e, (parse_result("T/C(6>)"),), 6) == ["conquest"]
    assert endeavours.effects_of(e, (parse_result("T/C(6>)"),), 5) == ["tie"]


def test_effective_rating_modifiers() -> None:
    e = endeavours.Engagement("conquest", 6, gold_bonus=2, fort=3, defend=2, defender_gold=1, base_partial=1)
    assert e.effective_rating(R) == 6 + 2 - 1 - 3 - 3
    assert endeavours.Engagement("diplomacy", 6, target="independent").effective_rating(R) == 3
    assert endeavours.Engagement("diplomacy", 6, target="venice").effective_rating(R) == 1
    assert endeavours.Engagement("diplomacy", 6, target="player", opponent_stature=4).effective_rating(R) == 2
    neg = endeavours.Engagement("pillage", 1, defend=3)  # 13.22: positive results ignored below zero
    assert endeavours.effects_of(neg, (parse_result("G"), parse_result("-1(<0)")), -2) == ["base-1"]


@pytest.mark.parametrize("opts, rule", [({"endeavour": "ruling", "defend": 2}, "13.0"), ({"fort": 1}, "14.0"),
                                        ({"endeavour": "pillage", "target_social": -3}, "11.0")])
def test_what_the_rules_forbid_is_refused(opts: dict[str, Any], rule: str) -> None:
    with pytest.raises(IllegalAction, match=rule):
        endeavours.new_engagement(opts, R, C)
    with pytest.raises(MalformedInput):
        endeavours.new_engagement({"endeavour": "crusade"}, R, C)


def test_endeavour_odds_by_hand_over_the_sample() -> None:
    e = endeavours.Engagement("pillage", 4)
    got = odds.endeavour_odds(e, R, C)
    # G on samples 1, 2, 4; -1(5>) fails at 4, -1(3>) holds; -1(<2) and -1(<0) fail
    assert got["plunder-roll"] == Fraction(3, 5) and got["target-1"] == Fraction(1, 5)
    assert got["expected_gold"] == Fraction(3, 5) * Fraction(9, 6) and got["base-1"] == 0
    table = odds.rating_table({"endeavour": "ruling"}, range(-1, 8))
    assert [table[r]["target+1"] for r in (1, 2, 4, 6)] == [0, Fraction(1, 5), Fraction(2, 5), Fraction(3, 5)]


def test_exact_odds_agree_with_seeded_endeavours() -> None:
    opts = {"endeavour": "pillage", "rating": 5, "defend": 1}
    exact = odds.endeavour_odds(endeavours.new_engagement(opts, R, C).engagement, R, C)
    n, gold, hits = 2000, 0, 0
    for s in range(n):
        out = play(RULESET, "endeavour", opts, seed=s, players=SEATS).outcome
        gold += out["gold"]
        hits += "target-1" in out["effects"]
    p = float(exact["target-1"])
    assert abs(hits / n - p) <= 4 * math.sqrt(p * (1 - p) / n)
    sd = 1.1  # the gold per endeavour is 0..3: its sd is below 1.1
    assert abs(gold / n - float(exact["expected_gold"])) <= 4 * sd / math.sqrt(n)


def test_an_endeavour_branches_on_its_card_and_its_gold_die_and_round_trips() -> None:
    h = play(RULESET, "endeavour", {"endeavour": "pillage", "rating": 6}, seed=2, players=SEATS)
    other = h.branch("endeavour-1/active/year-card", "sample-3")
    assert "plunder-roll" not in other.outcome["effects"] and diff(h, other).first_divergence is not None
    g = h.branch("endeavour-1/active/year-card", "sample-1").branch("endeavour-1/pillage-gold", 6)
    assert g.outcome["gold"] == 3
    assert diff(h, h.branch("endeavour-1/active/year-card", h.roll("endeavour-1/active/year-card").value)).identical
    back = History.from_json(g.to_json())
    assert back.to_json() == g.to_json() and back.outcome == g.outcome


def test_conquest_completes_at_the_population_and_reduces_forts() -> None:
    h = play(RULESET, "endeavour", {"endeavour": "conquest", "rating": 5, "population": 2, "c_results": 1,
                                    "fort": 3}, seed=0, players=SEATS)
    h = h.branch("endeavour-1/active/year-card", "sample-1")
    assert h.outcome["conquered"] and h.outcome["unrest"] and h.outcome["fort"] == 2  # 10.3, 14.41
    d = h.branch("endeavour-1/active/year-card", "sample-4")
    assert not d.outcome["conquered"] and d.outcome["c_results"] == 1


def test_taxation_plunder_and_partial_conquest() -> None:
    assert realm.rebellion_value(R, 2, 3, own_tie=True, fort=2) == 1
    assert realm.rebellion_value(R, 0, 0, opponent_ties=True, unrest=True) == 7
    t = realm.tax_odds(R, C, social=3, gold=3, rebellion=10)
    assert t["rebellion"] == Fraction(3, 36) and t["unrest"] == Fraction(12, 36)
    assert realm.tax_odds(R, C, 2, 2, 99, court=True)["taxed"] == 1
    with pytest.raises(IllegalAction, match="16.11"):
        realm.tax_odds(R, C, social=1, gold=2, rebellion=0)
    p = realm.plunder_odds(R, C, social=0, unrest=True, rebellion_base=0)  # rv 8: rebels on 12
    assert p["rebellion"] == Fraction(1, 36) and p["expected_gold"] == Fraction(35, 36) * Fraction(3, 2)
    pc = realm.PartialConquest(population=3, owner="A")
    assert pc.add("B", "b1") is None and pc.add("B", "b2") is None and pc.against_owner() == 2
    assert not pc.may_attack_from("b1") and pc.counter("b1") and pc.may_attack_from("b1")
    pc.add("C", "c1")
    pc.base_conquered("c1")
    assert pc.against_owner() == 1
    assert pc.add("B", "b1") is None and pc.add("B", "b2") == "B" and pc.markers == {}


def test_battle_odds_summary_shape() -> None:
    out = RULESET.battle_odds("pillage:5+gold1", "fort2,defend2", {})
    assert out["effective_rating"] == 2 and out["illustrative_cards"] is True
    assert out["summary"]["expected_gold"] == round(float(Fraction(out["exact"]["expected_gold"])), 4)
    assert "cards=FILE" in RULESET.spec_help
