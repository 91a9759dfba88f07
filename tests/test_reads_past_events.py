"""``Ruleset.reads_past_events`` of every shipped ruleset against what its runs do.

A ruleset that declares False promises that the rest of a game depends only on the state, the
agenda and the ids and choices of the decisions so far (``medviz pivotal`` then shares the rest of
the game between faces of a roll that leave the same game). The check here: a game is paused at
task boundaries and played on from each after its events with everything but their ids and the
decisions' choices scrambled (rolls' and draws' values, shuffles' orders, changes' and reports'
data, decisions' options); a ruleset whose rule code or players read any of that back plays another
rest of the game than the whole game's (or fails). Each ruleset's declaration must match.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from importlib.metadata import entry_points
from typing import Any

import pytest

from medviz.engine.events import (
    ChangeEvent,
    DecisionEvent,
    DrawEvent,
    Event,
    FrozenDict,
    ReportEvent,
    RollEvent,
    ShuffleEvent,
)
from medviz.engine.game import GameSpec, Ruleset, run, running_game
from medviz.engine.history import parse_player
from medviz.engine.policy import DecisionPoint, FirstOptionPolicy, Policy, RandomPolicy
from medviz.engine.registry import GROUP, get_ruleset

#: Boundaries played on from, at most, per game (evenly spread over the game).
PAUSES = 8


@dataclass(frozen=True)
class Game:
    """A scenario, its options and who plays each seat (a policy spec, ``first`` or ``random``)."""

    scenario: str
    options: Mapping[str, Any]
    players: str
    seed: int = 5


#: Games of each shipped ruleset: every scenario whose runs have more than one task, with the
#: ruleset's own players where it has any (the medempires expert is left out: it re-plays the rolls
#: since its snapshot, which the scrambled events cannot do; ``tests/test_analysis.py`` checks its
#: games' shared continuations byte for byte).
GAMES: dict[str, tuple[Game, ...]] = {
    "medempires": (Game("vespers-1282", {}, "heuristic"), Game("vespers-1282", {}, "historical", seed=2)),
    "empires_middle_ages": (Game("endeavour", {"endeavour": "pillage", "rating": 6}, "first"),
                            Game("endeavour", {"endeavour": "conquest", "rating": 5, "population": 2,
                                               "c_results": 1, "fort": 3}, "first")),
    "variant_middle_sea": (Game("battle", {"attacker": "3INF@x,2CAV", "defender": "3INF+fort", "rounds": "all"},
                                "first"),
                           Game("battle", {"attacker": "6GAL@venice", "defender": "5SHIP+manned", "rounds": "all"},
                                "random"),
                           Game("spy-attempt", {"dice": 2, "bonuses": "1", "minus": 0}, "first"),
                           Game("play-order", {}, "random")),
    "empires_revolt": (Game("battle", {"attacker": "3xA2+support1", "defender": "blank+city"}, "first"),
                       Game("conquest-3", {}, "heuristic"), Game("conquest-2", {}, "random", seed=8)),
    "medieval-xiii": (Game("three-players", {"max_rounds": 6}, "heuristic"),
                      Game("four-players", {"max_rounds": 4, "trading": True}, "heuristic", seed=3),
                      Game("three-players", {"max_rounds": 4}, "random")),
}


def _players(rs: Ruleset, game: Game) -> dict[str, Policy]:
    seats = [s.id for s in rs.seats(game.scenario)]
    if game.players == "first":
        return {s: FirstOptionPolicy() for s in seats}
    if game.players == "random":
        return {s: RandomPolicy(game.seed * 7 + i) for i, s in enumerate(seats)}
    return {s: parse_player(game.players, rs) for s in seats}


def _other_card(pool: tuple[str, ...], card: str) -> str:
    return next((c for c in pool if c != card), card + "'")


def scrambled(e: Event) -> Event:
    """``e`` with everything a run must not read back changed; its id, and a decision's choice, kept."""
    if isinstance(e, RollEvent):
        return replace(e, faces=tuple(f + 1 for f in e.faces), natural=e.natural + 1, value=e.value + 1,
                       effects=None)
    if isinstance(e, DrawEvent):
        return replace(e, natural=_other_card(e.pool, e.natural), value=_other_card(e.pool, e.value))
    if isinstance(e, ShuffleEvent):
        return replace(e, natural=e.natural[::-1], order=e.order[::-1])
    if isinstance(e, ChangeEvent | ReportEvent):
        return replace(e, data=FrozenDict({"scrambled": True}))
    if isinstance(e, DecisionEvent):
        return replace(e, options=(), legal_options=0, prompt="")
    return e


@dataclass
class Observed:
    """What playing on after scrambled events showed: boundaries tried (after at least one event) and
    the first where the rest of the game differed (or failed), if any."""

    boundaries: int = 0
    differs_at: str | None = None


def _reached(n: int, ctx: Any) -> bool:
    return len(ctx.events) >= n


def observe(rs: Ruleset, game: Game, players: Mapping[str, Policy] | None = None) -> Observed:
    """Play ``game`` on from up to ``PAUSES`` task boundaries after scrambled events (module docstring)."""
    spec = GameSpec(rs, game.scenario, game.options, game.seed, dict(players or _players(rs, game)))
    whole = run(spec, keep_snapshots=False)
    seen: list[int] = []

    def note(ctx: Any) -> bool:
        seen.append(len(ctx.events))
        return False

    run(spec, keep_snapshots=False, pause_when=note)
    at = sorted({n for n in seen if n > 0})
    picked = at[:: max(1, -(-len(at) // PAUSES))]
    got = Observed()
    for n in picked:
        part = run(spec, keep_snapshots=False, pause_when=functools.partial(_reached, n))
        assert part.paused is not None and part.events == whole.events[: part.paused.seq]
        got.boundaries += 1
        try:
            rest = run(spec, part.paused, [scrambled(e) for e in part.events], keep_snapshots=False)
        except Exception as exc:  # noqa: BLE001 - a rule or player that read a scrambled event and could not go on
            got.differs_at = f"event {n}: {type(exc).__name__}: {exc}"
            return got
        if rest.events[n:] != whole.events[n:] or rs.outcome(rest.state) != rs.outcome(whole.state):
            got.differs_at = f"event {n}"
            return got
    return got


def test_every_shipped_ruleset_has_games_here() -> None:
    assert set(GAMES) == {ep.name for ep in entry_points(group=GROUP)}


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_declaration_is_what_the_runs_do(game_id: str) -> None:
    rs = get_ruleset(game_id)
    observed = [observe(rs, g) for g in GAMES[game_id]]
    reads = [o.differs_at for o in observed if o.differs_at is not None]
    if rs.reads_past_events:
        assert reads, f"{game_id} declares reads_past_events = True but no run here reads a past event back"
    else:
        assert not reads, f"{game_id} declares reads_past_events = False but a run read past events: {reads}"
    if game_id != "empires_middle_ages":  # its runs are one task each (below)
        assert sum(o.boundaries for o in observed) >= 2  # the check had something to say


def test_an_endeavour_is_one_task_so_no_later_task_can_read_its_events() -> None:
    """Empires of the Middle Ages runs each endeavour as one task: no boundary has an event behind it.
    A second task would make the check above play on from it."""
    rs = get_ruleset("empires_middle_ages")
    assert [observe(rs, g).boundaries for g in GAMES["empires_middle_ages"]] == [0, 0]


# -- the check catches readers ----------------------------------------------------------------------

_READ: dict[str, Callable[[Event], Any]] = {
    "roll": lambda e: e.value if isinstance(e, RollEvent) else None,
    "draw": lambda e: e.value if isinstance(e, DrawEvent) else None,
    "shuffle": lambda e: e.order[0] if isinstance(e, ShuffleEvent) and e.order else None,
    "change": lambda e: sorted(e.data) if isinstance(e, ChangeEvent) else None,
    "report": lambda e: sorted(e.data) if isinstance(e, ReportEvent) else None,
    "decision options": lambda e: len(e.options) if isinstance(e, DecisionEvent) else None,
}


@pytest.mark.parametrize("what", sorted(_READ))
def test_rule_code_that_reads_a_past_event_is_caught(what: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rs = get_ruleset("medieval-xiii")
    plain = type(rs).run_task
    read = _READ[what]

    def reading(self: Ruleset, task: Any, state: Any, ctx: Any) -> None:
        last = next((v for e in reversed(ctx.events) if (v := read(e)) is not None), None)
        ctx.report("read back", value=repr(last))  # what a past event said, in the record
        plain(self, task, state, ctx)

    monkeypatch.setattr(type(rs), "run_task", reading)
    assert observe(rs, GAMES["medieval-xiii"][0]).differs_at is not None


class _PastRollsReader:
    """Chooses by the sum of the game's past rolls (through ``running_game``), the second option while there
    are none: a player that reads them."""

    spec = "past-rolls"

    def choose(self, point: DecisionPoint) -> Any:
        game = running_game()
        assert game is not None
        total = sum(e.value for e in game.events if isinstance(e, RollEvent))
        return point.options[(total + 1) % len(point.options)]


@pytest.mark.parametrize("game_id", ["empires_revolt", "medieval-xiii"])
def test_a_player_that_reads_past_rolls_is_caught(game_id: str) -> None:
    rs = get_ruleset(game_id)
    game = next(g for g in GAMES[game_id] if g.players == "heuristic")
    seats = [s.id for s in rs.seats(game.scenario)]
    assert observe(rs, game, {s: _PastRollsReader() for s in seats}).differs_at is not None


# -- what the declaration buys: shared continuations, the same bytes -------------------------------

_PIVOTAL = {"variant_middle_sea": Game("battle", {"attacker": "3INF@x,2CAV", "defender": "3INF+fort", "rounds": "all"},
                                       "first"),
            "empires_revolt": Game("conquest-3", {"max_rounds": 4}, "heuristic"),
            "medieval-xiii": Game("three-players", {"max_rounds": 2}, "heuristic")}


@pytest.mark.parametrize("game_id", sorted(_PIVOTAL))
def test_pivotal_shares_continuations_with_the_same_bytes_as_every_face_played(game_id: str) -> None:
    from medviz.analysis.pivotal import pivotal
    from medviz.engine import play

    rs = get_ruleset(game_id)
    assert not rs.reads_past_events  # else pivotal plays every face in full and this says nothing
    game = _PIVOTAL[game_id]
    h = play(rs, game.scenario, game.options, seed=game.seed, players=_players(rs, game))
    keys = [e.roll for e in h.events if isinstance(e, RollEvent)]
    rolls = [keys[0], keys[len(keys) // 2]]
    shared = pivotal(h, budget=2, first=2, rolls=rolls, workers=1, progress=False)
    assert shared.to_json() == pivotal(h, budget=2, first=2, rolls=rolls, workers=1, progress=False,
                                       share=False).to_json()
