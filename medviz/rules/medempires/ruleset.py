"""The Mediterranean Empires ruleset as the engine sees it: scenarios, tasks, reducer, words.

Scenarios register here. ``battle`` resolves one battle between two forces in one area (the
combat slice, 10.3 and 11.3); the whole-game scenarios register their tasks and reducers the
same way (``register_scenario``, ``TASKS``, ``REDUCERS``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from medviz.engine.errors import MalformedInput, UnknownReference
from medviz.engine.events import ChangeEvent, DecisionEvent, DrawEvent, Event, PhaseEvent, ReportEvent, RollEvent
from medviz.engine.game import Context, Task
from medviz.engine.policy import Policy
from medviz.rules.datafiles import load_toml
from medviz.rules.medempires import combat
from medviz.rules.medempires.combat import BattleState
from medviz.rules.medempires.odds import Doctrine


@lru_cache(maxsize=1)
def power_ids() -> tuple[str, ...]:
    """Ids of every power in data/powers.toml."""
    return tuple(p["id"] for p in load_toml(combat.DATA / "powers.toml")["power"])


# --------------------------------------------------------------------------------------------
# Scenario registry
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Scenario:
    """How a scenario sets up, copies and judges its state."""

    name: str
    setup: Callable[[Mapping[str, Any]], tuple[Any, list[Task]]]
    copy_state: Callable[[Any], Any]
    outcome: Callable[[Any], dict[str, Any]]
    actors: tuple[str, ...]


SCENARIOS: dict[str, Scenario] = {}
TASKS: dict[str, Callable[..., None]] = {}
REDUCERS: dict[str, Callable[[Any, ChangeEvent], None]] = {}


def register_scenario(s: Scenario) -> None:
    """Make a scenario known to the ruleset."""
    SCENARIOS[s.name] = s


# --------------------------------------------------------------------------------------------
# The battle scenario
# --------------------------------------------------------------------------------------------
@dataclass
class BattleGame:
    """State of the ``battle`` scenario: one battle."""

    battle: BattleState


BATTLE_OPTIONS = ("attacker", "defender", "city", "ops", "interception")


def new_battle(options: Mapping[str, Any], prefix: str = "battle-1") -> BattleState:
    """A battle from options ``attacker``/``defender`` (SPEC strings), ``city``, ``ops``, ``interception``."""
    unknown = sorted(set(options) - set(BATTLE_OPTIONS))
    if unknown:
        raise MalformedInput(f"battle options: unknown option(s) {unknown}; known: {list(BATTLE_OPTIONS)}")
    for need in ("attacker", "defender"):
        if not isinstance(options.get(need), str):
            raise MalformedInput(f"battle options: {need!r} must be a force SPEC such as 'aragon:2FA,1L,K2'")
    att = combat.parse_force(options["attacker"], "attacker", power_ids(), "attacker")
    dfd = combat.parse_force(options["defender"], "defender", power_ids(), "defender")
    if len({p for p, _ in att.units}) > 1:
        from medviz.engine.errors import IllegalAction

        raise IllegalAction("attacker: a force cannot consist of units of different powers", "10.0")
    kind = combat.battle_kind(att, dfd)
    ops = options.get("ops", 0)
    if isinstance(ops, bool) or not isinstance(ops, int) or not 0 <= ops <= combat.OPS_MAX:
        raise MalformedInput(f"battle options: ops must be a whole number 0..{combat.OPS_MAX} (10.0), not {ops!r}")
    city = bool(options.get("city", False))
    if city and kind == "sea":
        raise MalformedInput("battle options: a naval battle is fought in a sea area, which has no city")
    b = BattleState(prefix, kind, city, {"attacker": att, "defender": dfd}, ops=ops,
                    may_avoid=not options.get("interception", False))
    b.initial = {s: dict(b.sides[s].units) for s in combat.SIDES}
    return b


def _battle_setup(options: Mapping[str, Any]) -> tuple[BattleGame, list[Task]]:
    return BattleGame(new_battle(options)), [Task.of("battle.combat", checkpoint=True)]


def _battle_copy(g: BattleGame) -> BattleGame:
    return BattleGame(g.battle.copy())


def _battle_outcome(g: BattleGame) -> dict[str, Any]:
    return combat.battle_outcome(g.battle)


register_scenario(Scenario("battle", _battle_setup, _battle_copy, _battle_outcome, ("attacker", "defender")))

TASKS["battle.combat"] = lambda s, ctx: combat.task_combat(s.battle, ctx)
TASKS["battle.round"] = lambda s, ctx, table, roller: combat.task_round(s.battle, ctx, table, roller)
TASKS["battle.end"] = lambda s, ctx: combat.task_end(s.battle, ctx)
for _name in ("battle-eliminate", "battle-marker-spent", "battle-result", "battle-king-killed",
              "battle-avoided", "battle-raiders-only", "battle-ops-spent", "battle-combat-begins",
              "battle-round-begins", "battle-ends"):
    REDUCERS[_name] = lambda s, e, _n=_name: combat.apply_battle_change(s.battle, _n, e.data)  # type: ignore[misc]


# --------------------------------------------------------------------------------------------
# Plain words
# --------------------------------------------------------------------------------------------
def describe(event: Event) -> str:
    """One event in plain words (for logs, notebooks and exported replays)."""
    who = event.actor or ""
    if who in ("A", "B"):
        who = f"Player {who}"
    if isinstance(event, PhaseEvent):
        from medviz.rules.medempires.game.describe import phase_words

        words = phase_words(event.name)
        return f"Turn {event.turn}: {words}" if event.turn else f"{words[:1].upper()}{words[1:]}"
    if isinstance(event, RollEvent):
        mark = f" (changed from {event.natural})" if event.overridden else ""
        meaning = f" → {event.effects[str(event.value)]}" if event.effects and str(event.value) in event.effects else ""
        return f"{who} rolls {event.dice} for {event.purpose or event.roll}: {event.value}{mark}{meaning}"
    if isinstance(event, DrawEvent):
        mark = f" (changed from {event.natural})" if event.overridden else ""
        from medviz.rules.medempires.game.describe import drawn_words

        return f"{who} draws {drawn_words(event.value)}{mark} — {event.purpose or event.draw}"
    if isinstance(event, DecisionEvent):
        how = {"forced": " (only choice)", "recorded": " (as recorded)"}.get(event.source, "")
        question = (event.prompt or event.decision.rsplit("/", 1)[-1]).rstrip("?")
        from medviz.rules.medempires.game.describe import describe_choice

        choice = describe_choice(event.choice)
        return f"{who} — {question}: {choice}{how}"
    if isinstance(event, ChangeEvent):
        d = event.data
        c = event.change
        if c == "battle-eliminate":
            from medviz.rules.medempires.game.describe import unit_name

            return f"{d['side']} loses one {_power_name(d['power'])} {unit_name(str(d['unit']))}"
        if c == "battle-result":
            return (f"{d['roller']} rolls {d['roll']}{d['drm']:+d} = {d['modified']} on the {d['table']} table, "
                    f"column {d['column']}: {d['result']}")
        if c == "battle-marker-spent":
            return f"{d['side']} expends {combat.MARKER_NAMES.get(d['marker'], d['marker'])} ({d['use']})"
        if c == "battle-king-killed":
            return f"the {_power_name(d['power'])} King with the {d['side']} is killed (8.1)"
        if c == "battle-avoided":
            return "the defender avoids combat (10.3.1)"
        if c == "battle-raiders-only":
            return "only the attacker's raiders fight (10.3.1)"
        if c == "battle-ops-spent":
            return f"the attacker spends {d['ops']} OPs to attack again"
        if c == "battle-ends":
            return f"the battle ends: {'no winner' if d['winner'] in (None, 'none') else 'winner ' + str(d['winner'])}"
        if c in ("battle-combat-begins", "battle-round-begins"):
            return c.replace("battle-", "").replace("-", " ")
        from medviz.rules.medempires.game.describe import describe_change

        text = describe_change(c, d)
        return text if text is not None else f"{c}: {dict(d)}"
    if isinstance(event, ReportEvent):
        d = event.data
        if event.report == "initiative":
            return f"initiative: attacker {d['attacker']} vs defender {d['defender']}, {d['winner']} wins"
        if event.report == "avoid-result":
            return f"avoid roll {d['roll']}{d['drm']:+d} = {d['modified']}: {d['result']}"
        if event.report == "combat-declared":
            return f"combat declared: {d['attacker']} attacking unit(s) against {d['defender']}"
        from medviz.rules.medempires.game.describe import describe_report

        text = describe_report(event.report, event.actor, d)
        if text is not None:
            return text
        if event.report == "stratagem-earned":
            return f"the {d['side']} may draw a stratagem marker (DV+S)"
        return f"{event.report}: {dict(d)}"
    return repr(event)


def _power_name(power: str) -> str:
    """A power's name in the active game's data (override files, ``using_data``), else the shipped one."""
    pair = _ACTIVE_DATA.get()
    names = _power_names() if pair is None or not pair.key else _override_power_names(pair.key, pair)
    return names.get(power, power)


@lru_cache(maxsize=1)
def _power_names() -> dict[str, str]:
    """The shipped powers' names (read from powers.toml alone: a one-battle game loads nothing else)."""
    return {p["id"]: p.get("name", p["id"]).split(" (")[0] for p in load_toml(combat.DATA / "powers.toml")["power"]}


_OVERRIDE_NAMES: dict[str, dict[str, str]] = {}


def _override_power_names(key: str, pair: Any) -> dict[str, str]:
    """The powers' names of an override game, by the data pair's content key (made once per pair)."""
    names = _OVERRIDE_NAMES.get(key)
    if names is None:
        if len(_OVERRIDE_NAMES) >= 8:
            _OVERRIDE_NAMES.pop(next(iter(_OVERRIDE_NAMES)))
        names = _OVERRIDE_NAMES[key] = {pid: p.name.split(" (")[0] for pid, p in pair.game_data.powers.items()}
    return names


# --------------------------------------------------------------------------------------------
# The ruleset object
# --------------------------------------------------------------------------------------------
class MedEmpires:
    """Mediterranean Empires for the engine."""

    game = "medempires"

    @property
    def policies(self) -> Mapping[str, Callable[..., Policy]]:
        """Ruleset-specific players by spec name."""
        from medviz.rules.medempires.game.players import PLAYERS

        return {"doctrine": lambda arg="": Doctrine.from_spec(arg), **PLAYERS}

    def _scenario(self, name: str) -> Scenario:
        s = SCENARIOS.get(name)
        if s is None:
            raise UnknownReference(f"unknown scenario {name!r}; known: {', '.join(sorted(SCENARIOS))}")
        return s

    # A whole game's state carries the map and data it is played with (user override files,
    # ``data_pair``); every call below runs with that data active, a battle-only state with
    # the shipped data. The active data is switched only when it differs (one identity test).
    # (Caches derived from the data must be keyed by it: see players.py ``_Same``.)
    @staticmethod
    def _enter(state: Any) -> Any:
        """Activate ``state``'s data; a token to pass to ``_leave`` (None: nothing was changed)."""
        pair = getattr(state, "data_pair", None)
        if _ACTIVE_DATA.get() is pair:
            return None
        return _ACTIVE_DATA.set(pair)

    @staticmethod
    def _leave(token: Any) -> None:
        if token is not None:
            _ACTIVE_DATA.reset(token)

    def setup(self, scenario: str, options: Mapping[str, Any]) -> tuple[Any, list[Task]]:
        sc = self._scenario(scenario)
        if isinstance(options, Mapping) and any(k in options for k in ("map_override", "data_override")) \
                and scenario != "battle":
            from medviz.rules.medempires.game.setup import data_for_options

            pair = data_for_options(scenario, options)  # the options' override files (cached by content)
        else:
            pair = None
        token = _ACTIVE_DATA.set(pair)
        try:
            return sc.setup(options)
        finally:
            _ACTIVE_DATA.reset(token)

    def run_task(self, task: Task, state: Any, ctx: Context) -> None:
        token = self._enter(state)
        try:
            TASKS[task.name](state, ctx, **task.args)
        finally:
            if token is not None:
                _ACTIVE_DATA.reset(token)

    def apply(self, state: Any, event: ChangeEvent) -> None:
        token = self._enter(state)
        try:
            REDUCERS[event.change](state, event)
        finally:
            if token is not None:
                _ACTIVE_DATA.reset(token)

    def copy_state(self, state: Any) -> Any:
        # Copies read no data; ``GameState.copy`` shares the data pair with the copy.
        for s in SCENARIOS.values():
            if isinstance(state, BattleGame) and s.name == "battle":
                return s.copy_state(state)
        return SCENARIOS[getattr(state, "scenario", "battle")].copy_state(state)

    def outcome(self, state: Any) -> dict[str, Any]:
        name = "battle" if isinstance(state, BattleGame) else state.scenario
        token = self._enter(state)
        try:
            return SCENARIOS[name].outcome(state)
        finally:
            self._leave(token)

    def describe(self, event: Event) -> str:
        return describe(event)

    def describe_in(self, state: Any, event: Event) -> str:
        """``describe`` with the game's own map and data active (override files, see setup.py).

        A one-battle game always plays with the shipped data, so its words use the shipped names.
        """
        from medviz.rules.medempires.game.state import GameState, using_data

        if not isinstance(state, GameState):
            if _ACTIVE_DATA.get() is None:
                return describe(event)
            with using_data(None):
                return describe(event)
        with using_data(state):
            return describe(event)

    def actors(self, scenario: str) -> tuple[str, ...]:
        """Who decides in ``scenario``."""
        return self._scenario(scenario).actors


RULESET = MedEmpires()
from medviz.rules.medempires import game as _game  # noqa: E402,F401  (registers the whole-game scenarios)
from medviz.rules.medempires.game.state import ACTIVE_DATA as _ACTIVE_DATA  # noqa: E402  (the active game data)
