"""App state as traitlets models: a replay cursor, a dice lab's branch and roll. No widget imports.

Views (``medviz.apps.replay``, ``medviz.apps.dicelab``, ``medviz.apps.tree``) observe these
models; tests drive the models directly, without a browser or a kernel.
"""

from __future__ import annotations

import inspect
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import traitlets

from medviz.engine.errors import MalformedInput, UnknownReference
from medviz.engine.events import ShuffleEvent
from medviz.engine.game import Ruleset, chance_keys
from medviz.engine.history import History, diff

__all__ = ["SPEEDS", "BranchNode", "DiceLabModel", "ReplayModel", "ViewAt", "ViewCache", "branch_nodes", "card_label", "default_view_at",
           "describe_branch", "normalise_view_at", "observes", "roll_effects", "roll_label", "roll_words",
           "moment_words", "portrayal_changes", "seat_view_at"]

#: A view function: (history, event seq) -> the game's view of the map (``Ruleset.view_at``; a ``Portrayal`` will do).
ViewAt = Callable[[History, int], Mapping[str, Any]]

#: Play speeds as the speed menu names them, each with the time between two shown steps (ms).
SPEEDS: dict[str, int] = {"slow": 1500, "normal": 700, "fast": 250}


def normalise_view_at(view_at: Callable[..., Any] | None, history: History) -> ViewAt | None:
    """Accept ``view_at(seq)`` (for one history) or ``view_at(history, seq)``; None stays None."""
    if view_at is None:
        return None
    try:
        params = [p for p in inspect.signature(view_at).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        params = []
    if len(params) == 1:
        single = view_at

        def at(h: History, seq: int) -> Mapping[str, Any]:
            if h is not history:
                raise MalformedInput("view_at(seq) draws only the history it was made for; "
                                     "give view_at(history, seq) to draw branches")
            return single(seq)  # type: ignore[no-any-return]

        return at
    return view_at


class ViewCache:
    """A view function that keeps the views it made (the latest ``keep``): a moment asked for again (a step
    back, a jump back, the dice lab's map toggled, the parent's end in every "what changed") is the same object,
    which ``update_state_map`` then draws from the portrayal and plan it remembers. Views are taken to be a
    function of the history and the event, as ``portrayal_changes`` takes them."""

    def __init__(self, view_at: ViewAt, keep: int = 64) -> None:
        self.view_at = view_at
        self.keep = keep
        self._views: OrderedDict[tuple[int, int], tuple[History, Any]] = OrderedDict()

    def __call__(self, history: History, seq: int) -> Any:
        """The view after event ``seq`` of ``history`` (made once while it is among the latest ``keep``)."""
        key = (id(history), seq)
        hit = self._views.get(key)
        if hit is not None and hit[0] is history:
            self._views.move_to_end(key)
            return hit[1]
        view = self.view_at(history, seq)
        if self.keep > 0:
            self._views[key] = (history, view)  # holding the history: its id names no other
            while len(self._views) > self.keep:
                self._views.popitem(last=False)
        return view


def default_view_at(history: History) -> ViewAt | None:
    """The map views of the history's own game (``Ruleset.view_at``); None when it draws no map of it."""
    rs = getattr(history, "ruleset", None)
    if rs is None or type(rs).view_at is Ruleset.view_at or rs.view_at(history, -1) is None:
        return None
    return rs.view_at  # type: ignore[no-any-return]


def observes(history: History) -> bool:
    """The history's game hides something from its seats (it overrides ``Ruleset.observe``) and draws a map."""
    rs = getattr(history, "ruleset", None)
    return (rs is not None and type(rs).observe is not Ruleset.observe
            and type(rs).live_view is not Ruleset.live_view)


def seat_view_at(history: History, seat: str) -> ViewAt:
    """Map views of what ``seat`` may see: ``live_view`` of ``observe(state_at(seq), seat)`` (any game)."""
    def at(h: History, seq: int) -> Any:
        rs = h.ruleset
        events = h.events[: seq + 1]
        last = events[-1] if events else None
        return rs.live_view(rs.observe(h.state_at(seq), seat), events, last.turn if last else None,
                            last.phase if last else None)

    return at


def _tags(history: Any) -> Callable[[Any], frozenset[str]]:
    rs = getattr(history, "ruleset", None)
    return rs.roll_tags if rs is not None else (lambda _e: frozenset())


class ReplayModel(traitlets.HasTraits):
    """A cursor over one history's events (0 .. len-1), with play that skips bookkeeping steps.

    ``shown(seq)`` says whether step ``seq`` changes something a viewer sees (``portrayal_changes``);
    play stops only on those unless ``every`` (show every event) is on. None: every step is shown.
    """

    history = traitlets.Any()
    cursor = traitlets.Int(0)
    playing = traitlets.Bool(False)
    every = traitlets.Bool(False)

    def __init__(self, history: History, cursor: int = 0, *, shown: Callable[[int], bool] | None = None,
                 **kw: Any) -> None:
        if not isinstance(history, History):
            raise MalformedInput(f"ReplayModel needs a History, got {type(history).__name__}")
        if len(history) == 0:
            raise MalformedInput("this history has no events to replay")
        super().__init__(history=history, **kw)
        self.shown = shown
        self.cursor = cursor

    @traitlets.validate("cursor")
    def _clamp(self, proposal: Any) -> int:
        return max(0, min(int(proposal["value"]), len(self.history) - 1))

    @property
    def last(self) -> int:
        """The last event's seq."""
        return len(self.history) - 1

    def step(self, delta: int = 1) -> int:
        """Move the cursor by ``delta`` events (clamped); returns the new cursor."""
        self.cursor = self.cursor + delta
        return self.cursor

    def next_shown(self, seq: int | None = None) -> int:
        """The next step after ``seq`` (default: the cursor) that play stops on (the last event at most)."""
        at = self.cursor if seq is None else seq
        for nxt in range(at + 1, self.last + 1):
            if self.every or self.shown is None or self.shown(nxt):
                return nxt
        return self.last

    def advance(self) -> int:
        """One tick of play: on to the next shown step; play pauses (``playing`` off) at the last event."""
        self.cursor = self.next_shown()
        if self.cursor >= self.last:
            self.playing = False
        return self.cursor

    @traitlets.observe("playing")
    def _from_start_when_over(self, change: Mapping[str, Any]) -> None:
        if change["new"] and self.cursor >= self.last:
            self.cursor = 0  # play at the end plays the game again from its set-up

    def jump_to_phase(self, turn: int | None, phase: str) -> int:
        """Put the cursor on the first event of that turn's phase."""
        for span in self.history.phases():
            if span.turn == turn and span.phase == phase:
                self.cursor = span.start
                return self.cursor
        raise UnknownReference(f"no {phase!r} phase in turn {turn} of this history")

    def jump_to_turn(self, turn: int) -> int:
        """Put the cursor on the first event of a turn."""
        for e in self.history.events:
            if e.turn == turn:
                self.cursor = e.seq
                return self.cursor
        raise UnknownReference(f"turn {turn} never happens in this history")

    def label(self, turn: int | None, phase: str | None) -> str:
        """A moment in words: ``GT2 (1291-1300) · Player B's operations``; the set-up by its phase alone."""
        return moment_words(self.history, turn, phase)

    def where(self) -> str:
        """Turn (with its years, where the game has them) and phase of the cursor, in words."""
        e = self.history[self.cursor]
        here = self.label(e.turn, e.phase)
        count = f"event {self.cursor} of {len(self.history) - 1}"  # event numbers as the log and annotations count
        return f"{here} · {count}" if here else count

    def stops(self) -> list[tuple[str, int]]:
        """Places to jump to: every phase start (``GT1 (1281-1290) · politics``), else start, rolls and end."""
        out = [(self.label(s.turn, s.phase), s.start) for s in self.history.phases()]
        if not out:
            out = [("start", 0)]
            out += [(f"roll: {roll_label(r)}", r.seq) for r in self.history.rolls()]
            out.append(("end", self.last))
        return out

    def bookmarks(self, annotations: Any) -> list[tuple[str, int]]:
        """The annotated moments: ``★ title`` at the first event each note speaks of (``Note.spans``)."""
        out = []
        for note in getattr(annotations, "notes", None) or ():
            spans = getattr(note, "spans", ()) or ()
            if spans and 0 <= spans[0][0] <= self.last:
                out.append((f"★ {getattr(note, 'title', '') or 'note'}", int(spans[0][0])))
        return sorted(out, key=lambda b: b[1])


def moment_words(history: Any, turn: int | None, phase: str | None) -> str:
    """A turn and phase in the ruleset's words (``Ruleset.turn_label``, ``Ruleset.phase_names``), e.g.
    ``GT2 (1291-1300) · Player B's operations``; turn 0 (the set-up) by its phase alone."""
    rs = getattr(history, "ruleset", None)
    bits = []
    if turn:
        words = rs.turn_label(history.scenario, turn) if rs is not None else f"turn {turn}"
        bits.append(words[:1].upper() + words[1:])
    if phase:
        names = rs.phase_names() if rs is not None else {}
        bits.append(str(names.get(phase) or str(phase).replace("_", " ")))
    return " · ".join(bits)


def portrayal_changes(history: History, view_at: ViewAt | None, annotations: Any = None) -> Callable[[int], bool]:
    """``shown(seq)``: True where the map view after ``seq`` differs from the one before, or a note starts there.

    Bookkeeping steps (a phase marker, a check that changes nothing) look like the step before and
    are skipped by play. Without a view function every step counts as shown. Views are cached.
    """
    if view_at is None:
        return lambda _seq: True
    cache: dict[int, Any] = {}
    noted = {seq for _label, seq in ReplayModel(history).bookmarks(annotations)}

    def view(seq: int) -> Any:
        if seq not in cache:
            cache[seq] = view_at(history, seq)
        return cache[seq]

    def shown(seq: int) -> bool:
        return seq <= 0 or seq in noted or view(seq) != view(seq - 1)

    return shown


def roll_label(roll: Any) -> str:
    """A roll's id and value, short: ``battle-1/combat-1/round-1/attacker = 6``."""
    rid = getattr(roll, "roll", None) or getattr(roll, "draw", "")
    return f"{rid} = {roll.value}"


def card_label(history: History, key: str) -> str:
    """A card place and the card it holds, short: ``action-deck/7 = spies-2``."""
    return f"{key} = {history.value_of(key)}"


def roll_effects(roll: Any) -> list[tuple[str, str, bool]]:
    """What each face would have meant: (face, meaning, shown) rows; meanings only where known."""
    effects = getattr(roll, "effects", None)
    if effects:
        return [(str(face), str(meaning), str(face) == str(roll.value)) for face, meaning in effects.items()]
    dice = getattr(roll, "dice", None)
    if dice:
        from medviz.engine.dice import distribution

        return [(str(v), "", v == roll.value) for v in distribution(dice)]
    pool = getattr(roll, "pool", ())
    return [(str(v), "", v == roll.value) for v in sorted(set(pool))]


def roll_words(history: History, roll_id: str) -> str:
    """A roll named in words by its game (``Ruleset.describe_roll``), else its id."""
    try:
        event = history.roll(roll_id)
    except UnknownReference:
        return roll_id
    if isinstance(event, ShuffleEvent):
        return roll_id
    return str(history.ruleset.describe_roll(history, event))


def describe_branch(h: History) -> str:
    """One line for a branch: what it changed (or "as played") and its outcome in words."""
    what = "History as played" if h.override is None else \
        f"{roll_words(h, str(h.override[0]))} = {h.override[1]}"
    winner = h.outcome.get("winner") if isinstance(h.outcome, Mapping) else None
    if winner in (None, "", "none"):
        return f"{what} → no winner"
    return f"{what} → {h.ruleset.seat_title(str(winner), h.scenario)} wins"


@dataclass(frozen=True)
class BranchNode:
    """A history in the branch tree with its depth (root = 0)."""

    history: History
    depth: int
    label: str


def branch_nodes(root: History) -> list[BranchNode]:
    """Every history explored from ``root``, depth first, parents before children."""
    out: list[BranchNode] = []

    def walk(h: History, depth: int) -> None:
        out.append(BranchNode(h, depth, describe_branch(h)))
        for child in h.children:
            walk(child, depth + 1)

    walk(root, 0)
    return out


class DiceLabModel(traitlets.HasTraits):
    """Which branch is shown, which roll is picked, and the value to try for it."""

    root = traitlets.Any()
    current = traitlets.Any()
    selected_roll = traitlets.Unicode("")
    value = traitlets.Any(None)
    tree_version = traitlets.Int(0)  # bumped when a branch is added, so tree views refresh

    def __init__(self, history: History, roll: str | None = None, **kw: Any) -> None:
        if not isinstance(history, History):
            raise MalformedInput(f"DiceLabModel needs a History, got {type(history).__name__}")
        super().__init__(root=history.root, current=history, **kw)
        rolls = history.rolls()
        if roll:
            if roll not in chance_keys(history.events):
                raise UnknownReference(f"roll {roll!r}: no such roll or draw in this history")
            self.select(roll)
        elif rolls and not self.selected_roll:
            self.select(self._id(rolls[-1]) if not self._decisive(history) else self._decisive(history))

    @staticmethod
    def _id(roll: Any) -> str:
        return str(getattr(roll, "roll", None) or getattr(roll, "draw", ""))

    @classmethod
    def _decisive(cls, history: History) -> str:
        """The last roll the game tags ``decisive`` (else the last roll with known effects), else ''."""
        tags = _tags(history)
        rolls = history.rolls()
        decisive = [r for r in rolls if "decisive" in tags(r)]
        chosen = decisive or [r for r in rolls if getattr(r, "effects", None)]
        return cls._id(chosen[-1]) if chosen else ""

    def rolls(self) -> list[Any]:
        """Rolls and draws of the branch shown."""
        return self.current.rolls()  # type: ignore[no-any-return]

    def card_places(self) -> list[tuple[str, ShuffleEvent]]:
        """Every card place of the branch's shuffled decks (``<shuffle>/<n>``, 1 = top) with its shuffle."""
        return [(f"{e.shuffle}/{n}", e) for e in self.current.shuffles() for n in range(1, len(e.order) + 1)]

    def picks_card(self) -> bool:
        """The pick is a card place of a shuffled deck (its value is a card), not a roll or a draw."""
        return bool(self.selected_roll) and isinstance(self.current.roll(self.selected_roll), ShuffleEvent)

    def roll(self) -> Any:
        """The picked roll event of the branch shown."""
        return self.current.roll(self.selected_roll)

    def select(self, roll_id: str) -> None:
        """Pick a roll, draw or card place of the branch shown; the value to try starts at its current value."""
        value = self.current.value_of(roll_id)
        self.selected_roll = roll_id
        self.value = value

    def decisive_roll_at(self, area: str | None = None, before: int | None = None) -> str:
        """The roll that decided a battle: its last roll the game tags ``decisive`` (``Ruleset.roll_tags``).

        With ``area``, the battle is the last one the history opens there (a change event about a
        battle whose data names the area); with ``before``, the last battle before that event.
        Decisive rolls are preferred; any roll with known effects will do otherwise.
        """
        h = self.current
        lo, hi = 0, len(h) if before is None else before + 1
        if area:
            opened = [e.seq for e in h.events[:hi] if "battle" in str(getattr(e, "change", ""))
                      and isinstance(getattr(e, "data", None), Mapping) and e.data.get("area") == area]
            if opened:
                lo = opened[-1]
                ends = [e.seq for e in h.events[lo:hi] if str(getattr(e, "change", "")) in ("battle-closed", "battle-ends")]
                hi = ends[-1] + 1 if ends else hi
        tags = _tags(h)
        rolls = [r for r in self.rolls() if lo <= r.seq < hi]
        chosen = [r for r in rolls if "decisive" in tags(r)] or [r for r in rolls if getattr(r, "effects", None)]
        if not chosen:
            raise UnknownReference(f"no combat roll{' in ' + area if area else ''} in this branch")
        return self._id(chosen[-1])

    def phase_end(self, history: History | None = None) -> int:
        """The last event of the phase in which the picked roll falls (the end if there are no phases)."""
        h = history or self.current
        try:
            seq = h.roll(self.selected_roll).seq if self.selected_roll else len(h) - 1
        except UnknownReference:
            return len(h) - 1
        for span in h.phases():
            if span.start <= seq < span.end:
                return span.end - 1
        return len(h) - 1

    def make_branch(self) -> History:
        """Branch the shown history at the picked roll with the value to try, and show the branch."""
        if not self.selected_roll:
            raise MalformedInput("pick a roll first")
        child: History = self.current.branch(self.selected_roll, self.value)
        self.current = child  # before the tree hears of it: views show the branch first
        self.tree_version += 1
        if self.selected_roll in chance_keys(child.events):
            self.value = child.value_of(self.selected_roll)
        return child

    def switch(self, history: History) -> None:
        """Show another history of the same tree."""
        if history.root is not self.root:
            raise MalformedInput("that history is not in this dice lab's branch tree")
        self.current = history
        if self.selected_roll in chance_keys(history.events):
            self.value = history.value_of(self.selected_roll)
        else:
            self.selected_roll = ""
            self.value = None

    def diff_words(self, view_at: ViewAt | None = None) -> str:
        """The shown branch against its parent in sentences: the change, where they part, outcomes, areas."""
        h = self.current
        other = h.parent
        if other is None:
            return "This is the history as played; make a branch to compare."
        d = diff(other, h)
        lines = []
        if h.override:
            rid, value = h.override
            was = other.value_of(str(rid)) if str(rid) in chance_keys(other.events) else None
            lines.append(f"This branch: {roll_words(h, str(rid))} shows {value}"
                         + (f" instead of {was}." if was is not None else "."))
        if d.first_divergence is not None:
            lines.append(f"The two histories part at event {d.first_divergence}:")
            for label, e, hist in (("as played", d.a_event, other), ("in this branch", d.b_event, h)):
                lines.append(f"  {label}: {hist.describe(e) if e is not None else '(the game had ended)'}")
        rs = h.ruleset
        before, after = rs.describe_outcome(other), rs.describe_outcome(h)
        if before == after:
            lines.append(f"The outcome is the same: {after}.")
        else:
            lines.append(f"As played: {before}.")
            lines.append(f"In this branch: {after}.")
        if view_at is not None:
            va, vb = view_at(other, len(other) - 1), view_at(h, len(h) - 1)
            if va is not None and vb is not None:
                lines += rs.compare_views(va, vb)
        if d.identical:
            lines.append("The two histories are identical.")
        return "\n".join(lines)
