"""The order of play each season (Sequence of play): each player rolls; the highest goes first.

Not in the text: what a tie means. Here the tied players roll again among themselves until
their order is settled (reconstructed). The other methods the text allows (numbered chits from
a cup, keeping the first season's order, highest first then clockwise) are a user's choice of
how to run the table, not chance this scenario models.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from medviz.engine.events import ChangeEvent
from medviz.engine.game import Context

PLAYERS = ("P1", "P2", "P3", "P4")
MAX_REROLLS = 200


@dataclass
class SeasonOrder:
    """State of the ``play-order`` scenario: the order settled so far."""

    scenario: str
    order: list[str] = field(default_factory=list)


def settle(ctx: Context, players: list[str], prefix: str, depth: int = 1) -> list[str]:
    """Roll a d6 for each of ``players`` (``prefix``/roll-N/P); ties reroll among the tied."""
    rolls = {p: ctx.roll(f"{prefix}/roll-{depth}/{p}", "1d6", actor=p, purpose="order of play") for p in players}
    out: list[str] = []
    for value in sorted(set(rolls.values()), reverse=True):
        tied = [p for p in players if rolls[p] == value]
        if len(tied) > 1 and depth < MAX_REROLLS:
            out += settle(ctx, tied, f"{prefix}/tie-{value}", depth + 1)
        else:
            out += tied
    return out


def task_order(s: SeasonOrder, ctx: Context) -> None:
    """Roll for the order of play of the first season."""
    ctx.begin_phase("order-of-play")
    ctx.change("season-order", order=settle(ctx, list(PLAYERS), "season-1/order"))


def apply_order(s: SeasonOrder, e: ChangeEvent) -> None:
    """The reducer of ``season-order``."""
    s.order = list(e.data["order"])


def outcome(s: SeasonOrder) -> dict[str, Any]:
    """Who plays first, and the whole order."""
    return {"winner": s.order[0] if s.order else None, "order": list(s.order)}
