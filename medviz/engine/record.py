"""Record mode: a game played on a real table, entered into a history as the table plays.

A ``Recorder`` seats a human at every side and runs the game with ``GameSpec.ask_chance``: it
pauses at each decision (``pending``) and at each roll or draw (``pending_chance``), and waits
for what the table decided or what its physical dice showed. Each entry is checked at once: an
illegal choice is refused with its rule (``Ruleset.refusal``), a die outside its range or an item
not in the cup is refused. ``undo`` takes back the last entry (or last computer-answered run).

The entries so far are the whole record: ``to_json``/``save`` write them (a *recording*, format
``medviz-recording``), ``Recorder.load`` reads them back and continues where the table stopped.
Once the game is over, ``history`` is an ordinary ``History``: its entered rolls and draws say
``source: "entered"`` and stand for the seed's natural values, so it replays, branches ("what if
our 2 had been a 5?") and exports like any other. ``Recorder.from_history`` continues from such a
finished history too (e.g. to undo its last entry).

Cost: an entry re-runs the game from the latest snapshot before the pause (a fraction of a
turn); an undo or a load re-runs it from the set-up.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from medviz.engine import dice as _dice
from medviz.engine.errors import IllegalAction, MalformedInput, MedvizError
from medviz.engine.events import DecisionEvent, DrawEvent, Event, ReportEvent, RollEvent, freeze, thaw
from medviz.engine.files import read_text, write_atomic
from medviz.engine.game import ChanceAsk, GameSpec, RunResult, Ruleset, Snapshot, run
from medviz.engine.history import History, _history, parse_player
from medviz.engine.policy import DecisionPoint, FirstOptionPolicy, HumanSeat, Policy, option_index, option_key
from medviz.engine.registry import get_ruleset

__all__ = ["RECORDING_FORMAT", "RECORDING_VERSION", "Entry", "RecordMove", "Recorder", "parse_entered"]

RECORDING_FORMAT = "medviz-recording"
RECORDING_VERSION = 1
_KINDS = ("choice", "roll", "draw")


@dataclass(frozen=True, slots=True)
class Entry:
    """One thing entered: a choice at a decision, or what a roll or draw showed at the table."""

    #: ``choice``, ``roll`` or ``draw``.
    kind: str
    #: The decision, roll or draw id.
    key: str
    actor: str
    value: Any
    #: ``human`` (entered at the table), ``policy`` (the computer answered) or ``entered`` (chance).
    source: str


@dataclass(frozen=True, slots=True)
class RecordMove:
    """What one action at the recorder put on record (``undo`` takes it back whole)."""

    entries: tuple[Entry, ...]
    #: In words: ``chose``, ``rolled``, ``drew``, ``computer chose``, ``set-up``.
    label: str


def parse_entered(ask: ChanceAsk, text: str) -> Any:
    """What a person typed for a roll (``5``, ``3+4`` or ``3 4`` for 2d6) or a draw (an item's name)."""
    words = text.strip()
    if ask.kind == "draw":
        items = ask.values()
        for item in items:
            if words.lower() == str(item).lower():
                return item
        raise MalformedInput(f"draw {ask.key}: {words[:60]!r} is not in the cup (it holds {', '.join(map(str, items))})")
    parts = words.replace("+", " ").split()
    if not parts or not all(p.lstrip("-").isdigit() for p in parts):
        raise MalformedInput(f"roll {ask.key}: {words[:60]!r} is not a die value (type e.g. 4, or 3+4 for two dice)")
    count, faces = _dice.parse_dice(ask.dice)
    if len(parts) > 1:
        if len(parts) != count:
            raise MalformedInput(f"roll {ask.key}: {len(parts)} dice typed, but it is a roll of {ask.dice}")
        for p in parts:
            if not 1 <= int(p) <= faces:
                raise MalformedInput(f"roll {ask.key}: a die of {ask.dice} shows 1..{faces}, not {p}")
    return sum(int(p) for p in parts)


class Recorder:
    """A real game of ``ruleset``'s ``scenario`` entered as the table plays it (every side human).

    ``stand_in`` answers when asked (``auto``, ``auto_while``) and in branches of the finished
    history (saved as ``human/<stand-in>``); default: the game's ``heuristic`` player, if any.
    """

    def __init__(self, ruleset: Ruleset | str, scenario: str, options: Mapping[str, Any] | None = None, *,
                 seed: int = 0, stand_in: str | Policy | None = None,
                 refusal: Callable[[DecisionPoint, Any], MedvizError] | None = None,
                 moves: Sequence[RecordMove] = ()) -> None:
        rs = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise MalformedInput(f"seed {seed!r} must be a whole number >= 0")
        if scenario not in rs.scenarios():
            raise MalformedInput(f"{rs.game} has no scenario {str(scenario)[:60]!r} (it has {', '.join(rs.scenarios())})")
        if options is not None and not isinstance(options, Mapping):
            raise MalformedInput(f"options must be a mapping of option names to values, not {type(options).__name__}")
        self.ruleset = rs
        self.scenario = scenario
        self.options: Mapping[str, Any] = dict(options or {})
        self.seed = seed
        if stand_in is None:
            stand_in = "heuristic" if "heuristic" in rs.policies else "first"
        self.stand_in: Policy = parse_player(stand_in, rs) if isinstance(stand_in, str) else stand_in
        self.refusal = refusal or rs.refusal
        self.seats: tuple[str, ...] = tuple(rs.actors(scenario))
        self._moves: list[RecordMove] = list(moves)
        self._result: RunResult | None = None
        self._snapshots: list[Snapshot] = []
        self._history: History | None = None
        self._advance(from_start=True)
        if self._moves:
            self._check_moves_used()

    # -- what the recorder shows ---------------------------------------------------------------
    def __repr__(self) -> str:
        where = f"awaiting {self.awaiting}" if not self.finished else "game over"
        return f"<Recorder {self.ruleset.game}/{self.scenario} entries={len(self.entries)} {where}>"

    @property
    def pending(self) -> DecisionPoint | None:
        """The decision the table must make next (None while a roll or draw is awaited, or at the end)."""
        return self._res.pending

    @property
    def pending_chance(self) -> ChanceAsk | None:
        """The roll or draw whose real result must be entered next (None otherwise)."""
        return self._res.pending_chance

    @property
    def awaiting(self) -> str:
        """The id of what is awaited ("" once the game is over)."""
        p, c = self.pending, self.pending_chance
        return p.decision if p is not None else c.key if c is not None else ""

    @property
    def finished(self) -> bool:
        """True once the game is over."""
        return self.pending is None and self.pending_chance is None

    @property
    def state(self) -> Any:
        """The live state (at the pause, or the final state)."""
        return self._res.state

    @property
    def events(self) -> list[Event]:
        """Every event so far."""
        return self._res.events

    @property
    def moves(self) -> tuple[RecordMove, ...]:
        """Every action taken at the recorder, oldest first."""
        return tuple(self._moves)

    @property
    def entries(self) -> list[Entry]:
        """Every entry so far, in the order entered."""
        return [e for m in self._moves for e in m.entries]

    def describe(self, event: Event) -> str:
        """One event in plain words."""
        return self.ruleset.describe_in(self.state, event)

    @property
    def history(self) -> History:
        """The finished game as an ordinary ``History`` (entered dice marked ``source: "entered"``)."""
        if self._history is None:
            if not self.finished:
                raise MedvizError(f"the game is not over: {self.awaiting} awaits the table; enter it first")
            spec = self._spec(HumanSeat(fallback=self.stand_in), ask=False)
            self._history = _history(spec, self._res, snapshots=list(self._snapshots))
        return self._history

    # -- entries -------------------------------------------------------------------------------
    def choose(self, option: Any) -> None:
        """Enter the table's choice at the pending decision; an illegal one is refused, naming its rule."""
        p = self._awaiting_decision()
        i = option_index(p.options, option)
        if i is None:
            raise self.refusal(p, option)
        self._push(RecordMove((Entry("choice", p.decision, p.actor, freeze(option_key(p.options[i])), "human"),), "chose"))

    def choose_index(self, index: int) -> None:
        """Enter the option at ``index`` of the pending decision's legal options."""
        p = self._awaiting_decision()
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(p.options):
            raise MalformedInput(f"{p.decision}: option {index!r} is not one of 0..{len(p.options) - 1}")
        self.choose(p.options[index])

    def enter(self, value: Any) -> None:
        """Enter what the real roll showed (its total) or what was drawn from the cup; checked at once."""
        c = self.pending_chance
        if c is None:
            what = f"decision {self.pending.decision} awaits a choice" if self.pending is not None else "the game is over"
            raise MalformedInput(f"no roll or draw is awaited: {what}")
        if isinstance(value, str) and c.kind == "roll":
            value = parse_entered(c, value)
        if c.kind == "roll":
            value = _dice.check_value(c.dice, value, f"roll {c.key} ({c.purpose or 'a roll'}): ")
        elif value not in c.pool:
            raise MalformedInput(f"draw {c.key}: {value!r} is not in the cup (it holds {', '.join(c.values())})")
        self._push(RecordMove((Entry(c.kind, c.key, c.actor or "", value, "entered"),),
                              "rolled" if c.kind == "roll" else "drew"))

    def auto(self, policy: Policy | None = None) -> None:
        """Let the computer (default: the stand-in) answer the pending decision only."""
        p = self._awaiting_decision()
        self.auto_while(lambda q: q.decision == p.decision, policy, label="computer chose")

    def auto_while(self, wanted: Callable[[DecisionPoint], bool], policy: Policy | None = None, *,
                   label: str = "computer chose") -> None:
        """Let the computer answer decisions for as long as ``wanted`` accepts them (up to the next roll
        or draw, which only the table can enter); one move, so one ``undo`` takes it back."""
        self._awaiting_decision()
        done = {e.key for e in self.entries}
        seat = HumanSeat(fallback=policy or self.stand_in, delegate=wanted)
        result = run(self._spec(seat, ask=True))
        made = tuple(Entry("choice", e.decision, e.actor or "", e.choice, "policy") for e in result.events
                     if isinstance(e, DecisionEvent) and e.source == "policy" and e.decision not in done)
        if made:
            self._push(RecordMove(made, label))

    def setup_shortcut(self) -> str | None:
        """The ruleset's set-up shortcut for the pending decision (``set up as in 1282``), or None."""
        p = self.pending
        return self.ruleset.setup_shortcut(p) if p is not None else None

    def set_up(self) -> None:
        """Let the computer finish the set-up with the default deployment (``Ruleset.setup_shortcut``)."""
        p = self._awaiting_decision()
        label = self.ruleset.setup_shortcut(p)
        if label is None:
            raise MalformedInput("the set-up is over (no set-up shortcut at this decision)")
        self.auto_while(lambda q: self.ruleset.setup_shortcut(q) is not None, label=label)

    def undo(self, moves: int = 1) -> None:
        """Take back the last move(s): an entry, or a run the computer answered."""
        if isinstance(moves, bool) or not isinstance(moves, int) or moves < 1:
            raise MalformedInput(f"undo: moves must be a whole number >= 1, not {moves!r}")
        if moves > len(self._moves):
            raise MalformedInput(f"undo: nothing to undo" if not self._moves else
                                 f"undo: only {len(self._moves)} move(s) were entered")
        del self._moves[len(self._moves) - moves:]
        self._advance(from_start=True)

    # -- files ---------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The recording as plain JSON data: the game's set-up and every move entered."""
        return {"format": RECORDING_FORMAT, "version": RECORDING_VERSION, "game": self.ruleset.game,
                "scenario": self.scenario, "seed": self.seed, "options": thaw(self.options),
                "stand_in": self.stand_in.spec,
                "moves": [{"label": m.label, "entries": [[e.kind, e.key, e.actor, thaw(e.value), e.source]
                                                          for e in m.entries]} for m in self._moves]}

    def to_json(self) -> str:
        """Canonical JSON text of the recording (one move a line)."""
        d = self.to_dict()
        moves = d.pop("moves")
        head = json.dumps(d, ensure_ascii=False, separators=(",", ":"))[:-1]
        body = ",\n".join(json.dumps(m, ensure_ascii=False, separators=(",", ":")) for m in moves)
        return f'{head},"moves":[\n{body}\n]}}\n' if moves else f'{head},"moves":[]}}\n'

    def save(self, path: str | Path) -> None:
        """Write where the game stands, atomically: the recording while it goes on, the history once it is over."""
        write_atomic(path, self.history.to_json() if self.finished else self.to_json())

    @classmethod
    def from_dict(cls, data: Any, where: str = "recording") -> Recorder:
        """Rebuild a recorder from its JSON data (every entry re-checked against the rules)."""
        if not isinstance(data, Mapping) or data.get("format") != RECORDING_FORMAT:
            raise MalformedInput(f"{where}: not a medviz recording (format {RECORDING_FORMAT!r})")
        if data.get("version") != RECORDING_VERSION:
            raise MalformedInput(f"{where}: version: recording version {data.get('version')!r} is not supported "
                                 f"(this medviz reads {RECORDING_VERSION})")
        for key, kind in (("game", str), ("scenario", str), ("seed", int), ("options", Mapping), ("stand_in", str),
                          ("moves", list)):
            if not isinstance(data.get(key), kind) or isinstance(data.get(key), bool):
                raise MalformedInput(f"{where}: {key}: missing or of the wrong type")
        moves = []
        for i, m in enumerate(data["moves"]):
            here = f"{where}: moves[{i}]"
            if not isinstance(m, Mapping) or not isinstance(m.get("label"), str) or not isinstance(m.get("entries"), list):
                raise MalformedInput(f"{here}: expected an object with a label and a list of entries")
            entries = []
            for j, e in enumerate(m["entries"]):
                if not (isinstance(e, list) and len(e) == 5 and e[0] in _KINDS and all(isinstance(x, str) for x in
                                                                                         (e[1], e[2], e[4]))):
                    raise MalformedInput(f"{here}.entries[{j}]: expected [kind, id, actor, value, source]")
                entries.append(Entry(e[0], e[1], e[2], freeze(e[3]), e[4]))
            moves.append(RecordMove(tuple(entries), m["label"]))
        try:
            return cls(data["game"], data["scenario"], data["options"], seed=data["seed"], stand_in=data["stand_in"],
                       moves=moves)
        except MalformedInput as exc:
            text = str(exc)
            raise MalformedInput(text if text.startswith(where) else f"{where}: {text}") from None
        except MedvizError as exc:
            raise MalformedInput(f"{where}: {str(exc).splitlines()[0]}") from None

    @classmethod
    def from_history(cls, history: History, where: str = "history") -> Recorder:
        """Continue from a finished game (recorded or not): its choices and entered dice become entries.

        Rolls and draws that came from the seed are entered as the values they showed.
        """
        moves = []
        for e in history.events:
            if isinstance(e, DecisionEvent) and e.source != "forced":
                source = "human" if e.source == "human" else "policy"
                moves.append(RecordMove((Entry("choice", e.decision, e.actor or "", e.choice, source),),
                                        "chose" if source == "human" else "computer chose"))
            elif isinstance(e, RollEvent):
                moves.append(RecordMove((Entry("roll", e.roll, e.actor or "", e.value, "entered"),), "rolled"))
            elif isinstance(e, DrawEvent):
                moves.append(RecordMove((Entry("draw", e.draw, e.actor or "", e.value, "entered"),), "drew"))
        spec = history.spec.players.get(history.spec.ruleset.actors(history.scenario)[0])
        fallback = getattr(spec, "fallback", None)
        return cls(history.ruleset, history.scenario, history.spec.options, seed=history.seed,
                   stand_in=fallback if fallback is not None else None, moves=moves)

    @classmethod
    def load(cls, path: str | Path) -> Recorder:
        """Read a recording (or a finished history) and continue where it stopped."""
        from medviz.engine.history import FORMAT, parse_json

        text = read_text(path, "recording")
        data = parse_json(text, str(path))
        if isinstance(data, Mapping) and data.get("format") == FORMAT:
            return cls.from_history(History.from_dict(data, str(path)), str(path))
        return cls.from_dict(data, str(path))

    # -- internals -----------------------------------------------------------------------------
    @property
    def _res(self) -> RunResult:
        assert self._result is not None  # set by __init__
        return self._result

    def _awaiting_decision(self) -> DecisionPoint:
        p = self.pending
        if p is None:
            c = self.pending_chance
            if c is not None:
                raise MalformedInput(f"{c.kind} {c.key} awaits what the table {'rolled' if c.kind == 'roll' else 'drew'} "
                                     f"({c.purpose or c.kind}); enter it first")
            raise MalformedInput("the game is over; undo to take back the last entry")
        return p

    def _spec(self, seat: HumanSeat, *, ask: bool) -> GameSpec:
        entries = self.entries
        recorded = {e.key: (e.actor, e.value) for e in entries if e.kind == "choice"}
        sources = {e.key: e.source for e in entries if e.kind == "choice"}
        entered = {e.key: e.value for e in entries if e.kind != "choice"}
        return GameSpec(self.ruleset, self.scenario, self.options, self.seed, {s: seat for s in self.seats}, {},
                        recorded, sources, entered, ask)

    def _push(self, move: RecordMove) -> None:
        self._moves.append(move)
        try:
            self._advance(from_start=False)
        except MedvizError:
            self._moves.pop()
            self._advance(from_start=True)
            raise

    def _advance(self, *, from_start: bool) -> None:
        spec = self._spec(HumanSeat(), ask=True)
        old = self._result
        if from_start or old is None or not self._snapshots:
            result = run(spec)
            self._snapshots = list(result.snapshots)
        else:
            snap = self._snapshots[-1]  # the latest snapshot before the pause: nothing entered since reaches before it
            result = run(spec, snap, old.events[: snap.seq])
            self._snapshots = self._snapshots[:-1] + list(result.snapshots)
        self._result = result
        self._history = None

    def _check_moves_used(self) -> None:
        """A loaded recording: every entry must have been used, in a game that never refused one."""
        used: dict[str, str] = {}
        for e in self.events:
            if isinstance(e, DecisionEvent):
                used[e.decision] = "choice"
            elif isinstance(e, RollEvent) and e.source == "entered":
                used[e.roll] = "roll"
            elif isinstance(e, DrawEvent) and e.source == "entered":
                used[e.draw] = "draw"
            elif isinstance(e, ReportEvent) and e.report == "recorded-choice-illegal":
                raise IllegalAction(f"moves: the choice entered at {e.data.get('decision')} is not legal there")
        for i, m in enumerate(self._moves):
            for entry in m.entries:
                if used.get(entry.key) != entry.kind:
                    raise MalformedInput(f"moves[{i}]: {entry.kind} {entry.key!r} never happens in this game "
                                         f"(the recording was edited, or made by a medviz whose rules differed)")
