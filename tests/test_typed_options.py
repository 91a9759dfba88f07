"""Typed options: a decision point declares its kind and offers structured options with their words.

A toy market game offers goods as frozen dataclasses (``Option``: a ``key`` the history records and
``words`` for people). Policies receive the typed goods and read their fields; rule code gets the
typed good back; a saved history holds only the keys and loads back identical; an illegal key is
refused in the options' words.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from medviz.engine import (
    DecisionPoint,
    History,
    IllegalAction,
    Option,
    Seat,
    Table,
    Task,
    option_key,
    option_words,
    play,
)
from medviz.engine.definition import DefinedRuleset, GameDefinition, ScenarioDefinition
from medviz.engine.events import DecisionEvent
from medviz.engine.game import Context, SecretAsk
from medviz.engine.policy import Policy, RandomPolicy
from medviz.engine.registry import register_ruleset, unregister_ruleset


@dataclass(frozen=True, slots=True)
class Good(Option):
    """One good on the market stall: its name and price."""

    name: str
    price: int

    @property
    def key(self) -> str:
        return self.name

    @property
    def words(self) -> str:
        return f"a {self.name} for {self.price} florins"


STALL = (Good("loaf", 2), Good("cheese", 5), Good("wine", 9))
KINDS = {"buy": "what to buy at the stall", "bid": "a sealed bid"}


def market(state: dict[str, Any], ctx: Context, n: int) -> None:
    """Buy one good (typed options), then a sealed bid (plain numbers) in the last round."""
    good = ctx.decide(f"market-{n}/buy", "P", list(STALL), prompt="Buy what?", kind="buy")
    assert isinstance(good, Good)  # rule code gets the typed option back, whoever chose it
    ctx.change("bought", actor="P", good=good.name, price=good.price)
    if n == 2:
        (bid,) = ctx.decide_secretly([SecretAsk(f"market-{n}/bid", "P", [0, 1, 2], "Bid", kind="bid")])
        ctx.change("bid", actor="P", n=bid)


def bought(state: dict[str, Any], event: Any) -> None:
    state["spent"] += event.data["price"]


class Market(DefinedRuleset):
    """A one-seat toy market."""

    game, title = "market-toy", "Market toy"

    def define(self) -> GameDefinition:
        two = ScenarioDefinition(
            "two", lambda options: ({"spent": 0}, [Task.of("market", n=n, checkpoint=True) for n in (1, 2)]),
            lambda s: {"winner": "P" if s["spent"] <= 10 else None, "reason": f"spent {s['spent']}"},
            (Seat("P", "Player"),))
        return GameDefinition(scenarios={"two": two}, tasks={"market": market},
                              reducers={"bought": bought, "bid": lambda s, e: None})

    def decision_kinds(self) -> Mapping[str, str]:
        return KINDS

    @property
    def policies(self) -> Mapping[str, Callable[..., Policy]]:
        return {"thrifty": Thrifty}


SEEN: list[DecisionPoint] = []


@dataclass
class Thrifty:
    """Buys the cheapest good, reading the typed fields (dispatching on the declared kind)."""

    spec: str = "thrifty"

    def choose(self, point: DecisionPoint) -> Any:
        SEEN.append(point)
        if point.kind == "buy":
            return min(point.options, key=lambda g: g.price)
        return point.options[-1]


RULESET = Market()


@pytest.fixture(autouse=True)
def _registered() -> Any:
    register_ruleset("market-toy", RULESET)
    SEEN.clear()
    yield
    unregister_ruleset("market-toy")


def test_a_policy_receives_typed_options_and_the_declared_kind() -> None:
    h = play(RULESET, "two", {}, seed=1, players={"P": Thrifty()})
    buys = [p for p in SEEN if p.kind == "buy"]
    assert [p.decision for p in buys] == ["market-1/buy", "market-2/buy"]
    assert all(p.options == STALL for p in buys)
    assert buys[0].keys == ("loaf", "cheese", "wine")
    assert [p.kind for p in SEEN] == ["buy", "buy", "bid"]
    assert h.outcome == {"winner": "P", "reason": "spent 4"}
    d = h.decisions()[0]
    assert (d.options, d.choice) == (("loaf", "cheese", "wine"), "loaf")  # the history records keys


def test_a_history_with_typed_options_saves_and_loads_back_identical(tmp_path: Any) -> None:
    h = play(RULESET, "two", {}, seed=3, players={"P": RandomPolicy(7)})
    text = h.to_json()
    saved = [e for e in json.loads(text)["events"] if e["kind"] == "decision"]
    assert saved[0]["options"] == ["loaf", "cheese", "wine"] and saved[0]["choice"] in ("loaf", "cheese", "wine")
    back = History.from_json(text)
    assert back.to_json() == text
    assert back.events == h.events
    assert back.outcome == h.outcome
    # a reloaded game asks a named policy again and still hands it typed options
    h2 = play(RULESET, "two", {}, seed=3, players={"P": Thrifty()})
    SEEN.clear()
    again = History.from_json(h2.to_json())
    assert again.to_json() == h2.to_json()
    assert SEEN and all(isinstance(o, Good) for p in SEEN if p.kind == "buy" for o in p.options)


def test_a_recorded_key_replays_as_the_typed_option() -> None:
    h = play(RULESET, "two", {}, seed=0, players={"P": Thrifty()},
             recorded={"market-1/buy": ("P", "wine"), "market-2/buy": ("P", "cheese")})
    assert [e.choice for e in h.decisions() if e.decision.endswith("/buy")] == ["wine", "cheese"]
    assert h.outcome["reason"] == "spent 14"
    assert [e.source for e in h.decisions() if e.decision.endswith("/buy")] == ["recorded", "recorded"]


def test_an_illegal_key_is_refused_in_the_options_words() -> None:
    t = Table(RULESET, "two", humans=("P",), players={})
    assert t.pending is not None and t.pending.kind == "buy"
    assert [RULESET.describe_option(t.pending, o) for o in t.pending.options] == [
        "a loaf for 2 florins", "a cheese for 5 florins", "a wine for 9 florins"]
    with pytest.raises(IllegalAction) as err:
        t.choose("caviar")
    assert "'caviar' is not one of the 3 legal options" in str(err.value)
    assert "a loaf for 2 florins; a cheese for 5 florins; a wine for 9 florins" in str(err.value)
    t.choose("cheese")                 # a key chooses
    t.choose(Good("wine", 9))          # so does the typed option itself
    assert t.choices == {"market-1/buy": "cheese", "market-2/buy": "wine"}
    t.choose(2)
    h = t.history
    assert [e.choice for e in h.events if isinstance(e, DecisionEvent)] == ["cheese", "wine", 2]


def test_an_undeclared_kind_is_refused() -> None:
    def bad(state: dict[str, Any], ctx: Context, n: int) -> None:
        ctx.decide("x", "P", list(STALL), kind="haggle")

    class Bad(Market):
        def define(self) -> GameDefinition:
            d = super().define()
            return GameDefinition(scenarios=d.scenarios, tasks={"market": bad}, reducers=d.reducers)

    with pytest.raises(RuntimeError, match="kind 'haggle' is not one of the ruleset's decision kinds"):
        play(Bad(), "two", {}, seed=0, players={"P": Thrifty()})


def test_option_key_and_words_of_plain_values() -> None:
    assert option_key("pass") == "pass" and option_words("pass") == "pass"
    assert option_key(Good("loaf", 2)) == "loaf" and option_words(Good("loaf", 2)) == "a loaf for 2 florins"
    assert option_words(3) == "3"


# -- Mediterranean Empires: the flagship declares its kinds and offers typed options ----------------
def test_mediterranean_empires_players_receive_kinds_and_typed_options() -> None:
    from dataclasses import field

    from medviz.rules.medempires.choices import DECISION_WORDS, Decision
    from medviz.rules.medempires.game.options import Action, ForcePick, Place
    from medviz.rules.medempires.game.players import Heuristic
    from medviz.rules.medempires.ruleset import RULESET as ME

    @dataclass(frozen=True)
    class Watch(Heuristic):
        seen: list[DecisionPoint] = field(default_factory=list, compare=False)

        def choose(self, point: DecisionPoint) -> Any:
            self.seen.append(point)
            return super().choose(point)

    a, b = Watch(), Watch()
    h = play(ME, "vespers-1282", {}, seed=2, players={"A": a, "B": b})
    seen = a.seen + b.seen
    assert seen and all(p.kind in DECISION_WORDS for p in seen)
    kinds = {p.kind for p in seen}
    assert {Decision.SETUP, Decision.FORCE, Decision.ACTION} <= kinds
    for p in seen:
        if p.kind == Decision.ACTION:
            assert all(isinstance(o, Action) for o in p.options)
        if p.kind == Decision.FORCE:
            assert all(o == "end phase" or isinstance(o, ForcePick) for o in p.options)
        if p.kind == Decision.SETUP:
            assert all(isinstance(o, Place) and o.power and o.counter for o in p.options)
    # the watcher chose as the plain heuristic does, and the history holds keys only
    plain = play(ME, "vespers-1282", {}, seed=2, players={"A": Heuristic(), "B": Heuristic()})
    assert h.to_json() == plain.to_json()
    back = History.from_json(h.to_json())
    assert back.to_json() == h.to_json()


def test_mediterranean_empires_refuses_an_illegal_key_with_words_and_the_rule() -> None:
    from medviz.rules.medempires.game.players import Heuristic
    from medviz.rules.medempires.ruleset import RULESET as ME

    t = Table(ME, "vespers-1282", seed=5, humans=("B",), players={"A": Heuristic()}, stand_in=Heuristic())
    p = t.pending
    assert p is not None and p.kind == "setup" and p.options[0].power == "aragon"
    with pytest.raises(IllegalAction) as err:
        t.choose("sicily_east")
    text = str(err.value)
    assert "'sicily_east' (" in text and "Sicily" in text.split("is refused")[0] and err.value.rule == "3.2"
    assert [ME.describe_option(p, o) for o in p.options] == [o.words for o in p.options]
