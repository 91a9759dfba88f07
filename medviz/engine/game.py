"""The deterministic runner: a ruleset's tasks, a context that records every event.

A game is a deterministic function of (ruleset, scenario, options, seed, players, overrides,
recorded decisions). The ruleset supplies an initial state and an agenda of ``Task``s; the
runner pops tasks one at a time and the task's rule code talks to the ``Context``: it begins
phases, rolls dice, draws from pools, asks players to decide, and changes the state only
through ``Context.change`` so the state is always a fold of the change events.

Before every task flagged ``checkpoint`` the runner keeps a snapshot (state + agenda), so a
branch re-runs from the latest snapshot before the changed roll instead of from the start.
"""

from __future__ import annotations

import abc
import difflib
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from medviz.engine import dice as _dice
from medviz.engine.copying import independent_copy
from medviz.engine.errors import IllegalAction, MalformedInput, MedvizError, UnknownReference
from medviz.engine.frozen import quick_init
from medviz.engine.events import (
    ChangeEvent,
    DecisionEvent,
    DrawEvent,
    Event,
    FrozenDict,
    PhaseEvent,
    ReportEvent,
    RollEvent,
    ShuffleEvent,
    freeze,
    freeze_each,
)
from medviz.engine.policy import (
    AwaitingDecision,
    DecisionPoint,
    Option,
    Policy,
    canonical,
    choose_checked,
    option_key,
    option_words,
)
from medviz.engine.portrayal import Place, Portrayal, Shades, default_portrayal


@quick_init
@dataclass(frozen=True, slots=True)
class Task:
    """One step of a ruleset's flow: a name and frozen arguments; ``checkpoint`` keeps a snapshot."""

    name: str
    args: FrozenDict = field(default_factory=FrozenDict)
    checkpoint: bool = False

    @staticmethod
    def of(name: str, checkpoint: bool = False, **args: Any) -> Task:
        """Build a task from keyword arguments."""
        return Task(name, FrozenDict(args), checkpoint)


@quick_init
@dataclass(frozen=True, slots=True)
class Seat:
    """A seat at the table (a side or a player): its id in events, its name and colour on screen."""

    id: str
    name: str
    colour: str = "#777777"


class Ruleset(abc.ABC):
    """The seam between the engine and a game: every hook the layers above use, with defaults.

    A game subclasses this, fills in the five abstract methods and overrides the hooks whose
    defaults do not fit (see docs/engine.md, "Adding a game"); it registers through the
    ``medviz.rulesets`` entry-point group (``medviz.engine.registry``). Generic code (viz, apps,
    export, cli) talks to a game only through these hooks.
    """

    #: The ruleset's id, as saved in histories and named on the command line.
    game: str = ""
    #: The game's title in words.
    title: str = ""

    # -- what the engine needs (abstract) --------------------------------------------------------
    @abc.abstractmethod
    def setup(self, scenario: str, options: Mapping[str, Any]) -> tuple[Any, list[Task]]:
        """Validate the options; return the initial state and agenda (first task first)."""

    @abc.abstractmethod
    def run_task(self, task: Task, state: Any, ctx: Context) -> None:
        """Carry out one task, talking to ``ctx``."""

    @abc.abstractmethod
    def apply(self, state: Any, event: ChangeEvent) -> None:
        """Apply one change event to the state (the reducer)."""

    @abc.abstractmethod
    def outcome(self, state: Any) -> dict[str, Any]:
        """The outcome of a finished game, as plain JSON data (``winner``, ``reason``, ...)."""

    @abc.abstractmethod
    def scenarios(self) -> tuple[str, ...]:
        """The scenarios this ruleset can set up."""

    # -- hooks with defaults ----------------------------------------------------------------------
    @property
    def policies(self) -> Mapping[str, Callable[..., Policy]]:
        """Ruleset-specific players by spec name (beyond the engine's ``random`` and ``first``)."""
        return {}

    def copy_state(self, state: Any) -> Any:
        """An independent copy of the state (default: deep by construction, ``independent_copy``)."""
        return independent_copy(state)

    def seats(self, scenario: str) -> tuple[Seat, ...]:
        """Who plays ``scenario``, in turn order (default: one grey seat per actor)."""
        if type(self).actors is Ruleset.actors:
            raise TypeError(f"ruleset {type(self).__name__} must define seats() or actors()")
        return tuple(Seat(a, a) for a in self.actors(scenario))

    def actors(self, scenario: str) -> tuple[str, ...]:
        """The ids of the seats that decide in ``scenario``."""
        if type(self).seats is Ruleset.seats:
            raise TypeError(f"ruleset {type(self).__name__} must define seats() or actors()")
        return tuple(s.id for s in self.seats(scenario))

    def options(self, scenario: str) -> Mapping[str, Any]:
        """The scenario's options and their defaults (for ``medviz rulesets`` and the apps)."""
        return {}

    def describe(self, event: Event) -> str:
        """The event in plain words (default: its kind and fields)."""
        return ", ".join(f"{k}={v}" for k, v in event.to_dict().items() if k != "seq")

    def describe_in(self, state: Any, event: Event) -> str:
        """``describe`` for a game whose words depend on its own data (``state``: the game's state)."""
        return self.describe(event)

    def refusal(self, point: DecisionPoint, choice: Any) -> MedvizError:
        """The error for an illegal choice at ``point``, in the options' words (default: not a legal
        option; games name the rule)."""
        legal = "; ".join(option_words(o) for o in point.options)
        return IllegalAction(f"{point.decision}: {option_words(choice)!r} is not one of the "
                             f"{len(point.options)} legal options ({legal})")

    def decision_kinds(self) -> Mapping[str, str]:
        """The kinds of decision this game asks (``Context.decide(kind=...)``), each with its words.

        Policies dispatch on ``DecisionPoint.kind``; the engine refuses a kind not declared here
        (default: none declared, and decisions carry no kind).
        """
        return {}

    def roll_tags(self, event: RollEvent | DrawEvent) -> frozenset[str]:
        """What a roll or draw is, as tags the apps can ask for (e.g. ``decisive``: it settles a result)."""
        return frozenset()

    def turn_label(self, scenario: str, turn: int) -> str:
        """A turn in words for analyses and captions (default: ``turn 2``)."""
        return f"turn {turn}"

    #: Whether rule code or a player may read back what past rolls, draws, changes or reports recorded
    #: (beyond the state they left, and the ids and choices of past decisions). False is a promise that
    #: the rest of a game depends only on the state, the agenda and the decisions and chance ids so far:
    #: then ``medviz pivotal`` plays one continuation for the faces of a roll that leave the same game
    #: (``medviz.analysis.runner.play_faces``). True (the default) is always safe.
    reads_past_events: bool = True

    def key_areas(self, scenario: str) -> tuple[str, ...]:
        """The areas whose holder at the end (``outcome["control"]``) a simulation reports (default: none)."""
        return ()

    def observe(self, state: Any, seat: str) -> Any:
        """What ``seat`` may see of ``state`` (default: everything, a game of open information)."""
        return state

    def describe_for(self, state: Any, event: Event, seat: str) -> str:
        """The event in the words ``seat`` may read (default: ``describe_in``; a game with hidden cards
        says "B draws a card" where the full log names the card)."""
        return self.describe_in(state, event)

    def describe_roll(self, history: Any, event: RollEvent | DrawEvent) -> str:
        """A roll or draw named in words for a class (``Aragon's attack roll at sea in the Strait of Sicily,
        1302–1310``); default: its purpose, else its id."""
        return str(getattr(event, "purpose", "") or getattr(event, "roll", None) or getattr(event, "draw", ""))

    def describe_value(self, event: RollEvent | DrawEvent, value: Any) -> str:
        """What a roll or draw showed (or could show), in words: a drawn marker or King by name (default: as is)."""
        return str(value)

    def result_key(self, event: RollEvent | DrawEvent) -> list[tuple[str, str]]:
        """The result codes a roll's faces may mean (``effects``) with their words, e.g. ``("DV", "Decisive
        victory: ...")``; default: none (the codes are shown as they are)."""
        return []

    def describe_outcome(self, history: Any) -> str:
        """Who won and by how much, in one sentence (default: the winning seat's title, else "no winner")."""
        o = history.outcome if isinstance(history.outcome, Mapping) else {}
        winner = o.get("winner")
        if winner in (None, "", "none"):
            return "no winner"
        return f"{self.seat_title(str(winner), history.scenario)} wins"

    def area_names(self, areas: Sequence[str]) -> list[str]:
        """Areas by id as a class reads them (default: the ids)."""
        return list(areas)

    # -- exact odds (``medviz odds``) ------------------------------------------------------------
    #: How this game's forces are written on the command line (``medviz odds --game G --help``).
    spec_help: str = ""

    def battle_odds(self, attacker: str, defender: str, options: Mapping[str, str]) -> dict[str, Any]:
        """Exact odds of one battle as JSON-ready data: ``summary`` (floats), ``exact`` (fractions as text)."""
        raise MalformedInput(f"{self.game}: this game offers no battle odds")

    def odds_arguments(self, parser: Any) -> None:
        """Add this game's flags to ``medviz odds`` (default: ``battle --attacker SPEC --defender SPEC --option K=V``)."""
        parser.description = f"Exact odds of one battle of {self.title or self.game} (no sampling).\n\n{self.spec_help}"
        parser.add_argument("what", choices=["battle"], help="a whole battle")
        parser.add_argument("--attacker", metavar="SPEC", required=True, help="the attacking force (SPEC below)")
        parser.add_argument("--defender", metavar="SPEC", required=True, help="the defending force")
        parser.add_argument("--option", action="append", metavar="K=V", help="a setting of the battle (repeatable)")
        parser.add_argument("--json", action="store_true", help="print JSON")

    def run_odds(self, args: Any) -> int:
        """Carry out ``medviz odds`` with the flags of ``odds_arguments``; print words or JSON."""
        import json

        options: dict[str, str] = {}
        for text in getattr(args, "option", None) or []:
            key, sep, value = text.partition("=")
            if not sep or not key.strip():
                raise MalformedInput(f"--option {text[:60]!r}: expected K=V")
            options[key.strip()] = value.strip()
        result = self.battle_odds(args.attacker, args.defender, options)
        if args.json:
            print(json.dumps(result, indent=2, ensure_ascii=False))
            return 0
        print(f"Exact odds, {self.title or self.game}:")
        exact = result.get("exact", {})
        for key, value in result.get("summary", {}).items():
            print(f"  {key.replace('_', ' '):32} {value:10.4f}  ({exact.get(key, '')})")
        for line in result.get("choices", []):
            print(f"  - {line}")
        return 0

    # -- the command line (``medviz play`` and the game's own subcommands) ------------------------
    #: A module with ``register(subparsers)`` adding this game's own ``medviz`` subcommands, or None.
    command_module: str | None = None

    def play_arguments(self, scenario: str, parser: Any) -> None:
        """Add this game's flags to ``medviz play`` (default: ``--player SEAT=POLICY``, ``--option K[=V]``)."""
        seats = ", ".join(self.actors(scenario))
        parser.add_argument("--player", action="append", metavar="SEAT=POLICY",
                            help=f"who plays a seat ({seats}): random[:SEED], first or one of this game's "
                                 f"players ({', '.join(sorted(self.policies)) or 'none'}); default random")
        parser.add_argument("--option", action="append", metavar="NAME[=VALUE]",
                            help="a scenario option (repeatable); NAME alone switches it on")

    def play_scenario(self, scenario: str, args: Any) -> str:
        """The scenario ``medviz play`` plays, once the flags are read (default: the one named)."""
        return scenario

    def play_setup(self, scenario: str, args: Any) -> tuple[dict[str, Any], dict[str, Policy]]:
        """The options and players of ``medviz play`` from the parsed flags (see ``play_arguments``)."""
        from medviz.engine.cliargs import parse_value
        from medviz.engine.policy import RandomPolicy, parse_policy

        seats = self.actors(scenario)
        players: dict[str, Policy] = {}
        for text in getattr(args, "player", None) or []:
            seat, sep, spec = text.partition("=")
            if not sep or seat not in seats:
                raise MalformedInput(f"--player {text[:60]!r}: expected SEAT=POLICY with SEAT one of {', '.join(seats)}")
            players[seat] = parse_policy(spec, self.policies)
        for i, seat in enumerate(seats):
            players.setdefault(seat, RandomPolicy(args.seed * len(seats) + i))
        known = self.options(scenario)
        options: dict[str, Any] = {}
        for text in getattr(args, "option", None) or []:
            name, sep, value = text.partition("=")
            if known and name not in known:
                close = difflib.get_close_matches(name, list(known), n=1)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                raise MalformedInput(f"--option {text[:60]!r}: no such option in {scenario}{hint}")
            options[name] = parse_value(value, f"--option {text[:60]!r}") if sep else True
        return options, players

    def summary(self, history: Any) -> dict[str, Any]:
        """What ``medviz play --json`` prints of a finished game (default: its outcome, seed and players)."""
        return {"scenario": history.scenario, "seed": history.seed, "outcome": history.outcome,
                "players": {a: p.spec for a, p in sorted(history.spec.players.items())},
                "events": len(history.events)}

    def summary_lines(self, history: Any, info: Mapping[str, Any]) -> list[str]:
        """``medviz play``'s summary in words (default: who won and why)."""
        o = history.outcome
        return [f"{history.scenario}, seed {history.seed}",
                f"Winner: {o.get('winner', 'nobody')}", f"Why: {o.get('reason', '')}"]

    # -- words for the apps and pages ---------------------------------------------------------
    def phase_names(self) -> Mapping[str, str]:
        """Every phase id a history may hold, in turn order, with its name in words (default: none)."""
        return {}

    def seat_title(self, seat: str, scenario: str, state: Any = None) -> str:
        """A seat of ``scenario`` as the apps name it (``Player B (Aragon)``; ``state``: the game, if any).

        Default: the seat's name (``seats``), else its id.
        """
        return next((s.name for s in self.seats(scenario) if s.id == seat), seat)

    def describe_option(self, point: DecisionPoint, option: Any) -> str:
        """One legal option of a pending decision in plain words (default: a typed option's ``words``,
        else its text)."""
        return option_words(option)

    def table_scenarios(self) -> tuple[str, ...]:
        """The scenarios a person can sit down to play at a table (``medviz.apps.PlayTable``; default: all)."""
        return self.scenarios()

    def setup_shortcut(self, point: DecisionPoint) -> str | None:
        """A label such as ``set up as in 1282`` when ``point`` is part of a set-up the computer may
        finish for the player (its default placements); None otherwise (default: never)."""
        return None

    # -- the map (viz, apps, export) ------------------------------------------------------------
    def view_at(self, history: Any, seq: int) -> Any:
        """The game's view of the map just after event ``seq`` of ``history`` (-1: before the first);
        None when this history has no map (default: none). Any value ``portray`` understands."""
        return None

    def live_view(self, state: Any, events: Sequence[Event], turn: int | None = None,
                  phase: str | None = None) -> Any:
        """The view of a game being played: its live ``state`` after ``events`` (None: no map, the default)."""
        return None

    def map_name(self, view: Any) -> str:
        """The map ``view`` is drawn on: a geodata name or a GeoJSON path (default: a portrayal's own map,
        else the ruleset's id)."""
        return view.map if isinstance(view, Portrayal) else self.game

    def portray(self, view: Any, places: Mapping[str, Place], shades: Shades) -> Portrayal:
        """How the map draws ``view`` (``places``: the map's areas; ``shades``: the drawer's tints).

        Default: a view that is already a ``Portrayal`` as it is, anything else as the bare map.
        """
        return default_portrayal(view, self.map_name(view), self.title)

    def compare_views(self, before: Any, after: Any) -> list[str]:
        """What differs between two views (the ends of two branches), as lines of plain words (default: none)."""
        return []

    def scores(self, view: Any) -> list[tuple[str, str, Mapping[str, int]]]:
        """The scores a view shows: (short name, meaning, points by seat), e.g. ``("VP", "victory points", ...)``."""
        return []


@dataclass(frozen=True)
class GameSpec:
    """Everything that determines a game: same spec, same history, byte for byte."""

    ruleset: Ruleset
    scenario: str
    options: Mapping[str, Any]
    seed: int
    players: Mapping[str, Policy]
    overrides: Mapping[str, Any] = field(default_factory=dict)
    #: Recorded decisions: decision id -> (actor, choice); reused while legal for the same actor.
    recorded: Mapping[str, tuple[str, Any]] = field(default_factory=dict)
    #: Who made each recorded choice (``policy``, ``human``...); a reused choice keeps its label.
    sources: Mapping[str, str] = field(default_factory=dict)
    #: Chance entered at a real table (record mode): roll or draw id -> the value it showed there.
    #: It stands for the seed's natural value (events say ``source="entered"``); overrides still apply on top.
    entered: Mapping[str, Any] = field(default_factory=dict)
    #: Record mode: a roll or draw with nothing entered pauses the run (``RunResult.pending_chance``).
    ask_chance: bool = False

    def with_override(self, roll_id: str, value: Any, recorded: Mapping[str, tuple[str, Any]],
                      sources: Mapping[str, str]) -> GameSpec:
        """The same game with one more die override and the parent's decisions on record."""
        return GameSpec(
            self.ruleset, self.scenario, self.options, self.seed, self.players,
            {**self.overrides, roll_id: value}, recorded, sources, self.entered,
        )


@quick_init
@dataclass(frozen=True, slots=True)
class SecretAsk:
    """One seat's part of a simultaneous secret choice (``Context.decide_secretly``)."""

    decision: str
    actor: str
    options: Sequence[Any]
    prompt: str = ""
    kind: str = ""


@quick_init
@dataclass(frozen=True, slots=True)
class ChanceAsk:
    """A roll or draw the game waits for in record mode: what the real dice (or cup) must show."""

    #: The roll or draw id (``GT1/ops-A/force-1/ops``).
    key: str
    #: ``roll`` or ``draw``.
    kind: str
    actor: str | None
    #: A roll's dice (``1d6``); "" for a draw.
    dice: str = ""
    #: A draw's pool (sorted, repeated by multiplicity); () for a roll.
    pool: tuple[str, ...] = ()
    purpose: str = ""
    effects: Mapping[str, str] | None = None
    turn: int | None = None
    phase: str | None = None

    def values(self) -> tuple[Any, ...]:
        """Every value the table may enter: a roll's totals, or a draw's distinct items."""
        if self.kind == "roll":
            count, faces = _dice.parse_dice(self.dice)
            return tuple(range(count, count * faces + 1))
        return tuple(sorted(set(self.pool)))


class AwaitingChance(Exception):
    """Raised in record mode at a roll or draw nobody has entered: the run pauses there (not an error)."""

    def __init__(self, ask: ChanceAsk) -> None:
        self.ask = ask
        super().__init__(f"{ask.kind} {ask.key} awaits the table")


class Snapshot:
    """The state before event ``seq``, with the agenda that produces the rest.

    A snapshot the runner keeps between two full copies is *folded*: it holds an earlier full
    snapshot and the change events since, and makes its state (a copy of that one's, with those
    changes applied by the reducers, as ``History.state_at`` does) the first time it is read. The
    state is always a fold of the change events, so both are the same state; the run pays for a
    copy only once ``FOLD_EVERY`` events have passed instead of at every checkpoint.
    """

    __slots__ = ("seq", "agenda", "turn", "phase", "_state", "_base", "_changes", "_ruleset")

    def __init__(self, seq: int, state: Any, agenda: tuple[Task, ...], turn: int | None,
                 phase: str | None) -> None:
        self.seq = seq
        self.agenda = agenda
        self.turn = turn
        self.phase = phase
        self._state = state
        self._base: Snapshot | None = None
        self._changes: tuple[Event, ...] = ()
        self._ruleset: Ruleset | None = None

    @classmethod
    def folded(cls, seq: int, base: Snapshot, changes: tuple[Event, ...], ruleset: Ruleset,
               agenda: tuple[Task, ...], turn: int | None, phase: str | None) -> Snapshot:
        """A snapshot whose state is ``base``'s with ``changes`` applied, made when first read."""
        snap = cls(seq, None, agenda, turn, phase)
        snap._base, snap._changes, snap._ruleset = base, changes, ruleset
        return snap

    @property
    def state(self) -> Any:
        """The state before event ``seq`` (read it, never change it: a branch copies it)."""
        base, changes, rs = self._base, self._changes, self._ruleset  # locals: two readers at once both finish
        if base is not None and rs is not None:
            state = rs.copy_state(base.state)
            for e in changes:
                if isinstance(e, ChangeEvent):
                    rs.apply(state, e)
            self._state, self._base, self._changes, self._ruleset = state, None, (), None
        return self._state

    def _key(self) -> tuple[Any, ...]:
        return (self.seq, self.state, self.agenda, self.turn, self.phase)

    def __eq__(self, other: object) -> bool:
        return self._key() == other._key() if isinstance(other, Snapshot) else NotImplemented

    __hash__ = None  # type: ignore[assignment]  # a state is mutable data

    def __repr__(self) -> str:
        return f"Snapshot(seq={self.seq}, turn={self.turn}, phase={self.phase!r})"


#: A full copy of the state at a checkpoint once this many events have passed since the last one;
#: the checkpoints between are folded snapshots (``Snapshot.folded``).
FOLD_EVERY = 400


class Context:
    """The rule code's only door to dice, players and the state; records every event."""

    def __init__(self, spec: GameSpec, state: Any, agenda: list[Task], events: list[Event],
                 turn: int | None = None, phase: str | None = None) -> None:
        self.spec = spec
        self.state = state
        self.agenda = agenda
        self.events = events
        self.turn = turn
        self.phase = phase
        self._ids: set[str] = set()
        self._kinds: Mapping[str, str] | None = None
        self._apply = spec.ruleset.apply  # the reducer, looked up once (half a game's events are changes)
        for e in events:
            key = _event_id(e)
            if key:
                self._ids.add(key)

    # -- flow --------------------------------------------------------------------------------
    def schedule(self, *tasks: Task) -> None:
        """Run ``tasks`` next, in the order given, before anything already on the agenda."""
        self.agenda.extend(reversed(tasks))

    def begin_phase(self, name: str, turn: int | None = None, automatic: bool = True) -> None:
        """Record that a phase begins (an automatic transition unless a player caused it)."""
        if turn is not None:
            self.turn = turn
        self.phase = name
        self._emit(PhaseEvent, automatic=automatic, name=name)

    # -- chance ------------------------------------------------------------------------------
    def roll(self, roll_id: str, dice: str = "1d6", *, actor: str | None = None,
             purpose: str = "", effects: Mapping[int, str] | None = None) -> int:
        """Roll ``dice`` for the purpose named by ``roll_id``; an override replaces the natural value."""
        self._claim(roll_id)
        source = None
        if roll_id in self.spec.entered:
            natural = _dice.check_value(dice, self.spec.entered[roll_id], f"entered roll {roll_id}: ")
            faces = _dice.faces_for_total(dice, natural, ())
            source = "entered"
        elif self.spec.ask_chance:
            raise AwaitingChance(ChanceAsk(roll_id, "roll", actor, dice=dice, purpose=purpose,
                                           effects={str(k): v for k, v in effects.items()} if effects else None,
                                           turn=self.turn, phase=self.phase))
        else:
            faces = _dice.natural_faces(self.spec.seed, roll_id, dice)
            natural = sum(faces)
        value = natural
        overridden = False
        if roll_id in self.spec.overrides:
            value = _dice.check_value(dice, self.spec.overrides[roll_id], f"override {roll_id}: ")
            overridden = value != natural
            faces = _dice.faces_for_total(dice, value, faces)
        self._emit(RollEvent, actor=actor, roll=roll_id, dice=dice, faces=faces, natural=natural,
                   value=value, overridden=overridden, purpose=purpose,
                   effects=FrozenDict({str(k): v for k, v in effects.items()}) if effects else None, source=source)
        return value

    def draw(self, draw_id: str, pool: Sequence[str], *, actor: str | None = None,
             purpose: str = "") -> str:
        """Draw one item at random from ``pool`` (items repeated by multiplicity)."""
        self._claim(draw_id)
        items = tuple(sorted(pool))
        source = None
        if draw_id in self.spec.entered:
            natural = str(self.spec.entered[draw_id])
            if natural not in items:
                raise MalformedInput(f"entered draw {draw_id}: {natural!r} is not in the pool "
                                     f"({', '.join(sorted(set(items)))})")
            source = "entered"
        elif self.spec.ask_chance:
            raise AwaitingChance(ChanceAsk(draw_id, "draw", actor, pool=items, purpose=purpose,
                                           turn=self.turn, phase=self.phase))
        else:
            natural = items[_dice.natural_index(self.spec.seed, draw_id, len(items))]
        value = natural
        if draw_id in self.spec.overrides:
            wanted = self.spec.overrides[draw_id]
            if wanted not in items:
                raise MalformedInput(
                    f"override {draw_id}: {wanted!r} is not in the pool ({', '.join(sorted(set(items)))})"
                )
            value = wanted
        self._emit(DrawEvent, actor=actor, draw=draw_id, pool=items, natural=natural, value=value,
                   overridden=value != natural, purpose=purpose, source=source)
        return value

    def shuffle(self, shuffle_id: str, cards: Sequence[str], *, actor: str | None = None,
                purpose: str = "") -> tuple[str, ...]:
        """Shuffle ``cards`` for the purpose named by ``shuffle_id``; returns the order, top card first.

        The natural order is a pure function of (seed, shuffle id, the cards). An override
        ``<shuffle_id>/<n>`` = card puts that card at place ``n`` by swapping it with the card
        there, so every other card stays where it was (DESIGN.md, "Cards by meaning").
        """
        self._claim(shuffle_id)
        if self.spec.ask_chance:
            raise IllegalAction(f"shuffle {shuffle_id}: record mode enters dice and draws, not a whole deck's order; "
                                f"this game shuffles a deck, so it cannot be recorded yet")
        items = tuple(sorted(cards))
        order = list(items)
        for i in range(len(order) - 1, 0, -1):  # Fisher-Yates, each swap addressed by meaning
            j = _dice.natural_index(self.spec.seed, f"{shuffle_id}#{i}", i + 1)
            order[i], order[j] = order[j], order[i]
        natural = tuple(order)
        fixed: set[int] = set()
        for place, card in _placed_cards(shuffle_id, self.spec.overrides, len(order)):
            if card not in items:
                raise MalformedInput(f"override {shuffle_id}/{place}: {card!r} is not in the deck "
                                     f"({', '.join(sorted(set(items)))})")
            here = place - 1
            if order[here] != card:
                free = [k for k in range(len(order)) if order[k] == card and k not in fixed]
                if not free:
                    raise MalformedInput(f"override {shuffle_id}/{place}: every {card!r} in the deck is "
                                         f"already placed by another override")
                order[here], order[free[0]] = order[free[0]], order[here]
            fixed.add(here)
        self._emit(ShuffleEvent, actor=actor, shuffle=shuffle_id, cards=items, natural=natural,
                   order=tuple(order), overridden=tuple(order) != natural, purpose=purpose)
        return tuple(order)

    # -- players -----------------------------------------------------------------------------
    def decide(self, decision_id: str, actor: str, options: Sequence[Any], *, prompt: str = "",
               kind: str = "") -> Any:
        """Ask ``actor``'s policy to choose among ``options``; a recorded choice is reused while legal.

        ``options`` may be typed (``Option``): the policy receives them as they are, the history
        records their keys, and the option chosen is returned. ``kind`` names the decision's
        family (one of ``Ruleset.decision_kinds``).
        """
        self._claim(decision_id)
        opts, keys = self._legal(decision_id, options, kind)
        choice, source = self._choice(decision_id, actor, opts, keys, prompt, kind)
        self.events.append(DecisionEvent(len(self.events), self.turn, self.phase, actor, source == "forced",
                                         decision_id, keys, option_key(choice), len(opts), source, prompt))
        return choice

    def decide_secretly(self, asks: Sequence[SecretAsk]) -> list[Any]:
        """Simultaneous secret choices: every seat chooses before any choice is recorded or revealed.

        Each policy decides from its own observation of the state as it stands before all of
        them (``Ruleset.observe``): no seat sees another's choice, nor anything rolled after it.
        The choices are then recorded together, in the order asked, flagged ``secret``.
        """
        resolved = []
        for ask in asks:
            self._claim(ask.decision)
            opts, keys = self._legal(ask.decision, ask.options, ask.kind)
            resolved.append((ask, keys, *self._choice(ask.decision, ask.actor, opts, keys, ask.prompt, ask.kind)))
        for ask, keys, choice, source in resolved:
            self._emit(DecisionEvent, actor=ask.actor, automatic=source == "forced", decision=ask.decision,
                       options=keys, choice=option_key(choice), legal_options=len(keys), source=source,
                       prompt=ask.prompt, secret=True)
        return [choice for _ask, _keys, choice, _source in resolved]

    def _legal(self, decision_id: str, options: Sequence[Any], kind: str) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        """The options as offered (frozen) and as recorded (their keys); the kind checked."""
        opts = freeze_each(options)
        if not opts:
            raise RuntimeError(f"decision {decision_id}: the rules offered no legal option")
        if kind:
            if self._kinds is None:
                self._kinds = self.spec.ruleset.decision_kinds()
            if kind not in self._kinds:
                raise RuntimeError(f"decision {decision_id}: kind {kind!r} is not one of the ruleset's "
                                   f"decision kinds (Ruleset.decision_kinds)")
        for o in opts:
            if isinstance(o, Option):
                return opts, freeze_each([x.key if isinstance(x, Option) else x for x in opts])
        return opts, opts

    def _choice(self, decision_id: str, actor: str, opts: tuple[Any, ...], keys: tuple[Any, ...], prompt: str,
                kind: str) -> tuple[Any, str]:
        """The choice at a decision point and where it came from (forced, recorded, policy...)."""
        if len(opts) == 1:
            return opts[0], "forced"
        rec = self.spec.recorded.get(decision_id)
        if rec is not None and rec[0] == actor:
            choice = rec[1]
            for o, k in zip(opts, keys):  # the usual case: the very key recorded (same type, so 1 never matches True)
                if type(k) is type(choice) and k == choice:
                    return o, self.spec.sources.get(decision_id, "recorded")
            wanted = canonical(choice)
            for o, k in zip(opts, keys):
                if canonical(k) == wanted:
                    return o, self.spec.sources.get(decision_id, "recorded")
            self._emit(ReportEvent, actor=actor, report="recorded-choice-illegal",
                       data=FrozenDict({"decision": decision_id, "choice": rec[1]}))
        policy = self.spec.players.get(actor)
        if policy is None:
            raise UnknownReference(f"decision {decision_id}: no player for actor {actor!r}")
        seen = self.spec.ruleset.observe(self.state, actor)
        point = DecisionPoint(decision_id, actor, opts, seen, prompt, self.turn, self.phase, kind)
        return freeze(choose_checked(policy, point)), "policy"

    # -- state -------------------------------------------------------------------------------
    def change(self, change: str, *, actor: str | None = None, automatic: bool = False,
               **data: Any) -> None:
        """Record a state change and apply it through the ruleset's reducer."""
        # built by position (the most frequent event: half a game's), the same fields as ``_emit`` sets
        event = ChangeEvent(len(self.events), self.turn, self.phase, actor, automatic, change, FrozenDict(data))
        self.events.append(event)
        self._apply(self.state, event)

    def report(self, report: str, *, actor: str | None = None, automatic: bool = True,
               **data: Any) -> None:
        """Record a result worth showing (no state change)."""
        self.events.append(ReportEvent(len(self.events), self.turn, self.phase, actor, automatic, report,
                                       FrozenDict(data)))

    # -- internals ---------------------------------------------------------------------------
    def _claim(self, key: str) -> None:
        if key in self._ids:
            raise RuntimeError(f"id {key!r} used twice in one game: rule code must address by meaning")
        self._ids.add(key)

    def _emit(self, cls: type[Event], **kw: Any) -> Event:
        event = cls(seq=len(self.events), turn=self.turn, phase=self.phase, **kw)
        self.events.append(event)
        return event


def _placed_cards(shuffle_id: str, overrides: Mapping[str, Any], size: int) -> list[tuple[int, Any]]:
    """The overrides ``<shuffle_id>/<n>`` for places 1..size, in order of place."""
    prefix = shuffle_id + "/"
    out = []
    for key, card in overrides.items():
        if key.startswith(prefix) and key[len(prefix):].isdigit() and 1 <= int(key[len(prefix):]) <= size:
            out.append((int(key[len(prefix):]), card))
    return sorted(out)


def chance_keys(events: Iterable[Event]) -> list[str]:
    """Every id an override may address: rolls, draws and each place of each shuffle (``<id>/<n>``)."""
    out: list[str] = []
    for e in events:
        if isinstance(e, RollEvent):
            out.append(e.roll)
        elif isinstance(e, DrawEvent):
            out.append(e.draw)
        elif isinstance(e, ShuffleEvent):
            out.extend(f"{e.shuffle}/{n}" for n in range(1, len(e.order) + 1))
    return out


def chance_event(events: Iterable[Event], key: str) -> RollEvent | DrawEvent | ShuffleEvent | None:
    """The roll, draw or shuffle that override id ``key`` addresses (None: none in ``events``)."""
    for e in events:
        if isinstance(e, RollEvent) and e.roll == key or isinstance(e, DrawEvent) and e.draw == key:
            return e
        if isinstance(e, ShuffleEvent) and key.startswith(e.shuffle + "/"):
            place = key[len(e.shuffle) + 1:]
            if place.isdigit() and 1 <= int(place) <= len(e.order):
                return e
    return None


def chance_value(event: RollEvent | DrawEvent | ShuffleEvent, key: str) -> Any:
    """The value shown at override id ``key`` of ``event`` (a shuffle: the card at that place)."""
    if isinstance(event, ShuffleEvent):
        return event.card_at(int(key[len(event.shuffle) + 1:]))
    return event.value


def _event_id(e: Event) -> str | None:
    if isinstance(e, RollEvent):
        return e.roll
    if isinstance(e, DrawEvent):
        return e.draw
    if isinstance(e, ShuffleEvent):
        return e.shuffle
    if isinstance(e, DecisionEvent):
        return e.decision
    return None


@dataclass
class RunResult:
    """What a run produced: events, snapshots, the final state (or the live state at a pause)."""

    events: list[Event]
    snapshots: list[Snapshot]
    state: Any
    #: The decision the run paused at (a policy raised ``AwaitingDecision``); None: the game ended.
    pending: DecisionPoint | None = None
    #: Record mode: the roll or draw the run paused at (nothing entered for it yet); None otherwise.
    pending_chance: ChanceAsk | None = None
    #: ``run(..., pause_when=...)``: the task boundary it stopped at (``state`` is the live state, not a
    #: copy); ``run(spec, paused, events)`` goes on with the same game. None: the game ended first.
    paused: Snapshot | None = None


MAX_TASKS = 1_000_000


@quick_init
@dataclass(frozen=True, slots=True)
class RunningGame:
    """A read-only look at the game being run, for a policy that looks ahead by branching it.

    ``events`` and ``snapshots`` are the run's own lists as they stand at the decision: read
    them, never change them. A look-ahead re-runs from ``snapshots[-1]`` with the decisions and
    rolls since it on record (``run(spec, start, prefix)``).
    """

    spec: GameSpec
    events: Sequence[Event]
    snapshots: Sequence[Snapshot]


_RUNNING: ContextVar[RunningGame | None] = ContextVar("medviz_running_game", default=None)


def running_game() -> RunningGame | None:
    """The innermost game being run in this thread (None outside ``run``)."""
    return _RUNNING.get()


def run(spec: GameSpec, start: Snapshot | None = None, prefix: Iterable[Event] = (), *,
        keep_snapshots: bool = True, pause_when: Callable[[Context], bool] | None = None) -> RunResult:
    """Run a game from its setup, or from ``start`` with ``prefix`` (the events before it).

    A policy that raises ``AwaitingDecision`` pauses the run: the result holds the events up to
    that decision, the live state and ``pending`` (the decision point nobody has answered yet).
    ``keep_snapshots=False`` (a continuation nobody will branch) skips the copies; the events and
    the final state are the same. ``pause_when`` is asked at every task boundary (the tasks still to
    run on ``ctx.agenda``; read the context, never change it): True stops the run there, and the
    result's ``paused`` snapshot, given back with the events as ``run(spec, paused, events)``, plays
    the rest of the same game.
    """
    rs = spec.ruleset
    if start is None:
        state, agenda_list = rs.setup(spec.scenario, spec.options)
        agenda = list(reversed(agenda_list))
        ctx = Context(spec, state, agenda, [])
    else:
        ctx = Context(spec, rs.copy_state(start.state), list(start.agenda), list(prefix),
                      start.turn, start.phase)
    snapshots: list[Snapshot] = []
    full: Snapshot | None = None  # the latest snapshot with a full copy of the state
    steps = 0
    token = _RUNNING.set(RunningGame(spec, ctx.events, snapshots))
    try:
        while ctx.agenda:
            if pause_when is not None and pause_when(ctx):
                paused = Snapshot(len(ctx.events), ctx.state, tuple(ctx.agenda), ctx.turn, ctx.phase)
                return RunResult(ctx.events, snapshots, ctx.state, paused=paused)
            steps += 1
            if steps > MAX_TASKS:
                raise RuntimeError("the game did not end: too many tasks (a loop in the rule flow?)")
            task = ctx.agenda.pop()
            # Without ``keep_snapshots`` only the first is kept (a look-ahead then re-runs from it).
            if (keep_snapshots and task.checkpoint) or not snapshots:
                seq = len(ctx.events)
                if full is None or seq - full.seq >= FOLD_EVERY:
                    full = Snapshot(seq, rs.copy_state(ctx.state), tuple(ctx.agenda) + (task,), ctx.turn, ctx.phase)
                    snapshots.append(full)
                else:
                    snapshots.append(Snapshot.folded(seq, full, tuple(ctx.events[full.seq:seq]), rs,
                                                     tuple(ctx.agenda) + (task,), ctx.turn, ctx.phase))
            try:
                rs.run_task(task, ctx.state, ctx)
            except AwaitingDecision as pause:
                return RunResult(ctx.events, snapshots, ctx.state, pending=pause.point)
            except AwaitingChance as pause:
                return RunResult(ctx.events, snapshots, ctx.state, pending_chance=pause.ask)
    finally:
        _RUNNING.reset(token)
    return RunResult(ctx.events, snapshots, ctx.state)


def check_overrides_used(overrides: Mapping[str, Any], events: Sequence[Event]) -> None:
    """Every override must address a roll or draw that happens; else name it and the near misses."""
    if not overrides:  # nothing to check: skip listing every roll, draw and shuffle place
        return
    happened = chance_keys(events)
    have = set(happened)
    for key in overrides:
        if key not in have:
            close = difflib.get_close_matches(key, happened, n=3, cutoff=0.5)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise UnknownReference(f"roll id {key!r} never happens in this game{hint}")
