"""Spy rings that survived a Spy War try to kill an enemy leader (Spies).

As the text states it: the ring pays 10 mk for each die it rolls and each 6 kills; it may pay
10 mk more for +1 on one die; the target may pay 20 mk for each -1 on all the ring's rolls. A
kill counts as the leader killed in battle. Not in the text: the Spy War itself, and whether two
+1s may go on one die (here they may: ``bonuses`` lists each die's bonus).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from medviz.engine.errors import IllegalAction, MalformedInput
from medviz.engine.events import ChangeEvent
from medviz.engine.game import Context
from medviz.rules.variant_middle_sea.data import SpyRules

MAX_DICE = 50


@dataclass
class SpyAttempt:
    """State of the ``spy-attempt`` scenario: the ring's dice, bonuses, the target's minus, the result."""

    scenario: str
    dice: int
    bonuses: list[int]
    minus: int
    kill_on: int
    ring_cost: int
    target_cost: int
    kills: int = 0
    done: bool = False


def _whole(options: Mapping[str, Any], key: str, default: int, lo: int, hi: int) -> int:
    v = options.get(key, default)
    if isinstance(v, str) and v.isdigit():
        v = int(v)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise MalformedInput(f"spy options: {key} must be a whole number {lo}..{hi}, not {v!r}")
    return v


def new_attempt(options: Mapping[str, Any], spy: SpyRules) -> SpyAttempt:
    """An attempt from options ``dice``, ``bonuses`` (``"1,0,2"``: +1s bought per die), ``minus``."""
    unknown = sorted(set(options) - {"dice", "bonuses", "minus"})
    if unknown:
        raise MalformedInput(f"spy options: unknown option(s) {unknown}; known: dice, bonuses, minus")
    dice = _whole(options, "dice", 1, 1, MAX_DICE)
    raw = options.get("bonuses", "")
    try:
        bonuses = [int(x) for x in raw.split(",") if x.strip()] if isinstance(raw, str) else [int(x) for x in raw]
    except (TypeError, ValueError):
        raise MalformedInput(f"spy options: bonuses must be whole numbers per die like '1,0,2', not {raw!r}") from None
    if len(bonuses) > dice or any(not 0 <= b <= 5 for b in bonuses):
        raise IllegalAction(f"spy options: each +1 is bought for one die roll: at most {dice} dice of 0..5, "
                            f"not {bonuses}", "Spies")
    bonuses += [0] * (dice - len(bonuses))
    minus = _whole(options, "minus", 0, 0, 5)
    return SpyAttempt("spy-attempt", dice, bonuses, minus, spy.kill_on,
                      dice * spy.cost_per_die + sum(bonuses) * spy.cost_per_plus, minus * spy.target_cost_per_minus)


def die_kills(face: int, bonus: int, minus: int, kill_on: int) -> bool:
    """A ring die kills when its modified result reaches the kill face (6)."""
    return face + bonus - minus >= kill_on


def kill_chance(bonuses: Sequence[int], minus: int, kill_on: int = 6) -> Fraction:
    """Exact chance that at least one die kills the leader."""
    miss = Fraction(1)
    for b in bonuses:
        miss *= Fraction(sum(1 for f in range(1, 7) if not die_kills(f, b, minus, kill_on)), 6)
    return 1 - miss


def task_attempt(s: SpyAttempt, ctx: Context) -> None:
    """Roll the ring's dice; any kill means the leader dies as in battle (Spies)."""
    ctx.begin_phase("spy-activity")
    kills = 0
    for k, b in enumerate(s.bonuses, 1):
        effects = {f: ("kills the leader" if die_kills(f, b, s.minus, s.kill_on) else "fails") for f in range(1, 7)}
        face = ctx.roll(f"spy-ring/die-{k}", "1d6", actor="spy", effects=effects,
                        purpose=f"spy ring die {k} ({b:+d} bought, -{s.minus} paid by the target)")
        kills += die_kills(face, b, s.minus, s.kill_on)
    ctx.change("spy-result", kills=kills)


def apply_result(s: SpyAttempt, e: ChangeEvent) -> None:
    """The reducer of ``spy-result``."""
    s.kills, s.done = e.data["kills"], True


def outcome(s: SpyAttempt) -> dict[str, Any]:
    """Whether the leader died, and what both sides paid."""
    return {"winner": "spy" if s.kills else "target", "leader_killed": bool(s.kills), "kills": s.kills,
            "ring_cost_mk": s.ring_cost, "target_cost_mk": s.target_cost}
