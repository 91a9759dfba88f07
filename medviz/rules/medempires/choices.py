"""What Mediterranean Empires asks its players: the kinds of decision, and a battle's typed option.

Every ``ctx.decide`` of the game names one ``Decision`` (its family); players dispatch on it,
never on the decision's id. Options that carry more than one fact are typed
(``medviz.engine.Option``): a battle's unit here, the whole game's in ``game/options.py``.
Each option's ``key`` is exactly the text a history has always recorded, so saved games and
the pinned golden games are unchanged. Options that are one plain word ("pass", "yes", "end
phase", a marker or table name, a number) stay plain values: their key is their word.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from medviz.engine.frozen import quick_init
from medviz.engine.policy import Option
from medviz.rules.medempires.gamedata import default_game_data


class Decision(StrEnum):
    """The kinds of decision of a whole game and of a battle (``Ruleset.decision_kinds``)."""

    # set-up and the joint phases
    SETUP = "setup"
    ORDER = "order"
    CRUSADE_UNIT = "crusade-unit"
    KING_REFUGE = "king-refuge"
    POISON = "poison"
    # politics (7.0, 14.3)
    ATTEMPT = "attempt"
    FORFEIT = "forfeit"
    THWART = "thwart"
    ADD_KING = "add-king"
    ADD_POPE = "add-pope"
    ADD_TP = "add-tp"
    POLITICS_UNIT = "politics-unit"
    CEDE_DESTINATION = "cede-destination"
    # recruitment (6.2, 8.1, 12.0)
    PURCHASE = "purchase"
    RECRUIT_PLACE = "recruit-place"
    # operations (7.1.3, 10.0-11.4)
    LEAVE = "leave"
    FORCE = "force"
    FORCE_UNITS = "force-units"
    KING_JOINS = "king-joins"
    OPS_MARKERS = "ops-markers"
    KING_ASHORE = "king-ashore"
    ACTION = "action"
    INTERCEPT = "intercept"
    INTERCEPT_RAID = "intercept-raid"
    INTERCEPT_AMBUSH = "intercept-ambush"
    INTERCEPT_ADVANTAGE = "intercept-advantage"
    INTERCEPT_AGAINST = "intercept-against"
    # end of turn (5.2, 14.2)
    REDISTRIBUTE = "redistribute"
    REDISTRIBUTE_TO = "redistribute-to"
    STACKING = "stacking"
    # a battle (10.3)
    AVOID = "avoid"
    RAIDERS_ONLY = "raiders-only"
    INITIATIVE = "initiative"
    TABLE = "table"
    MARKER = "marker"
    COUNTERATTACK = "counterattack"
    ATTACK_AGAIN = "attack-again"
    BLOODBATH_MORE = "bloodbath-more"
    LOSS = "loss"


#: Each kind in words (``Ruleset.decision_kinds``).
DECISION_WORDS: dict[str, str] = {
    Decision.SETUP: "where a starting counter sets up (3.0-3.3.1)",
    Decision.ORDER: "go first or second (recruitment 5.1, redistribution 5.2)",
    Decision.CRUSADE_UNIT: "which unit sails on the Crusade (12.0)",
    Decision.KING_REFUGE: "where a King left alone goes (8.1 ruling)",
    Decision.POISON: "poison the Pope (14.2)",
    Decision.ATTEMPT: "a political attempt, a concession or a pass (7.0, 14.3)",
    Decision.FORFEIT: "which attempt kind a pass forfeits (7.0)",
    Decision.THWART: "try to thwart the other side's attempt (7.0)",
    Decision.ADD_KING: "add a King's diplomacy rating (7.0 step 3)",
    Decision.ADD_POPE: "add the Pope (7.0 step 3)",
    Decision.ADD_TP: "spend a treasury point for +1 (7.0 step 3)",
    Decision.POLITICS_UNIT: "which unit a successful attempt places (7.1, 7.3)",
    Decision.CEDE_DESTINATION: "where units leaving a ceded area go (14.3)",
    Decision.PURCHASE: "which unit to recruit, or done (6.2)",
    Decision.RECRUIT_PLACE: "where a recruit, a new King or a returning crusader appears (6.2, 8.1, 12.0)",
    Decision.LEAVE: "where units leaving a neutral's home area go (7.1.3)",
    Decision.FORCE: "which force to activate, or end the phase (10.0)",
    Decision.FORCE_UNITS: "how many units of one kind join a force or an interception (10.0, 10.2)",
    Decision.KING_JOINS: "does the King join the force (10.0)",
    Decision.OPS_MARKERS: "Military Advantage markers added to the OPs (10.0)",
    Decision.KING_ASHORE: "where a carried King goes ashore (11.2)",
    Decision.ACTION: "the active force's next action (10.1-11.4)",
    Decision.INTERCEPT: "intercept a force (10.2)",
    Decision.INTERCEPT_RAID: "intercept a coastal raid (10.2, 11.4)",
    Decision.INTERCEPT_AMBUSH: "expend an Ambush marker on an interception (10.2)",
    Decision.INTERCEPT_ADVANTAGE: "expend Military Advantage on an interception (10.2)",
    Decision.INTERCEPT_AGAINST: "expend Military Advantage against an interception (10.2)",
    Decision.REDISTRIBUTE: "which unit to redistribute, or done (5.2)",
    Decision.REDISTRIBUTE_TO: "where a redistributed unit goes (5.2)",
    Decision.STACKING: "which unit over the stacking limit is eliminated (5.2)",
    Decision.AVOID: "try to avoid combat (10.3.1)",
    Decision.RAIDERS_ONLY: "attack with raiders only, or break off (10.3.1)",
    Decision.INITIATIVE: "markers secretly committed to initiative (10.3.2 step 2)",
    Decision.TABLE: "which combat table (10.3.2 step 3)",
    Decision.MARKER: "a stratagem marker on a table roll (10.3.2)",
    Decision.COUNTERATTACK: "counterattack after CA",
    Decision.ATTACK_AGAIN: "attack again after NE",
    Decision.BLOODBATH_MORE: "eliminate another unit in a Bloodbath, or stop",
    Decision.LOSS: "which unit is eliminated (combat results)",
}


#: The kinds of decision by part of the game (players and refusals group them so).
BATTLE_DECISIONS = frozenset({Decision.AVOID, Decision.RAIDERS_ONLY, Decision.INITIATIVE, Decision.TABLE, Decision.MARKER,
                     Decision.COUNTERATTACK, Decision.ATTACK_AGAIN, Decision.BLOODBATH_MORE, Decision.LOSS})
POLITICS_DECISIONS = frozenset({Decision.ATTEMPT, Decision.FORFEIT, Decision.THWART, Decision.ADD_KING, Decision.ADD_POPE,
                       Decision.ADD_TP, Decision.POLITICS_UNIT, Decision.CEDE_DESTINATION})
RECRUIT_DECISIONS = frozenset({Decision.ORDER, Decision.PURCHASE, Decision.RECRUIT_PLACE})
INTERCEPT_DECISIONS = frozenset({Decision.INTERCEPT, Decision.INTERCEPT_RAID, Decision.INTERCEPT_AMBUSH,
                        Decision.INTERCEPT_ADVANTAGE, Decision.INTERCEPT_AGAINST})
OPS_DECISIONS = frozenset({Decision.FORCE_UNITS, Decision.FORCE, Decision.LEAVE, Decision.KING_JOINS, Decision.OPS_MARKERS,
                  Decision.KING_ASHORE, Decision.ACTION}) | INTERCEPT_DECISIONS
END_DECISIONS = frozenset({Decision.POISON, Decision.STACKING, Decision.REDISTRIBUTE, Decision.REDISTRIBUTE_TO})


@quick_init
@dataclass(frozen=True, slots=True)
class BattleUnit(Option):
    """A unit in a battle (a loss): ``power`` and unit ``code``."""

    power: str
    code: str

    @property
    def key(self) -> str:
        return f"{self.power} {self.code}"

    @property
    def words(self) -> str:
        """``Aragon field army`` (the shipped names; the log words a game's own data)."""
        data = default_game_data()
        power = data.powers[self.power].name.split(" (")[0] if self.power in data.powers else self.power
        unit = data.unit_types[self.code].name.lower() if self.code in data.unit_types else self.code
        return f"{power} {unit}"
