"""The Empire's Revolt ruleset: the ``battle`` scenario (dice-offs) with its exact odds, and the whole game
on the reconstructed 300 BCE map for 2, 3 or 4 players (``conquest-2``, ``conquest-3``, ``conquest-4``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from medviz.engine.definition import DefinedRuleset, GameDefinition, ScenarioDefinition
from medviz.engine.errors import MalformedInput
from medviz.engine.events import ChangeEvent, DrawEvent, Event, ReportEvent, RollEvent
from medviz.engine.game import Seat, Task
from medviz.engine.policy import DecisionPoint, Policy
from medviz.engine.portrayal import Place, Portrayal, Shades
from medviz.rules.empires_revolt import combat, conquest, words
from medviz.rules.empires_revolt.combat import BattleGame
from medviz.rules.empires_revolt.data import Rules, load_rules
from medviz.rules.empires_revolt.mapdata import load_map
from medviz.rules.empires_revolt.odds import battle_odds

#: A player's turn (rules 62-65), after the set-up (rule 2).
PHASES = {"set-up": "Set-up: capital cards (rule 2)", "collect": "Collect resources (rule 63)",
          "upkeep": "Pay upkeep (rule 64)", "troop-actions": "Troop actions (rule 65)"}

SPEC_HELP = """\
Attacker: [Nx]A<dice>[+convoy][+support<n>][+capital], or [Nx]ship.
  A<dice>: the A number of the capital card (rule 3); +convoy: landing from a ship, +1 die (rule 28);
  +support<n>: n ships on the coast, +1 die each (rule 29); +capital: attacking from the capital,
  defeated armies survive (rule 8); Nx: N armies fighting one after another.
Defender: [Nx]army:D<dice> (rule 24), [Nx]ship (rule 32), or a territory: own-revolt, other-revolt,
  blank, held@D<d>, vacated, illyria (each +city where it has cities), settled@D<d>[+fort].
Option city_rule=50 (a player's city rolls D+1, default) or 21 (three dice).
Example: --attacker 3xA2+support1 --defender blank+city"""


class EmpiresRevolt(DefinedRuleset):
    """Empire's Revolt (Ian Hacker, 2018) on the medviz engine."""

    game = "empires_revolt"
    title = "Empire's Revolt"
    spec_help = SPEC_HELP
    #: The rules read the state and their own rolls and draws; the heuristic player only the decision
    #: point (tests/test_reads_past_events.py).
    reads_past_events = False

    def __init__(self, data: str | Path | Mapping[str, Any] | None = None) -> None:
        self.rules: Rules = load_rules(data)

    def define(self) -> GameDefinition:
        rules = self.rules

        def setup(options: Mapping[str, Any]) -> tuple[BattleGame, list[Task]]:
            return BattleGame("battle", combat.new_battle(options, rules)), [Task.of("er.battle", checkpoint=True)]

        def conquest_setup(scenario: str) -> Callable[[Mapping[str, Any]], tuple[Any, list[Task]]]:
            def start(options: Mapping[str, Any]) -> tuple[Any, list[Task]]:
                override = options.get("map_override")
                if override is not None and not isinstance(override, str):
                    raise MalformedInput(f"empires_revolt {scenario}: option map_override must be a file path, "
                                         f"not {override!r}")
                state = conquest.new_state(scenario, options, rules, load_map(rules, override))
                return state, [Task.of("er.setup", checkpoint=True)]
            return start

        seats = (Seat("attacker", "Attacker", "#1f5fa8"), Seat("defender", "Defender", "#b8322a"))
        scenarios = {"battle": ScenarioDefinition("battle", setup, lambda s: combat.outcome(s.battle), seats,
                                                  "A fight: dice-offs, ties rerolled (rules 17-32)")}
        for name, n in conquest.SCENARIO_SEATS.items():
            scenarios[name] = ScenarioDefinition(
                name, conquest_setup(name), conquest.outcome,
                tuple(Seat(s, f"Player {s}", conquest.COLOURS[s]) for s in conquest.SEAT_IDS[:n]),
                f"{n} players on the Mediterranean of 300 BCE (reconstructed map), to victory (rules 2-76)")
        reducers: dict[str, Callable[..., None]] = {name: combat.reducer(name) for name in combat.CHANGES}
        reducers.update({name: conquest.reducer(name) for name in conquest.CHANGES})
        return GameDefinition(
            scenarios=scenarios,
            tasks={"er.battle": lambda s, ctx: combat.task_battle(s.battle, ctx),
                   "er.fight": lambda s, ctx: combat.task_fight(s.battle, ctx),
                   "er.setup": conquest.task_setup, "er.turn": conquest.task_turn},
            reducers=reducers, phases=PHASES)

    def options(self, scenario: str) -> Mapping[str, Any]:
        """The scenario's options and defaults."""
        self.definition.scenario(scenario)
        if scenario in conquest.SCENARIO_SEATS:
            return {"max_rounds": conquest.DEFAULT_MAX_ROUNDS, "city_rule": "50", "capital_supply": "turn",
                    "map_override": None}
        return {"attacker": None, "defender": None, "city_rule": "50"}

    @property
    def policies(self) -> Mapping[str, Callable[..., Policy]]:
        """The conquest's heuristic player (``players.HeuristicPolicy``)."""
        from medviz.rules.empires_revolt.players import HeuristicPolicy

        return {"heuristic": HeuristicPolicy.from_spec}

    def decision_kinds(self) -> Mapping[str, str]:
        """The conquest asks one kind of decision: the next action of a turn (rule 65)."""
        return {"action": "an action of a player's turn, or its end (rules 14, 65)"}

    def describe_option(self, point: DecisionPoint, option: Any) -> str:
        """An action in words (the play table's buttons)."""
        state = point.state if isinstance(point.state, conquest.ConquestState) else None
        return words.option_words(state, option)

    def seat_title(self, seat: str, scenario: str, state: Any = None) -> str:
        """``Player A (Rome)`` once the capital cards are drawn."""
        if isinstance(state, conquest.ConquestState) and seat in state.capital_of:
            return f"Player {seat} ({self.rules.capitals[state.capital_of[seat]].name})"
        return super().seat_title(seat, scenario, state)

    def roll_tags(self, event: RollEvent | DrawEvent) -> frozenset[str]:
        """``decisive`` for the dice of a dice-off (rule 22): one of them settles the fight."""
        if isinstance(event, RollEvent) and "/throw-" in event.roll:
            return frozenset({"decisive"})
        return frozenset()

    def turn_label(self, scenario: str, turn: int) -> str:
        """``round 3`` in a conquest (every player's turn once), else ``turn 3``."""
        return f"round {turn}" if scenario in conquest.SCENARIO_SEATS else f"turn {turn}"

    def describe_roll(self, history: Any, event: RollEvent | DrawEvent) -> str:
        """A conquest's fight die in words: ``Player A's attack die 1 against Etruria, round 3 (throw 1)``."""
        roll = getattr(event, "roll", "")
        parts = roll.split("/")
        if not roll.startswith("round-") or "/throw-" not in roll or len(parts) < 7:
            return super().describe_roll(history, event)
        fight = next((e for e in history.events[event.seq:] if isinstance(e, ChangeEvent)
                      and e.change in ("er-attack", "er-sea-fight")), None)
        where = ""
        if fight is not None:
            area = fight.data.get("target") or fight.data.get("sea", "")
            state = history.state_at(event.seq)
            where = f" {'in' if 'sea-fight' in roll else 'on'} {state.map.areas[area].name}" \
                if area in state.map.areas else ""
        what = "sea attack" if "sea-fight" in roll else "attack"
        return (f"Player {parts[1]}'s {what}{where}: the {parts[-2]}'s {parts[-1].replace('-', ' ')}, "
                f"{parts[0].replace('-', ' ')} ({parts[-3].replace('-', ' ')})")

    # -- the map (mapview.py) ----------------------------------------------------------------
    def view_at(self, history: Any, seq: int) -> Any:
        """The conquest's map view after event ``seq`` (a battle has no map)."""
        from medviz.rules.empires_revolt.mapview import history_view

        return history_view(history, seq)

    def live_view(self, state: Any, events: Sequence[Event], turn: int | None = None,
                  phase: str | None = None) -> Any:
        """The map view of a conquest being played."""
        from medviz.rules.empires_revolt.mapview import state_view

        if not isinstance(state, conquest.ConquestState):
            return None
        return state_view(state, events, phase)

    def map_name(self, view: Any) -> str:
        """The conquest is drawn on the reconstructed 300 BCE map (geodata ``empires-revolt-300bce``)."""
        return view.map if isinstance(view, Portrayal) else "empires-revolt-300bce"

    def portray(self, view: Any, places: Mapping[str, Place], shades: Shades) -> Portrayal:
        """A conquest view as the map shows it (mapview.portray)."""
        if isinstance(view, Portrayal) or not isinstance(view, Mapping):
            return super().portray(view, places, shades)
        from medviz.rules.empires_revolt.mapview import portray

        return portray(view, places, shades)

    def scores(self, view: Any) -> list[tuple[str, str, Mapping[str, int]]]:
        """Regions and cities held by seat (rules 71-76)."""
        if not isinstance(view, Mapping) or "seats" not in view:
            return []
        return [("regions", "regions held (rules 71-73)", {s: i["regions"] for s, i in view["seats"].items()}),
                ("cities", "cities held (rule 76)", {s: i["cities"] for s, i in view["seats"].items()})]

    def compare_views(self, before: Any, after: Any) -> list[str]:
        """Regions that end in other hands, and regions held by seat."""
        if not isinstance(before, Mapping) or not isinstance(after, Mapping):
            return []
        a, b = before["owner"], after["owner"]
        moved = sorted(x for x in set(a) | set(b) if a.get(x) != b.get(x))
        names = after["areas"]
        lines = ["Regions that changed hands: " + ", ".join(
            f"{names[x]['name']} ({a.get(x) or 'nobody'} → {b.get(x) or 'nobody'})" for x in moved)
            if moved else "No region ends in other hands."]
        ra = {s: i["regions"] for s, i in before["seats"].items()}
        rb = {s: i["regions"] for s, i in after["seats"].items()}
        if ra != rb:
            lines.append(f"Regions held: {ra} → {rb}")
        return lines

    # -- medviz play empires_revolt/conquest-N --players 2|3|4 --------------------------------
    _BY_COUNT: ClassVar[Mapping[int, str]] = {n: name for name, n in conquest.SCENARIO_SEATS.items()}

    def play_arguments(self, scenario: str, parser: Any) -> None:
        """``--players 2|3|4`` plays the conquest for that many; ``--player SEAT=POLICY`` and ``--option`` as for any game."""
        parser.add_argument("--players", type=int, choices=sorted(self._BY_COUNT),
                            help="how many players on the 300 BCE map (picks conquest-2, -3 or -4)")
        super().play_arguments(scenario, parser)

    def play_scenario(self, scenario: str, args: Any) -> str:
        n = getattr(args, "players", None)
        return self._BY_COUNT[n] if n else scenario

    def summary(self, history: Any) -> dict[str, Any]:
        """A conquest: the outcome contract (winner, scores, reason) plus how it was won; a battle: the default."""
        if history.scenario not in conquest.SCENARIO_SEATS:
            return super().summary(history)
        o = history.outcome
        return {"winner": o["winner"], "scores": dict(o["scores"]), "reason": o["reason"], "victory": o["victory"],
                "round": o["round"], "capitals": dict(o["capitals"]), "scenario": history.scenario,
                "seed": history.seed, "players": {a: p.spec for a, p in sorted(history.spec.players.items())},
                "events": len(history.events)}

    def summary_lines(self, history: Any, info: Mapping[str, Any]) -> list[str]:
        if history.scenario not in conquest.SCENARIO_SEATS:
            return super().summary_lines(history, info)
        winner = info["winner"]
        who = ", ".join(winner) + " (tied)" if isinstance(winner, list) else str(winner)
        caps = ", ".join(f"{s}: {self.rules.capitals[c].name}" for s, c in info["capitals"].items())
        scores = ", ".join(f"{s} {n}" for s, n in sorted(info["scores"].items(), key=lambda kv: -kv[1]))
        return [f"Empire's Revolt, {history.scenario}, seed {history.seed} ({caps})",
                f"Winner: {who} after {info['round']} round(s)", f"Regions held: {scores}",
                f"How it ended: {info['reason']}"]

    def battle_odds(self, attacker: str, defender: str, options: Mapping[str, str]) -> dict[str, Any]:
        """Exact odds as JSON-ready data; see ``spec_help``."""
        return battle_odds(attacker, defender, options, self.rules)

    def describe(self, event: Event) -> str:
        """The event in plain words."""
        if isinstance(event, ChangeEvent) and event.change in conquest.CHANGES:
            return words.change_words(self.rules, event)
        if isinstance(event, RollEvent):
            return f"{event.roll}: {event.value}"
        if isinstance(event, ReportEvent) and event.report == "er-tie":
            return f"fight {event.data['fight']}: tie at {event.data['high']} on throw {event.data['throw']}, roll again"
        if isinstance(event, ChangeEvent) and event.change == "er-fight":
            d = event.data
            return f"fight {d['fight']}: the {d['winner']} wins after {d['throws']} throw(s); the {d['loser']} loses {d['lost']}"
        return super().describe(event)


#: The shipped ruleset (entry point ``medviz.rules.empires_revolt.ruleset:RULESET``).
RULESET = EmpiresRevolt()
