"""Medieval rule by rule (6.x Pope cards, 7.x Knights of Christ, 8.4 Jihad, 8.6 Deus ex Machina,
9.5 Passage, 10.x Naval rules, 11.0 Mercenaries): each test builds a table by hand (who holds
which Power, cards and florins), runs one rule through a real ``Context`` with chosen decisions
and dice, and checks what the rule text says happens. Rule text: shared/seeds/002_…txt; rulings:
docs/rules-coverage-medieval.md."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from medviz.engine import Context, DecisionEvent, DecisionPoint, GameSpec, ReportEvent, RollEvent
from medviz.engine.policy import option_index
from medviz.rules.medieval_xiii import battle, cards, passage, turn
from medviz.rules.medieval_xiii.control import change_ruler, is_knights_power
from medviz.rules.medieval_xiii.gamedata import MAP_CARDS, START_CARDS, power_card
from medviz.rules.medieval_xiii.ruleset import RULESET
from medviz.rules.medieval_xiii.state import MedievalState

SCENARIO = {3: "three-players", 4: "four-players", 5: "five-players"}


class Choose:
    """Answers decisions whose id contains a key with that key's option; else the first option
    (which the rules always make the modest one: no, end, refuse, +0 or -1)."""

    def __init__(self, wants: Mapping[str, Any]) -> None:
        self.wants = wants

    @property
    def spec(self) -> str:
        return "choose"

    def choose(self, point: DecisionPoint) -> Any:
        for key, want in self.wants.items():
            if key in point.decision:
                i = option_index(point.options, want)
                assert i is not None, f"{point.decision}: {want!r} not among {list(point.options)!r}"
                return point.options[i]
        return point.options[0]


def table(powers: Mapping[str, Sequence[str]], *, florins: Mapping[str, int] | None = None,
          hands: Mapping[str, Sequence[str]] | None = None, cards_in_play: Sequence[str] = START_CARDS,
          players: int = 4) -> MedievalState:
    """A table after set-up: each seat holds ``powers`` (cards in front, every home province in play
    controlled), the given florins (default 10) and hands (card kinds or ids); order A, B, C..."""
    s, _ = RULESET.setup(SCENARIO[players], {})
    s.map_in_play = list(cards_in_play)
    s.map_deck = [c for c in MAP_CARDS if c not in cards_in_play]
    for seat, mine in powers.items():
        for power in mine:
            card = power_card(power)
            (s.table if card in s.table else s.aside).remove(card)
            s.front[seat].append(card)
            for prov in s.home_provinces(power):
                s.control[prov] = seat
    for seat, kinds in (hands or {}).items():
        for kind in kinds:
            card = kind if kind in s.data.action_cards else next(c for c in s.aside if s.data.action_cards.get(c) == kind)
            s.aside.remove(card)
            s.hands[seat].append(card)
    s.florins = {seat: (florins or {}).get(seat, 10) for seat in s.seats}
    s.order = list(s.seats)
    s.turn = {"seat": "A", "prefix": "T1/A", "attacks": 0, "attacked_with": [], "map_drawn": False,
              "pope_passage": False, "crusade": False, "mercenaries_used": False, "income": False,
              "marked": [], "pope_played": False}
    s.round = 1
    return s


def context(s: MedievalState, wants: Mapping[str, Any] | None = None, dice: Mapping[str, Any] | None = None,
            seed: int = 1) -> Context:
    """A Context over ``s``: every seat answers with ``Choose(wants)``; ``dice`` override rolls by id."""
    spec = GameSpec(RULESET, s.scenario, {}, seed, {seat: Choose(wants or {}) for seat in s.seats}, dict(dice or {}))
    return Context(spec, s, [], [], turn=1, phase="actions")


def reports(ctx: Context, name: str) -> list[Mapping[str, Any]]:
    return [e.data for e in ctx.events if isinstance(e, ReportEvent) and e.report == name]


def decisions(ctx: Context, part: str = "") -> list[DecisionEvent]:
    return [e for e in ctx.events if isinstance(e, DecisionEvent) and part in e.decision]


def card_of(s: MedievalState, seat: str, kind: str) -> str:
    return next(c for c in s.hands[seat] if s.data.action_cards.get(c) == kind)


# -- 6.x Pope cards ----------------------------------------------------------------------------

def test_6_1_a_pope_card_pays_every_knights_province_and_is_not_offered_after_a_map_card() -> None:
    s = table({"A": ["france"], "B": ["poland"]}, hands={"A": ["pope"]}, cards_in_play=[*START_CARDS, "1C"])
    s.koc.append("pru_1c")
    s.control["pru_1c"] = "B"  # B's Knights province is paid on A's Pope card (7.2)
    ctx = context(s)
    cards.play_pope(s, ctx, "T1/A/action-1", "A", card_of(s, "A", "pope"), {"use": "papal-passage"})
    assert s.florins["B"] == 10 + s.data.provinces["pru_1c"].income and s.florins["A"] == 10
    assert turn.income(s, "B") == sum(s.data.provinces[p].income for p in s.home_provinces("poland"))  # not on Income
    s.hands["A"].append(s.aside.pop(s.aside.index(next(c for c in s.aside if s.data.action_cards.get(c) == "pope"))))
    assert any(o.get("card", "").startswith("pope") and o["do"] == "play" for o in turn.action_options(s, "A"))
    s.turn["map_drawn"] = True  # 3.3 / 6.1 note
    assert not any(o.get("card", "").startswith("pope") and o["do"] == "play" for o in turn.action_options(s, "A"))


def test_6_2_crusade_fee_excommunication_of_a_non_payer_commitments_and_spoils() -> None:
    s = table({"A": ["england"], "B": ["france"], "C": ["hungary"], "D": ["byzantium"]},
              florins={"C": 0}, hands={"A": ["pope"]})
    s.excommunicated.append("france")
    ctx = context(s, {"excommunicate/C": {"power": "hungary"}, "commit/A": {"commit": "england"},
                      "commit/B": {"commit": "france"}}, dice={"T1/A/action-1/crusade/infidels": 2})
    cards.play_pope(s, ctx, "T1/A/action-1", "A", card_of(s, "A", "pope"), {"use": "crusade"})
    # fee 1 Fl (4 players) from B; C cannot pay (excommunicated, no crusade); D has no Catholic province
    assert "hungary" in s.excommunicated and not decisions(ctx, "commit/C") and not decisions(ctx, "commit/D")
    # England 1 - 1 (Bad) + France 2 + 1 (Good) = 3 > 2: each committed player gets the difference, 1
    (report,) = reports(ctx, "crusade")
    assert (report["strength"], report["infidels"], report["won"]) == (3, 2, True)
    assert s.florins == {"A": 10 + 1 + 1, "B": 10 - 1 + 1, "C": 0, "D": 10}
    assert "france" not in s.excommunicated  # 6.3: going on Crusade lifts it
    assert "england" in s.turn["attacked_with"]  # 6.2: no Attack with a crusading Power this turn
    assert not any(o.get("power") == "england" for o in turn.action_options(s, "A") if o["do"] == "attack")
    assert not any(u["use"] == "crusade" for u in cards.pope_uses(s, "A"))  # one Crusade per turn


def test_6_2_three_player_fee_is_two_and_powers_in_civil_war_or_disaster_stay_home() -> None:
    s = table({"A": ["england"], "B": ["france", "spain"], "C": ["hungary"]}, hands={"A": ["pope"]}, players=3)
    s.civil_war.append("france")
    s.disaster.append("spain")
    ctx = context(s, dice={"T1/A/action-1/crusade/infidels": 12})
    cards.play_pope(s, ctx, "T1/A/action-1", "A", card_of(s, "A", "pope"), {"use": "crusade"})
    assert s.florins == {"A": 14, "B": 8, "C": 8}
    assert not decisions(ctx, "commit/B")  # neither of B's Powers may go
    (c_commit,) = decisions(ctx, "commit/C")
    assert {"commit": "hungary"} in [dict(o) for o in c_commit.options]


def test_6_3_excommunication_blocks_passage_through_other_catholic_provinces_even_ones_held() -> None:
    s = table({"A": ["france", "holy_roman_empire"], "B": ["hungary"]})
    assert passage.through(s, "A", "france", "hre_2b") == (True, None)
    s.excommunicated.append("france")
    assert passage.through(s, "A", "france", "hre_2b") == (False, None)
    assert "hre_2b" not in passage.targets(s, "A", "france")  # A holds it already
    assert "hun_2c" not in passage.targets(s, "A", "france")  # beyond hre_2c: only through HRE
    # "into" stays allowed: France may still attack a Catholic province next to its own
    s.control["hre_2b"] = "B"
    assert "hre_2b" in passage.targets(s, "A", "france")
    # a Knights of Christ province is a Catholic mini-Power (7.2): no passage through it either
    s.koc.append("fra_1b")
    s.home.pop("fra_1b")
    assert passage.through(s, "A", "france", "fra_1b") == (False, None)


def test_6_3_lifting_an_excommunication_costs_three_florins() -> None:
    s = table({"A": ["france"], "B": ["spain"]}, hands={"A": ["pope"]}, florins={"A": 3})
    s.excommunicated.append("spain")
    assert {"use": "lift", "power": "spain"} in cards.pope_uses(s, "A")
    ctx = context(s)
    cards.play_pope(s, ctx, "T1/A/action-1", "A", card_of(s, "A", "pope"), {"use": "lift", "power": "spain"})
    assert s.florins["A"] == 0 and "spain" not in s.excommunicated
    s.excommunicated.append("spain")
    assert {"use": "lift", "power": "spain"} not in cards.pope_uses(s, "A")  # 0 Fl now


def test_6_4_marriage_gives_passage_both_ways_and_ends_on_a_ruler_change() -> None:
    s = table({"A": ["france"], "B": ["holy_roman_empire"], "C": ["poland"]}, hands={"A": ["pope"]})
    before = passage.targets(s, "A", "france")["pol_2c"]
    assert before.kind == "permission" and before.permission == ("B",)
    ctx = context(s)
    cards.play_pope(s, ctx, "T1/A/action-1", "A", card_of(s, "A", "pope"),
                    {"use": "marriage", "power": "france", "with": "holy_roman_empire"})
    assert passage.targets(s, "A", "france")["pol_2c"].kind == "land"
    assert passage.through(s, "B", "holy_roman_empire", "fra_2b") == (True, None)  # and vice versa
    change_ruler(s, ctx, "T1/A/new-ruler", "holy_roman_empire", "test")
    assert s.marriages == [] and passage.targets(s, "A", "france")["pol_2c"].kind == "permission"


def test_6_4_an_attack_on_the_married_powers_home_ends_the_marriage_after_it() -> None:
    s = table({"A": ["france"], "B": ["holy_roman_empire"]})
    s.marriages.append(sorted(["france", "holy_roman_empire"]))
    route = passage.targets(s, "A", "france")["hre_2b"]
    ctx = context(s, dice={"T1/A/action-1/attacker": 1, "T1/A/action-1/defender": 6})
    battle.attack(s, ctx, "T1/A/action-1", "A", "france", "hre_2b", route)
    assert reports(ctx, "battle")[0]["winner"] == "defender" and s.marriages == []


def test_6_5_the_papal_states_pass_only_a_catholic_power_with_a_pope_card_and_are_never_held() -> None:
    s = table({"A": ["holy_roman_empire", "byzantium"]}, cards_in_play=[*START_CARDS, "3B"])
    assert passage.through(s, "A", "holy_roman_empire", "papal_states") == (False, None)
    s.turn["pope_passage"] = True
    assert passage.through(s, "A", "holy_roman_empire", "papal_states") == (True, None)
    assert passage.through(s, "A", "byzantium", "papal_states") == (False, None)
    for seat in s.seats:
        for power in s.powers_of(seat):
            assert "papal_states" not in passage.targets(s, seat, power)


# -- 7.x Knights of Christ ---------------------------------------------------------------------

def test_7_1_a_knights_attack_costs_nothing_raises_no_militia_and_makes_a_knights_province() -> None:
    s = table({"A": ["france"]}, hands={"A": ["knights_of_christ"]}, cards_in_play=[*START_CARDS, "1C"])
    card = card_of(s, "A", "knights_of_christ")
    assert {"do": "knights-attack", "card": card, "target": "pru_1c"} in turn.action_options(s, "A")
    ctx = context(s, dice={"T1/A/action-1/attacker": 4, "T1/A/action-1/defender": 5})
    battle.knights_attack(s, ctx, "T1/A/action-1", "A", card, "pru_1c")
    (bid,) = decisions(ctx, "militia/attacker")
    assert list(bid.options) == [0]  # 7.1: never Militia for the Knights
    assert s.florins["A"] == 10  # 7.1: no 1 Fl cost
    # 4 + 2 (Knights) against 5 + 0 (uncontrolled): the Knights win the province and only it
    assert "pru_1c" in s.koc and s.control["pru_1c"] == "A" and "pru_1c" not in s.home
    assert "pru_1c" not in turn.knights_targets(s, "B")  # 7.2: Knights never attack Knights


def test_7_1_knights_support_a_catholic_defence_against_pagan_and_islamic_attackers_only() -> None:
    s = table({"A": ["cumans", "serbia"], "B": ["hungary"]}, hands={"B": ["knights_of_christ"]},
              cards_in_play=[*START_CARDS, "2D"])
    dice = {"T1/A/action-1/attacker": 3, "T1/A/action-1/defender": 3}
    ctx = context(s, {"knights": {"do": "knights", "card": card_of(s, "B", "knights_of_christ")}}, dice)
    battle.attack(s, ctx, "T1/A/action-1", "A", "cumans", "hun_2c", passage.targets(s, "A", "cumans")["hun_2c"])
    # Hungary: 3 + army 1 + Bad ruler -1 + Knights 2 = 5
    assert reports(ctx, "battle")[0]["defender_total"] == 5 and not s.hands["B"]
    s2 = table({"A": ["serbia"], "B": ["hungary"]}, hands={"B": ["knights_of_christ"]})
    ctx2 = context(s2)
    battle.attack(s2, ctx2, "T1/A/action-1", "A", "serbia", "hun_2c", passage.targets(s2, "A", "serbia")["hun_2c"])
    assert not decisions(ctx2, "knights")  # Orthodox Serbia: no Knights


def test_7_2_a_knights_province_defends_with_the_knights_army_and_escapes_heresy_and_the_powers_table() -> None:
    s = table({"A": ["lithuania"], "B": ["france"]})
    s.koc.append("lit_1d")
    s.home.pop("lit_1d")
    side = battle.defender_side(s, "lit_1d")
    assert (side.army, side.ruler, side.militia_ok) == (s.data.c("knights_army"), 0, False)
    assert is_knights_power(s, "lithuania")  # a Powers Table roll on it is rolled again
    assert "lit_1d" not in cards.heresy_targets(s)
    assert "lit_1d" not in passage.targets(s, "A", "lithuania")  # it may only defend
    assert turn.victory_points(s)["A"] == s.data.provinces["lit_1d"].income  # 12.0 counts it


def test_7_3_the_mongols_meet_a_knights_card_and_a_knights_province_on_the_card() -> None:
    s = table({"A": ["russia"], "B": ["poland"]}, hands={"A": ["mongols"], "B": ["knights_of_christ"]})
    s.mongols_no_event = s.data.c("mongol_no_events")
    s.koc.append("liv_1d")
    s.home.pop("liv_1d")
    rid = "T1/A/mandatory-1"
    ctx = context(s, {"mongol-target": "1D", "knights/B": {"do": "knights", "card": card_of(s, "B", "knights_of_christ")}},
                  dice={f"{rid}/mongols": 3, f"{rid}/map-card": 4})
    cards.play_mongols(s, ctx, rid, "A", card_of(s, "A", "mongols"))
    (fight,) = reports(ctx, "mongol-battle")
    mdr = s.data.cards["1D"].mdr or 0
    assert fight["mongols"] == 3 + 5 and fight["defence"] == 4 + mdr + 2 + 1
    assert ("1D" in s.map_gone) == (8 >= 4 + mdr + 3)  # 5.3: ties to the Mongols


# -- 8.4 Jihad and 8.6 Deus ex Machina ---------------------------------------------------------

def _almoravid_attack(jihad: bool, target_power: str = "spain") -> tuple[MedievalState, Context]:
    s = table({"A": ["almoravids"], "B": [target_power]}, hands={"A": ["jihad"]})
    route = passage.targets(s, "A", "almoravids")["spa_2a"]
    wants: dict[str, Any] = {"militia/attacker": 4} if jihad else {}
    if jihad:
        wants["/jihad"] = {"do": "jihad", "card": card_of(s, "A", "jihad")}
    ctx = context(s, wants, dice={"T1/A/action-1/attacker": 1, "T1/A/action-1/defender": 6})
    battle.attack(s, ctx, "T1/A/action-1", "A", "almoravids", "spa_2a", route)
    return s, ctx


def test_8_4_jihad_makes_the_islamic_attackers_militia_two_florins_and_never_the_defenders() -> None:
    s, ctx = _almoravid_attack(jihad=True)
    (a_bid,) = decisions(ctx, "militia/attacker")
    (d_bid,) = decisions(ctx, "militia/defender")
    assert max(a_bid.options) == 9 // 2 and max(d_bid.options) == 10 // 3  # after the 1 Fl Attack
    assert s.florins["A"] == 10 - 1 - 8 and not s.hands["A"]
    s, ctx = _almoravid_attack(jihad=False)
    (offer,) = decisions(ctx, "/jihad")
    assert offer.choice == {"do": "no-jihad"} and s.hands["A"]  # declined: the card stays in hand
    assert max(decisions(ctx, "militia/attacker")[0].options) == 9 // 3
    # against an Islamic province there is no Jihad to offer
    s3 = table({"A": ["almoravids"]}, hands={"A": ["jihad"]}, cards_in_play=[*START_CARDS, "3B"])
    s3.control["alm_3b"] = "B"
    ctx3 = context(s3)
    battle.attack(s3, ctx3, "T1/A/action-1", "A", "almoravids", "alm_3b", passage.targets(s3, "A", "almoravids")["alm_3b"])
    assert not decisions(ctx3, "jihad") and reports(ctx3, "battle")


def test_8_6_deus_ex_machina_cancels_an_event_but_never_a_pope_mongol_or_knights_card() -> None:
    s = table({"A": ["france"], "B": ["spain"], "C": ["hungary"]}, hands={"A": ["heresy", "pope"], "C": ["deus_ex_machina"]})
    dem = card_of(s, "C", "deus_ex_machina")
    ctx = context(s, {"deus-ex-machina/C": {"do": "cancel", "card": dem, "against": card_of(s, "A", "heresy")}})
    cards.play_heresy(s, ctx, "T1/A/action-1", "A", card_of(s, "A", "heresy"), "spa_2a")
    assert reports(ctx, "cancelled")[0]["by"] == dem and not any(isinstance(e, RollEvent) for e in ctx.events)
    assert "spa_2a" not in s.heresy and dem in s.discard
    s.hands["C"].append(s.aside.pop(s.aside.index(next(c for c in s.aside if s.data.action_cards.get(c) == "deus_ex_machina"))))
    ctx = context(s, {"deus-ex-machina": {"do": "cancel"}})
    cards.play_pope(s, ctx, "T1/A/action-2", "A", card_of(s, "A", "pope"), {"use": "excommunicate", "power": "spain"})
    assert not decisions(ctx, "deus-ex-machina") and "spain" in s.excommunicated


# -- 9.5 Passage -------------------------------------------------------------------------------

def test_9_5_passing_another_players_province_needs_permission_and_a_refusal_costs_the_attack() -> None:
    s = table({"A": ["france"], "B": ["holy_roman_empire"], "C": ["poland"]})
    route = passage.targets(s, "A", "france")["pol_2c"]
    assert route.permission == ("B",)
    ctx = context(s)  # B refuses (the first option)
    battle.attack(s, ctx, "T1/A/action-1", "A", "france", "pol_2c", route)
    assert reports(ctx, "no-passage")[0]["refused_by"] == "B" and not reports(ctx, "battle")
    assert s.florins["A"] == 9 and s.turn["attacks"] == 1 and "france" in s.turn["attacked_with"]
    s2 = table({"A": ["france"], "B": ["holy_roman_empire"], "C": ["poland"]})
    ctx2 = context(s2, {"permission/B": {"do": "grant"}})
    battle.attack(s2, ctx2, "T1/A/action-1", "A", "france", "pol_2c", route)
    assert len(reports(ctx2, "battle")) == 1


def test_9_5_uncontrolled_provinces_pass_freely_and_cards_out_of_play_never() -> None:
    s = table({"A": ["france"], "C": ["poland"]})
    assert passage.targets(s, "A", "france")["pol_2c"].kind == "land"  # through the empty HRE
    assert passage.through(s, "A", "france", "hre_1c") == (False, None)  # 1C is not in play
    assert all(s.in_play(t) for t in passage.targets(s, "A", "france"))


# -- 10.x Naval rules --------------------------------------------------------------------------

def test_10_1_one_use_of_naval_transport_over_connected_seas_on_cards_in_play() -> None:
    s = table({"A": ["almoravids", "poland"]}, cards_in_play=list(MAP_CARDS))
    assert all(not r.seas for r in passage.targets(s, "A", "poland").values())  # Navy = No
    for target, route in passage.targets(s, "A", "almoravids").items():
        seas = route.seas
        assert all(b in s.data.sea_links[a] for a, b in zip(seas, seas[1:])), (target, seas)
        assert all(s.data.seas[sid].card in s.map_in_play for sid in seas)
    # the text's example: England to Sardinia by 1A, 2A, 3A and 3B
    s.front["A"].append(power_card("england"))
    s.control.update({p: "A" for p in s.home_provinces("england")})
    assert passage.targets(s, "A", "england")["sar"].seas[-1] == "sea_3b_1"
    s.map_in_play.remove("3A")  # 10.1: a Naval Area only on a card in play
    assert all("sea_3a_1" not in r.seas for r in passage.targets(s, "A", "england").values())


def test_10_2_interception_order_islands_first_then_navy_then_a_die_the_texts_example() -> None:
    # Byzantium sails from 3D to the Mamelukes in 4D (the example of 10.2)
    s = table({"A": ["byzantium"], "B": ["venice"], "C": ["seljuks_of_rum"], "D": ["latin_kingdom"],
               "E": ["kingdom_of_jerusalem", "ayyubids_mamelukes"]}, players=5)
    ctx = context(s, dice={"T1/A/action-1/sea-3D/order/seljuks_of_rum": 6,
                           "T1/A/action-1/sea-3D/order/latin_kingdom": 2})
    assert battle.naval_passage(s, ctx, "T1/A/action-1", "A", "byzantium", ("sea_3d_1", "sea_4d_1"))
    asked = [e.decision.rsplit("/", 1)[1] for e in decisions(ctx, "intercept")]
    assert asked == ["venice", "seljuks_of_rum", "latin_kingdom", "kingdom_of_jerusalem",
                     "latin_kingdom", "ayyubids_mamelukes", "kingdom_of_jerusalem"]
    ctx = context(s, dice={"T1/A/action-2/sea-3D/order/seljuks_of_rum": 1,
                           "T1/A/action-2/sea-3D/order/latin_kingdom": 5})
    battle.naval_passage(s, ctx, "T1/A/action-2", "A", "byzantium", ("sea_3d_1",))
    assert [e.decision.rsplit("/", 1)[1] for e in decisions(ctx, "intercept")][1:3] == ["latin_kingdom", "seljuks_of_rum"]


def test_10_2_and_10_3_interception_costs_and_sea_battle_ties() -> None:
    # equal navies: a tie goes to the mover (the opposite of land combat)
    s = table({"A": ["almoravids"], "B": ["spain"]})
    rid = "T1/A/action-1"
    ctx = context(s, {"naval-drm": 1, "intercept/spain": 1},
                  dice={f"{rid}/sea-2A/spain/mover": 3, f"{rid}/sea-2A/spain/interceptor": 3})
    assert battle.naval_passage(s, ctx, rid, "A", "almoravids", ("sea_3a_1", "sea_2a_1"))
    assert s.florins == {"A": 10 - 4, "B": 10 - 1 - 4, "C": 10, "D": 10}  # 4 Fl per +1, 1 Fl to intercept
    (fight,) = reports(ctx, "sea-battle")
    assert (fight["mover_total"], fight["interceptor_total"], fight["winner"]) == (3 + 1 + 1, 3 + 1 + 1, "mover")
    # a higher navy wins the tie; losing denies passage
    s = table({"A": ["almoravids"], "B": ["venice"]}, cards_in_play=list(MAP_CARDS))
    ctx = context(s, {"intercept/venice": 0}, dice={f"{rid}/sea-3C/venice/mover": 4, f"{rid}/sea-3C/venice/interceptor": 3})
    assert not battle.naval_passage(s, ctx, rid, "A", "almoravids", ("sea_3c_1",))
    assert reports(ctx, "sea-battle")[0]["winner"] == "interceptor"


def test_10_3_rulers_play_no_part_at_sea() -> None:
    s = table({"A": ["almoravids"], "B": ["spain"]})  # Bad against Good rulers
    rid = "T1/A/action-1"
    ctx = context(s, {"intercept/spain": 0}, dice={f"{rid}/sea-2A/spain/mover": 2, f"{rid}/sea-2A/spain/interceptor": 2})
    battle.naval_passage(s, ctx, rid, "A", "almoravids", ("sea_2a_1",))
    fight = reports(ctx, "sea-battle")[0]
    assert (fight["mover_total"], fight["interceptor_total"]) == (2 + 1, 2 + 1)


# -- 11.0 Mercenaries --------------------------------------------------------------------------

def test_11_0_the_cumans_reach_the_texts_cards_and_thrace_but_not_across_the_sea_or_a_corner() -> None:
    s = table({"A": ["cumans", "hungary"]}, cards_in_play=list(MAP_CARDS))
    usable = {p for p in s.data.provinces
              if s.in_play(p) and not s.data.provinces[p].uncontrollable
              and battle.mercenary_powers(s, "A", "hungary", p) == ["cumans"]}
    want = {p for p, v in s.data.provinces.items() if v.card in ("2D", "1D", "1E", "2F", "2C")} | {"lat_3d_thrace"}
    assert usable == want
    assert battle.mercenary_powers(s, "A", "cumans", "hun_2c") == []  # never the attacker itself
    s.turn["mercenaries_used"] = True  # one Attack per Player Turn
    assert battle.mercenary_powers(s, "A", "hungary", "rus_2c") == []


def test_11_0_mercenaries_add_their_army_to_the_attack_at_no_cost() -> None:
    s = table({"A": ["cumans", "hungary"], "B": ["russia"]}, cards_in_play=[*START_CARDS, "2D"])
    rid = "T1/A/action-1"
    ctx = context(s, {"mercenaries": {"do": "hire", "power": "cumans"}},
                  dice={f"{rid}/attacker": 2, f"{rid}/defender": 2})
    battle.attack(s, ctx, rid, "A", "hungary", "rus_2c", passage.targets(s, "A", "hungary")["rus_2c"])
    fight = reports(ctx, "battle")[0]
    assert fight["attacker_total"] == 2 + 1 - 1 + s.data.powers["cumans"].army  # Hungary Bad; Cumans +2
    assert s.florins["A"] == 9 and s.turn["mercenaries_used"]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_tables_built_here_are_legal_tables(players: int) -> None:
    s = table({"A": ["france"]}, players=players)
    assert len(s.seats) == players and s.control["fra_2b"] == "A" and "fra_1b" not in s.control


# -- 13.1 Trading and Giving (option trading) --------------------------------------------------

def test_13_1_offers_only_with_the_option_and_a_sale_moves_card_and_florins_once_a_turn() -> None:
    s = table({"A": ["france"], "B": ["spain"]}, hands={"A": ["spies", "disaster"]})
    assert not any(o["do"] == "offer" for o in turn.action_options(s, "A"))  # tournament rule: off by default
    s.trading = True
    spies = card_of(s, "A", "spies")
    opts = turn.action_options(s, "A")
    assert {"do": "offer", "to": "B", "sell": spies, "price": 3} in opts
    assert not any(o.get("sell", "").startswith("disaster") for o in opts)  # never a Mandatory card
    ctx = context(s, {"trade/B": {"do": "accept"}})
    turn.trade.make_offer(s, ctx, "T1/A/action-1", "A", {"do": "offer", "to": "B", "sell": spies, "price": 3})
    assert spies in s.hands["B"] and s.florins["A"] == 13 and s.florins["B"] == 7
    assert not any(o["do"] == "offer" for o in turn.action_options(s, "A"))  # one card a turn (13.1 C)


def test_13_1_a_buy_offer_names_a_kind_and_cannot_be_accepted_without_such_a_card() -> None:
    s = table({"A": ["france"], "B": ["spain"], "C": ["hungary"]}, hands={"B": ["pope"]}, florins={"A": 5})
    s.trading = True
    assert max(o["price"] for o in turn.action_options(s, "A") if o.get("buy")) == 5  # what A can pay
    ctx = context(s, {"trade/": {"do": "accept"}})
    turn.trade.make_offer(s, ctx, "T1/A/action-1", "A", {"do": "offer", "to": "C", "buy": "pope", "price": 5})
    (answer,) = decisions(ctx, "trade/C")
    assert list(answer.options) == [{"do": "refuse"}] and s.florins["A"] == 5
    assert not any(o.get("to") == "C" and o.get("buy") == "pope" for o in turn.action_options(s, "A"))  # once a turn
    turn.trade.make_offer(s, ctx, "T1/A/action-2", "A", {"do": "offer", "to": "B", "buy": "pope", "price": 5})
    assert any(s.data.action_cards.get(c) == "pope" for c in s.hands["A"]) and s.florins == {"A": 0, "B": 15, "C": 10, "D": 10}
