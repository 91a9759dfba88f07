"""The Mediterranean Empires ruleset as the engine sees it: its definition, its words, its players.

The scenarios, tasks and reducers are one declarative definition (definition.py): the whole
game (game/) and the one-battle scenario (one_battle.py). This module is the plug-in object
(``RULESET``, found through the ``medviz.rulesets`` entry point) and the plain words of events.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from medviz.engine.definition import DefinedRuleset, GameDefinition
from medviz.engine.errors import MalformedInput, MedvizError
from medviz.engine.events import ChangeEvent, DecisionEvent, DrawEvent, Event, PhaseEvent, ReportEvent, RollEvent
from medviz.engine.game import Context, Task
from medviz.engine.policy import DecisionPoint, Policy
from medviz.engine.portrayal import Place, Portrayal, Shades
from medviz.rules.datafiles import load_toml
from medviz.rules.medempires import combat
from medviz.rules.medempires.game.expert import expert_factory
from medviz.rules.medempires.game.legality import HumanPlayer
from medviz.rules.medempires.game.players import PLAYERS
from medviz.rules.medempires.game.datapair import DataPair, shipped_data
from medviz.rules.medempires.game.state import GameState
from medviz.rules.medempires.odds import Doctrine
from medviz.rules.medempires.one_battle import BATTLE_OPTIONS, BattleGame, new_battle, power_ids

__all__ = ["RULESET", "BattleGame", "MedEmpires", "describe", "new_battle", "power_ids"]


# --------------------------------------------------------------------------------------------
# Plain words
# --------------------------------------------------------------------------------------------
def describe(event: Event, pair: DataPair | None = None) -> str:
    """One event in plain words (for logs, notebooks and exported replays), named by ``pair`` else the shipped data."""
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

        return f"{who} draws {drawn_words(event.value, pair)}{mark} — {event.purpose or event.draw}"
    if isinstance(event, DecisionEvent):
        how = {"forced": " (only choice)", "recorded": " (as recorded)"}.get(event.source, "")
        question = (event.prompt or event.decision.rsplit("/", 1)[-1]).rstrip("?")
        from medviz.rules.medempires.game.options import describe_choice

        choice = describe_choice(event.choice, pair)
        return f"{who} — {question}: {choice}{how}"
    if isinstance(event, ChangeEvent):
        d = event.data
        c = event.change
        if c == "battle-eliminate":
            from medviz.rules.medempires.game.describe import unit_name

            return f"{d['side']} loses one {_power_name(d['power'], pair)} {unit_name(str(d['unit']))}"
        if c == "battle-result":
            return (f"{d['roller']} rolls {d['roll']}{d['drm']:+d} = {d['modified']} on the {d['table']} table, "
                    f"column {d['column']}: {d['result']}")
        if c == "battle-marker-spent":
            return f"{d['side']} expends {combat.MARKER_NAMES.get(d['marker'], d['marker'])} ({d['use']})"
        if c == "battle-king-killed":
            return f"the {_power_name(d['power'], pair)} King with the {d['side']} is killed (8.1)"
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

        text = describe_change(c, d, pair)
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

        text = describe_report(event.report, event.actor, d, pair)
        if text is not None:
            return text
        if event.report == "stratagem-earned":
            return f"the {d['side']} may draw a stratagem marker (DV+S)"
        return f"{event.report}: {dict(d)}"
    return repr(event)


def _power_name(power: str, pair: DataPair | None) -> str:
    """A power's name in ``pair`` (a game's override files), else the shipped one."""
    names = _power_names() if pair is None or not pair.key else _override_power_names(pair.key, pair)
    return names.get(power, power)


@lru_cache(maxsize=1)
def _power_names() -> dict[str, str]:
    """The shipped powers' names (read from powers.toml alone: a one-battle game loads nothing else)."""
    return {p["id"]: p.get("name", p["id"]).split(" (")[0] for p in load_toml(combat.DATA / "powers.toml")["power"]}


_OVERRIDE_NAMES: dict[str, dict[str, str]] = {}


def _override_power_names(key: str, pair: DataPair) -> dict[str, str]:
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
class MedEmpires(DefinedRuleset):
    """Mediterranean Empires for the engine: its definition (definition.py), words and players."""

    game = "medempires"
    title = "Mediterranean Empires: The Struggle for the Middle Sea, 1281–1350"
    #: The rules read the state; of past events only decisions' ids (a King's refuges are numbered,
    #: game/turn.py), and the expert player re-plays the rolls since its snapshot, which remakes the
    #: same state. The heuristic and historical players see only the decision point.
    reads_past_events = False

    def define(self) -> GameDefinition:
        """The game's one definition (scenarios, tasks, reducers)."""
        from medviz.rules.medempires.definition import build

        return build()

    def scenario_of(self, state: Any) -> str:
        return "battle" if isinstance(state, BattleGame) else str(state.scenario)

    def options(self, scenario: str) -> Mapping[str, Any]:
        """The switches of a whole-game scenario with their defaults (14.0 optional rules, house rules)."""
        if scenario == "battle":
            return {name: None for name in BATTLE_OPTIONS}
        self.definition.scenario(scenario)  # an unknown scenario is refused
        return {o.id: o.default for o in shipped_data().game_data.options.values()}

    def refusal(self, point: DecisionPoint, choice: Any) -> MedvizError:
        """``IllegalAction`` naming the rule that forbids ``choice`` here (legality.why_illegal)."""
        if not isinstance(point.state, GameState):  # a one-battle game: no whole-game rules to cite
            return super().refusal(point, choice)
        return HumanPlayer().refusal(point, choice)  # worded with the state's own map and data

    command_module = "medviz.rules.medempires.commands"

    def odds_arguments(self, parser: Any) -> None:
        """One table roll (field, raid) or a whole battle under stated choices (commands.py)."""
        from medviz.rules.medempires import commands

        commands.odds_arguments(parser)

    def run_odds(self, args: Any) -> int:
        from medviz.rules.medempires import commands

        return commands.cmd_odds(args)

    def play_arguments(self, scenario: str, parser: Any) -> None:
        """``--player-a``/``--player-b``, optional rules and override files (commands.py)."""
        from medviz.rules.medempires import commands

        if scenario == "battle":
            raise MalformedInput("one battle is played with `medviz battle --attacker SPEC --defender SPEC`")
        commands.play_arguments(parser)

    def play_setup(self, scenario: str, args: Any) -> tuple[dict[str, Any], dict[str, Policy]]:
        from medviz.rules.medempires import commands

        return commands.play_setup(scenario, args)

    def summary(self, history: Any) -> dict[str, Any]:
        """Result, cities that changed hands, battles, Kings and Popes who died (commands.summary)."""
        from medviz.rules.medempires import commands

        info = commands.summary(history)
        info.pop("battle_list", None)
        return info

    def summary_lines(self, history: Any, info: Mapping[str, Any]) -> list[str]:
        from medviz.rules.medempires import commands

        return commands.summary_lines(history, commands.summary(history))

    @property
    def policies(self) -> Mapping[str, Callable[..., Policy]]:
        """Ruleset-specific players by spec name."""
        return {"doctrine": lambda arg="": Doctrine.from_spec(arg), **PLAYERS, "expert": expert_factory}

    def describe(self, event: Event) -> str:
        return describe(event)

    def describe_in(self, state: Any, event: Event) -> str:
        """``describe`` with the names of the game's own map and data (``state.data_pair``, override files).

        A one-battle game always plays with the shipped data, so its words use the shipped names.
        """
        return describe(event, state.data_pair if isinstance(state, GameState) else None)

    # -- words and the map for the apps and pages (view.py, portrayal.py) -------------------------
    def roll_tags(self, event: RollEvent | DrawEvent) -> frozenset[str]:
        """``decisive`` for a roll on a combat results table (it decides a battle); not diplomacy rolls."""
        from medviz.rules.medempires.view import is_table_roll

        return _DECISIVE if isinstance(event, RollEvent) and is_table_roll(event.roll) else frozenset()

    def phase_names(self) -> Mapping[str, str]:
        """The phases of a game turn (5.1) in order, between the turn's start and the victory check."""
        return {"game turn": "game turn", **self.definition.phases, "victory": "victory"}

    def seat_title(self, seat: str, scenario: str, state: Any = None) -> str:
        """``Player B (Aragon)``: a player and the powers it plays (3.0), in the game's own data."""
        if scenario == "battle":
            return super().seat_title(seat, scenario, state)
        from medviz.rules.medempires.game.state import PLAYER_POWERS

        data = state.data if isinstance(state, GameState) else shipped_data().game_data
        powers = [data.powers[p].name.split(" (")[0] for p, s in PLAYER_POWERS.items() if s == seat]
        return f"Player {seat} ({' and '.join(powers)})" if powers else f"Player {seat}"

    def decision_kinds(self) -> Mapping[str, str]:
        """The decisions of a whole game and of a battle (``choices.Decision``), in words."""
        from medviz.rules.medempires.choices import DECISION_WORDS

        return DECISION_WORDS

    def describe_option(self, point: DecisionPoint, option: Any) -> str:
        """An option in words (a typed option's words), with the game's own map and data (override files)."""
        from medviz.rules.medempires.game.options import describe_choice

        if not isinstance(point.state, GameState):
            return super().describe_option(point, option)
        return describe_choice(option, point.state.data_pair)

    def turn_label(self, scenario: str, turn: int) -> str:
        """``GT2 (1291-1300)``: a game turn with the years it stands for (the scenario's turn_years); GT0: set-up."""
        if turn == 0:
            return "set-up"
        sc = shipped_data().game_data.scenarios.get(scenario)
        years = sc.turn_years if sc is not None else ()
        return f"GT{turn} ({years[turn - 1][0]}-{years[turn - 1][1]})" if 0 < turn <= len(years) else f"GT{turn}"

    def key_areas(self, scenario: str) -> tuple[str, ...]:
        """Vespers: the areas 13.0 names (Sicily, Malta, Aragon's guarded lands); else the cities (4.1)."""
        if scenario == "battle":
            return ()
        data = shipped_data()
        victory = data.game_data.scenarios[scenario].victory  # an unknown scenario: KeyError below
        if victory.get("kind") == "vespers":
            return tuple(victory["b_must_control"]) + tuple(victory["a_must_not_take"])
        return tuple(sorted(a for a, area in data.game_map.areas.items() if area.city))

    def table_scenarios(self) -> tuple[str, ...]:
        """The whole-game scenarios (a one-battle game is played by the dice lab, not at a table)."""
        return tuple(s for s in self.scenarios() if s != "battle")

    def setup_shortcut(self, point: DecisionPoint) -> str | None:
        """``set up as in 1282`` while starting counters are placed (3.0-3.3.1: the default deployment)."""
        from medviz.rules.medempires.game.deploy import SETUP_PHASE

        if point.phase != SETUP_PHASE or not isinstance(point.state, GameState):
            return None
        sc = point.state.data.scenarios[point.state.scenario]
        year = int(sc.turn_years[0][0]) if sc.turn_years else 0
        return f"set up as in {year}"

    def view_at(self, history: Any, seq: int) -> Any:
        """The map view after event ``seq`` (view.history_view); None for a one-battle history."""
        from medviz.rules.medempires.view import history_view

        return history_view(history, seq)

    def live_view(self, state: Any, events: Sequence[Event], turn: int | None = None,
                  phase: str | None = None) -> Any:
        """The map view of a game at a table (view.live_view)."""
        from medviz.rules.medempires.view import live_view

        return live_view(state, events, turn, phase)

    def portray(self, view: Any, places: Mapping[str, Place], shades: Shades) -> Portrayal:
        """A view of view.py as the map shows it (portrayal.py); a ``Portrayal`` as it is."""
        if isinstance(view, Portrayal):
            return view
        from medviz.rules.medempires.portrayal import portray

        return portray(view, places, shades)

    def compare_views(self, before: Any, after: Any) -> list[str]:
        """Areas that end in other hands (3.4) and victory points (4.0) of two views, as sentences."""
        from medviz.rules.medempires.words import compare_words

        return compare_words(before, after)

    def describe_roll(self, history: Any, event: RollEvent | DrawEvent) -> str:
        """``Aragon's attack roll in the sea battle in the Strait of Sicily, game turn 3 (1302–1310)``."""
        from medviz.rules.medempires.words import roll_words

        return roll_words(history, event)

    def describe_value(self, event: RollEvent | DrawEvent, value: Any) -> str:
        """A drawn stratagem marker or King by name (9.0, 8.1); a die's face as it is."""
        if isinstance(event, DrawEvent):
            from medviz.rules.medempires.game.describe import drawn_words

            return drawn_words(value)
        return str(value)

    def result_key(self, event: RollEvent | DrawEvent) -> list[tuple[str, str]]:
        """The combat results (CA, NE, BB, DV, DV+S) a roll may give, named and explained (Combat Results)."""
        from medviz.rules.medempires.words import result_key

        return result_key(event)

    def describe_outcome(self, history: Any) -> str:
        """The winner and the one reason that decides it (4.0, 13.0)."""
        from medviz.rules.medempires.words import outcome_words

        return outcome_words(history)

    def area_names(self, areas: Sequence[str]) -> list[str]:
        """Area names of the shipped map."""
        from medviz.rules.medempires.words import area_names

        return area_names(None, areas)

    def scores(self, view: Any) -> list[tuple[str, str, Mapping[str, int]]]:
        """Treasury points (6.1) and victory points (4.0) by player."""
        if not isinstance(view, Mapping):
            return []
        return [("TP", "treasury points (6.1)", dict(view.get("tp") or {})),
                ("VP", "victory points (4.0)", dict(view.get("vp") or {}))]


_DECISIVE = frozenset({"decisive"})

RULESET = MedEmpires()
