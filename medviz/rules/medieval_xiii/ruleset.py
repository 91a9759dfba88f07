"""*Medieval: The XIIIth Century in Europe* (GMT 2004) on the medviz engine: the declared ruleset.

Scenarios ``three-players``, ``four-players`` and ``five-players``; seats ``A`` to ``E`` (the
Example of Play's letters). Options: ``data_override``, a TOML file patching the shipped data; ``max_rounds`` (default 60),
after which the game stops even if the deck has not ended it (a ruling, see the coverage doc);
``trading`` (default off), the tournament rule 13.1 as offers and answers (``trade.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from medviz.engine import DecisionPoint, History, IllegalAction, MalformedInput, MedvizError, Policy, Seat, Task
from medviz.engine.definition import DefinedRuleset, GameDefinition, ScenarioDefinition
from medviz.engine.events import ChangeEvent, DecisionEvent, DrawEvent, Event, RollEvent, ShuffleEvent
from medviz.engine.portrayal import Place, Portrayal, Shades
from medviz.rules.medieval_xiii import turn
from medviz.rules.medieval_xiii.gamedata import load_game_data
from medviz.rules.medieval_xiii.state import REDUCERS, MedievalState, copy_state
from medviz.rules.medieval_xiii.view import COLOURS, HIDDEN

__all__ = ["COLOURS", "GAME", "HIDDEN", "MedievalRuleset", "RULESET", "summary"]

GAME = "medieval-xiii"


def _setup(scenario: str) -> Callable[[Mapping[str, Any]], tuple[Any, list[Task]]]:
    def setup(options: Mapping[str, Any]) -> tuple[Any, list[Task]]:
        unknown = set(options) - {"data_override", "max_rounds", "trading"}
        if unknown:
            raise MalformedInput(f"{GAME}: unknown option(s) {', '.join(sorted(unknown))} "
                                 f"(known: data_override, max_rounds, trading)")
        trading = options.get("trading", False)
        if not isinstance(trading, bool):
            raise MalformedInput(f"{GAME}: option trading must be true or false, not {trading!r}")
        max_rounds = options.get("max_rounds", 60)
        if isinstance(max_rounds, bool) or not isinstance(max_rounds, int) or not 1 <= max_rounds <= 1000:
            raise MalformedInput(f"{GAME}: option max_rounds must be a whole number 1..1000, not {max_rounds!r}")
        override = options.get("data_override")
        if override is not None and not isinstance(override, str):
            raise MalformedInput(f"{GAME}: option data_override must be a file path, not {override!r}")
        data = load_game_data(override)
        state = turn.initial_state(scenario, data, max_rounds)
        state.trading = trading
        return state, [Task.of("prepare", checkpoint=True)]
    return setup


class MedievalRuleset(DefinedRuleset):
    """The rules of Medieval (1.0-13.0) as a medviz ruleset."""

    game = GAME
    title = "Medieval: The XIIIth Century in Europe"
    #: The rules read the state (a shuffle's order goes into it as the deck, 2.1, 2.5) and their own
    #: rolls and draws; the heuristic player only the observed decision point (tests/test_reads_past_events.py).
    reads_past_events = False

    def define(self) -> GameDefinition:
        scenarios = {
            name: ScenarioDefinition(
                name=name, setup=_setup(name), outcome=turn.outcome, copy_state=copy_state,
                seats=tuple(Seat(s, f"Player {s}", COLOURS[s]) for s in turn.SEAT_IDS[:n]),
                title=f"{n} players",
            )
            for name, n in turn.SCENARIO_SEATS.items()
        }
        tasks: dict[str, Callable[..., None]] = {"prepare": turn.task_prepare, "draft_pick": turn.task_draft_pick, "deal": turn.task_deal,
                 "player_turn": turn.task_player_turn}
        phases = {"set-up": "Set-up (2.0)", "draw": "A. Draw Action Cards", "map card": "B. Map Card",
                  "mandatory cards": "C. Mandatory Cards", "actions": "D. Action Phase"}
        return GameDefinition(scenarios=scenarios, tasks=tasks, reducers=REDUCERS, phases=phases)

    def options(self, scenario: str) -> Mapping[str, Any]:
        return {"data_override": None, "max_rounds": 60, "trading": False}

    @property
    def policies(self) -> Mapping[str, Callable[..., Policy]]:
        from medviz.rules.medieval_xiii.players import HeuristicPolicy

        return {"heuristic": HeuristicPolicy.from_spec}

    def observe(self, state: Any, seat: str) -> Any:
        """What ``seat`` sees (1.7, 2.1, 2.6): its own hand; of the others only how many cards they
        hold; the decks face down (only their size); only its own Spies notes. Florins are open
        (a ruling: 1.7 lets players hide them, the Example of Play counts them openly).

        A shallow view: the hidden fields are replaced, the rest is shared; policies only read it.
        """
        s: MedievalState = state
        view = object.__new__(MedievalState)  # copy.copy, without its generic __reduce_ex__ round trip
        view.__dict__.update(s.__dict__)
        view.hands = {k: (v if k == seat else [HIDDEN] * len(v)) for k, v in s.hands.items()}
        view.action_deck = [HIDDEN] * len(s.action_deck)
        view.map_deck = [HIDDEN] * len(s.map_deck)
        view.peeks = {k: v for k, v in s.peeks.items() if k == seat}
        view.seen_by = seat
        return view

    def decision_kinds(self) -> Mapping[str, str]:
        """Medieval's decision families in words (``decisions.Decision``)."""
        from medviz.rules.medieval_xiii.decisions import DECISION_WORDS

        return DECISION_WORDS

    def refusal(self, point: DecisionPoint, choice: Any) -> MedvizError:
        return IllegalAction(f"{point.decision}: {choice!r} is not allowed here; the legal options are "
                             f"{list(point.options)!r}", rule="3.1")

    def describe_for(self, state: Any, event: Event, seat: str) -> str:
        """What ``seat`` may read (1.7, 2.1, 2.6, 9.6): a deck's order stays face down, another seat's
        drawn card, what its Spies saw and its secret Militia bid (until the bids are revealed) stay
        hidden; everything played is open once it happens."""
        from medviz.rules.medieval_xiii.words import seat as seat_words

        if isinstance(event, ShuffleEvent):
            return f"{event.purpose or 'A deck is shuffled'}: {len(event.order)} cards, face down"
        if isinstance(event, ChangeEvent) and event.change in ("draw_card", "peek") and event.data.get("seat") != seat:
            verb = "draws a card" if event.change == "draw_card" else "learns something with Spies (8.1)"
            return f"{seat_words(event.data.get('seat'))} {verb}"
        if isinstance(event, DecisionEvent) and event.secret and event.actor != seat:
            return f"{seat_words(event.actor)} decides in secret: {(event.prompt or 'a bid').rstrip('?')}"
        return self.describe_in(state, event)

    def describe(self, event: Event) -> str:
        """The event in plain words, with the shipped data's names."""
        from medviz.rules.medieval_xiii.words import event_words

        return event_words(load_game_data(), event)

    def describe_in(self, state: Any, event: Event) -> str:
        """The event in plain words, with the names of the game's own data (an override file's too)."""
        from medviz.rules.medieval_xiii.words import event_words

        return event_words(state.data if isinstance(state, MedievalState) else load_game_data(), event)

    def describe_option(self, point: DecisionPoint, option: Any) -> str:
        """An option in words (the play table's buttons)."""
        from medviz.rules.medieval_xiii.words import option_words

        data = point.state.data if isinstance(point.state, MedievalState) else load_game_data()
        return option_words(data, option)

    # -- the map and the apps (view.py, portrayal.py) ----------------------------------------------
    def roll_tags(self, event: RollEvent | DrawEvent) -> frozenset[str]:
        """``decisive`` for the dice that settle a battle (9.6), a Mongol attack (5.2) or a Crusade (6.2)."""
        if isinstance(event, RollEvent) and event.roll.endswith(("/attacker", "/defender", "/mongols", "/map-card",
                                                                  "/crusade/infidels")):
            return _DECISIVE
        return frozenset()

    def seat_title(self, seat: str, scenario: str, state: Any = None) -> str:
        """``Player A (Venice, Latin Kingdom)``: a seat and the Powers in front of it now (4.3)."""
        if isinstance(state, MedievalState) and seat in state.front and state.powers_of(seat):
            return f"Player {seat} ({', '.join(state.data.powers[p].name for p in state.powers_of(seat))})"
        return f"Player {seat}"

    def view_at(self, history: Any, seq: int) -> Any:
        """The map view after event ``seq``, every card shown (view.history_view)."""
        from medviz.rules.medieval_xiii.view import history_view

        return history_view(history, seq)

    def live_view(self, state: Any, events: Sequence[Event], turn: int | None = None,
                  phase: str | None = None) -> Any:
        """The map view of ``state`` after ``events`` (an observed state shows only what its seat may see)."""
        from medviz.rules.medieval_xiii.view import state_view

        if not isinstance(state, MedievalState):
            return None
        return state_view(state, events, phase=phase)

    def map_name(self, view: Any) -> str:
        """Every view of Medieval is drawn on the Europe of the map cards (geodata ``medieval-xiii``)."""
        return view.map if isinstance(view, Portrayal) else "medieval-xiii"

    def portray(self, view: Any, places: Mapping[str, Place], shades: Shades) -> Portrayal:
        """A view of view.py as the map shows it (portrayal.py); a ``Portrayal`` as it is."""
        if isinstance(view, Portrayal):
            return view
        from medviz.rules.medieval_xiii.portrayal import portray

        return portray(view, places, shades)

    def compare_views(self, before: Any, after: Any) -> list[str]:
        """Provinces that end in other hands (4.2), map cards lost to the Mongols (5.3) and VP (12.0)."""
        ca, cb = before["control"], after["control"]
        moved = sorted(p for p in set(ca) | set(cb) if ca.get(p) != cb.get(p))
        names = after["provinces"]
        lines = ["Provinces that changed hands: " + ", ".join(
            f"{names[p]['name']} ({ca.get(p) or 'nobody'} → {cb.get(p) or 'nobody'})" for p in moved)
            if moved else "No province ends in other hands."]
        cards = sorted(c for c in after["cards"] if before["cards"].get(c) != after["cards"][c])
        if cards:
            lines.append("Map cards: " + ", ".join(f"{c} {before['cards'].get(c)} → {after['cards'][c]}" for c in cards))
        vp_a = {s: i["vp"] for s, i in before["seats"].items()}
        vp_b = {s: i["vp"] for s, i in after["seats"].items()}
        if vp_a != vp_b:
            lines.append(f"VP: {vp_a} → {vp_b}")
        return lines

    def scores(self, view: Any) -> list[tuple[str, str, Mapping[str, int]]]:
        """Victory points (12.0) and florins (1.7) by seat."""
        if not isinstance(view, Mapping) or "seats" not in view:
            return []
        return [("VP", "victory points (12.0)", {s: i["vp"] for s, i in view["seats"].items()}),
                ("Fl", "florins (1.7)", {s: i["florins"] for s, i in view["seats"].items()})]


    # -- medviz play medieval-xiii --players 3|4|5 -------------------------------------------------
    _BY_COUNT = {3: "three-players", 4: "four-players", 5: "five-players"}

    def play_arguments(self, scenario: str, parser: Any) -> None:
        """``--players 3|4|5`` picks the scenario; ``--player SEAT=POLICY`` and ``--option`` as for any game."""
        parser.add_argument("--players", type=int, choices=sorted(self._BY_COUNT),
                            help="how many players (default: as the scenario named; medieval-xiii alone: 3)")
        super().play_arguments(scenario, parser)

    def play_scenario(self, scenario: str, args: Any) -> str:
        n = getattr(args, "players", None)
        return self._BY_COUNT[n] if n else scenario

    def summary(self, history: Any) -> dict[str, Any]:
        """The outcome contract: winner (a seat or a list of tied seats), scores, reason; plus seed and players."""
        return {**summary(history), "scenario": history.scenario, "seed": history.seed,
                "players": {a: p.spec for a, p in sorted(history.spec.players.items())},
                "events": len(history.events)}

    def summary_lines(self, history: Any, info: Mapping[str, Any]) -> list[str]:
        winner = info["winner"]
        who = ", ".join(winner) + " (tied)" if isinstance(winner, list) else str(winner)
        scores = ", ".join(f"{seat} {n}" for seat, n in sorted(info["scores"].items(), key=lambda kv: -kv[1]))
        players = ", ".join(f"{seat}: {spec}" for seat, spec in info["players"].items())
        return [f"Medieval, {history.scenario}, seed {history.seed} ({players})",
                f"Winner: {who}", f"Scores (VP): {scores}", f"How it ended: {info['reason']}"]


_DECISIVE = frozenset({"decisive"})

RULESET = MedievalRuleset()


def summary(history: History) -> dict[str, Any]:
    """The result of a finished game: ``{"winner": seat or [seats], "scores": {seat: VP}, "reason": text}``."""
    out = history.outcome
    return {"winner": out["winner"], "scores": dict(out["scores"]), "reason": out["reason"]}
