"""``PlayModel``: one side of Mediterranean Empires played at a table, as traitlets. No widget imports.

The model wraps an engine ``Table`` (``medviz.engine.table``) set up for the game: the other side
is a computer player, the heuristic stands in for the human on request, and a refused choice names
its rule (``legality.why_illegal``). Views (``medviz.apps.play``) observe ``version``; tests drive
the model directly.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from types import SimpleNamespace
from typing import Any

import traitlets

from medviz.engine.errors import MalformedInput, MedvizError, UnknownReference
from medviz.engine.events import Event, RollEvent
from medviz.engine.history import History
from medviz.engine.policy import DecisionPoint, Policy, parse_policy
from medviz.engine.table import Table

__all__ = ["PlayModel", "SIDES", "new_table", "side_name"]

#: The two players of Mediterranean Empires (3.1, 3.2).
SIDES = ("A", "B")

_NOT_GIVEN: Any = object()


def side_name(side: str) -> str:
    """``Player B (Aragon)``: a side and the powers it plays (3.0)."""
    from medviz.rules.medempires.game.state import PLAYER_POWERS, shipped_data

    powers = [shipped_data().game_data.powers[p].name.split(" (")[0] for p, s in PLAYER_POWERS.items() if s == side]
    return f"Player {side} ({' and '.join(powers)})" if powers else f"Player {side}"


def _policy(spec: str | Policy, what: str) -> Policy:
    from medviz.rules.medempires.ruleset import RULESET

    if isinstance(spec, str):
        try:
            return parse_policy(spec, RULESET.policies)
        except MalformedInput as exc:
            raise MalformedInput(f"{what}: {exc}") from None
    if callable(getattr(spec, "choose", None)) and isinstance(getattr(spec, "spec", None), str):
        return spec
    raise MalformedInput(f"{what} must be a player spec such as 'heuristic' or 'random:7', or a policy; "
                         f"got {type(spec).__name__}")


def new_table(scenario: str = "vespers-1282", side: str = "B", opponent: str | Policy = "heuristic", *,
              seed: int = 0, options: Mapping[str, Any] | None = None,
              stand_in: str | Policy = "heuristic") -> Table:
    """A table at which you play ``side`` of a whole-game scenario against a computer ``opponent``."""
    from medviz.rules.medempires.game import SCENARIOS
    from medviz.rules.medempires.game.legality import HumanPlayer
    from medviz.rules.medempires.ruleset import RULESET

    if not isinstance(scenario, str) or scenario not in SCENARIOS:
        raise UnknownReference(f"unknown scenario {scenario!r}; a table plays one of: {', '.join(SCENARIOS)}")
    if side not in SIDES:
        raise MalformedInput(f"side {side!r}: choose 'A' ({side_name('A')}) or 'B' ({side_name('B')})")
    other = "A" if side == "B" else "B"
    if options is not None and not isinstance(options, Mapping):
        raise MalformedInput(f"options must be a mapping of option names to values, not {type(options).__name__}")

    def refusal(point: DecisionPoint, choice: Any) -> MedvizError:
        # IllegalAction naming the rule (legality.why_illegal), worded with the state's own map and data
        return HumanPlayer().refusal(point, choice)

    return Table(RULESET, scenario, dict(options or {}), seed=seed, humans=side,
                 players={other: _policy(opponent, "opponent")}, stand_in=_policy(stand_in, "stand_in"),
                 refusal=refusal)


def in_setup(point: DecisionPoint) -> bool:
    """True for a set-up decision (3.0-3.3.1: placing a starting counter)."""
    from medviz.rules.medempires.game.deploy import SETUP_PHASE

    return point.phase == SETUP_PHASE


class PlayModel(traitlets.HasTraits):
    """The table, the pending decision's prompt and options in words, and what just happened."""

    table = traitlets.Any()
    #: Bumped after every move (views redraw on it).
    version = traitlets.Int(0)
    #: The pending decision's question in plain words ("" once the game is over).
    prompt = traitlets.Unicode("")
    #: The legal options in plain words, in the order of ``table.pending.options``.
    labels = traitlets.List(traitlets.Unicode())
    #: Index of the option the Choose button takes.
    selected = traitlets.Int(0)
    #: The last refusal or error, in words ("" when the last move went through).
    message = traitlets.Unicode("")
    finished = traitlets.Bool(False)

    def __init__(self, scenario: str = "vespers-1282", side: str = "B", opponent: str | Policy = "heuristic", *,
                 seed: int = 0, options: Mapping[str, Any] | None = None, table: Table | None = None,
                 **kw: Any) -> None:
        t = table if table is not None else new_table(scenario, side, opponent, seed=seed, options=options)
        super().__init__(table=t, **kw)
        self._refresh()

    # -- reading -------------------------------------------------------------------------------
    @property
    def side(self) -> str:
        """The side played at the table."""
        return str(self.table.humans[0])

    @property
    def pending(self) -> DecisionPoint | None:
        """The decision the game waits for, or None once it is over."""
        return self.table.pending  # type: ignore[no-any-return]

    @property
    def history(self) -> History:
        """The finished game, ready for ``ReplayViewer`` or ``DiceLab``."""
        return self.table.history  # type: ignore[no-any-return]

    @property
    def setup_year(self) -> int:
        """The year the scenario's default deployment shows (1282 for the Vespers)."""
        sc = self.table.state.data.scenarios[self.table.scenario]
        return int(sc.turn_years[0][0]) if sc.turn_years else 0

    def where(self) -> str:
        """Turn and phase now, in words."""
        p = self.pending
        s = self.table.state
        turn = p.turn if p is not None and p.turn is not None else s.turn
        phase = p.phase if p is not None and p.phase is not None else s.phase
        if self.finished:
            return "Game over"
        if not turn:
            return "Set-up (3.0), before game turn 1"
        return f"Turn {turn}, {str(phase).replace('-', ' ')}"

    def view(self) -> dict[str, Any]:
        """The map view of the live state, with the current force's path and battle."""
        from medviz.rules.medempires.view import state_view, step_overlays

        events = self.table.events
        overlays = step_overlays(SimpleNamespace(events=events), len(events) - 1) if events else []
        p = self.pending
        return state_view(self.table.state, overlays, turn=p.turn if p else None, phase=p.phase if p else None)

    def score(self, view: Mapping[str, Any] | None = None) -> dict[str, dict[str, int]]:
        """Treasury points and victory points now (or in ``view``): ``{"tp": {"A": n, "B": n}, "vp": {...}}``."""
        v = view if view is not None else self.view()
        return {"tp": dict(v["tp"]), "vp": dict(v["vp"])}

    def recent(self) -> list[str]:
        """What happened since your last move (dice included), in plain words."""
        return [self._words(e) for e in self.table.recent()]

    def recent_html(self, limit: int = 120) -> str:
        """``recent`` as HTML: the newest last, dice in red; at most ``limit`` lines."""
        events = self.table.recent()
        lines = []
        if len(events) > limit:
            lines.append(f"<div style='color:#8a7a66'>… {len(events) - limit} earlier events</div>")
            events = events[-limit:]
        for e in events:
            when = ("set-up " if e.turn == 0 else f"T{e.turn} ") if e.turn is not None else ""
            style = " style='color:#b2182b'" if isinstance(e, RollEvent) or e.kind == "draw" else ""
            lines.append(f"<div{style}><span style='color:#8a7a66'>{when}{e.seq}</span> "
                         f"{html.escape(self._words(e))}</div>")
        return "<div class='medviz-log' style='font-size:13px;line-height:1.45'>" + "".join(lines) + "</div>"

    def outcome_html(self) -> str:
        """The winner and the reason once the game is over ("" before)."""
        if not self.finished:
            return ""
        out = self.history.outcome
        winner = str(out.get("winner"))
        you = "You win" if winner == self.side else "You lose"
        return (f"<div class='medviz-outcome' style='font-size:15px;border-left:4px solid #b8860b;padding-left:8px'>"
                f"<b>{html.escape(you)}: {html.escape(side_name(winner))} wins.</b><br>"
                f"{html.escape(str(out.get('reason', '')))}</div>")

    # -- moves ---------------------------------------------------------------------------------
    def choose(self, option: Any = _NOT_GIVEN) -> DecisionPoint | None:
        """Answer the pending decision with ``option`` (default: the selected one); illegal: ``IllegalAction``."""
        p = self._awaiting()
        if option is _NOT_GIVEN:
            if not 0 <= self.selected < len(p.options):
                raise MalformedInput(f"selected option {self.selected} is not one of 0..{len(p.options) - 1}")
            option = p.options[self.selected]
        self._move(self.table.choose, option)
        return self.pending

    def choose_index(self, index: int) -> DecisionPoint | None:
        """Answer with the option at ``index`` of the legal options."""
        p = self._awaiting()
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(p.options):
            raise MalformedInput(f"option {index!r} is not one of 0..{len(p.options) - 1}")
        self._move(self.table.choose, p.options[index])
        return self.pending

    def auto(self) -> DecisionPoint | None:
        """Let the computer (the heuristic) answer the pending decision."""
        self._awaiting()
        self._move(self.table.auto)
        return self.pending

    def set_up_as_in_history(self) -> DecisionPoint | None:
        """Place every counter you have not placed yet where the default deployment puts it (3.0)."""
        p = self._awaiting()
        if not in_setup(p):
            raise MalformedInput("the set-up is over: every starting counter has been placed")
        self._move(lambda: self.table.auto_while(in_setup, label=f"set up as in {self.setup_year}"))
        return self.pending

    def undo(self) -> DecisionPoint | None:
        """Take back your last move (one choice, one computer answer, or a whole set-up or finish)."""
        if not self.table.steps:
            raise MalformedInput("nothing to undo: no move has been made at this table yet")
        self._move(self.table.undo)
        return self.pending

    def finish(self, policy: str | Policy | None = None) -> History:
        """Let the computer (default: the heuristic) play your side to the end; returns the history."""
        pol = _policy(policy, "finish policy") if policy is not None else None
        self._move(lambda: self.table.finish_with(pol))
        return self.history

    # -- internals -----------------------------------------------------------------------------
    def _awaiting(self) -> DecisionPoint:
        p = self.pending
        if p is None:
            raise MalformedInput(f"the game is over ({self.history.outcome.get('reason', '')}); "
                                 f"undo a move to play on, or replay the history")
        return p

    def _move(self, fn: Any, *args: Any) -> None:
        fn(*args)
        self.message = ""
        self._refresh()

    def _words(self, e: Event) -> str:
        return str(self.table.describe(e))

    def _refresh(self) -> None:
        from medviz.rules.medempires.game.describe import describe_choice

        p = self.pending
        with self.hold_trait_notifications():
            self.finished = p is None
            if p is None:
                self.prompt, self.labels = "", []
            else:
                self.prompt = p.prompt or p.decision.rsplit("/", 1)[-1]
                self.labels = [describe_choice(o, self.table.state.data_pair) for o in p.options]
            self.selected = 0
            self.version += 1
