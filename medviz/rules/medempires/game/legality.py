"""Refusing illegal requests: a human's (or a record's) choice the rules forbid names the rule.

``HumanPlayer`` plays given choices by decision id and raises ``IllegalAction(rule=...)`` when a
choice is not among the legal options; ``why_illegal`` says which rule forbids it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from medviz.engine.errors import IllegalAction, MedvizError
from medviz.engine.policy import DecisionPoint, ScriptedPolicy, option_key
from medviz.rules.medempires.choices import BATTLE_DECISIONS, OPS_DECISIONS, POLITICS_DECISIONS, Decision
from medviz.rules.medempires.game.state import GameState, friendly_port_seas
from medviz.rules.medempires.game.datapair import shipped_data
from medviz.rules.medempires.game.options import Action, Attempt, ForcePick, UnitIn, describe_choice, typed_option


def why_illegal(state: GameState | None, point: DecisionPoint, choice: Any) -> tuple[str, str]:
    """(reason, rule) for an illegal ``choice`` at ``point``, by the decision's kind (``choices.Decision``)."""
    kind, side = point.kind, point.actor
    text = str(option_key(choice))
    option = typed_option(choice)  # a key as typed or recorded, read back as its typed option
    f = state.force if isinstance(state, GameState) else None
    gm = state.map if isinstance(state, GameState) else shipped_data().game_map
    m = gm.areas
    if kind == Decision.SETUP and state is not None:
        from medviz.rules.medempires.game.deploy import land_options, setup_rule

        power, unit = point.options[0].power, point.options[0].counter
        st = state.data.setup[power]
        rule = setup_rule(st)
        if unit == "king":
            return (f"the King starts in one of {', '.join(st.king_areas)} that holds one of its land units", "3.0")
        if unit.startswith("F-"):
            return (f"fleets start in a sea area next to {', '.join(st.fleet_coasts)}", rule)
        if text in st.land_areas:
            return (f"every one of {', '.join(st.must_occupy)} must hold a land unit; the units left must go to "
                    f"{', '.join(land_options(state, st, 1))}", rule)
        return (f"{state.data.powers[power].name} sets up only in {', '.join(st.land_areas)}", rule)
    if kind == Decision.FORCE_UNITS:
        if f is not None and side != f.side:
            return ("the interceptor names at least one of its units in the area, of any powers", "10.2")
        return ("a force is named from the units there that have not acted, at least one unit", "10.0")
    if kind == Decision.ACTION and f is not None:
        verb, arg = (option.verb, option.area) if isinstance(option, Action) else (text, "")
        if f.restricted and verb in ("embark", "debark", "land", "attack", "raid", "embark-king"):
            return (f"the fleet must first reach a sea next to a friendly city before it may {verb}", "11.1")
        if verb == "move":
            if arg not in m:
                return (f"there is no area {arg!r}", "10.1")
            if arg not in m[f.area].neighbours:
                strait = gm.strait_between(f.area, arg) if m[f.area].kind == "land" else None
                if strait is not None:
                    return (f"land units cross the {strait.name} only aboard a fleet", "10.1")
                return (f"{arg} is not adjacent to {f.area}", "10.1")
            if m[arg].kind != m[f.area].kind:
                return ("land units enter only land areas and fleets only sea areas", "10.1")
            return ("not enough OPs left for that move", "10.1")
        if verb == "attack":
            if f.cargo:
                return ("a fleet carrying land units cannot fight a naval battle", "11.3")
            return ("there is no enemy to attack here, or too few OPs (combat costs 2)", "10.3")
        if verb in ("embark", "debark"):
            if f.kind != "sea":
                return ("only fleets embark and debark land units", "11.2")
            return ("one fleet carries at most two land units, from or to an adjacent area not under enemy total control", "11.2")
        if verb == "debark-king":
            return ("a King goes ashore next to the fleet, in an area not under enemy total control that holds "
                    "his side's land units", "11.2")
        if verb == "land":
            return ("an amphibious landing goes into an adjacent enemy-controlled area and costs 1 OP", "11.2")
        if verb == "raid":
            return ("a coastal raid needs an Aragonese fleet carrying mercenaries next to an enemy area", "11.4")
        if verb == "pickup":
            return ("a force picks up only not-yet-activated units of its own power, outside its initial area", "10.1")
        if verb == "drop":
            return ("a force drops off a unit it has while keeping at least one, and a fleet keeps room for its cargo", "10.1")
        if verb == "end" and f.cargo:
            return ("transported units cannot stay aboard when the fleet ends its action", "11.2")
        return ("not a legal action for this force", "10.0")
    if kind == Decision.LEAVE:
        return ("units leaving a neutral's home area go to an adjacent area in their side's total control", "7.1.3")
    if kind in BATTLE_DECISIONS:
        return ("not a legal choice in this battle", "10.3")
    if kind in OPS_DECISIONS:
        if isinstance(option, (ForcePick, UnitIn)):
            power = option.power
            if state is not None and state.side_of(power) is None:
                return (f"{power} is not under your control (neutral or vassal units do not operate)", "10.0")
            return ("those units are not available (already activated this phase?)", "10.0")
        return ("not a legal choice in the Operations Phase", "10.0")
    if kind in POLITICS_DECISIONS:
        attempt, target = (option.kind, option.power) if isinstance(option, Attempt) else (text, "")
        if kind == Decision.ATTEMPT and attempt in ("diplomacy", "vassalage", "rebellion") and state is not None:
            if attempt not in state.political[side]:
                return (f"only one {attempt} attempt per game turn, and a pass forfeits one kind", "7.0")
            if not state.hands[side].get("diplomacy"):
                return ("an attempt costs a Diplomacy marker, and you hold none", "7.0")
            if target in ("france", "anjou", "aragon"):
                return ("politics cannot change the status of France, Anjou or Aragon", "7.0")
            if attempt == "vassalage":
                return ("vassalage only over a neutral power that is not the other side's vassal", "7.2")
            if attempt == "rebellion":
                return ("a rebellion needs a home area held by the other side and no ground unit of the power on the map", "7.3")
            return ("diplomacy targets a neutral, or an ally or vassal of the other side", "7.1")
        return ("not a legal political choice", "7.0")
    if kind == Decision.RECRUIT_PLACE:
        if state is not None and text in m and m[text].kind == "sea" and text not in friendly_port_seas(state, side):
            return ("fleets are placed in a sea next to a friendly total-controlled area with a city", "6.2")
        return ("recruits go to friendly total-controlled areas, at most three per area (allies: areas with a city)", "6.2")
    if kind == Decision.PURCHASE:
        return ("not affordable, over the counter limit, or not recruitable by this side", "6.2")
    if kind == Decision.ORDER:
        return ("the winner of the roll goes first or second", "5.1")
    if kind in (Decision.REDISTRIBUTE, Decision.REDISTRIBUTE_TO, Decision.STACKING):
        return ("redistribution moves a unit once, between areas in your total control", "5.2")
    if kind == Decision.CRUSADE_UNIT:
        return ("not a legal choice for the Crusade", "12.0")
    return ("not a legal choice here", "5.1")


@dataclass
class HumanPlayer(ScriptedPolicy):
    """Plays the given choices (by decision id), refusing illegal ones with the rule; else ``fallback``."""

    @property
    def spec(self) -> str:
        return f"human/{self.fallback.spec}"

    def refusal(self, point: DecisionPoint, choice: Any) -> MedvizError:
        """``IllegalAction`` naming the rule that forbids ``choice`` here."""
        reason, rule = why_illegal(point.state, point, choice)
        key = option_key(choice)
        pair = point.state.data_pair if isinstance(point.state, GameState) else None
        return IllegalAction(f"{point.decision}: {key!r} ({describe_choice(key, pair)}) is refused: {reason}", rule)
