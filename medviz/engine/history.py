"""Histories: the append-only record of a game, its snapshots, its branches, and JSON I/O.

``play()`` runs a game and returns a ``History``. ``History.branch(roll_id, value)`` changes
one die and re-runs from the latest snapshot before that roll; branches form a tree like
python-chess's PGN variations. ``diff(a, b)`` says where two histories part and how their
outcomes differ. A history saves to JSON (format ``medviz-history``) and loads back exactly;
loading replays the game to rebuild snapshots and to check that the file is consistent.
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from medviz.engine import dice as _dice
from medviz.engine.errors import MalformedInput, MedvizError, UnknownReference
from medviz.engine.events import (
    ChangeEvent,
    DecisionEvent,
    DrawEvent,
    Event,
    PhaseEvent,
    ReportEvent,
    RollEvent,
    event_from_dict,
    thaw,
)
from medviz.engine.files import read_text, write_atomic
from medviz.engine.game import GameSpec, RunResult, Ruleset, Snapshot, check_overrides_used, run
from medviz.engine.policy import HumanSeat, Policy, ScriptedPolicy, parse_policy
from medviz.engine.registry import get_ruleset

FORMAT = "medviz-history"
VERSION = 1



@dataclass(frozen=True, slots=True)
class PhaseSpan:
    """A phase of the history: events ``start`` to ``end`` (exclusive)."""

    turn: int | None
    phase: str
    start: int
    end: int


@dataclass
class History:
    """A finished game: its events, outcome, snapshots and place in the branch tree."""

    spec: GameSpec
    events: tuple[Event, ...]
    outcome: dict[str, Any]
    snapshots: list[Snapshot]
    final_state: Any
    parent: History | None = None
    override: tuple[str, Any] | None = None
    replayed_from: int = 0
    children: list[History] = field(default_factory=list)

    # -- basic facts -------------------------------------------------------------------------
    @property
    def game(self) -> str:
        return self.spec.ruleset.game

    @property
    def scenario(self) -> str:
        return self.spec.scenario

    @property
    def seed(self) -> int:
        return self.spec.seed

    @property
    def ruleset(self) -> Ruleset:
        return self.spec.ruleset

    def __len__(self) -> int:
        return len(self.events)

    def __getitem__(self, seq: int) -> Event:
        return self.events[seq]

    def __iter__(self) -> Iterator[Event]:
        return iter(self.events)

    def __repr__(self) -> str:
        where = f", override={self.override!r}" if self.override else ""
        return f"<History {self.game}/{self.scenario} seed={self.seed} events={len(self.events)}{where}>"

    def describe(self, event: Event | int) -> str:
        """One event in plain words."""
        e = self.events[event] if isinstance(event, int) else event
        return self.ruleset.describe_in(self.final_state, e)

    # -- indexes -----------------------------------------------------------------------------
    def rolls(self) -> list[RollEvent | DrawEvent]:
        """Every roll and random draw, in order; each knows its probability."""
        return [e for e in self.events if isinstance(e, (RollEvent, DrawEvent))]

    def roll(self, roll_id: str) -> RollEvent | DrawEvent:
        """The roll (or draw) with this id; ``UnknownReference`` if it never happened."""
        for e in self.events:
            if isinstance(e, RollEvent) and e.roll == roll_id or isinstance(e, DrawEvent) and e.draw == roll_id:
                return e
        import difflib

        close = difflib.get_close_matches(roll_id, [getattr(e, "roll", "") or getattr(e, "draw", "") for e in self.rolls()], n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise UnknownReference(f"roll id {roll_id!r} never happens in this history{hint}")

    def decisions(self) -> list[DecisionEvent]:
        """Every decision, in order."""
        return [e for e in self.events if isinstance(e, DecisionEvent)]

    def phases(self) -> list[PhaseSpan]:
        """The phases in order, each with its event range."""
        starts = [e for e in self.events if isinstance(e, PhaseEvent)]
        spans = []
        for i, e in enumerate(starts):
            end = starts[i + 1].seq if i + 1 < len(starts) else len(self.events)
            spans.append(PhaseSpan(e.turn, e.name, e.seq, end))
        return spans

    def events_in(self, turn: int | None = None, phase: str | None = None) -> list[Event]:
        """Events of a turn and/or phase."""
        return [e for e in self.events
                if (turn is None or e.turn == turn) and (phase is None or e.phase == phase)]

    # -- state -------------------------------------------------------------------------------
    def state_at(self, seq: int) -> Any:
        """The state just after event ``seq`` (-1: before any event).

        Cost: a copy of the nearest snapshot plus the change events since it; never a replay
        from the start.
        """
        if not -1 <= seq < len(self.events):
            raise UnknownReference(f"event {seq} is outside this history (0..{len(self.events) - 1})")
        keys = [s.seq for s in self.snapshots]
        i = bisect.bisect_right(keys, seq + 1) - 1
        snap = self.snapshots[max(i, 0)]
        state = self.ruleset.copy_state(snap.state)
        for e in self.events[snap.seq: seq + 1]:
            if isinstance(e, ChangeEvent):
                self.ruleset.apply(state, e)
        return state

    # -- branching ---------------------------------------------------------------------------
    @property
    def root(self) -> History:
        """The first history of this branch tree."""
        h = self
        while h.parent is not None:
            h = h.parent
        return h

    def lineage(self) -> list[History]:
        """From the root to this history."""
        out = [self]
        while out[-1].parent is not None:
            parent = out[-1].parent
            assert parent is not None
            out.append(parent)
        return out[::-1]

    def branch(self, roll_id: str, value: Any) -> History:
        """A new history in which roll ``roll_id`` shows ``value``; re-run from the latest snapshot.

        Recorded decisions are reused while they are still legal; otherwise the players decide,
        and the history says so. The branch becomes a child of this history.
        """
        target = self.roll(roll_id)
        if isinstance(target, RollEvent):
            value = _dice.check_value(target.dice, value, f"roll {roll_id}: ")
        elif value not in target.pool:
            raise MalformedInput(
                f"draw {roll_id}: {value!r} is not in the pool ({', '.join(sorted(set(target.pool)))})"
            )
        for child in self.children:
            if child.override == (roll_id, value):
                return child
        made = [e for e in self.decisions() if e.source != "forced"]
        spec = self.spec.with_override(roll_id, value, {e.decision: (e.actor or "", e.choice) for e in made},
                                       {e.decision: e.source for e in made})
        keys = [s.seq for s in self.snapshots]
        i = bisect.bisect_right(keys, target.seq) - 1
        snap = self.snapshots[max(i, 0)]
        result = run(spec, snap, self.events[: snap.seq])
        snapshots = [s for s in self.snapshots if s.seq < snap.seq] + [
            s for s in result.snapshots if s.seq >= snap.seq
        ]
        child = _history(spec, result, parent=self, override=(roll_id, value), snapshots=snapshots,
                         replayed_from=snap.seq)
        self.children.append(child)
        return child

    # -- JSON --------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The history as plain JSON data (see the history contract in docs/history-format.md)."""
        parent = None
        if self.override is not None:
            parent = {"override": {"roll": self.override[0], "value": self.override[1]},
                      "replayed_from": self.replayed_from}
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "scenario": self.scenario,
            "seed": self.seed,
            "options": thaw(self.spec.options),
            "players": {actor: p.spec for actor, p in sorted(self.spec.players.items())},
            "overrides": thaw(self.spec.overrides),
            "parent": parent,
            "events": [e.to_dict() for e in self.events],
            "outcome": self.outcome,
        }

    def to_json(self, indent: int | None = None) -> str:
        """Canonical JSON text: the same game gives the same bytes."""
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent,
                          separators=(",", ":") if indent is None else None) + "\n"

    def save(self, path: str | Path) -> None:
        """Write the JSON atomically (temporary file, then rename): never a half-written file."""
        write_atomic(path, self.to_json())

    @classmethod
    def from_json(cls, text: str, where: str = "history") -> History:
        """Parse and check a history; it is replayed, so a file that does not replay is refused."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise MalformedInput(f"{where}: not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno}); truncated?") from None
        return cls.from_dict(data, where)

    @classmethod
    def from_dict(cls, data: Any, where: str = "history") -> History:
        """Rebuild a history from its JSON data (see ``from_json``)."""
        if not isinstance(data, Mapping):
            raise MalformedInput(f"{where}: expected a JSON object at the top level")
        if data.get("format") != FORMAT:
            raise MalformedInput(f"{where}: not a medviz history (format is {data.get('format')!r}, expected {FORMAT!r})")
        if data.get("version") != VERSION:
            raise MalformedInput(
                f"{where}: history version {data.get('version')!r} is not supported (this medviz reads version {VERSION})"
            )
        for key in ("game", "scenario", "seed", "options", "players", "events", "outcome"):
            if key not in data:
                raise MalformedInput(f"{where}: missing field {key!r}")
        if not isinstance(data["seed"], int) or isinstance(data["seed"], bool):
            raise MalformedInput(f"{where}: 'seed' must be a whole number")
        if not isinstance(data["events"], list):
            raise MalformedInput(f"{where}: 'events' must be a list")
        ruleset = get_ruleset(str(data["game"]))
        players: dict[str, Policy] = {}
        if not isinstance(data["players"], Mapping):
            raise MalformedInput(f"{where}: 'players' must be an object")
        for actor, spec in data["players"].items():
            players[actor] = parse_player(str(spec), ruleset)
        events = [event_from_dict(e, f"{where}: events[{i}]") for i, e in enumerate(data["events"])]
        for i, e in enumerate(events):
            if e.seq != i:
                raise MalformedInput(f"{where}: events[{i}] has seq {e.seq}; events must be numbered 0..n-1")
        made = [e for e in events if isinstance(e, DecisionEvent) and e.source != "forced"]
        recorded = {e.decision: (e.actor or "", e.choice) for e in made}
        sources = {e.decision: e.source for e in made}
        # A branch that found its parent's choice illegal recorded that; replay the same refusal.
        for e in events:
            if isinstance(e, ReportEvent) and e.report == "recorded-choice-illegal":
                recorded[e.data["decision"]] = (e.actor or "", e.data["choice"])
        overrides = data.get("overrides") or {}
        if not isinstance(overrides, Mapping):
            raise MalformedInput(f"{where}: 'overrides' must be an object")
        spec = GameSpec(ruleset, str(data["scenario"]), data["options"], data["seed"], players,
                        dict(overrides), recorded, sources)
        result = run(spec)
        if [e.to_dict() for e in result.events] != [e.to_dict() for e in events]:
            first = next((i for i, (a, b) in enumerate(zip(result.events, events)) if a.to_dict() != b.to_dict()),
                         min(len(result.events), len(events)))
            raise MalformedInput(
                f"{where}: the events do not replay from the recorded seed, options and choices "
                f"(first mismatch at event {first}); the file was edited or truncated, or it was saved by an "
                f"older medviz whose rules differed (e.g. a whole game saved before the players chose their "
                f"set-up) — play the game again to get a current file"
            )
        override = None
        replayed_from = 0
        parent = data.get("parent")
        if isinstance(parent, Mapping) and isinstance(parent.get("override"), Mapping):
            override = (parent["override"].get("roll"), parent["override"].get("value"))
            replayed_from = int(parent.get("replayed_from", 0))
        h = _history(spec, result, override=override, replayed_from=replayed_from)
        return h

    @classmethod
    def load(cls, path: str | Path) -> History:
        """Read a history file; a missing, malformed or truncated file is ``MalformedInput``."""
        return cls.from_json(read_text(path, "history file"), str(path))


def parse_player(spec: str, ruleset: Ruleset) -> Policy:
    """Rebuild a saved player from its spec; ``human/...`` and ``scripted/...`` included.

    A human's (or a script's) choices are all on record in the events, which a replay reuses;
    what is rebuilt is the player for decisions a branch asks anew: the fallback after the
    slash (a bare ``human`` seat pauses, see ``medviz.engine.table``).
    """
    if spec == "human" or spec.startswith("human/"):
        rest = spec[len("human/"):]
        return HumanSeat(fallback=parse_player(rest, ruleset) if rest else None)
    if spec.startswith("scripted/"):  # its script is the recorded choices; the spec round-trips
        return ScriptedPolicy({}, parse_player(spec[len("scripted/"):], ruleset))
    return parse_policy(spec, ruleset.policies)


def _history(spec: GameSpec, result: RunResult, *, parent: History | None = None,
             override: tuple[str, Any] | None = None, snapshots: list[Snapshot] | None = None,
             replayed_from: int = 0) -> History:
    if result.pending is not None:
        p = result.pending
        where = f" (turn {p.turn}, {p.phase})" if p.turn is not None else ""
        raise MedvizError(
            f"the game stopped at decision {p.decision}{where}: it awaits player {p.actor}, who has no "
            f"computer stand-in; play it at a medviz.engine.Table"
        )
    return History(spec, tuple(result.events), spec.ruleset.outcome(result.state),
                   snapshots if snapshots is not None else result.snapshots, result.state,
                   parent=parent, override=override, replayed_from=replayed_from)


def play(ruleset: Ruleset, scenario: str, options: Mapping[str, Any], *, seed: int = 0,
         players: Mapping[str, Policy], overrides: Mapping[str, Any] | None = None,
         recorded: Mapping[str, tuple[str, Any]] | None = None) -> History:
    """Run a game to its end and return its history; overrides must name rolls that happen."""
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise MalformedInput(f"seed {seed!r} must be a whole number >= 0")
    spec = GameSpec(ruleset, scenario, options, seed, dict(players), dict(overrides or {}),
                    dict(recorded or {}))
    result = run(spec)
    check_overrides_used(spec.overrides, result.events)
    return _history(spec, result)


@dataclass(frozen=True)
class HistoryDiff:
    """Where two histories part and how their outcomes differ."""

    first_divergence: int | None
    a_event: Event | None
    b_event: Event | None
    outcome_changes: dict[str, tuple[Any, Any]]

    @property
    def identical(self) -> bool:
        return self.first_divergence is None and not self.outcome_changes

    def summary(self, describe: Any = None) -> str:
        """A short plain-words account of the difference."""
        if self.identical:
            return "The two histories are identical."
        lines = []
        if self.first_divergence is not None:
            lines.append(f"They part at event {self.first_divergence}:")
            for label, e in (("A", self.a_event), ("B", self.b_event)):
                text = describe(e) if (describe and e is not None) else (repr(e.to_dict()) if e else "(ended)")
                lines.append(f"  {label}: {text}")
        for key, (x, y) in self.outcome_changes.items():
            lines.append(f"  {key}: {x!r} -> {y!r}")
        return "\n".join(lines)


def diff(a: History, b: History) -> HistoryDiff:
    """The first event at which ``a`` and ``b`` differ, and every outcome field that changed."""
    first = None
    for i, (x, y) in enumerate(zip(a.events, b.events)):
        if x != y:
            first = i
            break
    else:
        if len(a.events) != len(b.events):
            first = min(len(a.events), len(b.events))
    changes = _outcome_changes(a.outcome, b.outcome)
    ea = a.events[first] if first is not None and first < len(a.events) else None
    eb = b.events[first] if first is not None and first < len(b.events) else None
    return HistoryDiff(first, ea, eb, changes)


def _outcome_changes(a: Any, b: Any, prefix: str = "") -> dict[str, tuple[Any, Any]]:
    out: dict[str, tuple[Any, Any]] = {}
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        for key in list(a) + [k for k in b if k not in a]:
            out.update(_outcome_changes(a.get(key), b.get(key), f"{prefix}{key}."))
        return out
    if a != b:
        out[prefix.rstrip(".")] = (a, b)
    return out


def events_equal(a: Sequence[Event], b: Sequence[Event]) -> bool:
    """True when two event lists are equal field by field."""
    return len(a) == len(b) and all(x == y for x, y in zip(a, b))
