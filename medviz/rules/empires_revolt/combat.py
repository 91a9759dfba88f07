"""Fighting in Empire's Revolt: dice-offs where the highest die wins and ties are rerolled.

As the rules state it: the attacker rolls the A dice of its capital card, the defender the D
dice (rule 3), or a territory's defence dice (rules 18-21, 37, 42, 50, 56); whoever shows the
single highest die wins, and a tie is rolled again (rule 22). Convoying out of a ship adds one
attack die (rule 28), each supporting ship on the coast one more (rule 29). Army against army:
the loser's army dies; a winning attacker stays where it attacked from (rule 24); an army that
attacked from its capital is not destroyed when defeated (rule 8). Ship against ship: one die
each (rule 32).

Not in the text, stated where used: whether an army defeated attacking an empty territory dies
(here yes: rule 8's exception implies defeated attackers are destroyed); the fate of the losing
ship (here it is sunk); the defence of a player's city when rules 21 (three dice) and 50 (D + 1)
disagree (option ``city_rule``, rule 50 by default).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from medviz.engine.errors import IllegalAction, MalformedInput
from medviz.engine.events import ChangeEvent
from medviz.engine.game import Context, Task
from medviz.rules.empires_revolt.data import Rules

SIDES = ("attacker", "defender")
MAX_DICE = 20
MAX_UNITS = 100
#: A tie repeats the throw; this many ties in a row end the battle undecided (chance below 10**-300).
MAX_THROWS = 1000

_ATT_RE = re.compile(r"^(?:(\d{1,3})x)?(?:A(\d{1,2})|(ship))((?:\+[a-z]+\d{0,2})*)$")
_DEF_RE = re.compile(r"^(?:(\d{1,3})x)?(?:army:D(\d{1,2})|(ship)|([a-z-]+)(?:@D(\d{1,2}))?)((?:\+[a-z]+)*)$")


@dataclass
class ErBattle:
    """One fight or a run of fights: dice on each side, units left, the throw reached, the result."""

    id: str
    kind: str  # "armies", "assault" (a territory without an army) or "ships"
    attack_dice: int
    defence_dice: int
    units: dict[str, int]
    from_capital: bool
    fights: int = 0
    result: str | None = None
    what: str = ""

    def initial_words(self) -> str:
        """The fight in words."""
        return f"{self.units['attacker']} x A{self.attack_dice} against {self.units['defender']} x {self.what}"


@dataclass
class BattleGame:
    """The ``battle`` scenario's state."""

    scenario: str
    battle: ErBattle


def _flags(text: str, known: tuple[str, ...], side: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for raw in filter(None, text.split("+")):
        m = re.match(r"^([a-z]+)(\d{0,2})$", raw)
        if not m or m.group(1) not in known:
            raise MalformedInput(f"{side}: unknown flag '+{raw[:20]}' (known: {', '.join('+' + k for k in known)})")
        out[m.group(1)] = int(m.group(2) or 1)
    return out


def attack_dice(spec: str) -> tuple[int, int, str, bool]:
    """(units, dice, kind, from capital) of an attacker SPEC: ``A2``, ``3xA2+convoy+support2+capital``, ``ship``."""
    m = _ATT_RE.match(spec.strip()) if isinstance(spec, str) else None
    if not m:
        raise MalformedInput(f"attacker: {str(spec)[:40]!r} is not [Nx]A<dice>[+convoy][+support<n>][+capital] "
                             f"or 'ship'")
    units = int(m.group(1) or 1)
    flags = _flags(m.group(4), ("convoy", "support", "capital"), "attacker")
    if m.group(3):
        if flags:
            raise IllegalAction("attacker: a ship fights with one die and nothing added", "rule 32")
        return units, 1, "ships", False
    dice = int(m.group(2)) + flags.get("convoy", 0) + flags.get("support", 0)  # rules 28, 29
    if flags.get("convoy", 0) > 1:
        raise IllegalAction("attacker: troops convoy out of one ship at a time (+1 die)", "rule 28")
    return units, dice, "armies", "capital" in flags


def defence_dice(spec: str, rules: Rules, city_rule: str = "50") -> tuple[int, int, str, str]:
    """(units, dice, kind, words) of a defender SPEC (rules 18-21, 24, 32, 37, 42, 50, 56)."""
    m = _DEF_RE.match(spec.strip()) if isinstance(spec, str) else None
    if not m:
        raise MalformedInput(f"defender: {str(spec)[:40]!r} is not [Nx]army:D<dice>, ship, or a territory "
                             f"such as blank+city, settled@D2+fort, held@D2+city")
    units = int(m.group(1) or 1)
    if m.group(2):
        return units, int(m.group(2)), "armies", f"army D{m.group(2)}"
    if m.group(3):
        return units, 1, "ships", "ship"
    kind, d, flags = m.group(4), m.group(5), _flags(m.group(6), ("city", "fort"), "defender")
    if units != 1:
        raise IllegalAction("defender: a territory is one place; only armies or ships come in numbers", "rule 17")
    words = kind + "".join(f"+{f}" for f in flags)
    if kind == "settled":
        if d is None:
            raise MalformedInput("defender: a settlement defends with its nation's D: write settled@D2")
        if "city" in flags:
            raise IllegalAction("defender: settlements cannot be made on cities", "rule 35")
        return 1, int(d) + flags.get("fort", 0), "assault", words  # rules 37, 42
    if "fort" in flags:
        raise IllegalAction("defender: only a settlement can be fortified", "rule 41")
    if kind not in rules.territories:
        raise MalformedInput(f"defender: unknown territory {kind!r} (known: settled, "
                             f"{', '.join(rules.territories)})")
    t = rules.territories[kind]
    if "city" not in flags:
        return 1, t["dice"], "assault", words
    if kind == "held" and city_rule == "50":
        if d is None:
            raise MalformedInput("defender: a player's city defends with its D + 1 (rule 50): write held@D2+city")
        return 1, int(d) + 1, "assault", words
    if "city_dice" not in t:
        raise IllegalAction(f"defender: {kind} has no city", "rules 18-21")
    return 1, t["city_dice"], "assault", words


def new_battle(options: Mapping[str, Any], rules: Rules) -> ErBattle:
    """A fight from options ``attacker``, ``defender`` (SPECs) and ``city_rule`` (``50`` or ``21``)."""
    unknown = sorted(set(options) - {"attacker", "defender", "city_rule"})
    if unknown:
        raise MalformedInput(f"battle options: unknown option(s) {unknown}; known: attacker, defender, city_rule")
    city_rule = str(options.get("city_rule", "50"))
    if city_rule not in ("50", "21"):
        raise MalformedInput(f"battle options: city_rule must be 50 or 21, not {city_rule!r}")
    na, a, akind, capital = attack_dice(options.get("attacker", ""))
    nd, d, dkind, words = defence_dice(options.get("defender", ""), rules, city_rule)
    if (akind == "ships") != (dkind == "ships"):
        raise IllegalAction("ships fight ships; armies fight armies and territories", "rules 24, 31")
    for n, dice, side in ((na, a, "attacker"), (nd, d, "defender")):
        if not 1 <= dice <= MAX_DICE or not 1 <= n <= MAX_UNITS:
            raise MalformedInput(f"{side}: dice 1..{MAX_DICE} and units 1..{MAX_UNITS}, not {dice} and {n}")
    kind = "ships" if akind == "ships" else dkind
    return ErBattle("battle", kind, a, d, {"attacker": na, "defender": nd}, capital, what=words)


def higher_wins(att: list[int], dfd: list[int]) -> str | None:
    """The side with the single highest die, or ``None`` on a tie (rule 22)."""
    return "attacker" if max(att) > max(dfd) else "defender" if max(dfd) > max(att) else None


def task_battle(b: ErBattle, ctx: Context) -> None:
    """Open the fight."""
    ctx.begin_phase("troop-actions")
    ctx.schedule(Task.of("er.fight", checkpoint=True))


def task_fight(b: ErBattle, ctx: Context) -> None:
    """One dice-off, rerolled until someone shows the highest die; the loser pays (rules 8, 22, 24)."""
    k = b.fights + 1
    winner = None
    throw = 0
    while winner is None and throw < MAX_THROWS:
        throw += 1
        faces = {}
        for side, n in (("attacker", b.attack_dice), ("defender", b.defence_dice)):
            faces[side] = [ctx.roll(f"fight-{k}/throw-{throw}/{side}/die-{i}", "1d6", actor=side,
                                    purpose=f"{side} die {i} of {n} (highest die wins; ties roll again)")
                           for i in range(1, n + 1)]
        winner = higher_wins(faces["attacker"], faces["defender"])
        if winner is None:
            ctx.report("er-tie", fight=k, throw=throw, high=max(faces["attacker"]))
    if winner is None:
        ctx.change("er-ends", result="undecided")
        return
    loser = "defender" if winner == "attacker" else "attacker"
    lost = 0 if (loser == "attacker" and b.from_capital) else 1
    ctx.change("er-fight", fight=k, winner=winner, loser=loser, lost=lost, throws=throw)
    if b.units["attacker"] and b.units["defender"]:
        ctx.schedule(Task.of("er.fight", checkpoint=True))
    else:
        ctx.change("er-ends", result="attacker" if b.units["attacker"] else "defender")


def apply_change(b: ErBattle, name: str, data: Mapping[str, Any]) -> None:
    """The reducer of the fight's changes."""
    if name == "er-fight":
        b.fights = data["fight"]
        b.units[data["loser"]] -= data["lost"]
    elif name == "er-ends":
        b.result = data["result"]
    else:
        raise MalformedInput(f"change {name!r} is not part of Empire's Revolt")


def outcome(b: ErBattle) -> dict[str, Any]:
    """Who won, after how many fights, and what is left."""
    taken = b.kind == "assault" and b.result == "attacker"
    return {"winner": b.result if b.result in SIDES else None, "fights": b.fights, "left": dict(b.units),
            "territory_taken": taken}


CHANGES = ("er-fight", "er-ends")


def reducer(name: str) -> Any:
    """The reducer of change ``name``."""
    def apply(state: BattleGame, e: ChangeEvent) -> None:
        apply_change(state.battle, name, e.data)
    return apply
