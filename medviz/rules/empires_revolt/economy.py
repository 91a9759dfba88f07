"""Resources, costs, upkeep, army support and victory in Empire's Revolt (rules 7, 10-13, 26-76).

Pure functions over plain counts; the numbers come from ``Rules`` (data/rules.toml). Not in the
text: what is sacrificed first when upkeep cannot be paid (here: the caller names the order).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from medviz.engine.errors import IllegalAction
from medviz.rules.empires_revolt.data import RESOURCES, Rules

#: Each capital supplies one of each resource at the start (rule 7).
STARTING_STOCK = {"food": 1, "gold": 1, "wood": 1}


@dataclass(frozen=True)
class Holdings:
    """What a player keeps that may cost upkeep (rules 26, 39, 43, 54)."""

    ships: int = 0
    settlements: int = 0
    fortifications: int = 0
    mercenaries: int = 0


def cost(rules: Rules, item: str) -> dict[str, int]:
    """What building ``item`` costs (rules 10, 26, 34, 41, 53, 58, 59)."""
    return dict(rules.costs[item])


def pay(stock: Mapping[str, int], price: Mapping[str, int], item: str) -> dict[str, int]:
    """The stock after paying ``price``; ``IllegalAction`` if a resource is short."""
    short = [r for r in RESOURCES if stock.get(r, 0) < price.get(r, 0)]
    if short:
        raise IllegalAction(f"cannot pay for {item}: short of {', '.join(short)}", "rules 10-58 (costs)")
    return {r: stock.get(r, 0) - price.get(r, 0) for r in RESOURCES}


def upkeep(rules: Rules, h: Holdings) -> dict[str, int]:
    """Upkeep due this turn: one resource per item beyond each free allowance."""
    due = {r: 0 for r in RESOURCES}
    for item, count in (("ship", h.ships), ("settlement", h.settlements),
                        ("fortification", h.fortifications), ("mercenary", h.mercenaries)):
        resource, free = rules.upkeep[item]
        due[resource] += max(0, count - free)
    return due


def pay_upkeep(rules: Rules, stock: Mapping[str, int], h: Holdings,
               sacrifice_order: Sequence[str] = ("mercenary", "ship", "fortification", "settlement")
               ) -> tuple[dict[str, int], Holdings]:
    """Pay upkeep (rule 64): what cannot be paid for is sacrificed, one item at a time.

    The order of sacrifice is not in the text; ``sacrifice_order`` states it.
    """
    counts = {"ship": h.ships, "settlement": h.settlements, "fortification": h.fortifications,
              "mercenary": h.mercenaries}
    left = dict(stock)
    for item in sacrifice_order:
        resource, free = rules.upkeep[item]
        for _ in range(max(0, counts[item] - free)):
            if left.get(resource, 0) > 0:
                left[resource] -= 1
            else:
                counts[item] -= 1
    return left, Holdings(counts["ship"], counts["settlement"], counts["fortification"], counts["mercenary"])


def army_support(rules: Rules, capital: str, cities: int, regions: int) -> int:
    """Armies a player can support: its capital (not Alexandria's), each other city, every 3 regions (rules 5, 12)."""
    return int(rules.capitals[capital].supports_army) + cities + regions // 3


def armies_to_destroy(rules: Rules, capital: str, cities: int, regions: int, armies: int) -> int:
    """Armies beyond support, which must be destroyed (rule 13); mercenaries are apart (rule 55)."""
    return max(0, armies - army_support(rules, capital, cities, regions))


def resource_victory(rules: Rules, players: int, regions: Mapping[str, int]) -> bool:
    """True when the regions held (by resource) reach the player count's targets (rules 71-75)."""
    if players not in rules.victory:
        raise IllegalAction(f"Empire's Revolt is for 2 to 6 players, not {players}", "rule 2; rules 71-75")
    need = rules.victory[players]
    return all(regions.get(r, 0) >= need[r] for r in RESOURCES)


def trade_victory(rules: Rules, cities_held_whole_cycle: int) -> bool:
    """Trade control: six cities held for one whole turn cycle (rule 76)."""
    return cities_held_whole_cycle >= rules.trade_cities
