"""The ``expert`` player: the heuristic, with look-ahead through the real rules where it matters.

At a decision that shapes the war (choosing a force, a landing or an attack, the politics
attempt, what to recruit and where) it branches the running game (``running_game``): for each
candidate option it re-runs the game from the latest snapshot with every decision and roll
since then on record, the candidate in place of this decision, and both sides played by the
heuristic to the end. Each candidate gets the same rollouts: rollout ``k`` rolls its future dice
from the seed ``(game seed, expert seed, decision id, k)``, so candidates are compared on common
random numbers, and the real game's future dice are never seen. A rollout scores 1 for a win,
0.5 for a draw, 0 for a loss, plus a twentieth of the VP margin; the best mean wins, ties go to
the heuristic's own choice. Every other decision is the heuristic's.

Spec: ``expert`` or ``expert:budget=N,width=W,seed=S``. ``budget`` (default 12) is the number of
rollouts per searched decision, shared among at most ``width`` (default 4) candidates (at least
two rollouts each); ``seed`` (default 0) varies the rollouts' dice. Time grows with ``budget``:
``benchmarks/bench_expert.py`` measures it. Only the options the rules offer are ever chosen.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from medviz.engine.events import DecisionEvent, DrawEvent, RollEvent, ShuffleEvent
from medviz.engine.game import GameSpec, RunningGame, run, running_game
from medviz.engine.policy import DecisionPoint, canonical, option_key
from medviz.rules.medempires.choices import Decision
from medviz.rules.medempires.game.options import Action, ForcePick
from medviz.rules.medempires.game.players import _MEMO, Heuristic, strength
from medviz.rules.medempires.game.state import GameState, other_side

#: Default rollouts per searched decision and candidates compared (tuned so a Vespers game stays
#: within 30 s on the project's 2-core machine: benchmarks/bench_expert.py).
BUDGET = 12
WIDTH = 4
#: The weight of the VP margin beside the result (13.0 and 4.0 VP), to tell apart lost or won lines.
VP_WEIGHT = 0.05


def _rollout_seed(*parts: Any) -> int:
    """A seed for one rollout's dice, a pure function of its parts."""
    digest = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def searched(point: DecisionPoint) -> bool:
    """The decisions the expert looks ahead on: forces, landings and attacks, politics, recruitment."""
    k = point.kind
    if k in (Decision.ATTEMPT, Decision.FORCE, Decision.PURCHASE, Decision.RECRUIT_PLACE):
        return True  # the side's attempt of the phase (7.0), a force to activate (10.0), a unit to buy and where
    if k == Decision.ACTION:
        return any(isinstance(o, Action) and o.verb in ("attack", "land") for o in point.options)
    return False


@dataclass(frozen=True)
class Expert:
    """Heuristic play with rollouts through the real rules at the decisions that matter (module docstring)."""

    budget: int = BUDGET
    width: int = WIDTH
    seed: int = 0
    base: Heuristic = field(default_factory=Heuristic)

    @property
    def spec(self) -> str:
        """``expert`` with its settings where they differ from the defaults."""
        parts = [f"{k}={v}" for k, v, d in (("budget", self.budget, BUDGET), ("width", self.width, WIDTH),
                                            ("seed", self.seed, 0)) if v != d]
        return "expert" + (":" + ",".join(parts) if parts else "")

    def choose(self, point: DecisionPoint) -> Any:
        """The heuristic's choice, or the candidate whose rollouts score best at a searched decision."""
        default = self.base.choose(point)
        game = running_game()
        if game is None or self.budget < 2 or self.width < 2 or not searched(point) or len(point.options) < 2:
            return default
        candidates = self.candidates(point, default)
        if len(candidates) < 2:
            return default
        per = max(2, self.budget // len(candidates))
        best, best_score = default, None
        for cand in candidates:
            score = sum(self._rollout(game, point, cand, k) for k in range(per))
            if best_score is None or score > best_score + 1e-9:
                best, best_score = cand, score
        return best

    def candidates(self, point: DecisionPoint, default: Any) -> list[Any]:
        """The heuristic's choice first, then the others the heuristic rates best, ``width`` at most."""
        s = point.state
        opts = [o for o in point.options if canonical(o) != canonical(default)]
        if isinstance(s, GameState):
            token = _MEMO.set({})
            try:
                if point.kind == Decision.FORCE:
                    opts = self._rank_forces(s, point.actor, opts)
                elif point.kind == Decision.RECRUIT_PLACE:
                    opts = self._rank_places(s, point.actor, opts)
            finally:
                _MEMO.reset(token)
        return [default, *opts[: self.width - 1]]

    def _rank_forces(self, s: GameState, side: str, opts: list[Any]) -> list[Any]:
        """Whole forces (``|all``) and ending the phase, by the heuristic's plan value, best first."""
        h = self.base
        tg = h._targets(s, side)
        m = s.map.areas

        def value(o: Any) -> float:
            if not isinstance(o, ForcePick):
                return 0.0  # ending the phase
            area, power = o.area, o.power
            units = {k: s.available(area, k) for k in s.units.get(area, {}) if k[0] == power}
            if m[area].kind == "land":
                return h._land_plan_value(s, side, area, strength(s.data, units), tg)
            return h._naval_plan_value(s, side, area, units, tg)

        whole = [o for o in opts if o == "end phase" or (isinstance(o, ForcePick) and o.what == "all")]
        return sorted(whole, key=lambda o: (-value(o), str(option_key(o))))

    def _rank_places(self, s: GameState, side: str, opts: list[Any]) -> list[Any]:
        """Areas for a new unit, most threatened or valuable first (the heuristic's own order)."""
        ranked: list[Any] = []
        left = list(opts)
        while left and len(ranked) < self.width:
            pick = self.base._place_option(s, side, left)
            ranked.append(pick)
            left.remove(pick)
        return ranked

    def _rollout(self, game: RunningGame, point: DecisionPoint, choice: Any, k: int) -> float:
        """One look-ahead: this decision taken as ``choice``, the rest played by the heuristic, scored for the actor."""
        spec = game.spec
        snap = game.snapshots[-1]
        events = list(game.events)
        recorded: dict[str, tuple[str, Any]] = {}
        overrides: dict[str, Any] = {}
        for e in events[snap.seq:]:
            if isinstance(e, DecisionEvent):
                recorded[e.decision] = (str(e.actor), e.choice)
            elif isinstance(e, RollEvent):
                overrides[e.roll] = e.value
            elif isinstance(e, DrawEvent):
                overrides[e.draw] = e.value
            elif isinstance(e, ShuffleEvent):
                for n in range(1, len(e.order) + 1):
                    overrides[f"{e.shuffle}/{n}"] = e.card_at(n)
        recorded[point.decision] = (point.actor, option_key(choice))
        players = {seat: self.base for seat in spec.players}
        seed = _rollout_seed(spec.seed, self.seed, point.decision, k)
        branch = GameSpec(spec.ruleset, spec.scenario, spec.options, seed, players, overrides, recorded)
        result = run(branch, start=snap, prefix=events[:snap.seq], keep_snapshots=False)  # nobody branches a rollout
        o = spec.ruleset.outcome(result.state)
        me = point.actor
        won = 1.0 if o["winner"] == me else 0.5 if o["winner"] == "draw" else 0.0
        vp = o.get("vp", {})
        return won + VP_WEIGHT * float(vp.get(me, 0) - vp.get(other_side(me), 0))


def expert_factory(arg: str = "") -> Expert:
    """``expert[:budget=N,width=W,seed=S]`` (module docstring)."""
    settings: dict[str, int] = {}
    for part in filter(None, arg.split(",")):
        key, eq, value = part.partition("=")
        if key not in ("budget", "width", "seed") or not eq:
            raise ValueError(f"expert takes budget=N, width=W and seed=S (comma-separated), not {part!r}")
        if not value.isdigit() or len(value) > 9:
            raise ValueError(f"expert's {key} must be a whole number >= 0 of at most 9 digits, not {value!r}")
        if key in settings:
            raise ValueError(f"expert's {key} is given twice")
        settings[key] = int(value)
    return Expert(budget=settings.get("budget", BUDGET), width=settings.get("width", WIDTH),
                  seed=settings.get("seed", 0))

