"""The tutorial notebooks' widgets (medviz.apps.odds_chart) and the notebooks' agreement with their generator."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import nbformat
import pytest

from helpers_sample import load_tool

from medviz.apps import DiceLab, ReplayViewer
from medviz.apps.common import battle_table
from medviz.apps.odds_chart import (
    OddsExplorer,
    Quiz,
    distribution_figure,
    parse_probability,
    percent,
    side_by_side_figure,
)
from medviz.engine import FirstOptionPolicy, play
from medviz.engine.errors import IllegalAction
from medviz.viz.state_map import DEFAULT_STATE_STYLE
from medviz.rules.variant_middle_sea.ruleset import RULESET as VMS

ROOT = Path(__file__).resolve().parent.parent


def test_distribution_figure_labels_each_bar_and_hovers_the_exact_fraction() -> None:
    fig = distribution_figure({"win": Fraction(1, 3), "lose": Fraction(2, 3)}, title="t", colors=lambda k: "#000000")
    bar = fig.data[0]
    assert list(bar.x) == ["win", "lose"] and list(bar.y) == pytest.approx([1 / 3, 2 / 3])
    assert list(bar.text) == ["33.3%", "66.7%"] and "1/3" in bar.hovertext[0]
    assert list(bar.marker.color) == ["#000000", "#000000"]


def test_side_by_side_stacks_one_row_per_system_and_keeps_near_certainties_below_100() -> None:
    fig = side_by_side_figure({"A": {"win": Fraction(997, 1000), "lose": Fraction(3, 1000)},
                               "B": {"win": Fraction(1, 2), "draw": Fraction(1, 2)}}, colors={"win": "#c8102e"})
    assert fig.layout.barmode == "stack" and [t.name for t in fig.data] == ["win", "lose", "draw"]
    win = fig.data[0]
    assert list(win.y) == ["B", "A"] and list(win.text) == ["50%", "99.7%"] and win.marker.color == "#c8102e"
    assert list(fig.data[1].text) == ["", ""]  # thin segments carry no label


@pytest.mark.parametrize(("text", "value"), [("1/3", Fraction(1, 3)), (" 0.25 ", Fraction(1, 4)),
                                             ("12.5%", Fraction(1, 8)), ("1", Fraction(1))])
def test_parse_probability_reads_fractions_decimals_and_percentages(text: str, value: Fraction) -> None:
    assert parse_probability(text) == value


@pytest.mark.parametrize("text", ["", "one third", "1/0", "%"])
def test_parse_probability_refuses_what_is_not_a_number(text: str) -> None:
    with pytest.raises((ValueError, ZeroDivisionError, ArithmeticError)):
        parse_probability(text)


def test_quiz_accepts_answers_within_its_tolerance_and_says_why() -> None:
    quiz = Quiz("q", Fraction(1, 3), explain="because")
    assert quiz.is_right("33.3%") and quiz.is_right("0.3333") and not quiz.is_right("0.3")
    assert quiz.is_right("a third") is None and not quiz.check("a third") and "Write a fraction" in quiz.feedback.value
    assert quiz.check("1/3") and "1/3" in quiz.feedback.value and "because" in quiz.feedback.value
    assert not quiz.check("1/2") and "try again" in quiz.feedback.value
    quiz.box.value = "1/3"  # pressing Enter (or leaving the box) checks the answer
    assert "Right" in quiz.feedback.value
    quiz.feedback.value = ""
    quiz.button.click()
    assert "Right" in quiz.feedback.value
    assert Quiz("n", Fraction(6, 5), unit="number").check("1.2")


def _explorer() -> OddsExplorer:
    def compute(n: int, legal: bool) -> dict[str, Fraction]:
        if not legal:
            raise IllegalAction("no such battle", "1.0")
        return {"a": Fraction(1, n + 1), "b": 1 - Fraction(1, n + 1)}

    return OddsExplorer({"n": widgets.IntSlider(1, 1, 5), "legal": widgets.Checkbox(True)}, compute,
                        describe=lambda n, legal: f"n={n}")


def test_explorer_redraws_when_a_control_changes() -> None:
    ex = _explorer()
    assert ex.current == {"a": Fraction(1, 2), "b": Fraction(1, 2)}
    ex.controls["n"].value = 3
    assert ex.current["a"] == Fraction(1, 4) and tuple(ex.figure.data[0].y) == (0.25, 0.75)
    assert ex.figure.layout.title.text == "n=3"
    assert ex.set(n=4)["a"] == Fraction(1, 5) and ex.values() == {"n": 4, "legal": True}


def test_explorer_shows_a_refusal_in_words_and_keeps_the_last_chart() -> None:
    ex = _explorer()
    ex.controls["legal"].value = False
    assert "no such battle" in ex.message.value and ex.current["a"] == Fraction(1, 2)
    ex.controls["legal"].value = True
    assert ex.message.value == ""


def test_the_apps_show_a_variant_middle_sea_battle() -> None:
    players: dict[str, Any] = {"attacker": FirstOptionPolicy(), "defender": FirstOptionPolicy()}
    h = play(VMS, "battle", {"attacker": "4INF@x,2CAV", "defender": "5INF+fort", "rounds": "all"}, seed=4,
             players=players)
    table = battle_table(h)
    assert "g1-INF 0/4" in table and "g2-CAV 0/2" in table and "g1-INF 1/5" in table
    ReplayViewer(h)
    DiceLab(h)


def _generator() -> Any:
    return load_tool("make_tutorial_notebooks")


def test_committed_notebooks_are_what_the_generator_writes_with_outputs_stripped() -> None:
    gen = _generator()
    assert set(gen.NOTEBOOKS) == {"tutorial-variant-middle-sea", "tutorial-empires-revolt",
                                  "tutorial-empires-middle-ages", "five-ways-to-fight"}
    for name, (_prefix, cells) in gen.NOTEBOOKS.items():
        nb = nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", as_version=4)
        assert [c.source for c in nb.cells] == [c.source for c in cells()], f"{name}: run tools/make_tutorial_notebooks.py"
        assert all(not c.get("outputs") and not c.get("execution_count") for c in nb.cells if c.cell_type == "code")
        assert (ROOT / "notebooks" / f"{name}.ipynb").stat().st_size < 40_000


def test_percent_rounds_to_the_digits_asked() -> None:
    assert percent(Fraction(2, 3)) == "66.7%" and percent(0.5, 0) == "50%"


def _notebook_map(name: str, marker: str) -> Any:
    """The figure a notebook's map cell shows: the cells it needs run here (the game's, then the map's), the
    last line of the map's cell evaluated as the notebook displays it."""
    nb = nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", as_version=4)
    ns: dict[str, Any] = {}
    exec("from medviz.engine import play, diff\nfrom medviz.rules.empires_revolt.ruleset import RULESET", ns)
    cells = [c.source for c in nb.cells if c.cell_type == "code"]
    game = next(s for s in cells if "game = play(" in s)
    shown = next(s for s in cells if marker in s)
    exec(game, ns)
    *body, last = shown.strip().split("\n")
    exec("\n".join(body), ns)
    return eval(last.split("  #")[0], ns)


def test_the_empires_revolt_map_has_no_mode_bar_and_no_blank_band_under_it() -> None:
    """Its Mediterranean is wide: at 1100 x 660 the map took 402 px and left a blank band 140 px tall under the
    key; plotly's mode bar sat over the title's end. The notebook's figure is only as tall as the map, the key
    and the side panel need, and shows without a mode bar."""
    import plotly.io as pio

    from medviz.viz.placement import frame_of_figure
    from medviz.viz.state_map import LEGEND_ROW_PX, MapFigure, panel_tops_px, shown_portrayal

    fig = _notebook_map("tutorial-empires-revolt", "state_map(view")
    data = fig.to_plotly_json()
    layout = data["layout"]
    height, top, bottom = layout["height"], layout["margin"]["t"], layout["margin"]["b"]
    map_px = frame_of_figure(data).size_px[1]
    plot = height - top - bottom
    key = next(a for a in layout["annotations"] if a.get("name") == "panel-key")
    key_bottom = top + (1 - key["y"]) * plot + (key["text"].count("<br>") + 1) * key["font"]["size"] * 1.35
    assert key_bottom <= height - bottom + 2, "the key under the map runs off the figure"
    assert height - key_bottom < 24, f"a blank band {height - key_bottom:.0f} px tall under the map's key"
    assert layout["yaxis"]["domain"][1] == 1 and abs(plot * (1 - layout["yaxis"]["domain"][0]) - map_px) < 2
    p = shown_portrayal(fig)
    assert p is not None and layout["showlegend"] is True
    assert panel_tops_px(DEFAULT_STATE_STYLE, p)["legend"] + (len(p.legend) + 1) * LEGEND_ROW_PX <= plot  # legend whole
    assert isinstance(fig, MapFigure)
    before = pio.renderers.default
    pio.renderers.default = "plotly_mimetype"
    try:
        bundle = fig._repr_mimebundle_()
    finally:
        pio.renderers.default = before
    assert bundle["application/vnd.plotly.v1+json"]["config"]["displayModeBar"] is False
