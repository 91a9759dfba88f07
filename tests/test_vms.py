"""Variant Middle Sea (issue 13): data, combat rules, exact odds, histories that branch."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import pytest

from medviz.engine import FirstOptionPolicy, History, IllegalAction, MalformedInput, diff, play, register_ruleset
from medviz.engine.errors import DataError
from medviz.engine.registry import unregister_ruleset
from medviz.rules.variant_middle_sea import combat, odds, spies
from medviz.rules.variant_middle_sea.data import load_rules, shipped_rules
from medviz.rules.variant_middle_sea.ruleset import RULESET, VariantMiddleSea

FIRST = FirstOptionPolicy()
SIDES = {"attacker": FIRST, "defender": FIRST}


@pytest.fixture(autouse=True)
def registered() -> Any:
    register_ruleset("variant_middle_sea", RULESET)
    yield
    unregister_ruleset("variant_middle_sea")


def _battle(att: str, dfd: str, **opts: Any) -> combat.VmsBattle:
    return combat.new_battle({"attacker": att, "defender": dfd, **opts}, shipped_rules())


# -- data ---------------------------------------------------------------------------------------
def test_shipped_data_validates_and_every_entry_has_provenance() -> None:
    r = shipped_rules()
    assert set(r.classes) == {"INF", "CAV", "GAL", "SHIP"}
    assert (r.leaders["x"].attack, r.leaders["x"].defence) == (2, 0)
    assert [r.leaders[k].defence for k in ("xx", "xxx", "xxxx")] == [1, 2, 3]
    assert r.powers["rome"]["peters_pence_home"] == 70 and r.powers["rome"]["spy_rings_home"] == 5


def test_an_override_replaces_fields_and_bad_values_are_all_reported() -> None:
    r = load_rules({"unit_class": [{"id": "INF", "kill_on_attack": 5}]})
    assert r.classes["INF"].kill_on_attack == 5 and r.classes["INF"].kill_on_defence == 5
    with pytest.raises(DataError) as err:
        load_rules({"unit_class": [{"id": "INF", "kill_on_attack": 9}], "leader": [{"id": "q", "attack": 1}]})
    assert len(err.value.problems) == 4 and "out of range 1..6" in str(err.value)
    with pytest.raises(DataError, match="unknown table"):
        load_rules({"unit_klass": []})
    assert VariantMiddleSea({"leader": [{"id": "x", "attack": 3}]}).battle_odds("1INF@x", "1INF", {})["exact"][
        "attacker_wins"] != RULESET.battle_odds("1INF@x", "1INF", {})["exact"]["attacker_wins"]


# -- the combat rules ---------------------------------------------------------------------------
def test_kill_faces_follow_class_posture_leader_and_manning() -> None:
    b = _battle("2INF@x,1CAV", "3INF@xx+fort,1CAV+fort")
    a, d = b.sides["attacker"], b.sides["defender"]
    assert [g.kill_on for g in a] == [4, 5]  # INF attacks on 6, +2 from an x leader; CAV attacks on 5
    assert [g.kill_on for g in d] == [3, 5]  # INF in forts 4, +1 from xx; CAV in forts 5
    s = _battle("2GAL@venice+manned", "2SHIP@tripoli,1GAL")
    assert [g.kill_on for g in s.sides["attacker"]] == [1]  # galley attack 5, +3 Venice, +1 manned
    assert [g.kill_on for g in s.sides["defender"]] == [4, 6]  # ship defends on 6, +2 Tripoli
    assert combat.kill_chance(1) == 1 and combat.kill_chance(-3) == 1 and combat.kill_chance(6) == Fraction(1, 6)


@pytest.mark.parametrize("att, dfd, rule", [
    ("2INF", "2GAL", "Combat"),
    ("2INF+fort", "2INF", "forts"),
    ("2GAL", "2GAL+fort", "forts"),
    ("2INF+manned", "2INF", "manned"),
    ("2SHIP@venice", "1GAL", "Venice"),
    ("2INF@venice", "1INF", "Special powers"),
    ("2GAL@bulgar", "1GAL", "Special powers"),
    ("2INF@x@xx", "1INF", "Leaders"),
    ("2INF@bulgar,1CAV@bulgar", "1INF", "Special powers"),
])
def test_what_the_rules_forbid_is_refused_naming_the_rule(att: str, dfd: str, rule: str) -> None:
    with pytest.raises(IllegalAction, match=rule):
        _battle(att, dfd)


@pytest.mark.parametrize("att", ["", "INF", "2ARCHER", "0INF", "2INF@general", "2INF+wall", "2INF;1CAV"])
def test_malformed_specs_are_refused(att: str) -> None:
    with pytest.raises(MalformedInput):
        _battle(att, "1INF")


# -- exact odds ---------------------------------------------------------------------------------
def test_one_exchange_by_hand() -> None:
    o = odds.battle_odds_of(_battle("1INF", "1INF"))
    # attacker kills on 6 (1/6), defender in field on 5-6 (1/3), simultaneously
    assert (o.attacker_wins, o.defender_wins, o.both_destroyed, o.both_stand) == (
        Fraction(1, 6) * Fraction(2, 3), Fraction(5, 6) * Fraction(1, 3), Fraction(1, 18), Fraction(5, 9))


def test_fight_to_the_end_divides_out_the_rounds_where_nobody_is_hit() -> None:
    o = odds.battle_odds_of(_battle("2INF@x", "1CAV+fort", rounds="all"))
    assert (o.attacker_wins, o.defender_wins, o.both_destroyed, o.both_stand) == (
        Fraction(19, 20), Fraction(1, 40), Fraction(1, 40), 0)
    assert sum(o.distribution.values()) == 1


def test_losses_come_off_the_last_group_first() -> None:
    assert odds.counts_left([3, 2, 1], 4) == [3, 1, 0] and odds.counts_left([3, 2], 0) == [0, 0]


def test_battle_odds_json_shape_matches_the_flagship_summary() -> None:
    out = RULESET.battle_odds("3INF@x,1CAV", "3INF@xx+fort", {"rounds": "all"})
    assert set(out["summary"]) >= {"attacker_wins", "defender_wins", "attacker_expected_losses"}
    assert Fraction(out["exact"]["attacker_wins"]) + Fraction(out["exact"]["defender_wins"]) + Fraction(
        out["exact"]["both_destroyed"]) == 1
    assert out["summary"]["attacker_wins"] == round(float(Fraction(out["exact"]["attacker_wins"])), 4)
    assert "+fort" in RULESET.spec_help and "rounds=all" in RULESET.spec_help


def _agree(p: Fraction, hits: int, n: int) -> None:
    se = math.sqrt(float(p) * (1 - float(p)) / n) or 1 / n
    assert abs(hits / n - float(p)) <= 4 * se, (hits / n, float(p))


@pytest.mark.parametrize("att, dfd, rounds", [("3INF@x,2CAV", "3INF@xx+fort", "all"),
                                              ("2GAL+manned,1SHIP", "2GAL@tripoli", "2")])
def test_exact_odds_agree_with_seeded_games_of_the_same_rule_code(att: str, dfd: str, rounds: str) -> None:
    opts = {"attacker": att, "defender": dfd, "rounds": rounds}
    exact = odds.battle_odds_of(combat.new_battle(opts, shipped_rules()))
    n, wins, left = 600, 0, 0
    for seed in range(n):
        out = play(RULESET, "battle", opts, seed=seed, players=SIDES).final_state.battle
        wins += out.result == "attacker"
        left += out.alive("attacker")
    _agree(exact.attacker_wins, wins, n)
    mean_left = sum(a * p for (a, _), p in exact.distribution.items())
    sd = math.sqrt(float(sum((a - mean_left) ** 2 * p for (a, _), p in exact.distribution.items())))
    assert abs(left / n - float(mean_left)) <= 4 * sd / math.sqrt(n)


# -- histories ------------------------------------------------------------------------------------
def test_a_battle_plays_branches_and_round_trips() -> None:
    opts = {"attacker": "3INF@x,2CAV", "defender": "3INF+fort", "rounds": "all"}
    h = play(RULESET, "battle", opts, seed=3, players=SIDES)
    assert h.final_state.battle.result in ("attacker", "defender", "both destroyed")
    first = h.rolls()[0]
    assert first.roll == "battle-1/round-1/attacker/g1-INF/unit-1"
    other = 1 if first.value != 1 else 6
    b = h.branch(first.roll, other)
    d = diff(h, b)
    assert d.first_divergence == first.seq and b.roll(first.roll).value == other
    same = h.branch(first.roll, first.value)
    assert diff(h, same).identical
    back = History.from_json(b.to_json())
    assert back.to_json() == b.to_json() and back.final_state.battle.result == b.final_state.battle.result


def test_own_value_branch_is_byte_identical_events() -> None:
    h = play(RULESET, "battle", {"attacker": "4CAV", "defender": "3INF,1CAV", "rounds": "3"}, seed=9, players=SIDES)
    for r in h.rolls()[::5]:
        same = h.branch(r.roll, r.value)
        assert [e.to_dict() for e in same.events] == [e.to_dict() for e in h.events]


def test_a_loss_choice_is_the_owners_decision() -> None:
    h = play(RULESET, "battle", {"attacker": "6CAV", "defender": "2INF,2CAV"}, seed=1, players=SIDES)
    picks = [e for e in h.decisions() if "/loss-" in e.decision]
    b = h.final_state.battle
    if b.losses["defender"]:
        assert picks and picks[0].actor == "defender" and picks[0].options[0] == "g2-CAV"
        assert b.sides["defender"][1].count == max(0, 2 - b.losses["defender"])


# -- spies and the order of play ------------------------------------------------------------------------
def test_spy_kill_chances_and_costs() -> None:
    assert spies.kill_chance([0], 0) == Fraction(1, 6)
    assert spies.kill_chance([1, 0], 0) == 1 - Fraction(4, 6) * Fraction(5, 6)
    assert spies.kill_chance([0, 0], 1) == 0 and spies.kill_chance([2], 1) == Fraction(1, 3)
    s = spies.new_attempt({"dice": 3, "bonuses": "1,1", "minus": 1}, shipped_rules().spy)
    assert (s.ring_cost, s.target_cost) == (50, 20)
    with pytest.raises(IllegalAction, match="Spies"):
        spies.new_attempt({"dice": 1, "bonuses": "1,1"}, shipped_rules().spy)


def test_spy_attempts_agree_with_the_exact_chance_and_branch() -> None:
    opts = {"dice": 2, "bonuses": "1", "minus": 0}
    exact = spies.kill_chance([1, 0], 0)
    n = 1500
    kills = sum(play(RULESET, "spy-attempt", opts, seed=s, players={}).outcome["leader_killed"] for s in range(n))
    _agree(exact, kills, n)
    h = play(RULESET, "spy-attempt", opts, seed=2, players={})
    b = h.branch("spy-ring/die-1", 5)
    assert b.outcome["leader_killed"] is True


def test_play_order_rerolls_ties_among_the_tied() -> None:
    pol = {p: FIRST for p in ("P1", "P2", "P3", "P4")}
    h = play(RULESET, "play-order", {}, seed=0, players=pol)
    tie = h.branch("season-1/order/roll-1/P1", 3).branch("season-1/order/roll-1/P2", 3)
    tie = tie.branch("season-1/order/roll-1/P3", 1).branch("season-1/order/roll-1/P4", 1)
    ids = [r.roll for r in tie.rolls()]
    assert "season-1/order/tie-3/roll-2/P1" in ids and "season-1/order/tie-1/roll-2/P4" in ids
    assert sorted(tie.outcome["order"]) == ["P1", "P2", "P3", "P4"]
    assert set(tie.outcome["order"][:2]) == {"P1", "P2"}
