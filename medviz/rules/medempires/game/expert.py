"""The ``expert`` player: the heuristic, with look-ahead through the real rules where it matters.

At a decision that shapes the war (choosing a force, a landing or an attack, the politics
attempt, what to recruit and where) it branches the running game (``running_game``): for a
candidate option it re-runs the game from the latest snapshot with every decision and roll since
then on record, the candidate in place of this decision, and both sides played by the heuristic
(a *rollout*). Rollout ``k`` rolls its future dice from the seed ``(game seed, expert seed,
decision id, k)`` for every candidate alike, so candidates are compared on common random numbers,
pair by pair, and the real game's future dice are never seen. A rollout scores 1 for a win, 0.5
for a draw, 0 for a loss, plus a twentieth of the VP margin (13.0 and 4.0 VP).

The heuristic's choice stands unless the rollouts show clearly that another is better: rollouts
are noisy (one die decides a battle, and with it a line), and a player that followed whichever
candidate happened to score best in two or three of them would depart from sound play at random
(the first expert did, and lost to the heuristic it was built on). So:

1. *Screen*: two rollouts of the heuristic's choice. If it wins both, the decision is left to the
   heuristic (a look-ahead cannot beat winning); nothing more is spent on it.
2. Two rollouts of each other candidate (``width`` in all, the heuristic's own ranking), on the
   same dice; a candidate stays in the race while its paired differences add up to more than 0.
3. *Race*: while the ``budget`` (rollouts per decision) allows, one more paired rollout of the
   heuristic's choice and of every candidate still in the race.
4. A candidate replaces the heuristic's choice only if it is *clearly* better: its paired
   differences average a VP or more, and a sign test over the rollouts where the two differ
   says so (at least five better and P(at least that many better by chance) <= ``ALPHA``).
   A game asks a hundred searched decisions or more: a looser test lets chance pick a worse move
   somewhere in most games (measured: a 3-of-3 rule lost the heuristic's won standard games).

A politics attempt (7.0) is searched further than the rest: ``politics`` times the budget, up to
``POLITICS_WIDTH`` candidates in the heuristic's own order (its pick, then its pick among those left),
each rollout played to the game's end whatever ``horizon`` says. A side has a handful of attempts a
game and they weigh on the result (a standard-game Player A that never attempts politics wins 3% of
200 games against the heuristic, not 12%), so the rollouts there are worth their cost; the same
clear-margin test decides.

*Plans* (``plans.py``): before any of that, at its side's first decision of each game turn, the
expert chooses the posture its side plays the turn under, among named plans of the heuristic
(``plans.PLANS``: what to keep at home, where to strike, the treasury between politics and
recruits, fleets or armies). Each plan is rolled out ``plans`` times from that decision to the
game's end (its side under the plan, the other side the heuristic), on common random numbers
(seed: game seed, expert seed, side, game turn, rollout); last turn's plan (the heuristic's own
in GT1) stays unless another is *clearly* better by the same test as above (``clearly_better``),
and the best of those that are is taken. Two screening rollouts of last turn's plan come first: if
both win, the plan stays. The turn's plan is then the expert's own policy for the turn (its
choice at every decision) and its side's policy in the rollouts of the decisions searched above.
The choice is a pure function of the game so far (kept per run so it is searched once a turn).

A rollout stops as soon as its result is decided (in the Vespers, once France has taken one of
Aragon's guarded areas, 13.0 under ruling C, Player A has won whatever follows) or, with
``horizon=H``, after H more game turns; it is then judged as the game would be judged there.

Spec: ``expert`` or ``expert:budget=N,width=W,horizon=H,politics=P,plans=R,seed=S``. ``budget`` (default 16) is the
most rollouts per searched decision, ``width`` (default 3) the candidates compared, the
heuristic's choice among them; ``horizon`` (default 0: to the game's end) the game turns a
rollout plays beyond the current one; ``politics`` (default 3; 0: searched like the rest) the
multiple of the budget spent on a politics attempt; ``plans`` (default 8; below 2: no plan search,
the heuristic's plan throughout) the rollouts of each plan at a game turn's start; ``budget=0``
leaves only the plan search; ``seed`` (default 0) varies the rollouts' dice. Same spec
and game seed, same game. ``benchmarks/bench_expert.py`` measures the time per game. Only the
options the rules offer are ever chosen.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from math import comb
from typing import Any

from medviz.engine.events import DecisionEvent, DrawEvent, Event, RollEvent, ShuffleEvent
from medviz.engine.game import GameSpec, RunningGame, Snapshot, run, running_game
from medviz.engine.policy import AwaitingDecision, DecisionPoint, canonical, option_key
from medviz.rules.medempires.choices import Decision
from medviz.rules.medempires.game.options import Action, ForcePick
from medviz.rules.medempires.game.plans import PLANS, Plan, Planned
from medviz.rules.medempires.game.players import _MEMO, Heuristic, keys_only, strength
from medviz.rules.medempires.game.state import GameState, other_side
from medviz.rules.medempires.game.turn import judge

#: Default rollouts per searched decision and candidates compared (a Vespers game within 30 s on
#: the project's 2-core machine: benchmarks/bench_expert.py).
BUDGET = 16
WIDTH = 3
#: A politics attempt (7.0) is searched with this many times the budget, over up to POLITICS_WIDTH
#: candidates, each rollout to the game's end (module docstring).
POLITICS = 3
POLITICS_WIDTH = 6
#: The weight of the VP margin beside the result (13.0 and 4.0 VP), to tell apart lost or won lines.
VP_WEIGHT = 0.05
#: Rollouts of each candidate before the race (the heuristic's choice, then the others).
SCREEN = 2
#: A candidate must beat the heuristic's choice in at least this many paired rollouts ...
CLEAR_WINS = 5
#: ... with a one-sided sign test at this level (5 of 5, 6 of 6, 7 of 8, 8 of 9 ... pass): a game
#: asks a hundred or more searched decisions, and each false alarm is a worse move ...
ALPHA = 0.04
#: ... and by a mean margin of at least a VP (VP_WEIGHT) a rollout.
MARGIN = 0.05
#: A rollout scoring this or more is a win (a win scores 1 + margin/20 >= 0.9, a draw at most 0.6).
WON = 0.75
#: A paired difference smaller than this is a tie (scores are multiples of VP_WEIGHT).
TIE = 1e-9
#: Rollouts of each plan (plans.PLANS) at the side's first decision of a game turn, to the game's end.
PLAN_ROLLOUTS = 8


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


def sign_p(better: int, worse: int) -> float:
    """One-sided sign test: the chance of ``better`` or more wins in ``better + worse`` fair coin tosses."""
    n = better + worse
    return sum(comb(n, i) for i in range(better, n + 1)) / 2 ** n if n else 1.0


def clearly_better(diffs: list[float]) -> bool:
    """Paired differences (candidate minus the heuristic's choice) that show the candidate clearly better."""
    better = sum(d > TIE for d in diffs)
    worse = sum(d < -TIE for d in diffs)
    return (sum(diffs) >= MARGIN * len(diffs) - TIE and better >= CLEAR_WINS
            and sign_p(better, worse) <= ALPHA)


def score(state: GameState, me: str) -> float:
    """A rollout's worth to ``me``: 1 won, 0.5 drawn, 0 lost, plus VP_WEIGHT per VP of margin (as judged there)."""
    o = judge(state)
    won = 1.0 if o["winner"] == me else 0.5 if o["winner"] == "draw" else 0.0
    vp = o.get("vp", {})
    return won + VP_WEIGHT * float(vp.get(me, 0) - vp.get(other_side(me), 0))


def _on_record(events: Any) -> tuple[dict[str, tuple[str, Any]], dict[str, Any]]:
    """The decisions and the dice (rolls, draws, shuffles) of ``events``, to replay them in a branch."""
    recorded: dict[str, tuple[str, Any]] = {}
    overrides: dict[str, Any] = {}
    for e in events:
        if isinstance(e, DecisionEvent):
            recorded[e.decision] = (str(e.actor), e.choice)
        elif isinstance(e, RollEvent):
            overrides[e.roll] = e.value
        elif isinstance(e, DrawEvent):
            overrides[e.draw] = e.value
        elif isinstance(e, ShuffleEvent):
            for n in range(1, len(e.order) + 1):
                overrides[f"{e.shuffle}/{n}"] = e.card_at(n)
    return recorded, overrides


def decided(state: GameState) -> str | None:
    """The winner if the game's result can no longer change (the Vespers once France took a guarded area)."""
    victory = state.data.scenarios[state.scenario].victory
    if victory.get("kind") != "vespers" or state.options.get(str(victory.get("taken_option", ""))):
        return None
    return "A" if any(a in state.taken for a in victory["a_must_not_take"]) else None


@dataclass(frozen=True)
class RolloutPlayer:
    """The heuristic in a rollout, which pauses the run once the result is decided or the horizon passed."""

    base: Heuristic
    last_turn: int = 0  # 0: no horizon
    spec: str = "heuristic"

    def choose(self, point: DecisionPoint) -> Any:
        """The heuristic's choice; a pause (``AwaitingDecision``) when the rollout has seen enough."""
        s = point.state
        if isinstance(s, GameState) and (decided(s) or (self.last_turn and s.turn > self.last_turn)):
            raise AwaitingDecision(point)
        return self.base.choose(point)


@dataclass(frozen=True)
class Expert:
    """Heuristic play with rollouts through the real rules at the decisions that matter (module docstring)."""

    budget: int = BUDGET
    width: int = WIDTH
    seed: int = 0
    horizon: int = 0
    politics: int = POLITICS
    plans: int = PLAN_ROLLOUTS
    base: Heuristic = field(default_factory=Heuristic)
    #: Plans chosen so far, by (the run's event list, side, game turn): a cache of a pure function.
    _chosen: dict[tuple[int, str, int], tuple[Any, Plan]] = field(
        default_factory=dict, compare=False, repr=False, hash=False)

    @property
    def spec(self) -> str:
        """``expert`` with its settings where they differ from the defaults."""
        parts = [f"{k}={v}" for k, v, d in (("budget", self.budget, BUDGET), ("width", self.width, WIDTH),
                                            ("horizon", self.horizon, 0), ("politics", self.politics, POLITICS),
                                            ("plans", self.plans, PLAN_ROLLOUTS), ("seed", self.seed, 0)) if v != d]
        return "expert" + (":" + ",".join(parts) if parts else "")

    def choose(self, point: DecisionPoint) -> Any:
        """The plan's choice, unless paired rollouts show another candidate clearly better."""
        game = running_game()
        mine = self.player(self.plan_for(game, point)) if game is not None else self.base
        default = mine.choose(point)
        if (game is None or self.budget < 2 * SCREEN or self.width < 2 or not searched(point)
                or len(point.options) < 2 or (isinstance(point.state, GameState) and decided(point.state))):
            return default
        deep = point.kind == Decision.ATTEMPT and self.politics > 0
        budget = self.budget * self.politics if deep else self.budget
        horizon = 0 if deep else self.horizon
        candidates = self.candidates(point, default, POLITICS_WIDTH if deep else self.width, mine)
        if len(candidates) < 2:
            return default
        base = [self._rollout(game, point, default, k, horizon) for k in range(SCREEN)]
        if all(x >= WON for x in base):
            return default  # the heuristic's line won every screening rollout: nothing to gain
        spent = SCREEN
        diffs: dict[int, list[float]] = {}
        for i, cand in enumerate(candidates[1:], 1):
            if spent + SCREEN > budget:
                break
            diffs[i] = [self._rollout(game, point, cand, k, horizon) - base[k] for k in range(SCREEN)]
            spent += SCREEN
        alive = [i for i, d in diffs.items() if sum(d) > TIE]
        k = SCREEN
        while alive and spent + 1 + len(alive) <= budget:
            b = self._rollout(game, point, default, k, horizon)
            for i in alive:
                diffs[i].append(self._rollout(game, point, candidates[i], k, horizon) - b)
            spent += 1 + len(alive)
            k += 1
            alive = [i for i in alive if sum(diffs[i]) > TIE and sum(d < -TIE for d in diffs[i]) < 2]
        clear = [i for i in alive if clearly_better(diffs[i])]
        if not clear:
            return default
        best = max(clear, key=lambda i: (sum(diffs[i]) / len(diffs[i]), -i))
        return candidates[best]

    def candidates(self, point: DecisionPoint, default: Any, width: int | None = None,
                   base: Heuristic | None = None) -> list[Any]:
        """The heuristic's choice first, then the others the heuristic rates best, ``width`` at most."""
        s = point.state
        h = self.base if base is None else base
        width = self.width if width is None else width
        opts = [o for o in point.options if canonical(o) != canonical(default)]
        if isinstance(s, GameState):
            token = _MEMO.set({})
            try:
                if point.kind == Decision.FORCE:
                    opts = self._rank_forces(s, point.actor, opts, h)
                elif point.kind == Decision.RECRUIT_PLACE:
                    opts = self._rank_places(s, point.actor, opts, width, h)
                elif point.kind == Decision.ATTEMPT:
                    opts = self._rank_attempts(s, point.actor, opts, width, h)
            finally:
                _MEMO.reset(token)
        return [default, *opts[: width - 1]]

    def _rank_forces(self, s: GameState, side: str, opts: list[Any], h: Heuristic) -> list[Any]:
        """Whole forces (``|all``) and ending the phase, by the heuristic's plan value, best first."""
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

    def _rank_places(self, s: GameState, side: str, opts: list[Any], width: int, h: Heuristic) -> list[Any]:
        """Areas for a new unit, most threatened or valuable first (the heuristic's own order)."""
        ranked: list[Any] = []
        left = list(opts)
        while left and len(ranked) < width:
            pick = h._place_option(s, side, left)
            ranked.append(pick)
            left.remove(pick)
        return ranked

    def _rank_attempts(self, s: GameState, side: str, opts: list[Any], width: int, h: Heuristic) -> list[Any]:
        """Political attempts and the pass, in the heuristic's own order (its pick among those left, again)."""
        ranked: list[Any] = []
        left = list(opts)
        while left and len(ranked) < width:
            pick = h._politics(s, side, Decision.ATTEMPT, left)
            if pick not in left:  # the heuristic passes, and the pass was its choice already
                pick = left[0]
            ranked.append(pick)
            left.remove(pick)
        return ranked

    def _rollout(self, game: RunningGame, point: DecisionPoint, choice: Any, k: int, horizon: int | None = None) -> float:
        """One look-ahead: this decision taken as ``choice``, the rest played by the heuristic (the actor's
        side under its plan of the turn), scored for the actor."""
        spec = game.spec
        snap = game.snapshots[-1]
        events = list(game.events)
        recorded, overrides = _on_record(events[snap.seq:])
        recorded[point.decision] = (point.actor, option_key(choice))
        turn = point.turn if point.turn is not None else getattr(point.state, "turn", 0)
        horizon = self.horizon if horizon is None else horizon
        last = turn + horizon if horizon else 0
        me = point.actor
        plan = self.plan_for(game, point)
        players = {seat: RolloutPlayer(self.player(plan) if seat == me else self.base, last) for seat in spec.players}
        seed = _rollout_seed(spec.seed, self.seed, point.decision, k)
        branch = GameSpec(spec.ruleset, spec.scenario, spec.options, seed, players, overrides, recorded)
        result = run(branch, start=snap, prefix=events[:snap.seq], keep_snapshots=False)  # nobody branches a rollout
        return score(result.state, me)  # at the game's end, or where the rollout paused (decided, or the horizon)

    # -- the plan of each game turn ------------------------------------------------------------------
    def player(self, plan: Plan) -> Heuristic:
        """The heuristic under ``plan`` (the heuristic itself under the default plan)."""
        return self.base if plan == Plan() else Planned(plan=plan)

    def plan_for(self, game: RunningGame, point: DecisionPoint) -> Plan:
        """The plan the actor's side plays this game turn (chosen at its first decision of the turn)."""
        if self.plans < SCREEN or not isinstance(point.state, GameState):
            return Plan()
        turn = point.turn if point.turn is not None else point.state.turn
        task = self.base.DELEGATES_ARAGON and keys_only(point.state, point.actor)
        return self._plan_of_turn(game, point.actor, int(turn or 0), current=True, task=task)

    def _plan_of_turn(self, game: RunningGame, me: str, turn: int, current: bool = False, task: bool = False) -> Plan:
        """The plan of game turn ``turn``: searched at the side's first decision of that turn, last turn's
        plan if the side had none then; the default plan before the first game turn (the set-up).
        ``task``: the side's decisions all go to Aragon's task (``players.AragonTask``)."""
        if turn < 1:
            return Plan()
        events = game.events
        key = (id(events), me, turn)
        hit = self._chosen.get(key)
        if hit is not None and hit[0] is events:
            return hit[1]
        first = next((e.seq for e in events if isinstance(e, DecisionEvent) and e.actor == me and e.turn == turn), None)
        if first is None and current:
            first = len(events)  # this decision is the side's first of the turn
        incumbent = self._plan_of_turn(game, me, turn - 1, task=task)
        plan = incumbent if first is None else self._search_plans(game, me, turn, first, incumbent, task=task)
        if len(self._chosen) > 64:
            self._chosen.clear()
        self._chosen[key] = (events, plan)
        return plan

    def _search_plans(self, game: RunningGame, me: str, turn: int, first: int, incumbent: Plan,
                      task: bool = False) -> Plan:
        """Roll every plan out to the game's end from the turn's first decision; a plan replaces the
        incumbent (last turn's) only if clearly better on common random numbers (``clearly_better``).

        With ``task`` (Aragon in the Vespers) a plan that sets none of Aragon's knobs plays the task's
        game, choice for choice, as the incumbent does: its rollouts would equal the incumbent's, so it
        is not rolled out (the same choice, without the rollouts).

        Each rollout of the incumbent is a ``_PlanLine`` that notes where every plan still in the race
        would first choose otherwise; a plan's rollout on the same dice is that line up to there, so it
        is re-run only from the line's snapshot before that decision, and not at all if the plan never
        chooses otherwise (``_plan_score``: the same score as ``_plan_rollout``, for less).
        """
        plans = [incumbent, *[p for p in PLANS.values() if p != incumbent
                              and not (task and not p.aragon() and not incumbent.aragon())]]
        if len(plans) == 1:
            return incumbent
        others = plans[1:]
        lines = [self._plan_line(game, me, turn, first, incumbent, k, others) for k in range(SCREEN)]
        if all(line.score >= WON for line in lines):
            return incumbent  # the side wins on this plan: nothing to gain
        race: list[tuple[int, Plan, list[float]]] = []
        for i, plan in enumerate(others, 1):
            diffs = [self._plan_score(game, me, turn, first, lines[k], plan, k) - lines[k].score for k in range(SCREEN)]
            if sum(diffs) >= -TIE:  # behind after the screening rollouts: out of the race
                race.append((i, plan, diffs))
        if not race:
            return incumbent
        watched = [plan for _, plan, _ in race]
        lines += [self._plan_line(game, me, turn, first, incumbent, k, watched) for k in range(SCREEN, self.plans)]
        ahead: list[tuple[float, int]] = []
        for i, plan, diffs in race:
            diffs += [self._plan_score(game, me, turn, first, lines[k], plan, k) - lines[k].score
                      for k in range(SCREEN, self.plans)]
            if clearly_better(diffs):
                ahead.append((sum(diffs) / len(diffs), -i))
        return plans[-max(ahead)[1]] if ahead else incumbent

    def _plan_branch(self, game: RunningGame, me: str, turn: int, first: int, plan: Plan,
                     k: int) -> tuple[GameSpec, Snapshot | None, list[Event]]:
        """The rollout of ``plan`` from the side's first decision of ``turn``: its spec, start and prefix."""
        spec = game.spec
        snap = next((x for x in reversed(game.snapshots) if x.seq <= first), None)
        events = list(game.events[:first])
        start = snap.seq if snap is not None else 0
        recorded, overrides = _on_record(events[start:])
        players = {seat: RolloutPlayer(self.player(plan) if seat == me else self.base) for seat in spec.players}
        seed = _rollout_seed(spec.seed, self.seed, "plan", me, turn, k)
        branch = GameSpec(spec.ruleset, spec.scenario, spec.options, seed, players, overrides, recorded)
        return branch, snap, events[:start]

    def _plan_rollout(self, game: RunningGame, me: str, turn: int, first: int, plan: Plan, k: int) -> float:
        """The game from the side's first decision of ``turn`` to its end: the side under ``plan``, the other the heuristic."""
        branch, snap, prefix = self._plan_branch(game, me, turn, first, plan, k)
        result = run(branch, start=snap, prefix=prefix, keep_snapshots=False)
        return score(result.state, me)

    def _plan_line(self, game: RunningGame, me: str, turn: int, first: int, plan: Plan, k: int,
                   watched: list[Plan]) -> _PlanLine:
        """``_plan_rollout`` of ``plan``, kept with its snapshots, noting where each ``watched`` plan would
        first choose otherwise (``_Watch``)."""
        branch, snap, prefix = self._plan_branch(game, me, turn, first, plan, k)
        split: dict[Plan, int] = {}
        watch = _Watch(branch.players[me], {p: self.player(p) for p in watched}, split)
        branch = GameSpec(branch.ruleset, branch.scenario, branch.options, branch.seed,
                          {**branch.players, me: watch}, branch.overrides, branch.recorded)
        result = run(branch, start=snap, prefix=prefix)
        return _PlanLine(score(result.state, me), result.events, result.snapshots, len(prefix), split, set(watched))

    def _plan_score(self, game: RunningGame, me: str, turn: int, first: int, line: _PlanLine, plan: Plan,
                    k: int) -> float:
        """``_plan_rollout(..., plan, k)``, from ``line`` (the incumbent's rollout ``k``): its score if
        ``plan`` chooses as the incumbent throughout, else the line re-run from its snapshot before the
        decision where ``plan`` first chooses otherwise, every decision and die before it on record."""
        if plan not in line.watched:
            return self._plan_rollout(game, me, turn, first, plan, k)
        split = line.split.get(plan)
        if split is None:
            return line.score  # the very same game
        branch, _snap, _prefix = self._plan_branch(game, me, turn, first, plan, k)
        snap = next(x for x in reversed(line.snapshots) if x.seq <= split)
        recorded, overrides = _on_record(line.events[line.start:split])
        branch = GameSpec(branch.ruleset, branch.scenario, branch.options, branch.seed, branch.players,
                          {**branch.overrides, **overrides}, {**branch.recorded, **recorded})
        result = run(branch, start=snap, prefix=line.events[:snap.seq], keep_snapshots=False)
        return score(result.state, me)


@dataclass
class _PlanLine:
    """One plan rollout kept for the plans that share it up to where they choose otherwise."""

    score: float
    events: list[Event]
    snapshots: list[Snapshot]
    start: int  # the seq the rollout started at
    split: dict[Plan, int]  # per watched plan: the seq of the first decision it would take otherwise
    watched: set[Plan]


@dataclass(frozen=True)
class _Watch:
    """The side's player in a plan rollout, which also asks each watched plan's player at every decision
    it takes and notes, in ``split``, the seq where a plan would first choose otherwise."""

    lead: Any
    others: dict[Plan, Heuristic]
    split: dict[Plan, int]

    @property
    def spec(self) -> str:
        """The lead's spec (the player whose choices the rollout takes)."""
        return str(getattr(self.lead, "spec", "heuristic"))

    def choose(self, point: DecisionPoint) -> Any:
        """The lead's choice (a pause stays a pause), after asking every plan not yet split."""
        choice = self.lead.choose(point)
        game = running_game()
        seq = len(game.events) if game is not None else 0
        key = canonical(option_key(choice))
        for plan, player in self.others.items():
            if plan not in self.split:
                other = player.choose(point)
                if other is not choice and canonical(option_key(other)) != key:
                    self.split[plan] = seq
        return choice


SETTINGS = ("budget", "width", "horizon", "politics", "plans", "seed")


def expert_factory(arg: str = "") -> Expert:
    """``expert[:budget=N,width=W,horizon=H,politics=P,plans=R,seed=S]`` (module docstring)."""
    settings: dict[str, int] = {}
    for part in filter(None, arg.split(",")):
        key, eq, value = part.partition("=")
        if key not in SETTINGS or not eq:
            raise ValueError(f"expert takes budget=N, width=W, horizon=H, politics=P, plans=R and seed=S (comma-separated), "
                             f"not {part!r}")
        if not value.isdigit() or len(value) > 9:
            raise ValueError(f"expert's {key} must be a whole number >= 0 of at most 9 digits, not {value!r}")
        if key in settings:
            raise ValueError(f"expert's {key} is given twice")
        settings[key] = int(value)
    return Expert(budget=settings.get("budget", BUDGET), width=settings.get("width", WIDTH),
                  seed=settings.get("seed", 0), horizon=settings.get("horizon", 0),
                  politics=settings.get("politics", POLITICS), plans=settings.get("plans", PLAN_ROLLOUTS))

