"""The portrayal seam: plain data from the rules, drawn generically by viz."""

from __future__ import annotations

import subprocess
import sys

import pytest

from medviz.engine.portrayal import AreaFill, Place, Portrayal, Shades, default_portrayal
from medviz.engine.registry import get_ruleset


def test_portrayals_are_frozen_plain_data() -> None:
    p = Portrayal(map="m", fills={"a": AreaFill("#ffffff")}, key=["one", "two"])  # type: ignore[arg-type]
    assert p.key == ("one", "two") and p.fills["a"].colour == "#ffffff"
    with pytest.raises(TypeError):
        p.fills["b"] = AreaFill("#000000")  # type: ignore[index]
    assert default_portrayal(p, "other") is p and default_portrayal({}, "other").map == "other"


def test_medempires_portrays_without_any_ui_library() -> None:
    code = ("import sys; from medviz.rules.medempires.view import setup_view; "
            "from medviz.engine.registry import get_ruleset; from medviz.engine.portrayal import Place, Shades; "
            "v = setup_view(); rs = get_ruleset('medempires'); "
            "places = {a: Place(0.0, 0.0, 'land', 1, a) for a in v['control']}; "
            "places.update({a: Place(0.0, 0.0, 'sea', 1, a) for a in v['units'] if a not in places}); "
            "p = rs.portray(v, places, Shades()); "
            "assert p.map == 'medempires' and p.fills and p.panel; "
            "assert not {'plotly', 'ipywidgets', 'geopandas'} & set(sys.modules)")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_combat_table_rolls_are_decisive_and_diplomacy_rolls_are_not() -> None:
    from medviz.engine.events import RollEvent

    rs = get_ruleset("medempires")

    def roll(rid: str) -> RollEvent:
        return RollEvent(seq=0, turn=1, phase="x", roll=rid, dice="1d6", faces=(3,), natural=3, value=3)

    assert rs.roll_tags(roll("GT1/ops-A/force-1/action-2/battle/combat-1/round-1/attacker")) == {"decisive"}
    assert rs.roll_tags(roll("battle-1/combat-1/round-2/attacker")) == {"decisive"}
    assert rs.roll_tags(roll("GT1/politics/round-1/B/attempt")) == frozenset()


def test_shades_follow_the_state_style() -> None:
    from medviz.viz.state_map import StateStyle

    assert StateStyle(neutral_tint=0.3).shades == Shades(faint=0.3)
    assert Place(1.0, 2.0, "land", 1, "x").kind == "land"
