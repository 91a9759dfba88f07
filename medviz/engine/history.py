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
import math
import re
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, cast

from medviz.engine import dice as _dice
from medviz.engine.errors import DataError, MalformedInput, MedvizError, UnknownReference
from medviz.engine.events import (
    ChangeEvent,
    DecisionEvent,
    DrawEvent,
    Event,
    PhaseEvent,
    ReportEvent,
    RollEvent,
    ShuffleEvent,
    event_from_dict,
    expect,
    has_type,
    json_type,
    thaw,
)
from medviz.engine.files import read_text, write_atomic
from medviz.engine.game import (
    GameSpec,
    RunResult,
    Ruleset,
    Snapshot,
    chance_event,
    chance_keys,
    chance_value,
    check_overrides_used,
    run,
)
from medviz.engine.policy import HumanSeat, Policy, ScriptedPolicy, parse_policy
from medviz.engine.registry import get_ruleset

FORMAT = "medviz-history"
#: One history per file: the game's events (every file medviz wrote before branch trees).
VERSION = 1
#: A whole branch tree in one file: the root game (as version 1) plus ``tree``, each branch by its
#: override; branches re-run on load from their parents, so they cost a few bytes each.
TREE_VERSION = 2



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

    def describe(self, event: Event | int, seat: str | None = None) -> str:
        """One event in plain words; with ``seat``, only what that seat may know (``Ruleset.describe_for``)."""
        e = self.events[event] if isinstance(event, int) else event
        if seat is not None:
            return self.ruleset.describe_for(self.final_state, e, seat)
        return self.ruleset.describe_in(self.final_state, e)

    # -- indexes -----------------------------------------------------------------------------
    def rolls(self) -> list[RollEvent | DrawEvent]:
        """Every roll and random draw, in order; each knows its probability."""
        return [e for e in self.events if isinstance(e, (RollEvent, DrawEvent))]

    def roll(self, roll_id: str) -> RollEvent | DrawEvent | ShuffleEvent:
        """The roll, draw or shuffle that ``roll_id`` addresses (a card: ``<shuffle>/<n>``); else ``UnknownReference``."""
        found = _chance_index(self.events).find(roll_id)
        if found is not None:
            return found
        import difflib

        close = difflib.get_close_matches(roll_id, chance_keys(self.events), n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise UnknownReference(f"roll id {roll_id!r} never happens in this history{hint}")

    def value_of(self, roll_id: str) -> Any:
        """What the roll, draw or card place ``roll_id`` shows in this history."""
        return chance_value(self.roll(roll_id), roll_id)

    def shuffles(self) -> list[ShuffleEvent]:
        """Every shuffled deck, in order; card ``n`` of one is addressed ``<shuffle>/<n>``."""
        return [e for e in self.events if isinstance(e, ShuffleEvent)]

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
        elif isinstance(target, ShuffleEvent):
            if value not in target.cards:
                raise MalformedInput(f"card {roll_id}: {value!r} is not in the deck "
                                     f"({', '.join(sorted(set(target.cards)))})")
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
        happened = set(chance_keys(result.events))
        if not happened >= set(spec.overrides):  # an earlier branch's roll this change removed: drop it
            spec = replace(spec, overrides={k: v for k, v in spec.overrides.items() if k in happened})
        snapshots = [s for s in self.snapshots if s.seq < snap.seq] + [
            s for s in result.snapshots if s.seq >= snap.seq
        ]
        child = _history(spec, result, parent=self, override=(roll_id, value), snapshots=snapshots,
                         replayed_from=snap.seq)
        self.children.append(child)
        return child

    # -- JSON --------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The history as plain JSON data (what each field vouches for: docs/file-formats.md)."""
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

    # -- the whole variation tree in one file ------------------------------------------------
    def path(self) -> list[int]:
        """Where this history sits in its tree: the child index at each step from the root."""
        out: list[int] = []
        h = self
        while h.parent is not None:
            out.append(h.parent.children.index(h))
            h = h.parent
        return out[::-1]

    def tree_dict(self) -> dict[str, Any]:
        """The whole branch tree of this history as JSON data (format version ``TREE_VERSION``).

        The root game is written in full; each branch as its override and outcome, its own branches
        inside it; ``current`` is this history's place (``path``), so loading returns it.
        """
        root = self.root
        data = root.to_dict()
        data["version"] = TREE_VERSION
        data["tree"] = {"branches": [_branch_node(c) for c in root.children], "current": self.path()}
        return data

    def tree_json(self, indent: int | None = None) -> str:
        """Canonical JSON text of the whole tree (see ``tree_dict``)."""
        return json.dumps(self.tree_dict(), ensure_ascii=False, indent=indent,
                          separators=(",", ":") if indent is None else None) + "\n"

    def save_tree(self, path: str | Path) -> None:
        """Write the whole branch tree atomically; ``History.load`` gives it back, at this history."""
        write_atomic(path, self.tree_json())

    @classmethod
    def from_json(cls, text: str, where: str = "history") -> History:
        """Parse and check a history; it is replayed, so a file that does not replay is refused.

        Total: any text that is not a history this medviz would write raises ``MalformedInput``
        naming ``where``, the place in the file and what is wrong (docs/file-formats.md).
        """
        return cls.from_dict(parse_json(text, where), where)

    @classmethod
    def from_dict(cls, data: Any, where: str = "history") -> History:
        """Rebuild a history from its JSON data (see ``from_json``); a tree file gives its current node."""
        if isinstance(data, Mapping) and data.get("version") == TREE_VERSION and data.get("format") == FORMAT:
            return _from_tree(cls, data, where)
        ruleset = _check_header(data, where)
        players = _check_players(data["players"], ruleset, data["scenario"], where)
        overrides: dict[str, Any] = dict(data["overrides"])
        events = [event_from_dict(e, f"{where}: events[{i}]") for i, e in enumerate(data["events"])]
        for i, e in enumerate(events):
            if e.seq != i:
                raise MalformedInput(f"{where}: events[{i}].seq: is {e.seq}; events are numbered 0..n-1")
        _check_sources(events, data["players"], where)
        # Decisions labelled ``policy`` are asked again of the named players, so the players and
        # those labels are checked. A branch reuses its parent's choices after a changed roll
        # (still labelled ``policy``), so there only the decisions before the first changed roll
        # (which the root game made) are asked again; the rest replay as recorded.
        reask = {actor for actor, spec in data["players"].items() if not spec.startswith(("human", "scripted/"))}
        changed = [c.seq for key in overrides if (c := chance_event(events, key)) is not None]
        reask_before = len(events) if data["parent"] is None else min(changed, default=len(events))
        made = [e for e in events if isinstance(e, DecisionEvent) and e.source != "forced"
                and not (e.source == "policy" and e.actor in reask and e.seq < reask_before)]
        recorded = {e.decision: (e.actor or "", e.choice) for e in made}
        sources = {e.decision: e.source for e in made}
        # A branch that found its parent's choice illegal recorded that; replay the same refusal.
        for e in events:
            if isinstance(e, ReportEvent) and e.report == "recorded-choice-illegal" \
                    and isinstance(e.data.get("decision"), str) and "choice" in e.data:
                recorded[e.data["decision"]] = (e.actor or "", e.data["choice"])
        # Dice and draws entered at a real table (record mode) stand for the seed's natural values.
        entered = {e.roll if isinstance(e, RollEvent) else e.draw: e.natural for e in events
                   if isinstance(e, (RollEvent, DrawEvent)) and e.source == "entered"}
        spec = GameSpec(ruleset, data["scenario"], data["options"], data["seed"], players, overrides,
                        recorded, sources, entered)
        result = _replay(spec, data["events"], where)
        outcome = ruleset.outcome(result.state)
        if _canonical(outcome) != _canonical(data["outcome"]):
            raise MalformedInput(f"{where}: outcome: does not match the replayed game's outcome "
                                 f"({_first_difference(data['outcome'], thaw(outcome))})")
        for key in overrides:
            if _roll_event(result.events, key) is None:
                raise MalformedInput(f"{where}: overrides.{_field(key)}: roll id {_short(key)} never happens in this game")
        override, replayed_from = _check_parent(data["parent"], overrides, result, where)
        return _history(spec, result, override=override, replayed_from=replayed_from)

    @classmethod
    def load(cls, path: str | Path) -> History:
        """Read a history file; a missing, malformed or truncated file is ``MalformedInput``."""
        return cls.from_json(read_text(path, "history file"), str(path))


def _branch_node(h: History) -> dict[str, Any]:
    assert h.override is not None
    return {"roll": h.override[0], "value": h.override[1], "outcome": h.outcome,
            "branches": [_branch_node(c) for c in h.children]}


def _from_tree(cls: type[History], data: Mapping[str, Any], where: str) -> History:
    """A tree file: the root (checked like any history), then every branch re-run from its parent."""
    tree = data.get("tree")
    if not isinstance(tree, Mapping) or set(tree) != {"branches", "current"}:
        raise MalformedInput(f"{where}: tree: expected an object with branches and current")
    if data.get("parent") is not None:
        raise MalformedInput(f"{where}: parent: a tree file starts at its root game (parent null)")
    root = cls.from_dict({k: (VERSION if k == "version" else v) for k, v in data.items() if k != "tree"}, where)
    _grow(root, tree["branches"], f"{where}: tree.branches")
    expect(tree["current"], "list", f"{where}: tree.current")
    node = root
    for i, step in enumerate(tree["current"]):
        if not has_type(step, "int") or not 0 <= step < len(node.children):
            raise MalformedInput(f"{where}: tree.current[{i}]: {_short(step)} is not a branch index here "
                                 f"(0..{len(node.children) - 1})")
        node = node.children[step]
    return node


def _grow(parent: History, nodes: Any, where: str) -> None:
    expect(nodes, "list", where)
    for i, node in enumerate(nodes):
        here = f"{where}[{i}]"
        expect(node, "object", here)
        if set(node) != {"roll", "value", "outcome", "branches"}:
            raise MalformedInput(f"{here}: expected the fields roll, value, outcome and branches, "
                                 f"got {_short(sorted(map(str, node)))}")
        expect(node["roll"], "str", f"{here}.roll")
        if not (isinstance(node["value"], str) or has_type(node["value"], "int")):
            raise MalformedInput(f"{here}.value: expected a whole number or text, got {json_type(node['value'])}")
        if any(c.override == (node["roll"], node["value"]) for c in parent.children):
            raise MalformedInput(f"{here}: the branch {node['roll']} = {_short(node['value'])} appears twice")
        try:
            child = parent.branch(node["roll"], node["value"])
        except MedvizError as exc:
            raise MalformedInput(f"{here}: {str(exc).splitlines()[0]}") from None
        if _canonical(child.outcome) != _canonical(node["outcome"]):
            raise MalformedInput(f"{here}.outcome: does not match the branch's replayed outcome "
                                 f"({_first_difference(node['outcome'], thaw(child.outcome))})")
        _grow(child, node["branches"], f"{here}.branches")


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


#: Deepest nesting of arrays and objects a history file may have (a real one has about 8).
MAX_DEPTH = 200
_HEADER = ("format", "version", "game", "scenario", "seed", "options", "players", "overrides", "parent",
           "events", "outcome")
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def parse_json(text: str, where: str = "file") -> Any:
    """JSON text to data; bad syntax, nesting deeper than ``MAX_DEPTH``, integers too long for
    Python's int conversion, NaN and infinities are ``MalformedInput`` naming ``where`` and the line."""
    if not isinstance(text, str):
        raise MalformedInput(f"{where}: expected JSON text, got {type(text).__name__}")
    _check_depth(text, where)
    try:
        return json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
    except json.JSONDecodeError as exc:
        raise MalformedInput(f"{where}: line {exc.lineno}, column {exc.colno}: not valid JSON ({exc.msg}); "
                             f"truncated?") from None
    except _BadNumber as exc:
        raise MalformedInput(f"{where}: {_place(text, exc.token)}: {exc.token[:20]!s} is not a finite "
                             f"number") from None
    except ValueError:  # Python's limit on int-string conversion (sys.get_int_max_str_digits)
        limit = sys.get_int_max_str_digits()
        raise MalformedInput(f"{where}: {_place(text, None, limit)}: a number with more than {limit} "
                             f"digits") from None
    except RecursionError:
        raise MalformedInput(f"{where}: nesting too deep for a medviz file") from None


class _BadNumber(ValueError):
    def __init__(self, token: str) -> None:
        self.token = token
        super().__init__(token)


def _refuse_constant(token: str) -> Any:
    raise _BadNumber(token)


def _finite_float(token: str) -> float:
    value = float(token)
    if not math.isfinite(value):
        raise _BadNumber(token)
    return value


def _line_col(text: str, pos: int) -> str:
    line = text.count("\n", 0, pos) + 1
    return f"line {line}, column {pos - text.rfind(chr(10), 0, pos)}"


def _place(text: str, token: str | None, digits: int = 0) -> str:
    """Line and column of the first ``token`` (or integer longer than ``digits``) outside strings."""
    wanted = re.escape(token) if token is not None else r"-?[0-9]{%d,}" % (digits + 1)
    for m in re.finditer(f"{_STRING.pattern}|{wanted}", text):
        if not m.group().startswith('"'):
            return _line_col(text, m.start())
    return "somewhere"


def _check_depth(text: str, where: str) -> None:
    """Refuse nesting deeper than ``MAX_DEPTH`` before ``json.loads`` recurses into it (cheap scan)."""
    skeleton = _NOT_BRACKET.sub("", _STRING.sub("", text))
    if len(skeleton) <= MAX_DEPTH:
        return
    depth = 0
    for c in skeleton:
        depth += 1 if c in "[{" else -1
        if depth > MAX_DEPTH:
            break
    else:
        return
    depth = 0  # the slow scan, only for a file that is refused: where does it get too deep?
    for m in re.finditer(f"{_STRING.pattern}|[\\[\\]{{}}]", text):
        c = m.group()
        if c in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise MalformedInput(f"{where}: {_line_col(text, m.start())}: nested deeper than {MAX_DEPTH} "
                                     f"levels; no medviz file is")
        elif c in "]}":
            depth -= 1
    raise MalformedInput(f"{where}: nested deeper than {MAX_DEPTH} levels; no medviz file is")


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _field(key: Any) -> str:
    """A file's key as it goes into a field path: plain when printable, else quoted (one line)."""
    text = str(key)
    return text if text and text.isprintable() and len(text) <= 60 else _short(text)


def _check_header(data: Any, where: str) -> Ruleset:
    """Check every field of a history but the events' contents, each for its JSON type."""
    if not isinstance(data, Mapping):
        raise MalformedInput(f"{where}: expected a JSON object at the top level, got {json_type(data)}")
    if data.get("format") != FORMAT:
        raise MalformedInput(f"{where}: format: not a medviz history (format is {_short(data.get('format'))}, "
                             f"expected {FORMAT!r})")
    version = data.get("version")
    if not has_type(version, "int") or version != VERSION:
        why = ""
        if isinstance(version, int) and not isinstance(version, bool):
            why = ("; it is an older format: play the game again to save it in the current one" if version < VERSION
                   else "; it was saved by a newer medviz" if version > TREE_VERSION else "")
        raise MalformedInput(f"{where}: version: history version {_short(version)} is not supported "
                             f"(this medviz reads version {VERSION}, one history, and {TREE_VERSION}, a branch tree)"
                             f"{why}")
    extra = [k for k in data if k not in _HEADER]
    if extra:
        raise MalformedInput(f"{where}: unexpected field(s) {_short(sorted(map(str, extra)))}; "
                             f"a history has {', '.join(_HEADER)}")
    for key in _HEADER:
        if key not in data:
            raise MalformedInput(f"{where}: missing field {key!r}")
    for key, wanted in (("game", "str"), ("scenario", "str"), ("seed", "int"), ("options", "object"),
                        ("players", "object"), ("overrides", "object"), ("parent", "object?"),
                        ("events", "list"), ("outcome", "object")):
        expect(data[key], wanted, f"{where}: {key}")
    if data["seed"] < 0:
        raise MalformedInput(f"{where}: seed: {data['seed']} must be >= 0")
    for key, value in data["overrides"].items():
        if not (isinstance(value, str) or has_type(value, "int")):
            raise MalformedInput(f"{where}: overrides.{_field(key)}: expected a whole number or text, got {json_type(value)}")
    parent = data["parent"]
    if parent is not None:
        if set(parent) != {"override", "replayed_from"}:
            raise MalformedInput(f"{where}: parent: expected the fields override and replayed_from, "
                                 f"got {_short(sorted(map(str, parent)))}")
        expect(parent["override"], "object", f"{where}: parent.override")
        if set(parent["override"]) != {"roll", "value"}:
            raise MalformedInput(f"{where}: parent.override: expected the fields roll and value, "
                                 f"got {_short(sorted(map(str, parent['override'])))}")
        expect(parent["override"]["roll"], "str", f"{where}: parent.override.roll")
        value = parent["override"]["value"]
        if not (isinstance(value, str) or has_type(value, "int")):
            raise MalformedInput(f"{where}: parent.override.value: expected a whole number or text, "
                                 f"got {json_type(value)}")
        expect(parent["replayed_from"], "int", f"{where}: parent.replayed_from")
    try:
        ruleset = get_ruleset(data["game"])
    except UnknownReference as exc:
        raise MalformedInput(f"{where}: game: {exc}") from None
    return ruleset


def _check_players(given: Mapping[str, Any], ruleset: Ruleset, scenario: str, where: str) -> dict[str, Policy]:
    """Each player: text naming a known policy, written as medviz writes it; one per actor of the scenario."""
    players: dict[str, Policy] = {}
    for actor, spec in given.items():
        expect(spec, "str", f"{where}: players.{_field(actor)}")
        try:
            players[actor] = parse_player(spec, ruleset)
        except MedvizError as exc:
            raise MalformedInput(f"{where}: players.{_field(actor)}: {str(exc).splitlines()[0]}") from None
        if players[actor].spec != spec:
            raise MalformedInput(f"{where}: players.{_field(actor)}: {_short(spec)} is not how medviz writes this "
                                 f"player ({players[actor].spec!r})")
    try:
        wanted = tuple(ruleset.actors(scenario))
    except MedvizError as exc:
        raise MalformedInput(f"{where}: scenario: {str(exc).splitlines()[0]}") from None
    if sorted(players) != sorted(wanted):
        raise MalformedInput(f"{where}: players: expected one for each of {', '.join(wanted)}, "
                             f"got {_short(sorted(players))}")
    return players


def _check_sources(events: Sequence[Event], players: Mapping[str, str], where: str) -> None:
    """A decision labelled ``human`` belongs to an actor seated as ``human``; a forced one had one option."""
    for e in events:
        if not isinstance(e, DecisionEvent):
            continue
        if e.source == "human" and not str(players.get(e.actor or "", "")).startswith("human"):
            raise MalformedInput(f"{where}: events[{e.seq}].source: 'human', but players.{e.actor} is "
                                 f"{_short(players.get(e.actor or ''))}, not a human seat")
        if (e.source == "forced") != (e.legal_options == 1):
            raise MalformedInput(f"{where}: events[{e.seq}].source: {e.source!r} with {e.legal_options} legal "
                                 f"option(s); a decision is 'forced' exactly when it has one")


class EmbeddedDataError(DataError, MalformedInput):
    """Game data carried inside a history (a teacher's override files) failed validation; one line."""

    def __init__(self, problems: list[str], source: str) -> None:
        super().__init__(problems, source)
        self.args = (f"{source}: " + "; ".join(self.problems),)


class _Diverged(Exception):
    """A replay produced an event the file does not have (or more events than it has)."""

    def __init__(self, index: int, event: Event) -> None:
        self.index = index
        self.event = event
        super().__init__(index)


class _CheckedReplay:
    """A ruleset that checks, after each task of a replay, that every event so far is the file's.

    A tampered file is refused at its first wrong event instead of after a whole game.
    """

    def __init__(self, ruleset: Ruleset, expected: Sequence[Any], where: str) -> None:
        self._ruleset = ruleset
        self._expected = expected
        self._where = where
        self._done = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ruleset, name)

    def setup(self, scenario: str, options: Mapping[str, Any]) -> tuple[Any, list[Any]]:
        """The ruleset's set-up; options it cannot use are ``MalformedInput`` naming the file."""
        try:
            return self._ruleset.setup(scenario, options)
        except DataError:
            raise
        except MedvizError as exc:
            raise MalformedInput(f"{self._where}: options: {str(exc).splitlines()[0]}") from None
        except (TypeError, ValueError, KeyError, AttributeError, IndexError) as exc:
            raise MalformedInput(f"{self._where}: options: the {scenario} scenario cannot be set up from "
                                 f"them ({type(exc).__name__}: {exc})") from None

    def run_task(self, task: Any, state: Any, ctx: Any) -> None:
        """Run the task, then compare the new events with the file's."""
        self._ruleset.run_task(task, state, ctx)
        events = ctx.events
        for i in range(self._done, len(events)):
            if i >= len(self._expected) or _canonical(events[i].to_dict()) != _canonical(self._expected[i]):
                raise _Diverged(i, events[i])
        self._done = len(events)


def _canonical(value: Any) -> str:
    """JSON text with sorted keys: equal only for equal JSON values of equal types (1 is not 1.0 or true)."""
    try:
        return json.dumps(value, sort_keys=True, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        return repr(value)  # not JSON data: never equal to what a replay produces


def _first_difference(given: Any, replayed: Any, path: str = "") -> str:
    """The first place where the file's value and the replay's differ, in words."""
    if isinstance(given, Mapping) and isinstance(replayed, Mapping):
        for key in list(replayed) + [k for k in given if k not in replayed]:
            if key not in given:
                return f"{path}{_field(key)} is missing from the file"
            if key not in replayed:
                return f"{path}{_field(key)} is in the file but not in the replay"
            if _canonical(given[key]) != _canonical(replayed[key]):
                return _first_difference(given[key], replayed[key], f"{path}{_field(key)}.")
    if isinstance(given, list) and isinstance(replayed, list) and len(given) == len(replayed):
        for i, (a, b) in enumerate(zip(given, replayed)):
            if _canonical(a) != _canonical(b):
                return _first_difference(a, b, f"{path.rstrip('.')}[{i}].")
    where = path.rstrip(".") or "the value"
    return f"{where} is {_short(given)} in the file, {_short(replayed)} in the replay"


def _replay(spec: GameSpec, expected: Sequence[Any], where: str) -> RunResult:
    """Run ``spec`` and check its events against ``expected`` (the file's, as JSON data)."""
    checked = _CheckedReplay(spec.ruleset, expected, where)
    try:
        # The checker stands in for the ruleset by delegation (every other hook is the ruleset's own).
        result = run(GameSpec(cast(Ruleset, checked), spec.scenario, spec.options, spec.seed,
                              spec.players, spec.overrides, spec.recorded, spec.sources, spec.entered))
    except _Diverged as d:
        given = expected[d.index] if d.index < len(expected) else None
        what = (_first_difference(given, d.event.to_dict()) if given is not None
                else "the replay goes on past the file's last event")
        raise MalformedInput(
            f"{where}: events[{d.index}]: the events do not replay from the recorded seed, options, players and "
            f"choices ({what}); the file was edited or truncated, or it was saved by an older medviz whose "
            f"rules differed — play the game again to get a current file"
        ) from None
    except DataError as exc:
        if isinstance(exc, MalformedInput):
            raise
        raise EmbeddedDataError(exc.problems, f"{where}: options: {str(exc).splitlines()[0].rsplit(': ', 1)[0]}") from None
    except MedvizError as exc:
        if isinstance(exc, MalformedInput) and str(exc).startswith(f"{where}: "):
            raise
        raise MalformedInput(f"{where}: {str(exc).splitlines()[0]}") from None
    if result.pending is not None:
        p = result.pending
        raise MalformedInput(f"{where}: events: the game stops at decision {p.decision}, which awaits "
                             f"{p.actor}; the file records no choice there")
    if len(result.events) != len(expected):
        raise MalformedInput(
            f"{where}: events[{len(result.events)}]: the file has {len(expected)} events, the replay "
            f"{len(result.events)}; the file was edited or truncated"
        )
    return result


def _roll_event(events: Sequence[Event], roll_id: str) -> RollEvent | DrawEvent | ShuffleEvent | None:
    return chance_event(events, roll_id)


def _check_parent(parent: Mapping[str, Any] | None, overrides: Mapping[str, Any], result: RunResult,
                  where: str) -> tuple[tuple[str, Any] | None, int]:
    """The branch's changed roll and where it re-ran from, checked against the replay."""
    if parent is None:
        return None, 0
    roll, value = parent["override"]["roll"], parent["override"]["value"]
    target = _roll_event(result.events, roll)
    if target is None:
        raise MalformedInput(f"{where}: parent.override.roll: roll id {roll!r} never happens in this game")
    if roll not in overrides or _canonical(overrides[roll]) != _canonical(value):
        raise MalformedInput(f"{where}: parent.override: {roll} = {_short(value)} is not among the overrides "
                             f"({'missing' if roll not in overrides else _short(overrides[roll])} there)")
    if _canonical(chance_value(target, roll)) != _canonical(value):
        raise MalformedInput(f"{where}: parent.override.value: {_short(value)}, but the replayed roll shows "
                             f"{_short(chance_value(target, roll))}")
    keys = [s.seq for s in result.snapshots]
    replayed_from = keys[max(bisect.bisect_right(keys, target.seq) - 1, 0)]
    if parent["replayed_from"] != replayed_from:
        raise MalformedInput(f"{where}: parent.replayed_from: {parent['replayed_from']}, but a branch of "
                             f"{roll} re-runs from event {replayed_from} (the latest snapshot before it)")
    return (roll, value), replayed_from


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
    if result.pending_chance is not None:
        c = result.pending_chance
        raise MedvizError(f"the game stopped at {c.kind} {c.key}: nothing was entered for it; "
                          f"enter it at a medviz.engine.Recorder")
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


class _ChanceIndex:
    """The rolls, draws and shuffles of an events tuple by id, so ``History.roll`` finds one without a pass
    over the events (a dice lab looks its roll up a dozen times a click): what ``chance_event`` finds."""

    def __init__(self, events: tuple[Event, ...]) -> None:
        self.events = events
        self.ids: dict[str, tuple[int, RollEvent | DrawEvent]] = {}
        self.shuffles: dict[str, list[tuple[int, ShuffleEvent]]] = {}
        for i, e in enumerate(events):
            if isinstance(e, RollEvent):
                self.ids.setdefault(e.roll, (i, e))
            elif isinstance(e, DrawEvent):
                self.ids.setdefault(e.draw, (i, e))
            elif isinstance(e, ShuffleEvent):
                self.shuffles.setdefault(e.shuffle, []).append((i, e))

    def find(self, key: str) -> RollEvent | DrawEvent | ShuffleEvent | None:
        """The first roll, draw or shuffle that override id ``key`` addresses, as ``chance_event`` finds it."""
        hit: tuple[int, Any] | None = self.ids.get(key)
        deck, _slash, place = key.rpartition("/")
        if deck and place.isdigit():
            for i, e in self.shuffles.get(deck, ()):
                if 1 <= int(place) <= len(e.order):
                    if hit is None or i < hit[0]:
                        hit = (i, e)
                    break
        return hit[1] if hit is not None else None


#: The latest events tuples' chance indexes, by the tuple's id (each entry holds its tuple).
_CHANCE: dict[int, _ChanceIndex] = {}
CHANCE_KEEP = 16


def _chance_index(events: tuple[Event, ...]) -> _ChanceIndex:
    """The chance index of ``events`` (made once while among the latest ``CHANCE_KEEP``)."""
    hit = _CHANCE.get(id(events))
    if hit is not None and hit.events is events:
        return hit
    index = _ChanceIndex(events)
    if isinstance(events, tuple):  # a list could change under its id: indexed afresh each time
        _CHANCE[id(events)] = index
        while len(_CHANCE) > CHANCE_KEEP:
            del _CHANCE[next(iter(_CHANCE))]
    return index


def diff(a: History, b: History) -> HistoryDiff:
    """The first event at which ``a`` and ``b`` differ, and every outcome field that changed."""
    first = None
    for i, (x, y) in enumerate(zip(a.events, b.events)):
        if x is not y and x != y:  # a branch shares its parent's events before the snapshot it re-ran from
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
