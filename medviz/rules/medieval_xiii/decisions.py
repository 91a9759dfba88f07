"""The kinds of decision Medieval asks (``Ruleset.decision_kinds``): players dispatch on these.

Medieval's options are already structured (``{"do": "attack", "power": ..., "target": ...}``,
plain numbers for bids), so they stay plain JSON values: each is its own key and its words
come from the ruleset's ``describe_option``.
"""

from __future__ import annotations

from enum import StrEnum


class Decision(StrEnum):
    """One family of Medieval decisions."""

    SELECT_POWER = "select-power"
    MAP_SPIES = "map-spies"
    MAP_CARD = "map-card"
    MANDATORY_ORDER = "mandatory-order"
    INCOME_OR_ACT = "income-or-act"
    ACTION = "action"
    DEUS_EX_MACHINA = "deus-ex-machina"
    ASSASSIN_COUNTER = "assassin-counter"
    MONGOL_TARGET = "mongol-target"
    KNIGHTS = "knights"
    EXCOMMUNICATE = "excommunicate"
    CRUSADE_COMMIT = "crusade-commit"
    SPIES_ATTACKER = "spies-attacker"
    SPIES_DEFENDER = "spies-defender"
    MILITIA_ATTACKER = "militia-attacker"
    MILITIA_DEFENDER = "militia-defender"
    NAVAL_DRM = "naval-drm"
    SEA_INTERCEPT = "sea-intercept"
    PERMISSION = "permission"
    JIHAD = "jihad"
    MERCENARIES = "mercenaries"
    TRADE = "trade"


#: Each kind in words, with the rule it comes from.
DECISION_WORDS: dict[str, str] = {
    Decision.SELECT_POWER: "select a Power in the draft (2.2)",
    Decision.MAP_SPIES: "play Spies on the map deck (8.1)",
    Decision.MAP_CARD: "draw a map card (3.3)",
    Decision.MANDATORY_ORDER: "which Mandatory card acts first (3.2)",
    Decision.INCOME_OR_ACT: "collect income or act (3.1 D)",
    Decision.ACTION: "the player's next action (3.1 D)",
    Decision.DEUS_EX_MACHINA: "cancel a card with Deus ex Machina (8.6)",
    Decision.ASSASSIN_COUNTER: "cancel Spies with an Assassin (8.1)",
    Decision.MONGOL_TARGET: "which map card the Mongols attack (5.2)",
    Decision.KNIGHTS: "add a Knights of Christ card (7.1, 7.3)",
    Decision.EXCOMMUNICATE: "excommunicate a Power that cannot pay the Crusade fee (6.2)",
    Decision.CRUSADE_COMMIT: "commit a Catholic Power to the Crusade (6.2)",
    Decision.SPIES_ATTACKER: "the attacker plays Spies on the defence's Militia (8.1)",
    Decision.SPIES_DEFENDER: "the defender plays Spies on the attack's Militia (8.1)",
    Decision.MILITIA_ATTACKER: "Militia bought for an attack (9.2)",
    Decision.MILITIA_DEFENDER: "Militia bought for a defence (9.2)",
    Decision.NAVAL_DRM: "the naval DRM bought for a voyage (10.3)",
    Decision.SEA_INTERCEPT: "intercept at sea (10.2)",
    Decision.PERMISSION: "grant passage through one's provinces (10.1)",
    Decision.JIHAD: "declare a Jihad (8.4)",
    Decision.MERCENARIES: "hire Mercenaries (11.0)",
    Decision.TRADE: "accept or refuse another player's trade offer (13.1, tournament rule)",
}
