"""``PlayModel``: one seat of a game played at a table, as traitlets. No widget imports.

The model wraps an engine ``Table`` (``medviz.engine.table``) set up for the game: the other seats
are computer players, a stand-in answers for the human on request, and a refused choice names its
rule (``Ruleset.refusal``). Everything the table says about the game comes through its ruleset's
hooks: seat names (``seat_title``), options in words (``describe_option``), the set-up shortcut
(``setup_shortcut``), the map (``live_view``) and the score (``scores``). Views
(``medviz.apps.play``) observe ``version``; tests drive the model directly.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

import traitlets

from medviz.engine.errors import MalformedInput, UnknownReference
from medviz.engine.events import Event, RollEvent
from medviz.engine.game import Ruleset
from medviz.engine.history import History
from medviz.engine.policy import DecisionPoint, Policy, parse_policy
from medviz.engine.registry import get_ruleset
from medviz.engine.table import Table

__all__ = ["DEFAULT_GAME", "PlayModel", "new_table", "side_name"]

#: The game a table plays when none is named (the flagship; any registered ruleset id will do).
DEFAULT_GAME = "medempires"

_NOT_GIVEN: Any = object()


def _ruleset(game: str | Ruleset) -> Ruleset:
    return game if isinstance(game, Ruleset) else get_ruleset(game)


def side_name(side: str, game: str | Ruleset = DEFAULT_GAME, scenario: str = "vespers-1282",
              state: Any = None) -> str:
    """A seat as the table names it, e.g. ``Player B (Aragon)`` (``Ruleset.seat_title``)."""
    return _ruleset(game).seat_title(side, scenario, state)


def _policy(spec: str | Policy, what: str, ruleset: Ruleset) -> Policy:
    if isinstance(spec, str):
        try:
            return parse_policy(spec, ruleset.policies)
        except MalformedInput as exc:
            raise MalformedInput(f"{what}: {exc}") from None
    if callable(getattr(spec, "choose", None)) and isinstance(getattr(spec, "spec", None), str):
        return spec
    raise MalformedInput(f"{what} must be a player spec such as 'heuristic' or 'random:7', or a policy; "
                         f"got {type(spec).__name__}")


def new_table(scenario: str = "vespers-1282", side: str | Sequence[str] = "B", opponent: str | Policy = "heuristic", *,
              seed: int = 0, options: Mapping[str, Any] | None = None,
              stand_in: str | Policy | None = None, game: str | Ruleset = DEFAULT_GAME) -> Table:
    """A table at which you play seat ``side`` of ``game``'s ``scenario``; ``opponent`` plays every other seat.

    ``side`` may name several seats (``("A", "B", "C")``): a hot-seat table, where several people
    take turns at one screen, each seeing only what its own seat may see (``Ruleset.observe``).

    ``stand_in`` answers for you on request ("let the computer choose"); default: the game's
    ``heuristic`` player if it has one (the conventional name of a ruleset's own computer player),
    else the opponent's kind of player.
    """
    rs = _ruleset(game)
    playable = list(rs.table_scenarios())
    if not isinstance(scenario, str) or scenario not in playable:
        raise UnknownReference(f"unknown scenario {scenario!r}; a table plays one of: {', '.join(playable)}")
    seats = rs.actors(scenario)
    sides = (side,) if isinstance(side, str) else tuple(side) if isinstance(side, Sequence) else (side,)
    for one in sides:
        if one not in seats:
            choices = " or ".join(f"{s!r} ({rs.seat_title(s, scenario)})" for s in seats)
            raise MalformedInput(f"side {one!r}: choose {choices}")
    if not sides or len(set(sides)) != len(sides):
        raise MalformedInput(f"sides {list(sides)!r}: name each seat played at the table once")
    if options is not None and not isinstance(options, Mapping):
        raise MalformedInput(f"options must be a mapping of option names to values, not {type(options).__name__}")
    opponent_policy = _policy(opponent, "opponent", rs)
    return Table(rs, scenario, dict(options or {}), seed=seed, humans=sides,
                 players={s: opponent_policy for s in seats if s not in sides},
                 stand_in=_policy(stand_in if stand_in is not None else
                                  "heuristic" if "heuristic" in rs.policies else opponent, "stand_in", rs))


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
    #: Hot seat: the seat the screen waits for ("pass the laptop to ..."; "" when nobody is waited for).
    screen = traitlets.Unicode("")

    def __init__(self, scenario: str = "vespers-1282", side: str | Sequence[str] = "B",
                 opponent: str | Policy = "heuristic", *,
                 seed: int = 0, options: Mapping[str, Any] | None = None, table: Table | None = None,
                 game: str | Ruleset = DEFAULT_GAME, **kw: Any) -> None:
        t = table if table is not None else new_table(scenario, side, opponent, seed=seed, options=options, game=game)
        super().__init__(table=t, **kw)
        self._revealed = ""  # hot seat: the seat that last showed itself at the screen
        self._refresh()

    # -- reading -------------------------------------------------------------------------------
    @property
    def side(self) -> str:
        """The side played at the table (hot seat: the seat whose decision is pending, else the first)."""
        p = self.table.pending
        if p is not None and p.actor in self.table.humans:
            return str(p.actor)
        return str(self.table.humans[0])

    @property
    def hot_seat(self) -> bool:
        """Several people play at this screen, taking turns (``side`` named several seats)."""
        return len(self.table.humans) > 1

    def reveal(self) -> None:
        """Hot seat: the player of the waiting seat is at the screen; show that seat's view and options."""
        self._revealed = self.side
        self._refresh()

    def _hides(self) -> bool:
        rs = self.table.ruleset
        return type(rs).observe is not Ruleset.observe

    @property
    def pending(self) -> DecisionPoint | None:
        """The decision the game waits for, or None once it is over."""
        return self.table.pending  # type: ignore[no-any-return]

    @property
    def history(self) -> History:
        """The finished game, ready for ``ReplayViewer`` or ``DiceLab``."""
        return self.table.history  # type: ignore[no-any-return]

    @property
    def setup_label(self) -> str | None:
        """What the set-up shortcut does, e.g. ``set up as in 1282`` (``Ruleset.setup_shortcut``); None: no shortcut now."""
        p = self.pending
        return self.table.ruleset.setup_shortcut(p) if p is not None else None

    def in_setup(self, point: DecisionPoint | None = None) -> bool:
        """True while the pending decision (or ``point``) belongs to a set-up the computer may finish."""
        p = point if point is not None else self.pending
        return p is not None and self.table.ruleset.setup_shortcut(p) is not None

    def side_name(self, side: str | None = None) -> str:
        """A seat (default: yours) as the game names it, e.g. ``Player B (Aragon)``."""
        return str(self.table.ruleset.seat_title(side or self.side, self.table.scenario, self.table.state))

    def where(self) -> str:
        """Turn and phase now, in words."""
        p = self.pending
        s = self.table.state
        turn = p.turn if p is not None and p.turn is not None else getattr(s, "turn", None)
        phase = p.phase if p is not None and p.phase is not None else getattr(s, "phase", None)
        if self.finished:
            return "Game over"
        if not turn:
            return "Set-up, before the first turn"
        words = self.table.ruleset.phase_names().get(str(phase)) or str(phase).replace("-", " ")
        return f"Turn {turn}, {words}"

    def view(self, *, anyway: bool = False) -> Any:
        """The map view of the live state, with the current step's overlays (``Ruleset.live_view``), as the
        seat at the screen may see it (``Ruleset.observe``); None while a hot-seat screen waits."""
        if self.screen and not anyway:
            return None  # hot seat: nothing to see until the waiting seat shows itself (``anyway``: its view)
        p = self.pending
        rs = self.table.ruleset
        state = rs.observe(self.table.state, self.side) if self._hides() and not self.finished else self.table.state
        return rs.live_view(state, self.table.events, turn=p.turn if p else None, phase=p.phase if p else None)

    def score(self, view: Any = None) -> list[tuple[str, str, Mapping[str, int]]]:
        """The scores now (or in ``view``): (short name, meaning, points by seat), e.g. TP and VP."""
        v = view if view is not None else self.view()
        return list(self.table.ruleset.scores(v))

    def recent(self) -> list[str]:
        """What happened since your last move (dice included), in plain words (nothing while screened)."""
        return [] if self.screen else [self._words(e) for e in self.table.recent()]

    def recent_html(self, limit: int = 120) -> str:
        """``recent`` as HTML: the newest last, dice in red; at most ``limit`` lines."""
        events = [] if self.screen else self.table.recent()
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
        you = "Game over" if self.hot_seat else "You win" if winner == self.side else "You lose"
        return (f"<div class='medviz-outcome' style='font-size:15px;border-left:4px solid #b8860b;padding-left:8px'>"
                f"<b>{html.escape(you)}: {html.escape(self.side_name(winner))} wins.</b><br>"
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
        label = self.table.ruleset.setup_shortcut(p)
        if label is None:
            raise MalformedInput("the set-up is over: every starting counter has been placed")
        self._move(lambda: self.table.auto_while(self.in_setup, label=label))
        return self.pending

    def undo(self) -> DecisionPoint | None:
        """Take back your last move (one choice, one computer answer, or a whole set-up or finish)."""
        if not self.table.steps:
            raise MalformedInput("nothing to undo: no move has been made at this table yet")
        self._move(self.table.undo)
        return self.pending

    def finish(self, policy: str | Policy | None = None) -> History:
        """Let the computer (default: the heuristic) play your side to the end; returns the history."""
        pol = _policy(policy, "finish policy", self.table.ruleset) if policy is not None else None
        self._move(lambda: self.table.finish_with(pol))
        return self.history

    # -- internals -----------------------------------------------------------------------------
    def _awaiting(self) -> DecisionPoint:
        p = self.pending
        if p is None:
            raise MalformedInput(f"the game is over ({self.history.outcome.get('reason', '')}); "
                                 f"undo a move to play on, or replay the history")
        if self.screen:
            raise MalformedInput(f"pass the screen to {self.side_name(self.screen)} first (reveal)")
        return p

    def _move(self, fn: Any, *args: Any) -> None:
        fn(*args)
        self.message = ""
        self._refresh()

    def _words(self, e: Event) -> str:
        """An event as the seat at the screen may read it (``Ruleset.describe_for``)."""
        if self._hides():
            return str(self.table.ruleset.describe_for(self.table.state, e, self.side))
        return str(self.table.describe(e))

    def _refresh(self) -> None:
        p = self.pending
        rs = self.table.ruleset
        with self.hold_trait_notifications():
            self.finished = p is None
            waiting = p is not None and self.hot_seat and p.actor != self._revealed
            self.screen = str(p.actor) if waiting and p is not None else ""
            if p is None or self.screen:
                self.prompt, self.labels = "", []
            else:
                self.prompt = p.prompt or p.decision.rsplit("/", 1)[-1]
                self.labels = [rs.describe_option(p, o) for o in p.options]
            self.selected = 0
            self.version += 1
