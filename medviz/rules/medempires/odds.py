"""Exact odds of combat: the distribution of one table roll and of a whole battle.

The battle solver runs the very rule code the engine runs (the ``combat`` tasks), in a context
that enumerates every face of every die instead of rolling, and memoizes on the battle state
(a small Markov chain). Choices are made by a stated ``Doctrine`` — the same policy the engine
uses when a player is ``doctrine`` — so the odds and sampled games answer the same question.
No sampling is involved: probabilities are exact fractions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from medviz.engine.dice import distribution
from medviz.engine.events import freeze
from medviz.engine.game import Task
from medviz.engine.policy import DecisionPoint
from medviz.rules.medempires import combat
from medviz.rules.medempires.choices import BattleUnit, Decision
from medviz.rules.medempires.combat import BattleState, UnitKey

#: Loss preference of the doctrine: cheapest units first (recruit costs, 6.2).
LOSS_ORDER = ("L", "R", "M", "FA", "F")


@dataclass(frozen=True)
class Doctrine:
    """Stated choices for both sides, used by exact odds and by the ``doctrine`` player.

    - ``avoid``: the defender tries to avoid combat (10.3.1);
    - ``initiative_markers``: at most this many markers spent on initiative;
    - ``table``: ``best`` (the initiative winner takes the table with the better exact expected
      exchange of units), ``field`` or ``raid``;
    - ``spend_markers``: expend one applicable marker on every table roll;
    - losses: always the cheapest unit (levy, raiders, mercenaries, field army, fleet), and a
      Bloodbath attacker loses no more than it must;
    - ``counterattack`` after CA, ``reattack`` after NE when OPs allow, ``raiders_only`` attack
      after a modified 5 on the avoid roll.
    """

    avoid: bool = False
    initiative_markers: int = 0
    table: str = "best"
    spend_markers: bool = True
    counterattack: bool = True
    reattack: bool = True
    raiders_only: bool = True

    @property
    def spec(self) -> str:
        """Policy spec naming this doctrine (``doctrine`` for the default)."""
        return "doctrine" if self == Doctrine() else "doctrine:" + ",".join(self._flags())

    def _flags(self) -> list[str]:
        d = Doctrine()
        out = []
        for name in ("avoid", "initiative_markers", "table", "spend_markers", "counterattack",
                     "reattack", "raiders_only"):
            if getattr(self, name) != getattr(d, name):
                out.append(f"{name}={getattr(self, name)}")
        return out

    @classmethod
    def from_spec(cls, text: str = "") -> Doctrine:
        """Parse ``avoid=True,table=field`` (the part after ``doctrine:``)."""
        from medviz.engine.errors import MalformedInput

        kwargs: dict[str, Any] = {}
        for item in filter(None, (s.strip() for s in text.split(","))):
            name, _, raw = item.partition("=")
            if name not in cls.__dataclass_fields__:
                raise MalformedInput(f"doctrine: unknown setting {name[:40]!r}")
            if name == "table":
                if raw not in ("best", "field", "raid"):
                    raise MalformedInput(f"doctrine: table must be best, field or raid, not {raw!r}")
                kwargs[name] = raw
            elif name == "initiative_markers":
                from medviz.rules.medempires.combat import MARKER_KINDS, spec_limits

                most = sum(spec_limits()[code] for code in MARKER_KINDS)
                if not (raw.isascii() and raw.isdigit() and len(raw) <= 6 and int(raw) <= most):
                    raise MalformedInput(f"doctrine: initiative_markers must be a whole number 0..{most} "
                                         f"(the battle markers in the cup), not {raw[:40]!r}")
                kwargs[name] = int(raw)
            elif raw.lower() in ("1", "true", "yes", "0", "false", "no"):
                kwargs[name] = raw.lower() in ("1", "true", "yes")
            else:
                raise MalformedInput(f"doctrine: {name} must be true or false, not {raw[:40]!r}")
        return cls(**kwargs)

    def describe(self) -> list[str]:
        """The stated choices in plain words."""
        return [
            f"defender tries to avoid combat: {'yes' if self.avoid else 'no'}",
            f"markers spent on initiative: up to {self.initiative_markers}",
            "table: " + ("the initiative winner picks the one with the better exact expected exchange"
                         if self.table == "best" else f"always {self.table} (when open)"),
            f"one applicable stratagem marker spent on each table roll: {'yes' if self.spend_markers else 'no'}",
            "losses: cheapest units first; a Bloodbath attacker loses only what it must",
            f"counterattack after CA: {'yes' if self.counterattack else 'no'}",
            f"attack again after NE when 2 OPs remain: {'yes' if self.reattack else 'no'}",
        ]

    # -- the policy ------------------------------------------------------------------------------
    def choose(self, point: DecisionPoint) -> Any:
        """Choose at a battle decision point, by its declared kind (``choices.Decision``)."""
        kind, opts = point.kind, point.options
        if kind == Decision.AVOID:
            return "try to avoid" if self.avoid else "stand"
        if kind == Decision.RAIDERS_ONLY:
            return "attack with raiders" if self.raiders_only else "break off"
        if kind == Decision.INITIATIVE:
            return min(self.initiative_markers, max(opts))
        if kind == Decision.TABLE:
            return self._table(point)
        if kind == Decision.MARKER:
            if not self.spend_markers:
                return "none"
            for pref in ("AMB", "ST", "CDM", "MA"):
                if pref in opts:
                    return pref
            return "none"
        if kind == Decision.COUNTERATTACK:
            return "counterattack" if self.counterattack else "stop"
        if kind == Decision.ATTACK_AGAIN:
            return "attack again" if self.reattack else "stop"
        if kind == Decision.BLOODBATH_MORE:
            return "stop"
        # Every other battle decision picks a unit to lose.
        return min(opts, key=_loss_rank)

    def _table(self, point: DecisionPoint) -> str:
        opts = list(point.options)
        if self.table != "best":
            return self.table if self.table in opts else opts[0]
        b = _battle_of(point.state)
        chooser = "attacker" if b.sides["attacker"].player == point.actor else "defender"
        best: str = str(opts[0])
        best_value: Fraction | None = None
        solver = _solver_for(self)
        for table in opts:
            dist = solver.solve(b, (Task.of("battle.round", checkpoint=True, table=table,
                                                        roller="attacker"),))
            value = _expected_exchange(b, dist, chooser)
            if best_value is None or value > best_value:
                best, best_value = str(table), value
        return best


_SOLVERS: dict[Doctrine, BattleSolver] = {}


def _solver_for(doctrine: Doctrine) -> BattleSolver:
    """A solver whose memo is shared by every table choice of this doctrine (bounded)."""
    solver = _SOLVERS.get(doctrine)
    if solver is None or len(solver.memo) > 200_000:
        solver = _SOLVERS[doctrine] = BattleSolver(doctrine)
    return solver


def _battle_of(state: Any) -> BattleState:
    return state if isinstance(state, BattleState) else state.battle


def _loss_rank(unit: BattleUnit) -> tuple[int, str]:
    return (LOSS_ORDER.index(unit.code) if unit.code in LOSS_ORDER else 99, unit.power)


# --------------------------------------------------------------------------------------------
# The solver
# --------------------------------------------------------------------------------------------
OutcomeKey = tuple[tuple[tuple[UnitKey, int], ...], tuple[tuple[UnitKey, int], ...], tuple[str, ...], bool]


class _NeedRoll(Exception):
    pass


class _EnumContext:
    """Duck-types ``engine.Context`` for the battle tasks: dice come from a face list."""

    def __init__(self, state: BattleState, agenda: list[Task], faces: Sequence[int],
                 doctrine: Doctrine) -> None:
        self.state = state
        self.agenda = agenda
        self._faces = faces
        self._used = 0
        self._doctrine = doctrine

    def schedule(self, *tasks: Task) -> None:
        self.agenda.extend(reversed(tasks))

    def roll(self, roll_id: str, dice: str = "1d6", **_: Any) -> int:
        if dice != "1d6":
            raise ValueError("battle rolls are 1d6")
        if self._used == len(self._faces):
            raise _NeedRoll
        self._used += 1
        return self._faces[self._used - 1]

    def decide(self, decision_id: str, actor: str, options: Sequence[Any], *, kind: str = "", **_: Any) -> Any:
        opts = tuple(freeze(o) for o in options)
        if len(opts) == 1:
            return opts[0]
        return self._doctrine.choose(DecisionPoint(decision_id, actor, opts, self.state, kind=kind))

    def decide_secretly(self, asks: Sequence[Any]) -> list[Any]:
        """Every seat chooses from the same state: nothing is rolled or revealed in between."""
        return [self.decide(a.decision, a.actor, a.options, kind=a.kind) for a in asks]

    def change(self, change: str, **data: Any) -> None:
        data.pop("actor", None)
        data.pop("automatic", None)
        combat.apply_battle_change(self.state, change, data)

    def report(self, report: str, **data: Any) -> None:
        return None

    def draw(self, *a: Any, **k: Any) -> str:
        raise ValueError("the battle solver does not draw stratagem markers")


TASKS: dict[str, Callable[..., None]] = {
    "battle.combat": lambda b, ctx: combat.task_combat(b, ctx),
    "battle.round": lambda b, ctx, table, roller: combat.task_round(b, ctx, table, roller),
    "battle.end": lambda b, ctx: combat.task_end(b, ctx),
}


def _state_key(b: BattleState) -> tuple[Any, ...]:
    sides = tuple(
        (tuple(sorted(s.units.items())), tuple(sorted((k, v) for k, v in s.markers.items() if v)), s.king)
        for s in (b.sides["attacker"], b.sides["defender"])
    )
    return (sides, b.ops, b.raiders_only, b.avoided, tuple(b.kings_killed), b.may_avoid)


def outcome_key(b: BattleState) -> OutcomeKey:
    """What a battle's end is judged by: survivors of each side, Kings killed, avoided or not."""
    return (tuple(sorted(b.sides["attacker"].units.items())), tuple(sorted(b.sides["defender"].units.items())),
            tuple(b.kings_killed), b.avoided is not None)


class BattleSolver:
    """Exact outcome distribution of a battle under a doctrine, memoized on the battle state."""

    def __init__(self, doctrine: Doctrine) -> None:
        self.doctrine = doctrine
        self.memo: dict[Any, dict[OutcomeKey, Fraction]] = {}

    def solve(self, b: BattleState, agenda: tuple[Task, ...]) -> dict[OutcomeKey, Fraction]:
        """Distribution of outcomes from state ``b`` with ``agenda`` (last task runs first)."""
        if not agenda:
            return {outcome_key(b): Fraction(1)}
        key = (_state_key(b), agenda)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        task, rest = agenda[-1], agenda[:-1]
        out: dict[OutcomeKey, Fraction] = {}
        stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
        while stack:
            faces, p = stack.pop()
            st = b.copy()
            ctx = _EnumContext(st, list(rest), faces, self.doctrine)
            try:
                TASKS[task.name](st, ctx, **task.args)
            except _NeedRoll:
                for f in range(6, 0, -1):
                    stack.append((faces + (f,), p / 6))
                continue
            for k, q in self.solve(st, tuple(ctx.agenda)).items():
                out[k] = out.get(k, Fraction(0)) + p * q
        self.memo[key] = out
        return out


def _expected_exchange(b: BattleState, dist: Mapping[OutcomeKey, Fraction], chooser: str) -> Fraction:
    """E[enemy units lost − own units lost] for ``chooser``."""
    start = {s: b.sides[s].count() for s in combat.SIDES}
    total = Fraction(0)
    for (att, dfd, _, _), p in dist.items():
        left = {"attacker": sum(n for _, n in att), "defender": sum(n for _, n in dfd)}
        mine = start[chooser] - left[chooser]
        theirs = start[combat.other(chooser)] - left[combat.other(chooser)]
        total += p * (theirs - mine)
    return total


# --------------------------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class BattleOdds:
    """Exact outcome distribution of a battle and its headline figures."""

    distribution: dict[OutcomeKey, Fraction]
    doctrine: Doctrine
    initial: dict[str, dict[UnitKey, int]]

    def probability(self, predicate: Callable[[OutcomeKey], bool]) -> Fraction:
        """Probability of the outcomes for which ``predicate`` holds."""
        return sum((p for k, p in self.distribution.items() if predicate(k)), Fraction(0))

    @property
    def attacker_wins(self) -> Fraction:
        """The defender is destroyed and the attacker is not."""
        return self.probability(lambda k: not k[1] and bool(k[0]))

    @property
    def defender_wins(self) -> Fraction:
        """The attacker is destroyed and the defender is not."""
        return self.probability(lambda k: not k[0] and bool(k[1]))

    @property
    def both_stand(self) -> Fraction:
        """Both sides keep units (avoided, NE, or a stopped exchange)."""
        return self.probability(lambda k: bool(k[0]) and bool(k[1]))

    @property
    def both_destroyed(self) -> Fraction:
        """Neither side has a unit left."""
        return self.probability(lambda k: not k[0] and not k[1])

    @property
    def avoided(self) -> Fraction:
        """The defender avoided combat."""
        return self.probability(lambda k: k[3])

    def expected_losses(self, side: str) -> Fraction:
        """Expected number of units ``side`` loses."""
        start = sum(self.initial[side].values())
        total = Fraction(0)
        for (att, dfd, _, _), p in self.distribution.items():
            left = att if side == "attacker" else dfd
            total += p * (start - sum(n for _, n in left))
        return total

    def king_killed(self, side: str) -> Fraction:
        """Probability that ``side``'s King dies (8.1)."""
        return self.probability(lambda k: side in k[2])

    def exact_summary(self) -> dict[str, Fraction]:
        """Headline probabilities and expected losses as exact fractions (the first four sum to 1)."""
        return {
            "attacker_wins": self.attacker_wins, "defender_wins": self.defender_wins,
            "both_stand": self.both_stand, "both_destroyed": self.both_destroyed, "avoided": self.avoided,
            "attacker_expected_losses": self.expected_losses("attacker"),
            "defender_expected_losses": self.expected_losses("defender"),
            "attacker_king_killed": self.king_killed("attacker"), "defender_king_killed": self.king_killed("defender"),
        }

    def summary(self) -> dict[str, float]:
        """Headline probabilities, rounded to 4 places (they sum to 1 over the first four)."""
        return {
            "attacker_wins": round(float(self.attacker_wins), 4),
            "defender_wins": round(float(self.defender_wins), 4),
            "both_stand": round(float(self.both_stand), 4),
            "both_destroyed": round(float(self.both_destroyed), 4),
            "avoided": round(float(self.avoided), 4),
            "attacker_expected_losses": round(float(self.expected_losses("attacker")), 4),
            "defender_expected_losses": round(float(self.expected_losses("defender")), 4),
            "attacker_king_killed": round(float(self.king_killed("attacker")), 4),
            "defender_king_killed": round(float(self.king_killed("defender")), 4),
        }

    def outcomes(self) -> list[dict[str, Any]]:
        """Every distinct outcome with its exact probability, most likely first."""
        rows = []
        for (att, dfd, kings, avoided), p in sorted(self.distribution.items(), key=lambda kv: -kv[1]):
            rows.append({
                "attacker_left": combat.units_summary(dict(att)),
                "defender_left": combat.units_summary(dict(dfd)),
                "kings_killed": list(kings),
                "avoided": avoided,
                "probability": p,
            })
        return rows


def battle_odds(b: BattleState, doctrine: Doctrine | None = None) -> BattleOdds:
    """Exact odds of the battle ``b`` (not yet begun) under ``doctrine``."""
    d = doctrine or Doctrine()
    dist = BattleSolver(d).solve(b.copy(), (Task.of("battle.combat", checkpoint=True),))
    initial = {s: dict(b.sides[s].units) for s in combat.SIDES}
    return BattleOdds(dist, d, initial)


def table_roll_odds(table: str, units: int, drm: int = 0) -> dict[str, Fraction]:
    """Distribution of the table result of one combat roll with ``units`` attacking and ``drm``."""
    t = combat.tables()[table]
    out: dict[str, Fraction] = {}
    for face, p in distribution("1d6").items():
        r = t.result(face + drm, units)
        out[r] = out.get(r, Fraction(0)) + p
    order = ["CA", "NE", "BB", "DV", "DV+S"]
    return {k: out[k] for k in order if k in out}
