"""Mediterranean Empires words and refuses options by their typed fields (issue 11, typed options).

A history records each option's key; ``options.typed_option`` reads a key back as its typed option
through the declared ``KEY_FORMS`` and nothing else takes a key string apart: every option the rule
code offers in whole games reads back to itself, words the same typed or recorded, and the
interception's "only P" options are typed.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from medviz.engine import Option, RandomPolicy, play
from medviz.engine.policy import DecisionPoint
from medviz.rules.medempires.choices import BattleUnit, Decision
from medviz.rules.medempires.game import options
from medviz.rules.medempires.game.options import OnlyPower, describe_choice, typed_option
from medviz.rules.medempires.ruleset import RULESET

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Watching:
    """A random player that keeps every decision point it is shown."""

    inner: RandomPolicy
    seen: list[DecisionPoint] = field(default_factory=list)

    @property
    def spec(self) -> str:
        return self.inner.spec

    def choose(self, point: DecisionPoint) -> Any:
        self.seen.append(point)
        return self.inner.choose(point)


@pytest.fixture(scope="module")
def offered() -> list[tuple[DecisionPoint, Any]]:
    out: list[tuple[DecisionPoint, Any]] = []
    for seed in (1, 4):
        a, b = Watching(RandomPolicy(seed)), Watching(RandomPolicy(seed + 10))
        play(RULESET, "vespers-1282", {"mercenaries": True, "territorial_concessions": True}, seed=seed,
             players={"A": a, "B": b})
        out += [(p, o) for w in (a, b) for p in w.seen for o in p.options]
    return out


def test_every_offered_option_reads_back_from_its_key(offered: list[tuple[DecisionPoint, Any]]) -> None:
    kinds: set[type] = set()
    for point, option in offered:
        key = option.key if isinstance(option, Option) else option
        back = typed_option(key)
        assert (back.key if isinstance(back, Option) else back) == key, (point.decision, option)
        if isinstance(option, options.UnitIn):  # read back as the force of that one unit: same key, same words
            assert back == options.ForcePick(option.area, option.power, option.code)
        elif isinstance(option, Option) and not isinstance(option, options.Place):  # a place's key is its area alone
            assert back == option, (point.decision, option, back)
            kinds.add(type(option))
        pair = point.state.data_pair
        assert describe_choice(key, pair) == describe_choice(option, pair) == RULESET.describe_option(point, option)
    assert {options.ForcePick, options.Action, options.Attempt, options.Purchase, BattleUnit} <= kinds, kinds


def test_only_one_powers_interception_is_a_typed_option() -> None:
    assert typed_option("only aragon") == OnlyPower("aragon")
    assert describe_choice(OnlyPower("sicily")) == describe_choice("only sicily") == "only Kingdom of Sicily"
    assert typed_option("only") == "only" and typed_option("end phase") == "end phase"  # plain words stay plain
    source = (ROOT / "medviz/rules/medempires/game/operations.py").read_text(encoding="utf-8")
    assert "OnlyPower(p) for p in powers" in source and '"only ' not in source


@pytest.mark.parametrize("module", ["options.py", "describe.py", "legality.py"])
def test_no_wording_or_refusal_code_takes_a_key_apart(module: str) -> None:
    # the typed fields word and refuse options; string methods that cut text apart appear nowhere
    # in these modules' functions except on names and verbs (never on an option's key)
    tree = ast.parse((ROOT / "medviz/rules/medempires/game" / module).read_text(encoding="utf-8"))
    cuts = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            and n.func.attr in ("split", "partition", "rpartition", "rsplit")]
    allowed = {"describe.py": 3, "options.py": 0, "legality.py": 0}  # power names cut at " (", phase ids, reasons
    assert len(cuts) <= allowed[module], [ast.unparse(c) for c in cuts]


def test_an_illegal_typed_key_is_refused_by_its_fields() -> None:
    from medviz.rules.medempires.game.legality import why_illegal

    point = DecisionPoint("GT1/politics/A/attempt-1", "A", ("pass",), None, kind=Decision.ATTEMPT)
    assert why_illegal(None, point, "vassalage:aragon") == ("not a legal political choice", "7.0")
    point = DecisionPoint("GT1/ops/A/force-1", "A", ("end phase",), None, kind=Decision.FORCE)
    assert why_illegal(None, point, "urgell|aragon|FA")[1] == "10.0"
