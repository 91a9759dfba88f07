"""``RecordModel``: a real tabletop game entered as it is played, as traitlets. No widget imports.

It wraps an engine ``Recorder`` (``medviz.engine.record``): every side is played at the table,
the model shows what is awaited (a decision with its legal options in words, or a roll or draw
with the values it may show) and takes the table's answer. Entries are checked at once (an illegal
choice is refused with its rule, a die outside its range is refused), ``undo`` takes back the last
one, and with a ``path`` the recording is saved after every entry (atomically), so a closed laptop
loses nothing: ``RecordModel.resume(path)`` continues it. Typed answers go through the same words
as ``medviz record`` (``record_commands.answer``), so both enter the same game byte for byte.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import traitlets

from medviz.engine.errors import MalformedInput, MedvizError
from medviz.engine.events import DrawEvent, Event, RollEvent
from medviz.engine.files import check_output_path
from medviz.engine.game import ChanceAsk, Ruleset
from medviz.engine.history import History
from medviz.engine.policy import DecisionPoint, Policy
from medviz.engine.record import Recorder
from medviz.engine.record_commands import answer, where

__all__ = ["RecordModel"]


class RecordModel(traitlets.HasTraits):
    """What the table must enter next, in words, and what the game did since the last entry."""

    recorder = traitlets.Any()
    #: Bumped after every entry (views redraw on it).
    version = traitlets.Int(0)
    #: ``decision``, ``roll``, ``draw`` or "" once the game is over.
    kind = traitlets.Unicode("")
    #: What is awaited, in plain words.
    prompt = traitlets.Unicode("")
    #: The legal options (a decision) or the values the dice or cup may show (a roll or draw), in words.
    labels = traitlets.List(traitlets.Unicode())
    #: Index of the label the Enter button takes.
    selected = traitlets.Int(0)
    #: The last refusal, in words ("" when the last entry went through).
    message = traitlets.Unicode("")
    finished = traitlets.Bool(False)

    def __init__(self, scenario: str = "vespers-1282", *, game: str | Ruleset = "medempires", seed: int = 0,
                 options: Mapping[str, Any] | None = None, stand_in: str | Policy | None = None,
                 path: str | Path | None = None, recorder: Recorder | None = None, **kw: Any) -> None:
        rec = recorder if recorder is not None else Recorder(game, scenario, options, seed=seed, stand_in=stand_in)
        if path is not None:
            check_output_path(str(path), "path")
        super().__init__(recorder=rec, **kw)
        self.path: Path | None = Path(path) if path is not None else None
        self._recent_from = 0
        self._save()
        self._refresh()

    @classmethod
    def resume(cls, path: str | Path) -> RecordModel:
        """Continue the recording (or finished recorded game) saved at ``path``; entries keep being saved there."""
        return cls(recorder=Recorder.load(path), path=path)

    # -- reading -------------------------------------------------------------------------------
    @property
    def pending(self) -> DecisionPoint | None:
        """The decision awaited (None while a roll or draw is awaited, or at the end)."""
        return self.recorder.pending  # type: ignore[no-any-return]

    @property
    def pending_chance(self) -> ChanceAsk | None:
        """The roll or draw awaited (None otherwise)."""
        return self.recorder.pending_chance  # type: ignore[no-any-return]

    @property
    def history(self) -> History:
        """The finished game as an ordinary history (replays, branches, exports)."""
        return self.recorder.history  # type: ignore[no-any-return]

    def where(self) -> str:
        """Turn and phase now, in words."""
        return where(self.recorder)

    def setup_label(self) -> str | None:
        """The set-up shortcut's words now (``set up as in 1282``), or None."""
        return self.recorder.setup_shortcut()  # type: ignore[no-any-return]

    def view(self) -> Any:
        """The map view of the live state (``Ruleset.live_view``)."""
        r = self.recorder
        p, c = r.pending, r.pending_chance
        turn = p.turn if p is not None else c.turn if c is not None else None
        phase = p.phase if p is not None else c.phase if c is not None else None
        return r.ruleset.live_view(r.state, r.events, turn=turn, phase=phase)

    def recent_html(self, limit: int = 80) -> str:
        """What the game did since the last entry, as HTML (dice in red, entered dice marked)."""
        events: list[Event] = self.recorder.events[self._recent_from:]
        lines = []
        if len(events) > limit:
            lines.append(f"<div style='color:#8a7a66'>… {len(events) - limit} earlier events</div>")
            events = events[-limit:]
        for e in events:
            chance = isinstance(e, (RollEvent, DrawEvent))
            style = " style='color:#b2182b'" if chance else ""
            mark = " <i>(entered)</i>" if chance and getattr(e, "source", None) == "entered" else ""
            lines.append(f"<div{style}><span style='color:#8a7a66'>{e.seq}</span> "
                         f"{html.escape(self.recorder.describe(e))}{mark}</div>")
        return "<div class='medviz-log' style='font-size:13px;line-height:1.45'>" + "".join(lines) + "</div>"

    def outcome_html(self) -> str:
        """The winner and the reason once the game is over ("" before)."""
        if not self.finished:
            return ""
        out = self.history.outcome
        return (f"<div class='medviz-outcome' style='font-size:15px;border-left:4px solid #b8860b;padding-left:8px'>"
                f"<b>Game over: {html.escape(str(out.get('winner')))} wins.</b><br>"
                f"{html.escape(str(out.get('reason', '')))}</div>")

    # -- entries -------------------------------------------------------------------------------
    def enter_selected(self) -> None:
        """Enter the selected label: a decision's option, or the value the dice or cup showed."""
        self.enter_index(self.selected)

    def enter_index(self, index: int) -> None:
        """Enter the label at ``index`` of ``labels``."""
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(self.labels):
            raise MalformedInput(f"choice {index!r} is not one of 0..{len(self.labels) - 1}")
        r = self.recorder
        if r.pending is not None:
            self._entry(r.choose, r.pending.options[index])
        else:
            self._entry(r.enter, r.pending_chance.values()[index])

    def choose(self, option: Any) -> None:
        """Enter the table's choice at the pending decision (illegal: refused, naming the rule)."""
        self._entry(self.recorder.choose, option)

    def enter(self, value: Any) -> None:
        """Enter what the real dice showed (a total) or what was drawn."""
        self._entry(self.recorder.enter, value)

    def type_answer(self, text: str) -> str:
        """Carry out a line typed as at ``medviz record`` (a number, words, a die, ``undo``...)."""
        out: list[str] = []
        self._entry(lambda: out.append(answer(self.recorder, text)))
        return out[0]

    def auto(self) -> None:
        """Let the computer answer the pending decision."""
        self._entry(self.recorder.auto)

    def set_up(self) -> None:
        """Let the computer finish the set-up with the default deployment."""
        self._entry(self.recorder.set_up)

    def undo(self) -> None:
        """Take back the last entry (or the last run the computer answered)."""
        self._entry(self.recorder.undo)

    # -- internals -----------------------------------------------------------------------------
    def _entry(self, fn: Any, *args: Any) -> None:
        before = len(self.recorder.events)
        fn(*args)
        self._recent_from = min(before, len(self.recorder.events))
        self._save()
        self.message = ""
        self._refresh()

    def _save(self) -> None:
        if self.path is not None:
            self.recorder.save(self.path)

    def _refresh(self) -> None:
        r = self.recorder
        rs = r.ruleset
        p, c = r.pending, r.pending_chance
        with self.hold_trait_notifications():
            self.finished = r.finished
            if p is not None:
                who = rs.seat_title(p.actor, r.scenario, r.state)
                self.kind, self.prompt = "decision", f"{who}: {p.prompt or p.decision}"
                self.labels = [rs.describe_option(p, o) for o in p.options]
            elif c is not None:
                who = f" for {rs.seat_title(c.actor, r.scenario, r.state)}" if c.actor else ""
                what = f"Roll {c.dice}" if c.kind == "roll" else "Draw"
                self.kind, self.prompt = c.kind, f"{what}{who}: {c.purpose or c.key}"
                self.labels = [str(v) if not c.effects or str(v) not in c.effects else f"{v}: {c.effects[str(v)]}"
                               for v in c.values()]
            else:
                self.kind, self.prompt, self.labels = "", "", []
            self.selected = 0
            self.version += 1


def refused(model: RecordModel, fn: Any, *args: Any) -> bool:
    """Run ``fn``; a refusal goes to ``model.message`` (False), else True."""
    try:
        fn(*args)
    except MedvizError as exc:
        model.message = " ".join(str(exc).split())
        return False
    return True
