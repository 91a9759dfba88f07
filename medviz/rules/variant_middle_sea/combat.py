"""Combat in Variant Middle Sea: every unit rolls a d6, modified by leader, fort and manning (Combat).

The rules, as the variant text states them:

- combat happens when opposing forces share a province or sea zone; the moving player attacks;
- one d6 per unit present; a modified result at or above the unit's kill face for its posture
  (attack / defence in the field / defence in forts; attack / defence at sea) kills one enemy unit;
- leaders add to the rolls of the units they are with (Leaders: x +2 attack; xx, xxx, xxxx +1, +2,
  +3 defence; the Bulgar +3/+3 on land; the admirals of Venice +3/+3, galleys only, and Tripoli
  +2/+2); a ship manned with troops adds +1 (Combat, sea tables);
- attack and defence rolls are simultaneous: losses are removed only after both sides rolled.

Not in the text (reconstructed, stated where used): who picks the units lost (here: their owner,
a decision; the odds' doctrine takes them from the last group of the SPEC first), whether combat
repeats after one exchange (here: the ``rounds`` option, one exchange by default), what a natural
roll means beyond its modified value (nothing: only the modified result counts).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from medviz.engine.errors import IllegalAction, MalformedInput
from medviz.engine.events import ChangeEvent
from medviz.engine.game import Context, Task
from medviz.rules.variant_middle_sea.data import Rules

SIDES = ("attacker", "defender")
#: Most units one group may hold (a SPEC bound; the counter mix is in the original game, not here).
MAX_GROUP = 200
#: Most rounds a battle may be asked to fight (``rounds``); ``all`` fights until one side is gone.
MAX_ROUNDS = 1000

_GROUP_RE = re.compile(r"^(\d{1,4})([A-Za-z][A-Za-z0-9_-]*)((?:[@+][A-Za-z0-9_-]+)*)$")


@dataclass
class Group:
    """Units of one class fighting together, with their leader (if any) and posture flags."""

    id: str
    cls: str
    count: int
    leader: str | None = None
    fort: bool = False
    manned: bool = False
    #: The lowest natural d6 face that kills (after every modifier), fixed at set-up from the data.
    kill_on: int = 6
    #: What was added to the die, in words (leader, manned), for the roll's words.
    bonus: int = 0


@dataclass
class VmsBattle:
    """State of one battle: both sides' groups, the round reached, the result once over."""

    id: str
    domain: str
    sides: dict[str, list[Group]]
    initial: dict[str, list[int]]
    rounds: int | None
    round: int = 0
    result: str | None = None
    losses: dict[str, int] = field(default_factory=lambda: {"attacker": 0, "defender": 0})

    def alive(self, side: str) -> int:
        """Units ``side`` has left."""
        return sum(g.count for g in self.sides[side])


@dataclass
class BattleGame:
    """The ``battle`` scenario's state: one battle."""

    scenario: str
    battle: VmsBattle


def parse_side(spec: str, side: str, rules: Rules) -> list[Group]:
    """Groups from a SPEC like ``5INF@xx+fort,2CAV@x`` or ``3GAL@venice+manned,2SHIP``."""
    if not isinstance(spec, str) or not spec.strip():
        raise MalformedInput(f"{side}: a force SPEC such as '5INF@xx,2CAV' is required")
    if len(spec) > 2000:
        raise MalformedInput(f"{side}: SPEC of {len(spec)} characters is too long")
    groups: list[Group] = []
    for i, raw in enumerate(s.strip() for s in spec.split(",")):
        m = _GROUP_RE.match(raw)
        if not m:
            raise MalformedInput(f"{side}: group {raw[:40]!r} is not COUNT CLASS [@LEADER] [+fort] [+manned], "
                                 f"e.g. '5INF@xx+fort'")
        count, cls = int(m.group(1)), m.group(2).upper()
        if cls not in rules.classes:
            raise MalformedInput(f"{side}: unknown unit class {m.group(2)!r} (known: {', '.join(rules.classes)})")
        if not 1 <= count <= MAX_GROUP:
            raise MalformedInput(f"{side}: group {raw!r}: count must be 1..{MAX_GROUP}")
        g = Group(f"g{i + 1}-{cls}", cls, count)
        for flag in re.findall(r"[@+][A-Za-z0-9_-]+", m.group(3)):
            word = flag[1:].lower()
            if flag[0] == "@":
                if g.leader is not None:
                    raise IllegalAction(f"{side}: group {raw!r} has two leaders; the owner decides which one "
                                        f"benefits which group", "Leaders")
                if word not in rules.leaders:
                    raise MalformedInput(f"{side}: unknown leader {flag[1:]!r} (known: {', '.join(rules.leaders)})")
                g.leader = word
            elif word in ("fort", "manned"):
                setattr(g, word, True)
            else:
                raise MalformedInput(f"{side}: unknown flag {flag!r} (known: +fort, +manned)")
        groups.append(g)
    return groups


def posture_threshold(rules: Rules, g: Group, side: str) -> tuple[int, int]:
    """The unmodified kill face for ``g``'s posture and the sum of its die modifiers (Combat; Leaders)."""
    uc = rules.classes[g.cls]
    if side == "attacker":
        base = uc.kill_on_attack
    elif g.fort:
        assert uc.kill_on_defence_fort is not None
        base = uc.kill_on_defence_fort
    else:
        base = uc.kill_on_defence
    bonus = uc.manned_bonus if g.manned else 0
    if g.leader is not None:
        ld = rules.leaders[g.leader]
        bonus += ld.attack if side == "attacker" else ld.defence
    return base, bonus


def kill_chance(kill_on: int) -> Fraction:
    """Chance that one d6 kills when natural faces ``kill_on``..6 kill (clipped to a d6)."""
    return Fraction(7 - min(max(kill_on, 1), 7), 6)


def new_battle(options: Mapping[str, Any], rules: Rules, battle_id: str = "battle-1") -> VmsBattle:
    """A battle from options ``attacker``/``defender`` (SPECs) and ``rounds`` (a number or ``all``)."""
    unknown = sorted(set(options) - {"attacker", "defender", "rounds"})
    if unknown:
        raise MalformedInput(f"battle options: unknown option(s) {unknown}; known: attacker, defender, rounds")
    sides = {s: parse_side(options.get(s, ""), s, rules) for s in SIDES}
    domains = {rules.classes[g.cls].domain for s in SIDES for g in sides[s]}
    if len(domains) != 1:
        raise IllegalAction("a battle is fought in one province or one sea zone: land and sea units cannot "
                            "fight in the same battle", "Combat")
    domain = domains.pop()
    for side in SIDES:
        for g in sides[side]:
            if g.fort and (side == "attacker" or domain == "sea"):
                raise IllegalAction(f"{side}: {g.cls} cannot be '+fort': only a land defender fights from forts",
                                    "Combat: defence in forts")
            if g.manned and domain != "sea":
                raise IllegalAction(f"{side}: {g.cls} cannot be '+manned': only ships are manned with troops",
                                    "Combat: manned with troops")
            if g.leader is not None:
                ld = rules.leaders[g.leader]
                if domain not in ld.domains:
                    raise IllegalAction(f"{side}: the {ld.name} does not lead in {domain} combat",
                                        "Special powers")
                if ld.classes is not None and g.cls not in ld.classes:
                    raise IllegalAction(f"{side}: the {ld.name} leads only {', '.join(ld.classes)}",
                                        "Special powers: Venice")
            base, bonus = posture_threshold(rules, g, side)
            g.kill_on, g.bonus = base - bonus, bonus
    for side in SIDES:
        named = [g.leader for g in sides[side] if g.leader in ("bulgar", "venice", "tripoli")]
        if len(named) != len(set(named)):
            raise IllegalAction(f"{side}: a power's own leader can be with one group only", "Special powers")
    rounds_opt = options.get("rounds", 1)
    if rounds_opt == "all" or rounds_opt == 0:
        rounds: int | None = None
    elif isinstance(rounds_opt, str) and rounds_opt.isdigit():
        rounds = int(rounds_opt)
    elif isinstance(rounds_opt, int) and not isinstance(rounds_opt, bool):
        rounds = rounds_opt
    else:
        raise MalformedInput(f"battle options: rounds must be a whole number or 'all', not {rounds_opt!r}")
    if rounds is not None and not 1 <= rounds <= MAX_ROUNDS:
        raise MalformedInput(f"battle options: rounds must be 1..{MAX_ROUNDS} or 'all', not {rounds}")
    return VmsBattle(battle_id, domain, sides, {s: [g.count for g in sides[s]] for s in SIDES}, rounds)


def loss_order(groups: list[Group]) -> list[Group]:
    """Groups in the order the doctrine loses them: the last group of the SPEC first (reconstructed)."""
    return [g for g in reversed(groups) if g.count > 0]


# --------------------------------------------------------------------------------------------
# Rule code (tasks) and reducers
# --------------------------------------------------------------------------------------------
def task_battle(b: VmsBattle, ctx: Context) -> None:
    """Open the battle: the phase of the sequence it belongs to, then its first round."""
    ctx.begin_phase("sea-combat" if b.domain == "sea" else "battles")
    ctx.schedule(Task.of("vms.round", checkpoint=True))


def task_round(b: VmsBattle, ctx: Context) -> None:
    """One exchange: both sides roll a d6 per unit, then losses come off together (Combat)."""
    n = b.round + 1
    ctx.change("vms-round-begins", round=n)
    hits = {}
    for side in SIDES:
        total = 0
        for g in b.sides[side]:
            for k in range(1, g.count + 1):
                kill = g.kill_on
                effects = {f: ("kills an enemy unit" if f >= kill else "misses") for f in range(1, 7)}
                face = ctx.roll(f"{b.id}/round-{n}/{side}/{g.id}/unit-{k}", "1d6", actor=side,
                                purpose=f"{side} {g.cls} die (kills on a modified {kill + g.bonus}+, "
                                        f"+{g.bonus} to the die)", effects=effects)
                total += face >= kill
        hits[side] = total
    for side in SIDES:
        enemy = "defender" if side == "attacker" else "attacker"
        removed: dict[str, int] = {}
        left = {g.id: g.count for g in b.sides[enemy]}
        for i in range(1, min(hits[side], b.alive(enemy)) + 1):
            opts = [g.id for g in reversed(b.sides[enemy]) if left[g.id] > 0]
            pick = ctx.decide(f"{b.id}/round-{n}/{enemy}/loss-{i}", enemy, opts,
                              prompt=f"{enemy}: which group loses a unit (hit {i} of {hits[side]})?")
            left[pick] -= 1
            removed[pick] = removed.get(pick, 0) + 1
        ctx.change("vms-losses", side=enemy, hits=hits[side], removed=removed)
    if b.alive("attacker") and b.alive("defender") and (b.rounds is None or n < b.rounds):
        if n >= MAX_ROUNDS:
            ctx.report("vms-round-limit", rounds=n)
        else:
            ctx.schedule(Task.of("vms.round", checkpoint=True))
            return
    ctx.change("vms-battle-ends", result=battle_result(b))


def battle_result(b: VmsBattle) -> str:
    """``attacker``, ``defender``, ``both destroyed`` or ``both stand``."""
    a, d = b.alive("attacker"), b.alive("defender")
    return "attacker" if a and not d else "defender" if d and not a else "both stand" if a else "both destroyed"


def apply_change(b: VmsBattle, name: str, data: Mapping[str, Any]) -> None:
    """The reducer of the battle's changes."""
    if name == "vms-round-begins":
        b.round = data["round"]
    elif name == "vms-losses":
        for g in b.sides[data["side"]]:
            n = data["removed"].get(g.id, 0)
            g.count -= n
            b.losses[data["side"]] += n
    elif name == "vms-battle-ends":
        b.result = data["result"]
    else:
        raise MalformedInput(f"change {name!r} is not part of Variant Middle Sea")


def outcome(b: VmsBattle) -> dict[str, Any]:
    """Who won, what is left and what each side lost."""
    return {"winner": b.result if b.result in SIDES else None, "result": b.result, "rounds": b.round,
            "left": {s: {g.id: g.count for g in b.sides[s]} for s in SIDES}, "losses": dict(b.losses)}


CHANGES = ("vms-round-begins", "vms-losses", "vms-battle-ends")


def reducer(name: str) -> Any:
    """The reducer of change ``name`` for the one-battle game."""
    def apply(state: BattleGame, e: ChangeEvent) -> None:
        apply_change(state.battle, name, e.data)
    return apply
