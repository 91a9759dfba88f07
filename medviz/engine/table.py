"""Playing a side yourself: a ``Table`` runs a game until a human must decide, then waits.

The human's seat is a ``HumanSeat`` policy that raises ``AwaitingDecision``; ``run`` pauses
there (``RunResult.pending``). Every move at the table (``choose``, ``auto``, ``auto_while``,
``finish_with``) puts choices on record by decision id, and the game is re-run from its start
with all the choices so far (``GameSpec.recorded``, labelled ``human`` or ``policy`` in
``sources``), so the live state is always a function of (spec, choices): ``undo`` just drops
the last move and runs again. Once the game is over, ``history`` is an ordinary ``History``
whose JSON loads back, replays and branches (the human's seat is saved as ``human/<stand-in>``:
a branch asks the stand-in where the recorded choice no longer fits).

Cost: each move re-runs the game from the set-up (a whole Vespers game takes about 0.1 s).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from medviz.engine.errors import IllegalAction, MalformedInput, MedvizError
from medviz.engine.events import DecisionEvent, Event
from medviz.engine.game import GameSpec, RunResult, Ruleset, run
from medviz.engine.history import History, _history
from medviz.engine.policy import DecisionPoint, FirstOptionPolicy, HumanSeat, Policy, option_index, option_key

__all__ = ["HumanSeat", "Refusal", "Table", "TableStep"]

#: Says why ``choice`` is not legal at ``point``: an error to raise (``IllegalAction(rule=...)``).
Refusal = Callable[[DecisionPoint, Any], MedvizError]


@dataclass(frozen=True, slots=True)
class TableStep:
    """One move at the table: the choices it put on record and who made them."""

    #: (decision id, actor, choice as recorded: the option's key), in the order the game asked.
    choices: tuple[tuple[str, str, Any], ...]
    #: ``human`` (chosen at the table) or ``policy`` (the computer answered for the human).
    source: str
    #: What the move was, in plain words ("chose", "computer chose", "set-up", "finished").
    label: str = ""


class Table:
    """A game in which the ``humans`` decide at the table and computer ``players`` play the rest.

    ``stand_in`` is the computer player that answers for a human on request (``auto``,
    ``finish_with``) and in branches of the finished history; ``refusal`` says why an illegal
    choice is refused (default: the ruleset's ``refusal`` if it has one, else a generic
    ``IllegalAction``).
    """

    def __init__(self, ruleset: Ruleset, scenario: str, options: Mapping[str, Any] | None = None, *,
                 seed: int = 0, humans: str | Iterable[str] = ("B",), players: Mapping[str, Policy],
                 stand_in: Policy | None = None, refusal: Refusal | None = None) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise MalformedInput(f"seed {seed!r} must be a whole number >= 0")
        self.humans: tuple[str, ...] = (humans,) if isinstance(humans, str) else tuple(humans)
        if not self.humans:
            raise MalformedInput("a table needs at least one human side (humans=...)")
        both = sorted(set(self.humans) & set(players))
        if both:
            raise MalformedInput(f"side(s) {', '.join(both)} are played at the table; "
                                 f"give computer players only for the other sides")
        known = tuple(ruleset.actors(scenario))  # an unknown scenario is refused here
        for side in self.humans:
            if side not in known:
                raise MalformedInput(f"there is no side {side!r} in scenario {scenario!r}; "
                                     f"its sides are {', '.join(known)}")
        for side in known:
            if side not in self.humans and side not in players:
                raise MalformedInput(f"side {side!r} of scenario {scenario!r} has neither a human "
                                     f"nor a computer player")
        self.ruleset = ruleset
        self.scenario = scenario
        self.options: Mapping[str, Any] = dict(options or {})
        self.seed = seed
        self.players: Mapping[str, Policy] = dict(players)
        self.stand_in: Policy = stand_in if stand_in is not None else FirstOptionPolicy()
        self.refusal: Refusal = refusal or ruleset.refusal
        self._steps: list[TableStep] = []
        self._result: RunResult | None = None
        self._history: History | None = None
        self.advance()

    # -- what the table shows ------------------------------------------------------------------
    def __repr__(self) -> str:
        where = f"awaiting {self.pending.decision}" if self.pending else "game over"
        return (f"<Table {self.ruleset.game}/{self.scenario} seed={self.seed} humans={','.join(self.humans)} "
                f"moves={len(self._steps)} {where}>")

    @property
    def result(self) -> RunResult:
        """The latest run: events up to the pending decision (or the end), the live state."""
        assert self._result is not None  # set by __init__
        return self._result

    @property
    def pending(self) -> DecisionPoint | None:
        """The decision the game waits for (its id, actor, legal options, prompt), or None at the end."""
        return self.result.pending

    @property
    def finished(self) -> bool:
        """True once the game is over."""
        return self.result.pending is None

    @property
    def state(self) -> Any:
        """The live state (at the pending decision, or the final state)."""
        return self.result.state

    @property
    def events(self) -> list[Event]:
        """Every event so far."""
        return self.result.events

    @property
    def steps(self) -> tuple[TableStep, ...]:
        """The moves made at the table, oldest first."""
        return tuple(self._steps)

    @property
    def choices(self) -> dict[str, Any]:
        """Decision id -> choice for every choice on record at the table."""
        return {d: c for step in self._steps for d, _a, c in step.choices}

    def recent(self) -> list[Event]:
        """The events from the last move at the table on (all events before the first move)."""
        if not self._steps:
            return list(self.events)
        first = self._steps[-1].choices[0][0]
        for e in self.events:
            if isinstance(e, DecisionEvent) and e.decision == first:
                return self.events[e.seq:]
        return list(self.events)  # pragma: no cover - a recorded choice always happens on a re-run

    def describe(self, event: Event) -> str:
        """One event in plain words (with the game's own data, when the ruleset offers that)."""
        return self.ruleset.describe_in(self.state, event)

    @property
    def history(self) -> History:
        """The finished game as a ``History`` (saves, loads back, replays and branches)."""
        if self._history is None:
            p = self.pending
            if p is not None:
                raise MedvizError(f"the game is not over: decision {p.decision} awaits side {p.actor}; "
                                  f"choose, or let the computer finish the game (finish_with)")
            self._history = _history(self._spec(HumanSeat(fallback=self.stand_in)), self.result)
        return self._history

    # -- moves ---------------------------------------------------------------------------------
    def advance(self) -> DecisionPoint | None:
        """Run the game from its start with the choices so far; stop at the next human decision."""
        self._result = run(self._spec(HumanSeat()))
        self._history = None
        return self.pending

    def choose(self, option: Any) -> DecisionPoint | None:
        """Answer the pending decision with ``option`` (a typed option or its key); an illegal one is
        refused, naming the rule."""
        p = self._awaiting("choose")
        i = option_index(p.options, option)
        if i is None:
            raise self._refuse(p, option)
        self._steps.append(TableStep(((p.decision, p.actor, option_key(p.options[i])),), "human", "chose"))
        return self.advance()

    def auto(self, policy: Policy | None = None) -> DecisionPoint | None:
        """Let a computer player (default: the stand-in) answer the pending decision only."""
        p = self._awaiting("let the computer choose")
        return self.auto_while(lambda q: q.decision == p.decision, policy, label="computer chose")

    def auto_while(self, wanted: Callable[[DecisionPoint], bool], policy: Policy | None = None, *,
                   label: str = "computer chose") -> DecisionPoint | None:
        """Let a computer player answer the human's decisions for as long as ``wanted`` accepts them.

        All its answers form one move (``undo`` takes them back together), labelled ``policy``.
        """
        self._awaiting("let the computer choose")
        done = set(self.choices)
        seat = HumanSeat(fallback=policy or self.stand_in, delegate=wanted)
        result = run(self._spec(seat))
        made = tuple((e.decision, e.actor or "", e.choice) for e in result.events
                     if isinstance(e, DecisionEvent) and e.actor in self.humans and e.source == "policy"
                     and e.decision not in done)
        if made:
            self._steps.append(TableStep(made, "policy", label))
        return self.advance()

    def finish_with(self, policy: Policy | None = None) -> History:
        """Let a computer player (default: the stand-in) play the human's side to the end."""
        if self.pending is not None:
            self.auto_while(lambda _q: True, policy, label="finished by the computer")
        return self.history

    def undo(self, moves: int = 1) -> DecisionPoint | None:
        """Take back the last move(s) at the table (a choice, or one computer answer or run of them)."""
        if isinstance(moves, bool) or not isinstance(moves, int) or moves < 1:
            raise MalformedInput(f"undo: moves must be a whole number >= 1, not {moves!r}")
        if moves > len(self._steps):
            raise MalformedInput(f"undo: only {len(self._steps)} move(s) were made at this table")
        del self._steps[len(self._steps) - moves:]
        return self.advance()

    # -- internals -----------------------------------------------------------------------------
    def _spec(self, seat: HumanSeat) -> GameSpec:
        recorded = {d: (a, c) for step in self._steps for d, a, c in step.choices}
        sources = {d: step.source for step in self._steps for d, _a, _c in step.choices}
        players: dict[str, Policy] = {**self.players, **{side: seat for side in self.humans}}
        return GameSpec(self.ruleset, self.scenario, self.options, self.seed, players, {}, recorded, sources)

    def _awaiting(self, what: str) -> DecisionPoint:
        p = self.pending
        if p is None:
            raise MalformedInput(f"cannot {what}: the game is over ({self.ruleset.outcome(self.state).get('reason', 'ended')})")
        return p

    def _refuse(self, point: DecisionPoint, choice: Any) -> MedvizError:
        return self.refusal(point, choice)

